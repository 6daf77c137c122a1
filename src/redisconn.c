/* A connection to a Redis server. */
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <hiredis/hiredis.h>

#include "clock.h"
#include "compat.h"
#include "cluster.h"
#include "duration.h"
#include "lib.h"
#include "pwmask.h"
#include "redisconn.h"
#include "signals.h"
#include "tls.h"

/* The most a reply may take: a decision's is a few bytes, a page of SCAN
 * a few kB; a server that sends more is not one to trust.  An array's
 * elements are allocated when its header is read, so they are bounded
 * too. */
#define REPLY_MAX	(1024 * 1024)
#define ELEMENTS_MAX	10000
/* How often a name lookup in progress is looked at. */
#define LOOKUP_TICK	(5 * 1000000LL)
/* The nodes of a cluster that a run may talk to, at most. */
#define NODES_MAX	1000

/* A server that the run talks to: the URL's, or a node of its cluster
 * that a redirection named.  Each keeps its connection. */
struct redis_node {
	char		 host[256];	/* as connected to, and verified */
	char		 port[6];
	bool		 unix_socket;	/* the URL's, unix:// */
	int		 fd;		/* -1: not connected */
	struct ssl_st	*ssl;		/* rediss://, while connected */
	void		*reader;	/* hiredis's, while connected */
	bool		 answered;	/* a reply came on this connection */
	bool		 cluster;	/* a node of a cluster: listed by
					 * CLUSTER SLOTS, or its HELLO says
					 * so */
	uint64_t	 used;		/* the tick of its last command */
	struct compat_lookup *lookup;	/* a name being looked up, kept across
					 * commands (it cannot be stopped), or
					 * NULL */
};

/* A node that a seed's CLUSTER SLOTS lists. */
struct redis_peer {
	char		 host[256];
	char		 port[8];
};

/* hiredis, which formats commands and parses replies: loaded when the
 * store is opened, before a run's first attempt (lib.h). */
#define HIREDIS_FUNCS(X) \
	X(freeReplyObject) X(redisFormatSdsCommandArgv) X(redisFreeSdsCommand) \
	X(redisReaderCreate) X(redisReaderFeed) X(redisReaderFree) \
	X(redisReaderGetReply)

static struct hiredis_api { HIREDIS_FUNCS(LIB_MEMBER) } api;

/* NULL once hiredis is there, or why it is not. */
static const char *
load_hiredis(void)
{
	static char why[256];
	static int loaded = -1;	/* -1 not tried, 0 loaded, 1 missing */

	if (loaded == -1) {
#ifdef RETRY_HIREDIS_SONAME
		static const char *const names[] = { HIREDIS_FUNCS(LIB_NAME) };
		_Static_assert(sizeof(api) == LIB_COUNT(names) *
		    sizeof(void *), "a name for each function");

		loaded = lib_load(RETRY_HIREDIS_SONAME, names, LIB_COUNT(names),
		    (void **)&api, why, sizeof(why)) == 0 ? 0 : 1;
#else
		struct hiredis_api *t = &api;

		HIREDIS_FUNCS(LIB_LINKED)
		loaded = 0;
#endif
	}
	return loaded == 0 ? NULL : why;
}

/* hiredis's own reply objects, but an array whose header says more than
 * ELEMENTS_MAX is refused before its elements are allocated (privdata:
 * the connection). */
static redisReplyObjectFunctions bounded;
static void	*(*unbounded_array)(const redisReadTask *, int);

static void *
bounded_array(const redisReadTask *task, int elements)
{
	if (elements > ELEMENTS_MAX) {
		((struct redis_conn *)task->privdata)->too_many = true;
		return NULL;
	}
	return unbounded_array(task, elements);
}

static redisReader *
new_reader(struct redis_conn *r)
{
	redisReader *rd = api.redisReaderCreate();

	if (rd == NULL)
		return NULL;
	if (unbounded_array == NULL) {
		bounded = *rd->fn;
		unbounded_array = bounded.createArray;
		bounded.createArray = bounded_array;
	}
	rd->fn = &bounded;
	rd->privdata = r;
	r->too_many = false;
	return rd;
}

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

