/* The option table, parsing and validation, and the --help text. */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "duration.h"
#include "lists.h"
#include "model.h"
#include "number.h"
#include "options.h"
#include "storeurl.h"

enum id {
	O_MAX = 256, O_TIMES, O_BUDGET, O_TIMEOUT, O_SIGNAL, O_KILL_AFTER,
	O_FIXED, O_LINEAR, O_EXP, O_FIB, O_DELAYS, O_DECORRELATED,
	O_IMMEDIATE, O_ALGORITHM, O_MAX_DELAY, O_MIN_DELAY, O_FACTOR,
	O_DELAY, O_DELAY_ON_SUCCESS, O_INITIAL_DELAY, O_EXPONENT_BASE,
	O_INITIAL_DELAY1, O_INITIAL_DELAY2, O_INC_FAILURE, O_INC_SUCCESS,
	O_MUL_FAILURE, O_MUL_SUCCESS, O_JITTER_FACTOR, O_MAX_ACTUAL_DURATION,
	O_CONSIDER_ACTUAL_DELAY,
	O_JITTER, O_SEED,
	O_SUCCESS_ON, O_RETRY_ON, O_STOP_ON, O_UNTIL, O_WHILE,
	O_UNTIL_OUTPUT, O_FAIL_IF_OUTPUT, O_RETRY_IF_OUTPUT, O_STOP_IF_OUTPUT,
	O_DELAY_FROM_OUTPUT, O_FOREVER, O_RESET_AFTER, O_LOG_FORMAT,
	O_LOG_FILE, O_SYSLOG, O_ON_RETRY, O_ON_GIVEUP,
	O_MATCH, O_FIXED_STRINGS, O_IGNORE_CASE, O_STDIN, O_HOLD_STDOUT,
	O_QUIET, O_VERBOSE, O_LABEL, O_DRY_RUN,
	O_SHARE, O_SHARE_BUDGET, O_SHARE_WINDOW, O_SHARE_BREAKER, O_SHARE_OPEN,
	O_SHARE_STORE, O_SHARE_STORE_FILE, O_SHARE_TIMEOUT, O_SHARE_REQUIRED,
	O_COUNT, O_FORMAT, O_UNIT, O_CHART, O_ASCII, O_SAMPLES,
	O_CLIENTS, O_RUNS, O_FAILURE_RATE,
	O_EXIT_ON_MATCH,
	O_HELP, O_VERSION,
};

enum group {
	G_ATTEMPTS, G_STRATEGY, G_ALGORITHM, G_JITTER, G_VERDICT, G_STREAMS,
	G_REPORT, G_SHARE,
	G_SIMULATE, G_SHOW, G_OTHER,
};

static const char *const group_titles[] = {
	"Attempts and time",
	"Back-off strategies (one of them; default --exp 1s)",
	"Algorithm::Backoff strategies (-a), values in seconds",
	"Jitter",
	"Deciding what an attempt means (RE: a Perl-compatible regex, PCRE2)",
	"Streams",
	"Reporting",
	"Shared state: runs that name the same NAME back off as one",
	"Simulation",
	"Output",
	"Other",
};

#define RETRY	(1u << MODE_RETRY)
#define SHOW	(1u << MODE_SHOW)
#define BOTH	(RETRY | SHOW)
#define SIM	(1u << MODE_SIMULATE)
#define ALL	(BOTH | SIM)
#define SHR	(1u << MODE_SHARE)

/* Which -a algorithms take an option, and which need it. */
#define A(x)	(1u << ((x) - A_CONSTANT))
#define CONCISE	(1u << 8)	/* the concise strategies take it too */
#define A_ALL	(A(A_CONSTANT) | A(A_EXPONENTIAL) | A(A_FIBONACCI) | \
		 A(A_LILD) | A(A_LIMD) | A(A_MILD) | A(A_MIMD))

/* How an option's value is taken, and where it goes. */
enum kind {
	K_FLAG,		/* bool: given */
	K_SET,		/* int: lo */
	K_DURATION,	/* int64_t ns; lo 1: more than 0 */
	K_SPAN,		/* struct span */
	K_SECONDS,	/* double seconds; lo -1: negative too */
	K_COUNT,	/* unsigned long, whole, from lo to hi */
	K_REAL,		/* double, from lo to hi */
	K_CHOICE,	/* int: the value of one of data's names */
	K_CODES,	/* struct codes */
	K_SIGNAL,	/* int: a signal's number */
	K_TEXT,		/* char *: data complains if it is empty */
	K_STRATEGY,	/* backoff.strategy lo, and DUR into backoff.base */
	K_OTHER,	/* special() */
};

/* A value among names, as in --format json. */
struct choice {
	const char	*what;		/* "format" */
	size_t		 n;
	struct {
		const char	*name;
		int		 value;
	} names[4];
};

static const struct choice streams = { "stream", 3,
	{ { "stdout", MATCH_STDOUT }, { "stderr", MATCH_STDERR },
	  { "both", MATCH_BOTH } } };
static const struct choice stdin_modes = { "mode", 3,
	{ { "inherit", STDIN_INHERIT }, { "replay", STDIN_REPLAY },
	  { "null", STDIN_NULL } } };
static const struct choice log_formats = { "format", 2,
	{ { "text", LOG_TEXT }, { "json", LOG_JSON } } };
static const struct choice formats = { "format", 4,
	{ { "plain", FORMAT_PLAIN }, { "table", FORMAT_TABLE },
	  { "csv", FORMAT_CSV }, { "json", FORMAT_JSON } } };
static const struct choice units = { "unit", 2,
	{ { "s", UNIT_S }, { "ms", UNIT_MS } } };

#define OFF(f)		offsetof(struct config, f)
#define FLAG(f)		K_FLAG, OFF(f), 0, 0, NULL
#define SET(f, v)	K_SET, OFF(f), v, 0, NULL
#define DURATION(f)	K_DURATION, OFF(f), 0, 0, NULL
#define POSITIVE(f)	K_DURATION, OFF(f), 1, 0, NULL
#define SPAN(f)		K_SPAN, OFF(f), 0, 0, NULL
#define SECONDS(f)	K_SECONDS, OFF(f), 0, 0, NULL
#define OFFSET(f)	K_SECONDS, OFF(f), -1, 0, NULL
#define COUNT(f, l, h)	K_COUNT, OFF(f), l, h, NULL
#define REAL(f, l, h)	K_REAL, OFF(f), l, h, NULL
#define CHOICE(f, c)	K_CHOICE, OFF(f), 0, 0, &c
#define CODES(f)	K_CODES, OFF(f), 0, 0, NULL
#define SIGNAL(f)	K_SIGNAL, OFF(f), 0, 0, NULL
#define TEXT(f, why)	K_TEXT, OFF(f), 0, 0, why
#define STRATEGY(s)	K_STRATEGY, OFF(backoff.base), s, 0, NULL
#define OTHER		K_OTHER, 0, 0, 0, NULL

