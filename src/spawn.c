/*
 * One attempt, after OpenBSD's and coreutils' timeout: signals stay blocked
 * across vfork; the child takes its own process group (and the terminal,
 * when retry has it), restores what retry changed, and reports a failed
 * exec through the memory it shares with retry; the parent polls with
 * WNOHANG before every wait, so no SIGCHLD is lost.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "duration.h"
#include "signals.h"
#include "spawn.h"

static pid_t	 self;		/* retry's pid, asked once: it never forks */

/*
 * Closes every fd from 3 up.  Not libbsd's closefrom(3): where close_range
 * is missing it calls opendir(3), which allocates, and a vfork child must
 * not.  Linux before 5.9 gets the plain loop.
 */
static void
close_from_3(void)
{
	struct rlimit rl;
	int max = 1024;

	if (close_range(3, ~0U, 0) == 0)
		return;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
		max = rl.rlim_cur < INT_MAX ? (int)rl.rlim_cur : INT_MAX;
	for (int fd = 3; fd < max; fd++)
		close(fd);
}

/*
 * The child of vfork: it shares retry's memory and stack until it execs or
 * exits, so it only makes async-signal-safe calls (execvp included: glibc
 * searches PATH on the stack, as posix_spawnp does in the same place), and
 * writes no memory but its own frames and *err.  Process attributes
 * (group, mask, dispositions, fds) are its own.  errno is retry's too,
 * and retry does not read it after a vfork that succeeded.
 */
static noreturn void
child(const struct attempt_opts *o, int tty, volatile int *err)
{
	setpgid(0, 0);
	if (tty >= 0)
		tcsetpgrp(tty, getpid());
	/* If retry is killed outright, the attempt hears of it. */
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (getppid() != self)
		_exit(128 + SIGTERM);
	for (int i = 0; i < 3; i++)
		if (o->stdio[i] >= 0 && dup2(o->stdio[i], i) == -1)
			_exit(125);
	/* Only fds 0, 1 and 2 reach the command. */
	close_from_3();
	/* Handled signals are still blocked: none of retry's handlers can
	 * run here before the dispositions are back.  It writes nothing
	 * but its frame; what it changes is this process's, not retry's. */
	signals_child();
	execvp(o->argv[0], o->argv);
	*err = errno;
	_exit(127);
}

/*
 * Starts the attempt; *err is the errno of a failed exec, or 0.  vfork, not
 * fork: the parent sleeps until the child has exec'd (or exited), with no
 * copy of retry's page tables to make and tear down, and no pipe is needed
 * to hear of a failed exec.  glibc's vfork rather than clone(CLONE_VM |
 * CLONE_VFORK) on a stack of our own: the compilers know vfork returns
 * twice, execvp's PATH search needs a stack of unknown size, and the child
 * never returns from this function, so the shared stack is safe.  Since the
 * parent resumes only after the exec, the child's setpgid and tcsetpgrp
 * have been done by then: the parent need not (and after the exec could
 * not: EACCES) set the group too, as it had to after fork.  Not inlined,
 * so that the only frame the child shares is this short one.
 */
static __attribute__((noinline)) pid_t
start(const struct attempt_opts *o, int tty, volatile int *err)
{
	pid_t pid;

	*err = 0;
	/* The analyzer knows only POSIX's vfork, after which nothing but
	 * _exit and exec may be called; Linux's is the one described above. */
	/* NOLINTNEXTLINE(clang-analyzer-security.insecureAPI.vfork) */
	if ((pid = vfork()) == 0)
		/* NOLINTNEXTLINE(clang-analyzer-unix.Vfork) */
		child(o, tty, err);
	return pid;
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
	pid_t pid;
	int64_t deadline, kill_at = -1, now;
	int st, e, sig, watch[2] = { o->watch[0], o->watch[1] };
	volatile int err;
	struct pollfd pfd[2];
	nfds_t nw;
	bool handed, gone = false;

	memset(r, 0, sizeof(*r));
	if (self == 0)
		self = getpid();
	/* A signal that arrived since the last wait: start nothing more. */
	signals_wait(NULL, 0, 0);
	if ((r->interrupted = signal_stop) != 0) {
		close_stdio(o);
		close_watch(o, watch);
		return 0;
	}
	/* Not when a shell's bg left retry in the background since. */
	handed = o->hand_over && foreground(o->tty);
	pid = start(o, handed ? o->tty : -1, &err);
	e = errno;
	close_stdio(o);
	if (pid == -1) {
		close_watch(o, watch);
		errno = e;
		return -1;
	}
	if (err != 0) {
		close_watch(o, watch);
		while (waitpid(pid, NULL, 0) == -1 && errno == EINTR)
			;
		if (handed)
			tcsetpgrp(o->tty, getpgrp());
		r->exec_errno = err;
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
