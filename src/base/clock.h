/* The two clocks, in nanoseconds: CLOCK_MONOTONIC for every deadline and
 * delay, CLOCK_REALTIME for what is shared with other processes and
 * machines. */
#ifndef RETRY_CLOCK_H
#define RETRY_CLOCK_H

#include <stdint.h>

#define NS_PER_US	INT64_C(1000)
#define NS_PER_MS	INT64_C(1000000)
#define NS_PER_SEC	INT64_C(1000000000)

int64_t		 mono_ns(void);
int64_t		 wall_ns(void);
/* The earlier of two times of a clock, -1 meaning none. */
int64_t		 earliest(int64_t, int64_t);

#endif
