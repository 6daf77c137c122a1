/*
 * The option parser: what it refuses (the hostile catalogue: each value
 * must be a usage error whose one line names the option), and what it
 * makes of what it accepts.
 */
#include <stdint.h>
#include <string.h>

#include "duration.h"
#include "model.h"
#include "optable.h"
#include "options.h"
#include "unit.h"

/* retry (with a command after the options, or M_BARE without one),
 * show-backoff-delays, simulate. */
enum face { M_RETRY, M_BARE, M_SHOW, M_SIM };

/* A refused command line: its error starts with the option's name. */
static const struct refused {
	enum face	 face;
	const char	*name;
	const char	*option;
	const char	*argv[24];
} refused[] = {
	{ M_RETRY, "--max: empty", "--max", { "--max", "", NULL } },
	{ M_RETRY, "--max: a leading space", "--max", { "--max", " 3", NULL } },
	{ M_RETRY, "--max: a trailing space", "--max", { "--max", "3 ", NULL } },
	{ M_RETRY, "--max: negative", "--max", { "--max", "-1", NULL } },
	{ M_RETRY, "--max: one over a billion", "--max", { "--max", "1000000001", NULL } },
	{ M_RETRY, "--max: past 64 bits", "--max", { "--max", "99999999999999999999999", NULL } },
	{ M_RETRY, "--max: a fraction", "--max", { "--max", "3.5", NULL } },
	{ M_RETRY, "--max: an exponent", "--max", { "--max", "1e3", NULL } },
	{ M_RETRY, "--max: hexadecimal", "--max", { "--max", "0x10", NULL } },
	{ M_RETRY, "--max: NaN", "--max", { "--max", "nan", NULL } },
	{ M_RETRY, "--max: a word", "--max", { "--max", "three", NULL } },
	{ M_RETRY, "--max=: an empty value", "--max", { "--max=", NULL } },
	{ M_RETRY, "--max: a plus sign", "--max", { "--max", "+3", NULL } },
	{ M_RETRY, "--max-attempts: negative", "--max-attempts", { "--max-attempts", "-5", NULL } },
	{ M_RETRY, "--count: a leading space", "--count", { "--dry-run", "--count", " 5", NULL } },
	{ M_RETRY, "--count: without --dry-run", "--count", { "--count", "5", NULL } },
	{ M_RETRY, "--budget: empty", "--budget", { "--budget", "", NULL } },
	{ M_RETRY, "--budget: a space", "--budget", { "--budget", " ", NULL } },
	{ M_RETRY, "--budget: negative", "--budget", { "--budget", "-1s", NULL } },
	{ M_RETRY, "--budget: a day over a year", "--budget", { "--budget", "366d", NULL } },
	{ M_RETRY, "--budget: overflowing days", "--budget", { "--budget", "99999999999999999999d", NULL } },
	{ M_RETRY, "--budget: overflowing nanoseconds", "--budget", { "--budget", "99999999999999999999999ns", NULL } },
	{ M_RETRY, "--budget: a space inside", "--budget", { "--budget", "1s 2s", NULL } },
	{ M_RETRY, "--budget: two decimal points", "--budget", { "--budget", "1.2.3s", NULL } },
	{ M_RETRY, "--timeout: negative", "--timeout", { "--timeout", "-5", NULL } },
	{ M_RETRY, "--timeout: an unknown unit", "--timeout", { "--timeout", "5q", NULL } },
	{ M_RETRY, "--timeout: inf", "--timeout", { "--timeout", "inf", NULL } },
	{ M_RETRY, "--kill-after: negative", "--kill-after", { "--kill-after", "-1s", NULL } },
	{ M_RETRY, "--kill-after: empty", "--kill-after", { "--kill-after", "", NULL } },
	{ M_RETRY, "--kill-after: years", "--kill-after", { "--kill-after", "1y", NULL } },
	{ M_RETRY, "--exp: NaN", "--exp", { "--exp", "nan", NULL } },
	{ M_RETRY, "--exp: -inf", "--exp", { "--exp", "-inf", NULL } },
	{ M_RETRY, "--exp: an exponent", "--exp", { "--exp", "1e9", NULL } },
	{ M_RETRY, "--exp: a space before the unit", "--exp", { "--exp", "1 s", NULL } },
	{ M_RETRY, "--exp: a plus sign", "--exp", { "--exp", "+1s", NULL } },
	{ M_RETRY, "--exp: a unit alone", "--exp", { "--exp", "ms", NULL } },
	{ M_RETRY, "--fixed: trailing junk", "--fixed", { "--fixed", "1s!", NULL } },
	{ M_RETRY, "--fixed: a lone dot", "--fixed", { "--fixed", ".", NULL } },
	{ M_RETRY, "--fixed: a control character", "--fixed", { "--fixed", "1s\001", NULL } },
	{ M_RETRY, "--constant: an unknown unit", "--constant", { "--constant", "5x", NULL } },
	{ M_RETRY, "--linear: a bare number after a unit", "--linear", { "--linear", "1m30", NULL } },
	{ M_RETRY, "--fib: two dots", "--fib", { "--fib", "1..5s", NULL } },
	{ M_RETRY, "--decorrelated: negative", "--decorrelated", { "--decorrelated", "-1s", NULL } },
	{ M_RETRY, "--decorrelated: a bad unit inside", "--decorrelated", { "--decorrelated", "1h1x", NULL } },
	{ M_RETRY, "--max-delay: an upper-case unit", "--max-delay", { "--max-delay", "1S", NULL } },
	{ M_RETRY, "--max-delay: negative", "--max-delay", { "--max-delay", "-5ms", NULL } },
	{ M_RETRY, "--min-delay: inf", "--min-delay", { "--min-delay", "inf", NULL } },
	{ M_RETRY, "--min-delay: a word", "--min-delay", { "--min-delay", "ten", NULL } },
	{ M_RETRY, "--max-actual-duration: negative", "--max-actual-duration", { "--max-actual-duration", "-1", NULL } },
	{ M_RETRY, "--max-actual-duration: NaN", "--max-actual-duration", { "--max-actual-duration", "nan", NULL } },
	{ M_RETRY, "--max-actual-duration: over a year", "--max-actual-duration", { "--max-actual-duration", "31536001", NULL } },
	{ M_RETRY, "--delays: empty", "--delays", { "--delays", "", NULL } },
	{ M_RETRY, "--delays: a lone comma", "--delays", { "--delays", ",", NULL } },
	{ M_RETRY, "--delays: a trailing comma", "--delays", { "--delays", "1s,", NULL } },
	{ M_RETRY, "--delays: a leading comma", "--delays", { "--delays", ",1s", NULL } },
	{ M_RETRY, "--delays: a negative item", "--delays", { "--delays", "1s,-2s", NULL } },
	{ M_RETRY, "--delays: a NaN item", "--delays", { "--delays", "1s,nan", NULL } },
	{ M_RETRY, "--delays: an item over a year", "--delays", { "--delays", "1s,366d", NULL } },
	{ M_RETRY, "-a: an unknown algorithm", "--algorithm", { "-a", "bogus", NULL } },
	{ M_RETRY, "-a: empty", "--algorithm", { "-a", "", NULL } },
	{ M_RETRY, "-a: a prefix of a name", "--algorithm", { "-a", "Constan", NULL } },
	{ M_RETRY, "-a: a trailing space", "--algorithm", { "-a", "MIMD ", NULL } },
	{ M_RETRY, "-a Constant: without --delay", "--algorithm", { "-a", "Constant", NULL } },
	{ M_RETRY, "--delay: negative", "--delay", { "-a", "Constant", "--delay", "-1", NULL } },
	{ M_RETRY, "--delay: NaN", "--delay", { "-a", "Constant", "--delay", "nan", NULL } },
	{ M_RETRY, "--delay: empty", "--delay", { "-a", "Constant", "--delay", "", NULL } },
	{ M_RETRY, "--delay: over a year", "--delay", { "-a", "Constant", "--delay", "31536001", NULL } },
	{ M_RETRY, "--delay: 1e999", "--delay", { "-a", "Constant", "--delay", "1e999", NULL } },
	{ M_RETRY, "--delay: a list with -a", "--delay", { "-a", "Constant", "--delay", "1,2", NULL } },
	{ M_RETRY, "--delay: a list after -a", "--delay", { "--delay", "1,2", "-a", "Constant", NULL } },
	{ M_RETRY, "--delay: with -a Exponential", "--delay", { "-a", "Exponential", "--initial-delay", "1", "--delay", "1", NULL } },
	{ M_RETRY, "-d: an empty item", "--delay", { "-d", "1,,2", NULL } },
	{ M_RETRY, "-d: a negative item", "--delay", { "-d", "1,-2", NULL } },
	{ M_RETRY, "-d: a word", "--delay", { "-d", "soon", NULL } },
	{ M_RETRY, "-d: and --exp", "--delay", { "-d", "1", "--exp", "1s", NULL } },
	{ M_RETRY, "-d: after --fixed", "--delay", { "--fixed", "1s", "-d", "1", NULL } },
	{ M_RETRY, "-t: zero would run nothing", "--times", { "-t", "0", NULL } },
	{ M_RETRY, "-t: under -1", "--times", { "-t", "-2", NULL } },
	{ M_RETRY, "-t: minus zero", "--times", { "-t", "-0", NULL } },
	{ M_RETRY, "-t: empty", "--times", { "-t", "", NULL } },
	{ M_RETRY, "-t: a unit", "--times", { "-t", "3s", NULL } },
	{ M_RETRY, "-t: a trailing space", "--times", { "-t", "3 ", NULL } },
	{ M_RETRY, "-t: a fraction", "--times", { "-t", "1.5", NULL } },
	{ M_RETRY, "-t: under the smallest number", "--times", { "-t", "-99999999999999999999", NULL } },
	{ M_RETRY, "--tries: empty", "--tries", { "--tries", "", NULL } },
	{ M_RETRY, "-u: empty", "--until", { "-u", "", NULL } },
	{ M_RETRY, "-u: an empty item", "--until", { "-u", "1,,2", NULL } },
	{ M_RETRY, "-u: a trailing comma", "--until", { "-u", "success,", NULL } },
	{ M_RETRY, "-u: a prefix of a word", "--until", { "-u", "succ", NULL } },
	{ M_RETRY, "-u: a word in capitals", "--until", { "-u", "SUCCESS", NULL } },
	{ M_RETRY, "-u: a signal's name", "--until", { "-u", "TERM", NULL } },
	{ M_RETRY, "-u: over 255", "--until", { "-u", "256", NULL } },
	{ M_RETRY, "-u: a range that starts over 255", "--until", { "-u", "300-400", NULL } },
	{ M_RETRY, "-u: a range to a signal", "--until", { "-u", "1-TERM", NULL } },
	{ M_RETRY, "-u: one bad item of a list", "--until", { "-u", "1,bogus", NULL } },
	{ M_RETRY, "-u: only spaces", "--until", { "-u", " ", NULL } },
	{ M_RETRY, "-u: negative", "--until", { "-u", "-1", NULL } },
	{ M_RETRY, "-u: a reversed range", "--until", { "-u", "3-1", NULL } },
	{ M_RETRY, "-u: an open range", "--until", { "-u", "3-", NULL } },
	{ M_RETRY, "-w: a word", "--while", { "-w", "failure", NULL } },
	{ M_RETRY, "-w: a space inside a number", "--while", { "-w", "1 2", NULL } },
	{ M_RETRY, "-m: empty", "--label", { "-m", "", NULL } },
	{ M_RETRY, "--message: two lines", "--message", { "--message", "a\nb", NULL } },
	{ M_RETRY, "-j: a bare number with a bad unit", "--jitter", { "-j", "5x", NULL } },
	{ M_RETRY, "-j: a negative number", "--jitter", { "-j", "-5", NULL } },
	{ M_RETRY, "--factor: under 1", "--factor", { "--factor", "0.5", NULL } },
	{ M_RETRY, "--factor: zero", "--factor", { "--factor", "0", NULL } },
	{ M_RETRY, "--factor: negative", "--factor", { "--factor", "-2", NULL } },
	{ M_RETRY, "--factor: NaN", "--factor", { "--factor", "nan", NULL } },
	{ M_RETRY, "--factor: inf", "--factor", { "--factor", "inf", NULL } },
	{ M_RETRY, "--factor: over a million", "--factor", { "--factor", "1e7", NULL } },
	{ M_RETRY, "--factor: hexadecimal", "--factor", { "--factor", "0x10", NULL } },
	{ M_RETRY, "--factor: empty", "--factor", { "--factor", "", NULL } },
	{ M_RETRY, "--jitter: empty", "--jitter", { "--jitter", "", NULL } },
	{ M_RETRY, "--jitter: an unknown mode", "--jitter", { "--jitter", "bogus", NULL } },
	{ M_RETRY, "--jitter: full takes no ratio", "--jitter", { "--jitter", "full:0.5", NULL } },
	{ M_RETRY, "--jitter: none takes no ratio", "--jitter", { "--jitter", "none:1", NULL } },
	{ M_RETRY, "--jitter: a ratio over 1", "--jitter", { "--jitter", "scattered:2", NULL } },
	{ M_RETRY, "--jitter: a negative ratio", "--jitter", { "--jitter", "scattered:-0.1", NULL } },
	{ M_RETRY, "--jitter: an empty ratio", "--jitter", { "--jitter", "scattered:", NULL } },
	{ M_RETRY, "--jitter: a NaN ratio", "--jitter", { "--jitter", "down:nan", NULL } },
	{ M_RETRY, "--jitter: add without a duration", "--jitter", { "--jitter", "add", NULL } },
	{ M_RETRY, "--jitter: add with an empty duration", "--jitter", { "--jitter", "add:", NULL } },
	{ M_RETRY, "--jitter: add with a negative duration", "--jitter", { "--jitter", "add:-1s", NULL } },
	{ M_RETRY, "--jitter: add over a year", "--jitter", { "--jitter", "add:366d", NULL } },
	{ M_RETRY, "--seed: negative", "--seed", { "--seed", "-1", NULL } },
	{ M_RETRY, "--seed: past 2^63 - 1", "--seed", { "--seed", "9223372036854775808", NULL } },
	{ M_RETRY, "--seed: a fraction", "--seed", { "--seed", "1.5", NULL } },
	{ M_RETRY, "--seed: empty", "--seed", { "--seed", "", NULL } },
	{ M_RETRY, "--signal: an unknown name", "--signal", { "--signal", "BOGUS", NULL } },
	{ M_RETRY, "--signal: zero", "--signal", { "--signal", "0", NULL } },
	{ M_RETRY, "--signal: past the last signal", "--signal", { "--signal", "65", NULL } },
	{ M_RETRY, "--signal: a huge number", "--signal", { "--signal", "99999999999999999999", NULL } },
	{ M_RETRY, "--signal: empty", "--signal", { "--signal", "", NULL } },
	{ M_RETRY, "--signal: SIG alone", "--signal", { "--signal", "SIG", NULL } },
	{ M_RETRY, "--signal: a dash", "--signal", { "--signal", "-9", NULL } },
	{ M_RETRY, "--signal: a trailing space", "--signal", { "--signal", "KILL ", NULL } },
	{ M_RETRY, "--success-on: over 255", "--success-on", { "--success-on", "256", NULL } },
	{ M_RETRY, "--success-on: a huge number", "--success-on", { "--success-on", "99999999999", NULL } },
	{ M_RETRY, "--success-on: empty", "--success-on", { "--success-on", "", NULL } },
	{ M_RETRY, "--success-on: an empty item", "--success-on", { "--success-on", "1,,2", NULL } },
	{ M_RETRY, "--success-on: a trailing comma", "--success-on", { "--success-on", "KILL,", NULL } },
	{ M_RETRY, "--success-on: negative", "--success-on", { "--success-on", "-1", NULL } },
	{ M_RETRY, "--retry-on: a reversed range", "--retry-on", { "--retry-on", "5-3", NULL } },
	{ M_RETRY, "--retry-on: an open range", "--retry-on", { "--retry-on", "5-", NULL } },
	{ M_RETRY, "--retry-on: three ends", "--retry-on", { "--retry-on", "1-2-3", NULL } },
	{ M_RETRY, "--retry-on: a limit of 0", "--retry-on", { "--retry-on", "1:0", NULL } },
	{ M_RETRY, "--retry-on: an empty limit", "--retry-on", { "--retry-on", "1:", NULL } },
	{ M_RETRY, "--retry-on: a limit without a status", "--retry-on", { "--retry-on", ":2", NULL } },
	{ M_RETRY, "--success-on: a limit", "--success-on", { "--success-on", "0:2", NULL } },
	{ M_RETRY, "--stop-on: a limit", "--stop-on", { "--stop-on", "2:1", NULL } },
	{ M_RETRY, "--successes: zero", "--successes", { "--successes", "0", NULL } },
	{ M_RETRY, "--successes: negative", "--successes", { "--successes", "-2", NULL } },
	{ M_RETRY, "--successes: a word", "--successes", { "--successes", "two", NULL } },
	{ M_SHOW, "--successes: zero", "--successes", { "--successes", "0", NULL } },
	{ M_SIM, "--successes: not simulate's", "--successes", { "--successes", "2", NULL } },
	{ M_RETRY, "--stop-on: an unknown signal", "--stop-on", { "--stop-on", "SIGBOGUS", NULL } },
	{ M_RETRY, "--stop-on: a space", "--stop-on", { "--stop-on", "1, 2", NULL } },
	{ M_RETRY, "--stop-on: a newline", "--stop-on", { "--stop-on", "1\n", NULL } },
	{ M_RETRY, "--label: empty", "--label", { "--label", "", NULL } },
	{ M_RETRY, "--label: a newline", "--label", { "--label", "a\nb", NULL } },
	{ M_RETRY, "--label: a carriage return", "--label", { "--label", "a\015", NULL } },
	{ M_SHOW, "show --count: zero", "--count", { "--count", "0", NULL } },
	{ M_SHOW, "show --count: negative", "--count", { "--count", "-1", NULL } },
	{ M_SHOW, "show --count: over ten million", "--count", { "--count", "10000001", NULL } },
	{ M_SHOW, "show --count: a word", "--count", { "--count", "ten", NULL } },
	{ M_SHOW, "show --format: an unknown format", "--format", { "--format", "xml", NULL } },
	{ M_SHOW, "show --format: upper case", "--format", { "--format", "JSON", NULL } },
	{ M_SHOW, "show --format: empty", "--format", { "--format", "", NULL } },
	{ M_SHOW, "show --unit: microseconds", "--unit", { "--unit", "us", NULL } },
	{ M_SHOW, "show --unit: empty", "--unit", { "--unit", "", NULL } },
	{ M_SHOW, "show --samples: zero", "--samples", { "--samples", "0", NULL } },
	{ M_SHOW, "show --samples: over 100,000", "--samples", { "--samples", "100001", NULL } },
	{ M_SHOW, "show STATUS: 2", "status", { "2", NULL } },
	{ M_SHOW, "show STATUS: a colon and nothing", "status", { "0:", NULL } },
	{ M_SHOW, "show STATUS: a negative time", "status", { "0:-1", NULL } },
	{ M_SHOW, "show STATUS: a plus and nothing", "status", { "0:+", NULL } },
	{ M_SHOW, "show STATUS: a word for a time", "status", { "0:abc", NULL } },
	{ M_SHOW, "show STATUS: an exponent with no digits", "status", { "1:1e", NULL } },
	{ M_SHOW, "show STATUS: NaN", "status", { "0:nan", NULL } },
	{ M_SHOW, "show STATUS: a time that goes backwards", "status", { "0:5", "0:3", NULL } },
	{ M_SIM, "simulate --clients: zero", "--clients", { "--clients", "0", NULL } },
	{ M_SIM, "simulate --clients: empty", "--clients", { "--clients", "", NULL } },
	{ M_SIM, "simulate --clients: a reversed range", "--clients", { "--clients", "5-1", NULL } },
	{ M_SIM, "simulate --runs: zero", "--runs", { "--runs", "0", NULL } },
	{ M_RETRY, "--delay-on-success: negative", "--delay-on-success", { "-a", "Constant", "--delay", "1", "--delay-on-success", "-1", NULL } },
	{ M_RETRY, "--initial-delay: negative", "--initial-delay", { "-a", "Exponential", "--initial-delay", "-0.5", NULL } },
	{ M_RETRY, "--exponent-base: negative", "--exponent-base", { "-a", "Exponential", "--initial-delay", "1", "--exponent-base", "-1", NULL } },
	{ M_RETRY, "--exponent-base: out of range", "--exponent-base", { "-a", "Exponential", "--initial-delay", "1", "--exponent-base", "1e7", NULL } },
	{ M_RETRY, "--exponent-base: NaN", "--exponent-base", { "-a", "Exponential", "--initial-delay", "1", "--exponent-base", "nan", NULL } },
	{ M_RETRY, "--initial-delay1: negative", "--initial-delay1", { "-a", "Fibonacci", "--initial-delay1", "-1", "--initial-delay2", "1", NULL } },
	{ M_RETRY, "--initial-delay2: hexadecimal", "--initial-delay2", { "-a", "Fibonacci", "--initial-delay1", "1", "--initial-delay2", "0x1", NULL } },
	{ M_RETRY, "--delay-increment-on-failure: NaN", "--delay-increment-on-failure", { "-a", "LILD", "--initial-delay", "1", "--delay-increment-on-failure", "nan", "--delay-increment-on-success", "1", NULL } },
	{ M_RETRY, "--delay-increment-on-success: minus more than a year", "--delay-increment-on-success", { "-a", "LILD", "--initial-delay", "1", "--delay-increment-on-failure", "1", "--delay-increment-on-success", "-366d", NULL } },
	{ M_RETRY, "--delay-multiple-on-failure: negative", "--delay-multiple-on-failure", { "-a", "MIMD", "--initial-delay", "1", "--delay-multiple-on-failure", "-2", "--delay-multiple-on-success", "0.5", NULL } },
	{ M_RETRY, "--delay-multiple-on-failure: inf", "--delay-multiple-on-failure", { "-a", "MIMD", "--initial-delay", "1", "--delay-multiple-on-failure", "inf", "--delay-multiple-on-success", "0.5", NULL } },
	{ M_RETRY, "--delay-multiple-on-success: a word", "--delay-multiple-on-success", { "-a", "MIMD", "--initial-delay", "1", "--delay-multiple-on-failure", "2", "--delay-multiple-on-success", "half", NULL } },
	/* A failure never shortens the delay: on-failure increments of 0 or
	 * more, multiples of 1 or more (a success's may shrink it). */
	{ M_RETRY, "--delay-increment-on-failure: negative (LILD)", "--delay-increment-on-failure", { "-a", "LILD", "--initial-delay", "1", "--delay-increment-on-failure", "-0.001", "--delay-increment-on-success", "1", NULL } },
	{ M_SHOW, "--delay-increment-on-failure: negative (LIMD)", "--delay-increment-on-failure", { "-a", "LIMD", "--initial-delay", "1", "--delay-increment-on-failure", "-1ms", "--delay-multiple-on-success", "0.5", NULL } },
	{ M_SIM, "--delay-increment-on-failure: negative (simulate)", "--delay-increment-on-failure", { "-a", "LILD", "--initial-delay", "1", "--delay-increment-on-failure", "-1", "--delay-increment-on-success", "-1", NULL } },
	{ M_RETRY, "--delay-multiple-on-failure: below 1 (MIMD)", "--delay-multiple-on-failure", { "-a", "MIMD", "--initial-delay", "1", "--delay-multiple-on-failure", "0.9", "--delay-multiple-on-success", "0.5", NULL } },
	{ M_SHOW, "--delay-multiple-on-failure: 0 (MILD)", "--delay-multiple-on-failure", { "-a", "MILD", "--initial-delay", "1", "--delay-multiple-on-failure", "0", "--delay-increment-on-success", "-1", NULL } },
	{ M_RETRY, "--decorrelated-v2: negative (Polly: medianFirstRetryDelay "
	  "< 0)", "--decorrelated-v2", { "--decorrelated-v2", "-1ms", NULL } },
	{ M_RETRY, "--decorrelated-v2: with another strategy", "--decorrelated-v2", { "--decorrelated", "1s", "--decorrelated-v2", "1s", NULL } },
	/* --decorrelated's DUR is the least delay it draws. */
	{ M_RETRY, "--max-delay: 0 under --decorrelated", "--max-delay", { "--decorrelated", "1ms", "--max-delay", "0", NULL } },
	{ M_SHOW, "--max-delay: below --decorrelated's DUR", "--max-delay", { "--max-delay", "999us", "--decorrelated", "1ms", NULL } },
	{ M_SIM, "simulate --max-delay: below --decorrelated's DUR", "--max-delay", { "--decorrelated", "5ms", "--max-delay", "4ms", NULL } },
	{ M_RETRY, "--jitter-factor: over 0.5", "--jitter-factor", { "-a", "Constant", "--delay", "1", "--jitter-factor", "0.6", NULL } },
	{ M_RETRY, "--jitter-factor: negative", "--jitter-factor", { "-a", "Constant", "--delay", "1", "--jitter-factor", "-0.1", NULL } },
	{ M_RETRY, "--jitter-factor: NaN", "--jitter-factor", { "-a", "Constant", "--delay", "1", "--jitter-factor", "nan", NULL } },
	{ M_SIM, "simulate --clients: a huge range", "--clients", { "--clients", "1-99999999999999999999", NULL } },
	{ M_RETRY, "--output until: empty", "--output until", { "--until-output", "", NULL } },
	{ M_RETRY, "--output until: an unmatched parenthesis", "--output until", { "--until-output", "(", NULL } },
	{ M_RETRY, "--output fail: an unmatched bracket", "--output fail", { "--fail-if-output", "[", NULL } },
	{ M_RETRY, "--output retry: a reversed interval", "--output retry", { "--retry-if-output", "x{2,1}", NULL } },
	{ M_RETRY, "--output stop: a back reference to nothing", "--output stop", { "--stop-if-output", "\\1", NULL } },
	{ M_RETRY, "--output stop: a back reference", "--output stop", { "--stop-if-output", "(a)\\1", NULL } },
	{ M_RETRY, "--output until: an unknown character class", "--output until", { "--until-output", "[[:bogus:]]", NULL } },
	{ M_RETRY, "--output until: a newline in a bad pattern", "--output until", { "--until-output", "a\n(", NULL } },
	{ M_RETRY, "--output fail: an interval past 65535", "--output fail", { "--fail-if-output", "x{1,65536}", NULL } },
	{ M_RETRY, "--output delay: no group", "--output delay", { "--delay-from-output", "Retry-After", NULL } },
	{ M_RETRY, "--delay-from-output-replaces: without --delay-from-output", "--delay-from-output-replaces", { "--delay-from-output-replaces", "true", NULL } },
	{ M_RETRY, "--delay-from-output-replaces: with another rule only", "--delay-from-output-replaces", { "--delay-from-output-replaces", "--retry-if-output", "x", "true", NULL } },
	{ M_RETRY, "--match: without an output rule", "--match", { "--match", "stdout", NULL } },
	{ M_RETRY, "--exit-on-match: without --until-output", "--exit-on-match", { "--exit-on-match", "true", NULL } },
	{ M_RETRY, "--exit-on-match: with another rule only", "--exit-on-match", { "--exit-on-match", "--fail-if-output", "x", "true", NULL } },
	{ M_SHOW, "--ascii: without --chart", "--ascii", { "--ascii", NULL } },
	{ M_SIM, "--max: a fraction", "--max", { "--max", "1.5", NULL } },
};

