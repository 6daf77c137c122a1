/*
 * --hedge (hedge.h), after Dean and Barroso's "The Tail at Scale": a
 * second request once the first has taken longer than it should, and
 * whichever answers first.  Attempts side by side read their stdin anew
 * (the replay from its start, a pipe's or a terminal's fed as it arrives,
 * or /dev/null), write to files in memory rather than pipes (nothing to
 * pump while they run; what an attempt wrote is read once it has ended,
 * by the output rules, and a loser's only for the log file), and never
 * get the terminal.  Their ends come as SIGCHLD to the one wait, with the
 * next hedge's time and each attempt's --timeout and --kill-after as its
 * deadline; the replayed stdin's feed is served in the same wait.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ci.h"
#include "clock.h"
#include "compat.h"
#include "duration.h"
#include "env.h"
#include "hedge.h"
#include "hedgefmt.h"
#include "hedgeio.h"
#include "hedging.h"
#include "match.h"
#include "signals.h"
#include "title.h"
#include "verdict.h"
#include "wait.h"

/* An attempt of the round. */
struct slot {
	struct flight	 fl;		/* pid 0: the slot is free */
	unsigned long	 n;
	int64_t		 start, end;	/* ns since the run started */
	int		 out, err;	/* its held stdout and stderr */
	int		 feed;		/* its reader of the replayed stdin's
					 * feed, or -1 */
	enum reason	 why;		/* why it failed */
	struct scan_result scan;	/* what the output rules read in its
					 * held output */
};

/* The state of a round. */
struct round {
	struct hedge_run *h;
	struct attempt_opts o;		/* how each is run */
	struct slot	 f[HEDGE_N_MAX];
	struct flight	*fl[HEDGE_N_MAX];	/* each slot's */
	unsigned	 live;		/* in flight */
	int		 decided;	/* the slot that decides it, or -1 */
	bool		 won;		/* it succeeded */
	bool		 no_more;	/* --max or --budget: no hedge */
	int64_t		 since;		/* the youngest's start, or the end of
					 * a failure beside others since: the
					 * next hedge is DUR after it */
	int64_t		 refused;	/* shared state refused the hedge due
					 * DUR after since then, or -1 */
	unsigned long	 failed;	/* since is the end of its failure, or
					 * 0 */
	bool		 passed;	/* the deciding one's output is out */
};

static void
close_held(struct slot *f)
{
	if (f->out != -1)
		close(f->out);
	if (f->err != -1)
		close(f->err);
	f->out = f->err = -1;
}

/* Starts attempt n in f (a hedge unless first); -1 with why in h->err. */
static int
launch(struct round *rd, struct slot *f, unsigned long n, bool first)
{
	struct hedge_run *h = rd->h;
	struct attempt_opts o = rd->o;
	int64_t timeout;

	*f = (struct slot){ .fl = { .o = &rd->o, .deadline = -1,
	    .kill_at = -1 }, .n = n, .out = -1, .err = -1, .feed = -1,
	    .start = mono_ns() - h->t0 };
	if (hedge_spool(h->st, 1, &f->out, &o.stdio[1]) == -1 ||
	    hedge_spool(h->st, 2, &f->err, &o.stdio[2]) == -1) {
		snprintf(h->err, sizeof(h->err), "--hedge: cannot hold an "
		    "attempt's output in %s: %s", h->st->where,
		    strerror(errno));
		goto fail;
	}
	if (hedge_stdin(h->st, &o.stdio[0], &f->feed) == -1) {
		snprintf(h->err, sizeof(h->err), "--hedge: cannot open stdin "
		    "anew for attempt %lu: %s", n, strerror(errno));
		goto fail;
	}
	env_set(VAR_ATTEMPT, n, false);
	env_set(VAR_ELAPSED_MS, (uint64_t)f->start / 1000000, false);
	if (first)
		env_unset(VAR_HEDGED);
	else
		env_set(VAR_HEDGED, 1, false);
	timeout = policy_timeout(h->pol, f->start);
	if ((f->fl.pid = attempt_start(&o, &f->fl.r.exec_errno)) == -1) {
		snprintf(h->err, sizeof(h->err), "%s", strerror(errno));
		f->fl.pid = 0;
		hedge_stdin_end(h->st, f->feed);
		close_held(f);
		return -1;
	}
	if (f->fl.r.exec_errno != 0) {
		hedge_stdin_end(h->st, f->feed);
		f->fl.reaped = true;
		f->end = mono_ns() - h->t0;
	} else
		rd->live++;
	rd->since = f->start;
	f->fl.deadline = timeout >= 0 ? sat_add(mono_ns(), timeout) : -1;
	return 0;
fail:
	for (int i = 0; i < 3; i++)
		if (o.stdio[i] >= 0)
			close(o.stdio[i]);
	hedge_stdin_end(h->st, f->feed);
	close_held(f);
	return -1;
}

