/*
 * retry simulate's models.  Their means are random, so most rows give
 * bounds that any seed meets by a wide margin, and the seed is fixed; a
 * few say what holds exactly: one client never collides, a failure rate
 * of 0 or 1 leaves nothing to chance, and a seed gives the same means
 * every time.
 */
#include <math.h>
#include <string.h>

#include "hedgemodel.h"
#include "learnmodel.h"
#include "model.h"
#include "options.h"
#include "simlists.h"
#include "unit.h"

#define MS	1e6		/* ns */

/* The blog's exponential back-off as --exp's first delay. */
static void
rows_exp_base(void)
{
	static const struct {
		const char	*name;
		double		 factor;
		int64_t		 want;
	} t[] = {
		{ "factor 2: 10ms, the blog's 2 x 5ms", 2, 10 * NS_PER_MS },
		{ "factor 3: 15ms", 3, 15 * NS_PER_MS },
		{ "factor 1.5: 7.5ms", 1.5, 7500 * NS_PER_US },
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		unit_row(sim_exp_base(t[i].factor) == t[i].want, "sim_exp_base",
		    t[i].name, "want %lld, got %lld", (long long)t[i].want,
		    (long long)sim_exp_base(t[i].factor));
}

/* simulate's options, as the subcommand parses them. */
static int
simulate_options(const char *s, struct config *c, char *err, size_t errsz)
{
	static char simulate[] = "simulate";
	char buf[256], *argv[32];
	int n = 0;

	snprintf(buf, sizeof(buf), "%s", s);
	argv[n++] = simulate;
	for (char *t = strtok(buf, " "); t != NULL && n < 31;
	    t = strtok(NULL, " "))
		argv[n++] = t;
	argv[n] = NULL;
	if (options_parse(n, argv, MODE_SIMULATE, c, err, errsz) != 0)
		return -1;
	/* And the blog's model where they say nothing, as simulate fills
	 * it in. */
	sim_defaults(&c->backoff, c->given_strategy, c->given_max_delay,
	    c->given_max);
	return 0;
}

/*
 * The contention model: a strategy, a number of clients and of runs, and
 * the bounds of the means (time in ms).
 */
static const struct contention_row {
	const char	*name;
	const char	*options;
	unsigned long	 clients, runs;
	double		 time_lo, time_hi;
	double		 calls_lo, calls_hi;
	double		 gave_up_lo, gave_up_hi;
} contention[] = {
	{ "one client: one write, done in four hops of 10ms",
	  "--immediate", 1, 20, 36, 44, 1, 1, 0, 0 },
	{ "--max 1: one write of ten wins, nine give up",
	  "--exp 10ms --max 1", 10, 20, 30, 60, 10, 10, 9, 9 },
	{ "no back-off: every client writes in the end, none gives up",
	  "--immediate", 20, 5, 40, 10000, 20, 400, 0, 0 },
	{ "exponential back-off, 50 clients: tens of seconds",
	  "--exp 10ms", 50, 5, 10000, 60000, 300, 1000, 0, 0 },
	{ "full jitter, 50 clients: seconds",
	  "--exp 10ms --jitter full", 50, 5, 1000, 10000, 150, 500, 0, 0 },
};

static void
rows_contention(void)
{
	struct contention_result r;
	struct config c;
	char err[256];
	const char *why;

	for (size_t i = 0; i < sizeof(contention) / sizeof(contention[0]);
	    i++) {
		const struct contention_row *t = &contention[i];

		if (simulate_options(t->options, &c, err, sizeof(err)) != 0) {
			unit_row(false, "contention", t->name, "options: %s",
			    err);
			options_free(&c);
			continue;
		}
		memset(&r, 0, sizeof(r));
		why = simulate_contention(&c.backoff, t->clients, t->runs, 1,
		    &r);
		unit_row(why == NULL && r.clients == t->clients &&
		    r.runs == t->runs && r.time / MS >= t->time_lo &&
		    r.time / MS <= t->time_hi && r.calls >= t->calls_lo &&
		    r.calls <= t->calls_hi && r.gave_up >= t->gave_up_lo &&
		    r.gave_up <= t->gave_up_hi, "contention", t->name,
		    "%s: time %gms, calls %g, gave up %g", why != NULL ? why :
		    "means", r.time / MS, r.calls, r.gave_up);
		options_free(&c);
	}
}

/* What the ticks of a simulation said. */
static struct {
	unsigned long	 n;
	uint64_t	 calls;
} ticks;

static void
count_tick(void *arg, uint64_t calls)
{
	(void)arg;
	ticks.n++;
	ticks.calls += calls;
}

/* What the contention model refuses, and that a seed decides it. */
static void
rows_contention_edges(void)
{
	static const struct {
		const char	*name;
		unsigned long	 clients, runs;
	} refused[] = {
		{ "no clients", 0, 1 },
		{ "more clients than --clients allows", CLIENTS_MAX + 1, 1 },
		{ "no runs", 1, 0 },
	};
	const struct backoff b = { .strategy = STRAT_IMMEDIATE };
	struct contention_result r, again;

	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++)
		unit_row(simulate_contention(&b, refused[i].clients,
		    refused[i].runs, 1, &r) != NULL, "contention",
		    refused[i].name, "not refused");
	(void)simulate_contention(&b, 30, 3, 7, &r);
	(void)simulate_contention(&b, 30, 3, 7, &again);
	unit_row(r.time == again.time && r.calls == again.calls &&
	    r.gave_up == again.gave_up, "contention",
	    "a seed gives the same means", "time %g and %g", r.time,
	    again.time);
	(void)simulate_contention(&b, 30, 3, 8, &again);
	unit_row(r.time != again.time, "contention",
	    "another seed other means", "time %g both", r.time);
	/* The ticks of progress: one a run, with its calls, and the means
	 * unchanged. */
	memset(&ticks, 0, sizeof(ticks));
	(void)simulate_contention_ticked(&b, 30, 3, 7, &again, count_tick,
	    &ticks);
	unit_row(ticks.n == 3 && (double)ticks.calls == 3 * r.calls &&
	    again.time == r.time && again.calls == r.calls, "contention",
	    "a tick a run, with its calls", "%lu ticks, %llu calls, %g a run",
	    ticks.n, (unsigned long long)ticks.calls, r.calls);
}

