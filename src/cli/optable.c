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
/* Algorithm::Backoff's parameters: show-backoff-delays's help lists them. */
#define NOT_RETRYS	OPT_UNLISTED(MODE_RETRY)
#define UNLISTED_ALL	(OPT_UNLISTED(MODE_RETRY) | OPT_UNLISTED(MODE_SHOW) | \
			 OPT_UNLISTED(MODE_SIMULATE))

#define A(x)	OPT_ALGO(x)
#define CONCISE	OPT_CONCISE
#define A_ALL	(A(ALGO_CONSTANT) | A(ALGO_EXPONENTIAL) | A(ALGO_FIBONACCI) | \
		 A(ALGO_LILD) | A(ALGO_LIMD) | A(ALGO_MILD) | A(ALGO_MIMD))

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
	{ { "Constant", ALGO_CONSTANT }, { "Exponential", ALGO_EXPONENTIAL },
	  { "Fibonacci", ALGO_FIBONACCI }, { "LILD", ALGO_LILD }, { "LIMD", ALGO_LIMD },
	  { "MILD", ALGO_MILD }, { "MIMD", ALGO_MIMD } } };
/* --help's optional value. */
static const struct opt_choice help_topics = { "topic", 1,
	{ { "all", 1 } } };
/* --hold's values; given both, both hold. */
static const struct opt_choice hold_whats = { "output", 2,
	{ { "stdout", HOLD_STDOUT }, { "last", HOLD_LAST } } };
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
#define ONE_SIGNAL(f)	K_SIGNAL, OFF(f), 0, 0, NULL
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
	{ "max", 'n', OPT_MAX, "N", G_ATTEMPTS, ALL, 0, 0,
	  COUNT(backoff.max_attempts, 0, 1000000000),
	  "at most N attempts (default 5; 0: no limit;\n"
	  "without it, --budget, --deadline or\n"
	  "--max-actual-duration alone limit by time);\n"
	  "also -t, --times N as Debian's (-1 or over\n"
	  "1000000000: no limit)" },
	{ "max-attempts", 0, OPT_MAX, "N", G_ATTEMPTS, ALL, 0, 0,
	  COUNT(backoff.max_attempts, 0, 1000000000), NULL },
	{ "times", 't', OPT_TIMES, "N", G_ATTEMPTS, ALL | UNLISTED_ALL, 0, 0,
	  OTHER, "--max, as Debian's retry writes it" },
	{ "tries", 0, OPT_TIMES, "N", G_ATTEMPTS, ALL, 0, 0,
	  OTHER, NULL },
	{ "budget", 'b', OPT_BUDGET, "DUR", G_ATTEMPTS, BOTH, 0, 0,
	  NONE_AT_0(limits.budget),
	  "start no attempt that would begin after DUR" },
	{ "deadline", 0, OPT_DEADLINE, "DUR", G_ATTEMPTS, RETRY, 0, 0,
	  NONE_AT_0(limits.deadline),
	  "end the run DUR after its start: the running\n"
	  "attempt stopped as by --timeout (124), and no\n"
	  "attempt or sleep past it; 0: none" },
	{ "timeout", 'T', OPT_TIMEOUT, "DUR", G_ATTEMPTS, RETRY, 0, 0,
	  NONE_AT_0(limits.timeout),
	  "stop an attempt after DUR (status 124)" },
	{ "signal", 0, OPT_SIGNAL, "SIG", G_ATTEMPTS, RETRY, 0, 0,
	  ONE_SIGNAL(signal),
	  "signal sent on timeout (default TERM)" },
	{ "kill-after", 'k', OPT_KILL_AFTER, "DUR", G_ATTEMPTS, RETRY, 0, 0,
	  DURATION(kill_after),
	  "then KILL after DUR more (default 5s)" },
	{ "hedge", 0, OPT_HEDGE, "DUR[:N]", G_ATTEMPTS, RETRY | SIM, 0, 0,
	  PARSED(hedge, P_HEDGE),
	  "an attempt still running after DUR: start the\n"
	  "next beside it, up to N at once (default 2);\n"
	  "the first to succeed wins, the rest are stopped;\n"
	  "needs --stdin replay or null" },
	{ "preserve-status", 0, OPT_PRESERVE_STATUS, NULL, G_ATTEMPTS, RETRY,
	  0, 0,
	  FLAG(preserve_status),
	  "a timed-out attempt's status is the command's\n"
	  "own (143 for TERM), not 124" },
	{ "foreground", 0, OPT_FOREGROUND, NULL, G_ATTEMPTS, RETRY, 0, 0,
	  FLAG(foreground),
	  "keep the command in retry's process group and\n"
	  "the terminal's foreground, as timeout\n"
	  "--foreground: it may read the terminal, and a\n"
	  "timeout signals it, not its children" },
	{ "forever", 0, OPT_FOREVER, NULL, G_ATTEMPTS, RETRY, 0, 0,
	  FLAG(limits.forever),
	  "run again after a success too, 1s later unless\n"
	  "--delay-on-success says (a command that exits\n"
	  "at once is not restarted faster, as runit's);\n"
	  "--max counts failures in a row (default 0: no\n"
	  "limit)" },
	{ "reset-after", 0, OPT_RESET_AFTER, "DUR", G_ATTEMPTS, RETRY, 0, 0,
	  DURATION(limits.reset_after),
	  "an attempt that ran DUR starts the delays over\n"
	  "(with --forever, the count too)" },
	{ "max-actual-duration", 0, OPT_MAX_ACTUAL_DURATION, "DUR", G_ATTEMPTS,
	  ALL | NOT_RETRYS, 0, 0,
	  SECONDS(backoff.max_actual_duration), "give up on a failure DUR or more after the start" },
	{ "successes", 0, OPT_SUCCESSES, "N", G_ATTEMPTS, BOTH, 0, 0,
	  COUNT(limits.successes, 1, 1000000000),
	  "done only after N successes in a row, each one\n"
	  "an attempt of --max; a failure starts over\n"
	  "(default 1)" },

	{ "exp", 'x', OPT_EXP, "DUR", G_STRATEGY, ALL, 0, 0,
	  STRATEGY(STRAT_EXP),
	  "DUR x F^(n-1), F = --factor" },
	{ "factor", 0, OPT_FACTOR, "F", G_STRATEGY, ALL, 0, 0,
	  REAL(backoff.factor, 1, 1e6),
	  "growth factor of --exp (default 2, at least 1)" },
	{ "fixed", 0, OPT_FIXED, "DUR", G_STRATEGY, ALL, 0, 0,
	  STRATEGY(STRAT_FIXED),
	  "DUR every time (also --constant)" },
	{ "constant", 0, OPT_FIXED, "DUR", G_STRATEGY, ALL, 0, 0,
	  STRATEGY(STRAT_FIXED), NULL },
	{ "linear", 0, OPT_LINEAR, "DUR", G_STRATEGY, ALL, 0, 0,
	  STRATEGY(STRAT_LINEAR), "DUR x n" },
	{ "fib", 0, OPT_FIB, "DUR", G_STRATEGY, ALL, 0, 0,
	  STRATEGY(STRAT_FIB),
	  "DUR x fib(n): 1, 1, 2, 3, 5, 8, ..." },
	{ "delays", 0, OPT_DELAYS, "LIST", G_STRATEGY, ALL | UNLISTED_ALL, 0, 0,
	  OTHER,
	  "the n-th of a comma list; the last repeats" },
	{ "delay", 'd', OPT_DELAY, "LIST", G_STRATEGY, ALL,
	  A(ALGO_CONSTANT) | CONCISE, A(ALGO_CONSTANT),
	  OTHER,
	  "the n-th of a comma list; the last repeats\n"
	  "(also --delays); with -a Constant: its delay\n"
	  "after a failure (S), not --delays's list" },
	{ "decorrelated", 0, OPT_DECORRELATED, "DUR", G_STRATEGY, ALL, 0, 0,
	  STRATEGY(STRAT_DECORRELATED),
	  "random in [DUR, 3 x previous], the first in\n"
	  "[DUR, 3 x DUR] (AWS's decorrelated jitter);\n"
	  "DUR:v2, smoother: the first's median near\n"
	  "DUR, then doubling (Polly's\n"
	  "DecorrelatedJitterBackoffV2; also\n"
	  "--decorrelated-v2 DUR)" },
	{ "decorrelated-v2", 0, OPT_DECORRELATED_V2, "DUR", G_STRATEGY, ALL, 0,
	  0,
	  STRATEGY(STRAT_DECORRELATED_V2), NULL },
	{ "immediate", 0, OPT_IMMEDIATE, NULL, G_STRATEGY, ALL, 0, 0,
	  STRATEGY(STRAT_IMMEDIATE),
	  "no delay at all" },
	{ "max-delay", 'M', OPT_MAX_DELAY, "DUR", G_STRATEGY, ALL,
	  A_ALL | CONCISE, 0,
	  SPAN(backoff.max_delay),
	  "never wait longer than DUR (without a limit on\n"
	  "attempts, growing strategies: 5m)" },
	{ "min-delay", 0, OPT_MIN_DELAY, "DUR", G_STRATEGY, ALL,
	  A_ALL | CONCISE, 0,
	  SPAN(backoff.min_delay),
	  "never wait less than DUR (not over --max-delay;\n"
	  "show-backoff-delays: it wins, as in Perl)" },

	{ "algorithm", 'a', OPT_ALGORITHM, "NAME", G_ALGORITHM, ALL, 0, 0,
	  OTHER_OF(algorithms),
	  "Constant, Exponential, Fibonacci, LILD, LIMD,\n"
	  "MILD or MIMD: Perl's Algorithm::Backoff; its\n"
	  "parameters are show-backoff-delays's (see\n"
	  "show-backoff-delays --help and\n"
	  "show-backoff-delays(1))" },
	{ "delay-on-success", 0, OPT_DELAY_ON_SUCCESS, "S", G_ALGORITHM, ALL,
	  A(ALGO_CONSTANT) | A(ALGO_EXPONENTIAL) | A(ALGO_FIBONACCI) | CONCISE, 0,
	  SECONDS(backoff.delay_on_success),
	  "delay after a success (default 0; with\n"
	  "--forever, 1s)" },
	{ "initial-delay", 0, OPT_INITIAL_DELAY, "S", G_ALGORITHM, ALL | NOT_RETRYS,
	  A(ALGO_EXPONENTIAL) | A(ALGO_LILD) | A(ALGO_LIMD) | A(ALGO_MILD) | A(ALGO_MIMD),
	  A(ALGO_EXPONENTIAL) | A(ALGO_LILD) | A(ALGO_LIMD) | A(ALGO_MILD) | A(ALGO_MIMD),
	  SECONDS(backoff.initial_delay),
	  "first delay" },
	{ "exponent-base", 0, OPT_EXPONENT_BASE, "F", G_ALGORITHM, ALL | NOT_RETRYS,
	  A(ALGO_EXPONENTIAL), 0,
	  REAL(backoff.exponent_base, 0, 1e6), "Exponential: base (default 2)" },
	{ "initial-delay1", 0, OPT_INITIAL_DELAY1, "S", G_ALGORITHM, ALL | NOT_RETRYS,
	  A(ALGO_FIBONACCI), A(ALGO_FIBONACCI),
	  SECONDS(backoff.initial_delay1), "Fibonacci: first delay" },
	{ "initial-delay2", 0, OPT_INITIAL_DELAY2, "S", G_ALGORITHM, ALL | NOT_RETRYS,
	  A(ALGO_FIBONACCI), A(ALGO_FIBONACCI),
	  SECONDS(backoff.initial_delay2), "Fibonacci: second delay" },
	{ "delay-increment-on-failure", 0, OPT_INC_FAILURE, "S", G_ALGORITHM,
	  ALL | NOT_RETRYS, A(ALGO_LILD) | A(ALGO_LIMD), A(ALGO_LILD) | A(ALGO_LIMD),
	  SECONDS_WHY(backoff.inc_failure, NEVER_SHORTER),
	  "LI*: add S on a failure (0 or more)" },
	{ "delay-increment-on-success", 0, OPT_INC_SUCCESS, "S", G_ALGORITHM,
	  ALL | NOT_RETRYS, A(ALGO_LILD) | A(ALGO_MILD), A(ALGO_LILD) | A(ALGO_MILD),
	  OFFSET(backoff.inc_success),
	  "*LD: add S on a success (may be negative)" },
	{ "delay-multiple-on-failure", 0, OPT_MUL_FAILURE, "F", G_ALGORITHM,
	  ALL | NOT_RETRYS, A(ALGO_MILD) | A(ALGO_MIMD), A(ALGO_MILD) | A(ALGO_MIMD),
	  REAL_WHY(backoff.mul_failure, 1, 1e6, NEVER_SHORTER),
	  "MI*: multiply by F on a failure (1 or more)" },
	{ "delay-multiple-on-success", 0, OPT_MUL_SUCCESS, "F", G_ALGORITHM,
	  ALL | NOT_RETRYS, A(ALGO_LIMD) | A(ALGO_MIMD), A(ALGO_LIMD) | A(ALGO_MIMD),
	  REAL(backoff.mul_success, 0, 1e6),
	  "*MD: multiply by F on a success" },
	{ "jitter-factor", 0, OPT_JITTER_FACTOR, "F", G_ALGORITHM, ALL | NOT_RETRYS, A_ALL,
	  0,
	  REAL(backoff.jitter_factor, 0, 0.5), "random in [d(1-F), d(1+F)], F from 0 to 0.5" },
	{ "consider-actual-delay", 0, OPT_CONSIDER_ACTUAL_DELAY, NULL,
	  G_ALGORITHM, ALL | NOT_RETRYS, A_ALL, 0,
	  FLAG(backoff.consider_actual_delay),
	  "count the time already spent against the delay" },

	{ "jitter", 'j', OPT_JITTER, "MODE", G_JITTER, ALL, 0, 0,
	  PARSED(backoff.jitter, P_JITTER),
	  "none, full, equal, scattered[:R], down[:R],\n"
	  "add:DUR, or DUR for add:DUR (Debian's retry)" },
	{ "seed", 0, OPT_SEED, "N", G_JITTER, ALL, 0, 0,
	  OTHER,
	  "make every random choice reproducible" },

	{ "success-on", 0, OPT_SUCCESS_ON, "CODES", G_VERDICT, RETRY, 0, 0,
	  PARSED(verdict, P_SUCCESS_ON),
	  "statuses that count as success (default 0)" },
	{ "retry-on", 0, OPT_RETRY_ON, "CODES", G_VERDICT, RETRY, 0, 0,
	  OTHER,
	  "retry only these failures; stop on others;\n"
	  "an item as 1:2 or 75-78:10 is retried at most\n"
	  "N times in all, then the run gives up" },
	{ "stop-on", 0, OPT_STOP_ON, "CODES", G_VERDICT, RETRY, 0, 0,
	  CODES(verdict.stop_on),
	  "stop at once on these statuses (successes\n"
	  "too; none of --retry-on's)" },
	{ "until", 'u', OPT_UNTIL, "CRIT", G_VERDICT, RETRY, 0, 0,
	  PARSED(verdict, P_UNTIL),
	  "retry until the exit status meets CRIT: success,\n"
	  "true, fail, false, N or N-M, comma-separated;\n"
	  "end with the last status; a signal ends the run\n"
	  "(Debian's retry; not with --success-on)" },
	{ "while", 'w', OPT_WHILE, "CRIT", G_VERDICT, RETRY, 0, 0,
	  PARSED(verdict, P_WHILE),
	  "retry while the exit status meets CRIT; the same" },

	{ "output", 0, OPT_OUTPUT, "RULE:RE", G_VERDICT, RETRY, 0, 0,
	  OTHER,
	  "a rule over each line of output, RULE one of:\n"
	  "until: a failure unless a line matches RE;\n"
	  "fail: a failure if a line matches RE;\n"
	  "retry: retry only failures whose output\n"
	  "matches RE; stop: stop at once if a line\n"
	  "matches RE; delay: wait at least what RE's\n"
	  "first group gives: seconds, a duration, an\n"
	  "HTTP-date (Retry-After) or a Unix time\n"
	  "(X-RateLimit-Reset), within --min-delay and\n"
	  "--max-delay (or 1h)" },
	{ "until-output", 0, OPT_UNTIL_OUTPUT, "RE", G_VERDICT, RETRY, 0, 0,
	  TEXTS(patterns[RULE_UNTIL], NULL), NULL },
	{ "fail-if-output", 0, OPT_FAIL_IF_OUTPUT, "RE", G_VERDICT, RETRY, 0, 0,
	  TEXTS(patterns[RULE_FAIL], NULL), NULL },
	{ "retry-if-output", 0, OPT_RETRY_IF_OUTPUT, "RE", G_VERDICT, RETRY,
	  0, 0,
	  TEXTS(patterns[RULE_RETRY], NULL), NULL },
	{ "stop-if-output", 0, OPT_STOP_IF_OUTPUT, "RE", G_VERDICT, RETRY, 0, 0,
	  TEXTS(patterns[RULE_STOP], NULL), NULL },
	{ "delay-from-output", 0, OPT_DELAY_FROM_OUTPUT, "RE", G_VERDICT, RETRY,
	  0, 0,
	  TEXTS(patterns[RULE_CAPTURE], NULL), NULL },
	{ "exit-on-match", 0, OPT_EXIT_ON_MATCH, NULL, G_VERDICT, RETRY, 0, 0,
	  FLAG(verdict.exit_on_match),
	  "at the first line that matches an until rule,\n"
	  "stop the command's group as --timeout does: a\n"
	  "success (exit 0)" },
	{ "delay-from-output-replaces", 0, OPT_DELAY_FROM_OUTPUT_REPLACES, NULL,
	  G_VERDICT, RETRY, 0, 0,
	  FLAG(limits.output_replaces),
	  "wait what a delay rule gives even when the\n"
	  "strategy's delay is longer" },
	{ "match", 0, OPT_MATCH, "STREAM", G_VERDICT, RETRY, 0, 0,
	  CHOICE(match, streams),
	  "stdout, stderr or both (default both)" },
	{ "fixed-strings", 'F', OPT_FIXED_STRINGS, NULL, G_VERDICT, RETRY, 0, 0,
	  FLAG(fixed_strings),
	  "take each RE as a plain string" },
	{ "ignore-case", 'i', OPT_IGNORE_CASE, NULL, G_VERDICT, RETRY, 0, 0,
	  FLAG(ignore_case),
	  "match without regard to case" },

	{ "stdin", 0, OPT_STDIN, "MODE", G_STREAMS, RETRY, 0, 0,
	  CHOICE(stdin_mode, stdin_modes),
	  "inherit (default), replay: the same input to\n"
	  "every attempt (a pipe recorded as the first\n"
	  "reads it, a file read again), or null" },
	{ "hold", 0, OPT_HOLD, "WHAT", G_STREAMS, RETRY, 0, 0,
	  OTHER_OF(hold_whats),
	  "stdout: only a successful attempt's stdout\n"
	  "reaches stdout, a failed one's goes to stderr\n"
	  "(also --hold-stdout); last: hold each attempt's\n"
	  "stdout and stderr, pass on only the last\n"
	  "attempt's (also --only-last)" },
	{ "hold-stdout", 0, OPT_HOLD_STDOUT, NULL, G_STREAMS, RETRY, 0, 0,
	  FLAG(hold_stdout), NULL },
	{ "only-last", 0, OPT_ONLY_LAST, NULL, G_STREAMS, RETRY, 0, 0,
	  FLAG(only_last), NULL },

	{ "log-format", 0, OPT_LOG_FORMAT, "FMT", G_REPORT, RETRY | SHR, 0, 0,
	  CHOICE(log_format, log_formats),
	  "text (default) or json: JSON Lines" },
	{ "ci", 0, OPT_CI, "CI", G_REPORT, RETRY, 0, 0,
	  CHOICE(ci, ci_modes),
	  "auto (default: GITHUB_ACTIONS or GITLAB_CI),\n"
	  "github, gitlab or none: each attempt's output\n"
	  "in a collapsible group, and an annotation\n"
	  "after failures, on stderr" },
	{ "log-file", 0, OPT_LOG_FILE, "FILE", G_REPORT, RETRY, 0, 0,
	  TEXT(log_file, "empty file name"),
	  "append every event to FILE too, timed (0600);\n"
	  "- is stderr" },
	{ "syslog", 0, OPT_SYSLOG, NULL, G_REPORT, RETRY, 0, 0,
	  FLAG(syslog),
	  "send every event to syslog too" },
	{ "on", 0, OPT_ON, "EVENT:CMD", G_REPORT, RETRY, 0, 0,
	  OTHER,
	  "run sh -c CMD on EVENT: retry, before each\n"
	  "back-off sleep; giveup, when the run ends in\n"
	  "failure; success, when it ends in success" },
	{ "on-retry", 0, OPT_ON_RETRY, "CMD", G_REPORT, RETRY, 0, 0,
	  TEXTS(on_retry, "empty command"), NULL },
	{ "on-giveup", 0, OPT_ON_GIVEUP, "CMD", G_REPORT, RETRY, 0, 0,
	  TEXTS(on_giveup, "empty command"), NULL },
	{ "on-success", 0, OPT_ON_SUCCESS, "CMD", G_REPORT, RETRY, 0, 0,
	  TEXTS(on_success, "empty command"), NULL },
	{ "result-file", 0, OPT_RESULT_FILE, "FILE", G_REPORT, RETRY, 0, 0,
	  TEXT(result_file, "empty file name"),
	  "append the run's figures to FILE as it ends,\n"
	  "key=value lines ($GITHUB_OUTPUT's format)" },
	{ "quiet", 'q', OPT_QUIET, NULL, G_REPORT, RETRY, 0, 0,
	  SET(verbosity, QUIET),
	  "report only retry's own errors" },
	{ "verbose", 0, OPT_VERBOSE, NULL, G_REPORT, RETRY, 0, 0,
	  SET(verbosity, VERBOSE),
	  "also report each start and each success (not\n"
	  "with -q)" },
	{ "label", 'm', OPT_LABEL, "LABEL", G_REPORT, RETRY, 0, 0,
	  LINE(label, "must be one non-empty line"),
	  "prefix reports with retry[LABEL]: instead\n"
	  "of the command's name (also --message)" },
	{ "message", 0, OPT_LABEL, "LABEL", G_REPORT, RETRY, 0, 0,
	  LINE(label, "must be one non-empty line"), NULL },
	{ "dry-run", 0, OPT_DRY_RUN, NULL, G_REPORT, RETRY, 0, 0,
	  FLAG(dry_run),
	  "print the schedule of an all-failing run" },

	{ "share", 0, OPT_SHARE, "NAME", G_SHARE, RETRY, 0, 0,
	  PARSED(share, P_SHARE_NAME),
	  "join the shared state NAME (letters, digits,\n"
	  "'.', '_', '-'): a retry budget, a breaker, and\n"
	  "a delay one run learns from its output" },
	{ "share-budget", 0, OPT_SHARE_BUDGET, "N[:R]", G_SHARE,
	  RETRY | SIM | SHR, 0, 0,
	  PARSED(share_rules, P_SHARE_BUDGET),
	  "N tokens (default 10); a retry runs only if\n"
	  "it can take one, a success gives R back\n"
	  "(default 0.2)" },
	{ "share-window", 0, OPT_SHARE_WINDOW, "DUR", G_SHARE, RETRY | SIM | SHR,
	  0, 0,
	  WITHIN(share_rules.window, SHARE_WINDOW_MIN, SHARE_WINDOW_MAX,
	      "give 1s to 1d"),
	  "N tokens come back every DUR, so a spent\n"
	  "budget is whole after DUR (default 60s,\n"
	  "1s to 1d); a state unused that long is dropped" },
	{ "share-breaker", 0, OPT_SHARE_BREAKER, "N:DUR", G_SHARE, RETRY | SIM,
	  0, 0,
	  PARSED(share_rules, P_SHARE_BREAKER),
	  "N failures in a row open it for DUR; then one\n"
	  "run probes, and its success closes it" },
	{ "share-open", 0, OPT_SHARE_OPEN, "MODE", G_SHARE, RETRY, 0, 0,
	  CHOICE(share_rules.give_up, share_open_modes),
	  "while it is open: wait (default) or giveup\n"
	  "(both end with 75 past --budget)" },
	{ "share-store", 0, OPT_SHARE_STORE, "STORE", G_SHARE, RETRY | SHR, 0, 0,
	  OTHER,
	  "file:DIR, redis://HOST[:PORT][,...][/DB] or\n"
	  "unix:///PATH (default $RETRY_SHARE_STORE, else\n"
	  "$XDG_RUNTIME_DIR/retry or /tmp/retry-UID); @FILE:\n"
	  "the store from FILE's first line (a URL with a\n"
	  "password goes there or in $RETRY_SHARE_STORE)" },
	{ "share-store-file", 0, OPT_SHARE_STORE_FILE, "FILE", G_SHARE,
	  RETRY | SHR | OPT_UNLISTED(MODE_RETRY) | OPT_UNLISTED(MODE_SHARE), 0, 0,
	  OTHER,
	  "the store from FILE's first line (a URL with\n"
	  "a password goes here or in $RETRY_SHARE_STORE)" },
	{ "share-timeout", 0, OPT_SHARE_TIMEOUT, "DUR[:CONNECT]", G_SHARE,
	  RETRY | SHR, 0, 0,
	  WITHIN(share_timeout, NS_PER_MS, 60 * NS_PER_SEC, "give 1ms to 60s"),
	  "give up on the store (a lock, an answer)\n"
	  "after DUR, or before an attempt half of what\n"
	  "is left of --budget if less; never past\n"
	  "--deadline (default 200ms); a new connection\n"
	  "to Redis (lookup, connect, TLS, greeting)\n"
	  "after CONNECT, cut the same way (default 2s,\n"
	  "or DUR if longer)" },
	{ "share-connect-timeout", 0, OPT_SHARE_CONNECT_TIMEOUT, "DUR", G_SHARE,
	  RETRY | SHR | OPT_UNLISTED(MODE_RETRY) | OPT_UNLISTED(MODE_SHARE), 0, 0,
	  WITHIN(share_connect_timeout, NS_PER_MS, 60 * NS_PER_SEC,
	  "give 1ms to 60s"),
	  "give up on a new connection to Redis (lookup,\n"
	  "connect, TLS, greeting) after DUR, cut as\n"
	  "--share-timeout is by --budget (default 2s, or\n"
	  "--share-timeout if longer)" },
	{ "share-required", 0, OPT_SHARE_REQUIRED, NULL, G_SHARE, RETRY, 0, 0,
	  FLAG(share_required),
	  "end with 75 when the store does not answer\n"
	  "(default: go on without it)" },

	{ "count", 0, OPT_COUNT, "N", G_SHOW, BOTH, 0, 0,
	  COUNT(count, 1, 10000000),
	  "at most N steps of an all-failing run (default 10)" },
	{ "format", 0, OPT_FORMAT, "FMT", G_SHOW, SHOW | SIM, 0, 0,
	  CHOICE(format, formats),
	  "plain, table, csv or json (default plain)" },
	{ "unit", 0, OPT_UNIT, "UNIT", G_SHOW, SHOW, 0, 0,
	  CHOICE(unit, units),
	  "s or ms (default s)" },
	{ "chart", 0, OPT_CHART, NULL, G_SHOW, SHOW | SIM, 0, 0,
	  FLAG(chart),
	  "draw a bar per delay, labelled with it to 6\n"
	  "digits, as wide as the terminal (COLUMNS, else\n"
	  "the terminal's width, else 80)" },
	{ "ascii", 0, OPT_ASCII, NULL, G_SHOW, SHOW | SIM, 0, 0,
	  FLAG(ascii),
	  "draw the chart with ASCII, not Unicode blocks" },
	{ "samples", 0, OPT_SAMPLES, "N", G_SHOW, SHOW, 0, 0,
	  COUNT(samples, 1, 100000),
	  "run N times (with jitter): per step, the runs\n"
	  "that go on, then min, median, p90, max;\n"
	  "with --chart, their spread" },

	{ "clients", 0, OPT_CLIENTS, "LIST", G_SIMULATE, SIM, 0, 0,
	  PARSED(clients, P_CLIENTS),
	  "numbers of clients, as in 10,50,100 or\n"
	  "10-190:20 (default 100)" },
	{ "failure-rate", 0, OPT_FAILURE_RATE, "LIST", G_SIMULATE, SIM, 0, 0,
	  PARSED(failure_rates, P_RATES),
	  "the load model instead: calls fail with each\n"
	  "probability P of LIST (0.5,0.9 or 0.1-0.9:0.2);\n"
	  "no retries, 3, 3 under a shared --share-budget,\n"
	  "and 3 behind a shared --share-breaker (20:1s)" },
	{ "runs", 0, OPT_RUNS, "N", G_SIMULATE, SIM, 0, 0,
	  COUNT(runs, 1, 100000),
	  "average over N runs (default 100; with --hedge\n"
	  "auto, N runs one after another, default 2000)" },
	{ "latency", 0, OPT_LATENCY, "LIST", G_SIMULATE, SIM, 0, 0,
	  PARSED(latency, P_LATENCY),
	  "the hedging model instead: an attempt takes each\n"
	  "DUR of LIST, DUR@P% with chance P, as in\n"
	  "20ms,2s@5% (the default with --hedge)" },
	{ "latency-after", 0, OPT_LATENCY_AFTER, "LIST", G_SIMULATE, SIM, 0,
	  0, PARSED(latency_after, P_LATENCY),
	  "with --hedge auto: the latency LIST from the\n"
	  "middle run on, a shift to learn" },

	{ "help", 'h', OPT_HELP, NULL, G_OTHER, ALL | SHR, 0, 0,
	  OTHER_OF(help_topics),
	  "show the options most runs need and exit;\n"
	  "all: every option" },
	{ "version", 'v', OPT_VERSION, NULL, G_OTHER, ALL | SHR, 0, 0,
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
	{ OPT_MAX, "at most N attempts (default 5; 0: no limit)" },
	{ OPT_BUDGET, "start no attempt that would begin after DUR" },
	{ OPT_DEADLINE, "end the run DUR after its start, attempt too" },
	{ OPT_TIMEOUT, "stop an attempt after DUR (status 124)" },
	{ OPT_EXP, "DUR, doubling each time (--factor F: x F)" },
	{ OPT_FIXED, "DUR every time" },
	{ OPT_LINEAR, "DUR x n: DUR, 2 x DUR, 3 x DUR, ..." },
	{ OPT_DELAY, "the n-th of a comma list; the last repeats" },
	{ OPT_MAX_DELAY, "never wait longer than DUR" },
	{ OPT_JITTER, "randomise each delay: none, full, equal, ..." },
	{ OPT_SUCCESS_ON, "statuses that count as success (default 0)" },
	{ OPT_RETRY_ON, "retry only these failures; stop on others" },
	{ OPT_STOP_ON, "stop at once on these statuses" },
	{ OPT_OUTPUT, "until:RE: a failure unless a line matches RE" },
	{ OPT_STDIN, "replay: every attempt reads the same input" },
	{ OPT_HOLD, "stdout: only a success's stdout reaches stdout" },
	{ OPT_HOLD, "last: pass on only the last attempt's output" },
	{ OPT_QUIET, "report only retry's own errors" },
	{ OPT_VERBOSE, "also report each start and each success" },
	{ OPT_LABEL, "prefix reports with retry[LABEL]:" },
	{ OPT_LOG_FILE, "append every event to FILE too, timed" },
	{ OPT_CI, "log groups: auto (default), github, gitlab, none" },
	{ OPT_DRY_RUN, "print the schedule of an all-failing run" },
	{ OPT_SHARE, "back off as one with every run that names NAME" },
	{ OPT_HELP, "show this help and exit; all: every option" },
	{ OPT_VERSION, "show the version and exit" },
};

