/*
 * Where reports go: the lines that reportfmt.c words, to stderr as -q and
 * --verbose choose, and every event to the log file and syslog; the count
 * of the log's dropped lines; the countdown of a sleep on a terminal; and
 * the usage errors found before a run.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "compat.h"
#include "duration.h"
#include "env.h"
#include "hedgefmt.h"
#include "line.h"
#include "logfile.h"
#include "output.h"
#include "report.h"
#include "shared.h"
#include "suggest.h"
#include "cifmt.h"
#include "ci.h"

#ifndef _PATH_LOG
#define _PATH_LOG	"/dev/log"
#endif

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
log_line(const struct reporter *c, const struct line *l, struct line *t,
    const struct timespec *now)
{
	if (!c->json)
		report_stamp(t, now);
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
		line_add(&who, "%s", c->line_name);
	if (who.failed || who.len == 0)
		syslog(priority, "%.*s", (int)(l->len - body - 1),
		    l->buf + body);
	else
		syslog(priority, "[%s] %.*s", who.buf,
		    (int)(l->len - body - 1), l->buf + body);
	free(who.buf);
}

/*
 * A line to stderr when shown there, and to the log file (text with its
 * time first) and syslog.  What it quotes is made visible first in text;
 * JSON escapes it.  Writes to stderr wait for a slow reader only in
 * wait_until, and a reader that has gone loses the line, nothing more;
 * the log's writes never wait (log_put).
 */
static void
emit(const struct reporter *c, struct line *l, size_t body, bool shown,
    int priority, const struct timespec *now)
{
	struct line t = { 0 };

	if (!l->failed) {
		if (c->syslog)
			to_syslog(c, priority, l, body);
		if (shown) {
			out_newline(!c->json);
			(void)out_all(out_std(STDERR_FILENO), l->buf, l->len);
		}
		if (c->log != NULL) {
			log_line(c, l, &t, now);
			if (t.failed)
				c->log->dropped++;
			else
				log_put(c, t.buf, t.len);
			free(t.buf);
		}
	}
	free(l->buf);
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
	struct timespec now;
	ssize_t w = -1;
	size_t body;

	snprintf(msg, sizeof(msg), "--log-file: %lu line%s dropped: %s",
	    f->dropped, f->dropped == 1 ? "" : "s", f->why == EAGAIN ?
	    "its reader did not take them" : f->why == EPIPE ?
	    "it had no reader" : strerror(f->why));
	clock_gettime(CLOCK_REALTIME, &now);
	body = report_format_error(&l, c, msg, &now);
	log_line(c, &l, &t, &now);
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

	ci_end(c);
	if (f == NULL)
		return;
	logfile_end(f);
	if (f->dropped > 0)
		say_dropped(c, true);
	/* What the log did not take of that line now is not kept. */
	f->len = 0;
}

/*
 * Whether anything listens on /dev/log, where syslog(3) sends, asked as
 * it connects (a datagram socket, else a stream one), without waiting: it
 * says nothing when nothing does, and logger(1) says so; retry says so
 * once too, and goes on.
 */
static void
syslog_probe(const struct reporter *c)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	static const int types[] = { SOCK_DGRAM, SOCK_STREAM };
	int fd, e = 0;

	(void)strlcpy(addr.sun_path, _PATH_LOG, sizeof(addr.sun_path));
	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		if ((fd = compat_socket(AF_UNIX, types[i], 0)) == -1)
			return;
		e = connect(fd, (const struct sockaddr *)&addr,
		    sizeof(addr)) == 0 ? 0 : errno;
		close(fd);
		if (e != EPROTOTYPE)
			break;
	}
	if (e == ENOENT || e == ECONNREFUSED)
		report_error(c, "--syslog: nothing listens on %s: %s",
		    _PATH_LOG, strerror(e));
}

