#!/usr/bin/env bats
# -t/--timeout, --signal, -k/--kill-after and --budget with real processes.
bats_require_minimum_version 1.5.0
load test_helper/common
load test_helper/procs

# An attempt that counts its runs in $1/n and, from run $2 on, succeeds;
# before that it sleeps "forever" (to be timed out).
slow_until='n=$(cat "$0/n" 2>/dev/null || echo 0); n=$((n + 1))
	echo $n >"$0/n"; [ $n -ge "$1" ] && exit 0; exec sleep 100'

@test "a timeout kills the attempt's whole process group and gives 124" {
	local d=$BATS_TEST_TMPDIR t0 t1
	t0=$(now_ms)
	local script='
	    echo $$ >"$0/leader"
	    sleep 100 & echo $! >"$0/bg"
	    sleep 100'
	run -124 --separate-stderr retry -n 1 -T 0.5 -- sh -c "$script" "$d"
	t1=$(now_ms)
	assert_regex "$stderr" \
	    "^retry: $(named sh -c "$script" "$d"): giving up after 1 attempt in [0-9.]+m?s: timed out\$"
	# Not before the timeout; long before the 100s, on a busy host too.
	((t1 - t0 >= 450 && t1 - t0 < 15000))
	assert_gone "$(cat "$d/leader")" "$(cat "$d/bg")"
	assert_group_gone "$(cat "$d/leader")"
}

@test "an attempt that ends before its timeout is left alone" {
	local t0 t1
	t0=$(now_ms)
	run -3 retry -n 1 -T 30 -- sh -c 'sleep 0.2; exit 3'
	t1=$(now_ms)
	((t1 - t0 < 5000))
}

@test "--timeout 0 is no timeout, as timeout(1)'s 0 is" {
	# The attempt ends by itself, with its own status, as under
	# coreutils' timeout 0; the last --timeout given counts.
	run -3 timeout 0 sh -c 'sleep 0.2; exit 3'
	run -3 --separate-stderr retry -n 1 -T 0 -- sh -c 'sleep 0.2; exit 3'
	assert_regex "$stderr" "giving up after 1 attempt in [0-9.]+m?s: exit 3\$"
	run -0 retry -n 1 --timeout=0s -- sh -c 'sleep 0.2'
	run -0 retry -n 1 -T 0.05 --timeout 0ms -- sh -c 'sleep 0.2'
}

@test "a timed-out attempt is retried, and the next one can succeed" {
	local d=$BATS_TEST_TMPDIR
	# 1s: room for the second attempt to end on a busy host.
	run -0 --separate-stderr retry -n 3 -d 0 -T 1 -- \
	    sh -c "$slow_until" "$d" 2
	local name
	name=$(named sh -c "$slow_until" "$d" 2)
	assert_regex "$stderr" \
	    "^retry: $name: attempt 1/3 failed: timed out after [0-9.]+m?s; next attempt in 0s
retry: $name: succeeded on attempt 2 of 3 after [0-9.]+m?s\$"
	assert_equal "$(cat "$d/n")" 2
}

@test "attempts that all time out give up with 124" {
	run -124 --separate-stderr retry -n 2 -d 0 -T 0.2 -- sleep 100
	assert_regex "${stderr_lines[0]}" \
	    '^retry: sleep 100: attempt 1/2 failed: timed out after'
	assert_regex "${stderr_lines[1]}" \
	    '^retry: sleep 100: giving up after 2 attempts in [0-9.]+m?s: timed out$'
}

@test "a timed-out attempt is 124 even if it then exits 0" {
	run -124 retry -n 1 -T 0.2 -k 10 -- \
	    sh -c 'trap "exit 0" TERM; while :; do sleep 0.05; done'
}

@test "kill-after escalates to KILL when the command ignores the signal" {
	local d=$BATS_TEST_TMPDIR t0 t1
	t0=$(now_ms)
	run -124 retry -n 1 -T 1 -k 1 -- sh -c '
	    trap "echo TERM >>\"$0/got\"" TERM
	    echo $$ >"$0/leader"
	    sleep 100 & echo $! >"$0/bg"
	    while :; do sleep 0.05; done' "$d"
	t1=$(now_ms)
	# TERM first (the trap saw it), KILL 1s later: not at once, and
	# not after the default 5s either (6s and more).  The 1s timeout leaves the attempt
	# time to set its trap on a busy host.
	assert_equal "$(head -n 1 "$d/got")" TERM
	((t1 - t0 >= 1950 && t1 - t0 < 5900))
	assert_gone "$(cat "$d/leader")" "$(cat "$d/bg")"
}

