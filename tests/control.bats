#!/usr/bin/env bats
# retry stays in control whatever the command prints and wherever it
# waits: bounded matching, escapes made visible, delays from output held
# within limits, signals and deadlines honoured at every wait, write errors
# reported, files opened safely.
bats_require_minimum_version 1.5.0
load test_helper/common
load test_helper/core
load test_helper/procs
load test_helper/users

setup() {
	own_tmpdir
}

teardown() {
	kill_recorded
	[ -z "${holder_uid:-}" ] || pkill -U "$holder_uid" -x sleep || true
	users_cleanup
}

@test "back-references are refused: they make matching exponential" {
	run -125 retry --until-output '(a*)*\1[b]' -- true
	assert_usage_error "--output until"
	assert_line --index 0 --partial "back-references"
}

@test "a pattern that backtracks hard cannot hold retry up" {
	local t0 t1
	head -c 65536 /dev/zero | tr '\0' a >"$D/line"
	echo >>"$D/line"
	t0=$(now_ms)
	run -1 --separate-stderr retry --max 1 --timeout 1s \
	    --until-output '(a|aa)*[c]' -- sh -c 'for i in 1 2 3 4 5 6 7 8; do cat "$1"; done' sh "$D/line"
	t1=$(now_ms)
	((t1 - t0 < 3000))
	# Each line ends in b: the search goes through every way of reading
	# its a's before it fails.
	head -c 65535 /dev/zero | tr '\0' a >"$D/line"
	echo b >>"$D/line"
	t0=$(now_ms)
	run -1 --separate-stderr retry --max 1 --until-output '^(a|aa)+$' -- \
	    sh -c 'for i in $(seq 50); do cat "$1"; done' sh "$D/line"
	t1=$(now_ms)
	((t1 - t0 < 5000))
	assert_regex "${stderr_lines[0]}" "^retry: $(named sh -c 'for i in $(seq 50); do cat "$1"; done' sh "$D/line"): --output until: matching took too long on a line of output"
}

@test "a line that matching gives up on counts as not matching, once reported" {
	printf 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab\nready\n' >"$D/out"
	run -0 --separate-stderr retry --max 1 --until-output '^(a|a)*$|ready' -- cat "$D/out"
	run -0 --separate-stderr retry --max 1 --until-output 'ready' --fail-if-output '^(a|a)*$' -- cat "$D/out"
}

@test "terminal escapes in what retry quotes are made visible" {
	local esc=$'Retry-After: \e]0;TITLE\a\e[2J'
	run -1 --separate-stderr retry --max 2 --immediate --log-file "$D/log" \
	    --delay-from-output 'Retry-After: (.*)' -- sh -c 'printf "%s\n" "$1"; exit 1' sh "$esc"
	[[ $stderr != *$'\e'* && $stderr != *$'\a'* ]] || fail "raw escapes: $stderr"
	assert_regex "${stderr_lines[0]}" "'\\\\x1b\\]0;TITLE\\\\x07\\\\x1b\\[2J'"
	run -1 grep -q $'\e' "$D/log"
	run -1 --separate-stderr retry --max 1 --label $'web\e[31m' -- false
	assert_regex "$stderr" '^retry\[web\\x1b\[31m\]: giving up'
	run -127 --separate-stderr retry -- $'no\e[2Jsuch'
	assert_equal "$stderr" "retry: 'no\\x1b[2Jsuch': command not found"
	# Usage errors too, by the same rule: \xHH, UTF-8 kept.
	run -125 --separate-stderr retry --fixed $'1\e[2J\r\x7f\xff\xc3\xa9' -- true
	assert_equal "${stderr_lines[0]}" "retry: --fixed: '1\\x1b[2J\\x0d\\x7f\\xffé': not a number"
}

@test "a delay from output is held within --min-delay and --max-delay" {
	run -1 --separate-stderr retry --max 2 --immediate --min-delay 200ms \
	    --delay-from-output '^Retry-After: (.*)' -- sh -c 'echo "Retry-After: 0"; exit 1'
	assert_regex "${stderr_lines[0]}" "next attempt in 200ms, raised to --min-delay: the command's output asked for 0s\$"
	run -1 --separate-stderr retry --max 2 --max-delay 50ms \
	    --delay-from-output '^Retry-After: (.*)' -- sh -c 'echo "Retry-After: 3"; exit 1'
	assert_regex "${stderr_lines[0]}" "next attempt in 50ms, capped: the command's output asked for 3s\$"
}