void
redisconn_open(struct redis_conn *r, const struct store_url *u,
    int64_t timeout)
{
	/* Loaded now, before a run's first attempt; what failed, the first
	 * connection says (the store is down). */
	(void)load_hiredis();
	if (u->tls)
		(void)tls_load();
	memset(r, 0, sizeof(*r));
	r->url = *u;
	r->timeout = timeout;
	r->by = -1;
	r->hops_by = -1;
	r->seeds_by = -1;
}

/* The seeds of the URL: nodes[0] to nodes[count - 1]. */
static size_t
seed_count(const struct redis_conn *r)
{
	return r->url.kind == STORE_REDIS_UNIX ? 1 : r->url.nseeds;
}

/* The failure of node n, as redisconn_fail says it, with the node named
 * when it is not the URL's: -1. */
static int
node_fail(const struct redis_conn *r, const struct redis_node *n, char *err,
    size_t sz, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

static int
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

/* A signal ends the wait, but not a leave's. */
static bool
stopped(const struct redis_conn *r)
{
	return signal_stop != 0 && !r->ending;
}

/* When the exchange begun now must end. */
static int64_t
deadline(const struct redis_conn *r)
{
	int64_t d = mono_ns() + r->timeout;

	if (r->by >= 0 && r->by < d)
		d = r->by;
	if (r->seeds_by >= 0 && r->seeds_by < d)
		d = r->seeds_by;
	return r->hops_by >= 0 && r->hops_by < d ? r->hops_by : d;
}

/* How a wait of by - start that ran out is said. */
static const char *
within(const struct redis_conn *r, int64_t start, int64_t by, char *buf,
    size_t sz)
{
	char d[DURATION_BUFSZ];

	snprintf(buf, sz, "%s%s%s%s", duration_format(duration_round(by -
	    start), d, sizeof(d)), by == r->by && by - start < r->timeout ?
	    " (" : "", by == r->by && by - start < r->timeout ? (r->by_what !=
	    NULL ? r->by_what : "half of what was left of --budget") : "",
	    by == r->by && by - start < r->timeout ? ")" : "");
	return buf;
}

static void
disconnect(struct redis_node *n)
{
	tls_end(n->ssl);
	n->ssl = NULL;
	if (n->fd != -1)
		close(n->fd);
	n->fd = -1;
	if (n->reader != NULL)
		api.redisReaderFree(n->reader);
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

/* A node to talk to, not yet connected: NULL when there is no memory. */
static struct redis_node *
node_new(struct redis_conn *r, const char *host, const char *port)
{
	struct redis_node *n, **more;

	if ((more = reallocarray(r->nodes, r->nnodes + 1,
	    sizeof(struct redis_node *))) == NULL)
		return NULL;
	r->nodes = more;
	if ((n = calloc(1, sizeof(*n))) == NULL)
		return NULL;
	snprintf(n->host, sizeof(n->host), "%s", host);
	snprintf(n->port, sizeof(n->port), "%s", port);
	n->fd = -1;
	r->nodes[r->nnodes++] = n;
	return n;
}

/* The URL's seeds, made the first nodes: 0, or -1 with why in err. */
static int
seeds(struct redis_conn *r, char *err, size_t sz)
{
	if (r->nnodes >= seed_count(r))
		return 0;
	if (r->url.kind == STORE_REDIS_UNIX) {
		if (node_new(r, "", "") == NULL)
			return redisconn_fail(r, err, sz, "%s", strerror(ENOMEM));
		r->nodes[0]->unix_socket = true;
		return 0;
	}
	for (size_t i = r->nnodes; i < r->url.nseeds; i++)
		if (node_new(r, r->url.seed[i].host, r->url.seed[i].port) ==
		    NULL)
			return redisconn_fail(r, err, sz, "%s", strerror(ENOMEM));
	return 0;
}

/* The node at host:port, made if the run has none there yet: its index,
 * or -1 with why in err. */
static int
node_at(struct redis_conn *r, const char *host, const char *port,
    char *err, size_t sz)
{
	for (size_t i = 0; i < r->nnodes; i++)
		if (!r->nodes[i]->unix_socket &&
		    strcmp(r->nodes[i]->host, host) == 0 &&
		    strcmp(r->nodes[i]->port, port) == 0)
			return (int)i;
	if (r->nnodes >= NODES_MAX)
		return redisconn_fail(r, err, sz, "a cluster of more than %d "
		    "nodes", NODES_MAX);
	if (node_new(r, host, port) == NULL)
		return redisconn_fail(r, err, sz, "%s", strerror(ENOMEM));
	/* A node other than the seeds: one that CLUSTER SLOTS lists. */
	r->nodes[r->nnodes - 1]->cluster = true;
	return (int)r->nnodes - 1;
}

void
redisconn_close(struct redis_conn *r)
{
	for (size_t i = 0; i < r->nnodes; i++) {
		struct redis_node *n = r->nodes[i];

		disconnect(n);
		/* One still running is left to end on its own: the process
		 * is ending. */
		if (n->lookup != NULL)
			compat_lookup_cancel(n->lookup);
		free(n);
	}
	free(r->nodes);
	r->nodes = NULL;
	r->nnodes = 0;
	free(r->slots);
	r->slots = NULL;
	free(r->peers);
	r->peers = NULL;
	r->npeers = 0;
	r->peers_asked = false;
	tls_context_free(r->tls);
	r->tls = NULL;
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

	if (getaddrinfo(n->host, n->port, &hints, out) == 0)
		return 0;
	if (n->lookup == NULL && (rc = compat_lookup_start(&n->lookup,
	    n->host, n->port, &named)) != 0)
		return node_fail(r, n, err, sz, "looking up %s: %s", n->host,
		    gai_strerror(rc));
	while (!compat_lookup_done(n->lookup, &rc, out)) {
		const int64_t now = mono_ns();

		if (stopped(r))
			return node_fail(r, n, err, sz, "a signal came");
		if (now >= by)
			return node_fail(r, n, err, sz, "no address for %s "
			    "within the timeout", n->host);
		(void)signals_wait(NULL, 0, now + LOOKUP_TICK < by ?
		    now + LOOKUP_TICK : by);
	}
	n->lookup = NULL;
	if (rc != 0)
		return node_fail(r, n, err, sz, "looking up %s: %s", n->host,
		    gai_strerror(rc));
	return 0;
}

/* Connects fd to addr by then: 0, or -1 with errno. */
static int
connect_by(const struct redis_conn *r, int fd, const struct sockaddr *addr,
    socklen_t len, int64_t by)
{
	struct pollfd p = { .fd = fd, .events = POLLOUT };
	socklen_t elen = sizeof(int);
	int e = 0;

	if (connect(fd, addr, len) == 0)
		return 0;
	if (errno != EINPROGRESS)
		return -1;
	while (p.revents == 0) {
		if (stopped(r) || mono_ns() >= by) {
			errno = stopped(r) ? EINTR : ETIMEDOUT;
			return -1;
		}
		(void)signals_wait(&p, 1, by);
	}
	if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &e, &elen) == -1)
		return -1;
	errno = e;
	return e == 0 ? 0 : -1;
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
			    "within %s", within(r, start, by, d, sizeof(d)));
		(void)signals_wait(&p, 1, by);
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
		n->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK |
		    SOCK_CLOEXEC, 0);
		if (n->fd == -1 || connect_by(r, n->fd, (struct sockaddr *)&sun,
		    sizeof(sun), by) == -1)
			e = errno;
	} else {
		if (resolve(r, n, by, &ai, err, sz) == -1)
			return -1;
		for (const struct addrinfo *a = ai; a != NULL; a = a->ai_next) {
			if (n->fd != -1)
				close(n->fd);
			n->fd = socket(a->ai_family, a->ai_socktype |
			    SOCK_NONBLOCK | SOCK_CLOEXEC, a->ai_protocol);
			if (n->fd != -1 && connect_by(r, n->fd, a->ai_addr,
			    a->ai_addrlen, by) == 0) {
				e = 0;
				break;
			}
			e = errno;
			if (e == EINTR || e == ETIMEDOUT)
				break;
		}
		freeaddrinfo(ai);
		if (n->fd != -1 && e == 0)
			(void)setsockopt(n->fd, IPPROTO_TCP, TCP_NODELAY, &one,
			    sizeof(one));
	}
	if (e != 0 || n->fd == -1) {
		disconnect(n);
		if (e == ETIMEDOUT)
			return node_fail(r, n, err, sz, "no connection within "
			    "%s", duration_format(r->timeout,
			    (char[DURATION_BUFSZ]){ 0 }, DURATION_BUFSZ));
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
 * wait that began at start):
 * 0, or -1 with why in err and the connection dropped. */
