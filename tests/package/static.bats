#!/usr/bin/env bats
# What the static binary promises beyond the suite (make check-static runs
# both against build/static/retry): no dynamic dependency, and a run with
# nothing else on the file system but the binary and /etc.
bats_require_minimum_version 1.5.0
load ../test_helper/common

setup() {
	readelf -h "$RETRY" >/dev/null 2>&1 || skip "$RETRY is not an ELF file"
}

teardown() {
	[ -z "${TLS_PID:-}" ] || kill "$TLS_PID" 2>/dev/null
	[ -z "${PROBE_PID:-}" ] || kill "$PROBE_PID" 2>/dev/null
	[ -z "${DNS_PID:-}" ] || kill "$DNS_PID" 2>/dev/null
	true
}

@test "the static binary has no interpreter and needs no library, and ldd finds nothing to load" {
	run -0 readelf -l -d "$RETRY"
	refute_output --partial INTERP
	refute_output --partial NEEDED
	run ldd "$RETRY"
	assert_output --regexp "not a dynamic executable|statically linked"
	refute_output --partial "=>"
	echo "# $(wc -c <"$RETRY") bytes" >&3
}

@test "the static binary is position independent and its relocations read-only after start" {
	run -0 readelf -h -l -d "$RETRY"
	assert_output --regexp "Type: +DYN"
	assert_output --partial GNU_RELRO
	assert_output --regexp "FLAGS_1.*(NOW|PIE)"
}

@test "the order of the static binary's hot functions names functions it has" {
	local full=$RETRY.unstripped order=$ROOT/mk/static/order
	[ -f "$full" ] && [ -f "$order" ] || skip "no unstripped binary beside $RETRY"
	nm "$full" | awk '{ print $NF }' | sort -u >"$BATS_TEST_TMPDIR/has"
	sort -u "$order" >"$BATS_TEST_TMPDIR/order"
	local all missing
	all=$(wc -l <"$BATS_TEST_TMPDIR/order")
	missing=$(comm -23 "$BATS_TEST_TMPDIR/order" "$BATS_TEST_TMPDIR/has" | wc -l)
	echo "# $missing of $all names are not in the binary (make static-order)" >&3
	[ $((missing * 10)) -le "$all" ]
}

# A root of its own: the binary, /etc/hosts with a name only it has, and
# /etc/nsswitch.conf, and nothing of glibc's; chroot as root, or in a user
# namespace otherwise.
needs_chroot() {
	[ "$(id -u)" -eq 0 ] || unshare -r true 2>/dev/null ||
		skip "no chroot: not root, and no user namespaces"
	local d=$BATS_TEST_TMPDIR/root
	mkdir -p "$d/etc" "$d/tmp"
	cp "$RETRY" "$d/retry"
	printf '127.0.0.1 localhost retry-static-test\n' >"$d/etc/hosts"
	printf 'hosts: files\n' >"$d/etc/nsswitch.conf"
}

in_root() {
	if [ "$(id -u)" -eq 0 ]; then
		timeout 60 chroot "$BATS_TEST_TMPDIR/root" "$@"
	else
		timeout 60 unshare -r chroot "$BATS_TEST_TMPDIR/root" "$@"
	fi
}

@test "the static binary runs, retries and reports in a root with no shared libraries" {
	needs_chroot
	run -125 in_root /retry --max 2 --delay 10ms -- /retry --no-such-option
	assert_output --partial "retry: /retry --no-such-option: attempt 1/2 failed: exit 125"
	assert_output --partial "retry: /retry --no-such-option: giving up after 2 attempts"
	run -0 in_root /retry --max 1 -- /retry --version
	assert_output "retry $(cat "$ROOT/VERSION")"
}

@test "the static binary looks up a store's host in /etc/hosts without glibc's shared libraries" {
	needs_chroot
	# Port 1 on the loopback refuses: the name was found, then connected to.
	run -0 in_root /retry --max 1 --share x \
	    --share-store redis://retry-static-test:1 -- /retry --version
	assert_output --partial "cannot connect"
	refute_output --partial "looking up"
}