@test "a delay from output is at most 1h, a date or a number" {
	for ask in 'Fri, 31 Dec 9999 23:59:59 GMT' 99999999999 100d; do
		run -1 --separate-stderr retry --max 2 --budget 1s \
		    --delay-from-output '^Retry-After: (.*)' -- \
		    sh -c 'echo "Retry-After: $1"; exit 1' sh "$ask"
		assert_equal "${#stderr_lines[@]}" 1
		assert_regex "${stderr_lines[0]}" "giving up after 1 attempt .*; the next attempt would start past the 1s budget\$"
	done
	start_retry --max 2 --delay-from-output '^Retry-After: (.*)' -- \
	    sh -c 'echo "Retry-After: Fri, 31 Dec 9999 23:59:59 GMT"; exit 1'
	wait_match "$D/err" "next attempt"
	kill "$RETRY_PID"
	assert_regex "$(cat "$D/err")" "next attempt in 1h, capped: the command's output asked for [0-9]+d"
}

# Runs retry "$@" with its clock of day frozen at 2023-11-14 22:13:20 UTC
# (1700000000) and the fraction of a second $1 past it, through
# libfaketime; the monotonic clock stays real, so that delays and
# deadlines keep their pace.
frozen_retry() {
	local at=$1
	shift
	timeout 60 env TZ=UTC FAKETIME_DONT_FAKE_MONOTONIC=1 \
	    faketime -f "2023-11-14 22:13:20$at" "$RETRY" "$@"
}

@test "a delay from output that is a date or a Unix time counts from now to the nanosecond" {
	command -v faketime >/dev/null ||
		skip "faketime is not installed (Debian: faketime libfaketime)"
	[ "$(TZ=UTC faketime -f '2023-11-14 22:13:20' date +%s 2>/dev/null)" = 1700000000 ] ||
		skip "faketime does not fake the clock here (is libfaketime installed?)"
	skip_under_valgrind "libfaketime would be preloaded into valgrind"
	[ "${RETRY_UNDER:-}" != asan ] ||
		skip "under ASan: libfaketime cannot be preloaded before its runtime"
	ldd "$RETRY" 2>/dev/null | grep -q 'libc\.so' ||
		skip "$RETRY is linked statically: libfaketime cannot reach its clock"
	local at ask want
	# At .001, .5 and .999 past 22:13:20: a date, in any of RFC 9110's
	# three forms, falls on a whole second;
	# a Unix time has its own fraction, and one gone by, if only just,
	# is 0.  --max-delay keeps the waits short; the line says what the
	# output asked for.
	while IFS='|' read -r at ask want; do
		run -1 --separate-stderr frozen_retry "$at" --max 2 \
		    --max-delay 10ms --delay-from-output '^Retry-After: (.*)' -- \
		    sh -c 'echo "Retry-After: $1"; exit 1' sh "$ask" </dev/null
		assert_regex "${stderr_lines[0]}" "next attempt in 10ms, .*: the command's output asked for ${want//./\\.}\$"
	done <<-'EOF'
	.001|Tue, 14 Nov 2023 22:13:25 GMT|4.999s
	.5|Tue, 14 Nov 2023 22:13:25 GMT|4.5s
	.999|Tue, 14 Nov 2023 22:13:25 GMT|4.001s
	.999|Tue, 14 Nov 2023 22:13:20 GMT|0s
	.5|Tuesday, 14-Nov-23 22:13:25 GMT|4.5s
	.5|Tue Nov 14 22:13:25 2023|4.5s
	.5|Fri Dec  1 22:13:20 2023|16d23h59m59s
	.001|1700000005|4.999s
	.999|1700000005|4.001s
	.001|1700000005.5|5.499s
	.5|1700000000.9|400ms
	.5|1700000000.1|0s
	.999|1700000000.5|0s
	EOF
}

