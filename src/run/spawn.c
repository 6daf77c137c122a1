/*
 * One attempt, after OpenBSD's and coreutils' timeout: the child takes its
 * own process group (and the terminal, when retry has it), restores what
 * retry changed, and reports a failed exec through the memory it shares
 * with retry; the parent polls with WNOHANG before every wait, and a
 * SIGCHLD wakes its ppoll, so no child's end is missed.
 *
 * An attempt is over when its command has ended and the output it wrote
 * before then has been passed on: what it leaves running is not waited
 * for.  When it has the terminal, a sentry (sentry.c) in its process group
 * hears the Ctrl-C that the terminal sends there, which retry itself would
 * not.  With --foreground, as timeout --foreground, and where retry leads
 * no job of its own (loop.c), the attempt stays in retry's process group:
 * the terminal's Ctrl-C reaches both, and what retry sends (a timeout's
 * signal, --kill-after's KILL, a signal sent on) reaches the command
 * alone.  A SIGTSTP that reaches retry and not the attempt stops both, as
 * for --hedge's attempts.
 *
 * The command gets the descriptors that retry was given, and none of
 * retry's own: every one retry opens is close-on-exec.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "clock.h"
#include "compat.h"
#include "duration.h"
#include "exits.h"
#include "output.h"
#include "sentry.h"
#include "signals.h"
#include "wait.h"
#include "spawn.h"

static pid_t	 self;		/* retry's pid, asked once */

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
	/* A session of its own, whose terminal is retry's pseudo-terminal:
	 * the attempt leads it and has its foreground, as a login shell.
	 * With --foreground, retry's group and terminal are its own. */
	if (o->foreground)
		;
	else if (o->detached) {
		if (setsid() == -1)
			_exit(STATUS_CANCELED);
	} else if (!o->session)
		setpgid(0, 0);
	else if (setsid() == -1 || ioctl(o->ctty, TIOCSCTTY, 0) == -1)
		_exit(STATUS_CANCELED);
	if (tty >= 0)
		tcsetpgrp(tty, getpid());
	/* If retry is killed outright, the attempt hears of it. */
	compat_parent_death(SIGTERM);
	if (getppid() != self)
		_exit(128 + SIGTERM);
	for (int i = 0; i < 3; i++)
		if (o->stdio[i] >= 0 && dup2(o->stdio[i], i) == -1)
			_exit(STATUS_CANCELED);
	/* A descriptor closed for retry is closed for the command. */
	for (int i = 0; i < 3; i++)
		if (o->stdio[i] == STDIO_CLOSED)
			close(i);
	/* The others that retry was given pass on untouched, as timeout(1)
	 * passes them (make's jobserver, a shell's <(...)); retry's own are
	 * all close-on-exec. */
	/* Handled signals are still blocked: none of retry's handlers can
	 * run here before the dispositions are back.  It writes nothing
	 * but its frame; what it changes is this process's, not retry's. */
	signals_child();
	execvp(o->argv[0], o->argv);
	*err = errno;
	_exit(STATUS_ENOENT);
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

/* The signal that stopped pid (Ctrl-Z), or 0; consumes that event only. */
static int
take_stop_signal(pid_t pid)
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
 * The attempt stopped (Ctrl-Z, or a read of the terminal from the
 * background), or retry was to stop (SIGTSTP to retry, Ctrl-Z in its own
 * group) and has stopped the attempt: stop with it, and resume it with us.
 * SIGTSTP, as Ctrl-Z stops the command alone, so that the shell says
 * "Stopped" and $? is 148; and the kernel drops it in an orphaned process
 * group, where no shell is left to continue retry.  A Ctrl-Z typed while
 * the attempt held the terminal (key) stops retry's whole group, as it
 * would have without retry: the rest of a pipeline too, or the shell would
 * wait for it.  The attempt gets the terminal, if it is to (want), only if
 * the shell gave it back to retry (fg, not bg); SIGTTOU is blocked, so
 * nothing else would stop retry from taking it.  to names the attempt to
 * kill(2) (-pid: its group, whose id tcsetpgrp takes).  Returns whether
 * the attempt has the terminal.
 */
static bool
suspend(int tty, pid_t to, bool handed, bool want, bool key)
{
	if (handed)
		tcsetpgrp(tty, getpgrp());
	signals_suspend(key);
	if ((handed = want && foreground(tty)))
		tcsetpgrp(tty, -to);
	kill(to, SIGCONT);
	return handed;
}

