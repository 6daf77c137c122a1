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
	local page
	for page in "$ROOT"/man/*.[17]; do
		page=${page##*/}
		[ -f "$d/usr/share/man/man${page##*.}/$page" ] ||
		    fail "make install did not install $page"
	done
	[ -f "$d/usr/share/man/man1/retry-share.1" ]
	[ -f "$d/usr/share/man/man7/retry-compat.7" ]
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
	[ -f "$d/opt/m/man7/retry-compat.7" ]
	[ -f "$d/opt/c/retry" ]
}

@test "make dist packs the commit checked out and counts what it leaves out" {
	git -C "$ROOT" rev-parse --verify -q HEAD >/dev/null ||
	    skip "not a git checkout"
	local c=$BATS_TEST_TMPDIR/clone v
	v=$(cat "$ROOT/VERSION")
	git clone -q "$ROOT" "$c"
	# A file touched but not changed is not a change.
	touch "$c/Makefile"
	run -0 --separate-stderr make -s -C "$c" dist
	assert_equal "$stderr" ""
	# A change and a new file are left out, and counted.
	echo changed >>"$c/README.md"
	echo new >"$c/src/new.c"
	run -0 --separate-stderr make -s -C "$c" dist
	assert_equal "$stderr" "make dist: 2 files changed or new are not committed and are left out (git status lists them)"
	run -0 tar -tzf "$c/retry-$v.tar.gz"
	refute_line "retry-$v/src/new.c"
	assert_line "retry-$v/README.md"
	run -0 tar -xzOf "$c/retry-$v.tar.gz" "retry-$v/README.md"
	refute_line changed
}
