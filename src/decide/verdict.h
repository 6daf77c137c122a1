/* What an attempt's end means: success, retry or stop. Pure. */
#ifndef RETRY_VERDICT_H
#define RETRY_VERDICT_H

#include <stdbool.h>

#include "codes.h"
#include "match.h"

enum verdict { V_SUCCESS, V_RETRY, V_STOP };

enum reason {
	WHY_NONE,
	WHY_STOP_ON,		/* the status is a --stop-on status */
	WHY_STOP_OUTPUT,	/* --stop-if-output matched */
	WHY_INTERRUPTED,	/* death by SIGINT or SIGQUIT */
	WHY_FAIL_OUTPUT,	/* failure: --fail-if-output matched */
	WHY_NO_UNTIL,		/* failure: --until-output did not match */
	WHY_NOT_RETRY_ON,	/* a failure that no retry rule covers */
	WHY_READER_GONE,	/* the reader of retry's output has gone */
	WHY_SIGNALLED,		/* death by a signal, under --until/--while */
	WHY_MATCHED,		/* success: --until-output matched, and
				 * --exit-on-match ended the attempt there */
	WHY_QUIT,		/* death by SIGPIPE in the terminal's
				 * foreground: its pager was quit */
};

/* What decides a verdict: statuses, and rules on the output. */
struct verdict_rules {
	struct codes	 success_on, retry_on, stop_on;
	struct output_rules output;	/* compiled */
	/* --until or --while, as in Debian's retry: the run ends with the
	 * last attempt's own status, and at once on a death by signal. */
	bool		 criteria;
	/* --exit-on-match: a line that matches --until-output ends the
	 * attempt as a success, whatever status it then ends with. */
	bool		 exit_on_match;
};

struct outcome {
	enum verdict	 verdict;
	enum reason	 reason;	/* why it stopped, or why it failed */
};

/* status: the exit code, 128 + N for death by signal N, 124 for a timeout;
 * signal: N for a death by signal N, else 0; matched: which output rules
 * matched the attempt's output; at_terminal: the attempt ended in the
 * foreground of the terminal that is retry's stdout. */
struct outcome	 verdict(const struct verdict_rules *, int status, int signal,
		    const bool matched[RULE_COUNT], bool at_terminal);

#endif
