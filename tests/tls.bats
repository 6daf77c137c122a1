#!/usr/bin/env bats
# --share on Redis over TLS (rediss://): a real redis-server with a TLS
# port on 127.0.0.1, its certificates made by openssl for the file, one
# server a test, stopped by its pid.
bats_require_minimum_version 1.5.0
load test_helper/common
load test_helper/share

# A Redis store is refused by a build without Redis (tests/noredis.bats).
setup() {
	! noredis || skip "a build without Redis: no Redis store"
}
load test_helper/redis
load test_helper/tls

HOGS=()

teardown() {
	tls_stop
	redis_stop
	[ -z "${SILENT_PID:-}" ] || kill "$SILENT_PID" 2>/dev/null
	[ -z "${STALL_PID:-}" ] || kill "$STALL_PID" 2>/dev/null
	[ -z "${SLOW_PID:-}" ] || kill "$SLOW_PID" 2>/dev/null
	[ "${#HOGS[@]}" -eq 0 ] || kill "${HOGS[@]}" 2>/dev/null
	true
}

@test "tls: two groups of 25 runs over TLS, one of them with a client certificate, share one budget" {
	local i d=$BATS_TEST_TMPDIR pids=()
	tls_start localhost --tls-auth-clients optional
	for i in $(seq 25); do
		RETRY_SHARE_STORE="$TLS_URL/3?$TLS_CA" timeout 60 "$RETRY" \
		    --share fleet --max 5 --immediate -q --share-timeout 10s -- \
		    sh -c 'echo x >>"$0/calls"; exit 1' "$d" 3>&- &
		pids+=($!)
		RETRY_SHARE_STORE="$TLS_URL/3?$TLS_CA&ssl_certfile=$CERTS/client.crt&ssl_keyfile=$CERTS/client.key" \
		    timeout 60 "$RETRY" --share fleet --max 5 --immediate -q \
		    --share-timeout 10s -- sh -c 'echo x >>"$0/calls"; exit 1' \
		    "$d" 3>&- &
		pids+=($!)
	done
	wait "${pids[@]}" || true
	echo "# 2 x 25 runs over TLS, --max 5: $(calls) attempts; 250 without" >&3
	# As over TCP: every first attempt runs, and 10 retries at most.
	[ "$(calls)" -ge 50 ]
	[ "$(calls)" -le 60 ]
	export RETRY_SHARE_STORE="$TLS_URL/3?$TLS_CA"
	[ "$(field fleet tokens | cut -d. -f1)" -eq 0 ]
	assert_equal "$(field fleet failures)" "$(calls)"
	run -0 tls_cli INFO stats
	assert_line --regexp '^total_connections_received:5[0-9]'
}

@test "tls: 30 runs at once beside a CPU hog on every core, with the default timeouts: every one shares, no handshake given up" {
	local i d=$BATS_TEST_TMPDIR pids=() t0
	tls_start localhost
	# Two busy loops a core, as a loaded CI runner's neighbours.
	for i in $(seq $((2 * $(nproc)))); do
		bash -c 'while :; do :; done' </dev/null >/dev/null 2>&1 3>&- &
		HOGS+=($!)
	done
	# The 30 start together, once each is ready: their first decisions,
	# and so their handshakes, all at once.
	for i in $(seq 30); do
		RETRY_SHARE_STORE="$TLS_URL/4?$TLS_CA" timeout 120 sh -c '
		    : >"$0/ready.$1"
		    while [ ! -e "$0/go" ]; do sleep 0.01; done
		    shift; exec "$@"' "$d" "$i" "$RETRY" \
		    --share hogged --max 2 --immediate -- \
		    sh -c 'echo x >>"$0/calls"; exit 1' "$d" 2>"$d/err.$i" 3>&- &
		pids+=($!)
	done
	poll_until 100 eval '[ "$(find "$d" -name "ready.*" | wc -l)" -ge 30 ]'
	t0=$(now_ms)
	: >"$d/go"
	wait "${pids[@]}" || true
	echo "# 30 runs over TLS beside $((2 * $(nproc))) busy loops: $(($(now_ms) - t0)) ms" >&3
	kill "${HOGS[@]}" 2>/dev/null
	HOGS=()
	run -0 cat "$d"/err.*
	refute_output --partial "no TLS handshake within"
	refute_output --partial "going on without"
	refute_output --partial "does not answer"
	# Each attempt was decided on by the store: the failures it counted
	# are the attempts made.
	export RETRY_SHARE_STORE="$TLS_URL/4?$TLS_CA"
	[ "$(calls)" -ge 30 ]
	assert_equal "$(field hogged failures)" "$(calls)"
	[ $(($(now_ms) - t0)) -lt 100000 ]
}

