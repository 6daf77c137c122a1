# A real terminal for the tests: an interactive bash in a tmux server of
# the test's own (its socket $SOCK in the test's directory, so that
# nothing is left over), keys sent with send-keys, the screen read with
# capture-pane.
# shellcheck shell=bash
# screen takes capture-pane's options, or none:
# shellcheck disable=SC2119,SC2120

# Starts the server, its one pane $1 columns by $2 lines running an
# interactive bash with a plain prompt and no history expansion.
tmux_shell() {
	printf '%s\n' 'PS1="$ "' 'PROMPT_COMMAND=' 'set +o histexpand' \
	    >"$D/rc"
	tmux -S "$SOCK" -f /dev/null new-session -d -x "$1" -y "$2" \
	    "bash --rcfile '$D/rc' --noprofile -i" </dev/null >/dev/null 3>&-
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
