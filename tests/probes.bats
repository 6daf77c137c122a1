#!/usr/bin/env bats
# Probes in the command's place: tcp://HOST:PORT and unix:///PATH, each
# attempt a connection, against listeners on the loopback.
bats_require_minimum_version 1.5.0
load test_helper/common
load test_helper/procs

setup() {
	command -v python3 >/dev/null || skip "python3 is not installed"
}

teardown() {
	local pid
	for pid in $(cat "$BATS_TEST_TMPDIR/pids" 2>/dev/null); do
		kill "$pid" 2>/dev/null || :
	done
}

# Starts a listener on $1 (HOST:PORT or a socket's path), writing to $2;
# returns once it listens.
listen() {
	python3 "$BATS_TEST_DIRNAME/probes/listen.py" "$@" 3>&- &
	echo $! >>"$BATS_TEST_TMPDIR/pids"
	poll_until 30 test -s "$2"
}

@test "a listener that accepts: success on the first attempt, the connection closed" {
	local d=$BATS_TEST_TMPDIR
	listen 127.0.0.1:0 "$d/port"
	run --separate-stderr retry --max 3 --fixed 10ms -- \
	    "tcp://127.0.0.1:$(cat "$d/port")"
	assert_success
	assert_equal "$stderr" ""
	assert_equal "$output" ""
	poll_until 30 test -s "$d/port.accepted"
	assert_equal "$(wc -l <"$d/port.accepted")" 1
}

@test "a refused port is retried, and each attempt says what refused it; exit 1" {
	local port
	port=$(free_port)
	run --separate-stderr retry --max 3 --fixed 10ms -- \
	    "tcp://127.0.0.1:$port"
	assert_failure 1
	assert_equal "${stderr_lines[0]}" \
	    "retry: tcp://127.0.0.1:$port: connection refused (127.0.0.1)"
	assert_regex "${stderr_lines[1]}" \
	    "^retry: tcp://127.0.0.1:$port: attempt 1/3 failed: exit 1 after "
	assert_equal "$(grep -c 'connection refused' <<<"$stderr")" 3
	assert_regex "${stderr_lines[5]}" "giving up after 3 attempts in .*: exit 1$"
}

@test "a listener that starts after the second attempt: success on the third" {
	local d=$BATS_TEST_TMPDIR port
	port=$(free_port)
	export LISTEN="$BATS_TEST_DIRNAME/probes/listen.py" D=$d PORT=$port
	run --separate-stderr retry --max 5 --fixed 10ms --on-retry '
	    [ "$RETRY_ATTEMPT" = 2 ] || exit 0
	    python3 "$LISTEN" "127.0.0.1:$PORT" "$D/port" 3>&- &
	    echo $! >>"$D/pids"
	    while [ ! -s "$D/port" ]; do sleep 0.05; done' \
	    -- "tcp://127.0.0.1:$port"
	assert_success
	assert_equal "$(grep -c 'connection refused' <<<"$stderr")" 2
	assert_regex "${stderr_lines[-1]}" "succeeded on attempt 3 of 5 after "
}

@test "a unix socket's path: refused while nothing listens, then accepted" {
	local d=$BATS_TEST_TMPDIR
	run --separate-stderr retry --max 1 -- "unix://$d/sock"
	assert_failure 1
	assert_equal "${stderr_lines[0]}" \
	    "retry: $(command_name "unix://$d/sock"): unix://$d/sock: No such file or directory"
	listen "$d/sock" "$d/ready"
	run --separate-stderr retry --max 1 -- "unix://$d/sock"
	assert_success
	assert_equal "$stderr" ""
}

@test "a unix socket whose backlog is full is waited for up to --timeout, as a tcp:// one is" {
	local d=$BATS_TEST_TMPDIR pid
	python3 "$BATS_TEST_DIRNAME/probes/fullq.py" "$d/sock" "$d/ready" "$d/go" 3>&- &
	echo $! >>"$d/pids"
	poll_until 30 test -s "$d/ready"
	run --separate-stderr retry --max 1 --timeout 200ms -- "unix://$d/sock"
	assert_failure 124
	assert_equal "${stderr_lines[0]}" "retry: $(command_name "unix://$d/sock"): unix://$d/sock: no connection within 200ms"
	# Let in once retry waits (in its one wait, state S): it connects.
	"$RETRY" --max 1 --timeout 60s -- "unix://$d/sock" 2>"$d/err" 3>&- &
	pid=$!
	poll_until 30 eval '[ "$(state_of "$pid")" = S ]'
	touch "$d/go"
	wait "$pid"
	assert_equal "$(cat "$d/err")" ""
}

