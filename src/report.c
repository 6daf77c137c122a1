/*
 * Reports: one line per event, "retry: " or "retry[LABEL]: " first, or one
 * JSON object per line with --log-format json.  -q and --verbose choose what
 * stderr shows; the log file and syslog get every event.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "compat.h"
#include "codes.h"
#include "duration.h"
#include "number.h"
#include "output.h"
#include "report.h"

/* A line being written; it grows as needed (a label or a command may be
 * long), and a line that memory cannot hold is dropped whole. */
struct line {
	char	*buf;
	size_t	 len, cap;
	bool	 failed;
};

static void add(struct line *, const char *, ...)
    __attribute__((format(printf, 2, 3)));

static void
add(struct line *l, const char *fmt, ...)
{
	va_list ap;
	char *p;
	int n;

	if (l->failed)
		return;
	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(l->buf == NULL ? NULL : l->buf + l->len,
		    l->cap - l->len, fmt, ap);
		va_end(ap);
		if (n < 0) {
			l->failed = true;
			return;
		}
		if ((size_t)n < l->cap - l->len) {
			l->len += (size_t)n;
			return;
		}
		if ((p = realloc(l->buf, 2 * l->cap + (size_t)n + 256)) ==
		    NULL) {
			l->failed = true;
			return;
		}
		l->buf = p;
		l->cap = 2 * l->cap + (size_t)n + 256;
	}
}

/* The length of the UTF-8 sequence at p, or 0 when it is not one. */
static size_t
utf8_length(const unsigned char *p)
{
	size_t n;
	unsigned int cp;

	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2, cp = p[0] & 0x1fu;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		n = 3, cp = p[0] & 0x0fu;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		n = 4, cp = p[0] & 0x07u;
	else
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3fu);
	}
	/* Overlong forms, surrogates and past U+10FFFF are not UTF-8. */
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return n;
}

/* Whether the UTF-8 sequence at p, n bytes long, is a C1 control
 * (U+0080 to U+009F), which some terminals obey as ESC sequences. */
static bool
c1(const unsigned char *p, size_t n)
{
	return n == 2 && p[0] == 0xc2 && p[1] < 0xa0;
}

/* A JSON string: escaped, controls as \u00XX, and any byte that is not
 * UTF-8 as U+FFFD. */
static void
add_json(struct line *l, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n;

	add(l, "\"");
	while (*p != '\0') {
		if (*p == '"' || *p == '\\')
			add(l, "\\%c", *p++);
		else if (*p < 0x20 || *p == 0x7f)
			add(l, "\\u%04x", *p++);
		else if (*p < 0x80)
			add(l, "%c", *p++);
		else if ((n = utf8_length(p)) > 0 && c1(p, n)) {
			add(l, "\\u%04x", p[1]);
			p += n;
		} else if (n > 0) {
			add(l, "%.*s", (int)n, (const char *)p);
			p += n;
		} else {
			add(l, "\\ufffd");
			p++;
		}
	}
	add(l, "\"");
}

/*
 * s[0..n) with what a terminal would obey made visible: C0 controls but
 * tab, DEL, C1 controls and bytes that are not UTF-8 as \xHH, so that
 * nothing that retry quotes (output, labels, commands) can move the cursor,
 * set a title or clear the screen.
 */
static void
add_visible(struct line *l, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + n;
	size_t k;

	while (p < end) {
		if (*p == '\t' || (*p >= 0x20 && *p < 0x7f))
			add(l, "%c", *p++);
		else if (*p >= 0x80 && (k = utf8_length(p)) > 0 &&
		    (size_t)(end - p) >= k && !c1(p, k)) {
			add(l, "%.*s", (int)k, (const char *)p);
			p += k;
		} else
			add(l, "\\x%02x", *p++);
	}
}

/* "SIGTERM", or "signal 40". */
static void
add_signal(struct line *l, int sig)
{
	const char *name = signal_name(sig);

	if (name != NULL)
		add(l, "%s", name);
	else
		add(l, "signal %d", sig);
}

