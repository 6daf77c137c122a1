/* show-backoff-delays' STATUS arguments: entry_parse after an entry at a
 * time taken from the first byte; and the lists of simulate, --clients and
 * --failure-rate, from the same string. */
#include <math.h>

#include "entry.h"
#include "fuzz.h"
#include "simlists.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const double prevs[] = { 0, 0.5, 1, 3.25, 86400, 1e15, 1e300 };
	struct entry st = { false, -1 };
	double prev = 0, rates[RATES_MAX];
	unsigned long clients[8];
	size_t n = 0, m = 0;
	char *s;

	if (size > 0) {
		prev = prevs[data[0] % (sizeof(prevs) / sizeof(prevs[0]))];
		data++, size--;
	}
	s = fuzz_string(data, size);
	if (entry_parse(s, prev, &st) == NULL) {
		CHECK(s[0] == '0' || s[0] == '1');
		CHECK(st.success == (s[0] == '1'));
		CHECK(!isnan(st.time) && st.time >= prev);
	}
	if (rates_parse(s, rates, RATES_MAX, &n) == NULL) {
		CHECK(n >= 1 && n <= RATES_MAX);
		for (size_t i = 0; i < n; i++)
			CHECK(rates[i] >= 0 && rates[i] <= 1);
	}
	if (clients_parse(s, clients, 8, &m) == NULL)
		CHECK(m >= 1 && m <= CLIENTS_LISTMAX);
	free(s);
	return 0;
}
