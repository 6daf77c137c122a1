/*
 * The words of events: every event with every reason, every give-up and
 * every shared-state event, as text and as JSON, and the fields of each
 * event's JSON object, in order.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reportfmt.h"
#include "unit.h"

#define NS(s)	((int64_t)((s) * 1e9))

struct fmt_case {
	enum event	 event;
	enum reason	 why;
	enum give_up	 give_up;
	enum share_event shared;
	int		 extra;		/* 1: could not start; 2: between
					 * attempts; 3: at the --deadline;
					 * 4: no --budget */
};

/* The cases, in the order of the rows: n of them into c, at most max. */
static size_t
fmt_cases(struct fmt_case *c, size_t max)
{
	static const enum event events[] = { REP_START, REP_FAILED,
		REP_SUCCEEDED, REP_GIVE_UP, REP_STOP, REP_SIGNAL, REP_DONE };
	size_t n = 0;

	for (size_t i = 0; i < sizeof(events) / sizeof(events[0]); i++)
		for (int w = WHY_NONE; w <= WHY_QUIT; w++)
			if (n < max)
				c[n++] = (struct fmt_case){ events[i],
				    (enum reason)w, GIVE_UP_NONE, SE_OPENED, 0 };
	for (int g = GIVE_UP_NONE; g <= GIVE_UP_DEADLINE; g++)
		if (n < max)
			c[n++] = (struct fmt_case){ REP_GIVE_UP, WHY_NONE,
			    (enum give_up)g, SE_OPENED, 0 };
	/* A wait past a limit: the policy names --budget. */
	for (int s = SE_OPENED; s <= SE_STORE_DOWN; s++)
		if (n < max)
			c[n++] = (struct fmt_case){ REP_SHARE, WHY_NONE,
			    s == SE_PAST_BUDGET ? GIVE_UP_BUDGET : GIVE_UP_NONE,
			    (enum share_event)s, 0 };
	if (n + 3 <= max) {
		c[n++] = (struct fmt_case){ REP_FAILED, WHY_NONE,
		    GIVE_UP_NONE, SE_OPENED, 1 };
		c[n++] = (struct fmt_case){ REP_SIGNAL, WHY_NONE,
		    GIVE_UP_NONE, SE_OPENED, 2 };
		c[n++] = (struct fmt_case){ REP_STOP, WHY_NONE,
		    GIVE_UP_NONE, SE_OPENED, 2 };
	}
	/* --deadline: the next attempt past it, or the run at it (3). */
	if (n + 3 <= max) {
		c[n++] = (struct fmt_case){ REP_SUCCEEDED, WHY_NONE,
		    GIVE_UP_DEADLINE, SE_OPENED, 0 };
		c[n++] = (struct fmt_case){ REP_SUCCEEDED, WHY_NONE,
		    GIVE_UP_DEADLINE, SE_OPENED, 3 };
		c[n++] = (struct fmt_case){ REP_GIVE_UP, WHY_NONE,
		    GIVE_UP_DEADLINE, SE_OPENED, 3 };
	}
	/* A wait for the shared state past --deadline, without --budget. */
	if (n < max)
		c[n++] = (struct fmt_case){ REP_SHARE, WHY_NONE,
		    GIVE_UP_DEADLINE, SE_PAST_BUDGET, 4 };
	return n;
}

static const struct share_rules rules = { .max = 10, .trip = 3,
	.cooldown = NS(30) };
static char w0[] = "curl", w1[] = "-f", w2[] = "x y";
static char *const args[] = { w0, w1, w2 };

/* The reporter of the rows: no label, --max 5, --share api, 2 successes
 * in a row. */
static void
fmt_reporter(struct reporter *r)
{
	*r = (struct reporter){ .args = args, .nargs = 3, .max_attempts = 5,
		.budget = NS(60), .deadline = NS(90),
		.retry_on = true, .retry_if_output = true,
		.successes = 2, .share = "api", .share_rules = &rules };
	report_name_command(args, 3, r->name, sizeof(r->name));
	report_name_line(args, 3, r->line_name, sizeof(r->line_name));
}

