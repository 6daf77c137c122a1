/*
 * The retry loop: every step (the start, an attempt, a sleep, shared
 * state's gate) observes, asks the policy, says what it decided and
 * returns the decision; loop_run carries each out, and end_run ends the
 * run, the one function that does.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clock.h"
#include "duration.h"
#include "env.h"
#include "exits.h"
#include "hedge.h"
#include "hooks.h"
#include "loop.h"
#include "mathlib.h"
#include "output.h"
#include "policy.h"
#include "probe.h"
#include "report.h"
#include "resultfile.h"
#include "shared.h"
#include "signals.h"
#include "sleep.h"
#include "spawn.h"
#include "streams.h"
#include "title.h"

/*
 * The terminal goes to each attempt when retry runs in its foreground and
 * reads it, or when output rules read what goes to it (scan), so that
 * interactive commands and Ctrl-C work as without retry.
 * When stdout is a pipe, the next command of the pipeline (a pager) shares
 * retry's process group and needs the terminal: the attempt then gets it
 * only once it tries to read it.  Started in the background, retry keeps
 * the terminal too, for a shell's fg to give it to the attempt.  Where
 * retry's parent shares its process group (make -j, xargs -P, a script),
 * retry leads no job of its own and the terminal's foreground is not its
 * to move: each attempt stays in retry's group, as with --foreground,
 * where Ctrl-C reaches it with its siblings and it may read the terminal.
 */
static int
open_terminal(bool *hand_over, bool scan)
{
	struct stat st;

	if (!isatty(STDIN_FILENO) && !(scan && (isatty(STDOUT_FILENO) ||
	    isatty(STDERR_FILENO))))
		return -1;
	*hand_over = fstat(STDOUT_FILENO, &st) != 0 || !S_ISFIFO(st.st_mode);
	return open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC);
}

/* The state of a run: what the policy decides, and what the edge does. */
struct run {
	const struct config *c;
	const struct reporter *rep;
	struct policy	 pol;
	struct streams	 st;
	struct attempt_opts ao;
	struct hooks	 hooks;
	int64_t		 t0;
	bool		 piped;		/* stdout is a pipe, FIFO or socket, and
					 * SIGPIPE ends a pipeline */
	unsigned long	 judged;	/* the last attempt the policy judged */
	unsigned long	 made;		/* attempts made, never started over */
	unsigned long	 failures;	/* of them, those judged failures */
	unsigned long	 hedged;	/* --hedge: the round's decider, or 0 */
	double		 tokens;	/* the shared budget's, when it ended
					 * the run */
	bool		 probing;	/* this attempt probes the breaker */
	enum gate_why	 waiting;	/* what the gate's wait said it is for,
					 * before this attempt */
	int64_t		 wait_said;	/* how long that wait was, ns, or -1 */
	struct attempt_result result;	/* the last attempt's */
	struct observed	 seen;		/* what was observed of it */
	const struct attempt_result *last;	/* result, once there is one */
	struct report	 said;		/* the last event said of an attempt or
					 * a wait: the reader gone since, it
					 * is said again as the end */
	struct report	 after;		/* said after the attempt's report:
					 * what it did to the breaker */
	char		*command;	/* retry's command line, for ps */
	char		 cause[256];	/* why the attempt could not start */
	struct shared	*sh;		/* --share's state, made only then */
	struct logfile	*res;		/* --result-file, or NULL */
};

/* Whether the reader of retry's stdout or stderr (a pipe, a FIFO or a
 * socket) has gone, when a pipeline would end for it. */
static bool
reader_is_gone(const struct run *run)
{
	return signals_pipe_default() && (run->st.gone[0] || run->st.gone[1] ||
	    out_gone(STDOUT_FILENO) || out_gone(STDERR_FILENO));
}

/* The held output goes on (to stdout if out; with --only-last, if last),
 * and what the attempt left running goes on writing; what went wrong is
 * noted in o: a signal came, the output could not be written (why in
 * st.err), or its reader has gone (as a pipeline, retry then dies). */
static void
settle_output(struct run *run, bool out, bool last, struct observed *o)
{
	if (streams_settle(&run->st, out, last) == 0)
		return;
	o->received = signal_stop;
	o->own_error = run->st.err[0] != '\0';
	o->reader_gone = out && reader_is_gone(run);
}

/* What is said of the end that x makes of the run, where the policy
 * halted it: r, the attempt during which a signal came (o says when it
 * ran), or NULL between attempts. */