@test "tls: one handshake a run: its decisions share the connection, and a dropped one is made again" {
	local d=$BATS_TEST_TMPDIR pid rc=0 i
	tls_start localhost
	export RETRY_SHARE_STORE="$TLS_URL/1?$TLS_CA"
	run -1 retry --share one --share-timeout 10s --max 3 --immediate -- false
	refute_output --partial "going on without"
	# One connection for the run's 6 decisions, one for redis-cli.
	run -0 tls_cli INFO stats
	assert_line --regexp '^total_connections_received:2\s*$'
	run -0 tls_cli -n 1 HGET retry:one:state failures
	assert_output 3
	# The server drops it while the run sleeps: the next decision
	# connects again, and --share-required has nothing to say.
	timeout 60 "$RETRY" --share idle --share-timeout 10s --share-required --fixed 2s --max 2 \
	    -- sh -c 'echo x >>"$0/calls"; exit 1' "$d" 2>"$d/err" 3>&- &
	pid=$!
	# Once the run said it sleeps: its decision is made.
	poll_until 20 grep -q 'next attempt in 2s' "$d/err"
	tls_cli CLIENT KILL TYPE normal SKIPME yes >/dev/null
	wait "$pid" || rc=$?
	assert_equal "$rc" 1
	run -0 cat "$d/err"
	refute_output --partial "does not answer"
	refute_output --partial "going on without"
	run -0 tls_cli -n 1 HGET retry:idle:state failures
	assert_output 2
}

@test "tls: a wrong CA, a wrong host name and an expired certificate each fail open with one line naming the cause" {
	local d=$BATS_TEST_TMPDIR cert want
	tls_certs
	for cert in localhost other expired; do
		tls_start "$cert"
		case $cert in
		localhost)
			url="$TLS_URL?ssl_ca_certs=$CERTS/other-ca.crt"
			want="the server's certificate is refused: self-signed certificate in certificate chain (give its CA as ?ssl_ca_certs=FILE)" ;;
		other)
			url="$TLS_URL?$TLS_CA"
			want="the server's certificate is refused: hostname mismatch (it does not name the host connected to)" ;;
		expired)
			url="$TLS_URL?$TLS_CA"
			want="the server's certificate is refused: certificate has expired" ;;
		esac
		rm -f "$d/calls"
		run -1 env RETRY_SHARE_STORE="$url" timeout 60 "$RETRY" \
		    --share bad --share-timeout 10s --max 3 --immediate -- \
		    sh -c 'echo x >>"$0/calls"; exit 1' "$d"
		assert_line --index 0 "retry: $(command_name sh -c 'echo x >>"$0/calls"; exit 1' "$d"): --share bad: rediss://localhost:$TLS_PORT/0: TLS: $want; going on without the shared state until it answers"
		assert_equal "$(faults)" 1
		assert_equal "$(calls)" 3
		run -75 env RETRY_SHARE_STORE="$url" timeout 60 "$RETRY" \
		    --share bad --share-timeout 10s --share-required -- true
		assert_line --index 0 "retry: true: --share bad: rediss://localhost:$TLS_PORT/0: TLS: $want; --share-required: giving up"
		# Nothing was written on the server.
		run -0 tls_cli EXISTS retry:bad:state
		assert_output 0
		tls_stop
	done
}

