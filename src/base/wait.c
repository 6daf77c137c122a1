/* The one wait (wait.h). */
#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "clock.h"
#include "compat.h"
#include "wait.h"

#define SOURCES	2

volatile sig_atomic_t signal_stop;

static const struct wait_source *sources[SOURCES];
static size_t nsources;
static bool sharp;		/* retry's timer slack is 1 ns */
static unsigned long slack;	/* the timer slack retry was started with,
				 * once sharp */

void
wait_watch(const struct wait_source *s)
{
	if (nsources < SOURCES)
		sources[nsources++] = s;
}

unsigned long
wait_slack(void)
{
	return slack;
}

/* Back-off sleeps should end when asked, not 50 us later: the first timed
 * wait sets retry's timer slack to 1 ns, and keeps the one that the
 * attempts get back.  A run that never waits so makes no call for it. */
static void
sharpen(void)
{
	if (sharp)
		return;
	sharp = true;
	slack = compat_timer_slack();
	compat_set_timer_slack(1);
}

int
wait_until(struct pollfd *fds, nfds_t nfds, int64_t deadline)
{
	struct pollfd all[WAIT_MAX + SOURCES];
	const struct wait_source *watched[SOURCES];
	struct timespec left;
	nfds_t n = nfds;
	size_t nw = 0;
	int64_t ns;
	int fd, ready = 0;

	for (nfds_t i = 0; i < nfds; i++)
		all[i] = fds[i];
	for (size_t i = 0; i < nsources; i++)
		if ((fd = sources[i]->fd()) != -1) {
			watched[nw++] = sources[i];
			all[n++] = (struct pollfd){ fd, POLLIN, 0 };
		}
	if (deadline >= 0) {
		sharpen();
		ns = deadline - mono_ns();
		if (ns < 0)
			ns = 0;
		left.tv_sec = ns / NS_PER_SEC;
		left.tv_nsec = ns % NS_PER_SEC;
	}
	if (compat_wait(all, n, deadline >= 0 ? &left : NULL) == -1)
		return -1;
	for (size_t i = 0; i < nw; i++)
		if (all[nfds + i].revents != 0)
			watched[i]->ready();
	for (nfds_t i = 0; i < nfds; i++)
		if ((fds[i].revents = all[i].revents) != 0)
			ready++;
	return ready;
}
