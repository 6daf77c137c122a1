#!/usr/bin/env bats
# --share on a Redis Cluster: three masters on 127.0.0.1, made a cluster
# by redis-cli for each test and stopped by their pids; runs name one node,
# or a list of seeds, and follow its redirections to the others.
bats_require_minimum_version 1.5.0
load test_helper/common
load test_helper/share

# A Redis store is refused by a build without Redis (tests/noredis.bats).
setup() {
	! noredis || skip "a build without Redis: no Redis store"
}
load test_helper/cluster
load test_helper/redis
load test_helper/tls

teardown() {
	cluster_stop
	[ -z "${SILENT_PID:-}" ] || kill "$SILENT_PID" 2>/dev/null
	[ -z "${FAKE_PID:-}" ] || kill "$FAKE_PID" 2>/dev/null
	[ -z "${BANNER_PID:-}" ] || kill "$BANNER_PID" 2>/dev/null
	true
}

# A run on name $1 that always fails, --max 5, its attempts counted.
failing() {
	timeout 60 "$RETRY" --share "$1" --share-window 1d --max 5 --immediate \
	    -q --share-timeout 10s -- sh -c 'echo x >>"$0/calls.$1"; exit 1' \
	    "$BATS_TEST_TMPDIR" "$1"
}

# As failing, its attempts 200ms apart, its reports in err.$2.
failing_slowly() {
	timeout 60 "$RETRY" --share "$1" --share-window 1d --max 5 --fixed 200ms \
	    --share-timeout 10s -- sh -c 'echo x >>"$0/calls.$1"; exit 1' \
	    "$BATS_TEST_TMPDIR" "$1" >"$BATS_TEST_TMPDIR/err.$2" 2>&1
}

@test "cluster: 50 runs on names of each of the three masters, all started against one, share their budgets exactly" {
	local a b c i name pids=()
	cluster_start
	a=$(cluster_name_on a "${CLUSTER_PORTS[0]}")
	b=$(cluster_name_on b "${CLUSTER_PORTS[1]}")
	c=$(cluster_name_on c "${CLUSTER_PORTS[2]}")
	export RETRY_SHARE_STORE=redis://127.0.0.1:${CLUSTER_PORTS[0]}
	for i in $(seq 50); do
		name=$a
		[ $((i % 3)) -ne 1 ] || name=$b
		[ $((i % 3)) -ne 2 ] || name=$c
		failing "$name" 3>&- &
		pids+=($!)
	done
	wait "${pids[@]}" || true
	# The node named sent each run of b and c on once; their later
	# decisions went straight to the node that holds the slot.
	run -0 cluster_cli "${CLUSTER_PORTS[0]}" INFO errorstats
	assert_line --regexp '^errorstat_MOVED:count=34\s*$'
	# 16 runs on a, 17 on b, 17 on c: each name's first attempts, and
	# exactly the 10 retries of its budget (a window of a day gives none
	# back meanwhile).
	echo "# 50 runs, --max 5: $(calls "$a"), $(calls "$b") and $(calls "$c") attempts on the three masters; 250 without" >&3
	assert_equal "$(calls "$a")" 26
	assert_equal "$(calls "$b")" 27
	assert_equal "$(calls "$c")" 27
	for name in "$a" "$b" "$c"; do
		assert_equal "$(field "$name" failures)" "$(calls "$name")"
		[ "$(field "$name" tokens | cut -d. -f1)" -eq 0 ]
	done
	# Each state is one key, on the node of its slot.
	for i in 0 1 2; do
		run -0 cluster_cli "${CLUSTER_PORTS[i]}" DBSIZE
		assert_output 1
	done
}

@test "cluster: a slot that moves: ASK is followed for the one command" {
	local name src dst slot pid ids
	cluster_start
	src=${CLUSTER_PORTS[1]} dst=${CLUSTER_PORTS[2]}
	name=$(cluster_name_on m "$src")
	slot=$(cluster_cli "$src" CLUSTER KEYSLOT "retry:$name:state")
	cluster_cli "$dst" CLUSTER SETSLOT "$slot" IMPORTING \
	    "$(cluster_cli "$src" CLUSTER MYID)" >/dev/null
	cluster_cli "$src" CLUSTER SETSLOT "$slot" MIGRATING \
	    "$(cluster_cli "$dst" CLUSTER MYID)" >/dev/null
	# The key is not on the node that gives the slot away: it sends each
	# command on to the one that takes it.
	export RETRY_SHARE_STORE=redis://127.0.0.1:${CLUSTER_PORTS[0]}
	run -1 failing "$name"
	refute_output --partial "going on without"
	assert_equal "$(calls "$name")" 5
	run -0 cluster_cli "$src" DBSIZE
	assert_output 0
	run -0 sh -c "printf 'ASKING\nHGET retry:$name:state failures\n' |
	    timeout 5 redis-cli -p $dst"
	assert_line --index 1 5
	run -0 cluster_cli "$src" INFO errorstats
	assert_line --regexp '^errorstat_ASK:count=1[0-9]\s*$'
}

