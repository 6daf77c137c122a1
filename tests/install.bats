#!/usr/bin/env bats
# make install and make uninstall, into a staging directory.
bats_require_minimum_version 1.5.0
load test_helper/common

@test "make install puts everything where it belongs, and uninstall takes it away" {
	local d=$BATS_TEST_TMPDIR/stage
	run -0 make -s -C "$ROOT" install DESTDIR="$d" PREFIX=/usr \
	    FISHCOMPDIR=/usr/share/fish/vendor_completions.d
	[ -x "$d/usr/bin/retry" ]
	assert_equal "$(readlink "$d/usr/bin/show-backoff-delays")" retry
	run -0 "$d/usr/bin/show-backoff-delays" --exp 1s --max 3
	assert_output "$(printf '1\n2\n-1')"
	[ -f "$d/usr/share/man/man1/retry.1" ]
	[ -f "$d/usr/share/man/man1/show-backoff-delays.1" ]
	[ -f "$d/usr/share/bash-completion/completions/retry" ]
	assert_equal "$(readlink "$d/usr/share/bash-completion/completions/show-backoff-delays")" retry
	[ -f "$d/usr/share/zsh/site-functions/_retry" ]
	[ -f "$d/usr/share/fish/vendor_completions.d/retry.fish" ]
	run -0 make -s -C "$ROOT" uninstall DESTDIR="$d" PREFIX=/usr
	run -0 find "$d" -type f -o -type l
	assert_output ""
}

@test "BINDIR and MANDIR override PREFIX" {
	local d=$BATS_TEST_TMPDIR/stage
	run -0 make -s -C "$ROOT" install DESTDIR="$d" BINDIR=/opt/b \
	    MANDIR=/opt/m BASHCOMPDIR=/opt/c ZSHCOMPDIR=/opt/z FISHCOMPDIR=/opt/f
	[ -x "$d/opt/b/retry" ]
	[ -f "$d/opt/m/man1/retry.1" ]
	[ -f "$d/opt/c/retry" ]
}
