#!/usr/bin/env bats
# What the installed Debian package promises beyond the suite (make
# check-deb runs both against /usr/bin/retry): its files are where Debian
# looks for them, and the shells and man find them there.
bats_require_minimum_version 1.5.0
load ../test_helper/common

setup() {
	[ "$RETRY" = /usr/bin/retry ] || skip "runs against the installed package"
	dpkg-query -S /usr/bin/retry 2>/dev/null | grep -q '^retry-backoff:' ||
		skip "/usr/bin/retry is not the package retry-backoff's"
}

@test "the package's retry is this tree's version, and show-backoff-delays is retry" {
	run -0 /usr/bin/retry --version
	assert_output "retry $(cat "$ROOT/VERSION")"
	assert_equal "$(readlink /usr/bin/show-backoff-delays)" retry
	run -0 /usr/bin/show-backoff-delays --exp 1s --max 3
	assert_output "$(printf '1\n2\n-1')"
}

@test "bash completes an option from the installed completion, loaded on demand" {
	[ -f /usr/share/bash-completion/bash_completion ] || skip "no bash-completion"
	# Only the system's directories, not /usr/local's or the user's.
	mkdir -p "$BATS_TEST_TMPDIR/none"
	run -0 env XDG_DATA_DIRS=/usr/share \
	    BASH_COMPLETION_USER_DIR="$BATS_TEST_TMPDIR/none" bash -c '
		source /usr/share/bash-completion/bash_completion
		_completion_loader retry
		COMP_WORDS=(retry --exp); COMP_CWORD=1
		COMP_LINE="retry --exp"; COMP_POINT=${#COMP_LINE}
		func=$(complete -p retry | sed -n "s/.*-F \([^ ]*\).*/\1/p")
		"$func" retry --exp retry
		printf "%s\n" "${COMPREPLY[@]}"'
	assert_line --regexp '^--exp(onential)?=?$'
	run -0 dpkg-query -S /usr/share/bash-completion/completions/show-backoff-delays
}

@test "zsh and fish find the installed completions where Debian puts them" {
	run -0 dpkg-query -S /usr/share/zsh/vendor-completions/_retry
	run -0 dpkg-query -S /usr/share/fish/vendor_completions.d/retry.fish
	command -v fish >/dev/null || skip "no fish"
	run -0 env XDG_DATA_DIRS=/usr/share \
	    XDG_CONFIG_HOME="$BATS_TEST_TMPDIR/config" \
	    XDG_DATA_HOME="$BATS_TEST_TMPDIR/data" fish -c 'complete -C "retry --ex"'
	assert_line --regexp '^--exp'
}

@test "man retry and man show-backoff-delays read the installed pages" {
	command -v man >/dev/null || skip "no man"
	run -0 man -w retry
	assert_output /usr/share/man/man1/retry.1.gz
	run -0 env MANWIDTH=80 MAN_KEEP_FORMATTING= man -P cat retry
	assert_output --partial COMPATIBILITY
	assert_output --partial "Debian's retry"
	run -0 env MANWIDTH=80 man -P cat show-backoff-delays
	assert_output --partial "Algorithm::Backoff"
}
