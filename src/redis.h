/*
 * The Redis store of shared state: each decision is one script call, run
 * atomically by the server (EVALSHA, or EVAL once when the server does not
 * know the script yet), over a connection kept for the run.  hiredis
 * formats the commands and reads the replies; the name lookup, the
 * connection and every read and write are done without blocking, inside
 * the one wait, so that a signal is seen at once and nothing waits past
 * the timeout: one for connecting, one for each exchange.
 */
#ifndef RETRY_REDIS_H
#define RETRY_REDIS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "share.h"
#include "storeurl.h"

struct compat_lookup;

struct redis {
	struct store_url url;
	int64_t		 timeout;	/* ns */
	int64_t		 by;		/* the next decision ends by then too
					 * (CLOCK_MONOTONIC ns), or -1 */
	int		 fd;		/* -1: not connected */
	void		*reader;	/* hiredis's, while connected */
	bool		 too_many;	/* the reader met too long an array */
	bool		 ending;	/* a leave: sent even after a signal */
	struct compat_lookup *lookup;	/* a name being looked up, or NULL */
};

/* The answers of the script, as share.c gives them. */
struct redis_answer {
	struct gate_answer gate;	/* until: ns from now */
	struct record_answer record;
	double		 tokens;	/* after a record */
	bool		 corrupt;	/* the hash was not a state */
};

enum redis_op { REDIS_GATE, REDIS_RECORD, REDIS_LEAVE };

/* No I/O: the connection is made by the first call that needs it. */
void		 redis_open(struct redis *, const struct store_url *,
		    int64_t timeout);
void		 redis_close(struct redis *);
/*
 * One decision of member me on name's state; for REDIS_RECORD, success,
 * retry (the run would retry) and asked (ns from now that the output
 * asked for, or -1).  -1 with why
 * in err when the server cannot be reached or refuses.  now_us >= 0
 * stands in for the server's clock (for tests).
 */
int		 redis_decide(struct redis *, enum redis_op, const char *name,
		    const struct share_rules *, uint64_t me, bool success,
		    bool retry, int64_t asked, int64_t now_us,
		    struct redis_answer *,
		    char *err, size_t);
/* The state of a name: 0, 1 when it has none, -1 with why in err (a
 * hash that is not a state is one). */
int		 redis_read(struct redis *, const char *name,
		    struct share_state *, char *err, size_t);
/* Deletes the name's state: 0, or -1 with why in err. */
int		 redis_reset(struct redis *, const char *name, char *err,
		    size_t);
/* The names that have a state, sorted; the caller frees them.  -1 with
 * why in err. */
int		 redis_names(struct redis *, char ***, size_t *, char *err,
		    size_t);

#endif
