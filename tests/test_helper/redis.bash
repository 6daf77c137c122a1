# Servers for the Redis store's tests, each on 127.0.0.1 at a free port,
# in the test's own directory, stopped by its pid.
# shellcheck shell=bash
# REDIS_URL, GARBAGE_PID, SILENT_PID and FAKE_PID are for the tests that
# load this.
# shellcheck disable=SC2034

# A TCP port that nothing listens on now.
free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# Starts redis-server with the options given (e.g. --requirepass x); sets
# REDIS_PORT, REDIS_PID, REDIS_URL.  Skips, saying why, without the server.
redis_start() {
	command -v redis-server >/dev/null ||
	    skip "redis-server is not installed (make deps installs it)"
	local dir=$BATS_TEST_TMPDIR/redis i
	mkdir -p "$dir"
	REDIS_PORT=${REDIS_PORT:-$(free_port)}
	redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --save '' \
	    --appendonly no --dir "$dir" --unixsocket "$dir/sock" \
	    --unixsocketperm 700 --logfile "$dir/log" "$@" </dev/null \
	    >/dev/null 2>&1 3>&- &
	REDIS_PID=$!
	REDIS_URL=redis://127.0.0.1:$REDIS_PORT
	for i in $(seq 100); do
		[ -S "$dir/sock" ] && redis_cli PING 2>/dev/null | grep -q -e PONG -e NOAUTH && return 0
		sleep 0.05
	done
	echo "redis-server did not start:" >&2
	cat "$dir/log" >&2
	return 1
}

redis_stop() {
	if [ -n "${REDIS_PID:-}" ]; then
		kill "$REDIS_PID" 2>/dev/null
		wait "$REDIS_PID" 2>/dev/null
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

# A server that is not Redis: it answers anything with garbage.
garbage_start() {
	GARBAGE_PORT=$(free_port)
	python3 -c '
import socket, sys
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen(64)
while True:
    c, _ = s.accept()
    try:
        c.recv(4096); c.sendall(b"HTTP/1.1 400 Bad Request\r\n\x1b]0;pwned\x07\r\n\r\n")
    except OSError:
        pass
    c.close()
' "$GARBAGE_PORT" </dev/null >/dev/null 2>&1 3>&- &
	GARBAGE_PID=$!
	listening "$GARBAGE_PORT"
}

# A server that answers every request with the bytes of $1 (a Python
# bytes literal), or, for "echo", with an error that says the request
# back; then it waits.  Sets FAKE_PORT and FAKE_PID.
fake_start() {
	FAKE_PORT=$(free_port)
	python3 -c '
import re, socket, sys, time
answer = sys.argv[2]
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen(64)
while True:
    c, _ = s.accept()
    try:
        while True:
            got = c.recv(65536)
            if not got:
                break
            if answer == "echo":
                said = b"-ERR " + got.replace(b"\r\n", b" ") + b"\r\n"
                c.sendall(said * len(re.findall(rb"(?:^|\r\n)\*[0-9]+\r\n", got)))
            else:
                c.sendall(eval(answer))
    except OSError:
        pass
    c.close()
' "$FAKE_PORT" "$1" </dev/null >/dev/null 2>&1 3>&- &
	FAKE_PID=$!
	listening "$FAKE_PORT"
}

# A server that accepts and never answers.
silent_start() {
	SILENT_PORT=$(free_port)
	python3 -c '
import socket, sys, time
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen(64)
held = []
while True:
    c, _ = s.accept(); held.append(c)
' "$SILENT_PORT" </dev/null >/dev/null 2>&1 3>&- &
	SILENT_PID=$!
	listening "$SILENT_PORT"
}

# Waits until something listens on 127.0.0.1:PORT.
listening() {
	local _
	for _ in $(seq 100); do
		python3 -c 'import socket, sys; socket.create_connection(("127.0.0.1", int(sys.argv[1])), 1).close()' "$1" 2>/dev/null && return 0
		sleep 0.05
	done
	return 1
}