static void
say_halt(const struct run *run, const struct next *x,
    const struct observed *o, const struct attempt_result *r)
{
	const char *cmd = run->c->args[0];
	struct report ev;

	switch (x->end) {
	case FIN_SIGNAL:
		ev = (struct report){ .event = REP_SIGNAL,
		    .attempt = r != NULL ? run->pol.n : run->judged,
		    .result = r, .duration = r != NULL ? o->end - o->start : 0,
		    .elapsed = mono_ns() - run->t0, .delay = -1,
		    .received = x->status };
		report(run->rep, &ev);
		return;
	case FIN_READER_GONE:
		/* The run ends because its output's reader has gone: retry
		 * dies of SIGPIPE, as any writer of a pipeline whose reader
		 * went away. */
		ev = run->said;
		ev.event = REP_STOP;
		ev.reason = WHY_READER_GONE;
		ev.delay = -1;
		report(run->rep, &ev);
		return;
	case FIN_CANNOT_RUN:
		report_cannot_run(run->rep, cmd, o->exec_errno);
		return;
	case FIN_OWN_ERROR:
		report_error(run->rep, "%s", run->st.err);
		return;
	default:
		return;
	}
}

/* Whether a signal (sig, or 0) came to retry while it ran something of
 * its own (a hook, a store, its set-up): x, or the end of the run. */
static struct next
check_signal(const struct run *run, struct next x, int sig)
{
	const struct observed o = { .received = sig };

	if (sig == 0)
		return x;
	x = policy_halt(x, &o);
	say_halt(run, &x, &o, NULL);
	return x;
}

/* An attempt that could not be started fails as any other, with
 * STATUS_CANCELED. */
static void
fail_start(struct run *run, struct attempt_result *r, const char *why)
{
	memset(r, 0, sizeof(*r));
	r->status = STATUS_CANCELED;
	snprintf(run->cause, sizeof(run->cause), "%s", why);
	run->st.err[0] = '\0';
}

/* The title ps shows of attempt n: what it is doing, and the delay to the
 * next (ns, or -1). */
static void
title(const struct run *run, unsigned long n, const char *what, int64_t delay)
{
	const struct config *c = run->c;

	set_title(run->command != NULL ? run->command : c->args[0], n,
	    c->limits.forever ? 0 : c->backoff.max_attempts, what, delay);
}

/* Runs attempt n (run->pol.n), observed in run->result and run->seen. */
static void
observe_attempt(struct run *run)
{
	const struct config *c = run->c;
	int64_t start = mono_ns() - run->t0;
	struct hedge_run h = { .c = c, .rep = run->rep, .pol = &run->pol,
	    .sh = run->sh, .st = &run->st, .ao = &run->ao, .t0 = run->t0,
	    .made = &run->made, .failures = &run->failures,
	    .probing = run->probing };
	struct attempt_result *r = &run->result;
	struct observed *o = &run->seen;
	struct report ev = { .event = REP_START, .attempt = run->pol.n,
	    .elapsed = start, .delay = -1 };
	char why[256];

	run->made++;
	run->waiting = WAIT_NONE;
	run->wait_said = -1;
	env_set(VAR_ATTEMPT, run->pol.n, false);
	env_set(VAR_ELAPSED_MS, (uint64_t)start / 1000000, false);
	run->ao.timeout = policy_timeout(&run->pol, start);
	run->cause[0] = '\0';
	report(run->rep, &ev);
	title(run, run->pol.n, "running", -1);
	if (c->probe.kind != PROBE_NONE)
		probe_attempt(c, run->rep, run->ao.timeout, start, r);
	else if (c->hedge.delay > 0) {
		if (hedge_attempt(&h, r) == -1)
			fail_start(run, r, h.err);
		run->hedged = h.n;
		start = h.start;
	} else if (streams_attempt(&run->st, &run->ao) == -1)
		fail_start(run, r, run->st.err);
	else if (attempt_run(&run->ao, r) == -1) {
		snprintf(why, sizeof(why), "%s", strerror(errno));
		fail_start(run, r, why);
	}
	streams_after(&run->st);
	/* own_error: the output could not be passed on or kept (st.err
	 * says why). */
	*o = (struct observed){ .status = r->status, .signal = r->signal,
	    .start = start, .end = mono_ns() - run->t0,
	    .exec_errno = r->exec_errno, .received = r->interrupted,
	    .own_error = run->st.err[0] != '\0' };
	if (o->exec_errno != 0 || o->received != 0 || o->own_error)
		return;
	report_limited(run->rep, run->st.result.limited);
	env_set(VAR_LAST_STATUS, (uint64_t)r->status, false);
	o->end_s = (double)o->end / 1e9;
	memcpy(o->matched, run->st.result.matched, sizeof(o->matched));
	o->at_terminal = r->foreground && isatty(STDOUT_FILENO);
	if (rule_given(&c->verdict.output, RULE_CAPTURE) &&
	    run->st.result.captured) {
		o->capture = run->st.result.capture;
		o->wall = wall_ns();
	}
	/* A hedged attempt writes to its spool: retry met the reader gone. */
	o->reader_gone = (r->signal == SIGPIPE || r->status == 128 + SIGPIPE ||
	    run->hedged != 0) && reader_is_gone(run);
}

