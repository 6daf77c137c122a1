/*
 * The back-off engine.  Delays are saturating nanoseconds: the concise
 * strategies compute in them, and --jitter, --max-delay and --min-delay
 * apply in them.  Algorithm::Backoff's strategies alone compute in double
 * seconds, in the module's own order, so that show-backoff-delays agrees
 * with it to the last printed digit: their seconds (their state,
 * --jitter-factor, --consider-actual-delay and their own clamping) are
 * the last part of this file, and end in nanoseconds before --jitter.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "duration.h"
#include "engine.h"
#include "mathlib.h"

static const struct {
	const char	*name;
	enum strategy	 strategy;
} algorithms[] = {
	{ "Constant", ALGO_CONSTANT },
	{ "Exponential", ALGO_EXPONENTIAL },
	{ "Fibonacci", ALGO_FIBONACCI },
	{ "LILD", ALGO_LILD },
	{ "LIMD", ALGO_LIMD },
	{ "MILD", ALGO_MILD },
	{ "MIMD", ALGO_MIMD },
};

bool
strategy_is_algorithm(enum strategy s)
{
	return s >= ALGO_CONSTANT;
}

/* The strategies whose delays call libm's functions: --exp's powers are
 * sat_scale_pow's, in integers and double-double arithmetic. */
bool
backoff_uses_pow(const struct backoff *b)
{
	return b->strategy == STRAT_DECORRELATED_V2 ||
	    b->strategy == ALGO_EXPONENTIAL;
}

bool
algorithm_parse(const char *s, enum strategy *out)
{
	for (size_t i = 0; i < sizeof(algorithms) / sizeof(algorithms[0]); i++)
		if (strcasecmp(s, algorithms[i].name) == 0) {
			*out = algorithms[i].strategy;
			return true;
		}
	return false;
}

const char *
algorithm_name(enum strategy s)
{
	for (size_t i = 0; i < sizeof(algorithms) / sizeof(algorithms[0]); i++)
		if (algorithms[i].strategy == s)
			return algorithms[i].name;
	return NULL;
}

static const char *
ratio_parse(const char *s, double *out)
{
	char *end;
	double v;

	if (*s == '\0')
		return "empty ratio after ':'";
	errno = 0;
	v = strtod(s, &end);
	if (*end != '\0' || errno != 0 || !isfinite(v))
		return "the ratio after ':' is not a number";
	if (v < 0 || v > 1)
		return "the ratio after ':' must be between 0 and 1";
	*out = v;
	return NULL;
}

const char *
jitter_parse(const char *s, struct jitter *j)
{
	const char *colon = strchr(s, ':');
	size_t len = colon != NULL ? (size_t)(colon - s) : strlen(s);
	struct jitter r = { J_NONE, 0, 0 };
	const char *err;

#define IS(name) (len == strlen(name) && strncasecmp(s, name, len) == 0)
	/* A bare duration: up to that much added, as Debian's retry's -j. */
	if (isdigit((unsigned char)*s) && colon == NULL) {
		if ((err = duration_parse(s, &r.add)) != NULL)
			return err;
		r.mode = J_ADD;
		*j = r;
		return NULL;
	}
	if (IS("none"))
		r.mode = J_NONE;
	else if (IS("full"))
		r.mode = J_FULL;
	else if (IS("equal") || IS("half"))
		r.mode = J_EQUAL;
	else if (IS("scattered"))
		r = (struct jitter){ J_SCATTERED, 0.5, 0 };
	else if (IS("down"))
		r = (struct jitter){ J_DOWN, 0.2, 0 };
	else if (IS("add")) {
		if (colon == NULL)
			return "add needs a duration, as in add:500ms";
		if ((err = duration_parse(colon + 1, &r.add)) != NULL)
			return err;
		r.mode = J_ADD;
		*j = r;
		return NULL;
	} else
		return "unknown mode (use none, full, equal, scattered[:R], "
		    "down[:R], add:DUR or DUR)";
#undef IS
	if (colon != NULL) {
		if (r.mode != J_SCATTERED && r.mode != J_DOWN)
			return "only scattered and down take a ratio";
		if ((err = ratio_parse(colon + 1, &r.ratio)) != NULL)
			return err;
	}
	*j = r;
	return NULL;
}

