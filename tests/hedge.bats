#!/usr/bin/env bats
# --hedge: an attempt still running after DUR gets the next beside it; the
# first to succeed wins, the others are stopped, reaped and said cancelled.
bats_require_minimum_version 1.5.0
load test_helper/common
load test_helper/core
load test_helper/procs
load test_helper/share
load test_helper/redis
load test_helper/tmux

teardown() {
	redis_stop
	tmux_end
}

setup() {
	own_tmpdir
	cd "$BATS_TEST_TMPDIR" || return 1
	# Attempt 1 never ends on its own: it and a child of its own say
	# their pids, then wait; every later attempt succeeds at once.
	cat >slow-first <<-'EOF2'
	#!/bin/sh
	echo "$RETRY_ATTEMPT" >>calls
	echo "out of $RETRY_ATTEMPT, hedged=${RETRY_HEDGED:-no}"
	echo "err of $RETRY_ATTEMPT" >&2
	if [ "$RETRY_ATTEMPT" = 1 ]; then
		sleep 30 &
		echo $! >child.1
		echo $$ >pid.1
		wait
	fi
	exit 0
	EOF2
	chmod +x slow-first
}

@test "--hedge: the winner's output alone is passed on; the hedge sees RETRY_HEDGED=1" {
	run -0 --separate-stderr retry --hedge 50ms --stdin null -- ./slow-first
	assert_output "out of 2, hedged=1"
	assert_equal "${stderr_lines[0]}" "retry: ./slow-first: attempt 1 still running after 50ms: started attempt 2 beside it"
	[[ ${stderr_lines[1]} == "retry: ./slow-first: attempt 2 succeeded first, after "*": cancelling 1 other" ]]
	# The winner's output as soon as it has ended, before the others are
	# reaped.
	assert_equal "${stderr_lines[2]}" "err of 2"
	[[ ${stderr_lines[3]} == "retry: ./slow-first: attempt 1 cancelled after "*" (attempt 2 won)" ]]
	assert_equal "${#stderr_lines[@]}" 4
}

@test "--hedge: --verbose and the log say each hedge's start as any attempt's" {
	run -0 --separate-stderr retry --verbose --hedge 50ms --stdin null \
	    -- ./slow-first
	assert_equal "${stderr_lines[0]}" "retry: ./slow-first: attempt 1/5 starting"
	assert_equal "${stderr_lines[1]}" "retry: ./slow-first: attempt 2/5 starting"
	assert_equal "${stderr_lines[2]}" "retry: ./slow-first: attempt 1 still running after 50ms: started attempt 2 beside it"
	rm calls
	run -0 --separate-stderr retry -q --hedge 50ms --stdin null \
	    --log-file log.json --log-format json -- ./slow-first
	assert_equal "$(jq -c 'select(.event == "start") | .attempt' log.json | tr '\n' ' ')" "1 2 "
}

@test "--hedge: ps shows every attempt in flight" {
	skip_under_valgrind "ps shows valgrind"
	"$RETRY" -q --hedge 50ms:3 --stdin null -- \
	    sh -c 'echo "$RETRY_ATTEMPT" >>calls; exec sleep 30' \
	    >/dev/null 2>&1 3>&- &
	local pid=$! title=
	poll_until 10 eval 'title=$(ps -o args= -p "$pid"); [[ $title == *"attempts 1-3/5"* ]]'
	kill -TERM "$pid"
	wait "$pid" || true
	assert_equal "${title##*exec sleep 30 }" "[attempts 1-3/5 running]"
}

@test "--hedge: a cancelled attempt leaves no process, its children neither" {
	run -0 retry -q --hedge 50ms --stdin null -- ./slow-first
	[ -s pid.1 ] && [ -s child.1 ]
	assert_gone "$(cat pid.1)" "$(cat child.1)"
}

@test "--hedge: a cancelled attempt is stopped by --signal, then KILL after --kill-after" {
	cat >stubborn <<-'EOF2'
	#!/bin/sh
	if [ "$RETRY_ATTEMPT" = 1 ]; then
		trap 'echo got-int >>trapped' INT
		echo $$ >pid.1
		while :; do sleep 0.05; done
	fi
	EOF2
	chmod +x stubborn
	run -0 retry -q --hedge 50ms --signal INT --kill-after 200ms \
	    --stdin null -- ./stubborn
	assert_gone "$(cat pid.1)"
	wait_lines trapped
}

