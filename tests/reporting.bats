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
	    "retry: flaky 9: attempt 1/3 failed: exit 1 after $DUR; next attempt in 10ms" \
	    "retry: flaky 9: attempt 2/3 failed: exit 1 after $DUR; next attempt in 10ms" \
	    "retry: flaky 9: giving up after 3 attempts in $DUR: exit 1"
}

@test "report: the delays reported are the strategy's" {
	run -1 --separate-stderr retry -n 4 --exp 10ms --factor 3 flaky 9
	assert_stderr_lines \
	    "retry: flaky 9: attempt 1/4 failed: exit 1 after $DUR; next attempt in 10ms" \
	    "retry: flaky 9: attempt 2/4 failed: exit 1 after $DUR; next attempt in 30ms" \
	    "retry: flaky 9: attempt 3/4 failed: exit 1 after $DUR; next attempt in 90ms" \
	    "retry: flaky 9: giving up after 4 attempts in $DUR: exit 1"
}

@test "report: --dry-run's delays are the least a run waits with --delay-from-output" {
	run -0 retry --dry-run -n 3 --fixed 20ms --jitter full --seed 9 \
	    --delay-from-output 'wait (.+)'
	assert_line --index 0 \
	    "delays drawn at random with --seed 9: the same each time"
	assert_line --index 5 \
	    "the command's output can lengthen any of these delays, to 1h at most"
	local d1 d2
	d1=$(awk 'NR == 4 { print $2 }' <<<"$output")
	d2=$(awk 'NR == 5 { print $2 }' <<<"$output")
	run -1 --separate-stderr retry -n 3 --fixed 20ms --jitter full \
	    --seed 9 --delay-from-output 'wait (.+)' -- \
	    sh -c 'echo wait 0; exit 1'
	assert_stderr_lines \
	    "retry: sh -c 'echo wait 0; e\\.\\.\\.: attempt 1/3 failed: exit 1 after $DUR; next attempt in ${d1//./\\.}, the strategy's: the command's output asked for 0s" \
	    "retry: sh -c 'echo wait 0; e\\.\\.\\.: attempt 2/3 failed: exit 1 after $DUR; next attempt in ${d2//./\\.}, the strategy's: the command's output asked for 0s" \
	    "retry: sh -c 'echo wait 0; e\\.\\.\\.: giving up after 3 attempts in $DUR: exit 1"
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
	# A header, the columns, attempt 1, then the delays.
	d1=$(awk 'NR == 4 { print $2 }' <<<"$output")
	d2=$(awk 'NR == 5 { print $2 }' <<<"$output")
	d3=$(awk 'NR == 6 { print $2 }' <<<"$output")
	run -1 --separate-stderr retry -n 4 --fixed 20ms --jitter full \
	    --seed 9 flaky 9
	assert_stderr_lines \
	    "retry: flaky 9: attempt 1/4 failed: exit 1 after $DUR; next attempt in ${d1//./\\.}" \
	    "retry: flaky 9: attempt 2/4 failed: exit 1 after $DUR; next attempt in ${d2//./\\.}" \
	    "retry: flaky 9: attempt 3/4 failed: exit 1 after $DUR; next attempt in ${d3//./\\.}" \
	    "retry: flaky 9: giving up after 4 attempts in $DUR: exit 1"
}

@test "report: one attempt is 'attempt', not 'attempts'" {
	run -1 --separate-stderr retry -n 1 flaky 9
	assert_stderr_lines "retry: flaky 9: giving up after 1 attempt in $DUR: exit 1"
}

@test "report: a success after failures ends with one line: on which attempt, after how long" {
	run -0 --separate-stderr retry -n 5 --fixed 100ms flaky 2
	assert_lines "run 1" "run 2" "run 3"
	assert_stderr_lines \
	    "retry: flaky 2: attempt 1/5 failed: exit 1 after $DUR; next attempt in 100ms" \
	    "retry: flaky 2: attempt 2/5 failed: exit 1 after $DUR; next attempt in 100ms" \
	    "retry: flaky 2: succeeded on attempt 3 of 5 after $DUR"
	# The time is the run's, from its start to the end of the success:
	# at least the two delays (200ms), and on a busy host a good deal more.
	assert_regex "${stderr_lines[2]}" "after ([2-9][0-9]{2}(\.[0-9]{1,3})?ms|[1-9](\.[0-9]{1,3})?s)\$"
}

