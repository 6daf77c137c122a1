/*
 * retry simulate: the model of the AWS Architecture Blog's "Exponential
 * Backoff And Jitter" (aws-samples/aws-arch-backoff-simulator).  Every
 * client reads the version of one row and writes with it; a stale write
 * fails, and the client asks the run policy, as retry does after a failed
 * attempt, how long to back off before it starts over.
 * Each network hop takes |Normal(10ms, 2ms)|.  An event queue ordered by
 * time (a binary heap, ties in the order they were queued) drives it.
 *
 * The simulation is pure; the printing and the chart at the end of the
 * file take its results.
 */
#include <err.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chart.h"
#include "duration.h"
#include "exits.h"
#include "lists.h"
#include "number.h"
#include "policy.h"
#include "share.h"
#include "simulate.h"

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
	r = sqrt(-2 * log(r) / r);
	s->spare = v * r;
	s->has_spare = true;
	return u * r;
}

/* A message sent at t arrives |Normal(10ms, 2ms)| later. */
static int64_t
hop(struct sim *s, int64_t t)
{
	return sat_add(t, llround(fabs(HOP_MEAN + HOP_SD * normal(s))));
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
simulate(const struct backoff *b, unsigned long clients, unsigned long runs,
    uint64_t seed, struct sim_result *r)
{
	struct sim s = { .b = b, .limits = { false, -1, -1, -1 },
	    .nclients = clients };
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
	}
	free(s.q);
	free(s.c);
	*r = (struct sim_result){ clients, runs, time / (double)runs,
	    calls / (double)runs, gave_up / (double)runs };
	return NULL;
}

/* The subcommand: which strategies, printing and the chart. */

#define NPRESETS	5

struct contender {
	char		 name[32];
	struct backoff	 b;
};

struct plan {
	const struct config *c;
	unsigned long	*clients;
	size_t		 nclients;
	struct contender s[NPRESETS];
	size_t		 ns;
	uint64_t	 seed;
	bool		 limits;	/* clients may give up */
	int		 name_w;	/* the widest name */
	struct sim_result *r;		/* nclients x ns, for the chart */
};

/* A strategy given on the command line, named for the table. */
static void
describe(const struct backoff *b, char *buf, size_t sz)
{
	static const char *const concise[] = {
		[S_EXP] = "exp", [S_FIXED] = "fixed", [S_LINEAR] = "linear",
		[S_FIB] = "fib", [S_LIST] = "delays",
		[S_DECORRELATED] = "decorrelated", [S_IMMEDIATE] = "immediate",
	};
	static const char *const jitters[] = {
		[J_NONE] = "", [J_FULL] = "+full-jitter",
		[J_EQUAL] = "+equal-jitter", [J_SCATTERED] = "+scattered-jitter",
		[J_DOWN] = "+down-jitter", [J_ADD] = "+add-jitter",
	};

	snprintf(buf, sz, "%s%s", strategy_is_algorithm(b->strategy) ?
	    algorithm_name(b->strategy) : concise[b->strategy],
	    jitters[b->jitter.mode]);
}

/*
 * The blog's five on our engine, with the options given (cap, floor,
 * factor, limits): none = --immediate; exponential = --exp 10ms, the
 * blog's min(cap, 5ms x 2^n) after the n-th failure (5ms x F^n with
 * --factor F); equal and full add --jitter; decorrelated =
 * --decorrelated 5ms, which draws as the blog's does.
 */
static void
presets(struct plan *p, const struct backoff *given)
{
	static const struct {
		const char	*name;
		enum strategy	 strategy;
		enum jitter_mode jitter;
	} blog[NPRESETS] = {
		{ "none", S_IMMEDIATE, J_NONE },
		{ "exponential", S_EXP, J_NONE },
		{ "equal-jitter", S_EXP, J_EQUAL },
		{ "full-jitter", S_EXP, J_FULL },
		{ "decorrelated", S_DECORRELATED, J_NONE },
	};

	for (size_t i = 0; i < NPRESETS; i++) {
		struct contender *e = &p->s[i];

		snprintf(e->name, sizeof(e->name), "%s", blog[i].name);
		e->b = *given;
		e->b.strategy = blog[i].strategy;
		e->b.base = blog[i].strategy == S_EXP ?
		    sim_exp_base(given->factor) : SIM_BASE;
		e->b.jitter = (struct jitter){ blog[i].jitter, 0, 0 };
	}
	p->ns = NPRESETS;
}