@test "--log-file: a FIFO that nobody reads is an error, not a hang" {
	mkfifo "$D/fifo"
	run -125 timeout 10 "$RETRY" --log-file "$D/fifo" -- true
	assert_setup_error --log-file
	assert_line --index 0 --partial "a FIFO that no process reads"
}

# A reader of the FIFO $D/fifo that never reads, recorded to be killed.
# It fills the FIFO before it is returned, so that retry's first line
# already finds no room, however fast or slow the machine.
stalled_reader() {
	mkfifo "$D/fifo"
	sh -c 'dd if=/dev/zero of=/dev/fd/4 bs=4096 oflag=nonblock 2>/dev/null
	    echo full >"$1"; exec sleep 60' sh "$D/full" 4<>"$D/fifo" 3>&- &
	echo $! >>"$D/pids"
	wait_lines "$D/full"
}

@test "--log-file: a FIFO whose reader never reads holds no run: lines dropped, counted, --budget kept" {
	stalled_reader
	local t0=$(now_ms)
	# Attempts without end but for --budget: the run ends (1, not
	# timeout's 124) only if the budget is kept; the time is bounded for
	# a busy host.
	run -1 --separate-stderr timeout 60 "$RETRY" --max 0 --immediate -q \
	    --log-file "$D/fifo" --budget 3s -- false
	(($(now_ms) - t0 < 30000))
	assert_regex "$stderr" "^retry: false: --log-file: [0-9]+ lines dropped: its reader did not take them\$"
	# --timeout too: the attempt ends on time while the log is stalled;
	# retry, not timeout(1), says so as it ends.
	t0=$(now_ms)
	run -124 --separate-stderr timeout 50 "$RETRY" --max 1 --timeout 1s \
	    --log-file "$D/fifo" -- sleep 60
	(($(now_ms) - t0 < 30000))
	assert_regex "$stderr" "timed out"
	assert_regex "${stderr_lines[-1]}" "^retry: sleep 60: --log-file: [0-9]+ lines dropped: its reader did not take them\$"
}

@test "--log-file: a stalled reader does not delay a signal; the count is said as retry dies" {
	stalled_reader
	start_retry --forever --immediate -q --log-file "$D/fifo" -- \
	    sh -c 'echo run >>"$0"; exit 1' "$D/runs"
	# Two attempts: their lines found the FIFO full.
	wait_lines "$D/runs" 2
	local t0=$(now_ms)
	kill -TERM "$RETRY_PID"
	wait_status "$RETRY_PID"
	assert_equal "$status" 143
	# At once in retry; the bound is for a busy host.
	(($(now_ms) - t0 < 10000))
	assert_regex "$(cat "$D/err")" "^retry: $(named sh -c 'echo run >>"$0"; exit 1' "$D/runs"): --log-file: [0-9]+ lines dropped: its reader did not take them\$"
}

