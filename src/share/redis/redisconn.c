/* The connections to Redis: the routing across nodes (the seeds, a
 * cluster's redirections, the pool). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "clock.h"
#include "compat.h"
#include "cluster.h"
#include "redisconn.h"
#include "redisnode.h"
#include "tls.h"

/* The nodes of a cluster that a run may talk to, at most. */
#define NODES_MAX	1000

/* A node that a seed's CLUSTER SLOTS lists. */
struct redis_peer {
	char		 host[256];
	char		 port[8];
};

void
redisconn_load(const struct store_url *u)
{
	/* What failed, the first connection says (the store is down). */
	(void)load_hiredis();
	if (u->tls)
		(void)tls_load();
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
		if (n->lookup != NULL)
			lookup_cancel(n->lookup);
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
 * moment (-ASK): a connection made to a node other than the seeds makes
 * room for itself in the pool first; redisconn_ask says the rest. */
static redisReply *
ask_node(struct redis_conn *r, struct redis_node *n,
    const struct redis_cmd *q, bool asking, char *err, size_t sz)
{
	n->used = ++r->tick;
	if (n->fd != -1 && stale(n))
		disconnect(n);
	if (n->fd == -1 && !is_seed(r, n))
		make_room(r, n);
	return node_ask(r, n, q, asking, err, sz);
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
			redisconn_free_reply(rep);
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
			r->seeds_by = deadline(r, r->timeout);
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
	redisconn_free_reply(rep);
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
			r->hops_by = deadline(r, r->timeout);
		host = to.host[0] != '\0' ? to.host : n->host;
		if (trusted(r, n, host, to.port, &asked, err, sz) == -1) {
			redisconn_free_reply(rep);
			rep = NULL;
			break;
		}
		if ((k = node_at(r, host, to.port, err, sz)) == -1 || (!to.ask &&
		    learn(r, to.slot, (size_t)k, err, sz) == -1))
			break;
		n = r->nodes[k];
		redisconn_free_reply(rep);
		rep = ask_node(r, n, q, to.ask, err, sz);
	}
	r->hops_by = -1;
	if (rep != NULL && hops > REDIS_REDIRECTS) {
		redisconn_free_reply(rep);
		return NULL;
	}
	if (rep != NULL && rep->type == REDIS_REPLY_ERROR &&
	    cluster_redirect_parse(rep->str, &to)) {
		redisconn_free_reply(rep);
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
		redisconn_free_reply(rep);
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
	redisconn_free_reply(rep);
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