@test "tls: names are the certificate's subjectAltNames, a wildcard a whole label: a CN alone, a partial wildcard and a wildcard CN are refused with one line" {
	# redis.example.test is 127.0.0.1 in a hosts file of the test's own,
	# in a mount namespace of its own.
	unshare -m true 2>/dev/null || skip "no mount namespace here"
	local d=$BATS_TEST_TMPDIR name host
	tls_start localhost
	printf '127.0.0.1 localhost\n127.0.0.1 redis.example.test\n' >"$d/hosts"
	# cert NAME CN [SAN]: signed by the test CA.
	cert() {
		{
			echo basicConstraints=CA:FALSE
			[ -z "${3:-}" ] || echo "subjectAltName=$3"
		} >"$d/$1.ext"
		openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
		    -keyout "$d/$1.key" -subj "/CN=$2" -out "$d/$1.csr" 2>/dev/null &&
		    openssl x509 -req -in "$d/$1.csr" -CA "$CERTS/ca.crt" \
		    -CAkey "$CERTS/ca.key" -set_serial "$RANDOM" -days 2 \
		    -extfile "$d/$1.ext" -out "$d/$1.crt" 2>/dev/null
	}
	cert cn localhost
	cert partial other.invalid 'DNS:r*.example.test'
	cert cnwild '*.example.test'
	cert san other.invalid DNS:redis.example.test
	cert wild other.invalid 'DNS:*.example.test'
	for name in cn partial cnwild san wild; do
		run -0 tls_cli CONFIG SET tls-cert-file "$d/$name.crt" \
		    tls-key-file "$d/$name.key"
		host=redis.example.test
		[ "$name" != cn ] || host=localhost
		run unshare -m sh -c 'mount --bind "$0" /etc/hosts && exec "$@"' \
		    "$d/hosts" env \
		    RETRY_SHARE_STORE="rediss://$host:$TLS_PORT?$TLS_CA" \
		    timeout 60 "$RETRY" --share names --share-timeout 10s \
		    --share-required -- echo ran
		case $name in
		san | wild)
			assert_equal "$name $status" "$name 0"
			assert_output ran ;;
		*)
			assert_equal "$name $status" "$name 75"
			assert_line --index 0 "retry: echo ran: --share names: rediss://$host:$TLS_PORT/0: TLS: the server's certificate is refused: hostname mismatch (it does not name the host connected to); --share-required: giving up"
			assert_equal "$(grep -c refused <<<"$output")" 1
			refute_line ran ;;
		esac
	done
}

@test "tls: the system's CAs by default: a private CA is refused, and ssl_cert_reqs=none turns verification off, saying so once" {
	tls_start other
	run -1 env RETRY_SHARE_STORE="$TLS_URL" timeout 60 "$RETRY" \
	    --share sys --share-timeout 10s --max 2 --immediate -- false
	assert_output --regexp "TLS: the server's certificate is refused: (self-signed certificate in certificate chain|unable to get local issuer certificate) \(give its CA as \?ssl_ca_certs=FILE\); going on without"
	export RETRY_SHARE_STORE="$TLS_URL/2?ssl_cert_reqs=none"
	run -1 retry --share none --share-timeout 10s --share-window 1d --max 3 --immediate -- false
	assert_line --index 0 "retry: false: --share none: rediss://localhost:$TLS_PORT/2: ssl_cert_reqs=none: the server's certificate is not verified, so anyone on the way to it can read and change the shared state"
	assert_equal "$(grep -c "not verified" <<<"$output")" 1
	refute_output --partial "going on without"
	run -0 --separate-stderr retry share status --share-timeout 10s --share-window 1d none
	assert_line --index 1 --regexp '^none +tokens +8 '
	assert_equal "$stderr" "retry: rediss://localhost:$TLS_PORT/2: ssl_cert_reqs=none: the server's certificate is not verified, so anyone on the way to it can read and change the shared state"
}

