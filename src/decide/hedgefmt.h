/*
 * The words of --hedge's events: an attempt started beside another, one
 * that failed while others ran, the winner, and each attempt cancelled,
 * as text or as one JSON object.  Pure: no I/O, no exit; report.c hands
 * the lines to the reports' sinks.
 */
#ifndef RETRY_HEDGEFMT_H
#define RETRY_HEDGEFMT_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "attempt.h"
#include "line.h"
#include "reportfmt.h"

enum hedge_what {
	HE_STARTED,	/* attempt started beside attempt beside */
	HE_FAILED,	/* attempt failed while others ran */
	HE_WON,		/* attempt succeeded first: others are cancelled */
	HE_CANCELLED,	/* attempt was stopped: another won */
};

struct hedge_event {
	enum hedge_what	 what;
	unsigned long	 attempt;
	unsigned long	 beside;	/* HE_STARTED: the youngest before it;
					 * HE_CANCELLED: the attempt that
					 * ended the round */
	unsigned	 others;	/* HE_WON: cancelled; HE_FAILED: still
					 * running */
	bool		 won;		/* HE_CANCELLED: beside succeeded (else
					 * it ended the run, as a stop) */
	const struct attempt_result *result;	/* HE_FAILED, or NULL */
	int64_t		 after;		/* HE_STARTED: the hedge delay, ns */
	int64_t		 duration;	/* of the attempt, ns */
	int64_t		 elapsed;	/* since retry started, ns */
	unsigned long	 failed;	/* HE_STARTED: the attempt after whose
					 * failure after is counted, or 0:
					 * after beside's start */
	enum reason	 why;		/* HE_FAILED: why it failed */
};

/* The line of e in l, finished as report_format finishes its own; where
 * the body starts, after the prefix (0 in JSON). */
size_t	hedge_format(struct line *l, const struct reporter *,
	    const struct hedge_event *e, const struct timespec *now);
/* A line of output that no reader got (a cancelled attempt's, or one that
 * failed beside others), for the log: "retry: NAME: attempt N stdout:
 * LINE", made visible, or an "output" object with the line as a JSON
 * string. */
void	hedge_format_output(struct line *l, const struct reporter *,
	    unsigned long attempt, const char *stream, const char *text,
	    size_t len, const struct timespec *now);

#endif
