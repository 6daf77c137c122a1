#!/usr/bin/env bats
# What the static binary promises beyond the suite (make check-static runs
# both against build/static/retry): no dynamic dependency, and a run with
# nothing else on the file system but the binary and /etc.
bats_require_minimum_version 1.5.0
load ../test_helper/common

setup() {
	readelf -h "$RETRY" >/dev/null 2>&1 || skip "$RETRY is not an ELF file"
}

@test "the static binary has no dynamic section, no interpreter, and ldd finds nothing to load" {
	run -0 readelf -l -d "$RETRY"
	refute_output --partial INTERP
	refute_output --partial NEEDED
	assert_output --partial "There is no dynamic section"
	run ldd "$RETRY"
	assert_output --regexp "not a dynamic executable|statically linked"
	refute_output --partial "=>"
	echo "# $(wc -c <"$RETRY") bytes" >&3
}

# A root of its own: the binary, /etc/hosts and /etc/nsswitch.conf, and
# nothing of glibc's; chroot as root, or in a user namespace otherwise.
in_root() {
	local d=$BATS_TEST_TMPDIR/root
	mkdir -p "$d/etc" "$d/tmp"
	cp "$RETRY" "$d/retry"
	printf '127.0.0.1 localhost\n::1 localhost\n' >"$d/etc/hosts"
	printf 'hosts: files dns\n' >"$d/etc/nsswitch.conf"
	if [ "$(id -u)" -eq 0 ]; then
		timeout 60 chroot "$d" "$@"
	else
		unshare -r true 2>/dev/null || skip "no chroot: not root, and no user namespaces"
		timeout 60 unshare -r chroot "$d" "$@"
	fi
}

@test "the static binary runs, retries and reports in a root with no shared libraries" {
	run -125 in_root /retry --max 2 --delay 10ms -- /retry --no-such-option
	assert_output --partial "retry: attempt 1/2 failed: exit 125"
	assert_output --partial "retry: giving up after 2 attempts"
	run -0 in_root /retry --max 1 -- /retry --version
	assert_output "retry $(cat "$ROOT/VERSION")"
}

@test "the static binary looks up a store's host name in /etc/hosts without glibc's shared libraries" {
	# Port 1 on the loopback refuses: the name was found, then connected to.
	run -0 in_root /retry --max 1 --share x --share-store redis://localhost:1 \
	    -- /retry --version
	assert_output --partial "cannot connect"
	refute_output --partial "looking up"
}
