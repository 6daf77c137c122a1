/*
 * The words of a run's events (reportfmt.h): text, one line each, or one
 * JSON object per line with --log-format json.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "codes.h"
#include "duration.h"
#include "exits.h"
#include "line.h"
#include "number.h"
#include "reportfmt.h"

/* "SIGTERM", or "signal 40". */
static void
add_signal(struct line *l, int sig)
{
	const char *name = signal_name(sig);

	if (name != NULL)
		line_add(l, "%s", name);
	else
		line_add(l, "signal %d", sig);
}

void
report_status(struct line *l, const struct attempt_result *r,
    const char *cause)
{
	const char *name;

	if (cause != NULL)
		line_add(l, "could not start: %s", cause);
	else if (r->timed_out && r->status != STATUS_TIMEDOUT)
		/* --preserve-status: the command's own. */
		line_add(l, "timed out (status %d)", r->status);
	else if (r->timed_out)
		line_add(l, "timed out");
	else if (r->signal != 0 && (name = signal_name(r->signal)) != NULL)
		line_add(l, "killed by %s", name);
	else if (r->signal != 0)
		line_add(l, "killed by signal %d", r->signal);
	else
		line_add(l, "exit %d", r->status);
}

const char *
report_failure_why(enum reason why)
{
	if (why == WHY_FAIL_OUTPUT)
		return " (a line matched --output fail)";
	if (why == WHY_NO_UNTIL)
		return " (no line matched --output until)";
	return "";
}

/* The attempts the run made, which a --forever --reset-after's count of
 * attempts may be fewer than. */
static unsigned long
made(const struct report *e)
{
	return e->made > e->attempt ? e->made : e->attempt;
}

void
report_attempt(struct line *l, const struct reporter *c, unsigned long n)
{
	if (c->max_attempts > 0)
		line_add(l, "attempt %lu/%lu", n, c->max_attempts);
	else
		line_add(l, "attempt %lu", n);
}

static void
add_next(struct line *l, const struct report *e)
{
	char d[DURATION_BUFSZ];

	line_add(l, "; next attempt in %s", duration_format(e->delay, d,
	    sizeof(d)));
	if (!e->hinted)
		return;
	/* The strategy's delay is longer than what was asked: it stands. */
	if (!e->asked) {
		line_add(l, ", the strategy's: the command's output asked for "
		    "%s", duration_format(e->wanted, d, sizeof(d)));
		return;
	}
	if (e->wanted == e->delay) {
		line_add(l, ", as the command's output asked");
		return;
	}
	/* Held within --min-delay and --max-delay: said, with the hint. */
	line_add(l, ", %s: the command's output asked for %s",
	    e->wanted > e->delay ? "capped" : "raised to --min-delay",
	    duration_format(e->wanted, d, sizeof(d)));
}