/*
 * An accepted command line, and what the configuration must then say
 * (the words of describe(), each one present).
 */
static const struct accepted {
	enum face	 face;
	const char	*argv[16];
	const char	*want;
} accepted[] = {
	{ M_RETRY, { NULL }, "exp base=1s factor=2 max=5 max_delay=none "
	  "budget=none timeout=none kill_after=5s signal=15 forever=0 "
	  "help=0 version=0 criteria=0 success_on=0" },
	{ M_RETRY, { "-n", "0", NULL }, "max=0 max_delay=5m" },
	{ M_RETRY, { "-n", "0", "--fixed", "1s", NULL },
	  "fixed max_delay=none" },
	{ M_RETRY, { "-d", "1,2,4", NULL }, "list nlist=3 max=5" },
	{ M_RETRY, { "--delay=10", NULL }, "list nlist=1" },
	{ M_RETRY, { "-d", "500ms,1m", NULL }, "list nlist=2" },
	{ M_RETRY, { "--delay", "1", "-a", "Constant", NULL }, "algorithm" },
	{ M_RETRY, { "-t", "3", NULL }, "max=3" },
	{ M_RETRY, { NULL }, "share_window=1m share_timeout=200ms label=none" },
	{ M_RETRY, { NULL }, "share=none share_open=0 share_max=10 "
	  "share_ratio=0.2 share_trip=0" },
	{ M_RETRY, { "--share", "n", "--share-open", "giveup", "--share-budget",
	  "5:0.5", "--share-breaker", "3:2s", NULL }, "share=n share_open=1 "
	  "share_max=5 share_ratio=0.5 share_trip=3 share_cooldown=2s" },
	{ M_RETRY, { "--share", "n", "--share-open", "giveup", "--share-open",
	  "wait", NULL }, "share_open=0" },
	{ M_SIM, { NULL }, "clients=100 rates=none" },
	{ M_SIM, { "--clients", "10,20", "--failure-rate", "0.5", NULL },
	  "clients=10,20 rates=0.5" },
	{ M_RETRY, { "--share", "n", "--share-window", "1s", "--share-timeout",
	  "1ms", NULL },
	  "share_window=1s share_timeout=1ms" },
	{ M_RETRY, { "--share", "n", "--share-window", "1d", "--share-timeout",
	  "60s", NULL },
	  "share_window=1d share_timeout=1m" },
	{ M_RETRY, { "--label", "api", NULL }, "label=api" },
	{ M_RETRY, { "--message", "web", NULL }, "label=web" },
	/* After --, a unit or a number is the command the user named. */
	{ M_BARE, { "--max", "3", "--", "ms", NULL }, "max=3 nargs=1" },
	{ M_BARE, { "--exp", "100", "--", "s", NULL }, "exp base=1m40s nargs=1" },
	{ M_BARE, { "--", "5", "s", NULL }, "nargs=2" },
	/* A word that is not a unit after a value. */
	{ M_BARE, { "--timeout", "5", "sleep", "1", NULL }, "nargs=2" },
	{ M_BARE, { "--label", "5", "ms", NULL }, "nargs=1" },
	{ M_RETRY, { "--times=7", NULL }, "max=7" },
	{ M_RETRY, { "--tries", "4", NULL }, "max=4" },
	{ M_RETRY, { "-t", "-1", NULL }, "max=0 max_delay=5m" },
	{ M_RETRY, { "-t", "-01", NULL }, "max=0" },
	{ M_RETRY, { "-t", "9999999999", NULL }, "max=0 max_delay=5m" },
	{ M_RETRY, { "-t", "99999999999999999999", NULL }, "max=0" },
	{ M_RETRY, { "-t", "1000000000", NULL }, "max=1000000000" },
	{ M_RETRY, { "-t", " 3", NULL }, "max=3" },
	{ M_RETRY, { "-t", "+3", NULL }, "max=3" },
	{ M_SHOW, { "-t", "3", NULL }, "max=3" },
	{ M_RETRY, { "-d", "1, 2, 4", NULL }, "list nlist=3" },
	{ M_RETRY, { "--delays", " 1s ,2s", NULL }, "list nlist=2" },
	{ M_RETRY, { "-u", "1, 2 ,success", NULL },
	  "criteria=1 success_on=0-2 max=5" },
	/* --while: every status but those ends the run. */
	{ M_RETRY, { "-w", "1-999", NULL }, "criteria=1 success_on=0" },
	/* -h and -v end the parse, as in Debian's retry. */
	{ M_RETRY, { "-h", "-t", "0", NULL }, "help=1 help_all=0 max=5" },
	/* --help all: every option; the word after it read only if all. */
	{ M_RETRY, { "--help", "all", "-t", "0", NULL },
	  "help=1 help_all=1 max=5" },
	{ M_RETRY, { "--help=all", NULL }, "help=1 help_all=1" },
	{ M_RETRY, { "-h", "all", NULL }, "help=1 help_all=1" },
	{ M_RETRY, { "--help", "ls", "all", NULL }, "help=1 help_all=0" },
	{ M_SHOW, { "--help", "all", NULL }, "help=1 help_all=1" },
	{ M_RETRY, { "-v", "-u", "s", NULL },
	  "version=1 criteria=0 success_on=0 max=5" },
	{ M_RETRY, { "-t", "3", "-n", "2", NULL }, "max=2" },
	{ M_RETRY, { "-T", "3", NULL }, "timeout=3s" },
	/* A timeout of 0 is none, as timeout(1)'s is. */
	{ M_RETRY, { "-T", "0", NULL }, "timeout=none" },
	{ M_RETRY, { "--timeout", "0ms", NULL }, "timeout=none" },
	{ M_RETRY, { "--timeout=0.0", NULL }, "timeout=none" },
	{ M_RETRY, { "-T", "3", "--timeout", "0", NULL }, "timeout=none" },
	{ M_RETRY, { "-u", "success,true,fail,false,0,1-3", NULL },
	  "criteria=1 success_on=0-255" },
	{ M_RETRY, { "-w", "0-255", NULL }, "criteria=1 success_on=none" },
	/* Of -u and -w, one setting, the last given counts (Debian's). */
	{ M_RETRY, { "-u", "3", "-w", "0", NULL },
	  "criteria=1 success_on=1-255" },
	{ M_RETRY, { "-w", "0", "-u", "3", NULL }, "criteria=1 success_on=3" },
	{ M_RETRY, { "-n", "0", "--fib", "1s", NULL }, "fib max_delay=5m" },
	{ M_RETRY, { "-n", "0", "--linear", "1s", NULL }, "max_delay=5m" },
	{ M_RETRY, { "-n", "0", "--decorrelated", "1s", NULL },
	  "max_delay=5m" },
	{ M_RETRY, { "-n", "0", "--decorrelated-v2", "1s", NULL },
	  "decorrelated-v2 base=1s max_delay=5m" },
	/* Polly's: the median first delay may be 0, not negative; a cap
	 * under it is a cap (it has no floor). */
	{ M_SHOW, { "--decorrelated-v2", "0", "-M", "0", NULL },
	  "decorrelated-v2 base=0s max_delay=0s" },
	{ M_RETRY, { "-n", "0", "-x", "1s", "-M", "1h", NULL },
	  "max_delay=1h" },
	/* A cap at --decorrelated's DUR: every delay DUR.  Under the first
	 * delay of a deterministic strategy: every delay at the cap. */
	{ M_RETRY, { "--decorrelated", "1ms", "-M", "1ms", NULL },
	  "decorrelated base=1ms max_delay=1ms" },
	{ M_SHOW, { "--exp", "1s", "-M", "0", NULL }, "exp max_delay=0s" },
	{ M_SHOW, { "--fib", "1s", "-M", "1ms", NULL }, "fib max_delay=1ms" },
	/* The least a failure may change the delay by: nothing. */
	{ M_SHOW, { "-a", "LILD", "--initial-delay", "1",
	  "--delay-increment-on-failure", "0", "--delay-increment-on-success",
	  "-1", NULL }, "algorithm" },
	{ M_SHOW, { "-a", "MIMD", "--initial-delay", "1",
	  "--delay-multiple-on-failure", "1", "--delay-multiple-on-success",
	  "0", NULL }, "algorithm" },
	{ M_RETRY, { "--forever", NULL }, "max=0 forever=1 max_delay=5m" },
	{ M_RETRY, { "--forever", "-n", "3", NULL }, "max=3 forever=1" },
	/* --forever: a second after a success unless told otherwise. */
	{ M_RETRY, { "--forever", NULL }, "delay_on_success=1" },
	{ M_RETRY, { "--forever", "--delay-on-success", "0", NULL },
	  "delay_on_success=0" },
	{ M_RETRY, { "--forever", "--delay-on-success", "250ms", NULL },
	  "delay_on_success=0.25" },
	{ M_RETRY, { "-n", "3", NULL }, "delay_on_success=0" },
	{ M_RETRY, { "--forever", "-a", "LIMD", "--initial-delay", "1",
	  "--delay-increment-on-failure", "1", "--delay-multiple-on-success",
	  "0.5", NULL }, "delay_on_success=0" },
	{ M_RETRY, { "--fixed", "2s", NULL }, "successes=1 delay_on_success=0" },
	/* --successes: between successes, the strategy's first delay. */
	{ M_RETRY, { "--successes", "3", "--fixed", "2s", NULL },
	  "successes=3 delay_on_success=2 max=5" },
	{ M_RETRY, { "--successes", "3", "--delays", "250ms,4s", NULL },
	  "delay_on_success=0.25" },
	{ M_RETRY, { "--successes", "2", "-d", "3", NULL },
	  "delay_on_success=3" },
	{ M_RETRY, { "--successes", "2", "--immediate", NULL },
	  "delay_on_success=0" },
	{ M_RETRY, { "--successes", "2", "--delay-on-success", "0.5", NULL },
	  "delay_on_success=0.5" },
	{ M_RETRY, { "--successes", "2", "-a", "Fibonacci", "--initial-delay1",
	  "1.5", "--initial-delay2", "2", NULL }, "delay_on_success=1.5" },
	{ M_RETRY, { "--successes", "1", "--fixed", "2s", NULL },
	  "successes=1 delay_on_success=0" },
	{ M_RETRY, { "--successes", "5", "-n", "0", NULL }, "successes=5 max=0" },
	{ M_RETRY, { "--successes", "9", "--budget", "1m", NULL },
	  "successes=9 max=0" },
	{ M_SHOW, { "--successes", "2", NULL }, "successes=2" },
	{ M_RETRY, { "--retry-on", "1:2,75,76-78:9", NULL }, "limits=2" },
	/* Lists, output rules and hooks given again add up, in order. */
	{ M_RETRY, { "--retry-on", "1:2", "--retry-on", "3", NULL },
	  "limits=1 retry_on=1,3" },
	{ M_RETRY, { "--retry-on", "1:2,5", "--retry-on", "1:2,75:3", NULL },
	  "limits=3 retry_on=1,5,75" },
	{ M_RETRY, { "--retry-on", "1", "--retry-on", "75", NULL },
	  "retry_on=1,75" },
	{ M_RETRY, { "--stop-on", "3", "--stop-on", "2", NULL },
	  "stop_on=2-3" },
	{ M_RETRY, { "--success-on", "3", "--success-on", "0", NULL },
	  "success_on=0,3" },
	{ M_RETRY, { "--success-on", "3", NULL }, "success_on=3" },
	{ M_RETRY, { "--until-output", "a", "--until-output", "b", NULL },
	  "until_output=a,b" },
	{ M_RETRY, { "--on-giveup", "x", "--on-retry", "r", "--on-giveup",
	  "y", NULL }, "on_giveup=x,y on_retry=r" },
	/* Single values: the last counts. */
	{ M_RETRY, { "--timeout", "1s", "--timeout", "2s", NULL },
	  "timeout=2s" },
	{ M_RETRY, { "--log-file", "a", "--log-file", "b", NULL },
	  "log_file=b" },
	{ M_RETRY, { "-a", "Constant", "--delay", "1", NULL }, "max=5" },
	{ M_RETRY, { "-a", "Constant", "--delay", "1", "--dry-run", NULL },
	  "max=5" },
	{ M_SHOW, { "-a", "Constant", "--delay", "1", NULL }, "max=0" },
	{ M_RETRY, { "--budget", "5m", NULL }, "max=0 budget=5m" },
	{ M_RETRY, { "--fixed", "2s", "--budget", "5m", NULL },
	  "max=0 max_delay=none" },
	{ M_RETRY, { "--budget", "5m", "--max", "3", NULL }, "max=3" },
	{ M_RETRY, { "-t", "3", "--budget", "5m", NULL }, "max=3" },
	{ M_RETRY, { "--max-actual-duration", "60", NULL }, "max=0" },
	{ M_SHOW, { "--budget", "1m", NULL }, "max=0" },
	{ M_RETRY, { "--max-attempts", "7", NULL }, "max=7" },
	{ M_RETRY, { "--budget", "1m30s", "--timeout", "10", NULL },
	  "budget=1m30s timeout=10s" },
	/* --hedge refuses --successes over 1, not the default 1. */
	{ M_RETRY, { "--hedge", "1s", "--stdin", "null", "--successes", "1",
	  NULL }, "successes=1" },
	/* --retry-on 0: where 0 is no success, or an output rule can make
	 * an exit 0 a failure. */
	{ M_RETRY, { "--retry-on", "0", "--success-on", "1", NULL },
	  "retry_on=0 success_on=1" },
	{ M_RETRY, { "--retry-on", "0:1", "--fail-if-output", "x", NULL },
	  "retry_on=0 limits=1" },
	{ M_RETRY, { "--retry-on", "0,1", "--until-output", "x", NULL },
	  "retry_on=0-1 until_output=x" },
	{ M_RETRY, { "--retry-on", "0", "-w", "0", NULL }, "retry_on=0" },
	/* A time limit of 0 is none, as if not given: --max 5 holds. */
	{ M_RETRY, { "--budget", "0", NULL }, "max=5 budget=none" },
	{ M_RETRY, { "--deadline", "0", NULL }, "max=5 deadline=none" },
	{ M_RETRY, { "--deadline", "0", "--fixed", "1s", NULL },
	  "max=5 deadline=none" },
	{ M_RETRY, { "--max-actual-duration", "0", NULL }, "max=5" },
	{ M_SHOW, { "--budget", "0", NULL }, "max=5 budget=none" },
	{ M_RETRY, { "--deadline", "1m", NULL }, "max=0 deadline=1m" },
	{ M_RETRY, { "-k", "0", "--signal", "INT", NULL },
	  "kill_after=0s signal=2" },
	{ M_RETRY, { "--signal", "sigkill", NULL }, "signal=9" },
	{ M_RETRY, { "--reset-after", "1h", NULL }, "reset_after=1h" },
	{ M_RETRY, { "--constant", "250ms", NULL }, "fixed base=250ms" },
	{ M_RETRY, { "--exp", "100ms", "--factor", "1.5", NULL },
	  "base=100ms factor=1.5" },
	{ M_RETRY, { "--delays", "1s,2s,3s", NULL }, "list nlist=3" },
	{ M_RETRY, { "--immediate", NULL }, "immediate" },
	{ M_RETRY, { "--min-delay", "1s", "--max-delay", "2s", NULL },
	  "min_delay=1s max_delay=2s" },
	{ M_RETRY, { "--min-delay", "2s", "--max-delay", "2s", NULL },
	  "min_delay=2s max_delay=2s" },
	/* Algorithm::Backoff's rule: min_delay wins over max_delay. */
	{ M_SHOW, { "--fixed", "1s", "--min-delay", "3s", "--max-delay", "2s",
	  NULL }, "min_delay=3s max_delay=2s" },
	/* Refinements, not conflicts: a stop on a success status, other
	 * statuses retried and stopped on. */
	{ M_RETRY, { "--success-on", "0,3", "--stop-on", "3", NULL },
	  "criteria=0 success_on=0,3" },
	{ M_RETRY, { "--retry-on", "1,75", "--stop-on", "2", NULL },
	  "criteria=0" },
	{ M_RETRY, { "--until", "3", "--stop-on", "3", NULL },
	  "criteria=1 success_on=3" },
	{ M_RETRY, { "--fixed", "365d", NULL }, "base=365d" },
	{ M_SHOW, { "0", "1:5", "0:+2.5", NULL }, "nargs=3" },
	{ M_SHOW, { "-n", "0", NULL }, "max=0" },
	/* The blog's exponential back-off: 5ms x F^n after the n-th failure. */
	{ M_SIM, { NULL }, "max=0 base=10ms max_delay=2s" },
	{ M_SIM, { "--factor", "3", NULL }, "base=15ms factor=3" },
	{ M_SIM, { "--decorrelated", "5ms", NULL }, "decorrelated base=5ms" },
	{ M_SIM, { "--max", "3", "--max-delay", "1s", NULL },
	  "max=3 max_delay=1s" },
};

