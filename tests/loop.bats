#!/usr/bin/env bats
# The retry loop against real processes: how many attempts run, the exit
# status, exec failures, and the --budget.
bats_require_minimum_version 1.5.0
load test_helper/common
load test_helper/core

@test "--max 1 runs once and never retries" {
	run -1 retry --max 1 --fixed 10ms flaky 5
	assert_output --partial "run 1"
	assert_equal "$(flaky_runs)" 1
}

@test "--max 3 runs three times, then gives up with the last status" {
	run -1 --separate-stderr retry --max 3 --fixed 10ms flaky 5
	assert_lines "run 1" "run 2" "run 3"
	assert_equal "$(flaky_runs)" 3
}

@test "-n is --max, --max-attempts its alias" {
	run -1 --separate-stderr retry -n 2 --fixed 1ms flaky 5
	assert_equal "$(flaky_runs)" 2
	rm "$BATS_TEST_TMPDIR/flaky.count"
	run -1 --separate-stderr retry --max-attempts 4 --fixed 1ms flaky 5
	assert_equal "$(flaky_runs)" 4
}

@test "the default is five attempts" {
	run -1 --separate-stderr retry --immediate flaky 9
	assert_equal "$(flaky_runs)" 5
}

@test "--max 0 retries without limit until success" {
	run -0 --separate-stderr retry --max 0 --immediate flaky 12
	assert_equal "$(flaky_runs)" 13
	assert_equal "${#lines[@]}" 13
	assert_line --index 12 "run 13"
}

@test "success on the k-th attempt stops the loop" {
	run -0 --separate-stderr retry --max 5 --fixed 10ms flaky 2
	assert_lines "run 1" "run 2" "run 3"
	assert_equal "$(flaky_runs)" 3
}

@test "a command that succeeds at once runs once, silently" {
	run -0 --separate-stderr retry flaky 0
	assert_output "run 1"
	assert_equal "$stderr" ""
}

@test "exit status: the last attempt's exit code" {
	run -42 --separate-stderr retry -n 2 --fixed 1ms flaky 9 42
	assert_equal "$(flaky_runs)" 2
	run -3 --separate-stderr retry -n 1 sh -c 'exit 3'
	run -255 --separate-stderr retry -n 1 sh -c 'exit 255'
}

@test "exit status: 128 + N for a death by signal N" {
	run -139 --separate-stderr retry -n 2 --fixed 1ms sh -c 'kill -SEGV $$'
	assert_stderr_lines \
	    "retry: sh -c 'kill -SEGV \\$\\$': attempt 1/2 failed: killed by SIGSEGV after $DUR; next attempt in 1ms" \
	    "retry: sh -c 'kill -SEGV \\$\\$': giving up after 2 attempts in $DUR: killed by SIGSEGV"
	run -137 --separate-stderr retry -n 1 sh -c 'kill -KILL $$'
	run -143 --separate-stderr retry -n 1 sh -c 'kill -TERM $$'
}

@test "exit status: 124 when the last attempt timed out" {
	local t0
	t0=$(now_ms)
	run -124 --separate-stderr retry -n 2 --fixed 10ms --timeout 100ms \
	    sleep 10
	(($(now_ms) - t0 < 5000))
	assert_stderr_lines \
	    "retry: sleep 10: attempt 1/2 failed: timed out after $DUR; next attempt in 10ms" \
	    "retry: sleep 10: giving up after 2 attempts in $DUR: timed out"
}

@test "a timed-out attempt is retried, and a later success counts" {
	run -0 --separate-stderr retry -n 3 --fixed 10ms --timeout 300ms \
	    sh -c 'test "$RETRY_ATTEMPT" -ge 2 || exec sleep 10'
	assert_equal "${#stderr_lines[@]}" 2
	assert_regex "$stderr" "^retry: $(named sh -c 'test "$RETRY_ATTEMPT" -ge 2 || exec sleep 10'): attempt 1/3 failed: timed out after "
	assert_regex "${stderr_lines[1]}" "^retry: $(named sh -c 'test "$RETRY_ATTEMPT" -ge 2 || exec sleep 10'): succeeded on attempt 2 of 3 after "
}

@test "exit status: 127 for a command not found, never retried" {
	skip_qemu "qemu-user runs vfork as fork, so a failed exec cannot tell retry its errno"
	run -127 --separate-stderr retry -n 5 --fixed 1ms no-such-command-xyz
	assert_equal "$stderr" "retry: no-such-command-xyz: command not found"
	assert_output ""
}

