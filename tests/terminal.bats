#!/usr/bin/env bats
# retry in the foreground of a real terminal: an interactive bash in a
# dedicated tmux server, keys sent with send-keys.
bats_require_minimum_version 1.5.0
load test_helper/common
load test_helper/procs

setup() {
	command -v tmux >/dev/null || skip "tmux is not installed"
	D=$BATS_TEST_TMPDIR
	# The socket in the test's directory, so that nothing is left over.
	SOCK=$D/tmux.sock
	printf '%s\n' 'PS1="$ "' 'PROMPT_COMMAND=' 'set +o histexpand' \
	    >"$D/rc"
	tmux -S "$SOCK" -f /dev/null new-session -d -x 200 -y 50 \
	    "bash --rcfile '$D/rc' --noprofile -i" </dev/null >/dev/null 3>&-
	type_line "echo ready >'$D/ready'"
	wait_lines "$D/ready"
}

teardown() {
	[ -n "${SOCK:-}" ] && tmux -S "$SOCK" kill-server 2>/dev/null
	local f
	for f in "$D"/leader "$D"/pids; do
		[ -f "$f" ] && kill -KILL $(cat "$f") 2>/dev/null
	done
	return 0
}

# Types a line into the pane's shell.
type_line() {
	tmux -S "$SOCK" send-keys -l "$1"
	tmux -S "$SOCK" send-keys Enter
}

keys() {
	tmux -S "$SOCK" send-keys "$@"
}

# Waits, up to about 10 s, until the pane shows text matching regex $1.
wait_screen() {
	local i
	for ((i = 0; i < 200; i++)); do
		tmux -S "$SOCK" capture-pane -p | grep -Eq -- "$1" && return 0
		sleep 0.05
	done
	tmux -S "$SOCK" capture-pane -p >&2
	fail "timed out waiting for /$1/ on the screen"
}

# Waits, up to about 5 s, until process $1 is stopped.
wait_stopped() {
	local i
	for ((i = 0; i < 100; i++)); do
		[[ $(ps -o stat= -p "$1") == T* ]] && return 0
		sleep 0.05
	done
	fail "process $1 did not stop"
}

# Waits, up to about 5 s, until process $1's group has the terminal.
wait_foreground() {
	local i f
	for ((i = 0; i < 100; i++)); do
		read -ra f <"/proc/$1/stat"
		[ "${f[7]}" = "${f[4]}" ] && return 0
		sleep 0.05
	done
	fail "the group of $1 did not get the terminal"
}

# Has the shell report, with builtins only, whether the terminal is back
# in its hands, and waits for the answer in $D/$1.
shell_has_terminal() {
	rm -f "$D/$1"
	type_line "read -ra f </proc/\$\$/stat; [ \${f[7]} = \$\$ ] && echo yes >'$D/$1' || echo no >'$D/$1'"
	wait_lines "$D/$1"
	assert_equal "$(cat "$D/$1")" yes
}

