/* One node's connection to Redis: its lookup, connect, TLS, greeting,
 * AUTH and SELECT, and each exchange inside the one wait. */
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "clock.h"
#include "compat.h"
#include "duration.h"
#include "lookup.h"
#include "netconnect.h"
#include "pwmask.h"
#include "redisnode.h"
#include "wait.h"
#include "tls.h"

/* How often a name lookup in progress is looked at. */

/* The longest report of a store's fault: a server's words are cut there,
 * once the password is out of them. */
#define WHAT_MAX	512
/* What redisconn_fail and node_fail say: the store, then node (a node's
 * name, or ""), then fmt's text, the password looked for in the whole
 * before anything is cut: -1. */
static int
vfail(const struct redis_conn *r, const char *node, char *err, size_t sz,
    const char *fmt, va_list ap) __attribute__((format(printf, 5, 0)));

static int
vfail(const struct redis_conn *r, const char *node, char *err, size_t sz,
    const char *fmt, va_list ap)
{
	char shown[STOREURL_SHOWN_MAX], what[WHAT_MAX], *text = NULL,
	    *all = NULL;
	const int k = vasprintf(&text, fmt, ap);
	const int n = k < 0 ? -1 : asprintf(&all, "%s%s", node, text);

	if (n < 0)
		snprintf(what, sizeof(what), "%s", strerror(ENOMEM));
	else if (r->url.has_password)
		mask_password(all, r->url.password, what, sizeof(what));
	else
		snprintf(what, sizeof(what), "%s", all);
	if (k >= 0) {
		explicit_bzero(text, (size_t)k);
		free(text);
	}
	if (n >= 0) {
		explicit_bzero(all, (size_t)n);
		free(all);
	}
	storeurl_show(&r->url, shown, sizeof(shown));
	snprintf(err, sz, "%s: %s", shown, what);
	return -1;
}

int
redisconn_fail(const struct redis_conn *r, char *err, size_t sz,
    const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	(void)vfail(r, "", err, sz, fmt, ap);
	va_end(ap);
	return -1;
}

size_t
seed_count(const struct redis_conn *r)
{
	return r->url.kind == STORE_REDIS_UNIX ? 1 : r->url.nseeds;
}

int
node_fail(const struct redis_conn *r, const struct redis_node *n, char *err,
    size_t sz, const char *fmt, ...)
{
	const bool v6 = strchr(n->host, ':') != NULL;
	char node[sizeof(n->host) + sizeof(n->port) + 16] = "";
	va_list ap;

	if (seed_count(r) > 1 || n != r->nodes[0])
		snprintf(node, sizeof(node), "node %s%s%s:%s: ", v6 ? "[" : "",
		    n->host, v6 ? "]" : "", n->port);
	va_start(ap, fmt);
	(void)vfail(r, node, err, sz, fmt, ap);
	va_end(ap);
	return -1;
}

bool
stopped(const struct redis_conn *r)
{
	return signal_stop != 0 && !r->ending;
}

int64_t
deadline(const struct redis_conn *r, int64_t span)
{
	int64_t d = mono_ns() + span;

	if (r->by >= 0 && r->by < d)
		d = r->by;
	if (r->seeds_by >= 0 && r->seeds_by < d)
		d = r->seeds_by;
	return r->hops_by >= 0 && r->hops_by < d ? r->hops_by : d;
}

/* How a wait of by - start, bound by span, that ran out is said. */
static const char *
within(const struct redis_conn *r, int64_t span, int64_t start, int64_t by,
    char *buf, size_t sz)
{
	char d[DURATION_BUFSZ];
	const bool cut = by == r->by && by - start < span;

	snprintf(buf, sz, "%s%s%s%s", duration_format(duration_round(by -
	    start), d, sizeof(d)), cut ? " (" : "", cut ? (r->by_what != NULL ?
	    r->by_what : "half of what was left of --budget") : "",
	    cut ? ")" : "");
	return buf;
}

