/* Signal flags and the one place where retry waits. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "compat.h"
#include "duration.h"
#include "signals.h"
#include "wait.h"

/* What retry does with a signal. */
enum kind {
	K_DEFAULT,	/* left alone */
	K_END,		/* sent on, then retry dies of it */
	K_PASS,		/* sent on to the attempt */
	K_CHILD,	/* SIGCHLD: it only wakes the wait */
	K_IGNORE,	/* PIPE and XFSZ: the write reports the error */
};

static volatile sig_atomic_t received[NSIG];	/* not yet taken */
static volatile sig_atomic_t kernel[NSIG];	/* the kernel's alone (a
						 * terminal's key, its hangup,
						 * its new size) */
static volatile sig_atomic_t any;		/* one of them is set */
static int wake[2] = { -1, -1 };	/* the handlers' byte for ppoll */

static int queued = -1;		/* SIGCHLD's and the real-time signals'
				 * signalfd, or -1 */

/*
 * The real-time signals received and not yet sent on, each on its own and
 * with its value, oldest first: taken at rt_head, added at rt_tail, both
 * counting to twice the size.  Bounded: once full, the rest wait in the
 * kernel's queue (bounded by RLIMIT_SIGPENDING), which the wait then stops
 * reading until these are taken.  Without a signalfd, a handler adds them,
 * with the others blocked, so one at a time, and blocks them all once it
 * is full, until there is room again.
 */
#define RT_QUEUE	128
static struct compat_siginfo pending[RT_QUEUE];
static volatile sig_atomic_t rt_head, rt_tail;
static sigset_t rt_set;			/* the real-time signals */
static pid_t rt_owner;			/* retry's pid */
static volatile sig_atomic_t rt_held;	/* without a signalfd: blocked,
					 * as it was full */

static enum kind kinds[NSIG];
static bool ignored[NSIG];	/* retry found it ignored */
static bool changed[NSIG];	/* retry set a disposition of its own */
static sigset_t original;	/* the mask retry was started with */

static enum kind
kind(int sig)
{
	switch (sig) {
	case SIGHUP: case SIGINT: case SIGQUIT: case SIGTERM: case SIGALRM:
	case SIGVTALRM: case SIGPROF: case SIGIO: case SIGXCPU:
#ifdef SIGPWR
	case SIGPWR:
#endif
#ifdef SIGSTKFLT
	case SIGSTKFLT:
#endif
		return K_END;
	case SIGUSR1: case SIGUSR2: case SIGWINCH:
		return K_PASS;
	case SIGCHLD:
		return K_CHILD;
	case SIGPIPE: case SIGXFSZ:
		return K_IGNORE;
	default:
		return sig >= SIGRTMIN && sig <= SIGRTMAX ? K_PASS : K_DEFAULT;
	}
}

static size_t
rt_used(void)
{
	return (size_t)((rt_tail - rt_head + 2 * RT_QUEUE) % (2 * RT_QUEUE));
}

/* Only while nothing else adds: in a handler that blocks the others, or
 * with the signalfd, where the loop adds. */
static void
rt_add(int sig, int code, union sigval value)
{
	pending[rt_tail % RT_QUEUE] = (struct compat_siginfo){ sig, code,
	    value };
	/* The entry is written before it is counted. */
	atomic_signal_fence(memory_order_release);
	rt_tail = (rt_tail + 1) % (2 * RT_QUEUE);
}

/* Without a signalfd: a real-time signal, each time it comes. */
static void
on_queued(int sig, siginfo_t *si, void *uc)
{
	const int e = errno;
	ucontext_t *u = uc;

	if (rt_used() < RT_QUEUE)
		rt_add(sig, si->si_code, si->si_value);
	else {
		/* In a child about to exec, which holds none back. */
		received[sig] = 1;
		any = 1;
	}
	/* Full: the rest wait in the kernel's queue, blocked from this
	 * handler's return until the loop has taken some (not in a child
	 * about to exec, whose mask the command would get). */
	if (rt_used() == RT_QUEUE && getpid() == rt_owner) {
		for (int s = SIGRTMIN; s <= SIGRTMAX; s++)
			sigaddset(&u->uc_sigmask, s);
		rt_held = 1;
	}
	(void)!write(wake[1], "", 1);
	errno = e;
}

/* What was held back while it was full comes now that there is room. */
static void
rt_release(void)
{
	if (rt_held && rt_used() < RT_QUEUE) {
		rt_held = 0;
		sigprocmask(SIG_UNBLOCK, &rt_set, NULL);
	}
}

/* Runs when the signal comes, never later: the first recorded is the
 * first that came.  The byte wakes the one ppoll. */
