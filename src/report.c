/* Text reports: one line per event, "retry: " or "retry[LABEL]: " first. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "codes.h"
#include "duration.h"
#include "report.h"

static void
prefix(const struct config *c, FILE *f)
{
	if (c->label != NULL)
		fprintf(f, "retry[%s]: ", c->label);
	else
		fputs("retry: ", f);
}

/* "exit 1", "killed by SIGSEGV", "timed out" */
static const char *
status(const struct attempt_result *r, char *buf, size_t sz)
{
	const char *name;

	if (r->timed_out)
		snprintf(buf, sz, "timed out");
	else if (r->signal != 0 && (name = signal_name(r->signal)) != NULL)
		snprintf(buf, sz, "killed by %s", name);
	else if (r->signal != 0)
		snprintf(buf, sz, "killed by signal %d", r->signal);
	else
		snprintf(buf, sz, "exit %d", r->status);
	return buf;
}

/* Why an attempt whose status was a success still failed. */
static const char *
output_failure(enum reason why)
{
	if (why == WHY_FAIL_OUTPUT)
		return " (a line matched --fail-if-output)";
	if (why == WHY_NO_UNTIL)
		return " (no line matched --until-output)";
	return "";
}

static void
attempt(const struct config *c, unsigned long n, FILE *f)
{
	if (c->backoff.max_attempts > 0)
		fprintf(f, "attempt %lu/%lu", n, c->backoff.max_attempts);
	else
		fprintf(f, "attempt %lu", n);
}

void
report(const struct config *c, const struct report *e)
{
	char st[48], d1[DURATION_BUFSZ], d2[DURATION_BUFSZ];
	FILE *f = stderr;

	if (c->verbosity == QUIET ||
	    (c->verbosity < VERBOSE &&
	    (e->event == EV_START || e->event == EV_SUCCEEDED)))
		return;
	flockfile(f);
	prefix(c, f);
	switch (e->event) {
	case EV_START:
		attempt(c, e->attempt, f);
		fputs(" starting", f);
		break;
	case EV_SUCCEEDED:
		attempt(c, e->attempt, f);
		fprintf(f, " succeeded after %s",
		    duration_format(duration_round(e->duration), d1, sizeof(d1)));
		break;
	case EV_FAILED:
		attempt(c, e->attempt, f);
		fprintf(f, " failed: %s after %s%s; next attempt in %s",
		    status(e->result, st, sizeof(st)),
		    duration_format(duration_round(e->duration), d1, sizeof(d1)),
		    output_failure(e->reason),
		    duration_format(e->delay, d2, sizeof(d2)));
		break;
	case EV_GIVE_UP:
		fprintf(f, "giving up after %lu attempt%s in %s: %s%s",
		    e->attempt, e->attempt == 1 ? "" : "s",
		    duration_format(duration_round(e->elapsed), d1, sizeof(d1)),
		    status(e->result, st, sizeof(st)),
		    output_failure(e->reason));
		if (e->give_up == GIVE_UP_BUDGET)
			fprintf(f, "; next attempt would end past the %s "
			    "budget", duration_format(c->budget, d2,
			    sizeof(d2)));
		else if (e->give_up == GIVE_UP_DURATION)
			fputs("; --max-actual-duration reached", f);
		break;
	case EV_STOP:
		fprintf(f, "stopping: %s", status(e->result, st, sizeof(st)));
		if (e->reason == WHY_STOP_ON)
			fputs(" is a --stop-on status", f);
		else if (e->reason == WHY_STOP_OUTPUT)
			fputs(", and a line matched --stop-if-output", f);
		else if (e->reason == WHY_NOT_RETRY_ON) {
			if (c->retry_on.set)
				fputs(" is not a --retry-on status", f);
			if (c->output.set[RULE_RETRY])
				fputs(", and no line matched --retry-if-output",
				    f);
		}
		else if (e->reason == WHY_INTERRUPTED)
			fputs(" (interrupted)", f);
		break;
	}
	fputc('\n', f);
	funlockfile(f);
}

void
report_error(const struct config *c, const char *fmt, ...)
{
	va_list ap;

	flockfile(stderr);
	prefix(c, stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	funlockfile(stderr);
}
