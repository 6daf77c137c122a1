/*
 * Reports: one line per event, "retry: " or "retry[LABEL]: " first, or one
 * JSON object per line with --log-format json.  -q and --verbose choose what
 * stderr shows; the log file and syslog get every event.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "codes.h"
#include "duration.h"
#include "exits.h"
#include "line.h"
#include "logfile.h"
#include "number.h"
#include "output.h"
#include "report.h"


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

/* "exit 1", "killed by SIGSEGV", "timed out", "could not start: ..." */
static void
add_status(struct line *l, const struct report *e)
{
	const struct attempt_result *r = e->result;
	const char *name;

	if (e->cause != NULL)
		line_add(l, "could not start: %s", e->cause);
	else if (r->timed_out && r->status != EXIT_TIMEDOUT)
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

/* The attempts the run made, which a --forever --reset-after's count of
 * attempts may be fewer than. */
static unsigned long
made(const struct report *e)
{
	return e->made > e->attempt ? e->made : e->attempt;
}

static void
add_attempt(struct line *l, const struct reporter *c, unsigned long n)
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

/* EV_SHARE's text. */
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
		add_attempt(l, c, e->attempt);
		line_add(l, " probes it");
		return;
	case SE_CLOSED:
		line_add(l, "the circuit of %s closed: the probe succeeded",
		    c->share);
		return;
	case SE_WAIT_OPEN:
	case SE_WAIT_PROBE:
	case SE_WAIT_NOT_BEFORE:
		add_attempt(l, c, e->attempt);
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
		line_add(l, "giving up: %s %s would pass the %s budget",
		    e->waited == WAIT_OPEN ? "waiting for the circuit of" :
		    e->waited == WAIT_PROBE ? "waiting for the probe of" :
		    "waiting for the not-before of", c->share,
		    duration_format(c->budget, d, sizeof(d)));
		return;
	case SE_STORE_DOWN:
		line_add(l, "giving up: the store of %s does not answer "
		    "(--share-required)", c->share);
		return;
	}
}

/* The text of an event, after the prefix. */
static void
text(struct line *l, const struct reporter *c, const struct report *e)
{
	char d[DURATION_BUFSZ], t[2][NUMBER_BUFSZ], lim[128];
	unsigned long n;

	switch (e->event) {
	case EV_START:
		add_attempt(l, c, e->attempt);
		line_add(l, " starting");
		return;
	case EV_SUCCEEDED:
		add_attempt(l, c, e->attempt);
		line_add(l, " succeeded");
		/* A success by --success-on or --until says which. */
		if (e->result != NULL && e->result->status != 0) {
			line_add(l, ": ");
			add_status(l, e);
		}
		line_add(l, " after %s", duration_format(
		    duration_round(e->duration), d, sizeof(d)));
		if (e->reason == WHY_MATCHED)
			line_add(l, ": a line matched --until-output "
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
		return;
	case EV_FAILED:
		add_attempt(l, c, e->attempt);
		line_add(l, " failed: ");
		add_status(l, e);
		if (e->cause == NULL)
			line_add(l, " after %s%s", duration_format(
			    duration_round(e->duration), d, sizeof(d)),
			    output_failure(e->reason));
		add_next(l, e);
		return;
	case EV_GIVE_UP:
		n = made(e);
		line_add(l, "giving up after %lu attempt%s in %s: ", n,
		    n == 1 ? "" : "s", duration_format(
		    duration_round(e->elapsed), d, sizeof(d)));
		add_status(l, e);
		line_add(l, "%s", output_failure(e->reason));
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
		else if (e->give_up == GIVE_UP_SHARED) {
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
	case EV_SHARE:
		share_text(l, c, e);
		return;
	case EV_DONE:
		line_add(l, "succeeded on attempt %lu", made(e));
		if (c->max_attempts > 0)
			line_add(l, " of %lu", c->max_attempts);
		line_add(l, " after %s", duration_format(
		    duration_round(e->elapsed), d, sizeof(d)));
		/* A success by --success-on, --until or --while says which. */
		if (e->result != NULL && e->result->status != 0) {
			line_add(l, ": ");
			add_status(l, e);
		}
		return;
	case EV_SIGNAL:
		add_signal(l, e->received);
		if (e->result == NULL && e->attempt == 0)
			line_add(l, " before the first attempt");
		else if (e->result == NULL) {
			line_add(l, " while waiting after ");
			add_attempt(l, c, e->attempt);
		} else {
			line_add(l, e->result->terminal ?
			    " from the terminal during " :
			    e->result->forwarded ? " sent on to " : " during ");
			add_attempt(l, c, e->attempt);
			line_add(l, ", which ended: ");
			add_status(l, e);
			line_add(l, " after %s", duration_format(
			    duration_round(e->duration), d, sizeof(d)));
		}
		line_add(l, "; stopping");
		return;
	case EV_STOP:
		/* Between attempts (a wait on the shared state) there is no
		 * attempt to speak of. */
		if (e->result == NULL && e->cause == NULL)
			line_add(l, "stopping before attempt %lu", e->attempt);
		else {
			line_add(l, "stopping: ");
			add_status(l, e);
		}
		if (e->reason == WHY_READER_GONE)
			line_add(l, "; the reader of its output has gone");
		else if (e->reason == WHY_STOP_ON)
			line_add(l, " is a --stop-on status");
		else if (e->reason == WHY_STOP_OUTPUT)
			line_add(l, ", and a line matched --stop-if-output");
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
				    "--retry-if-output");
		}
		return;
	}
}