/* The blog's finding: jitter takes less time and fewer calls than
 * exponential back-off alone. */
static void
row_contention_jitter(void)
{
	static const char *const strategies[2] = { "--exp 10ms",
	    "--exp 10ms --jitter full" };
	struct contention_result r[2] = { 0 };
	struct config c;
	char err[256];

	for (int i = 0; i < 2; i++) {
		if (simulate_options(strategies[i], &c, err, sizeof(err)) == 0)
			(void)simulate_contention(&c.backoff, 100, 5, 1, &r[i]);
		options_free(&c);
	}
	unit_row(r[1].time < r[0].time && r[1].calls < r[0].calls,
	    "contention", "100 clients: full jitter beats exponential alone",
	    "time %gms and %gms, calls %g and %g", r[0].time / MS,
	    r[1].time / MS, r[0].calls, r[1].calls);
}

/* The closed forms: 1 - p^(N+1) and the sum of p^k for k <= N. */
static void
rows_closed_form(void)
{
	static const struct {
		const char	*name;
		enum load_kind	 kind;
		double		 p, success, load;
	} t[] = {
		{ "no retries, p 0.5", L_NONE, 0.5, 0.5, 1 },
		{ "no retries, p 1", L_NONE, 1, 0, 1 },
		{ "3 retries, p 0.5", L_RETRIES, 0.5, 0.9375, 1.875 },
		{ "3 retries, p 0", L_RETRIES, 0, 1, 1 },
		{ "3 retries, p 1: four calls, no success", L_RETRIES, 1, 0,
		  4 },
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		const struct load_result r = load_closed_form(t[i].kind,
		    t[i].p);

		unit_row(r.success == t[i].success && r.load == t[i].load,
		    "load_closed_form", t[i].name,
		    "want %g %g, got %g %g", t[i].success, t[i].load,
		    r.success, r.load);
	}
}

/*
 * The load model: simulate's options (--share-budget, --share-breaker),
 * a failure rate, and the bounds of one kind's means over 10 clients'
 * thousand first tries a run.
 */
