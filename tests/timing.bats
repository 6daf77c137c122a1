#!/usr/bin/env bats
# Real sleeps, asserted with bounds that leave room for a busy machine.
bats_require_minimum_version 1.5.0
load test_helper/common
load test_helper/core
load test_helper/procs

@test "timing: a 200ms fixed delay between two attempts" {
	local t0 ms
	t0=$(now_ms)
	run -0 --separate-stderr retry -n 2 --fixed 200ms flaky 1
	ms=$(($(now_ms) - t0))
	assert_equal "$(flaky_runs)" 2
	# At least the delay; above, room for a busy host.
	((ms >= 200 && ms < 5000))
}

@test "timing: the delays of a run add up" {
	local t0 ms
	t0=$(now_ms)
	run -0 --separate-stderr retry -n 3 --delays 100ms,250ms flaky 2
	ms=$(($(now_ms) - t0))
	assert_equal "$(flaky_runs)" 3
	((ms >= 350 && ms < 5000))
}

@test "timing: the delay starts when the attempt ends" {
	local t0 ms
	t0=$(now_ms)
	run -0 --separate-stderr retry -n 2 --fixed 300ms \
	    sh -c 'sleep 0.3; [ "$RETRY_ATTEMPT" = 2 ]'
	ms=$(($(now_ms) - t0))
	# 300ms attempt, 300ms delay, 300ms attempt.
	((ms >= 900 && ms < 6000))
}

@test "timing: --immediate does not sleep" {
	local t0 ms
	t0=$(now_ms)
	run -0 --separate-stderr retry -n 10 --immediate flaky 9
	ms=$(($(now_ms) - t0))
	assert_equal "$(flaky_runs)" 10
	# The default back-off would sleep minutes; the bound leaves room
	# for a busy host.
	((ms < 8000))
}

@test "timing: --timeout ends a long attempt" {
	local t0 ms
	t0=$(now_ms)
	run -124 --separate-stderr retry -n 1 --timeout 200ms sleep 10
	ms=$(($(now_ms) - t0))
	((ms >= 200 && ms < 5000))
}

@test "timing: the sleep keeps its deadline when a signal interrupts it" {
	# SIGCHLD wakes retry without ending the run.  A sleep that started
	# over after each one would last until the signals stop (5s at the
	# least, for as long as retry runs) plus 500ms.
	local t0 ms pid i
	t0=$(now_ms)
	"$RETRY" -q -n 2 --fixed 500ms flaky 1 >/dev/null 3>&- &
	pid=$!
	# Not poll_until: a SIGCHLD every 100ms, for up to 5s, is what is tested.
	for ((i = 0; i < 50; i++)); do
		sleep 0.1
		kill -CHLD "$pid" 2>/dev/null || break
	done
	wait_status "$pid"
	ms=$(($(now_ms) - t0))
	assert_equal "$status" 0
	assert_equal "$(flaky_runs)" 2
	((ms >= 500 && ms < 4500))
}

@test "timing: SIGTERM during the sleep ends it at once" {
	local t0 ms pid i
	t0=$(now_ms)
	"$RETRY" -q -n 2 --fixed 30s flaky 9 >/dev/null 3>&- &
	pid=$!
	# Once the first attempt ran: retry sleeps, or is about to.
	poll_until 20 eval '[ "$(flaky_runs)" -ge 1 ]'
	kill -TERM "$pid"
	wait_status "$pid"
	ms=$(($(now_ms) - t0))
	assert_equal "$status" 143
	assert_equal "$(flaky_runs)" 1
	((ms < 5000))
}
