/* The retry loop. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdnoreturn.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clock.h"
#include "duration.h"
#include "env.h"
#include "exits.h"
#include "loop.h"
#include "output.h"
#include "policy.h"
#include "report.h"
#include "shared.h"
#include "signals.h"
#include "spawn.h"
#include "streams.h"

/*
 * The terminal goes to each attempt when retry runs in its foreground and
 * reads it, so that interactive commands and Ctrl-C work as without retry.
 * When stdout is a pipe, the next command of the pipeline (a pager) shares
 * retry's process group and needs the terminal: the attempt then gets it
 * only once it tries to read it.  Started in the background, retry keeps
 * the terminal too, for a shell's fg to give it to the attempt.
 */
static int
terminal(bool *hand_over)
{
	struct stat st;

	if (!isatty(STDIN_FILENO))
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
	int64_t		 t0;
	bool		 piped;		/* stdout is a pipe, FIFO or socket, and
					 * SIGPIPE ends a pipeline */
	unsigned long	 judged;	/* the last attempt the policy judged */
	unsigned long	 made;		/* attempts made, never started over */
	double		 tokens;	/* the shared budget's, when it ended
					 * the run */
	bool		 probing;	/* this attempt probes the breaker */
	const struct attempt_result *last;	/* the last attempt's, or
						 * NULL */
	struct report	 after;		/* said after the attempt's report:
					 * what it did to the breaker */
	char		*command;	/* retry's command line, for ps */
	char		 cause[256];	/* why the attempt could not start */
	/* Last, and most of the size: without --share, its pages are never
	 * written. */
	struct shared	 sh;		/* --share */
};

/*
 * retry's command line, its options and the command, joined, for ps:
 * pgrep -f finds a run by it, as before the first title.  Taken before
 * the first title, which writes over argv[0].
 */
static char *
joined(const struct config *c)
{
	size_t len = 1;
	char *s;

	for (int i = 0; i < c->nwords; i++)
		len += strlen(c->words[i]) + 1;
	if ((s = calloc(1, len)) == NULL)
		return NULL;
	for (int i = 0; i < c->nwords; i++) {
		if (i > 0)
			strlcat(s, " ", len);
		strlcat(s, c->words[i], len);
	}
	return s;
}

static void
title(const struct run *run, unsigned long attempt, const char *what,
    int64_t delay)
{
	char d[DURATION_BUFSZ], n[48], next[64] = "";
	const unsigned long max = run->c->backoff.max_attempts;

	if (max > 0 && !run->c->limits.forever)
		snprintf(n, sizeof(n), "%lu/%lu", attempt, max);
	else
		snprintf(n, sizeof(n), "%lu", attempt);
	if (delay >= 0)
		snprintf(next, sizeof(next), ", next in %s",
		    duration_format(delay, d, sizeof(d)));
	/* '-': no "retry: " first; the command line is retry's own. */
	setproctitle("-%s [attempt %s %s%s]", run->command != NULL ?
	    run->command : run->c->args[0], n, what, next);
}

/* Whether the reader of retry's stdout or stderr (a pipe, a FIFO or a
 * socket) has gone, when a pipeline would end for it. */
static bool
reader_gone(const struct run *run)
{
	return signals_pipe_default() && (run->st.gone[0] || run->st.gone[1] ||
	    out_gone(STDOUT_FILENO) || out_gone(STDERR_FILENO));
}

/*
 * Sleeps until the deadline; a signal ends the sleep at once, and so does
 * the reader of stdout going away (false), where a pipeline would end.  On
 * a terminal, a sleep of more than a second counts down on one line.
 */