void
disconnect(struct redis_node *n)
{
	tls_end(n->ssl);
	n->ssl = NULL;
	if (n->fd != -1)
		close(n->fd);
	n->fd = -1;
	if (n->reader != NULL)
		hiredis.redisReaderFree(n->reader);
	n->reader = NULL;
	n->answered = false;
}

/*
 * redis:// to a TLS port: the server takes the command for a ClientHello
 * and closes or resets the connection before any reply, or answers with a
 * TLS record (an alert, 0x15; a handshake, 0x16).  Then the failure says
 * what to try.  bytes came in this exchange, the first of them first.
 */
static const char *
tls_hint(const struct redis_conn *r, const struct redis_node *n,
    size_t bytes, int first)
{
	return r->url.kind == STORE_REDIS_TCP && !r->url.tls &&
	    !n->answered && (bytes == 0 || first == 0x15 || first == 0x16) ?
	    " (a TLS port? rediss:// speaks TLS)" : "";
}

/* The node's addresses: at once for a number, else by a lookup that the
 * wait watches.  0, or -1 with why in err. */
static int
resolve(struct redis_conn *r, struct redis_node *n, int64_t by,
    struct addrinfo **out, char *err, size_t sz)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM,
	    .ai_flags = AI_NUMERICHOST | AI_NUMERICSERV };
	const struct addrinfo named = { .ai_socktype = SOCK_STREAM,
	    .ai_flags = AI_NUMERICSERV | AI_ADDRCONFIG };
	int rc;

	if (lookup_numeric(n->host, n->port, &hints, out) == 0)
		return 0;
	if (n->lookup == NULL && (rc = lookup_start(&n->lookup, n->host,
	    n->port, &named)) != 0)
		return node_fail(r, n, err, sz, "looking up %s: %s", n->host,
		    gai_strerror(rc));
	while (!lookup_done(n->lookup, &rc, out)) {
		struct pollfd fd = { .fd = lookup_fd(n->lookup),
		    .events = POLLIN };

		if (stopped(r))
			return node_fail(r, n, err, sz, "a signal came");
		if (mono_ns() >= by)
			return node_fail(r, n, err, sz, "no address for %s "
			    "within the timeout", n->host);
		(void)wait_until(&fd, 1, by);
	}
	n->lookup = NULL;
	if (rc != 0)
		return node_fail(r, n, err, sz, "looking up %s: %s", n->host,
		    gai_strerror(rc));
	return 0;
}

/* TLS on the node's new connection, by then: the handshake, each of its
 * steps inside the one wait.  0, or -1 with why in err. */
static int
handshake(struct redis_conn *r, struct redis_node *n, int64_t start,
    int64_t by, char *err, size_t sz)
{
	struct pollfd p = { .fd = n->fd };
	char why[512], d[DURATION_BUFSZ + 64];
	int k;

	if (r->tls == NULL && (r->tls = tls_context(&r->url, why,
	    sizeof(why))) == NULL)
		return node_fail(r, n, err, sz, "%s", why);
	if ((n->ssl = tls_session(r->tls, n->fd, n->host, why,
	    sizeof(why))) == NULL)
		return node_fail(r, n, err, sz, "%s", why);
	while ((k = tls_handshake(n->ssl, &p.events, why, sizeof(why))) ==
	    1) {
		if (stopped(r))
			return node_fail(r, n, err, sz, "TLS handshake: a "
			    "signal came");
		if (mono_ns() >= by)
			return node_fail(r, n, err, sz, "no TLS handshake "
			    "within %s", within(r, r->connect_timeout, start,
			    by, d, sizeof(d)));
		(void)wait_until(&p, 1, by);
	}
	return k == 0 ? 0 : node_fail(r, n, err, sz, "%s", why);
}