@test "cluster: one master stopped: its names fail open with one line naming the node, the others stay shared" {
	local a c dead
	cluster_start
	a=$(cluster_name_on a "${CLUSTER_PORTS[0]}")
	c=$(cluster_name_on c "${CLUSTER_PORTS[2]}")
	dead=${CLUSTER_PORTS[2]}
	cluster_kill "${CLUSTER_PIDS[2]}"
	export RETRY_SHARE_STORE=redis://127.0.0.1:${CLUSTER_PORTS[1]}
	run -1 failing "$c"
	assert_equal "$(calls "$c")" 5
	run -1 timeout 60 "$RETRY" --share "$c" --max 3 --immediate -- false
	assert_line --index 0 "retry: false: --share $c: redis://127.0.0.1:${CLUSTER_PORTS[1]}/0: node 127.0.0.1:$dead: cannot connect: Connection refused; going on without the shared state until it answers"
	assert_equal "$(grep -c "going on without" <<<"$output")" 1
	run -75 timeout 60 "$RETRY" --share "$c" --share-required -- false
	assert_output --partial "node 127.0.0.1:$dead: cannot connect: Connection refused; --share-required: giving up"
	# The other names are shared as before.
	run -1 failing "$a"
	refute_output --partial "going on without"
	run -1 failing "$a"
	assert_equal "$(calls "$a")" 10
	assert_equal "$(cluster_cli "${CLUSTER_PORTS[0]}" HGET "retry:$a:state" failures)" 10
}

@test "cluster: share status lists the names of every master, and reset finds each one's node" {
	local a b c
	cluster_start
	a=$(cluster_name_on a "${CLUSTER_PORTS[0]}")
	b=$(cluster_name_on b "${CLUSTER_PORTS[1]}")
	c=$(cluster_name_on c "${CLUSTER_PORTS[2]}")
	export RETRY_SHARE_STORE=redis://127.0.0.1:${CLUSTER_PORTS[2]}
	run -1 failing "$a"
	run -1 failing "$b"
	run -1 failing "$c"
	# A day's window: the tokens read as written (see field).
	run -0 retry share status --share-window 1d --log-format json
	assert_equal "${#lines[@]}" 3
	assert_line --partial "\"name\":\"$a\",\"tokens\":6,"
	assert_line --partial "\"name\":\"$b\",\"tokens\":6,"
	assert_line --partial "\"name\":\"$c\",\"tokens\":6,"
	# Through another node, the same.
	run -0 env RETRY_SHARE_STORE=redis://127.0.0.1:${CLUSTER_PORTS[1]} \
	    timeout 60 "$RETRY" share status --log-format json
	assert_equal "${#lines[@]}" 3
	run -0 retry share reset "$a" "$b"
	run -0 retry share status
	refute_output --partial "$a "
	refute_output --partial "$b "
	assert_output --partial "$c "
	run -0 cluster_cli "${CLUSTER_PORTS[0]}" DBSIZE
	assert_output 0
	run -0 cluster_cli "${CLUSTER_PORTS[1]}" DBSIZE
	assert_output 0
	# A db other than 0: a cluster has none, and it is not asked for
	# one.
	run -1 env RETRY_SHARE_STORE=redis://127.0.0.1:${CLUSTER_PORTS[0]}/2 \
	    timeout 60 "$RETRY" --share "$a" --max 1 -- false
	assert_output --partial "the db is refused: a node of a cluster has db 0 alone, and the URL names db 2; going on without"
	run -0 cluster_cli "${CLUSTER_PORTS[0]}" INFO commandstats
	refute_output --partial cmdstat_select
}