static const char *const event_names[] = {
	[EV_START] = "start", [EV_FAILED] = "failure",
	[EV_SUCCEEDED] = "success", [EV_GIVE_UP] = "giveup",
	[EV_STOP] = "stop", [EV_SIGNAL] = "signal", [EV_SHARE] = "share",
	[EV_DONE] = "done",
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
	case EV_START:
	case EV_FAILED:
		return false;
	case EV_SUCCEEDED:
		return e->delay < 0;
	case EV_SHARE:
		return e->shared == SE_GIVE_UP_OPEN ||
		    e->shared == SE_PAST_BUDGET || e->shared == SE_STORE_DOWN;
	case EV_GIVE_UP:
	case EV_STOP:
	case EV_SIGNAL:
	case EV_DONE:
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
	};

	if (!ends_run(e))
		return NULL;
	switch (e->event) {
	case EV_SIGNAL:
		return "signal";
	case EV_STOP:
		return reason_names[e->reason];
	case EV_GIVE_UP:
		return give_ups[e->give_up];
	case EV_SHARE:
		return e->shared == SE_GIVE_UP_OPEN ? "share_open" :
		    e->shared == SE_PAST_BUDGET ? "budget" : "share_store";
	default:
		/* A --forever run ends on a success too. */
		return e->give_up == GIVE_UP_BUDGET ? "budget" : NULL;
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
	if (e->event == EV_START || e->event == EV_SIGNAL ||
	    e->event == EV_SHARE || (e->result == NULL && e->cause == NULL))
		return NULL;
	if (e->cause != NULL)
		return "not_started";
	return reason_names[e->verdict_why];
}

/* Now, RFC 3339 in UTC with milliseconds. */
static void
add_now(struct line *l)
{
	struct timespec ts;
	struct tm tm;
	char buf[32];

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%S", &tm);
	line_add(l, "%s.%03ldZ", buf, ts.tv_nsec / 1000000);
}

static void
add_head(struct line *l, const struct reporter *c, const char *event)
{
	line_add(l, "{\"ts\":\"");
	add_now(l);
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
	line_add(l, "]");
}

