#!/usr/bin/env bats
# retry changes nothing but the retrying: pipes whose reader goes, commands
# that leave processes behind, the order of stdout and stderr, closed
# descriptors, every signal, long lines, full disks.
bats_require_minimum_version 1.5.0
load test_helper/common
load test_helper/core
load test_helper/procs

setup() {
	own_tmpdir
}

teardown() {
	kill_recorded
}

# Runs bash -c "$1 | head -1", bounded, and sets status to the exit status
# of what stood left of the pipe and secs to the seconds it took.
left_of_head() {
	local t0
	t0=$(now_ms)
	run bash -c "timeout 20 $1 2>/dev/null | head -n 1 >/dev/null; echo \${PIPESTATUS[0]}"
	secs=$((($(now_ms) - t0) / 1000))
	status=$output
}

@test "a reader that goes away ends the run at once, as in a pipeline: 141" {
	left_of_head "\"\$RETRY\" -- seq 1 1000000"
	assert_equal "$status" 141
	((secs < 3))
	left_of_head "\"\$RETRY\" --max 0 --immediate -- sh -c 'echo hi; exit 1'"
	assert_equal "$status" 141
	((secs < 3))
	# Through an output rule too: the command hears of it from its pipe.
	left_of_head "\"\$RETRY\" --until-output zzz -- seq 1 10000000"
	assert_equal "$status" 141
	((secs < 3))
	left_of_head "\"\$RETRY\" --hold-stdout -- seq 1 1000000"
	assert_equal "$status" 141
	((secs < 3))
}

@test "a reader that goes away: retry says nothing, as the pipeline would; JSON and the log still hear of it" {
	run -0 bash -c '"$RETRY" -- yes 2>"$1/err" | head -n 1' _ "$D"
	assert_output y
	assert_equal "$(cat "$D/err")" ""
	run -0 bash -c '"$RETRY" --log-file "$1/log" -- yes 2>"$1/err" | head -n 1' _ "$D"
	assert_equal "$(cat "$D/err")" ""
	run cat "$D/log"
	assert_output --partial "stopping: killed by SIGPIPE; the reader of its output has gone"
	run -0 bash -c '"$RETRY" --log-format json -- yes 2>"$1/err" | head -n 1' _ "$D"
	run cat "$D/err"
	assert_output --partial '"event":"stop"'
	assert_output --partial '"reason":"reader_gone"'
}

@test "an attempt that exits 141 ends the run once the reader has gone" {
	left_of_head "\"\$RETRY\" --fixed 2s -- sh -c 'echo x; sleep 0.2; exit 141'"
	assert_equal "$status" 141
	((secs < 5))
}

@test "with SIGPIPE ignored, a gone reader is an ordinary failure" {
	run bash -c "trap '' PIPE; { sleep 0.3; timeout 20 \"\$RETRY\" -q --immediate --max 3 -- sh -c 'echo \$RETRY_ATTEMPT >>\"$D/n\"; echo x' 2>/dev/null; } | true; echo \${PIPESTATUS[0]}"
	assert_output 1
	assert_equal "$(wc -l <"$D/n")" 3
}

@test "reports to a stderr whose reader has gone: the run goes on" {
	run bash -c "{ timeout 20 \"\$RETRY\" --immediate --max 3 -- sh -c 'echo \$RETRY_ATTEMPT >>\"$D/n\"; exit 1' 2>&1 >&3 | true; } 3>&1; echo \${PIPESTATUS[0]}"
	assert_equal "$(wc -l <"$D/n")" 3
}

