#!/usr/bin/env bats
# Signals sent to retry for real: forwarding, death by the same signal,
# back-off sleeps, SIGCHLD, file descriptors and PR_SET_PDEATHSIG.
bats_require_minimum_version 1.5.0
load test_helper/common
load test_helper/procs
load test_helper/share

# An attempt that records its pid in $0/leader and a background child's in
# $0/bg, counts its runs in $0/runs, then waits.
hang='echo $$ >"$0/leader"; echo run >>"$0/runs"
	sleep 100 & echo $! >"$0/bg"
	wait'

teardown() {
	# Whatever a failed test left behind, by pid.
	local f
	for f in "$BATS_TEST_TMPDIR"/leader "$BATS_TEST_TMPDIR"/bg; do
		[ -f "$f" ] && kill -KILL "$(cat "$f")" 2>/dev/null
	done
	[ -n "${RETRY_PID:-}" ] && kill -KILL "$RETRY_PID" 2>/dev/null
	return 0
}

# Sends signal $1 to retry while an attempt runs; asserts that retry dies
# of it promptly, forwarded it, started nothing more and left nothing.
forwarded() {
	local sig=$1 num=$2 d=$BATS_TEST_TMPDIR t0 t1
	start_retry -n 5 -d 0 -- sh -c "
	    trap 'echo $sig >\"\$0/got\"; exit 1' $sig
	    $hang" "$d"
	wait_lines "$d/bg"
	t0=$(now_ms)
	kill -"$sig" "$RETRY_PID"
	wait_status "$RETRY_PID"
	t1=$(now_ms)
	assert_equal "$status" $((128 + num))
	# Promptly: long before the attempt's own end (100s), with room for
	# a busy host.
	((t1 - t0 < 10000))
	assert_equal "$(cat "$d/got")" "$sig"
	assert_equal "$(wc -l <"$d/runs")" 1
	assert_gone "$(cat "$d/leader")" "$(cat "$d/bg")"
	assert_group_gone "$(cat "$d/leader")"
}

@test "TERM during an attempt: forwarded, then retry dies of TERM" {
	forwarded TERM 15
}

@test "HUP during an attempt: forwarded, then retry dies of HUP" {
	forwarded HUP 1
}

@test "INT during an attempt: forwarded, then retry dies of INT" {
	forwarded INT 2
}

@test "QUIT during an attempt: forwarded, retry dies of QUIT, no core" {
	cd "$BATS_TEST_TMPDIR"
	forwarded QUIT 3
	run ls "$BATS_TEST_TMPDIR"
	refute_output --partial core
}

@test "kill -INT to retry's process group stops it (no terminal)" {
	local d=$BATS_TEST_TMPDIR
	start_retry -n 5 -d 0 -- sh -c "$hang" "$d"
	wait_lines "$d/bg"
	# retry leads its session's group; the attempt has a group of its
	# own, so only retry hears this and forwards it.
	assert_equal "$(ps -o pgid= -p "$RETRY_PID" | tr -d ' ')" "$RETRY_PID"
	assert_not_equal "$(ps -o pgid= -p "$(cat "$d/leader")" | tr -d ' ')" \
	    "$RETRY_PID"
	kill -INT -- -"$RETRY_PID"
	wait_status "$RETRY_PID"
	assert_equal "$status" 130
	assert_equal "$(wc -l <"$d/runs")" 1
	assert_group_gone "$(cat "$d/leader")"
}

@test "SIGTSTP to retry stops the attempt's group with it; SIGCONT continues both, its --timeout counting meanwhile" {
	local d=$BATS_TEST_TMPDIR
	# A process group of its own in the test's session, not orphaned: the
	# kernel stops it by SIGTSTP, as a shell's job.
	set -m
	env --default-signal=HUP,INT,QUIT "$RETRY" -n 1 -T 2s -- sh -c "$hang" \
	    "$d" </dev/null >"$d/out" 2>"$d/err" 3>&- &
	RETRY_PID=$!
	set +m
	wait_lines "$d/bg"
	kill -TSTP "$RETRY_PID"
	wait_state T "$RETRY_PID" "$(cat "$d/leader")" "$(cat "$d/bg")"
	# Past its timeout while stopped: it times out as soon as it goes on.
	sleep 2.5
	wait_state T "$RETRY_PID" "$(cat "$d/leader")" "$(cat "$d/bg")"
	kill -CONT "$RETRY_PID"
	wait_status "$RETRY_PID"
	assert_equal "$status" 124
	run -0 cat "$d/err"
	assert_output --partial 'timed out'
	assert_gone "$(cat "$d/leader")" "$(cat "$d/bg")"
}

