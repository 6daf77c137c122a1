/*
 * The run policy over tables of attempts.  A row gives retry's options, the
 * attempts as observed, and what the policy must say after each one.
 *
 * An attempt: an exit status (7) or a signal it died of (TERM), then
 * optionally "+DUR", how long it ran; "=ufrs", the output rules its output
 * met (--until-output, --fail-if-output, --retry-if-output,
 * --stop-if-output); "~TEXT", what --delay-from-output captured, '_' for a
 * space; and "!" after PIPE: the reader of retry's output has gone.
 * Attempts follow each other as in a run: each starts when the delay
 * before it ends.
 *
 * What the policy says: "sleep DUR" ("asked" when the output chose it,
 * "strategy (ASKED)" when the strategy's delay was longer than what the
 * output asked for, "unusable" when the output's was no delay), "exit
 * STATUS" or "die SIGNAL", then why the run ended; "@N" when the attempt's
 * number is not its place in the run (a --forever reset).
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/codes.h"
#include "../../src/duration.h"
#include "../../src/options.h"
#include "../../src/policy.h"
#include "unit.h"

/* The time of day for an HTTP-date: Tue, 14 Nov 2023 22:13:20 GMT. */
#define WALL	1700000000

static const struct row {
	const char	*name;
	const char	*options;
	const char	*attempts;
	const char	*want;
} rows[] = {
	/* The strategies, and --max. */
	{ "the default: --exp 1s, 5 attempts", "", "1 1 1 1 1",
	  "sleep 1s; sleep 2s; sleep 4s; sleep 8s; exit 1 max" },
	{ "a first success", "", "0", "exit 0" },
	{ "a success after a failure", "", "1 0", "sleep 1s; exit 0" },
	{ "--max 1: no retry", "-n 1", "1", "exit 1 max" },
	{ "the last attempt's status", "-n 2 -d 3s", "7 9",
	  "sleep 3s; exit 9 max" },
	{ "--linear", "--linear 1s -n 4", "1 1 1 1",
	  "sleep 1s; sleep 2s; sleep 3s; exit 1 max" },
	{ "--fib", "--fib 1s -n 6", "1 1 1 1 1 1",
	  "sleep 1s; sleep 1s; sleep 2s; sleep 3s; sleep 5s; exit 1 max" },
	{ "--delays: the last repeats", "--delays 1s,5s -n 4", "1 1 1 1",
	  "sleep 1s; sleep 5s; sleep 5s; exit 1 max" },
	{ "--immediate", "--immediate -n 3", "1 1 1",
	  "sleep 0s; sleep 0s; exit 1 max" },
	{ "--factor", "--exp 1s --factor 3 -n 4", "1 1 1 1",
	  "sleep 1s; sleep 3s; sleep 9s; exit 1 max" },
	{ "--max-delay", "--exp 1s --max-delay 3s -n 5", "1 1 1 1 1",
	  "sleep 1s; sleep 2s; sleep 3s; sleep 3s; exit 1 max" },
	{ "--min-delay wins", "-d 1s --min-delay 2s --max-delay 1s -n 2",
	  "1 1", "sleep 2s; exit 1 max" },
	{ "--max 0: no limit", "-n 0 -d 1s", "1 1 1 1 1 1 1 1 0",
	  "sleep 1s; sleep 1s; sleep 1s; sleep 1s; sleep 1s; sleep 1s; "
	  "sleep 1s; sleep 1s; exit 0" },
	{ "--max 0: growth is capped at 5m", "-n 0 --exp 1m", "1 1 1 1 1 0",
	  "sleep 1m; sleep 2m; sleep 4m; sleep 5m; sleep 5m; exit 0" },
	{ "--max 0 with --max-delay: that cap", "-n 0 --exp 1m --max-delay 1h",
	  "1 1 1 1 1 1 1", "sleep 1m; sleep 2m; sleep 4m; sleep 8m; "
	  "sleep 16m; sleep 32m; sleep 1h" },
	{ "a fixed delay is not capped", "-n 0 -d 10m", "1 1",
	  "sleep 10m; sleep 10m" },
	{ "--timeout's 124 is a failure", "-n 2 -d 0", "124 0",
	  "sleep 0s; exit 0" },
	{ "an attempt that could not start", "-n 2 -d 0", "125 125",
	  "sleep 0s; exit 125 max" },
	{ "-a Constant", "-a Constant --delay 2 -n 3", "1 1 1",
	  "sleep 2s; sleep 2s; exit 1 max" },
	{ "-a Exponential without a limit, within a budget",
	  "-a Exponential --initial-delay 1 --budget 5s", "1 1 1",
	  "sleep 1s; sleep 2s; exit 1 budget" },
	{ "-a MIMD halves on a success",
	  "-a MIMD --initial-delay 1 --delay-multiple-on-failure 2 "
	  "--delay-multiple-on-success 0.5 --forever", "1 1 0 1",
	  "sleep 1s; sleep 2s; sleep 1s; sleep 2s" },
	{ "-a LILD ends on a success",
	  "-a LILD --initial-delay 1 --delay-increment-on-failure 1 "
	  "--delay-increment-on-success -1", "1 1 1 0",
	  "sleep 1s; sleep 2s; sleep 3s; exit 0" },

	/* Statuses. */
	{ "a failure by the output never exits 0",
	  "--fail-if-output x -n 2 -d 0", "0=f 0=f", "sleep 0s; exit 1 max" },
	{ "--until-output met", "--until-output ok -n 2 -d 0", "0 0=u",
	  "sleep 0s; exit 0" },
	{ "--until-output met by a failing status",
	  "--until-output ok -n 2 -d 0", "3=u 3=u", "sleep 0s; exit 3 max" },
	{ "--fail-if-output then clean", "--fail-if-output e -n 3 -d 0",
	  "0=f 0", "sleep 0s; exit 0" },
	{ "--success-on adds no 0", "--success-on 3 -n 2 -d 0", "0 0",
	  "sleep 0s; exit 1 max" },
	{ "--success-on", "--success-on 0,3", "3", "exit 0" },
	{ "--stop-on", "--stop-on 2 -n 5", "1 2", "sleep 1s; exit 2 stop_on" },
	/* Debian's retry's criteria: the last status, whatever it is. */
	{ "--until: its status ends the run", "-t 5 -d 0 -u 3", "0 0 3",
	  "sleep 0s; sleep 0s; exit 3" },
	{ "--until: the attempts run out", "-t 3 -d 1 -u 3", "0 1 0",
	  "sleep 1s; sleep 1s; exit 0 max" },
	{ "--until fail", "-t 3 -d 0 -u fail", "0 0 4",
	  "sleep 0s; sleep 0s; exit 4" },
	{ "--until false, a range, any one of a list", "-d 0 -u false,2-4",
	  "0 3", "sleep 0s; exit 3" },
	{ "--until success is the default's meaning", "-t 5 -d 0 -u success",
	  "1 1 0", "sleep 0s; sleep 0s; exit 0" },
	{ "--until: a signal ends the run", "-t 5 -d 0 -u true", "1 KILL",
	  "sleep 0s; exit 137 signalled" },
	{ "--until: even a signal it names by status", "-t 5 -d 0 -u 143",
	  "TERM", "exit 143 signalled" },
	{ "--until: Ctrl-C as ever", "-t 5 -u fail", "INT",
	  "die 2 interrupted" },
	{ "--while: retried while it holds", "-t 5 -d 0 -w 0-2", "1 2 0 5",
	  "sleep 0s; sleep 0s; sleep 0s; exit 5" },
	{ "--while success", "-t 5 -d 0 -w true", "0 0 1",
	  "sleep 0s; sleep 0s; exit 1" },
	{ "--while: the attempts run out", "-t 2 -d 0 -w 1", "1 1",
	  "sleep 0s; exit 1 max" },
	{ "--while: a signal ends the run", "-t 5 -d 0 -w 0-255", "SEGV",
	  "exit 139 signalled" },
	{ "--until then --while: the last counts", "-t 3 -d 0 -u 3 -w 1",
	  "1 1 3", "sleep 0s; sleep 0s; exit 3" },
	{ "--while then --until: the last counts", "-t 3 -d 0 -w 1 -u 3",
	  "1 1 3", "sleep 0s; sleep 0s; exit 3" },
	{ "--while then --success-on: the last counts, with its rules",
	  "-t 3 -d 0 -w 1 --success-on 1", "0 1", "sleep 0s; exit 0" },
	{ "--until then --success-on: a failed run never exits 0",
	  "-t 2 -d 0 -u 0 --success-on 1", "0 0", "sleep 0s; exit 1 max" },
	{ "--until then --success-on: a signal is a failure again",
	  "-t 2 -d 0 -u 3 --success-on 0", "TERM 0", "sleep 0s; exit 0" },
	{ "--times -1: no limit", "-t -1 -d 1,2", "1 1 1 1 1 1 0",
	  "sleep 1s; sleep 2s; sleep 2s; sleep 2s; sleep 2s; sleep 2s; "
	  "exit 0" },
	{ "--delay: the last repeats", "-t 4 --delay 1,5s", "1 1 1 1",
	  "sleep 1s; sleep 5s; sleep 5s; exit 1 max" },
	{ "--stop-on 0 ends with 0", "--stop-on 0", "0", "exit 0 stop_on" },
	{ "--stop-on a signal", "--stop-on TERM", "TERM",
	  "exit 143 stop_on" },
	{ "--stop-on comes before Ctrl-C", "--stop-on 130", "INT",
	  "exit 130 stop_on" },
	{ "--stop-if-output", "--stop-if-output fatal -n 5", "1 0=s",
	  "sleep 1s; exit 1 stop_output" },
	{ "--retry-on: another failure stops", "--retry-on 75 -n 5 -d 1s",
	  "75 1", "sleep 1s; exit 1 not_retried" },
	{ "--retry-if-output", "--retry-if-output busy -n 3 -d 0", "1=r 1",
	  "sleep 0s; exit 1 not_retried" },
	{ "--retry-on or --retry-if-output",
	  "--retry-on 75 --retry-if-output busy -n 3 -d 0", "1=r 75 2",
	  "sleep 0s; sleep 0s; exit 2 not_retried" },
	{ "--retry-on: a success is still one", "--retry-on 75", "0",
	  "exit 0" },

	/* Signals and readers. */
	{ "Ctrl-C", "-n 5", "INT", "die 2 interrupted" },
	{ "Ctrl-\\", "-n 5", "QUIT", "die 3 interrupted" },
	{ "Ctrl-C is no success", "--success-on 0,130", "INT",
	  "die 2 interrupted" },
	{ "TERM and KILL are failures", "-n 5 -d 0", "TERM KILL 0",
	  "sleep 0s; sleep 0s; exit 0" },
	{ "a signal's status", "-n 2 -d 0", "TERM TERM",
	  "sleep 0s; exit 143 max" },
	{ "SIGPIPE with the reader gone", "-n 5", "PIPE!",
	  "die 13 reader_gone" },
	{ "the reader gone comes first", "--stop-on 141", "PIPE!",
	  "die 13 reader_gone" },
	{ "SIGPIPE from a reader of its own", "-n 5 -d 0", "PIPE 0",
	  "sleep 0s; exit 0" },

	/* --budget: no attempt starts past it. */
	{ "--budget", "--budget 10s -x 1s -n 0", "1 1 1 1",
	  "sleep 1s; sleep 2s; sleep 4s; exit 1 budget" },
	{ "--budget counts the attempts' time", "--budget 5s -d 1s",
	  "1+2s 1+2s", "sleep 1s; exit 1 budget" },
	{ "--budget: an attempt may start at its end", "--budget 3s -d 1s",
	  "1+2s 1", "sleep 1s; exit 1 budget" },
	{ "--budget before --max", "--budget 2s -d 1s -n 2", "1+1500ms",
	  "exit 1 budget" },
	{ "--forever: a success past the budget exits 0",
	  "--forever --budget 3s -d 1s --delay-on-success 2s", "0+2s",
	  "exit 0 budget" },

	/* --max-actual-duration: a failure that late gives up. */
	{ "--max-actual-duration", "--max-actual-duration 5 -d 1s -n 0",
	  "1+3s 1+3s", "sleep 1s; exit 1 duration" },
	{ "--max before --max-actual-duration",
	  "--max-actual-duration 1 -n 1", "1+1s", "exit 1 max" },
	{ "--max-actual-duration before the engine's --max",
	  "--max-actual-duration 1 -n 2 -d 0", "1 1+1s", "sleep 0s; "
	  "exit 1 max" },
	{ "--max-actual-duration: a success goes on",
	  "--forever --max-actual-duration 2 -d 1s", "0+3s 1",
	  "sleep 0s; exit 1 duration" },

	/* --forever. */
	{ "--forever: successes go on", "--forever -d 1s", "0 0 1 0",
	  "sleep 0s; sleep 0s; sleep 1s; sleep 0s" },
	{ "--forever: --max counts failures in a row", "--forever -n 2 -d 1s",
	  "1 0 1 1", "sleep 1s; sleep 0s; sleep 1s; exit 1 max" },
	{ "--forever: the back-off starts over after a success",
	  "--forever -n 0 --exp 1s", "1 1 0 1 1",
	  "sleep 1s; sleep 2s; sleep 0s; sleep 1s; sleep 2s" },
	{ "--forever --stop-on", "--forever --stop-on 3 -d 0", "0 3",
	  "sleep 0s; exit 3 stop_on" },
	{ "--forever -n 1", "--forever -n 1", "1", "exit 1 max" },
	{ "--forever --delay-on-success", "--forever --delay-on-success 30s",
	  "0 0", "sleep 30s; sleep 30s" },

	/* --exit-on-match: retry stopped the attempt on the match (0), or
	 * the attempt's own end raced it. */
	{ "--exit-on-match: the match is a success", "--until-output ok "
	  "--exit-on-match -n 2 -d 0", "1 0=u", "sleep 0s; exit 0" },
	{ "--exit-on-match: a match wins over the status it raced",
	  "--until-output ok --exit-on-match -n 2", "TERM=u", "exit 0" },
	{ "--exit-on-match: a match wins over --success-on",
	  "--until-output ok --exit-on-match --success-on 3", "1=u",
	  "exit 0" },
	{ "--exit-on-match: no match is a failure, timed out or not",
	  "--until-output ok --exit-on-match -n 3 -d 0", "124 0 0",
	  "sleep 0s; sleep 0s; exit 1 max" },
	{ "--exit-on-match: --fail-if-output before the match wins",
	  "--until-output ok --fail-if-output err --exit-on-match -n 2 -d 0",
	  "0=uf 0=u", "sleep 0s; exit 0" },
	{ "--exit-on-match: --stop-if-output before the match wins",
	  "--until-output ok --stop-if-output no --exit-on-match", "0=us",
	  "exit 1 stop_output" },
	{ "--exit-on-match: Ctrl-C still stops the run",
	  "--until-output ok --exit-on-match", "INT=u", "die 2 interrupted" },
	{ "--exit-on-match with --until: exit 0 all the same",
	  "-t 3 -d 0 -u 3 --until-output ok --exit-on-match", "0 1=u",
	  "sleep 0s; exit 0" },
	{ "--exit-on-match --forever: each match a success, and again",
	  "--forever -n 2 -d 1s --until-output ok --exit-on-match",
	  "0=u 0 TERM=u 1 0", "sleep 0s; sleep 1s; sleep 0s; sleep 1s; "
	  "exit 1 max" },

	/* --reset-after. */
	{ "--reset-after: the delays start over, --max still counts",
	  "-n 3 --exp 1s --reset-after 10s", "1 1+10s 1",
	  "sleep 1s; sleep 1s; exit 1 max" },
	{ "--reset-after --forever: the count starts over too",
	  "--forever -n 2 --exp 1s --reset-after 10s", "1 1+10s 1 1",
	  "sleep 1s; sleep 1s @1; exit 1 max @2" },
	{ "--reset-after: not the first attempt", "--reset-after 1s -n 2 -d 1s",
	  "1+5s 1", "sleep 1s; exit 1 max" },
	{ "--reset-after: shorter attempts do not",
	  "--reset-after 10s -n 0 --exp 1s", "1 1+9s 1+10s 1",
	  "sleep 1s; sleep 2s; sleep 1s; sleep 2s" },

	/* --delay-from-output: the longer of what the output asks for and
	 * the strategy's delay. */
	{ "a delay asked for", "--delay-from-output ([0-9]+) -d 5s -n 3",
	  "1~9 1 1", "sleep 9s asked; sleep 5s; exit 1 max" },
	{ "a delay asked for, shorter than the strategy's",
	  "--delay-from-output ([0-9]+) -d 5s -n 3",
	  "1~1 1 1", "sleep 5s strategy (1s); sleep 5s; exit 1 max" },
	{ "Retry-After: 0 under --fixed 10s: 10s",
	  "--delay-from-output (.+) --fixed 10s", "1~0",
	  "sleep 10s strategy (0s)" },
	{ "a delay asked for against a growing strategy",
	  "--delay-from-output (.+) --exp 1s", "1~3 1~3 1~3 1~3",
	  "sleep 3s asked; sleep 3s asked; sleep 4s strategy (3s); "
	  "sleep 8s strategy (3s)" },
	{ "a delay asked for, as long as the strategy's: asked",
	  "--delay-from-output (.+) -d 5s", "1~5", "sleep 5s asked" },
	{ "a delay asked for against the strategy's after its jitter",
	  "--delay-from-output (.+) --fixed 10s --jitter full",
	  "1~5 1~5 1~5 1~5", "sleep 8.807s strategy (5s); sleep 5s asked; "
	  "sleep 8.463s strategy (5s); sleep 9.868s strategy (5s)" },
	{ "a delay asked for, below --min-delay",
	  "--delay-from-output (.+) --min-delay 2s -d 5s", "1~0",
	  "sleep 5s strategy (0s)" },
	{ "a delay asked for, below --min-delay, as is the strategy's",
	  "--delay-from-output (.+) --min-delay 2s --immediate", "1~0",
	  "sleep 2s asked (0s)" },
	{ "a delay asked for, held at an hour; a longer fixed delay stands",
	  "--delay-from-output (.+) --fixed 2h", "1~99999",
	  "sleep 2h strategy (1d3h46m39s)" },
	{ "a delay asked for as a Unix time",
	  "--delay-from-output (.+) -d 5s", "1~1700000030",
	  "sleep 30s asked" },
	{ "a delay asked for as a Unix time with a fraction",
	  "--delay-from-output (.+) -d 5s", "1~1700000030.25",
	  "sleep 30.25s asked" },
	{ "a delay asked for as a Unix time gone by",
	  "--delay-from-output (.+) -d 5s", "1~1699999999",
	  "sleep 5s strategy (0s)" },
	{ "a delay asked for as a Unix time past the cap",
	  "--delay-from-output (.+) -d 5s", "1~1700090000",
	  "sleep 1h asked (1d1h)" },
	{ "a delay asked for in seconds, just short of a Unix time",
	  "--delay-from-output (.+) -d 5s --max-delay 365d", "1~999999999",
	  "sleep 365d asked" },
	/* --delay-from-output-replaces: what the output asks for, even when
	 * the strategy's is longer. */
	{ "replaces: a delay asked for",
	  "--delay-from-output ([0-9]+) --delay-from-output-replaces -d 5s "
	  "-n 3", "1~1 1 1", "sleep 1s asked; sleep 5s; exit 1 max" },
	{ "replaces: Retry-After: 0 under --fixed 10s",
	  "--delay-from-output (.+) --delay-from-output-replaces --fixed 10s",
	  "1~0", "sleep 0s asked" },
	{ "replaces: a delay asked for, below --min-delay",
	  "--delay-from-output (.+) --delay-from-output-replaces "
	  "--min-delay 2s -d 5s", "1~0", "sleep 2s asked (0s)" },
	{ "replaces: a delay asked for as an HTTP-date gone by",
	  "--delay-from-output (.+) --delay-from-output-replaces -d 5s",
	  "1~Tue,_14_Nov_2023_22:13:00_GMT", "sleep 0s asked" },
	{ "replaces: a fixed delay longer than the cap",
	  "--delay-from-output (.+) --delay-from-output-replaces --fixed 2h",
	  "1~99999", "sleep 1h asked (1d3h46m39s)" },
	{ "a delay asked for, above --max-delay",
	  "--delay-from-output (.+) --max-delay 10s -d 5s", "1~99",
	  "sleep 10s asked (1m39s)" },
	{ "a delay asked for: at most an hour",
	  "--delay-from-output (.+) -d 5s", "1~99999",
	  "sleep 1h asked (1d3h46m39s)" },
	{ "a delay asked for as a duration",
	  "--delay-from-output (.+) -d 5s", "1~1m30s", "sleep 1m30s asked" },
	{ "a delay asked for as an HTTP-date",
	  "--delay-from-output (.+) -d 5s",
	  "1~Tue,_14_Nov_2023_22:13:30_GMT", "sleep 10s asked" },
	{ "a delay asked for as an HTTP-date gone by",
	  "--delay-from-output (.+) -d 5s",
	  "1~Tue,_14_Nov_2023_22:13:00_GMT", "sleep 5s strategy (0s)" },
	{ "a delay asked for that is none: the strategy's",
	  "--delay-from-output (.+) -d 5s", "1~soon", "sleep 5s unusable" },
	{ "a delay asked for on the last attempt",
	  "--delay-from-output (.+) -n 1", "1~1", "exit 1 max" },
	{ "a delay asked for by a success: not taken",
	  "--forever --delay-from-output (.+) -d 5s", "0~7", "sleep 0s" },
	{ "a delay asked for past the budget",
	  "--delay-from-output (.+) --budget 10s -d 1s", "1~20",
	  "exit 1 budget" },
};