static void
on_signal(int sig, siginfo_t *si, void *uc)
{
	const int e = errno;

	(void)uc;
	if (kinds[sig] != K_CHILD) {
		if (kinds[sig] == K_END && signal_stop == 0)
			signal_stop = sig;
		/* Another's kill, since it was last taken: not the kernel's
		 * alone. */
		kernel[sig] = si->si_code == SI_KERNEL &&
		    (!received[sig] || kernel[sig]);
		received[sig] = 1;
		any = 1;
	}
	(void)!write(wake[1], "", 1);
	errno = e;
}

static bool
is_rt(int sig)
{
	return sig >= SIGRTMIN && sig <= SIGRTMAX;
}

/* A real-time signal, read from the signalfd, and never caught. */
static bool
is_queued(int sig)
{
	return queued != -1 && is_rt(sig);
}

static void	take_queued(void);

/* The handlers' byte, read to the end: a short read has emptied it. */
static int
wake_fd(void)
{
	return wake[0];
}

static void
wake_drain(void)
{
	char drain[64];

	while (read(wake[0], drain, sizeof(drain)) == sizeof(drain))
		;
}

/* The signalfd, read while there is room for what it holds. */
static int
queued_fd(void)
{
	rt_release();
	return queued != -1 && rt_used() < RT_QUEUE ? queued : -1;
}

static const struct wait_source wake_source = { wake_fd, wake_drain };
static const struct wait_source queued_source = { queued_fd, take_queued };

int
signals_init(void)
{
	struct sigaction sa, rt_sa, was;
	sigset_t block, rt;
	bool some = false;

	if (compat_pipe(wake, true) == -1)
		return -1;
	wait_watch(&wake_source);
	wait_watch(&queued_source);
	/*
	 * The real-time signals, some thirty, are only sent on, and SIGCHLD
	 * only wakes the wait: blocked and read from a signalfd that the
	 * one ppoll watches, the former cost no sigaction each at every
	 * start, and the latter no handler's run, byte and sigreturn at
	 * every attempt's end.  The real-time signals' dispositions stay as
	 * retry found them, for the attempts to inherit; SIGCHLD's is its
	 * default.  Without a signalfd they are caught as the others are,
	 * the real-time signals by a handler that keeps each with its value.
	 */
	rt_owner = getpid();
	sigemptyset(&rt_set);
	for (int sig = SIGRTMIN; sig <= SIGRTMAX; sig++)
		sigaddset(&rt_set, sig);
	rt = rt_set;
	sigaddset(&rt, SIGCHLD);
	if ((queued = compat_signalfd(&rt)) != -1)
		block = rt;
	else
		sigemptyset(&block);
	/* tcsetpgrp from the background would stop retry otherwise. */
	sigaddset(&block, SIGTTOU);
	sigprocmask(SIG_BLOCK, &block, &original);

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	/* Without a signalfd: each real-time signal with its value, its
	 * handler alone adding to what is pending. */
	memset(&rt_sa, 0, sizeof(rt_sa));
	rt_sa.sa_mask = rt_set;
	rt_sa.sa_flags = SA_RESTART | SA_SIGINFO;
	rt_sa.sa_sigaction = on_queued;
	for (int sig = 1; sig < NSIG; sig++) {
		if ((kinds[sig] = kind(sig)) == K_DEFAULT)
			continue;
		/* Left as found: whether one is ignored is asked when it
		 * comes (found_ignored). */
		if (is_queued(sig))
			continue;
		if (kinds[sig] == K_IGNORE ||
		    (kinds[sig] == K_CHILD && queued != -1)) {
			sa.sa_flags = SA_RESTART;
			sa.sa_handler = kinds[sig] == K_IGNORE ? SIG_IGN :
			    SIG_DFL;
		} else {
			sa.sa_flags = SA_RESTART | SA_SIGINFO;
			sa.sa_sigaction = on_signal;
		}
		if (sigaction(sig, is_rt(sig) ? &rt_sa : &sa, &was) == -1)
			continue;
		/* What exec left: the default, or ignored. */
		ignored[sig] = was.sa_handler == SIG_IGN;
		/* A signal ignored by whoever started retry stays ignored
		 * (nohup, a background job); SIGCHLD is always caught, or
		 * children would be reaped behind retry's back. */
		if (ignored[sig] && kinds[sig] != K_CHILD &&
		    kinds[sig] != K_IGNORE) {
			sigaction(sig, &was, NULL);
			continue;
		}
		changed[sig] = true;
	}
	/* Those the caller blocked are retry's to handle: a signal is never
	 * held back, so the first to come is the first recorded. */
	sigemptyset(&block);
	for (int sig = 1; sig < NSIG; sig++)
		if (changed[sig] && kinds[sig] != K_IGNORE &&
		    (kinds[sig] != K_CHILD || queued == -1) &&
		    sigismember(&original, sig) == 1) {
			sigaddset(&block, sig);
			some = true;
		}
	if (some)
		sigprocmask(SIG_UNBLOCK, &block, NULL);
	return 0;
}

