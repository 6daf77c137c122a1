/* The option table's rows: every option of every face, with its help. */
#include <stddef.h>
#include <string.h>

#include "config.h"
#include "optable.h"

#define RETRY	(1u << MODE_RETRY)
#define SHOW	(1u << MODE_SHOW)
#define BOTH	(RETRY | SHOW)
#define SIM	(1u << MODE_SIMULATE)
#define ALL	(BOTH | SIM)
#define SHR	(1u << MODE_SHARE)

#define A(x)	OPT_ALGO(x)
#define CONCISE	OPT_CONCISE
#define A_ALL	(A(A_CONSTANT) | A(A_EXPONENTIAL) | A(A_FIBONACCI) | \
		 A(A_LILD) | A(A_LIMD) | A(A_MILD) | A(A_MIMD))

static const struct opt_choice streams = { "stream", 3,
	{ { "stdout", MATCH_STDOUT }, { "stderr", MATCH_STDERR },
	  { "both", MATCH_BOTH } } };
static const struct opt_choice stdin_modes = { "mode", 3,
	{ { "inherit", STDIN_INHERIT }, { "replay", STDIN_REPLAY },
	  { "null", STDIN_NULL } } };
static const struct opt_choice log_formats = { "format", 2,
	{ { "text", LOG_TEXT }, { "json", LOG_JSON } } };
static const struct opt_choice ci_modes = { "CI", 4,
	{ { "auto", CI_AUTO }, { "github", CI_GITHUB }, { "gitlab", CI_GITLAB },
	  { "none", CI_NONE } } };
static const struct opt_choice formats = { "format", 4,
	{ { "plain", FORMAT_PLAIN }, { "table", FORMAT_TABLE },
	  { "csv", FORMAT_CSV }, { "json", FORMAT_JSON } } };
static const struct opt_choice units = { "unit", 2,
	{ { "s", UNIT_S }, { "ms", UNIT_MS } } };
/* Taken by algorithm_parse, whatever their case. */
static const struct opt_choice algorithms = { "algorithm", 7,
	{ { "Constant", A_CONSTANT }, { "Exponential", A_EXPONENTIAL },
	  { "Fibonacci", A_FIBONACCI }, { "LILD", A_LILD }, { "LIMD", A_LIMD },
	  { "MILD", A_MILD }, { "MIMD", A_MIMD } } };
/* --help's optional value. */
static const struct opt_choice help_topics = { "topic", 1,
	{ { "all", 1 } } };
static const struct opt_choice share_open_modes = { "mode", 2,
	{ { "wait", 0 }, { "giveup", 1 } } };

#define OFF(f)		offsetof(struct config, f)
#define FLAG(f)		K_FLAG, OFF(f), 0, 0, NULL
#define SET(f, v)	K_SET, OFF(f), v, 0, NULL
#define DURATION(f)	K_DURATION, OFF(f), 0, 0, NULL
#define NONE_AT_0(f)	K_DURATION, OFF(f), 1, 0, NULL
#define WITHIN(f, l, h, why) K_WITHIN, OFF(f), l, h, why
#define SPAN(f)		K_SPAN, OFF(f), 0, 0, NULL
#define SECONDS(f)	K_SECONDS, OFF(f), 0, 0, NULL
#define OFFSET(f)	K_SECONDS, OFF(f), -1, 0, NULL
#define COUNT(f, l, h)	K_COUNT, OFF(f), l, h, NULL
#define REAL(f, l, h)	K_REAL, OFF(f), l, h, NULL
/* The same, with why the bounds are what they are, said with a refusal. */
#define SECONDS_WHY(f, why)	K_SECONDS, OFF(f), 0, 0, why
#define REAL_WHY(f, l, h, why)	K_REAL, OFF(f), l, h, why
#define CHOICE(f, c)	K_CHOICE, OFF(f), 0, 0, &c
#define CODES(f)	K_CODES, OFF(f), 0, 0, NULL
#define SIGNAL(f)	K_SIGNAL, OFF(f), 0, 0, NULL
#define TEXT(f, why)	K_TEXT, OFF(f), 0, 0, why
/* -a's increase/decrease strategies: a failure never shortens the delay. */
#define NEVER_SHORTER	"a failure never shortens the delay"
#define LINE(f, why)	K_LINE, OFF(f), 0, 0, why
#define TEXTS(f, why)	K_TEXTS, OFF(f), 0, 0, why
#define STRATEGY(s)	K_STRATEGY, OFF(backoff.base), s, 0, NULL
#define PARSED(f, r)	K_PARSED, OFF(f), r, 0, NULL
#define OTHER		K_OTHER, 0, 0, 0, NULL
#define OTHER_OF(c)	K_OTHER, 0, 0, 0, &c

