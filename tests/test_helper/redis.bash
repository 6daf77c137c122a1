# Servers for the Redis store's tests, each on 127.0.0.1 at a free port,
# in the test's own directory, stopped by its pid.
# shellcheck shell=bash
# REDIS_URL, GARBAGE_PID, SILENT_PID and FAKE_PID are for the tests that
# load this.
# shellcheck disable=SC2034

# Starts redis-server with the options given (e.g. --requirepass x; a
# config file first, that a password stays out of ps) on $REDIS_PORT, or
# on a random port, another one if that is taken; sets REDIS_PORT,
# REDIS_PID, REDIS_URL.  Skips, saying why, without the server.
redis_start() {
	! noredis || skip "a build without Redis: no Redis store"
	command -v redis-server >/dev/null ||
	    skip "redis-server is not installed (make deps installs it)"
	local dir=$BATS_TEST_TMPDIR/redis given=${REDIS_PORT:-} try conf=()
	if [ -n "${1:-}" ] && [ "${1#--}" = "$1" ]; then
		conf=("$1")
		shift
	fi
	mkdir -p "$dir"
	for try in 1 2 3 4 5; do
		REDIS_PORT=${given:-$((20000 + RANDOM % 40000))}
		rm -f "$dir/sock"
		redis-server "${conf[@]}" --port "$REDIS_PORT" --bind 127.0.0.1 \
		    --save '' --appendonly no --dir "$dir" --unixsocket "$dir/sock" \
		    --unixsocketperm 700 --logfile "$dir/log" "$@" \
		    </dev/null >/dev/null 2>&1 3>&- &
		REDIS_PID=$!
		REDIS_URL=redis://127.0.0.1:$REDIS_PORT
		# Its listeners are made together: the socket says both are.
		# Gone: the port was taken.
		poll_until 5 ended_or "$REDIS_PID" test -S "$dir/sock" 2>/dev/null ||
		    true
		kill -0 "$REDIS_PID" 2>/dev/null && [ -S "$dir/sock" ] && return 0
		redis_stop
		[ -z "$given" ] || break
	done
	echo "redis-server did not start (try $try):" >&2
	cat "$dir/log" >&2
	return 1
}

redis_stop() {
	if [ -n "${REDIS_PID:-}" ]; then
		# It may be gone already, and it ends by a signal: neither
		# fails the test (bats runs helpers under set -e).
		kill "$REDIS_PID" 2>/dev/null || true
		wait "$REDIS_PID" 2>/dev/null || true
		REDIS_PID=
	fi
}

# redis-cli against the test's server (with $REDIS_AUTH as its password).
redis_cli() {
	if [ -n "${REDIS_AUTH:-}" ]; then
		REDISCLI_AUTH=$REDIS_AUTH timeout 5 redis-cli -p "$REDIS_PORT" "$@"
	else
		timeout 5 redis-cli -p "$REDIS_PORT" "$@"
	fi
}

# python3 running the server program $1 (its arguments after it) on a port
# of its own choosing, once it listens: prints "PORT PID".
serve() {
	local ready=$BATS_TEST_TMPDIR/ready.$RANDOM
	python3 -c '
import re, socket, sys, time
s = socket.socket()
s.bind(("127.0.0.1", 0)); s.listen(64)
with open(sys.argv[1], "w") as f:
    f.write(str(s.getsockname()[1]))
exec(sys.argv[2])
' "$ready" "$@" </dev/null >/dev/null 2>&1 3>&- &
	poll_until 5 test -s "$ready" || return
	echo "$(<"$ready") $!"
}

# A server that is not Redis: it answers anything with garbage.
garbage_start() {
	read -r GARBAGE_PORT GARBAGE_PID < <(serve '
while True:
    c, _ = s.accept()
    try:
        c.recv(4096); c.sendall(b"HTTP/1.1 400 Bad Request\r\n\x1b]0;pwned\x07\r\n\r\n")
    except OSError:
        pass
    c.close()
')
}

# A server that answers every request with the bytes of $1 (a Python
# expression of bytes, which may use got, what was received, and n, the
# commands in it), or, for "echo", with an error that says each command
# back.  Sets FAKE_PORT and FAKE_PID.
fake_start() {
	read -r FAKE_PORT FAKE_PID < <(serve '
answer = sys.argv[3]
while True:
    c, _ = s.accept()
    try:
        while True:
            got = c.recv(65536)
            if not got:
                break
            n = len(re.findall(rb"(?:^|\r\n)\*[0-9]+\r\n", got))
            if answer == "echo":
                said = b"-ERR " + got.replace(b"\r\n", b" ") + b"\r\n"
                c.sendall(said * n)
            else:
                c.sendall(eval(answer))
    except OSError:
        pass
    c.close()
' "$1")
}

# A server that accepts and never answers; each connection is a line of
# $BATS_TEST_TMPDIR/silent.conns.
silent_start() {
	read -r SILENT_PORT SILENT_PID < <(serve '
held = []
while True:
    c, _ = s.accept(); held.append(c)
    with open(sys.argv[3] + "/silent.conns", "a") as f:
        f.write("1\n")
' "$BATS_TEST_TMPDIR")
}

# A listener that is no Redis server, as an SSH server is: it greets each
# connection with a banner, and records what it is sent in
# $BATS_TEST_TMPDIR/banner.got and each connection in banner.conns.  Sets
# BANNER_PORT and BANNER_PID.
banner_start() {
	read -r BANNER_PORT BANNER_PID < <(serve '
import threading
def one(c):
    try:
        c.sendall(b"SSH-2.0-OpenSSH_9.2p1 Debian-2\r\n")
        while True:
            got = c.recv(65536)
            if not got:
                break
            with open(sys.argv[3] + "/banner.got", "ab") as f:
                f.write(got)
    except OSError:
        pass
    c.close()
while True:
    c, _ = s.accept()
    with open(sys.argv[3] + "/banner.conns", "a") as f:
        f.write("1\n")
    threading.Thread(target=one, args=(c,), daemon=True).start()
' "$BATS_TEST_TMPDIR")
}
