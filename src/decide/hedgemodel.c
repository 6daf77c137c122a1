/*
 * retry simulate's hedging model (hedgemodel.h), in closed form: each way's
 * chance that a run takes longer than t, at every t where it changes.
 */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include "duration.h"
#include "hedgemodel.h"

/* Shares compared with this much slack, so that 95% of 20ms is the 95th
 * percentile however the chances add up in binary. */
#define TINY		1e-9
/* The timeout's rounds looked through, at most, for a percentile. */
#define ROUNDS_MAX	10000000

/* P(L > x): the chance that one attempt takes longer than x. */
static double
longer(const struct latency *l, int64_t x)
{
	double s = 0;

	for (size_t k = 0; k < l->n; k++)
		if (l->at[k] > x)
			s += l->p[k];
	return s;
}

int64_t
latency_quantile(const struct latency *l, double q)
{
	for (size_t k = 0; k < l->n; k++)
		if (1 - longer(l, l->at[k]) >= q - TINY)
			return l->at[k];
	return l->n > 0 ? l->at[l->n - 1] : 0;
}

/* A hedged run, n in flight after every delay: P(R > t). */
static double
hedged_longer(const struct latency *l, const struct hedge *h, int64_t t)
{
	double s = 1;

	for (unsigned i = 0; i < h->n; i++)
		s *= longer(l, t - sat_mul((int64_t)i, h->delay));
	return s;
}

static int
ascending(const void *a, const void *b)
{
	const int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* The hedged run's q-th quantile: the least of its times, i x DUR + L,
 * that q of the runs take or less. */
static int64_t
hedged_quantile(const struct latency *l, const struct hedge *h,
    const int64_t *t, size_t n, double q)
{
	for (size_t k = 0; k < n; k++)
		if (1 - hedged_longer(l, h, t[k]) >= q - TINY)
			return t[k];
	return n > 0 ? t[n - 1] : 0;
}

static void
hedged(const struct latency *l, const struct hedge *h, struct tail_result *r)
{
	int64_t t[HEDGE_N_MAX * LATENCY_MAX] = { 0 };
	size_t n = 0;

	for (unsigned i = 0; i < h->n; i++)
		for (size_t k = 0; k < l->n; k++)
			t[n++] = sat_add(sat_mul((int64_t)i, h->delay),
			    l->at[k]);
	qsort(t, n, sizeof(t[0]), ascending);
	r->p50 = hedged_quantile(l, h, t, n, 0.5);
	r->p99 = hedged_quantile(l, h, t, n, 0.99);
	r->p999 = hedged_quantile(l, h, t, n, 0.999);
	/* Attempt i starts when the run has not ended by i x DUR. */
	r->calls = 0;
	for (unsigned i = 0; i < h->n; i++)
		r->calls += hedged_longer(l, h, sat_mul((int64_t)i, h->delay));
}

/*
 * The timeout's q-th quantile: a run that ends in round k (k attempts
 * stopped at DUR first, with chance s = P(L > DUR)^k of getting there)
 * ends at k x DUR + L, L at most DUR; -1 if it never does.
 */
static int64_t
timeout_quantile(const struct latency *l, int64_t d, double q)
{
	const double over = longer(l, d);
	double s = 1;

	if (over > 1 - TINY)
		return -1;
	for (int64_t k = 0; k < ROUNDS_MAX && s > 0; k++, s *= over) {
		if (1 - s * over < q - TINY)
			continue;
		for (size_t i = 0; i < l->n && l->at[i] <= d; i++)
			if (1 - s + s * (1 - longer(l, l->at[i])) >= q - TINY)
				return sat_add(sat_mul(k, d), l->at[i]);
	}
	return -1;
}

void
tail_model(const struct latency *l, const struct hedge *h,
    struct tail_result out[TAIL_COUNT])
{
	const double over = longer(l, h->delay);

	out[TAIL_NONE] = (struct tail_result){ latency_quantile(l, 0.5),
	    latency_quantile(l, 0.99), latency_quantile(l, 0.999), 1 };
	out[TAIL_TIMEOUT] = (struct tail_result){
	    timeout_quantile(l, h->delay, 0.5),
	    timeout_quantile(l, h->delay, 0.99),
	    timeout_quantile(l, h->delay, 0.999),
	    over < 1 - TINY ? 1 / (1 - over) : (double)INFINITY };
	hedged(l, h, &out[TAIL_HEDGE]);
}
