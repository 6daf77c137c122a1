/*
 * A connection to a Redis server, kept for the run: the name lookup, the
 * connection, TLS for rediss:// (tls.h), AUTH and SELECT, and each
 * command's exchange.  hiredis formats the commands and reads the replies
 * (loaded when the first connection is made, lib.h); the lookup, the
 * connection, the TLS handshake and every read and write are done
 * without blocking, inside the one wait, so that a signal is seen at once
 * and nothing waits past the timeout: one for connecting (the handshake
 * with it), one for each exchange.  What goes wrong is said in err as
 * "the store: what", without any piece of the password.
 */
#ifndef RETRY_REDISCONN_H
#define RETRY_REDISCONN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "storeurl.h"

struct redis_node;
struct redisReply;
struct ssl_ctx_st;

struct redis_conn {
	struct store_url url;
	int64_t		 timeout;	/* ns */
	int64_t		 by;		/* each connection and exchange ends
					 * by then too (CLOCK_MONOTONIC ns),
					 * or -1 */
	bool		 too_many;	/* the reader met too long an array */
	bool		 ending;	/* a leave: sent even after a signal */
	struct redis_node **nodes;	/* [0]: the URL's server, once asked */
	size_t		 nnodes;
	struct ssl_ctx_st *tls;		/* rediss://, once connected */
};

/* A command to send: its words. */
#define REDIS_WORDS_MAX	18

struct redis_cmd {
	int		 argc;
	const char	*argv[REDIS_WORDS_MAX];
	size_t		 len[REDIS_WORDS_MAX];
};

/* No I/O: the connection is made by the first command that needs it. */
void		 redisconn_open(struct redis_conn *, const struct store_url *,
		    int64_t timeout);
void		 redisconn_close(struct redis_conn *);
/* Fills the command with argc words, each a string. */
void		 redisconn_build(struct redis_cmd *, int argc, ...);
/*
 * Sends the command and reads its reply: on a new connection, with AUTH
 * and SELECT sent first, in the same write, their replies checked here.
 * An error reply to the command is the caller's to read.  The reply (the
 * caller frees it with redisconn_free_reply), or NULL with why in err and
 * the connection dropped.
 */
struct redisReply *redisconn_ask(struct redis_conn *,
		    const struct redis_cmd *, char *err, size_t);
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