@test "--log-file: once its reader takes lines again, the count is in the log and on stderr" {
	mkfifo "$D/fifo"
	# Holds the FIFO open with one page of room and reads nothing until
	# attempt 41 says so and waits: with a label of 2000 bytes, its 40
	# attempts wrote far more than the FIFO and retry's queue (64kB)
	# hold. Then makes room, lets attempt 41 end, and reads everything up
	# to retry's closing line. Events, not time: any pace holds.
	python3 -c '
import fcntl, os, re, select, sys, time
fifo, d = sys.argv[1:3]
fd = os.open(fifo, os.O_RDWR)
fcntl.fcntl(fd, 1031, 4096)  # F_SETPIPE_SZ
open(d + "/ready", "w").write("ready\n")
end = time.monotonic() + 60
while not os.path.exists(d + "/stalled") and time.monotonic() < end:
    time.sleep(0.02)
try:
    fcntl.fcntl(fd, 1031, 65536)
except OSError:
    pass
open(d + "/draining", "w").close()
data = b""
while not re.search(rb"giving up after [^\n]*\n", data):
    if not select.select([fd], [], [], 30)[0]:
        break
    data += os.read(fd, 65536)
open(d + "/log", "wb").write(data)
' "$D/fifo" "$D" 3>&- &
	local reader=$! label
	echo $reader >>"$D/pids"
	wait_lines "$D/ready"
	label=$(printf "%02000d" 0)
	# shellcheck disable=SC2016  # for the attempt's shell
	run -1 --separate-stderr timeout 60 "$RETRY" --max 60 --immediate -q \
	    --label "$label" --log-file "$D/fifo" -- sh -c '
	    if [ "$RETRY_ATTEMPT" = 41 ]; then
		: >"$0/stalled"
		while [ ! -e "$0/draining" ]; do sleep 0.01; done
	    fi
	    exit 1' "$D"
	wait "$reader"
	assert_equal "${#stderr_lines[@]}" 1
	assert_regex "${stderr_lines[0]}" "^retry\\[$label\\]: --log-file: [0-9]+ lines dropped: its reader did not take them\$"
	# The same count, in the log, after the lines before the stall and
	# before those after it; every line whole.
	run -0 grep -cF "Z ${stderr_lines[0]}" "$D/log"
	assert_equal "$output" 1
	run grep -vc "^[0-9-]*T[0-9:.]*Z retry\[$label\]: \(attempt [0-9]*/60 \(starting\|failed: exit 1 after [0-9.]*[mu]\?s; next attempt in 0s\)\|giving up after 60 attempts in .*\|--log-file: [0-9]* lines dropped: its reader did not take them\)\$" "$D/log"
	assert_equal "$output" 0
	tail -1 "$D/log" | grep -q "giving up after"
}

@test "--log-file is created 0600" {
	run -0 retry --log-file "$D/log" -- true
	assert_equal "$(stat -c %a "$D/log")" 600
}

@test "--log-file refuses a symlink that another user planted in /tmp's kind of directory" {
	plant_symlink log
	run -125 retry --log-file "$SHARED/log" -- true
	assert_setup_error --log-file
	assert_line --index 0 --partial "another user (uid 65534)"
	assert_equal "$(cat "$D/private")" secret
	# One's own symlink there is followed.
	ln -s "$D/mine" "$SHARED/own"
	run -0 retry --log-file "$SHARED/own" -- true
	[ -f "$D/mine" ]
}

@test "--log-file refuses a file or a FIFO that another user planted in /tmp's kind of directory" {
	add_user "to make a second user"
	local uid=$OTHER_UID
	sticky_dir
	# The other user's file, writable by all, and its FIFO, with a reader
	# of its own.
	setpriv --reuid="$uid" --regid="$uid" --clear-groups \
	    sh -c 'umask 0; : >"$1/vlog"; mkfifo -m 666 "$1/vfifo"' _ "$SHARED"
	setpriv --reuid="$uid" --regid="$uid" --clear-groups \
	    sh -c 'exec cat "$1/vfifo" >/dev/null' _ "$SHARED" 3>&- &
	local reader=$! i
	echo $reader >>"$D/pids"
	# Once cat waits in its open of the FIFO: a reader.
	poll_until 10 eval '[ "$(cat "/proc/$reader/comm" 2>/dev/null)" = cat ] &&
	    [ "$(ps -o stat= -p "$reader")" = S ]'
	run -125 retry --log-file "$SHARED/vlog" -- touch "$D/ran"
	assert_setup_error --log-file
	assert_equal "$output" "retry: $(command_name touch "$D/ran"): --log-file: $SHARED/vlog: a file that another user (uid $uid) owns in a world-writable sticky directory; refused"
	[ ! -s "$SHARED/vlog" ] || fail "written: $(cat "$SHARED/vlog")"
	run -125 retry --log-file "$SHARED/vfifo" -- touch "$D/ran"
	assert_setup_error --log-file
	assert_line --index 0 --partial "a FIFO that another user (uid $uid) owns"
	[ ! -e "$D/ran" ]
	# One's own file there is used, and so is the other user's in a
	# directory that is not sticky, or in a sticky one that they own.
	run -0 retry --log-file "$SHARED/mine" -- true
	[ -s "$SHARED/mine" ]
	mkdir -m 777 "$SHARED/open"
	setpriv --reuid="$uid" --regid="$uid" --clear-groups \
	    sh -c 'umask 0; : >"$1/open/vlog"; mkdir -m 1777 "$1/theirs"; : >"$1/theirs/vlog"' _ "$SHARED"
	run -0 retry --log-file "$SHARED/open/vlog" -- true
	run -0 retry --log-file "$SHARED/theirs/vlog" -- true
	[ -s "$SHARED/theirs/vlog" ]
}