/* --share, after an attempt: counted, with what it changed kept to be
 * said; the policy then judges the store's answer. */
static struct next
record_result(struct run *run, const struct observed *o, struct next x)
{
	const bool success = x.outcome.verdict == V_SUCCESS;
	struct report ev = { .event = REP_SHARE, .attempt = x.attempt,
	    .elapsed = o->end, .delay = -1, .wait = -1 };
	struct record_answer a;
	enum shared_said got;

	got = shared_record(run->sh, success, x.what == NEXT_SLEEP &&
	    !success, x.others, success ? o->end - o->start : -1, &a,
	    &run->tokens);
	report_news(run->rep, run->sh, NULL);
	if (got == SHARED_ANSWERED) {
		if (a.opened || a.closed) {
			ev.shared = a.closed ? SE_CLOSED : run->probing ?
			    SE_REOPENED : SE_OPENED;
			ev.tokens = run->tokens;
			run->after = ev;
		}
		run->probing = false;
	}
	return policy_shared(&run->pol, x, o, got == SHARED_ANSWERED ? &a :
	    NULL, got == SHARED_DOWN, mono_ns() - run->t0);
}

/* What the attempt did to the shared breaker, after the attempt's own
 * report. */
static void
say_after(struct run *run)
{
	if (run->after.event == REP_SHARE)
		report(run->rep, &run->after);
	run->after.event = REP_START;
}

/* Before a retry: what the attempt read of stdin is said, then
 * --on-retry runs, and the title says what comes. */
static struct next
prepare_retry(struct run *run, struct next x)
{
	if (x.outcome.verdict != V_SUCCESS) {
		if (streams_stdin_used(&run->st))
			report_error(run->rep, "attempt %lu read stdin: the "
			    "next attempt will not see that input again "
			    "(--stdin replay gives every attempt all of it)",
			    x.attempt);
		x = check_signal(run, x, hook_run(&run->hooks, "--on retry",
		    &run->c->on_retry, run->last, x.delay.ns));
		x = policy_late(&run->pol, x, &run->seen, mono_ns() - run->t0);
		if (x.what == NEXT_EXIT && x.give_up == GIVE_UP_DEADLINE)
			report_late_end(run->rep, run->said, x.give_up,
			    mono_ns() - run->t0);
		if (x.what != NEXT_SLEEP)
			return x;
	}
	title(run, x.attempt, x.outcome.verdict == V_SUCCESS ? "succeeded" :
	    "failed", x.delay.ns);
	return x;
}

/*
 * The judgement x on the attempt, said: its held output first (a
 * success's to stdout, a failure's to stderr), which may end the run
 * instead, then the attempt's event and what it did to the breaker (before
 * the event, when the event ends the run).
 */