/* REP_SHARE's text. */
static void
share_text(struct line *l, const struct reporter *c, const struct report *e)
{
	char d[DURATION_BUFSZ];

	switch (e->shared) {
	case SE_OPENED:
		line_add(l, "the circuit of %s opened after %lu failure%s in a "
		    "row: no run starts an attempt for %s", c->share,
		    c->share_rules->trip, c->share_rules->trip == 1 ? "" : "s",
		    duration_format(
		    c->share_rules->cooldown, d, sizeof(d)));
		return;
	case SE_REOPENED:
		line_add(l, "the circuit of %s opened again: the probe failed; "
		    "no run starts an attempt for %s", c->share,
		    duration_format(c->share_rules->cooldown, d, sizeof(d)));
		return;
	case SE_PROBE:
		line_add(l, "the circuit of %s is half-open: ", c->share);
		report_attempt(l, c, e->attempt);
		line_add(l, " probes it");
		return;
	case SE_CLOSED:
		line_add(l, "the circuit of %s closed: the probe succeeded",
		    c->share);
		return;
	case SE_WAIT_OPEN:
	case SE_WAIT_PROBE:
	case SE_WAIT_NOT_BEFORE:
		report_attempt(l, c, e->attempt);
		if (e->shared == SE_WAIT_OPEN)
			line_add(l, " waits %s: the circuit of %s is open",
			    duration_format(duration_round(e->wait), d,
			    sizeof(d)), c->share);
		else if (e->shared == SE_WAIT_PROBE)
			line_add(l, " waits: another run probes the circuit "
			    "of %s", c->share);
		else
			line_add(l, " waits %s: another run of %s was asked to "
			    "wait that long", duration_format(
			    duration_round(e->wait), d, sizeof(d)), c->share);
		return;
	case SE_GIVE_UP_OPEN:
		if (e->waited == WAIT_PROBE)
			line_add(l, "giving up: another run probes the "
			    "circuit of %s (--share-open giveup)", c->share);
		else
			line_add(l, "giving up: the circuit of %s is open "
			    "(--share-open giveup)", c->share);
		return;
	case SE_PAST_BUDGET:
		line_add(l, "giving up: %s %s would pass the %s %s",
		    e->waited == WAIT_OPEN ? "waiting for the circuit of" :
		    e->waited == WAIT_PROBE ? "waiting for the probe of" :
		    "waiting for the not-before of", c->share,
		    duration_format(e->give_up == GIVE_UP_DEADLINE ?
		    c->deadline : c->budget, d, sizeof(d)),
		    e->give_up == GIVE_UP_DEADLINE ? "deadline" : "budget");
		return;
	case SE_STORE_DOWN:
		line_add(l, "giving up: the store of %s does not answer "
		    "(--share-required)", c->share);
		return;
	}
}

/*
 * Why --deadline ended the run: reached, when the event came at it (an
 * attempt or an --on-retry hook stopped there); else, as --budget says,
 * that the next attempt would start past it, the run ending before.
 */
static void
add_deadline(struct line *l, const struct reporter *c, const struct report *e)
{
	char d[DURATION_BUFSZ];

	duration_format(c->deadline, d, sizeof(d));
	if (e->elapsed >= c->deadline)
		line_add(l, "the %s deadline is reached", d);
	else
		line_add(l, "the next attempt would start past the %s "
		    "deadline", d);
}

