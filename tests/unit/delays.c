/*
 * What show-backoff-delays prints, a delay a line, without the binary: a
 * row gives a command line and its lines, joined by spaces.  The command
 * line is parsed as the face parses it, replayed through the policy as the
 * face replays it (seeded with --seed) and each delay printed as the face
 * prints it (in --unit, Perl's spelling of Inf).  Every vector of the -a
 * family without jitter agrees with Algorithm::Backoff itself
 * (tests/number.bats compares generated cases with it).
 *
 * Then --count's bound, the refusals of -a, STATUS and --samples word for
 * word, --samples' statistics, and properties of jittered runs: bounds,
 * reproducibility and how each step follows the one before.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "number.h"
#include "options.h"
#include "replay.h"
#include "rng.h"
#include "unit.h"

static const struct row {
	const char	*name;
	const char	*command;
	const char	*want;
} rows[] = {
	/* The documented vectors of Algorithm::Backoff. */
	{ "vector: MIMD with --min-delay",
	  "-a MIMD --initial-delay 3 --min-delay 2 "
	  "--delay-multiple-on-failure 2 --delay-multiple-on-success 0.5 "
	  "0 0 0 0 1 1 1 1 1 0 0 0", "3 6 12 24 12 6 3 2 2 4 8 16" },
	{ "vector: Constant with --max-attempts, reset by a success",
	  "-a Constant --delay 2 --max-attempts 3 0 0 0 0 1 0",
	  "2 2 -1 -1 0 2" },
	{ "vector: Exponential with --max-actual-duration",
	  "-a Exponential --initial-delay 3 --max-attempts 10 "
	  "--max-actual-duration 21 0 0:+3 0:+6 0:+12", "3 6 12 -1" },
	{ "vector: Constant with --consider-actual-delay",
	  "-a Constant --delay 2 --consider-actual-delay 0 0:+0 0:+5 0:+2 0:+3",
	  "2 4 1 1 0" },
	{ "vector: MIMD with a multiple of 0.3333333, to the last digit",
	  "-a MIMD --initial-delay 1 --delay-multiple-on-failure 3 "
	  "--delay-multiple-on-success 0.3333333 0 0 1 1 1",
	  "1 3 0.9999999 0.33333326666667 0.111111077777781" },

	/* Each algorithm. */
	{ "Constant: delay, delay-on-success",
	  "-a Constant --delay 1.5 --delay-on-success 0.5 0 1 1 0 0",
	  "1.5 0.5 0.5 1.5 1.5" },
	{ "Constant: --min-delay wins over --max-delay",
	  "-a Constant --delay 1.5 --delay-on-success 0.5 --min-delay 2 "
	  "--max-delay 1 0 1 0", "2 2 2" },
	{ "Exponential: base 2 by default, unlimited, bounded by --count",
	  "-a Exponential --initial-delay 0.1",
	  "0.1 0.2 0.4 0.8 1.6 3.2 6.4 12.8 25.6 51.2" },
	{ "Exponential: --exponent-base, --max-delay, a success restarts it",
	  "-a exponential --initial-delay 0.5 --exponent-base 3 "
	  "--delay-on-success 0.25 --max-delay 10 0 0 0 0 0 1 0 0",
	  "0.5 1.5 4.5 10 10 0.25 0.5 1.5" },
	{ "Exponential: --max-attempts counts consecutive failures",
	  "-a Exponential --initial-delay 1 --max-attempts 4 "
	  "0 0 0 0 0 1 0 0 0 0", "1 2 4 -1 -1 0 1 2 4 -1" },
	{ "Fibonacci: its own sequence, a success restarts it",
	  "-a Fibonacci --initial-delay1 1 --initial-delay2 1 --max-delay 3 "
	  "0 0 0 0 0 0 0 1 0 0 0", "1 1 2 3 3 3 3 0 1 1 2" },
	{ "Fibonacci: --delay-on-success",
	  "-a Fibonacci --initial-delay1 0.5 --initial-delay2 0.75 "
	  "--delay-on-success 2 0 0 1 0", "0.5 0.75 2 0.5" },
	{ "Fibonacci: the sequence is not made of the clamped delays",
	  "-a Fibonacci --initial-delay1 1 --initial-delay2 2 --min-delay 4 "
	  "0 0 0 0 0 1 0 0", "4 4 4 5 8 4 4 4" },
	{ "LILD: increments, clamped at 0 and floored by --min-delay",
	  "-a LILD --initial-delay 2 --delay-increment-on-failure 1.5 "
	  "--delay-increment-on-success -2 --min-delay 0.5 "
	  "0 0 0 1 1 1 1 0 0", "2 3.5 5 3 1 0.5 0.5 2 3.5" },
	{ "LILD: a success first returns the initial delay",
	  "-a LILD --initial-delay 3 --delay-increment-on-failure 1 "
	  "--delay-increment-on-success -1 1 0 1 1", "3 4 3 2" },
	{ "LIMD: linear up, multiplicative down, with --max-attempts",
	  "-a LIMD --initial-delay 1 --delay-increment-on-failure 1 "
	  "--delay-multiple-on-success 0.5 --max-attempts 4 1 0 0 0 0 0 1 0",
	  "1 2 3 4 -1 -1 2 3" },
	{ "MILD: multiplicative up, linear down, capped",
	  "-a MILD --initial-delay 0.5 --delay-multiple-on-failure 3 "
	  "--delay-increment-on-success -1 --max-delay 10 "
	  "0 0 0 0 1 1 1 1 1 0", "0.5 1.5 4.5 10 9 8 7 6 5 10" },
	{ "MIMD: a success first returns the initial delay",
	  "-a MIMD --initial-delay 2 --delay-multiple-on-failure 2 "
	  "--delay-multiple-on-success 0.5 1 1 0", "2 1 2" },
	{ "MIMD: P is the delay returned, after the cap",
	  "-a MIMD --initial-delay 1 --delay-multiple-on-failure 2 "
	  "--delay-multiple-on-success 0.5 --max-delay 5 0 0 0 0 0 0 1 1",
	  "1 2 4 5 5 5 2.5 1.25" },
	{ "algorithm names are case-insensitive: mimd",
	  "-a mimd --initial-delay 1 --delay-multiple-on-failure 2 "
	  "--delay-multiple-on-success 0.5 0 0 1", "1 2 1" },
	{ "algorithm names are case-insensitive: lIlD",
	  "-a lIlD --initial-delay 1 --delay-increment-on-failure 2 "
	  "--delay-increment-on-success -0.5 0 0 1", "1 3 2.5" },
	{ "a failure's 0 increment keeps the delay, a success's shrinks it",
	  "-a LILD --initial-delay 1 --delay-increment-on-failure 0 "
	  "--delay-increment-on-success -0.5 0 0 1 1", "1 1 0.5 0" },
	{ "a failure's multiple of 1 keeps the delay, a success's shrinks it",
	  "-a MIMD --initial-delay 1 --delay-multiple-on-failure 1 "
	  "--delay-multiple-on-success 0.5 0 0 1", "1 1 0.5" },

	/* Limits and time. */
	{ "--max-actual-duration is measured from the start, and a -1 "
	  "changes nothing",
	  "-a LILD --initial-delay 3 --delay-increment-on-failure 1 "
	  "--delay-increment-on-success -1 --max-actual-duration 10 "
	  "0 0:4 0:9.5 0:10 1:10 1:12 0:12", "3 4 5 -1 4 3 -1" },
	{ "--consider-actual-delay with absolute times",
	  "-a Constant --delay 2 --consider-actual-delay 0 0:0 0:5 0:7 0:10",
	  "2 4 1 1 0" },
	{ "without STATUS each attempt fails when the previous delay ends: "
	  "--max-actual-duration",
	  "-a Exponential --initial-delay 3 --max-actual-duration 21",
	  "3 6 12 -1" },
	{ "without STATUS each attempt fails when the previous delay ends: "
	  "--consider-actual-delay",
	  "-a Constant --delay 2 --consider-actual-delay --count 4",
	  "2 2 2 2" },
	{ "without STATUS the run ends where the strategy gives up",
	  "-a Constant --delay 2 --max-attempts 3", "2 2 -1" },
	{ "without STATUS --max ends it before --count",
	  "-a Constant --delay 2 --max 3 --count 100", "2 2 -1" },
	{ "--max-attempts 0 never gives up",
	  "-a Constant --delay 2 --max-attempts 0 --count 3", "2 2 2" },
	{ "--max-attempts 1 gives up at the first failure",
	  "-a Constant --delay 2 --max-attempts 1 0 1 0", "-1 0 -1" },
	{ "--successes: the delay between successes is the strategy's first",
	  "--exp 40ms --successes 2 0 0 1 1", "0.04 0.08 0.04 -1" },
	{ "--successes: --delay-on-success between successes",
	  "--exp 40ms --successes 2 --delay-on-success 0.5 0 0 1 1",
	  "0.04 0.08 0.5 -1" },
	{ "--successes: a failure starts over, the Nth success ends it",
	  "--fixed 2 --successes 3 0 0 1 1 0 1 1 1", "2 2 2 2 -1" },

	/* Numbers: zero, the exponent form and Perl's Inf. */
	{ "a delay taken below 0 prints as 0",
	  "-a MILD --initial-delay 1 --delay-multiple-on-failure 2 "
	  "--delay-increment-on-success -5 --max-attempts 0 0 1 1", "1 0 0" },
	{ "exponent forms up to 1e+306, then Inf",
	  "-a MIMD --initial-delay 1 --delay-multiple-on-failure 1e6 "
	  "--delay-multiple-on-success 0.5 --max-attempts 0 "
	  "0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 "
	  "0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 1",
	  "1 1000000 1000000000000 1e+18 1e+24 1e+30 1e+36 1e+42 1e+48 "
	  "1e+54 1e+60 1e+66 1e+72 1e+78 1e+84 1e+90 1e+96 1e+102 1e+108 "
	  "1e+114 1e+120 1e+126 1e+132 1e+138 1e+144 1e+150 1e+156 1e+162 "
	  "1e+168 1e+174 1e+180 1e+186 1e+192 1e+198 1e+204 1e+210 1e+216 "
	  "1e+222 1e+228 1e+234 1e+240 1e+246 1e+252 1e+258 1e+264 1e+270 "
	  "1e+276 1e+282 1e+288 1e+294 1e+300 1e+306 Inf Inf" },

	/* show-backoff-delays' own: STATUS, the all-failing run, --budget,
	 * --unit, Perl's numbers. */
	{ "STATUS: 0 fails, 1 succeeds, options may come after them",
	  "0 0 1 0 -a MIMD --initial-delay 3 --min-delay 2 "
	  "--delay-multiple-on-failure 2 --delay-multiple-on-success 0.5",
	  "3 6 3 6" },
	{ "STATUS: equal times are fine", "--fixed 1 0:5 0:5 0:+0", "1 1 1" },
	{ "STATUS: a time in Perl's exponent form is its number",
	  "-a Constant --delay 3 --max-delay 2 --consider-actual-delay "
	  "0:1.40666961669922e-05 0:+1e-3 0:2E0 0:+.5", "2 2 2 2" },
	{ "STATUS: the same times as decimals",
	  "-a Constant --delay 3 --max-delay 2 --consider-actual-delay "
	  "0:0.0000140666961669922 0:+0.001 0:2 0:+0.5", "2 2 2 2" },
	{ "without STATUS: --exp until --max's 5 attempts", "--exp 1s",
	  "1 2 4 8 -1" },
	{ "without STATUS: --fixed until -n 3", "--fixed 500ms -n 3",
	  "0.5 0.5 -1" },
	{ "without STATUS: --count bounds an unlimited run",
	  "--fixed 1 -n 0 --count 3", "1 1 1" },
	{ "--budget: a delay past the budget gives up",
	  "--exp 1s -n 0 --budget 10s", "1 2 4 -1" },
	{ "--budget: with statuses, the entry's time plus its delay",
	  "--fixed 1s -n 0 --budget 5s 0:1 0:4 0:4.5 1:4.5", "1 1 -1 0" },
	{ "--budget: the default --max", "--budget 10s", "1 2 4 -1" },
	{ "--unit ms leaves -1 alone", "--exp 1s -n 3 --unit ms",
	  "1000 2000 -1" },
	{ "--unit ms: a microsecond", "--fixed 1us -n 2 --unit ms",
	  "0.001 -1" },
	{ "a nanosecond prints as Perl prints it", "--fixed 1ns -n 2",
	  "1e-09 -1" },
	{ "eight decimals print as Perl prints them",
	  "--fixed 1.23456789s -n 2", "1.23456789 -1" },
	{ "millions print whole",
	  "-a MIMD --initial-delay 1 --delay-multiple-on-failure 1000000 "
	  "--delay-multiple-on-success 1 --count 4",
	  "1 1000000 1000000000000 1e+18" },
	{ "1e6^52 overflows to Inf; Inf x 0 on the success is NaN",
	  "-a MIMD --initial-delay 1 --delay-multiple-on-failure 1e6 "
	  "--delay-multiple-on-success 0 "
	  "0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 "
	  "0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 1",
	  "1 1000000 1000000000000 1e+18 1e+24 1e+30 1e+36 1e+42 1e+48 "
	  "1e+54 1e+60 1e+66 1e+72 1e+78 1e+84 1e+90 1e+96 1e+102 1e+108 "
	  "1e+114 1e+120 1e+126 1e+132 1e+138 1e+144 1e+150 1e+156 1e+162 "
	  "1e+168 1e+174 1e+180 1e+186 1e+192 1e+198 1e+204 1e+210 1e+216 "
	  "1e+222 1e+228 1e+234 1e+240 1e+246 1e+252 1e+258 1e+264 1e+270 "
	  "1e+276 1e+282 1e+288 1e+294 1e+300 1e+306 Inf NaN" },
	{ "-a keeps Perl's no limit", "-a Constant --delay 1 --count 7",
	  "1 1 1 1 1 1 1" },
	{ "--decorrelated, seeded, as --dry-run schedules it",
	  "--decorrelated 1s --seed 9 -n 5 --max-delay 1m",
	  "1.688395815 4.190468519 1.219152141 1.925772436 -1" },

	/* The strategies' own, seeded. */
	{ "--decorrelated: at DUR, every delay is DUR",
	  "--decorrelated 1ms --max-delay 1ms --seed 1 -n 4",
	  "0.001 0.001 0.001 -1" },
	{ "a cap under --exp's first delay holds every delay",
	  "--exp 1s --max-delay 250ms -n 4", "0.25 0.25 0.25 -1" },
	{ "a cap of 0 under --linear", "--linear 2s --max-delay 0 -n 3",
	  "0 0 -1" },
	{ "a cap under --fib's first delay", "--fib 1s --max-delay 1ms -n 3",
	  "0.001 0.001 -1" },
	{ "--decorrelated-v2: Polly's no retries", "--decorrelated-v2 2s -n 1 "
	  "--seed 1", "-1" },
	{ "--decorrelated-v2: a seed's delays",
	  "--decorrelated-v2 1s --seed 1 -n 4",
	  "1.084167279 0.93562201 2.219928701 -1" },
	{ "--decorrelated-v2: --max-delay caps it",
	  "--decorrelated-v2 1s --max-delay 1s --seed 1 -n 4",
	  "1 0.93562201 1 -1" },
	{ "--jitter full: a seed's delays", "--fixed 1s --jitter full "
	  "--seed 42 -n 4", "0.85555998 0.973591417 0.70397226 -1" },

	/* Jitter, seeded. */
	{ "--jitter-factor: pinned values for seed 1",
	  "-a MIMD --initial-delay 1 --delay-multiple-on-failure 2 "
	  "--delay-multiple-on-success 0.5 --jitter-factor 0.1 --seed 1 "
	  "0 0 0 1",
	  "1.04058436663177 2.08967514414961 4.24129302404763 "
	  "2.0745557878165" },
	{ "--jitter-factor 0 leaves every delay",
	  "-a Constant --delay 1 --jitter-factor 0 --seed 3 0 1 0 1",
	  "1 0 1 0" },
};