static struct next
say_judgement(struct run *run, struct next x)
{
	struct observed *o = &run->seen;
	struct report ev = { .attempt = x.attempt, .made = run->made,
	    .result = run->last, .duration = o->end - o->start,
	    .elapsed = o->end, .delay = -1, .reason = x.outcome.reason,
	    .verdict_why = x.outcome.reason,
	    .failures = run->failures, .give_up = x.give_up,
	    .asked = x.asked, .hinted = x.hinted, .wanted = x.wanted,
	    .strategy = x.strategy, .tokens = run->tokens, .limit = x.limit,
	    .streak = x.streak,
	    .cause = run->cause[0] != '\0' ? run->cause : NULL };

	run->said = ev;
	if (x.what == NEXT_DIE) {
		/* Ctrl-C, a pager quit, or the reader gone: as the
		 * pipeline. */
		ev.event = REP_STOP;
		report(run->rep, &ev);
		return x;
	}
	settle_output(run, x.what == NEXT_EXIT ? x.succeeded :
	    x.outcome.verdict == V_SUCCESS && !x.pending, x.what == NEXT_EXIT,
	    o);
	if ((x = policy_halt(x, o)).end == FIN_OWN_ERROR)
		say_halt(run, &x, o, NULL);
	/* A signal, or the reader gone, as it was written: nothing more is
	 * said. */
	if (x.end != FIN_NONE && x.end != FIN_VERDICT)
		return x;
	if (x.what == NEXT_EXIT)
		/* A --forever run that --budget ends after a success ends as
		 * any successful run. */
		ev.event = x.succeeded ? REP_SUCCEEDED :
		    x.give_up != GIVE_UP_NONE ? REP_GIVE_UP :
		    x.outcome.verdict == V_STOP ? REP_STOP : REP_SUCCEEDED;
	else {
		ev.event = x.outcome.verdict == V_SUCCESS ? REP_SUCCEEDED :
		    REP_FAILED;
		ev.delay = x.delay.ns;
	}
	/* What the attempt did to the breaker comes before the line that
	 * ends the run: the closing line is the last. */
	if (x.what == NEXT_EXIT)
		say_after(run);
	report(run->rep, &ev);
	run->said = ev;
	say_after(run);
	return x;
}

/*
 * Attempt n (run->pol.n): run, judged, counted by shared state, and the
 * judgement said; then, before a retry, what comes with one.  What came
 * to retry during the attempt ends the run before it is counted; its
 * reader gone is said as the attempt's stop.
 */
static struct next
run_attempt(struct run *run)
{
	struct observed *o = &run->seen;
	struct next x;

	observe_attempt(run);
	run->last = &run->result;
	x = policy_next(&run->pol, o);
	if (run->hedged != 0)
		x.attempt = run->hedged;
	if (x.end != FIN_NONE && x.end != FIN_VERDICT &&
	    x.end != FIN_READER_GONE) {
		/* A signal before the attempt could start: said as between
		 * attempts, or before the first. */
		say_halt(run, &x, o, run->last->unstarted ? NULL : run->last);
		return x;
	}
	if (run->sh != NULL && run->sh->on && x.counted)
		x = record_result(run, o, x);
	run->judged = x.attempt;
	if (x.outcome.verdict != V_SUCCESS)
		run->failures++;
	if (x.unusable != NULL)
		report_error(run->rep, "--output delay: '%s': %s",
		    o->capture, x.unusable);
	x = say_judgement(run, x);
	return x.what == NEXT_SLEEP ? prepare_retry(run, x) : x;
}

/*
 * --share, before attempt n: shared state's gate, and the policy's
 * judgement of its answer.  The breaker may hold the attempt until it
 * half-opens or another run's probe ends, and another run's not-before
 * until then; each wait is said once an attempt, and an end of the run
 * with the wait said before it.
 */
static struct next
ask_gate(struct run *run)
{
	struct report ev = { .event = REP_SHARE, .attempt = run->pol.n,
	    .delay = -1, .wait = run->wait_said };
	struct gate_answer g = { GATE_GO, WAIT_NONE, 0 };
	enum shared_said got;
	struct next x;

	got = shared_gate(run->sh, &g);
	report_news(run->rep, run->sh, NULL);
	ev.elapsed = mono_ns() - run->t0;
	ev.waited = g.why;
	run->said = ev;
	x = policy_gate(&run->pol, got == SHARED_ANSWERED ? &g : NULL,
	    got == SHARED_DOWN, ev.elapsed);
	/* The store was waited for, and a signal came. */
	if (signal_stop != 0)
		return check_signal(run, x, signal_stop);
	switch (x.end) {
	case FIN_SHARE_OPEN:
		ev.shared = SE_GIVE_UP_OPEN;
		break;
	case FIN_SHARE_PAST_BUDGET:
		ev.shared = SE_PAST_BUDGET;
		ev.give_up = x.give_up;
		break;
	case FIN_SHARE_DOWN:
		ev.shared = SE_STORE_DOWN;
		break;
	default:
		if (x.probe) {
			ev.shared = SE_PROBE;
			ev.wait = -1;
			run->probing = true;
		} else if (x.what == NEXT_SLEEP && x.waited != run->waiting) {
			ev.shared = x.waited == WAIT_OPEN ? SE_WAIT_OPEN :
			    x.waited == WAIT_PROBE ? SE_WAIT_PROBE :
			    SE_WAIT_NOT_BEFORE;
			ev.wait = run->wait_said = g.until;
			run->waiting = x.waited;
		} else
			return x;
		break;
	}
	report(run->rep, &ev);
	return x;
}