@test "the static binary verifies a TLS store's certificate in a root with no shared libraries and no CAs" {
	needs_chroot
	load ../test_helper/redis
	load ../test_helper/tls
	tls_start localhost
	mkdir -p "$BATS_TEST_TMPDIR/root/etc/ca"
	cp "$CERTS/ca.crt" "$BATS_TEST_TMPDIR/root/etc/ca/"
	printf '127.0.0.1 localhost\n' >"$BATS_TEST_TMPDIR/root/etc/hosts"
	printf 'rediss://localhost:%s/1?ssl_ca_certs=/etc/ca/ca.crt\n' \
	    "$TLS_PORT" >"$BATS_TEST_TMPDIR/root/etc/url"
	run -125 in_root /retry --share-store-file /etc/url --share tls --max 2 \
	    --immediate -- /retry --no-such-option
	refute_output --partial "going on without"
	run -0 tls_cli -n 1 HGET retry:tls:state failures
	assert_output 2
	# Without the CA, there is none to trust: refused.
	printf 'rediss://localhost:%s/1\n' "$TLS_PORT" >"$BATS_TEST_TMPDIR/root/etc/url"
	run -0 in_root /retry --share-store-file /etc/url --share tls --max 1 \
	    -- /retry --version
	assert_output --partial "TLS: the server's certificate is refused"
	tls_stop
}

@test "the static binary probes a name from the root's /etc/hosts without glibc's shared libraries" {
	needs_chroot
	command -v python3 >/dev/null || skip "python3 is not installed"
	local d=$BATS_TEST_TMPDIR port
	python3 "$ROOT/tests/probes/listen.py" 127.0.0.1:0 "$d/port" 3>&- &
	PROBE_PID=$!
	timeout 30 sh -c 'while [ ! -s "$0" ]; do sleep 0.05; done' "$d/port"
	port=$(cat "$d/port")
	run -0 in_root /retry --max 1 -- "tcp://retry-static-test:$port"
	# Port 1 on the loopback refuses: the name was found, then connected to.
	run -1 in_root /retry --max 1 -- tcp://retry-static-test:1
	assert_output --partial \
	    "retry: tcp://retry-static-te...: tcp://retry-static-test:1: connection refused (127.0.0.1)"
}

@test "the static binary probes a name that only DNS knows, from a server its empty root's /etc/resolv.conf names" {
	needs_chroot
	command -v python3 >/dev/null || skip "python3 is not installed"
	[ "$(id -u)" -eq 0 ] || skip "a DNS server on port 53 needs root"
	local d=$BATS_TEST_TMPDIR port
	python3 "$ROOT/tests/probes/dns.py" only-dns.retry.test "$d/dns" \
	    2>"$d/dns.err" 3>&- &
	DNS_PID=$!
	timeout 30 sh -c 'while [ ! -s "$0" ] && kill -0 "$1"; do sleep 0.05; done' \
	    "$d/dns" "$DNS_PID" 2>/dev/null
	[ -s "$d/dns" ] || skip "127.0.0.1 port 53 is taken: $(cat "$d/dns.err")"
	printf 'hosts: files dns\n' >"$d/root/etc/nsswitch.conf"
	printf 'nameserver 127.0.0.1\noptions timeout:1 attempts:2\n' \
	    >"$d/root/etc/resolv.conf"
	python3 "$ROOT/tests/probes/listen.py" 127.0.0.1:0 "$d/port" 3>&- &
	PROBE_PID=$!
	timeout 30 sh -c 'while [ ! -s "$0" ]; do sleep 0.05; done' "$d/port"
	port=$(cat "$d/port")
	run -0 in_root /retry --max 1 --timeout 20s -- \
	    "tcp://only-dns.retry.test:$port"
	run -1 in_root /retry --max 1 --timeout 20s -- \
	    "tcp://not-known.retry.test:$port"
	assert_output --partial "retry: tcp://not-known.retry...: tcp://not-known.retry.test:$port: "
}