static bool
sleep_until(const struct run *run, int64_t deadline)
{
	const bool countdown = deadline - mono_ns() > NS_PER_SEC &&
	    countdown_start(run->rep);
	struct pollfd pfd = { STDOUT_FILENO, 0, 0 };
	int64_t now, tick;
	bool gone = false;

	/* At least one wait, so that a signal is seen even between attempts
	 * that follow each other at once. */
	for (now = mono_ns(); signal_stop == 0 && !gone; now = mono_ns()) {
		tick = deadline;
		if (countdown) {
			countdown_show(run->rep, deadline - now);
			/* Next at the next whole second left. */
			tick = deadline - ((deadline - now - 1) / NS_PER_SEC) *
			    NS_PER_SEC;
			if (tick <= now)
				tick = deadline;
		}
		/* Nothing runs to send a signal on to. */
		if (signals_wait(&pfd, run->piped ? 1 : 0, tick) > 0)
			gone = out_gone(STDOUT_FILENO);
		while (signals_take() != 0)
			;
		if (mono_ns() >= deadline)
			break;
	}
	if (countdown)
		countdown_end(run->rep);
	return !gone;
}

static int
cannot_run(const struct run *run, int e)
{
	const char *cmd = run->c->args[0];

	if (e == ENOENT && strchr(cmd, '/') == NULL)
		report_error(run->rep, "%s: command not found", cmd);
	else
		report_error(run->rep, "%s: %s", cmd, strerror(e));
	return policy_cannot_run(e);
}

/*
 * The held stdout goes to stdout (out) or stderr, and what the attempt left
 * running goes on writing; -1 when that failed: its reader has gone (as a
 * pipeline, retry then dies of SIGPIPE where its output matters), or with
 * the reason in st.err.
 */
static int
settle(struct run *run, bool out)
{
	if (streams_settle(&run->st, out) == 0)
		return 0;
	if (signal_stop != 0) {
		report_end(run->rep);
		signals_die(signal_stop);
	}
	if (run->st.err[0] != '\0')
		return -1;
	if (out && reader_gone(run)) {
		report_end(run->rep);
		signals_die(SIGPIPE);
	}
	return 0;
}

/* The end of the run: the held stdout goes out (to stdout after a
 * success, else to stderr: a run that never succeeds gives a pipeline
 * nothing), then the status. */
static int
run_end(struct run *run, int status, bool succeeded)
{
	if (settle(run, succeeded) == -1) {
		report_error(run->rep, "%s", run->st.err);
		status = EXIT_USAGE;
	}
	if (run->probing)
		shared_leave(&run->sh);
	streams_free(&run->st);
	shared_close(&run->sh);
	free(run->command);
	return status;
}

static noreturn void
die(struct run *run, int sig)
{
	if (run->probing)
		shared_leave(&run->sh);
	(void)streams_settle(&run->st, false);
	report_end(run->rep);
	signals_die(sig);
}

/* A signal that ends the run: reported, then retry dies of it. */
static noreturn void
ended_by(struct run *run, int sig, const struct attempt_result *r,
    int64_t duration)
{
	struct report ev = { .event = EV_SIGNAL,
	    .attempt = r != NULL ? run->pol.n : run->judged,
	    .result = r, .duration = duration,
	    .elapsed = mono_ns() - run->t0, .delay = -1, .received = sig };

	report(run->rep, &ev);
	die(run, sig);
}

/* The child's stdio for a hook: /dev/null, and retry's stderr twice. */
static int
hook_stdio(struct run *run, int stdio[3])
{
	const bool *closed = run->st.closed;

	stdio[0] = open("/dev/null", O_RDONLY | O_CLOEXEC);
	stdio[1] = closed[2] ? STDIO_CLOSED :
	    fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 0);
	stdio[2] = closed[2] ? STDIO_CLOSED : STDIO_INHERIT;
	if (stdio[0] != -1 && stdio[1] != -1)
		return 0;
	stdio_close(stdio);
	return -1;
}

/*
 * --on-retry and --on-giveup: sh -c CMD, its stdin /dev/null and its stdout
 * retry's stderr, under the same --timeout as an attempt.  Its failure is
 * reported and changes nothing else; a hook that cannot be set up so is
 * not run.
 */
