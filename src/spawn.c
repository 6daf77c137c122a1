/*
 * One attempt, after OpenBSD's and coreutils' timeout: signals stay blocked
 * across fork; the child takes its own process group (and the terminal, when
 * retry has it), restores what retry changed, and reports a failed exec
 * through a close-on-exec pipe; the parent polls with WNOHANG before every
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
child(const struct attempt_opts *o, int tty, int errfd, pid_t parent)
{
	int e;

	setpgid(0, 0);
	if (tty >= 0)
		tcsetpgrp(tty, getpid());
	/* If retry is killed outright, the attempt hears of it. */
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (getppid() != parent)
		_exit(128 + SIGTERM);
	for (int i = 0; i < 3; i++)
		if (o->stdio[i] >= 0 && dup2(o->stdio[i], i) == -1)
			_exit(125);
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

/* True when pid has ended; it stays a zombie, so its group stays ours. */
static bool
exited(pid_t pid)
{
	siginfo_t si;

	si.si_pid = 0;
	return waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 &&
	    si.si_pid == pid;
}

/* The signal that stopped pid (Ctrl-Z), or 0; consumes that event only. */
static int
stopped(pid_t pid)
{
	siginfo_t si;

	si.si_pid = 0;
	if (waitid(P_PID, (id_t)pid, &si, WSTOPPED | WNOHANG) == 0 &&
	    si.si_pid == pid)
		return si.si_status;
	return 0;
}

/* Whether retry is in the terminal's foreground, and may hand it on. */
static bool
foreground(int tty)
{
	return tty >= 0 && tcgetpgrp(tty) == getpgrp();
}

/*
 * The command stopped (Ctrl-Z): stop with it, and resume it with us. It gets
 * the terminal again only if the shell gave it back to retry (fg, not bg);
 * SIGTTOU is blocked, so nothing else would stop retry from taking it.
 * Returns whether the attempt has the terminal.
 */
static bool
suspend(int tty, pid_t pid, bool handed)
{
	if (handed)
		tcsetpgrp(tty, getpgrp());
	raise(SIGSTOP);
	if ((handed = foreground(tty)))
		tcsetpgrp(tty, pid);
	kill(-pid, SIGCONT);
	return handed;
}

/* Sends sig to the whole group, and wakes it in case it is stopped. */
static void
signal_group(pid_t pid, int sig)
{
	kill(-pid, sig);
	if (sig != SIGKILL && sig != SIGCONT)
		kill(-pid, SIGCONT);
}

static void
ended(int st, struct attempt_result *r)
{
	if (r->timed_out) {
		/* Not a death by signal: --signal INT must not end the run. */
		r->status = 124;
		return;
	}
	if (WIFSIGNALED(st)) {
		r->signal = WTERMSIG(st);
		r->status = 128 + r->signal;
	} else
		r->status = WEXITSTATUS(st);
}

static void
close_stdio(const struct attempt_opts *o)
{
	for (int i = 0; i < 3; i++)
		if (o->stdio[i] >= 0)
			close(o->stdio[i]);
}

static void
close_watch(const struct attempt_opts *o, int watch[2])
{
	for (int i = 0; i < 2; i++)
		if (watch[i] >= 0) {
			close(watch[i]);
			watch[i] = -1;
			o->sink(o->ctx, i, NULL, 0);
		}
}

/* Reads what is ready on the watched pipes; closes them at their end. */
static void
drain(const struct attempt_opts *o, int watch[2], const struct pollfd *pfd,
    nfds_t n)
{
	static char buf[128 * 1024];
	ssize_t got;

	for (nfds_t j = 0; j < n; j++) {
		const int i = watch[0] == pfd[j].fd ? 0 : 1;

		if (pfd[j].revents == 0)
			continue;
		got = read(pfd[j].fd, buf, sizeof(buf));
		if (got > 0)
			o->sink(o->ctx, i, buf, (size_t)got);
		else if (got == 0 || (errno != EINTR && errno != EAGAIN)) {
			close(watch[i]);
			watch[i] = -1;
			o->sink(o->ctx, i, NULL, 0);
		}
	}
}

/* The watched pipes still open, as pollfds; their count. */
static nfds_t
watching(const int watch[2], struct pollfd pfd[2])
{
	nfds_t n = 0;

	for (int i = 0; i < 2; i++)
		if (watch[i] >= 0)
			pfd[n++] = (struct pollfd){ watch[i], POLLIN, 0 };
	return n;
}

