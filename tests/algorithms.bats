#!/usr/bin/env bats
# The -a family, Algorithm::Backoff's strategies: exact delays for every
# algorithm, the documented vectors, limits, clamping, jitter-factor and
# the options each algorithm needs.  Every vector without jitter was
# checked against Algorithm::Backoff itself (perl-compare.bats does that
# over generated cases).
bats_require_minimum_version 1.5.0
load test_helper/common
load test_helper/show

# The module's documentation: the vectors of the issue.

@test "-a: exact delays of every algorithm, the documented vectors, limits and clamping" {
	# vector: MIMD with --min-delay
	assert_show "3 6 12 24 12 6 3 2 2 4 8 16" \
	    -a MIMD --initial-delay 3 --min-delay 2 \
	    --delay-multiple-on-failure 2 --delay-multiple-on-success 0.5 \
	    0 0 0 0 1 1 1 1 1 0 0 0
	# vector: Constant with --max-attempts, reset by a success
	assert_show "2 2 -1 -1 0 2" \
	    -a Constant --delay 2 --max-attempts 3 0 0 0 0 1 0
	# vector: Exponential with --max-actual-duration
	assert_show "3 6 12 -1" \
	    -a Exponential --initial-delay 3 --max-attempts 10 \
	    --max-actual-duration 21 0 0:+3 0:+6 0:+12
	# vector: Constant with --consider-actual-delay
	assert_show "2 4 1 1 0" \
	    -a Constant --delay 2 --consider-actual-delay \
	    0 0:+0 0:+5 0:+2 0:+3
	# Constant: delay, delay-on-success
	assert_show "1.5 0.5 0.5 1.5 1.5" \
	    -a Constant --delay 1.5 --delay-on-success 0.5 0 1 1 0 0
	# Constant: --min-delay wins over --max-delay
	assert_show "2 2 2" \
	    -a Constant --delay 1.5 --delay-on-success 0.5 --min-delay 2 \
	    --max-delay 1 0 1 0
	# Exponential: base 2 by default, unlimited, bounded by --count
	assert_show "0.1 0.2 0.4 0.8 1.6 3.2 6.4 12.8 25.6 51.2" \
	    -a Exponential --initial-delay 0.1
	# Exponential: --exponent-base, --max-delay, a success restarts it
	assert_show "0.5 1.5 4.5 10 10 0.25 0.5 1.5" \
	    -a exponential --initial-delay 0.5 --exponent-base 3 \
	    --delay-on-success 0.25 --max-delay 10 0 0 0 0 0 1 0 0
	# Exponential: --max-attempts counts consecutive failures
	assert_show "1 2 4 -1 -1 0 1 2 4 -1" \
	    -a Exponential --initial-delay 1 --max-attempts 4 \
	    0 0 0 0 0 1 0 0 0 0
	# Fibonacci: its own sequence, a success restarts it
	assert_show "1 1 2 3 3 3 3 0 1 1 2" \
	    -a Fibonacci --initial-delay1 1 --initial-delay2 1 --max-delay 3 \
	    0 0 0 0 0 0 0 1 0 0 0
	# Fibonacci: --delay-on-success
	assert_show "0.5 0.75 2 0.5" \
	    -a Fibonacci --initial-delay1 0.5 --initial-delay2 0.75 \
	    --delay-on-success 2 0 0 1 0
	# LILD: increments, clamped at 0 and floored by --min-delay
	assert_show "2 3.5 5 3 1 0.5 0.5 2 3.5" \
	    -a LILD --initial-delay 2 --delay-increment-on-failure 1.5 \
	    --delay-increment-on-success -2 --min-delay 0.5 \
	    0 0 0 1 1 1 1 0 0
	# LILD: a success first returns the initial delay
	assert_show "3 4 3 2" \
	    -a LILD --initial-delay 3 --delay-increment-on-failure 1 \
	    --delay-increment-on-success -1 1 0 1 1
	# LIMD: linear up, multiplicative down, with --max-attempts
	assert_show "1 2 3 4 -1 -1 2 3" \
	    -a LIMD --initial-delay 1 --delay-increment-on-failure 1 \
	    --delay-multiple-on-success 0.5 --max-attempts 4 \
	    1 0 0 0 0 0 1 0
	# MILD: multiplicative up, linear down, capped
	assert_show "0.5 1.5 4.5 10 9 8 7 6 5 10" \
	    -a MILD --initial-delay 0.5 --delay-multiple-on-failure 3 \
	    --delay-increment-on-success -1 --max-delay 10 \
	    0 0 0 0 1 1 1 1 1 0
	# MIMD: a success first returns the initial delay
	assert_show "2 1 2" \
	    -a MIMD --initial-delay 2 --delay-multiple-on-failure 2 \
	    --delay-multiple-on-success 0.5 1 1 0
	# --max-actual-duration is measured from the start, and a -1 changes nothing
	assert_show "3 4 5 -1 4 3 -1" \
	    -a LILD --initial-delay 3 --delay-increment-on-failure 1 \
	    --delay-increment-on-success -1 --max-actual-duration 10 \
	    0 0:4 0:9.5 0:10 1:10 1:12 0:12
	# --consider-actual-delay with absolute times
	assert_show "2 4 1 1 0" \
	    -a Constant --delay 2 --consider-actual-delay 0 0:0 0:5 0:7 0:10
}