/* Attempt n is next: with --share, once shared state lets it start. */
static struct next
admit_attempt(struct run *run)
{
	struct next x = { .what = NEXT_ATTEMPT, .attempt = run->pol.n };

	return run->sh != NULL && run->sh->on ? ask_gate(run) : x;
}

/* Sleeps as x says; a signal, or the reader of stdout gone, ends the run
 * instead, as the policy says.  Then attempt n is next. */
static struct next
sleep_for(struct run *run, struct next x)
{
	struct observed o = { 0 };

	if (!sleep_until(run->rep, &run->st, run->piped,
	    sat_add(run->t0, x.at))) {
		o.own_error = run->st.err[0] != '\0';
		o.reader_gone = !o.own_error;
	}
	o.received = signal_stop;
	if ((x = policy_halt(x, &o)).what != NEXT_SLEEP) {
		say_halt(run, &x, &o, NULL);
		return x;
	}
	return admit_attempt(run);
}

/*
 * A run whose verdict is a success, once its output is let go, says so in
 * one closing line when an attempt of it failed: on which attempt, after
 * how long, with the counts in JSON.  A first attempt that succeeds has
 * nothing to say.
 */
static void
say_recovered(const struct run *run, const struct next *x)
{
	const struct observed *o = &run->seen;
	struct report ev = { .event = REP_DONE, .attempt = x->attempt,
	    .made = run->made, .hedged = run->hedged != 0,
	    .failures = run->failures,
	    .result = run->last, .duration = o->end - o->start,
	    .elapsed = o->end, .delay = -1, .reason = x->outcome.reason,
	    .verdict_why = x->outcome.reason, .give_up = x->give_up };

	if (x->what == NEXT_EXIT && x->end == FIN_VERDICT && x->succeeded &&
	    run->failures > 0)
		report(run->rep, &ev);
}

/*
 * The one place where a run ends, as x says: --on-giveup after a run that
 * gave up, --on-success after one that succeeded, the held output let go
 * (to stdout after a success, else to stderr: a run that never succeeds
 * gives a pipeline nothing), the closing line of a success after
 * failures, a probe of the shared breaker it holds, and --result-file;
 * then the exit status is returned, or retry dies of the signal, as if it
 * had never caught it.
 */
static int
end_run(struct run *run, struct next x)
{
	struct observed o = { 0 };

	if (x.what == NEXT_EXIT && (x.gave_up || (x.end == FIN_VERDICT &&
	    x.succeeded)))
		x = check_signal(run, x, hook_run(&run->hooks, x.gave_up ?
		    "--on giveup" : "--on success", x.gave_up ?
		    &run->c->on_giveup : &run->c->on_success, run->last, -1));
	if (x.what == NEXT_EXIT) {
		settle_output(run, x.end == FIN_VERDICT && x.succeeded, true,
		    &o);
		if ((x = policy_halt(x, &o)).end == FIN_OWN_ERROR &&
		    o.own_error)
			say_halt(run, &x, &o, NULL);
		say_recovered(run, &x);
	}
	if (run->probing) {
		shared_leave(run->sh);
		report_news(run->rep, run->sh, NULL);
	}
	resultfile_write(run->res, run->rep, &x, run->made, run->last,
	    mono_ns() - run->t0);
	logfile_close(run->res);
	if (x.what == NEXT_DIE) {
		(void)streams_settle(&run->st, false, true);
		report_end(run->rep);
		signals_die(x.status);
	}
	streams_free(&run->st);
	if (run->sh != NULL)
		shared_close(run->sh);
	free(run->sh);
	free(run->command);
	return x.status;
}

/* The run set up: its streams, the terminal, the policy, --share and the
 * hooks.  Its first attempt is next, or the end of a run that cannot be
 * made. */
static struct next
start_run(struct run *run, const struct config *c, const struct reporter *rep,
    struct rng *rng, const bool closed[3])
{
	const struct observed broken = { .own_error = true };
	/* --hedge reads its held output itself (hedge.c): no pipes.  --ci
	 * has the command's stderr pass through retry where it is a pipe (a
	 * runner's), so that a group's end never sticks to a line the
	 * command left open there. */
	static const struct output_rules held;
	const struct streams_opts sto = { .rules = c->hedge.delay > 0 ?
	    &held : &c->verdict.output,
	    .exit_on_match = c->verdict.exit_on_match, .match = c->match,
	    .hold_stdout = c->hold_stdout, .only_last = c->only_last,
	    .relay_stderr = c->hedge.delay == 0 && rep->ci != CI_NONE &&
	    out_piped(STDERR_FILENO), .stdin_mode = c->stdin_mode };
	struct next x = { .what = NEXT_ATTEMPT, .attempt = 1 };
	char why[512];
	int rc;

