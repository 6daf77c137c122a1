/*
 * The shared state as runs and `retry share` see it, in whichever store
 * holds it: the file store (store.h) or Redis (redis.h), each reached
 * through a table of its operations.
 *
 * A run's decisions are each one read-modify-write of its name's state,
 * atomic in the store.  When the store cannot answer, the run goes on as
 * if unshared (or, with --share-required, ends with 75) and asks again at
 * a later decision before an attempt (its last words, only within what is
 * left of --budget or --deadline); what the run has to say of it (the
 * fault, once, and the recovery) comes back from each call, for the loop
 * to report: no function here writes anything.
 */
#ifndef RETRY_SHARED_H
#define RETRY_SHARED_H

#include <stdbool.h>
#include <stdint.h>

#include "redisconn.h"
#include "config.h"
#include "share.h"
#include "sketch.h"
#include "store.h"
#include "storeurl.h"

struct store_ops;


/* A new connection's bound when none is given, or --share-timeout if
 * longer: a lookup, a TLS handshake and a greeting cost more round trips
 * and more processor time than an answer. */
#define SHARE_CONNECT_TIMEOUT	(2 * NS_PER_SEC)

/* A new connection's bound: --share-connect-timeout, or when that is 0
 * the default. */
int64_t		 shared_connect_timeout(const struct shared_opts *);

#define SHARED_NEWS	2	/* lines a call has to say, at most */
#define SHARED_NEWS_MAX	1024

struct shared {
	struct store_url url;
	char		 shown[STOREURL_SHOWN_MAX];	/* no password */
	bool		 default_dir;	/* the file store's, no spec given */
	const struct store_ops *ops;	/* the store's kind's */
	struct store	 file;		/* STORE_FILE */
	struct redis_conn redis;	/* the others */
	const struct share_rules *rules;
	/* What the last call has for the run's reports, oldest first: a
	 * fault, a recovery, a state that was not one (decisions, each said
	 * once), or shared_open's warning about its store (SHOWN: WHY, without
	 * the --share NAME: a decision's lines start with).  The caller says
	 * them and sets nnews to 0. */
	char		 news[SHARED_NEWS][SHARED_NEWS_MAX];
	size_t		 nnews;
	const char	*name;
	uint64_t	 me;		/* this run among the members */
	bool		 on;		/* --share given, the store opened */
	bool		 required;	/* --share-required */
	int64_t		 timeout;	/* --share-timeout */
	int64_t		 connect_timeout;	/* a new connection's */
	bool		 faulty;	/* the last decision failed: said */
	bool		 unusable;	/* it could not be made: not asked */
	bool		 silent;	/* a wait for it ran out in this run:
					 * not asked again in it */
	bool		 said_corrupt;
	int64_t		 end;		/* the run's --budget or --deadline
					 * ends then (CLOCK_MONOTONIC ns),
					 * or -1 */
	int64_t		 hard;		/* and its --deadline, or -1: no
					 * wait for the store passes it */
	int64_t		 until;		/* `retry share` ends its waits then
					 * (CLOCK_MONOTONIC ns), or -1 */
	const char	*until_what;	/* and how that is said */
	/* The name's latency history (sketch.h) as the last decision read
	 * it: "" when there is none. */
	char		 history[SKETCH_TEXT_MAX];
};

/* What a decision came to. */
enum shared_said {
	SHARED_ANSWERED,
	SHARED_UNSHARED,	/* no answer: the run goes on without */
	SHARED_DOWN,		/* no answer, and --share-required */
};

/*
 * The store that --share-store, --share-store-file, $RETRY_SHARE_STORE
 * or the default names, opened: for a run (create: the directory and the
 * name's file made if missing), or for `retry share` and --dry-run.  No
 * connection is made yet.  -1 with why in err when it is refused (errno
 * ENOENT: the file store's directory is missing); for a run, -2 with why
 * in err when it cannot be used now (a directory that cannot be made, or
 * a default directory that is refused): the run goes on without it, as
 * when a store does not answer.
 */
int		 shared_open(struct shared *, const struct shared_opts *,
		    bool create, char *err, size_t);
void		 shared_close(struct shared *);

/* Before an attempt: go, probe, or wait (until: ns from now). */
enum shared_said shared_gate(struct shared *, struct gate_answer *);
/* After an attempt, which the run would follow with a retry (retry) if the
 * budget lets it; asked: ns from now that its output asked the others to
 * wait, or -1; took: a success's duration (ns), added to the name's
 * history, or -1.  tokens: what is left after it. */
enum shared_said shared_record(struct shared *, bool success, bool retry,
		    int64_t asked, int64_t took, struct record_answer *,
		    double *tokens);
/* Before an attempt beside one in flight (--hedge): a retry's token
 * taken (a->retry) if the budget has one, no failure counted. */
enum shared_said shared_hedge(struct shared *, struct record_answer *,
		    double *tokens);
/* A probe this run holds is let go: the run ends without its result. */
void		 shared_leave(struct shared *);

/* For `retry share` and --dry-run: the names with a state, sorted (the
 * caller frees them; a master of a cluster that cannot be reached is told
 * to fault, with arg and why, and the others' names are listed); a
 * name's state (1: none yet) and its latency history (history, or NULL:
 * SKETCH_TEXT_MAX bytes, "" when none); a fresh start.  -1 with why in err. */
int		 shared_names(struct shared *, char ***, size_t *,
		    void (*fault)(void *, const char *why), void *arg,
		    char *err, size_t);
int		 shared_read(struct shared *, const char *name,
		    struct share_state *, char *history, char *err, size_t);
int		 shared_reset(struct shared *, const char *name, char *err,
		    size_t);
/* A run's: no attempt starts past --budget (budget, ns after t0, or -1)
 * nor at --deadline (deadline, likewise); the store's answers before an
 * attempt end within half of what is left of the earlier, every answer by
 * --deadline, and a store that did not answer the run's last decision is
 * asked the others only within what is left of the earlier. */
void		 shared_end(struct shared *, int64_t t0, int64_t budget,
		    int64_t deadline);
/* For `retry share`: every wait for the store ends by then too
 * (CLOCK_MONOTONIC ns), which a failure names as what (a string that
 * outlives the store's use). */
void		 shared_until(struct shared *, int64_t by, const char *what);

#endif
