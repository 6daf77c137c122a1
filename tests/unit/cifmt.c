/*
 * --ci's lines: GitHub's workflow commands and GitLab's sections, with
 * hostile text in them (line breaks, %, ::, , and :), and which CI a run
 * is in.
 */
#include <stdlib.h>
#include <string.h>

#include "cifmt.h"
#include "reportfmt.h"
#include "unit.h"

static const struct escaped {
	const char	*name;
	const char	*in;
	const char	*message;	/* in a message */
	const char	*property;	/* in a property's value */
} escaped[] = {
	{ "plain", "flaky 2", "flaky 2", "flaky 2" },
	{ "a newline", "a\nb", "a%0Ab", "a%0Ab" },
	{ "a carriage return", "a\rb", "a%0Db", "a%0Db" },
	{ "a percent sign", "100%", "100%25", "100%25" },
	{ "an escape already", "%0A", "%250A", "%250A" },
	{ "a command injected", "x\n::error::pwned", "x%0A::error::pwned",
	  "x%0A%3A%3Aerror%3A%3Apwned" },
	{ "a comma and a colon", "a,b:c", "a,b:c", "a%2Cb%3Ac" },
	{ "CR LF", "\r\n", "%0D%0A", "%0D%0A" },
};

static const struct built {
	const char	*name;
	enum ci_mode	 ci;
	int		 kind;		/* 0 start, 1 end, 2 warning, 3 error */
	const char	*title;
	const char	*text;		/* section name, or message */
	const char	*want;
} built[] = {
	{ "GitHub's group", CI_GITHUB, 0, "retry: attempt 1/3: flaky 2",
	  "retry_attempt_1", "::group::retry: attempt 1/3: flaky 2\n" },
	{ "GitHub's group, hostile", CI_GITHUB, 0, "a\n::error::pwned%",
	  "n", "::group::a%0A::error::pwned%25\n" },
	{ "GitHub's group ends", CI_GITHUB, 1, NULL, "n", "::endgroup::\n" },
	{ "GitHub's warning", CI_GITHUB, 2, "retry: succeeded after failures",
	  "x: exit 1", "::warning title=retry%3A succeeded after failures::"
	  "x: exit 1\n" },
	{ "GitHub's error, hostile", CI_GITHUB, 3, "t,i:t\nle",
	  "m\r\n::warning::x", "::error title=t%2Ci%3At%0Ale::"
	  "m%0D%0A::warning::x\n" },
	{ "GitLab's section", CI_GITLAB, 0, "retry: attempt 1: a b",
	  "retry_attempt_1", "\033[0Ksection_start:1700000000:"
	  "retry_attempt_1[collapsed=true]\r\033[0Kretry: attempt 1: a b\n" },
	{ "GitLab's section, hostile", CI_GITLAB, 0, "a\r\nb\033[2J",
	  "retry_my label:\n[x]", "\033[0Ksection_start:1700000000:"
	  "retry_my_label___x_[collapsed=true]\r\033[0Ka??b?[2J\n" },
	{ "GitLab's section ends", CI_GITLAB, 1, NULL, "a/b.c-d_e",
	  "\033[0Ksection_end:1700000000:a_b.c-d_e\r\033[0K\n" },
	{ "GitLab's annotation", CI_GITLAB, 3, "retry: gave up",
	  "x\ny", "retry: gave up: x?y\n" },
	{ "none says nothing", CI_NONE, 0, "t", "n", "" },
};