void
reporter_init(struct reporter *r, const struct reporter_opts *o)
{
	*r = (struct reporter){
		.label = o->label, .args = o->args, .nargs = o->nargs,
		.verbosity = o->verbosity, .json = o->log_format == LOG_JSON,
		.syslog = o->syslog,
		.ci = ci_detect(o->ci, getenv("GITHUB_ACTIONS"),
		    getenv("GITLAB_CI"), isatty(STDERR_FILENO) == 1,
		    o->log_format == LOG_JSON, env_nested()),
		.forever = o->forever || o->successes > 1,
		.max_attempts = o->forever ? 0 : o->max_attempts,
		.budget = o->budget, .deadline = o->deadline,
		.retry_on = o->retry_on, .hedge = o->hedge,
		.successes = o->successes,
		.retry_if_output = rule_given(o->rules, RULE_RETRY),
		.share = o->share, .share_rules = o->share_rules,
	};
	report_name_command(o->args, o->nargs, r->name, sizeof(r->name));
	report_name_line(o->args, o->nargs, r->line_name, sizeof(r->line_name));
}

int
reporter_open(struct reporter *r, const char *log_file, char *err,
    size_t errsz)
{
	if (log_file != NULL &&
	    logfile_open(&r->log, log_file, err, errsz) == -1)
		return -1;
	if (r->syslog) {
		openlog("retry", LOG_PID, LOG_USER);
		syslog_probe(r);
	}
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

static void
say(const struct reporter *c, const struct report *e)
{
	static const int priorities[] = {
		[REP_START] = LOG_INFO, [REP_SUCCEEDED] = LOG_INFO,
		[REP_FAILED] = LOG_WARNING, [REP_GIVE_UP] = LOG_ERR,
		[REP_STOP] = LOG_ERR, [REP_SIGNAL] = LOG_ERR,
		[REP_SHARE] = LOG_WARNING, [REP_DONE] = LOG_INFO,
	};
	struct line l = { 0 };
	struct timespec now;
	size_t body;
	/* A pipeline whose reader has gone, and a pager quit, say nothing
	 * on a terminal: the 141 says it.  JSON, a log file and syslog still
	 * hear of it. */
	const bool said = c->json || e->event != REP_STOP ||
	    (e->reason != WHY_READER_GONE && e->reason != WHY_QUIT);
	const bool shown = said && (c->verbosity == VERBOSE ||
	    (c->verbosity == NORMAL && (e->event != REP_START &&
	    (e->event != REP_SUCCEEDED || c->forever))));

	if (!shown && c->log == NULL && !c->syslog)
		return;
	clock_gettime(CLOCK_REALTIME, &now);
	body = report_format(&l, c, e, &now);
	emit(c, &l, body, shown, priorities[e->event], &now);
}

/* The CI's group opens before an attempt's first line, and closes after
 * its last, the annotation after it. */
void
report(const struct reporter *c, const struct report *e)
{
	if (e->event == REP_START)
		ci_report(c, e);
	say(c, e);
	if (e->event != REP_START)
		ci_report(c, e);
}

void
report_late_end(const struct reporter *c, struct report e,
    enum give_up give_up, int64_t elapsed)
{
	e.event = REP_GIVE_UP;
	e.give_up = give_up;
	e.delay = -1;
	e.elapsed = elapsed;
	report(c, &e);
}

void
report_error(const struct reporter *c, const char *fmt, ...)
{
	struct line l = { 0 };
	struct timespec now;
	size_t body;
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	clock_gettime(CLOCK_REALTIME, &now);
	body = report_format_error(&l, c, msg, &now);
	emit(c, &l, body, true, LOG_ERR, &now);
}

void
report_news(const struct reporter *c, struct shared *sh, const char *share)
{
	for (size_t i = 0; i < sh->nnews; i++)
		if (share != NULL)
			report_error(c, "--share %s: %s", share, sh->news[i]);
		else
			report_error(c, "%s", sh->news[i]);
	sh->nnews = 0;
}

void
report_cannot_run(const struct reporter *c, const char *cmd, int e)
{
	const char *face = e == ENOENT ? suggest_face(cmd) : NULL;
	struct stat st;
	char why[128];

	if (e == ENOENT && strchr(cmd, '/') == NULL)
		snprintf(why, sizeof(why), "command not found%s%s%s",
		    face != NULL ? "; did you mean 'retry " : "",
		    face != NULL ? face : "", face != NULL ? "'?" : "");
	else if (e == EACCES && stat(cmd, &st) == 0 && S_ISDIR(st.st_mode))
		snprintf(why, sizeof(why), "%s", strerror(EISDIR));
	else
		snprintf(why, sizeof(why), "%s", strerror(e));
	/* The prefix names the command already, or a label does. */
	if (report_names_whole(c, cmd))
		report_error(c, "%s", why);
	else
		report_error(c, "%s: %s", cmd, why);
	ci_cannot_run(c, why);
}

void
report_limited(const struct reporter *c, const bool limited[RULE_COUNT])
{
	static bool said[RULE_COUNT];

	for (int k = 0; k < RULE_COUNT; k++)
		if (limited[k] && !said[k]) {
			said[k] = true;
			report_error(c, "%s: matching took too long on a "
			    "line of output, which counts as not matching",
			    rule_option((enum rule_kind)k));
		}
}

void
report_hedge(const struct reporter *c, const struct hedge_event *e)
{
	struct line l = { 0 };
	struct timespec now;
	size_t body;
	const bool shown = c->verbosity != QUIET;

	ci_hedge(c, e);
	if (!shown && c->log == NULL && !c->syslog)
		return;
	clock_gettime(CLOCK_REALTIME, &now);
	body = hedge_format(&l, c, e, &now);
	emit(c, &l, body, shown, e->what == HE_FAILED ? LOG_WARNING :
	    LOG_INFO, &now);
}

/* A line of output that no reader gets, to the log file. */
static void
report_output(const struct reporter *c, unsigned long attempt,
    const char *stream, const char *buf, size_t n)
{
	struct line l = { 0 }, t = { 0 };
	struct timespec now;

	if (c->log == NULL)
		return;
	clock_gettime(CLOCK_REALTIME, &now);
	hedge_format_output(&l, c, attempt, stream, buf, n, &now);
	if (!l.failed)
		log_line(c, &l, &t, &now);
	if (l.failed || t.failed)
		c->log->dropped++;
	else
		log_put(c, t.buf, t.len);
	free(l.buf);
	free(t.buf);
}

void
report_held_output(const struct reporter *c, unsigned long attempt,
    const char *stream, int fd)
{
	char buf[8192], *p, *nl;
	size_t len = 0;
	off_t off = 0;
	ssize_t n;

	if (fd == -1 || c->log == NULL)
		return;
	while ((n = pread(fd, buf + len, sizeof(buf) - len, off)) > 0) {
		off += n;
		len += (size_t)n;
		for (p = buf; (nl = memchr(p, '\n', len - (size_t)(p - buf))) !=
		    NULL; p = nl + 1)
			report_output(c, attempt, stream, p, (size_t)(nl - p));
		len -= (size_t)(p - buf);
		memmove(buf, p, len);
		/* A line longer than the buffer, in pieces. */
		if (len == sizeof(buf)) {
			report_output(c, attempt, stream, buf, len);
			len = 0;
		}
	}
	if (len > 0)
		report_output(c, attempt, stream, buf, len);
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
	report_prefix_named(&t, c);
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

static void
error_lines(const char *prog, const char *synopsis, const char *why,
    bool try_help)
{
	struct line l = { 0 };

	if (synopsis != NULL)
		line_add(&l, "%s\n", synopsis);
	line_add(&l, "%s: ", prog);
	line_add_visible(&l, why, strlen(why));
	line_add(&l, "\n");
	if (try_help)
		line_add(&l, "Try '%s --help'.\n", prog);
	if (!l.failed)
		(void)out_all(out_std(STDERR_FILENO), l.buf, l.len);
	free(l.buf);
}

void
usage_error(const char *prog, const char *synopsis, const char *why)
{
	error_lines(prog, synopsis, why, true);
}

void
run_error(const char *prog, const char *why, bool try_help)
{
	error_lines(prog, NULL, why, try_help);
}