@test "SIGTSTP that catches the attempt's shell starting a command (dash waits in vfork) stops it all the same; SIGCONT continues it" {
	local d=$BATS_TEST_TMPDIR i caught=0 sh
	cat >"$d/spin" <<-'EOF2'
	#!/bin/sh
	echo $$ >"$1/leader"
	while [ ! -e "$1/go" ]; do /bin/true; done
	EOF2
	chmod +x "$d/spin"
	set -m
	"$RETRY" -q -n 1 -- "$d/spin" "$d" </dev/null >/dev/null 2>&1 3>&- &
	RETRY_PID=$!
	set +m
	wait_lines "$d/leader"
	sh=$(cat "$d/leader")
	# Until a stop finds the shell inside vfork (its child stopped before
	# it execs), as a few in a hundred do; every stop must hold either way.
	for ((i = 1; i <= 150 && !caught; i++)); do
		kill -TSTP "$RETRY_PID"
		wait_state T "$RETRY_PID" "$sh"
		[ "$(state_of "$sh")" != D ] || caught=1
		kill -CONT "$RETRY_PID"
		wait_state '!T' "$RETRY_PID" "$sh"
	done
	touch "$d/go"
	wait_status "$RETRY_PID"
	assert_equal "$status" 0
	[ "$(readlink -f /bin/sh)" != "$(command -v dash)" ] || [ "$caught" = 1 ] ||
	    skip "no stop caught dash inside vfork in $i tries"
}

# Sends signal $1 to $2 (retry's pid, or -pid for its group) while retry
# sleeps 20s between attempts; asserts it dies of the signal at once.
sleep_ended() {
	local d=$BATS_TEST_TMPDIR t0 t1
	start_retry -n 2 -d 20 -- sh -c 'echo run >>"$0/runs"; exit 1' "$d"
	wait_match "$d/err" 'next attempt in 20s'
	t0=$(now_us)
	kill -"$1" -- "${2/pid/$RETRY_PID}"
	status=0
	wait "$RETRY_PID" || status=$?
	t1=$(now_us)
	assert_equal "$status" "$3"
	# Well under 50ms in retry; the bound is the 20s sleep's, with room
	# for a busy host (load 10 on 2 cores).
	echo "# ended after $(((t1 - t0) / 1000))ms" >&3
	((t1 - t0 < 5000000))
	assert_equal "$(wc -l <"$d/runs")" 1
}

@test "TERM during a back-off sleep ends it at once" {
	sleep_ended TERM pid 143
}

@test "INT to the group during a back-off sleep ends it at once" {
	sleep_ended INT -pid 130
}

@test "HUP during a back-off sleep ends it at once" {
	sleep_ended HUP pid 129
}

@test "a forwarded signal waits for the attempt to clean up" {
	local d=$BATS_TEST_TMPDIR
	start_retry -n 5 -d 0 -- sh -c '
	    trap "sleep 0.5; echo cleaned >\"\$0/got\"; exit 0" TERM
	    '"$hang" "$d"
	wait_lines "$d/bg"
	kill -TERM "$RETRY_PID"
	wait_status "$RETRY_PID"
	# The attempt exited 0 after its cleanup, yet retry dies of TERM.
	assert_equal "$status" 143
	assert_equal "$(cat "$d/got")" cleaned
	assert_group_gone "$(cat "$d/leader")"
}

@test "a command that ignores a forwarded TERM gets KILL after kill-after" {
	local d=$BATS_TEST_TMPDIR t0 t1
	start_retry -n 5 -d 0 -k 1 -- sh -c 'trap "" TERM; '"$hang" "$d"
	wait_lines "$d/bg"
	t0=$(now_ms)
	kill -TERM "$RETRY_PID"
	wait_status "$RETRY_PID"
	t1=$(now_ms)
	assert_equal "$status" 143
	# Not before kill-after (1s); the KILL that never comes would leave
	# the attempt's 100s.
	((t1 - t0 >= 900 && t1 - t0 < 15000))
	assert_equal "$(wc -l <"$d/runs")" 1
	assert_gone "$(cat "$d/leader")" "$(cat "$d/bg")"
}

@test "a TERM that arrives as the attempt succeeds still kills retry" {
	local i
	# The attempt ends at once, so the TERM is often still pending when
	# retry sees the attempt's end.
	for ((i = 0; i < 20; i++)); do
		run retry -q -n 3 -d 0 -- sh -c 'kill -TERM $PPID; exit 0'
		assert_equal "$status" 143
	done
}