static const struct detected {
	const char	*name;
	enum ci_mode	 asked;
	const char	*github, *gitlab;
	bool		 tty;		/* stderr is a terminal */
	bool		 json;		/* --log-format json */
	bool		 nested;	/* run by another run of retry's */
	enum ci_mode	 want;
} detected[] = {
	{ "outside CI", CI_AUTO, NULL, NULL, false, false, false, CI_NONE },
	{ "GitHub Actions", CI_AUTO, "true", NULL, false, false, false, CI_GITHUB },
	{ "GitLab CI", CI_AUTO, NULL, "true", false, false, false, CI_GITLAB },
	{ "not true", CI_AUTO, "1", "yes", false, false, false, CI_NONE },
	{ "both: GitHub", CI_AUTO, "true", "true", false, false, false, CI_GITHUB },
	{ "a terminal", CI_AUTO, "true", NULL, true, false, false, CI_NONE },
	{ "JSON Lines", CI_AUTO, NULL, "true", false, true, false, CI_NONE },
	{ "none asked", CI_NONE, "true", NULL, false, false, false, CI_NONE },
	{ "gitlab asked", CI_GITLAB, "true", NULL, true, false, false, CI_GITLAB },
	{ "github asked, JSON", CI_GITHUB, NULL, NULL, false, true, false,
	  CI_GITHUB },
	{ "inside another run", CI_AUTO, "true", NULL, false, false, true,
	  CI_NONE },
	{ "gitlab asked, inside another run", CI_GITLAB, NULL, "true", false,
	  false, true, CI_GITLAB },
};

static void
check(const char *suite, const char *name, struct line *l, const char *want)
{
	const char *got = l->buf != NULL ? l->buf : "";

	unit_row(!l->failed && strcmp(got, want) == 0, suite, name,
	    "got '%s', want '%s'", got, want);
	free(l->buf);
	*l = (struct line){ 0 };
}

void
unit_cifmt(void)
{
	struct line l = { 0 }, m = { 0 };
	const struct attempt_result killed = { .signal = 9, .status = 137 },
	    timed = { .timed_out = true, .status = 124 },
	    preserved = { .timed_out = true, .signal = 15, .status = 143 },
	    exited = { .status = 3 };

	for (size_t i = 0; i < sizeof(escaped) / sizeof(escaped[0]); i++) {
		const struct escaped *e = &escaped[i];

		ci_escape_github(&l, e->in, strlen(e->in), false);
		check("cifmt message", e->name, &l, e->message);
		ci_escape_github(&l, e->in, strlen(e->in), true);
		check("cifmt property", e->name, &l, e->property);
	}
	for (size_t i = 0; i < sizeof(built) / sizeof(built[0]); i++) {
		const struct built *b = &built[i];

		if (b->kind == 0)
			ci_group_start(&l, b->ci, b->text, b->title,
			    1700000000);
		else if (b->kind == 1)
			ci_group_end(&l, b->ci, b->text, 1700000000);
		else
			ci_annotation(&l, b->ci, b->kind == 3, b->title,
			    b->text);
		check("cifmt line", b->name, &l, b->want);
	}
	for (size_t i = 0; i < sizeof(detected) / sizeof(detected[0]); i++) {
		const struct detected *d = &detected[i];
		const enum ci_mode got = ci_detect(d->asked, d->github,
		    d->gitlab, d->tty, d->json, d->nested);

		unit_row(got == d->want, "cifmt detect", d->name,
		    "got %d, want %d", (int)got, (int)d->want);
	}
	/* The statuses an annotation names are the reports' own. */
	report_status(&l, &exited, NULL);
	check("cifmt status", "exit", &l, "exit 3");
	report_status(&l, &killed, NULL);
	check("cifmt status", "killed", &l, "killed by SIGKILL");
	report_status(&l, &timed, NULL);
	check("cifmt status", "timed out", &l, "timed out");
	report_status(&l, &preserved, NULL);
	check("cifmt status", "timed out, --preserve-status", &l,
	    "timed out (status 143)");
	report_status(&l, &exited, "No such file");
	check("cifmt status", "could not start", &l,
	    "could not start: No such file");
	report_status(&m, &preserved, NULL);
	ci_annotation(&l, CI_GITHUB, true, "retry: gave up",
	    m.buf != NULL ? m.buf : "");
	check("cifmt status", "timed out, --preserve-status, annotated", &l,
	    "::error title=retry%3A gave up::timed out (status 143)\n");
	free(m.buf);
}
