/*
 * retry simulate's model of a learned hedge (--hedge auto:LOAD): runs one
 * after another, each attempt's latency drawn from a --latency LIST, the
 * list of --latency-after from the middle run on.  Each run keeps its
 * first attempt's time in a latency sketch (sketch.h, by its store's
 * rule: parse, add, text): how long it took, or, when a hedge's success
 * ended it, the hedge's delay, which it ran past.  Once the sketch holds
 * LEARN_SAMPLES, a run hedges at the bound of its (1 - LOAD) quantile, if
 * a token bucket lets it: each run adds LOAD tokens, up to LOAD x
 * LEARN_WINDOW (at least 1), and a hedge takes one, so that in the long
 * run no more than LOAD extra attempts start a run, and a burst spends at
 * most a full bucket beyond that, as Finagle's BackupRequestFilter holds
 * them.
 *
 * Beside it, on the same draws: no hedge, and the best fixed hedge in
 * hindsight, the delay among the lists' latencies with the least 99th
 * percentile whose extra attempts are at most LOAD.  Pure.
 */
#ifndef RETRY_LEARNMODEL_H
#define RETRY_LEARNMODEL_H

#include <stdint.h>

#include "hedgemodel.h"
#include "simlists.h"

/* Runs one after another, unless --runs says. */
#define LEARN_RUNS	2000
/* Runs before the sketch's delay is used. */
#define LEARN_SAMPLES	20
/* The token bucket's window, in runs. */
#define LEARN_WINDOW	100
/* A learned delay has followed a shift once within this share of the new
 * percentile. */
#define LEARN_CLOSE	0.2

enum learn_kind { LEARN_NONE, LEARN_FIXED, LEARN_AUTO, LEARN_COUNT };

struct learn_result {
	struct tail_result way[LEARN_COUNT];
	int64_t		 fixed;		/* the best fixed delay */
	int64_t		 before;	/* the learned delay at the shift */
	int64_t		 after;		/* and at the end */
	int64_t		 target;	/* the (1 - LOAD) quantile after it */
	long		 settled;	/* runs after the shift until the
					 * delay came within LEARN_CLOSE of
					 * target; -1: never */
};

/* runs runs (2 or more) of before, then after (n 0: no shift), hedged
 * with load (0 to 1) as the budget's share; NULL or why not. */
const char	*learn_model(const struct latency *before,
		    const struct latency *after, double load,
		    unsigned long runs, uint64_t seed, struct learn_result *);

#endif