/* The deciding attempt's held output passed on, as --hold-stdout's is,
 * in a CI log's group of its own: an error said, a reader gone noted.  A
 * spool that could take no more is said as --hold-stdout's is, and ends
 * the run with 125: the attempt's writes to it failed. */
static void
pass_on(const struct hedge_run *h, const struct slot *f)
{
	(void)hedge_spools_kept(h->st, f->out, f->err, f->n);
	ci_output(h->rep, f->n);
	(void)streams_pass_held(h->st, f->out, STDOUT_FILENO);
	(void)streams_pass_held(h->st, f->err, STDERR_FILENO);
}

/* With --share: whether a hedge may start, as a retry may: the breaker
 * not open (nor half-open: the probe, this run's or another's, runs
 * alone), and a token of the budget taken. */
static bool
shared_allows(const struct hedge_run *h)
{
	struct gate_answer g = { GATE_GO, WAIT_NONE, 0 };
	struct record_answer a = { false, false, false };
	enum shared_said got;
	double tokens = 0;

	if (h->sh == NULL || !h->sh->on)
		return true;
	if (h->probing)
		return false;
	got = shared_gate(h->sh, &g);
	report_news(h->rep, h->sh, NULL);
	if (got == SHARED_DOWN)
		return false;
	if (got == SHARED_ANSWERED && g.what == GATE_PROBE)
		shared_leave(h->sh);
	if (got == SHARED_ANSWERED && g.what != GATE_GO)
		return false;
	got = shared_hedge(h->sh, &a, &tokens);
	report_news(h->rep, h->sh, NULL);
	return got == SHARED_UNSHARED || (got == SHARED_ANSWERED && a.retry);
}

/* A failure beside others, counted by shared state as any failure (its
 * retry, the hedge, took its token when it started). */
static void
shared_failed(const struct hedge_run *h)
{
	struct record_answer a;
	double tokens;

	if (h->sh == NULL || !h->sh->on)
		return;
	(void)shared_record(h->sh, false, false, -1, -1, &a, &tokens);
	report_news(h->rep, h->sh, NULL);
}

static void
say(const struct round *rd, enum hedge_what what, const struct slot *f,
    unsigned long beside, unsigned others)
{
	const struct hedge_run *h = rd->h;
	const struct hedge_event e = { .what = what, .attempt = f->n,
	    .beside = beside, .others = others, .after = h->c->hedge.delay,
	    .won = rd->won,
	    .result = what == HE_FAILED ? &f->fl.r : NULL,
	    .duration = f->end - f->start, .elapsed = mono_ns() - h->t0,
	    .failed = rd->failed, .why = f->why };

	report_hedge(h->rep, &e);
}

/*
 * The output rules over what f held once it has ended, as they read
 * output as it comes: stdout's lines and stderr's (as --match says), each
 * stream on its own.  A scanner that cannot be had matches nothing.
 */
