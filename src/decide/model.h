/*
 * retry simulate's two models, each on retry's own rules: the run policy
 * and the engine, and the shared state's budget and breaker.  Pure: they
 * take a seed and give means over runs; the same seed gives the same
 * means.
 *
 * The contention model of the AWS Architecture Blog's "Exponential Backoff
 * And Jitter": N clients each make one optimistic-concurrency write to one
 * shared row, backing off after every stale write.
 *
 * The load model of Marc Brooker's "Fixing retries with token buckets and
 * circuit breakers": clients send first tries to a server that fails each
 * call with probability p, and retry them at once: never, always, under
 * one shared retry budget, or behind one shared circuit breaker.
 */
#ifndef RETRY_MODEL_H
#define RETRY_MODEL_H

#include <stdint.h>

#include "duration.h"
#include "engine.h"
#include "share.h"

/* The blog's back-off, base 5ms and cap 2s, where no option says
 * otherwise. */
#define SIM_BASE	(5 * NS_PER_MS)
#define SIM_CAP		(2 * NS_PER_SEC)

/*
 * The blog's exponential back-off waits min(cap, SIM_BASE x F^n) after the
 * n-th failure, 2 x SIM_BASE first with F = 2: retry's --exp of
 * SIM_BASE x F, whose first delay is its DUR.  That DUR.
 */
int64_t		 sim_exp_base(double factor);
/* The blog's model wherever no option says otherwise: its exponential
 * back-off (unless a strategy was given: strategy), its cap (max_delay),
 * no limit on attempts (max). */
void		 sim_defaults(struct backoff *, bool strategy, bool max_delay,
		    bool max);

/* The contention model: the means over the runs of one strategy at one
 * number of clients. */
struct contention_result {
	unsigned long	 clients;
	unsigned long	 runs;
	double		 time;		/* ns until the last client is done */
	double		 calls;		/* write calls, all clients together */
	double		 gave_up;	/* clients whose engine gave up */
};

/* Runs the contention model: NULL, or why not (no clients, more than
 * CLIENTS_MAX, no runs, out of memory). */
const char	*simulate_contention(const struct backoff *,
		    unsigned long clients, unsigned long runs, uint64_t seed,
		    struct contention_result *);
/* The same, calling tick(arg, calls) after each run with the write calls
 * it made (the measure of its work), when tick is not NULL. */
typedef void	 contention_tick(void *arg, uint64_t calls);
const char	*simulate_contention_ticked(const struct backoff *,
		    unsigned long clients, unsigned long runs, uint64_t seed,
		    struct contention_result *, contention_tick *tick,
		    void *arg);

/* The load model's ways of retrying; a try is retried LOAD_RETRIES times
 * at most. */
#define LOAD_RETRIES	3
enum load_kind { L_NONE, L_RETRIES, L_BUDGET, L_BREAKER, L_COUNT };

/* Per first try: the chance that it succeeds, and the calls it cost. */
struct load_result {
	double		 success;	/* first tries that succeeded */
	double		 load;		/* calls per first try */
};

/*
 * Runs the load model at failure probability p into out[k] for each kind
 * k: NULL, or why not.  The budget is given's --share-budget (N and R) and
 * the breaker given's --share-breaker, or 20 failures for 1s where it has
 * none; neither waits, a try it refuses fails.
 */
const char	*simulate_load(const struct share_rules *given, double p,
		    unsigned long clients, unsigned long runs, uint64_t seed,
		    struct load_result out[L_COUNT]);

/*
 * What L_NONE and L_RETRIES come to in closed form, with N retries (0 or
 * LOAD_RETRIES): a first try succeeds with 1 - p^(N+1), and costs the sum
 * of p^k for k from 0 to N calls.  The shared kinds have none: L_RETRIES's.
 */
struct load_result load_closed_form(enum load_kind, double p);

#endif
