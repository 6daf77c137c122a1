#!/usr/bin/env bats
# What an attempt's status means: --stop-on first, then --success-on, then
# --retry-on.  CODES are numbers, ranges and signal names; every item counts
# (what each list holds is a row of tests/unit/codes.c).
bats_require_minimum_version 1.5.0
load test_helper/common
load test_helper/core

@test "--stop-on beats --success-on" {
	run -3 --separate-stderr retry -n 5 --fixed 1ms --success-on 0,3 \
	    --stop-on 3 flaky 9 3
	assert_equal "$(flaky_runs)" 1
	assert_equal "$stderr" "retry: flaky 9 3: stopping: exit 3 is a --stop-on status"
}

@test "--stop-on 0 stops even a success, with status 0" {
	run -0 --separate-stderr retry -n 5 --stop-on 0 flaky 0
	assert_equal "$stderr" "retry: flaky 0: stopping: exit 0 is a --stop-on status"
}

@test "--stop-on and --retry-on on one status cannot both hold: refused" {
	run -125 retry -n 5 --fixed 1ms --retry-on 7 \
	    --stop-on 7 flaky 9 7
	assert_equal "$(flaky_runs)" 0
	assert_line --index 0 "retry: --stop-on: conflicts with --retry-on on status 7 (a status is either stopped on or retried)"
}

@test "--stop-on: a status not in the list is retried" {
	run -1 --separate-stderr retry -n 3 --fixed 1ms --stop-on 2 flaky 9
	assert_equal "$(flaky_runs)" 3
}

@test "--stop-on: an item of a list inside a range counts" {
	run -41 --separate-stderr retry -n 5 --fixed 1ms --stop-on 2,7,40-42 \
	    flaky 9 41
	assert_equal "$(flaky_runs)" 1
}

@test "--stop-on a signal's name: its death stops the run" {
	run -139 --separate-stderr retry -n 5 --fixed 1ms --stop-on 1,segv \
	    sh -c 'kill -SEGV $$'
	assert_equal "$stderr" \
	    "retry: sh -c 'kill -SEGV \$\$': stopping: killed by SIGSEGV is a --stop-on status"
}

@test "--stop-on 124 stops on a timeout" {
	run -124 --separate-stderr retry -n 5 --fixed 1ms --timeout 50ms \
	    --stop-on 124 sleep 10
	assert_equal "$stderr" "retry: sleep 10: stopping: timed out is a --stop-on status"
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
	    "retry: flaky 0: attempt 1/2 failed: exit 0 after $DUR; next attempt in 1ms" \
	    "retry: flaky 0: giving up after 2 attempts in $DUR: exit 0"
}

@test "--success-on a range: an end counts, a status past it does not" {
	run -0 --separate-stderr retry -n 3 --fixed 1ms --success-on 75-78 \
	    flaky 9 78
	assert_equal "$(flaky_runs)" 1
	run -79 --separate-stderr retry -n 2 --fixed 1ms --success-on 75-78 \
	    sh -c "exit 79"
	# A run that did not succeed never exits 0.
	run -1 --separate-stderr retry -n 2 --fixed 1ms --success-on 75-78 \
	    sh -c "exit 0"
}

@test "--success-on: a signal's name counts its death as a success" {
	run -0 --separate-stderr retry -n 1 --success-on 1,5-6,SIGTERM,USR1 \
	    sh -c 'kill -USR1 $$'
	assert_equal "$stderr" ""
	run -2 --separate-stderr retry -n 1 --success-on 1,5-6,SIGTERM,USR1 \
	    sh -c 'exit 2'
}

@test "--retry-on 1 stops on exit 2" {
	run -2 --separate-stderr retry -n 5 --fixed 1ms --retry-on 1 flaky 9 2
	assert_equal "$(flaky_runs)" 1
	assert_equal "$stderr" "retry: flaky 9 2: stopping: exit 2 is not a --retry-on status"
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
	    "retry: sh -c 'kill -TERM \$\$': stopping: killed by SIGTERM is not a --retry-on status"
}

@test "an attempt killed by SIGINT is not retried" {
	run -130 --separate-stderr retry -n 5 --fixed 1ms sh -c 'kill -INT $$'
	assert_equal "$stderr" "retry: sh -c 'kill -INT \$\$': stopping: killed by SIGINT (interrupted)"
}