@test "a set-user-ID root copy of retry refuses to run for another user, whatever it is asked" {
	command -v setpriv >/dev/null || skip "setpriv is not installed"
	add_user "to make a set-user-ID root copy and a second user"
	local uid=$OTHER_UID
	SHARED=$(mktemp -d /tmp/retry-suid.XXXXXX)
	chmod 755 "$SHARED"
	cp "$RETRY" "$SHARED/retry"
	chown root:root "$SHARED/retry"
	chmod 755 "$SHARED/retry"
	# Without the bit, the other user's command runs as that user.
	run -0 setpriv --reuid="$uid" --regid="$uid" --clear-groups \
	    "$SHARED/retry" --max 1 -- id -u
	assert_output "$uid"
	chmod 4755 "$SHARED/retry"
	# The kernel may ignore the bit (a nosuid mount): then nothing to do.
	run setpriv --reuid="$uid" --regid="$uid" --clear-groups \
	    sh -c 'exec "$1" --max 1 -- touch "$2"' _ "$SHARED/retry" \
	    "$SHARED/ran"
	if [ "$status" -eq 0 ] && [ "$(stat -c %u "$SHARED/ran")" = "$uid" ]; then
		skip "set-user-ID is ignored here"
	fi
	assert_equal "$status" 125
	assert_output "retry: refusing to run set-user-ID, set-group-ID or with capabilities: it would run any command with them"
	[ ! -e "$SHARED/ran" ] || fail "the command ran"
	for face in --version "share status" "show-backoff-delays" "simulate"; do
		# shellcheck disable=SC2086  # the face's words
		run -125 setpriv --reuid="$uid" --regid="$uid" --clear-groups \
		    "$SHARED/retry" $face
		assert_output --partial "refusing to run set-user-ID"
	done
}

@test "--stdin replay: a signal ends the wait for a slow writer" {
	(sleep 30 & echo $! >"$D/pids"; wait) |
	    "$RETRY" --stdin replay -- cat >"$D/out" 2>"$D/err" 3>&- &
	local pid=$! st=0
	wait_lines "$D/pids"
	sleep 0.3
	kill -TERM "$pid"
	# Gone while what writes its stdin still sleeps.
	assert_gone "$pid"
	kill "$(cat "$D/pids")"
	wait "$pid" || st=$?
	assert_equal "$st" 143
}

@test "--stdin replay takes a non-blocking stdin" {
	run -0 bash -c '(sleep 0.3; echo data) | python3 -c "
import fcntl, os, sys
fcntl.fcntl(0, fcntl.F_SETFL, fcntl.fcntl(0, fcntl.F_GETFL) | os.O_NONBLOCK)
os.execv(sys.argv[1], sys.argv[1:])" "$RETRY" -q --stdin replay --max 2 --immediate -- sh -c "cat; [ \$RETRY_ATTEMPT -ge 2 ]"'
	assert_output "$(printf 'data\ndata')"
}

@test "--hold-stdout delivers everything to a non-blocking stdout with a slow reader" {
	head -c 1288895 /dev/urandom >"$D/data"
	run -0 bash -c 'python3 -c "
import fcntl, os, sys
fcntl.fcntl(1, fcntl.F_SETFL, fcntl.fcntl(1, fcntl.F_GETFL) | os.O_NONBLOCK)
os.execv(sys.argv[1], sys.argv[1:])" "$RETRY" -q --hold-stdout -- cat "$1" | { sleep 1; cat; } >"$2"' _ "$D/data" "$D/copy"
	cmp "$D/data" "$D/copy"
}

