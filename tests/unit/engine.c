/*
 * The back-off engine through show-backoff-delays' eyes: a row gives its
 * options and the delays it prints, in seconds as %.15g, -1 where the
 * strategy gives up, here one after another on a line.  The options are
 * parsed and the run replayed as show-backoff-delays replays it (each
 * attempt fails when the delay before it ends, and the policy judges it),
 * so what a row says is what the command prints.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "number.h"
#include "options.h"
#include "policy.h"
#include "replay.h"
#include "unit.h"

/* Exact delays: every strategy, the limits, and every jitter mode. */
static const struct row {
	const char	*name;
	const char	*options;
	const char	*want;
} rows[] = {
	/* The concise strategies; with the default --max 5, four delays. */
	{ "default: --exp 1s doubling, four delays, then it gives up", "",
	  "1 2 4 8 -1" },
	{ "--fixed: the same delay every time", "--fixed 250ms -n 4",
	  "0.25 0.25 0.25 -1" },
	{ "--constant is --fixed", "--constant 250ms -n 4",
	  "0.25 0.25 0.25 -1" },
	{ "-d with one delay is --fixed", "-d 250ms -n 4",
	  "0.25 0.25 0.25 -1" },
	{ "--linear: DUR x n", "--linear 250ms -n 6",
	  "0.25 0.5 0.75 1 1.25 -1" },
	{ "--exp with --factor 3", "--exp 100ms --factor 3 -n 6",
	  "0.1 0.3 0.9 2.7 8.1 -1" },
	{ "-x is --exp, with --factor 1.5", "-x 100ms --factor 1.5 -n 6",
	  "0.1 0.15 0.225 0.3375 0.50625 -1" },
	{ "--exp --factor 1 is constant", "--exp 1s --factor 1 -n 4",
	  "1 1 1 -1" },
	{ "--fib: DUR x 1, 1, 2, 3, 5, 8, 13, 21", "--fib 100ms -n 9",
	  "0.1 0.1 0.2 0.3 0.5 0.8 1.3 2.1 -1" },
	{ "--delays: the n-th entry, the last one repeats",
	  "--delays 1s,2s,5s -n 7", "1 2 5 5 5 5 -1" },
	{ "--delays: one entry", "--delays 250ms -n 3", "0.25 0.25 -1" },
	{ "--immediate: no delay at all", "--immediate -n 4", "0 0 0 -1" },

	/* Limits. */
	{ "--max-delay caps --exp", "--exp 1s --max-delay 10s -n 0 --count 8",
	  "1 2 4 8 10 10 10 10" },
	{ "-M caps --fib", "--fib 1s -M 4s -n 0 --count 8",
	  "1 1 2 3 4 4 4 4" },
	{ "--min-delay is a floor", "--linear 1s --min-delay 2500ms -n 5",
	  "2.5 2.5 3 4 -1" },
	{ "--min-delay wins over --max-delay: --fixed",
	  "--fixed 1s --min-delay 3s --max-delay 2s -n 3", "3 3 -1" },
	{ "--min-delay wins over --max-delay: --exp",
	  "--exp 1s --min-delay 3s --max-delay 2s -n 4", "3 3 3 -1" },
	{ "--max 1 never retries: the strategy gives up at once", "-n 1",
	  "-1" },
	{ "--count bounds an unlimited run: --fixed",
	  "--fixed 1s -n 0 --count 3", "1 1 1" },
	{ "--count bounds an unlimited run: --linear with --max 0",
	  "--linear 1s --max 0 --count 5", "1 2 3 4 5" },
	{ "--exp saturates instead of overflowing",
	  "--exp 1d --factor 1000 -n 100000 --count 4",
	  "86400 86400000 9223372036.85478 9223372036.85478" },

	/* Durations: the same parser serves every duration option. */
	{ "durations: --linear, --max-delay and --min-delay take units",
	  "--linear 1m30s --max-delay 2m30s --min-delay 1.5m -n 4",
	  "90 150 150 -1" },
	{ "durations: --delays items take units",
	  "--delays 1ms,1.5s,1m -n 0 --count 4", "0.001 1.5 60 60" },

	/* Seeded randomness, each value checked by hand to lie within its
	 * bounds before it was pinned. */
	{ "--decorrelated: reproducible with --seed, each in [0.1, 3 x the "
	  "previous], 0.1 at first", "--decorrelated 100ms -n 0 --count 8 "
	  "--seed 7", "0.111700963 0.287283054 0.284305192 0.680256788 "
	  "0.126771084 0.102198846 0.133262315 0.295893068" },
	{ "--jitter full with --seed 42, as --dry-run shows it",
	  "--fixed 1s --jitter full --seed 42 -n 4",
	  "0.85555998 0.973591417 0.70397226 -1" },
	{ "jitter none: the delay itself",
	  "--fixed 1s -n 0 --count 6 --seed 42 --jitter none",
	  "1 1 1 1 1 1" },
	{ "jitter full: seed 42, each in [0, d]",
	  "--fixed 1s -n 0 --count 6 --seed 42 --jitter full",
	  "0.85555998 0.973591417 0.70397226 0.124550101 0.769764517 "
	  "0.866563769" },
	{ "jitter equal: seed 42, each in [d/2, d]",
	  "--fixed 1s -n 0 --count 6 --seed 42 --jitter equal",
	  "0.80856122 0.982639745 0.659385535 0.566976043 0.974211594 "
	  "0.667376981" },
	{ "jitter half is equal",
	  "--fixed 1s -n 0 --count 6 --seed 42 --jitter half",
	  "0.80856122 0.982639745 0.659385535 0.566976043 0.974211594 "
	  "0.667376981" },
	{ "jitter scattered: R 0.5 by default, each in [d/2, 3d/2]",
	  "--fixed 1s -n 0 --count 6 --seed 42 --jitter scattered",
	  "1.35555998 1.473591417 1.20397226 0.624550101 1.269764517 "
	  "1.366563769" },
	{ "jitter scattered:0.1: each in [0.9d, 1.1d]",
	  "--fixed 1s -n 0 --count 6 --seed 42 --jitter scattered:0.1",
	  "0.967564959 0.909784812 1.025625512 0.994254074 1.087553044 "
	  "0.969816789" },
	{ "jitter down: R 0.2 by default, each in [0.8d, d]",
	  "--fixed 1s -n 0 --count 6 --seed 42 --jitter down",
	  "0.867564959 0.809784812 0.925625512 0.894254074 0.987553044 "
	  "0.869816789" },
	{ "jitter down:0.5: each in [d/2, d]",
	  "--fixed 1s -n 0 --count 6 --seed 42 --jitter down:0.5",
	  "0.80856122 0.982639745 0.659385535 0.566976043 0.974211594 "
	  "0.667376981" },
	{ "jitter add:500ms: each in [d, d + 0.5s]",
	  "--fixed 1s -n 0 --count 6 --seed 42 --jitter add:500ms",
	  "1.30856122 1.482639745 1.159385535 1.066976043 1.474211594 "
	  "1.167376981" },
	{ "--decorrelated-v2: Polly's formula on the seeded generator, as an "
	  "independent transcription of it computes", "--decorrelated-v2 1s "
	  "-n 7 --seed 1", "1.084167279 0.93562201 2.219928701 3.245672005 "
	  "11.037738552 6.719911962 -1" },
	{ "--decorrelated-v2: --max 1 never retries (Polly: retryCount 0 is "
	  "empty)", "--decorrelated-v2 1s -n 1", "-1" },
	{ "jitter: a bare duration is add:DUR, as Debian's retry's -j",
	  "--fixed 1s -n 0 --count 6 --seed 42 --jitter 500ms",
	  "1.30856122 1.482639745 1.159385535 1.066976043 1.474211594 "
	  "1.167376981" },
};