static const struct load_row {
	const char	*name;
	const char	*options;
	double		 p;
	enum load_kind	 kind;
	double		 success_lo, success_hi;
	double		 load_lo, load_hi;
} load[] = {
	{ "p 0: every first try succeeds, no retries", "", 0, L_RETRIES,
	  1, 1, 1, 1 },
	{ "p 0 behind a breaker: it never opens", "", 0, L_BREAKER,
	  1, 1, 1, 1 },
	{ "p 1 without retries: one call a try", "", 1, L_NONE, 0, 0, 1, 1 },
	{ "p 1 with 3 retries: four calls a try", "", 1, L_RETRIES,
	  0, 0, 4, 4 },
	{ "p 1 under a budget: the 10 tokens, then no retry", "", 1,
	  L_BUDGET, 0, 0, 1.005, 1.02 },
	{ "p 1 under --share-budget 100: more tokens", "--share-budget 100",
	  1, L_BUDGET, 0, 0, 1.05, 1.2 },
	{ "p 1 behind a breaker: an open one fails tries without a call",
	  "", 1, L_BREAKER, 0, 0, 0, 0.1 },
	{ "p 0.5 with 3 retries: the closed form", "", 0.5, L_RETRIES,
	  0.92, 0.955, 1.8, 1.95 },
	{ "p 0.5 under a budget: few retries, and little more success", "",
	  0.5, L_BUDGET, 0.5, 0.62, 1.05, 1.2 },
	{ "p 0.5 behind a breaker: 20 failures in a row are rare", "", 0.5,
	  L_BREAKER, 0.92, 0.955, 1.8, 1.95 },
};

static void
rows_load(void)
{
	struct load_result r[L_COUNT];
	struct config c;
	char err[256];
	const char *why;

	for (size_t i = 0; i < sizeof(load) / sizeof(load[0]); i++) {
		const struct load_row *t = &load[i];
		const struct load_result *k = &r[t->kind];

		if (simulate_options(t->options, &c, err, sizeof(err)) != 0) {
			unit_row(false, "load", t->name, "options: %s", err);
			options_free(&c);
			continue;
		}
		memset(r, 0, sizeof(r));
		why = simulate_load(&c.share_rules, t->p, 10, 5, 1, r);
		unit_row(why == NULL && k->success >= t->success_lo &&
		    k->success <= t->success_hi && k->load >= t->load_lo &&
		    k->load <= t->load_hi, "load", t->name,
		    "%s: success %g, load %g", why != NULL ? why : "means",
		    k->success, k->load);
		options_free(&c);
	}
}

/*
 * The hedging model, each row worked out by hand.  95% of 20ms and 5% of
 * 2s, hedged at 100ms: a run is slow only when both attempts are (0.05^2 =
 * 0.0025 of runs, more than 0.001: p99.9 stays 2s), the hedge ends at
 * 120ms otherwise, and a second attempt starts in 5% of runs.  The
 * timeout retries at once: round k ends at k x 100ms + 20ms, reached with
 * 0.05^k, 1/0.95 attempts a run.
 */
static const struct tail_row {
	const char	*name;
	const char	*options;
	enum tail_kind	 kind;
	double		 p50, p99, p999;	/* ms; -1: never */
	double		 calls;
} tail[] = {
	{ "none: one attempt's own percentiles", "--hedge 100ms",
	  TAIL_NONE, 20, 2000, 2000, 1 },
	{ "timeout 100ms: k rounds of 100ms, then 20ms", "--hedge 100ms",
	  TAIL_TIMEOUT, 20, 120, 220, 1 / 0.95 },
	{ "hedge 100ms: 0.0025 of runs wait 2s; 1.05 calls", "--hedge 100ms",
	  TAIL_HEDGE, 20, 120, 2000, 1.05 },
	{ "hedge 100ms:3: 0.05^3 < 0.001; 1 + 0.05 + 0.0025 calls",
	  "--hedge 100ms:3", TAIL_HEDGE, 20, 120, 220, 1.0525 },
	{ "--latency alone: hedged at its 95th percentile, 20ms",
	  "--latency 20ms,2s@5%", TAIL_HEDGE, 20, 40, 2000, 1.05 },
	{ "items without a chance share the rest; any order",
	  "--latency 2s@5%,20ms --hedge 100ms", TAIL_HEDGE, 20, 120, 2000,
	  1.05 },
	{ "half 10ms, half 30ms, hedged at 20ms: the hedge never wins",
	  "--latency 10ms,30ms --hedge 20ms", TAIL_HEDGE, 10, 30, 30, 1.5 },
	{ "the same, timeout 20ms: 1/2^(k+1) end in round k",
	  "--latency 10ms,30ms --hedge 20ms", TAIL_TIMEOUT, 10, 130, 190, 2 },
	{ "every attempt over the timeout: never", "--latency 1s --hedge "
	  "500ms", TAIL_TIMEOUT, -1, -1, -1, (double)INFINITY },
	{ "every attempt 1s, hedged at 500ms: 2 calls, no gain",
	  "--latency 1s --hedge 500ms", TAIL_HEDGE, 1000, 1000, 1000, 2 },
};

