/*
 * Durations: what a written duration is worth, in seconds as
 * show-backoff-delays prints them (%.15g, so every unit is checked to the
 * nanosecond), what it is refused for, what a delay that a command's
 * output asks for is worth, and the short human form that --dry-run
 * prints.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "duration.h"
#include "number.h"
#include "unit.h"

/* A duration and its worth in seconds. */
static const struct parsed {
	const char	*in;
	const char	*seconds;
} parsed[] = {
	/* ns, us and ms are exact fractions of a second. */
	{ "1ns", "1e-09" },
	{ "7ns", "7e-09" },
	{ "1us", "1e-06" },
	{ "250us", "0.00025" },
	{ "1ms", "0.001" },
	{ "250ms", "0.25" },
	/* s, m, h and d. */
	{ "1s", "1" },
	{ "45s", "45" },
	{ "1m", "60" },
	{ "2h", "7200" },
	{ "1d", "86400" },
	/* Compound forms add up. */
	{ "1m30s", "90" },
	{ "1h15m", "4500" },
	{ "1d1h1m1s", "90061" },
	{ "1s500ms", "1.5" },
	{ "2m0s", "120" },
	/* A bare number is seconds. */
	{ "0.5", "0.5" },
	{ "2", "2" },
	{ "0.001", "0.001" },
	{ ".25", "0.25" },
	{ "0", "0" },
	/* Fractions with a unit are exact to the nanosecond. */
	{ "0.1s", "0.1" },
	{ "1.5ms", "0.0015" },
	{ "2.5us", "2.5e-06" },
	{ "0.5m", "30" },
	{ "1.5h", "5400" },
	{ "0.000000001s", "1e-09" },
	/* 365 days is the longest accepted. */
	{ "365d", "31536000" },
	{ "8760h", "31536000" },
};

/* A duration refused, and why. */
static const struct refused {
	const char	*in;
	const char	*why;
} refused[] = {
	{ "365d1ns", "longer than 365 days" },
	{ "366d", "longer than 365 days" },
	{ "", "empty duration" },
	{ "-1s", "negative duration" },
	{ "nan", "not a number" },
	{ "inf", "not a number" },
	{ "5x", "unknown unit (use ns, us, ms, s, m, h or d)" },
	{ "1S", "unknown unit (use ns, us, ms, s, m, h or d)" },
	{ "1s!", "not a number" },
	{ "10ms ", "not a number" },
	{ "1m30", "a number without a unit must stand alone" },
};

/* A duration and its short human form: the largest units first, three
 * significant digits of a fraction, rounded into the next unit rather
 * than printed as 1000ms or 60s. */
static const struct formatted {
	const char	*in;
	const char	*out;
} formatted[] = {
	{ "250ms", "250ms" },
	{ "1.5s", "1.5s" },
	{ "2m30s", "2m30s" },
	{ "90s", "1m30s" },
	{ "0.5", "500ms" },
	{ "1h", "1h" },
	{ "25h", "1d1h" },
	{ "1d1h1m1s", "1d1h1m1s" },
	/* Small and fractional values. */
	{ "1ns", "1ns" },
	{ "999ns", "999ns" },
	{ "1500ns", "1.5us" },
	{ "1.25ms", "1.25ms" },
	{ "1.2345s", "1.235s" },
	{ "59m59.5s", "59m59.5s" },
	{ "0", "0s" },
	/* Into the next unit, never 1000ms or 60s. */
	{ "999.9996ms", "1s" },
	{ "59.9996s", "1m" },
	{ "1m59.9996s", "2m" },
	{ "59m59.9996s", "1h" },
	{ "999.9994ms", "999.999ms" },
};

/* The time of day for the rows below: Tue, 14 Nov 2023 22:13:20 GMT. */
#define NOW	INT64_C(1700000000)

/* A delay that a command's output asks for (--delay-from-output), at NOW:
 * its worth in seconds, or why it is none. */