static const struct opt {
	const char	*name;
	int		 key;		/* short option, or 0 */
	enum id		 id;
	const char	*metavar;	/* NULL: takes no value */
	enum group	 group;
	unsigned	 modes;
	unsigned	 takes, needs;	/* -a algorithms (A_ options) */
	enum kind	 kind;		/* how its value is taken */
	size_t		 off;		/* where it goes in struct config */
	double		 lo, hi;	/* bounds, or the value to set */
	const void	*data;		/* a choice's names, a text's complaint */
	const char	*help;		/* NULL: an alias, not listed */
} opts[] = {
	{ "max", 'n', O_MAX, "N", G_ATTEMPTS, ALL, 0, 0,
	  COUNT(backoff.max_attempts, 0, 1000000000),
	  "at most N attempts (default 5; 0: no limit;\n"
	  "without it, --budget or --max-actual-duration\n"
	  "alone limit by time)" },
	{ "max-attempts", 0, O_MAX, "N", G_ATTEMPTS, ALL, 0, 0,
	  COUNT(backoff.max_attempts, 0, 1000000000), NULL },
	{ "times", 't', O_TIMES, "N", G_ATTEMPTS, ALL, 0, 0,
	  OTHER,
	  "the same, as in Debian's retry (-1 or over\n"
	  "1000000000: no limit; also --tries)" },
	{ "tries", 0, O_TIMES, "N", G_ATTEMPTS, ALL, 0, 0,
	  OTHER, NULL },
	{ "budget", 'b', O_BUDGET, "DUR", G_ATTEMPTS, BOTH, 0, 0,
	  DURATION(limits.budget),
	  "start no attempt that would begin after DUR" },
	{ "timeout", 'T', O_TIMEOUT, "DUR", G_ATTEMPTS, RETRY, 0, 0,
	  POSITIVE(limits.timeout),
	  "stop an attempt after DUR (status 124)" },
	{ "signal", 0, O_SIGNAL, "SIG", G_ATTEMPTS, RETRY, 0, 0,
	  SIGNAL(signal),
	  "signal sent on timeout (default TERM)" },
	{ "kill-after", 'k', O_KILL_AFTER, "DUR", G_ATTEMPTS, RETRY, 0, 0,
	  DURATION(kill_after),
	  "then KILL after DUR more (default 5s)" },
	{ "forever", 0, O_FOREVER, NULL, G_ATTEMPTS, RETRY, 0, 0,
	  FLAG(limits.forever),
	  "run again after a success too; --max counts\n"
	  "failures in a row (default 0: no limit)" },
	{ "reset-after", 0, O_RESET_AFTER, "DUR", G_ATTEMPTS, RETRY, 0, 0,
	  DURATION(limits.reset_after),
	  "an attempt that ran DUR starts the delays over\n"
	  "(with --forever, the count too)" },
	{ "max-actual-duration", 0, O_MAX_ACTUAL_DURATION, "DUR", G_ATTEMPTS,
	  ALL, 0, 0,
	  SECONDS(backoff.max_actual_duration), "give up on a failure DUR or more after the start" },

	{ "exp", 'x', O_EXP, "DUR", G_STRATEGY, ALL, 0, 0,
	  STRATEGY(S_EXP),
	  "DUR x F^(n-1), F = --factor" },
	{ "factor", 0, O_FACTOR, "F", G_STRATEGY, ALL, 0, 0,
	  REAL(backoff.factor, 1, 1e6),
	  "growth factor of --exp (default 2, at least 1)" },
	{ "fixed", 0, O_FIXED, "DUR", G_STRATEGY, ALL, 0, 0,
	  STRATEGY(S_FIXED),
	  "DUR every time (also --constant)" },
	{ "constant", 0, O_FIXED, "DUR", G_STRATEGY, ALL, 0, 0,
	  STRATEGY(S_FIXED), NULL },
	{ "linear", 0, O_LINEAR, "DUR", G_STRATEGY, ALL, 0, 0,
	  STRATEGY(S_LINEAR), "DUR x n" },
	{ "fib", 0, O_FIB, "DUR", G_STRATEGY, ALL, 0, 0,
	  STRATEGY(S_FIB),
	  "DUR x fib(n): 1, 1, 2, 3, 5, 8, ..." },
	{ "delays", 0, O_DELAYS, "LIST", G_STRATEGY, ALL, 0, 0,
	  OTHER,
	  "the n-th of a comma list; the last repeats" },
	{ "delay", 'd', O_DELAY, "LIST", G_STRATEGY, ALL,
	  A(A_CONSTANT) | CONCISE, A(A_CONSTANT),
	  OTHER,
	  "the same, as in Debian's retry; with\n"
	  "-a Constant: its delay after a failure (S)" },
	{ "decorrelated", 0, O_DECORRELATED, "DUR", G_STRATEGY, ALL, 0, 0,
	  STRATEGY(S_DECORRELATED),
	  "random in [DUR, 3 x previous], the first in\n"
	  "[DUR, 3 x DUR] (AWS's decorrelated jitter)" },
	{ "immediate", 0, O_IMMEDIATE, NULL, G_STRATEGY, ALL, 0, 0,
	  STRATEGY(S_IMMEDIATE),
	  "no delay at all" },
	{ "max-delay", 'M', O_MAX_DELAY, "DUR", G_STRATEGY, ALL,
	  A_ALL | CONCISE, 0,
	  SPAN(backoff.max_delay),
	  "never wait longer than DUR (without a limit on\n"
	  "attempts, growing strategies: 5m)" },
	{ "min-delay", 0, O_MIN_DELAY, "DUR", G_STRATEGY, ALL,
	  A_ALL | CONCISE, 0,
	  SPAN(backoff.min_delay),
	  "never wait less than DUR (wins over --max-delay)" },

	{ "algorithm", 'a', O_ALGORITHM, "NAME", G_ALGORITHM, ALL, 0, 0,
	  OTHER,
	  "Constant, Exponential, Fibonacci, LILD, LIMD,\n"
	  "MILD or MIMD" },
	{ "delay-on-success", 0, O_DELAY_ON_SUCCESS, "S", G_ALGORITHM, ALL,
	  A(A_CONSTANT) | A(A_EXPONENTIAL) | A(A_FIBONACCI) | CONCISE, 0,
	  SECONDS(backoff.delay_on_success),
	  "delay after a success (default 0)" },
	{ "initial-delay", 0, O_INITIAL_DELAY, "S", G_ALGORITHM, ALL,
	  A(A_EXPONENTIAL) | A(A_LILD) | A(A_LIMD) | A(A_MILD) | A(A_MIMD),
	  A(A_EXPONENTIAL) | A(A_LILD) | A(A_LIMD) | A(A_MILD) | A(A_MIMD),
	  SECONDS(backoff.initial_delay),
	  "first delay" },
	{ "exponent-base", 0, O_EXPONENT_BASE, "F", G_ALGORITHM, ALL,
	  A(A_EXPONENTIAL), 0,
	  REAL(backoff.exponent_base, 0, 1e6), "Exponential: base (default 2)" },
	{ "initial-delay1", 0, O_INITIAL_DELAY1, "S", G_ALGORITHM, ALL,
	  A(A_FIBONACCI), A(A_FIBONACCI),
	  SECONDS(backoff.initial_delay1), "Fibonacci: first delay" },
	{ "initial-delay2", 0, O_INITIAL_DELAY2, "S", G_ALGORITHM, ALL,
	  A(A_FIBONACCI), A(A_FIBONACCI),
	  SECONDS(backoff.initial_delay2), "Fibonacci: second delay" },
	{ "delay-increment-on-failure", 0, O_INC_FAILURE, "S", G_ALGORITHM,
	  ALL, A(A_LILD) | A(A_LIMD), A(A_LILD) | A(A_LIMD),
	  OFFSET(backoff.inc_failure),
	  "LI*: add S on a failure" },
	{ "delay-increment-on-success", 0, O_INC_SUCCESS, "S", G_ALGORITHM,
	  ALL, A(A_LILD) | A(A_MILD), A(A_LILD) | A(A_MILD),
	  OFFSET(backoff.inc_success),
	  "*LD: add S on a success (may be negative)" },
	{ "delay-multiple-on-failure", 0, O_MUL_FAILURE, "F", G_ALGORITHM,
	  ALL, A(A_MILD) | A(A_MIMD), A(A_MILD) | A(A_MIMD),
	  REAL(backoff.mul_failure, 0, 1e6),
	  "MI*: multiply by F on a failure" },
	{ "delay-multiple-on-success", 0, O_MUL_SUCCESS, "F", G_ALGORITHM,
	  ALL, A(A_LIMD) | A(A_MIMD), A(A_LIMD) | A(A_MIMD),
	  REAL(backoff.mul_success, 0, 1e6),
	  "*MD: multiply by F on a success" },
	{ "jitter-factor", 0, O_JITTER_FACTOR, "F", G_ALGORITHM, ALL, A_ALL,
	  0,
	  REAL(backoff.jitter_factor, 0, 0.5), "random in [d(1-F), d(1+F)], F from 0 to 0.5" },
	{ "consider-actual-delay", 0, O_CONSIDER_ACTUAL_DELAY, NULL,
	  G_ALGORITHM, ALL, A_ALL, 0,
	  FLAG(backoff.consider_actual_delay),
	  "count the time already spent against the delay" },

	{ "jitter", 'j', O_JITTER, "MODE", G_JITTER, ALL, 0, 0,
	  OTHER,
	  "none, full, equal, scattered[:R], down[:R],\n"
	  "add:DUR, or DUR for add:DUR (Debian's retry)" },
	{ "seed", 0, O_SEED, "N", G_JITTER, ALL, 0, 0,
	  OTHER,
	  "make every random choice reproducible" },

	{ "success-on", 0, O_SUCCESS_ON, "CODES", G_VERDICT, RETRY, 0, 0,
	  OTHER,
	  "statuses that count as success (default 0)" },
	{ "retry-on", 0, O_RETRY_ON, "CODES", G_VERDICT, RETRY, 0, 0,
	  CODES(verdict.retry_on),
	  "retry only these failures; stop on others" },
	{ "stop-on", 0, O_STOP_ON, "CODES", G_VERDICT, RETRY, 0, 0,
	  CODES(verdict.stop_on),
	  "stop at once on these statuses" },
	{ "until", 'u', O_UNTIL, "CRIT", G_VERDICT, RETRY, 0, 0,
	  OTHER,
	  "retry until the exit status meets CRIT: success,\n"
	  "true, fail, false, N or N-M, comma-separated;\n"
	  "end with the last status; a signal ends the run\n"
	  "(Debian's retry)" },
	{ "while", 'w', O_WHILE, "CRIT", G_VERDICT, RETRY, 0, 0,
	  OTHER,
	  "retry while the exit status meets CRIT; the same" },

	{ "until-output", 0, O_UNTIL_OUTPUT, "RE", G_VERDICT, RETRY, 0, 0,
	  TEXT(patterns[RULE_UNTIL], NULL),
	  "a failure unless a line of output matches RE" },
	{ "exit-on-match", 0, O_EXIT_ON_MATCH, NULL, G_VERDICT, RETRY, 0, 0,
	  FLAG(verdict.exit_on_match),
	  "at the first line that matches --until-output,\n"
	  "stop the command's group as --timeout does: a\n"
	  "success (exit 0)" },
	{ "fail-if-output", 0, O_FAIL_IF_OUTPUT, "RE", G_VERDICT, RETRY, 0, 0,
	  TEXT(patterns[RULE_FAIL], NULL),
	  "a failure if a line of output matches RE" },
	{ "retry-if-output", 0, O_RETRY_IF_OUTPUT, "RE", G_VERDICT, RETRY,
	  0, 0,
	  TEXT(patterns[RULE_RETRY], NULL), "retry only failures whose output matches RE" },
	{ "stop-if-output", 0, O_STOP_IF_OUTPUT, "RE", G_VERDICT, RETRY, 0, 0,
	  TEXT(patterns[RULE_STOP], NULL),
	  "stop at once if a line of output matches RE" },
	{ "delay-from-output", 0, O_DELAY_FROM_OUTPUT, "RE", G_VERDICT, RETRY,
	  0, 0,
	  TEXT(patterns[RULE_CAPTURE], NULL), "wait what RE's first group gives: seconds,\n"
	  "a duration or an HTTP-date (Retry-After),\n"
	  "within --min-delay and --max-delay (or 1h)" },
	{ "match", 0, O_MATCH, "STREAM", G_VERDICT, RETRY, 0, 0,
	  CHOICE(match, streams),
	  "stdout, stderr or both (default both)" },
	{ "fixed-strings", 'F', O_FIXED_STRINGS, NULL, G_VERDICT, RETRY, 0, 0,
	  FLAG(fixed_strings),
	  "take each RE as a plain string" },
	{ "ignore-case", 'i', O_IGNORE_CASE, NULL, G_VERDICT, RETRY, 0, 0,
	  FLAG(ignore_case),
	  "match without regard to case" },

	{ "stdin", 0, O_STDIN, "MODE", G_STREAMS, RETRY, 0, 0,
	  CHOICE(stdin_mode, stdin_modes),
	  "inherit (default), replay: the same input to\n"
	  "every attempt (a file is read again), or null" },
	{ "hold-stdout", 0, O_HOLD_STDOUT, NULL, G_STREAMS, RETRY, 0, 0,
	  FLAG(hold_stdout),
	  "only a successful attempt's stdout reaches\n"
	  "stdout; a failed one's goes to stderr" },

	{ "log-format", 0, O_LOG_FORMAT, "FMT", G_REPORT, RETRY | SHR, 0, 0,
	  CHOICE(log_format, log_formats),
	  "text (default) or json: JSON Lines" },
	{ "log-file", 0, O_LOG_FILE, "FILE", G_REPORT, RETRY, 0, 0,
	  TEXT(log_file, "empty file name"),
	  "append every event to FILE too, timed (0600)" },
	{ "syslog", 0, O_SYSLOG, NULL, G_REPORT, RETRY, 0, 0,
	  FLAG(syslog),
	  "send every event to syslog too" },
	{ "on-retry", 0, O_ON_RETRY, "CMD", G_REPORT, RETRY, 0, 0,
	  TEXT(on_retry, "empty command"),
	  "run sh -c CMD before each back-off sleep" },
	{ "on-giveup", 0, O_ON_GIVEUP, "CMD", G_REPORT, RETRY, 0, 0,
	  TEXT(on_giveup, "empty command"),
	  "run sh -c CMD when the run ends in failure" },
	{ "quiet", 'q', O_QUIET, NULL, G_REPORT, RETRY, 0, 0,
	  SET(verbosity, QUIET),
	  "report only retry's own errors" },
	{ "verbose", 0, O_VERBOSE, NULL, G_REPORT, RETRY, 0, 0,
	  SET(verbosity, VERBOSE),
	  "also report each start and each success" },
	{ "label", 'm', O_LABEL, "LABEL", G_REPORT, RETRY, 0, 0,
	  OTHER,
	  "prefix reports with retry[LABEL]: (also\n"
	  "--message)" },
	{ "message", 0, O_LABEL, "LABEL", G_REPORT, RETRY, 0, 0,
	  OTHER, NULL },
	{ "dry-run", 0, O_DRY_RUN, NULL, G_REPORT, RETRY, 0, 0,
	  FLAG(dry_run),
	  "print the schedule of an all-failing run" },

	{ "share", 0, O_SHARE, "NAME", G_SHARE, RETRY, 0, 0,
	  OTHER,
	  "join the shared state NAME (letters, digits,\n"
	  "'.', '_', '-'): a retry budget, a breaker, and\n"
	  "a delay one run learns from its output" },
	{ "share-budget", 0, O_SHARE_BUDGET, "N[:R]", G_SHARE, RETRY | SIM,
	  0, 0,
	  OTHER,
	  "N tokens (default 10); a retry runs only if\n"
	  "it can take one, a success gives R back\n"
	  "(default 0.2)" },
	{ "share-window", 0, O_SHARE_WINDOW, "DUR", G_SHARE, RETRY | SIM | SHR,
	  0, 0,
	  OTHER,
	  "N tokens come back every DUR, so a spent\n"
	  "budget is whole after DUR (default 60s,\n"
	  "1s to 1d); a state unused that long is dropped" },
	{ "share-breaker", 0, O_SHARE_BREAKER, "N:DUR", G_SHARE, RETRY | SIM,
	  0, 0,
	  OTHER,
	  "N failures in a row open it for DUR; then one\n"
	  "run probes, and its success closes it" },
	{ "share-open", 0, O_SHARE_OPEN, "MODE", G_SHARE, RETRY, 0, 0,
	  OTHER,
	  "while it is open: wait (default) or giveup\n"
	  "(both end with 75 past --budget)" },
	{ "share-store", 0, O_SHARE_STORE, "STORE", G_SHARE, RETRY | SHR, 0, 0,
	  OTHER,
	  "file:DIR, redis://HOST[:PORT][/DB] or\n"
	  "unix:///PATH (default $RETRY_SHARE_STORE, else\n"
	  "$XDG_RUNTIME_DIR/retry or /tmp/retry-UID)" },
	{ "share-store-file", 0, O_SHARE_STORE_FILE, "FILE", G_SHARE,
	  RETRY | SHR, 0, 0,
	  OTHER,
	  "the store from FILE's first line (a URL with\n"
	  "a password goes here or in $RETRY_SHARE_STORE)" },
	{ "share-timeout", 0, O_SHARE_TIMEOUT, "DUR", G_SHARE, RETRY | SHR,
	  0, 0,
	  OTHER,
	  "give up on the store (a lock, a connection,\n"
	  "an answer) after DUR, or before an attempt\n"
	  "half of what is left of --budget if less\n"
	  "(default 200ms)" },
	{ "share-required", 0, O_SHARE_REQUIRED, NULL, G_SHARE, RETRY, 0, 0,
	  FLAG(share_required),
	  "end with 75 when the store does not answer\n"
	  "(default: go on without it)" },

	{ "count", 0, O_COUNT, "N", G_SHOW, BOTH, 0, 0,
	  COUNT(count, 1, 10000000),
	  "at most N steps of an all-failing run (default 10)" },
	{ "format", 0, O_FORMAT, "FMT", G_SHOW, SHOW | SIM, 0, 0,
	  CHOICE(format, formats),
	  "plain, table, csv or json (default plain)" },
	{ "unit", 0, O_UNIT, "UNIT", G_SHOW, SHOW, 0, 0,
	  CHOICE(unit, units),
	  "s or ms (default s)" },
	{ "chart", 0, O_CHART, NULL, G_SHOW, SHOW | SIM, 0, 0,
	  FLAG(chart),
	  "draw a bar per delay, labelled with it to 6\n"
	  "digits, as wide as the terminal (COLUMNS, else\n"
	  "the terminal's width, else 80)" },
	{ "ascii", 0, O_ASCII, NULL, G_SHOW, SHOW | SIM, 0, 0,
	  FLAG(ascii),
	  "draw the chart with ASCII, not Unicode blocks" },
	{ "samples", 0, O_SAMPLES, "N", G_SHOW, SHOW, 0, 0,
	  COUNT(samples, 1, 100000),
	  "run N times (with jitter): per step, the runs\n"
	  "that go on, then min, median, p90, max;\n"
	  "with --chart, their spread" },

	{ "clients", 0, O_CLIENTS, "LIST", G_SIMULATE, SIM, 0, 0,
	  OTHER,
	  "numbers of clients, as in 10,50,100 or\n"
	  "10-190:20 (default 100)" },
	{ "failure-rate", 0, O_FAILURE_RATE, "LIST", G_SIMULATE, SIM, 0, 0,
	  OTHER,
	  "the load model instead: calls fail with each\n"
	  "probability P of LIST (0.5,0.9 or 0.1-0.9:0.2);\n"
	  "no retries, 3, 3 under a shared --share-budget,\n"
	  "and 3 behind a shared --share-breaker (20:1s)" },
	{ "runs", 0, O_RUNS, "N", G_SIMULATE, SIM, 0, 0,
	  COUNT(runs, 1, 100000),
	  "average over N runs (default 100)" },

	{ "help", 'h', O_HELP, NULL, G_OTHER, ALL | SHR, 0, 0,
	  FLAG(help),
	  "show this help and exit" },
	{ "version", 'v', O_VERSION, NULL, G_OTHER, ALL | SHR, 0, 0,
	  FLAG(version),
	  "show the version and exit (also -V)" },
};

