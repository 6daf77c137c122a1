#!/usr/bin/env bats
# --share on Redis: a real redis-server on 127.0.0.1 at a free port, one
# per test, stopped by its pid; runs in two groups stand in for two hosts.
bats_require_minimum_version 1.5.0
load test_helper/common
load test_helper/share

# A Redis store is refused by a build without Redis (tests/noredis.bats).
setup() {
	! noredis || skip "a build without Redis: no Redis store"
}
load test_helper/redis

teardown() {
	redis_stop
	[ -z "${GARBAGE_PID:-}" ] || kill "$GARBAGE_PID" 2>/dev/null
	[ -z "${SILENT_PID:-}" ] || kill "$SILENT_PID" 2>/dev/null
	[ -z "${FAKE_PID:-}" ] || kill "$FAKE_PID" 2>/dev/null
	[ -z "${BANNER_PID:-}" ] || kill "$BANNER_PID" 2>/dev/null
	true
}

# A password of 128 characters whose pieces of 4 are found in no report
# but where it leaks: no 4 digits, no word.
LONG_PW=Y6vJ3xV7vK8zJ5yX3wW2yK2yV4kJ4xW6qX4yZ6qZ2yZ7wX6yY7qK4vZ9kQ5zJ9xK7qW7xV6xV9yV3qV5yX2qK5vX2wW9qZ7qJ5wJ7wX7qZ3xV5zY9xJ7vQ9zV9jW6jZ7