@test "a reader that does not read: --timeout and TERM still work" {
	mkfifo "$D/fifo"
	sleep 30 <"$D/fifo" &
	echo $! >"$D/pids"
	local t0=$(now_ms)
	run -124 bash -c 'timeout 60 "$RETRY" -q --max 1 --timeout 1s --until-output zzz -- yes >"$1"' _ "$D/fifo"
	(($(now_ms) - t0 < 30000))
	"$RETRY" -q --max 1 --until-output zzz -- yes >"$D/fifo" 2>/dev/null 3>&- &
	local pid=$!
	sleep 0.5
	kill -TERM "$pid"
	t0=$(now_ms)
	local st=0
	wait "$pid" || st=$?
	assert_equal "$st" 143
	(($(now_ms) - t0 < 30000))
}

@test "a file size limit is a write error: reported, and the attempt ended" {
	run -125 --separate-stderr bash -c 'ulimit -f 10; "$RETRY" --max 1 --until-output zzz -- sh -c "head -c 100000 /dev/zero; echo \$\$ >\"\$1\"; exec sleep 30" sh "$1" >"$2"' _ "$D/pids" "$D/out"
	assert_regex "${stderr_lines[-1]}" "^retry: sh -c 'head -c 100000\\.\\.\\.: stdout: File too large$"
	[ ! -s "$D/pids" ] || assert_gone $(cat "$D/pids")
	run -125 --separate-stderr bash -c 'ulimit -f 10; "$RETRY" --max 1 --hold-stdout -- head -c 100000 /dev/zero >"$1"' _ "$D/held"
	assert_regex "$stderr" "File too large"
}

@test "a write error on held output is an error, not a silent success" {
	[ -w /dev/full ] || skip "no /dev/full"
	run -125 --separate-stderr bash -c '"$RETRY" --hold-stdout -- echo hi >/dev/full'
	assert_equal "$stderr" "retry: echo hi: stdout: cannot write the held output: No space left on device"
}

@test "a spool that cannot grow under --hold-stdout: every byte comes out once, in order" {
	for bs in 4096 65536; do
		head -c 3039474 /dev/urandom >"$D/data"
		# A file size limit of 1 MiB for retry's spool in memory; the
		# output goes through a pipe, which no limit holds.
		run -125 --separate-stderr bash -c 'set -o pipefail
		    (ulimit -f 1024; exec "$RETRY" --max 1 --hold-stdout -- \
		    dd if="$1" bs=$2 status=none) | cat >"$3"' \
		    _ "$D/data" "$bs" "$D/out"
		cmp "$D/data" "$D/out"
		assert_regex "${stderr_lines[0]}" "^retry: $(named dd if="$D/data" bs=$bs status=none): --hold stdout: cannot keep the output in $(spool_place): File too large$"
	done
}

@test "a hedged attempt's spool that cannot grow is said as --hold-stdout's is, and the run ends with 125" {
	# A file size limit of 1 MiB for the spools, with XFSZ ignored, so
	# that the command's own writes fail as on a full disk, and it goes
	# on to succeed.
	run -125 --separate-stderr bash -c 'set -o pipefail; trap "" XFSZ
	    (ulimit -f 1024; exec "$RETRY" --max 1 --hedge 10s --stdin null -- \
	    sh -c "dd if=/dev/zero bs=64k count=48 2>/dev/null; exit 0") | wc -c'
	assert_output 1048576
	assert_equal "$stderr" "retry: $(command_name sh -c "dd if=/dev/zero bs=64k count=48 2>/dev/null; exit 0"): --hedge: cannot keep the stdout of attempt 1 in $(spool_place): File too large"
	# Its stderr too, where its own error would have been.
	run -125 --separate-stderr bash -c 'set -o pipefail; trap "" XFSZ
	    (ulimit -f 1024; exec "$RETRY" --max 1 --hedge 10s --stdin null -- \
	    sh -c "dd if=/dev/zero bs=64k count=48 >&2 2>/dev/null; exit 0") 2>&1 >/dev/null | tail -n 1'
	assert_output "retry: $(command_name sh -c "dd if=/dev/zero bs=64k count=48 >&2 2>/dev/null; exit 0"): --hedge: cannot keep the stderr of attempt 1 in $(spool_place): File too large"
}

