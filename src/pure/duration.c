/* Durations: a decimal number with an optional unit; compound forms add up. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "duration.h"
#include "httpdate.h"

/* Dekker's product below is exact only if each operation is rounded on
 * its own: no multiply-add contracted into an FMA, whatever CFLAGS say
 * (-std=gnu11, -ffp-contract=fast, -march with FMA). */
#if defined(__clang__)
#pragma clang fp contract(off)
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

__extension__ typedef __int128 wide;	/* fraction x unit: up to 2^107 */
__extension__ typedef unsigned __int128 uwide;

static const struct unit {
	const char	*name;
	int64_t		 ns;
} units[] = {
	{ "ns", 1 },
	{ "us", NS_PER_US },
	{ "ms", NS_PER_MS },
	{ "s", NS_PER_SEC },
	{ "m", 60 * NS_PER_SEC },
	{ "h", 3600 * NS_PER_SEC },
	{ "d", 86400 * NS_PER_SEC },
};

/* Words for the units, singular; a plural adds an 's'. */
static const struct word {
	const char	*word, *unit;
} words[] = {
	{ "nsec", "ns" }, { "nanosecond", "ns" },
	{ "usec", "us" }, { "microsecond", "us" },
	{ "msec", "ms" }, { "millisecond", "ms" },
	{ "sec", "s" }, { "second", "s" },
	{ "min", "m" }, { "minute", "m" },
	{ "hr", "h" }, { "hour", "h" },
	{ "day", "d" },
};

int64_t
sat_add(int64_t a, int64_t b)
{
	int64_t r;

	if (__builtin_add_overflow(a, b, &r))
		return a < 0 ? INT64_MIN : INT64_MAX;
	return r;
}

int64_t
sat_mul(int64_t a, int64_t b)
{
	int64_t r;

	if (__builtin_mul_overflow(a, b, &r))
		return (a < 0) != (b < 0) ? INT64_MIN : INT64_MAX;
	return r;
}

/*
 * Products of a whole number and doubles, rounded to the nearest whole
 * number, halves away from 0, and saturated: in integers alone, so that
 * every machine with IEEE doubles rounds them alike, whatever its long
 * double (x87's 64-bit significand, aarch64's 113, or a double).
 */

/* |a| x |f| in 2^-32ths, truncated: f = m x 2^e, and the product of a
 * significand and |a| takes at most 116 bits.  Sets *over when it is
 * 2^64 or more, in whole numbers: below, a sum with a negative lo may
 * still come back under 2^63. */
static uwide
fixed_product(int64_t a, double f, bool *over)
{
	uint64_t bits, m, ua;
	uwide p;
	int ex, sh, len;

	memcpy(&bits, &f, sizeof(bits));
	ex = (int)(bits >> 52 & 0x7ff);
	m = bits & ((UINT64_C(1) << 52) - 1);
	ua = a < 0 ? 0 - (uint64_t)a : (uint64_t)a;
	if (ua == 0 || (ex == 0 && m == 0))
		return 0;
	if (ex == 0x7ff) {
		*over = true;
		return 0;
	}
	if (ex == 0)
		ex = 1;
	else
		m |= UINT64_C(1) << 52;
	p = (uwide)ua * m;
	/* The product is p x 2^(ex - 1075); in 2^-32ths, p x 2^sh. */
	sh = ex - 1075 + 32;
	len = (uint64_t)(p >> 64) != 0 ?
	    128 - __builtin_clzll((uint64_t)(p >> 64)) :
	    64 - __builtin_clzll((uint64_t)p);
	if (len + sh > 64 + 32) {
		*over = true;
		return 0;
	}
	if (sh >= 0)
		return p << sh;
	return -sh >= 128 ? 0 : p >> -sh;
}

