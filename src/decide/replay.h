/*
 * show-backoff-delays and --dry-run replayed: the engine driven through the
 * run policy, as retry drives it, by show-backoff-delays' STATUS entries or
 * by a run in which every attempt fails, instead of by real attempts; and
 * --samples, runs in step with statistics over them.  Pure: show.c prints
 * and draws what it gives.
 */
#ifndef RETRY_REPLAY_H
#define RETRY_REPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "engine.h"
#include "entry.h"
#include "policy.h"
#include "rng.h"

/* One event of a replay and the delay that the policy gave for it. */
struct step {
	unsigned long	 n;		/* 1-based */
	struct entry	 st;
	struct delay	 d;		/* d.ns < 0: gives up, for d.why */
	const struct codes_limit *limit;	/* GIVE_UP_LIMIT: which */
};

/* A replay in progress. */
struct replay {
	const struct config *c;
	struct limits	 l;
	struct policy	 pol;
	bool		 statuses;	/* replays STATUS, else all-failing */
	unsigned long	 limit;		/* steps at most */
	unsigned long	 done;
	double		 prev;		/* the previous entry's time, s */
	int64_t		 at;		/* all-failing: the next failure, ns */
	bool		 over;
};

/*
 * A replay of c: show-backoff-delays' STATUS arguments where it has some,
 * which the options checked, and a success does not end it (STATUS goes on
 * after one), unless --successes makes it the run that retry makes, which
 * ends there; else a run of --count attempts at most in which each fails
 * at once, when the previous delay ends, and that ends where the strategy
 * gives up.
 */
void		 replay_start(struct replay *, const struct config *,
		    struct rng *);
/* The next step of the run into the step; false when it is over. */
bool		 replay_step(struct replay *, struct step *);

/* One step of --samples: statistics over the runs that go on. */
struct stats {
	unsigned long	 n;
	unsigned long	 runs;		/* runs whose delay is not -1 */
	double		 min, median, p90, max;	/* -1 when runs is 0 */
};

/* Min, median, p90 (nearest rank) and max of v[0..n-1], n > 0, and n as
 * the runs; sorts v. */
void		 stats_compute(double *v, size_t n, struct stats *);

/*
 * --samples: c->samples runs of c that go in step, so that memory grows
 * with the number of runs, not with the number of steps.  They draw from
 * one generator in turn, so a seed gives the same statistics every time.
 */
struct sampler {
	struct replay	*runs;
	size_t		 nruns;
	double		*v;		/* this step's delays */
};

/* NULL, or why not; sampler_free frees what it took either way. */
const char	*sampler_start(struct sampler *, const struct config *,
		    struct rng *);
/* One step of every run; false when none of them has a step left. */
bool		 sampler_step(struct sampler *, struct stats *);
void		 sampler_free(struct sampler *);

#endif