@test "--hedge: the winner's output is passed on at once, while a loser that ignores the signal is still being stopped; retry ends once it is reaped" {
	cat >stubborn <<-'EOF2'
	#!/bin/sh
	if [ "$RETRY_ATTEMPT" = 1 ]; then
		trap 'echo term >>got-term' TERM
		echo $$ >pid.1
		while [ ! -e release ]; do sleep 0.05; done
		exit 1
	fi
	echo "won by $RETRY_ATTEMPT"
	EOF2
	chmod +x stubborn
	start_retry -q --hedge 50ms --kill-after 60s --stdin null -- ./stubborn
	wait_lines got-term
	wait_lines out
	assert_equal "$(cat out)" "won by 2"
	alive "$(cat pid.1)"
	alive "$RETRY_PID"
	touch release
	wait_status "$RETRY_PID"
	assert_equal "$status" 0
	assert_gone "$(cat pid.1)"
}

@test "--hedge: a loser that ends while the winner's output waits for its reader is reaped then, not at --kill-after" {
	cat >big-second <<-'EOF2'
	#!/bin/sh
	if [ "$RETRY_ATTEMPT" = 1 ]; then
		trap 'touch ended; exit 1' TERM
		echo $$ >pid.1
		sleep 60 &
		wait
	fi
	while [ ! -s pid.1 ]; do sleep 0.02; done
	head -c 1000000 /dev/zero
	EOF2
	chmod +x big-second
	# More than a pipe holds, read only once the loser has ended: retry
	# is passing it on when the loser ends.
	run -0 --separate-stderr timeout 30 bash -c '"$RETRY" --hedge 50ms \
	    --kill-after 60s --stdin null -- ./big-second |
	    { while [ ! -e ended ]; do sleep 0.02; done; wc -c; }'
	assert_output 1000000
	assert_regex "${stderr_lines[2]}" "attempt 1 cancelled after .* \\(attempt 2 won\\)$"
	assert_gone "$(cat pid.1)"
}

@test "--hedge: what a process the winner left running writes after it ended is not passed on" {
	mkfifo later
	run -0 timeout 30 "$RETRY" -q --hedge 1s --stdin null -- \
	    sh -c 'echo before; (read -r x <later; echo after; echo done >late) 3>&- & exit 0'
	assert_output "before"
	# The process it left runs on, and writes only now.
	echo go >later
	wait_lines late
	assert_output "before"
}

@test "--hedge: a loser's output goes to --log-file, not to stdout" {
	run -0 --separate-stderr retry -q --hedge 50ms --stdin null \
	    --log-file log -- ./slow-first
	assert_output "out of 2, hedged=1"
	assert_equal "$stderr" "err of 2"
	grep -q " retry: ./slow-first: attempt 1 stdout: out of 1, hedged=no$" log
	grep -q " retry: ./slow-first: attempt 1 stderr: err of 1$" log
	run -0 --separate-stderr retry -q --hedge 50ms --stdin null \
	    --log-file log.json --log-format json -- ./slow-first
	assert_equal "$(jq -c 'select(.event == "output") | [.attempt, .stream, .line]' log.json | tr '\n' ' ')" '[1,"stdout","out of 1, hedged=no"] [1,"stderr","err of 1"] '

}

@test "--hedge: a hedge that fails counts toward --max, and the run gives up when the last ends" {
	cat >hedges-fail <<-'EOF2'
	#!/bin/sh
	echo "$RETRY_ATTEMPT" >>calls
	if [ "$RETRY_ATTEMPT" != 1 ]; then echo $$ >pid.$RETRY_ATTEMPT; exit 4; fi
	# Attempt 1 ends last: once retry has reaped attempt 3.
	while ! [ -s pid.3 ] || kill -0 "$(cat pid.3)" 2>/dev/null; do
		sleep 0.02
	done
	exit 3
	EOF2
	chmod +x hedges-fail
	run -3 --separate-stderr retry --hedge 20ms:2 --max 3 --stdin null \
	    -- ./hedges-fail
	assert_equal "$(wc -l <calls)" 3
	assert_equal "$(grep -c 'failed: exit 4 after .*; 1 other still running$' <<<"$stderr")" 2
	[[ ${stderr_lines[-1]} == *"giving up after 3 attempts in "*": exit 3" ]]
}

