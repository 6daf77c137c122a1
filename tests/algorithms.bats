#!/usr/bin/env bats
# The -a family, Algorithm::Backoff's strategies, through the binary: one
# documented vector, a seeded --jitter-factor, and each kind of usage
# error.  The exact delays of every algorithm, the vectors, limits,
# clamping, jitter-factor's bounds and what each algorithm needs are rows
# of tests/unit/delays.c; perl-compare.bats and number.bats check the
# binary against Algorithm::Backoff itself over generated cases.
bats_require_minimum_version 1.5.0
load test_helper/common
load test_helper/show

@test "-a: a documented vector, MIMD with --min-delay" {
	assert_show "3 6 12 24 12 6 3 2 2 4 8 16" \
	    -a MIMD --initial-delay 3 --min-delay 2 \
	    --delay-multiple-on-failure 2 --delay-multiple-on-success 0.5 \
	    0 0 0 0 1 1 1 1 1 0 0 0
}

@test "--jitter-factor: pinned values for seed 1" {
	run -0 show -a MIMD --initial-delay 1 --delay-multiple-on-failure 2 \
	    --delay-multiple-on-success 0.5 --jitter-factor 0.1 --seed 1 \
	    0 0 0 1
	assert_delays 1.04058436663177 2.08967514414961 4.24129302404763 \
	    2.0745557878165
}

# What each algorithm needs: one refusal of each kind.

@test "a missing required option is a usage error that names it" {
	run -125 show -a Constant
	assert_usage_error --delay
	assert_line --index 0 "show-backoff-delays: --algorithm: Constant needs --delay"
}

@test "a failure never shortens the delay: on-failure increments under 0, multiples under 1" {
	run -125 show -a LILD --initial-delay 1 --delay-increment-on-failure \
	    -0.001 --delay-increment-on-success 1
	assert_usage_error --delay-increment-on-failure
	assert_line --index 0 "show-backoff-delays: --delay-increment-on-failure: '-0.001': negative duration (a failure never shortens the delay)"
	run -125 show -a MILD --initial-delay 1 --delay-multiple-on-failure \
	    0.5 --delay-increment-on-success 1
	assert_usage_error --delay-multiple-on-failure
	assert_line --index 0 "show-backoff-delays: --delay-multiple-on-failure: '0.5' is out of range (1 to 1e+06: a failure never shortens the delay)"
}

@test "an option of another algorithm is a usage error" {
	run -125 show -a Constant --delay 1 --initial-delay 2
	assert_usage_error --initial-delay
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
