/* Status sets, Debian's criteria and signal names: codes_parse,
 * codes_parse_limits, criteria_parse, signal_parse. */
#include <string.h>

#include "codes.h"
#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_string(data, size);
	struct codes c = { { 0 }, false };
	struct codes_limit lim[CODES_LIMITS];
	char text[128];
	const char *name;
	size_t k = 0;
	int sig = 0, n = 0;

	if (codes_parse(s, &c) == NULL) {
		CHECK(c.set);
		for (int i = -1; i <= STATUS_MAX + 1; i++)
			n += codes_has(&c, i);
		CHECK(n > 0 && !codes_has(&c, -1) &&
		    !codes_has(&c, STATUS_MAX + 1));
	} else
		CHECK(!c.set);
	/* --retry-on's limits: each within the list and its statuses. */
	c = (struct codes){ { 0 }, false };
	if (codes_parse_limits(s, &c, lim, &k) == NULL) {
		CHECK(c.set && k <= CODES_LIMITS);
		for (size_t j = 0; j < k; j++) {
			CHECK(lim[j].max >= 1 && lim[j].max <= CODES_LIMIT_MAX);
			CHECK(lim[j].item >= s && lim[j].item + lim[j].len <=
			    s + strlen(s));
			for (int i = 0; i <= STATUS_MAX; i++)
				CHECK(!codes_has(&lim[j].codes, i) ||
				    codes_has(&c, i));
			(void)codes_limit_text(&lim[j], text, sizeof(text));
		}
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