static int
exchange(struct redis_conn *r, struct redis_node *n, int64_t start,
    int64_t by, const char *out, size_t len, size_t count, redisReply **rep,
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

		if (api.redisReaderGetReply(n->reader, &reply) == REDIS_ERR) {
			if (r->too_many)
				node_fail(r, n, err, sz, "an answer of more "
				    "than %d elements", ELEMENTS_MAX);
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
				if (api.redisReaderFeed(n->reader, buf,
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
			    within(r, start, by, d, sizeof(d)));
			goto fail;
		}
		p.events = (short)(rwant | (sent < len ? wwant : 0));
		if (signals_wait(&p, 1, by) <= 0)
			continue;
		if ((p.revents & (rwant | POLLHUP | POLLERR)) != 0)
			readable = true;
		if ((p.revents & (wwant | POLLHUP | POLLERR)) != 0)
			writable = true;
	}
	return 0;
fail:
	while (got > 0)
		api.freeReplyObject(rep[--got]);
	disconnect(n);
	return -1;
}

/* Whether a kept connection is stale: closed by the server (its timeout,
 * a restart), or holding what no command asked for.  Then a new one is
 * made rather than a command lost.  Over TLS, what came may be records
 * that are no answer (session tickets): they are read. */
static bool
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

void
redisconn_build(struct redis_cmd *q, int argc, ...)
{
	va_list ap;

	va_start(ap, argc);
	q->argc = argc;
	q->key = 0;
	for (int i = 0; i < argc; i++) {
		q->argv[i] = va_arg(ap, const char *);
		q->len[i] = strlen(q->argv[i]);
	}
	va_end(ap);
}

