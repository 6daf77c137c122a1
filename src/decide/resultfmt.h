/*
 * The run's figures as --result-file writes them, key=value lines in the
 * format of GitHub's $GITHUB_OUTPUT, so that a CI's next step can read
 * them:
 *
 *	result=success		or gave-up, or stopped
 *	retry_status=0		retry's exit status, as $? gives it after
 *	total_attempts=3	attempts made
 *	succeeded_on=3		the attempt that succeeded, empty when none
 *	exit_code=0		the last attempt's status, empty when none
 *				ran, or it could not be run
 *	elapsed_ms=1204		since retry started
 *
 * total_attempts and exit_code are what nick-fields/retry, the GitHub
 * Action, names its outputs.
 *
 * Numbers and words only: no value holds a line break, so none needs the
 * format's delimiters.  Pure.
 */
#ifndef RETRY_RESULTFMT_H
#define RETRY_RESULTFMT_H

#include <stddef.h>
#include <stdint.h>

#include "attempt.h"
#include "policy.h"

/* Room for every line, whatever the numbers. */
#define FIGURES_MAX	256

/* The result, as the reports say it: "success" when a verdict ended the
 * run in one; "gave-up" when the back-off, a limit or shared state ended
 * it; "stopped" for a --stop-on verdict, a signal, a command that cannot
 * run or retry's own error. */
const char	*figures_result(const struct next *);
/* The lines of a run that x ends (NEXT_EXIT, or NEXT_DIE of a signal)
 * after made attempts, the last one's result last (NULL: none), elapsed
 * ns since it started, into buf (FIGURES_MAX bytes); their length. */
size_t		 figures_format(char *buf, const struct next *x,
		    unsigned long made, const struct attempt_result *last,
		    int64_t elapsed);

#endif
