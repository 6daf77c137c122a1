/*
 * Shared state: what runs that name the same NAME (--share) share, so that
 * many invocations back off as one well-mannered client.
 *
 *   - A retry budget that comes back with time, as Finagle's RetryBudget
 *     does for a client with steady traffic, here for sparse and bursty
 *     runs: tokens start at max and stay within [0, max]; a retry takes 1
 *     and runs only if there is 1 to take; a successful attempt gives
 *     ratio back; and max come back every window, continuously, so that a
 *     budget that an outage spent is whole again a window later.
 *   - A circuit breaker, off unless trip > 0: trip failed attempts in a
 *     row, across all members, open it for cooldown; then one member at a
 *     time probes it (half-open) under a lease that expires, so that a
 *     member that dies holding it cannot wedge it; the probe's success
 *     closes it, its failure opens it again.
 *   - A not-before time: a delay that one member learns from its command's
 *     output holds for every member.
 *
 * A state whose every part is a window old, with nothing ahead of it (an
 * open circuit, a probe, a not-before), is dropped: it starts afresh.
 *
 * Pure: a store reads the state, under a lock, and writes it back; times
 * are passed in, as ns of the time of day (shared by every process).
 */
#ifndef RETRY_SHARE_H
#define RETRY_SHARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "duration.h"

#define SHARE_NAME_MAX	64
#define SHARE_TEXT_MAX	512	/* the state as text, at most */

enum breaker { BREAKER_CLOSED, BREAKER_OPEN, BREAKER_HALF_OPEN };

/* When each part last changed. */
enum share_part { PART_TOKENS, PART_FAILURES, PART_BREAKER, PART_NOT_BEFORE,
	PART_COUNT };

struct share_state {
	double		 tokens;
	uint64_t	 failures;	/* failed attempts in a row, all runs */
	enum breaker	 breaker;
	int64_t		 open_until;	/* BREAKER_OPEN: half-opens then */
	uint64_t	 probe;		/* BREAKER_HALF_OPEN: who probes, or 0 */
	int64_t		 probe_until;	/* the probe's lease ends */
	int64_t		 not_before;	/* no attempt starts before, or 0 */
	int64_t		 changed[PART_COUNT];
};

struct share_rules {
	double		 max;		/* the budget's tokens, N */
	double		 ratio;		/* what a success gives back, R */
	unsigned long	 trip;		/* failures in a row that open the
					 * breaker; 0: no breaker */
	int64_t		 cooldown;	/* ns it stays open */
	int64_t		 lease;		/* ns a probe holds the breaker */
	int		 give_up;	/* --share-open giveup (1): no
					 * waiting; wait: 0 */
	int64_t		 window;	/* ns in which max come back */
};

/* A member waiting on a probe that another holds looks again this often. */
#define SHARE_POLL	(250 * 1000000LL)
/* A not-before is at most this far ahead, whatever the state says. */
#define SHARE_NOT_BEFORE_MAX	(3600 * NS_PER_SEC)
/* --share-budget's R by default: a retry for every 5 successes. */
#define SHARE_RATIO		0.2
/* --share-window: by default, and its bounds. */
#define SHARE_WINDOW		(60 * NS_PER_SEC)
#define SHARE_WINDOW_MIN	NS_PER_SEC
#define SHARE_WINDOW_MAX	(86400 * NS_PER_SEC)

/* Before an attempt: go, probe, wait until, or give up (75).  A member
 * without a breaker (trip 0) ignores one; times that the state puts
 * further ahead than the member's own cooldown, lease or
 * SHARE_NOT_BEFORE_MAX allow (a clock set back, a bad state) are held to
 * them. */
enum gate { GATE_GO, GATE_PROBE, GATE_WAIT, GATE_GIVE_UP };
enum gate_why { WAIT_NONE, WAIT_OPEN, WAIT_PROBE, WAIT_NOT_BEFORE };

struct gate_answer {
	enum gate	 what;
	enum gate_why	 why;
	int64_t		 until;		/* GATE_WAIT: look again then */
};

/* After an attempt: whether a retry may follow, and what it changed. */
struct record_answer {
	bool		 retry;		/* the retry it asked for may run: it
					 * took a token */
	bool		 opened;	/* this failure opened the breaker */
	bool		 closed;	/* this probe's success closed it */
};

/* A decision that a store makes on a name's state, atomically (under its
 * lock, or in its script): share_gate, share_record or share_leave. */
enum share_op { SHARE_GATE, SHARE_RECORD, SHARE_LEAVE, SHARE_HEDGE };

/* What the store's decision answered. */
struct share_answer {
	struct gate_answer gate;	/* until: ns from now */
	struct record_answer record;
	double		 tokens;	/* after a record */
	bool		 corrupt;	/* the state was not one: it started
					 * afresh */
};

/* The state of a name that no run has used: full, closed. */
void		 share_fresh(struct share_state *, const struct share_rules *,
		    int64_t now);
/* Member me asks to start an attempt at now; the answer may take the
 * probe. */
struct gate_answer share_gate(struct share_state *,
		    const struct share_rules *, uint64_t me, int64_t now);
/* Member me's attempt ended at now, and it would retry (retry) if the
 * budget lets it; not_before: when the next attempt may start by what its
 * output asked, or 0. */
struct record_answer share_record(struct share_state *,
		    const struct share_rules *, uint64_t me, bool success,
		    bool retry, int64_t not_before, int64_t now);
/* Member me starts an attempt beside one in flight (--hedge) at now: a
 * retry's token is taken (retry) if the budget has one; no failure is
 * counted. */
struct record_answer share_hedge(struct share_state *,
		    const struct share_rules *, uint64_t me, int64_t now);
/* Member me ends its run: a probe it holds is let go. */
void		 share_leave(struct share_state *, uint64_t me, int64_t now);

/* The state as text, and back; NULL or what is wrong with the text. */
size_t		 share_format(const struct share_state *, char *, size_t);
const char	*share_parse(const char *, size_t, struct share_state *);
/* NAME: letters, digits, '.', '_' and '-', 1 to SHARE_NAME_MAX; NULL or
 * why not. */
const char	*share_name_check(const char *);
/* Holds the state's times to now (a change time past it counts as now)
 * and what lies ahead to the member's rules; drops a state whose every
 * part is a window old, with nothing ahead: true when it did.  Every
 * decision starts with it. */
bool		 share_expire(struct share_state *, const struct share_rules *,
		    int64_t now);
/* The tokens at now: what was left, and what came back since. */
double		 share_tokens(const struct share_state *,
		    const struct share_rules *, int64_t now);
/* Whether a retry can take a token: there is one, to a millionth. */
bool		 share_whole(double tokens);
/* Tokens as people see them: down to a thousandth, so that what came
 * back in the last milliseconds does not fill the line. */
double		 share_shown(double tokens);
/* "N" or "N:R" (--share-budget), "N:DUR" (--share-breaker). */
const char	*share_budget_parse(const char *, double *max, double *ratio);
const char	*share_breaker_parse(const char *, unsigned long *trip,
		    int64_t *cooldown);
const char	*breaker_name(enum breaker);

#endif