/*
 * The real terminal of an attempt in a session of its own: raw while it
 * runs, so that every key reaches the attempt's terminal through retry
 * (Ctrl-C and Ctrl-Z become signals there, by its own modes), and as it
 * was whenever retry reports, stops or ends.  TCSANOW: a terminal whose
 * output is stopped (Ctrl-S) must not hold retry up.
 */
static bool
term_raw(int tty, struct termios *saved)
{
	struct termios t;

	if (tcgetattr(tty, saved) == -1)
		return false;
	t = *saved;
	cfmakeraw(&t);
	return tcsetattr(tty, TCSANOW, &t) == 0;
}

static void
term_restore(int tty, const struct termios *saved, bool *raw)
{
	if (*raw)
		(void)tcsetattr(tty, TCSANOW, saved);
	*raw = false;
}

/*
 * Ctrl-Z (or another stop) of an attempt in a session of its own: the
 * terminal as it was, then retry stops as the command would have (the
 * shell says "Stopped", $? is 148), with its group for a Ctrl-Z typed
 * (key), as suspend() does; continued by fg, raw again, and the attempt
 * goes on.
 */
static void
suspend_session(int tty, pid_t pid, struct termios *saved, bool *raw,
    bool key)
{
	term_restore(tty, saved, raw);
	signals_suspend(key);
	if (foreground(tty))
		*raw = term_raw(tty, saved);
	kill(-pid, SIGCONT);
	/* It was stopped without a word (SIGSTOP), and the shell drew on its
	 * screen: a new size, as it were, has it draw its screen again. */
	kill(-pid, SIGWINCH);
}

void
stdio_close(const int stdio[3])
{
	for (int i = 0; i < 3; i++)
		if (stdio[i] >= 0 && (i == 0 || stdio[i] != stdio[i - 1]))
			close(stdio[i]);
}

/* The state of an attempt being waited for. */
struct wait {
	const struct attempt_opts *o;
	struct flight	 f;
	struct attempt_result *r;	/* f's */
	bool		 handed;	/* the attempt has the terminal */
	bool		 keyed;		/* Ctrl-Z typed at its terminal of its
					 * own stopped it */
	struct sentry	 sentry;
	bool		 raw;		/* the terminal is raw: saved holds
					 * its modes */
	struct termios	 saved;
	bool		 kept;		/* modes holds the terminal's modes as
					 * they were before it was handed */
	struct termios	 modes;
	nfds_t		 nio;		/* of the fds watched, io's */
};

_Static_assert(ATTEMPT_IO_MAX + 1 <= FLIGHT_WATCH_MAX, "the fds watched");

/*
 * The terminal's modes, before the attempt gets the terminal: an attempt
 * that dies of a signal, or that retry ends, leaves them as they were,
 * as an interactive shell restores its own after a job killed by a signal
 * (stty raw, then a timeout); one that exits keeps what it set, as after
 * stty -echo run alone.
 */
static void
modes_keep(struct wait *w)
{
	if (!w->kept && w->handed)
		w->kept = tcgetattr(w->o->tty, &w->modes) == 0;
}

static void
modes_restore(const struct wait *w, int st)
{
	const struct attempt_result *r = w->r;

	if (w->kept && (w->handed || w->o->foreground) &&
	    (WIFSIGNALED(st) || r->timed_out ||
	    r->forwarded || r->aborted || r->matched))
		(void)tcsetattr(w->o->tty, TCSANOW, &w->modes);
}

static void	stopped_by(struct wait *, int);

/* A stop of retry's while the attempt runs (flights_forward): the
 * terminal's and retry's part. */
static void
stop_both(void *ctx)
{
	stopped_by(ctx, 0);
}

/* The signals retry received, sent on; those that end the run end it
 * once the attempt has ended, or the --kill-after time later. */
static void
forward(struct wait *w, int64_t now)
{
	struct flight *const one[1] = { &w->f };
	const struct flight_suspend how = { stop_both, w };

	flights_forward(one, 1, now, &how);
	if (w->r->interrupted == 0)
		w->r->interrupted = signal_stop;
}

/* A signal the sentry heard from the terminal: the attempt heard it too. */
static void
heard(void *ctx, int sig)
{
	struct wait *w = ctx;

	if (sig == SIGWINCH) {
		if (w->o->io != NULL)
			w->o->io->resize(w->o->io->ctx);
	} else if (w->r->interrupted == 0) {
		w->r->interrupted = sig;
		w->r->terminal = true;
	}
}

/* A stop of the attempt: Ctrl-Z, or a read of the terminal (sig); or
 * SIGTSTP to retry (0), which has stopped the attempt. */
