/*
 * The hooks, --on-retry, --on-giveup and --on-success: sh -c CMD, its
 * stdin /dev/null and its stdout retry's stderr, under the same --timeout,
 * --signal and --kill-after as an attempt, with RETRY_STATUS and
 * RETRY_DELAY_MS set.
 * A hook's failure is reported and changes nothing else; a hook that
 * cannot be set up so is not run.
 */
#ifndef RETRY_HOOKS_H
#define RETRY_HOOKS_H

#include <stdbool.h>
#include <stdint.h>

#include "config.h"
#include "policy.h"
#include "report.h"
#include "spawn.h"

struct hooks {
	const struct reporter *rep;
	int		 signal;	/* --signal: sent on --timeout */
	int64_t		 timeout;	/* --timeout, ns, or -1 */
	int64_t		 deadline;	/* --deadline, on the monotonic clock,
					 * or -1 */
	int64_t		 kill_after;	/* --kill-after, ns */
	bool		 no_stderr;	/* retry was started without fd 2: so
					 * is a hook */
};

/* As an attempt is: --signal, l's --timeout and --deadline (from t0, the
 * run's start on the monotonic clock) and --kill-after (ns); closed: which
 * of fds 0-2 retry was started without. */
void	hooks_init(struct hooks *, int sig, const struct limits *l, int64_t t0,
	    int64_t kill_after, const struct reporter *, const bool closed[3]);
/* Runs cmds (none, one, or more in order until one fails, as sh's &&),
 * the hooks that option names, after attempt last
 * (NULL before the first) and before a delay of delay ns (-1: none);
 * returns a signal that ends the run and came while it ran, or 0.  A hook
 * before a delay (--on-retry) is inside the run, and stopped at its
 * --deadline as an attempt is; one after the run's end is not. */
int	hook_run(const struct hooks *, const char *option,
	    const struct texts *cmds, const struct attempt_result *last,
	    int64_t delay);

#endif
