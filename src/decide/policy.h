/*
 * The run policy: the one judge of how a run goes on and how it ends.
 * After an attempt, given what was observed of it, it answers "sleep D,
 * then attempt n + 1" or "end with status S (or die of signal S), because
 * R"; before an attempt, given shared state's answer, "start it now",
 * "wait D and ask again" or "end"; and after any of them, what came to
 * retry before it was carried out (a signal, its reader gone, an error of
 * its own) ends the run as it says.  retry, --dry-run and
 * show-backoff-delays all ask it, so that they cannot disagree.  Pure: no
 * clock (times are passed in), no I/O, and it never exits.
 */
#ifndef RETRY_POLICY_H
#define RETRY_POLICY_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "codes.h"
#include "engine.h"
#include "exits.h"
#include "match.h"
#include "share.h"
#include "verdict.h"

/* The limits of a run, beside the engine's. */
struct limits {
	bool		 forever;	/* a success does not end the run */
	int64_t		 budget;	/* ns: no attempt starts past it; -1 */
	int64_t		 timeout;	/* ns: an attempt's time; -1 */
	int64_t		 deadline;	/* ns: the run's time, the running
					 * attempt stopped as by --timeout,
					 * no attempt nor sleep past it; -1 */
	int64_t		 reset_after;	/* ns: an attempt this long starts the
					 * back-off over; -1 */
	bool		 output_replaces; /* the delay the output asks for
					 * replaces the strategy's, rather than
					 * being the least the run waits */
	unsigned long	 successes;	/* successes in a row that end a run
					 * (0 and 1: one) */
	const struct codes_limit *retry_limits;	/* --retry-on STATUS:N */
	size_t		 nretry_limits;
};

/* What was observed of an attempt, or since the last decision. */
struct observed {
	int		 status;	/* 0-255, 128 + N, 124 timed out, 125
					 * could not start */
	int		 signal;	/* it died of signal N, or 0 */
	bool		 matched[RULE_COUNT];	/* the output rules it met */
	bool		 at_terminal;	/* it ended in the foreground of the
					 * terminal, and retry's stdout is a
					 * terminal: a SIGPIPE is a pager quit */
	int64_t		 start, end;	/* ns since the run started */
	/*
	 * The end again, in the seconds that the engine takes: show-backoff-
	 * delays passes the time of a STATUS as Perl parses it, which
	 * nanoseconds could not always hold.
	 */
	double		 end_s;
	const char	*capture;	/* what --delay-from-output captured,
					 * or NULL */
	int64_t		 wall;		/* the time of day in ns, for an
					 * HTTP-date or a Unix time */
	/* What ends a run whatever its command's verdict, in this order: */
	int		 exec_errno;	/* the command could not be run: why */
	int		 received;	/* a signal that ends the run came to
					 * retry, or 0 */
	bool		 own_error;	/* retry could not pass on, keep or
					 * write out the output, or set the
					 * run up */
	bool		 reader_gone;	/* retry's reader has gone, where a
					 * pipeline would end: the attempt
					 * died of SIGPIPE, or retry found it
					 * gone as it wrote or waited */
};

enum next_what {
	NEXT_ATTEMPT,	/* start attempt n now */
	NEXT_SLEEP,	/* sleep until at, then attempt n (with --share, once
			 * shared state lets it start) */
	NEXT_EXIT,	/* exit with status */
	NEXT_DIE,	/* die of signal status, as the pipeline would */
};

/* Why a run ends (NEXT_EXIT, NEXT_DIE). */
enum end {
	FIN_NONE,		/* it goes on */
	FIN_VERDICT,		/* the verdict on the attempt, or a limit of
				 * the run's (outcome and give_up say which,
				 * a spent shared budget or store among them) */
	FIN_SIGNAL,		/* a signal that ends the run came to retry:
				 * it dies of it */
	FIN_READER_GONE,	/* retry's reader has gone: it dies of
				 * SIGPIPE, as a pipeline's writer */
	FIN_CANNOT_RUN,		/* the command could not be run: 126, 127 */
	FIN_OWN_ERROR,		/* retry's own error: STATUS_CANCELED */
	FIN_SHARE_OPEN,		/* the shared breaker is open (or another run
				 * probes it), and --share-open giveup:
				 * STATUS_SHARED */
	FIN_SHARE_PAST_BUDGET,	/* waiting for shared state would pass
				 * --deadline or --budget (give_up says
				 * which): STATUS_SHARED */
	FIN_SHARE_DOWN,		/* the store does not answer before an
				 * attempt, and --share-required:
				 * STATUS_SHARED */
};