@test "an attempt ends when its command ends: a background process is left alone" {
	# Written to files: a pipe that bats reads would stay open as long
	# as the background process, with retry or without.
	# What decides is that the background process still runs when retry
	# has ended; the time is bounded for a busy host, well under its 30s.
	local t0=$(now_ms)
	retry --max 1 --timeout 1s --until-output ok -- \
	    sh -c 'sleep 30 & echo $! >"$1"; echo ok' sh "$D/pids" >"$D/out"
	(($(now_ms) - t0 < 10000))
	alive "$(cat "$D/pids")"
	t0=$(now_ms)
	retry --max 1 --hold-stdout -- sh -c 'sleep 30 & echo $! >>"$1"; echo ok' sh "$D/pids" >"$D/held"
	(($(now_ms) - t0 < 10000))
	alive "$(tail -n 1 "$D/pids")"
	assert_equal "$(cat "$D/out") $(cat "$D/held")" "ok ok"
}

@test "what a process left running writes later goes on, and is not judged" {
	local st=0
	retry -q --max 1 --until-output late -- \
	    sh -c '(sleep 0.3; echo late) & echo early' >"$D/out" || st=$?
	assert_equal "$st" 1
	wait_match "$D/out" late
	assert_equal "$(cat "$D/out")" "$(printf 'early\nlate')"
	# The held stdout of the last attempt, then what came after it.
	retry -q --max 1 --hold-stdout -- \
	    sh -c '(sleep 0.3; echo late) & echo early' >"$D/held"
	wait_match "$D/held" late
	assert_equal "$(cat "$D/held")" "$(printf 'early\nlate')"
}

@test "a daemon started by the command keeps writing after retry has gone" {
	retry -q --max 1 --until-output started -- \
	    sh -c '(sleep 0.3; echo tick; sleep 0.3; echo tock) & echo $! >"$1"; echo started' \
	    sh "$D/pids" >"$D/out"
	wait_match "$D/out" tock
	assert_equal "$(cat "$D/out")" "$(printf 'started\ntick\ntock')"
}

@test "the order of stdout and stderr written to one file or pipe is kept" {
	local cmd='for i in 1 2 3 4 5; do echo out$i; echo err$i >&2; done'
	local want
	want=$(sh -c "$cmd" 2>&1)
	for ((i = 0; i < 10; i++)); do
		retry -q --max 1 --until-output zzz -- sh -c "$cmd; exit 0" >"$D/f" 2>&1 || true
		assert_equal "$(cat "$D/f")" "$want"
		run bash -c '"$RETRY" -q --max 1 --until-output out -- sh -c "$1" 2>&1 | cat' _ "$cmd"
		assert_output "$want"
	done
	# --match naming one keeps the two apart: every line comes, each
	# stream's in its order; lines written at once may cross (the manual
	# says so).
	for m in stdout stderr; do
		run bash -c '"$RETRY" -q --max 1 --match "$2" --until-output out -- sh -c "$1" 2>&1 | cat' _ "$cmd" "$m"
		assert_equal "$(sort <<<"$output")" "$(sort <<<"$want")"
		assert_equal "$(grep out <<<"$output")" "$(grep out <<<"$want")"
		assert_equal "$(grep err <<<"$output")" "$(grep err <<<"$want")"
	done
}

# A line of $1 bytes of 'x', then $2, then $3 more bytes of 'x' and a newline.
long_line() {
	head -c "$1" /dev/zero | tr '\0' x
	printf '%s' "$2"
	head -c "$3" /dev/zero | tr '\0' x
	echo
}

# Whether retry's --until-output $1 matches what cat gives of file $2.
matches() {
	"$RETRY" -q --max 1 --until-output "$1" -- cat "$2" >/dev/null
}

@test "a long line has one start: ^ matches at it, not at a piece boundary" {
	long_line 104857600 ready 0 >"$D/big"
	run -1 matches '^ready' "$D/big"
	run -1 matches '^x{1000}ready' "$D/big"
	# Tried at each of a line's starting points, x{1000} costs a thousand
	# steps a byte: 16 pieces are as good as 1,600.
	long_line 1048576 ready 0 >"$D/big"
	run -0 matches 'x{1000}ready' "$D/big"
	long_line 0 ready 200000 >"$D/starts"
	run -0 matches '^ready' "$D/starts"
}

