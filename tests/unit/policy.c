/*
 * The run policy over tables of runs: every way a run goes on or ends is a
 * row.  A row gives retry's options, what was observed, step by step, and
 * what the policy must say after each step.
 *
 * An attempt: an exit status (7) or a signal it died of (TERM), or
 * "exec:ERRNO", a command that could not be run (ENOENT, ENOTDIR, EACCES,
 * ENOEXEC); then optionally "+DUR", how long it ran; "=ufrs", the output
 * rules its output met (--until-output, --fail-if-output,
 * --retry-if-output, --stop-if-output); "~TEXT", what --delay-from-output
 * captured, '_' for a space; "!" after PIPE: the reader of retry's output
 * has gone; "%": it ended in the foreground of the terminal that is
 * retry's stdout; "^SIG": a signal that ends the run came to retry during it;
 * "#": retry could not pass its output on.  Attempts follow each other as
 * in a run: each starts when the delay before it ends.
 *
 * After an attempt, with --share, what shared state answered its record:
 * "counted" (a retry may take a token), "spent" (the budget has none) or
 * "unanswered" (the store is down), then optionally "+DUR", the time the
 * store took; and what writing its held output met: "output:SIG" (a
 * signal), "output:error" or "output:gone" (its reader has gone).
 *
 * Before an attempt, with --share, the gate's answer: "gate:go",
 * "gate:probe", a wait ("gate:open:DUR", "gate:probing:DUR",
 * "gate:not_before:DUR": the breaker is open, another run probes it,
 * another run's output asked for a delay), a give-up ("gate:giveup:open",
 * "gate:giveup:probe": --share-open giveup), or "gate:down": no answer.
 * A store that gives no answer is down with --share-required.
 *
 * Between attempts (a sleep, a hook, a wait): "signal:SIG", a signal that
 * ends the run came to retry, or "gone": the reader of its output went.
 *
 * What the policy says: "go", "probe" or "wait DUR" before an attempt;
 * "sleep DUR" ("asked" when the output chose it, "strategy (ASKED)" when
 * the strategy's delay was longer than what the output asked for,
 * "unusable" when the output's was no delay), "exit STATUS" or "die SIGNAL", then why the run
 * ended; "@N" when the attempt's number is not its place in the run (a
 * --forever reset); ", others DUR" when the output asks the other runs of
 * --share to wait; ", no --on-giveup" for a run that ends without success
 * and without giving up (--on-giveup is not run), and ", succeeded and
 * gave up" for a run that ends both ways, which no row may say.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "codes.h"
#include "duration.h"
#include "options.h"
#include "policy.h"
#include "share.h"
#include "unit.h"

/* The time of day for an HTTP-date, in ns: Tue, 14 Nov 2023 22:13:20 GMT. */
#define WALL	(INT64_C(1700000000) * NS_PER_SEC)

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

	/* --retry-on STATUS:N: an item's statuses retried N times at most,
	 * counted over the run, each item on its own. */
	{ "--retry-on 1:2: status 1 retried twice, then the run gives up",
	  "--retry-on 1:2,75 -d 1s", "1 1 1",
	  "sleep 1s; sleep 1s; exit 1 limit 1:2" },
	{ "--retry-on 1:2,75: 75 up to --max",
	  "--retry-on 1:2,75 -d 1s -n 5", "75 75 75 75 75",
	  "sleep 1s; sleep 1s; sleep 1s; sleep 1s; exit 75 max" },
	{ "--retry-on 1:2: in all, not in a row",
	  "--retry-on 1:2,75 -d 1s -n 0", "1 75 1 75 1",
	  "sleep 1s; sleep 1s; sleep 1s; sleep 1s; exit 1 limit 1:2" },
	{ "--retry-on 75-78:2: a range counts as one",
	  "--retry-on 75-78:2 -d 1s", "75 76 77",
	  "sleep 1s; sleep 1s; exit 77 limit 75-78:2" },
	{ "--retry-on KILL:1: a signal's name", "--retry-on KILL:1 -d 1s",
	  "KILL KILL", "sleep 1s; exit 137 limit KILL:1" },
	{ "--retry-on: --max first when both are reached",
	  "--retry-on 1:2 -n 3 -d 1s", "1 1 1", "sleep 1s; sleep 1s; exit 1 max" },
	{ "--retry-on: a failure by the output counts by its status, never 0",
	  "--retry-on 0:1 --fail-if-output x -d 1s", "0=f 0=f",
	  "sleep 1s; exit 1 limit 0:1" },
	{ "--retry-on: --until ends with the last status",
	  "-t 5 -d 0 -u 0 --retry-on 3:1", "3 3", "sleep 0s; exit 3 limit 3:1" },
	{ "--retry-on: --forever counts since the last success, as --max",
	  "--forever --retry-on 1:1 -d 5s", "1 0 1 1",
	  "sleep 5s; sleep 1s; sleep 5s; exit 1 limit 1:1" },
	{ "--retry-on: --forever --reset-after starts the counts over",
	  "--forever --retry-on 1:1 -d 1s --reset-after 10s", "1 1+10s 1",
	  "sleep 1s; sleep 1s @1; exit 1 limit 1:1 @2" },
	{ "--retry-on: --reset-after alone does not", "--retry-on 1:1 -d 1s "
	  "--reset-after 10s", "1 1+10s", "sleep 1s; exit 1 limit 1:1" },
	{ "--retry-on: a success short of --successes does not",
	  "--successes 2 --retry-on 1:1 -d 1s -n 0", "1 0 1",
	  "sleep 1s; sleep 1s; exit 1 limit 1:1" },

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
	{ "SIGPIPE in the terminal's foreground: a pager quit", "-n 5",
	  "PIPE%", "die 13 quit" },
	{ "a pager quit is no success", "--success-on 0,141", "PIPE%",
	  "die 13 quit" },
	{ "a pager quit after failures", "-n 5 -d 0", "1% PIPE%",
	  "sleep 0s; die 13 quit" },
	{ "in the terminal's foreground, other signals are failures",
	  "-n 5 -d 0", "TERM% 0%", "sleep 0s; exit 0" },
	{ "a pager quit: --stop-on comes first", "--stop-on 141", "PIPE%",
	  "exit 141 stop_on" },
	{ "the reader gone comes before a pager quit", "-n 5", "PIPE!%",
	  "die 13 reader_gone" },

	/* --budget: no attempt starts past it. */
	{ "--budget", "--budget 10s -x 1s -n 0", "1 1 1 1",
	  "sleep 1s; sleep 2s; sleep 4s; exit 1 budget" },
	{ "--budget counts the attempts' time", "--budget 5s -d 1s",
	  "1+2s 1+2s", "sleep 1s; exit 1 budget" },
	{ "--budget: an attempt may start at its end", "--budget 3s -d 1s",
	  "1+2s 1", "sleep 1s; exit 1 budget" },
	{ "--budget before --max", "--budget 2s -d 1s -n 2", "1+1500ms",
	  "exit 1 budget" },
	/* --deadline: no sleep nor attempt past it; a sleep that would
	 * reach it ends the run, the attempt's status its own. */
	{ "--deadline", "--deadline 10s -x 1s", "1 1 1 1",
	  "sleep 1s; sleep 2s; sleep 4s; exit 1 deadline" },
	{ "--deadline alone: no limit on attempts", "--deadline 10s -d 1s",
	  "1 1 1 1 1 1 1 1 1 1", "sleep 1s; sleep 1s; sleep 1s; sleep 1s; "
	  "sleep 1s; sleep 1s; sleep 1s; sleep 1s; sleep 1s; "
	  "exit 1 deadline" },
	{ "--deadline: an attempt it stopped ends the run with 124",
	  "--deadline 3s -d 1s", "1 124+2s", "sleep 1s; exit 124 deadline" },
	{ "--deadline: the last attempt it stopped ends the run by it, not --max",
	  "--deadline 3s -d 1s -n 2", "1 124+2s",
	  "sleep 1s; exit 124 deadline" },
	{ "--deadline: --max 1, its one attempt stopped by it",
	  "--deadline 1s -n 1", "124+1s", "exit 124 deadline" },
	{ "--deadline: no attempt starts at it", "--deadline 3s -d 1s",
	  "1+1s 1", "sleep 1s; exit 1 deadline" },
	{ "--deadline before --max", "--deadline 2s -d 1s -n 2", "1+1500ms",
	  "exit 1 deadline" },
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
	  "--forever --max-actual-duration 2 -d 5s", "0+3s 1",
	  "sleep 1s; exit 1 duration" },

	/* --forever. */
	{ "--forever: successes go on, a second apart", "--forever -d 5s",
	  "0 0 1 0", "sleep 1s; sleep 1s; sleep 5s; sleep 1s" },
	{ "--forever: --max counts failures in a row", "--forever -n 2 -d 5s",
	  "1 0 1 1", "sleep 5s; sleep 1s; sleep 5s; exit 1 max" },
	{ "--forever: the back-off starts over after a success",
	  "--forever -n 0 --exp 2s", "1 1 0 1 1",
	  "sleep 2s; sleep 4s; sleep 1s; sleep 2s; sleep 4s" },
	{ "--forever --stop-on", "--forever --stop-on 3 -d 0", "0 3",
	  "sleep 1s; exit 3 stop_on" },
	{ "--forever --delay-on-success 0: at once, as asked",
	  "--forever --delay-on-success 0 -d 5s", "0 0 1",
	  "sleep 0s; sleep 0s; sleep 5s" },
	{ "--forever --immediate: a success still waits a second",
	  "--forever --immediate", "1 0 1", "sleep 0s; sleep 1s; sleep 0s" },
	{ "--forever -a Constant: a second after a success too",
	  "--forever -a Constant --delay 3", "0 1", "sleep 1s; sleep 3s" },
	{ "--forever -n 1", "--forever -n 1", "1", "exit 1 max" },
	{ "--forever --delay-on-success", "--forever --delay-on-success 30s",
	  "0 0", "sleep 30s; sleep 30s" },

	/* --successes N: done after N successes in a row; a failure starts
	 * the count over, and --max counts every attempt. */
	{ "--successes 3: three in a row", "--successes 3 -d 1s", "0 0 0",
	  "sleep 1s; sleep 1s; exit 0" },
	{ "--successes: a failure starts the count over",
	  "--successes 2 -d 1s -n 0", "0 1 0 0",
	  "sleep 1s; sleep 1s; sleep 1s; exit 0" },
	{ "--successes: the strategy's first delay between successes, and "
	  "the back-off starts over", "--successes 2 --exp 1s -n 0",
	  "1 1 0 1 1 0 0", "sleep 1s; sleep 2s; sleep 1s; sleep 1s; "
	  "sleep 2s; sleep 1s; exit 0" },
	{ "--successes: --delays' first", "--successes 2 --delays 3s,9s -n 0",
	  "1 1 0 0", "sleep 3s; sleep 9s; sleep 3s; exit 0" },
	{ "--successes: --immediate's none", "--successes 2 --immediate",
	  "0 0", "sleep 0s; exit 0" },
	{ "--successes: --delay-on-success", "--successes 2 -d 5s "
	  "--delay-on-success 1s", "0 0", "sleep 1s; exit 0" },
	{ "--successes: -a Constant's --delay", "-a Constant --delay 2 "
	  "--successes 2", "0 0", "sleep 2s; exit 0" },
	{ "--successes: -a Exponential's first delay", "-a Exponential "
	  "--initial-delay 3 --successes 2", "1 0 0",
	  "sleep 3s; sleep 3s; exit 0" },
	{ "--successes: -a MIMD keeps its rule for successes",
	  "-a MIMD --initial-delay 4 --delay-multiple-on-failure 2 "
	  "--delay-multiple-on-success 0.5 --successes 3 -n 0", "1 0 0 0",
	  "sleep 4s; sleep 2s; sleep 1s; exit 0" },
	{ "--successes: --max leaves too few attempts: no wait in vain",
	  "--successes 2 -n 3 -d 1s", "0 1", "sleep 1s; exit 1 successes" },
	{ "--successes: the streak still fits in --max",
	  "--successes 2 -n 4 -d 1s", "0 1 0 0",
	  "sleep 1s; sleep 1s; sleep 1s; exit 0" },
	{ "--successes 3 of --max 5: three failures are too many",
	  "--successes 3 -d 1s", "1 1 1",
	  "sleep 1s; sleep 1s; exit 1 successes" },
	{ "--successes: a run short of the streak never exits 0",
	  "--successes 2 --budget 3s -d 2s", "0+2s", "exit 1 budget" },
	{ "--successes: a success short of the streak that --budget ends "
	  "is no success", "--successes 2 -d 300ms --budget 500ms", "1 0",
	  "sleep 300ms; exit 1 budget" },
	{ "--successes: --until-output decides each success",
	  "--successes 2 --until-output ok -d 1s -n 0", "0=u 0 0=u 0=u",
	  "sleep 1s; sleep 1s; sleep 1s; exit 0" },
	{ "--successes: --until ends with the last status",
	  "--successes 2 -u 3 -t 5 -d 0", "3 3", "sleep 0s; exit 3" },
	{ "--successes: --stop-on comes first", "--successes 2 --stop-on 0",
	  "0", "exit 0 stop_on" },
	{ "--successes: a spent shared budget lets a success go on",
	  "--share s --successes 2 -d 1s",
	  "gate:go 0 spent gate:go 0 spent", "go; sleep 1s; go; exit 0" },

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
	  "--forever -n 2 -d 5s --until-output ok --exit-on-match",
	  "0=u 0 TERM=u 1 0", "sleep 1s; sleep 5s; sleep 1s; sleep 5s; "
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

	/* --output delay: the longer of what the output asks for and
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
	  "--forever --delay-from-output (.+) -d 5s", "0~7", "sleep 1s" },
	{ "a delay asked for past the budget",
	  "--delay-from-output (.+) --budget 10s -d 1s", "1~20",
	  "exit 1 budget" },

	/* What ends a run whatever the verdict, first to last: a command
	 * that cannot be run, a signal that came to retry, retry's own
	 * error, the reader of its output gone. */
	{ "a command not found: 127", "", "exec:ENOENT",
	  "exit 127 cannot_run, no --on-giveup" },
	{ "a path through a file: 127", "", "exec:ENOTDIR",
	  "exit 127 cannot_run, no --on-giveup" },
	{ "a command found but not run: 126", "", "exec:EACCES",
	  "exit 126 cannot_run, no --on-giveup" },
	{ "a command that is no program: 126", "", "exec:ENOEXEC",
	  "exit 126 cannot_run, no --on-giveup" },
	{ "a command that cannot be run is not retried", "-n 5 -d 1s",
	  "1 exec:ENOENT", "sleep 1s; exit 127 cannot_run, no --on-giveup" },
	{ "a command that cannot be run, and a signal: 127", "",
	  "exec:ENOENT^TERM", "exit 127 cannot_run, no --on-giveup" },
	{ "a signal to retry during an attempt: it dies of it", "-n 5",
	  "1^TERM", "die 15 signal" },
	{ "a signal to retry comes before a success", "", "0^HUP",
	  "die 1 signal" },
	{ "a signal to retry comes before --stop-on", "--stop-on 1", "1^TERM",
	  "die 15 signal" },
	{ "a signal to retry comes before --max", "-n 1", "1^ALRM",
	  "die 14 signal" },
	{ "a signal to retry comes before its own error", "", "1#^TERM",
	  "die 15 signal" },
	{ "output that could not be passed on: 125", "-n 5", "1#",
	  "exit 125 own_error, no --on-giveup" },
	{ "output that could not be passed on, on a success: 125", "", "0#",
	  "exit 125 own_error, no --on-giveup" },
	{ "its own error comes before the reader gone", "", "PIPE!#",
	  "exit 125 own_error, no --on-giveup" },
	{ "a signal before the first attempt", "", "signal:TERM",
	  "die 15 signal" },
	{ "a signal between attempts", "-d 1s", "1 signal:INT",
	  "sleep 1s; die 2 signal" },
	{ "the reader gone between attempts", "-d 1s", "1 gone",
	  "sleep 1s; die 13 reader_gone" },
	{ "the held output: a signal as it is written", "", "0 output:TERM",
	  "die 15 signal" },
	{ "the held output: a signal after a failure", "-d 1s",
	  "1 output:TERM", "die 15 signal" },
	{ "the held output cannot be written: 125", "", "0 output:error",
	  "exit 125 own_error, no --on-giveup" },
	{ "the held output cannot be written after a failure: 125", "-d 1s",
	  "1 output:error", "exit 125 own_error, no --on-giveup" },
	{ "the held output cannot be written at the end: 125", "-n 1",
	  "1 output:error", "exit 125 own_error, no --on-giveup" },
	{ "the held output's reader gone", "", "0 output:gone",
	  "die 13 reader_gone" },

	/* --share, before an attempt: the gate. */
	{ "--share: the gate lets the attempt start", "--share s",
	  "gate:go 0", "go; exit 0" },
	{ "--share: the attempt probes the half-open breaker", "--share s -n 1",
	  "gate:probe 1", "probe; exit 1 max" },
	{ "--share: the breaker open: a wait, then the attempt", "--share s",
	  "gate:open:30s gate:go 0", "wait 30s; go; exit 0" },
	{ "--share: another run probes: a wait, then a probe", "--share s",
	  "gate:probing:250ms gate:probe 0", "wait 250ms; probe; exit 0" },
	{ "--share: another run's not-before", "--share s",
	  "gate:not_before:5s gate:go 0", "wait 5s; go; exit 0" },
	{ "--share: a wait is a millisecond at least", "--share s",
	  "gate:not_before:0 gate:go 0", "wait 1ms; go; exit 0" },
	{ "--share-open giveup: the breaker open ends the run: 75",
	  "--share s --share-open giveup", "gate:giveup:open",
	  "exit 75 share_open" },
	{ "--share-open giveup: another run's probe ends it too: 75",
	  "--share s --share-open giveup", "gate:giveup:probe",
	  "exit 75 share_open" },
	{ "--share-open giveup after a failure: 75",
	  "--share s --share-open giveup -d 1s",
	  "gate:go 1 counted gate:giveup:open",
	  "go; sleep 1s; exit 75 share_open" },
	{ "the breaker open past --budget: 75", "--share s --budget 10s",
	  "gate:open:30s", "exit 75 share_past_budget" },
	{ "the breaker open past --budget after a failure: 75",
	  "--share s --budget 10s -d 1s", "gate:go 1+2s counted gate:open:8s",
	  "go; sleep 1s; exit 75 share_past_budget" },
	{ "another run's probe past --budget: 75", "--share s --budget 1s",
	  "gate:probing:250ms gate:probing:250ms gate:probing:250ms "
	  "gate:probing:250ms gate:probing:250ms",
	  "wait 250ms; wait 250ms; wait 250ms; wait 250ms; "
	  "exit 75 share_past_budget" },
	{ "a not-before past --budget: 75", "--share s --budget 10s",
	  "gate:not_before:11s", "exit 75 share_past_budget" },
	{ "a wait that ends at --budget", "--share s --budget 30s",
	  "gate:open:30s gate:go 0", "wait 30s; go; exit 0" },
	{ "the store down before an attempt: the run goes on without",
	  "--share s -d 1s", "gate:down 1 unanswered gate:down 0",
	  "go; sleep 1s; go; exit 0" },
	{ "the store down before an attempt, --share-required: 75",
	  "--share s --share-required", "gate:down", "exit 75 share_down" },
	{ "--share-required: the store down after a first attempt: 75",
	  "--share s --share-required -d 1s",
	  "gate:go 1 counted gate:down", "go; sleep 1s; exit 75 share_down" },
	{ "a signal while the gate waits", "--share s",
	  "gate:open:30s signal:TERM", "wait 30s; die 15 signal" },
	{ "the reader gone while the gate waits", "--share s",
	  "gate:open:30s gone", "wait 30s; die 13 reader_gone" },

	/* --share, after an attempt: the record. */
	{ "--share: the shared budget lets a retry run", "--share s -d 1s",
	  "gate:go 1 counted gate:go 0 counted", "go; sleep 1s; go; exit 0" },
	{ "a spent shared budget ends the run with the attempt's status",
	  "--share s -d 1s", "gate:go 3 spent", "go; exit 3 share_budget" },
	{ "a spent shared budget: never 0", "--share s --fail-if-output x",
	  "gate:go 0=f spent", "go; exit 1 share_budget" },
	{ "a spent shared budget: no retry, but a success goes on",
	  "--share s --forever -d 5s", "gate:go 0 spent", "go; sleep 1s" },
	{ "a spent shared budget: the last attempt asked no retry",
	  "--share s -n 1", "gate:go 1 spent", "go; exit 1 max" },
	{ "the store down after an attempt: the run goes on without",
	  "--share s -d 1s", "gate:go 1 unanswered", "go; sleep 1s" },
	{ "--share-required: a retry the store cannot count: 75",
	  "--share s --share-required -d 1s", "gate:go 1 unanswered",
	  "go; exit 75 share_store" },
	{ "--share-required: a success stands without the store",
	  "--share s --share-required", "gate:go 0 unanswered", "go; exit 0" },
	{ "--share-required: the last attempt needs no store",
	  "--share s --share-required -n 1", "gate:go 1 unanswered",
	  "go; exit 1 max" },
	{ "the store's time counts against --budget",
	  "--share s --budget 5s -d 1s", "gate:go 1+3s counted+3s",
	  "go; exit 1 budget" },
	{ "the store's time within --budget", "--share s --budget 5s -d 1s",
	  "gate:go 1+3s counted+1s", "go; sleep 1s" },
	{ "--share: the delay the output asked holds for the others",
	  "--share s --delay-from-output (.+)", "gate:go 1~30 counted",
	  "go; sleep 30s asked, others 30s" },
	{ "--share: the others' delay within --max-delay",
	  "--share s --delay-from-output (.+) --max-delay 10s",
	  "gate:go 1~30 counted", "go; sleep 10s asked (30s), others 10s" },
	{ "--share: the others' delay at most an hour",
	  "--share s --delay-from-output (.+)", "gate:go 1~99999 counted",
	  "go; sleep 1h asked (1d3h46m39s), others 1h" },
	{ "--share: the others' delay as raised by --min-delay",
	  "--share s --delay-from-output (.+) --min-delay 5s",
	  "gate:go 1~2 counted", "go; sleep 5s asked (2s), others 5s" },
	{ "--share: the others' delay when the run ends",
	  "--share s --delay-from-output (.+) -n 1", "gate:go 1~30 counted",
	  "go; exit 1 max, others 30s" },
	{ "--share: the others' delay when the run ends, as asked",
	  "--share s --delay-from-output (.+) --min-delay 5s -n 1",
	  "gate:go 1~2 counted", "go; exit 1 max, others 2s" },
	{ "--share: a delay that is none asks nothing of the others",
	  "--share s --delay-from-output (.+) -d 5s", "gate:go 1~soon counted",
	  "go; sleep 5s unusable" },
	{ "--share: a success asks nothing of the others",
	  "--share s --forever --delay-from-output (.+)",
	  "gate:go 0~30 counted", "go; sleep 1s" },
	{ "--share: a signal during an attempt is not counted",
	  "--share s", "gate:go 1^TERM", "go; die 15 signal" },
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