static void
scan_held(const struct config *c, struct slot *f)
{
	static struct scanner *sc;
	const int files[2] = { c->match != MATCH_STDERR ? f->out : -1,
	    c->match != MATCH_STDOUT ? f->err : -1 };
	char buf[16384];
	off_t off;
	ssize_t n;

	memset(&f->scan, 0, sizeof(f->scan));
	if (!rules_any(&c->verdict.output) ||
	    (sc == NULL && (sc = malloc(sizeof(*sc))) == NULL))
		return;
	for (int i = 0; i < 2; i++) {
		if (files[i] == -1)
			continue;
		sc->len = 0;
		sc->midline = false;
		for (off = 0; (n = pread(files[i], buf, sizeof(buf), off)) > 0;
		    off += n)
			scan_chunk(&c->verdict.output, sc, buf, (size_t)n,
			    &f->scan);
		scan_end(&c->verdict.output, sc, &f->scan);
	}
}

/* Every other attempt in flight is stopped: slot i won. */
static void
cancel_others(struct round *rd, int i)
{
	for (int k = 0; k < HEDGE_N_MAX; k++)
		if (k != i && flight_live(&rd->f[k].fl)) {
			rd->f[k].fl.cancelled = true;
			flight_stop(&rd->f[k].fl, rd->h->c->signal, mono_ns());
		}
}

/* Slot i's attempt has ended: the winner, the round's end (a spool of
 * its that could not grow too), or a failure beside others. */
static void
ended(struct round *rd, int i)
{
	struct hedge_run *h = rd->h;
	struct slot *f = &rd->f[i];
	struct outcome oc;

	if (rd->decided == i)
		return;
	if (f->fl.cancelled && rd->decided >= 0) {
		say(rd, HE_CANCELLED, f, rd->f[rd->decided].n, 0);
		goto drop;
	}
	if (rd->decided >= 0)
		goto drop;
	/* Its writes to a spool that could take no more failed: retry's
	 * doing, not the command's.  It decides the round, as an error. */
	if (!hedge_spools_kept(h->st, f->out, f->err, f->n)) {
		rd->decided = i;
		cancel_others(rd, i);
		return;
	}
	scan_held(h->c, f);
	oc = verdict(&h->c->verdict, f->fl.r.status, f->fl.r.signal, f->scan.matched,
	    false);
	if (f->fl.r.exec_errno != 0 || f->fl.r.interrupted != 0 ||
	    oc.verdict != V_RETRY || rd->live == 0) {
		rd->decided = i;
		rd->won = oc.verdict == V_SUCCESS;
		if (rd->won && rd->live > 0)
			say(rd, HE_WON, f, 0, rd->live);
		cancel_others(rd, i);
		return;
	}
	report_limited(h->rep, f->scan.limited);
	(*h->failures)++;
	env_set(VAR_LAST_STATUS, (uint64_t)f->fl.r.status, false);
	rd->since = f->end;
	rd->failed = f->n;
	f->why = oc.reason;
	say(rd, HE_FAILED, f, 0, rd->live);
	shared_failed(h);
drop:
	/* A loser's output goes to the log file alone. */
	report_held_output(h->rep, f->n, "stdout", f->out);
	report_held_output(h->rep, f->n, "stderr", f->err);
	close_held(f);
	f->fl.pid = 0;
}

/* The title ps shows: the attempts of the round in flight. */
static void
retitle(const struct round *rd)
{
	unsigned long first = 0, last = 0;

	if (rd->live == 0 || rd->decided >= 0)
		return;
	for (int i = 0; i < HEDGE_N_MAX; i++) {
		const struct slot *f = &rd->f[i];

		if (f->fl.pid <= 0 || f->fl.reaped)
			continue;
		if (first == 0 || f->n < first)
			first = f->n;
		if (f->n > last)
			last = f->n;
	}
	title_hedged(first, last, rd->live);
}

/* The attempts that have ended, reaped; after a timeout or a signal,
 * nothing in their groups outlives them. */
static void
reap(struct round *rd)
{
	for (int i = 0; i < HEDGE_N_MAX; i++) {
		struct slot *f = &rd->f[i];

		if (!flight_live(&f->fl) || !flight_exited(&f->fl))
			continue;
		(void)flight_reap(&f->fl, false);
		f->end = mono_ns() - rd->h->t0;
		/* What it did not read stays recorded for the others. */
		hedge_stdin_end(rd->h->st, f->feed);
		rd->live--;
		ended(rd, i);
		retitle(rd);
	}
}

