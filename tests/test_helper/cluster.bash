# A Redis Cluster of three masters for the tests, on 127.0.0.1 at free
# ports (each with its bus at the port + 10000), in the test's own
# directory, each server stopped by its pid.
# shellcheck shell=bash
# CLUSTER_PORTS and CLUSTER_PIDS are for the tests that load this; with
# CLUSTER_TLS set to a directory of certificates (tls.bash's), the nodes
# take only TLS, among themselves too, with its localhost.crt, and
# announce themselves as localhost.
# shellcheck disable=SC2034

# redis-cli's options for the nodes.
cluster_cli_tls() {
	[ -z "${CLUSTER_TLS:-}" ] ||
	    echo --tls --cacert "$CLUSTER_TLS/ca.crt"
}

# Starts one node, with the options given, on a free port: its port and
# pid on stdout ("PORT PID"); fails when five ports would not do.
cluster_node() {
	local dir=$1 port try pid listen
	shift
	for try in 1 2 3 4 5; do
		# Its bus at port + 10000 stays below the ports that the
		# kernel hands out to connections (32768 and up).
		port=$((20000 + RANDOM % 2700))
		listen=(--port "$port")
		[ -z "${CLUSTER_TLS:-}" ] || listen=(--port 0 --tls-port "$port"
		    --cluster-port $((port + 10000)) --tls-cluster yes
		    --tls-cert-file "$CLUSTER_TLS/localhost.crt"
		    --tls-key-file "$CLUSTER_TLS/localhost.key"
		    --tls-ca-cert-file "$CLUSTER_TLS/ca.crt" --tls-auth-clients no
		    --cluster-announce-hostname localhost
		    --cluster-preferred-endpoint-type hostname)
		mkdir -p "$dir/$port"
		redis-server "${listen[@]}" --bind 127.0.0.1 \
		    --cluster-enabled yes \
		    --cluster-config-file "$dir/$port/nodes.conf" \
		    --cluster-node-timeout 30000 \
		    --cluster-require-full-coverage no \
		    --save '' --appendonly no --dir "$dir/$port" \
		    --unixsocket "$dir/$port/sock" --unixsocketperm 700 \
		    --logfile "$dir/$port/log" "$@" </dev/null >/dev/null 2>&1 3>&- &
		pid=$!
		# Listening on its port and its bus, and its socket.
		poll_until 30 ended_or "$pid" grep -q 'Ready to accept connections' \
		    "$dir/$port/log" 2>/dev/null || true
		if kill -0 "$pid" 2>/dev/null &&
		    grep -q 'Ready to accept connections' "$dir/$port/log"; then
			echo "$port $pid"
			return 0
		fi
		cat "$dir/$port/log" >&2
		cluster_kill "$pid"
	done
	return 1
}

