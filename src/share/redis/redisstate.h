/*
 * A connection to Redis as every file of it reads it: its state (struct
 * redis_conn, which redisconn.h's functions take), a command's words, and
 * what is said of a reply or a failure.  redisreply.c and redisnode.c
 * define the functions; redisconn.h, the routing across nodes, and
 * redisnode.h, the inside of one node's connection, both stand on this.
 */
#ifndef RETRY_REDISSTATE_H
#define RETRY_REDISSTATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "storeurl.h"

struct redis_node;
struct redis_peer;
struct redisReply;
struct ssl_ctx_st;

struct redis_conn {
	struct store_url url;
	int64_t		 timeout;	/* ns, an exchange's */
	int64_t		 connect_timeout;	/* ns, a new connection's */
	int64_t		 by;		/* each connection and exchange ends
					 * by then too (CLOCK_MONOTONIC ns),
					 * or -1 */
	const char	*by_what;	/* what by is, as a failure says it;
					 * NULL: half of what was left of
					 * --budget */
	int64_t		 hops_by;	/* a command's redirections end by
					 * then too, or -1 */
	int64_t		 seeds_by;	/* and its seeds after the first */
	bool		 too_many;	/* the reader met too long an array */
	bool		 ending;	/* a leave: sent even after a signal */
	struct redis_node **nodes;	/* the URL's seeds, in order, once
					 * asked; then a cluster's other
					 * nodes */
	size_t		 nnodes;
	size_t		 home;		/* the seed in use */
	uint16_t	*slots;		/* a cluster's: each slot's node + 1,
					 * 0 unknown; NULL until learned */
	struct redis_peer *peers;	/* the nodes a seed's CLUSTER SLOTS
					 * lists, which redirections may
					 * name */
	size_t		 npeers;
	bool		 peers_asked;	/* CLUSTER SLOTS was asked */
	uint64_t	 tick;		/* counts the commands sent */
	struct ssl_ctx_st *tls;		/* rediss://, once connected */
};

/* A command to send: its words. */
#define REDIS_WORDS_MAX	18

struct redis_cmd {
	int		 argc;
	const char	*argv[REDIS_WORDS_MAX];
	size_t		 len[REDIS_WORDS_MAX];
	int		 key;		/* the word that is its key, by which a
					 * cluster routes it; 0: none */
};

/* Fills the command with argc words, each a string, and no key. */
void		 redisconn_build(struct redis_cmd *, int argc, ...);
void		 redisconn_free_reply(struct redisReply *);
/* Whether the reply is an error whose words begin with these, such as
 * NOSCRIPT. */
bool		 redisconn_is_error(const struct redisReply *,
		    const char *words);
/* err = "the store: what": -1.  The server's words may hold any byte:
 * whoever prints err makes them visible. */
int		 redisconn_fail(const struct redis_conn *, char *err, size_t,
		    const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* An error reply, as redisconn_fail says it, with what it means when the
 * server wants a password: -1. */
int		 redisconn_fail_reply(const struct redis_conn *,
		    const struct redisReply *, char *err, size_t);

#endif
