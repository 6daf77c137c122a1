/* --ci: a run's events as the CI's log shows them, on stderr beside the
 * reports: each attempt in a collapsible group, an annotation when a run
 * succeeds after failures or ends in one.  The lines are cifmt.h's. */
#ifndef RETRY_CI_H
#define RETRY_CI_H

#include "hedgefmt.h"
#include "reportfmt.h"

/* e, as the CI that c names says it (nothing with CI_NONE): REP_START
 * before the event's own report, any other after it.  With --hedge, an
 * attempt's group opens only when its output comes (ci_output). */
void	ci_report(const struct reporter *c, const struct report *e);
/* --hedge: the output of attempt, which decided its round, comes next:
 * its group opened, titled with it. */
void	ci_output(const struct reporter *c, unsigned long attempt);
/* --hedge's event e: a failure beside others is kept for the annotations,
 * as any failure. */
void	ci_hedge(const struct reporter *c, const struct hedge_event *e);
/* The command that could not be run (not found, not executable: why):
 * its group closed, and an error annotation naming it and why, as a run
 * that gives up leaves (nothing with CI_NONE). */
void	ci_cannot_run(const struct reporter *c, const char *why);
/* The group left open, closed: a run that ends mid-attempt. */
void	ci_end(const struct reporter *c);

#endif