#define NROWS	(sizeof(rows) / sizeof(rows[0]))

/*
 * Parses the words of s as the face of mode does (retry with a command
 * after them) into c; false, with the reason in err, when the options
 * refuse them.  c is good until the next call.
 */
static bool
parse_as(enum mode mode, const char *s, struct config *c, char *err,
    size_t errsz)
{
	static char show[] = "show-backoff-delays", retry[] = "retry",
	    simulate[] = "simulate", cmd[] = "true";
	/* The config points into argv: they outlive the call, until the
	 * next. */
	static char buf[2048], *argv[256];
	int n = 0;

	snprintf(buf, sizeof(buf), "%s", s);
	argv[n++] = mode == MODE_SHOW ? show : mode == MODE_SIMULATE ?
	    simulate : retry;
	for (char *t = strtok(buf, " "); t != NULL && n < 254;
	    t = strtok(NULL, " "))
		argv[n++] = t;
	if (mode == MODE_RETRY)
		argv[n++] = cmd;
	argv[n] = NULL;
	err[0] = '\0';
	if (options_parse(n, argv, mode, c, err, errsz) == 0)
		return true;
	options_free(c);
	return false;
}

static bool
parse(const char *s, struct config *c, char *err, size_t errsz)
{
	return parse_as(MODE_SHOW, s, c, err, errsz);
}

