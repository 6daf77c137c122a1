/* retry simulate's model of a learned hedge (learnmodel.h). */
#include <stdbool.h>
#include <stdlib.h>

#include "duration.h"
#include "learnmodel.h"
#include "rng.h"
#include "sketch.h"

/* Shares compared with this much slack, as in hedgemodel.c. */
#define TINY		1e-9

/* One attempt's latency, drawn from l. */
static int64_t
draw(const struct latency *l, struct rng *rng)
{
	const double u = rng_unit(rng);
	double cum = 0;

	for (size_t k = 0; k + 1 < l->n; k++)
		if (u < (cum += l->p[k]))
			return l->at[k];
	return l->at[l->n - 1];
}

static int
ascending(const void *a, const void *b)
{
	const int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* The q-th quantile of n sorted latencies, by nearest rank. */
static int64_t
rank(const int64_t *t, size_t n, double q)
{
	const double k = q * (double)n;
	size_t i = (size_t)k;

	if ((double)i < k)
		i++;
	return t[i > 0 ? i - 1 : 0];
}

/* The percentiles of n runs' latencies in t (sorted here), and the
 * attempts they started. */
static struct tail_result
summary(int64_t *t, size_t n, unsigned long calls)
{
	qsort(t, n, sizeof(t[0]), ascending);
	return (struct tail_result){ rank(t, n, 0.5), rank(t, n, 0.99),
	    rank(t, n, 0.999), (double)calls / (double)n };
}

/* A run hedged at d (0: not hedged): its latency, and whether the hedge
 * started. */
static int64_t
hedged(int64_t l1, int64_t l2, int64_t d, bool *started)
{
	const int64_t second = sat_add(d, l2);

	*started = d > 0 && l1 > d;
	return *started && second < l1 ? second : l1;
}

/* Every run hedged at d, on the draws. */
static struct tail_result
fixed(const int64_t *l1, const int64_t *l2, size_t n, int64_t d, int64_t *t)
{
	unsigned long calls = 0;
	bool started;

	for (size_t i = 0; i < n; i++) {
		t[i] = hedged(l1[i], l2[i], d, &started);
		calls += started ? 2 : 1;
	}
	return summary(t, n, calls);
}

/* The lists' latency with the least p99 at no more than load extra
 * attempts a run; out starts as the runs without a hedge. */
static int64_t
best_fixed(const struct latency *a, const struct latency *b,
    const int64_t *l1, const int64_t *l2, size_t n, double load, int64_t *t,
    struct tail_result *out)
{
	const struct latency *lists[] = { a, b };
	int64_t best = 0;

	for (size_t j = 0; j < 2; j++)
		for (size_t k = 0; k < lists[j]->n; k++) {
			const int64_t d = lists[j]->at[k];
			const struct tail_result r = fixed(l1, l2, n, d, t);

			if (r.calls - 1 > load + TINY)
				continue;
			if (r.p99 < out->p99 || (r.p99 == out->p99 &&
			    r.calls < out->calls)) {
				*out = r;
				best = d;
			}
		}
	return best;
}

/* The runs learning their delay, from the middle one on after the shift. */
static void
learned(const int64_t *l1, const int64_t *l2, size_t n, double load,
    int64_t *t, struct learn_result *r)
{
	const double cap = load * LEARN_WINDOW > 1 ? load * LEARN_WINDOW : 1;
	double tokens = cap;
	char text[SKETCH_TEXT_MAX] = "";
	struct sketch s = { 0 };
	unsigned long calls = 0;
	bool started;

	r->settled = -1;
	for (size_t i = 0; i < n; i++) {
		int64_t d = s.samples >= LEARN_SAMPLES ?
		    sketch_quantile_bound(&s, 1 - load) : 0;
		const int64_t lat = hedged(l1[i], l2[i], tokens >= 1 ? d : 0,
		    &started);

		if (i == n / 2)
			r->before = d;
		if (i >= n / 2 && r->settled < 0 && d > 0 &&
		    (double)(d > r->target ? d - r->target : r->target - d) <=
		    LEARN_CLOSE * (double)r->target)
			r->settled = (long)(i - n / 2);
		r->after = d;
		if (started)
			tokens -= 1;
		tokens = tokens + load < cap ? tokens + load : cap;
		calls += started ? 2 : 1;
		t[i] = lat;
		/* The first attempt's time; when the hedge won, the hedge's
		 * delay, which it ran past: that it was slow is what counts,
		 * and a later time would make the next delay later. */
		(void)sketch_update(text, started && lat < l1[i] ? d : l1[i],
		    text, sizeof(text));
		(void)sketch_parse(text, &s);
	}
	r->way[LEARN_AUTO] = summary(t, n, calls);
}

const char *
learn_model(const struct latency *before, const struct latency *after,
    double load, unsigned long runs, uint64_t seed, struct learn_result *r)
{
	const struct latency *then = after->n > 0 ? after : before;
	int64_t *l1, *l2, *t;
	struct rng rng;

	if (runs < 2 || runs > SIZE_MAX / sizeof(int64_t) / 3)
		return "--runs: too few or too many for the learning model";
	l1 = malloc(runs * sizeof(*l1));
	l2 = malloc(runs * sizeof(*l2));
	t = malloc(runs * sizeof(*t));
	if (l1 == NULL || l2 == NULL || t == NULL) {
		free(l1);
		free(l2);
		free(t);
		return "no memory for the runs of the learning model";
	}
	rng_seed(&rng, seed);
	for (size_t i = 0; i < runs; i++) {
		const struct latency *l = i < runs / 2 ? before : then;

		l1[i] = draw(l, &rng);
		l2[i] = draw(l, &rng);
	}
	r->target = latency_quantile(then, 1 - load);
	r->way[LEARN_NONE] = fixed(l1, l2, runs, 0, t);
	r->way[LEARN_FIXED] = r->way[LEARN_NONE];
	r->fixed = best_fixed(before, then, l1, l2, runs, load, t,
	    &r->way[LEARN_FIXED]);
	learned(l1, l2, runs, load, t, r);
	free(l1);
	free(l2);
	free(t);
	return NULL;
}
