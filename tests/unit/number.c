/*
 * The numbers show-backoff-delays prints go through number_format, which
 * writes short decimals itself and leaves the rest to snprintf: it must
 * print exactly what printf("%.15g") prints.  Here through the face's own
 * path (options, the replay, the unit): --delays lists of assorted
 * durations from 1 ns to 365 days, every decade, the edges of the fixed
 * form, in s and in ms; jittered delays, which are whole nanoseconds; and
 * --jitter-factor's delays, which are fixed points of %.15g.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "number.h"
#include "options.h"
#include "replay.h"
#include "rng.h"
#include "unit.h"

#define TOP	(INT64_C(365) * 86400 * 1000000000)

/* Integers, short and long decimals, and the edges of the fixed form. */
static const int64_t edges[] = {
	1, 9, 10, 99999, 100000, 100001, 999999, 1000000000, 1000000001,
	INT64_C(999999999999999), INT64_C(1000000000000000),
	INT64_C(1000000000000001), (INT64_C(1) << 53) - 1, INT64_C(1) << 53,
	(INT64_C(1) << 53) + 1, TOP, TOP - 1, INT64_C(123456789012345),
	INT64_C(1234567890123456), 333333333, 500000000,
};

#define NEDGES		(sizeof(edges) / sizeof(edges[0]))
#define NRANDOM		1500
#define NCASES		(NEDGES + NRANDOM)

static int64_t
pow10i(int e)
{
	int64_t p = 1;

	while (e-- > 0)
		p *= 10;
	return p;
}

/* The edges, then NRANDOM values of 1 to 17 digits, half of them with
 * trailing zeros, none past 365 days. */
static void
cases(uint64_t seed, int64_t *ns)
{
	struct rng rng;

	rng_seed(&rng, seed);
	memcpy(ns, edges, sizeof(edges));
	for (size_t i = NEDGES; i < NCASES; i++) {
		const int digits = (int)rng_range(&rng, 1, 17);
		int64_t v = rng_range(&rng, pow10i(digits - 1),
		    pow10i(digits) - 1);

		if (rng_unit(&rng) < 0.5) {
			const int64_t z = pow10i((int)rng_range(&rng, 0,
			    digits - 1));

			v = v / z * z;
			if (v == 0)
				v = 1;
		}
		ns[i] = v < TOP ? v : TOP;
	}
}

/* The delays of show-backoff-delays with argv into v, at most max, in s;
 * their number, or 0 when the options refuse it. */
static size_t
delays(int argc, char **argv, double *v, size_t max, char *err, size_t errsz)
{
	struct config c;
	struct replay r;
	struct rng rng;
	struct step s;
	size_t n = 0;

	err[0] = '\0';
	if (options_parse(argc, argv, MODE_SHOW, &c, err, errsz) == 0) {
		rng_seed(&rng, c.seeded ? c.seed : 1);
		replay_start(&r, &c, &rng);
		while (n < max && replay_step(&r, &s))
			v[n++] = s.d.s;
	}
	options_free(&c);
	return n;
}

/* Splits the words of s (changed) into argv after the face's name. */
static int
words(char *s, char **argv, int max)
{
	static char face[] = "show-backoff-delays";
	int n = 0;

	argv[n++] = face;
	for (char *t = strtok(s, " "); t != NULL && n < max - 1;
	    t = strtok(NULL, " "))
		argv[n++] = t;
	argv[n] = NULL;
	return n;
}

/* --delays of every case, printed in s and in ms as %.15g of ns / 1e9
 * and of (ns / 1e9) x 1000. */
static void
rows_delays(void)
{
	static int64_t ns[NCASES];
	static double v[NCASES];
	static char list[NCASES * 24];
	char count[24], err[256], got[NUMBER_BUFSZ], want[NUMBER_BUFSZ];
	char name[96];

	for (uint64_t seed = 1; seed <= 4; seed++) {
		static char face[] = "show-backoff-delays",
		    opt_delays[] = "--delays", opt_max[] = "--max",
		    zero[] = "0", opt_count[] = "--count";
		char *argv[] = { face, opt_delays, list, opt_max, zero,
		    opt_count, count, NULL };
		size_t len = 0, n, bad[2] = { 0 }, at[2] = { 0 };

		cases(seed, ns);
		for (size_t i = 0; i < NCASES; i++)
			len += (size_t)snprintf(list + len, sizeof(list) - len,
			    "%s%" PRId64 "ns", i > 0 ? "," : "", ns[i]);
		snprintf(count, sizeof(count), "%zu", (size_t)NCASES);
		n = delays(7, argv, v, NCASES, err, sizeof(err));
		for (size_t i = 0; i < n; i++) {
			const double s = (double)ns[i] / 1e9;

			for (int ms = 0; ms < 2; ms++) {
				number_format(ms ? v[i] * 1000 : v[i], got,
				    sizeof(got));
				snprintf(want, sizeof(want), "%.15g",
				    ms ? s * 1000 : s);
				if (strcmp(got, want) != 0 && bad[ms]++ == 0)
					at[ms] = i;
			}
		}
		for (int ms = 0; ms < 2; ms++) {
			snprintf(name, sizeof(name), "%zu durations from 1 ns "
			    "to 365 days print as %%.15g in %s, seed %" PRIu64,
			    (size_t)NCASES, ms ? "ms" : "s", seed);
			unit_row(n == NCASES && bad[ms] == 0, "number", name,
			    "%zu delays (%s), %zu wrong, the first %" PRId64
			    "ns", n, err, bad[ms], ns[at[ms]]);
		}
	}
}

