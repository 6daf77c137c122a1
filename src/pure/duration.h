/* Durations: parsing and formatting of nanosecond counts. Pure. */
#ifndef RETRY_DURATION_H
#define RETRY_DURATION_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "clock.h"

#define DURATION_MAX	(INT64_C(365) * 86400 * NS_PER_SEC)
/* The first Unix time of ten digits, 2001-09-09 01:46:40 UTC. */
#define UNIX_TIME_MIN	INT64_C(1000000000)

/* Parses "250ms", "1m30s", "0.5" (seconds) into *ns. NULL or a reason. */
const char	*duration_parse(const char *, int64_t *);
/* Parses a plain decimal number of seconds, or a duration, into *s.
 * Plain numbers go through strtod so they keep every digit the user gave;
 * a leading '-' is accepted only when negative is set. */
const char	*seconds_parse(const char *, int negative, double *);
/*
 * A limit on delays as given, in both of the engine's units: nanoseconds
 * for the concise strategies, and the seconds as written for
 * Algorithm::Backoff's, which compute in doubles as Perl does (a cap of
 * 0.1234567891 must stay that, not become 0.123456789).  ns is -1 for no
 * limit.
 */
struct span {
	int64_t		 ns;
	double		 s;
};

/* Parses a duration into both; NULL or a reason. */
const char	*span_parse(const char *, struct span *);
/* A span of ns. */
struct span	 span_of(int64_t);
/*
 * A delay a command asked for (Retry-After): seconds, a duration, or a
 * time, which counts from now (0 once it has gone by): an HTTP-date, or a
 * plain number of UNIX_TIME_MIN or more, a Unix time (X-RateLimit-Reset).
 * now is the time of day in ns since the epoch, its fraction of a second
 * kept: a date falls on a whole second, a Unix time on whatever fraction
 * it has.  At most 365 days; NULL or a reason.
 */
const char	*delay_parse(const char *, int64_t now, int64_t *);
/* The unit a word names as people write it after a number, apart ("ms",
 * "sec", "minutes"): one of the units duration_parse takes, or NULL. */
const char	*duration_unit_word(const char *);
/* Rounds to three significant digits, for measured times. */
int64_t		 duration_round(int64_t);
/* Writes a short human form ("250ms", "1.5s", "2m30s") into buf. */
char		*duration_format(int64_t, char *, size_t);

int64_t		 sat_add(int64_t, int64_t);
int64_t		 sat_mul(int64_t, int64_t);
/* a x f, and a x f^k (f of 1 or more), rounded to the nearest whole
 * number, halves away from 0, and saturated; alike on every machine. */
int64_t		 sat_scale(int64_t, double);
int64_t		 sat_scale_pow(int64_t, double, uint64_t);

#define DURATION_BUFSZ	32

#endif
