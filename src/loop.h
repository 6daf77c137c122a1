/* The retry loop: attempt, verdict, delay, budget, sleep. */
#ifndef RETRY_LOOP_H
#define RETRY_LOOP_H

#include "options.h"
#include "rng.h"

/* Runs the command until success, a stop, or giving up; returns the exit
 * status, or dies of the signal that ended it. */
int	loop_run(const struct config *, struct rng *);

#endif
