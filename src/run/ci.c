/*
 * --ci: the groups and annotations of GitHub Actions and GitLab CI on
 * stderr, beside retry's reports, never on stdout, which stays the
 * command's: GitHub reads workflow commands on either stream, and GitLab
 * takes both into its log.  Each starts a line of its own.  The run's
 * failed statuses are kept, distinct and bounded, for the annotation that
 * names them.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cifmt.h"
#include "ci.h"
#include "clock.h"
#include "output.h"

/* The distinct statuses that annotations name, at most; and the bytes of
 * one, which "could not start: " and a cause of 255 bytes fill. */
#define CI_STATUSES	8
#define CI_STATUS_SZ	288

static struct {
	bool		 open;		/* a group is open */
	unsigned long	 attempt;	/* the attempt last started */
	char		 name[96];	/* its name (GitLab's) */
	/* CI_STATUSES of them, made at the first failure kept: a run
	 * without --ci keeps its static memory to the pages it writes. */
	char		(*failed)[CI_STATUS_SZ];
	size_t		 nfailed;
	bool		 more;		/* statuses past CI_STATUSES */
} ci;

/* l to stderr on a line of its own, as a report is written: a reader
 * that is slow is waited for in the one wait, one that has gone loses the
 * line, nothing more. */
static void
put(struct line *l)
{
	if (!l->failed && l->len > 0) {
		out_newline(true);
		(void)out_all(out_std(STDERR_FILENO), l->buf, l->len);
		out_passed(STDERR_FILENO, l->buf, l->len);
	}
	free(l->buf);
}

static int64_t
unix_now(void)
{
	return wall_ns() / NS_PER_SEC;
}

static void
close_group(const struct reporter *c)
{
	struct line l = { 0 };

	if (!ci.open)
		return;
	ci_group_end(&l, c->ci, ci.name, unix_now());
	put(&l);
	ci.open = false;
}

static void
open_group(const struct reporter *c, unsigned long attempt)
{
	struct line t = { 0 }, n = { 0 };

	close_group(c);
	report_prefix(&t, c);
	if (c->max_attempts > 0)
		line_add(&t, "attempt %lu/%lu: %s", attempt,
		    c->max_attempts, c->name);
	else
		line_add(&t, "attempt %lu: %s", attempt, c->name);
	if (c->label != NULL)
		line_add(&n, "retry_%s_attempt_%lu", c->label, attempt);
	else
		line_add(&n, "retry_attempt_%lu", attempt);
	if (!t.failed && !n.failed) {
		struct line l = { 0 };

		(void)strlcpy(ci.name, n.buf, sizeof(ci.name));
		ci_group_start(&l, c->ci, ci.name, t.buf, unix_now());
		put(&l);
		ci.open = true;
	}
	ci.attempt = attempt;
	free(t.buf);
	free(n.buf);
}

/* The status of an attempt that failed (r, or could not start: cause),
 * kept once. */
static void
keep_status(const struct attempt_result *r, const char *cause)
{
	struct line l = { 0 };

	report_status(&l, r, cause);
	if (l.failed || l.buf == NULL) {
		free(l.buf);
		return;
	}
	for (size_t i = 0; i < ci.nfailed; i++)
		if (strcmp(ci.failed[i], l.buf) == 0) {
			free(l.buf);
			return;
		}
	if (ci.failed == NULL)
		ci.failed = calloc(CI_STATUSES, sizeof(ci.failed[0]));
	if (ci.failed != NULL && ci.nfailed < CI_STATUSES)
		(void)strlcpy(ci.failed[ci.nfailed++], l.buf,
		    sizeof(ci.failed[0]));
	else
		ci.more = true;
	free(l.buf);
}

/* The statuses kept: "exit 1, killed by SIGKILL". */
static void
add_statuses(struct line *l)
{
	for (size_t i = 0; i < ci.nfailed; i++)
		line_add(l, "%s%s", i > 0 ? ", " : "", ci.failed[i]);
	if (ci.more)
		line_add(l, ", ...");
}

static void
annotate(const struct reporter *c, const struct report *e, bool error,
    const char *what)
{
	struct line t = { 0 }, m = { 0 }, l = { 0 };
	const unsigned long made = e->made > e->attempt ? e->made : e->attempt;

	report_prefix(&t, c);
	line_add(&t, "%s", error ? what : "succeeded after failures");
	if (error)
		line_add(&m, "%s: %s after %lu attempt%s: ", c->name, what,
		    made, made == 1 ? "" : "s");
	else
		line_add(&m, "%s: succeeded on attempt %lu after %lu "
		    "failure%s: ", c->name, e->attempt, e->failures,
		    e->failures == 1 ? "" : "s");
	add_statuses(&m);
	if (!t.failed && !m.failed) {
		ci_annotation(&l, c->ci, error, t.buf, m.buf);
		put(&l);
	}
	free(t.buf);
	free(m.buf);
}

void
ci_report(const struct reporter *c, const struct report *e)
{
	if (c->ci == CI_NONE)
		return;
	switch (e->event) {
	case REP_START:
		/* --hedge: the group opens when the output of the attempt
		 * that decides the round comes (ci_output). */
		if (c->hedge) {
			close_group(c);
			ci.attempt = e->attempt;
		} else
			open_group(c, e->attempt);
		break;
	case REP_FAILED:
		keep_status(e->result, e->cause);
		close_group(c);
		break;
	case REP_GIVE_UP:
	case REP_STOP:
		if (e->result != NULL || e->cause != NULL)
			keep_status(e->result, e->cause);
		close_group(c);
		if (e->event == REP_GIVE_UP)
			annotate(c, e, true, "gave up");
		else if (e->reason != WHY_READER_GONE &&
		    e->reason != WHY_QUIT && e->reason != WHY_INTERRUPTED)
			annotate(c, e, true, "stopped");
		break;
	case REP_SUCCEEDED:
	case REP_SIGNAL:
		close_group(c);
		break;
	case REP_DONE:
		close_group(c);
		annotate(c, e, false, NULL);
		break;
	case REP_SHARE:
		break;
	}
}

void
ci_output(const struct reporter *c, unsigned long attempt)
{
	if (c->ci != CI_NONE)
		open_group(c, attempt);
}

void
ci_hedge(const struct reporter *c, const struct hedge_event *e)
{
	if (c->ci != CI_NONE && e->what == HE_FAILED)
		keep_status(e->result, NULL);
}

void
ci_cannot_run(const struct reporter *c, const char *why)
{
	struct line t = { 0 }, m = { 0 }, l = { 0 };

	if (c->ci == CI_NONE)
		return;
	close_group(c);
	report_prefix(&t, c);
	line_add(&t, "could not start");
	line_add(&m, "%s: could not start", c->name);
	if (ci.attempt > 1)
		line_add(&m, " on attempt %lu", ci.attempt);
	line_add(&m, ": %s", why);
	if (ci.nfailed > 0) {
		line_add(&m, "; failed before: ");
		add_statuses(&m);
	}
	if (!t.failed && !m.failed) {
		ci_annotation(&l, c->ci, true, t.buf, m.buf);
		put(&l);
	}
	free(t.buf);
	free(m.buf);
}

void
ci_end(const struct reporter *c)
{
	if (c->ci != CI_NONE)
		close_group(c);
}
