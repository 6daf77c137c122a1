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

# Waits, up to about 10 s, until the pane shows text matching regex $1.
wait_screen() {
	local i
	for ((i = 0; i < 200; i++)); do
		screen | grep -Eq -- "$1" && return 0
		sleep 0.05
	done
	screen >&2
	fail "timed out waiting for /$1/ on the screen"
}

# Waits, up to about 10 s, until the pane no longer shows regex $1.
wait_screen_not() {
	local i
	for ((i = 0; i < 200; i++)); do
		screen | grep -Eq -- "$1" || return 0
		sleep 0.05
	done
	fail "/$1/ stayed on the screen"
}
