# Helpers for tests that use real processes and real signals.
# shellcheck shell=bash
# RETRY_PID and status are set for the tests that load this file.
# shellcheck disable=SC2034

# A process that has not exited. A zombie counts as gone: orphans are
# reaped by PID 1 whenever it gets round to it.
alive() {
	local st
	st=$(ps -o stat= -p "$1" 2>/dev/null) || return 1
	[[ $st != Z* ]]
}

# Whether any process of group $1 is still running (zombies excepted).
group_alive() {
	ps -eo pgid=,stat= | awk -v g="$1" \
	    '$1 == g && $2 !~ /^Z/ { found = 1 } END { exit !found }'
}

# Whether none of the processes given is alive.
none_alive() {
	local p
	for p in "$@"; do
		! alive "$p" || return 1
	done
}

# Polls, up to 5 s, until none of the processes is left; fails naming the
# survivors otherwise.
assert_gone() {
	poll_until 5 none_alive "$@" 2>/dev/null && return
	local p left=
	for p in "$@"; do
		alive "$p" && left+=" $p"
	done
	ps -o pid,pgid,ppid,stat,args -p "${left# }" >&2
	fail "still running:$left"
}

# Polls, up to 5 s, until no process of the group is left.
assert_group_gone() {
	poll_until 5 not group_alive "$1" 2>/dev/null && return
	ps -eo pid,pgid,stat,args | awk -v g="$1" 'NR == 1 || $2 == g' >&2
	fail "process group $1 is still running"
}

# The state letter of process $1 (/proc/PID/stat's third field).
state_of() {
	local f
	read -ra f <"/proc/$1/stat" 2>/dev/null || return 1
	printf '%s\n' "${f[2]}"
}

# The state of process $1 as a job sees it: T also for a parent that
# waits in vfork (state D, as dash waits for each command it starts) for
# a child that is stopped, since it cannot go on before that child does.
job_state_of() {
	local st c kids=()
	st=$(state_of "$1")
	if [ "$st" = D ]; then
		read -ra kids <"/proc/$1/task/$1/children" 2>/dev/null
		for c in "${kids[@]}"; do
			[ "$(state_of "$c")" != T ] || st=T
		done
	fi
	printf '%s\n' "$st"
}

# Whether every process given but the first word is in state $1 (T:
# stopped, as job_state_of says) or, with !T, none is.
in_state() {
	local want=$1 p
	shift
	for p in "$@"; do
		case $want in
		!*) [ "$(job_state_of "$p")" != "${want#!}" ] || return 1 ;;
		*) [ "$(job_state_of "$p")" = "$want" ] || return 1 ;;
		esac
	done
}

# Waits, up to 10 s, until every process given is in state $1 (T:
# stopped) or, with !T, none is.
wait_state() {
	local want=$1 p
	shift
	poll_until 10 in_state "$want" "$@" 2>/dev/null && return
	for p in "$@"; do
		echo "$p: $(job_state_of "$p")" >&2
	done
	fail "not all in state $want: $*"
}

# Whether process $1's group has its terminal (the foreground group:
# /proc/PID/stat's tpgid is its pgrp).
in_foreground() {
	local f
	read -ra f <"/proc/$1/stat" 2>/dev/null && [ "${f[7]}" = "${f[4]}" ]
}

# Waits, up to 10 s, until process $1's group has the terminal.
wait_foreground() {
	poll_until 10 in_foreground "$1" 2>/dev/null && return
	fail "the group of $1 did not get the terminal"
}

# Starts retry in the background in a session (and process group) of its
# own, with HUP, INT and QUIT at their defaults even when the suite runs
# as a background job (INT and QUIT ignored) or under nohup (HUP ignored):
# retry keeps a signal ignored that it was started with. stderr goes to
# $BATS_TEST_TMPDIR/err. Sets RETRY_PID.
start_retry() {
	setsid env --default-signal=HUP,INT,QUIT "$RETRY" "$@" \
	    </dev/null >"$BATS_TEST_TMPDIR/out" 2>"$BATS_TEST_TMPDIR/err" 3>&- &
	RETRY_PID=$!
}

# Waits, up to 20 s, for the background process $1 to end and sets
# status to its wait status; kills it and fails if it does not end.
wait_status() {
	if ! poll_until 20 not alive "$1" 2>/dev/null; then
		kill -KILL "$1"
		fail "process $1 did not end"
		return
	fi
	status=0
	wait "$1" || status=$?
}

# Waits for the background process PID and asserts its exit status.
assert_waited() {
	local pid=$1 want=$2 st=0
	wait "$pid" || st=$?
	assert_equal "$st" "$want"
}

# retry with INT and QUIT at their defaults (a suite run as a background
# job has them ignored), bounded in time.
retry_dfl() {
	timeout 60 env --default-signal=INT,QUIT "$RETRY" "$@"
}

# Each test gets a TMPDIR of its own in its scratch directory $D, so that
# a file retry leaves behind shows.
own_tmpdir() {
	D=$BATS_TEST_TMPDIR
	mkdir -p "$D/tmp"
	export TMPDIR=$D/tmp
}

# Kills the processes a test recorded in $D/pids; never fails.
kill_recorded() {
	local pids
	[ -f "$D/pids" ] || return 0
	read -ra pids < <(tr '\n' ' ' <"$D/pids")
	kill -KILL "${pids[@]}" 2>/dev/null
	return 0
}

# The bytes retry $1 holds in files: its spools, in memory or in TMPDIR.
spooled() {
	local f fs n=0
	for f in /proc/"$1"/fd/*; do
		fs=$(stat -L -c '%F:%s' "$f" 2>/dev/null) || continue
		case $fs in
		regular*) n=$((n + ${fs##*:})) ;;
		esac
	done
	echo "$n"
}