@test "an attempt that dies of SIGINT ends the run, and retry dies of INT" {
	local d=$BATS_TEST_TMPDIR
	run --separate-stderr timeout 60 env --default-signal=INT \
	    "$RETRY" -n 5 -d 0 -- sh -c 'echo run >>"$0/runs"; kill -INT $$' "$d"
	assert_equal "$status" 130
	assert_equal "$(wc -l <"$d/runs")" 1
	assert_equal "$stderr" "retry: $(command_name sh -c 'echo run >>"$0/runs"; kill -INT $$' "$d"): stopping: killed by SIGINT (interrupted)"
}

@test "an attempt that dies of SIGQUIT ends the run" {
	local d=$BATS_TEST_TMPDIR
	cd "$d"
	run --separate-stderr timeout 60 env --default-signal=QUIT \
	    "$RETRY" -n 5 -d 0 -- sh -c 'echo run >>"$0/runs"; kill -QUIT $$' "$d"
	assert_equal "$status" 131
	assert_equal "$(wc -l <"$d/runs")" 1
	assert_regex "$stderr" 'stopping: killed by SIGQUIT'
}

@test "an attempt killed by TERM is retried like any failure" {
	run -0 retry -n 3 -d 0 -- sh -c '
	    [ -e "$0/once" ] && exit 0; touch "$0/once"; kill -TERM $$' \
	    "$BATS_TEST_TMPDIR"
}

@test "a bash for loop stops when retry in it gets INT with the loop" {
	local d=$BATS_TEST_TMPDIR pid
	# The wait-and-cooperative-exit rule: bash leaves the loop only if
	# its child died of SIGINT, not if it exited 130.
	setsid env --default-signal=INT,QUIT bash -c '
	    for i in 1 2 3; do
		"$RETRY" -n 5 -d 0 -- sh -c "echo \$\$ >>\"$1/pids\"; exec sleep 100"
		echo "after $i" >>"$1/log"
	    done' bash "$d" </dev/null 3>&- &
	pid=$!
	wait_lines "$d/pids"
	kill -INT -- -"$pid"
	wait_status "$pid"
	assert_equal "$status" 130
	assert [ ! -e "$d/log" ]
	assert_equal "$(wc -l <"$d/pids")" 1
	assert_gone "$(cat "$d/pids")"
}

@test "trap '' CHLD in the calling shell does not hang retry" {
	local t0 t1
	trap '' CHLD
	run -1 retry -n 3 -d 0.05 -- false
	t0=$(now_ms)
	# Without SIGCHLD retry would sleep until the 30s timeout.
	run -0 retry -n 1 -T 30 -- sleep 0.2
	t1=$(now_ms)
	trap - CHLD
	((t1 - t0 < 5000))
}

@test "no SIGCHLD is lost over many short attempts" {
	local t0 t1
	t0=$(now_ms)
	# A lost SIGCHLD would leave an attempt waiting for its 30s timeout,
	# and say so; the time is bounded for a busy host.
	run -1 retry -n 300 -d 0 -T 30 -- false
	t1=$(now_ms)
	refute_output --partial "timed out"
	assert_equal "$(grep -c 'failed: exit 1 after' <<<"$output")" 299
	((t1 - t0 < 50000))
}