static const char *
plan_init(struct plan *p, const struct config *c, struct rng *rng)
{
	const struct backoff *b = &c->backoff;
	const char *why;
	size_t n;

	memset(p, 0, sizeof(*p));
	p->c = c;
	if ((why = clients_parse(c->clients, NULL, 0, &n)) != NULL)
		return why;
	if ((p->clients = calloc(n, sizeof(*p->clients))) == NULL)
		return "out of memory";
	(void)clients_parse(c->clients, p->clients, n, &p->nclients);
	if (c->custom) {
		describe(b, p->s[0].name, sizeof(p->s[0].name));
		p->s[0].b = *b;
		p->ns = 1;
	} else
		presets(p, b);
	p->seed = rng_next(rng);
	p->name_w = (int)strlen("strategy");
	for (size_t i = 0; i < p->ns; i++)
		if ((int)strlen(p->s[i].name) > p->name_w)
			p->name_w = (int)strlen(p->s[i].name);
	p->limits = b->max_attempts > 0 || b->max_actual_duration > 0;
	if (c->chart && (p->r = calloc(p->nclients * p->ns,
	    sizeof(*p->r))) == NULL)
		return "out of memory";
	return NULL;
}

static void
plan_free(struct plan *p)
{
	free(p->clients);
	free(p->r);
}

/*
 * Every strategy at one number of clients draws the same random numbers:
 * the comparison is fairer, and a strategy's row does not depend on
 * which others are simulated with it.
 */
static uint64_t
seed_for(const struct plan *p, unsigned long clients)
{
	return p->seed ^ ((uint64_t)clients * UINT64_C(0x9e3779b97f4a7c15));
}

static void
print_header(const struct plan *p)
{
	switch (p->c->format) {
	case FORMAT_PLAIN:
	case FORMAT_TABLE:
		printf("%7s  %-*s %12s %10s%s\n", "clients", p->name_w,
		    "strategy", "time (ms)", "calls", p->limits ? "    gave up" :
		    "");
		break;
	case FORMAT_CSV:
		puts("clients,strategy,runs,time_ms,calls,gave_up");
		break;
	case FORMAT_JSON:
		puts("[");
		break;
	}
}

/* %.15g, as show-backoff-delays prints numbers; buf is NUMBER_BUFSZ. */
static void
print_row(const struct plan *p, const char *name,
    const struct sim_result *r, bool first)
{
	const double ms = r->time / 1e6;
	char t[NUMBER_BUFSZ], c[NUMBER_BUFSZ], g[NUMBER_BUFSZ];

	switch (p->c->format) {
	case FORMAT_PLAIN:
	case FORMAT_TABLE:
		printf("%7lu  %-*s %12.1f %10.1f", r->clients, p->name_w, name,
		    ms, r->calls);
		if (p->limits)
			printf(" %10.2f", r->gave_up);
		putchar('\n');
		break;
	case FORMAT_CSV:
		printf("%lu,%s,%lu,%s,%s,%s\n", r->clients, name, r->runs,
		    number_text(ms, t), number_text(r->calls, c),
		    number_text(r->gave_up, g));
		break;
	case FORMAT_JSON:
		printf("%s  {\"clients\": %lu, \"strategy\": \"%s\", "
		    "\"runs\": %lu, \"time_ms\": %s, \"calls\": %s, "
		    "\"gave_up\": %s}", first ? "" : ",\n", r->clients, name,
		    r->runs, number_text(ms, t), number_text(r->calls, c),
		    number_text(r->gave_up, g));
		break;
	}
}

static void
print_footer(const struct plan *p)
{
	if (p->c->format == FORMAT_JSON)
		puts("\n]");
}

/* One of the chart's two measures, and its label. */
static double
measure(const struct sim_result *r, bool calls, char *buf, size_t sz)
{
	if (calls) {
		snprintf(buf, sz, "%.6g", r->calls);
		return r->calls;
	}
	duration_format(duration_round(llround(r->time)), buf, sz);
	return r->time;
}