@test "kill-after defaults to 5s" {
	local t0 t1
	t0=$(now_ms)
	# The 1s timeout leaves the attempt time to ignore TERM on a busy host.
	run -124 retry -n 1 -T 1 -- sh -c 'trap "" TERM; sleep 100'
	t1=$(now_ms)
	((t1 - t0 >= 6000 && t1 - t0 < 20000))
}

@test "--kill-after 0 sends KILL right after the signal" {
	local d=$BATS_TEST_TMPDIR t0 t1
	t0=$(now_ms)
	run -124 retry -n 1 -T 0.3 -k 0 -- sh -c '
	    trap "" TERM; echo $$ >"$0/leader"; sleep 100' "$d"
	t1=$(now_ms)
	# Well before the default kill-after's 5s, on a busy host too.
	((t1 - t0 < 4500))
	assert_gone "$(cat "$d/leader")"
}

@test "--signal INT by name is sent on timeout and does not end the run" {
	local d=$BATS_TEST_TMPDIR
	# An attempt that times out with INT is a timeout (124, retried),
	# not a Ctrl-C (which would stop the run).
	local script='[ -e "$0/once" ] && exit 0; touch "$0/once"
		trap "echo INT >\"$0/got\"; exit 0" INT
		while :; do sleep 0.05; done'
	run -0 --separate-stderr retry_dfl -n 2 -d 0 -T 1 --signal INT -- \
	    sh -c "$script" "$d"
	assert_equal "$(cat "$d/got")" INT
	assert_regex "$stderr" "^retry: $(named sh -c "$script" "$d"): attempt 1/2 failed: timed out after"
}

@test "--signal SIGINT ending a run of timeouts gives 124, not 130" {
	run -124 retry_dfl -n 2 -d 0 -T 0.2 --signal SIGINT -- sleep 100
}

@test "--signal 9 by number kills without waiting for kill-after" {
	local d=$BATS_TEST_TMPDIR t0 t1
	t0=$(now_ms)
	run -124 retry -n 1 -T 0.3 --signal 9 -k 30 -- sh -c '
	    trap "" TERM; echo $$ >"$0/leader"; sleep 100' "$d"
	t1=$(now_ms)
	((t1 - t0 < 15000))
	assert_gone "$(cat "$d/leader")"
}

@test "--signal takes names in any case, with or without SIG" {
	local d=$BATS_TEST_TMPDIR
	run -124 retry -n 1 -T 1 --signal sigusr1 -- sh -c '
	    trap "echo USR1 >\"$0/got\"; exit 0" USR1
	    while :; do sleep 0.05; done' "$d"
	assert_equal "$(cat "$d/got")" USR1
	run -124 retry -n 1 -T 0.2 --signal kill -- sleep 100
}

@test "the budget cuts the first attempt's timeout" {
	local t0 t1
	t0=$(now_ms)
	run -124 --separate-stderr retry -n 5 -b 0.5 -T 30 -- sleep 100
	t1=$(now_ms)
	((t1 - t0 >= 450 && t1 - t0 < 15000))
	assert_regex "$stderr" 'timed out'
}

@test "the budget cuts a later attempt's timeout to what remains" {
	local d=$BATS_TEST_TMPDIR t0 t1
	t0=$(now_ms)
	# Attempt 1 fails at once; attempt 2 starts after 0.2s and hangs: its
	# 30s timeout is cut to the 1.3s left of the 1.5s budget.
	local script='
	    [ -e "$0/once" ] && exec sleep 100; touch "$0/once"; exit 1'
	run -124 --separate-stderr retry -n 5 -b 1.5 -d 0.2 -T 30 -- \
	    sh -c "$script" "$d"
	t1=$(now_ms)
	((t1 - t0 >= 1400 && t1 - t0 < 15000))
	assert_regex "${stderr_lines[0]}" "^retry: $(named sh -c "$script" "$d"): attempt 1/5 failed: exit 1"
	assert_regex "${stderr_lines[1]}" \
	    "^retry: $(named sh -c "$script" "$d"): giving up after 2 attempts in [0-9.]+m?s: timed out"
}

@test "--preserve-status: a timed-out attempt's status is the command's, still reported as timed out" {
	run -143 --separate-stderr retry -n 2 -d 0 -T 0.2 --preserve-status \
	    --log-format json -- sleep 100
	assert_equal "${#stderr_lines[@]}" 2
	local l
	for l in "${stderr_lines[@]}"; do
		assert_regex "$l" '"status":143,"signal":null,"timed_out":true'
	done
	run -143 --separate-stderr retry -n 1 -T 0.2 --preserve-status \
	    -- sleep 100
	assert_regex "$stderr" 'giving up after 1 attempt in [0-9.]+m?s: timed out \(status 143\)$'
}

