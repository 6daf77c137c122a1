/* Jitter modes: jitter_parse, then the engine applying what it accepted
 * to delays and limits taken from the rest of the input. */
#include "duration.h"
#include "engine.h"
#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct backoff b = { .strategy = STRAT_EXP, .base = NS_PER_SEC,
	    .factor = 2, .max_delay = { -1, -1 }, .max_attempts = 0 };
	struct jitter j = { J_NONE, 0, 0 };
	struct engine e;
	struct delay d;
	struct rng rng;
	size_t len = strnlen((const char *)data, size);
	char *s = fuzz_string(data, len);
	uint64_t seed = 0;

	if (jitter_parse(s, &j) == NULL) {
		CHECK(j.ratio >= 0 && j.ratio <= 1);
		CHECK(j.add >= 0 && j.add <= DURATION_MAX);
		/* After the NUL: a seed, a base, a cap and a floor. */
		data += len < size ? len + 1 : len;
		size -= len < size ? len + 1 : len;
		for (size_t i = 0; i < size && i < 8; i++)
			seed = seed << 8 | data[i];
		b.jitter = j;
		b.base = (int64_t)(seed % (uint64_t)DURATION_MAX);
		b.strategy = (enum strategy)(seed % 7);
		b.factor = 1 + (double)(seed >> 56);
		b.list = &b.base;
		b.nlist = 1;
		if (seed & 1)
			b.max_delay.ns = (int64_t)((seed >> 8) %
			    (uint64_t)DURATION_MAX);
		if (seed & 2)
			b.min_delay.ns = (int64_t)((seed >> 16) %
			    (uint64_t)DURATION_MAX);
		rng_seed(&rng, seed);
		engine_init(&e, &b, &rng, 0);
		for (int i = 0; i < 80; i++) {
			d = engine_failure(&e, i);
			CHECK(d.ns >= 0);
			if (b.max_delay.ns >= 0 &&
			    b.min_delay.ns <= b.max_delay.ns)
				CHECK(d.ns <= b.max_delay.ns);
			CHECK(d.ns >= b.min_delay.ns);
		}
	}
	free(s);
	return 0;
}