/* The line of case k in l, from a report built for it. */
static void
fmt_line(const struct fmt_case *k, bool json, struct line *l)
{
	static const struct codes_limit limit = { .max = 3, .item = "75:3",
	    .len = 4 };
	static const struct timespec now = { 1700000000, 123456789 };
	struct attempt_result res = { .status = 1 };
	struct reporter r;
	struct report e = {
		.event = k->event, .attempt = 2, .made = 2, .failures = 1,
		.result = &res, .duration = NS(1.5), .elapsed = NS(3.25),
		.delay = -1, .reason = k->why, .verdict_why = k->why,
		.give_up = k->give_up, .limit = &limit, .streak = 1,
		.received = SIGTERM, .shared = k->shared, .tokens = 2,
		.wait = NS(5), .waited = WAIT_OPEN,
	};

	fmt_reporter(&r);
	r.json = json;
	if (k->event == REP_SUCCEEDED || k->event == REP_DONE)
		res.status = 0;
	if (k->event == REP_FAILED) {
		e.delay = NS(2);
		if (k->why == WHY_MATCHED) {
			e.hinted = e.asked = true;
			e.wanted = e.delay;
			e.strategy = NS(1);
		}
	}
	if (k->event == REP_SIGNAL && k->why == WHY_INTERRUPTED)
		res.forwarded = true;
	if (k->event == REP_SIGNAL && k->why == WHY_QUIT)
		res.terminal = true;
	if (k->event == REP_STOP && k->why == WHY_NONE)
		res.signal = SIGKILL;
	if (k->extra == 1) {
		e.cause = "No such file or directory";
		e.result = NULL;
	} else if (k->extra == 2)
		e.result = NULL;
	else if (k->extra == 3)
		e.elapsed = r.deadline;
	else if (k->extra == 4)
		r.budget = -1;
	if (k->event != REP_SHARE)
		e.wait = -1;
	(void)report_format(l, &r, &e, &now);
}

/* The names of a JSON object's fields, in order, comma-separated. */
static void
fmt_fields(const char *s, char *buf, size_t sz)
{
	int depth = 0;
	bool in = false;

	buf[0] = '\0';
	for (const char *p = s; *p != '\0'; p++) {
		if (in) {
			if (*p == '\\' && p[1] != '\0')
				p++;
			else if (*p == '"')
				in = false;
			continue;
		}
		if (*p == '{' || *p == '[')
			depth++;
		else if (*p == '}' || *p == ']')
			depth--;
		else if (*p == '"') {
			const char *q = strchr(p + 1, '"');

			if (depth == 1 && q != NULL && q[1] == ':' &&
			    (p[-1] == '{' || p[-1] == ',')) {
				if (buf[0] != '\0')
					strlcat(buf, ",", sz);
				snprintf(buf + strlen(buf), sz - strlen(buf),
				    "%.*s", (int)(q - p - 1), p + 1);
				p = q;
			} else
				in = true;
		}
	}
}

/* report_name_line of the n words w, copied: the command's words are
 * not const. */
static void
name_line(const char *const *w, int n, char *buf, size_t sz)
{
	char *v[8];

	for (int i = 0; i < n; i++)
		v[i] = strdup(w[i]);
	report_name_line(v, n, buf, sz);
	for (int i = 0; i < n; i++)
		free(v[i]);
}

/* The command as every text line names it: whole to 24 columns, else cut
 * to 21 and "...", never inside an escape, blanks before it cut; and
 * whether that name shows a word whole. */
static void
name_rows(void)
{
	static const char *const lone[] = { "nosuchcmd", "a" };
	static const char *const longword[] = {
		"/opt/tools/bin/deploy-everything", "now" };
	static const struct {
		const char	*args[4];
		int		 nargs;
		const char	*want;
	} rows[] = {
		{ { "make", "-C", "src/libfoo", "check" }, 4,
		    "make -C src/libfoo check" },
		{ { "sh", "-c", "echo hi; exit 1" }, 3,
		    "sh -c 'echo hi; exit 1'" },
		{ { "curl", "-fsS", "https://example.com/a/b" }, 3,
		    "curl -fsS https://exa..." },
		{ { "aaaaaaaaaaaaaaaaaaaa", "bbbb" }, 2,
		    "aaaaaaaaaaaaaaaaaaaa..." },
		{ { "printf", "\033\033\033\033" }, 2,
		    "printf '\\x1b\\x1b\\x1b..." },
		/* é, ö, ü, ï, ñ: one column each, of two bytes. */
		{ { "echo", "h\xc3\xa9llo w\xc3\xb6rld \xc3\xbcn\xc3\xaf" "c"
		    "\xc3\xb6" "d\xc3\xa9 \xc3\xb1" }, 2,
		    "echo 'h\xc3\xa9llo w\xc3\xb6rld \xc3\xbcn\xc3\xaf..." },
		{ { "x" }, 0, "" },
	};
	struct reporter r = { 0 };
	char buf[sizeof(r.line_name)];
	size_t used;

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		name_line(rows[i].args, rows[i].nargs, buf, sizeof(buf));
		(void)line_fit(buf, strlen(buf), 80, &used);
		unit_row(strcmp(buf, rows[i].want) == 0 &&
		    used <= REPORT_LINE_NAME_COLS, "reportfmt",
		    rows[i].want, "\"%s\", %zu columns", buf, used);
	}
	name_line(lone, 2, r.line_name, sizeof(r.line_name));
	unit_row(report_names_whole(&r, "nosuchcmd") &&
	    !report_names_whole(&r, "nosuch"), "reportfmt",
	    "the name shows its first word whole", "%s", r.line_name);
	name_line(longword, 2, r.line_name, sizeof(r.line_name));
	unit_row(!report_names_whole(&r, longword[0]), "reportfmt",
	    "a first word cut short is not shown whole", "%s", r.line_name);
	name_line(lone, 2, r.line_name, sizeof(r.line_name));
	r.label = "db";
	unit_row(!report_names_whole(&r, "nosuchcmd"), "reportfmt",
	    "a label's lines do not name the command", "%s", r.line_name);
}