@test "a hedged attempt's spool that cannot grow beside others ends the run with 125, the others stopped" {
	# Attempt 1 writes 5 MB once attempt 2 has started; a file size limit
	# of 1 MiB holds its spool.  Every later attempt succeeds in 10s.
	cat >"$D/big-first" <<-'EOF2'
	#!/bin/sh
	if [ "$RETRY_ATTEMPT" != 1 ]; then
		sleep 10 &
		echo $! >>pids
		echo $$ >>pids
		echo $$ >pid.$RETRY_ATTEMPT
		wait
		exit 0
	fi
	while ! [ -s pid.2 ]; do sleep 0.02; done
	yes | head -c 5000000 >&$1
	EOF2
	chmod +x "$D/big-first"
	cd "$D" || return 1
	# SIGXFSZ kills the writer; ignored, its write fails with EFBIG.
	# Retry's stdout is counted; its stderr, but for the kept y lines, in
	# err: each goes through a pipe, which no limit holds.
	for xfsz in - ''; do
		for fd in 1 2; do
			rm -f pid.2 pids
			run -125 timeout 60 bash -c 'set -o pipefail; trap "$1" XFSZ
			    { (ulimit -f 1024; exec "$RETRY" --hedge 50ms --stdin null \
			    --max 3 -- ./big-first "$2") 2>&1 >&3 | grep -v "^y$" >err
			    } 3>&1 | wc -c' _ "$xfsz" "$fd"
			if [ "$fd" = 1 ]; then
				stream=stdout
				assert_output 1048576
			else
				stream=stderr
				assert_output 0
			fi
			run -0 cat err
			assert_equal "${lines[-1]}" "retry: $(command_name ./big-first "$fd"): --hedge: cannot keep the $stream of attempt 1 in $(spool_place): File too large"
			assert_line --regexp "attempt 2 cancelled after .* \(attempt 1 ended the run\)$"
			refute_line --partial failed
			assert_gone $(cat pids)
		done
	done
}

@test "a spool that cannot grow under --stdin replay is one clear error: the attempt reading it is ended, and the run" {
	run -125 --separate-stderr bash -c 'head -c 3000000 /dev/zero | (ulimit -f 1024; exec "$RETRY" --stdin replay -- sh -c "cat >/dev/null; echo ran >\"\$1\"" _ "$1")' _ "$D/ran"
	assert_regex "$stderr" "^retry: sh -c 'cat >/dev/null\\.\\.\\.: --stdin replay: cannot keep stdin in $(spool_place) after 1048576 bytes: File too large$"
	[ ! -e "$D/ran" ]
	# Between attempts too: the sleep records what comes, sent once the
	# first attempt has failed.  Not poll_until: the writer is a shell of
	# its own.
	run -125 bash -c '{ timeout 30 sh -c "until grep -q \"next attempt in 30s\" \"\$0\"; do sleep 0.05; done" "$1"
	    head -c 3000000 /dev/zero; } | (ulimit -f 1024; exec "$RETRY" --stdin replay --fixed 30s -- sh -c "exit 1") 2>"$1"' _ "$D/err"
	run -0 cat "$D/err"
	assert_line --index 1 "retry: sh -c 'exit 1': --stdin replay: cannot keep stdin in $(spool_place) after 1048576 bytes: File too large"
	assert_equal "${#lines[@]}" 2
	# Hedged attempts alike: each is ended, and the run.
	run -125 --separate-stderr bash -c 'head -c 3000000 /dev/zero | (ulimit -f 1024; exec "$RETRY" --hedge 100ms --stdin replay -- sh -c "cat >/dev/null; echo ran >\"\$1\"" _ "$1")' _ "$D/ran"
	assert_regex "${stderr_lines[-1]}" "^retry: sh -c 'cat >/dev/null\\.\\.\\.: --stdin replay: cannot keep stdin in $(spool_place) after 1048576 bytes: File too large$"
	[ ! -e "$D/ran" ]
}

@test "nothing needs /tmp: --hold-stdout and --stdin replay keep their spools in memory" {
	skip_portable "no memfd: spools are files in TMPDIR"
	run -0 --separate-stderr bash -c 'printf "a\nb\n" | TMPDIR=$1 "$RETRY" --stdin replay --hold-stdout -n 2 -- sh -c "cat; [ \"\$RETRY_ATTEMPT\" -eq 2 ]"' _ "$D/none"
	assert_output "a
b"
}