bool
redisconn_is_error(const redisReply *rep, const char *words)
{
	return rep->type == REDIS_REPLY_ERROR &&
	    strncmp(rep->str, words, strlen(words)) == 0;
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
		    "--share-store-file (%s)", rep->str);
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

/* The k commands as one write, in *out (the caller wipes and frees it),
 * *len bytes: 0, or -1 when there is no memory. */
static int
format_all(struct redis_cmd *all, size_t k_all, char **out,
    size_t *len)
{
	sds one;
	int k;

	*out = NULL;
	*len = 0;
	for (size_t i = 0; i < k_all; i++) {
		char *more = NULL;

		/* The sds form: hiredis formats its lengths itself, where
		 * the other calls sprintf for each. */
		k = api.redisFormatSdsCommandArgv(&one, all[i].argc,
		    all[i].argv, all[i].len);
		if (k < 0 || (more = realloc(*out, *len + (size_t)k)) == NULL) {
			if (k >= 0)
				api.redisFreeSdsCommand(one);
			if (*out != NULL)
				explicit_bzero(*out, *len);
			free(*out);
			*out = NULL;
			return -1;
		}
		*out = more;
		memcpy(*out + *len, one, (size_t)k);
		*len += (size_t)k;
		explicit_bzero(one, (size_t)k);
		api.redisFreeSdsCommand(one);
	}
	return 0;
}

/* Sends the k commands to node n in one write and reads their replies
 * into got, by then: 0, or -1 with why in err and the connection
 * dropped. */
