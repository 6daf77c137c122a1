/* The two clocks (clock.h). */
#include <time.h>

#include "clock.h"

static int64_t
ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (int64_t)ts.tv_sec * NS_PER_SEC + ts.tv_nsec;
}

int64_t
mono_ns(void)
{
	return ns(CLOCK_MONOTONIC);
}

int64_t
wall_ns(void)
{
	return ns(CLOCK_REALTIME);
}

int64_t
earliest(int64_t a, int64_t b)
{
	if (a < 0)
		return b;
	if (b < 0)
		return a;
	return a < b ? a : b;
}
