/*
 * A run's side of --share: the store of the shared state, and each
 * decision asked of it as one read-modify-write under the store's lock.
 * When the store cannot answer, the run goes on as if unshared: it says so
 * once, and asks again at the next decision.
 */
#ifndef RETRY_SHARED_H
#define RETRY_SHARED_H

#include <stdbool.h>
#include <stdint.h>

#include "options.h"
#include "report.h"
#include "share.h"
#include "store.h"

struct shared {
	struct store	 store;
	const struct share_rules *rules;
	const struct reporter *rep;
	const char	*name;
	uint64_t	 me;		/* this run among the members */
	bool		 on;		/* --share given, the store opened */
	bool		 faulty;	/* the last decision failed: said */
	int64_t		 retry_at;	/* a faulty store is asked again from
					 * then on (CLOCK_MONOTONIC ns) */
	bool		 said_corrupt;
};

/* The store that --share-store, else $RETRY_SHARE_STORE, else the
 * default names: "file:DIR", or NULL for the default. */
const char	*shared_spec(const struct config *);
/* Opens the store and the name's file; -1 with why in err. */
int		 shared_open(struct shared *, const struct config *,
		    const struct reporter *, char *err, size_t);
/* Before an attempt; false when the store could not answer. */
bool		 shared_gate(struct shared *, struct gate_answer *);
/* After an attempt; false when the store could not answer. tokens: what
 * is left after it. */
bool		 shared_record(struct shared *, bool success,
		    int64_t not_before, struct record_answer *,
		    double *tokens);
/* A probe this run holds is let go: the run ends without its result. */
void		 shared_leave(struct shared *);
void		 shared_close(struct shared *);

#endif