const struct opt optable[] = {
	{ "max", 'n', O_MAX, "N", G_ATTEMPTS, ALL, 0, 0,
	  COUNT(backoff.max_attempts, 0, 1000000000),
	  "at most N attempts (default 5; 0: no limit;\n"
	  "without it, --budget, --deadline or\n"
	  "--max-actual-duration alone limit by time)" },
	{ "max-attempts", 0, O_MAX, "N", G_ATTEMPTS, ALL, 0, 0,
	  COUNT(backoff.max_attempts, 0, 1000000000), NULL },
	{ "times", 't', O_TIMES, "N", G_ATTEMPTS, ALL, 0, 0,
	  OTHER,
	  "the same, as in Debian's retry (-1 or over\n"
	  "1000000000: no limit; also --tries)" },
	{ "tries", 0, O_TIMES, "N", G_ATTEMPTS, ALL, 0, 0,
	  OTHER, NULL },
	{ "budget", 'b', O_BUDGET, "DUR", G_ATTEMPTS, BOTH, 0, 0,
	  NONE_AT_0(limits.budget),
	  "start no attempt that would begin after DUR" },
	{ "deadline", 0, O_DEADLINE, "DUR", G_ATTEMPTS, RETRY, 0, 0,
	  NONE_AT_0(limits.deadline),
	  "end the run DUR after its start: the running\n"
	  "attempt stopped as by --timeout (124), and no\n"
	  "attempt or sleep past it; 0: none" },
	{ "timeout", 'T', O_TIMEOUT, "DUR", G_ATTEMPTS, RETRY, 0, 0,
	  NONE_AT_0(limits.timeout),
	  "stop an attempt after DUR (status 124)" },
	{ "signal", 0, O_SIGNAL, "SIG", G_ATTEMPTS, RETRY, 0, 0,
	  SIGNAL(signal),
	  "signal sent on timeout (default TERM)" },
	{ "kill-after", 'k', O_KILL_AFTER, "DUR", G_ATTEMPTS, RETRY, 0, 0,
	  DURATION(kill_after),
	  "then KILL after DUR more (default 5s)" },
	{ "hedge", 0, O_HEDGE, "DUR[:N]", G_ATTEMPTS, RETRY | SIM, 0, 0,
	  PARSED(hedge, P_HEDGE),
	  "an attempt still running after DUR: start the\n"
	  "next beside it, up to N at once (default 2);\n"
	  "the first to succeed wins, the rest are stopped;\n"
	  "needs --stdin replay or null" },
	{ "preserve-status", 0, O_PRESERVE_STATUS, NULL, G_ATTEMPTS, RETRY,
	  0, 0,
	  FLAG(preserve_status),
	  "a timed-out attempt's status is the command's\n"
	  "own (143 for TERM), not 124" },
	{ "foreground", 0, O_FOREGROUND, NULL, G_ATTEMPTS, RETRY, 0, 0,
	  FLAG(foreground),
	  "keep the command in retry's process group and\n"
	  "the terminal's foreground, as timeout\n"
	  "--foreground: it may read the terminal, and a\n"
	  "timeout signals it, not its children" },
	{ "forever", 0, O_FOREVER, NULL, G_ATTEMPTS, RETRY, 0, 0,
	  FLAG(limits.forever),
	  "run again after a success too, 1s later unless\n"
	  "--delay-on-success says (a command that exits\n"
	  "at once is not restarted faster, as runit's);\n"
	  "--max counts failures in a row (default 0: no\n"
	  "limit)" },
	{ "reset-after", 0, O_RESET_AFTER, "DUR", G_ATTEMPTS, RETRY, 0, 0,
	  DURATION(limits.reset_after),
	  "an attempt that ran DUR starts the delays over\n"
	  "(with --forever, the count too)" },
	{ "max-actual-duration", 0, O_MAX_ACTUAL_DURATION, "DUR", G_ATTEMPTS,
	  ALL, 0, 0,
	  SECONDS(backoff.max_actual_duration), "give up on a failure DUR or more after the start" },
	{ "successes", 0, O_SUCCESSES, "N", G_ATTEMPTS, BOTH, 0, 0,
	  COUNT(limits.successes, 1, 1000000000),
	  "done only after N successes in a row, each one\n"
	  "an attempt of --max; a failure starts over\n"
	  "(default 1)" },

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
	{ "decorrelated-v2", 0, O_DECORRELATED_V2, "DUR", G_STRATEGY, ALL, 0,
	  0,
	  STRATEGY(S_DECORRELATED_V2),
	  "random, smoother than --decorrelated: the\n"
	  "first's median near DUR, then doubling\n"
	  "(Polly's DecorrelatedJitterBackoffV2)" },
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
	  "never wait less than DUR (not over --max-delay;\n"
	  "show-backoff-delays: it wins, as in Perl)" },

	{ "algorithm", 'a', O_ALGORITHM, "NAME", G_ALGORITHM, ALL, 0, 0,
	  OTHER_OF(algorithms),
	  "Constant, Exponential, Fibonacci, LILD, LIMD,\n"
	  "MILD or MIMD" },
	{ "delay-on-success", 0, O_DELAY_ON_SUCCESS, "S", G_ALGORITHM, ALL,
	  A(A_CONSTANT) | A(A_EXPONENTIAL) | A(A_FIBONACCI) | CONCISE, 0,
	  SECONDS(backoff.delay_on_success),
	  "delay after a success (default 0; with\n"
	  "--forever, 1s)" },
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
	  SECONDS_WHY(backoff.inc_failure, NEVER_SHORTER),
	  "LI*: add S on a failure (0 or more)" },
	{ "delay-increment-on-success", 0, O_INC_SUCCESS, "S", G_ALGORITHM,
	  ALL, A(A_LILD) | A(A_MILD), A(A_LILD) | A(A_MILD),
	  OFFSET(backoff.inc_success),
	  "*LD: add S on a success (may be negative)" },
	{ "delay-multiple-on-failure", 0, O_MUL_FAILURE, "F", G_ALGORITHM,
	  ALL, A(A_MILD) | A(A_MIMD), A(A_MILD) | A(A_MIMD),
	  REAL_WHY(backoff.mul_failure, 1, 1e6, NEVER_SHORTER),
	  "MI*: multiply by F on a failure (1 or more)" },
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
	  PARSED(backoff.jitter, P_JITTER),
	  "none, full, equal, scattered[:R], down[:R],\n"
	  "add:DUR, or DUR for add:DUR (Debian's retry)" },
	{ "seed", 0, O_SEED, "N", G_JITTER, ALL, 0, 0,
	  OTHER,
	  "make every random choice reproducible" },

	{ "success-on", 0, O_SUCCESS_ON, "CODES", G_VERDICT, RETRY, 0, 0,
	  PARSED(verdict, P_SUCCESS_ON),
	  "statuses that count as success (default 0)" },
	{ "retry-on", 0, O_RETRY_ON, "CODES", G_VERDICT, RETRY, 0, 0,
	  OTHER,
	  "retry only these failures; stop on others;\n"
	  "an item as 1:2 or 75-78:10 is retried at most\n"
	  "N times in all, then the run gives up" },
	{ "stop-on", 0, O_STOP_ON, "CODES", G_VERDICT, RETRY, 0, 0,
	  CODES(verdict.stop_on),
	  "stop at once on these statuses (successes\n"
	  "too; none of --retry-on's)" },
	{ "until", 'u', O_UNTIL, "CRIT", G_VERDICT, RETRY, 0, 0,
	  PARSED(verdict, P_UNTIL),
	  "retry until the exit status meets CRIT: success,\n"
	  "true, fail, false, N or N-M, comma-separated;\n"
	  "end with the last status; a signal ends the run\n"
	  "(Debian's retry; not with --success-on)" },
	{ "while", 'w', O_WHILE, "CRIT", G_VERDICT, RETRY, 0, 0,
	  PARSED(verdict, P_WHILE),
	  "retry while the exit status meets CRIT; the same" },

	{ "until-output", 0, O_UNTIL_OUTPUT, "RE", G_VERDICT, RETRY, 0, 0,
	  TEXTS(patterns[RULE_UNTIL], NULL),
	  "a failure unless a line of output matches RE" },
	{ "exit-on-match", 0, O_EXIT_ON_MATCH, NULL, G_VERDICT, RETRY, 0, 0,
	  FLAG(verdict.exit_on_match),
	  "at the first line that matches --until-output,\n"
	  "stop the command's group as --timeout does: a\n"
	  "success (exit 0)" },
	{ "fail-if-output", 0, O_FAIL_IF_OUTPUT, "RE", G_VERDICT, RETRY, 0, 0,
	  TEXTS(patterns[RULE_FAIL], NULL),
	  "a failure if a line of output matches RE" },
	{ "retry-if-output", 0, O_RETRY_IF_OUTPUT, "RE", G_VERDICT, RETRY,
	  0, 0,
	  TEXTS(patterns[RULE_RETRY], NULL),
	  "retry only failures whose output matches RE" },
	{ "stop-if-output", 0, O_STOP_IF_OUTPUT, "RE", G_VERDICT, RETRY, 0, 0,
	  TEXTS(patterns[RULE_STOP], NULL),
	  "stop at once if a line of output matches RE" },
	{ "delay-from-output", 0, O_DELAY_FROM_OUTPUT, "RE", G_VERDICT, RETRY,
	  0, 0,
	  TEXTS(patterns[RULE_CAPTURE], NULL),
	  "wait at least what RE's first group gives:\n"
	  "seconds, a duration, an HTTP-date (Retry-After)\n"
	  "or a Unix time (X-RateLimit-Reset), within\n"
	  "--min-delay and --max-delay (or 1h)" },
	{ "delay-from-output-replaces", 0, O_DELAY_FROM_OUTPUT_REPLACES, NULL,
	  G_VERDICT, RETRY, 0, 0,
	  FLAG(limits.output_replaces),
	  "wait what it gives even when the strategy's\n"
	  "delay is longer" },
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
	  "every attempt (a pipe recorded as the first\n"
	  "reads it, a file read again), or null" },
	{ "hold-stdout", 0, O_HOLD_STDOUT, NULL, G_STREAMS, RETRY, 0, 0,
	  FLAG(hold_stdout),
	  "only a successful attempt's stdout reaches\n"
	  "stdout; a failed one's goes to stderr" },
	{ "only-last", 0, O_ONLY_LAST, NULL, G_STREAMS, RETRY, 0, 0,
	  FLAG(only_last),
	  "hold each attempt's stdout and stderr; pass\n"
	  "on only the last attempt's" },

	{ "log-format", 0, O_LOG_FORMAT, "FMT", G_REPORT, RETRY | SHR, 0, 0,
	  CHOICE(log_format, log_formats),
	  "text (default) or json: JSON Lines" },
	{ "ci", 0, O_CI, "CI", G_REPORT, RETRY, 0, 0,
	  CHOICE(ci, ci_modes),
	  "auto (default: GITHUB_ACTIONS or GITLAB_CI),\n"
	  "github, gitlab or none: each attempt's output\n"
	  "in a collapsible group, and an annotation\n"
	  "after failures, on stderr" },
	{ "log-file", 0, O_LOG_FILE, "FILE", G_REPORT, RETRY, 0, 0,
	  TEXT(log_file, "empty file name"),
	  "append every event to FILE too, timed (0600);\n"
	  "- is stderr" },
	{ "syslog", 0, O_SYSLOG, NULL, G_REPORT, RETRY, 0, 0,
	  FLAG(syslog),
	  "send every event to syslog too" },
	{ "on-retry", 0, O_ON_RETRY, "CMD", G_REPORT, RETRY, 0, 0,
	  TEXTS(on_retry, "empty command"),
	  "run sh -c CMD before each back-off sleep" },
	{ "on-giveup", 0, O_ON_GIVEUP, "CMD", G_REPORT, RETRY, 0, 0,
	  TEXTS(on_giveup, "empty command"),
	  "run sh -c CMD when the run ends in failure" },
	{ "on-success", 0, O_ON_SUCCESS, "CMD", G_REPORT, RETRY, 0, 0,
	  TEXTS(on_success, "empty command"),
	  "run sh -c CMD when the run ends in success" },
	{ "result-file", 0, O_RESULT_FILE, "FILE", G_REPORT, RETRY, 0, 0,
	  TEXT(result_file, "empty file name"),
	  "append the run's figures to FILE as it ends,\n"
	  "key=value lines ($GITHUB_OUTPUT's format)" },
	{ "quiet", 'q', O_QUIET, NULL, G_REPORT, RETRY, 0, 0,
	  SET(verbosity, QUIET),
	  "report only retry's own errors" },
	{ "verbose", 0, O_VERBOSE, NULL, G_REPORT, RETRY, 0, 0,
	  SET(verbosity, VERBOSE),
	  "also report each start and each success (not\n"
	  "with -q)" },
	{ "label", 'm', O_LABEL, "LABEL", G_REPORT, RETRY, 0, 0,
	  LINE(label, "must be one non-empty line"),
	  "prefix reports with retry[LABEL]: instead\n"
	  "of the command's name (also --message)" },
	{ "message", 0, O_LABEL, "LABEL", G_REPORT, RETRY, 0, 0,
	  LINE(label, "must be one non-empty line"), NULL },
	{ "dry-run", 0, O_DRY_RUN, NULL, G_REPORT, RETRY, 0, 0,
	  FLAG(dry_run),
	  "print the schedule of an all-failing run" },

	{ "share", 0, O_SHARE, "NAME", G_SHARE, RETRY, 0, 0,
	  PARSED(share, P_SHARE_NAME),
	  "join the shared state NAME (letters, digits,\n"
	  "'.', '_', '-'): a retry budget, a breaker, and\n"
	  "a delay one run learns from its output" },
	{ "share-budget", 0, O_SHARE_BUDGET, "N[:R]", G_SHARE,
	  RETRY | SIM | SHR, 0, 0,
	  PARSED(share_rules, P_SHARE_BUDGET),
	  "N tokens (default 10); a retry runs only if\n"
	  "it can take one, a success gives R back\n"
	  "(default 0.2)" },
	{ "share-window", 0, O_SHARE_WINDOW, "DUR", G_SHARE, RETRY | SIM | SHR,
	  0, 0,
	  WITHIN(share_rules.window, SHARE_WINDOW_MIN, SHARE_WINDOW_MAX,
	      "give 1s to 1d"),
	  "N tokens come back every DUR, so a spent\n"
	  "budget is whole after DUR (default 60s,\n"
	  "1s to 1d); a state unused that long is dropped" },
	{ "share-breaker", 0, O_SHARE_BREAKER, "N:DUR", G_SHARE, RETRY | SIM,
	  0, 0,
	  PARSED(share_rules, P_SHARE_BREAKER),
	  "N failures in a row open it for DUR; then one\n"
	  "run probes, and its success closes it" },
	{ "share-open", 0, O_SHARE_OPEN, "MODE", G_SHARE, RETRY, 0, 0,
	  CHOICE(share_rules.give_up, share_open_modes),
	  "while it is open: wait (default) or giveup\n"
	  "(both end with 75 past --budget)" },
	{ "share-store", 0, O_SHARE_STORE, "STORE", G_SHARE, RETRY | SHR, 0, 0,
	  OTHER,
	  "file:DIR, redis://HOST[:PORT][,...][/DB] or\n"
	  "unix:///PATH (default $RETRY_SHARE_STORE, else\n"
	  "$XDG_RUNTIME_DIR/retry or /tmp/retry-UID)" },
	{ "share-store-file", 0, O_SHARE_STORE_FILE, "FILE", G_SHARE,
	  RETRY | SHR, 0, 0,
	  OTHER,
	  "the store from FILE's first line (a URL with\n"
	  "a password goes here or in $RETRY_SHARE_STORE)" },
	{ "share-timeout", 0, O_SHARE_TIMEOUT, "DUR", G_SHARE, RETRY | SHR,
	  0, 0,
	  WITHIN(share_timeout, NS_PER_MS, 60 * NS_PER_SEC, "give 1ms to 60s"),
	  "give up on the store (a lock, an answer)\n"
	  "after DUR, or before an attempt half of what\n"
	  "is left of --budget if less; never past\n"
	  "--deadline (default 200ms)" },
	{ "share-connect-timeout", 0, O_SHARE_CONNECT_TIMEOUT, "DUR", G_SHARE,
	  RETRY | SHR, 0, 0,
	  WITHIN(share_connect_timeout, NS_PER_MS, 60 * NS_PER_SEC,
	  "give 1ms to 60s"),
	  "give up on a new connection to Redis (lookup,\n"
	  "connect, TLS, greeting) after DUR, cut as\n"
	  "--share-timeout is by --budget (default 2s, or\n"
	  "--share-timeout if longer)" },
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
	  PARSED(clients, P_CLIENTS),
	  "numbers of clients, as in 10,50,100 or\n"
	  "10-190:20 (default 100)" },
	{ "failure-rate", 0, O_FAILURE_RATE, "LIST", G_SIMULATE, SIM, 0, 0,
	  PARSED(failure_rates, P_RATES),
	  "the load model instead: calls fail with each\n"
	  "probability P of LIST (0.5,0.9 or 0.1-0.9:0.2);\n"
	  "no retries, 3, 3 under a shared --share-budget,\n"
	  "and 3 behind a shared --share-breaker (20:1s)" },
	{ "runs", 0, O_RUNS, "N", G_SIMULATE, SIM, 0, 0,
	  COUNT(runs, 1, 100000),
	  "average over N runs (default 100)" },
	{ "latency", 0, O_LATENCY, "LIST", G_SIMULATE, SIM, 0, 0,
	  PARSED(latency, P_LATENCY),
	  "the hedging model instead: an attempt takes each\n"
	  "DUR of LIST, DUR@P% with chance P, as in\n"
	  "20ms,2s@5% (the default with --hedge)" },

	{ "help", 'h', O_HELP, NULL, G_OTHER, ALL | SHR, 0, 0,
	  OTHER_OF(help_topics),
	  "show the options most runs need and exit;\n"
	  "all: every option" },
	{ "version", 'v', O_VERSION, NULL, G_OTHER, ALL | SHR, 0, 0,
	  FLAG(version),
	  "show the version and exit (also -V)" },
};