/* The youngest attempt in flight: its start, and its slot (or -1). */
static int
youngest(const struct round *rd)
{
	int y = -1;

	for (int i = 0; i < HEDGE_N_MAX; i++)
		if (rd->f[i].fl.pid > 0 && !rd->f[i].fl.reaped &&
		    (y < 0 || rd->f[i].start > rd->f[y].start))
			y = i;
	return y;
}

/* A hedge's start, said as any attempt's (--verbose, the logs). */
static void
say_start(const struct hedge_run *h, unsigned long n)
{
	const struct report ev = { .event = REP_START, .attempt = n,
	    .elapsed = mono_ns() - h->t0, .delay = -1 };

	report(h->rep, &ev);
}

/* The next hedge, if it is due and may start; when the next is due
 * (CLOCK_MONOTONIC ns), or -1. */
static int64_t
hedge_more(struct round *rd)
{
	struct hedge_run *h = rd->h;
	const struct config *c = h->c;
	const int y = youngest(rd);
	int64_t now = mono_ns() - h->t0, due;
	int slot = -1;

	if (rd->decided >= 0 || rd->no_more || y < 0 || signal_stop != 0 ||
	    rd->refused == rd->since)
		return -1;
	switch (hedge_next(&c->hedge, rd->live, rd->since, *h->made,
	    c->backoff.max_attempts, c->limits.budget, c->limits.deadline,
	    now)) {
	case HEDGE_FULL:
		return -1;
	case HEDGE_NOT_YET:
		due = hedge_due(&c->hedge, rd->live, rd->since);
		return sat_add(h->t0, due);
	case HEDGE_MAX:
	case HEDGE_BUDGET:
		rd->no_more = true;
		return -1;
	case HEDGE_GO:
		break;
	}
	for (int i = 0; i < HEDGE_N_MAX && slot < 0; i++)
		if (rd->f[i].fl.pid <= 0 && i != rd->decided)
			slot = i;
	if (slot < 0 || !shared_allows(h)) {
		rd->refused = rd->since;
		return -1;
	}
	(*h->made)++;
	say_start(h, *h->made);
	if (launch(rd, &rd->f[slot], *h->made, false) == -1) {
		report_error(h->rep, "%s", h->err);
		(*h->made)--;
		rd->no_more = true;
		return -1;
	}
	say(rd, HE_STARTED, &rd->f[slot], rd->f[y].n, 0);
	rd->failed = 0;
	retitle(rd);
	if (rd->f[slot].fl.reaped) {
		/* Its command could not be run: that decides the round. */
		rd->decided = slot;
		cancel_others(rd, slot);
	}
	return 0;
}

/* The attempts' ends: the deciding one's output passed on as soon as it
 * has ended, while the others are still being stopped and reaped (a
 * loser that ignores the signal holds up neither it nor the next command
 * of a script).  False once the round is decided and all are reaped. */
static bool
before(void *ctx)
{
	struct round *rd = ctx;

	reap(rd);
	if (!rd->passed && rd->decided >= 0 && rd->f[rd->decided].fl.reaped) {
		pass_on(rd->h, &rd->f[rd->decided]);
		rd->passed = true;
		/* Its wait for a slow reader took the ends of others that
		 * came meanwhile: they are reaped now, not at --kill-after. */
		reap(rd);
	}
	return rd->decided < 0 || rd->live > 0;
}

/* A signal that ends the run decides the round; the next hedge, when it
 * is due (false: one started, look again). */
static bool
due(void *ctx, int64_t now, int64_t *at)
{
	struct round *rd = ctx;

	if (signal_stop != 0 && rd->decided < 0)
		rd->decided = youngest(rd);
	return (*at = hedge_more(rd)) != 0;
}

