#!/usr/bin/env bats
# Durations: units, compound forms, bare seconds, and how --dry-run prints
# them.  Values are read back through show-backoff-delays, which prints
# seconds as %.15g, so every unit is checked to the nanosecond.
bats_require_minimum_version 1.5.0
load test_helper/common
load test_helper/core

# The first delay of --fixed DUR, in seconds, then -1 (two attempts).
assert_seconds() {
	local dur=$1 want=$2
	run -0 show --fixed "$dur" -n 2
	assert_lines "$want" -1
}

# The delay column of the first retry of --dry-run --fixed DUR.
assert_formats() {
	local dur=$1 want=$2
	run -0 retry --dry-run -n 2 --fixed "$dur"
	assert_line --index 2 --regexp "^2 +${want//./\\.} +${want//./\\.}\$"
}

@test "durations: ns, us and ms are exact fractions of a second" {
	assert_seconds 1ns 1e-09
	assert_seconds 7ns 7e-09
	assert_seconds 1us 1e-06
	assert_seconds 250us 0.00025
	assert_seconds 1ms 0.001
	assert_seconds 250ms 0.25
}

@test "durations: s, m, h and d" {
	assert_seconds 1s 1
	assert_seconds 45s 45
	assert_seconds 1m 60
	assert_seconds 2h 7200
	assert_seconds 1d 86400
}

@test "durations: compound forms add up" {
	assert_seconds 1m30s 90
	assert_seconds 1h15m 4500
	assert_seconds 1d1h1m1s 90061
	assert_seconds 1s500ms 1.5
	assert_seconds 2m0s 120
}

@test "durations: a bare number is seconds" {
	assert_seconds 0.5 0.5
	assert_seconds 2 2
	assert_seconds 0.001 0.001
	assert_seconds .25 0.25
	assert_seconds 0 0
}

@test "durations: fractions with a unit are exact to the nanosecond" {
	assert_seconds 0.1s 0.1
	assert_seconds 1.5ms 0.0015
	assert_seconds 2.5us 2.5e-06
	assert_seconds 0.5m 30
	assert_seconds 1.5h 5400
	assert_seconds 0.000000001s 1e-09
}

@test "durations: 365 days is the longest accepted" {
	assert_seconds 365d 31536000
	assert_seconds 8760h 31536000
	run -125 show --fixed 365d1ns -n 2
	assert_usage_error --fixed
	assert_line --index 0 "show-backoff-delays: --fixed: '365d1ns': longer than 365 days"
}

@test "durations: the same parser serves every duration option" {
	# --fixed, --max-delay, --min-delay and --delays items all take units.
	run -0 show --linear 1m30s --max-delay 2m30s --min-delay 1.5m -n 4
	assert_lines 90 150 150 -1
	run -0 show --delays 1ms,1.5s,1m -n 0 --count 4
	assert_lines 0.001 1.5 60 60
}

@test "durations: --dry-run prints short human forms" {
	assert_formats 250ms 250ms
	assert_formats 1.5s 1.5s
	assert_formats 2m30s 2m30s
	assert_formats 90s 1m30s
	assert_formats 0.5 500ms
	assert_formats 1h 1h
	assert_formats 25h 1d1h
	assert_formats 1d1h1m1s 1d1h1m1s
}

@test "durations: --dry-run prints small and fractional values" {
	assert_formats 1ns 1ns
	assert_formats 999ns 999ns
	assert_formats 1500ns 1.5us
	assert_formats 1.25ms 1.25ms
	assert_formats 1.2345s 1.235s
	assert_formats 59m59.5s 59m59.5s
	assert_formats 0 0s
}

@test "durations: --dry-run rounds into the next unit, never 1000ms or 60s" {
	assert_formats 999.9996ms 1s
	assert_formats 59.9996s 1m
	assert_formats 1m59.9996s 2m
	assert_formats 59m59.9996s 1h
	assert_formats 999.9994ms 999.999ms
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