/*
 * The whole nanoseconds that the decimal text is worth, into ns; false
 * when it is no whole number of nanoseconds (or is out of range).
 */
static bool
whole_ns(const char *text, int64_t *ns)
{
	int64_t v = 0;
	int scale = 9, digits = 0;
	bool point = false;
	const char *p = text;
	char *end;

	for (; *p != '\0' && *p != 'e'; p++) {
		if (*p == '.') {
			point = true;
			continue;
		}
		if (*p < '0' || *p > '9' || ++digits > 17)
			return false;
		v = v * 10 + (*p - '0');
		scale -= point;
	}
	if (*p == 'e')
		scale += (int)strtol(p + 1, &end, 10);
	for (; scale > 0; scale--)
		v *= 10;
	for (; scale < 0; scale++) {
		if (v % 10 != 0)
			return false;
		v /= 10;
	}
	*ns = v;
	return true;
}

/* Jittered delays, whose doubles are not known here: each printed in s is
 * a whole number N of nanoseconds, N / 1e9 prints as it, and in ms it
 * prints as (N / 1e9) x 1000 with %.15g. */
static void
rows_jittered(void)
{
	static const char *const modes[] = {
		"full", "equal", "scattered", "down:0.3", "add:1ms",
	};
	static const unsigned seeds[] = { 1, 7, 42 };
	char buf[256], err[256], s[NUMBER_BUFSZ], ms[NUMBER_BUFSZ];
	char want[NUMBER_BUFSZ], *argv[32], name[96];
	double v[60];

	for (size_t m = 0; m < 5; m++)
		for (size_t k = 0; k < 3; k++) {
			size_t n, bad = 0;
			int64_t ns = 0;

			snprintf(buf, sizeof(buf), "--exp 1ms --factor 1.7 "
			    "--jitter %s --seed %u --max 0 --count 60 "
			    "--max-delay 1d", modes[m], seeds[k]);
			n = delays(words(buf, argv, 32), argv, v, 60, err,
			    sizeof(err));
			for (size_t i = 0; i < n; i++) {
				number_format(v[i], s, sizeof(s));
				number_format(v[i] * 1000, ms, sizeof(ms));
				if (!whole_ns(s, &ns)) {
					bad++;
					continue;
				}
				snprintf(want, sizeof(want), "%.15g",
				    (double)ns / 1e9);
				bad += strcmp(want, s) != 0;
				snprintf(want, sizeof(want), "%.15g",
				    (double)ns / 1e9 * 1000);
				bad += strcmp(want, ms) != 0;
			}
			snprintf(name, sizeof(name), "--jitter %s --seed %u: "
			    "whole nanoseconds, in s and ms", modes[m],
			    seeds[k]);
			unit_row(n == 60 && bad == 0, "number", name,
			    "%zu delays (%s), %zu wrong", n, err, bad);
		}
}

/* --jitter-factor's delays are fixed points of %.15g. */
static void
rows_jitter_factor(void)
{
	char buf[512], err[256], got[NUMBER_BUFSZ], again[NUMBER_BUFSZ];
	char *argv[64], name[64];
	double v[40];

	for (unsigned seed = 1; seed <= 5; seed++) {
		size_t n, bad = 0;

		snprintf(buf, sizeof(buf), "-a MIMD --initial-delay 0.001 "
		    "--delay-multiple-on-failure 1.3 "
		    "--delay-multiple-on-success 0.7 --jitter-factor 0.5 "
		    "--seed %u 0 0 0 0 0 0 0 0 0 0 1 1 1 1 1 0 0 0 1 1 1 1 1 1 "
		    "1 1 1 1 1 1 1 1 1", seed);
		n = delays(words(buf, argv, 64), argv, v, 40, err,
		    sizeof(err));
		for (size_t i = 0; i < n; i++) {
			number_format(v[i], got, sizeof(got));
			snprintf(again, sizeof(again), "%.15g",
			    strtod(got, NULL));
			bad += strcmp(got, again) != 0;
		}
		snprintf(name, sizeof(name), "--jitter-factor --seed %u: "
		    "fixed points of %%.15g", seed);
		unit_row(n == 33 && bad == 0, "number", name,
		    "%zu delays (%s), %zu wrong", n, err, bad);
	}
}

void
unit_number(void)
{
	rows_delays();
	rows_jittered();
	rows_jitter_factor();
}