/* A command line refused with a pointer to the option meant. */
static const struct suggested {
	enum face	 face;
	const char	*argv[4];
	const char	*want;		/* in the error */
} suggested[] = {
	{ M_RETRY, { "--unti", "0", NULL }, "(did you mean --until?)" },
	{ M_RETRY, { "--whil", "0", NULL }, "not abbreviated (did you mean "
	  "--while?)" },
	{ M_RETRY, { "--messag", "x", NULL }, "not abbreviated (did you mean "
	  "--message?)" },
	{ M_RETRY, { "--until-out", "x", NULL }, "(did you mean "
	  "--until-output?)" },
	{ M_RETRY, { "--hol", "stdout", NULL }, "(did you mean --hold?)" },
	{ M_RETRY, { "--time", "3s", NULL }, "(did you mean --times or "
	  "--timeout?)" },
	{ M_RETRY, { "--time=3s", NULL }, "(did you mean --times or "
	  "--timeout?)" },
	{ M_RETRY, { "--max-del", "1s", NULL }, "(did you mean --max-delay?)" },
	{ M_RETRY, { "--exponential", "1s", NULL }, "(did you mean --exp?)" },
	{ M_RETRY, { "--attempts", "3", NULL }, "(did you mean --max?)" },
	{ M_RETRY, { "--retries", "3", NULL }, "(did you mean --max?)" },
	{ M_RETRY, { "--sleep", "1", NULL }, "(did you mean --fixed?)" },
	{ M_RETRY, { "--interval", "1", NULL }, "(did you mean --fixed?)" },
	{ M_RETRY, { "--wait", "1", NULL }, "(did you mean --fixed?)" },
	{ M_RETRY, { "--backoff", "1s", NULL }, "(did you mean --exp?)" },
	{ M_RETRY, { "--jit", "full", NULL }, "(did you mean --jitter-factor "
	  "or --jitter?)" },
	{ M_RETRY, { "--jiter", "full", NULL }, "(did you mean --jitter?)" },
	{ M_RETRY, { "--bogus", NULL }, "unknown option '--bogus'" },
	{ M_SHOW, { "--cout", "3", NULL }, "(did you mean --count?)" },
	/* getopt took the next word for the value. */
	{ M_RETRY, { "--exp", "--", NULL }, "--exp: needs a duration (as in "
	  "--exp 1s), not '--'" },
	{ M_RETRY, { "-x", "--", NULL }, "--exp: needs a duration" },
	{ M_RETRY, { "--fixed", "--max", "3", NULL }, "--fixed: needs a "
	  "duration (as in --fixed 1s), not '--max'" },
	{ M_RETRY, { "--max", "-q", NULL }, "--max: needs a number (as in "
	  "--max 3), not '-q'" },
	{ M_RETRY, { "--match", "--", NULL }, "--match: needs a value "
	  "(STREAM), not '--'" },
	{ M_SHOW, { "--initial-delay", "-a", NULL }, "--initial-delay: needs "
	  "a number, not '-a'" },
};