#ifndef FMT_GENERATE
/* The rows: what the words were when they were pinned (each case's text
 * and JSON, in the order of fmt_cases, then the fields of the first case
 * of each event and of each case of its own). */
#include "reportfmt_rows.h"

static const char *const event_names[] = { "start", "failure", "success",
	"giveup", "stop", "signal", "share", "done" };

void
unit_reportfmt(void)
{
	struct fmt_case c[128];
	const size_t n = fmt_cases(c, 128);
	size_t fields = 0;
	char name[64], f[512];

	unit_row(n == sizeof(text_rows) / sizeof(text_rows[0]) &&
	    n == sizeof(json_rows) / sizeof(json_rows[0]), "reportfmt",
	    "cases", "%zu cases, %zu text rows, %zu JSON rows", n,
	    sizeof(text_rows) / sizeof(text_rows[0]),
	    sizeof(json_rows) / sizeof(json_rows[0]));
	for (size_t i = 0; i < n && i < sizeof(text_rows) /
	    sizeof(text_rows[0]); i++)
		for (int json = 0; json <= 1; json++) {
			const char *want = json ? json_rows[i] : text_rows[i];
			struct line l = { 0 };

			fmt_line(&c[i], json, &l);
			snprintf(name, sizeof(name), "%s %s: why %d, give-up "
			    "%d, share %d, case %d", json ? "JSON" : "text",
			    event_names[c[i].event], (int)c[i].why,
			    (int)c[i].give_up, (int)c[i].shared, c[i].extra);
			unit_row(l.buf != NULL && strcmp(l.buf, want) == 0,
			    "reportfmt", name, "\"%s\", not \"%s\"",
			    l.buf != NULL ? l.buf : "(null)", want);
			if (json && (i == 0 || c[i].event != c[i - 1].event ||
			    c[i].extra != 0) && fields < sizeof(field_rows) /
			    sizeof(field_rows[0])) {
				fmt_fields(l.buf != NULL ? l.buf : "", f,
				    sizeof(f));
				snprintf(name, sizeof(name), "the fields of "
				    "%s, case %d", event_names[c[i].event],
				    c[i].extra);
				unit_row(strcmp(f, field_rows[fields]) == 0,
				    "reportfmt", name, "%s, not %s", f,
				    field_rows[fields]);
				fields++;
			}
			free(l.buf);
		}
	unit_row(fields == sizeof(field_rows) / sizeof(field_rows[0]),
	    "reportfmt", "field rows", "%zu of %zu", fields,
	    sizeof(field_rows) / sizeof(field_rows[0]));
	name_rows();
}
#endif

#ifdef FMT_GENERATE
static void
c_string(const char *s)
{
	putchar('"');
	for (; *s != '\0'; s++)
		if (*s == '"' || *s == '\\')
			printf("\\%c", *s);
		else if (*s == '\n')
			printf("\\n");
		else
			putchar(*s);
	putchar('"');
}

int
main(void)
{
	struct fmt_case c[128];
	size_t n = fmt_cases(c, 128);
	char f[512];

	for (int json = 0; json <= 1; json++) {
		printf("static const char *const %s[] = {\n",
		    json ? "json_rows" : "text_rows");
		for (size_t i = 0; i < n; i++) {
			struct line l = { 0 };

			fmt_line(&c[i], json, &l);
			printf("\t");
			c_string(l.buf);
			printf(",\n");
			free(l.buf);
		}
		printf("};\n");
	}
	printf("static const char *const field_rows[] = {\n");
	for (size_t i = 0; i < n; i++) {
		struct line l = { 0 };

		if (i > 0 && c[i].event == c[i - 1].event &&
		    c[i].extra == 0)
			continue;
		fmt_line(&c[i], true, &l);
		fmt_fields(l.buf, f, sizeof(f));
		printf("\t");
		c_string(f);
		printf(",\n");
		free(l.buf);
	}
	printf("};\n");
	return 0;
}
#endif