#define NROWS	(sizeof(rows) / sizeof(rows[0]))

/* Splits s at spaces into argv[1..], after "retry", then the command. */
static int
split(const char *s, char *buf, size_t bufsz, char **argv, int max)
{
	static char retry[] = "retry", cmd[] = "cmd";
	int n = 0;

	snprintf(buf, bufsz, "%s", s);
	argv[n++] = retry;
	for (char *t = strtok(buf, " "); t != NULL && n < max - 2;
	    t = strtok(NULL, " "))
		argv[n++] = t;
	argv[n++] = cmd;
	argv[n] = NULL;
	return n;
}

/* One attempt of a row: what it observed, and how long it ran. */
static const char *
observe(char *tok, struct observed *o, int64_t *ran, char *capture)
{
	char *p;
	int sig;

	memset(o, 0, sizeof(*o));
	*ran = 0;
	if ((p = strchr(tok, '~')) != NULL) {
		*p++ = '\0';
		strlcpy(capture, p, CAPTURE_MAX);
		for (char *u = capture; (u = strchr(u, '_')) != NULL; u++)
			*u = ' ';
		o->capture = capture;
		o->wall = WALL;
	}
	if ((p = strchr(tok, '=')) != NULL) {
		*p++ = '\0';
		for (; *p != '\0'; p++)
			o->matched[strchr("ufrs", *p) - "ufrs"] = true;
	}
	if ((p = strchr(tok, '+')) != NULL) {
		*p++ = '\0';
		if (duration_parse(p, ran) != NULL)
			return "a bad duration";
	}
	if ((p = strchr(tok, '!')) != NULL) {
		*p = '\0';
		o->reader_gone = true;
	}
	if (tok[0] >= '0' && tok[0] <= '9')
		o->status = atoi(tok);
	else if (signal_parse(tok, &sig) == NULL) {
		o->signal = sig;
		o->status = 128 + sig;
	} else
		return "a bad attempt";
	return NULL;
}