struct next {
	enum next_what	 what;
	enum end	 end;		/* NEXT_EXIT, NEXT_DIE: why */
	unsigned long	 attempt;	/* the attempt judged, as counted: a
					 * --forever reset starts at 1 */
	struct outcome	 outcome;	/* the verdict on it, and why */
	enum give_up	 give_up;	/* FIN_VERDICT: the back-off or a
					 * limit ended the run: which;
					 * FIN_SHARE_PAST_BUDGET: the limit
					 * the wait would pass, GIVE_UP_BUDGET
					 * or GIVE_UP_DEADLINE */
	const struct codes_limit *limit;	/* GIVE_UP_LIMIT: the
					 * --retry-on item it reached */
	unsigned long	 streak;	/* successes in a row, this one
					 * included */
	bool		 pending;	/* a success short of --successes in
					 * a row: the run has not succeeded */
	bool		 gave_up;	/* NEXT_EXIT: the run ends without a
					 * success, by a verdict, a limit or
					 * shared state: --on-giveup runs */
	bool		 succeeded;	/* NEXT_EXIT: the run ends in a success
					 * (--successes in a row, a --forever
					 * run's end after one): its held
					 * output goes to stdout, and its
					 * closing line says so.  Never with
					 * gave_up; a success short of
					 * --successes is none. */
	struct delay	 delay;		/* NEXT_SLEEP: how long */
	int64_t		 at;		/* NEXT_SLEEP: until when, ns since the
					 * run started */
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
	bool		 counted;	/* a verdict on the attempt, which
					 * --share counts */
	int64_t		 others;	/* counted: ns its output asks every
					 * run of --share to wait, within
					 * --max-delay (or ASKED_MAX); -1 */
	bool		 probe;		/* NEXT_ATTEMPT: it probes the shared
					 * breaker */
	enum gate_why	 waited;	/* after shared state's gate: what it
					 * waits for */
	int		 status;	/* NEXT_EXIT: the exit status;
					 * NEXT_DIE: the signal */
};

struct policy {
	const struct limits *l;
	const struct verdict_rules *rules;
	struct engine	 e;
	unsigned long	 n;		/* the attempt to judge next, from 1 */
	unsigned long	 streak;	/* successes in a row */
	/* Attempts that ended with a status of each --retry-on STATUS:N. */
	unsigned int	 retried[CODES_LIMITS];
};

/* A delay that the command's output asks for is at most this, unless
 * --max-delay says otherwise. */
#define ASKED_MAX	(3600 * NS_PER_SEC)

void		 policy_init(struct policy *, const struct backoff *,
		    const struct limits *, const struct verdict_rules *,
		    struct rng *);
/* The time the next attempt has, when elapsed ns of the run are gone: its
 * --timeout, cut to what is left of the --budget and of the --deadline;
 * -1 for no limit. */
int64_t		 policy_timeout(const struct policy *, int64_t elapsed);
/* Judges attempt p->n and says what happens next.  A command that could
 * not be run, a signal that came to retry, retry's own error and its
 * reader gone end the run before the verdict does, in that order. */
struct next	 policy_next(struct policy *, const struct observed *);
/*
 * Before attempt p->n, at now (ns since the run started), shared state's
 * gate answered g, or nothing (NULL; down: the store is down, and
 * --share-required).  The attempt starts (and may probe the breaker), or
 * waits (a millisecond at least) and asks again; a wait that would pass
 * --budget or --deadline (give_up names the earlier of those it passes),
 * --share-open giveup and a store down end the run with STATUS_SHARED.
 */
struct next	 policy_gate(const struct policy *, const struct gate_answer *g,
		    bool down, int64_t now);
/*
 * x, a counted answer to attempt p->n, once shared state has recorded it
 * at now: a, its answer, or nothing (NULL; down: the store is down, and
 * --share-required).  A retry that the shared budget refuses ends the run
 * with the attempt's status (GIVE_UP_SHARED), one that a store down
 * cannot count with STATUS_SHARED (GIVE_UP_STORE), and one that would now
 * start past --budget as the budget does.  A success stands.
 */
struct next	 policy_shared(const struct policy *, struct next x,
		    const struct observed *, const struct record_answer *a,
		    bool down, int64_t now);
/* x, a sleep after attempt o, when now (ns since the run started) has
 * reached the --deadline before it began (a hook ran until then): the end
 * of the run instead, as if the deadline fell within the sleep; or x. */
struct next	 policy_late(const struct policy *, struct next x,
		    const struct observed *o, int64_t now);
/* --hedge: attempts up to made were started side by side, and the one
 * judged next ends their round: --max counts them all. */
void		 policy_hedged(struct policy *, unsigned long made);
/* x, when o came before it was carried out (a signal to retry, its own
 * error, its reader gone): the end of the run instead, or x. */
struct next	 policy_halt(struct next x, const struct observed *o);
/* The exit status when the command cannot be run: errno e. */
int		 policy_cannot_run(int e);

#endif
