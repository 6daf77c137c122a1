/*
 * Reports: one line per event, "retry: " or "retry[LABEL]: " first, or one
 * JSON object per line with --log-format json.  -q and -v choose what
 * stderr shows; the log file and syslog get every event.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "codes.h"
#include "duration.h"
#include "report.h"

static int log_fd = -1;

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

/* A JSON string: escaped, and any byte that is not UTF-8 as U+FFFD. */
static void
add_json(struct line *l, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n;

	add(l, "\"");
	while (*p != '\0') {
		if (*p == '"' || *p == '\\')
			add(l, "\\%c", *p++);
		else if (*p < 0x20)
			add(l, "\\u%04x", *p++);
		else if (*p < 0x80)
			add(l, "%c", *p++);
		else if ((n = utf8_length(p)) > 0) {
			add(l, "%.*s", (int)n, (const char *)p);
			p += n;
		} else {
			add(l, "\\ufffd");
			p++;
		}
	}
	add(l, "\"");
}

/* "exit 1", "killed by SIGSEGV", "timed out" */
static void
add_status(struct line *l, const struct attempt_result *r)
{
	const char *name;

	if (r->timed_out)
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

static bool
counted(const struct config *c)
{
	return c->backoff.max_attempts > 0 && !c->forever;
}

static void
add_attempt(struct line *l, const struct config *c, unsigned long n)
{
	if (counted(c))
		add(l, "attempt %lu/%lu", n, c->backoff.max_attempts);
	else
		add(l, "attempt %lu", n);
}

static void
add_next(struct line *l, const struct report *e)
{
	char d[DURATION_BUFSZ];

	add(l, "; next attempt in %s%s",
	    duration_format(e->delay, d, sizeof(d)),
	    e->asked ? ", as the command's output asked" : "");
}

/* The text of an event, after the prefix. */
static void
text(struct line *l, const struct config *c, const struct report *e)
{
	char d[DURATION_BUFSZ];

	switch (e->event) {
	case EV_START:
		add_attempt(l, c, e->attempt);
		add(l, " starting");
		return;
	case EV_SUCCEEDED:
		add_attempt(l, c, e->attempt);
		add(l, " succeeded after %s", duration_format(
		    duration_round(e->duration), d, sizeof(d)));
		if (e->delay >= 0)
			add_next(l, e);
		return;
	case EV_FAILED:
		add_attempt(l, c, e->attempt);
		add(l, " failed: ");
		add_status(l, e->result);
		add(l, " after %s%s", duration_format(
		    duration_round(e->duration), d, sizeof(d)),
		    output_failure(e->reason));
		add_next(l, e);
		return;
	case EV_GIVE_UP:
		add(l, "giving up after %lu attempt%s in %s: ", e->attempt,
		    e->attempt == 1 ? "" : "s", duration_format(
		    duration_round(e->elapsed), d, sizeof(d)));
		add_status(l, e->result);
		add(l, "%s", output_failure(e->reason));
		if (e->give_up == GIVE_UP_BUDGET)
			add(l, "; next attempt would end past the %s budget",
			    duration_format(c->budget, d, sizeof(d)));
		else if (e->give_up == GIVE_UP_DURATION)
			add(l, "; --max-actual-duration reached");
		return;
	case EV_STOP:
		add(l, "stopping: ");
		add_status(l, e->result);
		if (e->reason == WHY_STOP_ON)
			add(l, " is a --stop-on status");
		else if (e->reason == WHY_STOP_OUTPUT)
			add(l, ", and a line matched --stop-if-output");
		else if (e->reason == WHY_INTERRUPTED)
			add(l, " (interrupted)");
		else if (e->reason == WHY_NOT_RETRY_ON) {
			if (c->retry_on.set)
				add(l, " is not a --retry-on status");
			if (c->output.set[RULE_RETRY])
				add(l, ", and no line matched "
				    "--retry-if-output");
		}
		return;
	}
}

static const char *const event_names[] = {
	[EV_START] = "start", [EV_FAILED] = "failure",
	[EV_SUCCEEDED] = "success", [EV_GIVE_UP] = "giveup",
	[EV_STOP] = "stop",
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
	};

	if (e->event == EV_GIVE_UP && e->give_up == GIVE_UP_BUDGET)
		return "budget";
	if (e->event == EV_GIVE_UP && e->give_up == GIVE_UP_DURATION)
		return "max_actual_duration";
	if (e->event == EV_GIVE_UP && names[e->reason] == NULL)
		return "max_attempts";
	return names[e->reason];
}

