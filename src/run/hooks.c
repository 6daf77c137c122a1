/* The hooks: --on-retry, --on-giveup and --on-success. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "duration.h"
#include "env.h"
#include "hooks.h"

void
hooks_init(struct hooks *h, int sig, const struct limits *l, int64_t t0,
    int64_t kill_after, const struct reporter *rep, const bool closed[3])
{
	h->rep = rep;
	h->signal = sig;
	h->timeout = l->timeout;
	h->deadline = l->deadline >= 0 ? t0 + l->deadline : -1;
	h->kill_after = kill_after;
	h->no_stderr = closed[2];
}

/* The child's stdio for a hook: /dev/null, and retry's stderr twice. */
static int
open_stdio(const struct hooks *h, int stdio[3])
{
	stdio[0] = open("/dev/null", O_RDONLY | O_CLOEXEC);
	stdio[1] = h->no_stderr ? STDIO_CLOSED :
	    fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 0);
	stdio[2] = h->no_stderr ? STDIO_CLOSED : STDIO_INHERIT;
	if (stdio[0] != -1 && stdio[1] != -1)
		return 0;
	stdio_close(stdio);
	return -1;
}

/* One hook, cmd: 0 when it ran and exited 0, else -1; *sig, a signal
 * that ends the run and came while it ran. */
static int
hook_one(const struct hooks *h, const char *option, char *cmd,
    const struct attempt_result *last, int64_t delay, int *sig)
{
	static char sh[] = "/bin/sh", dash_c[] = "-c";
	char *argv[] = { sh, dash_c, cmd, NULL };
	struct attempt_opts ao = { .argv = argv, .tty = -1,
	    .timeout = h->timeout, .signal = h->signal,
	    .kill_after = h->kill_after };
	struct attempt_result r;
	bool cut = false;
	int rc = -1;

	/* Inside the run: no longer than what is left of it. */
	if (delay >= 0 && h->deadline >= 0) {
		const int64_t left = h->deadline - mono_ns();

		cut = ao.timeout < 0 || left < ao.timeout;
		if (cut)
			ao.timeout = left > 0 ? left : 0;
	}
	if (open_stdio(h, ao.stdio) == -1) {
		report_error(h->rep, "%s: not run: %s", option,
		    strerror(errno));
		return -1;
	}
	/* None before the first attempt: the shared breaker held it. */
	if (last != NULL)
		env_set(VAR_STATUS, (uint64_t)last->status, false);
	env_set(VAR_DELAY_MS, delay >= 0 ? (uint64_t)(delay / NS_PER_MS) : 0,
	    false);
	r.interrupted = 0;
	if (attempt_run(&ao, &r) == -1)
		report_error(h->rep, "%s: not run: %s", option,
		    strerror(errno));
	else if (r.interrupted == 0 && r.timed_out)
		report_error(h->rep, "%s: %s", option, cut ?
		    "stopped at the --deadline" : "timed out");
	else if (r.interrupted == 0 && r.signal != 0)
		report_error(h->rep, "%s: killed by signal %d", option,
		    r.signal);
	else if (r.interrupted == 0 && r.status != 0)
		report_error(h->rep, "%s: exit %d", option, r.status);
	else if (r.interrupted == 0)
		rc = 0;
	env_unset(VAR_STATUS);
	env_unset(VAR_DELAY_MS);
	*sig = r.interrupted;
	return rc;
}

int
hook_run(const struct hooks *h, const char *option, const struct texts *cmds,
    const struct attempt_result *last, int64_t delay)
{
	int sig = 0;

	/* In order, as sh's &&: the first that fails ends the rest. */
	for (size_t i = 0; i < cmds->n && sig == 0; i++)
		if (hook_one(h, option, cmds->v[i], last, delay, &sig) != 0 &&
		    sig == 0) {
			if (i + 1 < cmds->n)
				report_error(h->rep, "%s: the %zu given after "
				    "it not run", option, cmds->n - i - 1);
			break;
		}
	return sig;
}