@test "a temporary failure to start an attempt is a failed attempt: reported, retried" {
	needs_root "to run as a user with a process limit"
	skip_under_asan_limits "LeakSanitizer needs a process of its own"
	command -v setpriv >/dev/null || skip "setpriv is not installed"
	# A uid of its own, with no process anywhere: the limit counts every
	# process of the user's, those of nobody's daemons and of another
	# run of the suite too.
	local u
	for ((u = 40000 + $$ % 20000; u < 65000; u++)); do
		pgrep -U "$u" >/dev/null || break
	done
	setpriv --reuid="$u" --regid="$u" --clear-groups true ||
		skip "cannot act as uid $u"
	# A process of the user's that it does not have to reap holds the
	# one place there is until retry has said that its first attempt
	# could not start; then this test, another user, ends it.
	holder_uid=$u
	setpriv --reuid="$u" --regid="$u" --clear-groups bash -c \
	    '(exec sleep 600 <&- >&- 2>&- 3>&- &); ulimit -u 2
	    exec "$1" --fixed 200ms --max 100 -- true' _ "$RETRY" \
	    </dev/null >"$BATS_TEST_TMPDIR/out" 2>"$BATS_TEST_TMPDIR/err" 3>&- &
	local pid=$!
	echo "$pid" >>"$D/pids"
	wait_match "$BATS_TEST_TMPDIR/err" "attempt 1/100 failed"
	pkill -U "$u" -x sleep
	wait_status "$pid"
	assert_equal "$status" 0
	run cat "$BATS_TEST_TMPDIR/err"
	assert_line --index 0 --regexp "^retry: true: attempt 1/100 failed: could not start: Resource temporarily unavailable; next attempt in 200ms\$"
	run --separate-stderr setpriv --reuid="$u" --regid="$u" --clear-groups \
	    bash -c 'ulimit -u 1; exec "$1" --immediate --max 2 --on-giveup true -- true' _ "$RETRY"
	assert_equal "$status" 125
	assert_regex "${stderr_lines[1]}" "^retry: true: giving up after 2 attempts in .*: could not start: Resource temporarily unavailable\$"
	assert_regex "${stderr_lines[2]}" "^retry: true: --on giveup: not run: Resource temporarily unavailable\$"
}

@test "out of descriptors, a hook is not run rather than given the wrong ones" {
	skip_under_asan_limits "its symbolizer needs descriptors of its own"
	# bats keeps fds of its own open above 2; they go first.
	run --separate-stderr bash -c 'for f in $(seq 3 64); do eval "exec $f>&-"; done
	    ulimit -n 5; exec "$1" --immediate --max 2 --on-retry "echo hook; cat" -- false' _ "$RETRY"
	assert_equal "$status" 1
	assert_equal "$output" ""
	# EMFILE as glibc and musl word it.
	assert_regex "$stderr" \
	    "retry: false: --on retry: not run: (Too many open files|No file descriptors available)"
}

@test "in a storm of signals, retry dies of the first" {
	start_retry --max 1 -- sh -c 'trap "echo TERM >\"\$1.term\"" TERM; trap "" HUP INT
	    echo $$ >"$1"; while :; do sleep 0.05; done' sh "$D/pids"
	wait_lines "$D/pids"
	kill -TERM "$RETRY_PID"
	# Signals that reach a process while it waits for the CPU come to it
	# lowest number first: the storm starts once retry has sent TERM on.
	wait_lines "$D/pids.term"
	for i in 1 2 3 4 5; do
		kill -HUP "$RETRY_PID" 2>/dev/null || true
		kill -INT "$RETRY_PID" 2>/dev/null || true
	done
	wait_status "$RETRY_PID"
	assert_equal "$status" 143
	start_retry --fixed 30s -- false
	wait_match "$BATS_TEST_TMPDIR/err" "next attempt in 30s"
	kill -TERM "$RETRY_PID"
	wait_match "$BATS_TEST_TMPDIR/err" "SIGTERM while waiting"
	kill -HUP "$RETRY_PID" 2>/dev/null || true
	wait_status "$RETRY_PID"
	assert_equal "$status" 143
}
