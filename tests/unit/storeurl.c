/* The TLS store's URL, rediss://: its options, what is shown of it, and
 * the warning of a server left unverified. */
#include <string.h>

#include "../../src/storeurl.h"
#include "unit.h"

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
	char shown[STOREURL_MAX + 64];

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
}