/* Two command lines whose delays are the same, or differ. */
static const struct pair {
	const char	*name;
	const char	*a, *b;
	bool		 same;
} pairs[] = {
	{ "--decorrelated: the same seed twice",
	  "--decorrelated 100ms -n 0 --count 8 --seed 7",
	  "--decorrelated 100ms -n 0 --count 8 --seed 7", true },
	{ "--decorrelated: another seed, other delays",
	  "--decorrelated 100ms -n 0 --count 8 --seed 7",
	  "--decorrelated 100ms -n 0 --count 8 --seed 8", false },
	{ "--decorrelated-v2: the same seed twice",
	  "--decorrelated-v2 100ms -n 0 --count 8 --seed 7",
	  "--decorrelated-v2 100ms -n 0 --count 8 --seed 7", true },
	{ "--decorrelated-v2: another seed, other delays",
	  "--decorrelated-v2 100ms -n 0 --count 8 --seed 7",
	  "--decorrelated-v2 100ms -n 0 --count 8 --seed 8", false },
	{ "jitter: -j 2 is a jitter of its own",
	  "--fixed 1s -n 0 --count 6 --seed 42 -j 2",
	  "--fixed 1s -n 0 --count 6 --seed 42", false },
#define SEEDED(mode)							\
	{ "jitter " mode ": the same seed twice",			\
	  "--exp 100ms -n 0 --count 20 --seed 1234 --jitter " mode,	\
	  "--exp 100ms -n 0 --count 20 --seed 1234 --jitter " mode, true }, \
	{ "jitter " mode ": another seed, other delays",		\
	  "--exp 100ms -n 0 --count 20 --seed 1234 --jitter " mode,	\
	  "--exp 100ms -n 0 --count 20 --seed 1235 --jitter " mode, false }
	SEEDED("full"), SEEDED("equal"), SEEDED("scattered"),
	SEEDED("scattered:0.3"), SEEDED("down"), SEEDED("down:0.7"),
	SEEDED("add:1s"),
#undef SEEDED
};