bool
signals_take_queued(struct compat_siginfo *si)
{
	if (rt_head == rt_tail)
		return false;
	/* Counted, so written. */
	atomic_signal_fence(memory_order_acquire);
	*si = pending[rt_head % RT_QUEUE];
	atomic_signal_fence(memory_order_acq_rel);
	rt_head = (rt_head + 1) % (2 * RT_QUEUE);
	return true;
}

int
signals_take(void)
{
	if (!any)
		return 0;
	any = 0;
	for (int sig = 1; sig < NSIG; sig++)
		if (received[sig]) {
			received[sig] = 0;
			any = 1;
			return sig;
		}
	return 0;
}

bool
signals_by_kernel(int sig)
{
	return sig > 0 && sig < NSIG && kernel[sig];
}

void
signals_drain(void)
{
	struct compat_siginfo si[8];
	const size_t max = sizeof(si) / sizeof(si[0]);

	for (int sig = 1; sig < NSIG; sig++)
		if (kinds[sig] == K_PASS)
			received[sig] = 0;
	/* Without a signalfd, those held back in the kernel's queue too. */
	if (rt_held)
		while (sigtimedwait(&rt_set, NULL, &(struct timespec){ 0 }) > 0)
			;
	rt_head = rt_tail;
	rt_release();
	/* Those still queued in the kernel came before the attempt too; a
	 * short read has emptied it. */
	if (queued != -1)
		while (compat_signalfd_take(queued, si, max) == max)
			;
}

bool
signals_ends(int sig)
{
	return sig > 0 && sig < NSIG && kinds[sig] == K_END;
}

bool
signals_pipe_default(void)
{
	return !ignored[SIGPIPE];
}

/*
 * Before exec: what exec does not undo.  exec sets every caught signal to
 * its default, which is how retry found it (a signal it found ignored it
 * left alone, and SIGCHLD's default is what the command gets); only PIPE
 * and XFSZ, ignored by retry, need their dispositions back.  Between the
 * unblocking and the exec, one of retry's handlers may run here: it only
 * records the signal in the memory the child shares with retry, which then
 * sends it on to the attempt, as if it had come to retry.
 */
/* How retry found sig; SIGCHLD's default is what a command gets. */
static void
restore(int sig)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = ignored[sig] && sig != SIGCHLD ? SIG_IGN : SIG_DFL;
	sigaction(sig, &sa, NULL);
}

void
signals_child(void)
{
	for (int sig = 1; sig < NSIG; sig++)
		if (changed[sig] && kinds[sig] == K_IGNORE)
			restore(sig);
	sigprocmask(SIG_SETMASK, &original, NULL);
	if (wait_slack() > 0)
		compat_set_timer_slack(wait_slack());
}

void
signals_reset(void)
{
	for (int sig = 1; sig < NSIG; sig++)
		if (changed[sig])
			restore(sig);
	sigprocmask(SIG_SETMASK, &original, NULL);
}

void
signals_sentry(void (*hear)(int, siginfo_t *, void *))
{
	static const int quiet[] = { SIGTSTP, SIGTTIN, SIGTTOU };
	static const int heard[] = { SIGINT, SIGQUIT, FLUSH_SIGNAL,
	    SIGWINCH };
	struct sigaction sa;
	sigset_t mask;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = SIG_IGN;
	for (size_t i = 0; i < sizeof(quiet) / sizeof(quiet[0]); i++)
		sigaction(quiet[i], &sa, NULL);
	sigemptyset(&mask);
	for (int sig = 1; sig < NSIG; sig++)
		if (kinds[sig] == K_PASS) {
			sigaction(sig, &sa, NULL);
			sigaddset(&mask, sig);
		}
	/* The real-time signals, ignored, and SIGCHLD, at its default,
	 * need not be kept blocked. */
	if (queued != -1) {
		close(queued);
		queued = -1;
		sigaddset(&mask, SIGCHLD);
	}
	sigprocmask(SIG_UNBLOCK, &mask, NULL);
	sa.sa_sigaction = hear;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&mask);
	for (size_t i = 0; i < sizeof(heard) / sizeof(heard[0]); i++)
		if (heard[i] == FLUSH_SIGNAL || heard[i] == SIGWINCH ||
		    !ignored[heard[i]])
			sigaddset(&mask, heard[i]);
	/* Each handler blocks the others: with two pending, the kernel would
	 * otherwise start the second inside the first, and it would write
	 * its byte first. */
	sa.sa_mask = mask;
	for (size_t i = 0; i < sizeof(heard) / sizeof(heard[0]); i++)
		if (sigismember(&mask, heard[i]))
			sigaction(heard[i], &sa, NULL);
	sigprocmask(SIG_UNBLOCK, &mask, NULL);
}