_Static_assert(sizeof(optable_briefs) / sizeof(optable_briefs[0]) ==
    OPTABLE_BRIEFS, "OPTABLE_BRIEFS is the number of briefs");

const struct opt *
optable_row(enum opt_id id)
{
	const struct opt *first = NULL;

	for (size_t i = 0; i < OPTABLE_ROWS; i++)
		if (optable[i].id == id && optable[i].help != NULL)
			return &optable[i];
		else if (optable[i].id == id && first == NULL)
			first = &optable[i];
	return first != NULL ? first : &optable[0];
}

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
 * lists, output rules, hooks, what is held.  Any other given again, the
 * last counts. */
static const enum opt_id adds[] = {
	OPT_SUCCESS_ON, OPT_RETRY_ON, OPT_STOP_ON,
	OPT_UNTIL_OUTPUT, OPT_FAIL_IF_OUTPUT, OPT_RETRY_IF_OUTPUT, OPT_STOP_IF_OUTPUT,
	OPT_DELAY_FROM_OUTPUT,
	OPT_ON_RETRY, OPT_ON_GIVEUP, OPT_ON_SUCCESS, OPT_ON, OPT_HOLD,
	OPT_OUTPUT,
};

bool
optable_optional(const struct opt *o)
{
	return o->metavar == NULL && o->kind == K_OTHER && o->data != NULL;
}

