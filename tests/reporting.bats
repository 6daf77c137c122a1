#!/usr/bin/env bats
# What retry says on stderr, line by line; --quiet, --verbose, --label;
# --version and --help.
bats_require_minimum_version 1.5.0
load test_helper/common
load test_helper/core

@test "report: a failure and the next delay, then giving up" {
	run -1 --separate-stderr retry -n 3 --fixed 10ms flaky 9
	assert_lines "run 1" "run 2" "run 3"
	assert_stderr_lines \
	    "retry: attempt 1/3 failed: exit 1 after $DUR; next attempt in 10ms" \
	    "retry: attempt 2/3 failed: exit 1 after $DUR; next attempt in 10ms" \
	    "retry: giving up after 3 attempts in $DUR: exit 1"
}

@test "report: the delays reported are the strategy's" {
	run -1 --separate-stderr retry -n 4 --exp 10ms --factor 3 flaky 9
	assert_stderr_lines \
	    "retry: attempt 1/4 failed: exit 1 after $DUR; next attempt in 10ms" \
	    "retry: attempt 2/4 failed: exit 1 after $DUR; next attempt in 30ms" \
	    "retry: attempt 3/4 failed: exit 1 after $DUR; next attempt in 90ms" \
	    "retry: giving up after 4 attempts in $DUR: exit 1"
}

@test "report: --dry-run's delays are the least a run waits with --delay-from-output" {
	run -0 retry --dry-run -n 3 --fixed 20ms --jitter full --seed 9 \
	    --delay-from-output 'wait (.+)'
	assert_line --index 4 \
	    "the command's output can lengthen any of these delays, to 1h at most"
	local d1 d2
	d1=$(awk 'NR == 3 { print $2 }' <<<"$output")
	d2=$(awk 'NR == 4 { print $2 }' <<<"$output")
	run -1 --separate-stderr retry -n 3 --fixed 20ms --jitter full \
	    --seed 9 --delay-from-output 'wait (.+)' -- \
	    sh -c 'echo wait 0; exit 1'
	assert_stderr_lines \
	    "retry: attempt 1/3 failed: exit 1 after $DUR; next attempt in ${d1//./\\.}, the strategy's: the command's output asked for 0s" \
	    "retry: attempt 2/3 failed: exit 1 after $DUR; next attempt in ${d2//./\\.}, the strategy's: the command's output asked for 0s" \
	    "retry: giving up after 3 attempts in $DUR: exit 1"
	run -0 retry --dry-run -n 2 --fixed 20ms --min-delay 10ms \
	    --max-delay 5s --delay-from-output 'wait (.+)' \
	    --delay-from-output-replaces
	assert_lines "attempt  delay      starts at" \
	    "1        -          0s" \
	    "2        20ms       20ms" \
	    "the command's output can replace any of these delays, within 10ms and 5s"
}

@test "report: retry sleeps what --dry-run and show-backoff-delays print" {
	run -0 retry --dry-run -n 4 --fixed 20ms --jitter full --seed 9
	local d1 d2 d3
	d1=$(awk 'NR == 3 { print $2 }' <<<"$output")
	d2=$(awk 'NR == 4 { print $2 }' <<<"$output")
	d3=$(awk 'NR == 5 { print $2 }' <<<"$output")
	run -1 --separate-stderr retry -n 4 --fixed 20ms --jitter full \
	    --seed 9 flaky 9
	assert_stderr_lines \
	    "retry: attempt 1/4 failed: exit 1 after $DUR; next attempt in ${d1//./\\.}" \
	    "retry: attempt 2/4 failed: exit 1 after $DUR; next attempt in ${d2//./\\.}" \
	    "retry: attempt 3/4 failed: exit 1 after $DUR; next attempt in ${d3//./\\.}" \
	    "retry: giving up after 4 attempts in $DUR: exit 1"
}

@test "report: one attempt is 'attempt', not 'attempts'" {
	run -1 --separate-stderr retry -n 1 flaky 9
	assert_stderr_lines "retry: giving up after 1 attempt in $DUR: exit 1"
}

@test "report: a success after failures adds no line" {
	run -0 --separate-stderr retry -n 3 --fixed 1ms flaky 1
	assert_stderr_lines \
	    "retry: attempt 1/3 failed: exit 1 after $DUR; next attempt in 1ms"
}

