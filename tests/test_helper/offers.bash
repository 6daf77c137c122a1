# Completions as each shell offers them: complete_lines drives a real
# bash, zsh or fish, offers reads what it offered.  Loaded by the bats
# files after test_helper/common.
# shellcheck shell=bash
# bats sets output and lines, read by bats-assert:
# shellcheck disable=SC2034

# complete_lines SHELL LINE...: completes every LINE in one SHELL (starting
# a shell and loading its completion system is most of what a completion
# costs); then "offers N" sets output and lines to what it offered for the
# Nth LINE.  COMPLETE_TIMEOUT bounds the shell's time (default 30 s).
complete_lines() {
	local shell=$1 script l ends t=${COMPLETE_TIMEOUT:-30}
	shift
	case $shell in
	bash) timeout "$t" bash "$ROOT/tests/test_helper/complete.bash" "$@" ;;
	zsh)
		# A dump of its own for each file: files run in parallel.
		RETRY_ZCOMPDUMP=${BATS_FILE_TMPDIR:-$BATS_RUN_TMPDIR}/zcompdump \
		timeout "$t" zsh "$ROOT/tests/test_helper/complete.zsh" "$@" ;;
	fish)
		script="source '$ROOT/completions/retry.fish'"
		for l in "$@"; do
			script+=$'\n'"complete -C '$l' | cut -f1 | sort -u; echo --end--"
		done
		timeout "$t" fish -c "$script" ;;
	esac >"$BATS_TEST_TMPDIR/offers" || {
		echo "$shell failed to complete $*"
		return 1
	}
	ends=$(grep -c -- '^--end--$' "$BATS_TEST_TMPDIR/offers")
	[ "$ends" -eq $# ] || {
		echo "$shell completed $ends of $# lines:"
		cat "$BATS_TEST_TMPDIR/offers"
		return 1
	}
	# Each line's offers in a file of its own, offers.N: read once, not
	# once a line.
	rm -f "$BATS_TEST_TMPDIR"/offers.*
	awk -v to="$BATS_TEST_TMPDIR/offers." '
	    /^--end--$/ { close(to (n + 1)); n++; next }
	    { print > (to (n + 1)) }' \
	    "$BATS_TEST_TMPDIR/offers"
}

offers() {
	lines=()
	[ ! -f "$BATS_TEST_TMPDIR/offers.$1" ] ||
		mapfile -t lines <"$BATS_TEST_TMPDIR/offers.$1"
	local IFS=$'\n'
	output="${lines[*]}"
}

# Fails when the last run's output has the line.
refute_offered() {
	[[ $'\n'$output$'\n' != *$'\n'"$1"$'\n'* ]] || {
		echo "'$1' was offered"
		return 1
	}
}


# check_each_shell LINE WANT...: bash, zsh and fish each offer every WANT
# for LINE; fails naming the shell that did not.
check_each_shell() {
	local line=$1 shell want
	shift
	for shell in bash zsh fish; do
		complete_lines "$shell" "$line"
		offers 1
		for want in "$@"; do
			assert_line "$want" || {
				echo "$shell did not offer '$want' for '$line'"
				return 1
			}
		done
	done
}