	run->c = c;
	run->rep = rep;
	run->t0 = mono_ns();
	run->wait_said = -1;
	run->ao.argv = c->args;
	run->ao.signal = c->signal;
	run->ao.kill_after = c->kill_after;
	run->ao.preserve_status = c->preserve_status;
	run->ao.foreground = c->foreground;
	run->command = join_words(c->words, c->nwords);
	policy_init(&run->pol, &c->backoff, &c->limits, &c->verdict, rng);
	hooks_init(&run->hooks, c->signal, &c->limits, run->t0, c->kill_after,
	    rep, closed);
	if (c->result_file != NULL && resultfile_open(&run->res,
	    c->result_file, why, sizeof(why)) == -1) {
		report_error(run->rep, "%s", why);
		return policy_halt(x, &broken);
	}
	if (streams_init(&run->st, &sto, closed, c->args[0]) == -1) {
		if (signal_stop != 0)
			return check_signal(run, x, signal_stop);
		report_error(run->rep, "%s", run->st.err);
		return policy_halt(x, &broken);
	}
	run->ao.tty = open_terminal(&run->ao.hand_over,
	    rules_any(&c->verdict.output));
	if (run->ao.tty >= 0 && getpgid(getppid()) == getpgrp())
		run->ao.foreground = true;
	if (streams_typed(&run->st))
		report_error(run->rep, "--stdin replay: reading the terminal "
		    "to Ctrl-D, for this attempt and the next ones");
	run->piped = signals_pipe_default() && out_piped(STDOUT_FILENO);
	if (c->share != NULL) {
		if ((run->sh = calloc(1, sizeof(*run->sh))) == NULL) {
			report_error(run->rep, "--share %s: %s", c->share,
			    strerror(ENOMEM));
			return policy_halt(x, &broken);
		}
		rc = shared_open(run->sh, &c->shared, true, why, sizeof(why));
		report_news(run->rep, run->sh, c->share);
		if (rc != 0) {
			if (signal_stop != 0)
				return check_signal(run, x, signal_stop);
			if (rc == -1) {
				report_error(run->rep, "--share %s: %s",
				    c->share, why);
				return policy_halt(x, &broken);
			}
			report_error(run->rep, "--share %s: %s; %s", c->share,
			    why, c->share_required ?
			    "--share-required: giving up" :
			    "going on without the shared state");
		}
		shared_end(run->sh, run->t0, c->limits.budget,
		    c->limits.deadline);
	}
	/*
	 * Every library the run needs is loaded before its first attempt,
	 * so that none can fail to load mid-run, nor be found where an
	 * attempt wrote it (an empty element of LD_LIBRARY_PATH is the
	 * current directory): PCRE2 with the options, hiredis and OpenSSL
	 * with the store, libm here, unless the run makes one attempt and
	 * so never computes a delay.
	 */
	if (backoff_uses_pow(&c->backoff) &&
	    (c->backoff.max_attempts != 1 || c->limits.forever) &&
	    math_load(why, sizeof(why)) == -1) {
		report_error(run->rep, "its delays need libm: %s", why);
		return policy_halt(x, &broken);
	}
	env_set(VAR_MAX_ATTEMPTS, c->backoff.max_attempts, false);
	env_set(VAR_LAST_STATUS, 0, true);
	return admit_attempt(run);
}

int
loop_run(const struct config *c, const struct reporter *rep, struct rng *rng,
    const bool closed[3])
{
	/*
	 * Static, so zero without being written: a page never touched costs
	 * a waiting run no memory, nor its start a fault.  The shared state,
	 * 24 KiB, is allocated only for --share.  A process makes one run.
	 */
	static struct run run;
	struct next x;

	/* What the policy decides is carried out here, and only here. */
	for (x = start_run(&run, c, rep, rng, closed);;)
		switch (x.what) {
		case NEXT_ATTEMPT:
			x = run_attempt(&run);
			break;
		case NEXT_SLEEP:
			x = sleep_for(&run, x);
			break;
		case NEXT_EXIT:
		case NEXT_DIE:
			return end_run(&run, x);
		}
}