bool
optable_listed(const struct opt *o, enum mode mode)
{
	const unsigned bit = 1u << mode;

	return o->help != NULL && (o->modes & bit) &&
	    !(o->modes & OPT_UNLISTED(mode));
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
	{ OPT_UNTIL, OPT_SUCCESS_ON, C_BOTH, RETRY,
	  "both say which statuses succeed" },
	{ OPT_WHILE, OPT_SUCCESS_ON, C_BOTH, RETRY,
	  "both say which statuses succeed" },
	{ OPT_STOP_ON, OPT_RETRY_ON, C_STATUS, RETRY,
	  "a status is either stopped on or retried" },
	{ OPT_RETRY_ON, OPT_SUCCESS_ON, C_STATUS, RETRY,
	  "a success is never retried" },
	{ OPT_RETRY_ON, OPT_UNTIL, C_STATUS, RETRY,
	  "a status that meets --until ends the run" },
	{ OPT_MIN_DELAY, OPT_MAX_DELAY, C_ABOVE, RETRY | SIM,
	  "no delay can be both" },
	{ OPT_VERBOSE, OPT_QUIET, C_BOTH, RETRY,
	  "give one" },
	{ OPT_HEDGE, OPT_FOREGROUND, C_BOTH, RETRY,
	  "attempts side by side never hold the terminal" },
	{ OPT_HEDGE, OPT_HOLD_STDOUT, C_BOTH, RETRY,
	  "a hedged attempt's output is held whole already" },
	{ OPT_HEDGE, OPT_ONLY_LAST, C_BOTH, RETRY,
	  "a hedged run passes on one attempt's output already" },
	{ OPT_HEDGE, OPT_FOREVER, C_BOTH, RETRY,
	  "a run that goes on after a success has no winner" },
	{ OPT_HEDGE, OPT_EXIT_ON_MATCH, C_BOTH, RETRY,
	  "a hedged attempt's output is matched once it ends" },
};

_Static_assert(sizeof(optable_conflicts) / sizeof(optable_conflicts[0]) ==
    OPTABLE_CONFLICTS, "OPTABLE_CONFLICTS is the number of conflicts");