static const char *
ending(const struct next *x)
{
	static const char *const why[] = {
		[WHY_NONE] = "", [WHY_STOP_ON] = " stop_on",
		[WHY_STOP_OUTPUT] = " stop_output",
		[WHY_INTERRUPTED] = " interrupted",
		[WHY_FAIL_OUTPUT] = "", [WHY_NO_UNTIL] = "",
		[WHY_NOT_RETRY_ON] = " not_retried",
		[WHY_READER_GONE] = " reader_gone",
		[WHY_SIGNALLED] = " signalled",
	};
	static const char *const limit[] = {
		[GIVE_UP_NONE] = "", [GIVE_UP_MAX] = " max",
		[GIVE_UP_BUDGET] = " budget", [GIVE_UP_DURATION] = " duration",
	};

	if (x->give_up != GIVE_UP_NONE)
		return limit[x->give_up];
	return x->outcome.verdict == V_STOP ? why[x->outcome.reason] : "";
}

/* What the policy says of a row's attempts, in the row's words. */
static void
replay(const struct row *r, const struct config *c, struct rng *rng,
    char *got, size_t gotsz)
{
	struct policy pol;
	struct observed o;
	struct next x;
	char buf[1024], d[DURATION_BUFSZ], w[DURATION_BUFSZ];
	char capture[CAPTURE_MAX], *tok, *save;
	const char *why;
	int64_t t = 0, ran;
	size_t len = 0;
	unsigned long place = 0;

	got[0] = '\0';
	policy_init(&pol, &c->backoff, &c->limits, &c->verdict, rng);
	snprintf(buf, sizeof(buf), "%s", r->attempts);
	for (tok = strtok_r(buf, " ", &save); tok != NULL;
	    tok = strtok_r(NULL, " ", &save)) {
		if (len > 0)
			len += (size_t)snprintf(got + len, gotsz - len, "; ");
		if ((why = observe(tok, &o, &ran, capture)) != NULL) {
			snprintf(got + len, gotsz - len, "%s: %s", tok, why);
			return;
		}
		o.start = t;
		o.end = t + ran;
		o.end_s = (double)o.end / 1e9;
		x = policy_next(&pol, &o);
		place++;
		/* Held within --min-delay and --max-delay: "(what was
		 * asked)". */
		if (x.what == NEXT_SLEEP && x.hinted && !x.asked)
			len += (size_t)snprintf(got + len, gotsz - len,
			    "sleep %s strategy (%s)", duration_format(
			    x.delay.ns, d, sizeof(d)), duration_format(
			    x.wanted, w, sizeof(w)));
		else if (x.what == NEXT_SLEEP && x.asked &&
		    x.wanted != x.delay.ns)
			len += (size_t)snprintf(got + len, gotsz - len,
			    "sleep %s asked (%s)", duration_format(x.delay.ns,
			    d, sizeof(d)), duration_format(x.wanted, w,
			    sizeof(w)));
		else if (x.what == NEXT_SLEEP)
			len += (size_t)snprintf(got + len, gotsz - len,
			    "sleep %s%s%s", duration_format(x.delay.ns, d,
			    sizeof(d)), x.asked ? " asked" : "",
			    x.unusable != NULL ? " unusable" : "");
		else
			len += (size_t)snprintf(got + len, gotsz - len, "%s %d%s",
			    x.what == NEXT_DIE ? "die" : "exit", x.status,
			    ending(&x));
		if (x.attempt != place)
			len += (size_t)snprintf(got + len, gotsz - len, " @%lu",
			    x.attempt);
		if (x.what != NEXT_SLEEP)
			break;
		t = o.end + x.delay.ns;
	}
}