@test "report: a first attempt that succeeds says nothing; a later one, one line" {
	run -0 --separate-stderr retry -n 3 --fixed 1ms flaky 0 1 "$BATS_TEST_TMPDIR/a"
	assert_equal "$stderr" ""
	run -0 --separate-stderr retry --log-format json -n 3 --fixed 1ms -- true
	assert_equal "$stderr" ""
	run -0 --separate-stderr retry -n 3 --fixed 1ms flaky 1 1 "$BATS_TEST_TMPDIR/b"
	assert_regex "${stderr_lines[-1]}" "^retry: $(named flaky 1 1 "$BATS_TEST_TMPDIR/b"): succeeded on attempt 2 of 3 after $DUR\$"
}

@test "report: unlimited attempts print no /N, and no 'of N'" {
	run -0 --separate-stderr retry -n 0 --fixed 1ms flaky 2
	assert_stderr_lines \
	    "retry: flaky 2: attempt 1 failed: exit 1 after $DUR; next attempt in 1ms" \
	    "retry: flaky 2: attempt 2 failed: exit 1 after $DUR; next attempt in 1ms" \
	    "retry: flaky 2: succeeded on attempt 3 after $DUR"
}

@test "report: the closing line names a success that is not exit 0, and keeps the label" {
	# --until: the criteria met, with the attempt's own status.
	run -3 --separate-stderr retry --label db -u 3 --fixed 1ms -- \
	    sh -c 'exit $((RETRY_ATTEMPT + 1))'
	assert_stderr_lines \
	    "retry\[db\]: attempt 1/5 failed: exit 2 after $DUR; next attempt in 1ms" \
	    "retry\[db\]: succeeded on attempt 2 of 5 after $DUR: exit 3"
	run -0 --separate-stderr retry --success-on 0,75 --fixed 1ms -- \
	    sh -c '[ "$RETRY_ATTEMPT" -ge 2 ] && exit 75; exit 1'
	assert_stderr_lines \
	    "retry: sh -c '\\[ \"\\\$RETRY_ATTE\\.\\.\\.: attempt 1/5 failed: exit 1 after $DUR; next attempt in 1ms" \
	    "retry: sh -c '\\[ \"\\\$RETRY_ATTE\\.\\.\\.: succeeded on attempt 2 of 5 after $DUR: exit 75"
	# --while: a failure that meets no criterion is the success.
	run -1 --separate-stderr retry -w 0 --fixed 1ms -- \
	    sh -c '[ "$RETRY_ATTEMPT" -ge 2 ] && exit 1; exit 0'
	assert_stderr_lines \
	    "retry: sh -c '\\[ \"\\\$RETRY_ATTE\\.\\.\\.: attempt 1/5 failed: exit 0 after $DUR; next attempt in 1ms" \
	    "retry: sh -c '\\[ \"\\\$RETRY_ATTE\\.\\.\\.: succeeded on attempt 2 of 5 after $DUR: exit 1"
}

@test "report: no closing line for a run that gives up, stops or is stopped" {
	run -1 --separate-stderr retry -n 2 --fixed 1ms flaky 9
	[[ $stderr != *"succeeded on"* ]] || fail "$stderr"
	run -2 --separate-stderr retry --stop-on 2 --fixed 1ms -- \
	    sh -c 'exit $RETRY_ATTEMPT'
	[[ $stderr != *"succeeded on"* ]] || fail "$stderr"
	# An --until run that runs out of attempts exits 0, and did not succeed.
	run -0 --separate-stderr retry -u 3 -n 2 --fixed 1ms -- \
	    sh -c 'exit $((2 - RETRY_ATTEMPT))'
	[[ ${stderr_lines[-1]} == "retry: $(command_name sh -c 'exit $((2 - RETRY_ATTEMPT))'): giving up after 2 attempts in "*": exit 0" ]]
	[[ $stderr != *"succeeded on"* ]] || fail "$stderr"
	# The same criteria met on the second attempt: a success.
	run -3 --separate-stderr retry -u 3 -n 2 --fixed 1ms -- \
	    sh -c 'exit $((RETRY_ATTEMPT + 1))'
	[[ ${stderr_lines[-1]} == "retry: $(command_name sh -c 'exit $((RETRY_ATTEMPT + 1))'): succeeded on attempt 2 of 2 after "*": exit 3" ]]
}