static const struct asked {
	const char	*in;
	const char	*want;
} asked[] = {
	/* Seconds and durations; blanks and a CR around them are not part
	 * of them. */
	{ "2", "2" },
	{ "1.5", "1.5" },
	{ "1m30s", "90" },
	{ " 7\r", "7" },
	{ "0", "0" },
	/* An HTTP-date counts from now; one gone by is 0. */
	{ "Tue, 14 Nov 2023 22:13:30 GMT", "10" },
	{ "Tue, 14 Nov 2023 22:13:00 GMT", "0" },
	/* RFC 9110's two other forms, RFC 850's and asctime's. */
	{ "Tuesday, 14-Nov-23 22:13:30 GMT", "10" },
	{ "Tue Nov 14 22:13:30 2023", "10" },
	{ "Sunday, 06-Nov-94 08:49:37 GMT", "0" },
	/* Loose forms are none: a numeric zone, UTC, no weekday. */
	{ "Tue, 14 Nov 2023 22:13:30 +0000",
	    "neither seconds, a duration nor an HTTP-date" },
	{ "Tue, 14 Nov 2023 22:13:30 UTC",
	    "neither seconds, a duration nor an HTTP-date" },
	{ "14 Nov 2023 22:13:30 GMT", "not a number" },
	/* A plain number from 1000000000 on (2001-09-09, ten digits) is a
	 * Unix time: as seconds it would be 31 years or more. */
	{ "1700000030", "30" },
	{ "1700000030.25", "30.25" },
	{ "1700000000", "0" },
	{ "1699999000", "0" },
	{ "1000000000", "0" },
	{ "01700000030", "30" },
	{ "1700090000", "90000" },
	/* Below it, seconds, 365 days at most (the caller caps them). */
	{ "999999999", "31536000" },
	{ "999999999.9", "31536000" },
	/* RateLimit-Reset and RateLimit's t= are seconds, and small. */
	{ "60", "60" },
	/* A unit makes a number a duration, however long. */
	{ "1700000030s", "31536000" },
	{ "1700000030ms", "1700000.03" },
	/* Far in the future: 365 days at most. */
	{ "99999999999", "31536000" },
	{ "Fri, 31 Dec 9999 23:59:59 GMT", "31536000" },
	/* None. */
	{ "soon", "neither seconds, a duration nor an HTTP-date" },
	{ "-5", "neither seconds, a duration nor an HTTP-date" },
	{ "  ", "not a delay" },
	{ "5x", "unknown unit (use ns, us, ms, s, m, h or d)" },
};

/* The same at NOW and a fraction of a second past it, in ms: a date falls
 * on a whole second, so the fraction shortens its wait; a Unix time keeps
 * its own fraction, and one gone by, if only just, is 0. */
static const struct asked_at {
	int64_t		 ms;
	const char	*in;
	const char	*want;
} asked_at[] = {
	{ 1, "Tue, 14 Nov 2023 22:13:25 GMT", "4.999" },
	{ 500, "Tue, 14 Nov 2023 22:13:25 GMT", "4.5" },
	{ 999, "Tue, 14 Nov 2023 22:13:25 GMT", "4.001" },
	{ 999, "Tue, 14 Nov 2023 22:13:21 GMT", "0.001" },
	{ 1, "Tue, 14 Nov 2023 22:13:20 GMT", "0" },
	{ 1, "1700000005", "4.999" },
	{ 500, "1700000005", "4.5" },
	{ 999, "1700000005", "4.001" },
	{ 1, "1700000005.5", "5.499" },
	{ 500, "1700000000.9", "0.4" },
	{ 500, "1700000000.5", "0" },
	{ 500, "1700000000.1", "0" },
	{ 999, "1700000000.5", "0" },
	/* Seconds and durations count from whenever they are read. */
	{ 999, "5", "5" },
	{ 500, "1.5s", "1.5" },
};

/* A word written apart after a number, and the unit it names. */
static const struct worded {
	const char	*word;
	const char	*unit;		/* NULL: none */
} worded[] = {
	{ "ms", "ms" }, { "s", "s" }, { "m", "m" }, { "h", "h" }, { "d", "d" },
	{ "ns", "ns" }, { "us", "us" },
	{ "sec", "s" }, { "secs", "s" }, { "second", "s" }, { "seconds", "s" },
	{ "msec", "ms" }, { "milliseconds", "ms" }, { "min", "m" },
	{ "mins", "m" }, { "minutes", "m" }, { "hr", "h" }, { "hrs", "h" },
	{ "hours", "h" }, { "days", "d" },
	/* Not units: a command's name. */
	{ "curl", NULL }, { "make", NULL }, { "sh", NULL }, { "mss", NULL },
	{ "hs", NULL }, { "S", NULL }, { "", NULL }, { "times", NULL },
};

/*
 * a x f and a x f^k, rounded to the nearest, halves away from 0, and
 * saturated: each want is the exact product's, rounded (Python's
 * fractions), whatever the machine's long double.  The first two powers
 * are --exp 288s --factor 4.064957 and --exp 883s --factor 4.363866, which
 * a 64-bit significand rounds right and a double's powl did not.
 */
