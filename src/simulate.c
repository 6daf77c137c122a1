/*
 * retry simulate: which strategies to run through model.c's models, and
 * their means printed as rows (a table, CSV or JSON) or drawn as a chart.
 */
#include <sys/ioctl.h>

#include <err.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "chart.h"
#include "clock.h"
#include "duration.h"
#include "exits.h"
#include "hedgemodel.h"
#include "learnmodel.h"
#include "mathlib.h"
#include "model.h"
#include "number.h"
#include "simlists.h"
#include "simulate.h"

/* The contention model: which strategies, their rows and their chart. */

#define NPRESETS	6

struct contender {
	char		 name[32];
	struct backoff	 b;
	double		 calls_b;	/* write calls of a run of CAL_B */
	double		 growth;	/* and their power of the clients */
};

/*
 * Progress, at a terminal only: a simulation of thousands of clients can
 * take an hour.  Its work is measured in write calls, which grow as a
 * power of the clients that a run of CAL_A and one of CAL_B clients show,
 * and which take the time per call that those runs took.  Up front, a line
 * says how long the whole will take when that is more than SLOW; then one
 * line, redrawn in place while retry is in the terminal's foreground, says
 * how far it is, and is cleared at the end.
 */
#define CAL_A		200
#define CAL_B		400
#define SLOW		(5 * NS_PER_SEC)
#define REDRAW		(250 * NS_PER_MS)

struct progress {
	bool		 on;		/* stderr is a terminal */
	bool		 drawn;		/* a line is up */
	int64_t		 start, drawn_at;
	double		 total;		/* the calls expected of all */
	double		 before;	/* of the cells done */
	double		 cell;		/* of the cell running, a run */
	unsigned long	 done;		/* its runs done */
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
	struct progress	 pr;
};

