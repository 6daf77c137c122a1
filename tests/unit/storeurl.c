/* The TLS store's URL, rediss://: its options, what is shown of it, and
 * the warning of a server left unverified; and the seeds of a list. */
#include <stdio.h>
#include <string.h>

#include "storeurl.h"
#include "unit.h"

/* A list of seeds: each in order, the shown form with every port, the
 * password never; an empty element, too many, one named twice and a list
 * of sockets refused, saying which. */
static void
rows_seeds(void)
{
	static const struct {
		const char	*spec;
		const char	*shown;		/* NULL: refused */
		size_t		 nseeds;
		const char	*last;		/* the last seed's host, or
						 * what the refusal says */
	} rows[] = {
		{ "redis://a,b", "redis://a:6379,b:6379/0", 2, "b" },
		{ "redis://a:7000,b:7001,c/3",
		  "redis://a:7000,b:7001,c:6379/3", 3, "c" },
		{ "redis://:pw@10.0.0.1:7000,10.0.0.2:7000/0",
		  "redis://:***@10.0.0.1:7000,10.0.0.2:7000/0", 2, "10.0.0.2" },
		{ "redis://u:p,w@a,b", "redis://u:***@a:6379,b:6379/0", 2,
		  "b" },
		{ "redis://[::1]:7000,[fe80::2],c",
		  "redis://[::1]:7000,[fe80::2]:6379,c:6379/0", 3, "c" },
		{ "redis://a,[::1]:7001/", "redis://a:6379,[::1]:7001/0", 2,
		  "::1" },
		{ "rediss://:pw@a:6380,b:6380/1?ssl_ca_certs=/ca.pem",
		  "rediss://:***@a:6380,b:6380/1", 2, "b" },
		{ "redis://a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p",
		  "redis://a:6379,b:6379,c:6379,d:6379,e:6379,f:6379,g:6379,"
		  "h:6379,i:6379,j:6379,k:6379,l:6379,m:6379,n:6379,o:6379,"
		  "p:6379/0", 16, "p" },
		{ "redis://a:6379,a", NULL, 0, "a host is named twice" },
		{ "redis://a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,q", NULL, 0,
		  "more than 16 hosts" },
		{ "redis://a,,b", NULL, 0, "an empty host in the list" },
		{ "redis://a,b,", NULL, 0, "an empty host in the list" },
		{ "redis://,a", NULL, 0, "an empty host in the list" },
		{ "redis://a,/1", NULL, 0, "an empty host in the list" },
		{ "redis://,", NULL, 0, "an empty host in the list" },
		{ "redis://:pw@,a", NULL, 0, "an empty host in the list" },
		{ "rediss://a,?ssl_cert_reqs=none", NULL, 0,
		  "an empty host in the list" },
		{ "redis://a:0,b", NULL, 0, "the port is not a number" },
		{ "redis://a,b:x", NULL, 0, "the port is not a number" },
		{ "redis://a,[::1", NULL, 0, "missing its ']'" },
		{ "redis://a,[::1]x", NULL, 0, "there is more after the host" },
		{ "redis://a,b c", NULL, 0, "a space" },
		{ "redis://a;b", NULL, 0, "not a name or an address" },
		/* What inet_aton reads and inet_pton does not: refused. */
		{ "redis://:pw@010.0.0.1", NULL, 0, "a numeric host is four" },
		{ "redis://2130706433", NULL, 0, "a numeric host is four" },
		{ "redis://a,0x7f.1:7000", NULL, 0, "a numeric host is four" },
		{ "redis://127.1", NULL, 0, "a numeric host is four" },
		{ "redis://0X7F000001", NULL, 0, "a numeric host is four" },
		{ "redis://1.2.3.4.5", NULL, 0, "a numeric host is four" },
		{ "redis://1..2", NULL, 0, "a numeric host is four" },
		{ "redis://256.0.0.1", NULL, 0, "a numeric host is four" },
		{ "redis://[010.0.0.1]", NULL, 0, "a numeric host is four" },
		{ "rediss://127.0.0.01", NULL, 0, "a numeric host is four" },
		/* Names that start or end as numbers do, and addresses. */
		{ "redis://0x7f.example,1.2.3.4a", "redis://0x7f.example:6379,"
		  "1.2.3.4a:6379/0", 2, "1.2.3.4a" },
		{ "redis://10.0.0.1,[127.0.0.1]:7000,0.0.0.0",
		  "redis://10.0.0.1:6379,127.0.0.1:7000,0.0.0.0:6379/0", 3,
		  "0.0.0.0" },
		{ "redis://a,b/1/2", NULL, 0, "the db is not a number" },
		{ "unix:///a.sock,/b.sock", NULL, 0, "one socket, not a list" },
	};
	struct store_url u;
	char shown[STOREURL_SHOWN_MAX];

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const char *why = storeurl_parse(rows[i].spec, true, &u);

		if (why == NULL)
			storeurl_show(&u, shown, sizeof(shown));
		unit_row(rows[i].shown == NULL ? why != NULL &&
		    strstr(why, rows[i].last) != NULL : why == NULL &&
		    strcmp(shown, rows[i].shown) == 0 &&
		    u.nseeds == rows[i].nseeds &&
		    strcmp(u.seed[u.nseeds - 1].host, rows[i].last) == 0,
		    "storeurl", rows[i].spec, "%s", why != NULL ? why : shown);
	}
	/* The longest spec, every seed without its port or db: its shown
	 * form, with them, fits. */
	{
		char spec[STOREURL_MAX];
		size_t n = (size_t)snprintf(spec, sizeof(spec), "redis://:p@");
		const size_t host = (STOREURL_MAX - 1 - n -
		    (STOREURL_SEEDS_MAX - 1)) / STOREURL_SEEDS_MAX;
		const char *why;

		for (int k = 0; k < STOREURL_SEEDS_MAX; k++) {
			if (k > 0)
				spec[n++] = ',';
			memset(spec + n, 'a' + k, host);
			n += host;
		}
		spec[n] = '\0';
		why = storeurl_parse(spec, true, &u);
		if (why == NULL)
			storeurl_show(&u, shown, sizeof(shown));
		unit_row(why == NULL && u.nseeds == STOREURL_SEEDS_MAX &&
		    strlen(shown) + 1 < sizeof(shown) &&
		    strcmp(shown + strlen(shown) - 7, ":6379/0") == 0,
		    "storeurl", "the longest list, shown whole", "%s",
		    why != NULL ? why : shown);
	}
}