static void
hook(struct run *run, const char *option, char *cmd,
    const struct attempt_result *last, int64_t delay)
{
	static char sh[] = "/bin/sh", dash_c[] = "-c";
	char *argv[] = { sh, dash_c, cmd, NULL };
	struct attempt_opts ao = run->ao;
	struct attempt_result r;

	if (cmd == NULL)
		return;
	ao.argv = argv;
	ao.tty = -1;
	ao.hand_over = false;
	ao.io = NULL;
	ao.timeout = run->c->limits.timeout;
	if (hook_stdio(run, ao.stdio) == -1) {
		report_error(run->rep, "%s: not run: %s", option,
		    strerror(errno));
		return;
	}
	/* None before the first attempt: the shared breaker held it. */
	if (last != NULL)
		env_set(ENV_STATUS, (uint64_t)last->status, false);
	env_set(ENV_DELAY_MS, delay >= 0 ? (uint64_t)delay / 1000000 : 0,
	    false);
	if (attempt_run(&ao, &r) == -1)
		report_error(run->rep, "%s: not run: %s", option,
		    strerror(errno));
	else if (r.interrupted != 0)
		ended_by(run, r.interrupted, NULL, 0);
	else if (r.timed_out)
		report_error(run->rep, "%s: timed out", option);
	else if (r.signal != 0)
		report_error(run->rep, "%s: killed by signal %d", option,
		    r.signal);
	else if (r.status != 0)
		report_error(run->rep, "%s: exit %d", option, r.status);
	env_unset(ENV_STATUS);
	env_unset(ENV_DELAY_MS);
}

/* A rule that gave up on a line says so, once a run. */
static void
limited(const struct run *run)
{
	static const char *const names[RULE_COUNT] = {
		"--until-output", "--fail-if-output", "--retry-if-output",
		"--stop-if-output", "--delay-from-output",
	};
	static bool said[RULE_COUNT];

	for (int k = 0; k < RULE_COUNT; k++)
		if (run->st.result.limited[k] && !said[k]) {
			said[k] = true;
			report_error(run->rep, "%s: matching took too long on a "
			    "line of output, which counts as not matching",
			    names[k]);
		}
}

/* An attempt that could not be started fails as any other, with
 * EXIT_USAGE. */
static void
not_started(struct run *run, struct attempt_result *r, const char *why)
{
	memset(r, 0, sizeof(*r));
	r->status = EXIT_USAGE;
	snprintf(run->cause, sizeof(run->cause), "%s", why);
	run->st.err[0] = '\0';
}

/* Runs the next attempt; 0, with when it started and ended (ns since the
 * run started) in o, or -1 with the run's exit status in *exit. */
static int
attempt(struct run *run, struct attempt_result *r, struct observed *o,
    int *exit)
{
	const struct config *c = run->c;
	const int64_t start = mono_ns() - run->t0;
	struct report ev = { .event = EV_START, .attempt = run->pol.n,
	    .elapsed = start, .delay = -1 };
	char why[256];

	run->made++;

	env_set(ENV_ATTEMPT, run->pol.n, false);
	env_set(ENV_ELAPSED_MS, (uint64_t)start / 1000000, false);
	run->ao.timeout = policy_timeout(&run->pol, start);
	run->cause[0] = '\0';
	report(run->rep, &ev);
	title(run, run->pol.n, "running", -1);
	if (streams_attempt(&run->st, &run->ao) == -1)
		not_started(run, r, run->st.err);
	else if (attempt_run(&run->ao, r) == -1) {
		snprintf(why, sizeof(why), "%s", strerror(errno));
		not_started(run, r, why);
	}
	streams_after(&run->st);
	*o = (struct observed){ .status = r->status, .signal = r->signal,
	    .start = start, .end = mono_ns() - run->t0 };
	if (r->exec_errno != 0) {
		*exit = run_end(run, cannot_run(run, r->exec_errno), false);
		return -1;
	}
	if (r->interrupted != 0)
		ended_by(run, r->interrupted, r, o->end - o->start);
	if (run->st.err[0] != '\0') {
		/* The output could not be passed on or kept. */
		report_error(run->rep, "%s", run->st.err);
		*exit = run_end(run, EXIT_USAGE, false);
		return -1;
	}
	limited(run);
	env_set(ENV_LAST_STATUS, (uint64_t)r->status, false);
	o->end_s = (double)o->end / 1e9;
	memcpy(o->matched, run->st.result.matched, sizeof(o->matched));
	if (rule_given(&c->verdict.output, RULE_CAPTURE) &&
	    run->st.result.captured) {
		o->capture = run->st.result.capture;
		o->wall = time(NULL);
	}
	o->reader_gone = (r->signal == SIGPIPE || r->status == 128 + SIGPIPE) &&
	    reader_gone(run);
	return 0;
}

