/* Signal flags and the one place where retry waits. */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "signals.h"

volatile sig_atomic_t signal_child;
volatile sig_atomic_t signal_stop;

static const int handled[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGCHLD };
#define NHANDLED	(sizeof(handled) / sizeof(handled[0]))

static struct sigaction dispositions[NHANDLED];	/* as retry found them */
static sigset_t original;	/* the mask retry was started with */
static sigset_t waiting;	/* the same, the handled signals unblocked */
static int slack;		/* the timer slack retry was started with */

static void
on_signal(int sig)
{
	if (sig == SIGCHLD)
		signal_child = 1;
	else
		signal_stop = sig;
}

void
signals_init(void)
{
	struct sigaction sa;
	sigset_t block;
	int now;

	/* main() sharpens retry's own timer slack; 0 resets it to the value
	 * retry started with, which the attempt gets back. */
	now = prctl(PR_GET_TIMERSLACK);
	prctl(PR_SET_TIMERSLACK, 0UL);
	slack = prctl(PR_GET_TIMERSLACK);
	prctl(PR_SET_TIMERSLACK, (unsigned long)now);

	sigemptyset(&block);
	for (size_t i = 0; i < NHANDLED; i++)
		sigaddset(&block, handled[i]);
	/* tcsetpgrp from the background would stop retry otherwise. */
	sigaddset(&block, SIGTTOU);
	sigprocmask(SIG_BLOCK, &block, &original);
	waiting = original;
	for (size_t i = 0; i < NHANDLED; i++)
		sigdelset(&waiting, handled[i]);

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < NHANDLED; i++) {
		sigaction(handled[i], NULL, &dispositions[i]);
		/* A signal ignored by whoever started retry stays ignored
		 * (nohup, a background job); SIGCHLD is always caught, or
		 * children would be reaped behind retry's back. */
		if (dispositions[i].sa_handler == SIG_IGN &&
		    handled[i] != SIGCHLD)
			continue;
		sigaction(handled[i], &sa, NULL);
	}
}

void
signals_child(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < NHANDLED; i++)
		sigaction(handled[i], handled[i] == SIGCHLD ? &sa :
		    &dispositions[i], NULL);
	sigprocmask(SIG_SETMASK, &original, NULL);
	if (slack > 0)
		prctl(PR_SET_TIMERSLACK, (unsigned long)slack);
}

int
signals_wait(struct pollfd *fds, nfds_t nfds, int64_t deadline)
{
	struct timespec left;
	int64_t ns;

	if (deadline < 0)
		return ppoll(fds, nfds, NULL, &waiting);
	ns = deadline - mono_ns();
	if (ns < 0)
		ns = 0;
	left.tv_sec = ns / 1000000000;
	left.tv_nsec = ns % 1000000000;
	return ppoll(fds, nfds, &left, &waiting);
}

noreturn void
signals_die(int sig)
{
	struct sigaction sa;
	sigset_t only;

	/* Dying of QUIT is the attempt's doing: no core file of retry. */
	prctl(PR_SET_DUMPABLE, 0);
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

int64_t
mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}