@test "--hedge: once every attempt of the round has failed, the back-off applies and the next round starts" {
	# Attempt 1 fails once attempt 2 has started; attempt 2 once retry
	# has reaped attempt 1, long before the next hedge would be due.
	cat >second-round <<-'EOF2'
	#!/bin/sh
	echo "$RETRY_ATTEMPT" >>calls
	case $RETRY_ATTEMPT in
	1)	echo $$ >pid.1
		while [ "$(wc -l <calls)" -lt 2 ]; do sleep 0.02; done
		exit 1;;
	2)	while kill -0 "$(cat pid.1)" 2>/dev/null; do sleep 0.02; done
		exit 2;;
	*)	echo "won by $RETRY_ATTEMPT, hedged=${RETRY_HEDGED:-no}";;
	esac
	EOF2
	chmod +x second-round
	run -0 --separate-stderr retry --hedge 1s --fixed 10ms --stdin null \
	    -- ./second-round
	assert_output "won by 3, hedged=no"
	# Every line names the command, as a single attempt's do.
	[[ ${stderr_lines[1]} == "retry: ./second-round: attempt 1/5 failed: exit 1 after "*"; 1 other still running" ]]
	[[ ${stderr_lines[2]} == "retry: ./second-round: attempt 2/5 failed: exit 2 after "*"; next attempt in 10ms" ]]
	[[ ${stderr_lines[3]} == "retry: ./second-round: succeeded on attempt 3 of 5 after "* ]]
}

# Attempt 1 wins after attempt 2 failed beside it and attempt 3 started:
# it ends once attempt 3 has started, and attempt 3 would run on.
early_wins() {
	cat >early <<-'EOF2'
	#!/bin/sh
	case $RETRY_ATTEMPT in
	1)	echo won
		i=0
		while [ ! -e started.3 ] && [ $i -lt 1000 ]; do
			sleep 0.05
			i=$((i + 1))
		done
		exit 0 ;;
	2)	exit 12 ;;
	*)	touch started.$RETRY_ATTEMPT
		exec sleep 30 ;;
	esac
	EOF2
	chmod +x early
}

@test "--hedge: when an earlier attempt wins, the closing line and --on-success name it, not the last started" {
	early_wins
	hook='echo "attempt=$RETRY_ATTEMPT status=$RETRY_STATUS last=$RETRY_LAST_STATUS" >>hook'
	run -0 --separate-stderr retry --hedge 100ms --stdin null \
	    --on-success "$hook" -- ./early
	assert_output "won"
	[[ ${stderr_lines[-1]} == "retry: ./early: succeeded on attempt 1 of 5 after "* ]]
	assert_equal "$(cat hook)" "attempt=1 status=0 last=0"
	rm -f started.3 hook
	run -0 --separate-stderr retry --hedge 100ms --stdin null \
	    --until-output '^won$' --on-success "$hook" -- ./early
	[[ ${stderr_lines[-1]} == "retry: ./early: succeeded on attempt 1 of 5 after "* ]]
	assert_equal "$(cat hook)" "attempt=1 status=0 last=0"
}

@test "--hedge: the deciding attempt's output that cannot be written is said, and the run ends with 125, as --hold-stdout's" {
	[ -w /dev/full ] || skip "no /dev/full"
	run -125 --separate-stderr bash -c "'$RETRY' --hedge 1s --stdin null -- echo hi >/dev/full"
	assert_equal "${stderr_lines[0]}" "retry: echo hi: stdout: cannot write the held output: No space left on device"
}

@test "--hedge: a stdout that retry was given closed is closed for every attempt" {
	run -1 --separate-stderr bash -c 'timeout 60 "$RETRY" -q --max 1 \
	    --hedge 50ms --stdin null -- sh -c "echo hi" >&-'
	[[ $stderr == *"I/O error"* || $stderr == *"Bad file descriptor"* ]]
}

@test "--hedge: the output rules judge each attempt by what it held: a hedge without the line fails beside the first, the next wins" {
	cat >ready <<-'EOF2'
	#!/bin/sh
	echo "$RETRY_ATTEMPT" >>calls
	case $RETRY_ATTEMPT in
	1) echo $$ >pid.1; exec sleep 30;;
	2) echo "not yet";;
	*) echo "warming up"; echo "state: ready" >&2;;
	esac
	EOF2
	chmod +x ready
	run -0 --separate-stderr retry --hedge 50ms --until-output 'ready$' \
	    --stdin null -- ./ready
	assert_output "warming up"
	assert_equal "$(wc -l <calls)" 3
	[[ ${stderr_lines[1]} == "retry: ./ready: attempt 2/5 failed: exit 0 after "*" (no line matched --output until); 1 other still running" ]]
	# The next hedge is due DUR after that failure, not after attempt 1
	# started.
	assert_equal "${stderr_lines[2]}" "retry: ./ready: 50ms after attempt 2 failed: started attempt 3 beside attempt 1"
	rm calls
	run -0 --separate-stderr retry --log-format json --hedge 50ms \
	    --until-output 'ready$' --stdin null -- ./ready
	assert_equal "$(grep '^{' <<<"$stderr" | jq -c 'select(.event == "hedge") | .after_failure_of' | tr '\n' ' ')" "null 2 "
	[[ $stderr == *"state: ready"* ]]
	assert_gone "$(cat pid.1)"
	# --match stdout: stderr's line is not read.
	rm calls
	run -124 --separate-stderr retry --hedge 50ms --until-output 'ready$' \
	    --match stdout --max 3 --timeout 2s --stdin null -- ./ready
	assert_equal "$(wc -l <calls)" 3
}