static int
connect_node(struct redis_conn *r, struct redis_node *n, int64_t start,
    int64_t by, char *err, size_t sz)
{
	struct addrinfo *ai = NULL;
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	const char *why;
	int e = 0, one = 1;

	if ((why = load_hiredis()) != NULL)
		return node_fail(r, n, err, sz, "Redis needs hiredis: %s", why);
	if (n->unix_socket) {
		memcpy(sun.sun_path, r->url.path, strlen(r->url.path) + 1);
		n->fd = compat_socket(AF_UNIX, SOCK_STREAM, 0);
		if (n->fd == -1 || net_connect(n->fd, (struct sockaddr *)&sun,
		    sizeof(sun), by, !r->ending) == -1)
			e = errno;
	} else {
		if (resolve(r, n, by, &ai, err, sz) == -1)
			return -1;
		if ((n->fd = net_connect_any(ai, by, !r->ending, NULL,
		    NULL)) == -1)
			e = errno;
		lookup_free(ai);
		if (n->fd != -1 && e == 0)
			(void)setsockopt(n->fd, IPPROTO_TCP, TCP_NODELAY, &one,
			    sizeof(one));
	}
	if (e != 0 || n->fd == -1) {
		disconnect(n);
		if (e == ETIMEDOUT)
			return node_fail(r, n, err, sz, "no connection within "
			    "%s", within(r, r->connect_timeout, start, by,
			    (char[DURATION_BUFSZ + 64]){ 0 },
			    DURATION_BUFSZ + 64));
		return node_fail(r, n, err, sz, "cannot connect: %s",
		    e == EINTR ? "a signal came" : strerror(e != 0 ? e :
		    ENOTCONN));
	}
	if (r->url.tls && handshake(r, n, start, by, err, sz) == -1) {
		disconnect(n);
		return -1;
	}
	if ((n->reader = new_reader(r)) == NULL) {
		disconnect(n);
		return node_fail(r, n, err, sz, "%s", strerror(ENOMEM));
	}
	return 0;
}

/* As send(2) and read(2), on the connection or its TLS session: bytes,
 * 0 (a read: the server closed it), or -1 with errno (EAGAIN: the socket
 * must first become *events) and, for TLS, why in err. */
static ssize_t
node_send(struct redis_node *n, const char *buf, size_t len, short *events,
    char *why, size_t sz)
{
	if (n->ssl != NULL)
		return tls_write(n->ssl, buf, len, events, why, sz);
	*events = POLLOUT;
	snprintf(why, sz, "sending: %s", strerror(EPIPE));
	return send(n->fd, buf, len, MSG_NOSIGNAL);
}

static ssize_t
node_recv(struct redis_node *n, char *buf, size_t len, short *events,
    char *why, size_t sz)
{
	if (n->ssl != NULL)
		return tls_read(n->ssl, buf, len, events, why, sz);
	*events = POLLIN;
	return read(n->fd, buf, len);
}

/* Sends out[0..len) to the node, then reads count replies, by then (a
 * wait bound by span that began at start):
 * 0, or -1 with why in err and the connection dropped. */
