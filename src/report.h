/* Events of a run, as lines on stderr. */
#ifndef RETRY_REPORT_H
#define RETRY_REPORT_H

#include <stdint.h>

#include "options.h"
#include "spawn.h"
#include "verdict.h"

enum event { EV_START, EV_FAILED, EV_SUCCEEDED, EV_GIVE_UP, EV_STOP };

enum give_up { GIVE_UP_MAX, GIVE_UP_BUDGET, GIVE_UP_DURATION };

struct report {
	enum event	 event;
	unsigned long	 attempt;
	const struct attempt_result *result;
	int64_t		 duration;	/* of the attempt, ns */
	int64_t		 elapsed;	/* since retry started, ns */
	int64_t		 delay;		/* the next delay, ns */
	enum reason	 reason;	/* EV_STOP */
	enum give_up	 give_up;	/* EV_GIVE_UP */
};

void	report(const struct config *, const struct report *);
/* retry's own errors: always shown, with the label. */
void	report_error(const struct config *, const char *, ...)
	    __attribute__((format(printf, 2, 3)));

#endif