static const struct scaled {
	int64_t		 a;
	double		 f;
	int64_t		 want;
} scaled[] = {
	{ 5, 0x1.999999999999ap-4, INT64_C(1) },
	{ 3, 0x1.0000000000000p-1, INT64_C(2) },
	{ -3, 0x1.0000000000000p-1, INT64_C(-2) },
	{ 1, 0x1.4000000000000p+1, INT64_C(3) },
	{ 1, -0x1.4000000000000p+1, INT64_C(-3) },
	{ -1, -0x1.4000000000000p+1, INT64_C(3) },
	{ INT64_MAX, 0x1.0000000000000p+1, INT64_MAX },
	{ INT64_MIN, 0x1.0000000000000p+0, INT64_MIN },
	{ INT64_MAX, 0x1.0000000000000p+0, INT64_MAX },
	{ INT64_MIN, -0x1.0000000000000p+0, INT64_MAX },
	{ INT64_MAX, -0x1.0000000000000p+0, INT64_C(-9223372036854775807) },
	{ -5, HUGE_VAL, INT64_MIN },
	{ 5, HUGE_VAL, INT64_MAX },
	{ 1, 0x1.0000000000000p+62, INT64_C(4611686018427387904) },
	{ 2, 0x1.0000000000000p+62, INT64_MAX },
	{ -2, 0x1.0000000000000p+62, INT64_MIN },
	{ 1, 0x1.56e1fc2f8f359p-997, INT64_C(0) },
	{ 1, 0x0.0000000000001p-1022, INT64_C(0) },
	{ 1000000000, 0x0.0000000000001p-1022, INT64_C(0) },
	{ 1000000000, 0x1.12e0be826d695p-30, INT64_C(1) },
	{ 1000000000, 0x1.12e0be826d695p-31, INT64_C(1) },
	{ 1000000000, 0x1.12e0be826d694p-31, INT64_C(0) },
	{ 1000000000, 0x1.999999999999ap-4, INT64_C(100000000) },
	{ 1000000000, 0x1.8000000000000p+0, INT64_C(1500000000) },
	{ 1000000000, 0x1.4f8b588e368f1p-19, INT64_C(2500) },
	{ 1000, 0x1.e240ca1cac083p+16, INT64_C(123456789) },
	{ 7, 0x0.0p+0, INT64_C(0) },
	{ 7, -0x0.0p+0, INT64_C(0) },
	{ 0, 0x1.c000000000000p+1, INT64_C(0) },
	{ 123456789, 0x1.5555555555555p-2, INT64_C(41152263) },
	{ INT64_MAX, 0x1.0000000000000p-1, INT64_C(4611686018427387904) },
	{ INT64_MAX, 0x1.fffffffffffffp-1, INT64_C(9223372036854774783) },
	{ INT64_C(4611686018427387904), 0x1.fffffffffffffp+0, INT64_C(9223372036854774784) },
	{ 1, 0x1.0000000000000p+63, INT64_MAX },
	{ 3, 0x1.7e43c8800759cp+996, INT64_MAX },
};
static const struct power {
	int64_t		 a;
	double		 f;
	uint64_t	 k;
	int64_t		 want;
} powers[] = {
	{ INT64_C(288000000000), 0x1.04284167a95c8p+2, 5, INT64_C(319648202974720) },
	{ INT64_C(883000000000), 0x1.1749949e8815ep+2, 4, INT64_C(320218433790969) },
	/* Dekker's split goes wrong where an FMA is contracted in. */
	{ 1, 0x1.6a09e667f3bc9p+31, 2, INT64_C(9223372036854765484) },
	/* Just below 2^63 with a negative low part: not saturated. */
	{ INT64_C(3640385294039762432), 0x1.344f82bcabbd0p+0, 5,
	  INT64_C(9223372036854775346) },
	{ 1, 0x1.0000000000000p+1, 62, INT64_C(4611686018427387904) },
	{ 1, 0x1.0000000000000p+1, 63, INT64_MAX },
	{ 3, 0x1.8000000000000p+1, 39, INT64_MAX },
	{ 1, 0x1.8000000000000p+1, 39, INT64_C(4052555153018976267) },
	{ 1000, 0x1.8000000000000p+0, 0, INT64_C(1000) },
	{ 0, 0x1.8000000000000p+0, 10, INT64_C(0) },
	{ 100000000, 0x1.8000000000000p+0, 1, INT64_C(150000000) },
	{ 100000000, 0x1.8000000000000p+0, 17, INT64_C(98526125336) },
	{ 7000000, 0x1.a666666666666p+1, 20, INT64_C(164201393167257373) },
	{ 1000000, 0x1.199999999999ap+0, 100, INT64_C(13780612340) },
	{ 1000000000, 0x1.000010c6f7a0bp+0, 150, INT64_C(1000150011) },
	{ 1, 0x1.0000000000000p+0, 1000000, INT64_C(1) },
	{ 5, 0x1.0000000000001p+0, 60, INT64_C(5) },
	{ 1000000000, 0x1.4000000000000p+1, 45, INT64_MAX },
	{ 1000000000, 0x1.4000000000000p+1, 46, INT64_MAX },
	{ INT64_MAX, 0x1.0000000000000p+0, 5, INT64_MAX },
	{ 1, 0x1.4000000000000p+3, 18, INT64_C(1000000000000000000) },
	{ 1, 0x1.4000000000000p+3, 19, INT64_MAX },
	{ 123, 0x1.b333333333333p+0, 60, INT64_C(8257344313812445) },
	{ 999000, 0x1.3ffffbce4217dp+2, 24, INT64_MAX },
};