/* The errnos that rows name. */
static const char *
errno_parse(const char *s, int *e)
{
	static const struct {
		const char	*name;
		int		 e;
	} names[] = {
		{ "ENOENT", ENOENT }, { "ENOTDIR", ENOTDIR },
		{ "EACCES", EACCES }, { "ENOEXEC", ENOEXEC },
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(s, names[i].name) == 0) {
			*e = names[i].e;
			return NULL;
		}
	return "a bad errno";
}

/* One attempt of a row: what it observed, and how long it ran. */
static const char *
observe(char *tok, struct observed *o, int64_t *ran, char *capture)
{
	char *p;
	int sig;

	memset(o, 0, sizeof(*o));
	*ran = 0;
	if ((p = strchr(tok, '^')) != NULL) {
		*p++ = '\0';
		if (signal_parse(p, &o->received) != NULL)
			return "a bad signal";
	}
	if ((p = strchr(tok, '#')) != NULL) {
		*p = '\0';
		o->own_error = true;
	}
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
	if ((p = strchr(tok, '%')) != NULL) {
		*p = '\0';
		o->at_terminal = true;
	}
	if (strncmp(tok, "exec:", 5) == 0)
		return errno_parse(tok + 5, &o->exec_errno);
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
		[WHY_QUIT] = " quit",
	};
	static const char *const limit[] = {
		[GIVE_UP_NONE] = "", [GIVE_UP_MAX] = " max",
		[GIVE_UP_BUDGET] = " budget", [GIVE_UP_DURATION] = " duration",
		[GIVE_UP_SHARED] = " share_budget",
		[GIVE_UP_STORE] = " share_store",
		[GIVE_UP_LIMIT] = " limit", [GIVE_UP_SUCCESSES] = " successes",
		[GIVE_UP_DEADLINE] = " deadline",
	};
	static char item[64];
	static const char *const end[] = {
		[FIN_NONE] = "", [FIN_VERDICT] = "", [FIN_SIGNAL] = " signal",
		[FIN_READER_GONE] = " reader_gone",
		[FIN_CANNOT_RUN] = " cannot_run",
		[FIN_OWN_ERROR] = " own_error",
		[FIN_SHARE_OPEN] = " share_open",
		[FIN_SHARE_PAST_BUDGET] = " share_past_budget",
		[FIN_SHARE_DOWN] = " share_down",
	};

	if (x->end != FIN_VERDICT)
		return end[x->end];
	if (x->give_up == GIVE_UP_LIMIT) {
		snprintf(item, sizeof(item), " limit %.*s", (int)x->limit->len,
		    x->limit->item);
		return item;
	}
	if (x->give_up != GIVE_UP_NONE)
		return limit[x->give_up];
	return x->outcome.verdict == V_STOP ? why[x->outcome.reason] : "";
}