/* A strategy given on the command line, named for the table. */
static void
describe(const struct backoff *b, char *buf, size_t sz)
{
	static const char *const concise[] = {
		[STRAT_EXP] = "exp", [STRAT_FIXED] = "fixed", [STRAT_LINEAR] = "linear",
		[STRAT_FIB] = "fib", [STRAT_LIST] = "delays",
		[STRAT_DECORRELATED] = "decorrelated", [STRAT_IMMEDIATE] = "immediate",
		[STRAT_DECORRELATED_V2] = "decorrelated-v2",
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
 * --decorrelated 5ms, which draws as the blog's does.  And Polly's
 * successor of the last, decorrelated-v2 = --decorrelated-v2 10ms, its
 * median first delay the exponential's first.
 */
static void
presets(struct plan *p, const struct backoff *given)
{
	static const struct {
		const char	*name;
		enum strategy	 strategy;
		enum jitter_mode jitter;
	} blog[NPRESETS] = {
		{ "none", STRAT_IMMEDIATE, J_NONE },
		{ "exponential", STRAT_EXP, J_NONE },
		{ "equal-jitter", STRAT_EXP, J_EQUAL },
		{ "full-jitter", STRAT_EXP, J_FULL },
		{ "decorrelated", STRAT_DECORRELATED, J_NONE },
		{ "decorrelated-v2", STRAT_DECORRELATED_V2, J_NONE },
	};

	for (size_t i = 0; i < NPRESETS; i++) {
		struct contender *e = &p->s[i];

		snprintf(e->name, sizeof(e->name), "%s", blog[i].name);
		e->b = *given;
		e->b.strategy = blog[i].strategy;
		e->b.base = blog[i].strategy == STRAT_EXP ||
		    blog[i].strategy == STRAT_DECORRELATED_V2 ?
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

/* Whether retry may draw on its terminal: it is the foreground's. */
static bool
foreground(void)
{
	const pid_t pg = tcgetpgrp(STDERR_FILENO);

	return pg != -1 && pg == getpgrp();
}

static void
progress_clear(struct progress *pr)
{
	if (pr->drawn)
		fputs("\r\033[K", stderr);
	pr->drawn = false;
}

/* The write calls a run of n clients makes with e's strategy. */
static double
expected(const struct contender *e, unsigned long n)
{
	return e->calls_b * math_pow((double)n / CAL_B, e->growth);
}

/* What each strategy's runs grow as, and the time of a write call: ns. */
static double
calibrate(struct plan *p)
{
	struct contention_result a, b;
	const int64_t t0 = mono_ns();
	double calls = 0;

	for (size_t j = 0; j < p->ns; j++) {
		struct contender *e = &p->s[j];

		if (simulate_contention(&e->b, CAL_A, 1, p->seed + 1, &a) !=
		    NULL || simulate_contention(&e->b, CAL_B, 1, p->seed + 1,
		    &b) != NULL)
			return 0;
		e->calls_b = b.calls > 1 ? b.calls : 1;
		e->growth = a.calls > 0 ? math_log(e->calls_b / a.calls) /
		    math_log((double)CAL_B / CAL_A) : 2;
		e->growth = e->growth < 1 ? 1 : e->growth > 2.5 ? 2.5 :
		    e->growth;
		calls += a.calls + b.calls;
	}
	return calls > 0 ? (double)(mono_ns() - t0) / calls : 0;
}

/* Up front: the work of the whole, and how long it will take if long. */
static void
progress_start(struct plan *p)
{
	struct progress *pr = &p->pr;
	char d[DURATION_BUFSZ];
	double per_call, ns;

	memset(pr, 0, sizeof(*pr));
	if (!isatty(STDERR_FILENO) || (per_call = calibrate(p)) <= 0)
		return;
	for (size_t i = 0; i < p->nclients; i++)
		for (size_t j = 0; j < p->ns; j++)
			pr->total += (double)p->c->runs *
			    expected(&p->s[j], p->clients[i]);
	ns = pr->total * per_call;
	pr->on = true;
	pr->start = mono_ns();
	if (ns > (double)SLOW && foreground())
		fprintf(stderr, "retry simulate: this will take about %s\n",
		    duration_format(duration_round(math_llround(ns)), d,
		    sizeof(d)));
}

/* After each run: the line redrawn, at most every REDRAW. */
static void
progress_tick(void *arg, uint64_t calls)
{
	struct progress *pr = arg;
	const int64_t now = mono_ns();
	char line[256], d[DURATION_BUFSZ], left[DURATION_BUFSZ + 16] = "";
	struct winsize ws;
	double f;
	int cols = 80;

	(void)calls;
	pr->done++;
	if (!pr->on || now - pr->drawn_at < REDRAW || !foreground())
		return;
	pr->drawn_at = now;
	f = (pr->before + pr->cell * (double)pr->done) / pr->total;
	f = f > 1 ? 1 : f;
	if (f > 0 && f < 1)
		snprintf(left, sizeof(left), ", about %s left",
		    duration_format(duration_round(math_llround(
		    (double)(now - pr->start) * (1 - f) / f)), d, sizeof(d)));
	if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		cols = ws.ws_col;
	/* One row: never as wide as the terminal, which would wrap. */
	snprintf(line, sizeof(line), "retry simulate: %d%% done%s",
	    (int)(f * 100), left);
	fflush(stdout);
	fprintf(stderr, "\r%.*s\033[K", cols > 1 ? cols - 1 : 0, line);
	pr->drawn = true;
}

static const char *
plan_run(struct plan *p)
{
	const struct config *c = p->c;
	struct progress *pr = &p->pr;
	struct contention_result r;
	const char *why;

	progress_start(p);
	if (!c->chart)
		print_header(p);
	for (size_t i = 0; i < p->nclients; i++)
		for (size_t j = 0; j < p->ns; j++) {
			pr->cell = pr->on ? expected(&p->s[j], p->clients[i]) :
			    0;
			pr->done = 0;
			why = simulate_contention_ticked(&p->s[j].b,
			    p->clients[i], c->runs, seed_for(p, p->clients[i]),
			    &r, pr->on ? progress_tick : NULL, pr);
			pr->before += pr->cell * (double)c->runs;
			progress_clear(pr);
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

/* The hedging model: its three rows. */

/* A percentile as the table writes it: a duration, or "never". */
static const char *
tail_text(int64_t ns, char *buf, size_t sz)
{
	if (ns < 0)
		snprintf(buf, sz, "never");
	else
		duration_format(ns, buf, sz);
	return buf;
}

/* In milliseconds for CSV ("" when never) and JSON (null). */
static const char *
tail_ms(int64_t ns, bool json, char *buf)
{
	if (ns < 0)
		return json ? "null" : "";
	return number_text((double)ns / 1e6, buf);
}

static void
tail_head(const struct config *c)
{
	if (c->format == FORMAT_CSV)
		puts("strategy,delay_ms,in_flight,p50_ms,p99_ms,p99_9_ms,"
		    "calls");
	else if (c->format == FORMAT_JSON)
		puts("[");
	else
		printf("%-16s %9s %9s %9s %8s\n", "strategy", "p50", "p99",
		    "p99.9", "calls");
}

/* A row: its strategy's name, shown (the plain table's name), delay
 * (-1: none) and n in flight; more, JSON's further fields or "". */
static void
tail_row(const struct config *c, bool first, const char *name,
    const char *shown, int64_t delay, unsigned n,
    const struct tail_result *x, const char *more)
{
	const bool json = c->format == FORMAT_JSON;
	char a[NUMBER_BUFSZ], b[NUMBER_BUFSZ], e[NUMBER_BUFSZ],
	    f[NUMBER_BUFSZ], g[NUMBER_BUFSZ], p[3][DURATION_BUFSZ];
	const char *calls = isfinite(x->calls) ? number_text(x->calls, g) :
	    json ? "null" : "";

	switch (c->format) {
	case FORMAT_PLAIN:
	case FORMAT_TABLE:
		printf("%-16s %9s %9s %9s", shown,
		    tail_text(x->p50, p[0], sizeof(p[0])),
		    tail_text(x->p99, p[1], sizeof(p[1])),
		    tail_text(x->p999, p[2], sizeof(p[2])));
		if (isfinite(x->calls))
			printf(" %8.3f\n", x->calls);
		else
			printf(" %8s\n", "Inf");
		break;
	case FORMAT_CSV:
		printf("%s,%s,%u,%s,%s,%s,%s\n", name,
		    delay < 0 ? "" : tail_ms(delay, false, a), n,
		    tail_ms(x->p50, false, b), tail_ms(x->p99, false, e),
		    tail_ms(x->p999, false, f), calls);
		break;
	case FORMAT_JSON:
		printf("%s  {\"strategy\": \"%s\", \"delay_ms\": %s, "
		    "\"in_flight\": %u, \"p50_ms\": %s, \"p99_ms\": %s, "
		    "\"p99_9_ms\": %s, \"calls\": %s%s}", first ? "" : ",\n",
		    name, delay < 0 ? "null" : tail_ms(delay, true, a), n,
		    tail_ms(x->p50, true, b), tail_ms(x->p99, true, e),
		    tail_ms(x->p999, true, f), calls, more);
		break;
	}
}

static void
tail_foot(const struct config *c)
{
	if (c->format == FORMAT_JSON)
		puts("\n]");
}

static void
tail_print(const struct config *c, const struct tail_result *r)
{
	static const char *const names[TAIL_COUNT] = {
		[TAIL_NONE] = "none", [TAIL_TIMEOUT] = "timeout",
		[TAIL_HEDGE] = "hedge",
	};
	char d[DURATION_BUFSZ], way[DURATION_BUFSZ + 16];

	duration_format(c->hedge.delay, d, sizeof(d));
	tail_head(c);
	for (int k = 0; k < TAIL_COUNT; k++) {
		if (k == TAIL_NONE)
			snprintf(way, sizeof(way), "none");
		else
			snprintf(way, sizeof(way), "%s %s%s%.0u", names[k], d,
			    k == TAIL_HEDGE ? ":" : "",
			    k == TAIL_HEDGE ? c->hedge.n : 0);
		tail_row(c, k == 0, names[k], way, k == TAIL_NONE ? -1 :
		    c->hedge.delay, k == TAIL_HEDGE ? c->hedge.n : 1, &r[k],
		    "");
	}
	tail_foot(c);
}

/* "95th", "99.5th", "1st": a percentile's name. */
static const char *
percentile(double v, char buf[NUMBER_BUFSZ + 2])
{
	static const char *const th[] = { "th", "st", "nd", "rd" };
	const long whole = (long)(v + 0.5);
	const long last = whole % 10;
	char n[NUMBER_BUFSZ];

	/* 100 - 57 is 43.00000000000001 in binary: a whole number. */
	if (fabs(v - (double)whole) < 1e-9)
		v = (double)whole;
	number_text(v, n);
	snprintf(buf, NUMBER_BUFSZ + 2, "%s%s", n, (double)whole != v ||
	    (whole % 100 >= 11 && whole % 100 <= 13) || last > 3 ? "th" :
	    th[last]);
	return buf;
}

/* The learning model (learnmodel.h): no hedge, the best fixed one in
 * hindsight, and auto; then, in the table, what auto learned. */
static void
learn_print(const struct config *c, const struct learn_result *r)
{
	const double pct = c->hedge.load * 100;
	char d[DURATION_BUFSZ], way[DURATION_BUFSZ + 16], more[128],
	    b[DURATION_BUFSZ], a[DURATION_BUFSZ], t[DURATION_BUFSZ],
	    n[NUMBER_BUFSZ], x[NUMBER_BUFSZ], q[NUMBER_BUFSZ + 2];

	tail_head(c);
	tail_row(c, true, "none", "none", -1, 1, &r->way[LEARN_NONE], "");
	if (r->fixed > 0)
		snprintf(way, sizeof(way), "hedge %s:2",
		    duration_format(r->fixed, d, sizeof(d)));
	else
		snprintf(way, sizeof(way), "hedge none");
	tail_row(c, false, "hedge", way, r->fixed > 0 ? r->fixed : -1, 2,
	    &r->way[LEARN_FIXED], "");
	snprintf(way, sizeof(way), "auto:%s%%", number_text(pct, n));
	snprintf(t, sizeof(t), "%ld", r->settled);
	snprintf(more, sizeof(more), ", \"load\": %s, \"delay_at_shift_ms\": "
	    "%s, \"settled_runs\": %s", number_text(c->hedge.load, n),
	    r->before > 0 ? tail_ms(r->before, true, x) : "null",
	    r->settled >= 0 ? t : "null");
	tail_row(c, false, "auto", way, r->after > 0 ? r->after : -1, 2,
	    &r->way[LEARN_AUTO], more);
	tail_foot(c);
	if (c->format != FORMAT_PLAIN && c->format != FORMAT_TABLE)
		return;
	printf("\nauto:%s%%'s delay: %s at run %lu of %lu, %s at the end.\n",
	    number_text(pct, n), r->before > 0 ? duration_format(r->before, b,
	    sizeof(b)) : "none", c->runs / 2 + 1, c->runs, r->after > 0 ?
	    duration_format(r->after, a, sizeof(a)) : "none");
	duration_format(r->target, t, sizeof(t));
	if (c->latency_after.n == 0)
		printf("The %s percentile is %s.\n", percentile(100 - pct, q),
		    t);
	else if (r->settled >= 0)
		printf("Within %d%% of the new %s percentile (%s) after %ld "
		    "runs.\n", (int)(LEARN_CLOSE * 100),
		    percentile(100 - pct, q), t, r->settled);
	else
		printf("Never within %d%% of the new %s percentile (%s).\n",
		    (int)(LEARN_CLOSE * 100), percentile(100 - pct, q), t);
}

int
simulate_main(const struct config *given, struct rng *rng)
{
	struct config sim = *given;
	const struct config *c = &sim;
	struct plan p;
	const char *why;

	sim_defaults(&sim.backoff, given->given_strategy,
	    given->given_max_delay, given->given_max);
	if (c->hedge.load > 0) {
		struct learn_result r;

		if ((why = learn_model(&c->latency, &c->latency_after,
		    c->hedge.load, c->runs, rng_next(rng), &r)) == NULL)
			learn_print(c, &r);
	} else if (c->hedge.delay > 0) {
		struct tail_result r[TAIL_COUNT];

		tail_model(&c->latency, &c->hedge, r);
		tail_print(c, r);
		why = NULL;
	} else if (c->failure_rates != NULL)
		why = load_main(c, rng);
	else {
		if ((why = plan_init(&p, c, rng)) == NULL)
			why = plan_run(&p);
		plan_free(&p);
	}
	if (why != NULL) {
		fflush(stdout);
		warnx("%s", why);
		return STATUS_CANCELED;
	}
	if (fflush(stdout) != 0 || ferror(stdout)) {
		warn("stdout");
		return STATUS_CANCELED;
	}
	return 0;
}
