#!/usr/bin/env bats
# retry in the foreground of a real terminal: an interactive bash in a
# dedicated tmux server, keys sent with send-keys.
bats_require_minimum_version 1.5.0
load test_helper/common
load test_helper/procs
load test_helper/tmux

setup() {
	D=$BATS_TEST_TMPDIR
	tmux_shell 200 50
	type_line "echo ready >'$D/ready'"
	wait_lines "$D/ready"
}

teardown() {
	tmux_end
	local f
	for f in "$D"/leader "$D"/pids; do
		[ -f "$f" ] && kill -KILL $(cat "$f") 2>/dev/null
	done
	return 0
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
	wait_state T "$(cat "$D/leader")"
	wait_state T "$rpid"
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
	wait_state T "$rpid"
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
	wait_state T "$rpid"
	type_line bg
	shell_has_terminal after-bg
	wait_lines "$D/out"
	assert_gone "$rpid"
	shell_has_terminal at-end
}

# Runs retry at the terminal with options "$@" and an attempt that leaves
# a process running, closes the terminal, and checks that retry, the
# attempt and what it left are gone.
close_terminal_under() {
	local rpid
	type_line "$RETRY -n 5 -d 0 $* -- sh -c 'echo \$\$ >\"$D/leader\"; sleep 100 & echo \$! >\"$D/pids\"; wait'"
	wait_lines "$D/pids"
	rpid=$(ps -o ppid= -p "$(cat "$D/leader")" | tr -d ' ')
	tmux -S "$SOCK" kill-server
	assert_gone "$rpid" "$(cat "$D/leader")" "$(cat "$D/pids")"
	assert_group_gone "$(cat "$D/leader")"
}

@test "closing the terminal leaves no process of the attempt behind" {
	close_terminal_under
}

@test "Ctrl-Z during a back-off sleep stops retry; fg goes on retrying" {
	local rpid
	type_line "$RETRY -n 2 -d 1 -- sh -c 'echo \$PPID >\"$D/rpid\"; echo run >>\"$D/runs\"; exit 1'"
	wait_screen 'next attempt in 1s'
	rpid=$(cat "$D/rpid")
	keys C-z
	wait_state T "$rpid"
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
	wait_state T "$(cat "$D/leader")"
	type_line fg
	wait_foreground "$(cat "$D/leader")"
	type_line hello
	wait_lines "$D/out"
	assert_equal "$(cat "$D/out")" "got hello"
	shell_has_terminal back
}

@test "Ctrl-C while --stdin replay reads the terminal ends retry" {
	type_line "$RETRY --stdin replay -- cat"
	wait_screen '^retry: cat: --stdin replay: reading the terminal to Ctrl-D'
	keys C-c
	wait_screen 'SIGINT sent on to attempt 1/5, which ended: killed by SIGINT'
	type_line "echo \"status \$?\" >'$D/status'"
	wait_lines "$D/status"
	assert_equal "$(cat "$D/status")" "status 130"
}

@test "--stdin replay at a terminal: the attempt reads lines as they are typed, the next gets them again, then the rest, to Ctrl-D" {
	type_line "$RETRY --max 2 --immediate --stdin replay -- sh -c 'read -r x; echo \"\$RETRY_ATTEMPT \$x\" >>\"$D/got\"; [ \$RETRY_ATTEMPT -lt 2 ] || cat >>\"$D/got\"; exit 1'"
	wait_screen "^retry: sh -c 'read -r x; ech\\.\\.\\.: --stdin replay: reading the terminal to Ctrl-D"
	# Said once, in one line.
	assert_equal "$(tmux -S "$SOCK" capture-pane -p | grep -c 'Ctrl-D')" 1
	type_line hello
	# Attempt 1 read it as it was typed; attempt 2 got it again at once.
	wait_match "$D/got" '^2 hello$'
	type_line world
	wait_match "$D/got" '^world$'
	keys C-d
	wait_screen 'giving up after 2 attempts'
	type_line "echo \"status \$?\" >'$D/status'"
	wait_lines "$D/status"
	assert_equal "$(cat "$D/status")" "status 1"
	assert_equal "$(cat "$D/got")" "$(printf '1 hello\n2 hello\nworld')"
	shell_has_terminal back
}