@test "a match across the pieces of a long line is found" {
	for at in 65531 65533 65535 65536 131070 200000; do
		long_line "$at" Xready 1000 >"$D/line"
		matches Xready "$D/line" || fail "plain string at $at"
		"$RETRY" -q --max 1 -F --until-output Xready -- cat "$D/line" >/dev/null ||
			fail "-F at $at"
		matches 'X[a-z]+y' "$D/line" || fail "regex at $at"
		"$RETRY" -q --max 1 -i --until-output 'xREADY' -- cat "$D/line" >/dev/null ||
			fail "-i at $at"
		matches 'ready x+$' "$D/line" && fail "a space that is not there at $at"
	done
	return 0
}

@test "Perl classes: \\d, \\w and \\s mean digits, word characters and space" {
	run -0 retry -q --max 1 --until-output '^\d+ ok$' -- echo '42 ok'
	run -1 retry -q --max 1 --until-output '^\d+ ok$' -- echo 'd ok'
	run -0 retry -q --max 1 --until-output '^\w+\s\w+$' -- echo 'up now'
	run -1 retry -q --max 1 --until-output '^\w+\s\w+$' -- echo 'up-now'
}

@test "a command's closed stdout, stdin or stderr stays closed" {
	local cmd='for fd in 0 1 2; do [ -e /proc/$$/fd/$fd ] && r=open || r=closed; echo $r >>"$1"; done'
	# Not through the retry helper: timeout would take the closed fds.
	"$RETRY" -q --max 1 -- sh -c "$cmd" sh "$D/with" >&- <&-
	sh -c "$cmd" sh "$D/without" >&- <&-
	assert_equal "$(cat "$D/with")" "$(printf 'closed\nclosed\nopen')"
	assert_equal "$(cat "$D/with")" "$(cat "$D/without")"
	"$RETRY" -q --max 1 --until-output x -- sh -c "$cmd" sh "$D/rule" 2>&- || true
	assert_equal "$(cat "$D/rule")" "$(printf 'open\nopen\nclosed')"
	# echo fails as it does without retry.
	local with=0 without=0
	"$RETRY" -q --max 1 -- sh -c 'echo hi' >&- 2>/dev/null || with=$?
	sh -c 'echo hi' >&- 2>/dev/null || without=$?
	assert_equal "$with" "$without"
	[ "$with" -ne 0 ]
}

@test "USR1 and USR2 are sent on to the command, which keeps running" {
	start_retry --max 1 -- sh -c 'trap "echo usr1 >>\"$1\"" USR1; trap "echo usr2 >>\"$1\"" USR2; echo $$ >"$1.pid"; while [ ! -e "$1.stop" ]; do sleep 0.05; done; exit 0' sh "$D/got"
	wait_lines "$D/got.pid"
	kill -USR1 "$RETRY_PID"
	wait_lines "$D/got" 1
	kill -USR2 "$RETRY_PID"
	wait_lines "$D/got" 2
	alive "$RETRY_PID"
	touch "$D/got.stop"
	wait_status "$RETRY_PID"
	assert_equal "$status" 0
	assert_equal "$(cat "$D/got")" "$(printf 'usr1\nusr2')"
}

@test "real-time signals are sent on to the command, which keeps running" {
	skip_musl "musl keeps signals 32 to 34 for itself, and glibc's SIGRTMIN, 34, which this test sends, is one of them"
	start_retry --max 1 -- bash -c 'for s in RTMIN RTMIN+5 RTMAX; do trap "echo $s >>\"$1\"" $s; done; echo $$ >"$1.pid"; while [ ! -e "$1.stop" ]; do sleep 0.05; done; exit 0' sh "$D/got"
	wait_lines "$D/got.pid"
	kill -RTMIN "$RETRY_PID"
	wait_lines "$D/got" 1
	kill -RTMIN+5 "$RETRY_PID"
	wait_lines "$D/got" 2
	kill -RTMAX "$RETRY_PID"
	wait_lines "$D/got" 3
	alive "$RETRY_PID"
	touch "$D/got.stop"
	wait_status "$RETRY_PID"
	assert_equal "$status" 0
	assert_equal "$(cat "$D/got")" "$(printf 'RTMIN\nRTMIN+5\nRTMAX')"
}