/* A gate's answer in a row's words (w, after "gate:"), judged at now. */
static const char *
answer_gate(const struct policy *p, const char *w, bool down, int64_t now,
    struct next *x)
{
	static const struct {
		const char	*word;
		enum gate	 what;
		enum gate_why	 why;
	} words[] = {
		{ "go", GATE_GO, WAIT_NONE },
		{ "probe", GATE_PROBE, WAIT_NONE },
		{ "giveup:open", GATE_GIVE_UP, WAIT_OPEN },
		{ "giveup:probe", GATE_GIVE_UP, WAIT_PROBE },
		{ "open:", GATE_WAIT, WAIT_OPEN },
		{ "probing:", GATE_WAIT, WAIT_PROBE },
		{ "not_before:", GATE_WAIT, WAIT_NOT_BEFORE },
	};
	struct gate_answer g;
	size_t len;

	if (strcmp(w, "down") == 0) {
		*x = policy_gate(p, NULL, down, now);
		return NULL;
	}
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		len = strlen(words[i].word);
		if (words[i].what == GATE_WAIT ?
		    strncmp(w, words[i].word, len) != 0 :
		    strcmp(w, words[i].word) != 0)
			continue;
		g = (struct gate_answer){ words[i].what, words[i].why, 0 };
		if (g.what == GATE_WAIT &&
		    duration_parse(w + len, &g.until) != NULL)
			return "a bad duration";
		*x = policy_gate(p, &g, down, now);
		return NULL;
	}
	return "a bad gate";
}