@test "tls: a client certificate that the server requires: without it the run fails open, with it it shares" {
	tls_start localhost --tls-auth-clients yes
	run -1 env RETRY_SHARE_STORE="$TLS_URL?$TLS_CA" timeout 60 "$RETRY" \
	    --share cc --share-timeout 10s --max 2 --immediate -- false
	assert_output --regexp "rediss://localhost:$TLS_PORT/0: TLS: [^;]* \(the server asks for a client certificate: give ssl_certfile=FILE\); going on without the shared state until it answers"
	assert_equal "$(faults)" 1
	local with="$TLS_URL?$TLS_CA&ssl_certfile=$CERTS/client.crt&ssl_keyfile=$CERTS/client.key"
	run -1 env RETRY_SHARE_STORE="$with" timeout 60 "$RETRY" \
	    --share cc --share-timeout 10s --max 2 --immediate -- false
	refute_output --partial "going on without"
	run -0 tls_cli HGET retry:cc:state failures
	assert_output 2
	# A key that is not the certificate's, and files that are missing.
	run -1 env RETRY_SHARE_STORE="$TLS_URL?$TLS_CA&ssl_certfile=$CERTS/client.crt&ssl_keyfile=$CERTS/other.key" \
	    timeout 60 "$RETRY" --share cc --share-timeout 10s --max 1 -- false
	assert_output --partial "TLS: ssl_keyfile $CERTS/other.key: key values mismatch; going on without"
	run -1 env RETRY_SHARE_STORE="$TLS_URL?ssl_ca_certs=$CERTS/none.crt" \
	    timeout 60 "$RETRY" --share cc --share-timeout 10s --max 1 -- false
	assert_output --partial "TLS: ssl_ca_certs $CERTS/none.crt: No such file or directory; going on without"
}

