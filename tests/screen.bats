#!/usr/bin/env bats
# retry's own lines on a terminal's screen: the countdown of a sleep, and
# the column a report starts at, in an interactive bash in a dedicated
# tmux server, keys sent with send-keys, the screen read with
# capture-pane and the bytes written to it recorded with pipe-pane.
bats_require_minimum_version 1.5.0
load test_helper/common
load test_helper/procs
load test_helper/tmux

setup() {
	D=$BATS_TEST_TMPDIR
	# A command whose progress bar is left without a newline, then fails.
	printf '%s\n' "printf 'downloading [#####] 50%%'" 'exit 1' >"$D/bar"
}

teardown() {
	tmux_end
	[ -f "$D/pid" ] && kill -KILL "$(cat "$D/pid")" 2>/dev/null
	return 0
}

@test "in a 30-column pane, the countdown fits on one line and leaves none behind" {
	start_shell 30
	tmux_record "$D/bytes"
	type_line "$RETRY --label deploy-production --fixed 30s --max 2 -- sh -c 'echo \$PPID >pid; echo attempt \$RETRY_ATTEMPT; exit 1'; echo done >done"
	wait_lines "$D/pid"
	# Drawn, then drawn again twice.
	wait_bytes "$D/bytes" ']: nex' 3
	kill -TERM "$(cat "$D/pid")"
	wait_lines "$D/done"
	run -0 screen -J -S -
	# Between the attempt and the end, the failure's line alone: no
	# countdown left.  The attempt's line may be joined to the typed one,
	# which ends at the pane's last column where $RETRY's path has some
	# lengths (screen -J joins what wrapped there).
	run -0 sed -n '/attempt 1$/,/SIGTERM while waiting/p' <<<"$output"
	assert_equal "${#lines[@]}" 3
	assert_regex "${lines[1]}" '^retry\[deploy-production\]: attempt 1/2 failed: '
	assert_regex "${lines[2]}" '^retry\[deploy-production\]: SIGTERM while waiting after attempt 1/2; stopping$'
	# Each draw was cut to 29 columns, so that it never wrapped.
	run -0 python3 -c '
import sys
b = open(sys.argv[1], "rb").read()
print("\n".join(sorted(set(repr(x.removeprefix(b"\x1b[J")) for x in b.split(b"\r") if b"]: nex" in x))))' "$D/bytes"
	assert_output "b'retry[deploy-production]: nex'"
}

@test "a terminal that narrows during the countdown: drawn again at once, cut to the new width, none left behind" {
	start_shell 100
	tmux_record "$D/bytes"
	type_line "$RETRY --label deploy-production --fixed 30s --max 2 -- sh -c 'echo \$PPID >pid; exit 1'; echo done >done"
	wait_lines "$D/pid"
	wait_bytes "$D/bytes" ']: next attempt in 30s'
	# tmux wraps the line drawn over two; SIGWINCH has it drawn again.
	tmux -S "$SOCK" resize-window -x 30 -y 40
	wait_bytes "$D/bytes" $']: nex\r'
	kill -TERM "$(cat "$D/pid")"
	wait_lines "$D/done"
	run -0 screen -J -S -
	run -0 sed -n '/attempt 1\/2 failed/,/SIGTERM while waiting/p' <<<"$output"
	assert_equal "${#lines[@]}" 2
	assert_regex "${lines[1]}" '^retry\[deploy-production\]: SIGTERM while waiting after attempt 1/2; stopping$'
}

@test "in the background, retry draws no countdown over what the user types, and still reports" {
	start_shell 100
	type_line "$RETRY --fixed 30s --max 2 -- false & echo \$! >'$D/pid'"
	wait_lines "$D/pid"
	wait_screen 'attempt 1/2 failed: exit 1 after .*; next attempt in 30s$'
	# Typed at the prompt while retry sleeps, not entered.
	tmux -S "$SOCK" send-keys -l "echo typed-by-the-user"
	wait_screen 'echo typed-by-the-user'
	kill -TERM "$(cat "$D/pid")"
	wait_screen 'SIGTERM while waiting after attempt 1/2; stopping$'
	run -0 screen
	refute_output --partial 'next attempt in 2'
	# The typed line is as typed; the report follows it, where a
	# background job's words land.
	assert_output --regexp $'\n(\\$ )?echo typed-by-the-userretry: false: SIGTERM while waiting'
}