# Whether the process $1 is gone: it has ended, even if the process that
# reaps orphans has not yet waited for it (some containers' init takes a
# second or more, and kill -0 finds a zombie).
cluster_gone() {
	local stat
	kill -0 "$1" 2>/dev/null || return 0
	stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
	stat=${stat##*) }
	[ "${stat%% *}" = Z ]
}

# Ends a node by its pid, and waits until it is gone: the nodes are not
# the test's children (each is started in a subshell), so wait(1) cannot.
cluster_kill() {
	kill "$1" 2>/dev/null || return 0
	poll_until 10 cluster_gone "$1" 2>/dev/null ||
	    kill -KILL "$1" 2>/dev/null || true
}

# Whether the node on port $1 says the cluster is ok.
cluster_ok() {
	cluster_cli "$1" CLUSTER INFO 2>/dev/null | grep -q '^cluster_state:ok'
}

# Starts three masters and makes them a cluster (redis-cli --cluster
# create), each holding a third of the slots, in the order of
# CLUSTER_PORTS; waits until each says the cluster is ok.  Skips, saying
# why, without redis-server.
cluster_start() {
	command -v redis-server >/dev/null ||
	    skip "redis-server is not installed (make deps installs it)"
	local dir=$BATS_TEST_TMPDIR/cluster port pid i p
	CLUSTER_PORTS=() CLUSTER_PIDS=()
	mkdir -p "$dir"
	for i in 1 2 3; do
		read -r port pid < <(cluster_node "$dir" "$@") || {
			echo "a cluster node did not start" >&2
			return 1
		}
		CLUSTER_PORTS+=("$port")
		CLUSTER_PIDS+=("$pid")
	done
	# shellcheck disable=SC2046  # its words
	timeout 60 redis-cli $(cluster_cli_tls) --cluster create \
	    "${CLUSTER_PORTS[@]/#/127.0.0.1:}" --cluster-yes >"$dir/create" 2>&1 || {
		cat "$dir/create" >&2
		return 1
	}
	for p in "${CLUSTER_PORTS[@]}"; do
		poll_until 10 cluster_ok "$p" 2>/dev/null || true
	done
	for p in "${CLUSTER_PORTS[@]}"; do
		cluster_ok "$p" || {
			echo "the cluster is not ok on $p" >&2
			return 1
		}
	done
}

cluster_stop() {
	local pid
	for pid in "${CLUSTER_PIDS[@]}"; do
		cluster_kill "$pid"
	done
	CLUSTER_PIDS=()
}

# redis-cli against the node on port $1.
cluster_cli() {
	local port=$1
	shift
	# shellcheck disable=SC2046  # its words
	timeout 5 redis-cli $(cluster_cli_tls) -p "$port" "$@"
}

# The port of the node that holds NAME's state.
cluster_port_of() {
	local slot
	slot=$(cluster_cli "${CLUSTER_PORTS[0]}" CLUSTER KEYSLOT "retry:$1:state")
	cluster_cli "${CLUSTER_PORTS[0]}" CLUSTER NODES | awk -v s="$slot" '
		{ for (i = 9; i <= NF; i++) {
			n = split($i, r, "-"); lo = r[1]; hi = n > 1 ? r[2] : r[1]
			if (s + 0 >= lo + 0 && s + 0 <= hi + 0) {
				sub(/@.*/, "", $2); sub(/.*:/, "", $2); print $2
			} } }'
}

# A name (NAME PREFIX, then a number) whose state the node on port $2
# holds.
cluster_name_on() {
	local i
	for ((i = 1; i < 200; i++)); do
		[ "$(cluster_port_of "$1$i")" = "$2" ] && { echo "$1$i"; return 0; }
	done
	return 1
}

# A fake cluster node in python on $1 + 1 ports of 127.0.0.1 (the first
# FAKE_PORT, FAKE_PID its process): each port reads commands as Redis
# does and records what it was sent in $BATS_TEST_TMPDIR/got.PORT; it
# answers PING and HELLO with -NOAUTH, AUTH, SELECT and ASKING with +OK, SCAN
# with no keys, CLUSTER
# SLOTS with its own ports and those listed in $2 (commas), each given
# some slots, and any other command with -MOVED to port $3, or with
# "next" to each of its other ports in turn, a new one each time.  Sets
# FAKE_PORTS, all of its ports.
fake_node_start() {
	read -r FAKE_PORT FAKE_PID < <(serve '
import os, selectors
dir, more, listed, target = sys.argv[3], int(sys.argv[4]), sys.argv[5], sys.argv[6]
socks = [s]
for _ in range(more):
    t = socket.socket(); t.bind(("127.0.0.1", 0)); t.listen(64); socks.append(t)
ports = [t.getsockname()[1] for t in socks]
shown = ports + [int(p) for p in listed.split(",") if p]
def slots():
    out = b"*%d\r\n" % len(shown)
    for i, p in enumerate(shown):
        out += b"*3\r\n:%d\r\n:%d\r\n*2\r\n\x249\r\n127.0.0.1\r\n:%d\r\n" % (
            i * 16384 // len(shown), (i + 1) * 16384 // len(shown) - 1, p)
    return out
moves = 0
def answer(words, port):
    global moves
    verb = words[0].upper()
    if verb in (b"HELLO", b"PING"):
        return b"-NOAUTH Authentication required.\r\n"
    if verb in (b"AUTH", b"SELECT", b"ASKING"):
        return b"+OK\r\n"
    if verb == b"CLUSTER":
        return slots()
    if verb == b"SCAN":
        return b"*2\r\n\x241\r\n0\r\n*0\r\n"
    moves += 1
    to = ports[1 + moves % (len(ports) - 1)] if target == "next" else int(target)
    return b"-MOVED %d 127.0.0.1:%d\r\n" % (moves % 16384, to)
def commands(buf):
    out = []
    while True:
        m = re.match(rb"\*([0-9]+)\r\n", buf)
        if not m:
            return out, buf
        at, words = m.end(), []
        for _ in range(int(m.group(1))):
            b = re.match(rb"\x24([0-9]+)\r\n", buf[at:])
            if not b or len(buf) < at + b.end() + int(b.group(1)) + 2:
                return out, buf
            at += b.end()
            words.append(buf[at:at + int(b.group(1))])
            at += int(b.group(1)) + 2
        out.append(words)
        buf = buf[at:]
with open(dir + "/fake.ports.tmp", "w") as f:
    f.write(" ".join(map(str, ports)) + "\n")
os.rename(dir + "/fake.ports.tmp", dir + "/fake.ports")
sel = selectors.DefaultSelector()
for t in socks:
    sel.register(t, selectors.EVENT_READ, None)
bufs = {}
while True:
    for key, _ in sel.select():
        c = key.fileobj
        if key.data is None:
            n, _ = c.accept()
            bufs[n] = b""
            sel.register(n, selectors.EVENT_READ, c.getsockname()[1])
            continue
        try:
            got = c.recv(65536)
        except OSError:
            got = b""
        if not got:
            sel.unregister(c); c.close(); bufs.pop(c, None)
            continue
        with open("%s/got.%d" % (dir, key.data), "ab") as f:
            f.write(got)
        done, bufs[c] = commands(bufs[c] + got)
        try:
            c.sendall(b"".join(answer(w, key.data) for w in done))
        except OSError:
            pass
' "$BATS_TEST_TMPDIR" "$1" "$2" "$3")
	poll_until 5 test -s "$BATS_TEST_TMPDIR/fake.ports"
	read -r -a FAKE_PORTS <"$BATS_TEST_TMPDIR/fake.ports"
}

# $1 ports of 127.0.0.1 that take connections (the kernel completes them)
# and never answer; their numbers, joined by commas, in SILENT_PORTS, the
# process in SILENT_PID.
silent_ports_start() {
	read -r SILENT_PORT SILENT_PID < <(serve '
held = [s]
for _ in range(int(sys.argv[4]) - 1):
    t = socket.socket(); t.bind(("127.0.0.1", 0)); t.listen(64); held.append(t)
with open(sys.argv[3] + "/silent.tmp", "w") as f:
    f.write(",".join(str(t.getsockname()[1]) for t in held) + "\n")
import os
os.rename(sys.argv[3] + "/silent.tmp", sys.argv[3] + "/silent.ports")
while True:
    time.sleep(60)
' "$BATS_TEST_TMPDIR" "$1")
	poll_until 5 test -s "$BATS_TEST_TMPDIR/silent.ports"
	read -r SILENT_PORTS <"$BATS_TEST_TMPDIR/silent.ports"
}
