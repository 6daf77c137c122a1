/* The retry loop. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdnoreturn.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include "duration.h"
#include "engine.h"
#include "loop.h"
#include "report.h"
#include "signals.h"
#include "spawn.h"
#include "streams.h"
#include "verdict.h"

/*
 * The terminal goes to each attempt when retry runs in its foreground and
 * reads it, so that interactive commands and Ctrl-C work as without retry.
 * When stdout is a pipe, the next command of the pipeline (a pager) shares
 * retry's process group and needs the terminal: the attempt then gets it
 * only once it tries to read it.
 */
static int
terminal(bool *hand_over)
{
	struct stat st;
	int fd;

	if (!isatty(STDIN_FILENO))
		return -1;
	if ((fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)) == -1)
		return -1;
	if (tcgetpgrp(fd) != getpgrp()) {
		close(fd);
		return -1;
	}
	*hand_over = fstat(STDOUT_FILENO, &st) != 0 || !S_ISFIFO(st.st_mode);
	return fd;
}

/*
 * Each variable has a buffer of its own that putenv(3) puts in the
 * environment and that is rewritten in place: glibc's setenv(3) keeps every
 * value it was ever given, so memory would grow with every attempt.
 */
static void
setenv_u(const char *name, uint64_t v)
{
	static struct {
		const char	*name;
		char		 buf[48];
	} vars[8];
	size_t i;

	for (i = 0; i < sizeof(vars) / sizeof(vars[0]) - 1 &&
	    vars[i].name != NULL && strcmp(vars[i].name, name) != 0; i++)
		;
	vars[i].name = name;
	snprintf(vars[i].buf, sizeof(vars[i].buf), "%s=%" PRIu64, name, v);
	putenv(vars[i].buf);
}

/* The state of a run. */
struct run {
	const struct config *c;
	struct rules	 rules;
	struct streams	 st;
	struct attempt_opts ao;
	struct engine	 e;
	struct rng	*rng;
	int64_t		 t0;
	unsigned long	 n;		/* the attempt, from 1 or a reset */
	const char	*name;		/* the command's, for ps */
};

static void
title(const struct run *run, const char *what, int64_t delay)
{
	char d[DURATION_BUFSZ], n[48];
	const unsigned long max = run->c->backoff.max_attempts;

	if (max > 0 && !run->c->forever)
		snprintf(n, sizeof(n), "%lu/%lu", run->n, max);
	else
		snprintf(n, sizeof(n), "%lu", run->n);
	if (delay >= 0)
		setproctitle("%s: attempt %s %s, next in %s", run->name, n,
		    what, duration_format(delay, d, sizeof(d)));
	else
		setproctitle("%s: attempt %s %s", run->name, n, what);
}

/*
 * Sleeps until the deadline; a signal ends the sleep at once.  On a
 * terminal, a sleep of more than a second counts down on one line.
 */
static int
sleep_until(const struct config *c, int64_t deadline)
{
	const bool countdown = deadline - mono_ns() > NS_PER_SEC &&
	    report_countdown(c, -1);
	int64_t now, tick;

	while (signal_stop == 0 && (now = mono_ns()) < deadline) {
		tick = deadline;
		if (countdown) {
			report_countdown(c, deadline - now);
			/* Next at the next whole second left. */
			tick = deadline - ((deadline - now - 1) / NS_PER_SEC) *
			    NS_PER_SEC;
			if (tick <= now)
				tick = deadline;
		}
		signals_wait(NULL, 0, tick);
	}
	if (countdown)
		report_countdown(c, 0);
	return signal_stop;
}

static int
cannot_run(const struct config *c, int e)
{
	const char *cmd = c->args[0];

	if (e == ENOENT && strchr(cmd, '/') == NULL) {
		report_error(c, "%s: command not found", cmd);
		return 127;
	}
	report_error(c, "%s: %s", cmd, strerror(e));
	return e == ENOENT || e == ENOTDIR ? 127 : 126;
}

/* A run that did not succeed never exits 0, even when its last attempt
 * did (a failure by its output, or by --success-on). */
static int
unsuccessful(int status)
{
	return status == 0 ? 1 : status;
}

/* The end of the run: the held stdout goes out, then the status. */
static int
finish(struct run *run, int status)
{
	streams_release(&run->st, true);
	streams_free(&run->st);
	return status;
}

