/*
 * --hedge DUR[:N]: when an attempt has run DUR without ending, the next
 * starts beside it, up to N in flight; the first to succeed ends the run.
 * What the option says, and when the next hedge may start.  Pure: no
 * clock (times are passed in), no I/O, and it never exits.
 */
#ifndef RETRY_HEDGING_H
#define RETRY_HEDGING_H

#include <stdbool.h>
#include <stdint.h>

#define HEDGE_N		2	/* attempts in flight, by default */
#define HEDGE_N_MAX	16	/* at most */

#define HEDGE_LOAD	0.05	/* auto's extra attempts, by default */

struct hedge {
	int64_t		 delay;		/* ns; 0: no hedging */
	unsigned	 n;		/* attempts in flight, at most */
	double		 load;		/* auto[:LOAD]: the share of extra
					 * attempts, 0 to 1; 0: DUR */
};

/* Why a hedge does not start. */
enum hedge_bar {
	HEDGE_GO,	/* it starts */
	HEDGE_FULL,	/* N are in flight */
	HEDGE_NOT_YET,	/* DUR has not passed since */
	HEDGE_MAX,	/* --max attempts are made */
	HEDGE_BUDGET,	/* it would start past --budget, or at --deadline */
};

/* DUR, DUR:N, auto or auto:LOAD% (from 0.01% to 50%) into h: NULL, or
 * why arg is wrong. */
const char	*hedge_parse(const char *arg, struct hedge *h);
/*
 * Whether the next attempt starts as a hedge at now (ns since the run
 * started): inflight attempts run; since: the youngest's start, or the
 * end of an attempt that failed beside it since, if later; made
 * attempts were made, max_attempts the most (0: no limit); budget and
 * deadline, ns or -1 (none starts past the one, nor at the other).
 */
enum hedge_bar	 hedge_next(const struct hedge *h, unsigned inflight,
		    int64_t since, unsigned long made,
		    unsigned long max_attempts, int64_t budget,
		    int64_t deadline, int64_t now);
/* When the next hedge is due (ns since the run started), DUR after since,
 * or -1 for none while inflight attempts run. */
int64_t		 hedge_due(const struct hedge *h, unsigned inflight,
		    int64_t since);

#endif