/* The text of an event, after the prefix. */
static void
text(struct line *l, const struct reporter *c, const struct report *e)
{
	char d[DURATION_BUFSZ], t[2][NUMBER_BUFSZ], lim[128];
	unsigned long n;

	switch (e->event) {
	case REP_START:
		report_attempt(l, c, e->attempt);
		line_add(l, " starting");
		return;
	case REP_SUCCEEDED:
		report_attempt(l, c, e->attempt);
		line_add(l, " succeeded");
		/* A success by --success-on or --until says which. */
		if (e->result != NULL && e->result->status != 0) {
			line_add(l, ": ");
			report_status(l, e->result, e->cause);
		}
		line_add(l, " after %s", duration_format(
		    duration_round(e->duration), d, sizeof(d)));
		if (e->reason == WHY_MATCHED)
			line_add(l, ": a line matched --output until "
			    "(--exit-on-match)");
		if (c->successes > 1)
			line_add(l, ", %lu of %lu in a row", e->streak,
			    c->successes);
		if (e->delay >= 0)
			add_next(l, e);
		else if (e->give_up == GIVE_UP_BUDGET)
			/* --forever: the run ends on a success. */
			line_add(l, "; ending: the next attempt would start "
			    "past the %s budget", duration_format(c->budget, d,
			    sizeof(d)));
		else if (e->give_up == GIVE_UP_DEADLINE) {
			line_add(l, "; ending: ");
			add_deadline(l, c, e);
		}
		return;
	case REP_FAILED:
		report_attempt(l, c, e->attempt);
		line_add(l, " failed: ");
		report_status(l, e->result, e->cause);
		if (e->cause == NULL)
			line_add(l, " after %s%s", duration_format(
			    duration_round(e->duration), d, sizeof(d)),
			    report_failure_why(e->reason));
		add_next(l, e);
		return;
	case REP_GIVE_UP:
		n = made(e);
		line_add(l, "giving up after %lu attempt%s in %s: ", n,
		    n == 1 ? "" : "s", duration_format(
		    duration_round(e->elapsed), d, sizeof(d)));
		report_status(l, e->result, e->cause);
		line_add(l, "%s", report_failure_why(e->reason));
		/* A success short of --successes in a row. */
		if (c->successes > 1 && e->streak > 0)
			line_add(l, ", %lu of %lu in a row", e->streak,
			    c->successes);
		if (e->give_up == GIVE_UP_BUDGET)
			line_add(l, "; the next attempt would start past the "
			    "%s budget", duration_format(c->budget, d,
			    sizeof(d)));
		else if (e->give_up == GIVE_UP_DURATION)
			line_add(l, "; --max-actual-duration reached");
		else if (e->give_up == GIVE_UP_DEADLINE) {
			line_add(l, "; ");
			add_deadline(l, c, e);
		} else if (e->give_up == GIVE_UP_SHARED) {
			line_add(l, "; the retry budget of ");
			line_add_visible(l, c->share, strlen(c->share));
			line_add(l, " is spent (%s of %s tokens left)",
			    number_text(share_shown(e->tokens), t[0]),
			    number_text(c->share_rules->max, t[1]));
		} else if (e->give_up == GIVE_UP_STORE)
			line_add(l, "; the store of %s does not answer "
			    "(--share-required)", c->share);
		else if (e->give_up == GIVE_UP_LIMIT)
			line_add(l, "; %s", codes_limit_text(e->limit, lim,
			    sizeof(lim)));
		else if (e->give_up == GIVE_UP_SUCCESSES)
			line_add(l, "; --max %lu leaves too few attempts for "
			    "%lu successes in a row", c->max_attempts,
			    c->successes);
		return;
	case REP_SHARE:
		share_text(l, c, e);
		return;
	case REP_DONE:
		line_add(l, "succeeded on attempt %lu", e->hedged ?
		    e->attempt : made(e));
		if (c->max_attempts > 0)
			line_add(l, " of %lu", c->max_attempts);
		line_add(l, " after %s", duration_format(
		    duration_round(e->elapsed), d, sizeof(d)));
		/* A success by --success-on, --until or --while says which. */
		if (e->result != NULL && e->result->status != 0) {
			line_add(l, ": ");
			report_status(l, e->result, e->cause);
		}
		return;
	case REP_SIGNAL:
		add_signal(l, e->received);
		if (e->result == NULL && e->attempt == 0)
			line_add(l, " before the first attempt");
		else if (e->result == NULL) {
			line_add(l, " while waiting after ");
			report_attempt(l, c, e->attempt);
		} else if (e->result->forwarded && e->result->in_flight > 1) {
			line_add(l, " sent on to the %u attempts in flight; ",
			    e->result->in_flight);
			report_attempt(l, c, e->attempt);
			line_add(l, " ended: ");
		} else {
			line_add(l, e->result->terminal ?
			    " from the terminal during " :
			    e->result->forwarded ? " sent on to " : " during ");
			report_attempt(l, c, e->attempt);
			line_add(l, ", which ended: ");
		}
		if (e->result != NULL) {
			report_status(l, e->result, e->cause);
			line_add(l, " after %s", duration_format(
			    duration_round(e->duration), d, sizeof(d)));
		}
		line_add(l, "; stopping");
		return;
	case REP_STOP:
		/* Between attempts (a wait on the shared state) there is no
		 * attempt to speak of. */
		if (e->result == NULL && e->cause == NULL)
			line_add(l, "stopping before attempt %lu", e->attempt);
		else {
			line_add(l, "stopping: ");
			report_status(l, e->result, e->cause);
		}
		if (e->reason == WHY_READER_GONE)
			line_add(l, "; the reader of its output has gone");
		else if (e->reason == WHY_STOP_ON)
			line_add(l, " is a --stop-on status");
		else if (e->reason == WHY_STOP_OUTPUT)
			line_add(l, ", and a line matched --output stop");
		else if (e->reason == WHY_INTERRUPTED)
			line_add(l, " (interrupted)");
		else if (e->reason == WHY_QUIT)
			line_add(l, " in the terminal's foreground (a pager "
			    "quit)");
		else if (e->reason == WHY_SIGNALLED)
			line_add(l, "; --until and --while judge exit statuses "
			    "only");
		else if (e->reason == WHY_NOT_RETRY_ON) {
			if (c->retry_on)
				line_add(l, " is not a --retry-on status");
			if (c->retry_if_output)
				line_add(l, ", and no line matched "
				    "--output retry");
		}
		return;
	}
}

