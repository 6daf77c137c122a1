# Redis over TLS for the tests: certificates made by openssl, once a file,
# and redis-server on a TLS port of 127.0.0.1, in the test's own
# directory, stopped by its pid.
# shellcheck shell=bash
# CERTS, TLS_PORT, TLS_PID and TLS_URL are for the tests that load this.
# shellcheck disable=SC2034

# Makes, in $CERTS ($BATS_FILE_TMPDIR/certs), a CA (ca.crt) and, signed by
# it, localhost.crt for localhost, other.crt for other.invalid only,
# expired.crt for localhost that expired in 2020, and client.crt, a
# client's; each with its .key.  other-ca.crt is a CA that signed none of
# them.  Skips, saying why, without openssl.
tls_certs() {
	CERTS=$BATS_FILE_TMPDIR/certs
	[ -f "$CERTS/done" ] && return 0
	command -v openssl >/dev/null ||
	    skip "openssl is not installed (make deps installs it)"
	mkdir -p "$CERTS/db"
	(
		cd "$CERTS" || exit 1
		new() { openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 \
		    -nodes -keyout "$1.key" -subj "/CN=$2" "${@:3}" 2>/dev/null; }
		new ca retry-test-ca -x509 -days 2 -out ca.crt || exit 1
		new other-ca retry-other-ca -x509 -days 2 -out other-ca.crt || exit 1
		: >db/index
		echo 01 >db/serial
		cat >ca.cnf <<-'EOF'
		[ca]
		default_ca = test
		[test]
		database = db/index
		new_certs_dir = db
		serial = db/serial
		default_md = sha256
		policy = any
		unique_subject = no
		[any]
		commonName = supplied
		EOF
		# sign NAME SAN [openssl ca's options]
		sign() {
			printf 'subjectAltName=%s\n' "$2" >"$1.ext"
			openssl ca -batch -notext -config ca.cnf -cert ca.crt \
			    -keyfile ca.key -in "$1.csr" -out "$1.crt" \
			    -extfile "$1.ext" "${@:3}" 2>/dev/null
		}
		new localhost localhost -out localhost.csr &&
		    sign localhost DNS:localhost -days 2 || exit 1
		new other other.invalid -out other.csr &&
		    sign other DNS:other.invalid -days 2 || exit 1
		new expired localhost -out expired.csr &&
		    sign expired DNS:localhost -startdate 20200101000000Z \
		    -enddate 20200102000000Z || exit 1
		new client retry-client -out client.csr &&
		    sign client DNS:retry-client -days 2 || exit 1
	) || return 1
	touch "$CERTS/done"
}

# Starts redis-server with TLS on TLS_PORT (a free one, another if that is
# taken), its certificate $1 (localhost, other, expired) and the test CA
# for clients' certificates, with the other options given (e.g.
# --tls-auth-clients yes; no by default); sets TLS_PORT, TLS_PID, TLS_URL
# (rediss://localhost:PORT, without options), TLS_CA (the query that
# trusts the test CA).  Skips, saying why, without the server or TLS.
tls_start() {
	! noredis || skip "a build without Redis: no Redis store"
	command -v redis-server >/dev/null ||
	    skip "redis-server is not installed (make deps installs it)"
	local cert=$1 dir=$BATS_TEST_TMPDIR/tls try
	shift
	tls_certs
	mkdir -p "$dir"
	for try in 1 2 3 4 5; do
		TLS_PORT=$((20000 + RANDOM % 40000))
		rm -f "$dir/sock"
		redis-server --port 0 --tls-port "$TLS_PORT" --bind 127.0.0.1 \
		    --tls-cert-file "$CERTS/$cert.crt" \
		    --tls-key-file "$CERTS/$cert.key" \
		    --tls-ca-cert-file "$CERTS/ca.crt" --tls-auth-clients no \
		    --save '' --appendonly no --dir "$dir" \
		    --unixsocket "$dir/sock" --unixsocketperm 700 \
		    --logfile "$dir/log" "$@" </dev/null >/dev/null 2>&1 3>&- &
		TLS_PID=$!
		TLS_URL=rediss://localhost:$TLS_PORT
		TLS_CA="ssl_ca_certs=$CERTS/ca.crt"
		# Its listeners are made together: the socket says all are.
		poll_until 5 ended_or "$TLS_PID" test -S "$dir/sock" 2>/dev/null ||
		    true
		kill -0 "$TLS_PID" 2>/dev/null && [ -S "$dir/sock" ] && return 0
		tls_stop
		! grep -q "tls-port.*unknown\|Bad directive" "$dir/log" 2>/dev/null ||
		    skip "this redis-server has no TLS"
	done
	echo "redis-server did not start with TLS (try $try):" >&2
	cat "$dir/log" >&2
	return 1
}

tls_stop() {
	if [ -n "${TLS_PID:-}" ]; then
		kill "$TLS_PID" 2>/dev/null || true
		wait "$TLS_PID" 2>/dev/null || true
		TLS_PID=
	fi
}

# redis-cli on the TLS server's socket.
tls_cli() {
	timeout 5 redis-cli -s "$BATS_TEST_TMPDIR/tls/sock" "$@"
}