/*
 * Every delay of a seeded run within [lo, hi] (to the nanosecond that
 * printing may cost), and, when reach is not negative, that value among
 * them: a bound that holds, and is met.
 */
static const struct within {
	const char	*name;
	const char	*options;
	double		 lo, hi, reach;
} withins[] = {
	{ "jitter: --max-delay is a hard ceiling, reached when jitter goes "
	  "above", "--fixed 1s --max-delay 1s -n 0 --count 50 --seed 5 "
	  "--jitter scattered", 0.5, 1, 1 },
	{ "jitter: add under --max-delay is the cap every time",
	  "--fixed 1s --max-delay 1s -n 0 --count 50 --seed 5 "
	  "--jitter add:1s", 1, 1, 1 },
	{ "jitter: --min-delay is a floor after the jitter",
	  "--fixed 1s --min-delay 900ms -n 0 --count 100 --seed 3 "
	  "--jitter full", 0.9, 1, 0.9 },
#define CAPPED(seed)							\
	{ "--decorrelated never goes above --max-delay: seed " #seed,	\
	  "--decorrelated 100ms --max-delay 1s -n 0 --count 50 --seed "	\
	  #seed, 0.1, 1, -1 }
	CAPPED(1), CAPPED(2), CAPPED(3), CAPPED(4), CAPPED(5),
#undef CAPPED
#define CAPPED(seed)							\
	{ "--decorrelated-v2 never goes above --max-delay, and reaches "	\
	  "it: seed " #seed, "--decorrelated-v2 100ms --max-delay 1s -n 0 "	\
	  "--count 50 --seed " #seed, 0, 1, 1 }
	CAPPED(1), CAPPED(2), CAPPED(3),
#undef CAPPED
};

/*
 * Each jitter mode's bounds over 240 runs of twelve steps of --exp 100ms
 * capped at 1s, d = min(0.1 x 2^(n-1), 1): every delay in [lo_d x d +
 * lo_s, hi_d x d + hi_s], and never above the cap.  The runs draw from one
 * generator in turn, as --samples 240 --seed 1 draws them.
 */
static const struct bounds {
	const char	*mode;
	double		 lo_d, lo_s, hi_d, hi_s;
} bounds[] = {
	{ "full", 0, 0, 1, 0 },
	{ "equal", 0.5, 0, 1, 0 },
	{ "scattered", 0.5, 0, 1.5, 0 },
	{ "scattered:0.25", 0.75, 0, 1.25, 0 },
	{ "down", 0.8, 0, 1, 0 },
	{ "down:0.5", 0.5, 0, 1, 0 },
	{ "add:300ms", 1, 0, 1, 0.3 },
};

#define SAMPLES	240
#define STEPS	12
#define SLACK	1e-9

/* The next delay of a replay without STATUS arguments (replay.h), in *d;
 * false when it is over. */
static bool
run_step(struct replay *r, struct delay *d)
{
	struct step st;

	if (!replay_step(r, &st))
		return false;
	*d = st.d;
	return true;
}

/* Parses show-backoff-delays' options, split at spaces; 0, or -1 with the
 * parser's error in err. */
static int
parse(const char *options, struct config *c, struct rng *rng, char *err,
    size_t errsz)
{
	static char show[] = "show-backoff-delays";
	char buf[512], *argv[64];
	int argc = 0;

	snprintf(buf, sizeof(buf), "%s", options);
	argv[argc++] = show;
	for (char *t = strtok(buf, " "); t != NULL && argc < 63;
	    t = strtok(NULL, " "))
		argv[argc++] = t;
	argv[argc] = NULL;
	if (options_parse(argc, argv, MODE_SHOW, c, err, errsz) != 0)
		return -1;
	rng_seed(rng, c->seeded ? c->seed : 0);
	return 0;
}

/* The delays of options as show-backoff-delays prints them, on a line. */
static void
delays(const char *options, char *got, size_t gotsz)
{
	struct config c;
	struct delay d;
	struct rng rng;
	struct replay r;
	char err[256], num[NUMBER_BUFSZ];
	size_t len = 0;

	got[0] = '\0';
	if (parse(options, &c, &rng, err, sizeof(err)) != 0) {
		snprintf(got, gotsz, "error: %s", err);
		options_free(&c);
		return;
	}
	replay_start(&r, &c, &rng);
	while (run_step(&r, &d) && len < gotsz)
		len += (size_t)snprintf(got + len, gotsz - len, "%s%s",
		    len > 0 ? " " : "", number_text(d.s, num));
	options_free(&c);
}

static void
rows_delays(void)
{
	char got[2048];

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		delays(rows[i].options, got, sizeof(got));
		unit_row(strcmp(got, rows[i].want) == 0, "delays",
		    rows[i].name, "%s\n# want %s\n# got  %s", rows[i].options,
		    rows[i].want, got);
	}
}

static void
rows_pairs(void)
{
	char a[2048], b[2048];

	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		delays(pairs[i].a, a, sizeof(a));
		delays(pairs[i].b, b, sizeof(b));
		unit_row(strncmp(a, "error", 5) != 0 &&
		    strncmp(b, "error", 5) != 0 &&
		    (strcmp(a, b) == 0) == pairs[i].same, "delays",
		    pairs[i].name, "%s: %s\n# %s: %s", pairs[i].a, a,
		    pairs[i].b, b);
	}
}