/* The delays of c, at most max, into v, as the face prints them: in
 * --unit, and seeded with --seed (else 1); their number. */
static size_t
delays(const struct config *c, double *v, size_t max)
{
	struct replay r;
	struct rng rng;
	struct step s;
	size_t n = 0;

	rng_seed(&rng, c->seeded ? c->seed : 1);
	replay_start(&r, c, &rng);
	while (n < max && replay_step(&r, &s))
		v[n++] = c->unit == UNIT_MS && s.d.s >= 0 ? s.d.s * 1000 :
		    s.d.s;
	return n;
}

/* What show-backoff-delays prints for the words of s, a line a word. */
static void
show_words(const char *s, char *got, size_t gotsz)
{
	char d[NUMBER_BUFSZ];
	struct config c;
	double v[256];
	size_t n, len = 0;

	got[0] = '\0';
	if (!parse(s, &c, got, gotsz))
		return;
	n = delays(&c, v, 256);
	for (size_t i = 0; i < n && len < gotsz; i++)
		len += (size_t)snprintf(got + len, gotsz - len, "%s%s",
		    i > 0 ? " " : "", number_text(v[i], d));
	options_free(&c);
}

static void
rows_show(void)
{
	char got[4096];

	for (size_t i = 0; i < NROWS; i++) {
		show_words(rows[i].command, got, sizeof(got));
		unit_row(strcmp(got, rows[i].want) == 0, "delays",
		    rows[i].name, "want %s\n# got  %s", rows[i].want, got);
	}
}

