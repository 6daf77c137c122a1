#!/usr/bin/env bats
# What an attempt's status means: --stop-on first, then --success-on, then
# --retry-on.  CODES are numbers, ranges and signal names; every item counts.
bats_require_minimum_version 1.5.0
load test_helper/common
load test_helper/core

@test "--stop-on beats --success-on" {
	run -3 --separate-stderr retry -n 5 --fixed 1ms --success-on 0,3 \
	    --stop-on 3 flaky 9 3
	assert_equal "$(flaky_runs)" 1
	assert_equal "$stderr" "retry: stopping: exit 3 is a --stop-on status"
}

@test "--stop-on 0 stops even a success, with status 0" {
	run -0 --separate-stderr retry -n 5 --stop-on 0 flaky 0
	assert_equal "$stderr" "retry: stopping: exit 0 is a --stop-on status"
}

@test "--stop-on beats --retry-on" {
	run -7 --separate-stderr retry -n 5 --fixed 1ms --retry-on 7 \
	    --stop-on 7 flaky 9 7
	assert_equal "$(flaky_runs)" 1
	assert_equal "$stderr" "retry: stopping: exit 7 is a --stop-on status"
}

@test "--stop-on: a status not in the list is retried" {
	run -1 --separate-stderr retry -n 3 --fixed 1ms --stop-on 2 flaky 9
	assert_equal "$(flaky_runs)" 3
}

@test "--stop-on: every item of a list counts" {
	local code
	for code in 2 7 40 41 42; do
		rm -f "$BATS_TEST_TMPDIR/flaky.count"
		run -"$code" --separate-stderr retry -n 5 --fixed 1ms \
		    --stop-on 2,7,40-42 flaky 9 "$code"
		assert_equal "$(flaky_runs)" 1
	done
}

@test "--stop-on SIGSEGV, SEGV, segv and 139 are the same" {
	local codes
	for codes in SIGSEGV SEGV segv sigsegv 139 1,SIGSEGV; do
		run -139 --separate-stderr retry -n 5 --fixed 1ms \
		    --stop-on "$codes" sh -c 'kill -SEGV $$'
		assert_equal "$stderr" \
		    "retry: stopping: killed by SIGSEGV is a --stop-on status"
	done
}

@test "--stop-on 124 stops on a timeout" {
	run -124 --separate-stderr retry -n 5 --fixed 1ms --timeout 50ms \
	    --stop-on 124 sleep 10
	assert_equal "$stderr" "retry: stopping: timed out is a --stop-on status"
}

@test "--success-on 0,3: exit 3 is a success" {
	run -0 --separate-stderr retry -n 5 --fixed 1ms --success-on 0,3 \
	    flaky 9 3
	assert_equal "$(flaky_runs)" 1
	assert_equal "$stderr" ""
}

@test "--success-on 3 alone: exit 0 is a failure, and the run exits 1" {
	run -1 --separate-stderr retry -n 2 --fixed 1ms --success-on 3 flaky 0
	assert_equal "$(flaky_runs)" 2
	assert_stderr_lines \
	    "retry: attempt 1/2 failed: exit 0 after $DUR; next attempt in 1ms" \
	    "retry: giving up after 2 attempts in $DUR: exit 0"
}

@test "--success-on a range: both ends and the middle count" {
	local code
	for code in 75 76 78; do
		rm -f "$BATS_TEST_TMPDIR/flaky.count"
		run -0 --separate-stderr retry -n 3 --fixed 1ms \
		    --success-on 75-78 flaky 9 "$code"
		assert_equal "$(flaky_runs)" 1
	done
	for code in 74 79; do
		rm -f "$BATS_TEST_TMPDIR/flaky.count"
		run -"$code" --separate-stderr retry -n 2 --fixed 1ms \
		    --success-on 75-78 sh -c "exit $code"
	done
	# A run that did not succeed never exits 0.
	run -1 --separate-stderr retry -n 2 --fixed 1ms --success-on 75-78 \
	    sh -c "exit 0"
}

@test "--success-on: every item counts, signal names included" {
	local cmd
	for cmd in 'exit 1' 'exit 5' 'exit 6' 'kill -TERM $$' 'kill -USR1 $$'; do
		run -0 --separate-stderr retry -n 1 \
		    --success-on 1,5-6,SIGTERM,USR1 sh -c "$cmd"
		assert_equal "$stderr" ""
	done
	run -2 --separate-stderr retry -n 1 --success-on 1,5-6,SIGTERM,USR1 \
	    sh -c 'exit 2'
}

@test "--retry-on 1 stops on exit 2" {
	run -2 --separate-stderr retry -n 5 --fixed 1ms --retry-on 1 flaky 9 2
	assert_equal "$(flaky_runs)" 1
	assert_equal "$stderr" "retry: stopping: exit 2 is not a --retry-on status"
}

@test "--retry-on 1 retries exit 1" {
	run -0 --separate-stderr retry -n 5 --fixed 1ms --retry-on 1 flaky 2 1
	assert_equal "$(flaky_runs)" 3
}

@test "--retry-on: ranges and signal names" {
	run -0 --separate-stderr retry -n 5 --fixed 1ms --retry-on 2-4 flaky 2 3
	assert_equal "$(flaky_runs)" 3
	run -139 --separate-stderr retry -n 2 --fixed 1ms --retry-on SEGV \
	    sh -c 'kill -SEGV $$'
	assert_equal "${#stderr_lines[@]}" 2
	run -143 --separate-stderr retry -n 2 --fixed 1ms --retry-on SEGV \
	    sh -c 'kill -TERM $$'
	assert_equal "$stderr" \
	    "retry: stopping: killed by SIGTERM is not a --retry-on status"
}

@test "an attempt killed by SIGINT is not retried" {
	run -130 --separate-stderr retry -n 5 --fixed 1ms sh -c 'kill -INT $$'
	assert_equal "$stderr" "retry: stopping: killed by SIGINT (interrupted)"
}
