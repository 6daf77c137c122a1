#!/usr/bin/env bats
# The strategies through the binary: show-backoff-delays (seconds, %.15g,
# -1 where it gives up) and retry --dry-run ask the policy that
# tests/unit/engine.c holds to exact delays of every strategy, limit and
# seed; tests/unit/delays.c holds what show-backoff-delays prints of them
# (caps, --decorrelated's spread, Polly's specs of --decorrelated-v2).
# With the default --max 5 a run has four delays.
bats_require_minimum_version 1.5.0
load test_helper/common
load test_helper/core

@test "default: --exp 1s doubling, four delays, then it gives up" {
	run -0 show
	assert_lines 1 2 4 8 -1
	run -0 retry show-backoff-delays
	assert_lines 1 2 4 8 -1
}

@test "default: --dry-run prints the schedule of five attempts" {
	run -0 retry --dry-run
	assert_lines \
	    "attempt  delay      starts at" \
	    "1        -          0s" \
	    "2        1s         1s" \
	    "3        2s         3s" \
	    "4        4s         7s" \
	    "5        8s         15s"
}

@test "--dry-run runs nothing" {
	run -0 retry --dry-run -n 3 --fixed 1s flaky 0
	assert_lines \
	    "attempt  delay      starts at" \
	    "1        -          0s" \
	    "2        1s         1s" \
	    "3        1s         2s"
	assert_equal "$(flaky_runs)" 0
}

@test "--immediate --dry-run: no delay at all" {
	run -0 retry --dry-run --immediate -n 3
	assert_lines \
	    "attempt  delay      starts at" \
	    "1        -          0s" \
	    "2        0s         0s" \
	    "3        0s         0s"
}

@test "--max 1 --dry-run: one attempt, no retry" {
	run -0 retry --dry-run -n 1 --fixed 1s
	assert_lines "attempt  delay      starts at" "1        -          0s"
}

@test "--decorrelated: a --max-delay under DUR, its least delay, is refused" {
	# As Polly's AwsDecorrelatedJitterBackoff refuses a maxDelay under
	# its minDelay: no range would be left to draw from.
	run -125 show --decorrelated 1ms --max-delay 0 --seed 1
	assert_usage_error --max-delay
	assert_line --index 0 "show-backoff-delays: --max-delay: 0s is below --decorrelated's 1ms, the least delay it draws"
}

@test "--decorrelated-v2: reproducible with --seed, in retry --dry-run too" {
	run -0 show --decorrelated-v2 1s --seed 1 -n 4
	assert_lines 1.084167279 0.93562201 2.219928701 -1
	run -0 retry --dry-run --decorrelated-v2 1s --seed 1 -n 4
	assert_line --index 3 --regexp '^2 +1\.084s +1\.084s +\[0s, 1\.377s\]$'
	assert_line --index 5 --regexp '^4 +2\.22s +4\.24s +\[817\.46ms, 3\.683s\]$'
}

@test "--decorrelated DUR:v2 is --decorrelated-v2 DUR; --help all lists only --decorrelated" {
	run -0 show --decorrelated 1s:v2 --seed 1 -n 4
	assert_lines 1.084167279 0.93562201 2.219928701 -1
	run -0 retry --dry-run --decorrelated 1s:v2 --seed 1 -n 4
	assert_line --index 3 --regexp '^2 +1\.084s +1\.084s +\[0s, 1\.377s\]$'
	run -0 retry simulate --decorrelated 10ms:v2 --clients 5 --runs 2 --seed 1
	local v2=$output
	run -0 retry simulate --decorrelated-v2 10ms --clients 5 --runs 2 --seed 1
	assert_equal "$output" "$v2"
	# Without :v2, AWS's, as before.
	run -0 show --decorrelated 1s --seed 1 -n 4
	refute_line 1.084167279
	# One strategy, whichever name gives it.
	run -125 retry --decorrelated 1s:v2 --exp 1s -- true
	assert_usage_error 'conflicts with --decorrelated-v2'
	run -125 retry --decorrelated x:v2 -- true
	assert_usage_error "--decorrelated: 'x': "
	run -0 retry --help all
	assert_line --regexp '^ +--decorrelated DUR '
	refute_line --regexp '^ {2,6}--decorrelated-v2 '
	run -0 show --help
	refute_line --regexp '^ {2,6}--decorrelated-v2 '
}

@test "--dry-run and show-backoff-delays give the same seeded delays" {
	run -0 show --fixed 1s --jitter full --seed 42 -n 4
	assert_lines 0.85555998 0.973591417 0.70397226 -1
	run -0 retry --dry-run --fixed 1s --jitter full --seed 42 -n 4
	assert_lines \
	    "delays drawn at random with --seed 42: the same each time" \
	    "attempt  delay      starts at  drawn from" \
	    "1        -          0s" \
	    "2        855.56ms   855.56ms   [0s, 1s]" \
	    "3        973.591ms  1.829s     [0s, 1s]" \
	    "4        703.972ms  2.533s     [0s, 1s]"
}
