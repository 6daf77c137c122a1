/* number_format against snprintf("%.15g"): the same text and length for
 * any double, and the same cut text in a short buffer.  The input gives
 * a double's bits, and a short decimal m / 10^k and its neighbours, which
 * random bits seldom are and the fast path is for. */
#include <math.h>
#include <stdio.h>

#include "number.h"
#include "fuzz.h"

static void
check(double v, size_t cut)
{
	char a[NUMBER_BUFSZ + 8], b[NUMBER_BUFSZ + 8];
	size_t n;
	int r;

	n = number_format(v, a, sizeof(a));
	r = snprintf(b, sizeof(b), "%.15g", v);
	CHECK(r > 0 && n == (size_t)r && n < NUMBER_BUFSZ);
	CHECK(strcmp(a, b) == 0);
	cut %= n + 2;
	memset(a, 'x', sizeof(a));
	memset(b, 'x', sizeof(b));
	CHECK(number_format(v, a, cut) == n);
	(void)snprintf(b, cut, "%.15g", v);
	CHECK(memcmp(a, b, sizeof(a)) == 0);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t u = 0, m;
	double v;
	int k;

	for (size_t i = 0; i < size && i < 8; i++)
		u = u << 8 | data[i];
	memcpy(&v, &u, sizeof(v));
	check(v, (size_t)(u >> 3));
	/* m / 10^k with m below 10^17, k up to 24, either sign. */
	m = u % 100000000000000000ULL;
	k = (int)(u >> 57) % 25;
	v = (double)m / pow(10, k);
	if (size > 8 && data[8] & 1)
		v = -v;
	check(v, (size_t)k);
	check(nextafter(v, 0), (size_t)m);
	check(nextafter(v, HUGE_VAL), (size_t)u);
	check(v * 1000, 0);
	return 0;
}
