/*
 * retry simulate's models (model.h).
 *
 * The contention model (aws-samples/aws-arch-backoff-simulator): every
 * client reads the version of one row and writes with it; a stale write
 * fails, and the client asks the run policy, as retry does after a failed
 * attempt, how long to back off before it starts over.  Each network hop
 * takes |Normal(10ms, 2ms)|.  An event queue ordered by time (a binary
 * heap, ties in the order they were queued) drives it.
 *
 * The load model: each client sends first tries at Poisson times, 10 a
 * second for 10 seconds; the server fails each call with probability p,
 * whatever the load.  A try is retried at once, up to 3 times: never, or
 * always, or under one retry budget that all clients share (--share's
 * rule), or behind one shared circuit breaker, which fails a try without a
 * call while it is open.
 */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "codes.h"
#include "mathlib.h"
#include "model.h"
#include "policy.h"
#include "rng.h"
#include "simlists.h"

int64_t
sim_exp_base(double factor)
{
	return sat_scale(SIM_BASE, factor);
}

void
sim_defaults(struct backoff *b, bool strategy, bool max_delay, bool max)
{
	/* --jitter alone: on the blog's exponential back-off. */
	if (!strategy)
		b->base = sim_exp_base(b->factor);
	if (!max_delay)
		b->max_delay = span_of(SIM_CAP);
	if (!max)
		b->max_attempts = 0;
}

/* The contention model. */

#define HOP_MEAN	10e6		/* ns */
#define HOP_SD		2e6

/* Where a message arrives: at the server, or back at the client. */
enum hop { READ, READ_REPLY, WRITE, WRITE_REPLY };

struct event {
	int64_t		 t;		/* ns since the start */
	uint64_t	 seq;		/* ties go in the order queued */
	uint32_t	 client;
	enum hop	 hop;
};

struct client {
	struct policy	 pol;
	uint64_t	 version;	/* the version read */
	bool		 written;	/* the last write succeeded */
};

/* One simulation: every client has exactly one message in flight. */
struct sim {
	const struct backoff *b;
	struct limits	 limits;	/* none but the engine's */
	struct verdict_rules rules;	/* a stale write is a failure */
	struct rng	 rng;
	bool		 has_spare;	/* the polar method draws two */
	double		 spare;
	struct event	*q;		/* a binary heap of n events */
	size_t		 n;
	uint64_t	 seq;
	struct client	*c;
	unsigned long	 nclients;
	uint64_t	 version;	/* the row's */
	uint64_t	 calls;		/* write calls in this run */
	unsigned long	 gave_up;
	int64_t		 end;		/* the last client done, ns */
};

/* The event queue. */

