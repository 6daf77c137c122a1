/* The probes named in the command's place: tcp://HOST:PORT and
 * unix:///PATH, parsed or refused with why. */
#include <string.h>

#include "probeurl.h"
#include "unit.h"

void
unit_probeurl(void)
{
	static const struct {
		const char	*word;
		enum probe_kind	 kind;		/* PROBE_NONE: refused */
		const char	*host;		/* or the path, or why */
		const char	*port;
	} rows[] = {
		{ "tcp://db:5432", PROBE_TCP, "db", "5432" },
		{ "tcp://127.0.0.1:1", PROBE_TCP, "127.0.0.1", "1" },
		{ "tcp://[::1]:80", PROBE_TCP, "::1", "80" },
		{ "tcp://[fe80::1%eth0]:65535", PROBE_TCP, "fe80::1%eth0",
		  "65535" },
		{ "tcp://localhost:08080", PROBE_TCP, "localhost", "08080" },
		{ "unix:///run/db.sock", PROBE_UNIX, "/run/db.sock", NULL },
		{ "tcp://db", PROBE_NONE, "missing port (tcp://HOST:PORT)",
		  NULL },
		{ "tcp://db:", PROBE_NONE, "missing port (tcp://HOST:PORT)",
		  NULL },
		{ "tcp://[::1]", PROBE_NONE, "missing port (tcp://HOST:PORT)",
		  NULL },
		{ "tcp://:80", PROBE_NONE, "empty host (tcp://HOST:PORT)",
		  NULL },
		{ "tcp://", PROBE_NONE, "missing port (tcp://HOST:PORT)",
		  NULL },
		{ "tcp://[]:80", PROBE_NONE, "empty host (tcp://HOST:PORT)",
		  NULL },
		{ "tcp://db:0", PROBE_NONE,
		  "the port is not a number from 1 to 65535", NULL },
		{ "tcp://db:65536", PROBE_NONE,
		  "the port is not a number from 1 to 65535", NULL },
		{ "tcp://db:123456", PROBE_NONE,
		  "the port is not a number from 1 to 65535", NULL },
		{ "tcp://db:http", PROBE_NONE,
		  "the port is not a number from 1 to 65535", NULL },
		{ "tcp://db:+80", PROBE_NONE,
		  "the port is not a number from 1 to 65535", NULL },
		{ "tcp://db:80/", PROBE_NONE,
		  "the port is not a number from 1 to 65535", NULL },
		{ "tcp://::1:80", PROBE_NONE,
		  "an IPv6 address goes in brackets (tcp://[::1]:80)", NULL },
		{ "tcp://[::1:80", PROBE_NONE,
		  "an IPv6 address without its ']'", NULL },
		{ "tcp://[::1]80", PROBE_NONE,
		  "expected ':PORT' after the ']'", NULL },
		{ "tcp://[db]:80", PROBE_NONE,
		  "brackets are for an IPv6 address", NULL },
		{ "tcp://u@db:80", PROBE_NONE,
		  "a host has none of / ? # @ [ ] or blanks", NULL },
		{ "tcp://a/b:80", PROBE_NONE,
		  "a host has none of / ? # @ [ ] or blanks", NULL },
		{ "unix://", PROBE_NONE, "missing path (unix:///PATH)", NULL },
		{ "unix://run/db.sock", PROBE_NONE,
		  "the path is not absolute (unix:///PATH)", NULL },
		{ "unix:///01234567890123456789012345678901234567890123456789"
		  "012345678901234567890123456789012345678901234567890123456",
		  PROBE_NONE, "the path is longer than 107 bytes", NULL },
		{ "http://db:80", PROBE_NONE,
		  "not a probe (tcp://HOST:PORT or unix:///PATH)", NULL },
	};
	static const struct {
		const char	*word;
		bool		 is;
	} is[] = {
		{ "tcp://", true }, { "unix://x", true }, { "tcp:/x", false },
		{ "./tcp://x", false }, { "TCP://x:1", false },
		{ "unix:/x", false }, { "curl", false },
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct probe_url u;
		const char *why = probeurl_parse(rows[i].word, &u);
		const char *got = why != NULL ? why : u.kind == PROBE_UNIX ?
		    u.path : u.host;

		unit_row(u.kind == rows[i].kind && strcmp(got,
		    rows[i].host) == 0 && (rows[i].port == NULL ||
		    strcmp(u.port, rows[i].port) == 0), "probeurl",
		    rows[i].word, "kind %d, '%s' port '%s'", (int)u.kind, got,
		    u.port);
	}
	for (size_t i = 0; i < sizeof(is) / sizeof(is[0]); i++)
		unit_row(probeurl_is(is[i].word) == is[i].is, "probeurl",
		    is[i].word, "probeurl_is says %d", !is[i].is);
}
