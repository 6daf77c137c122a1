/* Where a run's events go: the lines of reportfmt.h on stderr, as -q and
 * --verbose choose, and the same events in a log file and to syslog; the
 * log's dropped lines counted and said; the countdown of a sleep on a
 * terminal. */
#ifndef RETRY_REPORT_H
#define RETRY_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "output.h"
#include "spawn.h"
#include "verdict.h"
#include "reportfmt.h"

/* What reports need, taken from the options once (args, label, share and
 * the rules are kept, not copied); no sink is opened (reporter_open). */
void	reporter_init(struct reporter *, const struct reporter_opts *);
/* Opens the sinks of a reporter that reporter_init built: log_file, the
 * --log-file or NULL (0600, without blocking, and neither through a
 * symlink nor into a file or FIFO that another user planted in a sticky
 * world-writable directory), and syslog; -1 with the reason in err. */
int	reporter_open(struct reporter *, const char *log_file, char *err,
	    size_t);
/* Hands the log what it takes now, and says on stderr (and in the log,
 * if it takes it) how many lines its reader did not take: at the end of
 * the run, whichever way it ends.  reporter_close does it too. */
void	report_end(const struct reporter *);
void	reporter_close(struct reporter *);
void	report(const struct reporter *, const struct report *);
/* The run's end for give_up, found after the attempt's event e was said
 * (--deadline reached while --on-retry ran): e said again as the closing
 * event, elapsed ns into the run. */
void	report_late_end(const struct reporter *, struct report e,
	    enum give_up give_up, int64_t elapsed);
/* retry's own errors: always shown, with the label. */
void	report_error(const struct reporter *, const char *, ...)
	    __attribute__((format(printf, 2, 3)));
/* What the shared state had to say (shared.h's news), said as errors
 * and forgotten: after "--share NAME: " when share is not NULL. */
struct shared;
void	report_news(const struct reporter *, struct shared *,
	    const char *share);
/* The command cmd could not be run (exec's errno e): said as a shell
 * says it ("command not found", with the face of retry's that a name
 * most likely meant; "Is a directory"), as report_error says "CMD: WHY",
 * and to the CI as its error annotation. */
void	report_cannot_run(const struct reporter *, const char *cmd, int e);
/* A rule that gave up on a line (limited[k]) says so, once a run. */
void	report_limited(const struct reporter *, const bool limited[RULE_COUNT]);
/* --hedge's events (hedgefmt.h), said as the others are: on stderr
 * unless -q, in the log and to syslog. */
struct hedge_event;
void	report_hedge(const struct reporter *, const struct hedge_event *);
/* Output that no reader gets (a cancelled attempt's, or one that failed
 * beside others), held in the file fd (-1: none), to the log file line by
 * line, if there is one: attempt's, of stream ("stdout", "stderr"). */
void	report_held_output(const struct reporter *, unsigned long attempt,
	    const char *stream, int fd);
/* The countdown of a sleep on a terminal: whether there is one, the time
 * left, and the line cleared at the end. */
bool	countdown_start(const struct reporter *);
void	countdown_show(const struct reporter *, int64_t left);
void	countdown_end(const struct reporter *);
/* A usage error, wherever it is found: "PROG: WHY" on one line, made
 * visible as report_visible does, then "Try 'PROG --help'."; the line
 * synopsis before them, unless it is NULL. */
void	usage_error(const char *prog, const char *synopsis, const char *why);
/* The same for an error of the run's set-up that is no usage error (a log
 * file that cannot be opened): without the pointer to --help when
 * try_help is false. */
void	run_error(const char *prog, const char *why, bool try_help);

#endif
