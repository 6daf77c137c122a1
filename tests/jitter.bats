#!/usr/bin/env bats
# Jitter through the binary: the seed it is given, or a random one, and
# the same seeded delays in show-backoff-delays and --dry-run.  Every
# mode's values for a seed, reproducibility and bounds are rows of
# tests/unit/engine.c.
bats_require_minimum_version 1.5.0
load test_helper/common
load test_helper/core

@test "jitter: show-backoff-delays prints a seed's delays, a bare duration as add:DUR" {
	run -0 show --fixed 1s -n 0 --count 6 --seed 42 --jitter equal
	assert_lines 0.80856122 0.982639745 0.659385535 0.566976043 \
	    0.974211594 0.667376981
	run -0 show --fixed 1s -n 0 --count 6 --seed 42 --jitter 500ms
	assert_lines 1.30856122 1.482639745 1.159385535 1.066976043 \
	    1.474211594 1.167376981
}

@test "jitter: without --seed, two runs differ" {
	run -0 show --fixed 1s -n 0 --count 8 --jitter full
	local first=$output
	run -0 show --fixed 1s -n 0 --count 8 --jitter full
	refute_output "$first"
}

@test "jitter: --dry-run uses the seeded jitter too" {
	run -0 retry --dry-run --fixed 1s --jitter add:500ms --seed 42 -n 3
	assert_lines \
	    "delays drawn at random with --seed 42: the same each time" \
	    "attempt  delay      starts at  drawn from" \
	    "1        -          0s" \
	    "2        1.309s     1.309s     [1s, 1.5s]" \
	    "3        1.483s     2.791s     [1s, 1.5s]"
}

@test "jitter: --dry-run without --seed says each run draws anew, and every delay's range" {
	run -0 retry --dry-run --exp 100ms --jitter full -n 4
	assert_line --index 0 "delays drawn at random: each run draws anew (--seed N draws the same each time)"
	assert_line --index 1 "attempt  delay      starts at  drawn from"
	assert_line --index 3 --regexp "^2 +[0-9.]+[num]?s +[0-9.]+[num]?s +\\[0s, 100ms\\]\$"
	assert_line --index 4 --regexp "^3 +[0-9.]+[num]?s +[0-9.]+[num]?s +\\[0s, 200ms\\]\$"
	assert_line --index 5 --regexp "^4 +[0-9.]+[num]?s +[0-9.]+[num]?s +\\[0s, 400ms\\]\$"
	# The range after the limits: equal jitter of the capped delay.
	run -0 retry --dry-run --exp 1s --jitter equal --max-delay 3s -n 4
	assert_line --index 3 --regexp " \\[500ms, 1s\\]\$"
	assert_line --index 5 --regexp " \\[1.5s, 3s\\]\$"
	# Without anything drawn, no word of it, and no column.
	run -0 retry --dry-run --exp 1s -n 2
	assert_lines "attempt  delay      starts at" "1        -          0s" \
	    "2        1s         1s"
}