@test "cluster: over TLS, its nodes announced by name, each one's certificate verified" {
	local a b c
	tls_certs
	CLUSTER_TLS=$CERTS
	cluster_start
	a=$(cluster_name_on a "${CLUSTER_PORTS[0]}")
	b=$(cluster_name_on b "${CLUSTER_PORTS[1]}")
	c=$(cluster_name_on c "${CLUSTER_PORTS[2]}")
	export RETRY_SHARE_STORE="rediss://localhost:${CLUSTER_PORTS[1]}?ssl_ca_certs=$CERTS/ca.crt"
	run -1 failing "$a"
	run -1 failing "$c"
	refute_output --partial "going on without"
	assert_equal "$(field "$a" failures)" 5
	assert_equal "$(field "$c" failures)" 5
	run -0 cluster_cli "${CLUSTER_PORTS[2]}" DBSIZE
	assert_output 1
	run -0 retry share status --log-format json
	assert_equal "${#lines[@]}" 2
	# A CA that signed none of them: refused at the first node.
	run -1 env RETRY_SHARE_STORE="rediss://localhost:${CLUSTER_PORTS[1]}?ssl_ca_certs=$CERTS/other-ca.crt" \
	    timeout 60 "$RETRY" --share "$b" --max 1 -- false
	assert_output --partial "TLS: the server's certificate is refused"
}

@test "cluster: redirections are bounded: a loop ends after 5, and the hops together take --share-timeout at most" {
	local t0
	# A node that sends every command back to itself.
	fake_start 'b"-MOVED 7 127.0.0.1:%d\r\n" % s.getsockname()[1]'
	run -1 env RETRY_SHARE_STORE=redis://127.0.0.1:$FAKE_PORT \
	    timeout 60 "$RETRY" --share loop --max 2 --immediate -- false
	assert_line --index 0 "retry: false: --share loop: redis://127.0.0.1:$FAKE_PORT/0: more than 5 redirections (MOVED 7 127.0.0.1:$FAKE_PORT); going on without the shared state until it answers"
	kill "$FAKE_PID"
	# One that sends it to a node that never answers, which its CLUSTER
	# SLOTS lists.
	silent_start
	fake_node_start 0 "$SILENT_PORT" "$SILENT_PORT"
	t0=$(now_ms)
	run -1 env RETRY_SHARE_STORE=redis://127.0.0.1:$FAKE_PORT \
	    timeout 60 "$RETRY" --share mute --share-timeout 300ms --max 2 \
	    --immediate -- false
	# The hops' 300ms, less what the seed took to list the node.
	assert_line --index 0 --regexp "^retry: false: --share mute: redis://127.0.0.1:$FAKE_PORT/0: node 127.0.0.1:$SILENT_PORT: no answer within [0-9]{1,3}(\\.[0-9]+)?ms; going on without the shared state for the rest of this run\$"
	# 4 decisions, each an answer and the hops' 300ms at most.
	[ $(($(now_ms) - t0)) -lt 8000 ]
}

@test "cluster: seeds: the first a closed port, the second a master: 20 runs share a budget exactly, as with one seed" {
	local a i pids=()
	cluster_start
	a=$(cluster_name_on a "${CLUSTER_PORTS[2]}")
	export RETRY_SHARE_STORE=redis://127.0.0.1:1,127.0.0.1:${CLUSTER_PORTS[0]}
	for i in $(seq 20); do
		failing_slowly "$a" "$i" 3>&- &
		pids+=($!)
	done
	wait "${pids[@]}" || true
	# Each first attempt, and the 10 retries of the budget.
	assert_equal "$(calls "$a")" 30
	assert_equal "$(field "$a" failures)" 30
	run -0 cat "$BATS_TEST_TMPDIR"/err.*
	refute_output --partial "going on without"
	run -0 cluster_cli "${CLUSTER_PORTS[2]}" DBSIZE
	assert_output 1
}

@test "cluster: seeds: the first one's master stopped mid-way: the runs started against it go on to the next, and stay shared" {
	local b c i name pids=()
	cluster_start
	b=$(cluster_name_on b "${CLUSTER_PORTS[1]}")
	c=$(cluster_name_on c "${CLUSTER_PORTS[2]}")
	export RETRY_SHARE_STORE=redis://127.0.0.1:${CLUSTER_PORTS[0]},127.0.0.1:${CLUSTER_PORTS[1]}
	# 10 runs on each name, each about a second long; the first seed's
	# master is stopped while they run, then 10 more start.
	for i in $(seq 20); do
		name=$b
		[ $((i % 2)) -eq 0 ] || name=$c
		failing_slowly "$name" "$i" 3>&- &
		pids+=($!)
	done
	sleep 0.3
	cluster_kill "${CLUSTER_PIDS[0]}"
	for i in $(seq 21 30); do
		name=$b
		[ $((i % 2)) -eq 0 ] || name=$c
		failing_slowly "$name" "$i" 3>&- &
		pids+=($!)
	done
	wait "${pids[@]}" || true
	# 15 runs on each name: their first attempts and 10 retries; a run
	# that went on unshared would have made 5.
	assert_equal "$(calls "$b")" 25
	assert_equal "$(calls "$c")" 25
	assert_equal "$(field "$b" failures)" 25
	assert_equal "$(field "$c" failures)" 25
	run -0 cat "$BATS_TEST_TMPDIR"/err.*
	refute_output --partial "going on without"
	# share status, through the same seeds, reads them too.
	run -0 timeout 60 "$RETRY" share status --log-format json "$b" "$c"
	assert_equal "${#lines[@]}" 2
}