static int
send_all(struct redis_conn *r, struct redis_node *n, int64_t start,
    int64_t by, struct redis_cmd *all, size_t k_all, redisReply **got,
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
	k = exchange(r, n, start, by, out, len, k_all, got, err, sz);
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
	if (send_all(r, n, start, by, all, 1, got, err, sz) == -1)
		return -1;
	known = got[0]->type == REDIS_REPLY_ARRAY;
	n->cluster = n->cluster || says_cluster(got[0]);
	api.freeReplyObject(got[0]);
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
	if (send_all(r, n, start, by, all, k_all, got, err, sz) == -1)
		return -1;
	k = check_setup(r, n, got[0], "AUTH", err, sz);
	if (k_all > 1)
		n->cluster = n->cluster || says_cluster(got[1]);
	for (size_t i = 0; i < k_all; i++)
		api.freeReplyObject(got[i]);
	if (k == -1)
		disconnect(n);
	return k;
}

/* Whether node n is one of the URL's seeds. */
static bool
is_seed(const struct redis_conn *r, const struct redis_node *n)
{
	for (size_t i = 0; i < seed_count(r) && i < r->nnodes; i++)
		if (r->nodes[i] == n)
			return true;
	return false;
}

/* Room for a connection to node n, which is no seed: the connection of
 * the other node that was used least recently is closed while
 * REDIS_POOL are open. */
static void
make_room(struct redis_conn *r, const struct redis_node *n)
{
	for (;;) {
		struct redis_node *oldest = NULL;
		size_t open = 0;

		for (size_t i = seed_count(r); i < r->nnodes; i++) {
			struct redis_node *m = r->nodes[i];

			if (m == n || m->fd == -1)
				continue;
			open++;
			if (oldest == NULL || m->used < oldest->used)
				oldest = m;
		}
		if (open < REDIS_POOL || oldest == NULL)
			return;
		disconnect(oldest);
	}
}

/* Sends the command to node n, asking first if it was moved there for a
 * moment (-ASK); redisconn_ask says the rest. */
