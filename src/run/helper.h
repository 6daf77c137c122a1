/*
 * A process of retry's own, as the sentry and what passes on output after
 * an attempt are: forked, it runs one function and exits.
 */
#ifndef RETRY_HELPER_H
#define RETRY_HELPER_H

#include <sys/types.h>

/* Starts a process that calls fn(arg) with retry's signal dispositions
 * and mask undone and only the fds in keep[0..n) left open, then exits;
 * its pid, or -1. */
pid_t	 spawn_helper(void (*fn)(void *), void *arg, const int *keep, int n);

#endif