/* The delays of the words of s, at most max, or 0 when refused. */
static size_t
run(const char *s, double *v, size_t max)
{
	char err[256];
	struct config c;
	size_t n;

	if (!parse(s, &c, err, sizeof(err)))
		return 0;
	n = delays(&c, v, max);
	options_free(&c);
	return n;
}

static bool
same(const double *a, const double *b, size_t n)
{
	return memcmp(a, b, n * sizeof(*a)) == 0;
}

/* --jitter-factor F: each delay within [d(1-F), d(1+F)], not the same every
 * time, the same for a seed and not for another. */
static void
row_jitter_factor(void)
{
	double a[50] = { 0 }, b[50] = { 0 }, c[50] = { 0 }, sorted[50];
	size_t n, distinct = 0;
	bool in = true;

	n = run("-a Constant --delay 10 --jitter-factor 0.5 --seed 7 "
	    "--count 50", a, 50);
	for (size_t i = 0; i < n; i++) {
		in = in && a[i] >= 5 && a[i] <= 15;
		sorted[i] = a[i];
	}
	for (size_t i = 0; i < n; i++) {
		bool seen = false;

		for (size_t j = 0; j < i && !seen; j++)
			seen = sorted[j] == sorted[i];
		distinct += !seen;
	}
	unit_row(n == 50 && in, "delays", "--jitter-factor 0.5: 50 delays "
	    "within [5, 15]", "%zu delays, within: %d", n, in);
	unit_row(distinct > 40, "delays", "--jitter-factor 0.5: not the "
	    "same value every time", "%zu distinct of 50", distinct);
	unit_row(run("-a Constant --delay 10 --jitter-factor 0.5 --seed 7 "
	    "--count 50", b, 50) == 50 && same(a, b, 50), "delays",
	    "--jitter-factor: the same delays for the same seed", "differ");
	unit_row(run("-a Constant --delay 10 --jitter-factor 0.5 --seed 8 "
	    "--count 50", c, 50) == 50 && !same(a, c, 50), "delays",
	    "--jitter-factor: other delays for another seed", "the same");
}

/* P is the jittered delay returned: each step within 10% of twice (a
 * failure) or half (the success) the step before. */
static void
row_jitter_factor_steps(void)
{
	double v[4] = { 0 };
	size_t n = run("-a MIMD --initial-delay 1 "
	    "--delay-multiple-on-failure 2 "
	    "--delay-multiple-on-success 0.5 --jitter-factor 0.1 --seed 1 "
	    "0 0 0 1", v, 4);
	bool ok = n == 4 && v[0] >= 0.9 && v[0] <= 1.1;

	for (size_t i = 1; i < n; i++) {
		const double r = v[i] / (v[i - 1] * (i < 3 ? 2 : 0.5));

		ok = ok && r >= 0.9 && r <= 1.1;
	}
	unit_row(ok, "delays", "--jitter-factor: each step from the "
	    "jittered one before", "%zu steps: %g %g %g %g", n, v[0], v[1],
	    v[2], v[3]);
}

/* A 0 delay stays 0 under --jitter-factor; the jitter modes keep -a's
 * delays under the cap. */
static void
row_jitter_bounds(void)
{
	double v[20] = { 0 };
	size_t n;
	bool in = true;

	n = run("-a Constant --delay 1 --jitter-factor 0.5 --seed 3 0 1 0 1",
	    v, 4);
	unit_row(n == 4 && v[1] == 0 && v[3] == 0, "delays",
	    "--jitter-factor leaves a 0 delay at 0", "%zu: %g %g", n, v[1],
	    v[3]);
	n = run("-a Exponential --initial-delay 1 --max-delay 5 --jitter full "
	    "--seed 11 --count 20", v, 20);
	for (size_t i = 0; i < n; i++)
		in = in && v[i] >= 0 && v[i] <= 5;
	unit_row(n == 20 && in, "delays", "the jitter modes apply to -a too, "
	    "under the cap", "%zu delays, within [0, 5]: %d", n, in);
}

