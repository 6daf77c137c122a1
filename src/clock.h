/* The two clocks, in nanoseconds: CLOCK_MONOTONIC for every deadline and
 * delay, CLOCK_REALTIME for what is shared with other processes and
 * machines. */
#ifndef RETRY_CLOCK_H
#define RETRY_CLOCK_H

#include <stdint.h>

int64_t		 mono_ns(void);
int64_t		 wall_ns(void);

#endif