/* The replayed stdin's feed, served in the round's wait. */
static nfds_t
watch(void *ctx, struct pollfd *pfd)
{
	const struct round *rd = ctx;

	return streams_wait_watch(rd->h->st, pfd);
}

/* A stdin that cannot be kept (st->err says why) ends every attempt it
 * feeds, and the round, as it ends a single attempt. */
static void
serve(void *ctx, const struct pollfd *pfd, nfds_t n)
{
	struct round *rd = ctx;
	struct hedge_run *h = rd->h;
	bool broken = false;

	for (nfds_t i = 0; i < n; i++)
		if (streams_wait_serve(h->st, &pfd[i]) == -1)
			broken = true;
	if (!broken)
		return;
	/* Stopped before their input ends: an attempt must not take a
	 * stdin cut short for the whole of it. */
	for (int i = 0; i < HEDGE_N_MAX; i++) {
		struct slot *f = &rd->f[i];

		if (!flight_live(&f->fl) || f->fl.r.aborted)
			continue;
		f->fl.r.aborted = true;
		flight_stop(&f->fl, h->c->signal, mono_ns());
	}
	hedge_stdin_stop(h->st);
	if (rd->decided < 0)
		rd->decided = youngest(rd);
	rd->no_more = true;
}

_Static_assert(FEED_WATCH_MAX <= FLIGHT_WATCH_MAX, "the fds watched");

int
hedge_attempt(struct hedge_run *h, struct attempt_result *r)
{
	/* On the stack: a run that never hedges keeps its static memory to
	 * the pages every run writes. */
	struct round rd = { 0 };
	const struct flight_ops ops = { &rd, before, due, watch, serve, NULL };
	struct slot *f;

	memset(r, 0, sizeof(*r));
	memset(&h->st->result, 0, sizeof(h->st->result));
	rd.h = h;
	/* Without the terminal, in sessions of their own. */
	rd.o = *h->ao;
	rd.o.tty = -1;
	rd.o.hand_over = rd.o.session = rd.o.foreground = false;
	rd.o.detached = true;
	rd.o.io = NULL;
	rd.o.stdio[0] = rd.o.stdio[1] = rd.o.stdio[2] = -1;
	for (int i = 0; i < HEDGE_N_MAX; i++)
		rd.fl[i] = &rd.f[i].fl;
	rd.decided = -1;
	rd.refused = -1;
	h->n = h->pol->n;
	h->start = mono_ns() - h->t0;
	/* What came to retry between attempts is not the attempt's. */
	signals_drain();
	/* A signal that came since the last wait: start nothing. */
	if ((r->interrupted = signal_stop) != 0) {
		r->unstarted = true;
		return 0;
	}
	(void)signals_catch_stop(true);
	if (launch(&rd, &rd.f[0], h->pol->n, true) == -1) {
		(void)signals_catch_stop(false);
		return -1;
	}
	if (rd.f[0].fl.reaped)
		rd.decided = 0;
	flights_wait(rd.fl, HEDGE_N_MAX, &ops);
	hedge_stdin_stop(h->st);
	/* A Ctrl-Z as the last attempt ended: retry stops, alone now. */
	if (signals_catch_stop(false))
		signals_suspend(false);
	f = &rd.f[rd.decided];
	if (!rd.passed)
		pass_on(h, f);
	close_held(f);
	/* The hooks see the deciding attempt, as after a single one. */
	env_unset(VAR_HEDGED);
	env_set(VAR_ATTEMPT, f->n, false);
	env_set(VAR_ELAPSED_MS, (uint64_t)f->start / 1000000, false);
	*r = f->fl.r;
	/* A signal that ends the run went to every attempt in flight. */
	for (int i = 0; i < HEDGE_N_MAX; i++)
		if (r->forwarded && rd.f[i].fl.r.forwarded)
			r->in_flight++;
	h->st->result = f->scan;
	if (r->interrupted == 0)
		r->interrupted = signal_stop;
	h->n = f->n;
	h->start = f->start;
	policy_hedged(h->pol, *h->made);
	return 0;
}