/*
 * A refused command line and the whole line that says why (retry prints it
 * after "retry: ", then the pointer to --help).
 */
#define UNITS	"unknown unit (use ns, us, ms, s, m, h or d)"
static const struct worded {
	enum face	 face;
	const char	*name;
	const char	*argv[12];
	const char	*line;
} worded[] = {
	/* --help=WORD: all, or nothing. */
	{ M_RETRY, "--help=WORD", { "--help=list", NULL },
	  "--help: unknown topic 'list' (use all)" },
	{ M_RETRY, "--help=", { "--help=", NULL },
	  "--help: unknown topic '' (use all)" },
	/* --hedge: DUR[:N], and what cannot go with it. */
	{ M_RETRY, "--hedge without --stdin", { "--hedge", "1s", NULL },
	  "--hedge: needs --stdin replay or --stdin null (attempts side by "
	  "side cannot share one stdin)" },
	{ M_RETRY, "--hedge: N of 1", { "--hedge", "1s:1", "--stdin", "null",
	  NULL }, "--hedge: '1s:1': N must be a whole number from 2 to 16" },
	{ M_RETRY, "--hedge: DUR of 0", { "--hedge", "0", "--stdin", "null",
	  NULL }, "--hedge: '0': DUR must be a duration over 0, as 500ms" },
	{ M_RETRY, "--hedge with --only-last", { "--hedge", "1s", "--stdin",
	  "replay", "--only-last", NULL },
	  "--hedge: conflicts with --only-last (a hedged run passes on one "
	  "attempt's output already)" },
	{ M_RETRY, "--hedge with --exit-on-match", { "--hedge", "1s", "--stdin",
	  "null", "--until-output", "x", "--exit-on-match", NULL },
	  "--hedge: conflicts with --exit-on-match (a hedged attempt's output "
	  "is matched once it ends)" },
	{ M_RETRY, "--hedge with a --timeout not longer", { "--hedge", "1s",
	  "--stdin", "null", "--timeout", "1s", NULL },
	  "--hedge: conflicts with --timeout (1s is not below 1s: no attempt "
	  "runs long enough to be hedged)" },
	{ M_RETRY, "--hedge with --successes", { "--hedge", "1s", "--stdin",
	  "null", "--successes", "2", NULL },
	  "--hedge: conflicts with --successes (a hedged run ends on its "
	  "first success)" },
	/* Durations. */
	{ M_RETRY, "an empty duration", { "--fixed", "", NULL },
	  "--fixed: '': empty duration" },
	{ M_RETRY, "a negative duration", { "--fixed", "-1s", NULL },
	  "--fixed: '-1s': negative duration" },
	{ M_RETRY, "a negative --timeout", { "--timeout", "-1s", NULL },
	  "--timeout: '-1s': negative duration" },
	{ M_RETRY, "NaN is not a duration", { "--exp", "nan", NULL },
	  "--exp: 'nan': not a number" },
	{ M_RETRY, "inf is not a duration", { "--fixed", "inf", NULL },
	  "--fixed: 'inf': not a number" },
	{ M_RETRY, "an unknown unit", { "--fixed", "5x", NULL },
	  "--fixed: '5x': " UNITS },
	{ M_RETRY, "units are lower case", { "--max-delay", "1S", NULL },
	  "--max-delay: '1S': " UNITS },
	{ M_RETRY, "trailing junk after a duration", { "--fixed", "1s!", NULL },
	  "--fixed: '1s!': not a number" },
	{ M_RETRY, "a trailing space after a duration",
	  { "--budget", "10ms ", NULL }, "--budget: '10ms ': not a number" },
	{ M_RETRY, "a duration over 365 days", { "--fixed", "366d", NULL },
	  "--fixed: '366d': longer than 365 days" },
	{ M_SHOW, "365 days and a nanosecond",
	  { "--fixed", "365d1ns", "-n", "2", NULL },
	  "--fixed: '365d1ns': longer than 365 days" },
	{ M_RETRY, "1m30 mixes a unit with a bare number",
	  { "--budget", "1m30", NULL },
	  "--budget: '1m30': a number without a unit must stand alone" },
	{ M_RETRY, "a bad item in --delays", { "--delays", "1s,2x", NULL },
	  "--delays: '2x': " UNITS },
	{ M_RETRY, "an empty item in --delays", { "--delays", "1s,,2s", NULL },
	  "--delays: item 2 of '1s,,2s' is empty" },

	/* Strategies. */
	{ M_RETRY, "two strategies", { "--fixed", "1s", "--exp", "2s", NULL },
	  "--exp: conflicts with --fixed (give one strategy)" },
	{ M_RETRY, "--immediate with another strategy",
	  { "--linear", "1s", "--immediate", NULL },
	  "--immediate: conflicts with --linear (give one strategy)" },
	{ M_RETRY, "--factor 0.5 (must be at least 1)",
	  { "--factor", "0.5", NULL },
	  "--factor: '0.5' is out of range (1 to 1e+06)" },
	{ M_RETRY, "--factor that is not a number", { "--factor", "inf", NULL },
	  "--factor: 'inf' is not a number" },
	{ M_RETRY, "--factor without --exp",
	  { "--fixed", "1s", "--factor", "2", NULL },
	  "--factor: goes with --exp" },

	/* The option table's conflicts: pairs that cannot both hold. */
	{ M_RETRY, "--success-on with --until",
	  { "--success-on", "3", "--until", "success", NULL },
	  "--until: conflicts with --success-on (both say which statuses "
	  "succeed)" },
	{ M_RETRY, "--while with --success-on",
	  { "-w", "1", "--success-on", "0", NULL },
	  "--while: conflicts with --success-on (both say which statuses "
	  "succeed)" },
	{ M_RETRY, "--retry-on and --stop-on on one status",
	  { "--retry-on", "1,75", "--stop-on", "2,75", NULL },
	  "--stop-on: conflicts with --retry-on on status 75 (a status is "
	  "either stopped on or retried)" },
	{ M_RETRY, "--retry-on a success",
	  { "--success-on", "0,3", "--retry-on", "3:2", NULL },
	  "--retry-on: conflicts with --success-on on status 3 (a success is "
	  "never retried)" },
	{ M_RETRY, "--retry-on 0, a success by default",
	  { "--retry-on", "0", NULL },
	  "--retry-on: status 0 is a success, never retried; --success-on "
	  "can say which statuses succeed" },
	{ M_RETRY, "--retry-on a range over 0, a success by default",
	  { "--retry-on", "75", "--retry-on", "0-2:3", NULL },
	  "--retry-on: status 0 is a success, never retried; --success-on "
	  "can say which statuses succeed" },
	{ M_RETRY, "--retry-on a status that meets --until",
	  { "--until", "fail", "--retry-on", "1", NULL },
	  "--retry-on: conflicts with --until on status 1 (a status that "
	  "meets --until ends the run)" },
	{ M_RETRY, "--min-delay above --max-delay",
	  { "--min-delay", "5s", "--max-delay", "1s", NULL },
	  "--min-delay: conflicts with --max-delay (5s is above 1s: no delay "
	  "can be both)" },
	{ M_SIM, "--min-delay above --max-delay, in simulate",
	  { "--max-delay", "1s", "--min-delay", "1500ms", NULL },
	  "--min-delay: conflicts with --max-delay (1.5s is above 1s: no "
	  "delay can be both)" },
	{ M_RETRY, "-q with --verbose", { "-q", "--verbose", NULL },
	  "--verbose: conflicts with --quiet (give one)" },

	/* A list given again: a status only with the limit it had. */
	{ M_RETRY, "a status given again with another limit",
	  { "--retry-on", "1:2", "--retry-on", "1:3", NULL },
	  "--retry-on: '1:3': status 1 is given again with another limit" },
	{ M_RETRY, "a status given again without its limit",
	  { "--retry-on", "75-78:10", "--retry-on", "1,76", NULL },
	  "--retry-on: '1,76': status 76 is given again with another limit" },
	{ M_RETRY, "an empty pattern given again",
	  { "--until-output", "a", "--until-output", "", NULL },
	  "--output until: empty pattern" },

	/* Lists of codes, and signals. */
	{ M_RETRY, "a reversed range 5-3", { "--success-on", "5-3", NULL },
	  "--success-on: '5-3': reversed range" },
	{ M_RETRY, "an open range 5-", { "--retry-on", "5-", NULL },
	  "--retry-on: '5-': open range (give both ends, as in 75-78)" },
	{ M_RETRY, "an empty list of codes", { "--stop-on", "", NULL },
	  "--stop-on: '': empty list" },
	{ M_RETRY, "an empty item in a list of codes",
	  { "--retry-on", "1,,2", NULL }, "--retry-on: '1,,2': empty item" },
	{ M_RETRY, "a limit of 0 retries", { "--retry-on", "1:0,75", NULL },
	  "--retry-on: '1:0,75': a limit is a number of retries from 1 to "
	  "1000000000, as in 1:2" },
	{ M_RETRY, "a status given twice, with limits",
	  { "--retry-on", "1:2,1:3", NULL },
	  "--retry-on: '1:2,1:3': status 1 is given twice (each status once in "
	  "a list)" },
	{ M_RETRY, "a limit elsewhere than --retry-on",
	  { "--success-on", "0:2", NULL },
	  "--success-on: '0:2': only --retry-on takes a limit (:N)" },
	{ M_RETRY, "--successes with --forever",
	  { "--forever", "--successes", "2", NULL },
	  "--successes: a --forever run never ends on a success" },
	{ M_RETRY, "--successes over --max", { "-n", "3", "--successes", "4",
	  NULL }, "--successes: 4 in a row cannot fit in --max 3" },
	{ M_SHOW, "--successes over the default --max", { "--successes", "6",
	  NULL }, "--successes: 6 in a row cannot fit in --max 5" },
	{ M_RETRY, "a status over 255", { "--success-on", "256", NULL },
	  "--success-on: '256': out of range" },
	{ M_RETRY, "an unknown signal name in a list of codes",
	  { "--stop-on", "SIGBOGUS", NULL },
	  "--stop-on: 'SIGBOGUS': unknown signal name" },
	{ M_RETRY, "a bad signal name for --signal", { "--signal", "BOGUS", NULL },
	  "--signal: 'BOGUS': unknown signal name" },
	{ M_RETRY, "-u: an unknown criterion", { "-u", "s", NULL },
	  "--until: 's': unknown criterion (use success, true, fail, false, "
	  "a status or a range such as 1-3)" },

	/* Jitter. */
	{ M_RETRY, "--jitter bogus", { "--jitter", "bogus", NULL },
	  "--jitter: 'bogus': unknown mode (use none, full, equal, "
	  "scattered[:R], down[:R], add:DUR or DUR)" },
	{ M_RETRY, "--jitter scattered:2 (the ratio is at most 1)",
	  { "--jitter", "scattered:2", NULL },
	  "--jitter: 'scattered:2': the ratio after ':' must be between 0 "
	  "and 1" },
	{ M_RETRY, "--jitter down:abc", { "--jitter", "down:abc", NULL },
	  "--jitter: 'down:abc': the ratio after ':' is not a number" },
	{ M_RETRY, "--jitter full takes no ratio",
	  { "--jitter", "full:0.5", NULL },
	  "--jitter: 'full:0.5': only scattered and down take a ratio" },
	{ M_RETRY, "--jitter add without a duration", { "--jitter", "add", NULL },
	  "--jitter: 'add': add needs a duration, as in add:500ms" },
	{ M_RETRY, "--jitter add with a negative duration",
	  { "--jitter", "add:-1s", NULL },
	  "--jitter: 'add:-1s': negative duration" },

	/* Numbers. */
	{ M_RETRY, "--max -1", { "--max", "-1", NULL },
	  "--max: '-1' is too small (give a whole number from 0 to "
	  "1000000000)" },
	{ M_RETRY, "--max-attempts abc names itself",
	  { "--max-attempts", "abc", NULL },
	  "--max-attempts: 'abc' is not a whole number (give a whole number "
	  "from 0 to 1000000000)" },
	{ M_RETRY, "--seed 1.5", { "--seed", "1.5", NULL },
	  "--seed: '1.5' is not a whole number (give a whole number from 0 to "
	  "9223372036854775807)" },
	{ M_SHOW, "show-backoff-delays --count 0", { "--count", "0", NULL },
	  "--count: '0' is too small (give a whole number from 1 to "
	  "10000000)" },

	/* Labels. */
	{ M_RETRY, "--label ''", { "--label", "", NULL },
	  "--label: must be one non-empty line" },
	{ M_RETRY, "--label with a newline", { "--label", "a\nb", NULL },
	  "--label: must be one non-empty line" },
	{ M_RETRY, "--message with a return", { "--message", "a\rb", NULL },
	  "--message: must be one non-empty line" },

	/* Durations within bounds. */
	{ M_RETRY, "--share-window under 1s", { "--share-window", "999ms",
	  NULL }, "--share-window: '999ms': give 1s to 1d" },
	{ M_RETRY, "--share-window over 1d", { "--share-window", "25h", NULL },
	  "--share-window: '25h': give 1s to 1d" },
	{ M_RETRY, "--share-window not a duration", { "--share-window", "x",
	  NULL }, "--share-window: 'x': not a number" },
	{ M_RETRY, "--share-timeout 0", { "--share-timeout", "0", NULL },
	  "--share-timeout: '0': give 1ms to 60s" },
	{ M_RETRY, "--share-timeout over 60s", { "--share-timeout", "61s",
	  NULL }, "--share-timeout: '61s': give 1ms to 60s" },

	/* The shared state's options, and simulate's lists. */
	{ M_RETRY, "--share-open maybe", { "--share-open", "maybe", NULL },
	  "--share-open: unknown mode 'maybe' (use wait or giveup)" },
	{ M_RETRY, "--share a/b", { "--share", "a/b", NULL },
	  "--share: 'a/b': only letters, digits, '.', '_' and '-'" },
	{ M_RETRY, "--share-budget x", { "--share-budget", "x", NULL },
	  "--share-budget: 'x': N must be a number of tokens from 1 to "
	  "1000000" },
	{ M_RETRY, "--share-breaker 3", { "--share-breaker", "3", NULL },
	  "--share-breaker: '3': give N:COOLDOWN, as in 5:30s" },
	{ M_SIM, "simulate --clients x", { "--clients", "x", NULL },
	  "--clients: 'x': give whole numbers, as in 10,50,100 or "
	  "10-190:20" },
	{ M_SIM, "simulate --failure-rate 2", { "--failure-rate", "2", NULL },
	  "--failure-rate: '2': a probability is from 0 to 1" },
	{ M_RETRY, "--success-on x", { "--success-on", "x", NULL },
	  "--success-on: 'x': unknown signal name" },

	/* The output rules: each named by its own option. */
	{ M_RETRY, "--until-output ''", { "--until-output", "", NULL },
	  "--output until: empty pattern" },
	{ M_RETRY, "--fail-if-output ''", { "--fail-if-output", "", NULL },
	  "--output fail: empty pattern" },
	{ M_RETRY, "--retry-if-output ''", { "--retry-if-output", "", NULL },
	  "--output retry: empty pattern" },
	{ M_RETRY, "--stop-if-output ''", { "--stop-if-output", "", NULL },
	  "--output stop: empty pattern" },
	{ M_RETRY, "--delay-from-output ''", { "--delay-from-output", "",
	  NULL }, "--output delay: empty pattern" },

	/* Options unknown, misplaced or without their value. */
	{ M_RETRY, "an unknown long option", { "--bogus", NULL },
	  "unknown option '--bogus'" },
	{ M_RETRY, "an unknown short option", { "-Z", NULL },
	  "unknown option '-Z'" },
	{ M_RETRY, "--immediate=3 (it takes no value)", { "--immediate=3", NULL },
	  "--immediate: takes no value" },
	{ M_RETRY, "a show-backoff-delays option given to retry",
	  { "--format", "csv", NULL }, "--format: is not an option of retry" },
	{ M_BARE, "a long option without its value", { "--fixed", NULL },
	  "--fixed: needs a value" },
	{ M_BARE, "a short option without its value", { "-n", NULL },
	  "-n: needs a value" },
	{ M_BARE, "getopt took the next word for the value: --",
	  { "--exp", "--", "true", NULL },
	  "--exp: needs a duration (as in --exp 1s), not '--'" },
	{ M_BARE, "getopt took the next word for the value: an option",
	  { "--fixed", "--max", "3", "--", "true", NULL },
	  "--fixed: needs a duration (as in --fixed 1s), not '--max'" },
	/* A unit, a count's word or a number where the command starts. */
	{ M_BARE, "a unit apart after --exp's number",
	  { "--exp", "100", "ms", NULL },
	  "--exp: did you mean --exp 100ms? ('ms' would run as the command)" },
	{ M_BARE, "a unit apart after --timeout=",
	  { "--timeout=5", "seconds", "-c", "x", NULL },
	  "--timeout: did you mean --timeout 5s? ('seconds' would run as the "
	  "command)" },
	{ M_BARE, "a unit apart after -x's number, in one word",
	  { "-x1.5", "min", NULL },
	  "--exp: did you mean --exp 1.5m? ('min' would run as the command)" },
	{ M_BARE, "a count's word after --max",
	  { "--max", "3", "times", "curl", NULL },
	  "--max: did you mean --max 3? ('times' would run as the command; a "
	  "command named times goes after --)" },
	{ M_BARE, "a unit after --max",
	  { "--max", "3", "s", NULL },
	  "--max: did you mean --max 3? ('s' would run as the command; a "
	  "command named s goes after --)" },
	{ M_BARE, "a second number after --timeout",
	  { "--timeout", "5", "10", NULL },
	  "--timeout: did you mean --timeout 5? ('10' would run as the "
	  "command; a command named 10 goes after --)" },
	{ M_BARE, "--delays' list written apart",
	  { "--delays", "1", "2", "4", "curl", NULL },
	  "--delays: did you mean --delays 1,2,4? ('2' would run as the "
	  "command)" },
	{ M_BARE, "a number as the command",
	  { "5", "curl", NULL },
	  "'5' would run as the command: did you mean --max 5? (a command "
	  "named 5 goes after --)" },
	{ M_BARE, "a number and a unit as the command",
	  { "5", "s", NULL },
	  "'5 s' would run as the command: did you mean a duration, as in "
	  "--timeout 5s? (a command named 5 goes after --)" },
	{ M_BARE, "no command", { "-n", "3", NULL },
	  "no command given (as in: retry -- curl -fsS URL)" },
	{ M_BARE, "no command after --", { "--", NULL },
	  "no command given (as in: retry -- curl -fsS URL)" },

	/* -a and its options. */
	{ M_RETRY, "-a Bogus", { "-a", "Bogus", NULL },
	  "--algorithm: unknown algorithm 'Bogus' (use Constant, Exponential, "
	  "Fibonacci, LILD, LIMD, MILD or MIMD)" },
	{ M_RETRY, "-a Constant without --delay", { "-a", "Constant", NULL },
	  "--algorithm: Constant needs --delay" },
	{ M_RETRY, "an -a option of another algorithm",
	  { "-a", "MIMD", "--delay", "1", "--initial-delay", "1",
	  "--delay-multiple-on-failure", "2", "--delay-multiple-on-success",
	  "0.5", NULL }, "--delay: is not an option of -a MIMD" },
	{ M_RETRY, "--jitter-factor over 0.5",
	  { "-a", "Constant", "--delay", "1", "--jitter-factor", "0.6", NULL },
	  "--jitter-factor: '0.6' is out of range (0 to 0.5)" },
	{ M_RETRY, "-a MIMD without --delay-multiple-on-failure",
	  { "-a", "MIMD", "--initial-delay", "1", NULL },
	  "--algorithm: MIMD needs --delay-multiple-on-failure" },
	{ M_RETRY, "-a MIMD without --delay-multiple-on-success",
	  { "-a", "MIMD", "--initial-delay", "3",
	  "--delay-multiple-on-failure", "2", NULL },
	  "--algorithm: MIMD needs --delay-multiple-on-success" },
	{ M_RETRY, "--initial-delay without -a", { "--initial-delay", "1", NULL },
	  "--initial-delay: goes with -a/--algorithm" },
	{ M_RETRY, "--jitter-factor without -a",
	  { "--jitter-factor", "0.1", NULL },
	  "--jitter-factor: goes with -a/--algorithm" },

	/* show-backoff-delays' STATUS arguments. */
	{ M_SHOW, "a STATUS that is neither 0 nor 1", { "0", "2", NULL },
	  "status '2': a status is 0 (failure) or 1 (success), then "
	  "optionally :T or :+S" },
	{ M_SHOW, "a STATUS whose time goes backwards", { "0:5", "0:3", NULL },
	  "status '0:3': the time goes backwards" },
};
#undef UNITS