/* What shared state answered the record of attempt o (x): "counted",
 * "spent" or "unanswered", then "+DUR", the store's time. */
static const char *
answer_record(const struct policy *p, struct next *x, const struct observed *o,
    char *w, bool down)
{
	struct record_answer a = { 0 };
	int64_t took = 0;
	char *d;

	if ((d = strchr(w, '+')) != NULL) {
		*d++ = '\0';
		if (duration_parse(d, &took) != NULL)
			return "a bad duration";
	}
	a.retry = strcmp(w, "counted") == 0;
	if (!a.retry && strcmp(w, "spent") != 0 &&
	    strcmp(w, "unanswered") != 0)
		return "a bad record";
	*x = policy_shared(p, *x, o, strcmp(w, "unanswered") == 0 ? NULL : &a,
	    down, o->end + took);
	return NULL;
}

/* What came to retry before x was carried out: "signal:SIG" and "gone"
 * between attempts, "output:SIG", "output:error" and "output:gone" as
 * an attempt's held output was written (*is: w is one of them); NULL, or
 * what is wrong with w. */
static const char *
apply_halt(const char *w, struct next *x, bool *is)
{
	struct observed o = { 0 };
	const char *what;

	*is = true;
	if (strncmp(w, "output:", 7) == 0)
		w += 7;
	else if (strcmp(w, "gone") != 0 && strncmp(w, "signal:", 7) != 0) {
		*is = false;
		return NULL;
	}
	if ((what = strchr(w, ':')) != NULL)
		w = what + 1;
	if (strcmp(w, "gone") == 0)
		o.reader_gone = true;
	else if (strcmp(w, "error") == 0)
		o.own_error = true;
	else if (signal_parse(w, &o.received) != NULL)
		return "a bad signal";
	*x = policy_halt(*x, &o);
	return NULL;
}

