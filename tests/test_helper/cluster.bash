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
	local dir=$1 port try i pid listen
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
		for ((i = 0; i < 1500; i++)); do
			kill -0 "$pid" 2>/dev/null || break
			# Listening on its port and its bus, and its socket.
			if grep -q 'Ready to accept connections' \
			    "$dir/$port/log" 2>/dev/null; then
				echo "$port $pid"
				return 0
			fi
			sleep 0.02
		done
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
	local i
	kill "$1" 2>/dev/null || return 0
	for ((i = 0; i < 500; i++)); do
		cluster_gone "$1" && return 0
		sleep 0.02
	done
	kill -KILL "$1" 2>/dev/null || true
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
		for ((i = 0; i < 500; i++)); do
			cluster_cli "$p" CLUSTER INFO 2>/dev/null |
			    grep -q '^cluster_state:ok' && break
			sleep 0.02
		done
	done
	for p in "${CLUSTER_PORTS[@]}"; do
		cluster_cli "$p" CLUSTER INFO | grep -q '^cluster_state:ok' || {
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