/* The sum of the products a x hi and a x lo, rounded. */
static int64_t
scale_sum(int64_t a, double hi, double lo)
{
	bool over = false;
	const bool neg_hi = (a < 0) != (signbit(hi) != 0);
	const bool neg_lo = (a < 0) != (signbit(lo) != 0);
	const uwide h = fixed_product(a, hi, &over);
	const uwide l = fixed_product(a, lo, &over);
	const uwide half = (uwide)1 << 31;
	uwide mag;
	bool neg;

	if (isnan(hi) || isnan(lo))
		return 0;
	if (over)
		return neg_hi ? INT64_MIN : INT64_MAX;
	/* |lo| is at most half a unit of hi's last place: the sum has
	 * hi's sign unless hi is 0. */
	if (neg_hi == neg_lo || h == 0) {
		mag = h + l;
		neg = h == 0 ? neg_lo : neg_hi;
	} else {
		mag = h >= l ? h - l : l - h;
		neg = h >= l ? neg_hi : neg_lo;
	}
	if ((mag & (((uwide)1 << 32) - 1)) >= half)
		mag += (uwide)1 << 32;
	mag >>= 32;
	if (mag > (uwide)INT64_MAX)
		return neg ? INT64_MIN : INT64_MAX;
	return neg ? -(int64_t)mag : (int64_t)mag;
}

int64_t
sat_scale(int64_t a, double f)
{
	return scale_sum(a, f, 0);
}

/*
 * Dekker's exact product of two doubles, p + e = a x b, with Veltkamp's
 * split: rounding each operation to nearest, as C11 does without
 * contraction, on any machine.  Only for |a|, |b| below 2^995.
 */
static void
two_product(double a, double b, double *p, double *e)
{
	const double split = 0x1p27 + 1;
	const double ca = split * a, cb = split * b;
	const double ah = ca - (ca - a), al = a - ah;
	const double bh = cb - (cb - b), bl = b - bh;

	*p = a * b;
	*e = ((ah * bh - *p) + ah * bl + al * bh) + al * bl;
}

/* (*hi + *lo) x (bh + bl), in double-double arithmetic. */
static void
dd_mul(double *hi, double *lo, double bh, double bl)
{
	double p, e, s;

	two_product(*hi, bh, &p, &e);
	e += *hi * bl + *lo * bh;
	s = p + e;
	*lo = e - (s - p);
	*hi = s;
}

/*
 * a x f^k for f of 1 or more, as --exp's delays: f^k by squaring in
 * double-double arithmetic (106 bits: exact for whole powers below 2^106,
 * else within k x 2^-104 of it), then its product with a, rounded.
 */
int64_t
sat_scale_pow(int64_t a, double f, uint64_t k)
{
	double rh = 1, rl = 0, xh = f, xl = 0;

	if (isnan(f) || f < 1)
		return 0;
	if (a == 0 || f == 1 || k == 0)
		return a;
	for (;;) {
		if (k & 1) {
			dd_mul(&rh, &rl, xh, xl);
			if (!(rh < 0x1p64))
				return a < 0 ? INT64_MIN : INT64_MAX;
		}
		k >>= 1;
		if (k == 0)
			break;
		/* Every power still to come is at least x^2. */
		if (!(xh < 0x1p64))
			return a < 0 ? INT64_MIN : INT64_MAX;
		dd_mul(&xh, &xl, xh, xl);
	}
	return scale_sum(a, rh, rl);
}

static const struct unit *
unit_find(const char *s, size_t len)
{
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (strlen(units[i].name) == len &&
		    strncmp(units[i].name, s, len) == 0)
			return &units[i];
	return NULL;
}

const char *
duration_unit_word(const char *w)
{
	size_t len = strlen(w);
	const struct unit *u;

	if ((u = unit_find(w, len)) != NULL)
		return u->name;
	/* "secs", "hours"; but "ms" is a unit of its own. */
	if (len > 2 && w[len - 1] == 's')
		len--;
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strlen(words[i].word) == len &&
		    strncmp(words[i].word, w, len) == 0)
			return words[i].unit;
	return NULL;
}

/*
 * One component: digits, an optional fraction, an optional unit.  The value
 * is computed in integers so that "0.1s" is exactly 100000000ns; digits past
 * the eighteenth decimal are ignored and the nanosecond is rounded half up.
 */
