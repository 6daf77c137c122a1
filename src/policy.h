/*
 * The run policy: what happens after an attempt.  Given what was observed
 * of it, it answers "sleep D, then attempt n + 1" or "end with status S
 * (or die of signal S), because R".  retry, --dry-run and
 * show-backoff-delays all ask it, so that they cannot disagree.  Pure: no
 * clock (times are passed in) and no I/O.
 */
#ifndef RETRY_POLICY_H
#define RETRY_POLICY_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "engine.h"
#include "exits.h"
#include "match.h"
#include "verdict.h"

/* The limits of a run, beside the engine's. */
struct limits {
	bool		 forever;	/* a success does not end the run */
	int64_t		 budget;	/* ns: no attempt starts past it; -1 */
	int64_t		 timeout;	/* ns: an attempt's time; -1 */
	int64_t		 reset_after;	/* ns: an attempt this long starts the
					 * back-off over; -1 */
	bool		 output_replaces; /* the delay the output asks for
					 * replaces the strategy's, rather than
					 * being the least the run waits */
};

/* What was observed of an attempt. */
struct observed {
	int		 status;	/* 0-255, 128 + N, 124 timed out, 125
					 * could not start */
	int		 signal;	/* it died of signal N, or 0 */
	bool		 matched[RULE_COUNT];	/* the output rules it met */
	int64_t		 start, end;	/* ns since the run started */
	/*
	 * The end again, in the seconds that the engine takes: show-backoff-
	 * delays passes the time of a STATUS as Perl parses it, which
	 * nanoseconds could not always hold.
	 */
	double		 end_s;
	const char	*capture;	/* what --delay-from-output captured,
					 * or NULL */
	time_t		 wall;		/* the time of day, for an HTTP-date */
	bool		 reader_gone;	/* it died of SIGPIPE, and so would a
					 * pipeline: retry's reader has gone */
};

enum next_what {
	NEXT_SLEEP,	/* sleep delay, then the next attempt */
	NEXT_EXIT,	/* exit with status */
	NEXT_DIE,	/* die of signal status, as the pipeline would */
};

struct next {
	enum next_what	 what;
	unsigned long	 attempt;	/* the attempt judged, as counted: a
					 * --forever reset starts at 1 */
	struct outcome	 outcome;	/* the verdict on it, and why */
	enum give_up	 give_up;	/* the back-off ended: why */
	struct delay	 delay;		/* NEXT_SLEEP: how long */
	bool		 hinted;	/* the output asked for a delay:
					 * wanted, hint and strategy hold */
	bool		 asked;		/* the delay is what the output asked */
	int64_t		 wanted;	/* hinted: what the output asked for,
					 * before --min-delay and --max-delay */
	int64_t		 hint;		/* hinted: the same, within them */
	int64_t		 strategy;	/* hinted: the strategy's delay, its
					 * jitter and limits applied */
	const char	*unusable;	/* why the capture is no delay, or
					 * NULL */
	int		 status;	/* NEXT_EXIT: the exit status;
					 * NEXT_DIE: the signal */
};

struct policy {
	const struct limits *l;
	const struct verdict_rules *rules;
	struct engine	 e;
	unsigned long	 n;		/* the attempt to judge next, from 1 */
};

/* A delay that the command's output asks for is at most this, unless
 * --max-delay says otherwise. */
#define ASKED_MAX	(3600 * NS_PER_SEC)

void		 policy_init(struct policy *, const struct backoff *,
		    const struct limits *, const struct verdict_rules *,
		    struct rng *);
/* The time the next attempt has, when elapsed ns of the run are gone: its
 * --timeout, cut to what is left of the --budget; -1 for no limit. */
int64_t		 policy_timeout(const struct policy *, int64_t elapsed);
/* Judges attempt p->n and says what happens next. */
struct next	 policy_next(struct policy *, const struct observed *);

/* x, an answer to attempt p->n that shared state refuses: the end of the
 * run instead, for why: GIVE_UP_SHARED (the budget is spent: the
 * attempt's status) or GIVE_UP_STORE (the store does not answer, and
 * --share-required: EXIT_SHARED). */
struct next	 policy_denied(const struct policy *, struct next x,
		    const struct observed *, enum give_up why);
/* x, an answer to attempt p->n, once the shared state has been asked at
 * now (ns since the run started): a next attempt that would now start
 * past --budget ends the run as the budget does. */
struct next	 policy_late(const struct policy *, struct next x,
		    const struct observed *, int64_t now);
/* The exit status when the command cannot be run: errno e. */
int		 policy_cannot_run(int e);

#endif