static void
rows_within(void)
{
	struct config c;
	struct delay d;
	struct rng rng;
	struct replay r;
	char err[256], why[256];

	for (size_t i = 0; i < sizeof(withins) / sizeof(withins[0]); i++) {
		const struct within *w = &withins[i];
		/* A bound that is one value is that value, to the last bit. */
		const double slack = w->lo < w->hi ? SLACK : 0;
		unsigned long n = 0;
		bool reached = w->reach < 0;

		why[0] = '\0';
		if (parse(w->options, &c, &rng, err, sizeof(err)) != 0)
			snprintf(why, sizeof(why), "%s", err);
		else {
			replay_start(&r, &c, &rng);
			while (why[0] == '\0' && run_step(&r, &d)) {
				n++;
				if (d.ns < 0 || d.s < w->lo - slack ||
				    d.s > w->hi + slack || d.ns < d.lo ||
				    d.ns > d.hi)
					snprintf(why, sizeof(why), "step %lu: "
					    "%.9g not in [%g, %g] or its "
					    "range [%lld, %lld] ns", n, d.s,
					    w->lo, w->hi, (long long)d.lo,
					    (long long)d.hi);
				reached = reached || d.s == w->reach;
			}
			if (why[0] == '\0' && n != c.count)
				snprintf(why, sizeof(why), "%lu delays, not "
				    "%lu", n, c.count);
			else if (why[0] == '\0' && !reached)
				snprintf(why, sizeof(why), "%g never reached",
				    w->reach);
		}
		unit_row(why[0] == '\0', "delays", w->name, "%s: %s",
		    w->options, why);
		options_free(&c);
	}
}