void
engine_init(struct engine *e, const struct backoff *b, struct rng *rng,
    double start)
{
	memset(e, 0, sizeof(*e));
	e->b = b;
	e->rng = rng;
	e->start = start;
}

/* A delay within --max-delay and --min-delay, which wins. */
static int64_t
clamp(const struct backoff *b, int64_t d)
{
	if (b->max_delay.ns >= 0 && d > b->max_delay.ns)
		d = b->max_delay.ns;
	if (d < 0)
		d = 0;
	if (d < b->min_delay.ns)
		d = b->min_delay.ns;
	return d;
}

/* Jitter on the capped delay; the caller clamps the result again. */
static int64_t
jitter(const struct jitter *j, struct rng *rng, int64_t d)
{
	switch (j->mode) {
	case J_NONE:
		return d;
	case J_FULL:
		return rng_range(rng, 0, d);
	case J_EQUAL:
		return d / 2 + rng_range(rng, 0, d - d / 2);
	case J_SCATTERED:
		return rng_range(rng, sat_scale(d, 1 - j->ratio),
		    sat_scale(d, 1 + j->ratio));
	case J_DOWN:
		return rng_range(rng, sat_scale(d, 1 - j->ratio), d);
	case J_ADD:
		return sat_add(d, rng_range(rng, 0, j->add));
	}
	return d;
}

/* The least and the most jitter j may make of d. */
static int64_t
jitter_lo(const struct jitter *j, int64_t d)
{
	return j->mode == J_FULL ? 0 : j->mode == J_EQUAL ? d / 2 :
	    j->mode == J_SCATTERED || j->mode == J_DOWN ?
	    sat_scale(d, 1 - j->ratio) : d;
}

static int64_t
jitter_hi(const struct jitter *j, int64_t d)
{
	return j->mode == J_SCATTERED ? sat_scale(d, 1 + j->ratio) :
	    j->mode == J_ADD ? sat_add(d, j->add) : d;
}

static int64_t
fibonacci(unsigned long n)
{
	int64_t a = 1, b = 1, t;

	for (unsigned long i = 2; i < n && b < INT64_MAX; i++) {
		t = sat_add(a, b);
		a = b;
		b = t;
	}
	return b;
}

/*
 * Polly's DecorrelatedJitterBackoffV2 (Polly.Contrib.WaitAndRetry), George
 * Polevoy's formula as Polly scales it: g(t) = 2^t x tanh(sqrt(4t)), and
 * with t = n - 1 plus a uniform draw from [0, 1), the n-th delay is
 * DUR / 1.4 x (g(t) - g(the previous failure's t)), g(0) = 0 before the
 * first.  The medians fall near DUR, 2 DUR, 4 DUR, ...; the n-th delay is
 * more than 0 and less than DUR x 2^(n+1).  Past t = 1024, g is no longer
 * a double: the delay is then the longest there is, for --max-delay to cap.
 */
/* The delay from the previous g to g. */
static int64_t
v2_delay(const struct engine *e, double g)
{
	const double d = (g - e->v2_prev) / 1.4 * (double)e->b->base;

	return isfinite(d) ? sat_scale(1, d) : INT64_MAX;
}

static int64_t
decorrelated_v2(struct engine *e, unsigned long n)
{
	const double t = (double)(n - 1) + rng_unit(e->rng);
	const double g = math_pow(2, t) * math_tanh(math_sqrt(4 * t));
	const double t0 = (double)(n - 1), t1 = (double)n;
	double d;

	if (n == 1)
		e->v2_prev = 0;
	if (!isfinite(g) || !isfinite(e->v2_prev)) {
		e->v2_prev = HUGE_VAL;
		e->lo = e->hi = INT64_MAX;
		return INT64_MAX;
	}
	/* The range of the draw: t from n - 1 to n. */
	e->lo = v2_delay(e, math_pow(2, t0) * math_tanh(math_sqrt(4 * t0)));
	e->hi = v2_delay(e, math_pow(2, t1) * math_tanh(math_sqrt(4 * t1)));
	d = (g - e->v2_prev) / 1.4 * (double)e->b->base;
	e->v2_prev = g;
	return sat_scale(1, d);
}