_Static_assert(sizeof(optable) / sizeof(optable[0]) == OPTABLE_ROWS,
    "OPTABLE_ROWS is the number of rows of optable");

/*
 * What a CI job, a deploy script or a cron line most often gives: the
 * limits, the common strategies, the essentials of deciding, of the
 * streams and of the reports.  Said as the rows and the manual say it.
 */
const struct opt_brief optable_briefs[] = {
	{ O_MAX, "at most N attempts (default 5; 0: no limit)" },
	{ O_BUDGET, "start no attempt that would begin after DUR" },
	{ O_DEADLINE, "end the run DUR after its start, attempt too" },
	{ O_TIMEOUT, "stop an attempt after DUR (status 124)" },
	{ O_EXP, "DUR, doubling each time (--factor F: x F)" },
	{ O_FIXED, "DUR every time" },
	{ O_LINEAR, "DUR x n: DUR, 2 x DUR, 3 x DUR, ..." },
	{ O_DELAYS, "the n-th of a comma list; the last repeats" },
	{ O_MAX_DELAY, "never wait longer than DUR" },
	{ O_JITTER, "randomise each delay: none, full, equal, ..." },
	{ O_SUCCESS_ON, "statuses that count as success (default 0)" },
	{ O_RETRY_ON, "retry only these failures; stop on others" },
	{ O_STOP_ON, "stop at once on these statuses" },
	{ O_UNTIL_OUTPUT, "a failure unless a line of output matches RE" },
	{ O_STDIN, "replay: every attempt reads the same input" },
	{ O_HOLD_STDOUT, "only a successful attempt's stdout reaches stdout" },
	{ O_ONLY_LAST, "pass on only the last attempt's output" },
	{ O_QUIET, "report only retry's own errors" },
	{ O_VERBOSE, "also report each start and each success" },
	{ O_LABEL, "prefix reports with retry[LABEL]:" },
	{ O_LOG_FILE, "append every event to FILE too, timed" },
	{ O_CI, "log groups: auto (default), github, gitlab, none" },
	{ O_DRY_RUN, "print the schedule of an all-failing run" },
	{ O_SHARE, "back off as one with every run that names NAME" },
	{ O_HELP, "show this help and exit; all: every option" },
	{ O_VERSION, "show the version and exit" },
};