@test "vector: MIMD with a multiple of 0.3333333, to the last digit" {
	assert_show "1 3 0.9999999 0.33333326666667 0.111111077777781" \
	    -a MIMD --initial-delay 1 --delay-multiple-on-failure 3 \
	    --delay-multiple-on-success 0.3333333 0 0 1 1 1
}

# Each algorithm.

@test "Fibonacci: the sequence is not made of the clamped delays" {
	# 1, 2, 3, 5, 8 floored at 4; from the returned 4 and 4 it would be 8.
	assert_show "4 4 4 5 8 4 4 4" \
	    -a Fibonacci --initial-delay1 1 --initial-delay2 2 --min-delay 4 \
	    0 0 0 0 0 1 0 0
}

@test "MIMD: P is the delay returned, after the cap" {
	# From the capped 5, not from 16: 2.5, then 1.25.
	assert_show "1 2 4 5 5 5 2.5 1.25" \
	    -a MIMD --initial-delay 1 --delay-multiple-on-failure 2 \
	    --delay-multiple-on-success 0.5 --max-delay 5 0 0 0 0 0 0 1 1
}

@test "algorithm names are case-insensitive" {
	run -0 show -a mimd --initial-delay 1 --delay-multiple-on-failure 2 \
	    --delay-multiple-on-success 0.5 0 0 1
	assert_delays 1 2 1
	run -0 show -a lIlD --initial-delay 1 --delay-increment-on-failure 2 \
	    --delay-increment-on-success -0.5 0 0 1
	assert_delays 1 3 2.5
}

# Limits and time.

@test "without STATUS each attempt fails when the previous delay ends" {
	# So --max-actual-duration gives what retry would: 0, 3, 9, 21.
	assert_show "3 6 12 -1" \
	    -a Exponential --initial-delay 3 --max-actual-duration 21
	# And --consider-actual-delay finds every delay waited in full.
	assert_show "2 2 2 2" \
	    -a Constant --delay 2 --consider-actual-delay --count 4
}

@test "without STATUS the run ends where the strategy gives up" {
	assert_show "2 2 -1" -a Constant --delay 2 --max-attempts 3
	assert_show "2 2 -1" -a Constant --delay 2 --max 3 --count 100
}

@test "--max-attempts 0 and 1" {
	assert_show "2 2 2" -a Constant --delay 2 --max-attempts 0 --count 3
	assert_show "-1 0 -1" -a Constant --delay 2 --max-attempts 1 0 1 0
}

# Randomness.

@test "--jitter-factor: within [d(1-F), d(1+F)], reproducible with --seed" {
	run -0 show -a Constant --delay 10 --jitter-factor 0.5 --seed 7 \
	    --count 50
	local first=$output
	assert_equal "${#lines[@]}" 50
	awk '$1 < 5 || $1 > 15 { print "out of bounds: " $1; exit 1 }' \
	    <<<"$output"
	# Not the same value every time.
	[ "$(sort -u <<<"$output" | wc -l)" -gt 40 ]
	run -0 show -a Constant --delay 10 --jitter-factor 0.5 --seed 7 \
	    --count 50
	assert_equal "$output" "$first"
	run -0 show -a Constant --delay 10 --jitter-factor 0.5 --seed 8 \
	    --count 50
	[ "$output" != "$first" ]
}

@test "--jitter-factor: pinned values for seed 1, each from the one before" {
	run -0 show -a MIMD --initial-delay 1 --delay-multiple-on-failure 2 \
	    --delay-multiple-on-success 0.5 --jitter-factor 0.1 --seed 1 \
	    0 0 0 1
	assert_delays 1.04058436663177 2.08967514414961 4.24129302404763 \
	    2.0745557878165
	# P is the jittered delay returned: each step is within 10% of twice
	# (a failure) or half (the success) the printed step before.
	awk 'NR == 1 && ($1 < 0.9 || $1 > 1.1) { exit 1 }
	     NR > 1 { m = NR < 4 ? 2 : 0.5; r = $1 / (p * m)
		      if (r < 0.9 || r > 1.1) exit 1 }
	     { p = $1 }' <<<"$output"
}