/* Whether w is said of the attempt before it: its record, or what
 * writing its output met. */
static bool
follows(const char *w)
{
	return strncmp(w, "counted", 7) == 0 || strncmp(w, "spent", 5) == 0 ||
	    strncmp(w, "unanswered", 10) == 0 || strncmp(w, "output:", 7) == 0;
}

/* What the policy says: x, in a row's words, at got + len. */
static size_t
say(char *got, size_t gotsz, size_t len, const struct next *x,
    unsigned long place, bool others)
{
	char d[DURATION_BUFSZ], w[DURATION_BUFSZ];
	const size_t start = len;

	if (x->what == NEXT_ATTEMPT)
		return (size_t)snprintf(got + len, gotsz - len, "%s",
		    x->probe ? "probe" : "go");
	/* Held within --min-delay and --max-delay: "(what was asked)". */
	if (x->what == NEXT_SLEEP && place == 0)
		len += (size_t)snprintf(got + len, gotsz - len, "wait %s",
		    duration_format(x->delay.ns, d, sizeof(d)));
	else if (x->what == NEXT_SLEEP && x->hinted && !x->asked)
		len += (size_t)snprintf(got + len, gotsz - len,
		    "sleep %s strategy (%s)", duration_format(x->delay.ns, d,
		    sizeof(d)), duration_format(x->wanted, w, sizeof(w)));
	else if (x->what == NEXT_SLEEP && x->asked && x->wanted != x->delay.ns)
		len += (size_t)snprintf(got + len, gotsz - len,
		    "sleep %s asked (%s)", duration_format(x->delay.ns, d,
		    sizeof(d)), duration_format(x->wanted, w, sizeof(w)));
	else if (x->what == NEXT_SLEEP)
		len += (size_t)snprintf(got + len, gotsz - len, "sleep %s%s%s",
		    duration_format(x->delay.ns, d, sizeof(d)),
		    x->asked ? " asked" : "",
		    x->unusable != NULL ? " unusable" : "");
	else
		len += (size_t)snprintf(got + len, gotsz - len, "%s %d%s",
		    x->what == NEXT_DIE ? "die" : "exit", x->status,
		    ending(x));
	if (place > 0 && x->attempt != place)
		len += (size_t)snprintf(got + len, gotsz - len, " @%lu",
		    x->attempt);
	if (others && x->others >= 0)
		len += (size_t)snprintf(got + len, gotsz - len, ", others %s",
		    duration_format(x->others, d, sizeof(d)));
	/* A run ends one way: a success, a give-up, or neither. */
	if (x->what == NEXT_EXIT && !x->gave_up && !x->succeeded)
		len += (size_t)snprintf(got + len, gotsz - len,
		    ", no --on-giveup");
	if (x->what == NEXT_EXIT && x->gave_up && x->succeeded)
		len += (size_t)snprintf(got + len, gotsz - len,
		    ", succeeded and gave up");
	return len - start;
}