static void
stopped_by(struct wait *w, int sig)
{
	const struct attempt_opts *o = w->o;

	if (o->session) {
		suspend_session(o->tty, w->f.pid, &w->saved, &w->raw, w->keyed);
		w->keyed = false;
		return;
	}
	if ((sig == SIGTTIN || sig == SIGTTOU) && !w->handed &&
	    foreground(o->tty)) {
		/* It reads the terminal: it gets it. */
		tcsetpgrp(o->tty, w->f.pid);
		w->handed = true;
		modes_keep(w);
		kill(-w->f.pid, SIGCONT);
	} else
		w->handed = suspend(o->tty, flight_target(&w->f), w->handed,
		    !o->foreground && (sig != 0 || w->handed),
		    w->handed && sig == SIGTSTP);
	if (o->tty < 0)
		return;
	modes_keep(w);
	if (w->handed && w->sentry.pid <= 0) {
		sentry_start(&w->sentry);
		sentry_join(&w->sentry, w->f.pid);
	}
}

/* Whether the attempt's output says it is done. */
static bool
done(const struct wait *w)
{
	const struct attempt_io *io = w->o->io;

	return io != NULL && io->done != NULL && io->done(io->ctx);
}

/* The attempt's end, and its output's: false once both are over.  A
 * stop (Ctrl-Z, a read of the terminal) stops retry with it. */
static bool
before(void *ctx)
{
	struct wait *w = ctx;
	const struct attempt_opts *o = w->o;
	const struct attempt_io *io = o->io;
	struct flight *f = &w->f;
	int sig;

	if (!f->exited && flight_exited(f)) {
		if (flight_ended_by_retry(f))
			/* So that its pipes close too. */
			signal_group(flight_target(f), SIGKILL);
		f->kill_at = -1;
		if (io != NULL)
			io->end(io->ctx);
	}
	/* Its time is up: what its destination has not taken is dropped. */
	if (f->exited && w->r->timed_out && io != NULL)
		io->drop(io->ctx);
	/* Done at the end of the command and of what it wrote; output that
	 * has nowhere to go does not hold up a signal. */
	if (f->exited && (io == NULL || !io->busy(io->ctx) || signal_stop != 0))
		return false;
	/* With --foreground, a stop (Ctrl-Z) stops retry's group, retry
	 * with it, and fg continues them all. */
	if (!f->exited && o->tty >= 0 && !o->foreground &&
	    (sig = take_stop_signal(f->pid)) != 0)
		stopped_by(w, sig);
	/* Continued in the background (bg), and in the foreground since
	 * (fg): raw again, so that its keys are relayed as they are typed. */
	if (o->session && !f->exited && !w->raw && foreground(o->tty))
		w->raw = term_raw(o->tty, &w->saved);
	return true;
}

/* Nothing is due but the attempt's own times (flight_tick). */
static bool
due(void *ctx, int64_t now, int64_t *at)
{
	struct wait *w = ctx;

	if (w->r->interrupted == 0)
		w->r->interrupted = signal_stop;
	return true;
}

/* The streams the attempt writes and reads, and the sentry's pipe. */
static nfds_t
watch(void *ctx, struct pollfd *pfd)
{
	struct wait *w = ctx;
	const struct attempt_io *io = w->o->io;
	nfds_t n = io != NULL ? io->watch(io->ctx, pfd) : 0;

	w->nio = n;
	if (w->sentry.pid > 0)
		pfd[n++] = (struct pollfd){ w->sentry.fd, POLLIN, 0 };
	return n;
}

static void
serve(void *ctx, const struct pollfd *pfd, nfds_t n)
{
	struct wait *w = ctx;
	const struct attempt_opts *o = w->o;
	const struct attempt_io *io = o->io;
	struct flight *f = &w->f;
	const nfds_t nio = w->nio;
	int sig;

	if (nio > 0 && io->serve(io->ctx, pfd, nio) == -1 && !w->r->aborted &&
	    !f->exited) {
		w->r->aborted = true;
		flight_stop(f, o->signal, mono_ns());
	}
	/* Done by its output, unless its end came first. */
	if (!f->exited && !w->r->timed_out && !w->r->aborted &&
	    !w->r->forwarded && !w->r->matched && done(w)) {
		w->r->matched = true;
		flight_stop(f, o->signal, mono_ns());
	}
	if (n > nio && pfd[nio].revents != 0)
		(void)sentry_heard(&w->sentry, heard, w);
	/* Ctrl-C typed into its terminal of its own: the sentry's news.
	 * Ctrl-Z: stopped by retry, which stops too once it sees it. */
	while (io != NULL && io->keys != NULL &&
	    (sig = io->keys(io->ctx)) != 0) {
		if (sig == SIGTSTP) {
			if (!f->exited)
				w->keyed = kill(flight_target(f), SIGSTOP) == 0;
		} else if (w->r->interrupted == 0) {
			w->r->interrupted = sig;
			w->r->terminal = true;
		}
	}
}