/*
 * has_words itself, which the accepted rows stand on: a word of any length
 * is found whole or not at all.
 */
static const struct words {
	const char	*got, *want;
	bool		 has;
} words[] = {
	{ "a b c", "b", true },
	{ "a b c", "c a", true },
	{ "a  b", " b  a ", true },
	{ "ab c", "a", false },
	{ "a bc", "b", false },
	{ "x=1", "x=10", false },
	{ "x=10", "x=1", false },
	{ "a", "", true },
	{ "a", "b", false },
	/* A word of 71 characters: none is too long to be compared. */
#define LONG	"success_on=1,3,5,7,9,11,13,15,17,19,21,23,25,27,29,31," \
		"33,35,37,39,41,43"
	{ LONG, LONG, true },
	{ LONG, LONG "3", false },
	{ "a", LONG, false },
	{ "success_on=1", LONG, false },
#undef LONG
};

static const char *const strategies[] = {
	[STRAT_EXP] = "exp", [STRAT_FIXED] = "fixed", [STRAT_LINEAR] = "linear",
	[STRAT_FIB] = "fib", [STRAT_LIST] = "list", [STRAT_DECORRELATED] = "decorrelated",
	[STRAT_IMMEDIATE] = "immediate", [STRAT_DECORRELATED_V2] = "decorrelated-v2",
};

