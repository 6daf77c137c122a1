#!/usr/bin/env bats
# Exact delay sequences of every concise strategy, through
# show-backoff-delays (seconds, %.15g, -1 where it gives up) and through
# retry --dry-run.  With the default --max 5 a run has four delays.
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

@test "--fixed, --constant, and -d with one delay: the same delay every time" {
	run -0 show --fixed 250ms -n 4
	assert_lines 0.25 0.25 0.25 -1
	run -0 show --constant 250ms -n 4
	assert_lines 0.25 0.25 0.25 -1
	run -0 show -d 250ms -n 4
	assert_lines 0.25 0.25 0.25 -1
}

@test "--linear: DUR x n" {
	run -0 show --linear 250ms -n 6
	assert_lines 0.25 0.5 0.75 1 1.25 -1
}

@test "--exp with --factor 3 and 1.5; -x is --exp" {
	run -0 show --exp 100ms --factor 3 -n 6
	assert_lines 0.1 0.3 0.9 2.7 8.1 -1
	run -0 show -x 100ms --factor 1.5 -n 6
	assert_lines 0.1 0.15 0.225 0.3375 0.50625 -1
}

@test "--exp --factor 1 is constant" {
	run -0 show --exp 1s --factor 1 -n 4
	assert_lines 1 1 1 -1
}

@test "--fib: DUR x 1, 1, 2, 3, 5, 8, 13, 21" {
	run -0 show --fib 100ms -n 9
	assert_lines 0.1 0.1 0.2 0.3 0.5 0.8 1.3 2.1 -1
}

@test "--delays: the n-th entry, the last one repeats" {
	run -0 show --delays 1s,2s,5s -n 7
	assert_lines 1 2 5 5 5 5 -1
	run -0 show --delays 250ms -n 3
	assert_lines 0.25 0.25 -1
}

@test "--immediate: no delay at all" {
	run -0 show --immediate -n 4
	assert_lines 0 0 0 -1
	run -0 retry --dry-run --immediate -n 3
	assert_lines \
	    "attempt  delay      starts at" \
	    "1        -          0s" \
	    "2        0s         0s" \
	    "3        0s         0s"
}

@test "--max-delay caps --exp" {
	run -0 show --exp 1s --max-delay 10s -n 0 --count 8
	assert_lines 1 2 4 8 10 10 10 10
	run -0 show --fib 1s -M 4s -n 0 --count 8
	assert_lines 1 1 2 3 4 4 4 4
}

@test "--min-delay is a floor" {
	run -0 show --linear 1s --min-delay 2500ms -n 5
	assert_lines 2.5 2.5 3 4 -1
}

@test "--min-delay wins over --max-delay" {
	run -0 show --fixed 1s --min-delay 3s --max-delay 2s -n 3
	assert_lines 3 3 -1
	run -0 show --exp 1s --min-delay 3s --max-delay 2s -n 4
	assert_lines 3 3 3 -1
}

@test "--max 1 never retries: the strategy gives up at once" {
	run -0 show -n 1
	assert_lines -1
	run -0 retry --dry-run -n 1 --fixed 1s
	assert_lines "attempt  delay      starts at" "1        -          0s"
}

@test "--count bounds an unlimited run" {
	run -0 show --fixed 1s -n 0 --count 3
	assert_lines 1 1 1
	run -0 retry show-backoff-delays --linear 1s --max 0 --count 5
	assert_lines 1 2 3 4 5
}

@test "--exp saturates instead of overflowing" {
	run -0 show --exp 1d --factor 1000 -n 100000 --count 4
	assert_lines 86400 86400000 9223372036.85478 9223372036.85478
	run -0 show --exp 1s -n 100000 --count 80
	assert_line --index 79 9223372036.85478
	# Never negative, never smaller than the one before.
	run awk '$1 < 0 || $1 < prev { print NR ": " $1; bad = 1 }
		{ prev = $1 } END { exit bad }' <<<"$output"
	assert_success
}

@test "--decorrelated: each within [DUR, 3 x previous], the first in [DUR, 3 x DUR]" {
	local seed
	for seed in 1 2 3 4 5 6 7 8 9 10; do
		run -0 show --decorrelated 100ms -n 0 --count 30 --seed "$seed"
		# AWS's: the previous delay is DUR at the start.
		run awk 'NR == 1 { prev = 0.1 }
			$1 < 0.1 - 1e-9 || $1 > 3 * prev + 1e-9 {
			print NR ": " $1 " after " prev; bad = 1 }
			{ prev = $1 } END { exit bad }' <<<"$output"
		assert_success
	done
}

@test "--decorrelated: the first delay is drawn, as AWS's, not DUR itself" {
	# One seed: not exactly DUR.
	run -0 show --decorrelated 100ms -n 0 --count 1 --seed 1
	refute_output 0.1
	# Over 2,000 runs the first delays fill [DUR, 3 x DUR]: min, median,
	# p90 and max near 0.1, 0.2, 0.28 and 0.3.
	run -0 show --decorrelated 100ms -n 0 --count 1 --seed 1 \
	    --samples 2000
	local min med p90 max
	read -r min med p90 max <<<"$output"
	awk -v a="$min" -v m="$med" -v p="$p90" -v b="$max" 'BEGIN {
	    exit !(a >= 0.1 && a < 0.11 && m > 0.18 && m < 0.22 &&
	        p > 0.26 && p < 0.3 && b > 0.29 && b <= 0.3) }' ||
	    fail "first delays not spread over [0.1, 0.3]: $output"
	# The cap still holds the first.
	run -0 show --decorrelated 100ms --max-delay 150ms -n 0 --count 1 \
	    --seed 1 --samples 2000
	read -r min med p90 max <<<"$output"
	assert_equal "$max" 0.15
}

@test "--decorrelated: reproducible with --seed" {
	run -0 show --decorrelated 100ms -n 0 --count 8 --seed 7
	# Checked by hand: each in [0.1, 3 x the previous], 0.1 at first.
	assert_lines 0.111700963 0.287283054 0.284305192 0.680256788 \
	    0.126771084 0.102198846 0.133262315 0.295893068
	local first=$output
	run -0 show --decorrelated 100ms -n 0 --count 8 --seed 7
	assert_equal "$output" "$first"
	run -0 show --decorrelated 100ms -n 0 --count 8 --seed 8
	refute_output "$first"
}

@test "--decorrelated never goes above --max-delay" {
	local seed
	for seed in 1 2 3 4 5; do
		run -0 show --decorrelated 100ms --max-delay 1s -n 0 \
		    --count 50 --seed "$seed"
		assert_delays_within 0.1 0.1 1
	done
}

@test "--dry-run and show-backoff-delays give the same seeded delays" {
	run -0 show --fixed 1s --jitter full --seed 42 -n 4
	assert_lines 0.85555998 0.973591417 0.70397226 -1
	run -0 retry --dry-run --fixed 1s --jitter full --seed 42 -n 4
	assert_lines \
	    "attempt  delay      starts at" \
	    "1        -          0s" \
	    "2        855.56ms   855.56ms" \
	    "3        973.591ms  1.829s" \
	    "4        703.972ms  2.533s"
}
