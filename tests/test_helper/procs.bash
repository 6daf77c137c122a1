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

# Polls, up to about 5 s, until none of the processes is left; fails
# naming the survivors otherwise.
assert_gone() {
	local i p left
	for ((i = 0; i < 100; i++)); do
		left=
		for p in "$@"; do
			alive "$p" && left+=" $p"
		done
		[ -z "$left" ] && return 0
		sleep 0.05
	done
	ps -o pid,pgid,ppid,stat,args -p "${left# }" >&2
	fail "still running:$left"
}

# Polls, up to about 5 s, until no process of the group is left.
assert_group_gone() {
	local i
	for ((i = 0; i < 100; i++)); do
		group_alive "$1" || return 0
		sleep 0.05
	done
	ps -eo pid,pgid,stat,args | awk -v g="$1" 'NR == 1 || $2 == g' >&2
	fail "process group $1 is still running"
}

# The state letter of process $1 (/proc/PID/stat's third field).
state_of() {
	local f
	read -ra f <"/proc/$1/stat" 2>/dev/null || return 1
	printf '%s\n' "${f[2]}"
}

# Waits, up to about 10 s, until every process given is in state $1 (T:
# stopped) or, with !T, none is.
wait_state() {
	local want=$1 i p ok
	shift
	for ((i = 0; i < 200; i++)); do
		ok=1
		for p in "$@"; do
			case $want in
			!*) [ "$(state_of "$p")" != "${want#!}" ] || ok= ;;
			*) [ "$(state_of "$p")" = "$want" ] || ok= ;;
			esac
		done
		[ -n "$ok" ] && return 0
		sleep 0.05
	done
	for p in "$@"; do
		echo "$p: $(state_of "$p")" >&2
	done
	fail "not all in state $want: $*"
}

# Waits, up to about 10 s, until file $1 has at least ${2:-1} lines.
wait_lines() {
	local i n
	for ((i = 0; i < 200; i++)); do
		if [ -f "$1" ]; then
			n=$(wc -l <"$1")
			[ "$n" -ge "${2:-1}" ] && return 0
		fi
		sleep 0.05
	done
	fail "timed out waiting for ${2:-1} line(s) in $1"
}

# Waits, up to about 10 s, until file $1 has a line matching regex $2.
wait_match() {
	local i
	for ((i = 0; i < 200; i++)); do
		grep -Eq -- "$2" "$1" 2>/dev/null && return 0
		sleep 0.05
	done
	fail "timed out waiting for /$2/ in $1"
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

# Waits, up to about 20 s, for the background process $1 to end and sets
# status to its wait status; kills it and fails if it does not end.
wait_status() {
	local i
	for ((i = 0; i < 400; i++)); do
		alive "$1" || break
		sleep 0.05
	done
	if alive "$1"; then
		kill -KILL "$1"
		fail "process $1 did not end"
	fi
	status=0
	wait "$1" || status=$?
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
