#!/usr/bin/env bats
# Usage errors: status 125, one line naming the option and the problem,
# then the pointer to --help; the command never runs.
bats_require_minimum_version 1.5.0
load test_helper/common
load test_helper/core

# usage_error OPTION MESSAGE ARG...: retry ARG... flaky 0 is a usage error
# whose first line is "retry: MESSAGE"; flaky never ran.
usage_error() {
	local option=$1 message=$2
	shift 2
	run -125 retry "$@" flaky 0
	assert_usage_error "$option"
	assert_line --index 0 "retry: $message"
	assert_equal "$(flaky_runs)" 0
}

UNITS='unknown unit (use ns, us, ms, s, m, h or d)'

@test "usage: bad values and conflicts: one line each, exit 125, nothing runs" {
	# an empty duration
	usage_error --fixed "--fixed: '': empty duration" --fixed ''
	# a negative duration
	usage_error --fixed "--fixed: '-1s': negative duration" --fixed -1s
	# a negative --timeout
	usage_error --timeout "--timeout: '-1s': negative duration" \
	    --timeout -1s
	# NaN is not a duration
	usage_error --exp "--exp: 'nan': not a number" --exp nan
	# inf is not a duration
	usage_error --fixed "--fixed: 'inf': not a number" --fixed inf
	# an unknown unit
	usage_error --fixed "--fixed: '5x': $UNITS" --fixed 5x
	# units are lower case
	usage_error --max-delay "--max-delay: '1S': $UNITS" --max-delay 1S
	# trailing junk after a duration
	usage_error --fixed "--fixed: '1s!': not a number" --fixed '1s!'
	# a trailing space after a duration
	usage_error --budget "--budget: '10ms ': not a number" --budget '10ms '
	# a duration over 365 days
	usage_error --fixed "--fixed: '366d': longer than 365 days" --fixed 366d
	# 1m30 mixes a unit with a bare number
	usage_error --budget \
	    "--budget: '1m30': a number without a unit must stand alone" \
	    --budget 1m30
	# a bad item in --delays
	usage_error --delays "--delays: '2x': $UNITS" --delays 1s,2x
	# an empty item in --delays
	usage_error --delays "--delays: item 2 of '1s,,2s' is empty" \
	    --delays 1s,,2s
	# two strategies
	usage_error --exp "--exp: conflicts with --fixed (give one strategy)" \
	    --fixed 1s --exp 2s
	# --immediate with another strategy
	usage_error --immediate \
	    "--immediate: conflicts with --linear (give one strategy)" \
	    --linear 1s --immediate
	# a reversed range 5-3
	usage_error --success-on "--success-on: '5-3': reversed range" \
	    --success-on 5-3
	# an open range 5-
	usage_error --retry-on \
	    "--retry-on: '5-': open range (give both ends, as in 75-78)" \
	    --retry-on 5-
	# an empty list of codes
	usage_error --stop-on "--stop-on: '': empty list" --stop-on ''
	# an empty item in a list of codes
	usage_error --retry-on "--retry-on: '1,,2': empty item" --retry-on 1,,2
	# a status over 255
	usage_error --success-on "--success-on: '256': out of range" \
	    --success-on 256
	# an unknown signal name in a list of codes
	usage_error --stop-on "--stop-on: 'SIGBOGUS': unknown signal name" \
	    --stop-on SIGBOGUS
	# a bad signal name for --signal
	usage_error --signal "--signal: 'BOGUS': unknown signal name" \
	    --signal BOGUS
	# --factor 0.5 (must be at least 1)
	usage_error --factor "--factor: '0.5' is out of range (1 to 1e+06)" \
	    --factor 0.5
	# --factor that is not a number
	usage_error --factor "--factor: 'inf' is not a number" --factor inf
	# --factor without --exp
	usage_error --factor "--factor: goes with --exp" --fixed 1s --factor 2
	# --jitter bogus
	usage_error --jitter "--jitter: 'bogus': unknown mode (use none, full, equal, scattered[:R], down[:R], add:DUR or DUR)" \
	    --jitter bogus
	# --jitter scattered:2 (the ratio is at most 1)
	usage_error --jitter \
	    "--jitter: 'scattered:2': the ratio after ':' must be between 0 and 1" \
	    --jitter scattered:2
	# --jitter down:abc
	usage_error --jitter \
	    "--jitter: 'down:abc': the ratio after ':' is not a number" \
	    --jitter down:abc
	# --jitter full takes no ratio
	usage_error --jitter \
	    "--jitter: 'full:0.5': only scattered and down take a ratio" \
	    --jitter full:0.5
	# --jitter add without a duration
	usage_error --jitter \
	    "--jitter: 'add': add needs a duration, as in add:500ms" \
	    --jitter add
	# --jitter add with a negative duration
	usage_error --jitter "--jitter: 'add:-1s': negative duration" \
	    --jitter add:-1s
	# --label ''
	usage_error --label "--label: must be one non-empty line" --label ''
	# --label with a newline
	usage_error --label "--label: must be one non-empty line" \
	    --label $'a\nb'
	# an unknown long option
	usage_error --bogus "unknown option '--bogus'" --bogus
	# an unknown short option
	usage_error "-Z" "unknown option '-Z'" -Z
	# --immediate=3 (it takes no value)
	usage_error --immediate "--immediate: takes no value" --immediate=3
	# --max -1
	usage_error --max "--max: '-1' is too small (give a whole number from 0 to 1000000000)" \
	    --max -1
	# --max-attempts abc names itself
	usage_error --max-attempts "--max-attempts: 'abc' is not a whole number (give a whole number from 0 to 1000000000)" \
	    --max-attempts abc
	# --seed 1.5
	usage_error --seed "--seed: '1.5' is not a whole number (give a whole number from 0 to 9223372036854775807)" \
	    --seed 1.5
	# --timeout 0
	usage_error --timeout "--timeout: '0': must be longer than 0" \
	    --timeout 0
	# -a Bogus
	usage_error --algorithm "--algorithm: unknown algorithm 'Bogus' (use Constant, Exponential, Fibonacci, LILD, LIMD, MILD or MIMD)" \
	    -a Bogus
	# -a Constant without --delay
	usage_error --algorithm "--algorithm: Constant needs --delay" \
	    -a Constant
	# an -a option of another algorithm
	usage_error --delay "--delay: is not an option of -a MIMD" \
	    -a MIMD --delay 1 --initial-delay 1 \
	    --delay-multiple-on-failure 2 --delay-multiple-on-success 0.5
	# --jitter-factor over 0.5
	usage_error --jitter-factor \
	    "--jitter-factor: '0.6' is out of range (0 to 0.5)" \
	    -a Constant --delay 1 --jitter-factor 0.6
	# a show-backoff-delays option given to retry
	usage_error --format "--format: is not an option of retry" \
	    --format csv
}