static const char *const event_names[] = {
	[REP_START] = "start", [REP_FAILED] = "failure",
	[REP_SUCCEEDED] = "success", [REP_GIVE_UP] = "giveup",
	[REP_STOP] = "stop", [REP_SIGNAL] = "signal", [REP_SHARE] = "share",
	[REP_DONE] = "done",
};

static const char *const share_events[] = {
	[SE_OPENED] = "opened", [SE_REOPENED] = "reopened",
	[SE_PROBE] = "probe", [SE_CLOSED] = "closed",
	[SE_WAIT_OPEN] = "wait_open", [SE_WAIT_PROBE] = "wait_probe",
	[SE_WAIT_NOT_BEFORE] = "wait_not_before",
	[SE_GIVE_UP_OPEN] = "giveup_open", [SE_PAST_BUDGET] = "past_budget",
	[SE_STORE_DOWN] = "store_down",
};

/* The names of the reasons, in JSON. */
static const char *const reason_names[] = {
	[WHY_NONE] = "status", [WHY_STOP_ON] = "stop_on",
	[WHY_STOP_OUTPUT] = "stop_if_output",
	[WHY_INTERRUPTED] = "interrupted",
	[WHY_FAIL_OUTPUT] = "fail_if_output",
	[WHY_NO_UNTIL] = "until_output",
	[WHY_NOT_RETRY_ON] = "not_retried",
	[WHY_READER_GONE] = "reader_gone",
	[WHY_SIGNALLED] = "signalled",
	[WHY_MATCHED] = "matched",
	[WHY_QUIT] = "quit",
};

/* Whether e is an event that ends the run: a give-up, a stop, a signal,
 * a success that no attempt follows, the closing line of a success after
 * failures, and shared state's answers that end it. */
static bool
ends_run(const struct report *e)
{
	switch (e->event) {
	case REP_START:
	case REP_FAILED:
		return false;
	case REP_SUCCEEDED:
		return e->delay < 0;
	case REP_SHARE:
		return e->shared == SE_GIVE_UP_OPEN ||
		    e->shared == SE_PAST_BUDGET || e->shared == SE_STORE_DOWN;
	case REP_GIVE_UP:
	case REP_STOP:
	case REP_SIGNAL:
	case REP_DONE:
		return true;
	}
	return false;
}

/*
 * "reason": why the run ended, on the events that end it, or NULL: on
 * every other event, and where a run ends as its command's success asks.
 */
static const char *
run_reason(const struct report *e)
{
	static const char *const give_ups[] = {
		[GIVE_UP_NONE] = "max_attempts", [GIVE_UP_MAX] = "max_attempts",
		[GIVE_UP_BUDGET] = "budget",
		[GIVE_UP_DURATION] = "max_actual_duration",
		[GIVE_UP_SHARED] = "share_budget",
		[GIVE_UP_STORE] = "share_store",
		[GIVE_UP_LIMIT] = "retry_on_limit",
		[GIVE_UP_SUCCESSES] = "successes",
		[GIVE_UP_DEADLINE] = "deadline",
	};

	if (!ends_run(e))
		return NULL;
	switch (e->event) {
	case REP_SIGNAL:
		return "signal";
	case REP_STOP:
		return reason_names[e->reason];
	case REP_GIVE_UP:
		return give_ups[e->give_up];
	case REP_SHARE:
		return e->shared == SE_GIVE_UP_OPEN ? "share_open" :
		    e->shared == SE_PAST_BUDGET ? (e->give_up ==
		    GIVE_UP_DEADLINE ? "deadline" : "budget") : "share_store";
	default:
		/* A --forever run ends on a success too. */
		return e->give_up == GIVE_UP_BUDGET ? "budget" :
		    e->give_up == GIVE_UP_DEADLINE ? "deadline" : NULL;
	}
}