@test "cluster: share status with a master stopped lists the others' names, names the node and exits 75; reset of its names fails" {
	local a b c dead
	cluster_start
	a=$(cluster_name_on a "${CLUSTER_PORTS[0]}")
	b=$(cluster_name_on b "${CLUSTER_PORTS[1]}")
	c=$(cluster_name_on c "${CLUSTER_PORTS[2]}")
	export RETRY_SHARE_STORE=redis://127.0.0.1:${CLUSTER_PORTS[0]}
	run -1 failing "$a"
	run -1 failing "$b"
	run -1 failing "$c"
	dead=${CLUSTER_PORTS[2]}
	cluster_kill "${CLUSTER_PIDS[2]}"
	run -75 --separate-stderr retry share status --share-window 1d \
	    --log-format json
	assert_equal "${#lines[@]}" 2
	assert_line --index 0 --partial "\"name\":\"$a\",\"tokens\":6,"
	assert_line --index 1 --partial "\"name\":\"$b\",\"tokens\":6,"
	# In JSON, the line is a run's error event.
	assert_equal "$(jq -c 'del(.ts)' <<<"$stderr")" \
	    "{\"event\":\"error\",\"label\":null,\"command\":[],\"name\":null,\"message\":\"redis://127.0.0.1:${CLUSTER_PORTS[0]}/0: node 127.0.0.1:$dead: cannot connect: Connection refused; the names it holds are not listed\"}"
	# Through a list of seeds whose first is the stopped node, the same.
	run -75 --separate-stderr env RETRY_SHARE_STORE=redis://127.0.0.1:$dead,127.0.0.1:${CLUSTER_PORTS[1]} \
	    timeout 60 "$RETRY" share status
	assert_output --partial "$a "
	assert_output --partial "$b "
	refute_output --partial "$c "
	assert_equal "$stderr" "retry: redis://127.0.0.1:$dead,127.0.0.1:${CLUSTER_PORTS[1]}/0: node 127.0.0.1:$dead: cannot connect: Connection refused; the names it holds are not listed"
	# A name of the stopped master: one line, as for a store that is down.
	run -1 retry share reset "$c"
	assert_output "retry: redis://127.0.0.1:${CLUSTER_PORTS[0]}/0: node 127.0.0.1:$dead: cannot connect: Connection refused"
	run -1 retry share status "$c"
	assert_output "retry: redis://127.0.0.1:${CLUSTER_PORTS[0]}/0: node 127.0.0.1:$dead: cannot connect: Connection refused"
	run -0 retry share reset "$a"
	run -75 --separate-stderr retry share status --log-format json
	assert_equal "${#lines[@]}" 1
	assert_line --partial "\"name\":\"$b\","
}

@test "cluster: a redirection to a node that no seed's CLUSTER SLOTS lists is not followed: no connection, no password" {
	# The seed lists itself alone, and sends each command to a listener
	# that records what it is sent.
	banner_start
	fake_node_start 0 "" "$BANNER_PORT"
	run -1 env RETRY_SHARE_STORE=redis://retry:s3cret-pw@127.0.0.1:$FAKE_PORT \
	    timeout 60 "$RETRY" --share moved --max 2 --immediate -- false
	assert_line --index 0 "retry: false: --share moved: redis://retry:***@127.0.0.1:$FAKE_PORT/0: a redirection to 127.0.0.1:$BANNER_PORT, a node that no seed's CLUSTER SLOTS lists: not followed; going on without the shared state until it answers"
	[ ! -e "$BATS_TEST_TMPDIR/banner.conns" ]
	[ ! -e "$BATS_TEST_TMPDIR/banner.got" ]
	# The seed was sent the password after its PING was answered.
	run -0 cat "$BATS_TEST_TMPDIR/got.$FAKE_PORT"
	assert_output --regexp '^\*1.*PING.*AUTH.*s3cret-pw.*CLUSTER.*SLOTS'
}