/* Whether a real-time signal read from the signalfd was ignored when
 * retry started: asked once, the first time one comes, so that a run
 * that gets none asks nothing (their dispositions are never changed). */
static bool
found_ignored(int sig)
{
	static signed char known[NSIG];	/* 0: not asked; 1: no; 2: yes */
	struct sigaction was;

	if (known[sig] == 0)
		known[sig] = sigaction(sig, NULL, &was) == 0 &&
		    was.sa_handler == SIG_IGN ? 2 : 1;
	return known[sig] == 2;
}

/* The real-time signals that came, each kept with its value until it is
 * sent on, as many as there is room for (SIGCHLD has only woken the
 * wait).  retry sets none of their dispositions: one that is ignored was
 * found so, and stays ignored, for retry too. */
static void
take_queued(void)
{
	struct compat_siginfo si[8];
	const size_t max = sizeof(si) / sizeof(si[0]);
	size_t n, room;

	/* A short read has emptied it. */
	do {
		room = RT_QUEUE - rt_used();
		n = compat_signalfd_take(queued, si, room < max ? room : max);
		for (size_t i = 0; i < n; i++)
			if (si[i].signo > 0 && si[i].signo < NSIG &&
			    kinds[si[i].signo] != K_CHILD &&
			    !found_ignored(si[i].signo))
				rt_add(si[i].signo, si[i].code, si[i].value);
	} while (n == max);
}

/* Longest wait for retry's parent to take a signal from the terminal. */
#define PARENT_TAKES	NS_PER_SEC

/*
 * A terminal's Ctrl-C, Ctrl-\ or hangup reached retry's whole process
 * group, its parent too where it shares it (make, xargs): retry dies only
 * once its parent has taken that signal, or PARENT_TAKES later.  GNU make
 * -j counts a child twice when that child's end reaches its wait before
 * its own SIGINT handler runs, and then stops with "wait: No child
 * processes" (exit 2) instead of dying of the signal.
 */
static void
parent_takes(int sig)
{
	const pid_t parent = getppid();
	const int64_t until = sat_add(mono_ns(), PARENT_TAKES);
	int64_t now;

	if ((sig != SIGINT && sig != SIGQUIT && sig != SIGHUP) ||
	    !kernel[sig] || getpgid(parent) != getpgrp())
		return;
	while (compat_signal_pending(parent, sig) == 1 &&
	    (now = mono_ns()) < until)
		(void)wait_until(NULL, 0, earliest(until,
		    sat_add(now, NS_PER_MS)));
}

noreturn void
signals_die(int sig)
{
	struct sigaction sa;
	sigset_t only;

	parent_takes(sig);

	/* Dying of QUIT is the attempt's doing: no core file of retry. */
	compat_no_core();
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);
	sigemptyset(&only);
	sigaddset(&only, sig);
	raise(sig);
	sigprocmask(SIG_UNBLOCK, &only, NULL);
	/* Only reached when the signal cannot kill (it was ignored before
	 * retry started, or it is not fatal by default). */
	_exit(128 + sig);
}


bool
signals_catch_stop(bool on)
{
	struct sigaction sa, was;
	bool came;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	if (on) {
		sa.sa_flags = SA_RESTART | SA_SIGINFO;
		sa.sa_sigaction = on_signal;
		if (changed[SIGTSTP] || sigaction(SIGTSTP, &sa, &was) == -1)
			return false;
		/* Found ignored (or caught, by whoever started retry): left
		 * so. */
		if (was.sa_handler != SIG_DFL) {
			sigaction(SIGTSTP, &was, NULL);
			return false;
		}
		changed[SIGTSTP] = true;
		return false;
	}
	if (!changed[SIGTSTP])
		return false;
	restore(SIGTSTP);
	changed[SIGTSTP] = false;
	came = received[SIGTSTP] != 0;
	received[SIGTSTP] = 0;
	return came;
}

void
signals_suspend(bool group)
{
	const bool caught = changed[SIGTSTP];

	if (caught)
		(void)signals_catch_stop(false);
	if (!group || kill(0, SIGTSTP) == -1)
		raise(SIGTSTP);
	if (caught)
		(void)signals_catch_stop(true);
}