static int64_t
earliest(int64_t a, int64_t b)
{
	if (a < 0)
		return b;
	if (b < 0)
		return a;
	return a < b ? a : b;
}

int
attempt_run(const struct attempt_opts *o, struct attempt_result *r)
{
	pid_t pid, parent = getpid();
	int64_t deadline, kill_at = -1, now;
	int ep[2], st, e, sig, watch[2] = { o->watch[0], o->watch[1] };
	struct pollfd pfd[2];
	nfds_t nw;
	ssize_t n;
	bool handed, gone = false;

	memset(r, 0, sizeof(*r));
	/* A signal that arrived since the last wait: start nothing more. */
	signals_wait(NULL, 0, 0);
	if (signal_stop != 0 || pipe2(ep, O_CLOEXEC) == -1) {
		e = errno;
		close_stdio(o);
		close_watch(o, watch);
		if ((r->interrupted = signal_stop) != 0)
			return 0;
		errno = e;
		return -1;
	}
	/* Not when a shell's bg left retry in the background since. */
	handed = o->hand_over && foreground(o->tty);
	if ((pid = fork()) == -1) {
		e = errno;
		close(ep[0]);
		close(ep[1]);
		close_stdio(o);
		close_watch(o, watch);
		errno = e;
		return -1;
	}
	if (pid == 0)
		child(o, handed ? o->tty : -1, ep[1], parent);
	close(ep[1]);
	close_stdio(o);
	/* Both sides set the group, so neither order of events races. */
	setpgid(pid, pid);
	if (handed)
		tcsetpgrp(o->tty, pid);
	while ((n = read(ep[0], &e, sizeof(e))) == -1 && errno == EINTR)
		;
	close(ep[0]);
	if (n == sizeof(e)) {
		close_watch(o, watch);
		while (waitpid(pid, NULL, 0) == -1 && errno == EINTR)
			;
		if (handed)
			tcsetpgrp(o->tty, getpgrp());
		r->exec_errno = e;
		return 0;
	}

	deadline = o->timeout >= 0 ? sat_add(mono_ns(), o->timeout) : -1;
	for (;;) {
		if (!gone && (gone = exited(pid)) &&
		    (r->timed_out || r->interrupted != 0))
			/* So that its pipes close too. */
			signal_group(pid, SIGKILL);
		/* Done at the end of the leader and of its output. */
		if (gone && watch[0] < 0 && watch[1] < 0)
			break;
		if (!gone && o->tty >= 0 && (sig = stopped(pid)) != 0) {
			if ((sig == SIGTTIN || sig == SIGTTOU) && !handed &&
			    foreground(o->tty)) {
				/* It reads the terminal: it gets it. */
				tcsetpgrp(o->tty, pid);
				handed = true;
				kill(-pid, SIGCONT);
			} else
				handed = suspend(o->tty, pid, handed);
			continue;
		}
		now = mono_ns();
		if ((sig = signal_stop) != 0) {
			/* Forwarded; the first one is the one retry dies of. */
			signal_stop = 0;
			if (r->interrupted == 0)
				r->interrupted = sig;
			signal_group(pid, sig);
			if (kill_at < 0)
				kill_at = sat_add(now, o->kill_after);
			deadline = -1;
		}
		if (deadline >= 0 && now >= deadline) {
			r->timed_out = true;
			signal_group(pid, o->signal);
			kill_at = sat_add(now, o->kill_after);
			deadline = -1;
		}
		/* Whatever ignored the signal for kill_after gets KILL. */
		if ((kill_at >= 0 && now >= kill_at) || (gone && kill_at >= 0)) {
			signal_group(pid, SIGKILL);
			kill_at = -1;
		}
		nw = watching(watch, pfd);
		if (signals_wait(pfd, nw, earliest(deadline, kill_at)) > 0)
			drain(o, watch, pfd, nw);
	}
	/* A signal that came with the attempt's end still ends the run. */
	signals_wait(NULL, 0, 0);
	if ((sig = signal_stop) != 0) {
		signal_stop = 0;
		if (r->interrupted == 0)
			r->interrupted = sig;
	}
	/*
	 * Nothing the attempt started outlives a timeout or a signal. The
	 * leader is not reaped yet, so its group id cannot have been reused.
	 */
	if (r->timed_out || r->interrupted != 0)
		signal_group(pid, SIGKILL);
	while (waitpid(pid, &st, 0) == -1 && errno == EINTR)
		;
	if (handed)
		tcsetpgrp(o->tty, getpgrp());
	ended(st, r);
	return 0;
}