@test "a real-time signal that kills the command is an ordinary failure" {
	local rt
	rt=$(kill -l RTMIN+3)
	start_retry --max 2 --immediate -- sh -c 'echo $$ >>"$1"; exec sleep 30' sh "$D/pids"
	wait_lines "$D/pids" 1
	kill -RTMIN+3 "$RETRY_PID"
	wait_lines "$D/pids" 2
	kill -RTMIN+3 "$RETRY_PID"
	wait_status "$RETRY_PID"
	assert_equal "$status" $((128 + rt))
	assert_gone $(cat "$D/pids")
}

@test "the attempts inherit the real-time signals as retry found them" {
	local expected
	expected=$(bash -c "trap '' RTMIN+2 RTMAX; exec grep -E '^Sig(Blk|Ign):' /proc/self/status")
	run -1 bash -c "trap '' RTMIN+2 RTMAX; exec \"\$RETRY\" -n 2 -d 10ms -q -- sh -c 'grep -E \"^Sig(Blk|Ign):\" /proc/self/status; exit 1'"
	assert_output "$(printf '%s\n%s' "$expected" "$expected")"
}

@test "a real-time signal ignored when retry starts stays ignored" {
	# The command sets a handler of its own: it would hear what retry
	# sent on.
	cat >"$D/hears.py" <<'PY'
import os, signal, sys, time
signal.signal(signal.SIGRTMIN + 2,
              lambda *a: open(sys.argv[1], "a").write("got\n"))
open(sys.argv[1] + ".pid", "w").write("%d\n" % os.getpid())
while not os.path.exists(sys.argv[1] + ".stop"):
    time.sleep(0.05)
PY
	bash -c 'trap "" RTMIN+2; exec "$RETRY" --max 1 -- python3 "$1" "$2"' \
	    sh "$D/hears.py" "$D/got" &
	RETRY_PID=$!
	wait_lines "$D/got.pid"
	kill -RTMIN+2 "$RETRY_PID"
	sleep 0.3
	touch "$D/got.stop"
	wait_status "$RETRY_PID"
	assert_equal "$status" 0
	[ ! -e "$D/got" ]
}

@test "USR1 that kills the command is an ordinary failure: nothing is left behind" {
	start_retry --max 2 --immediate -- sh -c 'echo $$ >>"$1"; exec sleep 30' sh "$D/pids"
	wait_lines "$D/pids" 1
	kill -USR1 "$RETRY_PID"
	wait_lines "$D/pids" 2
	kill -USR1 "$RETRY_PID"
	wait_status "$RETRY_PID"
	assert_equal "$status" $((128 + 10))
	assert_gone $(cat "$D/pids")
}

@test "every signal that ends retry ends the attempt's group too" {
	for sig in ALRM VTALRM PROF IO PWR XCPU; do
		rm -f "$D/pids"
		start_retry --max 1 -- sh -c '(sleep 30; true) & echo $$ $! >"$1"; wait' sh "$D/pids"
		wait_lines "$D/pids"
		kill -"$sig" "$RETRY_PID"
		wait_status "$RETRY_PID"
		assert_equal "$status" $((128 + $(kill -l "$sig")))
		assert_gone $(cat "$D/pids")
	done
}