#define NOPTS	(sizeof(opts) / sizeof(opts[0]))

/* The default --max-delay of --exp, --linear, --fib and --decorrelated in
 * a run without a limit on attempts, as Kubernetes caps its restarts. */
#define UNLIMITED_CAP	(5 * 60 * NS_PER_SEC)

struct parse {
	struct config	*cfg;
	char		*err;
	size_t		 errsz;
	const struct opt *strategy;	/* the strategy option given */
	char		*delay;		/* --delay's value, taken in validate */
	unsigned	 given_a;	/* A_ options given, as a set of ids */
	bool		 given[O_VERSION - O_MAX + 1];
};

static int	fail(struct parse *, const struct opt *, const char *, ...)
		    __attribute__((format(printf, 3, 4)));

static int
fail(struct parse *p, const struct opt *o, const char *fmt, ...)
{
	va_list ap;
	int n = 0;

	if (o != NULL)
		n = snprintf(p->err, p->errsz, "--%s: ", o->name);
	if (n < 0 || (size_t)n >= p->errsz)
		return -1;
	va_start(ap, fmt);
	vsnprintf(p->err + n, p->errsz - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

static int
duration(struct parse *p, const struct opt *o, const char *arg, int64_t *out)
{
	const char *why;

	if ((why = duration_parse(arg, out)) != NULL)
		return fail(p, o, "'%s': %s", arg, why);
	return 0;
}

static int
real(struct parse *p, const struct opt *o, const char *arg, double lo,
    double hi, double *out)
{
	double v;

	if (!number_parse(arg, strlen(arg), &v))
		return fail(p, o, "'%s' is not a number", arg);
	if (v < lo || v > hi)
		return fail(p, o, "'%s' is out of range (%g to %g)", arg, lo,
		    hi);
	*out = v;
	return 0;
}

static int
count(struct parse *p, const struct opt *o, const char *arg, long long lo,
    long long hi, long long *out)
{
	const char *why = NULL;
	long long v = 0;

	/* strtonum would skip leading spaces and take a '+'. */
	if (!isdigit((unsigned char)*arg) && *arg != '-')
		why = "invalid";
	else
		v = strtonum(arg, lo, hi, &why);
	if (why != NULL)
		return fail(p, o, "'%s' is %s (give a whole number from %lld "
		    "to %lld)", arg, strcmp(why, "invalid") == 0 ?
		    "not a whole number" : why, lo, hi);
	*out = v;
	return 0;
}

static int
delay_list(struct parse *p, const struct opt *o, const char *arg)
{
	struct config *c = p->cfg;
	const char *s, *next = arg;
	char item[64];
	size_t n = 1, len, i = 0;

	for (const char *t = arg; *t != '\0'; t++)
		n += *t == ',';
	free(c->list);
	if ((c->list = calloc(n, sizeof(*c->list))) == NULL)
		return fail(p, o, "out of memory");
	/* "1, 2, 4" as Debian's retry reads it. */
	while (next != NULL) {
		s = list_item(next, &len, &next);
		if (len == 0)
			return fail(p, o, "item %zu of '%s' is empty", i + 1,
			    arg);
		if (len >= sizeof(item))
			return fail(p, o, "item %zu of '%s' is too long",
			    i + 1, arg);
		memcpy(item, s, len);
		item[len] = '\0';
		if (duration(p, o, item, &c->list[i]) != 0)
			return -1;
		i++;
	}
	c->backoff.list = c->list;
	c->backoff.nlist = n;
	return 0;
}

static int
strategy(struct parse *p, const struct opt *o, enum strategy s)
{
	if (p->strategy != NULL && p->strategy->id != o->id)
		return fail(p, o, "conflicts with --%s (give one strategy)",
		    p->strategy->name);
	p->strategy = o;
	p->cfg->backoff.strategy = s;
	return 0;
}

static int
choose(struct parse *p, const struct opt *o, const char *arg, int *out)
{
	const struct choice *ch = o->data;
	char use[128] = "";

	for (size_t i = 0; i < ch->n; i++)
		if (strcmp(arg, ch->names[i].name) == 0) {
			*out = ch->names[i].value;
			return 0;
		}
	for (size_t i = 0; i < ch->n; i++)
		snprintf(use + strlen(use), sizeof(use) - strlen(use), "%s%s",
		    i == 0 ? "" : i + 1 < ch->n ? ", " : " or ",
		    ch->names[i].name);
	return fail(p, o, "unknown %s '%s' (use %s)", ch->what, arg, use);
}

/* The options that no kind describes. */
static int
special(struct parse *p, const struct opt *o, char *arg)
{
	struct config *c = p->cfg;
	struct backoff *b = &c->backoff;
	struct store_url url;
	const char *why;
	char *end;
	long long v = 0;

	switch (o->id) {
	case O_DELAYS:
		return strategy(p, o, S_LIST) || delay_list(p, o, arg);
	case O_DELAY:
		/* Its meaning waits for -a, which may come after it. */
		p->delay = arg;
		return 0;
	case O_TIMES:
		/* As Debian's retry reads it (strtol), but whole: -1, or more
		 * than anyone waits for, is no limit; 0 would run nothing. */
		errno = 0;
		v = strtoll(arg, &end, 10);
		if (end == arg || *end != '\0' || v == 0 || v < -1)
			return fail(p, o, "'%s': give a number of attempts from "
			    "1, or -1 for no limit", arg);
		b->max_attempts = v == -1 || v > 1000000000 ? 0 :
		    (unsigned long)v;
		p->given[O_MAX - O_MAX] = true;
		return 0;
	case O_SUCCESS_ON:
		if ((why = codes_parse(arg, &c->verdict.success_on)) != NULL)
			return fail(p, o, "'%s': %s", arg, why);
		c->verdict.criteria = false;
		return 0;
	case O_UNTIL:
	case O_WHILE:
		if ((why = criteria_parse(arg, &c->verdict.success_on)) !=
		    NULL)
			return fail(p, o, "'%s': %s", arg, why);
		/* --while: what ends the run is every other status. */
		if (o->id == O_WHILE)
			codes_invert(&c->verdict.success_on);
		c->verdict.criteria = true;
		return 0;
	case O_ALGORITHM:
		if (!algorithm_parse(arg, &b->strategy))
			return fail(p, o, "unknown algorithm '%s' (use "
			    "Constant, Exponential, Fibonacci, LILD, LIMD, "
			    "MILD or MIMD)", arg);
		return strategy(p, o, b->strategy);
	case O_JITTER:
		if ((why = jitter_parse(arg, &b->jitter)) != NULL)
			return fail(p, o, "'%s': %s", arg, why);
		return 0;
	case O_SEED:
		if (count(p, o, arg, 0, INT64_MAX, &v) != 0)
			return -1;
		c->seed = (uint64_t)v;
		c->seeded = true;
		return 0;
	case O_LABEL:
		if (*arg == '\0' || strpbrk(arg, "\n\r") != NULL)
			return fail(p, o, "must be one non-empty line");
		c->label = arg;
		return 0;
	case O_SHARE:
		if ((why = share_name_check(arg)) != NULL)
			return fail(p, o, "'%s': %s", arg, why);
		c->share = arg;
		return 0;
	case O_SHARE_BUDGET:
		if ((why = share_budget_parse(arg, &c->share_rules.max,
		    &c->share_rules.ratio)) != NULL)
			return fail(p, o, "'%s': %s", arg, why);
		return 0;
	case O_SHARE_WINDOW:
		if ((why = duration_parse(arg, &c->share_rules.window)) != NULL)
			return fail(p, o, "'%s': %s", arg, why);
		if (c->share_rules.window < SHARE_WINDOW_MIN ||
		    c->share_rules.window > SHARE_WINDOW_MAX)
			return fail(p, o, "'%s': give 1s to 1d", arg);
		return 0;
	case O_SHARE_BREAKER:
		if ((why = share_breaker_parse(arg, &c->share_rules.trip,
		    &c->share_rules.cooldown)) != NULL)
			return fail(p, o, "'%s': %s", arg, why);
		return 0;
	case O_SHARE_STORE_FILE:
		if (*arg == '\0')
			return fail(p, o, "empty file name");
		if (p->given[O_SHARE_STORE - O_MAX])
			return fail(p, o, "give --share-store or this, not "
			    "both");
		c->share_store_file = arg;
		return 0;
	case O_SHARE_STORE:
		if (p->given[O_SHARE_STORE_FILE - O_MAX])
			return fail(p, o, "give --share-store-file or this, "
			    "not both");
		if ((why = storeurl_parse(arg, false, &url)) != NULL)
			return fail(p, o, "'%s': %s", url.has_password ||
			    strchr(arg, '@') != NULL ? "(not shown)" : arg,
			    why);
		c->share_store = arg;
		return 0;
	case O_SHARE_TIMEOUT:
		if ((why = duration_parse(arg, &c->share_timeout)) != NULL)
			return fail(p, o, "'%s': %s", arg, why);
		if (c->share_timeout < NS_PER_MS ||
		    c->share_timeout > 60 * NS_PER_SEC)
			return fail(p, o, "'%s': give 1ms to 60s", arg);
		return 0;
	case O_SHARE_OPEN:
		if (strcmp(arg, "wait") != 0 && strcmp(arg, "giveup") != 0)
			return fail(p, o, "unknown mode '%s' (use wait or "
			    "giveup)", arg);
		c->share_rules.give_up = strcmp(arg, "giveup") == 0;
		return 0;
	case O_FAILURE_RATE:
		if ((why = rates_parse(arg, NULL, 0, NULL)) != NULL)
			return fail(p, o, "'%s': %s", arg, why);
		c->failure_rates = arg;
		return 0;
	case O_CLIENTS:
		if ((why = clients_parse(arg, NULL, 0, NULL)) != NULL)
			return fail(p, o, "'%s': %s", arg, why);
		c->clients = arg;
		return 0;
	default:
		return 0;
	}
}

/*
 * getopt takes the word after an option for its value, whatever it is:
 * in "--exp -- true", '--'.  A value that is '--', or that looks like an
 * option where only a number or a duration can stand, says what was
 * missing.  Text (a pattern, a label, a command) may be anything.
 */
static int
missing(struct parse *p, const struct opt *o, const char *arg)
{
	const bool text = o->kind == K_TEXT || o->id == O_LABEL;
	const bool numeric = o->kind == K_DURATION || o->kind == K_SPAN ||
	    o->kind == K_SECONDS || o->kind == K_COUNT || o->kind == K_REAL ||
	    o->kind == K_STRATEGY || o->id == O_TIMES || o->id == O_DELAYS ||
	    o->id == O_DELAY || o->id == O_SEED;
	const char *m = o->metavar;

	if (arg == NULL || text || (strcmp(arg, "--") != 0 && !(numeric &&
	    arg[0] == '-' && (isalpha((unsigned char)arg[1]) ||
	    arg[1] == '-'))))
		return 0;
	if (strcmp(m, "DUR") == 0)
		return fail(p, o, "needs a duration (as in --%s 1s), not '%s'",
		    o->name, arg);
	if (strcmp(m, "N") == 0)
		return fail(p, o, "needs a number (as in --%s 3), not '%s'",
		    o->name, arg);
	if (strcmp(m, "S") == 0 || strcmp(m, "F") == 0)
		return fail(p, o, "needs a number, not '%s'", arg);
	return fail(p, o, "needs a value (%s), not '%s'", m, arg);
}

/* Takes an option's value as its row says. */
static int
apply(struct parse *p, const struct opt *o, char *arg)
{
	void *to = (char *)p->cfg + o->off;
	const char *why = NULL;
	long long v = 0;

	if (missing(p, o, arg) != 0)
		return -1;
	switch (o->kind) {
	case K_FLAG:
		*(bool *)to = true;
		return 0;
	case K_SET:
		*(int *)to = (int)o->lo;
		return 0;
	case K_DURATION:
		if (duration(p, o, arg, to) != 0)
			return -1;
		if (o->lo > 0 && *(int64_t *)to == 0)
			return fail(p, o, "'%s': must be longer than 0", arg);
		return 0;
	case K_SPAN:
		why = span_parse(arg, to);
		break;
	case K_SECONDS:
		why = seconds_parse(arg, o->lo < 0, to);
		break;
	case K_COUNT:
		if (count(p, o, arg, (long long)o->lo, (long long)o->hi, &v)
		    != 0)
			return -1;
		*(unsigned long *)to = (unsigned long)v;
		return 0;
	case K_REAL:
		return real(p, o, arg, o->lo, o->hi, to);
	case K_CHOICE:
		return choose(p, o, arg, to);
	case K_CODES:
		why = codes_parse(arg, to);
		break;
	case K_SIGNAL:
		why = signal_parse(arg, to);
		break;
	case K_TEXT:
		if (*arg == '\0' && o->data != NULL)
			return fail(p, o, "%s", (const char *)o->data);
		*(char **)to = arg;
		return 0;
	case K_STRATEGY:
		return strategy(p, o, (enum strategy)o->lo) ||
		    (arg != NULL && duration(p, o, arg, to) != 0);
	case K_OTHER:
		return special(p, o, arg);
	}
	if (why != NULL)
		return fail(p, o, "'%s': %s", arg, why);
	return 0;
}

static const struct opt *
find(int id_or_key, const char *name)
{
	for (size_t i = 0; i < NOPTS; i++)
		if ((name != NULL && strcmp(opts[i].name, name) == 0) ||
		    (name == NULL && opts[i].key == id_or_key &&
		    id_or_key != 0))
			return &opts[i];
	return NULL;
}

/* The edit distance of a[0..n) and b, for suggestions; small strings. */
static size_t
distance(const char *a, size_t n, const char *b)
{
	size_t row[64], prev, t, m = strlen(b);

	if (n >= sizeof(row) / sizeof(row[0]) || m >= 64)
		return SIZE_MAX;
	for (size_t j = 0; j <= m; j++)
		row[j] = j;
	for (size_t i = 1; i <= n; i++) {
		prev = row[0];
		row[0] = i;
		for (size_t j = 1; j <= m; j++) {
			t = row[j];
			row[j] = a[i - 1] == b[j - 1] ? prev : 1 + (prev <
			    row[j] ? (prev < row[j - 1] ? prev : row[j - 1]) :
			    (row[j] < row[j - 1] ? row[j] : row[j - 1]));
			prev = t;
		}
	}
	return row[m];
}

/* Names that other retry tools use, and ours for them. */
static const struct {
	const char	*name, *ours;
} synonyms[] = {
	{ "attempts", "max" }, { "retries", "max" }, { "sleep", "fixed" },
	{ "interval", "fixed" }, { "wait", "fixed" }, { "backoff", "exp" },
	{ "exponential", "exp" },
};

/* The option that name[0..n) most likely meant, or NULL: a synonym, an
 * option it abbreviates or that starts the same, or the nearest by edit
 * distance (at most 2). */
static const struct opt *
meant(const char *name, size_t n, enum mode mode)
{
	const struct opt *best = NULL;
	size_t d, best_d = 3;

	for (size_t i = 0; i < sizeof(synonyms) / sizeof(synonyms[0]); i++)
		if (strlen(synonyms[i].name) == n &&
		    strncmp(synonyms[i].name, name, n) == 0)
			return find(0, synonyms[i].ours);
	for (size_t i = 0; i < NOPTS; i++) {
		const struct opt *o = &opts[i];

		if (o->help == NULL || !(o->modes & (1u << mode)))
			continue;
		if (n > 0 && strncmp(o->name, name, n) == 0)
			return o;
		if ((d = distance(name, n, o->name)) < best_d) {
			best_d = d;
			best = o;
		}
	}
	return best;
}

/* getopt_long's complaints, in our words. */
static int
unknown(struct parse *p, int ch, const char *tok, enum mode mode)
{
	const int len = (int)strcspn(tok, "=");
	const struct opt *o;
	char all[160] = "";

	if (strncmp(tok, "--", 2) != 0)
		return fail(p, NULL, ch == ':' ? "-%c: needs a value" :
		    "unknown option '-%c'", optopt);
	if (ch == ':')
		return fail(p, NULL, "%.*s: needs a value", len, tok);
	if (tok[len] == '=') {
		for (size_t i = 0; i < NOPTS; i++)
			if (strncmp(opts[i].name, tok + 2, (size_t)len - 2)
			    == 0 && opts[i].name[len - 2] == '\0' &&
			    opts[i].metavar == NULL)
				return fail(p, &opts[i], "takes no value");
	}
	/* A prefix of several: getopt_long calls it ambiguous. */
	for (size_t i = 0, n = 0; i < NOPTS && n < 4; i++)
		if (opts[i].help != NULL && (opts[i].modes & (1u << mode)) &&
		    strncmp(opts[i].name, tok + 2, (size_t)len - 2) == 0)
			snprintf(all + strlen(all), sizeof(all) - strlen(all),
			    "%s--%s", n++ > 0 ? " or " : "", opts[i].name);
	if (strstr(all, " or ") != NULL)
		return fail(p, NULL, "unknown option '%.*s' (did you mean %s?)",
		    len, tok, all);
	if ((o = meant(tok + 2, (size_t)len - 2, mode)) != NULL)
		return fail(p, NULL, "unknown option '%.*s' (did you mean "
		    "--%s?)", len, tok, o->name);
	return fail(p, NULL, "unknown option '%.*s'", len, tok);
}

/*
 * getopt_long takes a unique prefix of a long option for the option; we
 * do not, so that a script's --time cannot mean --timeout today and
 * something else when an option is added.  tok is the word it was in.
 */
static int
abbreviated(struct parse *p, const struct opt *o, const char *tok)
{
	const size_t len = strcspn(tok, "=");

	if (strncmp(tok, "--", 2) != 0 || (len - 2 == strlen(o->name) &&
	    strncmp(tok + 2, o->name, len - 2) == 0))
		return 0;
	return fail(p, NULL, "unknown option '%.*s': options are not "
	    "abbreviated (did you mean --%s?)", (int)len, tok, o->name);
}

static const char *
mode_name(enum mode m)
{
	return m == MODE_SHOW ? "show-backoff-delays" :
	    m == MODE_SIMULATE ? "retry simulate" :
	    m == MODE_SHARE ? "retry share" : "retry";
}

/* retry share: status [NAME]... or reset NAME... */
static int
validate_share(struct parse *p)
{
	const struct config *c = p->cfg;
	const char *why;

	if (c->nargs == 0 || (strcmp(c->args[0], "status") != 0 &&
	    strcmp(c->args[0], "reset") != 0))
		return fail(p, NULL, "retry share: give status [NAME]... or "
		    "reset NAME...");
	if (strcmp(c->args[0], "reset") == 0 && c->nargs == 1)
		return fail(p, NULL, "retry share reset: give the NAME to "
		    "reset");
	for (int i = 1; i < c->nargs; i++)
		if ((why = share_name_check(c->args[i])) != NULL)
			return fail(p, NULL, "'%s': %s", c->args[i], why);
	return 0;
}

/* --share: the options that go with it, and the probe's lease: the
 * cooldown, or a timed-out attempt's whole time if that is longer. */
static int
validate_shared(struct parse *p)
{
	static const enum id with[] = { O_SHARE_BUDGET, O_SHARE_WINDOW,
	    O_SHARE_BREAKER,
	    O_SHARE_OPEN, O_SHARE_STORE, O_SHARE_STORE_FILE, O_SHARE_TIMEOUT,
	    O_SHARE_REQUIRED };
	struct config *c = p->cfg;
	struct share_rules *r = &c->share_rules;

	for (size_t i = 0; c->share == NULL && i < NOPTS; i++)
		for (size_t j = 0; j < sizeof(with) / sizeof(with[0]); j++)
			if (opts[i].id == with[j] && p->given[with[j] - O_MAX])
				return fail(p, &opts[i], "goes with --share");
	r->lease = r->cooldown;
	if (c->limits.timeout >= 0 &&
	    c->limits.timeout + c->kill_after > r->lease)
		r->lease = c->limits.timeout + c->kill_after;
	if (r->lease < SHARE_POLL)
		r->lease = SHARE_POLL;
	return 0;
}

/* show-backoff-delays: the output options together, and every STATUS. */
static int
validate_show(struct parse *p)
{
	const struct config *c = p->cfg;
	struct entry st = { false, 0 };
	const char *why;

	if (c->ascii && !c->chart)
		return fail(p, find(0, "ascii"), "goes with --chart");
	if (c->chart && c->format != FORMAT_PLAIN)
		return fail(p, find(0, "chart"), "draws its own output; leave "
		    "out --format");
	for (int i = 0; i < c->nargs; i++)
		if ((why = entry_parse(c->args[i], st.time, &st)) != NULL)
			return fail(p, NULL, "status '%s': %s", c->args[i],
			    why);
	return 0;
}

/* simulate: the blog's model wherever no option says otherwise. */
static int
validate_simulate(struct parse *p)
{
	struct config *c = p->cfg;
	struct backoff *b = &c->backoff;

	if (c->nargs > 0)
		return fail(p, NULL, "simulate takes no arguments: '%s'",
		    c->args[0]);
	c->custom = p->strategy != NULL || p->given[O_JITTER - O_MAX];
	/* --jitter alone: on the blog's exponential back-off. */
	if (p->strategy == NULL)
		b->base = sim_exp_base(b->factor);
	if (!p->given[O_MAX_DELAY - O_MAX])
		b->max_delay = span_of(SIM_CAP);
	if (!p->given[O_MAX - O_MAX])
		b->max_attempts = 0;
	if (c->runs == 0)
		c->runs = 100;
	if (c->clients == NULL)
		c->clients = "100";
	return validate_show(p);
}

/* retry: the output rules, compiled now that -F and -i are known. */
static int
validate_retry(struct parse *p)
{
	static const char *const names[RULE_COUNT] = {
		"until-output", "fail-if-output", "retry-if-output",
		"stop-if-output", "delay-from-output",
	};
	struct config *c = p->cfg;
	char why[256];

	for (int k = 0; k < RULE_COUNT; k++) {
		const char *re = c->patterns[k];

		if (re == NULL)
			continue;
		if (*re == '\0')
			return fail(p, find(0, names[k]), "empty pattern");
		if (rule_compile(&c->verdict.output, (enum rule_kind)k, re,
		    c->fixed_strings, c->ignore_case, why, sizeof(why)) != 0)
			return fail(p, find(0, names[k]), "'%s': %s", re, why);
	}
	if (c->verdict.exit_on_match && c->patterns[RULE_UNTIL] == NULL)
		return fail(p, find(0, "exit-on-match"), "goes with "
		    "--until-output, whose match it waits for");
	if (!rules_any(&c->verdict.output)) {
		const char *lone = p->given[O_MATCH - O_MAX] ? "match" :
		    p->given[O_FIXED_STRINGS - O_MAX] ? "fixed-strings" :
		    p->given[O_IGNORE_CASE - O_MAX] ? "ignore-case" : NULL;

		if (lone != NULL)
			return fail(p, find(0, lone), "goes with an output "
			    "rule such as --until-output");
	}
	if (p->given[O_COUNT - O_MAX] && !c->dry_run)
		return fail(p, find(0, "count"), "goes with --dry-run (a run "
		    "is limited by --max)");
	if (c->nargs == 0 && !c->dry_run)
		return fail(p, NULL, "no command given (as in: retry -- "
		    "curl -fsS URL)");
	return validate_shared(p);
}

/* --delay: Algorithm::Backoff's seconds with -a, else Debian's retry's
 * list of delays, the last repeated. */
static int
resolve_delay(struct parse *p, bool algo)
{
	const struct opt *o = find(0, "delay");
	const char *why;

	if (algo) {
		if ((why = seconds_parse(p->delay, false,
		    &p->cfg->backoff.delay)) != NULL)
			return fail(p, o, "'%s': %s (with -a, one number of "
			    "seconds)", p->delay, why);
		return 0;
	}
	return strategy(p, o, S_LIST) || delay_list(p, o, p->delay);
}

/* Checks that need every option: conflicts, requirements, ranges. */
static int
validate(struct parse *p)
{
	struct config *c = p->cfg;
	struct backoff *b = &c->backoff;
	const bool algo = strategy_is_algorithm(b->strategy);
	const unsigned bit = algo ? A(b->strategy) : 0;

	for (size_t i = 0; i < NOPTS; i++) {
		const struct opt *o = &opts[i];

		if (o->takes == 0 || o->help == NULL)
			continue;
		if (p->given[o->id - O_MAX] && !algo && !(o->takes & CONCISE))
			return fail(p, o, "goes with -a/--algorithm");
		if (p->given[o->id - O_MAX] && algo && !(o->takes & bit))
			return fail(p, o, "is not an option of -a %s",
			    algorithm_name(b->strategy));
		if (algo && (o->needs & bit) && !p->given[o->id - O_MAX])
			return fail(p, find(0, "algorithm"),
			    "%s needs --%s", algorithm_name(b->strategy),
			    o->name);
	}
	if (p->delay != NULL && resolve_delay(p, algo) != 0)
		return -1;
	/* No limit on attempts: --forever's default; a time limit alone
	 * (--budget, --max-actual-duration), as tenacity's stop_after_delay;
	 * and show-backoff-delays -a, Algorithm::Backoff's own default. */
	if (!p->given[O_MAX - O_MAX] && (c->limits.forever ||
	    p->given[O_BUDGET - O_MAX] ||
	    p->given[O_MAX_ACTUAL_DURATION - O_MAX] ||
	    (algo && c->mode == MODE_SHOW)))
		b->max_attempts = 0;
	/* A strategy that grows, in a run without a limit, waits at most
	 * UNLIMITED_CAP unless --max-delay says otherwise. */
	if (b->max_attempts == 0 && !p->given[O_MAX_DELAY - O_MAX] &&
	    (b->strategy == S_EXP || b->strategy == S_LINEAR ||
	    b->strategy == S_FIB || b->strategy == S_DECORRELATED))
		b->max_delay = span_of(UNLIMITED_CAP);
	if (!algo && (b->jitter_factor > 0 || b->consider_actual_delay))
		return fail(p, find(0, b->consider_actual_delay ?
		    "consider-actual-delay" : "jitter-factor"),
		    "goes with -a/--algorithm");
	if (p->given[O_FACTOR - O_MAX] && b->strategy != S_EXP)
		return fail(p, find(0, "factor"), "goes with --exp");
	if (c->mode == MODE_SIMULATE)
		return validate_simulate(p);
	if (c->mode == MODE_SHARE)
		return validate_share(p);
	return c->mode == MODE_SHOW ? validate_show(p) : validate_retry(p);
}

static void
defaults(struct config *c, enum mode mode)
{
	memset(c, 0, sizeof(*c));
	c->mode = mode;
	c->backoff.strategy = S_EXP;
	c->backoff.base = NS_PER_SEC;
	c->backoff.factor = 2;
	c->backoff.exponent_base = 2;
	c->backoff.max_delay = span_of(-1);
	c->backoff.max_attempts = 5;
	c->limits.budget = -1;
	c->limits.timeout = -1;
	c->kill_after = 5 * NS_PER_SEC;
	c->signal = 15;			/* SIGTERM */
	codes_add(&c->verdict.success_on, 0);
	c->share_rules = (struct share_rules){ .max = 10, .ratio = SHARE_RATIO,
	    .window = SHARE_WINDOW };
	c->share_timeout = 200 * NS_PER_MS;
	c->count = 10;
	c->limits.reset_after = -1;
}

int
options_parse(int argc, char **argv, enum mode mode, struct config *c,
    char *err, size_t errsz)
{
	struct option longopts[NOPTS + 1];
	char shortopts[2 * NOPTS + 5], *s = shortopts;
	struct parse p = { .cfg = c, .err = err, .errsz = errsz };
	const struct opt *o;
	int ch, idx;

	defaults(c, mode);
	/* retry stops at the command; show takes STATUS anywhere. */
	if (mode == MODE_RETRY)
		*s++ = '+';
	*s++ = ':';
	for (size_t i = 0; i < NOPTS; i++) {
		longopts[i] = (struct option){ opts[i].name,
		    opts[i].metavar != NULL ? required_argument : no_argument,
		    NULL, (int)opts[i].id };
		if (opts[i].key != 0) {
			*s++ = (char)opts[i].key;
			if (opts[i].metavar != NULL)
				*s++ = ':';
		}
	}
	*s++ = 'V';		/* -v's other letter: --version */
	*s = '\0';
	longopts[NOPTS] = (struct option){ NULL, 0, NULL, 0 };

	opterr = 0;
	optind = 0;
	while ((ch = getopt_long(argc, argv, shortopts, longopts, &idx)) != -1) {
		if (ch == '?' || ch == ':')
			return unknown(&p, ch, argv[optind - 1], mode);
		o = ch < O_MAX ? find(ch == 'V' ? 'v' : ch, NULL) :
		    &opts[idx];
		/* The word of the option: before its value's, if apart. */
		if (ch >= O_MAX && abbreviated(&p, o, argv[optind - (optarg !=
		    NULL && optarg == argv[optind - 1] ? 2 : 1)]) != 0)
			return -1;
		if (!(o->modes & (1u << mode)))
			return fail(&p, o, "is not an option of %s",
			    mode_name(mode));
		p.given[o->id - O_MAX] = true;
		if (apply(&p, o, optarg) != 0)
			return -1;
		/* As Debian's retry and most tools: at once, whatever
		 * follows. */
		if (c->help || c->version)
			break;
	}
	c->args = argv + optind;
	c->nargs = argc - optind;
	c->words = argv;
	c->nwords = argc;
	if (c->help || c->version)
		return 0;
	return validate(&p);
}

void
options_free(struct config *c)
{
	free(c->list);
	c->list = NULL;
	rules_free(&c->verdict.output);
}

char *
options_help(enum mode mode)
{
	char *buf = NULL, left[64];
	size_t len = 0;
	FILE *f;

	if ((f = open_memstream(&buf, &len)) == NULL)
		return NULL;
	if (mode == MODE_SHOW)
		fputs("Usage: show-backoff-delays [OPTION]... [STATUS]...\n"
		    "Print the delays a back-off strategy gives for a sequence "
		    "of attempts:\nSTATUS 0 is a failure, 1 a success, with an "
		    "optional time :T or :+S in seconds.\nWithout STATUS, "
		    "every attempt fails as soon as the previous delay ends,\n"
		    "until the strategy gives up. Delays print in seconds as "
		    "Perl prints numbers\n(%.15g); -1 where it gives up.\n",
		    f);
	else if (mode == MODE_SHARE)
		fputs("Usage: retry share status [OPTION]... [NAME]...\n"
		    "       retry share reset [OPTION]... NAME...\n"
		    "Show the state that runs with --share NAME share (all "
		    "names when none is\ngiven): the retry budget's tokens, "
		    "the breaker, failures in a row, the\nnot-before time, "
		    "and when each last changed; or start NAME afresh.  A state "
		    "unused for\n--share-window (60s) is none: runs drop it.\n",
		    f);
	else if (mode == MODE_SIMULATE)
		fputs("Usage: retry simulate [OPTION]...\n"
		    "Simulate the AWS Architecture Blog's \"Exponential Backoff "
		    "And Jitter\": N\nclients start together; each reads the "
		    "version of one shared row and writes\nwith it; a stale "
		    "write fails, and that client backs off and starts over.\n"
		    "Each network hop takes |Normal(10ms, 2ms)|. Without a "
		    "strategy or --jitter,\ncompare none (--immediate), "
		    "exponential (--exp 10ms: the blog's 5ms x 2^n\nafter the "
		    "n-th failure), equal-jitter and full-jitter (the same with\n"
		    "--jitter), and decorrelated (--decorrelated 5ms). The cap "
		    "is 2s unless\n--max-delay says otherwise; clients never "
		    "give up unless --max or\n--max-actual-duration says so. "
		    "Means over the runs: time until the last\nclient is done, "
		    "and calls, the write calls of all clients.\n"
		    "--format plain is the table; --chart draws a bar per "
		    "strategy.\n", f);
	else
		fputs("Usage: retry [OPTION]... [--] COMMAND [ARG]...\n"
		    "       retry show-backoff-delays [OPTION]... [STATUS]...\n"
		    "       retry simulate [OPTION]...\n"
		    "       retry share status|reset [OPTION]... [NAME]...\n"
		    "Run COMMAND; when it fails, wait and run it again.\n"
		    "DUR is a number with a unit (ns, us, ms, s, m, h, d; "
		    "1m30s adds up),\nor a bare number of seconds.\n", f);
	for (int g = G_ATTEMPTS; g <= G_OTHER; g++) {
		bool title = false;

		for (size_t i = 0; i < NOPTS; i++) {
			const struct opt *o = &opts[i];
			/* retry's --count is --dry-run's, a report. */
			const enum group og = mode == MODE_RETRY &&
			    o->id == O_COUNT ? G_REPORT : o->group;

			if (og != (enum group)g || o->help == NULL ||
			    !(o->modes & (1u << mode)))
				continue;
			if (!title) {
				fprintf(f, "\n%s:\n", mode == MODE_SIMULATE &&
				    g == G_STRATEGY ? "Back-off strategies "
				    "(default: compare the five above)" :
				    group_titles[g]);
				title = true;
			}
			snprintf(left, sizeof(left), "%s%c%s--%s%s%s",
			    o->key ? "-" : "", o->key ? o->key : ' ',
			    o->key ? ", " : "   ", o->name,
			    o->metavar ? " " : "", o->metavar ? o->metavar : "");
			if (strlen(left) > 25)
				fprintf(f, "  %s\n  %-25s ", left, "");
			else
				fprintf(f, "  %-25s ", left);
			/* Continuation lines line up with the first. */
			for (const char *h = o->help; *h != '\0'; h++)
				if (*h == '\n')
					fprintf(f, "\n%28s", "");
				else
					fputc(*h, f);
			fputc('\n', f);
		}
	}
	if (mode == MODE_RETRY)
		fputs("\nExit status: 0 on success; the last attempt's status "
		    "when it gives up\nor stops (128+N for signal N, 124 for a "
		    "timeout); 125 for a usage\nerror or output it cannot "
		    "write; 126 or 127 when COMMAND cannot be run;\n141 when "
		    "the reader of its output has gone.\n", f);
	fclose(f);
	return buf;
}