@test "tls: a file that is a FIFO, a directory, too large or no PEM ends the TLS setup at once with one line; \$SSL_CERT_FILE is read likewise" {
	local d=$BATS_TEST_TMPDIR p
	tls_start localhost --tls-auth-clients yes
	mkfifo "$d/fifo"
	head -c 1100000 /dev/zero >"$d/big"
	echo 'not a certificate' >"$d/junk"
	local ok="$TLS_CA&ssl_certfile=$CERTS/client.crt&ssl_keyfile=$CERTS/client.key"
	# A FIFO with no writer: opening it would wait for one, forever.
	for p in "ssl_ca_certs=$d/fifo" \
	    "$TLS_CA&ssl_certfile=$d/fifo&ssl_keyfile=$CERTS/client.key" \
	    "$TLS_CA&ssl_certfile=$CERTS/client.crt&ssl_keyfile=$d/fifo"; do
		run -1 env RETRY_SHARE_STORE="$TLS_URL?$p" timeout -k 5 20 "$RETRY" \
		    --share ff --share-timeout 10s --max 1 -- false
		assert_output --regexp "rediss://localhost:$TLS_PORT/0: TLS: ssl_[a-z_]+ $d/fifo: not a regular file; going on without"
		assert_equal "$(faults)" 1
	done
	run -1 env RETRY_SHARE_STORE="$TLS_URL?ssl_ca_certs=$d" timeout -k 5 20 \
	    "$RETRY" --share ff --share-timeout 10s --max 1 -- false
	assert_output --partial "TLS: ssl_ca_certs $d: not a regular file; going on without"
	run -1 env RETRY_SHARE_STORE="$TLS_URL?ssl_ca_certs=$d/big" timeout -k 5 20 \
	    "$RETRY" --share ff --share-timeout 10s --max 1 -- false
	assert_output --partial "TLS: ssl_ca_certs $d/big: larger than 1 MiB; going on without"
	run -1 env RETRY_SHARE_STORE="$TLS_URL?ssl_ca_certs=$d/junk" timeout -k 5 20 \
	    "$RETRY" --share ff --share-timeout 10s --max 1 -- false
	assert_output --partial "TLS: ssl_ca_certs $d/junk: no certificate in it; going on without"
	run -1 env RETRY_SHARE_STORE="$TLS_URL?$TLS_CA&ssl_certfile=$CERTS/client.crt&ssl_keyfile=$d/junk" \
	    timeout -k 5 20 "$RETRY" --share ff --share-timeout 10s --max 1 -- false
	assert_output --partial "TLS: ssl_keyfile $d/junk: no private key in it; going on without"
	# No passphrase is asked for, on the terminal or elsewhere.
	openssl pkey -in "$CERTS/client.key" -aes128 -passout pass:x -out "$d/enc.key"
	run -1 env RETRY_SHARE_STORE="$TLS_URL?$TLS_CA&ssl_certfile=$CERTS/client.crt&ssl_keyfile=$d/enc.key" \
	    timeout -k 5 20 "$RETRY" --share ff --share-timeout 10s --max 1 -- false </dev/null
	assert_output --partial "TLS: ssl_keyfile $d/enc.key: the key is encrypted, and no passphrase is asked for; going on without"
	# share status says the same, and at once.
	run -1 env RETRY_SHARE_STORE="$TLS_URL?ssl_ca_certs=$d/fifo" timeout -k 5 20 \
	    "$RETRY" share status --share-timeout 10s
	assert_output --partial "TLS: ssl_ca_certs $d/fifo: not a regular file"
	# $SSL_CERT_FILE: a FIFO is refused, the CA in a file is used.
	run -1 env SSL_CERT_FILE="$d/fifo" RETRY_SHARE_STORE="$TLS_URL?${ok#"$TLS_CA&"}" \
	    timeout -k 5 20 "$RETRY" --share ff --share-timeout 10s --max 1 -- false
	assert_output --partial "TLS: \$SSL_CERT_FILE $d/fifo: not a regular file; going on without"
	run -1 env SSL_CERT_FILE="$CERTS/ca.crt" RETRY_SHARE_STORE="$TLS_URL?${ok#"$TLS_CA&"}" \
	    timeout 60 "$RETRY" --share ff --share-timeout 10s --max 2 --immediate -- false
	refute_output --partial "going on without"
	# The certificate and its key in one file.
	cat "$CERTS/client.crt" "$CERTS/client.key" >"$d/both.pem"
	run -1 env RETRY_SHARE_STORE="$TLS_URL?$TLS_CA&ssl_certfile=$d/both.pem" \
	    timeout 60 "$RETRY" --share ff --share-timeout 10s --max 2 --immediate -- false
	refute_output --partial "going on without"
	run -0 tls_cli HGET retry:ff:state failures
	assert_output 4
}

@test "tls: a password, share status and reset over TLS" {
	local d=$BATS_TEST_TMPDIR
	tls_start localhost --requirepass 'pa:ss'
	printf '%s\n' "rediss://:pa%3Ass@localhost:$TLS_PORT/4?$TLS_CA" >"$d/url"
	run -1 retry --share-store-file "$d/url" --share pw --share-timeout 10s --share-window 1d \
	    --max 2 --immediate -- false
	refute_output --partial "going on without"
	run -0 retry share status --share-timeout 10s --share-window 1d --share-store-file "$d/url"
	assert_line --index 1 --regexp '^pw +tokens +9 '
	run -0 retry share reset --share-timeout 10s --share-store-file "$d/url" pw
	run -1 retry share status --share-timeout 10s --share-store-file "$d/url" pw
	assert_output "retry: pw: no shared state in rediss://:***@localhost:$TLS_PORT/4"
	# A wrong one is refused over TLS too, and not shown.
	printf '%s\n' "rediss://:wrong-one@localhost:$TLS_PORT/4?$TLS_CA" >"$d/url"
	run -1 retry --share-store-file "$d/url" --share pw --share-timeout 10s --max 1 -- false
	assert_output --partial "rediss://:***@localhost:$TLS_PORT/4: the password is refused: WRONGPASS"
	refute_output --partial wrong-one
	# A password on the command line is refused as over TCP.
	run -125 retry --share-store "rediss://:x@localhost:$TLS_PORT" --share pw -- true
	assert_output --partial "seen by every user in ps"
}

