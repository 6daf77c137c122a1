/*
 * retry simulate: the contention model of the AWS Architecture Blog's
 * "Exponential Backoff And Jitter".  N clients each make one optimistic-
 * concurrency write to one shared row, backing off with the engine after
 * every stale write.  The simulation is pure; simulate_main prints.
 */
#ifndef RETRY_SIMULATE_H
#define RETRY_SIMULATE_H

#include <stddef.h>
#include <stdint.h>

#include "duration.h"
#include "engine.h"
#include "options.h"
#include "rng.h"


/* The means over the runs of one strategy at one number of clients. */
struct sim_result {
	unsigned long	 clients;
	unsigned long	 runs;
	double		 time;		/* ns until the last client is done */
	double		 calls;		/* write calls, all clients together */
	double		 gave_up;	/* clients whose engine gave up */
};

/* Runs the model; the same seed gives the same result.  NULL or why not. */
const char	*simulate(const struct backoff *, unsigned long clients,
		    unsigned long runs, uint64_t seed, struct sim_result *);

/* The subcommand: simulates and prints; returns an exit status. */
int		 simulate_main(const struct config *, struct rng *);

#endif