/* One JSON object, the contract's fields, null where they do not apply. */
static void
json(struct line *l, const struct reporter *c, const struct report *e)
{
	const struct attempt_result *r = e->result;
	const char *why = run_reason(e), *judged = attempt_reason(e), *sig;
	char t[1][NUMBER_BUFSZ];

	add_head(l, c, event_names[e->event]);
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
	if (e->delay >= 0 && e->event != EV_START) {
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
	if (e->cause != NULL && e->event != EV_START) {
		line_add(l, ",\"message\":");
		line_add_json(l, e->cause);
	}
	/* The two ends of a run that count its attempts. */
	if (e->event == EV_GIVE_UP || e->event == EV_DONE)
		line_add(l, ",\"attempts\":%lu,\"failures\":%lu", made(e),
		    e->failures);
	if (e->event == EV_GIVE_UP && e->give_up == GIVE_UP_LIMIT) {
		/* Checked: digits, '-', ':' and a signal's name. */
		line_add(l, ",\"limit\":\"%.*s\"", (int)e->limit->len,
		    e->limit->item);
	}
	if (e->event == EV_SUCCEEDED && c->successes > 1)
		line_add(l, ",\"in_a_row\":%lu", e->streak);
	if (c->share != NULL) {
		line_add(l, ",\"share\":\"%s\"", c->share);
		if (e->event == EV_SHARE)
			line_add(l, ",\"what\":\"%s\"",
			    share_events[e->shared]);
		if ((e->event == EV_SHARE && (e->shared == SE_OPENED ||
		    e->shared == SE_REOPENED || e->shared == SE_CLOSED)) ||
		    (e->event == EV_GIVE_UP && e->give_up == GIVE_UP_SHARED))
			line_add(l, ",\"tokens\":%s", number_text(
			    share_shown(e->tokens), t[0]));
		if (e->event == EV_SHARE && e->wait >= 0)
			line_add(l, ",\"wait_ms\":%lld",
			    (long long)(e->wait / NS_PER_MS));
	}
	if (e->event == EV_SIGNAL) {
		line_add(l, ",\"received\":\"");
		add_signal(l, e->received);
		line_add(l, "\",\"forwarded\":%s,\"from_terminal\":%s",
		    r != NULL && r->forwarded ? "true" : "false",
		    r != NULL && r->terminal ? "true" : "false");
	}
	line_add(l, "}");
}

/* Whether the text of e names the command: the first failure's line,
 * and the line that ends the run (a success that the closing line of a
 * success after failures follows does not). */
static bool
named(const struct report *e)
{
	if (e->event == EV_FAILED)
		return e->failures == 1;
	return ends_run(e) && !(e->event == EV_SUCCEEDED && e->failures > 0);
}

/*
 * The command's words into buf, quoted as a shell would need them (in
 * single quotes, but for words of only these characters), made visible,
 * and cut short with "..." past REPORT_NAME_MAX bytes.
 */
static void
name_command(char *const *args, int nargs, char *buf, size_t sz)
{
	static const char plain[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "abcdefghijklmnopqrstuvwxyz0123456789_@%+=:,./-";
	struct line l = { 0 }, v = { 0 };

	for (int i = 0; i < nargs; i++) {
		const char *w = args[i];

		line_add(&l, i > 0 ? " " : "");
		if (*w != '\0' && w[strspn(w, plain)] == '\0') {
			line_add(&l, "%s", w);
			continue;
		}
		line_add(&l, "'");
		for (size_t n; *w != '\0'; w += n) {
			n = strcspn(w, "'");
			line_add(&l, "%.*s", (int)n, w);
			if (w[n] == '\'') {
				line_add(&l, "'\\''");
				n++;
			}
		}
		line_add(&l, "'");
	}
	buf[0] = '\0';
	if (!l.failed && l.buf != NULL) {
		line_add_visible(&v, l.buf, l.len);
		/* Cut short (never inside an escape), and said so. */
		if (!v.failed && v.len <= REPORT_NAME_MAX)
			strlcpy(buf, v.buf, sz);
		else if (sz > 4) {
			(void)report_visible(l.buf, buf, sz - 3);
			for (size_t n = strlen(buf); n > 0 && buf[n - 1] == ' ';)
				buf[--n] = '\0';
			strlcat(buf, "...", sz);
		}
	}
	free(v.buf);
	free(l.buf);
}

static void
prefix(struct line *l, const struct reporter *c)
{
	if (c->label == NULL) {
		line_add(l, "retry: ");
		return;
	}
	line_add(l, "retry[");
	line_add_visible(l, c->label, strlen(c->label));
	line_add(l, "]: ");
}

static void say_dropped(const struct reporter *, bool);

/* A line to the log: the count of lines dropped first, once its reader
 * takes lines again. */
static void
log_put(const struct reporter *c, const char *buf, size_t n)
{
	struct logfile *f = c->log;

	logfile_flush(f);
	if (f->dropped > 0 && f->len == 0)
		say_dropped(c, false);
	logfile_queue(f, buf, n);
	logfile_flush(f);
}

/* l as the log has it: text with its time first. */
static void
log_line(const struct reporter *c, const struct line *l, struct line *t)
{
	if (!c->json)
		add_now(t);
	line_add(t, c->json ? "%.*s" : " %.*s", (int)l->len, l->buf);
}

/*
 * The part of a finished line from body on (without its newline) to
 * syslog, whose tag is "retry" and the pid: in text, "[LABEL] " or, without
 * a label, "[COMMAND] " first, so that runs in one log can be told apart,
 * as the log file's lines are by retry[LABEL]:; JSON names both.
 */
static void
to_syslog(const struct reporter *c, int priority, const struct line *l,
    size_t body)
{
	struct line who = { 0 };

	if (!c->json && c->label != NULL)
		line_add_visible(&who, c->label, strlen(c->label));
	else if (!c->json)
		line_add(&who, "%s", c->name);
	if (who.failed || who.len == 0)
		syslog(priority, "%.*s", (int)(l->len - body - 1),
		    l->buf + body);
	else
		syslog(priority, "[%s] %.*s", who.buf,
		    (int)(l->len - body - 1), l->buf + body);
	free(who.buf);
}

/* l made visible (text) and ended with a newline. */
static void
finish(const struct reporter *c, struct line *l)
{
	struct line v = { 0 };

	if (!c->json && !l->failed) {
		line_add_visible(&v, l->buf, l->len);
		free(l->buf);
		*l = v;
	}
	line_add(l, "\n");
}

/*
 * A line to stderr when shown there, and to the log file (text with its
 * time first) and syslog.  What it quotes is made visible first in text;
 * JSON escapes it.  Writes to stderr wait for a slow reader only in
 * signals_wait, and a reader that has gone loses the line, nothing more;
 * the log's writes never wait (log_put).
 */
static void
emit(const struct reporter *c, struct line *l, size_t body, bool shown,
    int priority)
{
	struct line t = { 0 };

	finish(c, l);
	if (!l->failed) {
		if (c->syslog)
			to_syslog(c, priority, l, body);
		if (shown) {
			out_newline(!c->json);
			(void)out_all(out_std(STDERR_FILENO), l->buf, l->len);
		}
		if (c->log != NULL) {
			log_line(c, l, &t);
			if (t.failed)
				c->log->dropped++;
			else
				log_put(c, t.buf, t.len);
			free(t.buf);
		}
	}
	free(l->buf);
}

/* An error's line, before it is finished: text or JSON. */
static size_t
error_line(const struct reporter *c, struct line *l, const char *msg)
{
	size_t body = 0;

	if (c->json) {
		add_head(l, c, "error");
		line_add(l, ",\"message\":");
		line_add_json(l, msg);
		line_add(l, "}");
	} else {
		prefix(l, c);
		body = l->len;
		line_add_visible(l, msg, strlen(msg));
	}
	return body;
}

/*
 * The count of lines dropped, in the log, written straight, ahead of what
 * comes next, and on stderr, once the log took it (its reader takes lines
 * again) or at the end, whatever the log did.
 */
static void
say_dropped(const struct reporter *c, bool end)
{
	struct logfile *f = c->log;
	struct line l = { 0 }, t = { 0 };
	char msg[160];
	ssize_t w = -1;
	size_t body;

	snprintf(msg, sizeof(msg), "--log-file: %lu line%s dropped: %s",
	    f->dropped, f->dropped == 1 ? "" : "s", f->why == EAGAIN ?
	    "its reader did not take them" : f->why == EPIPE ?
	    "it had no reader" : strerror(f->why));
	body = error_line(c, &l, msg);
	finish(c, &l);
	log_line(c, &l, &t);
	if (!t.failed)
		w = logfile_write(f, t.buf, t.len);
	if ((w > 0 || end) && !l.failed) {
		if (c->syslog)
			to_syslog(c, LOG_ERR, &l, body);
		out_newline(!c->json);
		(void)out_all(out_std(STDERR_FILENO), l.buf, l.len);
		f->dropped = 0;
	}
	free(t.buf);
	free(l.buf);
}

void
report_end(const struct reporter *c)
{
	struct logfile *f = c->log;

	if (f == NULL)
		return;
	logfile_end(f);
	if (f->dropped > 0)
		say_dropped(c, true);
	/* What the log did not take of that line now is not kept. */
	f->len = 0;
}


int
reporter_open(struct reporter *r, const struct config *c, char *err,
    size_t errsz)
{
	*r = (struct reporter){
		.label = c->label, .args = c->args, .nargs = c->nargs,
		.verbosity = c->verbosity, .json = c->log_format == LOG_JSON,
		.syslog = c->syslog,
		.forever = c->limits.forever || c->limits.successes > 1,
		.max_attempts = c->limits.forever ? 0 :
		    c->backoff.max_attempts,
		.budget = c->limits.budget,
		.retry_on = c->verdict.retry_on.set,
		.successes = c->limits.successes,
		.retry_if_output = rule_given(&c->verdict.output, RULE_RETRY),
		.share = c->share, .share_rules = &c->share_rules,
	};
	name_command(c->args, c->nargs, r->name, sizeof(r->name));
	if (c->log_file != NULL &&
	    logfile_open(&r->log, c->log_file, err, errsz) == -1)
		return -1;
	if (c->syslog)
		openlog("retry", LOG_PID, LOG_USER);
	return 0;
}

void
reporter_close(struct reporter *r)
{
	report_end(r);
	logfile_close(r->log);
	r->log = NULL;
	if (r->syslog)
		closelog();
}

void
report(const struct reporter *c, const struct report *e)
{
	static const int priorities[] = {
		[EV_START] = LOG_INFO, [EV_SUCCEEDED] = LOG_INFO,
		[EV_FAILED] = LOG_WARNING, [EV_GIVE_UP] = LOG_ERR,
		[EV_STOP] = LOG_ERR, [EV_SIGNAL] = LOG_ERR,
		[EV_SHARE] = LOG_WARNING, [EV_DONE] = LOG_INFO,
	};
	struct line l = { 0 };
	size_t body = 0;
	/* A pipeline whose reader has gone, and a pager quit, say nothing
	 * on a terminal: the 141 says it.  JSON, a log file and syslog still
	 * hear of it. */
	const bool said = c->json || e->event != EV_STOP ||
	    (e->reason != WHY_READER_GONE && e->reason != WHY_QUIT);
	const bool shown = said && (c->verbosity == VERBOSE ||
	    (c->verbosity == NORMAL && (e->event != EV_START &&
	    (e->event != EV_SUCCEEDED || c->forever))));

	if (!shown && c->log == NULL && !c->syslog)
		return;
	if (c->json)
		json(&l, c, e);
	else {
		prefix(&l, c);
		/* Without a label, the command is named where a log of
		 * several runs needs it. */
		if (c->label == NULL && named(e))
			line_add(&l, "%s: ", c->name);
		body = l.len;
		text(&l, c, e);
	}
	emit(c, &l, c->json ? 0 : body, shown, priorities[e->event]);
}

void
report_error(const struct reporter *c, const char *fmt, ...)
{
	struct line l = { 0 };
	size_t body;
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	body = error_line(c, &l, msg);
	emit(c, &l, body, true, LOG_ERR);
}

/* The columns of the countdown on the terminal, 0 when none is. */
static size_t drawn;

bool
countdown_start(const struct reporter *c)
{
	drawn = 0;
	return c->verbosity != QUIET && !c->json && isatty(STDERR_FILENO);
}

/*
 * What was drawn, erased, from its start, where the cursor was left: to
 * the end of the screen, for a terminal that has narrowed since may have
 * wrapped it over two lines; or, where TERM says no escape, with blanks.
 */
static void
undraw(struct line *l)
{
	line_add(l, "\r");
	if (out_erases())
		line_add(l, "\033[J");
	else if (drawn > 0)
		line_add(l, "%*s\r", (int)drawn, "");
}

/*
 * Whole seconds left, rounded up, over the line: drawn only while retry
 * has the terminal's foreground (a shell's bg, or &, gives the line to
 * what the user types), cut to one column less than the terminal is wide
 * now (a resize wakes the sleep, which draws it again), so that it never
 * wraps, and with the cursor left at its start.
 */
void
countdown_show(const struct reporter *c, int64_t left)
{
	struct line l = { 0 }, t = { 0 };
	char d[DURATION_BUFSZ];
	size_t n, used = 0;
	int cols;

	if (!out_drawable(&cols)) {
		/* The line is no longer retry's: what is on it stays. */
		drawn = 0;
		return;
	}
	out_newline(true);
	prefix(&t, c);
	line_add(&t, "next attempt in %s", duration_format(
	    (left + NS_PER_SEC - 1) / NS_PER_SEC * NS_PER_SEC, d, sizeof(d)));
	undraw(&l);
	if (!t.failed) {
		n = line_fit(t.buf, t.len, (size_t)cols - 1, &used);
		line_add(&l, "%.*s\r", (int)n, t.buf);
	}
	if (!l.failed && !t.failed &&
	    out_all(out_std(STDERR_FILENO), l.buf, l.len) == 0)
		drawn = used;
	free(t.buf);
	free(l.buf);
}

void
countdown_end(const struct reporter *c)
{
	struct line l = { 0 };
	int cols;

	(void)c;
	if (drawn > 0 && out_drawable(&cols)) {
		undraw(&l);
		if (!l.failed)
			(void)out_all(out_std(STDERR_FILENO), l.buf, l.len);
		free(l.buf);
	}
	drawn = 0;
}

void
usage_error(const char *prog, const char *why)
{
	run_error(prog, why, true);
}

void
run_error(const char *prog, const char *why, bool try_help)
{
	struct line l = { 0 };

	line_add(&l, "%s: ", prog);
	line_add_visible(&l, why, strlen(why));
	line_add(&l, "\n");
	if (try_help)
		line_add(&l, "Try '%s --help'.\n", prog);
	if (!l.failed)
		(void)out_all(out_std(STDERR_FILENO), l.buf, l.len);
	free(l.buf);
}

char *
report_visible(const char *s, char *buf, size_t sz)
{
	struct line l = { 0 };
	size_t n;

	line_add_visible(&l, s, strlen(s));
	if (l.failed || l.buf == NULL || sz == 0) {
		if (sz > 0)
			buf[0] = '\0';
		free(l.buf);
		return buf;
	}
	/* Cut short, neither an escape nor a UTF-8 sequence is cut. */
	if ((n = l.len) >= sz) {
		n = sz - 1;
		for (size_t i = n > 3 ? n - 3 : 0; i < n; i++)
			if (l.buf[i] == '\\' && i + 4 > n) {
				n = i;
				break;
			}
		while (n > 0 && ((unsigned char)l.buf[n] & 0xc0) == 0x80)
			n--;
	}
	memcpy(buf, l.buf, n);
	buf[n] = '\0';
	free(l.buf);
	return buf;
}
