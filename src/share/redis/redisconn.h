/*
 * A connection to a Redis server, kept for the run: the name lookup, the
 * connection, TLS for rediss:// (tls.h), AUTH and SELECT, and each
 * command's exchange.  hiredis formats the commands and reads the replies
 * (loaded when the first connection is made, lib.h); the lookup, the
 * connection, the TLS handshake and every read and write are done
 * without blocking, inside the one wait, so that a signal is seen at once
 * and nothing waits past its bound: connect_timeout for a new connection
 * (the lookup, the connection, the handshake and the greeting), timeout
 * for each exchange.  What goes wrong is said in err as
 * "the store: what", without any piece of the password.
 *
 * Every new connection is greeted before anything secret is sent on it:
 * PING first (HELLO 2 for a db other than 0, whose answer says whether
 * it is a node of a cluster), whose answer (any answer of Redis's
 * protocol, -NOAUTH too) shows that the peer speaks it; then AUTH, when
 * the URL has a password.  A node of a cluster
 * is never sent SELECT: a db other than 0 is refused there.
 *
 * The URL's seeds are its nodes (one for unix://): a command whose node
 * is not known goes to the seed in use, the first that answered; when
 * that one fails (no connection, no answer, a replica's READONLY), to the
 * next, each once, all of them within one more timeout, and the one that
 * answers is used from then on.  A node of a Redis Cluster answers a
 * command on a key whose slot another node holds with a redirection,
 * which is followed (REDIS_REDIRECTS at most, within one more timeout), on
 * a connection of the run's to that node: -MOVED is learned, so that the
 * slot's next command goes there at once; -ASK, while a slot moves, is for
 * that command only.  A redirection is followed only to a seed or to a
 * node that a seed's CLUSTER SLOTS lists (asked at the first redirection,
 * and again, once, for one to a node it did not list); else it is refused
 * with no connection made.  The connections of nodes other than the seeds
 * are REDIS_POOL at most: the one used least recently is closed first.
 */
#ifndef RETRY_REDISCONN_H
#define RETRY_REDISCONN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "redisstate.h"

/* Redirections followed for one command, at most. */
#define REDIS_REDIRECTS	5
/* Connections kept to nodes other than the seeds, at most. */
#define REDIS_POOL	16

/* No connection yet: the first command that needs one makes it.  hiredis,
 * and OpenSSL for TLS, are loaded now, so that a run has them before its
 * first attempt. */
void		 redisconn_open(struct redis_conn *, const struct store_url *,
		    int64_t timeout, int64_t connect_timeout);
/* hiredis, and OpenSSL for TLS, loaded (redisconn_open's part that needs
 * them; a build without Redis loads nothing). */
void		 redisconn_load(const struct store_url *);
void		 redisconn_close(struct redis_conn *);
/*
 * Sends the command and reads its reply: on a new connection, once it is
 * greeted, with SELECT sent first, in the same write, its reply checked
 * here.
 * A command with a key goes to the node of its slot, when a cluster has
 * said which; else to the seeds; and follows redirections.  An
 * error reply to the command is the caller's to read.  The reply (the
 * caller frees it with redisconn_free_reply), or NULL with why in err and
 * the connection dropped.
 */
struct redisReply *redisconn_ask(struct redis_conn *,
		    const struct redis_cmd *, char *err, size_t);
/*
 * The servers that hold the keys: a cluster's masters (CLUSTER SLOTS, from
 * which each slot's node is learned too, asked of the seeds), each once,
 * or the seed that answered alone when it is no cluster.  Their nodes in
 * *nodes (the caller frees it), *n of them; -1 with why in err.
 */
int		 redisconn_masters(struct redis_conn *, size_t **nodes,
		    size_t *n, char *err, size_t);
/* Whether by has come: then why the node is not asked in err. */
bool		 redisconn_late(const struct redis_conn *, size_t node,
		    char *err, size_t);
/* As redisconn_ask, to that node, not redirected. */
struct redisReply *redisconn_ask_node(struct redis_conn *, size_t node,
		    const struct redis_cmd *, char *err, size_t);

#endif