@test "cluster: a node that CLUSTER SLOTS lists but that speaks no Redis (an SSH banner) is sent no password, no db, no command" {
	banner_start
	fake_node_start 0 "$BANNER_PORT" "$BANNER_PORT"
	run -1 env RETRY_SHARE_STORE=redis://retry:s3cret-pw@127.0.0.1:$FAKE_PORT/3 \
	    timeout 60 "$RETRY" --share moved --max 2 --immediate -- false
	assert_line --index 0 --partial "retry: false: --share moved: redis://retry:***@127.0.0.1:$FAKE_PORT/3: node 127.0.0.1:$BANNER_PORT: not a Redis server? (Protocol error"
	[ -s "$BATS_TEST_TMPDIR/banner.conns" ]
	# HELLO alone, each time.
	run -0 cat "$BATS_TEST_TMPDIR/banner.got"
	assert_output --partial HELLO
	refute_output --partial s3cret
	refute_output --partial AUTH
	refute_output --partial SELECT
	refute_output --partial EVAL
	# share status asks each master that CLUSTER SLOTS lists: the same.
	rm "$BATS_TEST_TMPDIR/banner.got"
	run -75 env RETRY_SHARE_STORE=redis://retry:s3cret-pw@127.0.0.1:$FAKE_PORT \
	    timeout 60 "$RETRY" share status
	assert_output --partial "node 127.0.0.1:$BANNER_PORT: not a Redis server? (Protocol error"
	run -0 cat "$BATS_TEST_TMPDIR/banner.got"
	assert_output --partial PING
	refute_output --partial s3cret
}

@test "cluster: a node that moves each command to a new node, all listed, cannot make a run hold more than 16 connections and the seed's" {
	local most reached
	# 61 ports that send every command on to one of the others, a new
	# one each time.
	fake_node_start 60 "" next
	# Each attempt counts retry's sockets.
	run -1 env RETRY_SHARE_STORE=redis://127.0.0.1:$FAKE_PORT \
	    timeout 120 "$RETRY" --share hop --max 15 --immediate -q -- \
	    sh -c 'ls -l "/proc/$PPID/fd" | grep -c socket: >>"$0/sockets"; exit 1' \
	    "$BATS_TEST_TMPDIR"
	reached=$(find "$BATS_TEST_TMPDIR" -name 'got.*' | wc -l)
	most=$(sort -n "$BATS_TEST_TMPDIR/sockets" | tail -n 1)
	echo "# $reached nodes reached, at most $most sockets open" >&3
	[ "$reached" -ge 50 ]
	[ "$most" -le 17 ]
}

@test "cluster: share status and share reset end within --share-connect-timeout and ten times --share-timeout when 50 masters never answer, saying which" {
	local t0 took
	silent_ports_start 50
	# A seed that lists itself and the 50, and sends each name to the
	# first of them.
	fake_node_start 0 "$SILENT_PORTS" "$SILENT_PORT"
	export RETRY_SHARE_STORE=redis://127.0.0.1:$FAKE_PORT
	t0=$(now_ms)
	run -75 --separate-stderr timeout 120 "$RETRY" share status --share-timeout 200ms --share-connect-timeout 200ms
	took=$(($(now_ms) - t0))
	echo "# share status: $took ms; 50 masters x 200ms would be 10s" >&3
	[ "$took" -lt 8000 ]
	assert_equal "$(grep -c 'the names it holds are not listed$' <<<"$stderr")" 50
	grep -q "node 127.0.0.1:$SILENT_PORT: no answer within 200ms; the names" <<<"$stderr"
	grep -q ": not asked: share status's 2.2s in all ran out; the names it holds are not listed$" <<<"$stderr"
	# Names each sent on to a master that never answers.
	t0=$(now_ms)
	run -75 --separate-stderr timeout 120 "$RETRY" share reset --share-timeout 200ms --share-connect-timeout 200ms $(seq -f 'n%g' 50)
	took=$(($(now_ms) - t0))
	echo "# share reset of 50 names: $took ms" >&3
	[ "$took" -lt 8000 ]
	[[ "$(tail -n 1 <<<"$stderr")" =~ ^"retry: redis://127.0.0.1:$FAKE_PORT/0: "[0-9]+" names not reset: share reset's 2.2s in all ran out"$ ]]
}
