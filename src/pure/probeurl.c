/* tcp://HOST:PORT and unix:///PATH, parsed (probeurl.h). */
#include <string.h>

#include "probeurl.h"

#define TCP	"tcp://"
#define UNIX	"unix://"

bool
probeurl_is(const char *word)
{
	return strncmp(word, TCP, sizeof(TCP) - 1) == 0 ||
	    strncmp(word, UNIX, sizeof(UNIX) - 1) == 0;
}

/* PORT: 1 to 65535 in decimal, no sign, no blank. */
static const char *
port(const char *s, struct probe_url *u)
{
	unsigned long n = 0;
	size_t len = strlen(s);

	if (len == 0)
		return "missing port (tcp://HOST:PORT)";
	if (len > 5 || strspn(s, "0123456789") != len)
		return "the port is not a number from 1 to 65535";
	for (size_t i = 0; i < len; i++)
		n = n * 10 + (unsigned long)(s[i] - '0');
	if (n == 0 || n > 65535)
		return "the port is not a number from 1 to 65535";
	memcpy(u->port, s, len + 1);
	return NULL;
}

static const char *
tcp(const char *s, struct probe_url *u)
{
	const char *colon, *host = s;
	size_t hlen;

	if (*s == '[') {
		const char *close = strchr(s, ']');

		if (close == NULL)
			return "an IPv6 address without its ']'";
		host = s + 1;
		hlen = (size_t)(close - host);
		if (close[1] == '\0')
			return "missing port (tcp://HOST:PORT)";
		if (close[1] != ':')
			return "expected ':PORT' after the ']'";
		colon = close + 1;
		if (hlen > 0 && memchr(host, ':', hlen) == NULL)
			return "brackets are for an IPv6 address";
	} else {
		if ((colon = strrchr(s, ':')) == NULL)
			return "missing port (tcp://HOST:PORT)";
		hlen = (size_t)(colon - s);
		if (memchr(s, ':', hlen) != NULL)
			return "an IPv6 address goes in brackets "
			    "(tcp://[::1]:80)";
	}
	if (hlen == 0)
		return "empty host (tcp://HOST:PORT)";
	if (hlen >= sizeof(u->host))
		return "the host is longer than 255 bytes";
	if (strcspn(host, "/?#@[] \t\n") < hlen)
		return "a host has none of / ? # @ [ ] or blanks";
	memcpy(u->host, host, hlen);
	u->host[hlen] = '\0';
	return port(colon + 1, u);
}

static const char *
unix_path(const char *s, struct probe_url *u)
{
	const size_t len = strlen(s);

	if (len == 0)
		return "missing path (unix:///PATH)";
	if (*s != '/')
		return "the path is not absolute (unix:///PATH)";
	if (len > PROBE_PATH_MAX)
		return "the path is longer than 107 bytes";
	memcpy(u->path, s, len + 1);
	return NULL;
}

const char *
probeurl_parse(const char *word, struct probe_url *u)
{
	const char *why;

	memset(u, 0, sizeof(*u));
	if (strncmp(word, TCP, sizeof(TCP) - 1) == 0) {
		u->kind = PROBE_TCP;
		why = tcp(word + sizeof(TCP) - 1, u);
	} else if (strncmp(word, UNIX, sizeof(UNIX) - 1) == 0) {
		u->kind = PROBE_UNIX;
		why = unix_path(word + sizeof(UNIX) - 1, u);
	} else
		why = "not a probe (tcp://HOST:PORT or unix:///PATH)";
	if (why != NULL)
		memset(u, 0, sizeof(*u));
	return why;
}
