/*
 * What the command prints, through the output rules: a pattern and output
 * from the input, the output fed to scan_chunk in chunks of sizes drawn
 * from it, and the result checked against rule_line on each line alone.
 * libFuzzer's -timeout holds each input to a second, which is what bounded
 * matching promises.
 *
 * Input: a flags byte (plain string, any case, the capture rule), a byte
 * that seeds the chunk sizes, the pattern up to a NUL, then the output.
 */
#include "match.h"
#include "fuzz.h"

/* What rule k finds in out[0..n) a line at a time; -1 when a search
 * gave up (the scanner may then say less). */
static int
oracle(const struct output_rules *r, enum rule_kind k, const char *out,
    size_t n, struct scan_result *res)
{
	const char *p = out, *end = out + n, *nl;

	for (; p < end; p = nl + 1) {
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			nl = end;
		if (rule_line(r, k, p, (size_t)(nl - p), res) == -1)
			return -1;
	}
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct scanner sc;
	struct output_rules r = { 0 };
	struct scan_result res, want;
	char err[256];
	const char *out;
	enum rule_kind k;
	size_t n, at, chunk;
	unsigned seed;
	char *pattern;

	if (size < 3)
		return 0;
	k = data[0] & 4 ? RULE_CAPTURE : RULE_UNTIL;
	seed = data[1];
	pattern = fuzz_string(data + 2, size - 2);
	n = strlen(pattern);
	out = (const char *)data + 2 + n + (n < size - 2);
	n = size - (size_t)(out - (const char *)data);
	if (*pattern == '\0' || rule_compile(&r, k, pattern, data[0] & 1,
	    data[0] & 2, err, sizeof(err)) != 0) {
		rules_free(&r);
		free(pattern);
		return 0;
	}
	memset(&res, 0, sizeof(res));
	sc.len = 0;
	sc.midline = false;
	for (at = 0; at < n; at += chunk) {
		seed = seed * 1103515245 + 12345;
		chunk = 1 + (seed >> 8) % 97;
		if (chunk > n - at)
			chunk = n - at;
		scan_chunk(&r, &sc, out + at, chunk, &res);
	}
	scan_end(&r, &sc, &res);
	memset(&want, 0, sizeof(want));
	if (oracle(&r, k, out, n, &want) == 0 && !res.limited[k]) {
		CHECK(res.matched[k] == want.matched[k]);
		CHECK(res.captured == want.captured);
		CHECK(!want.captured || strcmp(res.capture, want.capture) == 0);
	}
	rules_free(&r);
	free(pattern);
	return 0;
}