/* The run ends because its output's reader has gone: retry dies of
 * SIGPIPE, as any writer of a pipeline whose reader went away. */
static noreturn void
reader_left(struct run *run, struct report *ev)
{
	ev->event = EV_STOP;
	ev->reason = WHY_READER_GONE;
	ev->delay = -1;
	report(run->rep, ev);
	die(run, SIGPIPE);
}

/* The end of a run that did not succeed: --on-giveup, then the status. */
static int
given_up(struct run *run, const struct attempt_result *r, int status)
{
	hook(run, "--on-giveup", run->c->on_giveup, r, -1);
	return run_end(run, status, false);
}

/*
 * --share, before attempt n: the breaker may hold it until it half-opens
 * or another run's probe ends, and another run's not-before until then;
 * each wait is said once, and one that would pass --budget ends the run
 * (75).  0 to go on, or -1 with the run's exit status.
 */
static int
gate(struct run *run, int *exit)
{
	const int64_t budget = run->c->limits.budget;
	struct report ev = { .event = EV_SHARE, .attempt = run->pol.n,
	    .delay = -1, .wait = -1 };
	enum gate_why said = WAIT_NONE;
	enum shared_said got;
	struct gate_answer g;
	int64_t until;

	while ((got = shared_gate(&run->sh, &g)) == SHARED_ANSWERED &&
	    g.what != GATE_GO) {
		ev.elapsed = mono_ns() - run->t0;
		ev.waited = g.why;
		if (g.what == GATE_PROBE) {
			ev.shared = SE_PROBE;
			ev.wait = -1;
			report(run->rep, &ev);
			run->probing = true;
			return 0;
		}
		/* until: how long from now, by the store's clock; at least a
		 * millisecond, whatever a store says. */
		until = mono_ns() + (g.until > NS_PER_MS ? g.until : NS_PER_MS);
		if (g.what == GATE_GIVE_UP || (budget >= 0 &&
		    until - run->t0 > budget)) {
			ev.shared = g.what == GATE_GIVE_UP ? SE_GIVE_UP_OPEN :
			    SE_PAST_BUDGET;
			report(run->rep, &ev);
			*exit = given_up(run, run->last, EXIT_SHARED);
			return -1;
		}
		if (g.why != said) {
			ev.shared = g.why == WAIT_OPEN ? SE_WAIT_OPEN :
			    g.why == WAIT_PROBE ? SE_WAIT_PROBE :
			    SE_WAIT_NOT_BEFORE;
			ev.wait = g.until;
			report(run->rep, &ev);
			said = g.why;
		}
		if (!sleep_until(run, until))
			reader_left(run, &ev);
		if (signal_stop != 0)
			ended_by(run, signal_stop, NULL, 0);
	}
	/* The store was waited for, and a signal came. */
	if (signal_stop != 0)
		ended_by(run, signal_stop, NULL, 0);
	if (got == SHARED_DOWN) {
		ev.elapsed = mono_ns() - run->t0;
		ev.shared = SE_STORE_DOWN;
		report(run->rep, &ev);
		*exit = given_up(run, run->last, EXIT_SHARED);
		return -1;
	}
	return 0;
}