/*
 * "attempt_reason": why the attempt that e judges got its verdict, or
 * NULL where e judges none (a start, a signal, shared state's events): its
 * status ("status"), an output rule, a stop rule, or that it could not
 * start.
 */
static const char *
attempt_reason(const struct report *e)
{
	if (e->event == REP_START || e->event == REP_SIGNAL ||
	    e->event == REP_SHARE || (e->result == NULL && e->cause == NULL))
		return NULL;
	if (e->cause != NULL)
		return "not_started";
	return reason_names[e->verdict_why];
}

void
report_stamp(struct line *l, const struct timespec *now)
{
	struct tm tm;
	char buf[32];

	gmtime_r(&now->tv_sec, &tm);
	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%S", &tm);
	line_add(l, "%s.%03ldZ", buf, now->tv_nsec / 1000000);
}

void
report_json_head(struct line *l, const struct reporter *c, const char *event,
    const struct timespec *now)
{
	line_add(l, "{\"ts\":\"");
	report_stamp(l, now);
	line_add(l, "\",\"event\":\"%s\",\"label\":", event);
	if (c->label != NULL)
		line_add_json(l, c->label);
	else
		line_add(l, "null");
	line_add(l, ",\"command\":[");
	for (int i = 0; i < c->nargs; i++) {
		line_add(l, i > 0 ? "," : "");
		line_add_json(l, c->args[i]);
	}
	line_add(l, "],\"name\":");
	if (c->label != NULL)
		line_add_json(l, c->label);
	else if (c->nargs > 0) {
		struct line q = { 0 };

		report_quote_command(&q, c->args, c->nargs);
		if (q.failed)
			l->failed = true;
		else
			line_add_json_n(l, q.buf, q.len);
		free(q.buf);
	} else
		line_add(l, "null");
}