/* "exit 1", "killed by SIGSEGV", "timed out", "could not start: ..." */
static void
add_status(struct line *l, const struct report *e)
{
	const struct attempt_result *r = e->result;
	const char *name;

	if (e->cause != NULL)
		add(l, "could not start: %s", e->cause);
	else if (r->timed_out)
		add(l, "timed out");
	else if (r->signal != 0 && (name = signal_name(r->signal)) != NULL)
		add(l, "killed by %s", name);
	else if (r->signal != 0)
		add(l, "killed by signal %d", r->signal);
	else
		add(l, "exit %d", r->status);
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
add_attempt(struct line *l, const struct reporter *c, unsigned long n)
{
	if (c->max_attempts > 0)
		add(l, "attempt %lu/%lu", n, c->max_attempts);
	else
		add(l, "attempt %lu", n);
}

static void
add_next(struct line *l, const struct report *e)
{
	char d[DURATION_BUFSZ];

	add(l, "; next attempt in %s", duration_format(e->delay, d,
	    sizeof(d)));
	if (!e->asked)
		return;
	if (e->wanted == e->delay) {
		add(l, ", as the command's output asked");
		return;
	}
	/* Held within --min-delay and --max-delay: said, with the hint. */
	add(l, ", %s: the command's output asked for %s",
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
		add(l, "the circuit of %s opened after %lu failure%s in a "
		    "row: no run starts an attempt for %s", c->share,
		    c->share_rules->trip, c->share_rules->trip == 1 ? "" : "s",
		    duration_format(
		    c->share_rules->cooldown, d, sizeof(d)));
		return;
	case SE_REOPENED:
		add(l, "the circuit of %s opened again: the probe failed; no "
		    "run starts an attempt for %s", c->share, duration_format(
		    c->share_rules->cooldown, d, sizeof(d)));
		return;
	case SE_PROBE:
		add(l, "the circuit of %s is half-open: ", c->share);
		add_attempt(l, c, e->attempt);
		add(l, " probes it");
		return;
	case SE_CLOSED:
		add(l, "the circuit of %s closed: the probe succeeded",
		    c->share);
		return;
	case SE_WAIT_OPEN:
	case SE_WAIT_PROBE:
	case SE_WAIT_NOT_BEFORE:
		add_attempt(l, c, e->attempt);
		if (e->shared == SE_WAIT_OPEN)
			add(l, " waits %s: the circuit of %s is open",
			    duration_format(duration_round(e->wait), d,
			    sizeof(d)), c->share);
		else if (e->shared == SE_WAIT_PROBE)
			add(l, " waits: another run probes the circuit of %s",
			    c->share);
		else
			add(l, " waits %s: another run of %s was asked to "
			    "wait that long", duration_format(
			    duration_round(e->wait), d, sizeof(d)), c->share);
		return;
	case SE_GIVE_UP_OPEN:
		if (e->waited == WAIT_PROBE)
			add(l, "giving up: another run probes the circuit of "
			    "%s (--share-open giveup)", c->share);
		else
			add(l, "giving up: the circuit of %s is open "
			    "(--share-open giveup)", c->share);
		return;
	case SE_PAST_BUDGET:
		add(l, "giving up: %s %s would pass the %s budget",
		    e->waited == WAIT_OPEN ? "waiting for the circuit of" :
		    e->waited == WAIT_PROBE ? "waiting for the probe of" :
		    "waiting for the not-before of", c->share,
		    duration_format(c->budget, d, sizeof(d)));
		return;
	case SE_STORE_DOWN:
		add(l, "giving up: the store of %s does not answer "
		    "(--share-required)", c->share);
		return;
	}
}

/* The text of an event, after the prefix. */
static void
text(struct line *l, const struct reporter *c, const struct report *e)
{
	char d[DURATION_BUFSZ], t[2][NUMBER_BUFSZ];
	unsigned long n;

	switch (e->event) {
	case EV_START:
		add_attempt(l, c, e->attempt);
		add(l, " starting");
		return;
	case EV_SUCCEEDED:
		add_attempt(l, c, e->attempt);
		add(l, " succeeded");
		/* A success by --success-on or --until says which. */
		if (e->result != NULL && e->result->status != 0) {
			add(l, ": ");
			add_status(l, e);
		}
		add(l, " after %s", duration_format(
		    duration_round(e->duration), d, sizeof(d)));
		if (e->reason == WHY_MATCHED)
			add(l, ": a line matched --until-output "
			    "(--exit-on-match)");
		if (e->delay >= 0)
			add_next(l, e);
		else if (e->give_up == GIVE_UP_BUDGET)
			/* --forever: the run ends on a success. */
			add(l, "; ending: the next attempt would start past "
			    "the %s budget", duration_format(c->budget, d,
			    sizeof(d)));
		return;
	case EV_FAILED:
		add_attempt(l, c, e->attempt);
		add(l, " failed: ");
		add_status(l, e);
		if (e->cause == NULL)
			add(l, " after %s%s", duration_format(
			    duration_round(e->duration), d, sizeof(d)),
			    output_failure(e->reason));
		add_next(l, e);
		return;
	case EV_GIVE_UP:
		n = e->made > e->attempt ? e->made : e->attempt;
		add(l, "giving up after %lu attempt%s in %s: ", n,
		    n == 1 ? "" : "s", duration_format(
		    duration_round(e->elapsed), d, sizeof(d)));
		add_status(l, e);
		add(l, "%s", output_failure(e->reason));
		if (e->give_up == GIVE_UP_BUDGET)
			add(l, "; the next attempt would start past the %s "
			    "budget", duration_format(c->budget, d, sizeof(d)));
		else if (e->give_up == GIVE_UP_DURATION)
			add(l, "; --max-actual-duration reached");
		else if (e->give_up == GIVE_UP_SHARED) {
			add(l, "; the retry budget of ");
			add_visible(l, c->share, strlen(c->share));
			add(l, " is spent (%s of %s tokens left)",
			    number_text(share_shown(e->tokens), t[0]),
			    number_text(c->share_rules->max, t[1]));
		} else if (e->give_up == GIVE_UP_STORE)
			add(l, "; the store of %s does not answer "
			    "(--share-required)", c->share);
		return;
	case EV_SHARE:
		share_text(l, c, e);
		return;
	case EV_SIGNAL:
		add_signal(l, e->received);
		if (e->result == NULL && e->attempt == 0)
			add(l, " before the first attempt");
		else if (e->result == NULL) {
			add(l, " while waiting after ");
			add_attempt(l, c, e->attempt);
		} else {
			add(l, e->result->terminal ? " from the terminal during " :
			    e->result->forwarded ? " sent on to " : " during ");
			add_attempt(l, c, e->attempt);
			add(l, ", which ended: ");
			add_status(l, e);
			add(l, " after %s", duration_format(
			    duration_round(e->duration), d, sizeof(d)));
		}
		add(l, "; stopping");
		return;
	case EV_STOP:
		/* Between attempts (a wait on the shared state) there is no
		 * attempt to speak of. */
		if (e->result == NULL && e->cause == NULL)
			add(l, "stopping before attempt %lu", e->attempt);
		else {
			add(l, "stopping: ");
			add_status(l, e);
		}
		if (e->reason == WHY_READER_GONE)
			add(l, "; the reader of its output has gone");
		else if (e->reason == WHY_STOP_ON)
			add(l, " is a --stop-on status");
		else if (e->reason == WHY_STOP_OUTPUT)
			add(l, ", and a line matched --stop-if-output");
		else if (e->reason == WHY_INTERRUPTED)
			add(l, " (interrupted)");
		else if (e->reason == WHY_SIGNALLED)
			add(l, "; --until and --while judge exit statuses "
			    "only");
		else if (e->reason == WHY_NOT_RETRY_ON) {
			if (c->retry_on)
				add(l, " is not a --retry-on status");
			if (c->retry_if_output)
				add(l, ", and no line matched "
				    "--retry-if-output");
		}
		return;
	}
}

static const char *const event_names[] = {
	[EV_START] = "start", [EV_FAILED] = "failure",
	[EV_SUCCEEDED] = "success", [EV_GIVE_UP] = "giveup",
	[EV_STOP] = "stop", [EV_SIGNAL] = "signal", [EV_SHARE] = "share",
};

static const char *const share_events[] = {
	[SE_OPENED] = "opened", [SE_REOPENED] = "reopened",
	[SE_PROBE] = "probe", [SE_CLOSED] = "closed",
	[SE_WAIT_OPEN] = "wait_open", [SE_WAIT_PROBE] = "wait_probe",
	[SE_WAIT_NOT_BEFORE] = "wait_not_before",
	[SE_GIVE_UP_OPEN] = "giveup_open", [SE_PAST_BUDGET] = "past_budget",
	[SE_STORE_DOWN] = "store_down",
};

static const char *
reason_name(const struct report *e)
{
	static const char *const names[] = {
		[WHY_NONE] = NULL, [WHY_STOP_ON] = "stop_on",
		[WHY_STOP_OUTPUT] = "stop_if_output",
		[WHY_INTERRUPTED] = "interrupted",
		[WHY_FAIL_OUTPUT] = "fail_if_output",
		[WHY_NO_UNTIL] = "until_output",
		[WHY_NOT_RETRY_ON] = "not_retried",
		[WHY_READER_GONE] = "reader_gone",
		[WHY_SIGNALLED] = "signalled",
		[WHY_MATCHED] = "matched",
	};

	if (e->event == EV_SIGNAL)
		return "signal";
	if (e->cause != NULL && e->event != EV_START)
		return "not_started";

	/* A --forever run ends on a success too. */
	if ((e->event == EV_GIVE_UP || e->event == EV_SUCCEEDED) &&
	    e->give_up == GIVE_UP_BUDGET)
		return "budget";
	if (e->event == EV_GIVE_UP && e->give_up == GIVE_UP_DURATION)
		return "max_actual_duration";
	if (e->event == EV_GIVE_UP && e->give_up == GIVE_UP_SHARED)
		return "share_budget";
	if (e->event == EV_GIVE_UP && e->give_up == GIVE_UP_STORE)
		return "share_store";
	if (e->event == EV_GIVE_UP && names[e->reason] == NULL)
		return "max_attempts";
	return names[e->reason];
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
	add(l, "%s.%03ldZ", buf, ts.tv_nsec / 1000000);
}

static void
add_head(struct line *l, const struct reporter *c, const char *event)
{
	add(l, "{\"ts\":\"");
	add_now(l);
	add(l, "\",\"event\":\"%s\",\"label\":", event);
	if (c->label != NULL)
		add_json(l, c->label);
	else
		add(l, "null");
	add(l, ",\"command\":[");
	for (int i = 0; i < c->nargs; i++) {
		add(l, i > 0 ? "," : "");
		add_json(l, c->args[i]);
	}
	add(l, "]");
}

/* One JSON object, the contract's fields, null where they do not apply. */
static void
json(struct line *l, const struct reporter *c, const struct report *e)
{
	const struct attempt_result *r = e->result;
	const char *why = reason_name(e), *sig;
	char t[1][NUMBER_BUFSZ];

	add_head(l, c, event_names[e->event]);
	add(l, ",\"attempt\":%lu,\"max_attempts\":%lu", e->attempt,
	    c->max_attempts);
	if (r != NULL) {
		add(l, ",\"status\":%d,\"signal\":", r->status);
		if (r->signal != 0 && (sig = signal_name(r->signal)) != NULL)
			add(l, "\"%s\"", sig);
		else
			add(l, "null");
		add(l, ",\"timed_out\":%s", r->timed_out ? "true" : "false");
		add(l, ",\"duration_ms\":%lld",
		    (long long)(e->duration / NS_PER_MS));
	} else
		add(l, ",\"status\":null,\"signal\":null,\"timed_out\":false,"
		    "\"duration_ms\":null");
	add(l, ",\"elapsed_ms\":%lld", (long long)(e->elapsed / NS_PER_MS));
	if (e->delay >= 0 && e->event != EV_START)
		add(l, ",\"delay_ms\":%lld,\"delay_from_output\":%s",
		    (long long)(e->delay / NS_PER_MS),
		    e->asked ? "true" : "false");
	else
		add(l, ",\"delay_ms\":null,\"delay_from_output\":false");
	add(l, ",\"reason\":");
	if (why != NULL)
		add(l, "\"%s\"", why);
	else
		add(l, "null");
	if (e->cause != NULL && e->event != EV_START) {
		add(l, ",\"message\":");
		add_json(l, e->cause);
	}
	if (c->share != NULL) {
		add(l, ",\"share\":\"%s\"", c->share);
		if (e->event == EV_SHARE)
			add(l, ",\"what\":\"%s\"", share_events[e->shared]);
		if ((e->event == EV_SHARE && (e->shared == SE_OPENED ||
		    e->shared == SE_REOPENED || e->shared == SE_CLOSED)) ||
		    (e->event == EV_GIVE_UP && e->give_up == GIVE_UP_SHARED))
			add(l, ",\"tokens\":%s", number_text(
			    share_shown(e->tokens), t[0]));
		if (e->event == EV_SHARE && e->wait >= 0)
			add(l, ",\"wait_ms\":%lld",
			    (long long)(e->wait / NS_PER_MS));
	}
	if (e->event == EV_SIGNAL) {
		add(l, ",\"received\":\"");
		add_signal(l, e->received);
		add(l, "\",\"forwarded\":%s,\"from_terminal\":%s",
		    r != NULL && r->forwarded ? "true" : "false",
		    r != NULL && r->terminal ? "true" : "false");
	}
	add(l, "}");
}

static void
prefix(struct line *l, const struct reporter *c)
{
	if (c->label == NULL) {
		add(l, "retry: ");
		return;
	}
	add(l, "retry[");
	add_visible(l, c->label, strlen(c->label));
	add(l, "]: ");
}

/*
 * The log's lines that its reader has not taken yet.  Writes to the log
 * never wait: what the log does not take now waits here, up to
 * LOG_QUEUE bytes, for the next report; past that, lines are dropped and
 * counted, and the count is said on stderr and in the log once its reader
 * takes lines again, or at the end.
 */
#define LOG_QUEUE	(64 * 1024)

struct logq {
	char		*buf;
	size_t		 len, cap;
	unsigned long	 dropped;	/* lines not written, not yet said */
	int		 why;		/* errno of the last line dropped */
};

static void say_dropped(const struct reporter *, bool);

static unsigned long
lines_in(const char *p, size_t n)
{
	unsigned long k = 0;

	for (size_t i = 0; i < n; i++)
		k += p[i] == '\n';
	return k;
}

/* Writes what the log takes now: 0, or the errno that stopped it. */
static int
log_flush(const struct reporter *c)
{
	struct logq *q = c->logq;
	ssize_t w;

	while (q->len > 0) {
		if ((w = out_try(&c->log, q->buf, q->len)) < 0) {
			if (errno == EINTR)
				continue;
			return errno == EWOULDBLOCK ? EAGAIN : errno;
		}
		memmove(q->buf, q->buf + w, q->len - (size_t)w);
		q->len -= (size_t)w;
	}
	return 0;
}

/* Drops what waits, counted, after an error other than a full pipe. */
static void
log_error(const struct reporter *c, int e)
{
	struct logq *q = c->logq;

	if (e == 0 || e == EAGAIN)
		return;
	q->dropped += lines_in(q->buf, q->len);
	q->len = 0;
	q->why = e;
}

/* Queues buf[0..n), or drops it, counted, when the queue is full. */
static void
log_queue(const struct reporter *c, const char *buf, size_t n)
{
	struct logq *q = c->logq;
	char *p;

	if (q->len > 0 && q->len + n > LOG_QUEUE) {
		q->dropped += lines_in(buf, n);
		q->why = EAGAIN;
		return;
	}
	if (q->len + n > q->cap) {
		if ((p = realloc(q->buf, q->len + n)) == NULL) {
			q->dropped += lines_in(buf, n);
			q->why = ENOMEM;
			return;
		}
		q->buf = p;
		q->cap = q->len + n;
	}
	memcpy(q->buf + q->len, buf, n);
	q->len += n;
}

static void
log_put(const struct reporter *c, const char *buf, size_t n)
{
	struct logq *q = c->logq;

	log_error(c, log_flush(c));
	/* The reader takes lines again: the count first. */
	if (q->dropped > 0 && q->len == 0)
		say_dropped(c, false);
	log_queue(c, buf, n);
	log_error(c, log_flush(c));
}

/* l as the log has it: text with its time first. */
static void
log_line(const struct reporter *c, const struct line *l, struct line *t)
{
	if (!c->json)
		add_now(t);
	add(t, c->json ? "%.*s" : " %.*s", (int)l->len, l->buf);
}

/* l made visible (text) and ended with a newline. */
static void
finish(const struct reporter *c, struct line *l)
{
	struct line v = { 0 };

	if (!c->json && !l->failed) {
		add_visible(&v, l->buf, l->len);
		free(l->buf);
		*l = v;
	}
	add(l, "\n");
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
			syslog(priority, "%.*s", (int)(l->len - body - 1),
			    l->buf + body);
		if (shown) {
			out_newline();
			(void)out_all(out_std(STDERR_FILENO), l->buf, l->len);
		}
		if (c->logging) {
			log_line(c, l, &t);
			if (t.failed)
				c->logq->dropped++;
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
		add(l, ",\"message\":");
		add_json(l, msg);
		add(l, "}");
	} else {
		prefix(l, c);
		body = l->len;
		add_visible(l, msg, strlen(msg));
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
	struct logq *q = c->logq;
	struct line l = { 0 }, t = { 0 };
	char msg[160];
	ssize_t w = -1;
	size_t body;

	snprintf(msg, sizeof(msg), "--log-file: %lu line%s dropped: %s",
	    q->dropped, q->dropped == 1 ? "" : "s", q->why == EAGAIN ?
	    "its reader did not take them" : q->why == EPIPE ?
	    "it had no reader" : strerror(q->why));
	body = error_line(c, &l, msg);
	finish(c, &l);
	log_line(c, &l, &t);
	if (!t.failed && q->len == 0) {
		while ((w = out_try(&c->log, t.buf, t.len)) < 0 &&
		    errno == EINTR)
			;
		if (w >= 0 && (size_t)w < t.len)
			log_queue(c, t.buf + w, t.len - (size_t)w);
	}
	if ((w > 0 || end) && !l.failed) {
		if (c->syslog)
			syslog(LOG_ERR, "%.*s", (int)(l.len - body - 1),
			    l.buf + body);
		out_newline();
		(void)out_all(out_std(STDERR_FILENO), l.buf, l.len);
		q->dropped = 0;
	}
	free(t.buf);
	free(l.buf);
}

void
report_end(const struct reporter *c)
{
	struct logq *q = c->logq;

	if (!c->logging || q == NULL)
		return;
	log_error(c, log_flush(c));
	if (q->len > 0) {
		q->dropped += lines_in(q->buf, q->len);
		q->why = EAGAIN;
		q->len = 0;
	}
	if (q->dropped > 0)
		say_dropped(c, true);
	q->len = 0;
}

/* Whether dir is sticky and world-writable, as /tmp is. */
static bool
shared_sticky(const struct stat *dir)
{
	return (dir->st_mode & S_ISVTX) != 0 && (dir->st_mode & S_IWOTH) != 0;
}

/*
 * Refuses what the kernel's protected_symlinks, protected_regular and
 * protected_fifos refuse, whatever the system's settings: in a sticky
 * world-writable directory (/tmp), a symlink, a file or a FIFO that neither
 * retry's user nor the directory's owner owns.  A name that is not a
 * symlink now is opened with O_NOFOLLOW, so that one planted in between
 * fails, and what was opened is judged by its descriptor, so that a file
 * planted in between is refused before a line is written to it.
 */
static int
log_open(struct reporter *r, const char *path, char *err, size_t errsz)
{
	char dir[PATH_MAX], base[PATH_MAX];
	struct stat st, ds;
	int dfd, fd, nofollow = O_NOFOLLOW;

	if (strlcpy(dir, path, sizeof(dir)) >= sizeof(dir)) {
		errno = ENAMETOOLONG;
		goto fail;
	}
	strlcpy(base, path, sizeof(base));
	if ((dfd = open(dirname(dir), O_PATH | O_DIRECTORY | O_CLOEXEC)) == -1)
		goto fail;
	if (fstat(dfd, &ds) == -1) {
		close(dfd);
		goto fail;
	}
	if (fstatat(dfd, basename(base), &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    S_ISLNK(st.st_mode)) {
		if (shared_sticky(&ds) && st.st_uid != geteuid() &&
		    st.st_uid != ds.st_uid) {
			close(dfd);
			snprintf(err, errsz, "--log-file: %s: a symlink that "
			    "another user (uid %lu) made in a world-writable "
			    "sticky directory; refused", path,
			    (unsigned long)st.st_uid);
			return -1;
		}
		nofollow = 0;
	}
	/* A FIFO without a reader fails (ENXIO) rather than block. */
	fd = openat(dfd, basename(base), O_WRONLY | O_APPEND | O_CREAT |
	    O_NONBLOCK | O_NOCTTY | O_CLOEXEC | nofollow, 0600);
	close(dfd);
	if (fd != -1 && fstat(fd, &st) == 0 && shared_sticky(&ds) &&
	    (S_ISREG(st.st_mode) || S_ISFIFO(st.st_mode)) &&
	    st.st_uid != geteuid() && st.st_uid != ds.st_uid) {
		close(fd);
		snprintf(err, errsz, "--log-file: %s: a %s that another user "
		    "(uid %lu) owns in a world-writable sticky directory; "
		    "refused", path, S_ISFIFO(st.st_mode) ? "FIFO" : "file",
		    (unsigned long)st.st_uid);
		return -1;
	}
	if (fd != -1 && (r->logq = calloc(1, sizeof(*r->logq))) == NULL) {
		close(fd);
		fd = -1;
	}
	if (fd != -1) {
		out_init(&r->log, fd);
		r->logging = true;
		return 0;
	}
fail:
	snprintf(err, errsz, "--log-file: %s: %s", path, errno == ENXIO ?
	    "a FIFO that no process reads" : errno == ELOOP ?
	    "a symlink that appeared while it was opened" : strerror(errno));
	return -1;
}

int
reporter_open(struct reporter *r, const struct config *c, char *err,
    size_t errsz)
{
	*r = (struct reporter){
		.label = c->label, .args = c->args, .nargs = c->nargs,
		.verbosity = c->verbosity, .json = c->log_format == LOG_JSON,
		.syslog = c->syslog, .forever = c->limits.forever,
		.max_attempts = c->limits.forever ? 0 :
		    c->backoff.max_attempts,
		.budget = c->limits.budget,
		.retry_on = c->verdict.retry_on.set,
		.retry_if_output = rule_given(&c->verdict.output, RULE_RETRY),
		.share = c->share, .share_rules = &c->share_rules,
		.log = { .fd = -1 },
	};
	if (c->log_file != NULL && log_open(r, c->log_file, err, errsz) == -1)
		return -1;
	if (c->syslog)
		openlog("retry", LOG_PID, LOG_USER);
	return 0;
}

void
reporter_close(struct reporter *r)
{
	report_end(r);
	if (r->logging)
		out_close(&r->log);
	r->logging = false;
	if (r->logq != NULL)
		free(r->logq->buf);
	free(r->logq);
	r->logq = NULL;
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
		[EV_SHARE] = LOG_WARNING,
	};
	struct line l = { 0 };
	size_t body = 0;
	/* A pipeline whose reader has gone says nothing on a terminal: its
	 * 141 says it.  JSON, a log file and syslog still hear of it. */
	const bool said = c->json || e->event != EV_STOP ||
	    e->reason != WHY_READER_GONE;
	const bool shown = said && (c->verbosity == VERBOSE ||
	    (c->verbosity == NORMAL && (e->event != EV_START &&
	    (e->event != EV_SUCCEEDED || c->forever))));

	if (!shown && !c->logging && !c->syslog)
		return;
	if (c->json)
		json(&l, c, e);
	else {
		prefix(&l, c);
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

bool
countdown_start(const struct reporter *c)
{
	return c->verbosity != QUIET && !c->json && isatty(STDERR_FILENO);
}

/* Whole seconds left, rounded up, over the line. */
void
countdown_show(const struct reporter *c, int64_t left)
{
	struct line l = { 0 };
	char d[DURATION_BUFSZ];

	out_newline();
	add(&l, "\r");
	prefix(&l, c);
	add(&l, "next attempt in %s\033[K", duration_format(
	    (left + NS_PER_SEC - 1) / NS_PER_SEC * NS_PER_SEC, d, sizeof(d)));
	if (!l.failed)
		(void)out_all(out_std(STDERR_FILENO), l.buf, l.len);
	free(l.buf);
}

void
countdown_end(const struct reporter *c)
{
	(void)c;
	(void)out_all(out_std(STDERR_FILENO), "\r\033[K", 4);
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

	add(&l, "%s: ", prog);
	add_visible(&l, why, strlen(why));
	add(&l, "\n");
	if (try_help)
		add(&l, "Try '%s --help'.\n", prog);
	if (!l.failed)
		(void)out_all(out_std(STDERR_FILENO), l.buf, l.len);
	free(l.buf);
}

char *
report_visible(const char *s, char *buf, size_t sz)
{
	struct line l = { 0 };
	size_t n;

	add_visible(&l, s, strlen(s));
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
