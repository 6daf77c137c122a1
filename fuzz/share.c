/* The shared state's text and values: share_parse (a state it accepts
 * formats and parses back the same, and drives the decisions sanely),
 * share_name_check, share_budget_parse, share_breaker_parse, and the
 * store's spec (storeurl_parse: what it accepts is whole, and shown
 * without its password). */
#include <math.h>

#include "share.h"
#include "storeurl.h"
#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct share_rules r = { .max = 10, .ratio = 0.2, .trip = 3,
	    .cooldown = 1000000000, .lease = 1000000000,
	    .window = 60000000000 };
	struct share_state s, back;
	struct gate_answer g;
	struct record_answer a;
	char *str = fuzz_string(data, size), buf[SHARE_TEXT_MAX];
	unsigned long trip;
	int64_t cooldown;
	double max, ratio;
	size_t n;
	struct store_url u;
	char shown[STOREURL_SHOWN_MAX];

	if (share_parse((const char *)data, size, &s) == NULL) {
		CHECK(s.tokens >= 0 && isfinite(s.tokens));
		n = share_format(&s, buf, sizeof(buf));
		CHECK(n > 0);
		CHECK(share_parse(buf, n, &back) == NULL);
		CHECK(back.tokens == s.tokens && back.failures == s.failures &&
		    back.breaker == s.breaker && back.probe == s.probe);
		g = share_gate(&s, &r, 7, 1700000000000000000);
		CHECK(g.what != GATE_WAIT || g.until > 1700000000000000000);
		a = share_record(&s, &r, 7, size % 2 == 0, size % 3 == 0, 0,
		    1700000000000000000);
		CHECK(s.tokens >= 0 && s.tokens <= r.max);
		CHECK(!a.retry || s.tokens <= r.max - 1);
	}
	if (share_name_check(str) == NULL)
		CHECK(strlen(str) >= 1 && strlen(str) <= SHARE_NAME_MAX &&
		    strchr(str, '/') == NULL);
	if (share_budget_parse(str, &max, &ratio) == NULL)
		CHECK(max >= 1 && max <= 1e6 && ratio >= 0 && ratio <= max);
	if (share_breaker_parse(str, &trip, &cooldown) == NULL)
		CHECK(trip >= 1 && cooldown > 0);
	if (storeurl_parse(str, true, &u) == NULL) {
		storeurl_show(&u, shown, sizeof(shown));
		CHECK(!u.has_password || (u.password[0] != '\0' &&
		    strstr(shown, ":***@") != NULL));
		CHECK(u.kind != STORE_REDIS_TCP || u.has_password ||
		    strchr(shown, '@') == NULL);
		CHECK(u.kind != STORE_REDIS_TCP || (u.nseeds >= 1 &&
		    u.nseeds <= STOREURL_SEEDS_MAX));
		for (size_t i = 0; i < u.nseeds; i++)
			CHECK(u.seed[i].host[0] != '\0' &&
			    atoi(u.seed[i].port) >= 1 &&
			    atoi(u.seed[i].port) <= 65535);
		CHECK(strlen(shown) + 1 < sizeof(shown));
		CHECK(u.kind != STORE_REDIS_UNIX || u.path[0] == '/');
		CHECK(storeurl_parse(str, false, &u) == NULL ||
		    !u.has_password);
	}
	free(str);
	return 0;
}
