/*
 * GitHub's workflow commands and GitLab's collapsible sections, escaped.
 * GitHub: "::NAME PROP=VALUE,...::MESSAGE" on a line of its own; a
 * message escapes % CR LF, a property's value : and , too
 * (actions/toolkit's escapeData and escapeProperty).  GitLab:
 * "ESC[0Ksection_start:TIME:NAME[collapsed=true]\rESC[0KHEADER", and
 * "ESC[0Ksection_end:TIME:NAME\rESC[0K".
 */
#include <string.h>

#include "cifmt.h"

enum ci_mode
ci_detect(enum ci_mode asked, const char *github_actions,
    const char *gitlab_ci, bool tty, bool json, bool nested)
{
	if (asked != CI_AUTO)
		return asked;
	if (tty || json || nested)
		return CI_NONE;
	if (github_actions != NULL && strcmp(github_actions, "true") == 0)
		return CI_GITHUB;
	if (gitlab_ci != NULL && strcmp(gitlab_ci, "true") == 0)
		return CI_GITLAB;
	return CI_NONE;
}

void
ci_escape_github(struct line *l, const char *s, size_t n, bool property)
{
	for (size_t i = 0; i < n; i++)
		switch (s[i]) {
		case '%':
			line_add(l, "%%25");
			break;
		case '\r':
			line_add(l, "%%0D");
			break;
		case '\n':
			line_add(l, "%%0A");
			break;
		case ':':
			line_add(l, property ? "%%3A" : ":");
			break;
		case ',':
			line_add(l, property ? "%%2C" : ",");
			break;
		default:
			line_add(l, "%c", s[i]);
		}
}

void
ci_gitlab_name(struct line *l, const char *s)
{
	static const char kept[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "abcdefghijklmnopqrstuvwxyz0123456789_.-";

	for (; *s != '\0'; s++)
		line_add(l, "%c", strchr(kept, *s) != NULL ? *s : '_');
}

/* A GitLab header: one line, printable; what is not is ?. */
static void
gitlab_text(struct line *l, const char *s)
{
	for (; *s != '\0'; s++) {
		const unsigned char c = (unsigned char)*s;

		line_add(l, "%c", c < 0x20 || c == 0x7f ? '?' : *s);
	}
}

void
ci_group_start(struct line *l, enum ci_mode ci, const char *name,
    const char *title, int64_t unixtime)
{
	if (ci == CI_GITHUB) {
		line_add(l, "::group::");
		ci_escape_github(l, title, strlen(title), false);
		line_add(l, "\n");
	} else if (ci == CI_GITLAB) {
		line_add(l, "\033[0Ksection_start:%lld:", (long long)unixtime);
		ci_gitlab_name(l, name);
		line_add(l, "[collapsed=true]\r\033[0K");
		gitlab_text(l, title);
		line_add(l, "\n");
	}
}

void
ci_group_end(struct line *l, enum ci_mode ci, const char *name,
    int64_t unixtime)
{
	if (ci == CI_GITHUB)
		line_add(l, "::endgroup::\n");
	else if (ci == CI_GITLAB) {
		line_add(l, "\033[0Ksection_end:%lld:", (long long)unixtime);
		ci_gitlab_name(l, name);
		line_add(l, "\r\033[0K\n");
	}
}

void
ci_annotation(struct line *l, enum ci_mode ci, bool error, const char *title,
    const char *msg)
{
	if (ci == CI_GITHUB) {
		line_add(l, error ? "::error title=" : "::warning title=");
		ci_escape_github(l, title, strlen(title), true);
		line_add(l, "::");
		ci_escape_github(l, msg, strlen(msg), false);
		line_add(l, "\n");
	} else if (ci == CI_GITLAB) {
		gitlab_text(l, title);
		line_add(l, ": ");
		gitlab_text(l, msg);
		line_add(l, "\n");
	}
}