@test "--hedge --stdin replay at a terminal: the first attempt reads lines as they are typed, a hedge gets them again, then the rest, to Ctrl-D" {
	type_line "$RETRY --hedge 200ms --stdin replay -- sh -c 'read -r x; echo \"\$RETRY_ATTEMPT \$x\" >>\"$D/got\"; [ \$RETRY_ATTEMPT = 2 ] || exec sleep 30; cat >>\"$D/got\"'"
	wait_screen "^retry: sh -c 'read -r x; ech\\.\\.\\.: --stdin replay: reading the terminal to Ctrl-D"
	type_line hello
	wait_match "$D/got" '^1 hello$'
	wait_match "$D/got" '^2 hello$'
	type_line world
	wait_match "$D/got" '^world$'
	keys C-d
	wait_screen 'attempt 1 cancelled'
	type_line "echo \"status \$?\" >'$D/status'"
	wait_lines "$D/status"
	assert_equal "$(cat "$D/status")" "status 0"
	assert_equal "$(sort "$D/got")" "$(printf '1 hello\n2 hello\nworld')"
	shell_has_terminal back
}

@test "--stdin replay started in the background stops as a job that reads the terminal, and reads it after fg" {
	type_line "$RETRY --max 2 --immediate --stdin replay -- sh -c 'cat >>\"$D/got\"; exit 1' & echo \$! >'$D/pids'"
	wait_lines "$D/pids"
	wait_state T "$(cat "$D/pids")"
	type_line fg
	wait_foreground "$(cat "$D/pids")"
	type_line hello
	wait_match "$D/got" '^hello$'
	keys C-d
	wait_screen 'giving up after 2 attempts'
	assert_equal "$(cat "$D/got")" "$(printf 'hello\nhello')"
	shell_has_terminal back
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

# A repository of 3000 commits in $D/repo: git log writes far more than a
# pipe holds, so it is still writing when its pager is quit.
make_repo() {
	git init -q -b main "$D/repo"
	local i
	for ((i = 1; i <= 3000; i++)); do
		printf 'commit refs/heads/main\ncommitter T <t@example.org> %d +0000\ndata <<E\nchange %d\nE\n\n' \
		    $((1700000000 + i)) "$i"
	done | git -C "$D/repo" fast-import --quiet
}

@test "quitting git log's pager with q ends the run: no retry, no second pager, 141" {
	command -v git >/dev/null || skip "git is not installed"
	command -v less >/dev/null || skip "less is not installed"
	make_repo
	type_line "cd '$D/repo' && GIT_PAGER=less LESS= $RETRY --max 3 -d 0 --on-retry 'echo >>\"$D/retried\"' -- sh -c 'echo \$RETRY_ATTEMPT >>\"$D/attempts\"; exec git log'; echo \"status \$?\" >'$D/status'"
	wait_screen 'change 3000'
	keys q
	wait_lines "$D/status"
	assert_equal "$(cat "$D/status")" "status 141"
	assert_equal "$(cat "$D/attempts")" 1
	assert [ ! -e "$D/retried" ]
	# As without retry: nothing said of the quit.
	run ! grep -q 'retry:' <(tmux -S "$SOCK" capture-pane -p)
	shell_has_terminal back
}

@test "a SIGPIPE from a socket's closed peer is still retried when stdout is not the terminal" {
	type_line "$RETRY --max 3 -d 0 -- python3 -c '
import signal, socket
open(\"$D/attempts\", \"a\").write(\"x\\n\")
signal.signal(signal.SIGPIPE, signal.SIG_DFL)
a, b = socket.socketpair()
b.close()
a.send(b\"x\")
' >'$D/out'; echo \"status \$?\" >'$D/status'"
	wait_lines "$D/status"
	assert_equal "$(cat "$D/status")" "status 141"
	assert_equal "$(wc -l <"$D/attempts")" 3
	wait_screen 'giving up after 3 attempts'
}

@test "a SIGPIPE in the background is still retried" {
	type_line "$RETRY --max 3 -d 0 -- sh -c 'echo x >>\"$D/attempts\"; kill -PIPE \$\$' & wait \$!; echo \"status \$?\" >'$D/status'"
	wait_lines "$D/status"
	assert_equal "$(cat "$D/status")" "status 141"
	assert_equal "$(wc -l <"$D/attempts")" 3
}

# With an output rule at the terminal, the command reads the terminal as
# without retry: its keys, its modes, Ctrl-C, Ctrl-Z and its size.

@test "a rule at a terminal: less gets its keys (a search, then q), and the terminal's modes come back" {
	command -v less >/dev/null || skip "less is not installed"
	seq -f 'line %g' 1000 >"$D/file"
	sed -i '600s/.*/the needle is here/' "$D/file"
	type_line "stty -g >'$D/before'; LESS= $RETRY --max 3 --fail-if-output XYZZY -- less '$D/file'; echo \"status \$?\" >'$D/status'; stty -g >'$D/after'"
	wait_screen '^line 1$'
	tmux -S "$SOCK" send-keys -l '/needle'
	keys Enter
	wait_screen '^the needle is here$'
	keys q
	wait_lines "$D/status"
	assert_equal "$(cat "$D/status")" "status 0"
	wait_lines "$D/after"
	assert_equal "$(cat "$D/after")" "$(cat "$D/before")"
	shell_has_terminal back
}

@test "a rule at a terminal, stdin a pipe: less reads its keys from the terminal, as without retry" {
	command -v less >/dev/null || skip "less is not installed"
	seq -f 'line %g' 1000 >"$D/file"
	type_line "stty -g >'$D/before'; echo piped | LESS= $RETRY --max 3 --fail-if-output XYZZY -- sh -c 'read x; echo \$x >\"$D/stdin\"; exec less \"$D/file\"'; echo \"status \$?\" >'$D/status'; stty -g >'$D/after'"
	wait_screen '^line 1$'
	tmux -S "$SOCK" send-keys -l '/line 700'
	keys Enter
	wait_screen '^line 700$'
	keys q
	wait_lines "$D/status"
	assert_equal "$(cat "$D/status")" "status 0"
	assert_equal "$(cat "$D/stdin")" piped
	wait_lines "$D/after"
	assert_equal "$(cat "$D/after")" "$(cat "$D/before")"
}

@test "a rule at a terminal: quitting git log's pager ends the run (--stop-if-output)" {
	command -v git >/dev/null || skip "git is not installed"
	command -v less >/dev/null || skip "less is not installed"
	make_repo
	type_line "cd '$D/repo' && GIT_PAGER=less LESS= $RETRY --max 3 -d 0 --stop-if-output fatal -- sh -c 'echo \$RETRY_ATTEMPT >>\"$D/attempts\"; exec git log'; echo \"status \$?\" >'$D/status'"
	wait_screen 'change 3000'
	keys q
	wait_lines "$D/status"
	assert_equal "$(cat "$D/status")" "status 141"
	assert_equal "$(cat "$D/attempts")" 1
	shell_has_terminal back
}

@test "a rule at a terminal: a line typed with echo off (read -s) is not echoed" {
	# Echo is off before the prompt shows (read -s turns it off only
	# after printing its prompt, which a slow host lets the keys beat),
	# and the prompt is not in the command line, whose echo would match.
	type_line "$RETRY --max 1 --fail-if-output XYZZY -- bash -c 'stty -echo; printf pass; printf \"word: \"; read -r x; stty echo; echo; echo \"got [\$x]\" >\"$D/got\"'; echo \"status \$?\" >'$D/status'"
	wait_screen '^password:'
	type_line 's3cret'
	wait_lines "$D/status"
	assert_equal "$(cat "$D/status")" "status 0"
	assert_equal "$(cat "$D/got")" "got [s3cret]"
	run ! grep -q s3cret <(tmux -S "$SOCK" capture-pane -p)
}

@test "a rule at a terminal: Ctrl-C ends the run, and the terminal's modes come back" {
	# As without retry, a death by SIGINT ends the shell's line too.
	type_line "stty -g >'$D/before'; $RETRY -n 5 -d 0 --fail-if-output XYZZY -- sh -c 'echo \$\$ >>\"$D/pids\"; exec sleep 100'; echo \"after\" >'$D/log'"
	wait_lines "$D/pids"
	keys C-c
	wait_screen 'SIGINT from the terminal during attempt 1/5, which ended: killed by SIGINT'
	type_line "stty -g >'$D/after'"
	wait_lines "$D/after"
	assert [ ! -e "$D/log" ]
	assert_equal "$(wc -l <"$D/pids")" 1
	assert_equal "$(cat "$D/after")" "$(cat "$D/before")"
	assert_gone "$(cat "$D/pids")"
}

@test "a rule at a terminal: Ctrl-Z stops less and retry with the terminal's modes back; fg resumes it" {
	command -v less >/dev/null || skip "less is not installed"
	seq -f 'line %g' 1000 >"$D/file"
	type_line "stty -g >'$D/before'; LESS= $RETRY --max 3 --fail-if-output XYZZY -- less '$D/file'; echo \"status \$?\" >'$D/status'"
	wait_screen '^line 1$'
	keys C-z
	wait_screen 'Stopped'
	type_line "stty -g >'$D/stopped'"
	wait_lines "$D/stopped"
	assert_equal "$(cat "$D/stopped")" "$(cat "$D/before")"
	assert_equal "$(cat "$D/status")" "status 148"
	type_line "fg; echo \"fg \$?\" >'$D/fg'"
	wait_screen '^line 1$'
	tmux -S "$SOCK" send-keys -l '/line 500'
	keys Enter
	wait_screen '^line 500$'
	keys q
	wait_lines "$D/fg"
	assert_equal "$(cat "$D/fg")" "fg 0"
}

@test "a rule at a terminal: top draws and quits with q" {
	command -v top >/dev/null || skip "top is not installed"
	type_line "$RETRY --max 3 --fail-if-output XYZZY -- top; echo \"status \$?\" >'$D/status'"
	wait_screen '^Tasks:'
	keys q
	wait_lines "$D/status"
	assert_equal "$(cat "$D/status")" "status 0"
}

@test "a rule at a terminal: vim edits a file, and a new size reaches the command" {
	command -v vim >/dev/null || skip "vim is not installed"
	type_line "$RETRY --max 1 --fail-if-output XYZZY -- vim -u NONE -N -i NONE '$D/edited'; echo \"status \$?\" >'$D/status'"
	wait_screen '^~'
	tmux -S "$SOCK" send-keys -l 'ihello from vim'
	keys Escape
	tmux -S "$SOCK" send-keys -l ':wq'
	keys Enter
	wait_lines "$D/status"
	assert_equal "$(cat "$D/status")" "status 0"
	assert_equal "$(cat "$D/edited")" "hello from vim"
	# The loop's bash ends on the Ctrl-C however it falls: a bash whose
	# sleep ended just before the signal would otherwise go on.
	type_line "$RETRY --max 1 --fail-if-output XYZZY -- bash -c 'trap \"exit 130\" INT; trap \"stty size >>\\\"$D/sizes\\\"\" WINCH; stty size >>\"$D/sizes\"; while :; do sleep 0.05; done'"
	wait_lines "$D/sizes"
	assert_equal "$(cat "$D/sizes")" "50 200"
	tmux -S "$SOCK" resize-window -x 120 -y 40
	wait_lines "$D/sizes" 2
	assert_equal "$(tail -1 "$D/sizes")" "40 120"
	keys C-c
	wait_screen 'SIGINT from the terminal during attempt 1/1'
}

@test "a rule at a terminal: a TERM to retry while less runs restores the terminal's modes" {
	command -v less >/dev/null || skip "less is not installed"
	seq -f 'line %g' 1000 >"$D/file"
	type_line "stty -g >'$D/before'; LESS= $RETRY --max 3 --fail-if-output XYZZY -- sh -c 'echo \$PPID >\"$D/retry\"; exec less \"$D/file\"'; echo \"status \$?\" >'$D/status'; stty -g >'$D/after'"
	wait_screen '^line 1$'
	wait_lines "$D/retry"
	kill -TERM "$(cat "$D/retry")"
	wait_lines "$D/status"
	assert_equal "$(cat "$D/status")" "status 143"
	wait_lines "$D/after"
	assert_equal "$(cat "$D/after")" "$(cat "$D/before")"
}

@test "a rule at a terminal: closing the terminal leaves no process of the attempt behind" {
	close_terminal_under --fail-if-output XYZZY
}

@test "a rule at a terminal reads a line's end as the command wrote it, though the terminal adds a carriage return" {
	type_line "$RETRY -n 1 --fail-if-output '^ERROR\$' -- sh -c 'echo ERROR'; echo \"status \$?\" >'$D/status'"
	wait_lines "$D/status"
	assert_equal "$(cat "$D/status")" "status 1"
	type_line "$RETRY -n 1 --fail-if-output '^OK\$' -- printf 'OK\r\r\n'; echo \"status \$?\" >'$D/status2'"
	wait_lines "$D/status2"
	assert_equal "$(cat "$D/status2")" "status 0"
}

@test "a rule at a terminal with --match stdout: stderr's lines start at the left margin too" {
	type_line "clear; $RETRY -n 1 --match stdout --fail-if-output XYZZY -- sh -c 'echo out1; echo err1 >&2; echo err2 >&2; echo out2'; echo \"status \$?\" >'$D/status'"
	wait_lines "$D/status"
	wait_screen '^err2$'
	wait_screen '^out2$'
}

# Runs retry at the terminal with options "$@" and two attempts that
# change the terminal's modes until --timeout ends them, and checks that
# each attempt started with the modes as they were, and the shell got
# them back.
modes_after_timeouts_under() {
	type_line "stty -g >'$D/before'; $RETRY $* -n 2 -d 0 -T 2s -- sh -c 'stty -g >>\"$D/seen\"; stty -echo raw; echo >>\"$D/changed\"; exec sleep 100'; echo \"status \$?\" >'$D/status'; stty -g >'$D/after'"
	wait_lines "$D/status"
	assert_equal "$(cat "$D/status")" "status 124"
	wait_lines "$D/after"
	# Both attempts changed them, and each started with them as they were.
	assert_equal "$(wc -l <"$D/changed")" 2
	assert_equal "$(sed -n 2p "$D/seen")" "$(cat "$D/before")"
	assert_equal "$(cat "$D/after")" "$(cat "$D/before")"
}

@test "an attempt that --timeout ends after it changed the terminal's modes leaves them as they were, for the next attempt and after" {
	modes_after_timeouts_under
}

@test "an attempt that exits after it changed the terminal's modes leaves them changed, as it would alone" {
	type_line "stty -g >'$D/before'; $RETRY -n 1 -- stty -echo; echo \"status \$?\" >'$D/status'; stty -g >'$D/after'; stty echo"
	wait_lines "$D/status"
	assert_equal "$(cat "$D/status")" "status 0"
	wait_lines "$D/after"
	[ "$(cat "$D/after")" != "$(cat "$D/before")" ]
}

@test "--foreground: the command reads the terminal in retry's own process group, under --timeout" {
	type_line "$RETRY --foreground --timeout 60 -- sh -c 'echo \$PPID >\"$D/retry\"; ps -o pgid=,tpgid= -p \$\$ >\"$D/pg\"; printf \"say: \"; read x; echo got \$x'; echo \"status \$?\" >'$D/status'"
	wait_lines "$D/pg"
	wait_screen '^say:'
	type_line hello
	wait_screen '^got hello'
	wait_lines "$D/status"
	assert_equal "$(cat "$D/status")" "status 0"
	# No group of its own: retry's, which the shell made a job of and
	# gave the terminal.
	local pg tp
	read -r pg tp <"$D/pg"
	assert_equal "$pg" "$(cat "$D/retry")"
	assert_equal "$tp" "$pg"
	shell_has_terminal back
}

@test "--foreground: Ctrl-C reaches the command once, from the terminal" {
	cat >"$D/cmd.pl" <<'PERL'
my $d = shift;
$SIG{INT} = sub { open my $f, '>>', "$d/ints"; print $f "int\n"; close $f };
open my $p, '>', "$d/pids"; print $p "$$\n"; close $p;
sleep 1 while 1;
PERL
	type_line "$RETRY --foreground -n 3 -d 0 -k 1 -- perl '$D/cmd.pl' '$D'"
	wait_lines "$D/pids"
	keys C-c
	# The command ignores it: --kill-after's KILL ends it, and retry dies
	# of SIGINT, as the command would have without its handler.
	wait_screen 'SIGINT from the terminal during attempt 1/3, which ended: killed by SIGKILL after .*; stopping'
	type_line "echo \"status \$?\" >'$D/status'"
	wait_lines "$D/status"
	assert_equal "$(cat "$D/status")" "status 130"
	# The terminal sent it to retry's group, the command with it;
	# retry did not send it again.
	assert_equal "$(cat "$D/ints")" int
	shell_has_terminal back
}

@test "--foreground: Ctrl-Z stops retry's group, and fg resumes the attempt" {
	local rpid
	type_line "$RETRY --foreground -n 1 -- sh -c 'echo \$\$ >\"$D/leader\"; read x; echo \"read \$x\" >\"$D/out\"'"
	wait_lines "$D/leader"
	rpid=$(ps -o ppid= -p "$(cat "$D/leader")" | tr -d ' ')
	keys C-z
	wait_state T "$(cat "$D/leader")"
	wait_state T "$rpid"
	shell_has_terminal stopped
	type_line fg
	wait_foreground "$rpid"
	# Typed once retry's group has the terminal again, as above.
	type_line hello
	wait_lines "$D/out"
	assert_equal "$(cat "$D/out")" "read hello"
	type_line "echo \"status \$?\" >'$D/status'"
	wait_lines "$D/status"
	assert_equal "$(cat "$D/status")" "status 0"
}

@test "--foreground with an output rule at the terminal: the command reads the terminal itself" {
	type_line "$RETRY --foreground -n 2 -d 0 --until-output 'got ok' -- sh -c 'printf \"say: \"; read x; echo got \$x'; echo \"status \$?\" >'$D/status'"
	wait_screen '^say:'
	type_line no
	wait_screen 'attempt 1/2 failed'
	wait_screen '^say:.*say:|^say: *$'
	type_line ok
	wait_lines "$D/status"
	assert_equal "$(cat "$D/status")" "status 0"
	shell_has_terminal back
}

@test "--foreground: an attempt that --timeout ends after it changed the terminal's modes leaves them as they were" {
	modes_after_timeouts_under --foreground
}

# Writes $D/Makefile: targets a, b and c run recipe $1 (make's $@ names
# the target), and r runs $2, where "retry" is $RETRY.
makefile() {
	{
		printf 'all: a b c r\na b c:\n\t%s\nr:\n\t%s\n' "$1" "${2:-$1}"
	} | sed "s|retry |$RETRY |g" >"$D/Makefile"
}

@test "make -j4 at a terminal: Ctrl-C ends every job at once, one that read the terminal too, and make dies of SIGINT" {
	# Without /proc retry cannot wait for make to take the Ctrl-C first,
	# and make may then stop with "wait: No child processes" (retry(1)).
	skip_portable "no /proc: make's pending SIGINT cannot be seen"
	# Only one job of make -j gets make's stdin: r reads the terminal
	# itself, the others sleep.
	makefile "retry -n 3 -d 0 -- sh -c 'echo \$\$\$\$ >>\$@.pid; exec sleep 30'" \
	    "retry -n 1 -- sh -c 'echo \$\$\$\$ >>\$@.pid; printf \"say: \"; read x; echo \"\$\$x\" >said; exec sleep 30' </dev/tty"
	type_line "cd '$D' && make -j4; echo next >next"
	wait_lines "$D/a.pid"
	wait_lines "$D/b.pid"
	wait_lines "$D/c.pid"
	wait_screen '^say:'
	type_line hello
	wait_lines "$D/said"
	assert_equal "$(cat "$D/said")" hello
	keys C-c
	type_line "echo \"status \$?\" >'$D/status'"
	wait_lines "$D/status"
	# As with plain recipes: make died of SIGINT, and the shell ran
	# nothing more of the line.
	assert_equal "$(cat "$D/status")" "status 130"
	assert [ ! -e "$D/next" ]
	assert_gone $(cat "$D"/*.pid)
	run -0 screen
	refute_output --partial 'No child processes'
	shell_has_terminal back
}

@test "make -j4 at a terminal: Ctrl-C during back-off sleeps, five times over: make dies of SIGINT each time, never of 'wait: No child processes'" {
	# Waiting for make to take its SIGINT reads make's pending signals
	# in /proc, which the portable build does without.
	skip_portable "no /proc: make's pending SIGINT cannot be seen"
	local i
	makefile "retry -n 2 -d 30 -- sh -c 'echo run >>\$@.runs; exit 1'"
	for i in 1 2 3 4 5; do
		rm -f "$D"/*.runs
		type_line "cd '$D' && make -j4; echo next >>next"
		wait_lines "$D/a.runs"
		wait_lines "$D/b.runs"
		wait_lines "$D/c.runs"
		wait_lines "$D/r.runs"
		keys C-c
		type_line "echo \"status \$?\" >>'$D/status'"
		wait_lines "$D/status" "$i"
	done
	assert_equal "$(sort -u "$D/status")" "status 130"
	assert [ ! -e "$D/next" ]
	run -0 screen -S -200
	refute_output --partial 'No child processes'
}

@test "Ctrl-Z stops an attempt that does not hold the terminal (stdin /dev/null) with retry; fg resumes both" {
	local rpid
	type_line "$RETRY -n 1 -- sh -c 'echo \$\$ >\"$D/leader\"; sleep 2 & echo \$! >\"$D/pids\"; wait; echo done >\"$D/out\"' </dev/null"
	wait_lines "$D/pids"
	rpid=$(ps -o ppid= -p "$(cat "$D/leader")" | tr -d ' ')
	keys C-z
	wait_state T "$rpid" "$(cat "$D/leader")" "$(cat "$D/pids")"
	type_line "echo \"stopped \$?\" >'$D/stopped'"
	wait_lines "$D/stopped"
	assert_equal "$(cat "$D/stopped")" "stopped 148"
	# Still stopped, both, once the shell has the terminal back.
	wait_state T "$rpid" "$(cat "$D/leader")" "$(cat "$D/pids")"
	assert [ ! -e "$D/out" ]
	type_line fg
	wait_lines "$D/out"
	type_line "echo \"status \$?\" >'$D/status'"
	wait_lines "$D/status"
	assert_equal "$(cat "$D/status")" "status 0"
	shell_has_terminal back
}

@test "Ctrl-Z while an attempt that reads the terminal holds it, stdout a pipe: the whole pipeline stops, the shell says so, fg resumes it" {
	type_line "$RETRY -n 1 -- sh -c 'echo \$\$ >\"$D/leader\"; printf \"say: \" >/dev/tty; read x; echo \"read \$x\"' | cat >'$D/out'"
	wait_screen '^say:'
	wait_foreground "$(cat "$D/leader")"
	keys C-z
	# cat, beside retry in the pipeline's group, stops too: without it,
	# the shell would wait for the job, and never get the terminal back.
	wait_screen 'Stopped'
	shell_has_terminal stopped
	type_line fg
	wait_foreground "$(cat "$D/leader")"
	type_line hello
	type_line "echo \"status \$?\" >'$D/status'"
	wait_lines "$D/status"
	assert_equal "$(cat "$D/status")" "status 0"
	assert_equal "$(cat "$D/out")" "read hello"
}

@test "in a shell script at a terminal, Ctrl-C reaches the script with the attempt: the script stops too" {
	printf '%s\n' "$RETRY -n 5 -d 0 -- sh -c 'echo \$\$ >>\"$D/pids\"; exec sleep 100'" \
	    "echo after >'$D/log'" >"$D/script"
	type_line "bash '$D/script'; echo next >'$D/next'"
	wait_lines "$D/pids"
	keys C-c
	type_line "echo \"status \$?\" >'$D/status'"
	wait_lines "$D/status"
	assert [ ! -e "$D/next" ]
	assert_equal "$(cat "$D/status")" "status 130"
	assert [ ! -e "$D/log" ]
	assert_equal "$(wc -l <"$D/pids")" 1
	assert_gone "$(cat "$D/pids")"
	shell_has_terminal back
}
