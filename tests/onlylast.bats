#!/usr/bin/env bats
# --hold last: each attempt's stdout and stderr held; only the last
# attempt's passed on, with a report line for each failure before it.
bats_require_minimum_version 1.5.0
load test_helper/common
load test_helper/procs

setup() {
	own_tmpdir
}

# Attempts 1 and 2 fail, the third succeeds, each saying so on both
# streams.
twice_then_ok='echo "attempt $RETRY_ATTEMPT out"; echo "attempt $RETRY_ATTEMPT err" >&2; [ "$RETRY_ATTEMPT" -ge 3 ]'

@test "--only-last: after two failures, only the third attempt's output, with the failures' report lines" {
	run -0 --separate-stderr retry --only-last --fixed 10ms -- \
	    sh -c "$twice_then_ok"
	assert_output "attempt 3 out"
	assert_equal "${#stderr_lines[@]}" 4
	[[ ${stderr_lines[0]} == "retry: "*": attempt 1/5 failed: exit 1 after "* ]]
	[[ ${stderr_lines[1]} == "retry: $(command_name sh -c "$twice_then_ok"): attempt 2/5 failed: exit 1 after "* ]]
	assert_equal "${stderr_lines[2]}" "attempt 3 err"
	[[ ${stderr_lines[3]} == "retry: "*": succeeded on attempt 3 of 5 after "* ]]
}

@test "--only-last -q: only the last attempt's output, as chronic(1)" {
	run -0 --separate-stderr retry -q --only-last --fixed 10ms -- \
	    sh -c "$twice_then_ok"
	assert_output "attempt 3 out"
	assert_equal "$stderr" "attempt 3 err"
}

@test "--only-last: giving up passes on the last failed attempt's output" {
	run -1 --separate-stderr retry --only-last --max 2 --fixed 10ms -- \
	    sh -c "$twice_then_ok"
	assert_output "attempt 2 out"
	assert_equal "${#stderr_lines[@]}" 3
	[[ ${stderr_lines[0]} == "retry: "*": attempt 1/2 failed: exit 1 after "* ]]
	assert_equal "${stderr_lines[1]}" "attempt 2 err"
	[[ ${stderr_lines[2]} == "retry: "*": giving up after 2 attempts in "* ]]
}

@test "--only-last: megabytes of output on both streams, none lost or doubled" {
	local D=$BATS_TEST_TMPDIR
	head -c 3000000 /dev/urandom >"$D/a"
	head -c 2000000 /dev/urandom >"$D/b"
	run -0 timeout 60 sh -c '"$RETRY" -q --only-last --fixed 10ms -- sh -c \
	    '\''cat "$1"; cat "$2" >&2; [ "$RETRY_ATTEMPT" -ge 3 ]'\'' _ "$1" "$2" \
	    >"$3" 2>"$4"' _ "$D/a" "$D/b" "$D/out" "$D/err"
	assert_equal "$(cksum <"$D/out")" "$(cksum <"$D/a")"
	assert_equal "$(cksum <"$D/err")" "$(cksum <"$D/b")"
}

@test "--only-last with --hold-stdout: a failure's held stdout, passed on at the end, goes to stderr" {
	run -1 --separate-stderr retry -q --only-last --hold-stdout --max 2 \
	    --fixed 10ms -- sh -c "$twice_then_ok"
	assert_output ""
	assert_equal "$stderr" "$(printf 'attempt 2 out\nattempt 2 err')"
}

@test "--hold last is --only-last, --hold stdout --hold-stdout, and both add up as both flags" {
	local out err
	run -0 --separate-stderr retry --hold last --fixed 10ms -- \
	    sh -c "$twice_then_ok"
	assert_output "attempt 3 out"
	assert_equal "${#stderr_lines[@]}" 4
	assert_equal "${stderr_lines[2]}" "attempt 3 err"
	# Given both, as --only-last --hold stdout: the failure's stdout goes
	# to stderr; the old spellings, the same.
	run -1 --separate-stderr retry -q --hold last --hold stdout --max 2 \
	    --fixed 10ms -- sh -c "$twice_then_ok"
	out=$output err=$stderr
	assert_output ""
	assert_equal "$stderr" "$(printf 'attempt 2 out\nattempt 2 err')"
	run -1 --separate-stderr retry -q --only-last --hold-stdout --max 2 \
	    --fixed 10ms -- sh -c "$twice_then_ok"
	assert_equal "$output" "$out"
	assert_equal "$stderr" "$err"
	run -1 --separate-stderr retry -q --hold stdout --max 2 --fixed 10ms -- \
	    sh -c "$twice_then_ok"
	assert_output ""
	assert_equal "$stderr" "$(printf 'attempt %s\n' '1 err' '1 out' '2 err' '2 out')"
	# The old spellings work, but --help all lists only --hold.
	run -0 retry --help all
	assert_line --regexp '^  +--hold WHAT +\+'
	refute_output --partial -- '--hold-stdout '
	refute_output --partial -- '--only-last '
	# An unknown value: one line, naming --hold and its values.
	run -125 --separate-stderr retry --hold stderr -- true
	assert_equal "${stderr_lines[0]}" "retry: --hold: unknown output 'stderr' (use stdout or last)"
	assert_equal "${#stderr_lines[@]}" 2
	# And the probe's refusal names the option as it was given by its
	# old name.
	run -125 --separate-stderr retry --hold last -- tcp://127.0.0.1:9
	[[ $stderr == "retry: --only-last: a probe (tcp://127.0.0.1:9) has no process"* ]]
}

@test "--only-last: an output rule still reads each attempt's output as it comes" {
	run -0 --separate-stderr retry -q --only-last --fixed 10ms \
	    --until-output 'attempt 3 out' -- \
	    sh -c 'echo "attempt $RETRY_ATTEMPT out"; echo "attempt $RETRY_ATTEMPT err" >&2'
	assert_output "attempt 3 out"
	assert_equal "$stderr" "attempt 3 err"
}

@test "--only-last is refused with a probe" {
	run -125 --separate-stderr retry --only-last -- tcp://127.0.0.1:9
	[[ $stderr == "retry: --only-last: a probe (tcp://127.0.0.1:9) has no process"* ]]
}

@test "--only-last: a signal during the back-off passes on the attempt before it" {
	local D=$BATS_TEST_TMPDIR
	"$RETRY" --only-last --fixed 60s -- sh -c \
	    'echo "attempt $RETRY_ATTEMPT out"; echo "attempt $RETRY_ATTEMPT err" >&2; exit 1' \
	    >"$D/out" 2>"$D/err" 3>&- &
	local pid=$!
	poll_until 30 grep -q "next attempt in" "$D/err"
	kill -TERM "$pid"
	local rc=0
	wait "$pid" || rc=$?
	assert_equal "$rc" 143
	assert_equal "$(cat "$D/out")" "attempt 1 out"
	run -0 grep -c "^attempt 1 err$" "$D/err"
	assert_output 1
}