@test "usage: a long option without its value" {
	run -125 retry --fixed
	assert_usage_error --fixed
	assert_line --index 0 "retry: --fixed: needs a value"
}

@test "usage: an option whose value getopt took from the next word says what it needs" {
	run -125 retry --exp -- true
	assert_usage_error --exp
	assert_line --index 0 "retry: --exp: needs a duration (as in --exp 1s), not '--'"
	run -125 retry --fixed --max 3 -- true
	assert_line --index 0 "retry: --fixed: needs a duration (as in --fixed 1s), not '--max'"
	# A pattern may be anything.
	run -0 retry --max 1 --until-output -- sh -c 'echo --'
}

@test "usage: a short option without its value" {
	run -125 retry -n
	assert_usage_error -n
	assert_line --index 0 "retry: -n: needs a value"
}

@test "usage: no command" {
	run -125 retry -n 3
	assert_usage_error "no command"
	assert_line --index 0 \
	    "retry: no command given (as in: retry -- curl -fsS URL)"
	run -125 retry --
	assert_usage_error "no command"
}

@test "usage: -a MIMD without a required option names it" {
	usage_error --algorithm \
	    "--algorithm: MIMD needs --delay-multiple-on-failure" \
	    -a MIMD --initial-delay 1
	usage_error --algorithm \
	    "--algorithm: MIMD needs --delay-multiple-on-success" \
	    -a MIMD --initial-delay 3 --delay-multiple-on-failure 2
}

@test "usage: an -a option without -a" {
	usage_error --initial-delay "--initial-delay: goes with -a/--algorithm" \
	    --initial-delay 1
	usage_error --jitter-factor "--jitter-factor: goes with -a/--algorithm" \
	    --jitter-factor 0.1
}

@test "usage: show-backoff-delays --count 0" {
	run -125 show --count 0
	assert_usage_error --count
	assert_line --index 0 "show-backoff-delays: --count: '0' is too small (give a whole number from 1 to 10000000)"
	run -125 retry show-backoff-delays --count 0
	assert_usage_error --count
}

@test "usage: show-backoff-delays with a bad STATUS" {
	run -125 show 0 2
	assert_usage_error "status '2'"
	run -125 show 0:5 0:3
	assert_usage_error "status '0:3'"
	assert_line --index 0 "show-backoff-delays: status '0:3': the time goes backwards"
}

@test "usage: options after the command belong to the command" {
	# Parsing stops at the first non-option: --bogus goes to printf.
	run -0 retry -n 1 printf '%s\n' --bogus -n
	assert_lines --bogus -n
}
