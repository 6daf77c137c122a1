/* The spec of a store of shared state. */
#include <arpa/inet.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/un.h>

#include "storeurl.h"

#define REDIS_PORT	"6379"
#define DB_MAX		1000000	/* Redis has 16 unless told otherwise */
#define SEEDS_MAX_TEXT	"16"
_Static_assert(STOREURL_SEEDS_MAX == 16, "SEEDS_MAX_TEXT says it");

static int
hexval(char c)
{
	if (isdigit((unsigned char)c))
		return c - '0';
	c = (char)tolower((unsigned char)c);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* s[0..len) with its %XX escapes undone, into out; false when it does
 * not fit, an escape is bad or one is a NUL. */
static bool
unescape(const char *s, size_t len, char *out, size_t sz)
{
	size_t n = 0;

	for (size_t i = 0; i < len; i++) {
		char c = s[i];

		if (c == '%') {
			const int hi = i + 2 < len ? hexval(s[i + 1]) : -1;
			const int lo = hi >= 0 ? hexval(s[i + 2]) : -1;

			if (lo < 0 || (hi | lo) == 0)
				return false;
			c = (char)(hi << 4 | lo);
			i += 2;
		}
		if (n + 1 >= sz)
			return false;
		out[n++] = c;
	}
	out[n] = '\0';
	return true;
}

/* A db: digits, from 0 to DB_MAX. */
static bool
db_parse(const char *s, size_t len, int *out)
{
	long v = 0;

	if (len == 0 || len > 7)
		return false;
	for (size_t i = 0; i < len; i++) {
		if (!isdigit((unsigned char)s[i]))
			return false;
		v = v * 10 + (s[i] - '0');
	}
	if (v > DB_MAX)
		return false;
	*out = (int)v;
	return true;
}

/* [[USER]:PASSWORD@] at the start of *s, up to end; *s moves past it. */
static const char *
userinfo(const char **s, const char *end, bool secret_ok,
    struct store_url *u)
{
	const char *slash = memchr(*s, '/', (size_t)(end - *s));
	const char *at = memrchr(*s, '@', (size_t)((slash != NULL ? slash :
	    end) - *s)), *colon;

	if (at == NULL)
		return NULL;
	colon = memchr(*s, ':', (size_t)(at - *s));
	if (colon == NULL)
		return "give a password with the user, as USER:PASSWORD@";
	if (!unescape(*s, (size_t)(colon - *s), u->user, sizeof(u->user)) ||
	    !unescape(colon + 1, (size_t)(at - colon - 1), u->password,
	    sizeof(u->password)))
		return "the user or the password is too long or has a bad "
		    "%XX escape";
	if (u->password[0] == '\0')
		return "the password is empty";
	for (const char *c = u->user; *c != '\0'; c++)
		if (iscntrl((unsigned char)*c))
			return "the user has a control character";
	if (!secret_ok)
		return "a password here is seen by every user in ps; give "
		    "the URL in $RETRY_SHARE_STORE or --share-store @FILE";
	u->has_password = true;
	*s = at + 1;
	return NULL;
}

/*
 * Whether host would be read as an IPv4 address by inet_aton, which
 * getaddrinfo uses: each of its parts between dots decimal, octal (a
 * leading 0) or hex (0x...), 1 to 4 of them (2130706433 is 127.0.0.1,
 * 010.0.0.1 is 8.0.0.1).  Empty parts count, so that 1..2 does too.
 */
static bool
looks_numeric(const char *host)
{
	for (const char *p = host;; p++) {
		if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
			p += 2 + strspn(p + 2, "0123456789abcdefABCDEF");
		else
			p += strspn(p, "0123456789");
		if (*p == '\0')
			return true;
		if (*p != '.')
			return false;
	}
}

/* HOST[:PORT] of a seed, all of [s, end), into seed. */
static const char *
seed_parse(const char *s, const char *end, struct store_seed *seed)
{
	const char *host_end, *p;
	size_t len;

	if (*s == '[') {
		host_end = memchr(s, ']', (size_t)(end - s));
		if (host_end == NULL)
			return "an IPv6 address is missing its ']'";
		s++;
		p = host_end + 1;
		if (strspn(s, "0123456789abcdefABCDEF:.") < (size_t)(host_end -
		    s))
			return "not an IPv6 address in [ ]";
	} else {
		host_end = s + strcspn(s, ":");
		if (host_end > end)
			host_end = end;
		p = host_end;
		for (const char *c = s; c < host_end; c++)
			if (!isalnum((unsigned char)*c) && *c != '.' &&
			    *c != '-' && *c != '_')
				return "the host is not a name or an address";
	}
	len = (size_t)(host_end - s);
	if (len == 0 || len >= sizeof(seed->host))
		return "no host, or too long a one";
	memcpy(seed->host, s, len);
	seed->host[len] = '\0';
	/* An address is what the messages show: dotted decimal only. */
	if (looks_numeric(seed->host) && inet_pton(AF_INET, seed->host, &(struct in_addr){ 0 }) != 1)
		return "a numeric host is four numbers from 0 to 255 without "
		    "leading zeros, as 127.0.0.1";
	snprintf(seed->port, sizeof(seed->port), "%s", REDIS_PORT);
	if (p < end && *p == ':') {
		const char *q = ++p;
		long port = 0;

		while (p < end && isdigit((unsigned char)*p) && port <= 65535)
			port = port * 10 + (*p++ - '0');
		if (p == q || port < 1 || port > 65535 || p != end)
			return "the port is not a number from 1 to 65535";
		snprintf(seed->port, sizeof(seed->port), "%ld", port);
	}
	if (p != end)
		return "there is more after the host";
	return NULL;
}

/* HOST[:PORT][,HOST[:PORT]]...[/DB] of a redis:// URL, all of [s, end):
 * the seeds in order, each named once. */
static const char *
tcp(const char *s, const char *end, struct store_url *u)
{
	const char *slash = memchr(s, '/', (size_t)(end - s));
	const char *list_end = slash != NULL ? slash : end, *why;

	if (s == list_end)
		return "no host, or too long a one";
	for (const char *p = s; p <= list_end; p++) {
		const char *comma = memchr(p, ',', (size_t)(list_end - p));
		const char *stop = comma != NULL ? comma : list_end;
		struct store_seed *seed = &u->seed[u->nseeds];

		if (stop == p)
			return "an empty host in the list: give HOST[:PORT] "
			    "between the commas";
		if (u->nseeds == STOREURL_SEEDS_MAX)
			return "more than " SEEDS_MAX_TEXT " hosts in the list";
		if ((why = seed_parse(p, stop, seed)) != NULL)
			return why;
		for (size_t i = 0; i < u->nseeds; i++)
			if (strcmp(u->seed[i].host, seed->host) == 0 &&
			    strcmp(u->seed[i].port, seed->port) == 0)
				return "a host is named twice";
		u->nseeds++;
		p = stop;
	}
	if (slash != NULL && slash + 1 < end && !db_parse(slash + 1,
	    (size_t)(end - slash - 1), &u->db))
		return "the db is not a number from 0 to 1000000";
	return NULL;
}

/* /PATH[?db=DB] of a unix:// URL, all of [s, end). */
static const char *
unix_socket(const char *s, const char *end, struct store_url *u)
{
	const char *q = memchr(s, '?', (size_t)(end - s));
	const size_t len = (size_t)((q != NULL ? q : end) - s);

	if (len == 0 || *s != '/')
		return "give the socket's absolute path, as unix:///PATH";
	if (len >= sizeof(((struct sockaddr_un *)NULL)->sun_path))
		return "the socket's path is too long";
	if (memchr(s, ',', len) != NULL)
		return "unix:// names one socket, not a list";
	memcpy(u->path, s, len);
	u->path[len] = '\0';
	if (q != NULL && (strncmp(q, "?db=", 4) != 0 ||
	    !db_parse(q + 4, (size_t)(end - q - 4), &u->db)))
		return "give the db as ?db=N, N from 0 to 1000000";
	return NULL;
}

/* The TLS options of a rediss:// URL: the query after its '?', all of
 * [s, end), '&' between them. */
static const char *
tls_options(const char *s, const char *end, struct store_url *u)
{
	static const char *const names[] = { "ssl_ca_certs", "ssl_certfile",
	    "ssl_keyfile", "ssl_cert_reqs" };
	char *const files[] = { u->ca, u->cert, u->key };
	bool reqs = false;

	while (s < end) {
		const char *amp = memchr(s, '&', (size_t)(end - s));
		const char *stop = amp != NULL ? amp : end;
		const char *eq = memchr(s, '=', (size_t)(stop - s));
		char value[STOREURL_FILE_MAX];
		size_t i, klen;

		klen = (size_t)((eq != NULL ? eq : stop) - s);
		for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			if (strlen(names[i]) == klen &&
			    memcmp(s, names[i], klen) == 0)
				break;
		if (i == sizeof(names) / sizeof(names[0]))
			return "an unknown option after '?': give ssl_ca_certs, "
			    "ssl_certfile, ssl_keyfile or ssl_cert_reqs";
		if (eq == NULL || eq + 1 == stop)
			return "an option after '?' without a value";
		if (!unescape(eq + 1, (size_t)(stop - eq - 1), value,
		    sizeof(value)))
			return "an option's value is too long or has a bad %XX "
			    "escape";
		if (i < 3) {
			if (files[i][0] != '\0')
				return "an option is given twice";
			memcpy(files[i], value, strlen(value) + 1);
		} else {
			if (reqs)
				return "an option is given twice";
			reqs = true;
			if (strcmp(value, "none") != 0 &&
			    strcmp(value, "required") != 0)
				return "ssl_cert_reqs is none or required";
			u->verify = strcmp(value, "required") == 0;
		}
		s = amp != NULL ? amp + 1 : end;
	}
	if (u->key[0] != '\0' && u->cert[0] == '\0')
		return "ssl_keyfile is the key of ssl_certfile: give both";
	return NULL;
}

const char *
storeurl_parse(const char *spec, bool secret_ok, struct store_url *u)
{
	const size_t len = strlen(spec);
	const char *s, *end = spec + len, *why, *query = NULL;

	memset(u, 0, sizeof(*u));
	if (len == 0 || len >= STOREURL_MAX)
		return "empty or too long";
	if (strncmp(spec, "file:", 5) == 0) {
		u->kind = STORE_FILE;
		if (spec[5] == '\0' || len - 5 >= sizeof(u->path))
			return "no directory, or too long a one";
		snprintf(u->path, sizeof(u->path), "%s", spec + 5);
		return NULL;
	}
	for (const char *c = spec; c < end; c++)
		if (iscntrl((unsigned char)*c) || *c == ' ')
			return "a space or a control character";
	if (strncmp(spec, "rediss://", 9) == 0) {
		u->kind = STORE_REDIS_TCP;
		u->tls = u->verify = true;
		s = spec + 9;
		/* A '?' in the password is written %3F, as URLs have it. */
		if ((query = strchr(s, '?')) != NULL)
			end = query;
		if ((why = userinfo(&s, end, secret_ok, u)) != NULL ||
		    (why = tcp(s, end, u)) != NULL)
			return why;
		return query != NULL ? tls_options(query + 1, spec + len, u) :
		    NULL;
	}
	if (strncmp(spec, "redis://", 8) == 0 ||
	    strncmp(spec, "unix://", 7) == 0) {
		u->kind = spec[0] == 'r' ? STORE_REDIS_TCP : STORE_REDIS_UNIX;
		s = spec + (u->kind == STORE_REDIS_TCP ? 8 : 7);
		if ((why = userinfo(&s, end, secret_ok, u)) != NULL)
			return why;
		if (u->kind == STORE_REDIS_TCP && strstr(s, "?ssl_") != NULL)
			return "the ssl_ options are for TLS: give rediss://";
		return u->kind == STORE_REDIS_TCP ? tcp(s, end, u) :
		    unix_socket(s, end, u);
	}
	return "not a store: give file:DIR, redis://HOST[:PORT][/DB] or "
	    "unix:///PATH";
}

void
storeurl_show(const struct store_url *u, char *buf, size_t sz)
{
	const char *auth = u->has_password ? ":***@" : "";
	const char *user = u->has_password ? u->user : "";
	size_t n;

	if (u->kind == STORE_FILE) {
		snprintf(buf, sz, "file:%s", u->path);
		return;
	}
	if (u->kind == STORE_REDIS_UNIX) {
		snprintf(buf, sz, "unix://%s%s%s?db=%d", user, auth, u->path,
		    u->db);
		return;
	}
	n = (size_t)snprintf(buf, sz, "%s://%s%s", u->tls ? "rediss" : "redis",
	    user, auth);
	for (size_t i = 0; i < u->nseeds && n < sz; i++) {
		const bool v6 = strchr(u->seed[i].host, ':') != NULL;

		n += (size_t)snprintf(buf + n, sz - n, "%s%s%s%s:%s",
		    i > 0 ? "," : "", v6 ? "[" : "", u->seed[i].host,
		    v6 ? "]" : "", u->seed[i].port);
	}
	if (n < sz)
		snprintf(buf + n, sz - n, "/%d", u->db);
}

const char *
storeurl_warning(const struct store_url *u)
{
	if (u->kind == STORE_REDIS_TCP && u->tls && !u->verify)
		return "ssl_cert_reqs=none: the server's certificate is not "
		    "verified, so anyone on the way to it can read and change "
		    "the shared state";
	return NULL;
}
