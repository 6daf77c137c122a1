/* What an attempt's end means: success, retry or stop. Pure. */
#ifndef RETRY_VERDICT_H
#define RETRY_VERDICT_H

#include "codes.h"

enum verdict { V_SUCCESS, V_RETRY, V_STOP };

enum reason {
	WHY_NONE,
	WHY_STOP_ON,		/* the status is a --stop-on status */
	WHY_INTERRUPTED,	/* death by SIGINT or SIGQUIT */
	WHY_NOT_RETRY_ON,	/* a failure that --retry-on does not cover */
};

struct rules {
	const struct codes *success_on, *retry_on, *stop_on;
};

struct outcome {
	enum verdict	 verdict;
	enum reason	 reason;
};

/* status: the exit code, 128 + N for death by signal N, 124 for a timeout;
 * signal: N for a death by signal N, else 0. */
struct outcome	 verdict(const struct rules *, int status, int signal);

#endif