/* --decorrelated: each within [DUR, 3 x previous], the first in [DUR,
 * 3 x DUR], AWS's previous delay being DUR at the start; ten seeds. */
static void
rows_decorrelated(void)
{
	struct config c;
	struct delay d;
	struct rng rng;
	struct replay r;
	char options[128], err[256], why[256], name[64];

	for (int seed = 1; seed <= 10; seed++) {
		double prev = 0.1;
		unsigned long n = 0;

		snprintf(options, sizeof(options), "--decorrelated 100ms -n 0 "
		    "--count 30 --seed %d", seed);
		snprintf(name, sizeof(name), "--decorrelated: each within "
		    "[DUR, 3 x previous]: seed %d", seed);
		why[0] = '\0';
		if (parse(options, &c, &rng, err, sizeof(err)) != 0)
			snprintf(why, sizeof(why), "%s", err);
		else {
			replay_start(&r, &c, &rng);
			while (why[0] == '\0' && run_step(&r, &d)) {
				n++;
				if (d.s < 0.1 - SLACK || d.s > 3 * prev + SLACK)
					snprintf(why, sizeof(why), "step %lu: "
					    "%.9g after %.9g", n, d.s, prev);
				prev = d.s;
			}
			if (why[0] == '\0' && n != 30)
				snprintf(why, sizeof(why), "%lu delays", n);
		}
		unit_row(why[0] == '\0', "delays", name, "%s", why);
		options_free(&c);
	}
}

/*
 * --decorrelated-v2 against the specs of Polly.Contrib.WaitAndRetry
 * (DecorrelatedJitterBackoffV2Specs.cs), their bounds kept.
 * Backoff_ResultIsInRange: over seeds 0 to 999, six delays of a median
 * first delay f = 3s, the t-th in [0, f x 2^(t+1)] for t < 2 and in
 * [0, f x (2^(t+1) - 2^(t-1))] after.
 */
static void
rows_v2_range(void)
{
	struct config c;
	struct delay d;
	struct rng rng;
	struct replay r;
	char options[128], err[256], why[256] = "";

	for (int seed = 0; why[0] == '\0' && seed < 1000; seed++) {
		int t = 0;

		snprintf(options, sizeof(options), "--decorrelated-v2 3s -n 7 "
		    "--seed %d", seed);
		if (parse(options, &c, &rng, err, sizeof(err)) != 0) {
			snprintf(why, sizeof(why), "%s", err);
			options_free(&c);
			break;
		}
		replay_start(&r, &c, &rng);
		while (why[0] == '\0' && run_step(&r, &d) && d.ns >= 0) {
			const double up = ++t < 2 ? pow(2, t + 1) :
			    pow(2, t + 1) - pow(2, t - 1);

			if (d.s < 0 || d.s > 3 * up)
				snprintf(why, sizeof(why), "seed %d, try %d: "
				    "%.9g not in [0, %g]", seed, t, d.s, 3 * up);
		}
		if (why[0] == '\0' && t != 6)
			snprintf(why, sizeof(why), "seed %d: %d delays", seed, t);
		options_free(&c);
	}
	unit_row(why[0] == '\0', "delays", "--decorrelated-v2: Polly's "
	    "Backoff_ResultIsInRange, seeds 0 to 999", "%s", why);
}

