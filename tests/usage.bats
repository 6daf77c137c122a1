#!/usr/bin/env bats
# Usage errors through the binary: status 125, the parser's one line after
# the program's name, then the pointer to --help; the command never runs.
# The wording of every error is a row of tests/unit/options.c.
bats_require_minimum_version 1.5.0
load test_helper/common
load test_helper/core

@test "usage: a bad duration: 125, one line, nothing runs" {
	usage_error --fixed "--fixed: '': empty duration" --fixed ''
}

@test "usage: a bad list of codes: 125, one line, nothing runs" {
	usage_error --success-on "--success-on: '5-3': reversed range" \
	    --success-on 5-3
}

@test "usage: two strategies: 125, one line, nothing runs" {
	usage_error --exp "--exp: conflicts with --fixed (give one strategy)" \
	    --fixed 1s --exp 2s
}

@test "usage: options that cannot both hold: 125, one line naming both" {
	usage_error --until "--until: conflicts with --success-on (both say \
which statuses succeed)" --success-on 3 --until success
	usage_error --stop-on "--stop-on: conflicts with --retry-on on status 1 \
(a status is either stopped on or retried)" --retry-on 1 --stop-on 1
	usage_error --min-delay "--min-delay: conflicts with --max-delay (5s is \
above 1s: no delay can be both)" --min-delay 5s --max-delay 1s
	usage_error --verbose "--verbose: conflicts with --quiet (give one)" \
	    -q --verbose
	usage_error --hedge "--hedge: conflicts with --successes (a hedged \
run ends on its first success)" --hedge 1s --stdin null --successes 2
	# show-backoff-delays keeps Algorithm::Backoff's rule.
	run -0 "$SHOW" --fixed 1 --min-delay 3s --max-delay 2s -n 3
	assert_output "$(printf '3\n3\n-1')"
}

@test "usage: --retry-on 0, a success that is never retried: 125, one line, unless 0 can fail" {
	usage_error --retry-on "--retry-on: status 0 is a success, never \
retried; --success-on can say which statuses succeed" --retry-on 0
	usage_error --retry-on "--retry-on: status 0 is a success, never \
retried; --success-on can say which statuses succeed" --retry-on 1,0:2
	# Where 0 is no success, or an output rule can fail it, it is meant.
	run -1 retry --max 2 --fixed 1ms --retry-on 0 --success-on 7 -- true
	assert_line --index 0 --regexp "attempt 1/2 failed: exit 0 after"
	run -1 --separate-stderr retry --max 2 --fixed 1ms --retry-on 0 \
	    --fail-if-output x -- echo x
	assert_regex "${stderr_lines[0]}" "attempt 1/2 failed: exit 0 after"
}

@test "usage: an unknown option: 125, one line, nothing runs" {
	usage_error --bogus "unknown option '--bogus'" --bogus
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

@test "usage: no command: the synopsis, the reason, the pointer to --help" {
	local args
	# As Debian's retry and recur print their usage.
	for args in '' '-n 3' '--max 3 --'; do
		# shellcheck disable=SC2086  # the words apart
		run -125 --separate-stderr retry $args
		assert_equal "$output" ""
		assert_equal "$stderr" "Usage: retry [OPTION]... [--] COMMAND [ARG]...
retry: no command given (as in: retry -- curl -fsS URL)
Try 'retry --help'."
	done
	# The synopsis is --help's first line.
	run -0 retry --help
	assert_line --index 0 "Usage: retry [OPTION]... [--] COMMAND [ARG]..."
	# Any other usage error is its one line and the pointer.
	run -125 retry --bogus
	assert_usage_error --bogus
	run -125 retry --max 3 --count 2
	assert_usage_error --count
}

@test "usage: --help acts at once, whatever follows it" {
	run -0 --separate-stderr retry --help --no-such-option -n bad
	assert_line --index 0 "Usage: retry [OPTION]... [--] COMMAND [ARG]..."
	assert_equal "$stderr" ""
	run -0 retry -h --timeout -1
	run -0 retry --version --bogus
	assert_output --regexp '^retry [0-9]'
	# Before it, a bad option is still an error.
	run -125 retry --bogus --help
	assert_usage_error --bogus
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

@test "usage: a unit, a count's word or a number where the command starts is refused; after -- it is the command" {
	# Programs named as the words, to see that none runs.
	mkdir "$BATS_TEST_TMPDIR/bin"
	for w in ms s times 5; do
		printf '#!/bin/sh\necho ran >>"%s/ran"\n' "$BATS_TEST_TMPDIR" \
		    >"$BATS_TEST_TMPDIR/bin/$w"
		chmod +x "$BATS_TEST_TMPDIR/bin/$w"
	done
	PATH=$BATS_TEST_TMPDIR/bin:$PATH
	run -125 retry --exp 100 ms
	assert_usage_error --exp
	assert_line --index 0 \
	    "retry: --exp: did you mean --exp 100ms? ('ms' would run as the command)"
	run -125 retry --timeout 5 s
	assert_line --index 0 \
	    "retry: --timeout: did you mean --timeout 5s? ('s' would run as the command)"
	run -125 retry --max 3 times
	assert_usage_error --max
	assert_line --index 0 --partial "retry: --max: did you mean --max 3? "
	run -125 retry 5 s
	assert_line --index 0 --partial "retry: '5 s' would run as the command"
	assert [ ! -e "$BATS_TEST_TMPDIR/ran" ]
	# The user's own word after --.
	run -0 retry --max 3 -- ms
	run -0 retry -- 5 s
	assert_equal "$(cat "$BATS_TEST_TMPDIR/ran")" "ran
ran"
}