@test "the attempt gets SIGCHLD at its default even under trap '' CHLD" {
	trap '' CHLD
	run -0 retry -n 1 -- grep '^SigIgn:' /proc/self/status
	trap - CHLD
	# SIGCHLD is signal 17, bit 0x10000.
	local mask=${output##*$'\t'}
	(((16#$mask & 16#10000) == 0))
}

@test "the fds retry was given reach the attempt as they were given" {
	local f=$BATS_TEST_TMPDIR/file
	: >"$f"
	run -0 retry -n 1 -- ls -l /proc/self/fd 4<"$f" 5>"$f" 9<>"$f" 12<"$f"
	assert_line --regexp "^lr-x.* 4 -> $f\$"
	assert_line --regexp "^l-wx.* 5 -> $f\$"
	assert_line --regexp "^lrwx.* 9 -> $f\$"
	assert_line --regexp "^lr-x.* 12 -> $f\$"
}

@test "the attempt starts with retry's original signal mask" {
	local expected
	expected=$(grep '^SigBlk:' /proc/self/status)
	run -0 retry -n 1 -- grep '^SigBlk:' /proc/self/status
	assert_output "$expected"
}

@test "the attempts get the timer slack retry started with, not retry's" {
	local expected
	expected=$(cat /proc/self/timerslack_ns)
	run -0 retry -n 1 -- cat /proc/self/timerslack_ns
	assert_output "$expected"
	# After a back-off sleep, which retry takes with a slack of its own.
	run -1 retry -n 2 -d 10ms -q -- sh -c 'cat /proc/self/timerslack_ns; exit 1'
	assert_output "$(printf '%s\n%s' "$expected" "$expected")"
}

@test "retry killed with KILL: its attempt gets TERM (PDEATHSIG)" {
	skip_portable "no PR_SET_PDEATHSIG: the attempt outlives a retry killed outright"
	local d=$BATS_TEST_TMPDIR
	start_retry -n 5 -d 0 -- sh -c '
	    trap "echo TERM >\"\$0/got\"; exit 0" TERM
	    echo $$ >"$0/leader"
	    while :; do sleep 0.05; done' "$d"
	wait_lines "$d/leader"
	kill -KILL "$RETRY_PID"
	wait_status "$RETRY_PID"
	assert_equal "$status" 137
	wait_lines "$d/got"
	assert_equal "$(cat "$d/got")" TERM
	assert_gone "$(cat "$d/leader")"
}

@test "a USR1 while retry waits for its store's lock is not sent to the attempt" {
	local d=$BATS_TEST_TMPDIR
	export RETRY_SHARE_STORE=file:$d/store
	mkdir -m 700 "$d/store"
	run -0 retry --share u -- true
	# Another process holds the store's lock, as another run would.
	hold_lock "$d/store/u" 60
	echo "$LOCKER" >"$d/bg"
	start_retry --share u --share-timeout 60s -n 1 -- \
	    sh -c 'echo start >>"$0/runs"; sleep 1; echo done >>"$0/runs"' "$d"
	# Waiting for the lock: the store's file is open.
	poll_until 10 eval 'ls -l "/proc/$RETRY_PID/fd" 2>/dev/null | grep -q "$d/store/u"'
	[ ! -e "$d/runs" ]
	kill -USR1 "$RETRY_PID"
	kill "$(cat "$d/bg")"
	wait_status "$RETRY_PID"
	assert_equal "$status" 0
	assert_equal "$(cat "$d/runs")" "start
done"
}

@test "real-time signals reach the attempt as often as they came, a sigqueue's with its value" {
	skip_musl "musl keeps signals 32 to 34 for itself, and glibc's SIGRTMIN, 34, which this test sends, is one of them"
	local d=$BATS_TEST_TMPDIR i
	/usr/bin/kill --help 2>&1 | grep -q -- --queue ||
	    skip "this kill(1) cannot send a value (--queue)"
	# The command takes SIGRTMIN one at a time, with how it was sent
	# (si_code) and its value, until SIGRTMIN+1 says that all were sent.
	cat >"$d/rx.py" <<'PY'
import ctypes, signal, sys
rt = signal.SIGRTMIN
signal.pthread_sigmask(signal.SIG_BLOCK, {rt, rt + 1})
libc = ctypes.CDLL(None, use_errno=True)
mask = (ctypes.c_ulong * 16)()
libc.sigemptyset(mask)
libc.sigaddset(mask, rt)
libc.sigaddset(mask, rt + 1)
info = (ctypes.c_int * 32)()
open(sys.argv[1] + ".ready", "w").close()
got = []
while libc.sigwaitinfo(mask, info) == rt:
    # si_code, and si_value after si_pid and si_uid (LP64)
    got.append("%d %d" % (info[2], info[6]))
open(sys.argv[1], "w").write("".join(line + "\n" for line in got))
PY
	start_retry -n 1 -- python3 "$d/rx.py" "$d/got"
	poll_until 20 test -e "$d/got.ready"
	for i in $(seq 100); do
		/usr/bin/kill --queue "$i" -s RTMIN "$RETRY_PID"
	done
	# A burst of 1,000 with kill(2), more than retry keeps at a time.
	python3 -c 'import os, signal, sys
for _ in range(1000): os.kill(int(sys.argv[1]), signal.SIGRTMIN)' "$RETRY_PID"
	/usr/bin/kill -s RTMIN+1 "$RETRY_PID"
	wait_status "$RETRY_PID"
	assert_equal "$status" 0
	# SI_QUEUE (-1) with the values sent, in order; then SI_USER (0).
	assert_equal "$(sed -n 1,100p "$d/got")" "$(seq -f '-1 %g' 100)"
	assert_equal "$(sed -n '101,$p' "$d/got" | sort | uniq -c | sed 's/^ *//')" "1000 0 0"
}