/* The n-th failure's delay of a concise strategy, before any clamping. */
static int64_t
concise(struct engine *e, unsigned long n)
{
	const struct backoff *b = e->b;

	switch (b->strategy) {
	case STRAT_EXP:
		return sat_scale_pow(b->base, b->factor, n - 1);
	case STRAT_FIXED:
		return b->base;
	case STRAT_LINEAR:
		return sat_mul(b->base, (int64_t)(n > INT64_MAX ? INT64_MAX :
		    (int64_t)n));
	case STRAT_FIB:
		return sat_mul(b->base, fibonacci(n));
	case STRAT_LIST:
		return b->list[(n < b->nlist ? n : b->nlist) - 1];
	case STRAT_DECORRELATED:
		/* AWS's: the previous delay is the base at the start, and
		 * every delay, the first too, is drawn from [base, 3 x it]. */
		if (n == 1)
			e->decorrelated = b->base;
		e->lo = b->base;
		e->hi = sat_mul(e->decorrelated, 3);
		e->decorrelated = rng_range(e->rng, b->base,
		    sat_mul(e->decorrelated, 3));
		if (b->max_delay.ns >= 0 && e->decorrelated > b->max_delay.ns)
			e->decorrelated = b->max_delay.ns;
		return e->decorrelated;
	case STRAT_DECORRELATED_V2:
		return decorrelated_v2(e, n);
	default:
		return 0;
	}
}

/* --jitter on a delay r, drawn from [lo, hi], clamped before and after;
 * its seconds are its ns'. */
static struct delay
jittered(const struct backoff *b, struct rng *rng, struct delay r,
    int64_t lo, int64_t hi)
{
	r.lo = clamp(b, jitter_lo(&b->jitter, clamp(b, lo)));
	r.hi = clamp(b, jitter_hi(&b->jitter, clamp(b, hi)));
	r.ns = clamp(b, jitter(&b->jitter, rng, clamp(b, r.ns)));
	r.s = (double)r.ns / 1e9;
	return r;
}

/* A concise strategy's delay after the k-th failure in a row, or after a
 * success. */
static struct delay
concise_delay(struct engine *e, bool success)
{
	const struct backoff *b = e->b;
	struct delay r = { 0, 0, GIVE_UP_NONE, 0, 0 };

	if (success)
		r.ns = clamp(b, sat_scale(NS_PER_SEC,
		    b->delay_on_success));
	else
		r.ns = clamp(b, concise(e, e->k));
	if (success || (b->strategy != STRAT_DECORRELATED &&
	    b->strategy != STRAT_DECORRELATED_V2))
		e->lo = e->hi = r.ns;
	return jittered(b, e->rng, r, e->lo, e->hi);
}

/*
 * Algorithm::Backoff's strategies, in its double seconds.
 */

/* A delay within --max-delay and --min-delay, which wins, in seconds. */
static double
clamp_s(const struct backoff *b, double d)
{
	if (b->max_delay.ns >= 0 && d > b->max_delay.s)
		d = b->max_delay.s;
	if (d < 0)
		d = 0;
	if (d < b->min_delay.s)
		d = b->min_delay.s;
	return d;
}

static int64_t
ns_of(double s)
{
	return sat_scale(NS_PER_SEC, s);
}