_Static_assert(sizeof(optable_briefs) / sizeof(optable_briefs[0]) ==
    OPTABLE_BRIEFS, "OPTABLE_BRIEFS is the number of briefs");

const struct opt *
optable_find(int key, const char *name)
{
	for (size_t i = 0; i < OPTABLE_ROWS; i++)
		if ((name != NULL && strcmp(optable[i].name, name) == 0) ||
		    (name == NULL && optable[i].key == key && key != 0))
			return &optable[i];
	return NULL;
}

/* The options that add up when given again, in the order given: status
 * lists, output rules, hooks.  Any other given again, the last counts. */
static const enum opt_id adds[] = {
	O_SUCCESS_ON, O_RETRY_ON, O_STOP_ON,
	O_UNTIL_OUTPUT, O_FAIL_IF_OUTPUT, O_RETRY_IF_OUTPUT, O_STOP_IF_OUTPUT,
	O_DELAY_FROM_OUTPUT,
	O_ON_RETRY, O_ON_GIVEUP, O_ON_SUCCESS,
};

bool
optable_optional(const struct opt *o)
{
	return o->metavar == NULL && o->kind == K_OTHER && o->data != NULL;
}

bool
optable_adds(enum opt_id id)
{
	for (size_t i = 0; i < sizeof(adds) / sizeof(adds[0]); i++)
		if (adds[i] == id)
			return true;
	return false;
}

