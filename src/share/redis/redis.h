/*
 * The Redis store of shared state: each decision is one call of the
 * script share.lua, run atomically by the server (EVALSHA, or EVAL once
 * when the server does not know the script yet), on the connection that
 * redisconn.h keeps for the run.  A name's state is one hash, its key
 * retry:NAME:state, so on a Redis Cluster one slot, on one node, which
 * redisconn.h finds.  Reading a state, resetting one and listing the
 * names (on each master of a cluster) are plain commands on those
 * connections.  Each function says why it failed in err, as redisconn.h
 * does.
 */
#ifndef RETRY_REDIS_H
#define RETRY_REDIS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "redisconn.h"
#include "share.h"

/* A name's state is the hash REDIS_KEY_PREFIX NAME REDIS_KEY_SUFFIX. */
#define REDIS_KEY_PREFIX	"retry:"
#define REDIS_KEY_SUFFIX	":state"
#define REDIS_KEY_PREFIX_LEN	(sizeof(REDIS_KEY_PREFIX) - 1)
#define REDIS_KEY_SUFFIX_LEN	(sizeof(REDIS_KEY_SUFFIX) - 1)
/* A key's size, its NUL with it. */
#define REDIS_KEY_MAX	(REDIS_KEY_PREFIX_LEN + SHARE_NAME_MAX + \
			    REDIS_KEY_SUFFIX_LEN + 1)

/* NULL in a build with Redis; else why a Redis store cannot be used
 * (noredis.c). */
const char	*redis_absent(void);
/* The key of a name's state. */
void		 redis_key(const char *name, char *key, size_t);
/*
 * One decision of member me on name's state; for SHARE_RECORD, success,
 * retry (the run would retry) and asked (ns from now that the output
 * asked for, or -1).  -1 with why in err when the server cannot be
 * reached or refuses.  now_us >= 0 stands in for the server's clock (for
 * tests).
 */
int		 redis_decide(struct redis_conn *, enum share_op,
		    const char *name, const struct share_rules *, uint64_t me,
		    bool success, bool retry, int64_t asked, int64_t now_us,
		    struct share_answer *, char *err, size_t);
/* The state of a name: 0, 1 when it has none, -1 with why in err (a
 * hash that is not a state is one). */
int		 redis_read(struct redis_conn *, const char *name,
		    struct share_state *, char *err, size_t);
/* Deletes the name's state: 0, or -1 with why in err. */
int		 redis_reset(struct redis_conn *, const char *name, char *err,
		    size_t);
/* The names that have a state, sorted; the caller frees them.  A master
 * of a cluster that cannot be reached is told to fault (with arg, and
 * why, which names the node), and the names of the others are listed.
 * -1 with why in err. */
int		 redis_names(struct redis_conn *, char ***, size_t *,
		    void (*fault)(void *, const char *why), void *arg,
		    char *err, size_t);

#endif