/* One JSON object, the contract's fields, null where they do not apply. */
static void
json(struct line *l, const struct reporter *c, const struct report *e,
    const struct timespec *now)
{
	const struct attempt_result *r = e->result;
	const char *why = run_reason(e), *judged = attempt_reason(e), *sig;
	char t[1][NUMBER_BUFSZ];

	report_json_head(l, c, event_names[e->event], now);
	line_add(l, ",\"attempt\":%lu,\"max_attempts\":%lu", e->attempt,
	    c->max_attempts);
	if (r != NULL) {
		line_add(l, ",\"status\":%d,\"signal\":", r->status);
		if (r->signal != 0 && (sig = signal_name(r->signal)) != NULL)
			line_add(l, "\"%s\"", sig);
		else
			line_add(l, "null");
		line_add(l, ",\"timed_out\":%s", r->timed_out ? "true" :
		    "false");
		line_add(l, ",\"duration_ms\":%lld",
		    (long long)(e->duration / NS_PER_MS));
	} else
		line_add(l, ",\"status\":null,\"signal\":null,"
		    "\"timed_out\":false,\"duration_ms\":null");
	line_add(l, ",\"elapsed_ms\":%lld",
	    (long long)(e->elapsed / NS_PER_MS));
	if (e->delay >= 0 && e->event != REP_START) {
		line_add(l, ",\"delay_ms\":%lld,\"delay_from_output\":%s",
		    (long long)(e->delay / NS_PER_MS),
		    e->asked ? "true" : "false");
		line_add(l, ",\"strategy_delay_ms\":%lld",
		    (long long)((e->hinted ? e->strategy : e->delay) /
		    NS_PER_MS));
		if (e->hinted)
			line_add(l, ",\"output_delay_ms\":%lld",
			    (long long)(e->wanted / NS_PER_MS));
		else
			line_add(l, ",\"output_delay_ms\":null");
	} else
		line_add(l, ",\"delay_ms\":null,\"delay_from_output\":false,"
		    "\"strategy_delay_ms\":null,\"output_delay_ms\":null");
	line_add(l, ",\"attempt_reason\":");
	if (judged != NULL)
		line_add(l, "\"%s\"", judged);
	else
		line_add(l, "null");
	line_add(l, ",\"reason\":");
	if (why != NULL)
		line_add(l, "\"%s\"", why);
	else
		line_add(l, "null");
	if (e->cause != NULL && e->event != REP_START) {
		line_add(l, ",\"message\":");
		line_add_json(l, e->cause);
	}
	/* The two ends of a run that count its attempts. */
	if (e->event == REP_GIVE_UP || e->event == REP_DONE)
		line_add(l, ",\"attempts\":%lu,\"failures\":%lu", made(e),
		    e->failures);
	if (e->event == REP_GIVE_UP && e->give_up == GIVE_UP_LIMIT) {
		/* Checked: digits, '-', ':' and a signal's name. */
		line_add(l, ",\"limit\":\"%.*s\"", (int)e->limit->len,
		    e->limit->item);
	}
	if (e->event == REP_SUCCEEDED && c->successes > 1)
		line_add(l, ",\"in_a_row\":%lu", e->streak);
	if (c->share != NULL) {
		line_add(l, ",\"share\":\"%s\"", c->share);
		if (e->event == REP_SHARE)
			line_add(l, ",\"what\":\"%s\"",
			    share_events[e->shared]);
		if ((e->event == REP_SHARE && (e->shared == SE_OPENED ||
		    e->shared == SE_REOPENED || e->shared == SE_CLOSED)) ||
		    (e->event == REP_GIVE_UP && e->give_up == GIVE_UP_SHARED))
			line_add(l, ",\"tokens\":%s", number_text(
			    share_shown(e->tokens), t[0]));
		if (e->event == REP_SHARE && e->wait >= 0)
			line_add(l, ",\"wait_ms\":%lld",
			    (long long)(e->wait / NS_PER_MS));
	}
	if (e->event == REP_SIGNAL) {
		line_add(l, ",\"received\":\"");
		add_signal(l, e->received);
		line_add(l, "\",\"forwarded\":%s,\"from_terminal\":%s",
		    r != NULL && r->forwarded ? "true" : "false",
		    r != NULL && r->terminal ? "true" : "false");
	}
	line_add(l, "}");
}

/* l made visible (text) and ended with a newline. */
void
report_finish(const struct reporter *c, struct line *l)
{
	struct line v = { 0 };

	if (!c->json && !l->failed) {
		line_add_visible(&v, l->buf, l->len);
		free(l->buf);
		*l = v;
	}
	line_add(l, "\n");
}

void
report_prefix(struct line *l, const struct reporter *c)
{
	if (c->label == NULL) {
		line_add(l, "retry: ");
		return;
	}
	line_add(l, "retry[");
	line_add_visible(l, c->label, strlen(c->label));
	line_add(l, "]: ");
}

void
report_prefix_named(struct line *l, const struct reporter *c)
{
	if (c->label == NULL && c->line_name[0] != '\0')
		line_add(l, "retry: %s: ", c->line_name);
	else
		report_prefix(l, c);
}

size_t
report_format_error(struct line *l, const struct reporter *c,
    const char *msg, const struct timespec *now)
{
	size_t body = 0;

	if (c->json) {
		report_json_head(l, c, "error", now);
		line_add(l, ",\"message\":");
		line_add_json(l, msg);
		line_add(l, "}");
	} else {
		report_prefix_named(l, c);
		body = l->len;
		line_add_visible(l, msg, strlen(msg));
	}
	report_finish(c, l);
	return body;
}

size_t
report_format(struct line *l, const struct reporter *c,
    const struct report *e, const struct timespec *now)
{
	size_t body = 0;

	if (c->json)
		json(l, c, e, now);
	else {
		report_prefix_named(l, c);
		body = l->len;
		text(l, c, e);
	}
	report_finish(c, l);
	return body;
}
