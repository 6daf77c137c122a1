/*
 * The lines of a CI's own log format (--ci): GitHub Actions' workflow
 * commands (::group::, ::endgroup::, ::warning::, ::error::) and GitLab
 * CI's collapsible sections, with what retry writes into them escaped as
 * each format requires, so that a command line, a status or a matched line
 * can never make a second command of its own; and which CI a run is in.
 * Pure: no I/O, no exit; ci.c writes the lines.
 */
#ifndef RETRY_CIFMT_H
#define RETRY_CIFMT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "line.h"
#include "config.h"

/* The CI that --ci names (asked), or with auto the one the environment
 * says: GITHUB_ACTIONS=true, else GITLAB_CI=true (each the variable's
 * value, or NULL); never on a terminal (tty: stderr, where the lines go,
 * is one), whose reader is a person, not a CI's log, nor among JSON
 * Lines (json: --log-format json), whose reader is a program, nor in a
 * run that another run of retry's started (nested: RETRY_ATTEMPT is
 * set), whose group is open: neither CI nests groups.  CI_NONE when
 * none. */
enum ci_mode	ci_detect(enum ci_mode asked, const char *github_actions,
		    const char *gitlab_ci, bool tty, bool json, bool nested);
/* s, n bytes, as GitHub's workflow commands take it: % CR LF as %25 %0D
 * %0A in a message; in a property's value : and , as %3A %2C too. */
void	ci_escape_github(struct line *, const char *s, size_t n, bool property);
/* s as a GitLab section's name: [A-Za-z0-9_.-] kept, any other byte _. */
void	ci_gitlab_name(struct line *, const char *s);
/* The line that opens a group (GitHub) or section (GitLab) titled title,
 * whose name (GitLab's, made a name) is name, at unixtime; and the line
 * that closes it. */
void	ci_group_start(struct line *, enum ci_mode, const char *name,
	    const char *title, int64_t unixtime);
void	ci_group_end(struct line *, enum ci_mode, const char *name,
	    int64_t unixtime);
/* An annotation: a warning, or an error, titled title, saying msg: a
 * workflow command on GitHub, on GitLab a plain line "TITLE: MSG". */
void	ci_annotation(struct line *, enum ci_mode, bool error,
	    const char *title, const char *msg);

#endif
