/*
 * A probe named in the command's place: tcp://HOST:PORT (an IPv6 address
 * in brackets, tcp://[::1]:80) or unix:///PATH.  The word is a probe when
 * it starts with one of those schemes; it is then parsed, or refused with
 * why.  Pure.
 */
#ifndef RETRY_PROBEURL_H
#define RETRY_PROBEURL_H

#include <stdbool.h>

/* The longest socket path (sun_path holds 108 bytes with its NUL). */
#define PROBE_PATH_MAX	107

enum probe_kind { PROBE_NONE, PROBE_TCP, PROBE_UNIX };

struct probe_url {
	enum probe_kind	 kind;
	char		 host[256];		/* PROBE_TCP, brackets off */
	char		 port[6];		/* PROBE_TCP: 1 to 65535 */
	char		 path[PROBE_PATH_MAX + 1];	/* PROBE_UNIX */
};

/* Whether word names a probe (tcp:// or unix://), well formed or not. */
bool		 probeurl_is(const char *word);
/* word parsed into *u: NULL, or why it is refused (*u then kind
 * PROBE_NONE). */
const char	*probeurl_parse(const char *word, struct probe_url *u);

#endif
