#!/usr/bin/env bats
# What the installed Debian package promises beyond the suite (make
# check-deb runs both against /usr/bin/retry): its files are where Debian
# looks for them, and the shells and man find them there.
bats_require_minimum_version 1.5.0
load ../test_helper/common
load ../test_helper/redis

setup() {
	[ "$RETRY" = /usr/bin/retry ] || skip "runs against the installed package"
	dpkg-query -S /usr/bin/retry 2>/dev/null | grep -q '^retry-backoff:' ||
		skip "/usr/bin/retry is not the package retry-backoff's"
}

teardown() {
	[ -z "${SILENT_PID:-}" ] || kill "$SILENT_PID" 2>/dev/null
	true
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

# The pages man finds are read with -l, past man-db's cache of formatted
# pages: every build of one version gives them the same time (the
# changelog's), so a page formatted from an earlier build would pass for
# this one's.
@test "man retry, its other pages and man show-backoff-delays read the installed pages" {
	command -v man >/dev/null || skip "no man"
	run -0 man -w retry
	assert_output /usr/share/man/man1/retry.1.gz
	run -0 env MANWIDTH=80 MAN_KEEP_FORMATTING= man -P cat -l "$output"
	assert_output --partial COMPATIBILITY
	assert_output --partial "retry-compat(7)"
	run -0 man -w retry-compat
	assert_output /usr/share/man/man7/retry-compat.7.gz
	run -0 env MANWIDTH=80 MAN_KEEP_FORMATTING= man -P cat -l "$output"
	assert_output --partial "Debian's retry"
	run -0 man -w retry-share
	assert_output /usr/share/man/man1/retry-share.1.gz
	run -0 env MANWIDTH=80 MAN_KEEP_FORMATTING= man -P cat -l "$output"
	assert_output --partial "share status"
	run -0 man -w retry-simulate
	assert_output /usr/share/man/man1/retry-simulate.1.gz
	run -0 env MANWIDTH=80 MAN_KEEP_FORMATTING= man -P cat -l "$output"
	assert_output --partial "The load model"
	run -0 man -w show-backoff-delays
	assert_output /usr/share/man/man1/show-backoff-delays.1.gz
	run -0 env MANWIDTH=80 man -P cat -l "$output"
	assert_output --partial "Algorithm::Backoff"
}

# hiredis and OpenSSL are loaded only by a run with a Redis store, so the
# package recommends them (Debian policy 7.2); PCRE2, which output rules
# load and any run may give, stays a dependency.  make check-deb names the
# package file in RETRY_DEB.
@test "the package depends on PCRE2 and recommends hiredis and OpenSSL, which only a Redis store loads" {
	[ -n "${RETRY_DEB:-}" ] || skip "make check-deb names the package file"
	run -0 dpkg-deb -f "$RETRY_DEB" Depends
	assert_output --regexp '(^|, )libpcre2-8-0( |,|$)'
	refute_output --regexp 'libhiredis|libssl'
	run -0 dpkg-deb -f "$RETRY_DEB" Recommends
	assert_output --regexp '(^|, )libhiredis[0-9.]+( |,|$)'
	assert_output --regexp '(^|, )libssl[0-9]+( |,|$)'
	# shellcheck disable=SC2016  # dpkg-query's fields
	run -0 dpkg-query -W -f '${Depends}\n${Recommends}' retry-backoff
	assert_equal "$output" "$(dpkg-deb -f "$RETRY_DEB" Depends)
$(dpkg-deb -f "$RETRY_DEB" Recommends)"
}

# The installed binary as where hiredis and OpenSSL are not installed:
# what the loader finds first by their sonames (those the binary names) is
# no library, as tests/hygiene.bats breaks libm and PCRE2.
without_redis_libs() {
	local so
	WITHOUT=$BATS_TEST_TMPDIR/without
	mkdir -p "$WITHOUT"
	for so in $(grep -aoE 'lib(hiredis|ssl|crypto)\.so\.[0-9][0-9.]*' \
	    /usr/bin/retry | sort -u); do
		echo 'not a library' >"$WITHOUT/$so"
	done
	run -0 ls "$WITHOUT"
	assert_line --regexp '^libhiredis\.so\.'
	assert_line --regexp '^libssl\.so\.'
	assert_line --regexp '^libcrypto\.so\.'
}

@test "without hiredis and OpenSSL the installed retry retries, and shares through a file store" {
	without_redis_libs
	# shellcheck disable=SC2016  # for the attempt's shell
	run -0 env LD_LIBRARY_PATH="$WITHOUT" timeout 60 /usr/bin/retry \
	    --max 3 --fixed 1ms -- sh -c \
	    '[ "$RETRY_ATTEMPT" = 2 ] || exit 1; cat /proc/$PPID/maps'
	assert_line --index 0 --regexp ': attempt 1/3 failed: exit 1 after .*; next attempt in 1ms$'
	assert_line --regexp ': succeeded on attempt 2 of 3 after '
	refute_output --regexp 'libhiredis|libssl|libcrypto'
	run -0 --separate-stderr env LD_LIBRARY_PATH="$WITHOUT" timeout 60 \
	    /usr/bin/retry --share pkg --share-store "file:$BATS_TEST_TMPDIR/store" \
	    --share-required --max 1 -- echo ran
	assert_output ran
	assert_equal "$stderr" ''
	[ -d "$BATS_TEST_TMPDIR/store" ]
}

@test "without hiredis or OpenSSL a Redis store is said to need it in one line, and the command runs unshared" {
	without_redis_libs
	run -0 --separate-stderr env LD_LIBRARY_PATH="$WITHOUT" timeout 60 \
	    /usr/bin/retry --share pkg --share-store redis://127.0.0.1:1 \
	    --max 1 -- echo ran
	assert_output ran
	[[ $stderr =~ ^retry:\ echo\ ran:\ --share\ pkg:\ redis://127\.0\.0\.1:1/0:\ Redis\ needs\ hiredis:\ .*libhiredis\.so\..*\;\ going\ on\ without\ the\ shared\ state ]] ||
		fail "$stderr"
	assert_equal "${#stderr_lines[@]}" 1
	# hiredis there, OpenSSL not: a redis:// store does not need it (the
	# closed port is what it says), a rediss:// one that connects does.
	rm "$WITHOUT"/libhiredis.so.*
	run -0 --separate-stderr env LD_LIBRARY_PATH="$WITHOUT" timeout 60 \
	    /usr/bin/retry --share pkg --share-store redis://127.0.0.1:1 \
	    --max 1 -- echo ran
	assert_output ran
	[[ $stderr =~ ^retry:\ echo\ ran:\ --share\ pkg:\ redis://127\.0\.0\.1:1/0:\ cannot\ connect:\ .*\;\ going\ on\ without\ the\ shared\ state ]] ||
		fail "$stderr"
	assert_equal "${#stderr_lines[@]}" 1
	silent_start
	run -0 --separate-stderr env LD_LIBRARY_PATH="$WITHOUT" timeout 60 \
	    /usr/bin/retry --share pkg \
	    --share-store "rediss://127.0.0.1:$SILENT_PORT" --max 1 -- echo ran
	assert_output ran
	[[ $stderr =~ ^retry:\ echo\ ran:\ --share\ pkg:\ rediss://127\.0\.0\.1:$SILENT_PORT/0:\ TLS\ needs\ OpenSSL:\ .*lib(ssl|crypto)\.so\..*\;\ going\ on\ without\ the\ shared\ state ]] ||
		fail "$stderr"
	assert_equal "${#stderr_lines[@]}" 1
}