@test "--preserve-status: a command that handles the signal ends with its own status" {
	local cmd='trap "exit 3" TERM; while :; do sleep 0.05; done'
	run -3 retry -n 1 -T 0.2 --preserve-status -- sh -c "$cmd"
	# Judged as any status: --stop-on stops on it, --retry-on retries it.
	run -3 --separate-stderr retry -n 3 -d 0 -T 0.2 --preserve-status \
	    --stop-on 3 -- sh -c "$cmd"
	assert_regex "${stderr_lines[-1]}" \
	    'stopping: timed out \(status 3\) is a --stop-on status$'
	run -3 --separate-stderr retry -n 3 -d 0 -T 0.2 --preserve-status \
	    --retry-on 1,2 -- sh -c "$cmd"
	assert_regex "${stderr_lines[-1]}" \
	    'stopping: timed out \(status 3\) is not a --retry-on status$'
	run -3 --separate-stderr retry -n 2 -d 0 -T 0.2 --preserve-status \
	    --retry-on 3 -- sh -c "$cmd"
	assert_regex "${stderr_lines[-1]}" \
	    'giving up after 2 attempts in [0-9.]+m?s: timed out \(status 3\)$'
	# A command that exits 0 on the signal succeeds, as its status says.
	run -0 retry -n 3 -d 0 -T 0.2 --preserve-status -- \
	    sh -c 'trap "exit 0" TERM; while :; do sleep 0.05; done'
}

@test "--preserve-status with --signal INT: 130, and the run goes on" {
	run -130 --separate-stderr retry_dfl -n 2 -d 0 -T 0.2 --signal INT \
	    --preserve-status -- sleep 100
	assert_regex "${stderr_lines[0]}" 'attempt 1/2 failed: timed out \(status 130\)'
	assert_regex "${stderr_lines[1]}" 'giving up after 2 attempts'
}

@test "--foreground: the attempt stays in retry's process group" {
	local d=$BATS_TEST_TMPDIR
	setsid "$RETRY" -n 1 --foreground -- sh -c \
	    'ps -o pgid= -p $$ >"$0/pg"; echo $PPID >"$0/retry"' "$d" \
	    </dev/null 3>&-
	# setsid made retry its group's leader: the command's group is
	# retry's pid.
	assert_equal "$(tr -d ' ' <"$d/pg")" "$(cat "$d/retry")"
	setsid "$RETRY" -n 1 -- sh -c \
	    'ps -o pgid= -p $$ >"$0/pg"; echo $$ >"$0/self"' "$d" \
	    </dev/null 3>&-
	assert_equal "$(tr -d ' ' <"$d/pg")" "$(cat "$d/self")"
}

@test "--foreground: a timeout signals the command, not its children" {
	local d=$BATS_TEST_TMPDIR
	run -124 retry -n 1 -T 0.3 --foreground -- sh -c \
	    'sleep 100 >/dev/null 2>&1 3>&- & echo $! >"$0/child"; wait' "$d"
	alive "$(cat "$d/child")"
	kill "$(cat "$d/child")"
	# Without --foreground, its whole group.
	run -124 retry -n 1 -T 0.3 -- sh -c \
	    'sleep 100 >/dev/null 2>&1 3>&- & echo $! >"$0/child"; wait' "$d"
	assert_gone "$(cat "$d/child")"
}

@test "--foreground: --kill-after's KILL reaches the command, not its children" {
	local d=$BATS_TEST_TMPDIR
	run -124 retry -n 1 -T 0.2 -k 0.2 --foreground -- sh -c \
	    'trap "" TERM; sleep 100 >/dev/null 2>&1 3>&- & echo $! >"$0/child"; while :; do sleep 0.05; done' "$d"
	alive "$(cat "$d/child")"
	kill -KILL "$(cat "$d/child")"
}

@test "--foreground: a USR1 sent on reaches the command alone" {
	local d=$BATS_TEST_TMPDIR
	start_retry -n 1 --foreground -- sh -c '
	    trap "echo usr1 >>\"$0/got\"; exit 0" USR1
	    sh -c "trap \"echo child >>\\\"$0/got\\\"\" USR1; echo \$\$ >\"$0/child\"; while :; do sleep 0.05; done" 3>&- &
	    echo $$ >"$0/cmd"
	    while :; do sleep 0.05; done' "$d"
	wait_lines "$d/cmd"
	wait_lines "$d/child"
	kill -USR1 "$RETRY_PID"
	wait_status "$RETRY_PID"
	assert_equal "$status" 0
	assert_equal "$(cat "$d/got")" usr1
	kill "$(cat "$d/child")"
}