static noreturn void
die(struct run *run, int sig)
{
	streams_release(&run->st, true);
	signals_die(sig);
}

/*
 * --on-retry and --on-giveup: sh -c CMD, its stdin /dev/null and its stdout
 * retry's stderr, under the same --timeout as an attempt.  Its failure is
 * reported and changes nothing else.
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
	setenv_u("RETRY_STATUS", (uint64_t)last->status);
	setenv_u("RETRY_DELAY_MS", delay >= 0 ? (uint64_t)delay / 1000000 : 0);
	ao.argv = argv;
	ao.tty = -1;
	ao.hand_over = false;
	ao.stdio[0] = open("/dev/null", O_RDONLY | O_CLOEXEC);
	ao.stdio[1] = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 0);
	ao.stdio[2] = -1;
	ao.watch[0] = ao.watch[1] = -1;
	ao.timeout = run->c->timeout;
	if (attempt_run(&ao, &r) == -1)
		report_error(run->c, "%s: cannot run: %s", option,
		    strerror(errno));
	else if (r.interrupted != 0)
		die(run, r.interrupted);
	else if (r.timed_out)
		report_error(run->c, "%s: timed out", option);
	else if (r.signal != 0)
		report_error(run->c, "%s: killed by signal %d", option,
		    r.signal);
	else if (r.status != 0)
		report_error(run->c, "%s: exit %d", option, r.status);
	unsetenv("RETRY_STATUS");
	unsetenv("RETRY_DELAY_MS");
}

/* The delay the command asked for (Retry-After), capped; -1 for none. */
static int64_t
asked_delay(const struct run *run)
{
	const struct config *c = run->c;
	const struct scan_result *res = &run->st.result;
	const char *why;
	int64_t ns;

	if (c->delay_pattern == NULL || !res->captured)
		return -1;
	if ((why = delay_parse(res->capture, time(NULL), &ns)) != NULL) {
		report_error(c, "--delay-from-output: '%s': %s", res->capture,
		    why);
		return -1;
	}
	if (c->backoff.max_delay >= 0 && ns > c->backoff.max_delay)
		ns = c->backoff.max_delay;
	return ns;
}

/* Runs attempt n; 0, or -1 with the run's exit status in *exit. */
static int
attempt(struct run *run, struct attempt_result *r, int *exit)
{
	const struct config *c = run->c;
	const int64_t start = mono_ns(), elapsed = start - run->t0;
	struct report ev = { .event = EV_START, .attempt = run->n };

	setenv_u("RETRY_ATTEMPT", run->n);
	setenv_u("RETRY_ELAPSED_MS", (uint64_t)elapsed / 1000000);
	run->ao.timeout = c->timeout;
	if (c->timeout >= 0 && c->budget >= 0 &&
	    c->budget - elapsed < run->ao.timeout)
		run->ao.timeout = c->budget > elapsed ? c->budget - elapsed : 0;
	report(c, &ev);
	title(run, "running", -1);
	if (streams_attempt(&run->st, &run->ao) == -1) {
		report_error(c, "%s", run->st.err);
		*exit = finish(run, 125);
		return -1;
	}
	if (attempt_run(&run->ao, r) == -1) {
		report_error(c, "cannot start %s: %s", c->args[0],
		    strerror(errno));
		*exit = finish(run, 125);
		return -1;
	}
	if (r->exec_errno != 0) {
		*exit = finish(run, cannot_run(c, r->exec_errno));
		return -1;
	}
	if (r->interrupted != 0)
		die(run, r->interrupted);
	if (run->st.err[0] != '\0') {
		/* The output could not be passed on or kept. */
		report_error(c, "%s", run->st.err);
		*exit = finish(run, 125);
		return -1;
	}
	setenv_u("RETRY_LAST_STATUS", (uint64_t)r->status);
	return 0;
}