static bool
same_ms(int64_t ns, double ms)
{
	return ms < 0 ? ns == -1 : fabs((double)ns / MS - ms) < 1e-9;
}

static void
rows_tail(void)
{
	struct tail_result r[TAIL_COUNT];
	struct config c;
	char err[256];

	for (size_t i = 0; i < sizeof(tail) / sizeof(tail[0]); i++) {
		const struct tail_row *t = &tail[i];
		const struct tail_result *k = &r[t->kind];

		if (simulate_options(t->options, &c, err, sizeof(err)) != 0) {
			unit_row(false, "tail", t->name, "options: %s", err);
			options_free(&c);
			continue;
		}
		tail_model(&c.latency, &c.hedge, r);
		unit_row(same_ms(k->p50, t->p50) && same_ms(k->p99, t->p99) &&
		    same_ms(k->p999, t->p999) && (isinf(t->calls) ?
		    isinf(k->calls) : fabs(k->calls - t->calls) < 1e-9),
		    "tail", t->name, "p50 %lld, p99 %lld, p99.9 %lld ns, "
		    "calls %.12g", (long long)k->p50, (long long)k->p99,
		    (long long)k->p999, k->calls);
		options_free(&c);
	}
}

/* --latency and --hedge refused, each with its reason. */
static void
rows_tail_refused(void)
{
	static const struct {
		const char	*options;
		const char	*want;
	} t[] = {
		{ "--latency 20ms,2s@5", "a percentage" },
		{ "--latency 20ms,2s@0%", "over 0%" },
		{ "--latency 1s@50%,2s@40%", "must add up to 100%" },
		{ "--latency 1s@50%,2s@50%,3s", "leave nothing" },
		{ "--latency 1s,1000ms", "given twice" },
		{ "--latency 1s,,2s", "empty" },
		{ "--latency 0s", "more than 0" },
		{ "--latency 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17",
		  "more than 16" },
		/* hedging.c's own words, retry's as simulate's. */
		{ "--hedge 0", "--hedge: '0': " },
		{ "--hedge 1s:1", "--hedge: '1s:1': " },
		{ "--hedge 1s:17", "--hedge: '1s:17': " },
		{ "--hedge 1s:", "--hedge: '1s:': " },
		{ "--hedge :2", "--hedge: ':2': " },
		{ "--hedge 1s --clients 10", "--clients: has no part" },
		{ "--hedge 1s --runs 10", "--runs: has no part" },
		{ "--latency-after 1s", "--latency-after: needs --hedge auto" },
		{ "--hedge 1s --latency-after 1s", "--latency-after: needs" },
		{ "--hedge auto:0", "--hedge: 'auto:0': LOAD must be" },
		{ "--hedge auto:51%", "--hedge: 'auto:51%': LOAD must be" },
		{ "--hedge auto:5%%", "--hedge: 'auto:5%%': LOAD must be" },
		{ "--hedge auto:0x5", "--hedge: 'auto:0x5': LOAD must be" },
		{ "--hedge auto:", "--hedge: 'auto:': LOAD must be" },
		{ "--hedge autox", "--hedge: 'autox': give DUR, DUR:N, auto" },
		{ "--hedge auto --clients 10", "--clients: has no part" },
		{ "--hedge auto --exp 1s", "--exp: has no part" },
		{ "--hedge 1s --failure-rate 0.5", "--failure-rate: has no" },
		{ "--latency 1s --chart", "--chart: has no part" },
		{ "--hedge 1s --exp 1s", "--exp: has no part" },
		{ "--hedge 1s --jitter full", "--jitter: has no part" },
	};
	struct config c;
	char err[256];

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		const int rc = simulate_options(t[i].options, &c, err,
		    sizeof(err));

		unit_row(rc != 0 && strstr(err, t[i].want) != NULL,
		    "tail refused", t[i].options, "got %s", rc != 0 ? err :
		    "no refusal");
		options_free(&c);
	}
}

