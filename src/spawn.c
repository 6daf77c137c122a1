/*
 * One attempt, after OpenBSD's and coreutils' timeout: signals stay blocked
 * across fork; the child takes its own process group (and the terminal, when
 * retry has it), restores what retry changed, and reports a failed exec
 * through a close-on-exec pipe; the parent reaps with WNOHANG before every
 * wait, so no SIGCHLD is lost.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "duration.h"
#include "signals.h"
#include "spawn.h"

static noreturn void
child(const struct attempt_opts *o, int errfd, pid_t parent)
{
	int e;

	setpgid(0, 0);
	if (o->tty >= 0)
		tcsetpgrp(o->tty, getpid());
	/* If retry is killed outright, the attempt hears of it. */
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (getppid() != parent)
		_exit(128 + SIGTERM);
	/* Only fds 0, 1 and 2 reach the command. */
	if (errfd != 3) {
		if (dup3(errfd, 3, O_CLOEXEC) == -1)
			_exit(125);
		errfd = 3;
	}
	closefrom(4);
	signals_child();
	execvp(o->argv[0], o->argv);
	e = errno;
	while (write(errfd, &e, sizeof(e)) == -1 && errno == EINTR)
		;
	_exit(127);
}

/* The command stopped (Ctrl-Z): stop with it, and resume it with us. */
static void
suspend(const struct attempt_opts *o, pid_t pid)
{
	tcsetpgrp(o->tty, getpgrp());
	raise(SIGSTOP);
	tcsetpgrp(o->tty, pid);
	kill(-pid, SIGCONT);
}

static void
ended(int st, struct attempt_result *r)
{
	if (WIFSIGNALED(st)) {
		r->signal = WTERMSIG(st);
		r->status = 128 + r->signal;
	} else
		r->status = WEXITSTATUS(st);
	if (r->timed_out)
		r->status = 124;
}

int
attempt_run(const struct attempt_opts *o, struct attempt_result *r)
{
	const int flags = WNOHANG | (o->tty >= 0 ? WUNTRACED : 0);
	pid_t pid, parent = getpid();
	int64_t deadline;
	int ep[2], st, e;
	ssize_t n;

	memset(r, 0, sizeof(*r));
	if (pipe2(ep, O_CLOEXEC) == -1)
		return -1;
	if ((pid = fork()) == -1) {
		e = errno;
		close(ep[0]);
		close(ep[1]);
		errno = e;
		return -1;
	}
	if (pid == 0)
		child(o, ep[1], parent);
	close(ep[1]);
	/* Both sides set the group, so neither order of events races. */
	setpgid(pid, pid);
	if (o->tty >= 0)
		tcsetpgrp(o->tty, pid);
	while ((n = read(ep[0], &e, sizeof(e))) == -1 && errno == EINTR)
		;
	close(ep[0]);
	if (n == sizeof(e)) {
		while (waitpid(pid, NULL, 0) == -1 && errno == EINTR)
			;
		if (o->tty >= 0)
			tcsetpgrp(o->tty, getpgrp());
		r->exec_errno = e;
		return 0;
	}

	deadline = o->timeout >= 0 ? sat_add(mono_ns(), o->timeout) : -1;
	for (;;) {
		signal_child = 0;
		if (waitpid(pid, &st, flags) == pid) {
			if (!WIFSTOPPED(st))
				break;
			suspend(o, pid);
			continue;
		}
		if (signal_stop != 0) {
			r->interrupted = signal_stop;
			signal_stop = 0;
			kill(-pid, r->interrupted);
			kill(-pid, SIGCONT);
		}
		if (deadline >= 0 && mono_ns() >= deadline) {
			if (!r->timed_out) {
				/* The timeout: the signal, then KILL. */
				r->timed_out = true;
				kill(-pid, o->signal);
				kill(-pid, SIGCONT);
				deadline = sat_add(deadline, o->kill_after);
			} else {
				kill(-pid, SIGKILL);
				deadline = -1;
			}
			continue;
		}
		signals_wait(NULL, 0, deadline);
	}
	/* Nothing the attempt started outlives a timeout or a signal. */
	if (r->timed_out || r->interrupted != 0)
		kill(-pid, SIGKILL);
	if (o->tty >= 0)
		tcsetpgrp(o->tty, getpgrp());
	ended(st, r);
	return 0;
}
