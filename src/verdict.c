/* The verdict on an attempt, in the contract's order: stop rules first,
 * then success or failure, then whether a failure is retried. */
#include <signal.h>

#include "verdict.h"

struct outcome
verdict(const struct rules *r, int status, int sig)
{
	if (r->stop_on->set && codes_has(r->stop_on, status))
		return (struct outcome){ V_STOP, WHY_STOP_ON };
	/* The user asked to stop: Ctrl-C or Ctrl-\ reached the command. */
	if (sig == SIGINT || sig == SIGQUIT)
		return (struct outcome){ V_STOP, WHY_INTERRUPTED };
	if (codes_has(r->success_on, status))
		return (struct outcome){ V_SUCCESS, WHY_NONE };
	if (r->retry_on->set && !codes_has(r->retry_on, status))
		return (struct outcome){ V_STOP, WHY_NOT_RETRY_ON };
	return (struct outcome){ V_RETRY, WHY_NONE };
}