/* What -a, STATUS and --samples refuse, and a status set's limits, and
 * the line that says why (the face prints it after its name, then the
 * pointer to --help). */
static const struct refused {
	enum mode	 mode;
	const char	*command;
	const char	*line;
} refused[] = {
	{ MODE_SHOW, "-a Constant", "--algorithm: Constant needs --delay" },
	{ MODE_SHOW, "-a Exponential",
	  "--algorithm: Exponential needs --initial-delay" },
	{ MODE_SHOW, "-a Fibonacci --initial-delay1 1",
	  "--algorithm: Fibonacci needs --initial-delay2" },
	{ MODE_SHOW, "-a Fibonacci --initial-delay2 1",
	  "--algorithm: Fibonacci needs --initial-delay1" },
	{ MODE_SHOW, "-a LILD --initial-delay 1 --delay-increment-on-failure 1",
	  "--algorithm: LILD needs --delay-increment-on-success" },
	{ MODE_SHOW, "-a LIMD --initial-delay 1 --delay-multiple-on-success 1",
	  "--algorithm: LIMD needs --delay-increment-on-failure" },
	{ MODE_SHOW, "-a MILD --initial-delay 1 --delay-increment-on-success 1",
	  "--algorithm: MILD needs --delay-multiple-on-failure" },
	{ MODE_SHOW, "-a MIMD --delay-multiple-on-failure 2 "
	  "--delay-multiple-on-success 1",
	  "--algorithm: MIMD needs --initial-delay" },
	{ MODE_SHOW, "-a LILD --initial-delay 1 --delay-increment-on-failure "
	  "-0.001 --delay-increment-on-success 1",
	  "--delay-increment-on-failure: '-0.001': negative duration (a "
	  "failure never shortens the delay)" },
	{ MODE_RETRY, "-a LIMD --initial-delay 1 --delay-increment-on-failure "
	  "-1ms --delay-multiple-on-success 0.5",
	  "--delay-increment-on-failure: '-1ms': negative duration (a "
	  "failure never shortens the delay)" },
	{ MODE_SHOW, "-a MILD --initial-delay 1 --delay-multiple-on-failure "
	  "0.5 --delay-increment-on-success 1",
	  "--delay-multiple-on-failure: '0.5' is out of range (1 to 1e+06: a "
	  "failure never shortens the delay)" },
	{ MODE_SIMULATE, "-a MIMD --initial-delay 1 "
	  "--delay-multiple-on-failure 0.99 --delay-multiple-on-success 0.5",
	  "--delay-multiple-on-failure: '0.99' is out of range (1 to 1e+06: a "
	  "failure never shortens the delay)" },
	{ MODE_SHOW, "-a Constant --delay 1 --initial-delay 2",
	  "--initial-delay: is not an option of -a Constant" },
	{ MODE_SHOW, "-a MIMD --initial-delay 1 --delay-multiple-on-failure 2 "
	  "--delay-multiple-on-success 1 --delay-on-success 1",
	  "--delay-on-success: is not an option of -a MIMD" },
	{ MODE_SHOW, "0:+2 0:+3 0:4.5",
	  "status '0:4.5': the time goes backwards" },
	{ MODE_SHOW, "--samples 100001", "--samples: '100001' is too large "
	  "(give a whole number from 1 to 100000)" },
	{ MODE_SHOW, "--samples x", "--samples: 'x' is not a whole number "
	  "(give a whole number from 1 to 100000)" },
	{ MODE_RETRY, "--retry-on 75-78:10,76", "--retry-on: '75-78:10,76': "
	  "status 76 is given twice (each status once in a list)" },
	{ MODE_RETRY, "--stop-on 1,KILL,137", "--stop-on: '1,KILL,137': "
	  "status 137 is given twice (each status once in a list)" },
	{ MODE_RETRY, "--max-delay 999us --decorrelated 1ms", "--max-delay: "
	  "999us is below --decorrelated's 1ms, the least delay it draws" },
	{ MODE_RETRY, "--dry-run --decorrelated 1s --max-delay 500ms",
	  "--max-delay: 500ms is below --decorrelated's 1s, the least delay "
	  "it draws" },
	{ MODE_SIMULATE, "--decorrelated 5ms --max-delay 4ms", "--max-delay: "
	  "4ms is below --decorrelated's 5ms, the least delay it draws" },
	{ MODE_SHOW, "-a Quadratic --delay 1",
	  "--algorithm: unknown algorithm 'Quadratic' (use Constant, "
	  "Exponential, Fibonacci, LILD, LIMD, MILD or MIMD)" },
};

static void
rows_refused(void)
{
	char err[512];
	struct config c;

	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		const struct refused *r = &refused[i];
		const bool ok = parse_as(r->mode, r->command, &c, err,
		    sizeof(err));

		if (ok)
			options_free(&c);
		unit_row(!ok && strcmp(err, r->line) == 0, "delays refused",
		    r->command, "want '%s'\n# got  '%s'", r->line, err);
	}
}

/* The number of delays of the words of s, up to a million. */
static size_t
count(const char *s)
{
	char err[256];
	struct config c;
	struct replay r;
	struct rng rng;
	struct step st;
	size_t n = 0;

	if (!parse(s, &c, err, sizeof(err)))
		return 0;
	rng_seed(&rng, 1);
	replay_start(&r, &c, &rng);
	while (n < 1000000 && replay_step(&r, &st))
		n++;
	options_free(&c);
	return n;
}