int
attempt_run(const struct attempt_opts *o, struct attempt_result *r)
{
	struct wait w = { .o = o, .f = { .o = o, .deadline = -1,
	    .kill_at = -1 }, .sentry = { .pid = -1, .fd = -1 } };
	struct flight *const one[1] = { &w.f };
	const struct flight_suspend how = { stop_both, &w };
	const struct flight_ops ops = { &w, before, due, watch, serve, &how };
	int st, e;
	volatile int err;

	w.r = &w.f.r;
	memset(r, 0, sizeof(*r));
	if (self == 0)
		self = getpid();
	/* Not when a shell's bg left retry in the background since; in a
	 * session of its own, the attempt's terminal is its own. */
	if ((w.handed = !o->session && !o->foreground && o->hand_over &&
	    foreground(o->tty)))
		sentry_start(&w.sentry);
	/* What came to retry between attempts is not the attempt's: a USR1
	 * while the store was waited for would otherwise kill it. */
	signals_drain();
	/* A signal that came since the last wait: start nothing more. */
	if ((r->interrupted = signal_stop) != 0) {
		r->unstarted = true;
		sentry_stop(&w.sentry);
		stdio_close(o->stdio);
		return 0;
	}
	if (o->session)
		w.raw = term_raw(o->tty, &w.saved);
	modes_keep(&w);
	/* In the terminal's foreground with retry: its modes are kept as
	 * when it is handed the terminal. */
	if (o->foreground && foreground(o->tty))
		w.kept = tcgetattr(o->tty, &w.modes) == 0;
	/* Its output straight to the terminal: a column retry cannot know. */
	out_unseen(o->stdio[1] == STDIO_INHERIT ? STDOUT_FILENO : o->stdio[1]);
	out_unseen(o->stdio[2] == STDIO_INHERIT ? STDERR_FILENO : o->stdio[2]);
	/* Ctrl-Z or SIGTSTP, caught while the attempt runs, stops it too. */
	(void)signals_catch_stop(true);
	w.f.pid = start(o, w.handed ? o->tty : -1, &err);
	e = errno;
	stdio_close(o->stdio);
	if (w.f.pid == -1 || err != 0) {
		term_restore(o->tty, &w.saved, &w.raw);
		sentry_stop(&w.sentry);
		if (signals_catch_stop(false))
			signals_suspend(false);
	}
	if (w.f.pid == -1) {
		errno = e;
		return -1;
	}
	if (err != 0) {
		while (waitpid(w.f.pid, NULL, 0) == -1 && errno == EINTR)
			;
		if (w.handed)
			tcsetpgrp(o->tty, getpgrp());
		r->exec_errno = err;
		return 0;
	}
	sentry_join(&w.sentry, w.f.pid);
	w.f.deadline = o->timeout >= 0 ? sat_add(mono_ns(), o->timeout) : -1;
	flights_wait(one, 1, &ops);
	/* A signal that came with the attempt's end still ends the run. */
	forward(&w, mono_ns());
	/* A Ctrl-Z as the attempt ended: retry stops, alone now. */
	if (signals_catch_stop(false))
		signals_suspend(false);
	if (w.sentry.pid > 0)
		sentry_flush(&w.sentry, heard, &w);
	/* Nothing the attempt started outlives a timeout or a signal (with
	 * --foreground, the command itself only). */
	st = flight_reap(&w.f, done(&w));
	sentry_stop(&w.sentry);
	term_restore(o->tty, &w.saved, &w.raw);
	modes_restore(&w, st);
	if (w.handed)
		tcsetpgrp(o->tty, getpgrp());
	w.r->foreground = w.handed || o->session ||
	    (o->foreground && foreground(o->tty));
	*r = w.f.r;
	return 0;
}

pid_t
attempt_start(const struct attempt_opts *o, int *exec_errno)
{
	volatile int err;
	pid_t pid;
	int e;

	if (self == 0)
		self = getpid();
	pid = start(o, -1, &err);
	e = errno;
	stdio_close(o->stdio);
	if (pid == -1) {
		errno = e;
		return -1;
	}
	if ((*exec_errno = err) != 0)
		while (waitpid(pid, NULL, 0) == -1 && errno == EINTR)
			;
	return pid;
}