static const char *
component(const char **sp, int64_t *ns, int *had_unit)
{
	const char *s = *sp, *u;
	const struct unit *unit = &units[3];
	int64_t whole = 0, frac = 0, scale = 1;
	int digits = 0;

	for (; isdigit((unsigned char)*s); s++, digits++)
		whole = sat_add(sat_mul(whole, 10), *s - '0');
	if (*s == '.')
		for (s++; isdigit((unsigned char)*s); s++, digits++)
			if (scale < INT64_C(1000000000000000000)) {
				frac = frac * 10 + (*s - '0');
				scale *= 10;
			}
	if (digits == 0)
		return "not a number";
	for (u = s; isalpha((unsigned char)*s); s++)
		;
	*had_unit = s != u;
	if (*had_unit && (unit = unit_find(u, (size_t)(s - u))) == NULL)
		return "unknown unit (use ns, us, ms, s, m, h or d)";
	*ns = sat_add(sat_mul(whole, unit->ns),
	    (int64_t)(((wide)frac * unit->ns + scale / 2) / scale));
	*sp = s;
	return NULL;
}

/* A duration of any length, saturated. */
static const char *
parse(const char *s, int64_t *out)
{
	const char *err;
	int64_t total = 0, ns;
	int had_unit, parts = 0, bare = 0;

	if (*s == '\0')
		return "empty duration";
	if (*s == '-')
		return "negative duration";
	while (*s != '\0') {
		if ((err = component(&s, &ns, &had_unit)) != NULL)
			return err;
		if (!had_unit)
			bare = 1;
		total = sat_add(total, ns);
		parts++;
	}
	if (bare && parts > 1)
		return "a number without a unit must stand alone";
	*out = total;
	return NULL;
}

const char *
duration_parse(const char *s, int64_t *out)
{
	const char *err;
	int64_t ns;

	if ((err = parse(s, &ns)) != NULL)
		return err;
	if (ns > DURATION_MAX)
		return "longer than 365 days";
	*out = ns;
	return NULL;
}

static int
plain_number(const char *s, int negative)
{
	int digits = 0;

	if (negative && *s == '-')
		s++;
	for (; isdigit((unsigned char)*s); s++)
		digits++;
	if (*s == '.')
		for (s++; isdigit((unsigned char)*s); s++)
			digits++;
	return digits > 0 && *s == '\0';
}

const char *
seconds_parse(const char *s, int negative, double *out)
{
	const char *err;
	int64_t ns;
	double v;

	if (plain_number(s, negative)) {
		errno = 0;
		v = strtod(s, NULL);
		if (errno != 0 || !isfinite(v))
			return "out of range";
		if (fabs(v) > (double)(DURATION_MAX / NS_PER_SEC))
			return "longer than 365 days";
		*out = v;
		return NULL;
	}
	if (negative && *s == '-') {
		if ((err = duration_parse(s + 1, &ns)) != NULL)
			return err;
		*out = -(double)ns / 1e9;
		return NULL;
	}
	if ((err = duration_parse(s, &ns)) != NULL)
		return err;
	*out = (double)ns / 1e9;
	return NULL;
}

const char *
span_parse(const char *s, struct span *out)
{
	const char *err;
	struct span v;

	if ((err = duration_parse(s, &v.ns)) != NULL ||
	    (err = seconds_parse(s, 0, &v.s)) != NULL)
		return err;
	*out = v;
	return NULL;
}

struct span
span_of(int64_t ns)
{
	return (struct span){ ns, (double)ns / 1e9 };
}

/* Appends v / div with up to three decimals, trailing zeros trimmed. */
static size_t
decimal(char *buf, size_t sz, int64_t v, int64_t div, const char *unit)
{
	int64_t milli = (v * 1000 + div / 2) / div;
	int n;

	if (milli % 1000 == 0)
		n = snprintf(buf, sz, "%lld%s", (long long)(milli / 1000), unit);
	else if (milli % 100 == 0)
		n = snprintf(buf, sz, "%lld.%01lld%s", (long long)(milli / 1000),
		    (long long)(milli % 1000 / 100), unit);
	else if (milli % 10 == 0)
		n = snprintf(buf, sz, "%lld.%02lld%s", (long long)(milli / 1000),
		    (long long)(milli % 1000 / 10), unit);
	else
		n = snprintf(buf, sz, "%lld.%03lld%s", (long long)(milli / 1000),
		    (long long)(milli % 1000), unit);
	return n < 0 ? 0 : (size_t)n;
}