static redisReply *
ask_node(struct redis_conn *r, struct redis_node *n,
    const struct redis_cmd *q, bool asking, char *err, size_t sz)
{
	struct redis_cmd all[3];
	redisReply *got[3] = { NULL, NULL, NULL };
	char db[16];
	size_t k_all = 0;
	int64_t start;
	int k = 0;

	n->used = ++r->tick;
	if (n->fd != -1 && stale(n))
		disconnect(n);
	if (n->fd == -1) {
		const int64_t by = deadline(r);

		if (!is_seed(r, n))
			make_room(r, n);
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
	if (send_all(r, n, start, deadline(r), all, k_all, got, err, sz) == -1)
		return NULL;
	for (size_t i = 0; i + 1 < k_all && k == 0; i++)
		k = check_setup(r, n, got[i], all[i].argv[0], err, sz);
	for (size_t i = 0; i + 1 < k_all; i++)
		api.freeReplyObject(got[i]);
	if (k == -1) {
		api.freeReplyObject(got[k_all - 1]);
		disconnect(n);
		return NULL;
	}
	return got[k_all - 1];
}

/* The node of the command's key, as the cluster said; else NULL: the
 * seeds. */
static struct redis_node *
route(const struct redis_conn *r, const struct redis_cmd *q)
{
	unsigned slot;

	if (q->key > 0 && r->slots != NULL) {
		slot = cluster_slot(q->argv[q->key], q->len[q->key]);
		if (r->slots[slot] > 0)
			return r->nodes[r->slots[slot] - 1];
	}
	return NULL;
}

/* Learns the node of a slot: 0, or -1 with why in err. */
static int
learn(struct redis_conn *r, unsigned slot, size_t node, char *err, size_t sz)
{
	if (r->slots == NULL && (r->slots = calloc(CLUSTER_SLOTS,
	    sizeof(*r->slots))) == NULL)
		return redisconn_fail(r, err, sz, "%s", strerror(ENOMEM));
	r->slots[slot] = (uint16_t)(node + 1);
	return 0;
}

/*
 * Sends the command to the seed in use, and while one fails (it cannot be
 * reached, stops answering, or is a replica that refuses to write), to
 * the next, each once, the first after the last; those after the first
 * all within one more timeout.  The seed that answers is the one in use
 * from then on, and *used; when none does, the one after the last tried.
 * A signal ends the tries.
 */
static redisReply *
ask_seeds(struct redis_conn *r, const struct redis_cmd *q,
    struct redis_node **used, char *err, size_t sz)
{
	const size_t count = seed_count(r);
	char shown[STOREURL_SHOWN_MAX], *last;
	redisReply *rep = NULL;
	size_t tried = 0, k;

	*used = NULL;
	if (seeds(r, err, sz) == -1)
		return NULL;
	while (tried < count) {
		k = (r->home + tried++) % count;
		*used = r->nodes[k];
		rep = ask_node(r, *used, q, false, err, sz);
		/* A replica, where a server alone has moved on: the next. */
		if (rep != NULL && tried < count &&
		    redisconn_is_error(rep, "READONLY")) {
			node_fail(r, *used, err, sz, "%s", rep->str);
			api.freeReplyObject(rep);
			rep = NULL;
		}
		if (rep != NULL) {
			r->home = k;
			break;
		}
		if (stopped(r) || (r->seeds_by >= 0 && mono_ns() >=
		    r->seeds_by))
			break;
		if (r->seeds_by < 0)
			r->seeds_by = deadline(r);
	}
	r->seeds_by = -1;
	/* None answered: the next command begins where these ended, so
	 * that seeds that never answer do not hide those after them. */
	if (rep == NULL && count > 0 && !stopped(r))
		r->home = (r->home + tried) % count;
	/* err says which seed failed last, and why, after the URL. */
	if (rep == NULL && count > 1 && !stopped(r) &&
	    (last = strdup(err)) != NULL) {
		storeurl_show(&r->url, shown, sizeof(shown));
		k = strlen(shown);
		redisconn_fail(r, err, sz, "no seed answers; the last tried: "
		    "%s", strncmp(last, shown, k) == 0 && strncmp(last + k,
		    ": ", 2) == 0 ? last + k + 2 : last);
		explicit_bzero(last, strlen(last));
		free(last);
	}
	return rep;
}

/* Whether host:port is one of the peers. */
static bool
is_peer(const struct redis_conn *r, const char *host, const char *port)
{
	for (size_t i = 0; i < r->npeers; i++)
		if (strcasecmp(r->peers[i].host, host) == 0 &&
		    strcmp(r->peers[i].port, port) == 0)
			return true;
	return false;
}

/* The nodes of CLUSTER SLOTS' reply rep, as the seed that answered (host)
 * gave them, kept as the peers (NODES_MAX at most): those of entries that
 * are none are left out. */
static void
keep_peers(struct redis_conn *r, const redisReply *rep, const char *host)
{
	free(r->peers);
	r->peers = NULL;
	r->npeers = 0;
	if (rep->type != REDIS_REPLY_ARRAY || (r->peers = calloc(NODES_MAX,
	    sizeof(*r->peers))) == NULL)
		return;
	for (size_t i = 0; i < rep->elements; i++) {
		const redisReply *e = rep->element[i];

		for (size_t j = 2; e->type == REDIS_REPLY_ARRAY &&
		    j < e->elements && r->npeers < NODES_MAX; j++) {
			const redisReply *at = e->element[j];
			const char *h;
			char port[8];

			if (at->type != REDIS_REPLY_ARRAY || at->elements < 2 ||
			    at->element[0]->type != REDIS_REPLY_STRING ||
			    at->element[0]->len >= sizeof(r->peers->host) ||
			    strlen(at->element[0]->str) != at->element[0]->len ||
			    at->element[1]->type != REDIS_REPLY_INTEGER ||
			    at->element[1]->integer < 1 ||
			    at->element[1]->integer > 65535)
				continue;
			h = at->element[0]->str;
			/* No address, or "?": the seed that answered. */
			if (h[0] == '\0' || strcmp(h, "?") == 0)
				h = host;
			snprintf(port, sizeof(port), "%lld",
			    at->element[1]->integer);
			if (is_peer(r, h, port))
				continue;
			snprintf(r->peers[r->npeers].host,
			    sizeof(r->peers->host), "%s", h);
			snprintf(r->peers[r->npeers].port,
			    sizeof(r->peers->port), "%s", port);
			r->npeers++;
		}
	}
}

/* The peers, as a seed's CLUSTER SLOTS lists them now: 0, or -1 with why
 * in err. */
static int
ask_peers(struct redis_conn *r, char *err, size_t sz)
{
	struct redis_node *used;
	struct redis_cmd q;
	redisReply *rep;

	redisconn_build(&q, 2, "CLUSTER", "SLOTS");
	if ((rep = ask_seeds(r, &q, &used, err, sz)) == NULL)
		return -1;
	r->peers_asked = true;
	keep_peers(r, rep, used->host);
	api.freeReplyObject(rep);
	return 0;
}

/*
 * Whether the redirection that node n gave may be followed: to a seed, or
 * to a node that a seed's CLUSTER SLOTS lists, asked the first time and
 * again, once a command, when the node is not there.  Else a node that
 * answers may send the run, and its password, to any host and port.  No:
 * -1 with why in err.
 */
static int
trusted(struct redis_conn *r, const struct redis_node *n,
    const char *host, const char *port, bool *asked, char *err, size_t sz)
{
	const bool v6 = strchr(host, ':') != NULL;

	for (size_t i = 0; i < seed_count(r) && i < r->nnodes; i++)
		if (!r->nodes[i]->unix_socket &&
		    strcasecmp(r->nodes[i]->host, host) == 0 &&
		    strcmp(r->nodes[i]->port, port) == 0)
			return 0;
	if (is_peer(r, host, port))
		return 0;
	if (!*asked || !r->peers_asked) {
		*asked = true;
		if (ask_peers(r, err, sz) == -1)
			return -1;
		if (is_peer(r, host, port))
			return 0;
	}
	return node_fail(r, n, err, sz, "a redirection to %s%s%s:%s, a node "
	    "that no seed's CLUSTER SLOTS lists: not followed", v6 ? "[" : "",
	    host, v6 ? "]" : "", port);
}

redisReply *
redisconn_ask(struct redis_conn *r, const struct redis_cmd *q, char *err,
    size_t sz)
{
	struct redis_node *n = route(r, q);
	struct cluster_redirect to;
	redisReply *rep;
	const char *host;
	bool asked = false;
	int hops = 0, k;

	rep = n != NULL ? ask_node(r, n, q, false, err, sz) :
	    ask_seeds(r, q, &n, err, sz);
	while (rep != NULL && rep->type == REDIS_REPLY_ERROR &&
	    cluster_redirect_parse(rep->str, &to)) {
		/* The hops all end within one timeout from the first. */
		if (++hops > REDIS_REDIRECTS) {
			node_fail(r, n, err, sz, "more than %d redirections "
			    "(%s)", REDIS_REDIRECTS, rep->str);
			break;
		}
		if (hops == 1)
			r->hops_by = deadline(r);
		host = to.host[0] != '\0' ? to.host : n->host;
		if (trusted(r, n, host, to.port, &asked, err, sz) == -1) {
			api.freeReplyObject(rep);
			rep = NULL;
			break;
		}
		if ((k = node_at(r, host, to.port, err, sz)) == -1 || (!to.ask &&
		    learn(r, to.slot, (size_t)k, err, sz) == -1))
			break;
		n = r->nodes[k];
		api.freeReplyObject(rep);
		rep = ask_node(r, n, q, to.ask, err, sz);
	}
	r->hops_by = -1;
	if (rep != NULL && hops > REDIS_REDIRECTS) {
		api.freeReplyObject(rep);
		return NULL;
	}
	if (rep != NULL && rep->type == REDIS_REPLY_ERROR &&
	    cluster_redirect_parse(rep->str, &to)) {
		api.freeReplyObject(rep);
		return NULL;
	}
	/* A node that failed is asked of its slots no more: the seeds say
	 * where they are now. */
	if (rep == NULL && q->key > 0 && r->slots != NULL)
		r->slots[cluster_slot(q->argv[q->key], q->len[q->key])] = 0;
	return rep;
}

bool
redisconn_late(const struct redis_conn *r, size_t node, char *err,
    size_t sz)
{
	if (r->by < 0 || mono_ns() < r->by)
		return false;
	node_fail(r, r->nodes[node], err, sz, "not asked: %s ran out",
	    r->by_what != NULL ? r->by_what : "the time");
	return true;
}

redisReply *
redisconn_ask_node(struct redis_conn *r, size_t node,
    const struct redis_cmd *q, char *err, size_t sz)
{
	return ask_node(r, r->nodes[node], q, false, err, sz);
}

/* The node of a master in CLUSTER SLOTS' entry e, whose slots are then
 * learned: its index, or -1 with why in err (-2: e is not such an
 * entry). */
static int
master_of(struct redis_conn *r, const redisReply *e, char *err, size_t sz)
{
	const redisReply *at;
	char port[8];
	int k;

	if (e->type != REDIS_REPLY_ARRAY || e->elements < 3 ||
	    e->element[0]->type != REDIS_REPLY_INTEGER ||
	    e->element[1]->type != REDIS_REPLY_INTEGER ||
	    e->element[0]->integer < 0 ||
	    e->element[1]->integer >= CLUSTER_SLOTS ||
	    e->element[0]->integer > e->element[1]->integer ||
	    (at = e->element[2])->type != REDIS_REPLY_ARRAY ||
	    at->elements < 2 || at->element[0]->type != REDIS_REPLY_STRING ||
	    at->element[0]->len >= sizeof(r->nodes[r->home]->host) ||
	    strlen(at->element[0]->str) != at->element[0]->len ||
	    at->element[1]->type != REDIS_REPLY_INTEGER ||
	    at->element[1]->integer < 1 || at->element[1]->integer > 65535)
		return -2;
	snprintf(port, sizeof(port), "%lld", at->element[1]->integer);
	/* No address, or "?": the seed that answered. */
	k = node_at(r, at->element[0]->len > 0 && strcmp(at->element[0]->str,
	    "?") != 0 ? at->element[0]->str : r->nodes[r->home]->host, port,
	    err, sz);
	for (long long s = e->element[0]->integer; k >= 0 &&
	    s <= e->element[1]->integer; s++)
		if (learn(r, (unsigned)s, (size_t)k, err, sz) == -1)
			return -1;
	return k;
}

int
redisconn_masters(struct redis_conn *r, size_t **nodes, size_t *n,
    char *err, size_t sz)
{
	struct redis_node *used;
	struct redis_cmd q;
	redisReply *rep;
	int k = 0;

	*nodes = NULL;
	*n = 0;
	redisconn_build(&q, 2, "CLUSTER", "SLOTS");
	if ((rep = ask_seeds(r, &q, &used, err, sz)) == NULL)
		return -1;
	r->peers_asked = true;
	keep_peers(r, rep, used->host);
	if (rep->type == REDIS_REPLY_ERROR && (redisconn_is_error(rep,
	    "NOAUTH") || strstr(rep->str, "unauthenticated") != NULL)) {
		redisconn_fail_reply(r, rep, err, sz);
		api.freeReplyObject(rep);
		return -1;
	}
	if (rep->type == REDIS_REPLY_ARRAY && rep->elements > 0 &&
	    (*nodes = calloc(rep->elements, sizeof(**nodes))) == NULL)
		k = redisconn_fail(r, err, sz, "%s", strerror(ENOMEM));
	for (size_t i = 0; *nodes != NULL && i < rep->elements && k >= 0;
	    i++) {
		size_t j = 0;

		k = master_of(r, rep->element[i], err, sz);
		while (k >= 0 && j < *n && (*nodes)[j] != (size_t)k)
			j++;
		if (k >= 0 && j == *n)
			(*nodes)[(*n)++] = (size_t)k;
	}
	api.freeReplyObject(rep);
	if (k >= 0 && *n > 0)
		return 0;
	free(*nodes);
	*nodes = NULL;
	*n = 0;
	free(r->slots);
	r->slots = NULL;
	if (k == -1)
		return -1;
	/* No cluster (an error: its support is off, or no such command; no
	 * slots; an answer that is no list of them): the seed that answered
	 * alone. */
	if ((*nodes = calloc(1, sizeof(**nodes))) == NULL)
		return redisconn_fail(r, err, sz, "%s", strerror(ENOMEM));
	(*nodes)[0] = r->home;
	*n = 1;
	return 0;
}

void
redisconn_free_reply(redisReply *rep)
{
	api.freeReplyObject(rep);
}