@test "a name that /etc/hosts knows (localhost) is looked up and connected to" {
	local d=$BATS_TEST_TMPDIR
	getent hosts localhost | grep -q '127\.0\.0\.1' ||
	    skip "localhost is not 127.0.0.1 here"
	listen 127.0.0.1:0 "$d/port"
	run --separate-stderr retry --max 1 -- "tcp://localhost:$(cat "$d/port")"
	assert_success
}

@test "a lookup that a silent resolver held up is ended with its attempt, and the next asks anew" {
	[ "$(id -u)" -eq 0 ] || skip "a DNS server on port 53 needs root"
	unshare -m true 2>/dev/null || skip "no mount namespace of its own"
	local d=$BATS_TEST_TMPDIR port n
	python3 "$BATS_TEST_DIRNAME/probes/dns.py" late.retry.test "$d/dns" \
	    127.53.0.9 "$d/gate" 2>"$d/dns.err" 3>&- &
	echo $! >>"$d/pids"
	local dns=$!
	poll_until 30 eval '[ -s "$d/dns" ] || ! kill -0 "$dns" 2>/dev/null'
	[ -s "$d/dns" ] || skip "127.53.0.9 port 53 is taken: $(cat "$d/dns.err")"
	listen 127.0.0.1:0 "$d/port"
	port=$(cat "$d/port")
	# A resolver that holds each lookup 10 s.
	printf 'hosts: dns\n' >"$d/nsswitch.conf"
	printf 'nameserver 127.53.0.9\noptions timeout:5 attempts:2\n' >"$d/resolv.conf"
	unshare -m sh -c 'mount --bind "$1/resolv.conf" /etc/resolv.conf &&
	    mount --bind "$1/nsswitch.conf" /etc/nsswitch.conf &&
	    exec "$2" --immediate --timeout 200ms --max 1000 -- "$3"' _ \
	    "$d" "$RETRY" "tcp://late.retry.test:$port" 2>>"$d/err" 3>&- &
	local pid=$!
	echo "$pid" >>"$d/pids"
	poll_until 60 eval '[ "$(grep -c "no address within" "$d/err")" -ge 5 ]'
	# Each lookup given up is ended: no thread or request is left
	# waiting for the resolver, and retry has no thread but its own.
	assert_equal "$(ls "/proc/$pid/task" | wc -l)" 1
	echo gate >>"$d/err"
	touch "$d/gate"
	wait "$pid"
	# The attempt that asked before the gate may still fail; the next
	# asks anew and is answered.
	n=$(sed '1,/^gate$/d' "$d/err" | grep -c "no address within" || true)
	((n <= 1)) || fail "$n attempts failed after the resolver answered: $(tail -5 "$d/err")"
}

@test "an IPv6 address in brackets" {
	local port
	python3 -c 'import socket; socket.socket(socket.AF_INET6).bind(("::1", 0))' \
	    2>/dev/null || skip "no IPv6 loopback"
	port=$(free_port)
	run --separate-stderr retry --max 1 -- "tcp://[::1]:$port"
	assert_failure 1
	assert_equal "${stderr_lines[0]}" \
	    "retry: 'tcp://[::1]:$port': connection refused (::1)"
}

@test "a name that cannot be looked up fails the attempt, saying so" {
	run --separate-stderr retry --max 2 --fixed 10ms --timeout 20s -- \
	    tcp://nonexistent.invalid:80
	assert_failure
	assert_regex "${stderr_lines[0]}" "^retry: tcp://nonexistent\\.inv\\.\\.\\.: tcp://nonexistent\\.invalid:80: "
	assert_regex "$stderr" "giving up after 2 attempts"
}

@test "--timeout bounds a connection that is not answered: 124, and the line says so" {
	local d=$BATS_TEST_TMPDIR t0 t1
	listen 127.0.0.1:0 "$d/port" full
	t0=$(now_ms)
	run --separate-stderr retry --max 2 --fixed 10ms --timeout 200ms -- \
	    "tcp://127.0.0.1:$(cat "$d/port")"
	t1=$(now_ms)
	assert_failure 124
	assert_equal "${stderr_lines[0]}" "retry: tcp://127.0.0.1:$(cat "$d/port"): no connection within 200ms (127.0.0.1)"
	assert_regex "${stderr_lines[1]}" "attempt 1/2 failed: timed out after "
	[ $((t1 - t0)) -lt 20000 ]
}

