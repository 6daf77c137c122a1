/* The Redis store of shared state. */
#include <errno.h>
#include <inttypes.h>
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
#include "duration.h"
#include "lib.h"
#include "redis.h"
#include "share_lua.h"
#include "signals.h"

/* The most a reply may take: a decision's is a few bytes, a page of SCAN
 * a few kB; a server that sends more is not one to trust.  An array's
 * elements are allocated when its header is read, so they are bounded
 * too, and the names that `share status` lists. */
#define REPLY_MAX	(1024 * 1024)
#define ELEMENTS_MAX	10000
#define NAMES_MAX	100000
#define PAGES_MAX	100000
/* How often a name lookup in progress is looked at. */
#define LOOKUP_TICK	(5 * 1000000LL)

/* hiredis, which formats commands and parses replies: loaded when the
 * first connection is made (lib.h). */
#define HIREDIS_FUNCS(X) \
	X(freeReplyObject) X(redisFormatCommandArgv) X(redisFreeCommand) \
	X(redisReaderCreate) X(redisReaderFeed) X(redisReaderFree) \
	X(redisReaderGetReply)

static struct hiredis_api { HIREDIS_FUNCS(LIB_MEMBER) } api;

/* NULL once hiredis is there, or why it is not. */
static const char *
hiredis_load(void)
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
 * ELEMENTS_MAX is refused before its elements are allocated. */
static redisReplyObjectFunctions bounded;
static void	*(*unbounded_array)(const redisReadTask *, int);

static void *
bounded_array(const redisReadTask *task, int elements)
{
	if (elements > ELEMENTS_MAX) {
		((struct redis *)task->privdata)->too_many = true;
		return NULL;
	}
	return unbounded_array(task, elements);
}

static redisReader *
reader_for(struct redis *r)
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
#define PASSWORD_MAX	sizeof(((struct store_url *)0)->password)

