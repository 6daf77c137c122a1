/*
 * The words of a run's events: an event in, its line out, as text
 * ("retry: " or "retry[LABEL]: " first) or as one JSON object; the share
 * messages, the names of reasons and the command's name as reports quote
 * it.  Pure: no I/O, no exit; report.c hands the lines to stderr, the log
 * file and syslog, with the time it read.
 */
#ifndef RETRY_REPORTFMT_H
#define RETRY_REPORTFMT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "line.h"
#include "config.h"
#include "attempt.h"
#include "verdict.h"

/* REP_DONE: the run ended in a success after one or more failures, said
 * once, as it ends. */
enum event { REP_START, REP_FAILED, REP_SUCCEEDED, REP_GIVE_UP, REP_STOP,
	REP_SIGNAL, REP_SHARE, REP_DONE };

/* REP_SHARE: what the shared state did or said. */
enum share_event {
	SE_OPENED,		/* this run's failure opened the breaker */
	SE_REOPENED,		/* this run's probe failed: open again */
	SE_PROBE,		/* half-open: this attempt probes it */
	SE_CLOSED,		/* the probe succeeded: closed */
	SE_WAIT_OPEN,		/* open: waiting until it half-opens */
	SE_WAIT_PROBE,		/* half-open: another run probes */
	SE_WAIT_NOT_BEFORE,	/* another run's output asked for a delay */
	SE_GIVE_UP_OPEN,	/* open, and --share-open giveup */
	SE_PAST_BUDGET,		/* a wait past this run's --budget or
				 * --deadline */
	SE_STORE_DOWN,		/* --share-required: the store is down */
};

struct report {
	enum event	 event;
	unsigned long	 attempt;
	unsigned long	 made;		/* the attempts the run made, a
					 * --forever --reset-after's before
					 * its count started over too */
	bool		 hedged;	/* REP_DONE: attempt won a round of
					 * --hedge, and is named, not made */
	unsigned long	 failures;	/* REP_GIVE_UP, REP_DONE: the attempts
					 * of the run that failed */
	const struct attempt_result *result;
	int64_t		 duration;	/* of the attempt, ns */
	int64_t		 elapsed;	/* since retry started, ns */
	int64_t		 delay;		/* the next delay, ns, or -1 */
	bool		 asked;		/* the delay came from the output */
	bool		 hinted;	/* the output asked for a delay */
	int64_t		 wanted;	/* hinted: what the output asked for */
	int64_t		 strategy;	/* hinted: the strategy's delay */
	enum reason	 reason;	/* why it stopped or failed */
	enum reason	 verdict_why;	/* why the attempt it reports got its
					 * verdict (a stop by the reader
					 * gone keeps the attempt's) */
	enum give_up	 give_up;	/* REP_GIVE_UP; SE_PAST_BUDGET: the
					 * limit passed, GIVE_UP_BUDGET or
					 * GIVE_UP_DEADLINE */
	const struct codes_limit *limit;	/* GIVE_UP_LIMIT: which */
	unsigned long	 streak;	/* REP_SUCCEEDED: successes in a row */
	const char	*cause;		/* the attempt could not start: why */
	int		 received;	/* REP_SIGNAL: the signal that ends the
					 * run; result is NULL between
					 * attempts */
	enum share_event shared;	/* REP_SHARE */
	double		 tokens;	/* REP_SHARE, GIVE_UP_SHARED: left */
	int64_t		 wait;		/* REP_SHARE: ns waited, or -1 */
	enum gate_why	 waited;	/* REP_SHARE: what for */
};

struct logfile;

/* The most of the command that the CI's group titles and annotations
 * name, in bytes, cut short beyond it. */
#define REPORT_NAME_MAX	48
/* The most of the command that each text line names, in columns, "..."
 * included: enough to tell parallel jobs apart, little enough that a
 * line stays close to 80 columns. */
#define REPORT_LINE_NAME_COLS	24