/* What the attempt did to the shared breaker, after the attempt's own
 * report. */
static void
report_after(struct run *run)
{
	if (run->after.event == EV_SHARE)
		report(run->rep, &run->after);
	run->after.event = EV_START;
}

/* --share, after an attempt: counted, with what it changed said; a retry
 * that the shared budget refuses ends the run instead. */
static struct next
recorded(struct run *run, const struct observed *o, struct next x)
{
	const bool success = x.outcome.verdict == V_SUCCESS;
	struct report ev = { .event = EV_SHARE, .attempt = x.attempt,
	    .elapsed = o->end, .delay = -1, .wait = -1 };
	const struct backoff *b = &run->c->backoff;
	struct record_answer a;
	int64_t asked = -1;

	/* What the output asked holds for the others even when this run
	 * waits longer, or ends here. */
	if (x.what == NEXT_SLEEP && x.hinted)
		asked = x.hint;
	else if (x.what == NEXT_EXIT && !success && o->capture != NULL &&
	    delay_parse(o->capture, o->wall, &asked) != NULL)
		asked = -1;
	if (asked > (b->max_delay.ns >= 0 ? b->max_delay.ns : ASKED_MAX))
		asked = b->max_delay.ns >= 0 ? b->max_delay.ns : ASKED_MAX;
	switch (shared_record(&run->sh, success, x.what == NEXT_SLEEP &&
	    !success, asked, &a, &run->tokens)) {
	case SHARED_UNSHARED:
		return x;
	case SHARED_DOWN:
		/* A success stands; a retry needs the store. */
		if (x.what == NEXT_SLEEP && !success)
			x = policy_denied(&run->pol, x, o, GIVE_UP_STORE);
		return x;
	case SHARED_ANSWERED:
		break;
	}
	if (a.opened || a.closed) {
		ev.shared = a.closed ? SE_CLOSED : run->probing ?
		    SE_REOPENED : SE_OPENED;
		ev.tokens = run->tokens;
		run->after = ev;
	}
	run->probing = false;
	if (x.what == NEXT_SLEEP && !success && !a.retry)
		x = policy_denied(&run->pol, x, o, GIVE_UP_SHARED);
	/* The store's time counts against --budget too. */
	return policy_late(&run->pol, x, o, mono_ns() - run->t0);
}


