/*
 * The sleep between attempts.  Nothing runs that a signal could be sent
 * on to: a signal ends the sleep at once, and so does the reader of
 * stdout going away where a pipeline would end.  A stdin to replay goes
 * on being recorded meanwhile.
 */
#include <poll.h>
#include <unistd.h>

#include "clock.h"
#include "output.h"
#include "signals.h"
#include "wait.h"
#include "sleep.h"

/*
 * Sleeps until the deadline; a signal ends the sleep at once, and so does
 * the reader of stdout going away (false), where a pipeline would end, or
 * a stdin to replay that cannot be kept (false, st->err says why), which
 * goes on being recorded meanwhile.  On a terminal, a sleep of more than
 * a second counts down on one line.
 */
bool
sleep_until(const struct reporter *rep, struct streams *st, bool piped,
    int64_t deadline)
{
	const bool countdown = deadline - mono_ns() > NS_PER_SEC &&
	    countdown_start(rep);
	struct pollfd pfd[1 + FEED_WATCH_MAX] = { { STDOUT_FILENO, 0, 0 } };
	nfds_t n;
	int64_t now, tick;
	bool gone = false, broken = false;

	/* At least one wait, so that a signal is seen even between attempts
	 * that follow each other at once. */
	for (now = mono_ns(); signal_stop == 0 && !gone && !broken;
	    now = mono_ns()) {
		tick = deadline;
		if (countdown) {
			countdown_show(rep, deadline - now);
			/* Next at the next whole second left. */
			tick = deadline - ((deadline - now - 1) / NS_PER_SEC) *
			    NS_PER_SEC;
			if (tick <= now)
				tick = deadline;
		}
		n = piped ? 1 : 0;
		n += streams_wait_watch(st, &pfd[n]);
		/* Nothing runs to send a signal on to. */
		if (wait_until(pfd, n, tick) > 0) {
			gone = piped && pfd[0].revents != 0 &&
			    out_gone(STDOUT_FILENO);
			broken = n > (piped ? 1U : 0U) &&
			    streams_wait_serve(st, &pfd[n - 1]) == -1;
		}
		while (signals_take() != 0)
			;
		signals_drain();
		if (mono_ns() >= deadline)
			break;
	}
	if (countdown)
		countdown_end(rep);
	return !gone && !broken;
}