/* What reports need, taken from the options once. */
struct reporter {
	const char	*label;		/* retry[LABEL]:, or NULL */
	/* Without a label, the command as the CI's lines name it: its
	 * words, quoted as a shell would need them, made visible, cut short
	 * with "...". */
	char		 name[REPORT_NAME_MAX + 4];
	/* The same, shorter, as every text line and syslog name it: an
	 * escape is 4 columns of 4 bytes, a UTF-8 character up to 4 bytes. */
	char		 line_name[REPORT_LINE_NAME_COLS * 4 + 1];
	char *const	*args;		/* the command, for JSON */
	int		 nargs;
	enum verbosity	 verbosity;
	bool		 json;		/* JSON Lines, not text */
	enum ci_mode	 ci;		/* the CI's lines on stdout, or
					 * CI_NONE (never CI_AUTO) */
	bool		 syslog;
	bool		 forever;	/* successes are shown */
	unsigned long	 max_attempts;	/* "attempt n/max", or 0 */
	int64_t		 budget;
	int64_t		 deadline;	/* --deadline, ns, or -1 */
	bool		 retry_on, retry_if_output;	/* given */
	bool		 hedge;		/* --hedge: an attempt's output comes
					 * once its round is decided */
	unsigned long	 successes;	/* --successes: "1 of 3 in a row" */
	const char	*share;		/* --share NAME, or NULL */
	const struct share_rules *share_rules;
	struct logfile	*log;		/* the --log-file, or NULL */
};

/*
 * The line of e, in l, finished: text made visible, or JSON, that ends
 * with a newline; "ts" is now.  Returns where the body starts, after
 * the prefix (0 in JSON), for syslog, whose lines have a prefix of their
 * own.
 */
size_t	report_format(struct line *l, const struct reporter *,
	    const struct report *e, const struct timespec *now);
/* retry's own error msg as a finished line, text or JSON ("error"). */
size_t	report_format_error(struct line *l, const struct reporter *,
	    const char *msg, const struct timespec *now);
/* A JSON object's first fields: ts, event, label, command and name (the
 * label, else the command's words quoted as one string, else null). */
void	report_json_head(struct line *l, const struct reporter *,
	    const char *event, const struct timespec *now);
/* l made visible (text) and ended with a newline. */
void	report_finish(const struct reporter *, struct line *l);
/* now, RFC 3339 in UTC with milliseconds: the text log's first column. */
void	report_stamp(struct line *l, const struct timespec *now);
/* How an attempt ended, as every report says it: "exit 1", "killed by
 * SIGSEGV", "timed out", "timed out (status 143)" (--preserve-status: the
 * command's own), or "could not start: CAUSE" when cause is not NULL (r
 * is read only when it is). */
void	report_status(struct line *l, const struct attempt_result *r,
	    const char *cause);
/* "attempt 3/5", or "attempt 3" where there is no limit. */
void	report_attempt(struct line *l, const struct reporter *,
	    unsigned long n);
/* Why an attempt whose status was a success still failed, as its failure
 * line says it: " (no line matched --output until)", or "". */
const char *report_failure_why(enum reason why);
/* "retry: ", or "retry[LABEL]: ": the CI's titles, which name the
 * command after it. */
void	report_prefix(struct line *l, const struct reporter *);
/* What names the run first on every text line: "retry[LABEL]: ", or
 * "retry: NAME: " with the command's line_name ("retry: " where there is
 * no command). */
void	report_prefix_named(struct line *l, const struct reporter *);
/* The command's words into l, quoted as a shell would need them. */
void	report_quote_command(struct line *l, char *const *args, int nargs);
/* The command's words into buf, quoted as a shell would need them, made
 * visible, cut short with "..." past REPORT_NAME_MAX bytes. */
void	report_name_command(char *const *args, int nargs, char *buf,
	    size_t sz);
/* The same, cut short with "..." past REPORT_LINE_NAME_COLS columns. */
void	report_name_line(char *const *args, int nargs, char *buf, size_t sz);
/* Whether the prefix of c's text lines shows word whole, as the first of
 * the command's words: a line that would say it again need not (JSON's
 * messages keep it). */
bool	report_names_whole(const struct reporter *c, const char *word);
/* s in buf as reports show it, the one rule for all that retry prints:
 * C0 controls but tab, DEL, C1 controls and bytes that are not UTF-8 as
 * \xHH, UTF-8 kept; cut short (never inside an escape) to fit sz.  For
 * what names a store or quotes a server, printed elsewhere. */
char	*report_visible(const char *s, char *buf, size_t sz);

#endif