/*
 * Polly's Backoff_should_not_overflow_to_give_negative_timespan: 100
 * delays of f = 1s, seed 1, none negative; and on to 3000, where the
 * formula leaves the doubles: never negative, the last the longest delay
 * there is.
 */
static void
rows_v2_overflow(void)
{
	static const char *const options[] = {
		"--decorrelated-v2 1s -n 101 --seed 1 --count 100",
		"--decorrelated-v2 1s -n 3001 --seed 1 --count 3000",
	};
	struct config c;
	struct delay d;
	struct rng rng;
	struct replay r;
	char err[256], why[256], num[NUMBER_BUFSZ] = "";

	for (size_t i = 0; i < 2; i++) {
		unsigned long n = 0;

		why[0] = '\0';
		if (parse(options[i], &c, &rng, err, sizeof(err)) != 0)
			snprintf(why, sizeof(why), "%s", err);
		else {
			replay_start(&r, &c, &rng);
			while (why[0] == '\0' && run_step(&r, &d)) {
				n++;
				if (d.ns < 0 || !(d.s >= 0))
					snprintf(why, sizeof(why), "step %lu: "
					    "%.15g", n, d.s);
				number_text(d.s, num);
			}
			if (why[0] == '\0' && (n != c.count || (i == 1 &&
			    strcmp(num, "9223372036.85478") != 0)))
				snprintf(why, sizeof(why), "%lu delays, the "
				    "last %s", n, num);
		}
		unit_row(why[0] == '\0', "delays", i == 0 ? "--decorrelated-v2: "
		    "Polly's Backoff_should_not_overflow_to_give_negative_"
		    "timespan" : "--decorrelated-v2: 3000 delays, never "
		    "negative, the last the longest there is", "%s: %s",
		    options[i], why);
		options_free(&c);
	}
}

static int
by_value(const void *a, const void *b)
{
	const double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * The medians that Polly's documentation of medianFirstRetryDelay
 * promises: the first delay's median near f (the formula's own is 0.897
 * f: 2^0.5 tanh(sqrt(2)) / 1.4), and every median above the one before;
 * from the third on, each about twice the one before.  2001 runs of ten
 * steps, drawn in turn from one generator as --samples draws them.
 */
#define V2_RUNS		2001
#define V2_STEPS	10
static void
rows_v2_medians(void)
{
	static struct replay runs[V2_RUNS];
	static double v[V2_STEPS][V2_RUNS];
	static const char options[] = "--decorrelated-v2 1s --max-delay 1d "
	    "-n 0 --seed 1 --count 10";
	struct config c;
	struct delay d;
	struct rng rng;
	char err[256], why[256] = "";
	double med[V2_STEPS] = { 0 };

	if (parse(options, &c, &rng, err, sizeof(err)) != 0)
		snprintf(why, sizeof(why), "%s", err);
	for (size_t j = 0; why[0] == '\0' && j < V2_RUNS; j++)
		replay_start(&runs[j], &c, &rng);
	for (int n = 0; why[0] == '\0' && n < V2_STEPS; n++) {
		for (size_t j = 0; why[0] == '\0' && j < V2_RUNS; j++)
			if (!run_step(&runs[j], &d) || d.ns < 0)
				snprintf(why, sizeof(why), "run %zu ended at "
				    "step %d", j + 1, n + 1);
			else
				v[n][j] = d.s;
		qsort(v[n], V2_RUNS, sizeof(v[n][0]), by_value);
		med[n] = v[n][V2_RUNS / 2];
	}
	if (why[0] == '\0' && (med[0] < 0.85 || med[0] > 1.15))
		snprintf(why, sizeof(why), "the first median %.4g, not near 1",
		    med[0]);
	for (int n = 1; why[0] == '\0' && n < V2_STEPS; n++)
		if (med[n] <= med[n - 1] || (n >= 3 &&
		    (med[n] < 1.8 * med[n - 1] || med[n] > 2.2 * med[n - 1])))
			snprintf(why, sizeof(why), "median %d: %.4g after "
			    "%.4g", n + 1, med[n], med[n - 1]);
	unit_row(why[0] == '\0', "delays", "--decorrelated-v2: the first "
	    "median near DUR, each above the one before, then doubling", "%s",
	    why);
	options_free(&c);
}