@test "a run ended by a signal says so in every sink" {
	start_retry --log-file "$D/log" --fixed 1s -- sh -c 'echo $$ >"$1"; exec sleep 30' sh "$D/pids"
	wait_lines "$D/pids"
	kill -TERM "$RETRY_PID"
	wait_status "$RETRY_PID"
	assert_equal "$status" 143
	run cat "$BATS_TEST_TMPDIR/err"
	assert_output --regexp "^retry: $(named sh -c 'echo $$ >"$1"; exec sleep 30' sh "$D/pids"): SIGTERM sent on to attempt 1/5, which ended: killed by SIGTERM after $DUR; stopping\$"
	run tail -n 1 "$D/log"
	assert_output --regexp "Z retry: $(named sh -c 'echo $$ >"$1"; exec sleep 30' sh "$D/pids"): SIGTERM sent on to attempt 1/5"
	# Between attempts, and as JSON.
	start_retry --log-format json --fixed 30s -- false
	wait_match "$BATS_TEST_TMPDIR/err" '"event":"failure"'
	kill -HUP "$RETRY_PID"
	wait_status "$RETRY_PID"
	assert_equal "$status" 129
	run tail -n 1 "$BATS_TEST_TMPDIR/err"
	assert_output --regexp '"event":"signal",.*"attempt":1,.*"reason":"signal","received":"SIGHUP","forwarded":false,"from_terminal":false\}$'
}

@test "a run that is not --forever ends after --max attempts, --reset-after or not" {
	run -1 timeout 20 "$RETRY" -q --max 3 --immediate --reset-after 10ms -- \
	    sh -c 'echo x >>"$1"; sleep 0.05; exit 1' sh "$D/n"
	assert_equal "$(wc -l <"$D/n")" 3
}

@test "--reset-after starts the delays over" {
	run -1 --separate-stderr retry --max 4 --exp 10ms --reset-after 150ms -- \
	    sh -c '[ "$RETRY_ATTEMPT" -ne 3 ] || sleep 0.2; exit 1'
	assert_regex "${stderr_lines[0]}" "attempt 1/4 failed: .*; next attempt in 10ms\$"
	assert_regex "${stderr_lines[1]}" "attempt 2/4 failed: .*; next attempt in 20ms\$"
	assert_regex "${stderr_lines[2]}" "attempt 3/4 failed: .*; next attempt in 10ms\$"
}

@test "the text log file has a time on every line" {
	run -1 retry --immediate --max 2 --log-file "$D/log" -- false
	run cat "$D/log"
	assert_equal "${#lines[@]}" 4
	for l in "${lines[@]}"; do
		assert_regex "$l" '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}Z retry: '
	done
}

@test "ps shows retry's whole command line, then the state, for pgrep -f" {
	start_retry --label db --fixed 30s -- sh -c 'exit 1' sh tunnel-to-db
	poll_until 10 eval '[[ $(ps -o args= -p "$RETRY_PID") == *failed* ]]'
	run -0 ps -o args= -p "$RETRY_PID"
	assert_output "$RETRY --label db --fixed 30s -- sh -c exit 1 sh tunnel-to-db [attempt 1/5 failed, next in 30s]"
	run -0 pgrep -f 'retry --label db --fixed'
	assert_line "$RETRY_PID"
	kill "$RETRY_PID"
}

@test "the budget gives up when the next attempt would start too late" {
	run -1 --separate-stderr retry --fixed 5s --budget 1s -- false
	assert_regex "${stderr_lines[-1]}" "; the next attempt would start past the 1s budget\$"
}

@test "a growing strategy in a run without a limit waits at most 5m" {
	run -0 show --max 0 --count 12
	assert_equal "${lines[8]}" 256
	assert_equal "${lines[9]}" 300
	assert_equal "${lines[11]}" 300
	run -0 show --max 0 --count 12 --max-delay 1h
	assert_equal "${lines[11]}" 2048
	run -0 show --max 0 --count 12 --fixed 1h
	assert_equal "${lines[11]}" 3600
	run -0 retry --dry-run --forever --count 12
	assert_line --index 11 --regexp '^11 +5m '
}

@test "RETRY_STATUS and RETRY_DELAY_MS are for hooks only" {
	RETRY_STATUS=x RETRY_DELAY_MS=y run -1 retry -q --immediate --max 2 --on-retry true -- \
	    sh -c 'echo "${RETRY_STATUS-unset} ${RETRY_DELAY_MS-unset}" >>"$1"; exit 1' sh "$D/seen"
	assert_equal "$(cat "$D/seen")" "$(printf 'unset unset\nunset unset')"
}