@test "what is left of --budget bounds a probe without --timeout" {
	local d=$BATS_TEST_TMPDIR t0 t1
	listen 127.0.0.1:0 "$d/port" full
	t0=$(now_ms)
	run --separate-stderr retry --budget 300ms --fixed 10ms -- \
	    "tcp://127.0.0.1:$(cat "$d/port")"
	t1=$(now_ms)
	assert_failure
	assert_regex "${stderr_lines[0]}" "no connection within "
	[ $((t1 - t0)) -lt 20000 ]
}

@test "RETRY_* reach the hooks of a probe's run" {
	local port
	port=$(free_port)
	run --separate-stderr retry --max 2 --fixed 10ms \
	    --on-giveup 'echo "hook $RETRY_ATTEMPT $RETRY_LAST_STATUS" >&2' \
	    -- "tcp://127.0.0.1:$port"
	assert_failure 1
	assert_regex "$stderr" "hook 2 1"
}

@test "a bad probe is refused in one line, 125" {
	local bad
	for bad in tcp://db tcp://db: tcp://:80 tcp://db:0 tcp://db:65536 \
	    tcp://db:http tcp://::1:80 'tcp://[::1]' tcp://[::1:80 unix:// \
	    unix://run/db.sock; do
		run retry -- "$bad"
		assert_usage_error "probe '.*': "
	done
	run retry -- tcp://db:80 extra
	assert_usage_error "takes no arguments"
}

@test "options about a process or its output are refused with a probe" {
	local opt
	for opt in '--until-output x' '--fail-if-output x' '--hold-stdout' \
	    '--stdin replay' '--kill-after 1s' '--signal INT' \
	    '--preserve-status' '--foreground'; do
		# shellcheck disable=SC2086
		run retry $opt -- tcp://db:80
		assert_usage_error "a probe \\(tcp://db:80\\) has"
	done
}

@test "./tcp://x runs a file of that name, as a command" {
	local d=$BATS_TEST_TMPDIR
	mkdir -p "$d/tcp:"
	printf '#!/bin/sh\necho ran\n' >"$d/tcp:/x"
	chmod +x "$d/tcp:/x"
	cd "$d"
	run --separate-stderr retry --max 1 -- ./tcp://x
	assert_success
	assert_output ran
}

@test "a signal ends a probe that waits for an answer at once: 128 + N" {
	local d=$BATS_TEST_TMPDIR pid st=0 t0 t1
	listen 127.0.0.1:0 "$d/port" full
	"$RETRY" --verbose --max 1 --timeout 60s -- \
	    "tcp://127.0.0.1:$(cat "$d/port")" 2>"$d/err" 3>&- &
	pid=$!
	poll_until 30 grep -q starting "$d/err"
	t0=$(now_ms)
	kill -TERM "$pid"
	wait "$pid" || st=$?
	t1=$(now_ms)
	assert_equal "$st" 143
	[ $((t1 - t0)) -lt 20000 ]
	run grep -c 'SIGTERM during attempt 1/1' "$d/err"
	assert_output 1
}

@test "-q silences retry's reports, not what the probe says of its failure" {
	local port
	port=$(free_port)
	run --separate-stderr retry -q --max 1 -- "tcp://127.0.0.1:$port"
	assert_failure 1
	assert_equal "$stderr" \
	    "retry: tcp://127.0.0.1:$port: connection refused (127.0.0.1)"
}

# A scratch or distroless image: a static binary alone in its root, with
# no shell, no /etc, no /dev and no /proc, still probes a service.
@test "a static binary alone in an empty root probes a listener" {
	local d=$BATS_TEST_TMPDIR root=$BATS_TEST_TMPDIR/root
	! readelf -l "$RETRY" 2>/dev/null | grep -q 'program interpreter' ||
		skip "a dynamic binary needs its libraries in the root"
	[ "$(id -u)" -eq 0 ] || skip "chroot needs root"
	mkdir "$root"
	cp "$RETRY" "$root/retry"
	listen 127.0.0.1:0 "$d/port"
	run --separate-stderr chroot "$root" /retry --max 3 --fixed 10ms -- \
	    "tcp://127.0.0.1:$(cat "$d/port")"
	assert_success
	assert_equal "$stderr" ""
	run --separate-stderr chroot "$root" /retry --max 2 --fixed 10ms -- \
	    "tcp://127.0.0.1:$(free_port)"
	assert_failure 1
	assert_regex "${stderr_lines[3]}" 'giving up after 2 attempts'
	assert_equal "$(ls "$root")" retry
}