@test "--jitter-factor leaves a 0 delay at 0" {
	assert_show "1 0 1 0" -a Constant --delay 1 --jitter-factor 0 --seed 3 \
	    0 1 0 1
	run -0 show -a Constant --delay 1 --jitter-factor 0.5 --seed 3 \
	    0 1 0 1
	assert_line --index 1 0
	assert_line --index 3 0
}

@test "the jitter modes apply to -a too, under the cap" {
	run -0 show -a Exponential --initial-delay 1 --max-delay 5 \
	    --jitter full --seed 11 --count 20
	assert_equal "${#lines[@]}" 20
	awk '$1 < 0 || $1 > 5 { print "out of bounds: " $1; exit 1 }' \
	    <<<"$output"
}

# What each algorithm needs.

@test "a missing required option is a usage error that names it" {
	run -125 show -a Constant
	assert_usage_error --delay
	assert_line --index 0 "show-backoff-delays: --algorithm: Constant needs --delay"
	run -125 show -a Exponential
	assert_usage_error --initial-delay
	run -125 show -a Fibonacci --initial-delay1 1
	assert_usage_error --initial-delay2
	run -125 show -a Fibonacci --initial-delay2 1
	assert_usage_error --initial-delay1
	run -125 show -a LILD --initial-delay 1 --delay-increment-on-failure 1
	assert_usage_error --delay-increment-on-success
	run -125 show -a LIMD --initial-delay 1 --delay-multiple-on-success 1
	assert_usage_error --delay-increment-on-failure
	run -125 show -a MILD --initial-delay 1 --delay-increment-on-success 1
	assert_usage_error --delay-multiple-on-failure
	run -125 show -a MIMD --delay-multiple-on-failure 2 \
	    --delay-multiple-on-success 1
	assert_usage_error --initial-delay
}

@test "a failure never shortens the delay: on-failure increments under 0, multiples under 1" {
	run -125 show -a LILD --initial-delay 1 --delay-increment-on-failure \
	    -0.001 --delay-increment-on-success 1
	assert_usage_error --delay-increment-on-failure
	assert_line --index 0 "show-backoff-delays: --delay-increment-on-failure: '-0.001': negative duration (a failure never shortens the delay)"
	run -125 retry -a LIMD --initial-delay 1 --delay-increment-on-failure \
	    -1ms --delay-multiple-on-success 0.5 -- true
	assert_usage_error --delay-increment-on-failure
	run -125 show -a MILD --initial-delay 1 --delay-multiple-on-failure \
	    0.5 --delay-increment-on-success 1
	assert_usage_error --delay-multiple-on-failure
	assert_line --index 0 "show-backoff-delays: --delay-multiple-on-failure: '0.5' is out of range (1 to 1e+06: a failure never shortens the delay)"
	run -125 retry simulate -a MIMD --initial-delay 1 \
	    --delay-multiple-on-failure 0.99 --delay-multiple-on-success 0.5
	assert_usage_error --delay-multiple-on-failure
	# 0 and 1 keep it; a success's may shrink it, below 0 or 1.
	run -0 show -a LILD --initial-delay 1 --delay-increment-on-failure 0 \
	    --delay-increment-on-success -0.5 0 0 1 1
	assert_output "$(printf '%s\n' 1 1 0.5 0)"
	run -0 show -a MIMD --initial-delay 1 --delay-multiple-on-failure 1 \
	    --delay-multiple-on-success 0.5 0 0 1
	assert_output "$(printf '%s\n' 1 1 0.5)"
}

@test "an option of another algorithm is a usage error" {
	run -125 show -a Constant --delay 1 --initial-delay 2
	assert_usage_error --initial-delay
	run -125 show -a MIMD --initial-delay 1 --delay-multiple-on-failure 2 \
	    --delay-multiple-on-success 1 --delay-on-success 1
	assert_usage_error --delay-on-success
}

@test "an unknown algorithm is a usage error" {
	run -125 show -a Quadratic --delay 1
	assert_usage_error --algorithm
	assert_line --index 0 "show-backoff-delays: --algorithm: unknown algorithm 'Quadratic' (use Constant, Exponential, Fibonacci, LILD, LIMD, MILD or MIMD)"
}

@test "retry show-backoff-delays is the same program" {
	run -0 retry show-backoff-delays -a MIMD --initial-delay 3 \
	    --min-delay 2 --delay-multiple-on-failure 2 \
	    --delay-multiple-on-success 0.5 0 0 0 0 1 1 1 1 1 0 0 0
	assert_delays 3 6 12 24 12 6 3 2 2 4 8 16
}
