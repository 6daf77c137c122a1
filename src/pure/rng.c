/* xoshiro256** by Blackman and Vigna, seeded through splitmix64. */
#include "rng.h"

static uint64_t
rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static uint64_t
splitmix64(uint64_t *x)
{
	uint64_t z = (*x += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

void
rng_seed(struct rng *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix64(&seed);
}

uint64_t
rng_next(struct rng *r)
{
	const uint64_t result = rotl(r->s[1] * 5, 7) * 9;
	const uint64_t t = r->s[1] << 17;

	r->s[2] ^= r->s[0];
	r->s[3] ^= r->s[1];
	r->s[1] ^= r->s[2];
	r->s[0] ^= r->s[3];
	r->s[2] ^= t;
	r->s[3] = rotl(r->s[3], 45);
	return result;
}

double
rng_unit(struct rng *r)
{
	return (double)(rng_next(r) >> 11) * 0x1.0p-53;
}

int64_t
rng_range(struct rng *r, int64_t lo, int64_t hi)
{
	uint64_t span, x, limit;

	if (hi <= lo)
		return lo;
	span = (uint64_t)hi - (uint64_t)lo + 1;
	if (span == 0)			/* the whole 64-bit range */
		return (int64_t)rng_next(r);
	/* Rejection sampling: no modulo bias. */
	limit = UINT64_MAX - UINT64_MAX % span;
	do
		x = rng_next(r);
	while (x >= limit);
	return (int64_t)((uint64_t)lo + x % span);
}