/* --count bounds an unlimited run: 10 by default, 100,000 when asked. */
static void
rows_count(void)
{
	static const struct {
		const char	*command;
		size_t		 n;
	} t[] = {
		{ "--fixed 1 -n 0", 10 },
		{ "--fixed 1 -n 0 --count 100000", 100000 },
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		const size_t n = count(t[i].command);

		unit_row(n == t[i].n, "delays count", t[i].command,
		    "want %zu delays, got %zu", t[i].n, n);
	}
}

/* STATUS entries refused: the error starts with the entry and says why
 * (the whole line where given). */
static void
rows_status_refused(void)
{
	static const struct {
		const char	*entry;
		const char	*line;		/* NULL: the entry's prefix */
	} t[] = {
		{ "2", "status '2': a status is 0 (failure) or 1 (success), "
		  "then optionally :T or :+S" },
		{ "00", NULL }, { "x", NULL }, { "0:", NULL }, { "0:+", NULL },
		{ "0:-1", NULL }, { "0:+-1", NULL }, { "0:1e", NULL },
		{ "1:1s", NULL }, { "0:.", NULL }, { "", NULL },
		{ "0:+1:2", NULL }, { " 0", NULL },
	};
	static const char *const times[] = {
		"0:-1e-5", "0:+-1", "0:1e", "0:e5", "0:1e400", "0:0x10",
		"0:inf",
	};
	static char face[] = "show-backoff-delays", zero[] = "0",
	    a[] = "-a", constant[] = "Constant", delay[] = "--delay",
	    three[] = "3";
	char entry[32], want[256], err[512], *argv[8];
	struct config c;
	int rc;

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		snprintf(entry, sizeof(entry), "%s", t[i].entry);
		argv[0] = face;
		argv[1] = zero;
		argv[2] = entry;
		argv[3] = NULL;
		snprintf(want, sizeof(want), "status '%s': ", t[i].entry);
		err[0] = '\0';
		rc = options_parse(3, argv, MODE_SHOW, &c, err, sizeof(err));
		options_free(&c);
		unit_row(rc == -1 && (t[i].line != NULL ?
		    strcmp(err, t[i].line) == 0 :
		    strncmp(err, want, strlen(want)) == 0),
		    "delays refused", want, "status %d, error '%s'", rc, err);
	}
	/* A time that is no number of seconds. */
	for (size_t i = 0; i < sizeof(times) / sizeof(times[0]); i++) {
		snprintf(entry, sizeof(entry), "%s", times[i]);
		argv[0] = face;
		argv[1] = a;
		argv[2] = constant;
		argv[3] = delay;
		argv[4] = three;
		argv[5] = entry;
		argv[6] = NULL;
		snprintf(want, sizeof(want), "status '%s': the time is not a "
		    "number of seconds", times[i]);
		err[0] = '\0';
		rc = options_parse(6, argv, MODE_SHOW, &c, err, sizeof(err));
		options_free(&c);
		unit_row(rc == -1 && strcmp(err, want) == 0, "delays refused",
		    want, "status %d, error '%s'", rc, err);
	}
}

/* --samples as show-backoff-delays prints it: a step a line, "min median
 * p90 max", lines joined by "; ". */
static void
samples_words(const char *s, char *got, size_t gotsz)
{
	char a[NUMBER_BUFSZ], b[NUMBER_BUFSZ], p[NUMBER_BUFSZ], m[NUMBER_BUFSZ];
	struct sampler sp;
	struct config c;
	struct stats x;
	struct rng rng;
	const char *why;
	size_t len = 0;
	double k;

	got[0] = '\0';
	if (!parse(s, &c, got, gotsz))
		return;
	k = c.unit == UNIT_MS ? 1000 : 1;
	rng_seed(&rng, c.seeded ? c.seed : 1);
	if ((why = sampler_start(&sp, &c, &rng)) != NULL)
		snprintf(got, gotsz, "%s", why);
	while (why == NULL && sampler_step(&sp, &x) && len < gotsz)
		len += (size_t)snprintf(got + len, gotsz - len,
		    "%s%s %s %s %s (%lu)", len > 0 ? "; " : "",
		    number_text(x.min >= 0 ? x.min * k : x.min, a),
		    number_text(x.median >= 0 ? x.median * k : x.median, b),
		    number_text(x.p90 >= 0 ? x.p90 * k : x.p90, p),
		    number_text(x.max >= 0 ? x.max * k : x.max, m), x.runs);
	sampler_free(&sp);
	options_free(&c);
}

/* --samples: the statistics of each step, and how many runs go on. */
static void
rows_samples(void)
{
	static const struct row t[] = {
		{ "--samples: min, median, p90 and max per step",
		  "--samples 1000 --seed 1 --jitter full",
		  "0.001263272 0.4934719095 0.894311679 0.998179398 (1000); "
		  "0.002571914 0.969829203 1.784753848 1.994620971 (1000); "
		  "0.001494354 1.9309992005 3.56650341 3.997691842 (1000); "
		  "0.01899074 4.1143142735 7.318064203 7.986763221 (1000); "
		  "-1 -1 -1 -1 (0)" },
		{ "--samples: runs counts those that go on past a --budget",
		  "--samples 5 --seed 3 --jitter full --budget 5s --count 20",
		  "0.171083952 0.800896744 0.911625433 0.911625433 (5); "
		  "0.090714677 1.594039166 1.987333847 1.987333847 (5); "
		  "1.178097124 1.382555015 1.890297341 1.890297341 (3); "
		  "2.081538831 2.081538831 2.081538831 2.081538831 (1); "
		  "-1 -1 -1 -1 (0)" },
		{ "--samples: a step past -n has no runs",
		  "--fixed 1s --jitter full --seed 5 -n 2 --samples 10",
		  "0.379313985 0.55033789 0.720339625 0.720342077 (10); "
		  "-1 -1 -1 -1 (0)" },
	};
	char got[1024];

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		samples_words(t[i].command, got, sizeof(got));
		unit_row(strcmp(got, t[i].want) == 0, "delays samples",
		    t[i].name, "want %s\n# got  %s", t[i].want, got);
	}
}