@test "--hedge: --delay-from-output reads the held output of the attempt that ends the round" {
	cat >asks <<-'EOF2'
	#!/bin/sh
	echo "$RETRY_ATTEMPT" >>calls
	[ "$RETRY_ATTEMPT" -ge 2 ] && exit 0
	echo "Retry-After: 0.2"
	exit 1
	EOF2
	chmod +x asks
	run -0 --separate-stderr retry --hedge 10s --immediate \
	    --delay-from-output 'Retry-After: ([0-9.]+)' --stdin null -- ./asks
	[[ ${stderr_lines[0]} == *"attempt 1/5 failed: exit 1 after "*"; next attempt in 200ms"* ]]
}

@test "--hedge: a hedge that ends with a --stop-on status stops the run; the others are cancelled" {
	cat >stops <<-'EOF2'
	#!/bin/sh
	[ "$RETRY_ATTEMPT" = 1 ] || exit 9
	echo $$ >pid.1
	exec sleep 30
	EOF2
	chmod +x stops
	run -9 --separate-stderr retry --hedge 50ms --stop-on 9 --stdin null \
	    -- ./stops
	[[ ${stderr_lines[1]} == "retry: ./stops: attempt 1 cancelled after "*" (attempt 2 ended the run)" ]]
	assert_gone "$(cat pid.1)"
}

@test "--hedge: no hedge starts past --budget" {
	cat >slow <<-'EOF2'
	#!/bin/sh
	echo "$RETRY_ATTEMPT" >>calls
	sleep 1
	EOF2
	chmod +x slow
	run -0 --separate-stderr retry --hedge 300ms --budget 100ms \
	    --stdin null -- ./slow
	assert_equal "$(wc -l <calls)" 1
	refute_output --partial "beside"
	[[ $stderr != *beside* ]]
}

@test "--hedge: each attempt reads the replayed stdin from its start" {
	cat >reader <<-'EOF2'
	#!/bin/sh
	read -r x
	echo "$RETRY_ATTEMPT:$x"
	[ "$RETRY_ATTEMPT" -ge 2 ] || exec sleep 30
	EOF2
	chmod +x reader
	run -0 --separate-stderr bash -c 'printf "abc\n" |
	    timeout 60 "$RETRY" -q --hedge 50ms --stdin replay -- ./reader'
	assert_output "2:abc"
	# A file: each from where retry found it, none moving the other.
	printf 'skipped\nfrom here\n' >in
	run -0 --separate-stderr bash -c '{ read -r _; timeout 60 "$RETRY" -q \
	    --hedge 50ms --stdin replay -- ./reader; } <in'
	assert_output "2:from here"
}

@test "--hedge: a finite pipe is replayed byte for byte to each attempt, however much of it there is" {
	head -c 3000000 /dev/urandom >data
	# The second wins only once the first has its sum: else, on a busy
	# host, the first can be cancelled before it has read the whole.
	cat >reader <<-'EOF2'
	#!/bin/sh
	cksum >sum.$RETRY_ATTEMPT.part && mv sum.$RETRY_ATTEMPT.part sum.$RETRY_ATTEMPT
	[ "$RETRY_ATTEMPT" -ge 2 ] || exec sleep 30
	i=0
	while [ ! -e sum.1 ] && [ $i -lt 1200 ]; do sleep 0.05; i=$((i + 1)); done
	EOF2
	chmod +x reader
	run -0 --separate-stderr bash -c 'cat data |
	    timeout 60 "$RETRY" -q --hedge 50ms --stdin replay -- ./reader'
	cksum <data >want
	cmp want sum.1
	cmp want sum.2
}

# In the tests that feed retry yes(1), a file size limit (64 MiB, in
# 1 KiB blocks) bounds its spools: a retry that kept all of the input
# would fail at once, not fill the machine's memory.
SPOOL_LIMIT=65536

