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
struct flight {
	pid_t		 pid;		/* 0: the slot is free */
	unsigned long	 n;
	int64_t		 start, end;	/* ns since the run started */
	int64_t		 deadline;	/* CLOCK_MONOTONIC ns, or -1 */
	int64_t		 kill_at;	/* the same, or -1 */
	int		 out, err;	/* its held stdout and stderr */
	int		 feed;		/* its reader of the replayed stdin's
					 * feed, or -1 */
	bool		 gone;		/* it has ended, and is reaped */
	bool		 cancelled;	/* another won: it was stopped */
	enum reason	 why;		/* why it failed */
	struct attempt_result r;
	struct scan_result scan;	/* what the output rules read in its
					 * held output */
};

/* The state of a round. */
struct round {
	struct hedge_run *h;
	struct flight	 f[HEDGE_N_MAX];
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
};

static void
close_held(struct flight *f)
{
	if (f->out != -1)
		close(f->out);
	if (f->err != -1)
		close(f->err);
	f->out = f->err = -1;
}

/* Starts attempt n in f (a hedge unless first); -1 with why in h->err. */
static int
launch(struct round *rd, struct flight *f, unsigned long n, bool first)
{
	struct hedge_run *h = rd->h;
	struct attempt_opts o = *h->ao;
	int64_t timeout;

	*f = (struct flight){ .n = n, .deadline = -1, .kill_at = -1,
	    .out = -1, .err = -1, .feed = -1, .start = mono_ns() - h->t0 };
	o.tty = -1;
	o.hand_over = o.session = o.foreground = false;
	o.detached = true;
	o.io = NULL;
	o.stdio[0] = o.stdio[1] = o.stdio[2] = -1;
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
	if ((f->pid = attempt_start(&o, &f->r.exec_errno)) == -1) {
		snprintf(h->err, sizeof(h->err), "%s", strerror(errno));
		f->pid = 0;
		hedge_stdin_end(h->st, f->feed);
		close_held(f);
		return -1;
	}
	if (f->r.exec_errno != 0) {
		hedge_stdin_end(h->st, f->feed);
		f->gone = true;
		f->end = mono_ns() - h->t0;
	} else
		rd->live++;
	rd->since = f->start;
	f->deadline = timeout >= 0 ? sat_add(mono_ns(), timeout) : -1;
	return 0;
fail:
	for (int i = 0; i < 3; i++)
		if (o.stdio[i] >= 0)
			close(o.stdio[i]);
	hedge_stdin_end(h->st, f->feed);
	close_held(f);
	return -1;
}

/* Stops f as a timeout does: --signal to its group, KILL later. */
static void
stop(const struct hedge_run *h, struct flight *f, int sig)
{
	if (f->pid <= 0 || f->gone)
		return;
	signal_group(-f->pid, sig);
	f->deadline = -1;
	if (f->kill_at < 0)
		f->kill_at = sat_add(mono_ns(), h->c->kill_after);
}

/* What a loser wrote in fd, its stream: to the log file line by line (a
 * line longer than the buffer in pieces), if there is one, else nowhere. */
static void
drop_output(const struct hedge_run *h, const struct flight *f, int fd,
    const char *stream)
{
	char buf[8192], *p, *nl;
	size_t len = 0;
	off_t off = 0;
	ssize_t n;

	if (fd == -1 || h->rep->log == NULL)
		return;
	while ((n = pread(fd, buf + len, sizeof(buf) - len, off)) > 0) {
		off += n;
		len += (size_t)n;
		for (p = buf; (nl = memchr(p, '\n', len - (size_t)(p - buf))) !=
		    NULL; p = nl + 1)
			report_output(h->rep, f->n, stream, p,
			    (size_t)(nl - p));
		len -= (size_t)(p - buf);
		memmove(buf, p, len);
		if (len == sizeof(buf)) {
			report_output(h->rep, f->n, stream, buf, len);
			len = 0;
		}
	}
	if (len > 0)
		report_output(h->rep, f->n, stream, buf, len);
}

/* The deciding attempt's held output passed on, as --hold-stdout's is,
 * in a CI log's group of its own: an error said, a reader gone noted.  A
 * spool that could take no more is said as --hold-stdout's is, and ends
 * the run with 125: the attempt's writes to it failed. */
static void
pass_on(const struct hedge_run *h, const struct flight *f)
{
	(void)hedge_spools_kept(h->st, f->out, f->err, f->n);
	ci_output(h->rep, f->n);
	(void)streams_pass_held(h->st, f->out, STDOUT_FILENO);
	(void)streams_pass_held(h->st, f->err, STDERR_FILENO);
}

/* What shared state had to say, said. */
static void
say_news(const struct hedge_run *h)
{
	for (size_t i = 0; i < h->sh->nnews; i++)
		report_error(h->rep, "%s", h->sh->news[i]);
	h->sh->nnews = 0;
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
	say_news(h);
	if (got == SHARED_DOWN)
		return false;
	if (got == SHARED_ANSWERED && g.what == GATE_PROBE)
		shared_leave(h->sh);
	if (got == SHARED_ANSWERED && g.what != GATE_GO)
		return false;
	got = shared_hedge(h->sh, &a, &tokens);
	say_news(h);
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
	(void)shared_record(h->sh, false, false, -1, &a, &tokens);
	say_news(h);
}

