/*
 * The engine replayed for show-backoff-delays and --dry-run: each step
 * asks the run policy, as retry asks it after an attempt, so that a delay
 * shown is the delay that retry would sleep.
 */
#include <stdlib.h>
#include <string.h>

#include "duration.h"
#include "replay.h"

void
replay_start(struct replay *r, const struct config *c, struct rng *rng)
{
	memset(r, 0, sizeof(*r));
	r->c = c;
	r->statuses = c->mode == MODE_SHOW && c->nargs > 0;
	r->limit = r->statuses ? (unsigned long)c->nargs : c->count;
	r->l = c->limits;
	/* STATUS goes on after a success, as Algorithm::Backoff does;
	 * with --successes, a success short of N in a row goes on anyway,
	 * and the replay is retry's run: --max counts every attempt, and it
	 * ends where the run would. */
	r->l.forever = r->l.forever ||
	    (c->mode == MODE_SHOW && c->limits.successes <= 1);
	policy_init(&r->pol, &c->backoff, &r->l, &c->verdict, rng);
}

bool
replay_step(struct replay *r, struct step *s)
{
	const struct config *c = r->c;
	struct observed o = { .status = 1 };
	struct next x;

	if (r->over || r->done >= r->limit)
		return false;
	memset(s, 0, sizeof(*s));
	s->n = ++r->done;
	if (r->statuses)
		(void)entry_parse(c->args[s->n - 1], r->prev, &s->st);
	else
		s->st.time = (double)r->at / 1e9;
	r->prev = s->st.time;
	o.status = s->st.success ? 0 : 1;
	o.start = o.end = r->statuses ?
	    sat_scale(NS_PER_SEC, s->st.time) : r->at;
	o.end_s = s->st.time;
	x = policy_next(&r->pol, &o);
	s->d = x.delay;
	s->limit = x.limit;
	if (!r->statuses || !r->l.forever)
		r->over = s->d.ns < 0;
	if (!r->statuses)
		r->at = sat_add(r->at, s->d.ns < 0 ? 0 : s->d.ns);
	return true;
}

static int
compare(const void *a, const void *b)
{
	const double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

void
stats_compute(double *v, size_t n, struct stats *s)
{
	qsort(v, n, sizeof(*v), compare);
	s->runs = n;
	s->min = v[0];
	s->median = n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	s->p90 = v[(9 * n + 9) / 10 - 1];
	s->max = v[n - 1];
}

const char *
sampler_start(struct sampler *sp, const struct config *c, struct rng *rng)
{
	sp->nruns = c->samples;
	sp->runs = calloc(sp->nruns, sizeof(*sp->runs));
	sp->v = calloc(sp->nruns, sizeof(*sp->v));
	if (sp->runs == NULL || sp->v == NULL)
		return "out of memory";
	for (size_t j = 0; j < sp->nruns; j++)
		replay_start(&sp->runs[j], c, rng);
	return NULL;
}

void
sampler_free(struct sampler *sp)
{
	free(sp->runs);
	free(sp->v);
}

bool
sampler_step(struct sampler *sp, struct stats *x)
{
	struct step s;
	size_t m = 0;
	bool any = false;

	*x = (struct stats){ 0, 0, -1, -1, -1, -1 };
	for (size_t j = 0; j < sp->nruns; j++) {
		if (!replay_step(&sp->runs[j], &s))
			continue;
		any = true;
		x->n = s.n;
		if (s.d.ns >= 0)
			sp->v[m++] = s.d.s;
	}
	if (m > 0)
		stats_compute(sp->v, m, x);
	return any;
}