@test "--hedge: a replayed pipe that does not end is streamed: the first attempt starts at once and reads it as it comes" {
	run -0 --separate-stderr bash -c 'yes 2>/dev/null | (ulimit -f $1
	    exec timeout 30 "$RETRY" -q --hedge 100ms --stdin replay -- \
	    head -c 1000000) | wc -c' _ "$SPOOL_LIMIT"
	assert_output 1000000
	# A hedge reads what was recorded, then the input as it arrives; the
	# attempt it runs beside, which stopped reading, does not hold it up.
	run -0 --separate-stderr bash -c 'yes 2>/dev/null | (ulimit -f $1
	    exec timeout 30 "$RETRY" -q --hedge 100ms --stdin replay -- sh -c "
	    if [ \$RETRY_ATTEMPT = 1 ]; then
		head -c 100 >/dev/null; exec sleep 30
	    fi; head -c 5000000 | cksum")' _ "$SPOOL_LIMIT"
	assert_output "$(yes | head -c 5000000 | cksum)"
}

@test "--hedge: attempts that stop reading a replayed pipe hold its writer back: retry keeps no more than a little of it" {
	cat >stalls <<-'EOF2'
	#!/bin/sh
	head -c 100 >/dev/null
	echo "$RETRY_ATTEMPT" >>calls
	exec sleep 30
	EOF2
	chmod +x stalls
	yes 2>/dev/null | (ulimit -f "$SPOOL_LIMIT"; exec setsid "$RETRY" \
	    --hedge 100ms --stdin replay -- ./stalls) >out 2>err 3>&- &
	RETRY_PID=$!
	wait_lines calls 2
	# Both run, and the title says so, not before.
	title=$(ps -o args= -p "$RETRY_PID")
	assert_equal "${title##*./stalls }" "[attempts 1-2/5 running]"
	# yes writes gigabytes a second: a pipe or two of it, and no more,
	# however long they wait.
	sleep 0.5
	local held
	held=$(spooled "$RETRY_PID")
	[ "$held" -le 1048576 ] || fail "retry holds $held bytes"
	kill -TERM "$RETRY_PID"
	wait_status "$RETRY_PID"
	assert_equal "$status" 143
	assert_regex "$(tail -1 err)" "^retry: \./stalls: SIGTERM sent on to the 2 attempts in flight; attempt [12]/5 ended: killed by SIGTERM after .*; stopping$"
}

@test "--hedge: SIGTERM while the first attempt reads a replayed pipe that has not ended is sent on to it, and said so" {
	cat >first <<-'EOF2'
	#!/bin/sh
	head -c 100 >/dev/null
	echo $$ >pid.$RETRY_ATTEMPT
	exec sleep 30
	EOF2
	chmod +x first
	yes 2>/dev/null | (ulimit -f "$SPOOL_LIMIT"; exec setsid "$RETRY" \
	    --hedge 30s --stdin replay --log-file log.json --log-format json \
	    -- ./first) >out 2>err 3>&- &
	RETRY_PID=$!
	wait_lines pid.1
	kill -TERM "$RETRY_PID"
	wait_status "$RETRY_PID"
	assert_equal "$status" 143
	assert_gone "$(cat pid.1)"
	run -0 jq -c '[.event, .attempt, .status, .received, .forwarded]' log.json
	assert_output '["start",1,null,null,null]
["signal",1,143,"SIGTERM",true]'
	assert_equal "$(jq -r .event err)" signal
}

@test "--hedge: the first attempt starts at once when its replayed stdin has not ended, and --deadline ends it as a single attempt's" {
	mkfifo in
	# The writer never ends stdin.
	sleep 60 >in 3>&- &
	local w=$!
	run -124 --separate-stderr timeout -s KILL 30 "$RETRY" --hedge 1s \
	    --stdin replay --deadline 1s -- sh -c 'echo ran >>calls; cat >/dev/null' <in
	[[ ${stderr_lines[0]} == "retry: $(command_name sh -c 'echo ran >>calls; cat >/dev/null'): giving up after 1 attempt in "*"s: timed out; the 1s deadline is reached" ]]
	kill "$w"
	assert_equal "$(cat calls)" ran
}

