/*
 * What retry does to its attempts while they run (flight.h), one path for
 * a single attempt (spawn.c) and for a hedged round (hedge.c), with one
 * wait over them: they differ only in how many are in flight, in what
 * else the wait serves (a single attempt's pipes and terminal, a round's
 * replayed stdin and its next hedge) and in what a stop does to the
 * terminal.
 */
#include <errno.h>
#include <signal.h>
#include <sys/wait.h>

#include "clock.h"
#include "duration.h"
#include "exits.h"
#include "signals.h"
#include "wait.h"
#include "flight.h"

bool
flight_live(const struct flight *f)
{
	return f->pid > 0 && !f->exited && !f->reaped;
}

pid_t
flight_target(const struct flight *f)
{
	return f->o->foreground ? f->pid : -f->pid;
}

/* True when f has ended; it stays a zombie, so its group stays ours. */
bool
flight_exited(struct flight *f)
{
	siginfo_t si;

	if (f->exited || f->reaped)
		return true;
	si.si_pid = 0;
	return f->exited = waitid(P_PID, (id_t)f->pid, &si,
	    WEXITED | WNOHANG | WNOWAIT) == 0 && si.si_pid == f->pid;
}

bool
flight_ended_by_retry(const struct flight *f)
{
	const struct attempt_result *r = &f->r;

	return r->timed_out || r->forwarded || r->terminal || r->aborted ||
	    r->matched || f->cancelled;
}

void
signal_group(pid_t to, int sig)
{
	kill(to, sig);
	if (sig != SIGKILL && sig != SIGCONT)
		kill(to, SIGCONT);
}

void
flight_stop(struct flight *f, int sig, int64_t now)
{
	f->deadline = -1;
	if (!flight_live(f))
		return;
	signal_group(flight_target(f), sig);
	if (f->kill_at < 0)
		f->kill_at = sat_add(now, f->o->kill_after);
}

int64_t
flight_tick(struct flight *f, int64_t now)
{
	if (f->reaped)
		return -1;
	/* Its output not yet taken counts against its time too. */
	if (f->deadline >= 0 && now >= f->deadline) {
		f->r.timed_out = true;
		flight_stop(f, f->o->signal, now);
	}
	/* Whatever ignored the signal for kill_after gets KILL. */
	if (f->kill_at >= 0 && now >= f->kill_at) {
		signal_group(flight_target(f), SIGKILL);
		f->kill_at = -1;
	}
	return earliest(f->deadline, f->kill_at);
}

/* Whether sig, just taken, is one that a terminal sends its foreground
 * process group (a key, its hangup, its new size), and came from the
 * kernel: not a CPU limit's SIGXCPU, which is retry's alone. */
static bool
from_terminal(int sig)
{
	return (sig == SIGINT || sig == SIGQUIT || sig == SIGHUP ||
	    sig == SIGWINCH || sig == SIGTSTP) && signals_by_kernel(sig);
}

/* In retry's foreground group, an attempt heard the terminal's own signal
 * as retry did: not twice. */
static bool
heard(const struct flight *f, int sig)
{
	return f->o->foreground && from_terminal(sig);
}

/*
 * SIGTSTP to retry: Ctrl-Z in retry's own process group, where no attempt
 * holds the terminal, or a kill -TSTP.  The attempts, which may hear no
 * terminal's key (and the kernel drops a SIGTSTP in an orphaned group),
 * are stopped by SIGSTOP (unless, in retry's group, one heard the
 * terminal's Ctrl-Z itself), retry stops by SIGTSTP as a command would,
 * and once continued (fg, bg, SIGCONT) it continues them.  Their timeouts
 * keep counting meanwhile.
 */
static void
suspend(struct flight *const *fl, size_t n, int sig,
    const struct flight_suspend *how)
{
	size_t live = 0;

	for (size_t i = 0; i < n; i++)
		if (flight_live(fl[i])) {
			live++;
			if (!heard(fl[i], sig))
				kill(flight_target(fl[i]), SIGSTOP);
		}
	if (live > 0 && how != NULL && how->suspend != NULL) {
		how->suspend(how->ctx);
		return;
	}
	signals_suspend(false);
	for (size_t i = 0; i < n; i++)
		if (flight_live(fl[i]))
			kill(flight_target(fl[i]), SIGCONT);
}

