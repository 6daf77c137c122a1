#!/usr/bin/env bats
# Durations through the binary: show-backoff-delays and --dry-run read and
# print them with the parser and the formatter that tests/unit/duration.c
# holds to every unit, compound form and rounding.
bats_require_minimum_version 1.5.0
load test_helper/common
load test_helper/core

@test "durations: show-backoff-delays reads them to the nanosecond" {
	run -0 show --fixed 1ns -n 2
	assert_lines 1e-09 -1
	run -0 show --fixed 1d1h1m1s -n 2
	assert_lines 90061 -1
}

@test "durations: past 365 days is a usage error: 125 and one line" {
	run -125 show --fixed 365d1ns -n 2
	assert_usage_error --fixed
	assert_line --index 0 "show-backoff-delays: --fixed: '365d1ns': longer than 365 days"
}

@test "durations: --dry-run's 'starts at' column adds the delays up" {
	run -0 retry --dry-run -n 4 --delays 250ms,1.25s,1m
	assert_lines \
	    "attempt  delay      starts at" \
	    "1        -          0s" \
	    "2        250ms      250ms" \
	    "3        1.25s      1.5s" \
	    "4        1m         1m1.5s"
}