const char *
delay_parse(const char *s, int64_t now, int64_t *out)
{
	const char *err;
	char buf[128];
	size_t len;
	int64_t t;

	while (*s == ' ' || *s == '\t')
		s++;
	len = strlen(s);
	while (len > 0 && strchr(" \t\r\n", s[len - 1]) != NULL)
		len--;
	if (len == 0 || len >= sizeof(buf))
		return "not a delay";
	memcpy(buf, s, len);
	buf[len] = '\0';
	/* However long it is, the caller caps it. */
	if (isdigit((unsigned char)buf[0])) {
		if ((err = parse(buf, out)) != NULL)
			return err;
		/* A plain number from UNIX_TIME_MIN on is a time of day,
		 * as in X-RateLimit-Reset: as seconds, it would be 31
		 * years or more, which no server means. */
		if (plain_number(buf, 0) && *out >= UNIX_TIME_MIN * NS_PER_SEC)
			*out = *out > now ? *out - now : 0;
		if (*out > DURATION_MAX)
			*out = DURATION_MAX;
		return NULL;
	}
	if (!httpdate_parse(buf, now / NS_PER_SEC, &t))
		return "neither seconds, a duration nor an HTTP-date";
	t = sat_mul(t, NS_PER_SEC);
	*out = t > now ? t - now : 0;
	if (*out > DURATION_MAX)
		*out = DURATION_MAX;
	return NULL;
}

int64_t
duration_round(int64_t ns)
{
	int64_t p = 1;

	while (ns / p >= 1000)
		p *= 10;
	return (ns + p / 2) / p * p;
}

static int64_t
round_to(int64_t v, int64_t step)
{
	return sat_mul(sat_add(v, step / 2) / step, step);
}

char *
duration_format(int64_t ns, char *buf, size_t sz)
{
	static const struct { int64_t ns; char name; } big[] = {
		{ 86400 * NS_PER_SEC, 'd' },
		{ 3600 * NS_PER_SEC, 'h' },
		{ 60 * NS_PER_SEC, 'm' },
	};
	size_t len = 0;
	int n;

	if (sz == 0)
		return buf;
	buf[0] = '\0';
	if (ns <= 0) {
		snprintf(buf, sz, "0s");
		return buf;
	}
	if (ns < NS_PER_US) {
		snprintf(buf, sz, "%lldns", (long long)ns);
		return buf;
	}
	/*
	 * Round to the precision shown first (three decimals), so that a
	 * value just under a unit boundary reads "1s" or "1m", never "1000ms"
	 * or "60s" or "1m60s".
	 */
	if (ns >= NS_PER_MS && ns < NS_PER_SEC)
		ns = round_to(ns, NS_PER_US);
	if (ns >= NS_PER_SEC && ns < 3600 * NS_PER_SEC)
		ns = round_to(ns, NS_PER_MS);
	if (ns < NS_PER_MS) {
		decimal(buf, sz, ns, NS_PER_US, "us");
		return buf;
	}
	if (ns < NS_PER_SEC) {
		decimal(buf, sz, ns, NS_PER_MS, "ms");
		return buf;
	}
	if (ns < 60 * NS_PER_SEC) {
		decimal(buf, sz, ns, NS_PER_SEC, "s");
		return buf;
	}
	if (ns < 3600 * NS_PER_SEC) {
		/* Minutes, then seconds that keep their milliseconds. */
		n = snprintf(buf, sz, "%lldm", (long long)(ns / big[2].ns));
		if (n > 0 && (size_t)n < sz && ns % big[2].ns != 0)
			decimal(buf + n, sz - (size_t)n, ns % big[2].ns,
			    NS_PER_SEC, "s");
		return buf;
	}
	/* Whole days, hours, minutes and seconds; zero parts left out. */
	for (size_t i = 0; i < sizeof(big) / sizeof(big[0]); i++) {
		if (ns < big[i].ns)
			continue;
		n = snprintf(buf + len, sz - len, "%lld%c",
		    (long long)(ns / big[i].ns), big[i].name);
		if (n < 0 || (size_t)n >= sz - len)
			return buf;
		len += (size_t)n;
		ns %= big[i].ns;
	}
	if (ns >= NS_PER_SEC)
		snprintf(buf + len, sz - len, "%llds",
		    (long long)(ns / NS_PER_SEC));
	return buf;
}