void
unit_storeurl(void)
{
	static const struct {
		const char	*spec;
		const char	*shown;		/* NULL: refused */
		bool		 verify;
		const char	*ca, *cert, *key, *password;
	} rows[] = {
		{ "rediss://cache", "rediss://cache:6379/0", true, "", "", "",
		  "" },
		{ "rediss://:pw@cache:6380/2", "rediss://:***@cache:6380/2",
		  true, "", "", "", "pw" },
		{ "rediss://:p%3Fw@cache?ssl_cert_reqs=required",
		  "rediss://:***@cache:6379/0", true, "", "", "", "p?w" },
		{ "rediss://[::1]:7000/1?ssl_ca_certs=/etc/ca.pem",
		  "rediss://[::1]:7000/1", true, "/etc/ca.pem", "", "", "" },
		{ "rediss://cache?ssl_ca_certs=/a%20b/ca.pem&ssl_certfile=c.pem"
		  "&ssl_keyfile=k.pem", "rediss://cache:6379/0", true,
		  "/a b/ca.pem", "c.pem", "k.pem", "" },
		{ "rediss://cache?ssl_certfile=both.pem",
		  "rediss://cache:6379/0", true, "", "both.pem", "", "" },
		{ "rediss://cache/3?ssl_cert_reqs=none",
		  "rediss://cache:6379/3", false, "", "", "", "" },
		{ "rediss://cache?ssl_keyfile=k.pem", NULL, true, "", "", "",
		  "" },
		{ "rediss://cache?ssl_cert_reqs=optional", NULL, true, "", "",
		  "", "" },
		{ "rediss://cache?ssl_cert_reqs=", NULL, true, "", "", "", "" },
		{ "rediss://cache?ssl_ca_certs", NULL, true, "", "", "", "" },
		{ "rediss://cache?ssl_ca_certs=a&ssl_ca_certs=b", NULL, true,
		  "", "", "", "" },
		{ "rediss://cache?ssl_verify=no", NULL, true, "", "", "", "" },
		{ "rediss://cache?ssl_ca_certs=%4", NULL, true, "", "", "", "" },
		{ "rediss://cache?", "rediss://cache:6379/0", true, "", "", "",
		  "" },
		{ "rediss://?ssl_cert_reqs=none", NULL, true, "", "", "", "" },
		{ "redis://cache?ssl_cert_reqs=none", NULL, true, "", "", "",
		  "" },
		{ "redis://cache?x", NULL, true, "", "", "", "" },
	};
	struct store_url u;
	char shown[STOREURL_SHOWN_MAX];

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const char *why = storeurl_parse(rows[i].spec, true, &u);

		if (why == NULL)
			storeurl_show(&u, shown, sizeof(shown));
		unit_row(rows[i].shown == NULL ? why != NULL : why == NULL &&
		    strcmp(shown, rows[i].shown) == 0 && u.tls &&
		    u.verify == rows[i].verify && strcmp(u.ca, rows[i].ca) == 0 &&
		    strcmp(u.cert, rows[i].cert) == 0 &&
		    strcmp(u.key, rows[i].key) == 0 &&
		    strcmp(u.password, rows[i].password) == 0 &&
		    (storeurl_warning(&u) == NULL) == rows[i].verify,
		    "storeurl", rows[i].spec, "%s", why != NULL ? why : shown);
	}
	/* Only an unverified TLS server is warned of. */
	unit_row(storeurl_parse("redis://cache", false, &u) == NULL &&
	    storeurl_warning(&u) == NULL, "storeurl", "redis:// warns of "
	    "nothing", "%s", "a warning");
	rows_seeds();
}
