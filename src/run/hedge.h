/*
 * --hedge: an attempt and the attempts started beside it, each in its own
 * process group, its stdout and stderr held in memory, waited for in the
 * one wait.  The first to succeed wins: the others are stopped as
 * --timeout stops one (--signal, then KILL after --kill-after), reaped,
 * and said to be cancelled; one that fails while others run is said and
 * counted; the one that decides the round (the winner, a stop, or the
 * last to fail) is handed back for the loop to judge, its output passed
 * on as soon as it has ended, while the others are still being stopped.
 * While a round runs, Ctrl-Z stops them all with retry.
 */
#ifndef RETRY_HEDGE_H
#define RETRY_HEDGE_H

#include <stddef.h>
#include <stdint.h>

#include "attempt.h"
#include "config.h"
#include "policy.h"
#include "report.h"
#include "shared.h"
#include "spawn.h"
#include "streams.h"

struct hedge_run {
	const struct config *c;
	const struct reporter *rep;
	struct policy	*pol;		/* its next attempt is the round's
					 * first */
	struct shared	*sh;		/* --share's state, or NULL */
	struct streams	*st;		/* stdin replayed or /dev/null */
	const struct attempt_opts *ao;
	int64_t		 t0;		/* the run's start */
	unsigned long	*made;		/* attempts made, the first counted */
	unsigned long	*failures;	/* those that failed */
	bool		 probing;	/* the first probes the shared breaker:
					 * it runs alone */
	/* The attempt that decided the round: its number and start (ns
	 * since t0). */
	unsigned long	 n;
	int64_t		 start;
	char		 err[256];	/* why the first could not start */
};

/* Runs the round that starts with attempt pol->n; the deciding attempt's
 * end in r.  -1 when the first could not be started (err says why). */
int	 hedge_attempt(struct hedge_run *, struct attempt_result *r);

#endif
