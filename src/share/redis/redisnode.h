/*
 * The inside of the connections to Redis, shared by its three files and
 * included by no other: redisreply.c (hiredis, loaded when the store is
 * opened: the commands formatted, the replies read, bounded),
 * redisnode.c (one node's connection: lookup, connect, TLS, the
 * greeting, AUTH and SELECT, each exchange inside the one wait) and
 * redisconn.c (the routing across nodes: the seeds, a cluster's
 * redirections, the pool).  redisconn.h says what they do together;
 * this stands on redisstate.h, not on it.
 */
#ifndef RETRY_REDISNODE_H
#define RETRY_REDISNODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <hiredis/hiredis.h>

#include "lib.h"
#include "lookup.h"
#include "redisstate.h"

/* The most a reply may take: a decision's is a few bytes, a page of SCAN
 * a few kB; a server that sends more is not one to trust.  An array's
 * elements are allocated when its header is read, so they are bounded
 * too. */
#define REPLY_MAX	(1024 * 1024)
#define REPLY_ELEMENTS_MAX	10000

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
	struct lookup	*lookup;	/* a name being looked up, kept across
					 * commands (one a name at a time), or
					 * NULL */
};

/* hiredis, which formats commands and parses replies: loaded when the
 * store is opened, before a run's first attempt (lib.h). */
#define HIREDIS_FUNCS(X) \
	X(freeReplyObject) X(redisFormatSdsCommandArgv) X(redisFreeSdsCommand) \
	X(redisReaderCreate) X(redisReaderFeed) X(redisReaderFree) \
	X(redisReaderGetReply)

struct hiredis_api { HIREDIS_FUNCS(LIB_MEMBER) };
extern struct hiredis_api hiredis;

/* redisreply.c */
/* NULL once hiredis is there, or why it is not. */
const char	*load_hiredis(void);
/* hiredis's reader, whose arrays are bounded (r->too_many says one was
 * refused): NULL when there is no memory. */
redisReader	*new_reader(struct redis_conn *);
/* The k commands as one write, in *out (the caller wipes and frees it),
 * *len bytes: 0, or -1 when there is no memory. */
int		 format_all(struct redis_cmd *all, size_t k_all, char **out,
		    size_t *len);

/* redisnode.c */
/* The seeds of the URL: nodes[0] to nodes[count - 1]. */
size_t		 seed_count(const struct redis_conn *);
/* The failure of node n, as redisconn_fail says it, with the node named
 * when it is not the URL's: -1. */
int		 node_fail(const struct redis_conn *, const struct redis_node *,
		    char *err, size_t, const char *fmt, ...)
		    __attribute__((format(printf, 5, 6)));
/* A signal ends the wait, but not a leave's. */
bool		 stopped(const struct redis_conn *);
/* When what is begun now, bound by span (timeout for an exchange,
 * connect_timeout for a new connection), must end. */
int64_t		 deadline(const struct redis_conn *, int64_t span);
void		 disconnect(struct redis_node *);
/* Whether a kept connection is stale: then a new one is made rather
 * than a command lost. */
bool		 stale(struct redis_node *);
/* Sends the command to node n, connected and greeted first if it is not
 * (SELECT then sent with it), asking first if it was moved there for a
 * moment (-ASK): the reply, or NULL with why in err and the connection
 * dropped. */
redisReply	*node_ask(struct redis_conn *, struct redis_node *,
		    const struct redis_cmd *, bool asking, char *err, size_t);

#endif