static const char *
dur(int64_t ns, char *buf, size_t sz)
{
	return ns < 0 ? "none" : duration_format(ns, buf, sz);
}

/* The statuses, output rules and hooks given, as "name=a,b ". */
static void
texts_describe(const struct config *c, char *s, size_t sz)
{
	const struct { const char *name; const struct texts *t; } t[] = {
		{ "until_output", &c->patterns[RULE_UNTIL] },
		{ "on_retry", &c->on_retry }, { "on_giveup", &c->on_giveup },
		{ "on_success", &c->on_success },
	};
	char codes[2][1024];

	codes_text(&c->verdict.retry_on, codes[0], sizeof(codes[0]));
	codes_text(&c->verdict.stop_on, codes[1], sizeof(codes[1]));
	snprintf(s, sz, "retry_on=");
	strlcat(s, codes[0], sz);
	strlcat(s, " stop_on=", sz);
	strlcat(s, codes[1], sz);
	strlcat(s, " log_file=", sz);
	strlcat(s, c->log_file != NULL ? c->log_file : "none", sz);
	strlcat(s, " ", sz);
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		snprintf(s + strlen(s), sz - strlen(s), "%s=", t[i].name);
		for (size_t j = 0; j < t[i].t->n; j++)
			snprintf(s + strlen(s), sz - strlen(s), "%s%s",
			    j > 0 ? "," : "", t[i].t->v[j]);
		snprintf(s + strlen(s), sz - strlen(s), " ");
	}
}

