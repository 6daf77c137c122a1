/*
 * retry simulate: which strategies to run through model.c's models, and
 * their means printed as rows (a table, CSV or JSON) or drawn as a chart.
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
#include "mathlib.h"
#include "model.h"
#include "number.h"
#include "simulate.h"

/* The contention model: which strategies, their rows and their chart. */

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
	struct contention_result *r;	/* nclients x ns, for the chart */
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
    const struct contention_result *r, bool first)
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
measure(const struct contention_result *r, bool calls, char *buf, size_t sz)
{
	if (calls) {
		snprintf(buf, sz, "%.6g", r->calls);
		return r->calls;
	}
	duration_format(duration_round(math_llround(r->time)), buf, sz);
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
	struct contention_result r;
	const char *why;

	if (!c->chart)
		print_header(p);
	for (size_t i = 0; i < p->nclients; i++)
		for (size_t j = 0; j < p->ns; j++) {
			why = simulate_contention(&p->s[j].b, p->clients[i],
			    c->runs, seed_for(p, p->clients[i]), &r);
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

/* The load model: its rows and its chart. */

/* The kinds, as the table names them. */
static const char *const load_names[L_COUNT] = {
	"no retries", "3 retries", "3 retries + budget", "3 retries + breaker",
};

static void
load_print(const struct config *c, double p, const struct load_result *r,
    bool first)
{
	char a[NUMBER_BUFSZ], b[NUMBER_BUFSZ], e[NUMBER_BUFSZ], f[NUMBER_BUFSZ],
	    g[NUMBER_BUFSZ];

	for (int k = 0; k < L_COUNT; k++) {
		const struct load_result x = load_closed_form(
		    (enum load_kind)k, p);
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
		double max = 0, top;

		for (size_t i = 0; i < n * L_COUNT; i++) {
			top = m == 0 ? r[i].load : r[i].success;
			max = top > max ? top : max;
		}
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
		why = simulate_load(&c->share_rules, p[i], clients[0],
		    c->runs, seed ^ (uint64_t)math_llround(p[i] * 1e9),
		    &r[i * L_COUNT]);
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