@test "after a progress bar left mid-line, a report starts on a line of its own, the bar kept" {
	start_shell 200
	type_line "$RETRY --fixed 10ms --max 2 -- sh bar; echo done >done"
	wait_lines "$D/done"
	run -0 screen
	assert_line --index 1 'downloading [#####] 50%'
	assert_line --index 2 --regexp '^retry: sh bar: attempt 1/2 failed: exit 1 after '
	assert_line --index 3 'downloading [#####] 50%'
	assert_line --index 4 --regexp '^retry: sh bar: giving up after 2 attempts in '
	assert_line --index 5 '$'
	# After a line that ended, no empty line.
	type_line clear
	wait_screen_not done
	type_line "$RETRY --fixed 10ms --max 2 -- sh -c 'echo line; exit 1'; echo done >done2"
	wait_lines "$D/done2"
	run -0 screen
	assert_line --index 1 line
	assert_line --index 2 --regexp "^retry: $(named sh -c 'echo line; exit 1'): "'attempt 1/2 failed: exit 1 after '
	assert_line --index 3 line
	assert_line --index 4 --regexp "^retry: $(named sh -c 'echo line; exit 1'): "'giving up after 2 attempts in '
}

@test "a hook's words left mid-line stay; the countdown and the next report start below them" {
	start_shell 200
	type_line "$RETRY --on-retry 'printf hook-said' --fixed 1100ms --max 2 -- false; echo done >done"
	wait_lines "$D/done"
	run -0 screen
	assert_line --index 1 --regexp '^retry: false: attempt 1/2 failed: exit 1 after '
	assert_line --index 2 hook-said
	assert_line --index 3 --regexp '^retry: false: giving up after 2 attempts in '
}

@test "TERM=dumb: the countdown and a report's start are blanks and carriage returns, no escape" {
	start_shell 100
	tmux_record "$D/bytes"
	type_line "echo BEGIN; TERM=dumb $RETRY --fixed 1100ms --max 2 -- sh bar; echo END >done; echo END"
	wait_lines "$D/done"
	wait_screen '^END$'
	tmux -S "$SOCK" pipe-pane
	# What retry and the command wrote, between the two echos' lines.
	run -0 python3 -c '
import sys
b = open(sys.argv[1], "rb").read()
b = b.split(b"BEGIN\r\n", 1)[1].split(b"END\r\n", 1)[0]
sys.stdout.write(repr(b))' "$D/bytes"
	refute_output --partial '\x1b'
	# The countdown was drawn.
	assert_output --partial '\rretry: sh bar: next attempt in '
	run -0 screen
	assert_output --regexp $'\ndownloading \\[#####\\] 50%\nretry: sh bar: attempt 1/2 failed: exit 1 after '
}

@test "no carriage return or blanks where stderr is a file or a pipe, in the log file or in JSON" {
	start_shell 100
	# stdout at the terminal, stderr to a file.
	type_line "$RETRY --fixed 1100ms --max 2 -- sh bar 2>err; echo done >done"
	wait_lines "$D/done"
	run -0 cat -A "$D/err"
	assert_line --index 0 --regexp '^retry: sh bar: attempt 1/2 failed: exit 1 after .*; next attempt in 1.1s\$$'
	assert_line --index 1 --regexp '^retry: sh bar: giving up after 2 attempts in .*: exit 1\$$'
	assert_equal "${#lines[@]}" 2
	# stderr at the terminal: not in the log file; nor in JSON.
	tmux_record "$D/bytes"
	type_line "$RETRY --log-file log --fixed 10ms --max 2 -- sh bar; echo BEGIN; $RETRY --log-format json --fixed 10ms --max 2 -- sh bar; echo END >done2; echo END"
	wait_lines "$D/done2"
	wait_screen '^END$'
	tmux -S "$SOCK" pipe-pane
	run -1 grep -q $'[\r\e]' "$D/log"
	run -0 grep -c 'Z retry: sh bar: giving up after 2 attempts in .*: exit 1$' "$D/log"
	assert_output 1
	run -0 python3 -c '
import sys
b = open(sys.argv[1], "rb").read()
b = b.split(b"BEGIN\r\n", 1)[1].split(b"END\r\n", 1)[0]
sys.stdout.write(repr(b))' "$D/bytes"
	refute_output --partial '\x1b'
	refute_output --partial ' \r'
	assert_output --partial '{"ts":'
	# And on a pipe.
	run -0 bash -c '"$1" --fixed 1100ms --max 2 -- sh "$2" 2>&1 >/dev/null |
	    cat -A' sh "$RETRY" "$D/bar"
	assert_line --index 0 --regexp "^retry: $(named sh "$D/bar"): "'attempt 1/2 failed: exit 1 after .*; next attempt in 1.1s\$$'
	assert_line --index 1 --regexp "^retry: $(named sh "$D/bar"): "'giving up after 2 attempts in .*: exit 1\$$'
	assert_equal "${#lines[@]}" 2
}