/* What the policy says of a row's steps, in the row's words. */
static void
replay(const struct row *r, const struct config *c, struct rng *rng,
    char *got, size_t gotsz)
{
	struct policy pol;
	struct observed o;
	struct next x = { .what = NEXT_ATTEMPT, .attempt = 1 };
	char buf[1024], capture[CAPTURE_MAX], *tok[64], *save;
	const char *why;
	int64_t t = 0, ran;
	size_t len = 0;
	unsigned long place = 0;
	bool is, shared;
	int n = 0;

	got[0] = '\0';
	policy_init(&pol, &c->backoff, &c->limits, &c->verdict, rng);
	snprintf(buf, sizeof(buf), "%s", r->attempts);
	for (char *w = strtok_r(buf, " ", &save); w != NULL && n < 64;
	    w = strtok_r(NULL, " ", &save))
		tok[n++] = w;
	for (int i = 0; i < n; i++) {
		if (len > 0)
			len += (size_t)snprintf(got + len, gotsz - len, "; ");
		if (strncmp(tok[i], "gate:", 5) == 0) {
			if ((why = answer_gate(&pol, tok[i] + 5,
			    c->share_required, t, &x)) != NULL) {
				snprintf(got + len, gotsz - len, "%s: %s",
				    tok[i], why);
				return;
			}
			len += say(got, gotsz, len, &x, 0, false);
			if (x.what == NEXT_SLEEP)
				t = x.at;
			else if (x.what != NEXT_ATTEMPT)
				break;
			continue;
		}
		if ((why = apply_halt(tok[i], &x, &is)) != NULL || is) {
			if (why != NULL) {
				snprintf(got + len, gotsz - len, "%s: %s",
				    tok[i], why);
				return;
			}
			(void)say(got, gotsz, len, &x, place, false);
			return;
		}
		if ((why = observe(tok[i], &o, &ran, capture)) != NULL) {
			snprintf(got + len, gotsz - len, "%s: %s", tok[i], why);
			return;
		}
		o.start = t;
		o.end = t + ran;
		o.end_s = (double)o.end / 1e9;
		x = policy_next(&pol, &o);
		place++;
		/* What followed the attempt before x was carried out. */
		for (shared = false; i + 1 < n && follows(tok[i + 1]); i++) {
			if (strncmp(tok[i + 1], "output:", 7) == 0)
				why = apply_halt(tok[i + 1], &x, &is);
			else {
				why = answer_record(&pol, &x, &o, tok[i + 1],
				    c->share_required);
				shared = true;
			}
			if (why != NULL) {
				snprintf(got + len, gotsz - len, "%s: %s",
				    tok[i + 1], why);
				return;
			}
		}
		len += say(got, gotsz, len, &x, place, shared);
		if (x.what != NEXT_SLEEP)
			break;
		t = x.at;
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

/* --timeout, cut to what is left of --budget and of --deadline. */
static void
rows_timeout(void)
{
	static const struct {
		int64_t	 timeout, budget, elapsed, want, deadline;
	} t[] = {
		{ 10, -1, 5, 10, -1 }, { -1, 10, 5, -1, -1 },
		{ 10, 12, 5, 7, -1 }, { 10, 12, 15, 0, -1 },
		{ 3, 12, 5, 3, -1 }, { 10, 12, 12, 0, -1 },
		{ -1, -1, 0, -1, -1 },
		/* The deadline, with or without --timeout and --budget. */
		{ -1, -1, 5, 7, 12 }, { 10, -1, 5, 7, 12 },
		{ 3, -1, 5, 3, 12 }, { -1, -1, 12, 0, 12 },
		{ -1, -1, 20, 0, 12 }, { 10, 8, 5, 3, 12 },
		{ 10, 20, 5, 7, 12 },
	};
	const struct verdict_rules rules = { 0 };
	struct policy p;
	struct backoff b = { 0 };
	struct limits l;
	char name[64];

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		l = (struct limits){ .budget = t[i].budget,
		    .timeout = t[i].timeout, .reset_after = -1,
		    .deadline = t[i].deadline };
		policy_init(&p, &b, &l, &rules, NULL);
		snprintf(name, sizeof(name), "timeout %lld, budget %lld, "
		    "deadline %lld, at %lld", (long long)t[i].timeout,
		    (long long)t[i].budget, (long long)t[i].deadline,
		    (long long)t[i].elapsed);
		unit_row(policy_timeout(&p, t[i].elapsed) == t[i].want,
		    "policy_timeout", name, "want %lld, got %lld",
		    (long long)t[i].want,
		    (long long)policy_timeout(&p, t[i].elapsed));
	}
}

/* A sleep that a hook delayed until --deadline: the end of the run. */
static void
rows_late(void)
{
	static const struct {
		int64_t	 deadline, now;
		bool	 ends;
	} t[] = {
		{ 10, 9, false }, { 10, 10, true }, { 10, 20, true },
		{ -1, 20, false },
	};
	const struct verdict_rules rules = { 0 };
	const struct observed o = { .status = 3 };
	struct policy p;
	struct backoff b = { 0 };
	struct limits l;
	struct next x;
	char name[64];

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		l = (struct limits){ .budget = -1, .timeout = -1,
		    .reset_after = -1, .deadline = t[i].deadline };
		policy_init(&p, &b, &l, &rules, NULL);
		x = (struct next){ .what = NEXT_SLEEP, .at = 5,
		    .outcome.verdict = V_RETRY };
		x = policy_late(&p, x, &o, t[i].now);
		snprintf(name, sizeof(name), "deadline %lld, now %lld",
		    (long long)t[i].deadline, (long long)t[i].now);
		unit_row(t[i].ends ? x.what == NEXT_EXIT && x.gave_up &&
		    x.give_up == GIVE_UP_DEADLINE && x.status == 3 :
		    x.what == NEXT_SLEEP, "policy_late", name,
		    "what %d, give_up %d, status %d", (int)x.what,
		    (int)x.give_up, x.status);
	}
}