/*
 * The pairs that cannot both hold.  -u and -w are one setting, Debian's
 * retry's criteria, the last given counting as there.  Where one option
 * refines another (--stop-on a success status, --retry-if-output within
 * --retry-on, --max with --forever), both hold and neither is here;
 * show-backoff-delays keeps Algorithm::Backoff's --min-delay over
 * --max-delay.
 */
const struct opt_conflict optable_conflicts[] = {
	{ O_UNTIL, O_SUCCESS_ON, C_BOTH, RETRY,
	  "both say which statuses succeed" },
	{ O_WHILE, O_SUCCESS_ON, C_BOTH, RETRY,
	  "both say which statuses succeed" },
	{ O_STOP_ON, O_RETRY_ON, C_STATUS, RETRY,
	  "a status is either stopped on or retried" },
	{ O_RETRY_ON, O_SUCCESS_ON, C_STATUS, RETRY,
	  "a success is never retried" },
	{ O_RETRY_ON, O_UNTIL, C_STATUS, RETRY,
	  "a status that meets --until ends the run" },
	{ O_MIN_DELAY, O_MAX_DELAY, C_ABOVE, RETRY | SIM,
	  "no delay can be both" },
	{ O_VERBOSE, O_QUIET, C_BOTH, RETRY,
	  "give one" },
	{ O_HEDGE, O_FOREGROUND, C_BOTH, RETRY,
	  "attempts side by side never hold the terminal" },
	{ O_HEDGE, O_HOLD_STDOUT, C_BOTH, RETRY,
	  "a hedged attempt's output is held whole already" },
	{ O_HEDGE, O_ONLY_LAST, C_BOTH, RETRY,
	  "a hedged run passes on one attempt's output already" },
	{ O_HEDGE, O_FOREVER, C_BOTH, RETRY,
	  "a run that goes on after a success has no winner" },
	{ O_HEDGE, O_EXIT_ON_MATCH, C_BOTH, RETRY,
	  "a hedged attempt's output is matched once it ends" },
};

_Static_assert(sizeof(optable_conflicts) / sizeof(optable_conflicts[0]) ==
    OPTABLE_CONFLICTS, "OPTABLE_CONFLICTS is the number of conflicts");
