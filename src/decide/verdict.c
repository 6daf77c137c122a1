/* The verdict on an attempt, in the contract's order: stop rules first,
 * then success or failure, then whether a failure is retried. */
#include <signal.h>

#include "verdict.h"

struct outcome
verdict(const struct verdict_rules *r, int status, int sig,
    const bool matched[RULE_COUNT], bool at_terminal)
{
	enum reason failed = WHY_NONE;
	bool given[RULE_COUNT];

	for (int k = 0; k < RULE_COUNT; k++)
		given[k] = rule_given(&r->output, (enum rule_kind)k);

	if (r->stop_on.set && codes_has(&r->stop_on, status))
		return (struct outcome){ V_STOP, WHY_STOP_ON };
	if (given[RULE_STOP] && matched[RULE_STOP])
		return (struct outcome){ V_STOP, WHY_STOP_OUTPUT };
	/* The user asked to stop: Ctrl-C or Ctrl-\ reached the command. */
	if (sig == SIGINT || sig == SIGQUIT)
		return (struct outcome){ V_STOP, WHY_INTERRUPTED };
	/*
	 * So did the user who quit a pager (git log's less) that the
	 * command wrote to at the terminal: the command dies of SIGPIPE as
	 * it writes on.  A peer that closed a socket, or a reader that left
	 * a pipe of the command's own, makes a SIGPIPE as well, but seldom in
	 * the foreground of a terminal that is also retry's output.
	 */
	if (sig == SIGPIPE && at_terminal)
		return (struct outcome){ V_STOP, WHY_QUIT };
	/* --exit-on-match: the status is retry's stop of the attempt, or
	 * what a race with it left; the match counts, unless a line before
	 * it matched --fail-if-output. */
	if (r->exit_on_match && matched[RULE_UNTIL] &&
	    !(given[RULE_FAIL] && matched[RULE_FAIL]))
		return (struct outcome){ V_SUCCESS, WHY_MATCHED };
	if (r->criteria && sig != 0)
		return (struct outcome){ V_STOP, WHY_SIGNALLED };
	if (given[RULE_FAIL] && matched[RULE_FAIL])
		failed = WHY_FAIL_OUTPUT;
	else if (given[RULE_UNTIL] && !matched[RULE_UNTIL])
		failed = WHY_NO_UNTIL;
	if (failed == WHY_NONE && codes_has(&r->success_on, status))
		return (struct outcome){ V_SUCCESS, WHY_NONE };
	if ((r->retry_on.set || given[RULE_RETRY]) &&
	    !(r->retry_on.set && codes_has(&r->retry_on, status)) &&
	    !(given[RULE_RETRY] && matched[RULE_RETRY]))
		return (struct outcome){ V_STOP, WHY_NOT_RETRY_ON };
	return (struct outcome){ V_RETRY, failed };
}