/* Algorithm::Backoff's _failure and _success: the raw value, in seconds. */
static double
algorithm(struct engine *e, bool success)
{
	const struct backoff *b = e->b;
	double t;

	switch (b->strategy) {
	case ALGO_CONSTANT:
		return success ? b->delay_on_success : b->delay;
	case ALGO_EXPONENTIAL:
		return success ? b->delay_on_success : b->initial_delay *
		    math_pow(b->exponent_base, (double)e->k - 1);
	case ALGO_FIBONACCI:
		if (success)
			return b->delay_on_success;
		if (e->k == 1) {
			e->algo.fib_prev = 0;
			e->algo.fib_cur = b->initial_delay1;
		} else if (e->k == 2) {
			e->algo.fib_prev = b->initial_delay1;
			e->algo.fib_cur = b->initial_delay2;
		} else {
			t = e->algo.fib_cur;
			e->algo.fib_cur += e->algo.fib_prev;
			e->algo.fib_prev = t;
		}
		return e->algo.fib_cur;
	default:
		break;
	}
	if (!e->algo.has_prev)
		return b->initial_delay;
	switch (b->strategy) {
	case ALGO_LILD:
		return e->algo.prev + (success ? b->inc_success : b->inc_failure);
	case ALGO_LIMD:
		return success ? e->algo.prev * b->mul_success :
		    e->algo.prev + b->inc_failure;
	case ALGO_MILD:
		return success ? e->algo.prev + b->inc_success :
		    e->algo.prev * b->mul_failure;
	default:
		return success ? e->algo.prev * b->mul_success :
		    e->algo.prev * b->mul_failure;
	}
}

/*
 * The previous delay that --consider-actual-delay adds, as Algorithm::Backoff
 * has it since 0.010: the one given, after jitter and clamping (0.009 added
 * a sum of its own, unclamped, which grew without bound under --max-delay).
 * Before the first delay, the increase/decrease strategies add their
 * initial delay, which the module stores as the previous one as it returns
 * it; the others add 0.
 */
static double
previous(const struct engine *e)
{
	if (e->algo.has_prev)
		return e->algo.prev;
	return e->b->strategy >= ALGO_LILD && e->b->strategy <= ALGO_MIMD ?
	    e->b->initial_delay : 0;
}

/* Its delay after the k-th failure in a row, or after a success, at now:
 * computed, jittered by --jitter-factor and clamped in seconds, then in ns,
 * where --jitter applies as to the concise strategies' delays. */
static struct delay
algorithm_delay(struct engine *e, bool success, double now)
{
	const struct backoff *b = e->b;
	struct delay r = { 0, 0, GIVE_UP_NONE, 0, 0 };
	double d, lo, hi;

	if (!e->algo.seen) {
		e->algo.last_time = now;
		e->algo.seen = true;
	}
	d = algorithm(e, success);
	if (b->consider_actual_delay)
		d = d + previous(e) - (now - e->algo.last_time);
	lo = hi = d;
	if (b->jitter_factor > 0 && d != 0) {
		lo = d * (1 - b->jitter_factor);
		hi = d * (1 + b->jitter_factor);
		d = lo + (hi - lo) * rng_unit(e->rng);
	}
	d = clamp_s(b, d);
	r.s = d;
	r.ns = ns_of(d);
	/* Drawn from a range only with a jitter factor: else the delay's
	 * own, computed once (show-backoff-delays makes a great many). */
	if (lo == hi)
		r.lo = r.hi = r.ns;
	else {
		r.lo = ns_of(clamp_s(b, lo));
		r.hi = ns_of(clamp_s(b, hi));
	}
	if (b->jitter.mode != J_NONE)
		r = jittered(b, e->rng, r, r.lo, r.hi);
	e->algo.last_time = now;
	e->algo.prev = r.s;
	e->algo.has_prev = true;
	return r;
}

static struct delay
compute(struct engine *e, bool success, double now)
{
	return strategy_is_algorithm(e->b->strategy) ?
	    algorithm_delay(e, success, now) : concise_delay(e, success);
}

struct delay
engine_failure(struct engine *e, double now)
{
	const struct backoff *b = e->b;

	if (b->max_actual_duration > 0 &&
	    now - e->start >= b->max_actual_duration)
		return (struct delay){ -1, -1, GIVE_UP_DURATION, -1, -1 };
	e->k++;
	if (b->max_attempts > 0 && e->k >= b->max_attempts)
		return (struct delay){ -1, -1, GIVE_UP_MAX, -1, -1 };
	return compute(e, false, now);
}

struct delay
engine_success(struct engine *e, double now)
{
	e->k = 0;
	return compute(e, true, now);
}