static bool
same_tail(const struct tail_result *a, const struct tail_result *b)
{
	for (int k = 0; k < LEARN_COUNT; k++)
		if (a[k].p50 != b[k].p50 || a[k].p99 != b[k].p99 ||
		    a[k].p999 != b[k].p999 || !(a[k].calls == b[k].calls))
			return false;
	return true;
}

/*
 * The learning model (--hedge auto): over seeds, what the goals
 * ask of a learned hedge, which the model must meet too: p99 within 1.2x
 * of the best fixed hedge in hindsight, extra attempts at most LOAD and
 * one point, and a shift followed within 150 runs; none before
 * LEARN_SAMPLES runs; the same runs from the same seed.
 */
static void
rows_learn(void)
{
	static const struct {
		const char	*options;
		bool		 shift;
	} t[] = {
		{ "--hedge auto", false },
		{ "--hedge auto:4% --latency 20ms,1s@4% "
		  "--latency-after 60ms,2s@4%", true },
		{ "--hedge auto:10% --latency 20ms,30ms@10%,2s@2% "
		  "--latency-after 40ms,100ms@8%,3s@1%", true },
	};
	struct learn_result r, again;
	struct config c;
	char err[256];

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		if (simulate_options(t[i].options, &c, err, sizeof(err)) != 0) {
			unit_row(false, "learn", t[i].options, "options: %s",
			    err);
			options_free(&c);
			continue;
		}
		for (uint64_t seed = 1; seed <= 5; seed++) {
			const struct tail_result *a = &r.way[LEARN_AUTO],
			    *f = &r.way[LEARN_FIXED];
			const char *why = learn_model(&c.latency,
			    &c.latency_after, c.hedge.load, c.runs, seed, &r);

			unit_row(why == NULL && c.runs == LEARN_RUNS &&
			    (double)a->p99 <= 1.2 * (double)f->p99 &&
			    a->calls - 1 <= c.hedge.load + 0.01 &&
			    f->calls - 1 <= c.hedge.load + 1e-9 &&
			    (!t[i].shift || (r.settled >= 0 &&
			    r.settled <= 150)), "learn", t[i].options,
			    "seed %llu: p99 %lld against %lld fixed, calls "
			    "%.4f, settled %ld", (unsigned long long)seed,
			    (long long)a->p99, (long long)f->p99, a->calls,
			    r.settled);
		}
		(void)learn_model(&c.latency, &c.latency_after, c.hedge.load,
		    c.runs, 9, &r);
		(void)learn_model(&c.latency, &c.latency_after, c.hedge.load,
		    c.runs, 9, &again);
		unit_row(same_tail(r.way, again.way) && r.after == again.after,
		    "learn", "a seed's runs",
		    "%s: not the same twice", t[i].options);
		options_free(&c);
	}
	if (simulate_options("--hedge auto", &c, err, sizeof(err)) == 0) {
		/* The delay at the middle run: learned from 20 runs, not
		 * from 19. */
		(void)learn_model(&c.latency, &c.latency_after, c.hedge.load,
		    2 * LEARN_SAMPLES, 1, &r);
		(void)learn_model(&c.latency, &c.latency_after, c.hedge.load,
		    2 * LEARN_SAMPLES - 2, 1, &again);
		unit_row(r.before > 0 && again.before == 0, "learn",
		    "20 runs first", "at run 21: %lld; at run 20: %lld",
		    (long long)r.before, (long long)again.before);
		unit_row(learn_model(&c.latency, &c.latency_after, 0.05, 1, 1,
		    &r) != NULL, "learn", "one run", "refused");
	}
	options_free(&c);
}

void
unit_model(void)
{
	rows_learn();
	rows_tail();
	rows_tail_refused();
	rows_exp_base();
	rows_contention();
	rows_contention_edges();
	row_contention_jitter();
	rows_closed_form();
	rows_load();
}