static int
by_value(const void *a, const void *b)
{
	const uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* The w bytes at p as one number. */
static uint32_t
gram(const char *p, size_t w)
{
	uint32_t v = 0;

	for (size_t i = 0; i < w; i++)
		v = v << 8 | (unsigned char)p[i];
	return v;
}

/*
 * text into out (cut to sz), with every run of it that is made of pieces
 * of 4 bytes of pw (all of pw, when shorter) as "***".  A server may say
 * back any part of what it was sent, cut where it likes (Redis cuts an
 * unknown command's arguments to about 128 bytes), with its line breaks
 * as spaces: the pieces of both are looked for, in the whole text, before
 * anything is cut.
 */
static void
masked(const char *text, const char *pw, char *out, size_t sz)
{
	const size_t n = strlen(text), p = strlen(pw), w = p < 4 ? p : 4;
	uint32_t grams[2 * PASSWORD_MAX] = { 0 };
	char spaced[PASSWORD_MAX];
	size_t ng = 0, o = 0, until = 0;
	bool hidden = false;

	memcpy(spaced, pw, p + 1);
	for (char *c = spaced; *c != '\0'; c++)
		if (*c == '\r' || *c == '\n')
			*c = ' ';
	for (size_t i = 0; w > 0 && i + w <= p; i++) {
		grams[ng++] = gram(pw + i, w);
		grams[ng++] = gram(spaced + i, w);
	}
	qsort(grams, ng, sizeof(*grams), by_value);
	for (size_t i = 0; i < n && o + 1 < sz; i++) {
		const uint32_t g = i + w <= n ? gram(text + i, w) : 0;

		if (i + w <= n && bsearch(&g, grams, ng, sizeof(*grams),
		    by_value) != NULL)
			until = i + w;
		if (i >= until) {
			out[o++] = text[i];
			hidden = false;
		} else if (!hidden) {
			for (const char *c = "***"; *c != '\0' && o + 1 < sz;
			    c++)
				out[o++] = *c;
			hidden = true;
		}
	}
	out[o] = '\0';
	explicit_bzero(spaced, sizeof(spaced));
	explicit_bzero(grams, sizeof(grams));
}

/* err = "the store: what", without any piece of the password: -1.  The
 * server's words may hold any byte: whoever prints err makes them
 * visible. */
static int
fault(const struct redis *r, char *err, size_t sz, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int
fault(const struct redis *r, char *err, size_t sz, const char *fmt, ...)
{
	char shown[STOREURL_MAX + 64], what[WHAT_MAX], *all = NULL;
	va_list ap;
	int k;

	va_start(ap, fmt);
	k = vasprintf(&all, fmt, ap);
	va_end(ap);
	if (k < 0)
		snprintf(what, sizeof(what), "%s", strerror(ENOMEM));
	else if (r->url.has_password)
		masked(all, r->url.password, what, sizeof(what));
	else
		snprintf(what, sizeof(what), "%s", all);
	if (k >= 0) {
		explicit_bzero(all, (size_t)k);
		free(all);
	}
	storeurl_show(&r->url, shown, sizeof(shown));
	snprintf(err, sz, "%s: %s", shown, what);
	return -1;
}

void
redis_open(struct redis *r, const struct store_url *u, int64_t timeout)
{
	memset(r, 0, sizeof(*r));
	r->url = *u;
	r->timeout = timeout;
	r->by = -1;
	r->fd = -1;
}

/* A signal ends the wait, but not a leave's. */
static bool
stopped(const struct redis *r)
{
	return signal_stop != 0 && !r->ending;
}

/* When the exchange begun now must end. */
static int64_t
deadline(const struct redis *r)
{
	const int64_t d = mono_ns() + r->timeout;

	return r->by >= 0 && r->by < d ? r->by : d;
}

static void
disconnect(struct redis *r)
{
	if (r->fd != -1)
		close(r->fd);
	r->fd = -1;
	if (r->reader != NULL)
		api.redisReaderFree(r->reader);
	r->reader = NULL;
}

void
redis_close(struct redis *r)
{
	disconnect(r);
	/* One still running is left to end on its own: the process is
	 * ending. */
	if (r->lookup != NULL)
		compat_lookup_cancel(r->lookup);
	r->lookup = NULL;
}

/* The server's addresses: at once for a number, else by a lookup that the
 * wait watches.  0, or -1 with why in err. */
static int
resolve(struct redis *r, int64_t by, struct addrinfo **out, char *err,
    size_t sz)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM,
	    .ai_flags = AI_NUMERICHOST | AI_NUMERICSERV };
	const struct addrinfo named = { .ai_socktype = SOCK_STREAM,
	    .ai_flags = AI_NUMERICSERV | AI_ADDRCONFIG };
	int rc;

	if (getaddrinfo(r->url.host, r->url.port, &hints, out) == 0)
		return 0;
	/* Kept across decisions: a lookup cannot be stopped once begun. */
	if (r->lookup == NULL && (rc = compat_lookup_start(&r->lookup,
	    r->url.host, r->url.port, &named)) != 0)
		return fault(r, err, sz, "looking up %s: %s", r->url.host,
		    gai_strerror(rc));
	while (!compat_lookup_done(r->lookup, &rc, out)) {
		const int64_t now = mono_ns();

		if (stopped(r))
			return fault(r, err, sz, "a signal came");
		if (now >= by)
			return fault(r, err, sz, "no address for %s within "
			    "the timeout", r->url.host);
		(void)signals_wait(NULL, 0, now + LOOKUP_TICK < by ?
		    now + LOOKUP_TICK : by);
	}
	r->lookup = NULL;
	if (rc != 0)
		return fault(r, err, sz, "looking up %s: %s", r->url.host,
		    gai_strerror(rc));
	return 0;
}