static int
exchange(struct redis_conn *r, struct redis_node *n, int64_t span,
    int64_t start, int64_t by, const char *out, size_t len, size_t count, redisReply **rep,
    char *err, size_t sz)
{
	size_t sent = 0, got = 0, bytes = 0;
	int first = -1;
	char buf[16384], d[DURATION_BUFSZ + 64], why[512];
	short rwant = POLLIN, wwant = POLLOUT;
	/* A TLS session may hold what the socket no longer shows. */
	bool readable = n->ssl != NULL && tls_pending(n->ssl), writable = true;
	void *reply;

	while (got < count) {
		struct pollfd p = { .fd = n->fd };
		ssize_t k;

		if (hiredis.redisReaderGetReply(n->reader, &reply) == REDIS_ERR) {
			if (r->too_many)
				node_fail(r, n, err, sz, "an answer of more "
				    "than %d elements", REPLY_ELEMENTS_MAX);
			else
				node_fail(r, n, err, sz, "not a Redis server? "
				    "(%s)%s", ((redisReader *)n->reader)->errstr,
				    tls_hint(r, n, bytes, first));
			goto fail;
		}
		if (reply != NULL) {
			rep[got++] = reply;
			n->answered = true;
			continue;
		}
		/* Sent at once: the socket's buffer takes a command. */
		if (sent < len && writable) {
			k = node_send(n, out + sent, len - sent, &wwant, why,
			    sizeof(why));
			if (k > 0) {
				sent += (size_t)k;
				continue;
			}
			if (errno != EAGAIN && errno != EINTR) {
				node_fail(r, n, err, sz, "%s%s", n->ssl != NULL ?
				    why : strerror(errno),
				    tls_hint(r, n, bytes, first));
				goto fail;
			}
			writable = false;
		}
		if (readable) {
			k = node_recv(n, buf, sizeof(buf), &rwant, why,
			    sizeof(why));
			if (k == 0 || (k == -1 && errno != EAGAIN &&
			    errno != EINTR)) {
				node_fail(r, n, err, sz, "%s%s", k == 0 ?
				    "the server closed the connection" :
				    n->ssl != NULL ? why : strerror(errno),
				    tls_hint(r, n, bytes, first));
				goto fail;
			}
			if (k > 0) {
				if (bytes == 0)
					first = (unsigned char)buf[0];
				if ((bytes += (size_t)k) > REPLY_MAX) {
					node_fail(r, n, err, sz, "an answer "
					    "longer than %d bytes", REPLY_MAX);
					goto fail;
				}
				if (hiredis.redisReaderFeed(n->reader, buf,
				    (size_t)k) != REDIS_OK) {
					node_fail(r, n, err, sz, "%s",
					    strerror(ENOMEM));
					goto fail;
				}
				continue;
			}
			readable = false;
		}
		if (stopped(r)) {
			node_fail(r, n, err, sz, "a signal came");
			goto fail;
		}
		if (mono_ns() >= by) {
			node_fail(r, n, err, sz, "no answer within %s",
			    within(r, span, start, by, d, sizeof(d)));
			goto fail;
		}
		p.events = (short)(rwant | (sent < len ? wwant : 0));
		if (wait_until(&p, 1, by) <= 0)
			continue;
		if ((p.revents & (rwant | POLLHUP | POLLERR)) != 0)
			readable = true;
		if ((p.revents & (wwant | POLLHUP | POLLERR)) != 0)
			writable = true;
	}
	return 0;
fail:
	while (got > 0)
		hiredis.freeReplyObject(rep[--got]);
	disconnect(n);
	return -1;
}

/* Whether a kept connection is stale: closed by the server (its timeout,
 * a restart), or holding what no command asked for.  Then a new one is
 * made rather than a command lost.  Over TLS, what came may be records
 * that are no answer (session tickets): they are read. */
bool
stale(struct redis_node *n)
{
	char c, buf[512], why[256];
	short events;
	ssize_t k = recv(n->fd, &c, 1, MSG_PEEK | MSG_DONTWAIT);

	if (k == -1 && errno != EAGAIN && errno != EWOULDBLOCK)
		return true;
	if (n->ssl == NULL)
		return k >= 0;
	if (k == 0 || (k == -1 && !tls_pending(n->ssl)))
		return k == 0;
	k = tls_read(n->ssl, buf, sizeof(buf), &events, why, sizeof(why));
	return k != -1 || errno != EAGAIN;
}

/* Too long a command, unauthenticated, is refused before NOAUTH. */
int
redisconn_fail_reply(const struct redis_conn *r, const redisReply *rep,
    char *err, size_t sz)
{
	if (redisconn_is_error(rep, "NOAUTH") ||
	    strstr(rep->str, "unauthenticated") != NULL)
		return redisconn_fail(r, err, sz, "the server wants a "
		    "password: give the URL with it in $RETRY_SHARE_STORE or "
		    "--share-store @FILE (%s)", rep->str);
	return redisconn_fail(r, err, sz, "%s", rep->str);
}