/* --exp saturates: never negative, never smaller than the one before, and
 * the 80th delay of --exp 1s is the largest there is. */
static void
rows_saturated(void)
{
	static const char options[] = "--exp 1s -n 100000 --count 80";
	struct config c;
	struct delay d;
	struct rng rng;
	struct replay r;
	char err[256], why[256], num[NUMBER_BUFSZ] = "";
	double prev = 0;
	unsigned long n = 0;

	why[0] = '\0';
	if (parse(options, &c, &rng, err, sizeof(err)) != 0)
		snprintf(why, sizeof(why), "%s", err);
	else {
		replay_start(&r, &c, &rng);
		while (why[0] == '\0' && run_step(&r, &d)) {
			n++;
			if (d.s < 0 || d.s < prev)
				snprintf(why, sizeof(why), "step %lu: %.15g "
				    "after %.15g", n, d.s, prev);
			prev = d.s;
		}
		number_text(prev, num);
		if (why[0] == '\0' && (n != 80 ||
		    strcmp(num, "9223372036.85478") != 0))
			snprintf(why, sizeof(why), "%lu delays, the last %s",
			    n, num);
	}
	unit_row(why[0] == '\0', "delays", "--exp saturates: never negative, "
	    "never smaller, the 80th of --exp 1s the largest", "%s", why);
	options_free(&c);
}

static void
rows_bounds(void)
{
	static struct replay runs[SAMPLES];
	struct config c;
	struct delay d;
	struct rng rng;
	char options[256], err[256], why[256], name[64];

	for (size_t i = 0; i < sizeof(bounds) / sizeof(bounds[0]); i++) {
		const struct bounds *b = &bounds[i];

		snprintf(options, sizeof(options), "--exp 100ms --max-delay 1s "
		    "-n 0 --count %d --seed 1 --jitter %s", STEPS, b->mode);
		snprintf(name, sizeof(name), "jitter %s stays in its bounds "
		    "and under --max-delay", b->mode);
		why[0] = '\0';
		if (parse(options, &c, &rng, err, sizeof(err)) != 0)
			snprintf(why, sizeof(why), "%s", err);
		for (size_t j = 0; why[0] == '\0' && j < SAMPLES; j++)
			replay_start(&runs[j], &c, &rng);
		for (int n = 1; why[0] == '\0' && n <= STEPS; n++) {
			const double dn = fmin(0.1 * pow(2, n - 1), 1);
			const double lo = b->lo_d * dn + b->lo_s;
			const double hi = fmin(b->hi_d * dn + b->hi_s, 1);

			for (size_t j = 0; why[0] == '\0' && j < SAMPLES; j++)
				if (!run_step(&runs[j], &d) || d.ns < 0)
					snprintf(why, sizeof(why), "run %zu "
					    "ended at step %d", j + 1, n);
				else if (d.s < lo - SLACK || d.s > hi + SLACK)
					snprintf(why, sizeof(why), "step %d, "
					    "run %zu: %.9f not in [%.9f, %.9f]",
					    n, j + 1, d.s, lo, hi);
		}
		unit_row(why[0] == '\0', "delays", name, "%s: %s", options,
		    why);
		options_free(&c);
	}
}

/* The range each delay is drawn from (--dry-run shows it): jitter and
 * limits applied, LO-HI a step. */