@test "the attempt has the terminal's foreground and reads from it" {
	type_line "$RETRY -n 3 -d 0 -- sh -c '
	    ps -o pgid=,tpgid= -p \$\$ >>\"$D/pg\"
	    printf \"say: \"; read x; echo \"\$x\" >>\"$D/said\"
	    [ \"\$x\" = ok ]'; echo \"status \$?\" >'$D/status'"
	wait_lines "$D/pg" 1
	wait_screen '^say:'
	type_line bad
	wait_lines "$D/pg" 2
	type_line ok
	wait_lines "$D/status"
	assert_equal "$(cat "$D/status")" "status 0"
	assert_equal "$(cat "$D/said")" $'bad\nok'
	# Each attempt led its own group, and that group had the terminal.
	local pg tp
	while read -r pg tp; do
		assert_equal "$tp" "$pg"
	done <"$D/pg"
	shell_has_terminal back
}

@test "Ctrl-C stops retrying, and the surrounding for loop too" {
	# The sentry that hears the terminal is in the attempt's group
	# before the command has started its first process.
	type_line "for i in 1 2 3; do $RETRY -n 5 -d 0 -- sh -c 'ps -eo pgid=,comm= >\"$D/group\"; echo \$\$ >>\"$D/pids\"; exec sleep 100'; echo \"after \$i\" >>'$D/log'; done"
	wait_lines "$D/pids"
	grep -Eqx " *$(cat "$D/pids") +retry" "$D/group"
	keys C-c
	wait_screen 'SIGINT from the terminal during attempt 1/5, which ended: killed by SIGINT after .*; stopping'
	shell_has_terminal back
	assert_equal "$(wc -l <"$D/pids")" 1
	assert [ ! -e "$D/log" ]
	assert_gone "$(cat "$D/pids")"
}

# Prints the pid of the retry that runs the attempt whose pid is in
# $D/pids (ps pads it with spaces, which pgrep refuses).
retry_pid() {
	local p
	p=$(ps -o ppid= -p "$(cat "$D/pids")")
	echo "${p// /}"
}

# Prints the pid of that retry's sentry: its other child, which has
# retry's name.
sentry_pid() {
	pgrep -x -P "$(retry_pid)" retry
}

@test "Ctrl-C is known to come from the terminal when the sentry hears it late" {
	local s
	type_line "$RETRY -n 5 -d 0 -- sh -c 'echo \$\$ >>\"$D/pids\"; exec sleep 100'"
	wait_lines "$D/pids"
	s=$(sentry_pid)
	[ -n "$s" ]
	# The attempt ends before the sentry can run its handler.
	kill -STOP "$s"
	keys C-c
	assert_gone "$(cat "$D/pids")"
	sleep 0.3
	# Without the wait for the sentry, retry has ended and killed it.
	kill -CONT "$s" 2>/dev/null || true
	wait_screen 'SIGINT from the terminal during attempt 1/5, which ended: killed by SIGINT after .*; stopping'
	shell_has_terminal back
}

@test "a USR1 sent on to the attempt's group leaves the sentry listening" {
	type_line "$RETRY -n 5 -d 0 -- sh -c 'trap \"echo usr1 >>\\\"$D/got\\\"\" USR1; echo \$\$ >>\"$D/pids\"; while :; do sleep 0.05; done'"
	wait_lines "$D/pids"
	kill -USR1 "$(retry_pid)"
	wait_lines "$D/got"
	kill -0 "$(sentry_pid)"
	keys C-c
	wait_screen 'SIGINT from the terminal during attempt 1/5'
	shell_has_terminal back
}

@test "a timeout's --signal INT is not taken for a Ctrl-C: the attempt is retried" {
	type_line "$RETRY -n 2 -d 0 -T 200ms --signal INT -- sh -c 'echo \$\$ >>\"$D/pids\"; exec sleep 100'; echo \"status \$?\" >'$D/status'"
	wait_lines "$D/status"
	assert_equal "$(cat "$D/status")" "status 124"
	assert_equal "$(wc -l <"$D/pids")" 2
	wait_screen 'giving up after 2 attempts'
	shell_has_terminal back
}

@test "Ctrl-C during a back-off sleep ends it and the loop at once" {
	local t0 t1
	type_line "for i in 1 2; do $RETRY -n 5 -d 30 -- sh -c 'echo run >>\"$D/runs\"; exit 1'; echo \"after \$i\" >>'$D/log'; done; echo loop-ended >'$D/log'"
	wait_screen 'next attempt in 30s'
	t0=$(now_ms)
	keys C-c
	shell_has_terminal back
	t1=$(now_ms)
	((t1 - t0 < 5000))
	assert_equal "$(wc -l <"$D/runs")" 1
	assert [ ! -e "$D/log" ]
}

@test "Ctrl-C reaches a command whose stdout is a pipe through retry" {
	# No terminal hand-over here (a pager may need it): retry gets the
	# INT and forwards it.
	type_line "$RETRY -n 5 -d 0 -- sh -c 'echo \$\$ >>\"$D/pids\"; exec sleep 100' | cat"
	wait_lines "$D/pids"
	keys C-c
	shell_has_terminal back
	assert_equal "$(wc -l <"$D/pids")" 1
	assert_gone "$(cat "$D/pids")"
}

@test "Ctrl-Z stops the attempt and retry; fg resumes both with the terminal" {
	local rpid
	type_line "$RETRY -n 1 -- sh -c 'echo \$\$ >\"$D/leader\"; read x; echo \"read \$x\" >\"$D/out\"'"
	wait_lines "$D/leader"
	rpid=$(ps -o ppid= -p "$(cat "$D/leader")" | tr -d ' ')
	keys C-z
	wait_stopped "$(cat "$D/leader")"
	wait_stopped "$rpid"
	shell_has_terminal stopped
	type_line fg
	# Typed only once the attempt has the terminal again: bash puts back
	# the modes a job had when Ctrl-Z stopped it, and a line typed before
	# that, under readline's, would not end a read.
	wait_foreground "$(cat "$D/leader")"
	type_line hello
	wait_lines "$D/out"
	assert_equal "$(cat "$D/out")" "read hello"
	type_line "echo \"status \$?\" >'$D/status'"
	wait_lines "$D/status"
	assert_equal "$(cat "$D/status")" "status 0"
}

@test "Ctrl-Z: the shell sees retry stopped by SIGTSTP, as the command alone (148)" {
	local rpid
	type_line "$RETRY -n 1 -- sh -c 'echo \$\$ >\"$D/leader\"; sleep 30'"
	wait_lines "$D/leader"
	rpid=$(ps -o ppid= -p "$(cat "$D/leader")" | tr -d ' ')
	keys C-z
	wait_stopped "$rpid"
	type_line "echo \"status \$?\" >'$D/status'; jobs >'$D/jobs'"
	wait_lines "$D/status"
	assert_equal "$(cat "$D/status")" "status 148"
	run -0 cat "$D/jobs"
	assert_output --regexp 'Stopped +'
	refute_output --partial "(signal)"
	kill -KILL "$(cat "$D/leader")" "$rpid"
}

@test "Ctrl-Z in an orphaned process group: retry is not stopped for good, the attempt goes on" {
	local rpid
	# bash -c ends at once: retry's group, the one it left, has no
	# parent in the session that could continue it.
	type_line "bash -c '$RETRY -n 1 -- sh -c \"echo \\\$\\\$ >$D/leader; sleep 1; echo done >$D/out\" </dev/tty &'"
	wait_lines "$D/leader"
	rpid=$(ps -o ppid= -p "$(cat "$D/leader")" | tr -d ' ')
	kill -TSTP "$(cat "$D/leader")"
	wait_lines "$D/out"
	assert_equal "$(cat "$D/out")" done
	assert_gone "$rpid"
}

@test "Ctrl-Z then bg: retry does not take the terminal from the shell" {
	local rpid
	type_line "$RETRY -n 1 -- sh -c 'echo \$\$ >\"$D/leader\"; sleep 1; echo done >\"$D/out\"'"
	wait_lines "$D/leader"
	rpid=$(ps -o ppid= -p "$(cat "$D/leader")" | tr -d ' ')
	keys C-z
	wait_stopped "$rpid"
	type_line bg
	shell_has_terminal after-bg
	wait_lines "$D/out"
	assert_gone "$rpid"
	shell_has_terminal at-end
}

@test "closing the terminal leaves no process of the attempt behind" {
	local rpid
	type_line "$RETRY -n 5 -d 0 -- sh -c 'echo \$\$ >\"$D/leader\"; sleep 100 & echo \$! >\"$D/pids\"; wait'"
	wait_lines "$D/pids"
	rpid=$(ps -o ppid= -p "$(cat "$D/leader")" | tr -d ' ')
	tmux -S "$SOCK" kill-server
	assert_gone "$rpid" "$(cat "$D/leader")" "$(cat "$D/pids")"
	assert_group_gone "$(cat "$D/leader")"
}

@test "Ctrl-Z during a back-off sleep stops retry; fg goes on retrying" {
	local rpid
	type_line "$RETRY -n 2 -d 1 -- sh -c 'echo \$PPID >\"$D/rpid\"; echo run >>\"$D/runs\"; exit 1'"
	wait_screen 'next attempt in 1s'
	rpid=$(cat "$D/rpid")
	keys C-z
	wait_stopped "$rpid"
	sleep 1.5
	# Stopped, it started nothing.
	assert_equal "$(wc -l <"$D/runs")" 1
	type_line fg
	type_line "echo \"status \$?\" >'$D/status'"
	wait_lines "$D/status"
	assert_equal "$(cat "$D/status")" "status 1"
	assert_equal "$(wc -l <"$D/runs")" 2
}

@test "with stdout a pipe, an attempt that reads the terminal gets it then" {
	type_line "$RETRY -n 1 -- sh -c 'printf \"say: \" >/dev/tty; read x; echo \"got \$x\"' | cat >'$D/out'; echo \"status \$?\" >'$D/status'"
	wait_screen '^say:'
	type_line hello
	wait_lines "$D/status"
	assert_equal "$(cat "$D/status")" "status 0"
	assert_equal "$(cat "$D/out")" "got hello"
	shell_has_terminal back
}

@test "Ctrl-C stops the run even when the command catches it and exits 1" {
	type_line "$RETRY -n 5 -d 0 -- python3 -c 'import sys, time
open(\"$D/pids\", \"a\").write(\"x\\n\")
try:
    time.sleep(100)
except KeyboardInterrupt:
    open(\"$D/caught\", \"a\").write(\"caught\\n\")
    sys.exit(1)'"
	wait_lines "$D/pids"
	keys C-c
	wait_screen 'SIGINT from the terminal during attempt 1/5, which ended: exit 1 after .*; stopping'
	# The command got SIGINT as without retry, and the run stopped:
	# retry died of SIGINT, as the shell saw.
	type_line "echo \"status \$?\" >'$D/status'"
	wait_lines "$D/status"
	assert_equal "$(cat "$D/caught")" caught
	assert_equal "$(wc -l <"$D/pids")" 1
	assert_equal "$(cat "$D/status")" "status 130"
	shell_has_terminal back
}

@test "started in the background, an attempt that reads the terminal works after fg" {
	type_line "$RETRY --max 2 -- sh -c 'echo \$\$ >\"$D/leader\"; read x; echo \"got \$x\" >\"$D/out\"' &"
	wait_lines "$D/leader"
	wait_stopped "$(cat "$D/leader")"
	type_line fg
	wait_foreground "$(cat "$D/leader")"
	type_line hello
	wait_lines "$D/out"
	assert_equal "$(cat "$D/out")" "got hello"
	shell_has_terminal back
}

@test "Ctrl-C while --stdin replay reads the terminal ends retry" {
	local rpid i
	type_line "sh -c 'echo \$\$ >$D/rpid; exec $RETRY --stdin replay -- cat'"
	wait_lines "$D/rpid"
	rpid=$(cat "$D/rpid")
	# Once retry runs and waits for the terminal's input.
	for ((i = 0; i < 200; i++)); do
		[ "$(readlink "/proc/$rpid/exe")" = "$(realpath "$RETRY")" ] &&
			[ "$(ps -o stat= -p "$rpid")" = S+ ] && break
		sleep 0.05
	done
	keys C-c
	wait_screen 'SIGINT before the first attempt; stopping'
	type_line "echo \"status \$?\" >'$D/status'"
	wait_lines "$D/status"
	assert_equal "$(cat "$D/status")" "status 130"
}

@test "an output rule keeps a terminal a terminal: the command sees one, its lines come live, its size follows" {
	type_line "$RETRY -n 1 --until-output zzz -- python3 -c '
import os, signal, sys, time
def size(*_):
    time.sleep(0.3)
    c, r = os.get_terminal_size(1)
    print(\"size\", c, r)
signal.signal(signal.SIGWINCH, size)
print(\"out\", sys.stdout.isatty(), \"err\", sys.stderr.isatty())
size()
print(\"first\")
time.sleep(30)
'"
	# Line-buffered, as on a terminal: seen while the command sleeps.
	wait_screen '^first$'
	wait_screen '^out True err True$'
	wait_screen '^size 200 50$'
	tmux -S "$SOCK" resize-window -x 120 -y 40
	wait_screen '^size 120 40$'
	# The real terminal is still the command's: Ctrl-C ends it, and
	# retry knows it came from the terminal.
	keys C-c
	wait_screen 'SIGINT from the terminal during attempt 1/1'
}

@test "--match stdout holds at a terminal, where stdout and stderr are one" {
	type_line "$RETRY -n 1 --fail-if-output ERROR --match stdout -- sh -c 'echo ERROR >&2'; echo \"status \$?\" >'$D/status'"
	wait_lines "$D/status"
	assert_equal "$(cat "$D/status")" "status 0"
	type_line "$RETRY -n 1 --fail-if-output ERROR --match stderr -- sh -c 'echo ERROR >&2'; echo \"status \$?\" >'$D/status2'"
	wait_lines "$D/status2"
	assert_equal "$(cat "$D/status2")" "status 1"
}

@test "a rule at a terminal sees the last of a command's output: a pseudo-terminal is read to its end" {
	# What a command writes to a pseudo-terminal reaches retry a moment
	# after it is written; the command may have ended by then.
	type_line "for i in \$(seq 20); do $RETRY -n 1 --fail-if-output ERROR --match stderr -- sh -c 'seq 2000 >&2; echo ERROR >&2' >/dev/null; echo \"status \$?\" >>'$D/statuses'; done; echo done >'$D/done'"
	wait_lines "$D/done"
	run -0 sort "$D/statuses"
	assert_output "$(printf 'status 1\n%.0s' {1..20})"
}