/* Connects fd to addr by then: 0, or -1 with errno. */
static int
connect_by(const struct redis *r, int fd, const struct sockaddr *addr,
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

static int
connect_server(struct redis *r, char *err, size_t sz)
{
	const int64_t by = deadline(r);
	struct addrinfo *ai = NULL;
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	const char *why;
	int e = 0, one = 1;

	if ((why = hiredis_load()) != NULL)
		return fault(r, err, sz, "Redis needs hiredis: %s", why);
	if (r->url.kind == STORE_REDIS_UNIX) {
		memcpy(sun.sun_path, r->url.path, strlen(r->url.path) + 1);
		r->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK |
		    SOCK_CLOEXEC, 0);
		if (r->fd == -1 || connect_by(r, r->fd, (struct sockaddr *)&sun,
		    sizeof(sun), by) == -1)
			e = errno;
	} else {
		if (resolve(r, by, &ai, err, sz) == -1)
			return -1;
		for (const struct addrinfo *a = ai; a != NULL; a = a->ai_next) {
			if (r->fd != -1)
				close(r->fd);
			r->fd = socket(a->ai_family, a->ai_socktype |
			    SOCK_NONBLOCK | SOCK_CLOEXEC, a->ai_protocol);
			if (r->fd != -1 && connect_by(r, r->fd, a->ai_addr,
			    a->ai_addrlen, by) == 0) {
				e = 0;
				break;
			}
			e = errno;
			if (e == EINTR || e == ETIMEDOUT)
				break;
		}
		freeaddrinfo(ai);
		if (r->fd != -1 && e == 0)
			(void)setsockopt(r->fd, IPPROTO_TCP, TCP_NODELAY, &one,
			    sizeof(one));
	}
	if (e != 0 || r->fd == -1) {
		disconnect(r);
		if (e == ETIMEDOUT)
			return fault(r, err, sz, "no connection within %s",
			    duration_format(r->timeout, (char[DURATION_BUFSZ]){
			    0 }, DURATION_BUFSZ));
		return fault(r, err, sz, "cannot connect: %s",
		    e == EINTR ? "a signal came" : strerror(e != 0 ? e :
		    ENOTCONN));
	}
	if ((r->reader = reader_for(r)) == NULL) {
		disconnect(r);
		return fault(r, err, sz, "%s", strerror(ENOMEM));
	}
	return 0;
}

/* Sends out[0..len), then reads n replies, by deadline: 0, or -1 with why
 * in err and the connection dropped. */
