/*
 * The sentry.  When an attempt has the terminal, the terminal's Ctrl-C
 * goes to the attempt's process group, not to retry's: a sentry waits in
 * that group and tells retry, through a pipe, of each such signal that
 * came from the kernel.  It is a process of retry's own (spawn_helper):
 * it execs nothing, holds only its end of the pipe, and dies with retry.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clock.h"
#include "compat.h"
#include "duration.h"
#include "signals.h"
#include "helper.h"
#include "wait.h"
#include "sentry.h"

static pid_t	 self;		/* retry's pid, asked once */

/* The sentry's end of its pipe, for its handler. */
static int sentry_fd = -1;

/* Longest wait for a sentry to be ready; without one, a Ctrl-C still
 * stops the run, but it is not known to have come from the terminal. */
#define SENTRY_READY	(2 * NS_PER_SEC)

/*
 * The terminal's Ctrl-C and Ctrl-\, and its new size, come from the
 * kernel; the same signal from a process (retry's own --signal INT, a
 * script's kill) is not the terminal's.  A flush counts only from retry,
 * so that no stale answer can be waiting in the pipe.
 */
static void
sentry_hears(int sig, siginfo_t *si, void *uc)
{
	const unsigned char c = (unsigned char)sig;

	(void)uc;
	if (sig == FLUSH_SIGNAL ? si->si_code == SI_USER && si->si_pid == self :
	    si->si_code == SI_KERNEL)
		(void)!write(sentry_fd, &c, 1);
}

static void
sentry(void *arg)
{
	(void)arg;
	compat_parent_death(SIGKILL);
	if (getppid() != self)
		return;
	signals_sentry(sentry_hears);
	/* Ready: a 0, which no signal is. */
	(void)!write(sentry_fd, "", 1);
	for (;;)
		pause();
}

void
sentry_stop(struct sentry *s)
{
	if (s->pid <= 0)
		return;
	kill(s->pid, SIGKILL);
	while (waitpid(s->pid, NULL, 0) == -1 && errno == EINTR)
		;
	close(s->fd);
	s->pid = -1;
}

/*
 * It waits in retry's group, so it is ready before it joins the attempt's:
 * retry moves it there as soon as the attempt's group exists, before the
 * command can have done much, and a fork (slow in a large process) is not
 * in that window.
 */
void
sentry_start(struct sentry *s)
{
	const int64_t until = sat_add(mono_ns(), SENTRY_READY);
	struct pollfd pfd;
	unsigned char c = 1;
	ssize_t n;
	int p[2];

	s->pid = -1;
	if (self == 0)
		self = getpid();
	if (compat_pipe(p, true) == -1)
		return;
	sentry_fd = p[1];
	s->pid = spawn_helper(sentry, NULL, &sentry_fd, 1);
	close(p[1]);
	if (s->pid == -1) {
		close(p[0]);
		return;
	}
	s->fd = p[0];
	pfd = (struct pollfd){ p[0], POLLIN, 0 };
	while ((n = read(p[0], &c, 1)) == -1 && errno == EAGAIN &&
	    signal_stop == 0 && mono_ns() < until)
		wait_until(&pfd, 1, until);
	if (n != 1 || c != 0)
		sentry_stop(s);
}

void
sentry_join(struct sentry *s, pid_t pgid)
{
	if (s->pid > 0 && setpgid(s->pid, pgid) == -1)
		sentry_stop(s);
}

bool
sentry_heard(struct sentry *s, void (*fn)(void *, int), void *ctx)
{
	bool flushed = false;
	unsigned char c;
	ssize_t n;

	while ((n = read(s->fd, &c, 1)) == 1)
		if (c == FLUSH_SIGNAL)
			flushed = true;
		else
			fn(ctx, c);
	if (n == 0) {
		/* Killed by someone else: no more to hear. */
		sentry_stop(s);
		return true;
	}
	return flushed;
}

/*
 * The kernel queues a group's signal on every member before the attempt's
 * end can reach retry, but the sentry may not have run its handler yet.
 * Its answer to a flush comes after that handler's byte: Linux takes the
 * lower-numbered of two pending signals first (both sent to the process,
 * by kill, not to a thread), and the handlers block each other.
 */
void
sentry_flush(struct sentry *s, void (*fn)(void *, int), void *ctx)
{
	const int64_t until = sat_add(mono_ns(), SENTRY_READY);
	struct pollfd pfd;

	if (kill(s->pid, FLUSH_SIGNAL) == -1) {
		(void)sentry_heard(s, fn, ctx);
		return;
	}
	/* A sentry that someone stopped would answer only when continued. */
	kill(s->pid, SIGCONT);
	pfd = (struct pollfd){ s->fd, POLLIN, 0 };
	while (!sentry_heard(s, fn, ctx) && signal_stop == 0 &&
	    mono_ns() < until)
		wait_until(&pfd, 1, until);
}