/* A signal that does not end the run, sent on to f. */
static void
pass_signal(struct flight *f, int sig)
{
	const struct attempt_io *io = f->o->io;

	if (sig == SIGWINCH && io != NULL)
		io->resize(io->ctx);
	/* A terminal of its own signals its new size itself. */
	if ((sig != SIGWINCH || !f->o->session) && !heard(f, sig))
		kill(flight_target(f), sig);
}

/* A signal that ends the run: f ends with it, KILLed --kill-after later. */
static void
end_by(struct flight *f, int sig, int64_t now)
{
	if (heard(f, sig))
		f->r.terminal = true;
	else {
		signal_group(flight_target(f), sig);
		f->r.forwarded = true;
	}
	if (f->kill_at < 0)
		f->kill_at = sat_add(now, f->o->kill_after);
	f->deadline = -1;
}

void
flights_forward(struct flight *const *fl, size_t n, int64_t now,
    const struct flight_suspend *how)
{
	struct compat_siginfo q;
	int sig;

	/* sigqueue reaches one process, not a group. */
	while (signals_take_queued(&q))
		for (size_t i = 0; i < n; i++)
			if (!flight_live(fl[i]))
				continue;
			else if (q.code == SI_QUEUE)
				(void)sigqueue(fl[i]->pid, q.signo, q.value);
			else
				kill(flight_target(fl[i]), q.signo);
	while ((sig = signals_take()) != 0) {
		if (sig == SIGTSTP) {
			suspend(fl, n, sig, how);
			continue;
		}
		for (size_t i = 0; i < n; i++)
			if (!flight_live(fl[i]))
				continue;
			else if (!signals_ends(sig))
				pass_signal(fl[i], sig);
			else
				end_by(fl[i], sig, now);
	}
}

void
flights_wait(struct flight *const *fl, size_t n, const struct flight_ops *ops)
{
	struct pollfd pfd[FLIGHT_WATCH_MAX];
	int64_t now, at;
	nfds_t nfds;

	while (ops->before(ops->ctx)) {
		now = mono_ns();
		flights_forward(fl, n, now, ops->how);
		at = -1;
		if (!ops->due(ops->ctx, now, &at))
			continue;
		for (size_t i = 0; i < n; i++)
			if (fl[i]->pid > 0)
				at = earliest(at, flight_tick(fl[i], now));
		nfds = ops->watch(ops->ctx, pfd);
		if (wait_until(pfd, nfds, at) > 0)
			ops->serve(ops->ctx, pfd, nfds);
	}
}

/* How the status st of f's end reads. */
static void
read_status(const struct flight *f, int st, struct attempt_result *r)
{
	if (r->timed_out) {
		/* Not a death by signal: --signal INT must not end the run.
		 * --preserve-status: the status is what the command ended
		 * with, as the shell would say it. */
		if (!f->o->preserve_status)
			r->status = STATUS_TIMEDOUT;
		else if (WIFSIGNALED(st))
			r->status = 128 + WTERMSIG(st);
		else
			r->status = WEXITSTATUS(st);
		return;
	}
	/* Ended on its match, as it asked: not a death by signal either. */
	if (r->matched) {
		r->status = 0;
		return;
	}
	if (WIFSIGNALED(st)) {
		r->signal = WTERMSIG(st);
		r->status = 128 + r->signal;
	} else
		r->status = WEXITSTATUS(st);
}

int
flight_reap(struct flight *f, bool kill)
{
	pid_t w;
	int st;

	/* The leader is not reaped yet, so its group id cannot have been
	 * reused. */
	if (kill || flight_ended_by_retry(f))
		signal_group(flight_target(f), SIGKILL);
	while ((w = waitpid(f->pid, &st, 0)) == -1 && errno == EINTR)
		;
	/* Reaped behind retry's back (it cannot be, as SIGCHLD is never
	 * ignored): an end retry cannot tell, not a success. */
	if (w == -1)
		st = STATUS_CANCELED << 8;
	f->exited = f->reaped = true;
	f->kill_at = -1;
	read_status(f, st, &f->r);
	return st;
}