static void
rows_policy(void)
{
	char *argv[64], buf[1024], err[256], got[2048];
	struct config c;
	struct rng rng;

	for (size_t i = 0; i < NROWS; i++) {
		const struct row *r = &rows[i];
		const int argc = split(r->options, buf, sizeof(buf), argv, 64);

		if (options_parse(argc, argv, MODE_RETRY, &c, err,
		    sizeof(err)) != 0) {
			unit_row(false, "policy", r->name, "options: %s", err);
			continue;
		}
		rng_seed(&rng, 1);
		replay(r, &c, &rng, got, sizeof(got));
		unit_row(strcmp(got, r->want) == 0, "policy", r->name,
		    "want %s\n# got  %s", r->want, got);
		options_free(&c);
	}
}

/* --timeout, cut to what is left of --budget. */
static void
rows_timeout(void)
{
	static const struct {
		int64_t	 timeout, budget, elapsed, want;
	} t[] = {
		{ 10, -1, 5, 10 }, { -1, 10, 5, -1 }, { 10, 12, 5, 7 },
		{ 10, 12, 15, 0 }, { 3, 12, 5, 3 }, { 10, 12, 12, 0 },
		{ -1, -1, 0, -1 },
	};
	const struct verdict_rules rules = { 0 };
	struct policy p;
	struct backoff b = { 0 };
	struct limits l;
	char name[64];

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		l = (struct limits){ .budget = t[i].budget,
		    .timeout = t[i].timeout, .reset_after = -1 };
		policy_init(&p, &b, &l, &rules, NULL);
		snprintf(name, sizeof(name), "timeout %lld, budget %lld, at %lld",
		    (long long)t[i].timeout, (long long)t[i].budget,
		    (long long)t[i].elapsed);
		unit_row(policy_timeout(&p, t[i].elapsed) == t[i].want,
		    "policy_timeout", name, "want %lld, got %lld",
		    (long long)t[i].want,
		    (long long)policy_timeout(&p, t[i].elapsed));
	}
}

static void
rows_cannot_run(void)
{
	static const struct {
		int	 e, want;
	} t[] = {
		{ ENOENT, 127 }, { ENOTDIR, 127 }, { EACCES, 126 },
		{ ENOEXEC, 126 }, { ELOOP, 126 }, { E2BIG, 126 },
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		unit_row(policy_cannot_run(t[i].e) == t[i].want,
		    "policy_cannot_run", strerror(t[i].e), "want %d, got %d",
		    t[i].want, policy_cannot_run(t[i].e));
}

void
unit_policy(void)
{
	rows_policy();
	rows_timeout();
	rows_cannot_run();
}
