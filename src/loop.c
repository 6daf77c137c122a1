/* The retry loop. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdnoreturn.h>
#include <stdlib.h>
#include <string.h>
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

static void
setenv_u(const char *name, uint64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	setenv(name, buf, 1);
}

/* Sleeps until the deadline; a signal ends the sleep at once. */
static int
sleep_until(int64_t deadline)
{
	while (signal_stop == 0 && mono_ns() < deadline)
		signals_wait(NULL, 0, deadline);
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
finish(struct streams *s, int status)
{
	streams_release(s, true);
	streams_free(s);
	return status;
}

static noreturn void
die(struct streams *s, int sig)
{
	streams_release(s, true);
	signals_die(sig);
}

int
loop_run(const struct config *c, struct rng *rng)
{
	const struct rules rules = { &c->success_on, &c->retry_on,
	    &c->stop_on, c->output.set };
	struct streams st;
	struct attempt_opts ao = {
		.argv = c->args, .signal = c->signal,
		.kill_after = c->kill_after,
	};
	struct attempt_result r;
	struct report ev;
	struct outcome out;
	struct engine e;
	struct delay d;
	const int64_t t0 = mono_ns();
	int64_t start, end;
	int sig;

	if (streams_init(&st, c) == -1) {
		report_error(c, "%s", st.err);
		return finish(&st, 125);
	}
	ao.tty = terminal(&ao.hand_over);
	engine_init(&e, &c->backoff, rng, 0);
	setenv_u("RETRY_MAX_ATTEMPTS", c->backoff.max_attempts);
	setenv("RETRY_LAST_STATUS", "", 1);
	for (unsigned long n = 1;; n++) {
		start = mono_ns();
		setenv_u("RETRY_ATTEMPT", n);
		setenv_u("RETRY_ELAPSED_MS", (uint64_t)(start - t0) / 1000000);
		ao.timeout = c->timeout;
		if (c->timeout >= 0 && c->budget >= 0 &&
		    c->budget - (start - t0) < ao.timeout)
			ao.timeout = c->budget - (start - t0) > 0 ?
			    c->budget - (start - t0) : 0;
		ev = (struct report){ .event = EV_START, .attempt = n };
		report(c, &ev);
		if (streams_attempt(&st, &ao) == -1) {
			report_error(c, "%s", st.err);
			return finish(&st, 125);
		}
		if (attempt_run(&ao, &r) == -1) {
			report_error(c, "cannot start %s: %s", c->args[0],
			    strerror(errno));
			return finish(&st, 125);
		}
		if (r.exec_errno != 0)
			return finish(&st, cannot_run(c, r.exec_errno));
		if (r.interrupted != 0)
			die(&st, r.interrupted);
		if (st.err[0] != '\0') {
			/* The output could not be passed on or kept. */
			report_error(c, "%s", st.err);
			return finish(&st, 125);
		}
		end = mono_ns();
		setenv_u("RETRY_LAST_STATUS", (uint64_t)r.status);
		ev = (struct report){ .attempt = n, .result = &r,
		    .duration = end - start, .elapsed = end - t0 };
		out = verdict(&rules, r.status, r.signal, st.matched);
		ev.reason = out.reason;
		if (out.verdict == V_SUCCESS) {
			ev.event = EV_SUCCEEDED;
			report(c, &ev);
			return finish(&st, 0);
		}
		if (out.verdict == V_STOP) {
			ev.event = EV_STOP;
			report(c, &ev);
			/* Die of Ctrl-C too, so a calling shell loop stops. */
			if (out.reason == WHY_INTERRUPTED)
				die(&st, r.signal);
			/* A --stop-on status is the user's own choice. */
			return finish(&st, out.reason == WHY_STOP_ON ?
			    r.status : unsuccessful(r.status));
		}
		d = engine_failure(&e, (double)(end - t0) / 1e9);
		ev.event = EV_GIVE_UP;
		if (d.ns < 0) {
			ev.give_up = c->backoff.max_attempts > 0 &&
			    e.k >= c->backoff.max_attempts ? GIVE_UP_MAX :
			    GIVE_UP_DURATION;
			report(c, &ev);
			return finish(&st, unsuccessful(r.status));
		}
		if (c->budget >= 0 && sat_add(end - t0, d.ns) > c->budget) {
			ev.give_up = GIVE_UP_BUDGET;
			report(c, &ev);
			return finish(&st, unsuccessful(r.status));
		}
		/* An earlier attempt's held stdout goes to stderr. */
		streams_release(&st, false);
		ev.event = EV_FAILED;
		ev.delay = d.ns;
		report(c, &ev);
		if ((sig = sleep_until(sat_add(end, d.ns))) != 0)
			signals_die(sig);
	}
}
