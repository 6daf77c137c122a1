/* Events of a run: lines on stderr, as text or JSON Lines, and the same
 * events in a log file and to syslog. */
#ifndef RETRY_REPORT_H
#define RETRY_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "options.h"
#include "spawn.h"
#include "verdict.h"

enum event { EV_START, EV_FAILED, EV_SUCCEEDED, EV_GIVE_UP, EV_STOP,
	EV_SIGNAL };

enum give_up { GIVE_UP_NONE, GIVE_UP_MAX, GIVE_UP_BUDGET, GIVE_UP_DURATION };

struct report {
	enum event	 event;
	unsigned long	 attempt;
	const struct attempt_result *result;
	int64_t		 duration;	/* of the attempt, ns */
	int64_t		 elapsed;	/* since retry started, ns */
	int64_t		 delay;		/* the next delay, ns, or -1 */
	bool		 asked;		/* the delay came from the output */
	enum reason	 reason;	/* why it stopped or failed */
	enum give_up	 give_up;	/* EV_GIVE_UP */
	const char	*cause;		/* the attempt could not start: why */
	int		 received;	/* EV_SIGNAL: the signal that ends the
					 * run; result is NULL between
					 * attempts */
};

/* Opens --log-file (0600, without blocking, and not through a symlink
 * that another user planted in a sticky world-writable directory) and
 * syslog; -1 with the reason in err. */
int	report_open(const struct config *, char *err, size_t);
void	report(const struct config *, const struct report *);
/* retry's own errors: always shown, with the label. */
void	report_error(const struct config *, const char *, ...)
	    __attribute__((format(printf, 2, 3)));
/* The countdown line on a terminal: ns < 0 asks whether there is one,
 * ns > 0 shows the time left, 0 clears the line. */
bool	report_countdown(const struct config *, int64_t ns);

#endif