static int
exchange(struct redis *r, const char *out, size_t len, size_t n,
    redisReply **rep, char *err, size_t sz)
{
	const int64_t start = mono_ns(), by = deadline(r);
	size_t sent = 0, got = 0, bytes = 0;
	char buf[16384], d[DURATION_BUFSZ];
	void *reply;

	while (got < n) {
		struct pollfd p = { .fd = r->fd, .events = POLLIN |
		    (sent < len ? POLLOUT : 0) };
		ssize_t k;

		if (api.redisReaderGetReply(r->reader, &reply) == REDIS_ERR) {
			if (r->too_many)
				fault(r, err, sz, "an answer of more than %d "
				    "elements", ELEMENTS_MAX);
			else
				fault(r, err, sz, "not a Redis server? (%s)",
				    ((redisReader *)r->reader)->errstr);
			goto fail;
		}
		if (reply != NULL) {
			rep[got++] = reply;
			continue;
		}
		/* Sent at once: the socket's buffer takes a command. */
		k = sent < len ? send(r->fd, out + sent, len - sent,
		    MSG_NOSIGNAL) : 0;
		if (k > 0) {
			sent += (size_t)k;
			continue;
		}
		if (k == -1 && errno != EAGAIN && errno != EINTR) {
			fault(r, err, sz, "sending: %s", strerror(errno));
			goto fail;
		}
		if (stopped(r)) {
			fault(r, err, sz, "a signal came");
			goto fail;
		}
		if (mono_ns() >= by) {
			fault(r, err, sz, "no answer within %s%s",
			    duration_format(duration_round(by - start), d,
			    sizeof(d)), by - start < r->timeout ? " (half of "
			    "what was left of --budget)" : "");
			goto fail;
		}
		if (signals_wait(&p, 1, by) <= 0)
			continue;
		if ((p.revents & (POLLIN | POLLHUP | POLLERR)) == 0)
			continue;
		k = read(r->fd, buf, sizeof(buf));
		if (k == -1 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (k <= 0) {
			fault(r, err, sz, "%s", k == 0 ? "the server closed "
			    "the connection" : strerror(errno));
			goto fail;
		}
		if ((bytes += (size_t)k) > REPLY_MAX) {
			fault(r, err, sz, "an answer longer than %d bytes",
			    REPLY_MAX);
			goto fail;
		}
		if (api.redisReaderFeed(r->reader, buf, (size_t)k) != REDIS_OK) {
			fault(r, err, sz, "%s", strerror(ENOMEM));
			goto fail;
		}
	}
	return 0;
fail:
	while (got > 0)
		api.freeReplyObject(rep[--got]);
	disconnect(r);
	return -1;
}

/* Whether a kept connection has been closed by the server (its timeout,
 * a restart), or holds what no command asked for: then a new one is made
 * rather than a decision lost. */
static bool
closed(const struct redis *r)
{
	char c;
	const ssize_t k = recv(r->fd, &c, 1, MSG_PEEK | MSG_DONTWAIT);

	return k >= 0 || (errno != EAGAIN && errno != EWOULDBLOCK);
}

/* A command to send: its words. */
struct req {
	int		 argc;
	const char	*argv[18];
	size_t		 len[18];
};

static void
words(struct req *q, int argc, ...)
{
	va_list ap;

	va_start(ap, argc);
	q->argc = argc;
	for (int i = 0; i < argc; i++) {
		q->argv[i] = va_arg(ap, const char *);
		q->len[i] = strlen(q->argv[i]);
	}
	va_end(ap);
}

/* An error reply, with what it means when the server wants a password
 * (too long a command, unauthenticated, is refused before NOAUTH). */
static int
refused(const struct redis *r, const redisReply *rep, char *err, size_t sz)
{
	if (strncmp(rep->str, "NOAUTH", 6) == 0 ||
	    strstr(rep->str, "unauthenticated") != NULL)
		return fault(r, err, sz, "the server wants a password: give "
		    "the URL with it in $RETRY_SHARE_STORE or "
		    "--share-store-file (%s)", rep->str);
	return fault(r, err, sz, "%s", rep->str);
}

/* The kind of an error reply: its first word, when that is a code such as
 * WRONGPASS, NOAUTH or ERR; else "". */
static const char *
kind(const char *str, char *buf, size_t sz)
{
	const size_t n = strspn(str, "ABCDEFGHIJKLMNOPQRSTUVWXYZ");

	if (n == 0 || n >= sz || (str[n] != ' ' && str[n] != '\0'))
		return "";
	memcpy(buf, str, n);
	buf[n] = '\0';
	return buf;
}

/*
 * The reply to AUTH or SELECT: 0 when it is +OK.  AUTH's is never shown,
 * only its kind: a server may say the password back in it, whole or cut
 * (Redis does, of a command it does not know).
 */
static int
setup_ok(struct redis *r, const redisReply *rep, bool auth, char *err,
    size_t sz)
{
	char code[32];

	if (rep->type == REDIS_REPLY_STATUS && strcmp(rep->str, "OK") == 0)
		return 0;
	if (auth && rep->type == REDIS_REPLY_ERROR)
		return fault(r, err, sz, "the password is refused: %s%s",
		    *kind(rep->str, code, sizeof(code)) != '\0' ? code :
		    "an error", strncmp(rep->str, "ERR unknown command", 19) ==
		    0 ? " (the server has no AUTH command)" : "");
	if (!auth && rep->type == REDIS_REPLY_ERROR)
		return strncmp(rep->str, "NOAUTH", 6) == 0 ? refused(r, rep,
		    err, sz) : fault(r, err, sz, "the db is refused: %s",
		    rep->str);
	return fault(r, err, sz, "%s: not the answer of a Redis server",
	    auth ? "AUTH" : "SELECT");
}

/*
 * A command, and its reply: with AUTH and SELECT sent first on a new
 * connection, in the same write, their replies checked here.  An error
 * reply to q is the caller's to read.  The reply, or NULL with why in err
 * and the connection dropped.
 */
static redisReply *
command(struct redis *r, const struct req *q, char *err, size_t sz)
{
	struct req all[3];
	redisReply *got[3] = { NULL, NULL, NULL };
	char db[16], *out = NULL, *one;
	size_t len = 0, n = 0;
	int k = 0;

	if (r->fd != -1 && closed(r))
		disconnect(r);
	if (r->fd == -1) {
		if (connect_server(r, err, sz) == -1)
			return NULL;
		if (r->url.has_password && r->url.user[0] != '\0')
			words(&all[n++], 3, "AUTH", r->url.user,
			    r->url.password);
		else if (r->url.has_password)
			words(&all[n++], 2, "AUTH", r->url.password);
		if (r->url.db != 0) {
			snprintf(db, sizeof(db), "%d", r->url.db);
			words(&all[n++], 2, "SELECT", db);
		}
	}
	all[n++] = *q;
	for (size_t i = 0; i < n; i++) {
		char *more = NULL;

		k = api.redisFormatCommandArgv(&one, all[i].argc, all[i].argv,
		    all[i].len);
		if (k < 0 || (more = realloc(out, len + (size_t)k)) == NULL) {
			if (k >= 0)
				api.redisFreeCommand(one);
			free(out);
			disconnect(r);
			fault(r, err, sz, "%s", strerror(ENOMEM));
			return NULL;
		}
		out = more;
		memcpy(out + len, one, (size_t)k);
		len += (size_t)k;
		api.redisFreeCommand(one);
	}
	k = exchange(r, out, len, n, got, err, sz);
	explicit_bzero(out, len);
	free(out);
	if (k == -1)
		return NULL;
	for (size_t i = 0; i + 1 < n && k == 0; i++)
		k = setup_ok(r, got[i], strcmp(all[i].argv[0], "AUTH") == 0,
		    err, sz);
	for (size_t i = 0; i + 1 < n; i++)
		api.freeReplyObject(got[i]);
	if (k == -1 || got[n - 1] == NULL) {
		if (got[n - 1] != NULL)
			api.freeReplyObject(got[n - 1]);
		disconnect(r);
		return NULL;
	}
	return got[n - 1];
}

/* The key of a name's state. */
static void
key_of(const char *name, char *key, size_t sz)
{
	snprintf(key, sz, "retry:%s:state", name);
}

/* An integer of an array reply: false when it is not one. */
static bool
integer_at(const redisReply *rep, size_t i, long long *v)
{
	if (rep->type != REDIS_REPLY_ARRAY || i >= rep->elements ||
	    rep->element[i]->type != REDIS_REPLY_INTEGER)
		return false;
	*v = rep->element[i]->integer;
	return true;
}

/* The script's answer, read as share.c's. */
static bool
answer(const redisReply *rep, enum redis_op op,
    const struct share_rules *rules, struct redis_answer *a)
{
	int64_t most = rules->cooldown > rules->lease ? rules->cooldown :
	    rules->lease;

	/* The longest wait the rules allow, in us. */
	if (most < SHARE_NOT_BEFORE_MAX)
		most = SHARE_NOT_BEFORE_MAX;
	most /= 1000;
	long long v[5];
	const size_t n = op == REDIS_GATE ? 4 : op == REDIS_RECORD ? 5 : 1;

	if (rep->type != REDIS_REPLY_ARRAY || rep->elements != n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!integer_at(rep, i, &v[i]))
			return false;
	a->corrupt = v[n - 1] != 0;
	if (op == REDIS_GATE) {
		if (v[0] < GATE_GO || v[0] > GATE_GIVE_UP || v[1] < WAIT_NONE ||
		    v[1] > WAIT_NOT_BEFORE || v[2] < 0 || v[2] > most ||
		    (v[0] == GATE_WAIT && v[2] == 0))
			return false;
		a->gate = (struct gate_answer){ (enum gate)v[0],
		    (enum gate_why)v[1], v[2] * 1000 };
	} else if (op == REDIS_RECORD) {
		a->record = (struct record_answer){ v[0] != 0, v[1] != 0,
		    v[2] != 0 };
		a->tokens = (double)v[3] / 1000;
	}
	return true;
}

int
redis_decide(struct redis *r, enum redis_op op, const char *name,
    const struct share_rules *rules, uint64_t me, bool success, bool retry,
    int64_t asked, int64_t now_us, struct redis_answer *a, char *err,
    size_t sz)
{
	static const char *const ops[] = { "gate", "record", "leave" };
	char key[SHARE_NAME_MAX + 16], id[24], max[24], ratio[24], trip[24],
	    cool[24], lease[24], nb[24], now[24], window[24];
	struct req q;
	redisReply *rep;
	int rc = 0;

	key_of(name, key, sizeof(key));
	snprintf(id, sizeof(id), "%" PRIu64, me);
	snprintf(max, sizeof(max), "%.0f", rules->max * 1000);
	snprintf(ratio, sizeof(ratio), "%.0f", rules->ratio * 1000);
	snprintf(trip, sizeof(trip), "%lu", rules->trip);
	snprintf(cool, sizeof(cool), "%" PRId64, rules->cooldown / 1000);
	snprintf(lease, sizeof(lease), "%" PRId64, rules->lease / 1000);
	snprintf(nb, sizeof(nb), "%" PRId64, asked >= 0 ? asked / 1000 : -1);
	snprintf(now, sizeof(now), "%" PRId64, now_us);
	snprintf(window, sizeof(window), "%" PRId64, rules->window / 1000);
	words(&q, 14, "EVALSHA", SHARE_LUA_SHA1, "1", key, ops[op], id, max,
	    ratio, trip, cool, lease, rules->give_up ? "1" : "0",
	    success ? "1" : "0", nb);
	q.argv[q.argc] = now_us >= 0 ? now : "";
	q.argv[q.argc + 1] = retry ? "1" : "0";
	q.argv[q.argc + 2] = window;
	for (int i = 0; i < 3; i++, q.argc++)
		q.len[q.argc] = strlen(q.argv[q.argc]);
	r->ending = op == REDIS_LEAVE;
	rep = command(r, &q, err, sz);
	if (rep != NULL && rep->type == REDIS_REPLY_ERROR &&
	    strncmp(rep->str, "NOSCRIPT", 8) == 0) {
		api.freeReplyObject(rep);
		q.argv[0] = "EVAL";
		q.len[0] = 4;
		q.argv[1] = share_lua;
		q.len[1] = sizeof(share_lua);
		rep = command(r, &q, err, sz);
	}
	r->ending = false;
	if (rep == NULL)
		return -1;
	if (rep->type == REDIS_REPLY_ERROR)
		rc = refused(r, rep, err, sz);
	else if (!answer(rep, op, rules, a))
		rc = fault(r, err, sz, "the script's answer is not one of its "
		    "own");
	api.freeReplyObject(rep);
	return rc;
}

/* A field of HGETALL's reply, or NULL. */
static const char *
field(const redisReply *rep, const char *name)
{
	for (size_t i = 0; i + 1 < rep->elements; i += 2)
		if (rep->element[i]->type == REDIS_REPLY_STRING &&
		    rep->element[i + 1]->type == REDIS_REPLY_STRING &&
		    strcmp(rep->element[i]->str, name) == 0)
			return rep->element[i + 1]->str;
	return NULL;
}

/* The hash as the text that share_parse reads, times in ns. */
static bool
as_state(const redisReply *rep, struct share_state *s)
{
	static const char *const names[] = { "tokens", "failures", "breaker",
	    "open-until", "probe", "probe-until", "not-before",
	    "tokens-changed", "failures-changed", "breaker-changed",
	    "not-before-changed" };
	const char *v[11];
	char text[SHARE_TEXT_MAX], us[11][32];

	for (size_t i = 0; i < 11; i++) {
		/* A double's %.17g, or a time in us. */
		if ((v[i] = field(rep, names[i])) == NULL || strlen(v[i]) >
		    24)
			return false;
		/* us to ns: three more digits, "0" stays "0". */
		snprintf(us[i], sizeof(us[i]), "%s%s", v[i], i < 3 || i == 4 ||
		    strcmp(v[i], "0") == 0 ? "" : "000");
	}
	snprintf(text, sizeof(text), "retry-share 1\ntokens %s\n"
	    "failures %s\nbreaker %s\nopen-until %s\nprobe %s %s\n"
	    "not-before %s\nchanged %s %s %s %s\n", v[0], v[1], v[2], us[3],
	    v[4], us[5], us[6], us[7], us[8], us[9], us[10]);
	return share_parse(text, strlen(text), s) == NULL;
}

/* VERB retry:NAME:state, and its reply if it is of the type wanted;
 * else NULL, with why in err (an error reply is one). */
static redisReply *
on_key(struct redis *r, const char *verb, const char *name, int want,
    char *err, size_t sz)
{
	char key[SHARE_NAME_MAX + 16];
	struct req q;
	redisReply *rep;

	key_of(name, key, sizeof(key));
	words(&q, 2, verb, key);
	if ((rep = command(r, &q, err, sz)) == NULL || rep->type == want)
		return rep;
	if (rep->type == REDIS_REPLY_ERROR)
		refused(r, rep, err, sz);
	else
		fault(r, err, sz, "%s: not the answer of a Redis server",
		    verb);
	api.freeReplyObject(rep);
	return NULL;
}

int
redis_read(struct redis *r, const char *name, struct share_state *s,
    char *err, size_t sz)
{
	redisReply *rep = on_key(r, "HGETALL", name, REDIS_REPLY_ARRAY, err,
	    sz);
	int rc = 0;

	if (rep == NULL)
		return -1;
	if (rep->elements == 0)
		rc = 1;
	else if (!as_state(rep, s))
		rc = fault(r, err, sz, "retry:%s:state is not a shared state",
		    name);
	api.freeReplyObject(rep);
	return rc;
}

int
redis_reset(struct redis *r, const char *name, char *err, size_t sz)
{
	redisReply *rep = on_key(r, "DEL", name, REDIS_REPLY_INTEGER, err,
	    sz);

	if (rep == NULL)
		return -1;
	api.freeReplyObject(rep);
	return 0;
}

static int
by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names of one page of SCAN's keys, added to *names. */
static bool
add_names(const redisReply *keys, char ***names, size_t *n, size_t *cap)
{
	for (size_t i = 0; i < keys->elements; i++) {
		const redisReply *k = keys->element[i];
		char **more;
		size_t len;

		if (k->type != REDIS_REPLY_STRING)
			return false;
		len = k->len;
		if (len <= 12 || len - 12 > SHARE_NAME_MAX)
			continue;
		if (*n >= NAMES_MAX)
			return false;
		if (*n == *cap) {
			if ((more = reallocarray(*names, *cap * 2 + 16,
			    sizeof(**names))) == NULL)
				return false;
			*names = more;
			*cap = *cap * 2 + 16;
		}
		if (((*names)[*n] = strndup(k->str + 6, len - 12)) == NULL)
			return false;
		if (share_name_check((*names)[*n]) != NULL)
			free((*names)[*n]);
		else
			(*n)++;
	}
	return true;
}

int
redis_names(struct redis *r, char ***names, size_t *n, char *err, size_t sz)
{
	char cursor[32] = "0";
	size_t cap = 0;
	struct req q;
	redisReply *rep;
	size_t kept = 0, pages = 0;
	int rc = 0;

	*names = NULL;
	*n = 0;
	do {
		if (++pages > PAGES_MAX) {
			rc = fault(r, err, sz, "SCAN: more than %d pages",
			    PAGES_MAX);
			break;
		}
		words(&q, 6, "SCAN", cursor, "MATCH", "retry:*:state", "COUNT",
		    "1000");
		if ((rep = command(r, &q, err, sz)) == NULL) {
			rc = -1;
			break;
		}
		if (rep->type == REDIS_REPLY_ERROR)
			rc = refused(r, rep, err, sz);
		else if (rep->type != REDIS_REPLY_ARRAY || rep->elements != 2 ||
		    rep->element[0]->type != REDIS_REPLY_STRING ||
		    rep->element[0]->len >= sizeof(cursor) ||
		    rep->element[1]->type != REDIS_REPLY_ARRAY)
			rc = fault(r, err, sz, "SCAN: not the answer of a Redis "
			    "server");
		else if (!add_names(rep->element[1], names, n, &cap))
			rc = *n >= NAMES_MAX ? fault(r, err, sz, "SCAN: more "
			    "than %d names", NAMES_MAX) : fault(r, err, sz,
			    "%s", strerror(ENOMEM));
		else
			memcpy(cursor, rep->element[0]->str,
			    rep->element[0]->len + 1);
		api.freeReplyObject(rep);
	} while (rc == 0 && strcmp(cursor, "0") != 0);
	/* SCAN may give a key twice. */
	if (*n > 1)
		qsort(*names, *n, sizeof(**names), by_name);
	for (size_t i = 0; i < *n; i++) {
		if (kept > 0 && strcmp((*names)[kept - 1], (*names)[i]) == 0)
			free((*names)[i]);
		else
			(*names)[kept++] = (*names)[i];
	}
	*n = kept;
	if (rc == -1) {
		for (size_t i = 0; i < *n; i++)
			free((*names)[i]);
		free(*names);
		*names = NULL;
		*n = 0;
	}
	return rc;
}
