/*
 * What show-backoff-delays prints, a delay a line, without the binary: a
 * row gives a command line and its lines, joined by spaces.  The command
 * line is parsed as the face parses it, replayed through the policy as the
 * face replays it (seeded with --seed) and each delay printed as the face
 * prints it (in --unit, Perl's spelling of Inf).  Every vector of the -a
 * family without jitter agrees with Algorithm::Backoff itself
 * (tests/number.bats compares generated cases with it).
 *
 * Then properties of jittered runs: bounds, reproducibility and how each
 * step follows the one before.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/number.h"
#include "../../src/options.h"
#include "../../src/replay.h"
#include "../../src/rng.h"
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
 * refuse them.
 */
static bool
parse_as(enum mode mode, const char *s, struct config *c, char *err,
    size_t errsz)
{
	static char show[] = "show-backoff-delays", retry[] = "retry",
	    simulate[] = "simulate", cmd[] = "true";
	char buf[2048], *argv[256];
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
	double a[50], b[50], c[50], sorted[50];
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
	double v[4];
	size_t n = run("-a MIMD --initial-delay 1 --delay-multiple-on-failure 2 "
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
	double v[20];
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

/* What -a refuses, and the line that says why (the face prints it after
 * its name, then the pointer to --help). */
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

void
unit_delays(void)
{
	rows_show();
	rows_refused();
	row_jitter_factor();
	row_jitter_factor_steps();
	row_jitter_bounds();
}
