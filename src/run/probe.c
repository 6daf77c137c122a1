/*
 * A probe's attempt (probe.h): the name looked up as the Redis store's
 * node looks its up (lookup_start, watched by the one wait), each
 * address connected to without blocking, every step inside wait_until,
 * bounded by the attempt's timeout and ended by a signal that ends the
 * run.
 */
#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>

#include "clock.h"
#include "compat.h"
#include "config.h"
#include "duration.h"
#include "lookup.h"
#include "netconnect.h"
#include "probe.h"
#include "report.h"
#include "wait.h"

/* The status of an attempt that its timeout ended, as timeout(1)'s. */
#define PROBE_TIMED_OUT	124

struct probe {
	const char		*word;
	bool			 named;	/* the report's prefix says word */
	int64_t			 by;	/* the deadline, or -1 */
	int64_t			 timeout;
	struct attempt_result	*r;
	char			*why;
	size_t			 sz;
	char			 addrs[256];	/* the addresses tried, or "" */
};

/* What is said of p: word (unless the prefix says it), what, and the
 * addresses tried, if any. */
static void
say(struct probe *p, const char *what)
{
	const bool any = p->addrs[0] != '\0';

	snprintf(p->why, p->sz, "%s%s%s%s%s%s", p->named ? "" : p->word,
	    p->named ? "" : ": ", what, any ? " (" : "", p->addrs,
	    any ? ")" : "");
}

static void
fail(struct probe *p, const char *what)
{
	p->r->status = PROBE_FAILED;
	say(p, what);
}

static void
timed_out(struct probe *p, const char *what)
{
	char d[DURATION_BUFSZ], w[128];

	p->r->status = PROBE_TIMED_OUT;
	p->r->timed_out = true;
	snprintf(w, sizeof(w), "%s within %s", what,
	    duration_format(p->timeout, d, sizeof(d)));
	say(p, w);
}

/* Whether the wait is over: a signal that ends the run, or the deadline. */
static bool
over(struct probe *p, const char *what)
{
	if (signal_stop != 0) {
		p->r->interrupted = signal_stop;
		p->r->status = 128 + signal_stop;
		p->why[0] = '\0';
		return true;
	}
	if (p->by >= 0 && mono_ns() >= p->by) {
		timed_out(p, what);
		return true;
	}
	return false;
}

/* How a connection that did not come to be ended: 1 when over (r says
 * how), or -1 with errno. */
static int
not_connected(struct probe *p, int e)
{
	if (e == EINTR || (e == ETIMEDOUT && p->by >= 0 && mono_ns() >=
	    p->by)) {
		(void)over(p, "no connection");
		return 1;
	}
	errno = e;
	return -1;
}

/* The addresses of host: at once for a number, else by a lookup that the
 * wait watches.  0, or 1 when the probe has ended (r says how). */
static int
resolve(struct probe *p, const struct probe_url *u, struct addrinfo **out)
{
	const struct addrinfo number = { .ai_socktype = SOCK_STREAM,
	    .ai_flags = AI_NUMERICHOST | AI_NUMERICSERV };
	const struct addrinfo named = { .ai_socktype = SOCK_STREAM,
	    .ai_flags = AI_NUMERICSERV | AI_ADDRCONFIG };
	struct lookup *l = NULL;
	int rc;

	if (lookup_numeric(u->host, u->port, &number, out) == 0)
		return 0;
	if ((rc = lookup_start(&l, u->host, u->port, &named)) != 0) {
		fail(p, gai_strerror(rc));
		return 1;
	}
	while (!lookup_done(l, &rc, out)) {
		struct pollfd fd = { .fd = lookup_fd(l), .events = POLLIN };

		if (over(p, "no address")) {
			lookup_cancel(l);
			return 1;
		}
		(void)wait_until(&fd, 1, p->by);
	}
	if (rc != 0) {
		fail(p, gai_strerror(rc));
		return 1;
	}
	return 0;
}

/* a's address, added to those said. */
static void
tried(struct probe *p, const struct addrinfo *a)
{
	char host[NI_MAXHOST];

	if (getnameinfo(a->ai_addr, a->ai_addrlen, host, sizeof(host), NULL,
	    0, NI_NUMERICHOST) != 0 || strstr(p->addrs, host) != NULL)
		return;
	if (p->addrs[0] != '\0')
		(void)strlcat(p->addrs, ", ", sizeof(p->addrs));
	(void)strlcat(p->addrs, host, sizeof(p->addrs));
}

/* a's address, added to those said (net_connect_any's tried). */
static void
tried_any(void *arg, const struct addrinfo *a)
{
	tried(arg, a);
}

static void
probe_tcp(struct probe *p, const struct probe_url *u)
{
	struct addrinfo *ai = NULL;
	int fd, e;

	if (resolve(p, u, &ai) != 0)
		return;
	fd = net_connect_any(ai, p->by, true, tried_any, p);
	e = errno;
	lookup_free(ai);
	if (fd != -1)
		(void)close(fd);
	else if (not_connected(p, e) == -1)
		fail(p, e == ECONNREFUSED ? "connection refused" :
		    strerror(e));
}

static void
probe_unix(struct probe *p, const struct probe_url *u)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	const int fd = compat_socket(AF_UNIX, SOCK_STREAM, 0);
	int k = -1, e;

	e = errno;
	memcpy(sun.sun_path, u->path, strlen(u->path) + 1);
	if (fd != -1) {
		if (net_connect(fd, (const struct sockaddr *)&sun, sizeof(sun),
		    p->by, true) == 0)
			k = 0;
		else
			k = not_connected(p, errno);
		e = errno;
		(void)close(fd);
	}
	if (k == -1)
		fail(p, e == ECONNREFUSED ? "connection refused" :
		    strerror(e));
}

void
probe_attempt(const struct config *c, const struct reporter *rep,
    int64_t timeout, int64_t start, struct attempt_result *r)
{
	const int64_t budget = c->limits.budget;
	char why[512];
	struct probe p = { .word = c->args[0],
	    .named = report_names_whole(rep, c->args[0]), .r = r, .why = why,
	    .sz = sizeof(why), .timeout = timeout };

	if (timeout < 0 && budget >= 0)
		p.timeout = budget > start ? budget - start : 0;
	p.by = p.timeout >= 0 ? mono_ns() + p.timeout : -1;
	memset(r, 0, sizeof(*r));
	why[0] = '\0';
	if (c->probe.kind == PROBE_UNIX)
		probe_unix(&p, &c->probe);
	else
		probe_tcp(&p, &c->probe);
	if (why[0] != '\0')
		report_error(rep, "%s", why);
}