@test "report: unlimited attempts print no /N" {
	run -0 --separate-stderr retry -n 0 --fixed 1ms flaky 2
	assert_stderr_lines \
	    "retry: attempt 1 failed: exit 1 after $DUR; next attempt in 1ms" \
	    "retry: attempt 2 failed: exit 1 after $DUR; next attempt in 1ms"
}

@test "report: -q prints nothing, even when giving up" {
	run -1 --separate-stderr retry -q -n 3 --fixed 1ms flaky 9
	assert_equal "$stderr" ""
	assert_lines "run 1" "run 2" "run 3"
	run -2 --separate-stderr retry --quiet --retry-on 1 flaky 9 2
	assert_equal "$stderr" ""
}

@test "report: -q still reports retry's own errors" {
	run -127 --separate-stderr retry -q no-such-command-xyz
	assert_equal "$stderr" "retry: no-such-command-xyz: command not found"
}

@test "report: --verbose adds each start and the success" {
	run -0 --separate-stderr retry --verbose -n 3 --fixed 10ms flaky 1
	assert_stderr_lines \
	    "retry: attempt 1/3 starting" \
	    "retry: attempt 1/3 failed: exit 1 after $DUR; next attempt in 10ms" \
	    "retry: attempt 2/3 starting" \
	    "retry: attempt 2/3 succeeded after $DUR"
}

@test "report: --label gives retry[LABEL]: on every line" {
	run -1 --separate-stderr retry --label web-1 --verbose -n 2 --fixed 1ms flaky 9
	assert_stderr_lines \
	    "retry\[web-1\]: attempt 1/2 starting" \
	    "retry\[web-1\]: attempt 1/2 failed: exit 1 after $DUR; next attempt in 1ms" \
	    "retry\[web-1\]: attempt 2/2 starting" \
	    "retry\[web-1\]: giving up after 2 attempts in $DUR: exit 1"
	run -127 --separate-stderr retry --label web-1 no-such-command-xyz
	assert_equal "$stderr" "retry[web-1]: no-such-command-xyz: command not found"
}

@test "report: the command's stdout and stderr pass through" {
	run -0 --separate-stderr retry -n 2 --fixed 1ms sh -c '
		echo "out $RETRY_ATTEMPT"; echo "err $RETRY_ATTEMPT" >&2
		[ "$RETRY_ATTEMPT" = 2 ]'
	assert_lines "out 1" "out 2"
	assert_stderr_lines "err 1" \
	    "retry: attempt 1/2 failed: exit 1 after $DUR; next attempt in 1ms" \
	    "err 2"
}

@test "--version and the manuals give the name and the version in VERSION" {
	local v
	v=$(cat "$ROOT/VERSION")
	[ -n "$v" ]
	run -0 --separate-stderr retry --version
	assert_output "retry $v"
	assert_equal "$stderr" ""
	run -0 show --version
	assert_output "show-backoff-delays $v"
	# The manuals' footers name it too.
	run -0 grep -x "\.Os retry $v" "$ROOT/man/retry.1" \
	    "$ROOT/man/show-backoff-delays.1"
	assert_equal "${#lines[@]}" 2
}

@test "--help goes to stdout, exits 0 and fits 80 columns" {
	run -0 --separate-stderr retry --help
	assert_equal "$stderr" ""
	assert_line --index 0 "Usage: retry [OPTION]... [--] COMMAND [ARG]..."
	run awk 'length($0) >= 80 { print NR ": " $0; bad = 1 } END { exit bad }' \
	    <<<"$output"
	assert_success
	run -0 show --help
	assert_line --index 0 "Usage: show-backoff-delays [OPTION]... [STATUS]..."
	run awk 'length($0) >= 80 { print NR ": " $0; bad = 1 } END { exit bad }' \
	    <<<"$output"
	assert_success
}

@test "--help lists every concise strategy and jitter mode" {
	run -0 retry --help
	local o
	for o in --fixed --linear --exp --factor --fib --delays --decorrelated \
	    --immediate --max-delay --min-delay --jitter --seed --budget \
	    --success-on --retry-on --stop-on --quiet --verbose --label \
	    --dry-run; do
		assert_output --partial " $o"
	done
	assert_output --partial "none, full, equal, scattered[:R], down[:R],"
	assert_output --partial "add:DUR, or DUR for add:DUR"
}
