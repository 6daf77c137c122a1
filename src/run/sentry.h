/*
 * The sentry: a process of retry's own in an attempt's process group, for
 * as long as the attempt has the terminal, that hears the signals the
 * terminal sends that group (Ctrl-C, Ctrl-\, a new size), which retry, in
 * a group of its own, would not.
 */
#ifndef RETRY_SENTRY_H
#define RETRY_SENTRY_H

#include <stdbool.h>
#include <sys/types.h>

struct sentry {
	pid_t	 pid;	/* > 0 while there is one */
	int	 fd;	/* what it heard, a byte a signal */
};

/* Starts a sentry in retry's group and waits until it hears INT and QUIT;
 * s->pid is -1 when none could be started. */
void	sentry_start(struct sentry *);

/* Moves a ready sentry into the process group pgid; one that cannot go
 * there is stopped. */
void	sentry_join(struct sentry *, pid_t pgid);

/* What the sentry heard since last asked: each signal it heard from the
 * terminal given to fn(ctx, sig).  True once it has answered a flush, or
 * can say no more (someone else killed it: it is stopped). */
bool	sentry_heard(struct sentry *, void (*fn)(void *, int), void *ctx);

/* After the attempt's end: what the sentry heard with it, given to fn as
 * sentry_heard gives it. */
void	sentry_flush(struct sentry *, void (*fn)(void *, int), void *ctx);

/* Ends the sentry, if there is one, and closes its fd; s->pid is then -1. */
void	sentry_stop(struct sentry *);

#endif
