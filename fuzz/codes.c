/* Status sets, Debian's criteria and signal names: codes_parse,
 * criteria_parse, signal_parse. */
#include "../src/codes.h"
#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_string(data, size);
	struct codes c = { { 0 }, false };
	const char *name;
	int sig = 0, n = 0;

	if (codes_parse(s, &c) == NULL) {
		CHECK(c.set);
		for (int i = -1; i <= STATUS_MAX + 1; i++)
			n += codes_has(&c, i);
		CHECK(n > 0 && !codes_has(&c, -1) &&
		    !codes_has(&c, STATUS_MAX + 1));
	} else
		CHECK(!c.set);
	c = (struct codes){ { 0 }, false };
	if (criteria_parse(s, &c) == NULL) {
		n = 0;
		CHECK(c.set);
		for (int i = -1; i <= STATUS_MAX + 1; i++)
			n += codes_has(&c, i);
		CHECK(n > 0 && !codes_has(&c, -1) &&
		    !codes_has(&c, STATUS_MAX + 1));
		/* Its complement has every other status, and no more. */
		codes_invert(&c);
		for (int i = -1; i <= STATUS_MAX + 1; i++)
			n += codes_has(&c, i);
		CHECK(n == STATUS_MAX + 1 && !codes_has(&c, -1) &&
		    !codes_has(&c, STATUS_MAX + 1));
	} else
		CHECK(!c.set);
	n = 0;
	if (signal_parse(s, &sig) == NULL) {
		CHECK(sig > 0 && sig < 65);
		if ((name = signal_name(sig)) != NULL)
			CHECK(signal_parse(name, &n) == NULL && n == sig);
	}
	free(s);
	return 0;
}