@test "tls: TLS to a plain port, and plain to a TLS port: one line each" {
	tls_start localhost
	run -1 env RETRY_SHARE_STORE="redis://127.0.0.1:$TLS_PORT" \
	    timeout 60 "$RETRY" --share mix --share-timeout 10s --max 2 --immediate -- false
	# It says what to try: rediss://.
	assert_output --regexp "redis://127.0.0.1:$TLS_PORT/0: (the server closed the connection|Connection reset by peer|not a Redis server\\? \\(.*\\)) \\(a TLS port\\? rediss:// speaks TLS\\); going on without"
	assert_equal "$(faults)" 1
	redis_start
	run -1 env RETRY_SHARE_STORE="rediss://localhost:$REDIS_PORT?$TLS_CA" \
	    timeout 60 "$RETRY" --share mix --max 2 --immediate -- false
	# Redis reads a ClientHello as the start of a command, and waits.
	assert_output --partial "rediss://localhost:$REDIS_PORT/0: no TLS handshake within 2s; going on without"
	assert_equal "$(faults)" 1
}

@test "tls: a server that stalls in the handshake costs --share-connect-timeout at most, and TERM ends retry at once" {
	local t0 pid rc=0 i
	tls_certs
	# It reads the ClientHello, and answers with the first bytes of a
	# record that never comes whole; then says so in $BATS_TEST_TMPDIR/stalled.
	read -r STALL_PORT STALL_PID < <(serve '
import os
held = []
while True:
    c, _ = s.accept(); held.append(c)
    try:
        c.recv(4096); c.sendall(b"\x16\x03\x03\x00\x7a\x02\x00")
        with open(os.environ["BATS_TEST_TMPDIR"] + "/stalled", "a") as f:
            f.write("stalled\n")
    except OSError:
        pass
')
	t0=$(now_ms)
	run -0 env RETRY_SHARE_STORE="rediss://localhost:$STALL_PORT?$(printf 'ssl_ca_certs=%s' "$CERTS/ca.crt")" \
	    timeout 60 "$RETRY" --share st --share-connect-timeout 300ms --max 2 -- true
	assert_line --index 0 "retry: true: --share st: rediss://localhost:$STALL_PORT/0: no TLS handshake within 300ms; going on without the shared state for the rest of this run"
	# Two decisions of 300ms at most, and a busy host: a handshake not
	# given up would hold the run until timeout(1)'s 60s.
	[ $(($(now_ms) - t0)) -lt 20000 ]
	rm -f "$BATS_TEST_TMPDIR/stalled"
	t0=$(now_ms)
	RETRY_SHARE_STORE="rediss://localhost:$STALL_PORT?ssl_ca_certs=$CERTS/ca.crt" \
	    timeout 60 "$RETRY" --share st --share-connect-timeout 30s -- true 3>&- &
	pid=$!
	# TERM once the handshake stalls, which would last 30s.
	poll_until 20 test -s "$BATS_TEST_TMPDIR/stalled"
	kill -TERM "$pid"
	wait "$pid" || rc=$?
	assert_equal "$rc" 143
	[ -s "$BATS_TEST_TMPDIR/stalled" ]
	[ $(($(now_ms) - t0)) -lt 25000 ]
}

@test "tls: a slow handshake has --share-connect-timeout (2s), not --share-timeout; a proxy that never answers is given up after it" {
	local t0 i
	tls_start localhost
	# A proxy to the TLS port that holds each connection's first bytes
	# (the ClientHello) 500ms before it passes them on: a handshake
	# slower than the decisions' --share-timeout.
	export TLS_PORT
	read -r SLOW_PORT SLOW_PID < <(serve '
import os, threading
def pipe(a, b, delay):
    try:
        first = True
        while True:
            d = a.recv(65536)
            if not d:
                break
            if first:
                time.sleep(delay); first = False
            b.sendall(d)
    except OSError:
        pass
    for x in (a, b):
        try:
            x.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
while True:
    c, _ = s.accept()
    u = socket.create_connection(("127.0.0.1", int(os.environ["TLS_PORT"])))
    threading.Thread(target=pipe, args=(c, u, 0.5), daemon=True).start()
    threading.Thread(target=pipe, args=(u, c, 0), daemon=True).start()
')
	export RETRY_SHARE_STORE="rediss://localhost:$SLOW_PORT/2?$TLS_CA"
	run -1 timeout 60 "$RETRY" --share slow --share-timeout 200ms \
	    --share-required --max 2 --immediate -- false
	refute_output --partial "within"
	refute_output --partial "going on without"
	run -0 tls_cli -n 2 HGET retry:slow:state failures
	assert_output 2
	kill "$SLOW_PID"
	# A proxy that takes the connection and never answers: the
	# handshake is given up after the connect bound, said once.
	silent_start
	export RETRY_SHARE_STORE="rediss://localhost:$SILENT_PORT?$TLS_CA"
	t0=$(now_ms)
	run -0 timeout 60 "$RETRY" --share mute --share-timeout 200ms -- true
	assert_line --index 0 "retry: true: --share mute: rediss://localhost:$SILENT_PORT/0: no TLS handshake within 2s; going on without the shared state for the rest of this run"
	assert_equal "$(grep -c "going on without" <<<"$output")" 1
	# Two decisions of 2s at most, on a busy host.
	[ $(($(now_ms) - t0)) -lt 30000 ]
	run -0 timeout 60 "$RETRY" --share mute --share-timeout 200ms \
	    --share-connect-timeout 700ms -- true
	assert_line --index 0 "retry: true: --share mute: rediss://localhost:$SILENT_PORT/0: no TLS handshake within 700ms; going on without the shared state for the rest of this run"
	# Longer than 2s, --share-timeout is the connect bound too.
	run -0 timeout 60 "$RETRY" --share mute --share-timeout 3s --max 1 -- true
	assert_line --index 0 "retry: true: --share mute: rediss://localhost:$SILENT_PORT/0: no TLS handshake within 3s; going on without the shared state for the rest of this run"
}

@test "tls: OpenSSL is mapped only by a run whose store is rediss://" {
	# shellcheck disable=SC2016  # for the attempt's shell
	local maps='cat /proc/$PPID/maps'
	run -0 retry --max 1 -- sh -c "$maps"
	grep -q 'libc\.so' <<<"$output" ||
		skip "a static binary: OpenSSL is linked in"
	refute_output --partial libssl
	refute_output --partial libcrypto
	redis_start
	run -0 env RETRY_SHARE_STORE="$REDIS_URL" timeout 60 "$RETRY" \
	    --share m --max 1 -- sh -c "$maps"
	assert_output --partial libhiredis
	refute_output --partial libssl
	refute_output --partial libcrypto
	tls_start localhost
	run -0 env RETRY_SHARE_STORE="$TLS_URL?$TLS_CA" timeout 60 "$RETRY" \
	    --share m --max 1 -- sh -c "$maps"
	assert_output --partial libssl
	assert_output --partial libcrypto
}

@test "tls: hiredis and OpenSSL are loaded before the first attempt, though the server does not answer" {
	# shellcheck disable=SC2016  # for the attempt's shell
	local maps='cat /proc/$PPID/maps'
	run -0 retry --max 1 -- sh -c "$maps"
	grep -q 'libc\.so' <<<"$output" ||
		skip "a static binary: OpenSSL is linked in"
	run -0 env RETRY_SHARE_STORE="rediss://127.0.0.1:1" timeout 60 \
	    "$RETRY" --share down --share-timeout 10s --max 1 -- sh -c "$maps"
	assert_line --index 0 --partial "going on without the shared state"
	assert_output --partial libhiredis
	assert_output --partial libssl
	assert_output --partial libcrypto
}
