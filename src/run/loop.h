/* The retry loop: the edge that runs attempts, asks the policy what
 * next, reports, and sleeps. */
#ifndef RETRY_LOOP_H
#define RETRY_LOOP_H

#include <stdbool.h>

#include "config.h"
#include "report.h"
#include "rng.h"

/* Runs the command until success, a stop, or giving up; returns the exit
 * status, or dies of the signal that ended it.  closed: which of fds 0-2
 * retry was started without (the command gets them closed too). */
int	loop_run(const struct config *, const struct reporter *, struct rng *,
	    const bool closed[3]);

#endif