/* The code of an error reply: its first word, when that is one such as
 * WRONGPASS, NOAUTH or ERR; else "". */
static const char *
error_code(const char *str, char *buf, size_t sz)
{
	const size_t n = strspn(str, "ABCDEFGHIJKLMNOPQRSTUVWXYZ");

	if (n == 0 || n >= sz || (str[n] != ' ' && str[n] != '\0'))
		return "";
	memcpy(buf, str, n);
	buf[n] = '\0';
	return buf;
}

/*
 * The reply to AUTH, SELECT or ASKING (verb): 0 when it is +OK.  AUTH's is
 * never shown, only its code: a server may say the password back in it,
 * whole or cut (Redis does, of a command it does not know).
 */
static int
check_setup(struct redis_conn *r, const struct redis_node *n,
    const redisReply *rep, const char *verb, char *err, size_t sz)
{
	const bool auth = strcmp(verb, "AUTH") == 0;
	char code[32];

	if (rep->type == REDIS_REPLY_STATUS && strcmp(rep->str, "OK") == 0)
		return 0;
	if (auth && rep->type == REDIS_REPLY_ERROR)
		return node_fail(r, n, err, sz, "the password is refused: "
		    "%s%s", *error_code(rep->str, code, sizeof(code)) != '\0' ?
		    code : "an error", redisconn_is_error(rep,
		    "ERR unknown command") ? " (the server has no AUTH "
		    "command)" : "");
	if (rep->type == REDIS_REPLY_ERROR && (redisconn_is_error(rep,
	    "NOAUTH") || strstr(rep->str, "unauthenticated") != NULL))
		return redisconn_fail_reply(r, rep, err, sz);
	if (rep->type == REDIS_REPLY_ERROR)
		return node_fail(r, n, err, sz, "%s: %s", strcmp(verb,
		    "SELECT") == 0 ? "the db is refused" : verb, rep->str);
	return node_fail(r, n, err, sz, "%s: not the answer of a Redis server",
	    verb);
}

/* Sends the k commands to node n in one write and reads their replies
 * into got, by then: 0, or -1 with why in err and the connection
 * dropped. */
static int
send_all(struct redis_conn *r, struct redis_node *n, int64_t span,
    int64_t start, int64_t by, struct redis_cmd *all, size_t k_all, redisReply **got,
    char *err, size_t sz)
{
	char *out;
	size_t len;
	int k;

	if (format_all(all, k_all, &out, &len) == -1) {
		disconnect(n);
		(void)node_fail(r, n, err, sz, "%s", strerror(ENOMEM));
		return -1;
	}
	k = exchange(r, n, span, start, by, out, len, k_all, got, err, sz);
	explicit_bzero(out, len);
	free(out);
	return k;
}

/* Whether HELLO's reply says that the node is one of a cluster. */
static bool
says_cluster(const redisReply *rep)
{
	if (rep->type != REDIS_REPLY_ARRAY)
		return false;
	for (size_t i = 0; i + 1 < rep->elements; i += 2)
		if (rep->element[i]->type == REDIS_REPLY_STRING &&
		    strcmp(rep->element[i]->str, "mode") == 0 &&
		    (rep->element[i + 1]->type == REDIS_REPLY_STRING ||
		    rep->element[i + 1]->type == REDIS_REPLY_STATUS))
			return strcmp(rep->element[i + 1]->str, "cluster") == 0;
	return false;
}