/* The configuration in words: "name=value", or a strategy's name. */
static void
describe(const struct config *c, char *s, size_t sz)
{
	const struct backoff *b = &c->backoff;
	char d[11][DURATION_BUFSZ], success[1024];

	codes_text(&c->verdict.success_on, success, sizeof(success));
	texts_describe(c, s, sz);
	sz -= strlen(s);
	s += strlen(s);

	snprintf(s, sz, "%s base=%s factor=%g max=%lu max_delay=%s "
	    "min_delay=%s budget=%s deadline=%s timeout=%s kill_after=%s signal=%d "
	    "forever=%d reset_after=%s nlist=%zu nargs=%d help=%d help_all=%d "
	    "version=%d "
	    "criteria=%d success_on=%s successes=%lu delay_on_success=%g "
	    "limits=%zu share_window=%s share_timeout=%s label=%s share=%s "
	    "share_open=%d share_max=%g share_ratio=%g share_trip=%lu "
	    "share_cooldown=%s clients=%s rates=%s",
	    b->strategy < ALGO_CONSTANT ? strategies[b->strategy] : "algorithm",
	    dur(b->base, d[0], sizeof(d[0])), b->factor, b->max_attempts,
	    dur(b->max_delay.ns, d[1], sizeof(d[1])),
	    dur(b->min_delay.ns, d[2], sizeof(d[2])),
	    dur(c->limits.budget, d[3], sizeof(d[3])),
	    dur(c->limits.deadline, d[10], sizeof(d[10])),
	    dur(c->limits.timeout, d[4], sizeof(d[4])),
	    dur(c->kill_after, d[5], sizeof(d[5])), c->signal,
	    c->limits.forever, dur(c->limits.reset_after, d[6], sizeof(d[6])),
	    b->nlist, c->nargs, c->help, c->help_all, c->version, c->verdict.criteria,
	    success, c->limits.successes, b->delay_on_success,
	    c->limits.nretry_limits,
	    dur(c->share_rules.window, d[8], sizeof(d[8])),
	    dur(c->share_timeout, d[9], sizeof(d[9])),
	    c->label != NULL ? c->label : "none",
	    c->share != NULL ? c->share : "none", (int)c->share_rules.give_up,
	    c->share_rules.max, c->share_rules.ratio, c->share_rules.trip,
	    dur(c->share_rules.cooldown, d[7], sizeof(d[7])),
	    c->clients != NULL ? c->clients : "none",
	    c->failure_rates != NULL ? c->failure_rates : "none");
}