/* --chart: a bar per strategy, grouped by clients, on one scale. */
static void
chart_measure(const struct plan *p, bool calls)
{
	char buf[DURATION_BUFSZ];
	double max = 0, v;
	int name_w = 0, label_w = 0, cells;
	const size_t n = p->nclients * p->ns;

	for (size_t i = 0; i < n; i++) {
		v = measure(&p->r[i], calls, buf, sizeof(buf));
		max = v > max ? v : max;
		label_w = (int)strlen(buf) > label_w ? (int)strlen(buf) :
		    label_w;
		name_w = (int)strlen(p->s[i % p->ns].name) > name_w ?
		    (int)strlen(p->s[i % p->ns].name) : name_w;
	}
	/* "  NAME LABEL BAR": the longest bar ends at the last column. */
	cells = chart_cells(2 + name_w + 1 + label_w + 1);
	printf("%s\n", calls ? "Mean write calls per run" :
	    "Mean time until the last client is done");
	for (size_t i = 0; i < n; i++) {
		if (i % p->ns == 0)
			printf("%lu clients\n", p->r[i].clients);
		v = measure(&p->r[i], calls, buf, sizeof(buf));
		printf("  %-*s %*s", name_w, p->s[i % p->ns].name, label_w,
		    buf);
		chart_bar(v, max, cells, p->c->ascii);
		putchar('\n');
	}
}

static const char *
plan_run(struct plan *p)
{
	const struct config *c = p->c;
	struct sim_result r;
	const char *why;

	if (!c->chart)
		print_header(p);
	for (size_t i = 0; i < p->nclients; i++)
		for (size_t j = 0; j < p->ns; j++) {
			why = simulate(&p->s[j].b, p->clients[i], c->runs,
			    seed_for(p, p->clients[i]), &r);
			if (why != NULL)
				return why;
			if (c->chart)
				p->r[i * p->ns + j] = r;
			else
				print_row(p, p->s[j].name, &r, i + j == 0);
		}
	if (c->chart) {
		chart_measure(p, false);
		putchar('\n');
		chart_measure(p, true);
	} else
		print_footer(p);
	return NULL;
}

/*
 * The load model of Marc Brooker's "Fixing retries with token buckets and
 * circuit breakers": each client sends first tries at Poisson times, 10 a
 * second for 10 seconds; the server fails each call with probability p,
 * whatever the load.  A try is retried at once, up to 3 times: never, or
 * always, or under one retry budget that all clients share (--share's
 * rule), or behind one shared circuit breaker, which fails a try without a
 * call while it is open.  Per first try: the chance that it succeeds, and
 * the calls it cost.
 */
#define LOAD_RATE	10.0		/* first tries a client sends a second */
#define LOAD_SECONDS	10.0
#define LOAD_RETRIES	3

enum load_kind { L_NONE, L_RETRIES, L_BUDGET, L_BREAKER, L_COUNT };

static const char *const load_names[L_COUNT] = {
	"no retries", "3 retries", "3 retries + budget", "3 retries + breaker",
};

struct load_result {
	double		 success;	/* first tries that succeeded */
	double		 load;		/* calls per first try */
};

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
			at -= log(1 - rng_unit(rng)) / LOAD_RATE;
			if (at >= LOAD_SECONDS || n == cap)
				break;
			t[n++] = at;
		}
	qsort(t, n, sizeof(*t), earlier);
	return n;
}

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
		now = llround(t[i] * 1e9);
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

/* The closed forms of the plain cases: 1 - p^(N+1) and the sum of p^k. */
static struct load_result
load_closed(enum load_kind k, double p)
{
	const int tries = k == L_NONE ? 1 : LOAD_RETRIES + 1;
	double load = 0;

	for (int i = 0; i < tries; i++)
		load += pow(p, i);
	return (struct load_result){ 1 - pow(p, tries), load };
}