/*
 * The node's new connection greeted, by then: PING alone first (HELLO 2
 * when the URL names a db other than 0, to learn whether the node is one
 * of a cluster, which has none), whose reply, whatever it says (-NOAUTH
 * from a server that wants a password, an unknown command from one older
 * than Redis 6), shows that the peer speaks Redis's protocol; a peer that
 * does not (a banner, an HTTP answer, garbage, silence) is sent nothing
 * more.  Only then AUTH, with HELLO 2 again when the first could not say
 * whether the node is one of a cluster.  PING is what every proxy knows.
 * 0, or -1 with why in err and the connection dropped.
 */
static int
greet(struct redis_conn *r, struct redis_node *n, int64_t start, int64_t by,
    char *err, size_t sz)
{
	struct redis_cmd all[2];
	redisReply *got[2] = { NULL, NULL };
	size_t k_all = 0;
	bool known;
	int k;

	if (r->url.db != 0)
		redisconn_build(&all[0], 2, "HELLO", "2");
	else
		redisconn_build(&all[0], 1, "PING");
	if (send_all(r, n, r->connect_timeout, start, by,
	    all, 1, got, err, sz) == -1)
		return -1;
	known = got[0]->type == REDIS_REPLY_ARRAY;
	n->cluster = n->cluster || says_cluster(got[0]);
	hiredis.freeReplyObject(got[0]);
	got[0] = NULL;
	if (!r->url.has_password)
		return 0;
	if (r->url.user[0] != '\0')
		redisconn_build(&all[k_all++], 3, "AUTH", r->url.user,
		    r->url.password);
	else
		redisconn_build(&all[k_all++], 2, "AUTH", r->url.password);
	if (!known && r->url.db != 0)
		redisconn_build(&all[k_all++], 2, "HELLO", "2");
	if (send_all(r, n, r->connect_timeout, start, by,
	    all, k_all, got, err, sz) == -1)
		return -1;
	k = check_setup(r, n, got[0], "AUTH", err, sz);
	if (k_all > 1)
		n->cluster = n->cluster || says_cluster(got[1]);
	for (size_t i = 0; i < k_all; i++)
		hiredis.freeReplyObject(got[i]);
	if (k == -1)
		disconnect(n);
	return k;
}

/* Sends the command to node n; node_ask in redisnode.h says the rest. */
redisReply *
node_ask(struct redis_conn *r, struct redis_node *n,
    const struct redis_cmd *q, bool asking, char *err, size_t sz)
{
	struct redis_cmd all[3];
	redisReply *got[3] = { NULL, NULL, NULL };
	char db[16];
	size_t k_all = 0;
	int64_t start;
	int k = 0;

	if (n->fd == -1) {
		const int64_t by = deadline(r, r->connect_timeout);

		start = mono_ns();
		if (connect_node(r, n, start, by, err, sz) == -1 ||
		    greet(r, n, start, by, err, sz) == -1)
			return NULL;
		/* A cluster has db 0 alone, and is not asked for another. */
		if (r->url.db != 0 && n->cluster) {
			disconnect(n);
			node_fail(r, n, err, sz, "the db is refused: a node of "
			    "a cluster has db 0 alone, and the URL names db "
			    "%d", r->url.db);
			return NULL;
		}
		if (r->url.db != 0) {
			snprintf(db, sizeof(db), "%d", r->url.db);
			redisconn_build(&all[k_all++], 2, "SELECT", db);
		}
	}
	if (asking)
		redisconn_build(&all[k_all++], 1, "ASKING");
	all[k_all++] = *q;
	start = mono_ns();
	if (send_all(r, n, r->timeout, start, deadline(r, r->timeout), all,
	    k_all, got, err, sz) == -1)
		return NULL;
	for (size_t i = 0; i + 1 < k_all && k == 0; i++)
		k = check_setup(r, n, got[i], all[i].argv[0], err, sz);
	for (size_t i = 0; i + 1 < k_all; i++)
		hiredis.freeReplyObject(got[i]);
	if (k == -1) {
		hiredis.freeReplyObject(got[k_all - 1]);
		disconnect(n);
		return NULL;
	}
	return got[k_all - 1];
}