/* Whether the n bytes at w are a word of got, whatever their length. */
static bool
has_word(const char *got, const char *w, size_t n)
{
	size_t m;

	for (got += strspn(got, " "); *got != '\0'; got += m,
	    got += strspn(got, " ")) {
		m = strcspn(got, " ");
		if (m == n && memcmp(got, w, n) == 0)
			return true;
	}
	return false;
}

/* Whether every word of want is a word of got. */
static bool
has_words(const char *got, const char *want)
{
	size_t n;

	for (want += strspn(want, " "); *want != '\0'; want += n,
	    want += strspn(want, " ")) {
		n = strcspn(want, " ");
		if (!has_word(got, want, n))
			return false;
	}
	return true;
}

/* argv for a face: its name first, and for retry a command last. */
static int
command_line(enum face f, const char *const *args, char **argv, int max,
    bool command)
{
	static char retry[] = "retry", show[] = "show-backoff-delays",
	    simulate[] = "simulate", flaky[] = "flaky", zero[] = "0";
	int n = 0;

	argv[n++] = f == M_SHOW ? show : f == M_SIM ? simulate : retry;
	for (; *args != NULL && n < max - 3; args++)
		/* getopt permutes argv: it is the parser's to change. */
		argv[n++] = (char *)(uintptr_t)*args;
	if (f == M_RETRY && command) {
		argv[n++] = flaky;
		argv[n++] = zero;
	}
	argv[n] = NULL;
	return n;
}

static enum mode
mode(enum face f)
{
	return f == M_SHOW ? MODE_SHOW : f == M_SIM ? MODE_SIMULATE :
	    MODE_RETRY;
}

void
unit_options(void)
{
	char *argv[32], err[512], got[2048];
	struct config c;
	size_t n;
	int argc, rc, want;

	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		const struct refused *r = &refused[i];

		argc = command_line(r->face, r->argv, argv, 32, true);
		err[0] = '\0';
		rc = options_parse(argc, argv, mode(r->face), &c, err,
		    sizeof(err));
		n = strlen(r->option);
		unit_row(rc == -1 && strncmp(err, r->option, n) == 0 &&
		    strchr(":= ", err[n]) != NULL && err[n] != '\0',
		    "refused", r->name,
		    "status %d, error '%s'", rc, err);
		options_free(&c);
	}
	for (size_t i = 0; i < sizeof(suggested) / sizeof(suggested[0]); i++) {
		const struct suggested *r = &suggested[i];

		argc = command_line(r->face, r->argv, argv, 32, true);
		err[0] = '\0';
		rc = options_parse(argc, argv, mode(r->face), &c, err,
		    sizeof(err));
		unit_row(rc == -1 && strstr(err, r->want) != NULL, "suggested",
		    r->argv[0], "status %d, error '%s'", rc, err);
		options_free(&c);
	}
	for (size_t i = 0; i < sizeof(worded) / sizeof(worded[0]); i++) {
		const struct worded *r = &worded[i];

		argc = command_line(r->face, r->argv, argv, 32, true);
		err[0] = '\0';
		rc = options_parse(argc, argv, mode(r->face), &c, err,
		    sizeof(err));
		/* No command: a status of its own, for the usage line. */
		want = strncmp(r->line, "no command", 10) == 0 ?
		    OPTIONS_NO_COMMAND : -1;
		unit_row(rc == want && strcmp(err, r->line) == 0, "worded",
		    r->name, "status %d, want %d\n# want '%s'\n# got  '%s'",
		    rc, want, r->line, err);
		options_free(&c);
	}
	/* The options that add up: the lists, the output rules, the hooks,
	 * what is held, and no other. */
	for (size_t j = 0; j < OPTABLE_ROWS; j++) {
		const struct opt *o = &optable[j];
		const bool list = o->kind == K_TEXTS || o->kind == K_CODES ||
		    o->id == OPT_RETRY_ON || o->id == OPT_SUCCESS_ON ||
		    o->id == OPT_HOLD || o->id == OPT_OUTPUT || o->id == OPT_ON;

		unit_row(optable_adds(o->id) == list, "adds", o->name,
		    "adds %d, a list %d", optable_adds(o->id), list);
	}
	/* Each conflict: two options of the table, which every face it is
	 * refused in takes. */
	for (size_t i = 0; i < OPTABLE_CONFLICTS; i++) {
		const struct opt_conflict *k = &optable_conflicts[i];
		unsigned ma = 0, mb = 0;

		for (size_t j = 0; j < OPTABLE_ROWS; j++) {
			/* An alias's row too: --hold-stdout, folded into
			 * --hold, is refused by its own name. */
			if (optable[j].id == k->a)
				ma |= optable[j].modes;
			if (optable[j].id == k->b)
				mb |= optable[j].modes;
		}
		unit_row(k->a != k->b && k->modes != 0 &&
		    (ma & k->modes) == k->modes && (mb & k->modes) == k->modes,
		    "conflicts", k->why, "row %zu: options %d and %d, faces "
		    "%#x, %#x and %#x", i, (int)k->a, (int)k->b, k->modes, ma,
		    mb);
	}
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		unit_row(has_words(words[i].got, words[i].want) == words[i].has,
		    "has_words", words[i].want, "in '%s': want %s", words[i].got,
		    words[i].has ? "found" : "not found");
	for (size_t i = 0; i < sizeof(accepted) / sizeof(accepted[0]); i++) {
		const struct accepted *a = &accepted[i];

		argc = command_line(a->face, a->argv, argv, 32, true);
		err[0] = '\0';
		rc = options_parse(argc, argv, mode(a->face), &c, err,
		    sizeof(err));
		/* As simulate fills in the blog's model (model.h). */
		if (rc == 0 && c.mode == MODE_SIMULATE)
			sim_defaults(&c.backoff, c.given_strategy,
			    c.given_max_delay, c.given_max);
		if (rc == 0)
			describe(&c, got, sizeof(got));
		unit_row(rc == 0 && has_words(got, a->want), "accepted",
		    a->want, "status %d, error '%s', got '%s'", rc, err,
		    rc == 0 ? got : "");
		options_free(&c);
	}
}
