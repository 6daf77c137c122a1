/* The one wait: retry blocks here and nowhere else, in one ppoll, until a
 * descriptor is ready or a deadline passes.  Besides the caller's
 * descriptors it watches the sources registered once with wait_watch
 * (the signals' byte and signalfd, signals.h), so that whatever the stores
 * or the edge wait for, a signal ends the wait.  The first timed wait sets
 * retry's timer slack to 1 ns (wait_slack gives back the one it had). */
#ifndef RETRY_WAIT_H
#define RETRY_WAIT_H

#include <poll.h>
#include <signal.h>
#include <stdint.h>

#define WAIT_MAX	8	/* fds a wait watches at most */

/* The first signal that ends the run, 0 until one comes: set by the
 * signals' handlers (signals.h); whoever waits gives up once it is set. */
extern volatile sig_atomic_t signal_stop;

/* One more descriptor for every wait: fd says which before each wait (-1:
 * not this time), and ready is called after a wait where it was ready. */
struct wait_source {
	int		(*fd)(void);
	void		(*ready)(void);
};

/* Up to two sources; the pointer is kept. */
void		 wait_watch(const struct wait_source *);
/* Waits until a source is ready, a ready fd, or the absolute
 * CLOCK_MONOTONIC deadline in ns (-1: none); returns how many of the
 * caller's fds are ready, or -1. */
int		 wait_until(struct pollfd *, nfds_t, int64_t);
/* The timer slack retry had before its first timed wait, in ns; 0 while
 * it has not changed it. */
unsigned long	 wait_slack(void);

#endif