static const struct ranges {
	const char	*name;
	const char	*options;
	const char	*want;
} ranges[] = {
	{ "nothing drawn: one value", "--exp 1s -n 3", "1s-1s 2s-2s" },
	{ "full jitter", "--exp 100ms -j full -n 4",
	  "0s-100ms 0s-200ms 0s-400ms" },
	{ "equal jitter of the capped delay", "--exp 1s -j equal -M 3s -n 4",
	  "500ms-1s 1s-2s 1.5s-3s" },
	{ "scattered:0.25", "--fixed 1s -j scattered:0.25 -n 2",
	  "750ms-1.25s" },
	{ "down", "--fixed 1s -j down -n 2", "800ms-1s" },
	{ "add, within --max-delay", "--fixed 1s -j add:500ms -M 1.2s -n 2",
	  "1s-1.2s" },
	{ "--min-delay raises the floor", "--fixed 1s -j full --min-delay 300ms "
	  "-n 2", "300ms-1s" },
	{ "--decorrelated: from DUR to 3 x DUR first", "--decorrelated 1s "
	  "--seed 9 -n 2", "1s-3s" },
	{ "-a Constant --jitter-factor", "-a Constant --delay 2 "
	  "--jitter-factor 0.5 -n 2", "1s-3s" },
	{ "--decorrelated-v2: g(0) to g(1) first", "--decorrelated-v2 1s "
	  "--seed 1 -n 2", "0s-1.377s" },
};

static void
rows_ranges(void)
{
	struct config c;
	struct delay d;
	struct rng rng;
	struct replay r;
	char err[256], got[256], lo[DURATION_BUFSZ], hi[DURATION_BUFSZ];

	for (size_t i = 0; i < sizeof(ranges) / sizeof(ranges[0]); i++) {
		got[0] = '\0';
		if (parse(ranges[i].options, &c, &rng, err, sizeof(err)) != 0)
			snprintf(got, sizeof(got), "%s", err);
		else {
			replay_start(&r, &c, &rng);
			while (run_step(&r, &d) && d.ns >= 0)
				snprintf(got + strlen(got), sizeof(got) -
				    strlen(got), "%s%s-%s", got[0] != '\0' ?
				    " " : "", duration_format(d.lo, lo,
				    sizeof(lo)), duration_format(d.hi, hi,
				    sizeof(hi)));
		}
		unit_row(strcmp(got, ranges[i].want) == 0, "ranges",
		    ranges[i].name, "%s: want %s, got %s", ranges[i].options,
		    ranges[i].want, got);
		options_free(&c);
	}
}

/* libm is loaded for the delays that need it: --exp's powers are
 * sat_scale_pow's, whatever the factor. */
static void
rows_uses_pow(void)
{
	static const struct { double factor; enum strategy s; bool pow; }
	    r[] = {
		{ 2, STRAT_EXP, false }, { 1, STRAT_EXP, false },
		{ 3, STRAT_EXP, false }, { 1e6, STRAT_EXP, false },
		{ 1.5, STRAT_EXP, false }, { 0x1p62, STRAT_EXP, false },
		{ 1.5, STRAT_FIXED, false }, { 2, STRAT_DECORRELATED_V2, true },
		{ 2, ALGO_EXPONENTIAL, true },
	};

	for (size_t i = 0; i < sizeof(r) / sizeof(r[0]); i++) {
		const struct backoff b = { .strategy = r[i].s,
		    .factor = r[i].factor };

		unit_row(backoff_uses_pow(&b) == r[i].pow, "uses_pow",
		    "whole factors", "strategy %d, factor %g: want %d",
		    (int)r[i].s, r[i].factor, (int)r[i].pow);
	}
}

void
unit_engine(void)
{
	rows_uses_pow();
	rows_ranges();
	rows_delays();
	rows_pairs();
	rows_within();
	rows_decorrelated();
	rows_v2_range();
	rows_v2_overflow();
	rows_v2_medians();
	rows_saturated();
	rows_bounds();
}