@test "--hedge: refused without --stdin replay or null, with --foreground, and with --exit-on-match" {
	run -125 retry --hedge 1s -- true
	assert_output "retry: --hedge: needs --stdin replay or --stdin null (attempts side by side cannot share one stdin)
Try 'retry --help'."
	run -125 retry --hedge 1s --stdin null --foreground -- true
	assert_line --index 0 "retry: --hedge: conflicts with --foreground (attempts side by side never hold the terminal)"
	run -125 retry --hedge 1s --stdin null --until-output ok \
	    --exit-on-match -- true
	assert_line --index 0 "retry: --hedge: conflicts with --exit-on-match (a hedged attempt's output is matched once it ends)"
	run -125 retry --hedge 1s:1 --stdin null -- true
	assert_line --index 0 "retry: --hedge: '1s:1': N must be a whole number from 2 to 16"
	run -125 retry --hedge 1s:17 --stdin null -- true
	assert_line --index 0 "retry: --hedge: '1s:17': N must be a whole number from 2 to 16"
	run -125 retry --hedge x --stdin null -- true
	assert_line --index 0 --partial "retry: --hedge: 'x': "
}

@test "--hedge: attempts never get the terminal: no controlling terminal in a hedged attempt" {
	command -v script >/dev/null || skip "no script(1)"
	run -0 timeout 60 script -qec "$RETRY -q --hedge 50ms --stdin null -- sh -c 'if [ \$RETRY_ATTEMPT = 1 ]; then exec sleep 30; fi; tty || true'" /dev/null
	assert_output --partial "not a tty"
}

@test "--hedge: SIGTERM to retry during a hedge reaches every attempt, all are reaped, retry dies of it" {
	cat >both-wait <<-'EOF2'
	#!/bin/sh
	echo $$ >pid.$RETRY_ATTEMPT
	exec sleep 30
	EOF2
	chmod +x both-wait
	timeout 60 "$RETRY" -q --hedge 50ms --stdin null -- ./both-wait 3>&- &
	local rpid=$! st=0
	poll_until 10 eval '[ -s pid.1 ] && [ -s pid.2 ]'
	kill -TERM "$rpid"
	wait "$rpid" || st=$?
	assert_equal "$st" 143
	assert_gone "$(cat pid.1)" "$(cat pid.2)"
}

@test "--hedge: SIGTERM at any moment of back-to-back hedged rounds ends the run, every time" {
	# Attempts that fail after 0 to 20 ms, hedged after 5 ms: TERM
	# comes while attempts start, run, are reaped, or between rounds.
	cat >brief <<-'EOF2'
	#!/bin/sh
	sleep "0.0$(($$ % 3))"
	exit 1
	EOF2
	chmod +x brief
	for i in $(seq 25); do
		start_retry -q --max 100000 --immediate --hedge 5ms:3 --stdin null -- ./brief
		sleep "0.$((RANDOM % 200))"
		kill -TERM "$RETRY_PID"
		wait_status "$RETRY_PID"
		[ "$status" -eq 143 ] || fail "run $i ended with $status: $(cat err)"
	done
}

@test "--hedge: a signal sent on to several attempts in flight is said so in the end line" {
	cat >both-wait <<-'EOF2'
	#!/bin/sh
	echo $$ >pid.$RETRY_ATTEMPT
	exec sleep 30
	EOF2
	chmod +x both-wait
	start_retry --hedge 50ms:3 --stdin null -- ./both-wait
	wait_lines pid.3
	kill -TERM "$RETRY_PID"
	wait_status "$RETRY_PID"
	assert_equal "$status" 143
	assert_gone "$(cat pid.1)" "$(cat pid.2)" "$(cat pid.3)"
	run -0 tail -1 err
	assert_output --regexp '^retry: \./both-wait: SIGTERM sent on to the 3 attempts in flight; attempt [123]/5 ended: killed by SIGTERM after .*; stopping$'
}

@test "--hedge: INT to retry's process group (Ctrl-C) during a hedge: sent on to every attempt, all reaped, retry dies of INT" {
	cat >both-wait <<-'EOF2'
	#!/bin/sh
	echo $$ >pid.$RETRY_ATTEMPT
	exec sleep 30
	EOF2
	chmod +x both-wait
	start_retry --hedge 50ms --stdin null -- ./both-wait
	wait_lines pid.1
	wait_lines pid.2
	kill -INT -- -"$RETRY_PID"
	wait_status "$RETRY_PID"
	assert_equal "$status" 130
	assert_gone "$(cat pid.1)" "$(cat pid.2)"
	assert_equal "$(grep -c cancelled "$BATS_TEST_TMPDIR/err")" 0
}

