/* Durations: duration_parse, seconds_parse and the formatting of what
 * they accept. */
#include <math.h>

#include "duration.h"
#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_string(data, size), buf[DURATION_BUFSZ];
	const char *why;
	int64_t ns = -1;
	double v;

	if ((why = duration_parse(s, &ns)) == NULL) {
		CHECK(ns >= 0 && ns <= DURATION_MAX);
		duration_format(ns, buf, sizeof(buf));
		CHECK(strlen(buf) > 0 && strlen(buf) < sizeof(buf));
		duration_format(duration_round(ns), buf, sizeof(buf));
		/* A short buffer cuts the text and still ends it. */
		duration_format(ns, buf, 4);
		CHECK(strlen(buf) < 4);
	} else
		CHECK(*why != '\0');
	for (int negative = 0; negative <= 1; negative++) {
		v = -1;
		if (seconds_parse(s, negative, &v) == NULL) {
			CHECK(isfinite(v));
			CHECK(fabs(v) <= (double)(DURATION_MAX / NS_PER_SEC));
			CHECK(negative || v >= 0);
		}
	}
	free(s);
	return 0;
}