int
loop_run(const struct config *c, struct rng *rng)
{
	struct run run = {
		.c = c, .rng = rng, .t0 = mono_ns(),
		.rules = { &c->success_on, &c->retry_on, &c->stop_on,
		    c->output.set },
		.ao = { .argv = c->args, .signal = c->signal,
		    .kill_after = c->kill_after },
	};
	struct attempt_result r;
	struct report ev;
	struct outcome out;
	struct delay d;
	int64_t start, end, asked;
	int sig, status;
	char why[512];

	run.name = strrchr(c->args[0], '/') != NULL ?
	    strrchr(c->args[0], '/') + 1 : c->args[0];
	if (report_open(c, why, sizeof(why)) == -1) {
		/* A bad option value, said as the others are. */
		fprintf(stderr, "retry: %s\nTry 'retry --help'.\n", why);
		return 125;
	}
	if (streams_init(&run.st, c) == -1) {
		report_error(c, "%s", run.st.err);
		return finish(&run, 125);
	}
	run.ao.tty = terminal(&run.ao.hand_over);
	engine_init(&run.e, &c->backoff, rng, 0);
	setenv_u("RETRY_MAX_ATTEMPTS", c->backoff.max_attempts);
	setenv("RETRY_LAST_STATUS", "", 1);
	for (run.n = 1;; run.n++) {
		start = mono_ns();
		if (attempt(&run, &r, &status) == -1)
			return status;
		end = mono_ns();
		/* A long enough attempt starts everything over. */
		if (c->reset_after >= 0 && end - start >= c->reset_after &&
		    run.n > 1) {
			engine_init(&run.e, &c->backoff, rng, 0);
			run.n = 1;
		}
		ev = (struct report){ .attempt = run.n, .result = &r,
		    .duration = end - start, .elapsed = end - run.t0,
		    .delay = -1 };
		out = verdict(&run.rules, r.status, r.signal,
		    run.st.result.matched);
		ev.reason = out.reason;
		if (out.verdict == V_STOP) {
			ev.event = EV_STOP;
			report(c, &ev);
			/* Die of Ctrl-C too, so a calling shell loop stops. */
			if (out.reason == WHY_INTERRUPTED)
				die(&run, r.signal);
			hook(&run, "--on-giveup", c->on_giveup, &r, -1);
			/* A --stop-on status is the user's own choice. */
			return finish(&run, out.reason == WHY_STOP_ON ?
			    r.status : unsuccessful(r.status));
		}
		if (out.verdict == V_SUCCESS && !c->forever) {
			ev.event = EV_SUCCEEDED;
			report(c, &ev);
			return finish(&run, 0);
		}
		if (out.verdict == V_SUCCESS) {
			d = engine_success(&run.e, (double)(end - run.t0) / 1e9);
			ev.event = EV_SUCCEEDED;
		} else {
			d = engine_failure(&run.e, (double)(end - run.t0) / 1e9);
			ev.event = EV_FAILED;
			if (d.ns >= 0 && (asked = asked_delay(&run)) >= 0) {
				d.ns = asked;
				ev.asked = true;
			}
		}
		if (d.ns < 0 || (c->backoff.max_actual_duration > 0 &&
		    (double)(end - run.t0) / 1e9 >=
		    c->backoff.max_actual_duration)) {
			ev.give_up = d.ns < 0 && c->backoff.max_attempts > 0 &&
			    run.e.k >= c->backoff.max_attempts ? GIVE_UP_MAX :
			    GIVE_UP_DURATION;
		} else if (c->budget >= 0 &&
		    sat_add(end - run.t0, d.ns) > c->budget)
			ev.give_up = GIVE_UP_BUDGET;
		else
			ev.give_up = GIVE_UP_NONE;
		if (ev.give_up != GIVE_UP_NONE) {
			ev.event = EV_GIVE_UP;
			report(c, &ev);
			if (out.verdict == V_SUCCESS)
				return finish(&run, 0);
			hook(&run, "--on-giveup", c->on_giveup, &r, -1);
			return finish(&run, unsuccessful(r.status));
		}
		/* An earlier attempt's held stdout goes to stderr. */
		streams_release(&run.st, false);
		ev.delay = d.ns;
		report(c, &ev);
		if (out.verdict != V_SUCCESS)
			hook(&run, "--on-retry", c->on_retry, &r, d.ns);
		title(&run, out.verdict == V_SUCCESS ? "succeeded" : "failed",
		    d.ns);
		if ((sig = sleep_until(c, sat_add(end, d.ns))) != 0)
			die(&run, sig);
	}
}
