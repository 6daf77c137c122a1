/* The back-off engine: strategies, limits and jitter. Pure: it knows no
 * clock (times are passed in, in seconds) and draws randomness from the
 * generator it is given. */
#ifndef RETRY_ENGINE_H
#define RETRY_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "duration.h"
#include "rng.h"

enum strategy {
	STRAT_EXP, STRAT_FIXED, STRAT_LINEAR, STRAT_FIB, STRAT_LIST, STRAT_DECORRELATED, STRAT_IMMEDIATE,
	STRAT_DECORRELATED_V2,	/* Polly's DecorrelatedJitterBackoffV2 */
	/* Algorithm::Backoff's, computed in seconds as Perl does. */
	ALGO_CONSTANT, ALGO_EXPONENTIAL, ALGO_FIBONACCI, ALGO_LILD, ALGO_LIMD, ALGO_MILD, ALGO_MIMD,
};

enum jitter_mode { J_NONE, J_FULL, J_EQUAL, J_SCATTERED, J_DOWN, J_ADD };

struct jitter {
	enum jitter_mode mode;
	double		 ratio;		/* scattered, down */
	int64_t		 add;		/* add:DUR, ns */
};

struct backoff {
	enum strategy	 strategy;
	int64_t		 base;		/* the concise strategies' DUR, ns */
	double		 factor;	/* --exp */
	const int64_t	*list;		/* --delays */
	size_t		 nlist;
	struct span	 min_delay, max_delay;	/* max_delay.ns -1: none */
	struct jitter	 jitter;
	unsigned long	 max_attempts;	/* consecutive failures, 0 unlimited */
	double		 max_actual_duration;	/* seconds, 0 unlimited */
	bool		 consider_actual_delay;
	/* Algorithm::Backoff parameters, seconds or factors. */
	double		 delay, delay_on_success, initial_delay, exponent_base;
	double		 initial_delay1, initial_delay2;
	double		 inc_failure, inc_success, mul_failure, mul_success;
	double		 jitter_factor;
};

struct engine {
	const struct backoff *b;
	struct rng	*rng;
	unsigned long	 k;		/* consecutive failures */
	double		 start;
	int64_t		 decorrelated;	/* its previous (capped) delay */
	double		 v2_prev;	/* --decorrelated-v2: the previous g(t) */
	int64_t		 lo, hi;	/* what a random strategy drew from */
	/* Algorithm::Backoff's strategies' own, in seconds. */
	struct {
		bool	 seen;		/* an event has been recorded */
		double	 last_time;	/* the previous event's */
		bool	 has_prev;
		double	 prev;		/* P: the previous returned delay */
		double	 fib_prev, fib_cur;
	} algo;
};

/* Why a run gives up: the back-off ended. */
enum give_up { GIVE_UP_NONE, GIVE_UP_MAX, GIVE_UP_BUDGET, GIVE_UP_DURATION,
	GIVE_UP_SHARED,		/* the shared retry budget is spent */
	GIVE_UP_STORE,		/* --share-required: the store is down */
	GIVE_UP_LIMIT,		/* a --retry-on STATUS:N is reached */
	GIVE_UP_SUCCESSES,	/* --max leaves too few attempts for
				 * --successes in a row */
	GIVE_UP_DEADLINE };	/* --deadline: the run's time is up */

/* A delay: ns < 0 means give up, for why; s is what show-backoff-delays
 * prints; lo and hi, the range it was drawn from, jitter and limits
 * applied (lo == hi == ns where nothing was drawn). */
struct delay {
	int64_t		 ns;
	double		 s;
	enum give_up	 why;
	int64_t		 lo, hi;
};

void		 engine_init(struct engine *, const struct backoff *,
		    struct rng *, double start);
struct delay	 engine_failure(struct engine *, double now);
struct delay	 engine_success(struct engine *, double now);

const char	*jitter_parse(const char *, struct jitter *);
bool		 strategy_is_algorithm(enum strategy);
/* Whether its delays are computed by libm (mathlib.h): --exp with a
 * --factor that is not a whole number, --decorrelated-v2 and
 * Algorithm::Backoff's Exponential; no other strategy calls libm. */
bool		 backoff_uses_pow(const struct backoff *);
/* "MIMD" etc., case-insensitive; false when unknown. */
bool		 algorithm_parse(const char *, enum strategy *);
const char	*algorithm_name(enum strategy);

#endif