# Fails, saying which, when any 4 characters in a row of $LONG_PW are in
# the files named.
refute_pieces() {
	local f text i
	for f in "$@"; do
		text=$(<"$f")
		for ((i = 0; i + 4 <= ${#LONG_PW}; i++)); do
			[[ $text != *"${LONG_PW:i:4}"* ]] ||
				fail "${LONG_PW:i:4}, of the password, is in $f: $text"
		done
	done
}

@test "redis: the script keeps the rules of the file store, row for row" {
	redis_start
	run -0 "$ROOT/build/redis-replay" "$REDIS_URL/2"
	assert_output --regexp '^[0-9]+ passed, 0 failed$'
}

@test "redis: the latency sketch's script writes the texts of sketch.c, row for row" {
	redis_start
	run -0 "$ROOT/build/sketch-replay" "$REDIS_URL/2"
	assert_output --regexp '^[0-9]+ passed, 0 failed$'
}

@test "redis: two groups of 25 runs, over TCP and a unix socket, share one budget" {
	local i d=$BATS_TEST_TMPDIR pids=()
	redis_start
	for i in $(seq 25); do
		# 10s for an answer: 50 runs at once on a busy host may wait
		# longer than the default 200ms, and go on without the budget.
		RETRY_SHARE_STORE=$REDIS_URL/3 timeout 60 "$RETRY" --share fleet \
		    --max 5 --immediate -q --share-timeout 10s -- \
		    sh -c 'echo x >>"$0/calls"; exit 1' "$d" 3>&- &
		pids+=($!)
		RETRY_SHARE_STORE="unix://$d/redis/sock?db=3" timeout 60 \
		    "$RETRY" --share fleet --max 5 --immediate -q \
		    --share-timeout 10s -- \
		    sh -c 'echo x >>"$0/calls"; exit 1' "$d" 3>&- &
		pids+=($!)
	done
	wait "${pids[@]}" || true
	echo "# 2 x 25 runs, --max 5: $(calls) attempts on Redis; 250 without" >&3
	# Every first attempt runs; a retry takes one of the 10 tokens,
	# whichever group takes it: 10 retries at most.
	[ "$(calls)" -ge 50 ]
	[ "$(calls)" -le 60 ]
	export RETRY_SHARE_STORE=$REDIS_URL/3
	[ "$(field fleet tokens | cut -d. -f1)" -eq 0 ]
	assert_equal "$(field fleet failures)" "$(calls)"
	# A window (a minute) without use, and the state is gone.
	run -0 redis_cli -n 3 PTTL retry:fleet:state
	[ "$output" -gt 50000 ] && [ "$output" -le 60000 ]
}

@test "redis: the breaker that one host opens holds the other's runs" {
	local d=$BATS_TEST_TMPDIR
	redis_start
	run -1 env RETRY_SHARE_STORE=$REDIS_URL timeout 60 "$RETRY" --share api \
	    --share-breaker 3:30s --max 3 --immediate -- false
	assert_output --partial "the circuit of api opened after 3 failures"
	# The other host: no attempt while it is open.
	run -75 env RETRY_SHARE_STORE="unix://$d/redis/sock" timeout 60 "$RETRY" \
	    --share api --share-breaker 3:30s --share-open giveup -- \
	    sh -c 'echo x >>"$0/calls"' "$d"
	assert_output --partial "the circuit of api is open (--share-open giveup)"
	run -75 env RETRY_SHARE_STORE="unix://$d/redis/sock" timeout 60 "$RETRY" \
	    --share api --share-breaker 3:30s --budget 2s -- \
	    sh -c 'echo x >>"$0/calls"' "$d"
	assert_output --partial "waiting for the circuit of api would pass the 2s budget"
	assert_equal "$(calls)" 0
}

@test "redis: one round trip a decision, and the script sent once" {
	redis_start
	redis_cli SCRIPT FLUSH >/dev/null
	redis_cli CONFIG RESETSTAT >/dev/null
	run -1 env RETRY_SHARE_STORE=$REDIS_URL/4 timeout 60 "$RETRY" --share rt --max 3 \
	    --immediate -q -- false
	run -0 redis_cli INFO commandstats
	# 3 attempts: a gate and a record each, 6 decisions; the first
	# EVALSHA finds no script and is sent again as EVAL; SELECT once.
	assert_line --partial "cmdstat_evalsha:calls=6,"
	assert_line --partial "cmdstat_eval:calls=1,"
	assert_line --partial "cmdstat_select:calls=1,"
	refute_line --partial "cmdstat_get"
	run -1 env RETRY_SHARE_STORE=$REDIS_URL/4 timeout 60 "$RETRY" --share rt --max 2 \
	    --immediate -q -- false
	run -0 redis_cli INFO commandstats
	assert_line --partial "cmdstat_evalsha:calls=10,"
	assert_line --partial "cmdstat_eval:calls=1,"
}

@test "redis: a server named by its host name is looked up, and used" {
	getent hosts localhost >/dev/null || skip "localhost has no address"
	redis_start
	redis_cli SCRIPT FLUSH >/dev/null
	redis_cli CONFIG RESETSTAT >/dev/null
	run -1 --separate-stderr env \
	    RETRY_SHARE_STORE="redis://localhost:$REDIS_PORT/4" timeout 60 \
	    "$RETRY" --share byname --max 2 --immediate -q -- false
	assert_equal "$stderr" ""
	run -0 redis_cli INFO commandstats
	assert_line --partial "cmdstat_evalsha:calls=4,"
}

@test "redis: a numeric host is dotted decimal: what inet_aton alone reads (2130706433, 0x7f.1, 010.0.0.1) is refused with one line" {
	redis_start
	local host
	for host in 2130706433 0x7f.1 0177.0.0.1 127.1; do
		run -125 env RETRY_SHARE_STORE="redis://$host:$REDIS_PORT/4" \
		    timeout 60 "$RETRY" --share num -- echo ran
		assert_output "retry: echo ran: --share num: \$RETRY_SHARE_STORE: a numeric host is four numbers from 0 to 255 without leading zeros, as 127.0.0.1"
		run -125 env RETRY_SHARE_STORE="redis://$host:$REDIS_PORT/4" \
		    timeout 60 "$RETRY" share status num
		assert_output "retry: \$RETRY_SHARE_STORE: a numeric host is four numbers from 0 to 255 without leading zeros, as 127.0.0.1"
	done
	run -125 retry --share num --share-store "redis://010.0.0.1" -- echo ran
	assert_line --index 0 "retry: --share-store: 'redis://010.0.0.1': a numeric host is four numbers from 0 to 255 without leading zeros, as 127.0.0.1"
	assert_usage_error --share-store
	run -0 redis_cli -n 4 EXISTS retry:num:state
	assert_output 0
	run -0 env RETRY_SHARE_STORE="redis://127.0.0.1:$REDIS_PORT/4" \
	    timeout 60 "$RETRY" --share num -- echo ran
	assert_output ran
	run -0 redis_cli -n 4 EXISTS retry:num:state
	assert_output 1
}

@test "redis: share status shows the tokens refilled since written, by the rule the script keeps" {
	redis_start
	export RETRY_SHARE_STORE=$REDIS_URL/6
	local half=$(( ($(date +%s) - 43200) * 1000000 ))
	# Spent half a day ago, in a window of a day: half of it is back.
	redis_cli -n 6 HSET retry:spent:state tokens 0 failures 3 breaker closed \
	    open-until 0 probe 0 probe-until 0 not-before 0 tokens-changed "$half" \
	    failures-changed "$half" breaker-changed "$half" \
	    not-before-changed 0 >/dev/null
	run -0 --separate-stderr retry share status --share-window 1d \
	    --log-format json spent
	run -0 python3 -c '
import json, sys
t = json.loads(sys.argv[1])["tokens"]
print("ok" if 5 <= t < 5.5 else t)' "$output"
	assert_output ok
	# A run, which the script decides for, finds them there: five
	# failures are retried, the sixth gives up on the spent budget.
	run -1 --separate-stderr retry --share spent --share-window 1d --immediate \
	    -n 20 --log-format json -- false
	assert_equal "$(grep -c '"event":"failure"' <<<"$stderr")" 5
	assert_equal "$(grep -c '"event":"giveup"' <<<"$stderr")" 1
}

@test "redis: share status and reset, and --dry-run, read the server's state" {
	redis_start
	export RETRY_SHARE_STORE=$REDIS_URL/5
	run -0 --separate-stderr retry share status
	assert_output ""
	assert_equal "$stderr" "retry: no shared state in $REDIS_URL/5"
	run -1 retry --share one --share-window 1d --max 2 --immediate -q -- false
	run -1 retry --share two --max 1 -q -- false
	run -0 retry share status --share-window 1d
	assert_line --index 0 --regexp '^name +part +value +changed$'
	# A retry took a token; a last attempt's failure takes none.
	assert_line --index 1 --regexp '^one +tokens +9 +20[0-9-]+T'
	assert_line --index 5 --regexp '^two +tokens +10 '
	assert_equal "$(field one failures)" 2
	run -0 retry --dry-run --share one --share-window 1d -- true
	assert_output --partial "shared one: 9 of 10 tokens"
	run -0 retry share reset one
	run -1 retry share status one
	assert_output "retry: one: no shared state in redis://127.0.0.1:$REDIS_PORT/5"
	run -0 redis_cli -n 5 EXISTS retry:one:state
	assert_output 0
	run -0 retry share status
	refute_output --partial "one "
	# A hash that is not a state: said once, and started afresh.
	redis_cli -n 5 HSET retry:bad:state tokens lots >/dev/null
	run -1 retry share status bad
	assert_output --partial "retry:bad:state is not a shared state"
	run -1 retry --share bad --max 3 --immediate -- false
	assert_equal "$(grep -c "was not a shared state; it starts afresh" <<<"$output")" 1
	assert_equal "$(field bad failures)" 3
	# A key of another type too.
	redis_cli -n 5 SET retry:wt:state foo >/dev/null
	run -0 retry --share wt --share-required -- true
	assert_output --partial "retry:wt:state in redis://127.0.0.1:$REDIS_PORT/5 was not a shared state; it starts afresh"
	run -0 redis_cli -n 5 TYPE retry:wt:state
	assert_output hash
}

@test "redis: the attempts do not inherit the connection" {
	# The shell's own glob, not a pipeline: a pipe's ends are open in the
	# shell for a moment while its children start.
	local list='for f in /proc/$$/fd/*; do printf "%s " "${f##*/}"; done'
	redis_start
	run -0 env RETRY_SHARE_STORE=$REDIS_URL timeout 60 "$RETRY" \
	    --share fd -q -- sh -c "$list"
	local shared=$output
	run -0 retry -q -- sh -c "$list"
	assert_equal "$shared" "$output"
}

@test "redis: stopped in the middle of a run, then started again: the run goes on alone, then shares again" {
	local d=$BATS_TEST_TMPDIR t0
	redis_start
	export RETRY_SHARE_STORE=$REDIS_URL
	t0=$(now_ms)
	timeout 60 "$RETRY" --share mid --fixed 400ms --max 9 --share-budget 100 \
	    -- sh -c 'echo x >>"$0/calls"; exit 1' "$d" 2>"$d/err" 3>&- &
	local pid=$!
	poll_until 60 eval '[ "$(calls)" -ge 2 ]'
	redis_stop
	poll_until 60 eval '[ "$(calls)" -ge 5 ]'
	redis_start
	local rc=0
	wait "$pid" || rc=$?
	assert_equal "$rc" 1
	# 9 attempts, the run's own: 3.2s of delays, and no decision waited.
	assert_equal "$(calls)" 9
	[ $(($(now_ms) - t0)) -lt 15000 ]
	run -0 grep -c "going on without the shared state" "$d/err"
	assert_output 1
	run -0 grep -c "answers again" "$d/err"
	assert_output 1
	# The attempts after the restart were counted there.
	run -0 redis_cli HGET retry:mid:state failures
	[ "$output" -ge 2 ] && [ "$output" -le 5 ]
}

@test "redis: a server that is down, with --share-required: 75 before any attempt" {
	local d=$BATS_TEST_TMPDIR
	run -75 env RETRY_SHARE_STORE=redis://127.0.0.1:1 timeout 60 "$RETRY" \
	    --share down --share-required -- sh -c 'echo x >>"$0/calls"' "$d"
	assert_line --index 0 --regexp "^retry: $(named sh -c 'echo x >>"$0/calls"' "$d"): --share down: redis://127.0.0.1:[0-9]+/0: cannot connect: Connection refused; --share-required: giving up$"
	assert_line --index 1 "retry: $(command_name sh -c 'echo x >>"$0/calls"' "$d"): giving up: the store of down does not answer (--share-required)"
	assert_equal "$(calls)" 0
	# Without it: the run goes on, unshared.
	run -0 env RETRY_SHARE_STORE=redis://127.0.0.1:1 timeout 60 "$RETRY" \
	    --share down -- sh -c 'echo x >>"$0/calls"' "$d"
	assert_output --regexp "cannot connect: Connection refused; going on without the shared state until it answers$"
	assert_equal "$(calls)" 1
}

@test "redis: a list of addresses for a server alone: the first that answers is used from then on; when none does, one line" {
	local d=$BATS_TEST_TMPDIR t0 t
	redis_start
	silent_start
	export RETRY_SHARE_STORE=redis://127.0.0.1:$SILENT_PORT,127.0.0.1:1,127.0.0.1:$REDIS_PORT/4
	t0=$(now_ms)
	run -1 timeout 60 "$RETRY" --share fo --share-timeout 1s --max 5 \
	    --immediate -- sh -c 'echo x >>"$0/calls"; exit 1' "$d"
	t=$(($(now_ms) - t0))
	refute_output --partial "going on without"
	assert_equal "$(calls)" 5
	# The silent one cost its 1s once, the closed one nothing: the
	# later decisions went to the server that answered (10 decisions
	# would have taken 10s; the rest is room for a busy host).
	echo "# a silent address, a closed one, the server: 10 decisions in ${t}ms" >&3
	[ "$t" -ge 1000 ] && [ "$t" -lt 8000 ]
	run -0 redis_cli -n 4 HGET retry:fo:state failures
	assert_output 5
	# 6 tokens left, and what the time since has given back.
	run -0 retry share status --log-format json
	assert_output --regexp '\{"name":"fo","tokens":6(\.[0-9]+)?,'
	# A replica, which refuses to write, is passed over too.
	fake_start 'b"-READONLY You cannot write against a read only replica.\r\n" * n'
	run -1 env RETRY_SHARE_STORE=redis://127.0.0.1:$FAKE_PORT,127.0.0.1:$REDIS_PORT \
	    timeout 60 "$RETRY" --share ro --max 3 --immediate -- false
	refute_output --partial "going on without"
	run -0 redis_cli HGET retry:ro:state failures
	assert_output 3
	# None that answers: said once, naming the last one tried.
	run -1 env RETRY_SHARE_STORE=redis://127.0.0.1:1,127.0.0.1:2 \
	    timeout 60 "$RETRY" --share fo --max 2 --immediate -- false
	assert_line --index 0 "retry: false: --share fo: redis://127.0.0.1:1,127.0.0.1:2/0: no seed answers; the last tried: node 127.0.0.1:2: cannot connect: Connection refused; going on without the shared state until it answers"
	assert_equal "$(grep -c "going on without" <<<"$output")" 1
}

@test "redis: the password: from the environment or a file, never the command line, never shown" {
	local d=$BATS_TEST_TMPDIR
	redis_start --requirepass 'pa:ss@w/rd'
	REDIS_AUTH='pa:ss@w/rd'
	run -125 retry --share-store "redis://:hunter2@127.0.0.1:$REDIS_PORT" \
	    --share pw -- true
	assert_usage_error --share-store
	refute_output --partial hunter2
	assert_output --partial "seen by every user in ps"
	# From the environment: percent-escaped, as URLs are.
	run -1 env RETRY_SHARE_STORE="redis://:pa%3Ass%40w%2Frd@127.0.0.1:$REDIS_PORT/1" \
	    timeout 60 "$RETRY" --share pw --max 2 --immediate -- false
	refute_output --partial "going on without"
	run -0 redis_cli -n 1 HGET retry:pw:state failures
	assert_output 2
	# From a file; a wrong one is refused by the server, and not shown.
	printf 'redis://default:wrong-one@127.0.0.1:%s/1\n' "$REDIS_PORT" >"$d/url"
	run -1 retry --share-store-file "$d/url" --share pw --max 2 \
	    --immediate -- false
	assert_output --partial "redis://default:***@127.0.0.1:$REDIS_PORT/1: the password is refused: WRONGPASS"
	refute_output --partial wrong-one
	run -1 retry share status --share-store-file "$d/url" pw
	assert_output --partial "***@"
	refute_output --partial wrong-one
	run -125 retry --share-store-file "$d/missing" --share pw -- true
	assert_output --partial "--share-store @$d/missing: No such file or directory"
	# Through a pipe whose writer is slow.
	run -1 retry --share-store-file <(sleep 0.3; echo "redis://:pa%3Ass%40w%2Frd@127.0.0.1:$REDIS_PORT/1") \
	    --share pw --max 1 -- false
	refute_output --partial "going on without"
	run -0 redis_cli -n 1 HGET retry:pw:state failures
	assert_output 3
	# No password: the server wants one, and says so.
	run -1 env RETRY_SHARE_STORE=$REDIS_URL timeout 60 "$RETRY" \
	    --share pw --max 1 -- false
	assert_output --partial "the server wants a password: give the URL with it in \$RETRY_SHARE_STORE or --share-store @FILE"
}

@test "redis: a wrong db, a server that is not Redis, one that never answers: said once, and the run goes on" {
	local t0
	redis_start
	run -1 env RETRY_SHARE_STORE=$REDIS_URL/99 timeout 60 "$RETRY" --share db --max 3 \
	    --immediate -- false
	assert_output --partial "redis://127.0.0.1:$REDIS_PORT/99: the db is refused: ERR DB index is out of range"
	assert_equal "$(grep -c "going on without" <<<"$output")" 1
	garbage_start
	run -1 env RETRY_SHARE_STORE=redis://127.0.0.1:$GARBAGE_PORT timeout 60 "$RETRY" \
	    --share junk --max 3 --immediate -- false
	assert_output --partial ": not a Redis server? (Protocol error"
	assert_equal "$(grep -c "going on without" <<<"$output")" 1
	refute_output --partial $'\e'
	refute_output --partial $'\a'
	silent_start
	t0=$(now_ms)
	run -1 env RETRY_SHARE_STORE=redis://127.0.0.1:$SILENT_PORT timeout 60 "$RETRY" \
	    --share mute --share-connect-timeout 100ms --max 3 --immediate -- false
	assert_output --partial ": no answer within 100ms; going on without the shared state"
	assert_equal "$(grep -c "going on without" <<<"$output")" 1
	assert_output --partial "giving up after 3 attempts"
	# 6 decisions of at most 100ms each, on a busy host.
	[ $(($(now_ms) - t0)) -lt 15000 ]
}

@test "redis: a signal while a decision waits on a silent server ends the run at once" {
	local t0
	silent_start
	t0=$(now_ms)
	RETRY_SHARE_STORE=redis://127.0.0.1:$SILENT_PORT timeout 60 "$RETRY" \
	    --share mute --share-timeout 30s -- true 3>&- &
	local pid=$!
	sleep 0.5
	kill -TERM "$pid"
	local rc=0
	wait "$pid" || rc=$?
	assert_equal "$rc" 143
	# Not the 30s of --share-timeout; room for a busy host.
	[ $(($(now_ms) - t0)) -lt 15000 ]
}

@test "redis: a killed probe is let go; a cooldown past an hour holds; a closed connection is made again" {
	local d=$BATS_TEST_TMPDIR pid rc=0
	redis_start
	export RETRY_SHARE_STORE=$REDIS_URL
	run -1 retry --share pl --share-breaker 1:1s --max 1 -- false
	sleep 1.1
	timeout 60 "$RETRY" --share pl --share-breaker 1:20s -- \
	    sh -c 'echo probing >"$0/probe"; exec sleep 30' "$d" 3>&- &
	pid=$!
	poll_until 60 test -s "$d/probe"
	kill -TERM "$pid"
	wait "$pid" || rc=$?
	assert_equal "$rc" 143
	# The probe was let go: another run probes at once, not in 20s.
	run -0 retry --share pl --share-breaker 1:20s --share-open giveup -- true
	assert_output --partial "the circuit of pl closed: the probe succeeded"
	# Open for 2 hours: held, as the file store holds it.
	run -1 retry --share cd --share-breaker 1:2h --max 1 -- false
	run -75 retry --share cd --share-breaker 1:2h --share-open giveup -- true
	refute_output --partial "going on without"
	run -0 redis_cli TTL retry:cd:state
	[ "$output" -gt 7200 ] && [ "$output" -le 7260 ]
	# The server drops the connection while the run sleeps: the next
	# decision connects again, and --share-required has nothing to say.
	timeout 60 "$RETRY" --share idle --share-required --fixed 2s --max 2 \
	    -- sh -c 'echo x >>"$0/calls"; exit 1' "$d" 2>"$d/err" 3>&- &
	pid=$!
	# Once the run said it sleeps: its decision is made.
	poll_until 20 grep -q 'next attempt in 2s' "$d/err"
	redis_cli CLIENT KILL TYPE normal SKIPME yes >/dev/null
	rc=0
	wait "$pid" || rc=$?
	assert_equal "$rc" 1
	run -0 cat "$d/err"
	refute_output --partial "does not answer"
	refute_output --partial "going on without"
}

@test "redis: a server's answers cannot make retry grow, hang or leak the password" {
	local t0
	fake_start 'b"*2147483647\r\n"'
	t0=$(now_ms)
	run -0 env RETRY_SHARE_STORE=redis://127.0.0.1:$FAKE_PORT \
	    timeout 60 "$RETRY" --share big --share-timeout 100ms -- true
	assert_output --partial "an answer of more than 10000 elements"
	[ $(($(now_ms) - t0)) -lt 15000 ]
	kill "$FAKE_PID"
	# A SCAN that never ends: a page of 10000 names, again and again.
	fake_start 'b"*2\r\n$1\r\n1\r\n*10000\r\n" + b"".join(b"$18\r\nretry:n%05d:state\r\n" % i for i in range(10000))'
	run -1 env RETRY_SHARE_STORE=redis://127.0.0.1:$FAKE_PORT \
	    timeout 60 "$RETRY" share status
	assert_output --partial "SCAN: more than 100000 names"
	kill "$FAKE_PID"
	# A server that says back what it was sent.
	fake_start echo
	run -1 env RETRY_SHARE_STORE="redis://al:Hunter2Secret@127.0.0.1:$FAKE_PORT" \
	    timeout 60 "$RETRY" --share echo --max 2 --immediate -- false
	assert_output --partial "the password is refused: ERR"
	refute_output --partial Hunter2Secret
	refute_output --partial "AUTH"
}

@test "redis: a real server that says back a cut password: no piece of it in any report" {
	local d=$BATS_TEST_TMPDIR fmt
	# AUTH renamed away: the server says back its arguments, cut to
	# about 128 characters, the user's included.
	printf 'requirepass %s\nrename-command AUTH ""\n' "$LONG_PW" >"$d/conf"
	redis_start "$d/conf"
	printf 'redis://default:%s@127.0.0.1:%s/3\n' "$LONG_PW" "$REDIS_PORT" \
	    >"$d/url"
	for fmt in text json; do
		run -1 --separate-stderr retry --share-store-file "$d/url" \
		    --share cut --max 2 --immediate --log-format "$fmt" \
		    --log-file "$d/log.$fmt" -- false
		printf '%s' "$stderr" >"$d/err.$fmt"
		grep -q "the password is refused: ERR (the server has no AUTH command)" "$d/err.$fmt"
		grep -q "the password is refused: ERR" "$d/log.$fmt"
		refute_pieces "$d/err.$fmt" "$d/log.$fmt"
	done
	# No user: the whole password is said back.
	run -1 --separate-stderr env \
	    RETRY_SHARE_STORE="redis://:$LONG_PW@127.0.0.1:$REDIS_PORT" \
	    timeout 60 "$RETRY" --share cut --max 1 --log-file "$d/log" -- false
	printf '%s' "$stderr" >"$d/err"
	grep -q "the password is refused: ERR" "$d/err"
	refute_pieces "$d/err" "$d/log"
}

@test "redis: a server that says back parts of what it was sent, cut anywhere: no piece of the password in any report" {
	local d=$BATS_TEST_TMPDIR answer fmt n=0
	# AUTH's answer, the password in it cut by the server; an answer
	# whose first word is the password's; AUTH taken and the command's
	# error holding the password across retry's own cut of 512 bytes.
	for answer in \
	    '(b"-ERR " + got[:100].replace(b"\r\n", b" ") + b"\r\n") * n' \
	    '(b"-" + got[got.find(b"$128\r\n") + 6:][:60] + b" no\r\n") * n' \
	    'b"+OK\r\n-ERR " + b"x" * 440 + got.replace(b"\r\n", b" ") + b"\r\n"'; do
		fake_start "$answer"
		for fmt in text json; do
			n=$((n + 1))
			run -1 --separate-stderr env \
			    RETRY_SHARE_STORE="redis://al:$LONG_PW@127.0.0.1:$FAKE_PORT" \
			    timeout 60 "$RETRY" --share echo --max 2 --immediate \
			    --log-format "$fmt" --log-file "$d/log.$n" -- false
			printf '%s' "$stderr" >"$d/err.$n"
			grep -q "going on without" "$d/err.$n"
			refute_pieces "$d/err.$n" "$d/log.$n"
		done
		kill "$FAKE_PID"
	done
}

@test "redis: a server that wants a password, given none, says so on every db" {
	local d=$BATS_TEST_TMPDIR db
	printf 'requirepass %s\n' "$LONG_PW" >"$d/conf"
	redis_start "$d/conf"
	for db in 0 3; do
		run -1 env RETRY_SHARE_STORE="$REDIS_URL/$db" timeout 60 "$RETRY" \
		    --share np --max 1 -- false
		assert_output --partial "redis://127.0.0.1:$REDIS_PORT/$db: the server wants a password: give the URL with it in \$RETRY_SHARE_STORE or --share-store @FILE"
		refute_output --partial "the db is refused"
	done
}

@test "redis: a server's control characters show as \\xHH in a report, share status and --dry-run" {
	fake_start 'b"-ERR no \x1b]0;pwned\x07 \xc3\xa9t\xc3\xa9\r\n"'
	run -1 env RETRY_SHARE_STORE=redis://127.0.0.1:$FAKE_PORT \
	    timeout 60 "$RETRY" --share esc --max 1 -- false
	assert_output --partial 'ERR no \x1b]0;pwned\x07 été'
	run env RETRY_SHARE_STORE=redis://127.0.0.1:$FAKE_PORT \
	    timeout 60 "$RETRY" share status
	assert_output --partial 'ERR no \x1b]0;pwned\x07 été'
	run env RETRY_SHARE_STORE=redis://127.0.0.1:$FAKE_PORT \
	    timeout 60 "$RETRY" --dry-run --share esc -- false
	assert_output --partial 'ERR no \x1b]0;pwned\x07 été'
	refute_output --partial $'\e'
}

@test "redis: --budget bounds the wait for the store before an attempt" {
	local t0
	silent_start
	t0=$(now_ms)
	run -75 env RETRY_SHARE_STORE=redis://127.0.0.1:$SILENT_PORT \
	    timeout 60 "$RETRY" --share b --share-timeout 5s --budget 1s \
	    --share-required -- true
	# Half of what was left: 500ms less what a busy host took to start.
	assert_output --regexp "no answer within ([0-9]{1,3}(\.[0-9]+)?ms) \(half of what was left of --budget\)"
	# Not the 5s of --share-timeout.
	[ $(($(now_ms) - t0)) -lt 4500 ]
}

@test "redis: a stopped server costs --share-timeout at most: the first attempt runs within --budget" {
	local t0
	redis_start
	kill -STOP "$REDIS_PID"
	t0=$(now_ms)
	run -0 env RETRY_SHARE_STORE="$REDIS_URL" timeout 60 "$RETRY" \
	    --share s --budget 150ms --timeout 1s -- sh -c 'echo ran'
	kill -CONT "$REDIS_PID"
	assert_line "ran"
	assert_line --index 0 --regexp "no answer within [0-9.]+ms \(half of what was left of --budget\); going on without the shared state for the rest of this run$"
	assert_equal "$(grep -c 'going on without' <<<"$output")" 1
	[ $(($(now_ms) - t0)) -lt 10000 ]
}

@test "redis: a stopped server is not waited for afresh after the last attempt: the run ends within --budget" {
	local t0
	redis_start
	kill -STOP "$REDIS_PID"
	t0=$(now_ms)
	run -0 env RETRY_SHARE_STORE="$REDIS_URL" timeout 60 "$RETRY" \
	    --share s --budget 1s --share-connect-timeout 10s -- sh -c 'echo ran'
	kill -CONT "$REDIS_PID"
	assert_line "ran"
	assert_line --index 0 --regexp "no answer within [0-9.]+ms \(half of what was left of --budget\); going on without the shared state for the rest of this run$"
	assert_equal "$(grep -c 'going on without' <<<"$output")" 1
	# Not a new connection's 10s after the command: room for a busy host.
	[ $(($(now_ms) - t0)) -lt 6000 ]
}

@test "redis: a server that did not answer is not asked the last words without --budget or --deadline" {
	silent_start
	run -0 env RETRY_SHARE_STORE=redis://127.0.0.1:$SILENT_PORT \
	    timeout 60 "$RETRY" --share n --share-connect-timeout 500ms \
	    -- sh -c 'echo ran'
	assert_line "ran"
	assert_equal "$(grep -c 'going on without' <<<"$output")" 1
	# One connection, the gate's: none made again for the success.
	run -0 cat "$BATS_TEST_TMPDIR/silent.conns"
	assert_output "1"
}

@test "redis: a server that does not answer is waited for once a run, not at every decision" {
	silent_start
	run -1 env RETRY_SHARE_STORE=redis://127.0.0.1:$SILENT_PORT \
	    timeout 60 "$RETRY" --share w --fixed 10ms --max 5 -- false
	assert_line --index 0 --regexp "no answer within [0-9.]+m?s; going on without the shared state for the rest of this run$"
	assert_equal "$(grep -c 'going on without' <<<"$output")" 1
	assert_equal "$(grep -c 'attempt [0-9]/5 failed' <<<"$output")" 4
	# One connection, the first gate's: no decision after it waited.
	run -0 cat "$BATS_TEST_TMPDIR/silent.conns"
	assert_output "1"
}

@test "redis: --deadline bounds the last words: a server stopped during the attempt holds the run to the deadline at most" {
	local t0
	redis_start
	t0=$(now_ms)
	run -0 env RETRY_SHARE_STORE="$REDIS_URL" timeout 60 "$RETRY" \
	    --share dl --deadline 3s --share-timeout 30s \
	    -- sh -c 'kill -STOP "$1"; echo ran' _ "$REDIS_PID"
	kill -CONT "$REDIS_PID"
	assert_line "ran"
	assert_line --regexp "no answer within [0-9.]+m?s \(what was left of --deadline\); going on without the shared state for the rest of this run$"
	# Not the 30s of --share-timeout: room for a busy host.
	[ $(($(now_ms) - t0)) -lt 12000 ]
}

@test "redis: a run that --deadline stops counts its failure, waits for no answer past it, and says no fault" {
	redis_start
	run -124 env RETRY_SHARE_STORE="$REDIS_URL" timeout 60 "$RETRY" \
	    --share late --deadline 300ms -- sleep 30
	assert_output --partial "the 300ms deadline is reached"
	refute_output --partial "going on without"
	run -0 redis_cli HGET retry:late:state failures
	assert_output "1"
}

@test "redis: a URL's server is sent its password only once it has answered as Redis does: an SSH port is sent none" {
	local pw=s3cret-pw-$RANDOM
	banner_start
	run -1 env RETRY_SHARE_STORE=redis://retry:$pw@127.0.0.1:$BANNER_PORT/1 \
	    timeout 60 "$RETRY" --share ssh --max 2 --immediate -- false
	assert_line --index 0 --partial "retry: false: --share ssh: redis://retry:***@127.0.0.1:$BANNER_PORT/1: not a Redis server? (Protocol error"
	run -0 cat "$BATS_TEST_TMPDIR/banner.got"
	assert_output --partial HELLO
	refute_output --partial "$pw"
	refute_output --partial AUTH
	# A real server that wants the password answers HELLO with -NOAUTH:
	# Redis all the same, and the run is shared.
	redis_start --requirepass "$pw"
	run -1 env RETRY_SHARE_STORE=redis://:$pw@127.0.0.1:$REDIS_PORT/1 \
	    timeout 60 "$RETRY" --share auth --max 2 --immediate -- false
	refute_output --partial "going on without"
	REDIS_AUTH=$pw run -0 redis_cli -n 1 HGET retry:auth:state failures
	assert_output 2
}

@test "redis: --deadline bounds the wait for the store before an attempt, as --budget does" {
	local t0
	silent_start
	t0=$(now_ms)
	run -75 env RETRY_SHARE_STORE=redis://127.0.0.1:$SILENT_PORT \
	    timeout 60 "$RETRY" --share d --share-timeout 5s --deadline 1s \
	    --share-required -- true
	assert_output --regexp "no answer within ([0-9]{1,3}(\.[0-9]+)?ms) \(half of what was left of --deadline\)"
	# Not the 5s of --share-timeout.
	[ $(($(now_ms) - t0)) -lt 4500 ]
}
