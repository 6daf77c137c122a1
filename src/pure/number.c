/*
 * printf("%.15g") without glibc's multi-precision arithmetic where the
 * result is known to be a short decimal, as most delays are: 60, 0.5,
 * 0.333333266666667.
 *
 * The fast path takes v > 0 as m / 10^k, m the integer nearest v * 10^k,
 * for k = 0, 1, ... while m < 10^15, and checks that m / 10^k gives v
 * back.  With m < 2^53 and 10^k <= 10^22 both exact, that division is
 * rounded once, to the double nearest the decimal D = m / 10^k: v is that
 * double, as strtod(D) would be.  Then D is what %.15g prints:
 *
 * - |D - v| is at most half an ulp of v, at most 2^-53 v < 1.2e-16 v;
 * - with 10^e <= v < 10^(e+1), the 15-digit decimals %.15g rounds v to
 *   are 10^(e-14) apart, and v is nearer to D than half of that
 *   (1.2e-15 10^e against 5e-15 10^e);
 * - D is one of them: it has at most 15 significant digits, and were its
 *   first digit in another decade than v's, it would be 10^(e+1) (the
 *   15-digit decimals just below 10^e are 10^(e-15) away from it, too far
 *   from v), which is one of them too.
 *
 * So v rounds to D, and %.15g prints D without its trailing zeros, in
 * fixed form since its exponent is between -4 and 14 (else the fast path
 * declines).  Everything else goes to snprintf: a value that needs more
 * digits, a tiny or huge one, Inf and NaN.  The argument needs each
 * operation rounded once, to double, to nearest: not so where
 * FLT_EVAL_METHOD says intermediate results are wider (the x87), and
 * there every value goes to snprintf.
 */
#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <stdlib.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "number.h"

#define SHORT_DIGITS	15		/* %.15g */

static const double powers[] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12,
	1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

/*
 * The fixed form of finite v != 0 into out (NUMBER_BUFSZ bytes, no NUL)
 * when v is exactly the short decimal that %.15g prints; its length, or 0
 * to leave it to snprintf.
 */
static size_t
short_decimal(double v, char *out)
{
	const double a = fabs(v);
	char d[SHORT_DIGITS + 1];
	uint64_t u;
	double m = 0;
	size_t n = 0;
	int k, nd, exp;
	bool found = false;

	if (FLT_EVAL_METHOD != 0 || !(a >= 1e-4 && a < 1e15))
		return 0;
	for (k = 0; k < (int)(sizeof(powers) / sizeof(powers[0])); k++) {
		const double x = a * powers[k];

		if (!(x < 1e15))
			break;
		m = rint(x);
		if (m / powers[k] == a) {
			found = true;
			break;
		}
	}
	if (!found || !(m >= 1 && m <= 1e15))
		return 0;
	u = (uint64_t)m;
	/* Trailing zeros: m / 10^k in lowest terms. */
	for (; k > 0 && u % 10 == 0; k--)
		u /= 10;
	for (nd = 0; u > 0; u /= 10)
		d[sizeof(d) - 1 - (size_t)nd++] = (char)('0' + u % 10);
	exp = nd - 1 - k;
	if (nd > SHORT_DIGITS || exp < -4 || exp >= SHORT_DIGITS)
		return 0;
	if (v < 0)
		out[n++] = '-';
	if (k >= nd) {
		/* 0.000ddd */
		out[n++] = '0';
		out[n++] = '.';
		for (int i = 0; i < k - nd; i++)
			out[n++] = '0';
		memcpy(out + n, d + sizeof(d) - nd, (size_t)nd);
		n += (size_t)nd;
	} else {
		/* ddd or ddd.ddd */
		memcpy(out + n, d + sizeof(d) - nd, (size_t)(nd - k));
		n += (size_t)(nd - k);
		if (k > 0) {
			out[n++] = '.';
			memcpy(out + n, d + sizeof(d) - k, (size_t)k);
			n += (size_t)k;
		}
	}
	return n;
}

size_t
number_format(double v, char *buf, size_t size)
{
	char t[NUMBER_BUFSZ];
	size_t n = 0;
	int r;

	if (v == 0) {
		if (signbit(v))
			t[n++] = '-';
		t[n++] = '0';
	} else if (isfinite(v))
		n = short_decimal(v, t);
	if (n > 0) {
		if (size > 0) {
			const size_t c = n < size ? n : size - 1;

			memcpy(buf, t, c);
			buf[c] = '\0';
		}
		return n;
	}
	r = snprintf(buf, size, "%.15g", v);
	return r > 0 ? (size_t)r : 0;
}

const char *
number_text(double v, char *buf)
{
	if (isnan(v))
		memcpy(buf, "NaN", sizeof("NaN"));
	else if (isinf(v) && v > 0)
		memcpy(buf, "Inf", sizeof("Inf"));
	else if (isinf(v))
		memcpy(buf, "-Inf", sizeof("-Inf"));
	else
		(void)number_format(v, buf, NUMBER_BUFSZ);
	return buf;
}

bool
number_parse(const char *s, size_t len, double *out)
{
	char buf[64], *end;
	size_t i = 0;

	if (len == 0 || len >= sizeof(buf))
		return false;
	memcpy(buf, s, len);
	buf[len] = '\0';
	if (buf[i] == '+' || buf[i] == '-')
		i++;
	if (!isdigit((unsigned char)buf[i]) && buf[i] != '.')
		return false;
	if (strpbrk(buf, "xXpP") != NULL)
		return false;
	errno = 0;
	*out = strtod(buf, &end);
	return *end == '\0' && errno != ERANGE && isfinite(*out);
}
