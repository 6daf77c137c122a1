# A real terminal for the tests: an interactive bash in a tmux server of
# the test's own (its socket $SOCK in the test's directory, so that
# nothing is left over), keys sent with send-keys, the screen read with
# capture-pane.
# shellcheck shell=bash
# screen takes capture-pane's options, or none:
# shellcheck disable=SC2119,SC2120

# Starts the server (skipping the test where tmux is not installed), its
# socket $SOCK in the test's directory $D, with one pane $1 columns by $2
# lines running the shell command $3.
tmux_pane() {
	command -v tmux >/dev/null || skip "tmux is not installed"
	D=${D:-$BATS_TEST_TMPDIR}
	SOCK=$D/tmux.sock
	tmux -S "$SOCK" -f /dev/null new-session -d -x "$1" -y "$2" "$3" \
	    </dev/null >/dev/null 3>&-
}

# The same, the pane running an interactive bash with a plain prompt and
# no history expansion.
tmux_shell() {
	D=${D:-$BATS_TEST_TMPDIR}
	printf '%s\n' 'PS1="$ "' 'PROMPT_COMMAND=' 'set +o histexpand' \
	    >"$D/rc"
	tmux_pane "$1" "$2" "bash --rcfile '$D/rc' --noprofile -i"
}

# Everything the pane writes, appended to file $1 as it comes.
tmux_record() {
	tmux -S "$SOCK" pipe-pane -O "cat >>'$1'"
}

# The server killed, with all it runs, if the test started one; for
# teardown, never fails.
tmux_end() {
	[ -z "${SOCK:-}" ] || tmux -S "$SOCK" kill-server 2>/dev/null
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

# The screen's lines, trailing blanks cut.
screen() {
	tmux -S "$SOCK" capture-pane -p "$@" | sed 's/ *$//'
}

# Whether the pane shows text matching extended regex $1.
shows() {
	screen | grep -Eq -- "$1"
}

# Waits, up to ${2:-10} s, until the pane shows text matching regex $1.
wait_screen() {
	poll_until "${2:-10}" shows "$1" 2>/dev/null && return
	screen >&2
	fail "timed out waiting for /$1/ on the screen"
}

# Waits, up to 10 s, until the pane no longer shows regex $1.
wait_screen_not() {
	poll_until 10 not shows "$1" 2>/dev/null && return
	fail "/$1/ stayed on the screen"
}

# Whether file $1 holds at least $3 times the string $2.
holds_times() {
	[ "$(grep -aoF -- "$2" "$1" 2>/dev/null | wc -l)" -ge "$3" ]
}

# Waits, up to 20 s, until what the pane wrote to file $1 (tmux_record's)
# holds ${3:-1} times the string $2.
wait_bytes() {
	poll_until 20 holds_times "$1" "$2" "${3:-1}"
}

# Waits, up to ${3:-10} s, until what the pane wrote to file $1 has a line
# matching extended regex $2; shows the screen if it does not.
wait_recorded() {
	poll_until "${3:-10}" has_match "$1" "$2" && return
	screen >&2
	return 1
}

# Has the pane's shell report, with builtins only, whether the terminal
# is back in its hands, waits for the answer in $D/$1, and asserts it is.
shell_has_terminal() {
	rm -f "$D/$1"
	type_line "read -ra f </proc/\$\$/stat; [ \${f[7]} = \$\$ ] && echo yes >'$D/$1' || echo no >'$D/$1'"
	wait_lines "$D/$1"
	assert_equal "$(cat "$D/$1")" yes
}

# Starts the shell in a pane $1 columns by 40 lines, in $D, its screen
# cleared.
start_shell() {
	tmux_shell "$1" 40
	type_line "cd '$D' && echo ready >ready"
	wait_lines "$D/ready"
	type_line clear
	wait_screen_not ready
}

# A pane of 120 columns by 40 lines running an interactive bash, all it
# shows logged to $D/pane ($D the test's directory).
pane_start() {
	D=$BATS_TEST_TMPDIR
	tmux_shell 120 40
	tmux_record "$D/pane"
}