@test "--hedge: SIGTSTP to retry (Ctrl-Z) stops every attempt with it; SIGCONT continues them, and the run ends as usual" {
	cat >both-wait <<-'EOF2'
	#!/bin/sh
	echo $$ >pid.$RETRY_ATTEMPT
	while [ ! -e go ]; do sleep 0.05; done
	echo "done $RETRY_ATTEMPT"
	EOF2
	chmod +x both-wait
	# A process group of its own in the test's session, not orphaned: the
	# kernel stops it by SIGTSTP, as a shell's job.
	set -m
	"$RETRY" -q --hedge 50ms --stdin null -- ./both-wait \
	    </dev/null >out 2>err 3>&- &
	local rpid=$! st=0
	set +m
	wait_lines pid.1
	wait_lines pid.2
	kill -TSTP "$rpid"
	wait_state T "$rpid" "$(cat pid.1)" "$(cat pid.2)"
	kill -CONT "$rpid"
	wait_state '!T' "$(cat pid.1)" "$(cat pid.2)"
	touch go
	wait_status "$rpid"
	assert_equal "$status" 0
	run cat out
	assert_output --regexp '^done [12]$'
	assert_gone "$(cat pid.1)" "$(cat pid.2)"
}

@test "--hedge: Ctrl-Z at a terminal stops retry (the shell says 148) and every attempt; fg continues them all" {
	cat >both-wait <<-'EOF2'
	#!/bin/sh
	echo $$ >pid.$RETRY_ATTEMPT
	while [ ! -e go ]; do sleep 0.05; done
	EOF2
	chmod +x both-wait
	tmux_shell 200 50
	type_line "cd '$BATS_TEST_TMPDIR' && '$RETRY' -q --hedge 50ms --stdin null -- ./both-wait"
	wait_lines pid.1
	wait_lines pid.2
	local rpid
	rpid=$(ps -o ppid= -p "$(cat pid.1)" | tr -d ' ')
	keys C-z
	wait_state T "$rpid" "$(cat pid.1)" "$(cat pid.2)"
	type_line 'echo "stopped $?" >stopped'
	wait_lines stopped
	assert_equal "$(cat stopped)" "stopped 148"
	type_line fg
	wait_state '!T' "$rpid" "$(cat pid.1)" "$(cat pid.2)"
	touch go
	type_line 'echo "status $?" >status'
	wait_lines status
	assert_equal "$(cat status)" "status 0"
}

@test "--hedge: JSON events for the hedge, the winner and the cancelled" {
	run -0 --separate-stderr retry --log-format json --hedge 50ms \
	    --stdin null -- ./slow-first
	stderr=$(grep '^{' <<<"$stderr")
	assert_equal "$(jq -r .event <<<"$stderr" 2>/dev/null | grep -v null | tr '\n' ' ')" "hedge hedge_won cancelled "
	assert_equal "$(head -1 <<<"$stderr" | jq -c '[.attempt, .beside, .hedge_ms, .after_failure_of]')" "[2,1,50,null]"
	assert_equal "$(sed -n 3p <<<"$stderr" | jq -c '[.attempt, .winner]')" "[1,2]"
}

@test "--hedge --share: a hedge takes a token of the budget; with none left, no hedge starts" {
	STORE=$BATS_TEST_TMPDIR/store
	mkdir -m 700 "$STORE"
	export RETRY_SHARE_STORE=file:$STORE
	run -0 --separate-stderr retry -q --share h --share-budget 1 \
	    --share-window 1d \
	    --hedge 50ms --stdin null -- ./slow-first
	assert_output "out of 2, hedged=1"
	# The hedge took the one token; the success gave back R (0.2).
	assert_equal "$(field h tokens)" 0.2
	cat >slow <<-'EOF2'
	#!/bin/sh
	echo "$RETRY_ATTEMPT" >>calls.slow
	sleep 1
	EOF2
	chmod +x slow
	run -0 --separate-stderr retry --share h --share-budget 1 \
	    --share-window 1d --hedge 50ms --stdin null -- ./slow
	assert_equal "$(wc -l <calls.slow)" 1
	[[ $stderr != *beside* ]]
}

@test "--hedge --share on Redis: a hedge takes a token there too" {
	noredis && skip "a build without Redis"
	redis_start
	export RETRY_SHARE_STORE=$REDIS_URL
	run -0 --separate-stderr retry -q --share h --share-budget 1 \
	    --share-window 1d --hedge 50ms --stdin null -- ./slow-first
	assert_output "out of 2, hedged=1"
	assert_equal "$(field h tokens)" 0.2
}