static void
add_ts(struct line *l)
{
	struct timespec ts;
	struct tm tm;
	char buf[32];

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%S", &tm);
	add(l, "\"ts\":\"%s.%03ldZ\"", buf, ts.tv_nsec / 1000000);
}

static void
add_head(struct line *l, const struct config *c, const char *event)
{
	add(l, "{");
	add_ts(l);
	add(l, ",\"event\":\"%s\",\"label\":", event);
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
json(struct line *l, const struct config *c, const struct report *e)
{
	const struct attempt_result *r = e->result;
	const char *why = reason_name(e), *sig;

	add_head(l, c, event_names[e->event]);
	add(l, ",\"attempt\":%lu,\"max_attempts\":%lu", e->attempt,
	    c->forever ? 0 : c->backoff.max_attempts);
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
	add(l, "}");
}

static void
prefix(struct line *l, const struct config *c)
{
	if (c->label != NULL)
		add(l, "retry[%s]: ", c->label);
	else
		add(l, "retry: ");
}

static void
write_line(int fd, struct line *l)
{
	const char *p = l->buf;
	size_t n = l->len;
	ssize_t w;

	while (n > 0) {
		if ((w = write(fd, p, n)) == -1) {
			if (errno == EINTR)
				continue;
			return;
		}
		p += w;
		n -= (size_t)w;
	}
}

/* A line to stderr when shown there, and to the log file and syslog. */
static void
emit(const struct config *c, struct line *l, size_t body, bool shown,
    int priority)
{
	add(l, "\n");
	if (!l->failed) {
		if (c->syslog)
			syslog(priority, "%.*s", (int)(l->len - body - 1),
			    l->buf + body);
		if (shown)
			write_line(STDERR_FILENO, l);
		if (log_fd >= 0)
			write_line(log_fd, l);
	}
	free(l->buf);
}

int
report_open(const struct config *c, char *err, size_t errsz)
{
	if (c->log_file != NULL && (log_fd = open(c->log_file,
	    O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644)) == -1) {
		snprintf(err, errsz, "--log-file: %s: %s", c->log_file,
		    strerror(errno));
		return -1;
	}
	if (c->syslog)
		openlog("retry", LOG_PID, LOG_USER);
	return 0;
}

void
report(const struct config *c, const struct report *e)
{
	static const int priorities[] = {
		[EV_START] = LOG_INFO, [EV_SUCCEEDED] = LOG_INFO,
		[EV_FAILED] = LOG_WARNING, [EV_GIVE_UP] = LOG_ERR,
		[EV_STOP] = LOG_ERR,
	};
	struct line l = { 0 };
	size_t body = 0;
	const bool shown = c->verbosity == VERBOSE ||
	    (c->verbosity == NORMAL && (e->event != EV_START &&
	    (e->event != EV_SUCCEEDED || c->forever)));

	if (!shown && log_fd < 0 && !c->syslog)
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
report_error(const struct config *c, const char *fmt, ...)
{
	struct line l = { 0 };
	size_t body = 0;
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (c->json) {
		add_head(&l, c, "error");
		add(&l, ",\"message\":");
		add_json(&l, msg);
		add(&l, "}");
	} else {
		prefix(&l, c);
		body = l.len;
		add(&l, "%s", msg);
	}
	emit(c, &l, body, true, LOG_ERR);
}

bool
report_countdown(const struct config *c, int64_t ns)
{
	struct line l = { 0 };
	char d[DURATION_BUFSZ];

	if (c->verbosity == QUIET || c->json || !isatty(STDERR_FILENO))
		return false;
	if (ns < 0)
		return true;
	if (ns > 0) {
		add(&l, "\r");
		prefix(&l, c);
		/* Whole seconds left, rounded up. */
		add(&l, "next attempt in %s", duration_format(
		    (ns + NS_PER_SEC - 1) / NS_PER_SEC * NS_PER_SEC, d,
		    sizeof(d)));
	} else
		add(&l, "\r");
	add(&l, "\033[K");
	if (!l.failed)
		write_line(STDERR_FILENO, &l);
	free(l.buf);
	return true;
}