static void
say(const struct round *rd, enum hedge_what what, const struct flight *f,
    unsigned long beside, unsigned others)
{
	const struct hedge_run *h = rd->h;
	const struct hedge_event e = { .what = what, .attempt = f->n,
	    .beside = beside, .others = others, .after = h->c->hedge.delay,
	    .won = rd->won,
	    .result = what == HE_FAILED ? &f->r : NULL,
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
scan_held(const struct config *c, struct flight *f)
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
		if (k != i && rd->f[k].pid > 0 && !rd->f[k].gone) {
			rd->f[k].cancelled = true;
			stop(rd->h, &rd->f[k], rd->h->c->signal);
		}
}

/* Slot i's attempt has ended: the winner, the round's end (a spool of
 * its that could not grow too), or a failure beside others. */
static void
ended(struct round *rd, int i)
{
	struct hedge_run *h = rd->h;
	struct flight *f = &rd->f[i];
	struct outcome oc;

	if (rd->decided == i)
		return;
	if (f->cancelled && rd->decided >= 0) {
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
	oc = verdict(&h->c->verdict, f->r.status, f->r.signal, f->scan.matched,
	    false);
	if (f->r.exec_errno != 0 || f->r.interrupted != 0 ||
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
	env_set(VAR_LAST_STATUS, (uint64_t)f->r.status, false);
	rd->since = f->end;
	rd->failed = f->n;
	f->why = oc.reason;
	say(rd, HE_FAILED, f, 0, rd->live);
	shared_failed(h);
drop:
	drop_output(h, f, f->out, "stdout");
	drop_output(h, f, f->err, "stderr");
	close_held(f);
	f->pid = 0;
}

/* The title ps shows: the attempts of the round in flight. */
static void
retitle(const struct round *rd)
{
	unsigned long first = 0, last = 0;

	if (rd->live == 0 || rd->decided >= 0)
		return;
	for (int i = 0; i < HEDGE_N_MAX; i++) {
		const struct flight *f = &rd->f[i];

		if (f->pid <= 0 || f->gone)
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
	const struct config *c = rd->h->c;
	pid_t w;
	int st;

	for (int i = 0; i < HEDGE_N_MAX; i++) {
		struct flight *f = &rd->f[i];

		if (f->pid <= 0 || f->gone || !attempt_exited(f->pid))
			continue;
		if (f->cancelled || f->r.timed_out || f->r.forwarded ||
		    f->r.aborted)
			signal_group(-f->pid, SIGKILL);
		while ((w = waitpid(f->pid, &st, 0)) == -1 && errno == EINTR)
			;
		/* Reaped behind retry's back (it cannot be, as SIGCHLD is
		 * never ignored): an end retry cannot tell, not a success. */
		if (w == -1)
			st = W_EXITCODE(STATUS_CANCELED, 0);
		f->gone = true;
		f->end = mono_ns() - rd->h->t0;
		/* What it did not read stays recorded for the others. */
		hedge_stdin_end(rd->h->st, f->feed);
		attempt_ended(st, c->preserve_status, &f->r);
		rd->live--;
		ended(rd, i);
		retitle(rd);
	}
}

/*
 * Ctrl-Z, or SIGTSTP sent to retry: the attempts, in sessions of their
 * own, hear no terminal's key, and the kernel would drop a SIGTSTP in
 * their orphaned groups.  Each group is stopped by SIGSTOP, retry stops
 * as a command would, and once continued (fg, bg, SIGCONT) it continues
 * them.  Their deadlines keep counting meanwhile, as a single attempt's
 * do.
 */
static void
suspend_all(struct round *rd)
{
	for (int i = 0; i < HEDGE_N_MAX; i++)
		if (rd->f[i].pid > 0 && !rd->f[i].gone)
			kill(-rd->f[i].pid, SIGSTOP);
	signals_suspend(false);
	for (int i = 0; i < HEDGE_N_MAX; i++)
		if (rd->f[i].pid > 0 && !rd->f[i].gone)
			kill(-rd->f[i].pid, SIGCONT);
}

/* The signals retry received, sent on to every attempt in flight, as to
 * a single one; those that end the run stop them all. */
static void
forward(struct round *rd)
{
	struct compat_siginfo q;
	int sig;

	while (signals_take_queued(&q))
		for (int i = 0; i < HEDGE_N_MAX; i++) {
			const struct flight *f = &rd->f[i];

			if (f->pid <= 0 || f->gone)
				continue;
			if (q.code == SI_QUEUE)
				(void)sigqueue(f->pid, q.signo, q.value);
			else
				kill(-f->pid, q.signo);
		}
	while ((sig = signals_take()) != 0) {
		if (sig == SIGTSTP) {
			suspend_all(rd);
			continue;
		}
		for (int i = 0; i < HEDGE_N_MAX; i++) {
			struct flight *f = &rd->f[i];

			if (f->pid <= 0 || f->gone)
				continue;
			if (!signals_ends(sig)) {
				kill(-f->pid, sig);
				continue;
			}
			f->r.forwarded = true;
			stop(rd->h, f, sig);
		}
	}
}

/* The youngest attempt in flight: its start, and its slot (or -1). */
static int
youngest(const struct round *rd)
{
	int y = -1;

	for (int i = 0; i < HEDGE_N_MAX; i++)
		if (rd->f[i].pid > 0 && !rd->f[i].gone &&
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
		if (rd->f[i].pid <= 0 && i != rd->decided)
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
	if (rd->f[slot].gone) {
		/* Its command could not be run: that decides the round. */
		rd->decided = slot;
		cancel_others(rd, slot);
	}
	return 0;
}

/*
 * Waits for the round's next event until at, feeding the replayed stdin
 * meanwhile.  A stdin that cannot be kept (st->err says why) ends every
 * attempt it feeds, and the round, as it ends a single attempt.
 */
static void
wait_round(struct round *rd, int64_t at)
{
	struct hedge_run *h = rd->h;
	struct pollfd pfd[FEED_WATCH_MAX];
	nfds_t n;
	bool broken = false;

	n = streams_wait_watch(h->st, pfd);
	if (wait_until(pfd, n, at) <= 0)
		return;
	for (nfds_t i = 0; i < n; i++)
		if (streams_wait_serve(h->st, &pfd[i]) == -1)
			broken = true;
	if (!broken)
		return;
	/* Stopped before their input ends: an attempt must not take a
	 * stdin cut short for the whole of it. */
	for (int i = 0; i < HEDGE_N_MAX; i++) {
		struct flight *f = &rd->f[i];

		if (f->pid <= 0 || f->gone || f->r.aborted)
			continue;
		f->r.aborted = true;
		stop(h, f, h->c->signal);
	}
	hedge_stdin_stop(h->st);
	if (rd->decided < 0)
		rd->decided = youngest(rd);
	rd->no_more = true;
}

int
hedge_attempt(struct hedge_run *h, struct attempt_result *r)
{
	static struct round rd;
	int64_t at, now;
	struct flight *f;
	bool passed = false;

	memset(r, 0, sizeof(*r));
	memset(&rd, 0, sizeof(rd));
	memset(&h->st->result, 0, sizeof(h->st->result));
	rd.h = h;
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
	if (rd.f[0].gone)
		rd.decided = 0;
	for (;;) {
		reap(&rd);
		/* The deciding attempt's output goes out as soon as it has
		 * ended, while the others are still being stopped and
		 * reaped: a loser that ignores the signal holds up neither
		 * it nor the next command of a script. */
		if (!passed && rd.decided >= 0 && rd.f[rd.decided].gone) {
			pass_on(h, &rd.f[rd.decided]);
			passed = true;
			/* Its wait for a slow reader took the ends of others
			 * that came meanwhile: they are reaped now, not at
			 * --kill-after. */
			continue;
		}
		if (rd.decided >= 0 && rd.live == 0)
			break;
		forward(&rd);
		if (signal_stop != 0 && rd.decided < 0)
			rd.decided = youngest(&rd);
		if ((at = hedge_more(&rd)) == 0)
			continue;
		now = mono_ns();
		for (int i = 0; i < HEDGE_N_MAX; i++) {
			f = &rd.f[i];
			if (f->pid <= 0 || f->gone)
				continue;
			if (f->deadline >= 0 && now >= f->deadline) {
				f->r.timed_out = true;
				stop(h, f, h->c->signal);
			}
			if (f->kill_at >= 0 && now >= f->kill_at) {
				signal_group(-f->pid, SIGKILL);
				f->kill_at = -1;
			}
			at = earliest(at, earliest(f->deadline, f->kill_at));
		}
		wait_round(&rd, at);
	}
	hedge_stdin_stop(h->st);
	/* A Ctrl-Z as the last attempt ended: retry stops, alone now. */
	if (signals_catch_stop(false))
		signals_suspend(false);
	f = &rd.f[rd.decided];
	if (!passed)
		pass_on(h, f);
	close_held(f);
	/* The hooks see the deciding attempt, as after a single one. */
	env_unset(VAR_HEDGED);
	env_set(VAR_ATTEMPT, f->n, false);
	env_set(VAR_ELAPSED_MS, (uint64_t)f->start / 1000000, false);
	*r = f->r;
	/* A signal that ends the run went to every attempt in flight. */
	for (int i = 0; i < HEDGE_N_MAX; i++)
		if (r->forwarded && rd.f[i].r.forwarded)
			r->in_flight++;
	h->st->result = f->scan;
	if (r->interrupted == 0)
		r->interrupted = signal_stop;
	h->n = f->n;
	h->start = f->start;
	policy_hedged(h->pol, *h->made);
	return 0;
}