static bool
before(const struct event *a, const struct event *b)
{
	return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

/* The heap has room: one event per client. */
static void
push(struct sim *s, int64_t t, uint32_t client, enum hop hop)
{
	const struct event ev = { t, s->seq++, client, hop };
	size_t i = s->n++, up;

	while (i > 0) {
		up = (i - 1) / 2;
		if (!before(&ev, &s->q[up]))
			break;
		s->q[i] = s->q[up];
		i = up;
	}
	s->q[i] = ev;
}

static struct event
pop(struct sim *s)
{
	const struct event top = s->q[0], last = s->q[--s->n];
	size_t i = 0, child;

	while ((child = 2 * i + 1) < s->n) {
		if (child + 1 < s->n && before(&s->q[child + 1], &s->q[child]))
			child++;
		if (!before(&s->q[child], &last))
			break;
		s->q[i] = s->q[child];
		i = child;
	}
	if (s->n > 0)
		s->q[i] = last;
	return top;
}

/* The network. */

/* A standard normal deviate: Marsaglia's polar method. */
static double
normal(struct sim *s)
{
	double u, v, r;

	if (s->has_spare) {
		s->has_spare = false;
		return s->spare;
	}
	do {
		u = 2 * rng_unit(&s->rng) - 1;
		v = 2 * rng_unit(&s->rng) - 1;
		r = u * u + v * v;
	} while (r >= 1 || r == 0);
	r = math_sqrt(-2 * math_log(r) / r);
	s->spare = v * r;
	s->has_spare = true;
	return u * r;
}

/* A message sent at t arrives |Normal(10ms, 2ms)| later. */
static int64_t
hop(struct sim *s, int64_t t)
{
	return sat_add(t, math_llround(fabs(HOP_MEAN + HOP_SD * normal(s))));
}

/* The model. */

/* The server reads, the client writes, the server writes or refuses. */
static void
deliver(struct sim *s, const struct event *ev)
{
	struct client *c = &s->c[ev->client];
	struct observed o = { .status = 1 };
	struct next x;

	switch (ev->hop) {
	case READ:
		c->version = s->version;
		push(s, hop(s, ev->t), ev->client, READ_REPLY);
		break;
	case READ_REPLY:
		push(s, hop(s, ev->t), ev->client, WRITE);
		break;
	case WRITE:
		s->calls++;
		c->written = c->version == s->version;
		if (c->written)
			s->version++;
		push(s, hop(s, ev->t), ev->client, WRITE_REPLY);
		break;
	case WRITE_REPLY:
		if (c->written) {
			s->end = ev->t;
			break;
		}
		o.start = o.end = ev->t;
		o.end_s = (double)ev->t / 1e9;
		if ((x = policy_next(&c->pol, &o)).what != NEXT_SLEEP) {
			s->gave_up++;
			s->end = ev->t;
			break;
		}
		/* As the blog's model: the delay adds to the next hop. */
		push(s, sat_add(hop(s, ev->t), x.delay.ns), ev->client, READ);
		break;
	}
}

/* One run: every client starts at 0; it ends when the last is done. */
static void
run(struct sim *s)
{
	struct event ev;

	s->n = 0;
	s->seq = 0;
	s->version = 0;
	s->calls = 0;
	s->gave_up = 0;
	s->end = 0;
	for (uint32_t i = 0; i < s->nclients; i++) {
		policy_init(&s->c[i].pol, s->b, &s->limits, &s->rules,
		    &s->rng);
		push(s, hop(s, 0), i, READ);
	}
	while (s->n > 0) {
		ev = pop(s);
		deliver(s, &ev);
	}
}

const char *
simulate_contention(const struct backoff *b, unsigned long clients,
    unsigned long runs, uint64_t seed, struct contention_result *r)
{
	return simulate_contention_ticked(b, clients, runs, seed, r, NULL,
	    NULL);
}

const char *
simulate_contention_ticked(const struct backoff *b, unsigned long clients,
    unsigned long runs, uint64_t seed, struct contention_result *r,
    contention_tick *tick, void *arg)
{
	struct sim s = { .b = b, .limits = { .budget = -1, .timeout = -1,
	    .deadline = -1, .reset_after = -1 }, .nclients = clients };
	double time = 0, calls = 0, gave_up = 0;

	if (clients == 0 || clients > CLIENTS_MAX || runs == 0)
		return "no clients or no runs";
	codes_add(&s.rules.success_on, 0);
	rng_seed(&s.rng, seed);
	s.q = calloc(clients, sizeof(*s.q));
	s.c = calloc(clients, sizeof(*s.c));
	if (s.q == NULL || s.c == NULL) {
		free(s.q);
		free(s.c);
		return "out of memory";
	}
	for (unsigned long i = 0; i < runs; i++) {
		run(&s);
		time += (double)s.end;
		calls += (double)s.calls;
		gave_up += (double)s.gave_up;
		if (tick != NULL)
			tick(arg, s.calls);
	}
	free(s.q);
	free(s.c);
	*r = (struct contention_result){ clients, runs, time / (double)runs,
	    calls / (double)runs, gave_up / (double)runs };
	return NULL;
}

/* The load model. */

#define LOAD_RATE	10.0		/* first tries a client sends a second */
#define LOAD_SECONDS	10.0

static int
earlier(const void *a, const void *b)
{
	const double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The first tries of every client, in time order; how many. */
static size_t
arrivals(unsigned long clients, struct rng *rng, double *t, size_t cap)
{
	size_t n = 0;

	for (unsigned long c = 0; c < clients; c++)
		for (double at = 0;;) {
			at -= math_log(1 - rng_unit(rng)) / LOAD_RATE;
			if (at >= LOAD_SECONDS || n == cap)
				break;
			t[n++] = at;
		}
	qsort(t, n, sizeof(*t), earlier);
	return n;
}

/* One run of kind k: the first tries at times t[0..n-1], each retried
 * as k says. */
static struct load_result
load_run(enum load_kind k, double p, const struct share_rules *r,
    const double *t, size_t n, struct rng *rng)
{
	struct share_state st;
	struct record_answer a = { true, false, false };
	double calls = 0, ok = 0;
	int64_t now;

	share_fresh(&st, r, 0);
	for (size_t i = 0; i < n; i++) {
		now = math_llround(t[i] * 1e9);
		for (int try = 0; try <= (k == L_NONE ? 0 : LOAD_RETRIES);
		    try++) {
			const bool success = rng_unit(rng) >= p;

			/* Open: the try fails without a call. */
			if (k == L_BREAKER && (share_gate(&st, r, i + 1,
			    now).what == GATE_GIVE_UP))
				break;
			calls++;
			if (k == L_BUDGET || k == L_BREAKER)
				a = share_record(&st, r, i + 1, success,
				    try < LOAD_RETRIES, 0, now);
			if (success) {
				ok++;
				break;
			}
			if (k == L_BUDGET && !a.retry)
				break;
		}
	}
	return (struct load_result){ n > 0 ? ok / (double)n : 0,
	    n > 0 ? calls / (double)n : 0 };
}

struct load_result
load_closed_form(enum load_kind k, double p)
{
	const int tries = k == L_NONE ? 1 : LOAD_RETRIES + 1;
	double load = 0;

	for (int i = 0; i < tries; i++)
		load += math_pow(p, i);
	return (struct load_result){ 1 - math_pow(p, tries), load };
}

const char *
simulate_load(const struct share_rules *given, double p,
    unsigned long clients, unsigned long runs, uint64_t seed,
    struct load_result out[L_COUNT])
{
	/* The budget as --share-budget says, or gRPC's default; the breaker
	 * as --share-breaker says, or 20 failures for 1s; it never waits. */
	const struct share_rules budget = { .max = given->max,
	    .ratio = given->ratio, .give_up = true, .window = given->window };
	const struct share_rules breaker = { .max = 1e6,
	    .trip = given->trip > 0 ? given->trip : 20,
	    .cooldown = given->trip > 0 ? given->cooldown : NS_PER_SEC,
	    .lease = NS_PER_SEC, .give_up = true, .window = given->window };
	const size_t cap = (size_t)((double)clients * LOAD_RATE *
	    LOAD_SECONDS * 2 + 100);
	struct rng rng;
	double *t;
	size_t n;

	if ((t = calloc(cap, sizeof(*t))) == NULL)
		return "out of memory";
	memset(out, 0, sizeof(*out) * L_COUNT);
	rng_seed(&rng, seed);
	for (unsigned long i = 0; i < runs; i++) {
		n = arrivals(clients, &rng, t, cap);
		for (int k = 0; k < L_COUNT; k++) {
			const struct load_result r = load_run(
			    (enum load_kind)k, p, k == L_BREAKER ? &breaker :
			    &budget, t, n, &rng);

			out[k].success += r.success / (double)runs;
			out[k].load += r.load / (double)runs;
		}
	}
	free(t);
	return NULL;
}