static const char *
load_simulate(const struct config *c, double p, unsigned long clients,
    unsigned long runs, uint64_t seed, struct load_result out[L_COUNT])
{
	/* The budget as --share-budget says, or gRPC's default; the breaker
	 * as --share-breaker says, or 20 failures for 1s; it never waits. */
	const struct share_rules budget = { .max = c->share_rules.max,
	    .ratio = c->share_rules.ratio, .give_up = true,
	    .window = c->share_rules.window };
	const struct share_rules breaker = { .max = 1e6,
	    .trip = c->share_rules.trip > 0 ? c->share_rules.trip : 20,
	    .cooldown = c->share_rules.trip > 0 ? c->share_rules.cooldown :
	    NS_PER_SEC, .lease = NS_PER_SEC, .give_up = true,
	    .window = c->share_rules.window };
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

static void
load_print(const struct config *c, double p, const struct load_result *r,
    bool first)
{
	char a[NUMBER_BUFSZ], b[NUMBER_BUFSZ], e[NUMBER_BUFSZ], f[NUMBER_BUFSZ],
	    g[NUMBER_BUFSZ];

	for (int k = 0; k < L_COUNT; k++) {
		const struct load_result x = load_closed((enum load_kind)k, p);
		const bool closed = k == L_NONE || k == L_RETRIES;

		switch (c->format) {
		case FORMAT_PLAIN:
		case FORMAT_TABLE:
			printf("%12g  %-19s %8.3f %8.3f", p, load_names[k],
			    r[k].success, r[k].load);
			if (closed)
				printf("   %8.3f %8.3f", x.success, x.load);
			putchar('\n');
			break;
		case FORMAT_CSV:
			printf("%s,%s,%s,%s,%s,%s\n", number_text(p, a),
			    load_names[k], number_text(r[k].success, b),
			    number_text(r[k].load, e),
			    closed ? number_text(x.success, f) : "",
			    closed ? number_text(x.load, g) : "");
			break;
		case FORMAT_JSON:
			printf("%s  {\"failure_rate\": %s, \"strategy\": \"%s\", "
			    "\"success\": %s, \"load\": %s", first && k == 0 ?
			    "" : ",\n", number_text(p, a), load_names[k],
			    number_text(r[k].success, b),
			    number_text(r[k].load, e));
			if (closed)
				printf(", \"closed_success\": %s, "
				    "\"closed_load\": %s",
				    number_text(x.success, f),
				    number_text(x.load, g));
			putchar('}');
			break;
		}
	}
}

/* --chart: per failure rate, a bar per strategy: load, then success. */
static void
load_chart(const struct config *c, const double *p, size_t n,
    const struct load_result *r)
{
	/* "  NAME VALUE BAR": the longest bar ends at the last column. */
	const int cells = chart_cells(2 + 19 + 1 + 6 + 1);

	for (int m = 0; m < 2; m++) {
		double max = 0;

		for (size_t i = 0; i < n * L_COUNT; i++)
			max = fmax(max, m == 0 ? r[i].load : r[i].success);
		printf("%s%s\n", m == 0 ? "" : "\n", m == 0 ?
		    "Calls per first try (load)" :
		    "First tries that succeed");
		for (size_t i = 0; i < n * L_COUNT; i++) {
			const double v = m == 0 ? r[i].load : r[i].success;

			if (i % L_COUNT == 0)
				printf("failure rate %g\n", p[i / L_COUNT]);
			printf("  %-19s %6.3f", load_names[i % L_COUNT], v);
			chart_bar(v, max, cells, c->ascii);
			putchar('\n');
		}
	}
}

static const char *
load_main(const struct config *c, struct rng *rng)
{
	double p[RATES_MAX];
	struct load_result *r;
	unsigned long clients[CLIENTS_LISTMAX];
	const uint64_t seed = rng_next(rng);
	const char *why;
	size_t n, nc;

	if ((why = rates_parse(c->failure_rates, p, RATES_MAX, &n)) != NULL ||
	    (why = clients_parse(c->clients, clients, CLIENTS_LISTMAX, &nc)) !=
	    NULL)
		return why;
	if (nc != 1)
		return "--failure-rate takes one number of --clients";
	if ((r = calloc(n * L_COUNT, sizeof(*r))) == NULL)
		return "out of memory";
	if (!c->chart && (c->format == FORMAT_PLAIN ||
	    c->format == FORMAT_TABLE))
		printf("%12s  %-19s %8s %8s  %9s %8s\n", "failure rate",
		    "strategy", "success", "load", "1-p^(N+1)", "sum p^k");
	else if (!c->chart && c->format == FORMAT_CSV)
		puts("failure_rate,strategy,success,load,closed_success,"
		    "closed_load");
	else if (!c->chart)
		puts("[");
	for (size_t i = 0; i < n && why == NULL; i++) {
		why = load_simulate(c, p[i], clients[0], c->runs,
		    seed ^ (uint64_t)llround(p[i] * 1e9), &r[i * L_COUNT]);
		if (why == NULL && !c->chart)
			load_print(c, p[i], &r[i * L_COUNT], i == 0);
	}
	if (why == NULL && c->chart)
		load_chart(c, p, n, r);
	else if (why == NULL && c->format == FORMAT_JSON)
		puts("\n]");
	free(r);
	return why;
}

int
simulate_main(const struct config *c, struct rng *rng)
{
	struct plan p;
	const char *why;

	if (c->failure_rates != NULL)
		why = load_main(c, rng);
	else {
		if ((why = plan_init(&p, c, rng)) == NULL)
			why = plan_run(&p);
		plan_free(&p);
	}
	if (why != NULL) {
		fflush(stdout);
		warnx("%s", why);
		return EXIT_USAGE;
	}
	if (fflush(stdout) != 0 || ferror(stdout)) {
		warn("stdout");
		return EXIT_USAGE;
	}
	return 0;
}
