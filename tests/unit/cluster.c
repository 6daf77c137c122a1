/* Redis Cluster's slots, as CLUSTER KEYSLOT gives them, and the words of
 * its redirections. */
#include <string.h>

#include "cluster.h"
#include "unit.h"

void
unit_cluster(void)
{
	static const struct {
		const char	*key;
		unsigned	 slot;
	} slots[] = {
		{ "foo", 12182 }, { "bar", 5061 },
		{ "{user1000}.following", 3443 },
		{ "{user1000}.followers", 3443 }, { "123456789", 12739 },
		{ "retry:fleet:state", 11279 }, { "{}x", 10595 },
		{ "a{}b{c}", 7353 }, { "{a", 10276 }, { "a{b}c{d}", 3300 },
		{ "", 0 },
	};
	static const struct {
		const char	*words;
		bool		 ok, ask;
		unsigned	 slot;
		const char	*host, *port;
	} redirects[] = {
		{ "MOVED 3999 127.0.0.1:6381", true, false, 3999, "127.0.0.1",
		  "6381" },
		{ "ASK 16383 cache-2.example:7000", true, true, 16383,
		  "cache-2.example", "7000" },
		{ "MOVED 0 :6380", true, false, 0, "", "6380" },
		{ "MOVED 12 ?:6380", true, false, 12, "", "6380" },
		{ "MOVED 12 ::1:7001", true, false, 12, "::1", "7001" },
		{ "MOVED 12 [::1]:7001", true, false, 12, "::1", "7001" },
		{ "MOVED 16384 127.0.0.1:6381", false, false, 0, "", "" },
		{ "MOVED x 127.0.0.1:6381", false, false, 0, "", "" },
		{ "MOVED 1 127.0.0.1", false, false, 0, "", "" },
		{ "MOVED 1 127.0.0.1:0", false, false, 0, "", "" },
		{ "MOVED 1 127.0.0.1:65536", false, false, 0, "", "" },
		{ "MOVED 1 127.0.0.1:", false, false, 0, "", "" },
		{ "MOVED 1 a b:1", false, false, 0, "", "" },
		{ "MOVED 1 \x1b]0;x\x07:1", false, false, 0, "", "" },
		{ "MOVED  1 h:1", false, false, 0, "", "" },
		{ "ERR MOVED 1 h:1", false, false, 0, "", "" },
		{ "NOSCRIPT No matching script", false, false, 0, "", "" },
	};
	struct cluster_redirect to;

	for (size_t i = 0; i < sizeof(slots) / sizeof(slots[0]); i++) {
		const unsigned got = cluster_slot(slots[i].key,
		    strlen(slots[i].key));

		unit_row(got == slots[i].slot, "cluster", slots[i].key,
		    "slot %u, not %u", got, slots[i].slot);
	}
	for (size_t i = 0; i < sizeof(redirects) / sizeof(redirects[0]); i++) {
		const bool ok = cluster_redirect_parse(redirects[i].words, &to);

		unit_row(ok == redirects[i].ok && (!ok ||
		    (to.ask == redirects[i].ask && to.slot == redirects[i].slot &&
		    strcmp(to.host, redirects[i].host) == 0 &&
		    strcmp(to.port, redirects[i].port) == 0)), "cluster",
		    redirects[i].words, "%s: %s %u %s %s", ok ? "read" :
		    "refused", to.ask ? "ASK" : "MOVED", to.slot, to.host,
		    to.port);
	}
}