/* The first step of --samples' statistics, and their number. */
static bool
first_stats(const char *s, struct stats *x)
{
	char err[256];
	struct sampler sp;
	struct config c;
	struct rng rng;
	bool ok;

	if (!parse(s, &c, err, sizeof(err)))
		return false;
	rng_seed(&rng, c.seeded ? c.seed : 1);
	ok = sampler_start(&sp, &c, &rng) == NULL && sampler_step(&sp, x);
	sampler_free(&sp);
	options_free(&c);
	return ok;
}

static int
by_value(const void *a, const void *b)
{
	const double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Full jitter is uniform on [0, d]: the median near d/2, p90 near 0.9d;
 * and for one step, N runs draw what one run's N steps draw. */
static void
rows_samples_drawn(void)
{
	char buf[160], want[160], got[160];
	char a[NUMBER_BUFSZ], b[NUMBER_BUFSZ], p[NUMBER_BUFSZ], m[NUMBER_BUFSZ];
	struct config c;
	struct replay r;
	struct rng rng;
	struct step st;
	struct stats x = { 0 };
	double v[20] = { 0 };
	bool ok = true;

	for (int i = 0; i < 4 && ok; i++) {
		const double d = (double)(1 << i);
		struct sampler sp;

		ok = parse("--samples 1000 --seed 1 --jitter full", &c, buf,
		    sizeof(buf));
		if (!ok)
			break;
		rng_seed(&rng, c.seed);
		ok = sampler_start(&sp, &c, &rng) == NULL;
		for (int j = 0; ok && j <= i; j++)
			ok = sampler_step(&sp, &x);
		ok = ok && x.min >= 0 && x.max <= d && x.median >= 0.45 * d &&
		    x.median <= 0.55 * d && x.p90 >= 0.86 * d &&
		    x.p90 <= 0.94 * d;
		sampler_free(&sp);
		options_free(&c);
	}
	unit_row(ok, "delays samples", "full jitter: the median near d/2, "
	    "p90 near 0.9d", "%g %g %g %g", x.min, x.median, x.p90, x.max);
	for (size_t n = 10; n <= 11; n++) {
		size_t k = 0;

		snprintf(buf, sizeof(buf), "--fixed 1s --jitter full --seed 5 "
		    "-n 0 --count %zu", n);
		if (parse(buf, &c, got, sizeof(got))) {
			rng_seed(&rng, c.seed);
			replay_start(&r, &c, &rng);
			/* As printed, then read back, as awk reads them. */
			while (k < n && replay_step(&r, &st))
				v[k++] = strtod(number_text(st.d.s, a), NULL);
			options_free(&c);
		}
		qsort(v, k, sizeof(v[0]), by_value);
		if (n == 10)
			snprintf(want, sizeof(want), "%.15g %.15g %.15g %.15g",
			    v[0], (v[4] + v[5]) / 2, v[8], v[9]);
		else
			snprintf(want, sizeof(want), "%.15g %.15g %.15g %.15g",
			    v[0], v[5], v[9], v[10]);
		snprintf(buf, sizeof(buf), "--fixed 1s --jitter full --seed 5 "
		    "-n 2 --samples %zu", n);
		got[0] = '\0';
		if (k == n && first_stats(buf, &x))
			snprintf(got, sizeof(got), "%s %s %s %s",
			    number_text(x.min, a), number_text(x.median, b),
			    number_text(x.p90, p), number_text(x.max, m));
		snprintf(buf, sizeof(buf), "--samples %zu: the statistics of "
		    "the values one run of %zu draws", n, n);
		unit_row(strcmp(got, want) == 0, "delays samples", buf,
		    "want %s\n# got  %s", want, got);
	}
}

/* --samples over STATUS and -a: three steps, the success's 0 in every
 * run, the failures within 20% of 10 and their median near 10. */
static void
row_samples_status(void)
{
	char got[512], step[3][128];
	double v[4];
	unsigned long runs;
	size_t n = 0;
	bool ok = true;

	samples_words("--samples 500 --seed 2 -a Constant --delay 10 "
	    "--jitter-factor 0.2 0 1 0", got, sizeof(got));
	for (char *t = strtok(got, ";"); t != NULL; t = strtok(NULL, ";"))
		if (n++ < 3)
			snprintf(step[n - 1], sizeof(step[0]), "%s",
			    t + (*t == ' '));
	ok = n == 3 && strcmp(step[1], "0 0 0 0 (500)") == 0;
	for (size_t i = 0; ok && i < 3; i += 2)
		ok = sscanf(step[i], "%lf %lf %lf %lf (%lu)", &v[0], &v[1],
		    &v[2], &v[3], &runs) == 5 && v[0] >= 8 && v[3] <= 12 &&
		    v[1] >= 9.5 && v[1] <= 10.5;
	unit_row(ok, "delays samples", "--samples with STATUS and -a: "
	    "three steps, a success's 0, failures near 10", "%zu steps: %s",
	    n, n > 0 ? step[0] : "");
}

/* The delays of the words of s as printed, into a malloc'd array of max
 * strings of NUMBER_BUFSZ bytes; their number. */
static size_t
printed(const char *s, char (*v)[NUMBER_BUFSZ], size_t max)
{
	double *d = calloc(max, sizeof(*d));
	size_t n;

	if (d == NULL)
		abort();
	n = run(s, d, max);
	for (size_t i = 0; i < n; i++)
		number_text(d[i], v[i]);
	free(d);
	return n;
}

/*
 * --decorrelated's first delay is drawn in [DUR, 3 x DUR], as AWS's, not
 * DUR itself, and the cap holds it; --decorrelated-v2 against the specs
 * of Polly.Contrib.WaitAndRetry, their bounds unchanged.
 */
static void
rows_strategies(void)
{
	static char line[3000][NUMBER_BUFSZ];
	char buf[128];
	struct stats x = { 0 };
	size_t n, bad = 0;
	int seed;

	n = printed("--decorrelated 100ms -n 0 --count 1 --seed 1", line, 1);
	unit_row(n == 1 && strcmp(line[0], "0.1") != 0, "delays strategies",
	    "--decorrelated: one seed's first delay is not exactly DUR",
	    "%zu: %s", n, n > 0 ? line[0] : "");
	unit_row(first_stats("--decorrelated 100ms -n 0 --count 1 --seed 1 "
	    "--samples 2000", &x) && x.min >= 0.1 && x.min < 0.11 &&
	    x.median > 0.18 && x.median < 0.22 && x.p90 > 0.26 &&
	    x.p90 < 0.3 && x.max > 0.29 && x.max <= 0.3, "delays strategies",
	    "--decorrelated: 2,000 first delays fill [0.1, 0.3]",
	    "%g %g %g %g", x.min, x.median, x.p90, x.max);
	unit_row(first_stats("--decorrelated 100ms --max-delay 150ms -n 0 "
	    "--count 1 --seed 1 --samples 2000", &x) && x.max == 0.15,
	    "delays strategies", "--decorrelated: the cap holds the first",
	    "max %g", x.max);

	/* Backoff_ResultIsInRange: seeds 0 to 999, a median first delay of
	 * 3s, six retries; the t-th delay in [0, 3s x 2^(t+1)] for t < 2,
	 * else in [0, 3s x (2^(t+1) - 2^(t-1))]. */
	for (seed = 0; seed < 1000; seed++) {
		double v[8] = { 0 };

		snprintf(buf, sizeof(buf), "--decorrelated-v2 3s -n 7 "
		    "--seed %d", seed);
		n = run(buf, v, 8);
		bad += n != 7 || v[6] != -1;
		for (size_t t = 1; n == 7 && t <= 6; t++) {
			const double up = t < 2 ? (double)(1 << (t + 1)) :
			    (double)((1 << (t + 1)) - (1 << (t - 1)));

			bad += v[t - 1] < 0 || v[t - 1] > 3 * up;
		}
	}
	unit_row(bad == 0, "delays strategies", "--decorrelated-v2: Polly's "
	    "Backoff_ResultIsInRange, seeds 0 to 999", "%zu wrong", bad);

	/* Backoff_should_not_overflow_to_give_negative_timespan: 100
	 * retries of 1s, seed 1, none negative, on to where the formula
	 * leaves the doubles. */
	n = printed("--decorrelated-v2 1s -n 101 --count 100 --seed 1", line,
	    3000);
	bad = 0;
	for (size_t i = 0; i < n; i++)
		bad += line[i][0] == '-';
	unit_row(n == 100 && bad == 0, "delays strategies", "--decorrelated-v2:"
	    " 100 retries, none negative", "%zu delays, %zu negative", n, bad);
	n = printed("--decorrelated-v2 1s -n 0 --max-delay 365d --count 3000 "
	    "--seed 1", line, 3000);
	bad = 0;
	for (size_t i = 0; i < n; i++)
		bad += line[i][0] == '-';
	unit_row(n == 3000 && bad == 0 && strcmp(line[2999], "31536000") == 0,
	    "delays strategies", "--decorrelated-v2: 3,000 delays, none "
	    "negative, the last at 365 days", "%zu delays, %zu negative, the "
	    "last %s", n, bad, n == 3000 ? line[2999] : "");
}

/* Polly's documentation of medianFirstRetryDelay: the first delay's
 * median near it (2^0.5 tanh(sqrt 2) / 1.4 = 0.897 of it), the medians of
 * the later ones growing, about doubling from the third. */
static void
row_v2_medians(void)
{
	char err[256];
	struct sampler sp;
	struct config c;
	struct stats x;
	struct rng rng;
	double prev = 0;
	size_t n = 0;
	bool ok;

	ok = parse("--decorrelated-v2 1s -n 0 --max-delay 1d --count 8 "
	    "--seed 1 --samples 4001", &c, err, sizeof(err));
	if (ok) {
		rng_seed(&rng, c.seed);
		ok = sampler_start(&sp, &c, &rng) == NULL;
		while (ok && sampler_step(&sp, &x)) {
			n++;
			if (n == 1)
				ok = x.median >= 0.85 && x.median <= 1.15;
			else
				ok = x.median > prev && (n <= 3 ||
				    (x.median >= 1.8 * prev &&
				    x.median <= 2.2 * prev));
			prev = x.median;
		}
		sampler_free(&sp);
		options_free(&c);
	}
	unit_row(ok && n == 8, "delays strategies", "--decorrelated-v2: the "
	    "first median near DUR, then growing, doubling from the third",
	    "step %zu: median %g", n, prev);
}

void
unit_delays(void)
{
	rows_show();
	rows_refused();
	rows_count();
	rows_status_refused();
	rows_samples();
	rows_samples_drawn();
	row_samples_status();
	rows_strategies();
	row_v2_medians();
	row_jitter_factor();
	row_jitter_factor_steps();
	row_jitter_bounds();
}