@test "report: a success short of --successes in a row that --budget ends: one ending, a give-up" {
	local cmd='[ "$RETRY_ATTEMPT" -ge 2 ]'
	run -1 --separate-stderr retry --successes 2 --fixed 1s --budget 1500ms -- \
	    sh -c "$cmd"
	assert_equal "${#stderr_lines[@]}" 2
	assert_regex "${stderr_lines[0]}" "^retry: sh -c '\\[ \"\\\$RETRY_ATTE\\.\\.\\.: attempt 1 failed: exit 1 after $DUR; next attempt in 1s\$"
	assert_regex "${stderr_lines[1]}" "^retry: sh -c '\\[ \"\\\$RETRY_ATTE\\.\\.\\.: giving up after 2 attempts in $DUR: exit 0, 1 of 2 in a row; the next attempt would start past the 1.5s budget\$"
	run -1 --separate-stderr retry --successes 2 --fixed 1s --budget 1500ms \
	    --log-format json -- sh -c "$cmd"
	run -0 jq -r '[.event, .reason] | join(" ")' <<<"$stderr"
	assert_output $'failure \ngiveup budget'
}

@test "report: --forever ended by --budget after failures closes with the line, without 'of N'" {
	run -0 --separate-stderr retry --forever --fixed 10ms --delay-on-success 100ms \
	    --budget 350ms -- sh -c '[ "$RETRY_ATTEMPT" != 1 ]'
	local name="sh -c '[ \"\$RETRY_ATTE..."
	[[ ${stderr_lines[0]} == "retry: $name: attempt 1 failed: exit 1 after "* ]]
	# Its last success, then the closing line, on the same attempt.
	assert_regex "${stderr_lines[-2]}" "^retry: $(named sh -c '[ "$RETRY_ATTEMPT" != 1 ]'): attempt [0-9]+ succeeded after $DUR; ending: the next attempt would start past the 350ms budget\$"
	local n=${stderr_lines[-2]#"retry: $name: attempt "}
	assert_regex "${stderr_lines[-1]}" "^retry: $(named sh -c '[ "$RETRY_ATTEMPT" != 1 ]'): succeeded on attempt ${n%% *} after $DUR\$"
}

@test "report: -q prints nothing, even when giving up" {
	run -1 --separate-stderr retry -q -n 3 --fixed 1ms flaky 9
	assert_equal "$stderr" ""
	assert_lines "run 1" "run 2" "run 3"
	run -2 --separate-stderr retry --quiet --retry-on 1 flaky 9 2
	assert_equal "$stderr" ""
}

@test "report: -q prints nothing when a run succeeds after failures, in text or JSON" {
	local f
	for f in text json; do
		run -0 --separate-stderr retry --log-format $f -n 3 --fixed 1ms \
		    flaky 2 1 "$BATS_TEST_TMPDIR/$f"
		[[ ${stderr_lines[-1]} == *'succeeded on attempt 3 of 3 after '* ||
		    ${stderr_lines[-1]} == '{"ts":'*'"event":"done"'* ]] ||
		    fail "no closing line in $f: $stderr"
		run -0 --separate-stderr retry -q --log-format $f -n 3 --fixed 1ms \
		    flaky 2 1 "$BATS_TEST_TMPDIR/q$f"
		assert_equal "$stderr" ""
		assert_lines "run 1" "run 2" "run 3"
	done
}

@test "report: -q still reports retry's own errors" {
	run -127 --separate-stderr retry -q no-such-command-xyz
	assert_equal "$stderr" "retry: no-such-command-xyz: command not found"
}

@test "report: --verbose adds each start and the success" {
	run -0 --separate-stderr retry --verbose -n 3 --fixed 10ms flaky 1
	assert_stderr_lines \
	    "retry: flaky 1: attempt 1/3 starting" \
	    "retry: flaky 1: attempt 1/3 failed: exit 1 after $DUR; next attempt in 10ms" \
	    "retry: flaky 1: attempt 2/3 starting" \
	    "retry: flaky 1: attempt 2/3 succeeded after $DUR" \
	    "retry: flaky 1: succeeded on attempt 2 of 3 after $DUR"
}

@test "report: without --label, every line names the command, as Debian's retry does" {
	run -2 --separate-stderr retry -n 3 --fixed 1ms -- sh -c 'exit 2' "it's"
	assert_stderr_lines \
	    "retry: sh -c 'exit 2' 'it'\\\\''s': attempt 1/3 failed: exit 2 after $DUR; next attempt in 1ms" \
	    "retry: sh -c 'exit 2' 'it'\\\\''s': attempt 2/3 failed: exit 2 after $DUR; next attempt in 1ms" \
	    "retry: sh -c 'exit 2' 'it'\\\\''s': giving up after 3 attempts in $DUR: exit 2"
	# A stop is a closing line too; --label names the run instead.
	run -3 --separate-stderr retry --stop-on 3 -- sh -c 'exit 3'
	assert_equal "$stderr" "retry: sh -c 'exit 3': stopping: exit 3 is a --stop-on status"
	run -1 --separate-stderr retry -n 2 --fixed 1ms --label job -- false
	assert_stderr_lines \
	    "retry\\[job\\]: attempt 1/2 failed: exit 1 after $DUR; next attempt in 1ms" \
	    "retry\\[job\\]: giving up after 2 attempts in $DUR: exit 1"
}

@test "report: a report starts a line of its own where stderr is a file the command left mid-line" {
	skip_portable "no /proc: a write-only stderr cannot be read back"
	cd "$BATS_TEST_TMPDIR"
	run -1 sh -c '"$0" "$@" 2>e >/dev/null' "$RETRY" -n 2 --fixed 1ms -- \
	    sh -c 'printf err >&2; exit 1'
	mapfile -t lines <e
	assert_equal "${#lines[@]}" 4
	assert_equal "${lines[0]}" "err"
	assert_regex "${lines[1]}" "^retry: sh -c .*: attempt 1/2 failed: exit 1 after "
	assert_equal "${lines[2]}" "err"
	assert_regex "${lines[3]}" "^retry: sh -c .*: giving up after 2 attempts "
}

@test "report: a long command is cut to 24 columns on every line, the same each time" {
	local long="exit 1; echo one two three four five six seven eight nine ten"
	run -1 --separate-stderr retry --verbose -n 2 --fixed 1ms -- sh -c "$long"
	local name="sh -c 'exit 1; echo o..."
	assert_equal "${#name}" 24
	assert_stderr_lines \
	    "retry: $(named sh -c "$long"): attempt 1/2 starting" \
	    "retry: $(named sh -c "$long"): attempt 1/2 failed: exit 1 after $DUR; next attempt in 1ms" \
	    "retry: $(named sh -c "$long"): attempt 2/2 starting" \
	    "retry: $(named sh -c "$long"): giving up after 2 attempts in $DUR: exit 1"
	assert_equal "$(command_name sh -c "$long")" "$name"
	# The name leaves a line that ends the run well within 80 columns.
	((${#stderr_lines[3]} <= 80)) || fail "${#stderr_lines[3]} columns: ${stderr_lines[3]}"
	# A command that cannot start is named once, whole or cut.
	run -127 --separate-stderr retry -n 2 -- no-such-command-xyz arg
	assert_equal "$stderr" "retry: no-such-command-xyz arg: command not found"
}

@test "report: JSON events name the run: the label, or the command's words as one string" {
	run -1 --separate-stderr retry --log-format json -n 2 --fixed 1ms \
	    -- sh -c 'exit 1' "it's \"odd\"
	two lines" $'\xff\xfe'
	run -0 jq -c '.name' <<<"$stderr"
	assert_equal "${#lines[@]}" 2
	assert_equal "${lines[0]}" "${lines[1]}"
	# Quoted as a shell would, never cut short; bytes that are not UTF-8
	# as U+FFFD, as in "command".
	run -0 jq -j 'select(.event == "giveup") | .name' <<<"$stderr"
	assert_output "sh -c 'exit 1' 'it'\\''s \"odd\"
	two lines' '"$'\xef\xbf\xbd\xef\xbf\xbd'"'"
	run -0 jq -c 'select(.event == "failure") | [.label, .command[0], (keys | index("name") != null)]' <<<"$stderr"
	assert_output '[null,"sh",true]'
	run -1 --separate-stderr retry --log-format json --label db -n 1 -- false
	run -0 jq -c '[.label, .name, .command]' <<<"$stderr"
	assert_output '["db","db",["false"]]'
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
	# The command named, its newline made visible, cut short: a tab
	# takes 8 columns.
	local t=$'\t'
	local name="sh -c '\\\\x0a$t\\.\\.\\."
	assert_stderr_lines "err 1" \
	    "retry: $name: attempt 1/2 failed: exit 1 after $DUR; next attempt in 1ms" \
	    "err 2" \
	    "retry: $name: succeeded on attempt 2 of 2 after $DUR"
}

@test "--version and the manuals give the name and the version in VERSION" {
	local v
	v=$(cat "$ROOT/VERSION")
	[ -n "$v" ]
	# The musl build says after it what it leaves out.
	local note=''
	[ -z "${RETRY_MUSL:-}" ] || note=' (musl; without Redis: file stores alone)'
	run -0 --separate-stderr retry --version
	assert_output "retry $v$note"
	assert_equal "$stderr" ""
	run -0 show --version
	assert_output "show-backoff-delays $v$note"
	# The manuals' footers name it too.
	local pages=("$ROOT"/man/*.[17])
	[ ${#pages[@]} -ge 5 ] || fail "too few pages: ${pages[*]}"
	run -0 grep -x "\.Os retry $v" "${pages[@]}"
	assert_equal "${#lines[@]}" "${#pages[@]}"
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

@test "--help: at most 60 lines of 80 columns, the options most runs need, then where the rest are" {
	run -0 --separate-stderr retry --help
	assert_equal "$stderr" ""
	[ "${#lines[@]}" -le 60 ] || fail "retry --help: ${#lines[@]} lines"
	run awk 'length($0) > 80 { print NR ": " $0; bad = 1 } END { exit bad }' \
	    <<<"$output"
	assert_success
	run -0 retry --help
	local o
	for o in --max --budget --deadline --timeout --exp --fixed --delay \
	    --max-delay --jitter --retry-on --stop-on --output --stdin \
	    --hold --quiet --verbose --label --log-file \
	    --ci --dry-run --share --help --version; do
		assert_line --regexp "^ +(-[a-zA-Z], )?$o( |\$)"
	done
	# Not the rest: those are for --help all.
	refute_output --partial "--algorithm"
	refute_output --partial "--delay-increment-on-failure"
	assert_equal "${lines[${#lines[@]} - 1]}" \
	    "Every option: retry --help all; the manual: man retry"
}

@test "--help all, --help=all and -h all: every option, as the manual groups them" {
	run -0 retry --help all
	local all=$output
	[ "${#lines[@]}" -gt 150 ] || fail "retry --help all: ${#lines[@]} lines"
	assert_line "Algorithm::Backoff strategies (-a), values in seconds:"
	assert_line --regexp "^  -h, --help \[all\] +show the options most runs need"
	run -0 retry --help=all
	assert_equal "$output" "$all"
	run -0 retry -h all
	assert_equal "$output" "$all"
	run -0 retry -n 3 --help all --no-such-option
	assert_equal "$output" "$all"
	# The other faces list every option either way.
	run -0 retry simulate --help
	local sim=$output
	run -0 retry simulate --help all
	assert_equal "$output" "$sim"
}

@test "--help=WORD: all or a usage error; a word after --help but all is not read" {
	run -125 retry --help=everything
	assert_usage_error --help
	assert_line --index 0 "retry: --help: unknown topic 'everything' (use all)"
	run -125 show --help=
	assert_usage_error --help
	run -0 --separate-stderr retry --help make test
	assert_equal "$stderr" ""
	assert_equal "${lines[${#lines[@]} - 1]}" \
	    "Every option: retry --help all; the manual: man retry"
	run -0 retry --help All
	assert_equal "${lines[${#lines[@]} - 1]}" \
	    "Every option: retry --help all; the manual: man retry"
}

@test "--help all lists every concise strategy and jitter mode" {
	run -0 retry --help all
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