@test "exit status: a misspelt face is a command not found, with the face it most likely meant" {
	skip_qemu "qemu-user runs vfork as fork, so a failed exec cannot tell retry its errno"
	local face
	for face in simulte show-backof-delays shar; do
		run -127 --separate-stderr retry -n 5 --fixed 1ms "$face"
		case $face in
		simulte) assert_equal "$stderr" "retry: simulte: command not found; did you mean 'retry simulate'?" ;;
		show-backof-delays) assert_equal "$stderr" "retry: show-backof-delays: command not found; did you mean 'retry show-backoff-delays'?" ;;
		shar) assert_equal "$stderr" "retry: shar: command not found; did you mean 'retry share'?" ;;
		esac
	done
	# Nothing near: nothing offered.
	run -127 --separate-stderr retry -n 5 --fixed 1ms smlt
	assert_equal "$stderr" "retry: smlt: command not found"
}

@test "exit status: 127 for a path that does not exist" {
	skip_qemu "qemu-user runs vfork as fork, so a failed exec cannot tell retry its errno"
	run -127 --separate-stderr retry -n 5 --fixed 1ms "$BATS_TEST_TMPDIR/nope/cmd"
	assert_equal "$stderr" \
	    "retry: $(command_name "$BATS_TEST_TMPDIR/nope/cmd"): $BATS_TEST_TMPDIR/nope/cmd: No such file or directory"
}

@test "exit status: 126 for a file that is not executable" {
	skip_qemu "qemu-user runs vfork as fork, so a failed exec cannot tell retry its errno"
	local f=$BATS_TEST_TMPDIR/script
	printf '#!/bin/sh\necho ran >>"%s.log"\n' "$f" >"$f"
	chmod 644 "$f"
	run -126 --separate-stderr retry -n 5 --fixed 1ms "$f"
	assert_equal "$stderr" "retry: $(command_name "$f"): $f: Permission denied"
	[ ! -e "$f.log" ]
}

@test "exit status: 126 for a directory, said as a shell says it" {
	skip_qemu "qemu-user runs vfork as fork, so a failed exec cannot tell retry its errno"
	run -126 --separate-stderr retry -n 5 --fixed 1ms "$BATS_TEST_TMPDIR"
	assert_equal "$stderr" "retry: $(command_name "$BATS_TEST_TMPDIR"): $BATS_TEST_TMPDIR: Is a directory"
}

@test "the command's arguments pass through untouched" {
	run -0 retry -n 1 -- printf '[%s]\n' 'a b' '' '*' '--fixed'
	assert_lines '[a b]' '[]' '[*]' '[--fixed]'
}

@test "no sleep after the last attempt" {
	local t0
	t0=$(now_ms)
	run -1 --separate-stderr retry -n 1 --fixed 30s flaky 5
	(($(now_ms) - t0 < 5000))
	t0=$(now_ms)
	run -1 --separate-stderr retry -n 3 --delays 10ms,10ms,30s flaky 5
	(($(now_ms) - t0 < 5000))
	assert_equal "$(flaky_runs)" 4
}

@test "--budget gives up at once instead of sleeping in vain" {
	local t0 ms
	t0=$(now_ms)
	# Sleeping in vain would take the budget's 20s; the bound is generous.
	run -1 --separate-stderr retry -n 0 --budget 20s --fixed 60s flaky 5
	ms=$(($(now_ms) - t0))
	((ms < 10000))
	assert_equal "$(flaky_runs)" 1
	assert_stderr_lines \
	    "retry: flaky 5: giving up after 1 attempt in $DUR: exit 1; the next attempt would start past the 20s budget"
}

@test "--budget: attempts within the budget run" {
	run -0 --separate-stderr retry -n 0 --budget 10s --fixed 20ms flaky 3
	assert_equal "$(flaky_runs)" 4
}

@test "--budget: the attempt that would start past it does not" {
	# 0s: attempt 1; 2s: attempt 2; 4s: attempt 3; 6s > 5s.  A second
	# on either side, so that a busy host's slower attempts change
	# nothing (--dry-run below shows the exact plan).
	local t0 ms
	t0=$(now_ms)
	run -1 --separate-stderr retry -n 0 --budget 5s --fixed 2s flaky 9
	ms=$(($(now_ms) - t0))
	assert_equal "$(flaky_runs)" 3
	((ms >= 4000 && ms < 15000))
	assert_equal "${#stderr_lines[@]}" 3
	assert_regex "${stderr_lines[2]}" \
	    "^retry: flaky 9: giving up after 3 attempts in $DUR: exit 1; the next attempt would start past the 5s budget\$"
}

@test "--budget with --dry-run shows where the run gives up" {
	run -0 retry --dry-run -n 0 --budget 1s --fixed 400ms
	assert_lines \
	    "attempt  delay      starts at" \
	    "1        -          0s" \
	    "2        400ms      400ms" \
	    "3        400ms      800ms" \
	    "then gives up: the next attempt would start past the 1s budget"
}

@test "--budget cuts the --timeout of an attempt to what remains" {
	local t0 ms
	t0=$(now_ms)
	run -124 --separate-stderr retry -n 1 --budget 300ms --timeout 10s \
	    sleep 10
	ms=$(($(now_ms) - t0))
	((ms >= 300 && ms < 8000))
}