/* A wait for shared state past --budget, --deadline or both, in each
 * order (in seconds, -1 for none): the limit the policy names, the
 * earlier of those passed. */
static void
rows_gate_limit(void)
{
	static const struct {
		int64_t		 budget, deadline, wait;
		enum give_up	 want;
	} t[] = {
		{ 10, -1, 30, GIVE_UP_BUDGET }, { -1, 10, 30, GIVE_UP_DEADLINE },
		/* Past both: the earlier; at the same instant, the deadline. */
		{ 10, 20, 30, GIVE_UP_BUDGET }, { 20, 10, 30, GIVE_UP_DEADLINE },
		{ 10, 10, 30, GIVE_UP_DEADLINE },
		/* Past one of the two. */
		{ 10, 20, 15, GIVE_UP_BUDGET }, { 20, 10, 15, GIVE_UP_DEADLINE },
		{ 10, 10, 10, GIVE_UP_DEADLINE },
		/* Past neither: the wait. */
		{ 20, 30, 10, GIVE_UP_NONE }, { 10, 30, 10, GIVE_UP_NONE },
	};
	const struct verdict_rules rules = { 0 };
	struct policy p;
	struct backoff b = { 0 };
	struct limits l;
	struct gate_answer g;
	struct next x;
	char name[80];

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		l = (struct limits){ .budget = t[i].budget < 0 ? -1 :
		    t[i].budget * NS_PER_SEC, .timeout = -1, .reset_after = -1,
		    .deadline = t[i].deadline < 0 ? -1 :
		    t[i].deadline * NS_PER_SEC };
		policy_init(&p, &b, &l, &rules, NULL);
		g = (struct gate_answer){ GATE_WAIT, WAIT_OPEN,
		    t[i].wait * NS_PER_SEC };
		x = policy_gate(&p, &g, false, 0);
		snprintf(name, sizeof(name), "budget %llds, deadline %llds, "
		    "wait %llds", (long long)t[i].budget,
		    (long long)t[i].deadline, (long long)t[i].wait);
		unit_row(t[i].want == GIVE_UP_NONE ? x.what == NEXT_SLEEP &&
		    x.give_up == GIVE_UP_NONE : x.what == NEXT_EXIT &&
		    x.end == FIN_SHARE_PAST_BUDGET && x.give_up == t[i].want &&
		    x.status == STATUS_SHARED, "policy_gate", name,
		    "what %d, end %d, give_up %d, status %d", (int)x.what,
		    (int)x.end, (int)x.give_up, x.status);
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
	rows_late();
	rows_gate_limit();
	rows_cannot_run();
}