void
unit_duration(void)
{
	char num[NUMBER_BUFSZ] = "", buf[DURATION_BUFSZ] = "";
	const char *why;
	int64_t ns;

	for (size_t i = 0; i < sizeof(scaled) / sizeof(scaled[0]); i++) {
		const struct scaled *r = &scaled[i];
		const int64_t got = sat_scale(r->a, r->f);

		unit_row(got == r->want, "sat_scale", "exact products",
		    "%lld x %a: want %lld, got %lld", (long long)r->a, r->f,
		    (long long)r->want, (long long)got);
	}
	for (size_t i = 0; i < sizeof(powers) / sizeof(powers[0]); i++) {
		const struct power *r = &powers[i];
		const int64_t got = sat_scale_pow(r->a, r->f, r->k);

		unit_row(got == r->want, "sat_scale_pow", "exact powers",
		    "%lld x %a^%llu: want %lld, got %lld", (long long)r->a,
		    r->f, (unsigned long long)r->k, (long long)r->want,
		    (long long)got);
	}
	for (size_t i = 0; i < sizeof(parsed) / sizeof(parsed[0]); i++) {
		const struct parsed *r = &parsed[i];

		if ((why = duration_parse(r->in, &ns)) == NULL)
			number_text((double)ns / 1e9, num);
		unit_row(why == NULL && strcmp(num, r->seconds) == 0,
		    "duration_parse", r->in, "want %s, got %s", r->seconds,
		    why != NULL ? why : num);
	}
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		const struct refused *r = &refused[i];

		ns = -1;
		why = duration_parse(r->in, &ns);
		unit_row(why != NULL && strcmp(why, r->why) == 0,
		    "duration_parse", r->in, "want '%s', got '%s' (%lld ns)",
		    r->why, why != NULL ? why : "", (long long)ns);
	}
	for (size_t i = 0; i < sizeof(asked) / sizeof(asked[0]); i++) {
		const struct asked *r = &asked[i];

		ns = -1;
		if ((why = delay_parse(r->in, NOW * NS_PER_SEC, &ns)) == NULL)
			number_text((double)ns / 1e9, num);
		unit_row(strcmp(why != NULL ? why : num, r->want) == 0,
		    "delay_parse", r->in, "want %s, got %s", r->want,
		    why != NULL ? why : num);
	}
	for (size_t i = 0; i < sizeof(asked_at) / sizeof(asked_at[0]); i++) {
		const struct asked_at *r = &asked_at[i];

		ns = -1;
		if ((why = delay_parse(r->in, NOW * NS_PER_SEC +
		    r->ms * NS_PER_MS, &ns)) == NULL)
			number_text((double)ns / 1e9, num);
		unit_row(strcmp(why != NULL ? why : num, r->want) == 0,
		    "delay_parse", r->in, "at .%03lld, want %s, got %s",
		    (long long)r->ms, r->want, why != NULL ? why : num);
	}
	for (size_t i = 0; i < sizeof(formatted) / sizeof(formatted[0]);
	    i++) {
		const struct formatted *r = &formatted[i];

		if ((why = duration_parse(r->in, &ns)) == NULL)
			duration_format(ns, buf, sizeof(buf));
		unit_row(why == NULL && strcmp(buf, r->out) == 0,
		    "duration_format", r->in, "want %s, got %s", r->out,
		    why != NULL ? why : buf);
	}
	for (size_t i = 0; i < sizeof(worded) / sizeof(worded[0]); i++) {
		const struct worded *r = &worded[i];
		const char *u = duration_unit_word(r->word);

		unit_row(r->unit == NULL ? u == NULL : u != NULL &&
		    strcmp(u, r->unit) == 0, "duration_unit_word", r->word,
		    "want %s, got %s", r->unit != NULL ? r->unit : "none",
		    u != NULL ? u : "none");
	}
}