@test "--hedge --share: an open breaker starts no hedge" {
	STORE=$BATS_TEST_TMPDIR/store
	mkdir -m 700 "$STORE"
	export RETRY_SHARE_STORE=file:$STORE
	cat >opens <<-'EOF2'
	#!/bin/sh
	echo "$RETRY_ATTEMPT" >>calls.open
	"$RETRY" -q --share b --share-breaker 1:1h -n 1 -- false
	sleep 3
	EOF2
	chmod +x opens
	# The breaker opens at once, the hedge would start after 2s.
	run -0 --separate-stderr retry --share b --share-breaker 1:1h \
	    --hedge 2s --stdin null -- ./opens
	assert_equal "$(wc -l <calls.open)" 1
	[[ $stderr != *beside* ]]
	assert_equal "$(field b breaker)" open
}

@test "--hedge --share: an attempt that probes the half-open breaker runs alone, and its success closes it" {
	STORE=$BATS_TEST_TMPDIR/store
	mkdir -m 700 "$STORE"
	export RETRY_SHARE_STORE=file:$STORE
	run -1 retry -q --share p --share-breaker 1:1s -n 1 -- false
	assert_equal "$(field p breaker)" open
	sleep 1.1
	cat >probe <<-'EOF2'
	#!/bin/sh
	echo "$RETRY_ATTEMPT" >>calls.probe
	sleep 1
	EOF2
	chmod +x probe
	run -0 --separate-stderr retry --share p --share-breaker 1:1s \
	    --hedge 50ms --stdin null -- ./probe
	assert_equal "$(wc -l <calls.probe)" 1
	[[ $stderr != *beside* ]]
	assert_equal "$(field p breaker)" closed
}

@test "--hedge --dry-run: says when hedges would start" {
	run -0 retry --dry-run --hedge 2s:3 --stdin null --max 3 --fixed 1s -- true
	assert_output --partial "each attempt still running after 2s: the next starts beside it, up to 3 at once (the third 4s after the first"
}

@test "--hedge --dry-run: says only what can happen: no third with two at once, no hedge under --max 1" {
	run -0 retry --dry-run --hedge 2s --stdin null -- true
	assert_line --index 6 "each attempt still running after 2s: the next starts beside it, up to 2 at once; the first to succeed wins, and each counts toward --max"
	run -0 retry --dry-run --hedge 2s:3 --max 2 --stdin null -- true
	assert_line --index 3 "each attempt still running after 2s: the next starts beside it, up to 2 at once; the first to succeed wins, and each counts toward --max"
	run -0 retry --dry-run --hedge 2s:3 --max 1 --stdin null -- true
	assert_lines "attempt  delay      starts at" "1        -          0s" \
	    "no hedge: --max 1 allows one attempt"
}

@test "--hedge: an attempt that opens the terminal finds none, and is not stopped for reading it" {
	command -v script >/dev/null || skip "no script(1)"
	run -0 timeout 60 script -qec "$RETRY -q --hedge 50ms --stdin null -- sh -c 'if [ \$RETRY_ATTEMPT = 1 ]; then exec sleep 30; fi; if true </dev/tty 2>/dev/null; then echo has-tty; else echo no-tty; fi'" /dev/null
	assert_output --partial "no-tty"
	refute_output --partial "has-tty"
}

@test "--hedge: --timeout ends each attempt; all reaped, the run gives up with 124" {
	cat >hang <<-'EOF2'
	#!/bin/sh
	echo $$ >pid.$RETRY_ATTEMPT
	exec sleep 30
	EOF2
	chmod +x hang
	run -124 --separate-stderr retry --hedge 50ms --timeout 500ms --max 2 \
	    --stdin null -- ./hang
	assert_gone "$(cat pid.1)" "$(cat pid.2)"
	[[ ${stderr_lines[-1]} == *"giving up after 2 attempts in "*": timed out" ]]
}

@test "--hedge: the winner's output whose reader has gone ends the run as a pipeline, with 141" {
	# The attempt writes once the reader has gone (its pid is no more).
	cat >late-writer <<-'EOF2'
	#!/bin/sh
	while ! [ -s reader.pid ] || kill -0 "$(cat reader.pid)" 2>/dev/null; do
		sleep 0.02
	done
	seq 1 1000
	EOF2
	chmod +x late-writer
	run bash -c "timeout 60 '$RETRY' --hedge 30s --stdin null --result-file res -- ./late-writer 2>err | sh -c 'echo \$\$ >reader.pid'; echo \${PIPESTATUS[0]}"
	assert_output 141
	# Nothing was said of a success.
	refute grep -q '^result=success' res
}