int
loop_run(const struct config *c, const struct reporter *rep, struct rng *rng,
    const bool closed[3])
{
	/*
	 * Static, so zero without being written: most of it, the shared
	 * state's, is used only with --share, and a page never touched costs
	 * a waiting run no memory.  Zeroed on the stack, all of it would be.
	 * A process makes one run.
	 */
	static struct run run;
	struct attempt_result r;
	struct observed o;
	struct report ev;
	struct next x;
	char why[512];
	int status;

	run.c = c;
	run.rep = rep;
	run.t0 = mono_ns();
	run.ao.argv = c->args;
	run.ao.signal = c->signal;
	run.ao.kill_after = c->kill_after;
	run.command = joined(c);
	if (streams_init(&run.st, c, closed, c->args[0]) == -1) {
		if (signal_stop != 0)
			ended_by(&run, signal_stop, NULL, 0);
		report_error(run.rep, "%s", run.st.err);
		return run_end(&run, EXIT_USAGE, false);
	}
	run.ao.tty = terminal(&run.ao.hand_over);
	run.piped = signals_pipe_default() && out_piped(STDOUT_FILENO);
	policy_init(&run.pol, &c->backoff, &c->limits, &c->verdict, rng);
	if (c->share != NULL &&
	    (status = shared_open(&run.sh, c, rep, true, why, sizeof(why))) !=
	    0) {
		if (signal_stop != 0)
			ended_by(&run, signal_stop, NULL, 0);
		if (status == -1) {
			report_error(run.rep, "--share %s: %s", c->share, why);
			return run_end(&run, EXIT_USAGE, false);
		}
		report_error(run.rep, "--share %s: %s; %s", c->share, why,
		    c->share_required ? "--share-required: giving up" :
		    "going on without the shared state");
	}
	if (c->limits.budget >= 0)
		run.sh.end = run.t0 + c->limits.budget;
	env_set(ENV_MAX_ATTEMPTS, c->backoff.max_attempts, false);
	env_set(ENV_LAST_STATUS, 0, true);
	for (;;) {
		if (run.sh.on && gate(&run, &status) == -1)
			return status;
		if (attempt(&run, &r, &o, &status) == -1)
			return status;
		run.last = &r;
		x = policy_next(&run.pol, &o);
		if (run.sh.on && x.what != NEXT_DIE)
			x = recorded(&run, &o, x);
		run.judged = x.attempt;
		if (x.unusable != NULL)
			report_error(run.rep, "--delay-from-output: '%s': %s",
			    o.capture, x.unusable);
		ev = (struct report){ .attempt = x.attempt, .made = run.made,
		    .result = &r, .duration = o.end - o.start,
		    .elapsed = o.end, .delay = -1, .reason = x.outcome.reason,
		    .give_up = x.give_up, .asked = x.asked,
		    .hinted = x.hinted, .wanted = x.wanted,
		    .strategy = x.strategy,
		    .tokens = run.tokens,
		    .cause = run.cause[0] != '\0' ? run.cause : NULL };
		if (x.what == NEXT_DIE) {
			/* Ctrl-C, or the reader gone: as the pipeline. */
			ev.event = EV_STOP;
			report(run.rep, &ev);
			die(&run, x.status);
		}
		/* Held stdout: a success's goes to stdout, a failure's to
		 * stderr, before what is said of the attempt. */
		if (settle(&run, x.outcome.verdict == V_SUCCESS) == -1) {
			report_error(run.rep, "%s", run.st.err);
			return run_end(&run, EXIT_USAGE, false);
		}
		if (x.what == NEXT_EXIT) {
			/* A --forever run that --budget ends after a
			 * success ends as any successful run. */
			ev.event = x.outcome.verdict == V_SUCCESS ?
			    EV_SUCCEEDED : x.give_up != GIVE_UP_NONE ?
			    EV_GIVE_UP : x.outcome.verdict == V_STOP ? EV_STOP :
			    EV_SUCCEEDED;
			report(run.rep, &ev);
			report_after(&run);
			return x.outcome.verdict == V_SUCCESS ?
			    run_end(&run, x.status, true) :
			    given_up(&run, &r, x.status);
		}
		ev.event = x.outcome.verdict == V_SUCCESS ? EV_SUCCEEDED :
		    EV_FAILED;
		ev.delay = x.delay.ns;
		report(run.rep, &ev);
		report_after(&run);
		if (x.outcome.verdict != V_SUCCESS && streams_stdin_used(&run.st))
			report_error(run.rep, "attempt %lu read stdin: the next "
			    "attempt will not see that input again (--stdin "
			    "replay gives every attempt all of it)", x.attempt);
		if (x.outcome.verdict != V_SUCCESS)
			hook(&run, "--on-retry", c->on_retry, &r, x.delay.ns);
		title(&run, x.attempt, x.outcome.verdict == V_SUCCESS ?
		    "succeeded" : "failed", x.delay.ns);
		if (!sleep_until(&run, sat_add(run.t0 + o.end, x.delay.ns)))
			reader_left(&run, &ev);
		if (signal_stop != 0)
			ended_by(&run, signal_stop, NULL, 0);
	}
}
