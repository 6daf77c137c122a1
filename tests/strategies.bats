#!/usr/bin/env bats
# The strategies through the binary: show-backoff-delays (seconds, %.15g,
# -1 where it gives up) and retry --dry-run ask the policy that
# tests/unit/engine.c holds to exact delays of every strategy, limit and
# seed.  With the default --max 5 a run has four delays.
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

@test "--decorrelated: a --max-delay under DUR, its least delay, is refused" {
	# As Polly's AwsDecorrelatedJitterBackoff refuses a maxDelay under
	# its minDelay: no range would be left to draw from.
	run -125 show --decorrelated 1ms --max-delay 0 --seed 1
	assert_usage_error --max-delay
	assert_line --index 0 "show-backoff-delays: --max-delay: 0s is below --decorrelated's 1ms, the least delay it draws"
	run -125 retry --max-delay 999us --decorrelated 1ms -- true
	assert_usage_error --max-delay
	run -125 retry --dry-run --decorrelated 1s --max-delay 500ms
	assert_usage_error --max-delay
	run -125 retry simulate --decorrelated 5ms --max-delay 4ms
	assert_usage_error --max-delay
	# At DUR, every delay is DUR.
	run -0 show --decorrelated 1ms --max-delay 1ms --seed 1 -n 4
	assert_lines 0.001 0.001 0.001 -1
}

@test "a cap under the first delay of a deterministic strategy holds every delay" {
	run -0 show --exp 1s --max-delay 250ms -n 4
	assert_lines 0.25 0.25 0.25 -1
	run -0 show --linear 2s --max-delay 0 -n 3
	assert_lines 0 0 -1
	run -0 show --fib 1s --max-delay 1ms -n 3
	assert_lines 0.001 0.001 -1
}

# --decorrelated-v2 against the specs of Polly.Contrib.WaitAndRetry
# (src/Polly.Contrib.WaitAndRetry.Specs/DecorrelatedJitterBackoffV2Specs.cs),
# their bounds unchanged.  Backoff_ResultIsInRange: seeds 0 to 999, a
# median first delay of 3s, six retries; the t-th delay in
# [0, 3s x 2^(t+1)] for t < 2, else in [0, 3s x (2^(t+1) - 2^(t-1))].
@test "--decorrelated-v2: Polly's Backoff_ResultIsInRange, seeds 0 to 999" {
	local seed
	for seed in $(seq 0 999); do
		show --decorrelated-v2 3s -n 7 --seed "$seed" | paste -sd ' '
	done >"$BATS_TEST_TMPDIR/delays"
	run -0 awk '
	    NF != 7 || $7 != -1 { print "seed " NR - 1 ": " $0; exit 1 }
	    { for (t = 1; t <= 6; t++) {
		up = t < 2 ? 2 ^ (t + 1) : 2 ^ (t + 1) - 2 ^ (t - 1)
		if ($t < 0 || $t > 3 * up) {
			print "seed " NR - 1 ", try " t ": " $t; exit 1 } } }
	    END { print NR }' "$BATS_TEST_TMPDIR/delays"
	assert_output 1000
}

# Backoff_WithRetryEqualToZero_ResultIsEmpty, and
# Backoff_should_not_overflow_to_give_negative_timespan (100 retries of 1s,
# seed 1, none negative), on to where the formula leaves the doubles.
@test "--decorrelated-v2: Polly's no retries and no overflow" {
	run -0 show --decorrelated-v2 2s -n 1 --seed 1
	assert_output -1
	run -0 show --decorrelated-v2 1s -n 101 --count 100 --seed 1
	assert_equal "${#lines[@]}" 100
	refute_output --regexp '(^|\n)-'
	run -0 show --decorrelated-v2 1s -n 0 --max-delay 365d --count 3000 \
	    --seed 1
	assert_equal "${#lines[@]}" 3000
	refute_output --regexp '(^|\n)-'
	assert_line --index 2999 31536000
}

# Polly's documentation of medianFirstRetryDelay: the first delay's median
# near it (the formula's: 2^0.5 tanh(sqrt 2) / 1.4 = 0.897 of it), the
# medians of the later ones growing, about doubling from the third.
@test "--decorrelated-v2: the first median near DUR, then growing, reproducible" {
	run -0 show --decorrelated-v2 1s -n 0 --max-delay 1d --count 8 \
	    --seed 1 --samples 4001
	run -0 awk '
	    NR == 1 && ($2 < 0.85 || $2 > 1.15) { print "first " $2; exit 1 }
	    NR > 1 && $2 <= prev { print "step " NR ": " $2; exit 1 }
	    NR > 3 && ($2 < 1.8 * prev || $2 > 2.2 * prev) {
		print "step " NR ": " $2 " after " prev; exit 1 }
	    { prev = $2 } END { print NR }' <<<"$output"
	assert_output 8
	# --seed: the same delays, in retry --dry-run too.
	run -0 show --decorrelated-v2 1s --seed 1 -n 4
	assert_lines 1.084167279 0.93562201 2.219928701 -1
	run -0 retry --dry-run --decorrelated-v2 1s --seed 1 -n 4
	assert_line --index 2 --regexp '^2 +1\.084s +1\.084s$'
	assert_line --index 4 --regexp '^4 +2\.22s +4\.24s$'
	# --max-delay caps it.
	run -0 show --decorrelated-v2 1s --max-delay 1s --seed 1 -n 4
	assert_lines 1 0.93562201 1 -1
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
