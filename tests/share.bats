#!/usr/bin/env bats
# --share: runs that name the same state share a retry budget, a circuit
# breaker and a not-before time, through a file store.
bats_require_minimum_version 1.5.0
load test_helper/common
load test_helper/share
load test_helper/procs

setup() {
	STORE=$BATS_TEST_TMPDIR/store
	mkdir -m 700 "$STORE"
	export RETRY_SHARE_STORE=file:$STORE
}

@test "share: 50 runs of an always-failing command together: the budget holds the retries" {
	local i d=$BATS_TEST_TMPDIR
	for i in $(seq 50); do
		# 10s for the lock: 50 runs at once on a busy host may queue
		# longer than the default 200ms, and go on without the budget.
		timeout 60 "$RETRY" --share fleet --max 5 --immediate -q \
		    --share-timeout 10s -- \
		    sh -c 'echo x >>"$0/calls"; exit 1' "$d" 3>&- &
	done
	wait
	# On the TAP stream, whether the test passes or not.
	echo "# 50 runs, --max 5: $(calls) attempts with --share; 250 without" >&3
	# Every first attempt runs; a retry takes one of the 10 tokens, and
	# the few that come back in the seconds the test takes (10 a minute)
	# make no whole one: 10 retries at most.
	[ "$(calls)" -ge 50 ]
	[ "$(calls)" -le 60 ]
	[ "$(field fleet tokens | cut -d. -f1)" -eq 0 ]
	assert_equal "$(field fleet failures)" "$(calls)"
}

@test "share: a spent budget ends the run at once with the attempt's status" {
	# A window of a day: the tokens that the run's time gives back (2 a
	# day) stay under the 0.001 that the report shows, however busy the
	# host.
	run -1 retry --share b --share-budget 2 --share-window 1d --immediate -n 5 -- false
	assert_line --index 1 --partial "attempt 2/5 failed: exit 1"
	assert_line --index 2 --regexp "giving up after 3 attempts in .*: exit 1; the retry budget of b is spent \(0 of 2 tokens left\)$"
	run -3 retry --share b --share-budget 2 --share-window 1d --immediate -n 5 -- sh -c 'exit 3'
	assert_output --regexp "giving up after 1 attempt in .*: exit 3; the retry budget of b is spent"
}

@test "share: a retry takes a token, a success gives R back, within [0, N]" {
	# A day's window: what comes back in the test's milliseconds is
	# less than a thousandth.
	local w='--share-window 1d'
	# The last attempt's failure asks for no retry, and takes nothing.
	run -1 retry --share t --share-budget 10:0.25 $w -n 3 --immediate -- false
	assert_equal "$(field t tokens)" 8
	retry --share t --share-budget 10:0.25 $w -- true
	assert_equal "$(field t tokens)" 8.25
	retry --share t --share-budget 10:0.25 $w -- true
	retry --share t --share-budget 10:0.25 $w -- true
	retry --share t --share-budget 10:0.25 $w -- true
	retry --share t --share-budget 10:0.25 $w -- true
	retry --share t --share-budget 10:0.25 $w -- true
	retry --share t --share-budget 10:0.25 $w -- true
	retry --share t --share-budget 10:0.25 $w -- true
	assert_equal "$(field t tokens)" 10
	assert_equal "$(field t failures)" 0
}

@test "share: a budget an outage spent comes back with time, without a success" {
	local d=$BATS_TEST_TMPDIR
	# The outage: the budget is spent.
	run -1 retry -q --share o --share-window 2s --immediate -n 20 -- false
	run -1 retry --share o --share-window 2s --immediate -n 3 -- false
	assert_output --partial "the retry budget of o is spent"
	# Quiet for the window: a run with one failure retries as if
	# unshared, no success needed.
	sleep 2.1
	run -0 retry --share o --share-window 2s --immediate -n 3 -- \
	    "$ROOT/tests/bin/flaky" 1 1 "$d/state"
	assert_line --partial "attempt 1/3 failed"
	refute_output --partial "spent"
	# Half a window gives half the tokens back: 5 of the 10 after 1.1s,
	# and on a busy host, where more time passes, no more than that time
	# gives (5 a second, the window's 10 at most) and the last failure.
	local t0 ms n
	t0=$(now_ms)
	run -1 retry -q --share o --share-window 2s --immediate -n 20 -- false
	sleep 1.1
	run -1 retry --share o --share-window 2s --immediate -n 20 --log-format json -- false
	ms=$(($(now_ms) - t0))
	n=$(grep -c '"event":"failure"' <<<"$output")
	((n >= 5)) || fail "$n failures after 1.1s"
	((ms < 2000)) || ms=2000
	((n <= 2 + 5 * ms / 1000)) || fail "$n failures after ${ms}ms"
}

@test "share: ordinary flakiness: runs that share a budget succeed as lone runs do" {
	local i d=$BATS_TEST_TMPDIR
	# The budget of an earlier outage a window ago does not hold them.
	run -1 retry -q --share flaky --share-window 1s --immediate -n 20 -- false
	sleep 1.1
	# 40 runs at once, one in ten of whose attempts fails (every 10th
	# run's first): each gets its retry.
	for i in $(seq 40); do
		timeout 60 "$RETRY" -q --share flaky --share-window 1s \
		    --immediate -n 4 -- sh -c '
			if [ $(($1 % 10)) -eq 0 ] && [ "$RETRY_ATTEMPT" -eq 1 ]; then
				exit 1
			fi
			echo ok >>"$0/ok"' "$d" "$i" 3>&- &
	done
	wait
	assert_equal "$(wc -l <"$d/ok")" 40
}

@test "share: the breaker opens after N failures in a row; --share-open giveup exits 75 at once" {
	run -1 retry --share br --share-breaker 3:1h --immediate -n 3 -- false
	assert_line --index 2 "retry: false: the circuit of br opened after 3 failures in a row: no run starts an attempt for 1h"
	assert_equal "$(field br breaker)" open
	local t0
	t0=$(now_ms)
	run -75 retry --share br --share-breaker 3:1h --share-open giveup -- \
	    sh -c 'echo ran >"$0/ran"' "$BATS_TEST_TMPDIR"
	assert_output "retry: $(command_name sh -c 'echo ran >"$0/ran"' "$BATS_TEST_TMPDIR"): giving up: the circuit of br is open (--share-open giveup)"
	[ ! -e "$BATS_TEST_TMPDIR/ran" ]
	# Not the circuit's hour; the bound is for a busy host.
	(($(now_ms) - t0 < 10000))
	# Waiting past --budget gives up too, at once.
	run -75 retry --share br --share-breaker 3:1h --budget 10s -- true
	assert_output "retry: true: giving up: waiting for the circuit of br would pass the 10s budget"
}

@test "share: after the cooldown one run probes; its success closes the circuit" {
	run -1 retry --share p --share-breaker 1:1s -n 1 -- false
	run -0 retry --share p --share-breaker 1:1s -- true
	assert_line --index 0 --regexp "^retry: true: attempt 1/5 waits (1s|[0-9.]+ms): the circuit of p is open$"
	assert_line --index 1 "retry: true: the circuit of p is half-open: attempt 1/5 probes it"
	assert_line --index 2 "retry: true: the circuit of p closed: the probe succeeded"
	assert_equal "$(field p breaker)" closed
}

@test "share: a probe that fails opens the circuit again; others wait for the probe" {
	local d=$BATS_TEST_TMPDIR
	run -1 retry --share q --share-breaker 1:1s -n 1 -- false
	sleep 1.1
	# The probe runs until the other run has tried (5s at most), under a
	# lease of its --timeout and --kill-after (10s); the other run, whose
	# rules give the same lease, waits for it.
	timeout 60 "$RETRY" --share q --share-breaker 1:1s -n 1 -T 5s -- \
	    sh -c 'echo >"$0/probing"
	    while [ ! -e "$0/tried" ]; do sleep 0.05; done; exit 1' "$d" \
	    2>"$d/probe" 3>&- &
	poll_until 10 test -e "$d/probing"
	run -75 retry --share q --share-breaker 1:1s --budget 1.5s -T 5s -- true
	: >"$d/tried"
	assert_line --index 0 "retry: true: attempt 1 waits: another run probes the circuit of q"
	assert_line --index 1 "retry: true: giving up: waiting for the probe of q would pass the 1.5s budget"
	wait
	run cat "$d/probe"
	assert_line --index 1 --partial "the circuit of q opened again: the probe failed"
	assert_line --index 2 --partial "giving up after 1 attempt in "
}

@test "share: a probe killed with SIGKILL does not wedge the circuit" {
	local d=$BATS_TEST_TMPDIR pid t0
	run -1 retry --share k --share-breaker 1:500ms -n 1 -- false
	sleep 0.6
	timeout 60 "$RETRY" --share k --share-breaker 1:500ms -- \
	    sh -c 'echo $$ >"$0/probe"; exec sleep 100' "$d" 2>/dev/null 3>&- &
	pid=$!
	poll_until 10 test -s "$d/probe"
	assert_equal "$(field k breaker)" half-open
	kill -KILL "$(pgrep -P "$pid" retry)" "$(cat "$d/probe")" 2>/dev/null || kill -KILL "$pid"
	assert_waited "$pid" 137
	t0=$(now_ms)
	run -0 retry --share k --share-breaker 1:500ms -- true
	assert_output --partial "probes it"
	(($(now_ms) - t0 < 5000))
}

@test "share: a delay one run's output asks for holds another run of the name" {
	local t0
	run -1 retry --share ra -n 1 --delay-from-output '^retry-after: (\d+)' \
	    -- sh -c 'echo retry-after: 3; exit 1'
	t0=$(now_ms)
	run -0 retry --share ra -- true
	# What is left of the 3s: a busy host may have taken a second or two
	# of it between the runs.
	assert_output --regexp "^retry: true: attempt 1/5 waits (3s|[12](\.[0-9]+)?s): another run of ra was asked to wait that long$"
	(($(now_ms) - t0 >= 1000))
}

@test "share: the store directory is made private; unsafe ones are refused with one line" {
	local d=$BATS_TEST_TMPDIR
	run -0 retry --share x --share-store "file:$d/new" -- true
	[ "$(stat -c %a "$d/new")" = 700 ]
	[ "$(stat -c %a "$d/new/x")" = 600 ]
	mkdir -m 777 "$d/open"
	run -125 retry --share x --share-store "file:$d/open" -- true
	assert_output "retry: true: --share x: $d/open: refused: others may write in it (chmod 700 it)"
	ln -s "$d/new" "$d/link"
	run -125 retry --share x --share-store "file:$d/link" -- true
	assert_output "retry: true: --share x: $d/link: not a directory (a symlink or a file is refused)"
	touch "$d/file"
	run -125 retry --share x --share-store "file:$d/file" -- true
	assert_output "retry: true: --share x: $d/file: not a directory (a symlink or a file is refused)"
	ln -s /etc/passwd "$d/new/y"
	run -125 retry --share y --share-store "file:$d/new" -- true
	assert_output "retry: true: --share y: $d/new/y: a symlink is refused"
	run -125 retry --share x --share-store "ftp://localhost" -- true
	assert_usage_error --share-store
	assert_line --index 0 "retry: --share-store: 'ftp://localhost': not a store: give file:DIR, redis://HOST[:PORT][/DB] or unix:///PATH"
}

@test "share: a list of seeds with an empty one, more than 16 or one twice, and a list of sockets, are refused with one line" {
	local many
	many=$(printf 'h%d,' $(seq 17))
	many=redis://${many%,}
	run -125 retry --share x --share-store "redis://a,,b" -- true
	assert_usage_error --share-store
	assert_line --index 0 "retry: --share-store: 'redis://a,,b': an empty host in the list: give HOST[:PORT] between the commas"
	run -125 retry --share x --share-store "$many" -- true
	assert_usage_error --share-store
	assert_line --index 0 "retry: --share-store: '$many': more than 16 hosts in the list"
	run -125 retry --share x --share-store "redis://a:6379,a/1" -- true
	assert_usage_error --share-store
	assert_line --index 0 "retry: --share-store: 'redis://a:6379,a/1': a host is named twice"
	run -125 retry --share x --share-store "unix:///a.sock,/b.sock" -- true
	assert_usage_error --share-store
	assert_line --index 0 "retry: --share-store: 'unix:///a.sock,/b.sock': unix:// names one socket, not a list"
	# From the environment, for a run and for retry share.
	run -125 env RETRY_SHARE_STORE=rediss://:pw@a,b,/1 timeout 60 "$RETRY" \
	    --share x -- true
	assert_setup_error "true: --share x: \\\$RETRY_SHARE_STORE: an empty host in the list"
	run -125 env RETRY_SHARE_STORE=rediss://:pw@a,b,/1 timeout 60 "$RETRY" \
	    share status
	assert_output "retry: \$RETRY_SHARE_STORE: an empty host in the list: give HOST[:PORT] between the commas"
	if noredis; then return; fi
	# 16 are taken: the store is down, and the run goes on.
	many=$(printf '127.0.0.%d:1,' $(seq 16))
	run -0 env RETRY_SHARE_STORE=redis://${many%,} timeout 60 "$RETRY" \
	    --share x -- true
	assert_output --partial "no seed answers; the last tried: node 127.0.0.16:1: cannot connect: Connection refused; going on without"
}

@test "share: --share-store-file: a writer that never ends a line holds a run 2s, a signal not at all; a missing file is an error" {
	local d=$BATS_TEST_TMPDIR t0 pid st i
	mkfifo "$d/fifo"
	# A writer that holds the pipe open and writes nothing.
	exec 4<>"$d/fifo"
	t0=$(now_ms)
	run -125 retry --share x --share-store-file "$d/fifo" -- true
	assert_output "retry: true: --share x: --share-store @$d/fifo: no line within 2s"
	(($(now_ms) - t0 < 10000))
	# A signal ends the wait, and retry dies of it as anywhere else.
	"$RETRY" --share x --share-store-file "$d/fifo" -- true 2>"$d/err" 3>&- 4>&- &
	pid=$!
	# Once retry, not the shell that forks it and still holds fd 4,
	# has the pipe open, its handlers are in place.
	poll_until 10 eval '[ "$(readlink "/proc/$pid/exe")" = "$(realpath "$RETRY")" ] &&
	    readlink "/proc/$pid"/fd/* 2>/dev/null | grep -qxF "$d/fifo"'
	kill -TERM "$pid"
	st=0
	wait "$pid" || st=$?
	exec 4>&-
	assert_equal "$st" 143
	assert_equal "$(cat "$d/err")" "retry: true: SIGTERM before the first attempt; stopping"
	# A missing file is no missing store: retry share says so too.
	run -125 retry share reset --share-store-file "$d/missing" x
	assert_output "retry: --share-store @$d/missing: No such file or directory"
	run -125 retry share status --share-store-file "$d/missing"
	assert_output "retry: --share-store @$d/missing: No such file or directory"
}

@test "share: --share-store-file: a pipe with no writer, an empty file and a device are said as such" {
	local d=$BATS_TEST_TMPDIR
	mkfifo "$d/fifo"
	: >"$d/empty"
	run -125 timeout 60 "$RETRY" --share x --share-store-file "$d/fifo" -- true
	assert_output "retry: true: --share x: --share-store @$d/fifo: a pipe that nothing was written to (is its writer running?)"
	run -125 timeout 60 "$RETRY" share status --share-store-file "$d/fifo"
	assert_output "retry: --share-store @$d/fifo: a pipe that nothing was written to (is its writer running?)"
	run -125 retry --share x --share-store-file "$d/empty" -- true
	assert_output "retry: true: --share x: --share-store @$d/empty: it is empty"
	run -125 retry --share x --share-store-file /dev/null -- true
	assert_output "retry: true: --share x: --share-store @/dev/null: not a regular file or a pipe"
}

@test "share: a run killed at any system call of an update leaves the state it found or the one it made" {
	command -v strace >/dev/null || skip "strace is not installed (.ci/deps installs it)"
	skip_under_asan_limits "LeakSanitizer does not work under ptrace"
	skip_under_valgrind "valgrind's own process is not the one to kill"
	strace -f -o /dev/null true 2>/dev/null ||
	    skip "strace cannot trace here (ptrace is not allowed)"
	local d=$BATS_TEST_TMPDIR sc when st failures
	for sc in fcntl pread64 pwrite64 write ftruncate fsync fdatasync \
	    rename renameat renameat2; do
		for when in 1 2 3; do
			# 7 failures, written longer than a run writes them.
			printf '%s\n' 'retry-share 1' 'tokens 10' \
			    'failures 000000000000000000007' 'breaker closed' \
			    'open-until 0' 'probe 0 0' 'not-before 0' \
			    "changed $(date +%s%N) 0 0 0" >"$STORE/k"
			st=0
			timeout 60 strace -f -o /dev/null \
			    -e "inject=$sc:signal=KILL:when=$when" \
			    "$RETRY" --share k --max 1 -- false \
			    >/dev/null 2>&1 3>&- || st=$?
			run -0 --separate-stderr "$RETRY" share status \
			    --share-window 1d --log-format json k
			failures=$(jq -r .failures <<<"$output")
			[[ $failures == [78] ]] ||
			    fail "killed at $sc #$when ($st): $failures ($stderr)"
			run -1 "$RETRY" --share k --max 1 -- false
			refute_output --partial "not a shared state"
		done
	done
}

@test "share: a directory of another user's is refused" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to give a directory away"
	mkdir -m 700 "$BATS_TEST_TMPDIR/theirs"
	chown nobody "$BATS_TEST_TMPDIR/theirs"
	run -125 retry --share x --share-store "file:$BATS_TEST_TMPDIR/theirs" -- true
	assert_output "retry: true: --share x: $BATS_TEST_TMPDIR/theirs: refused: it belongs to another user"
}

@test "share: a corrupt state is said once and started afresh" {
	printf 'retry-share 1\ntokens lots\n' >"$STORE/c"
	run -1 retry --share c --share-window 1d --immediate -n 3 -- false
	assert_line --index 0 "retry: false: --share c: $STORE/c was not a shared state; it starts afresh"
	assert_equal "$(grep -c 'not a shared state' <<<"$output")" 1
	assert_equal "$(field c tokens)" 8
	head -c 3000 /dev/urandom >"$STORE/c"
	run -0 retry --share c -- true
}

@test "share: a full disk: said once, and the run goes on unshared" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to mount a small tmpfs"
	local m=$BATS_TEST_TMPDIR/full
	mkdir "$m"
	mount -t tmpfs -o size=64k,mode=700 tmpfs "$m" || skip "cannot mount a tmpfs"
	# The filler fills it, and dd says so.
	run -1 dd if=/dev/zero of="$m/filler" bs=4k count=100
	assert_output --partial "No space left on device"
	run -1 retry --share f --share-store "file:$m" --immediate -n 3 -- false
	umount "$m"
	assert_line --index 0 --regexp "^retry: false: --share f: $m/f: cannot write it: No space left on device; going on without the shared state until it answers$"
	assert_equal "$(grep -c 'going on without' <<<"$output")" 1
	assert_line --partial "giving up after 3 attempts"
}

@test "share: retry share status with no state says so on stderr, and exits 0" {
	run -0 --separate-stderr "$RETRY" share status
	assert_equal "$output" ""
	assert_equal "$stderr" "retry: no shared state in $STORE"
	run -0 --separate-stderr "$RETRY" share status --log-format json
	assert_equal "$output" ""
	assert_regex "$stderr" '^\{"ts":"[0-9T:.-]+Z","event":"error","label":null,"command":\[\],"name":null,"message":"no shared state in '"$STORE"'"\}$'
}

@test "share: share status --log-format json says what goes wrong as a run's error events, never as text" {
	local d=$BATS_TEST_TMPDIR
	run -125 --separate-stderr "$RETRY" share status --log-format json \
	    --share-store "file:$d/typo"
	assert_equal "$output" ""
	assert_regex "$stderr" '^\{"ts":"[^"]+","event":"error","label":null,"command":\[\],"name":null,"message":"--share-store: '"$d"'/typo: No such file or directory \(no store there\)"\}$'
	run -0 retry --share j -n 1 -- true
	run -1 --separate-stderr "$RETRY" share status --log-format json j \
	    missing
	assert_line --index 0 --regexp '^\{"name":"j",'
	assert_equal "${#lines[@]}" 1
	assert_regex "$stderr" '^\{"ts":"[^"]+","event":"error","label":null,"command":\[\],"name":null,"message":"missing: no shared state in '"$STORE"'"\}$'
	if noredis; then return; fi
	# A store that does not answer.
	run -1 --separate-stderr env RETRY_SHARE_STORE=unix://"$d"/none.sock \
	    timeout 60 "$RETRY" share status --log-format json x
	assert_regex "$stderr" '^\{"ts":"[^"]+","event":"error","label":null,"command":\[\],"name":null,"message":"unix://'"$d"'/none.sock\?db=0: [^"]+"\}$'
}

@test "share: a store that is not there is an error, not an empty store" {
	run -125 --separate-stderr "$RETRY" share status \
	    --share-store "file:$BATS_TEST_TMPDIR/typo"
	assert_equal "$output" ""
	assert_equal "$stderr" "retry: --share-store: $BATS_TEST_TMPDIR/typo: No such file or directory (no store there)"
	run -125 --separate-stderr "$RETRY" share reset x \
	    --share-store "file:$BATS_TEST_TMPDIR/typo"
	assert_equal "${#stderr_lines[@]}" 1
	RETRY_SHARE_STORE=file:$BATS_TEST_TMPDIR/typo run -125 --separate-stderr \
	    "$RETRY" share status x
	assert_equal "$stderr" "retry: \$RETRY_SHARE_STORE: $BATS_TEST_TMPDIR/typo: No such file or directory (no store there)"
	# The default store, which the first run makes: no state yet.
	mkdir -m 700 "$BATS_TEST_TMPDIR/run"
	unset RETRY_SHARE_STORE
	XDG_RUNTIME_DIR=$BATS_TEST_TMPDIR/run run -0 --separate-stderr \
	    "$RETRY" share status
	assert_equal "$stderr" "retry: no shared state yet"
}

@test "share: share status shows the tokens as a run would find them now, refilled since written" {
	local now half
	now=$(date +%s)
	half=$(( (now - 43200) * 1000000000 ))
	# Spent half a day ago, in a window of a day: half of it is back.
	printf '%s\n' 'retry-share 1' 'tokens 0' 'failures 3' 'breaker closed' \
	    'open-until 0' 'probe 0 0' 'not-before 0' \
	    "changed $half $half $half 0" >"$STORE/spent"
	run -0 --separate-stderr "$RETRY" share status --share-window 1d \
	    --log-format json spent
	run -0 python3 -c '
import json, sys
t = json.loads(sys.argv[1])["tokens"]
print("ok" if 5 <= t < 5.5 else t)' "$output"
	assert_output ok
	# What a run sees agrees: --dry-run reads it through the same rule.
	run -0 retry --dry-run --share spent --share-window 1d -- true
	assert_output --regexp "shared spent: 5(\.[0-9]+)? of 10 tokens"
	# With --share-budget, of N.
	run -0 --separate-stderr "$RETRY" share status --share-window 1d \
	    --share-budget 4 --log-format json spent
	assert_output --regexp '"tokens":2(\.[0-9]+)?,'
}

@test "share: retry share status and reset, as a table and as JSON" {
	printf '%s\n' 'retry-share 1' 'tokens 4.5' 'failures 7' 'breaker open' \
	    'open-until 1900000000000000000' 'probe 0 0' 'not-before 0' \
	    'changed 1795499990123000000 1795499990123000000 1795499990000000000 1700000000000000000' \
	    >"$STORE/deploy-api"
	printf '%s\n' 'retry-share 1' 'tokens 10' 'failures 0' 'breaker closed' \
	    'open-until 0' 'probe 0 0' 'not-before 1900000000500000000' \
	    'changed 1 2 3 1795499999000000000' >"$STORE/cron"
	# deploy-api's tokens were written more than a window ago: all are
	# back, as a run would find them.
	run -0 "$RETRY" share status
	assert_output "name        part        value                                     changed
cron        tokens      10                                        1970-01-01T00:00:00.000Z
cron        failures    0                                         1970-01-01T00:00:00.000Z
cron        breaker     closed                                    1970-01-01T00:00:00.000Z
cron        not-before  2030-03-17T17:46:40.500Z                  2026-11-24T05:59:59.000Z
deploy-api  tokens      10                                        2026-11-24T05:59:50.123Z
deploy-api  failures    7                                         2026-11-24T05:59:50.123Z
deploy-api  breaker     open until 2030-03-17T17:46:40.000Z       2026-11-24T05:59:50.000Z
deploy-api  not-before  -                                         2023-11-14T22:13:20.000Z"
	run -0 "$RETRY" share status --log-format json deploy-api
	assert_output '{"name":"deploy-api","tokens":10,"tokens_changed":"2026-11-24T05:59:50.123Z","failures":7,"failures_changed":"2026-11-24T05:59:50.123Z","breaker":"open","open_until":"2030-03-17T17:46:40.000Z","probe_until":null,"breaker_changed":"2026-11-24T05:59:50.000Z","not_before":null,"not_before_changed":"2023-11-14T22:13:20.000Z","latency":null}'
	run -0 "$RETRY" share reset deploy-api
	assert_output ""
	run -1 "$RETRY" share status deploy-api
	assert_output --partial "deploy-api: no shared state in $STORE"
	run -1 "$RETRY" share status nothing-here
	assert_output --partial "nothing-here: no shared state in $STORE"
	run -125 "$RETRY" share
	assert_output --partial "give status [NAME]... or reset NAME..."
	run -125 "$RETRY" share reset
	run -125 "$RETRY" share status 'bad/name'
}

@test "share: each success adds its duration to the name's history, which status shows and reset forgets" {
	local i p50 p99
	for i in 1 2 3; do
		run -0 "$RETRY" --share lat -- sleep 0.2
	done
	# A failure's duration is no latency of the command's.
	run -1 "$RETRY" --share lat -n 2 --fixed 1ms -- sh -c 'sleep 1; exit 1'
	run -0 "$RETRY" share status lat
	assert_line --regexp '^lat +latency +3 runs: p50 [0-9.]+[num]?s, p95 [0-9.]+[num]?s, p99 [0-9.]+[num]?s$'
	run -0 "$RETRY" share status --log-format json lat
	assert_output --regexp '"latency":\{"samples":3,"p50":[0-9.e-]+,"p95":[0-9.e-]+,"p99":[0-9.e-]+\}\}$'
	p50=$(jq .latency.p50 <<<"$output")
	p99=$(jq .latency.p99 <<<"$output")
	# Each took at least 0.2s; the sketch's buckets are within 1/32 of it.
	jq -en --argjson a "$p50" --argjson b "$p99" \
	    '$a >= 0.2 * 31 / 32 and $a <= $b and $b < 1'
	# The state's record is as long as before: the history follows it.
	[ "$(stat -c %s "$STORE/lat")" -eq 896 ]
	run -0 "$RETRY" share reset lat
	run -0 "$RETRY" --share lat -- true
	run -0 "$RETRY" share status lat
	assert_line --regexp '^lat +latency +1 run: '
}

@test "share: --dry-run says what the shared state would do now" {
	run -0 retry --dry-run --share d --count 2
	assert_line "shared d: no state yet, 10 of 10 tokens: a retry after a failure would run; 0 failures in a row"
	assert_line "an attempt would start now"
	run -1 retry --share d --share-breaker 2:1h --share-window 1d --immediate -n 2 -- false
	run -0 retry --dry-run --share d --share-breaker 2:1h --share-window 1d --count 2
	assert_line "shared d: 9 of 10 tokens: a retry after a failure would run; 2 failures in a row"
	assert_line "an attempt would wait 1h: the circuit is open"
	run -0 retry --dry-run --share d --share-breaker 2:1h --share-window 1d --budget 10m --count 2
	assert_line "an attempt would wait 1h: the circuit is open; past --budget, the run would give up (75)"
	run -0 retry --dry-run --share d --share-breaker 2:1h --share-open giveup --count 2
	assert_line "the circuit is open: the run would give up (75)"
	run -0 "$RETRY" share status --share-window 1d --log-format json d
	assert_output --partial '"tokens":9,'
	# Spent: the dry run says a retry would not run.
	run -1 retry -q --share d --share-budget 1 --share-window 1d -n 3 --immediate -- false
	run -0 retry --dry-run --share d --share-budget 1 --share-window 1d --count 2
	assert_line "shared d: 0 of 1 tokens: a retry would not run (the budget is spent); 4 failures in a row"
}

@test "share: JSON events name the state and what it did" {
	run -1 retry --log-format json --share j --share-breaker 1:1h -n 1 -- false
	assert_line --index 0 --regexp '"event":"share".*"share":"j","what":"opened","tokens":10'
	run -0 jq -c '[.event, .what, .attempt_reason, .reason]' <<<"$output"
	assert_output $'["share","opened",null,null]\n["giveup",null,"status","max_attempts"]'
	# Shared state that ends the run gives the run's reason.
	run -75 retry --log-format json --share j --share-breaker 1:1h \
	    --share-open giveup -- true
	run -0 jq -c '[.event, .what, .attempt_reason, .reason]' <<<"$output"
	assert_output '["share","giveup_open",null,"share_open"]'
	run -75 retry --log-format json --share j --share-breaker 1:1h \
	    --budget 10s -- true
	run -0 jq -c '[.event, .what, .attempt_reason, .reason]' <<<"$output"
	assert_output '["share","past_budget",null,"budget"]'
	# Past --deadline, without --budget or before it: the deadline's.
	run -75 retry --log-format json --share j --share-breaker 1:1h \
	    --deadline 10s -- true
	run -0 jq -c '[.event, .what, .attempt_reason, .reason]' <<<"$output"
	assert_output '["share","past_budget",null,"deadline"]'
	run -75 --separate-stderr retry --share j --share-breaker 1:1h \
	    --deadline 10s --budget 20s -- true
	assert_equal "$stderr" "retry: true: giving up: waiting for the circuit of j would pass the 10s deadline"
	run -0 retry --dry-run --share j --share-breaker 1:1h --deadline 10m \
	    --count 2
	assert_line "an attempt would wait 1h: the circuit is open; past --deadline, the run would give up (75)"
}

@test "share: a breaker that the last attempt opens is said before the closing line, in text and JSON" {
	run -1 --separate-stderr retry --share last --share-breaker 2:1h --immediate -n 2 -- false
	assert_equal "${#stderr_lines[@]}" 3
	assert_regex "${stderr_lines[0]}" '^retry: false: attempt 1/2 failed: '
	assert_equal "${stderr_lines[1]}" "retry: false: the circuit of last opened after 2 failures in a row: no run starts an attempt for 1h"
	assert_regex "${stderr_lines[2]}" '^retry: false: giving up after 2 attempts in '
	run -1 --separate-stderr retry --share lastj --share-breaker 2:1h --immediate -n 2 \
	    --log-format json -- false
	run -0 jq -r '[.event, .what // "-"] | join(" ")' <<<"$stderr"
	assert_output $'failure -\nshare opened\ngiveup -'
	# A probe that fails: opened again, then the closing line.
	run -1 retry --share probe --share-breaker 1:1s -n 1 -- false
	sleep 1.1
	run -1 --separate-stderr retry --share probe --share-breaker 1:1s -n 1 -- false
	assert_equal "${#stderr_lines[@]}" 3
	assert_equal "${stderr_lines[0]}" "retry: false: the circuit of probe is half-open: attempt 1/1 probes it"
	assert_regex "${stderr_lines[1]}" '^retry: false: the circuit of probe opened again: the probe failed'
	assert_regex "${stderr_lines[2]}" '^retry: false: giving up after 1 attempt in '
}

@test "share: bad values and lone --share options exit 125" {
	run -125 retry --share "" -- true
	assert_usage_error --share
	run -125 retry --share a/b -- true
	run -125 retry --share-budget 5 -- true
	assert_usage_error --share-budget
	run -125 retry --share a --share-budget 0 -- true
	run -125 retry --share a --share-budget 10:11 -- true
	run -125 retry --share a --share-window 0.5s -- true
	assert_usage_error --share-window
	run -125 retry --share a --share-window 2d -- true
	run -125 retry --share a --share-window soon -- true
	run -125 retry --share-window 1m -- true
	run -125 retry --share a --share-breaker 5 -- true
	run -125 retry --share a --share-breaker 0:1s -- true
	run -125 retry --share a --share-open sometimes -- true
	run -125 retry --share a --share-store "" -- true
}

@test "share: a probe ended by a signal lets the probe go at once" {
	local pid t0
	start_probe pt -T 60s
	pid=$PROBE
	kill -TERM "$pid"
	assert_waited "$pid" 143
	t0=$(now_ms)
	run -0 retry --share pt --share-breaker 1:30s -- true
	assert_output --partial "probes it"
	(($(now_ms) - t0 < 5000))
}

@test "share: a delay the output asks for holds the others when the run's own is longer" {
	# 30s asked, 60s its own: however slow the host, the dry run comes
	# well within the 30s.
	start_retry --share rl -n 2 --fixed 60s \
	    --delay-from-output '^retry-after: (\d+)' \
	    -- sh -c 'echo retry-after: 30; exit 1'
	wait_match "$BATS_TEST_TMPDIR/err" "next attempt in 1m, the strategy's"
	run -0 retry --dry-run --share rl --count 1
	kill "$RETRY_PID"
	assert_line --regexp '^an attempt would wait (2[0-9](\.[0-9]+)?s|30s): another run was asked to wait$'
}

@test "share: the last attempt's Retry-After holds the others within --max-delay" {
	run -1 retry --share md -n 1 --max-delay 1s \
	    --delay-from-output '^retry-after: (\d+)' \
	    -- sh -c 'echo retry-after: 7200; exit 1'
	run -0 retry --dry-run --share md --count 1
	assert_line --regexp '^an attempt would wait ([0-9.]+ms|1s): another run was asked to wait$'
}

@test "share: --on-giveup sees the last status when the circuit ends the run" {
	run -75 retry --share g --share-breaker 2:1h --share-open giveup -n 5 \
	    --immediate --on-giveup 'echo "status=$RETRY_STATUS" >&2' \
	    -- sh -c 'exit 7'
	assert_line "status=7"
	assert_line "retry: sh -c 'exit 7': giving up: the circuit of g is open (--share-open giveup)"
}

@test "share: a run without --share-breaker ignores the breaker of its name" {
	run -1 retry --share ig --share-breaker 1:1h -n 1 -- false
	run -0 retry --share ig -- true
	assert_output ""
}

@test "share: a store whose lock another process holds costs --share-timeout, and the command runs within --budget" {
	local t0
	run -0 retry --share x -- true
	hold_lock "$STORE/x" 20
	t0=$(now_ms)
	run -0 retry --share x --budget 1s --timeout 5s -- sh -c 'echo ran'
	kill "$LOCKER"
	assert_line "ran"
	assert_line --index 0 --regexp "^retry: sh -c 'echo ran': --share x: $STORE/x: another process has held its lock for [0-9.]+ms; going on without the shared state for the rest of this run$"
	assert_equal "$(grep -c 'going on without' <<<"$output")" 1
	# Not the lock's 20s; the bound is for a busy host.
	(($(now_ms) - t0 < 10000))
	# Half of what is left of --budget, when that is less.
	hold_lock "$STORE/x" 20
	run -0 retry --share x --budget 100ms --share-timeout 10s -- sh -c 'echo ran'
	kill "$LOCKER"
	assert_line "ran"
	assert_line --index 0 --regexp "held its lock for [0-9.]+ms;"
	# --share-required keeps its meaning: no attempt without the store.
	hold_lock "$STORE/x" 20
	run -75 retry --share x --share-required --share-timeout 50ms -- sh -c 'echo ran'
	kill "$LOCKER"
	refute_line "ran"
	assert_line --index 0 --partial "--share-required: giving up"
}

@test "share: a held lock is not waited for afresh after the last attempt, and no wait passes --deadline" {
	local t0 limit
	run -0 retry --share dl -- true
	hold_lock "$STORE/dl" 60
	# The gate's wait was cut short: the last words have only what is
	# left, not a fresh --share-timeout.
	for limit in --budget --deadline; do
		t0=$(now_ms)
		run -0 retry --share dl "$limit" 1s --share-timeout 30s \
		    -- sh -c 'echo ran'
		assert_line "ran"
		assert_line --index 0 --regexp "held its lock for [0-9.]+ms; going on without"
		assert_equal "$(grep -c 'going on without' <<<"$output")" 1
		# Not the 30s of --share-timeout: room for a busy host.
		(($(now_ms) - t0 < 12000))
	done
	kill "$LOCKER"
	# The lock taken during the attempt: the last words end by the
	# deadline too.
	t0=$(now_ms)
	run -0 retry --share dl --deadline 4s --share-timeout 30s -- sh -c '
	    python3 -c "import fcntl, sys, time
f = open(sys.argv[1], \"r+\"); fcntl.lockf(f, fcntl.LOCK_EX)
open(sys.argv[2], \"w\").close(); time.sleep(60)" "$1" "$2/locked" \
	    >/dev/null 2>&1 3>&- &
	    echo $! >"$2/locker"
	    i=0; while [ ! -e "$2/locked" ] && [ $i -lt 400 ]; do
		sleep 0.05; i=$((i + 1)); done
	    echo ran' _ "$STORE/dl" "$BATS_TEST_TMPDIR"
	kill "$(cat "$BATS_TEST_TMPDIR/locker")"
	[ -e "$BATS_TEST_TMPDIR/locked" ]
	assert_line "ran"
	assert_line --regexp "held its lock for [0-9.]+m?s; going on without"
	(($(now_ms) - t0 < 15000))
}

@test "share: a run that --deadline stops still counts its failure, and says no fault" {
	run -124 retry --share fl --deadline 300ms -- sleep 30
	assert_output --partial "the 300ms deadline is reached"
	refute_output --partial "going on without"
	assert_equal "$(field fl failures)" 1
}

@test "share: a store that cannot be made: said once, and the command runs unshared" {
	run -0 env -u RETRY_SHARE_STORE XDG_RUNTIME_DIR="$BATS_TEST_TMPDIR/none/run" \
	    "$RETRY" --share m --immediate -n 3 -- "$ROOT/tests/bin/flaky" 1
	assert_line --index 0 "retry: $(command_name "$ROOT/tests/bin/flaky" 1): --share m: $BATS_TEST_TMPDIR/none/run/retry: cannot make it: No such file or directory; going on without the shared state"
	assert_equal "$(grep -c 'going on without' <<<"$output")" 1
	assert_line "run 2"
	run -1 retry --share m --share-store "file:$BATS_TEST_TMPDIR/none/dir" \
	    --immediate -n 2 -- false
	assert_line --index 0 --partial "cannot make it"
	assert_line --partial "giving up after 2 attempts"
	run -75 retry --share m --share-store "file:$BATS_TEST_TMPDIR/none/dir" \
	    --share-required -- sh -c 'echo ran'
	refute_line "ran"
	assert_line --index 0 --partial "; --share-required: giving up"
}

@test "share: a probe ended by a signal while another process holds the lock is still let go" {
	local pid
	start_probe pl -T 60s
	pid=$PROBE
	hold_lock "$STORE/pl" 0.1
	kill -TERM "$pid"
	assert_waited "$pid" 143
	wait "$LOCKER"
	# Its lease was a minute: a run that had to wait it out gives up.
	run -0 retry --share pl --share-breaker 1:30s --budget 5s -- true
	assert_output --partial "probes it"
}

@test "share: the reader of the output going away while a run waits on the shared state ends it as a pipeline" {
	run -1 retry --share g --share-breaker 1:5s -n 1 -- false
	run -0 bash -c '"$RETRY" --share g --share-breaker 1:5s --max 1 \
	    -- echo hi 2>"$0/err" | (sleep 0.3); echo "${PIPESTATUS[0]}"' \
	    "$BATS_TEST_TMPDIR"
	assert_output 141
	run cat "$BATS_TEST_TMPDIR/err"
	assert_line --index 0 --partial "waits"
	refute_line --partial "stopping"
	run -0 bash -c '"$RETRY" --share g --share-breaker 1:5s --max 1 \
	    --log-format json -- echo hi 2>"$0/err" | (sleep 0.3)' \
	    "$BATS_TEST_TMPDIR"
	run cat "$BATS_TEST_TMPDIR/err"
	assert_line --index 1 --regexp '"event":"stop",.*"status":null,.*"reason":"reader_gone"'
}

@test "share: a state a window old is none for share status and --dry-run, as for a run" {
	printf '%s\n' 'retry-share 1' 'tokens 0.5' 'failures 20' 'breaker closed' \
	    'open-until 0' 'probe 0 0' 'not-before 0' \
	    'changed 1700000000000000000 1700000000000000000 1700000000000000000 1700000000000000000' \
	    >"$STORE/old"
	run -1 "$RETRY" share status old
	assert_output "retry: old: no shared state in $STORE"
	run -0 "$RETRY" share status
	assert_output "retry: no shared state in $STORE"
	run -0 retry --dry-run --share old --count 1
	assert_line "shared old: no state yet, 10 of 10 tokens: a retry after a failure would run; 0 failures in a row"
	# A day's window keeps what a minute's drops.
	run -1 retry -q --share young --share-window 1d -n 2 --immediate -- false
	run -0 "$RETRY" share status --share-window 1d young
	assert_line --partial "failures    2"
}

@test "share: numbers as people write them, and one failure is one" {
	run -0 retry --dry-run --share big --share-budget 1000000 --count 1
	assert_line --partial "1000000 of 1000000 tokens"
	run -1 retry --share one --share-breaker 1:1h -n 1 -- false
	assert_line --partial "opened after 1 failure in a row"
	run -1 retry -q --share one1 -n 1 -- false
	run -0 retry --dry-run --share one1 --count 1
	assert_line --partial "; 1 failure in a row"
}

@test "share: the store's time counts against --budget: no attempt starts past it" {
	local d=$BATS_TEST_TMPDIR
	run -0 retry --share late -- true
	# Attempt 1 has another process take the lock for 8s, and ends once
	# it holds it; the decision after it may wait half of what is left of
	# --budget, no more, and the next attempt starts within --budget or
	# not at all.  The budget is seconds, so that a busy host's slower
	# attempts leave the decision something to wait.
	run -1 retry --share late --share-timeout 10s --budget 4s --exp 10ms --max 5 -- \
	    sh -c 'echo $(($(date +%s%N) / 1000000)) >>"$1/starts"
	    [ -e "$1/held" ] || { touch "$1/held"
	    python3 -c "import fcntl, sys, time
f = open(sys.argv[1], \"r+\"); fcntl.lockf(f, fcntl.LOCK_EX)
open(sys.argv[2], \"w\").close(); time.sleep(8)" "$2" "$1/locked" \
	    >/dev/null 2>&1 3>&- &
	    echo $! >"$1/locker"
	    i=0; while [ ! -e "$1/locked" ] && [ $i -lt 400 ]; do
		sleep 0.05; i=$((i + 1)); done; }
	    exit 1' _ "$d" "$STORE/late"
	local first last locker
	first=$(head -n 1 "$d/starts")
	last=$(tail -n 1 "$d/starts")
	# Within the 4s budget, or no second attempt; waiting for the lock
	# (8s) would be more.
	[ -e "$d/locked" ]
	((last - first < 7000))
	assert_output --partial "giving up"
	# The locker, by its pid: on a slow machine it may have ended.
	locker=$(cat "$d/locker")
	kill "$locker" 2>/dev/null || [ ! -e "/proc/$locker" ]
}

@test "share: after a signal, a probe's last words wait a second at most, whatever --share-timeout" {
	local pid t0
	start_probe ps --share-timeout 20s
	pid=$PROBE
	hold_lock "$STORE/ps" 10
	t0=$(now_ms)
	kill -TERM "$pid"
	assert_waited "$pid" 143
	kill "$LOCKER"
	# A second, not the 20s of --share-timeout: room for a busy host.
	(($(now_ms) - t0 < 5000))
}

@test "share: a default store that another user planted is never used, and denies no run its command" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to be another user"
	command -v setpriv >/dev/null || skip "setpriv is not installed"
	local uid dir
	# A uid of its own, whose default store is /tmp/retry-UID.
	uid=$((420000 + RANDOM))
	dir=/tmp/retry-$uid
	rm -rf "$dir"
	as_user() {
		setpriv --reuid="$uid" --regid="$uid" --clear-groups \
		    env -u XDG_RUNTIME_DIR -u RETRY_SHARE_STORE "$RETRY" "$@"
	}
	# Made first, by another user (root here), for all to read.
	mkdir -m 755 "$dir"
	run -0 as_user --share x -- echo ran
	assert_line --index 0 "retry: echo ran: --share x: $dir: refused: it belongs to another user; going on without the shared state"
	assert_line --index 1 ran
	assert_equal "${#lines[@]}" 2
	run -75 as_user --share x --share-required -- echo ran
	refute_line ran
	assert_line --index 0 --partial "--share-required: giving up"
	# A symlink, or the user's own directory open to others: the same.
	rmdir "$dir"
	ln -s /etc "$dir"
	run -0 as_user --share x -- echo ran
	assert_line --index 0 "retry: echo ran: --share x: $dir: not a directory (a symlink or a file is refused); going on without the shared state"
	assert_line --index 1 ran
	rm "$dir"
	mkdir -m 777 "$dir"
	chown "$uid" "$dir"
	run -0 as_user --share x -- echo ran
	assert_line --index 0 --partial "others may write in it (chmod 700 it); going on without the shared state"
	rmdir "$dir"
	# Named on the command line, a refused store is a mistake: 125.
	mkdir -m 777 "$BATS_TEST_TMPDIR/open"
	run -125 retry --share x --share-store "file:$BATS_TEST_TMPDIR/open" -- true
}

@test "share: --share-store @FILE is --share-store-file FILE, which is listed only in its line" {
	local d=$BATS_TEST_TMPDIR
	echo "file:$d/store" >"$d/url"
	run -0 retry --share-store "@$d/url" --share at -n 1 -- true
	assert [ -e "$d/store" ]
	rm -rf "$d/store"
	run -0 retry --share-store-file "$d/url" --share at -n 1 -- true
	assert [ -e "$d/store" ]
	run -125 retry --share-store @ --share at -- true
	assert_usage_error --share-store
	run -125 retry --share-store "@$d/nope" --share at -- true
	refute listed --share-store-file "$RETRY"
	refute listed --share-store-file "$RETRY" share
	run -0 retry --help all
	assert_output --partial "@FILE:"
}

@test "share: --share-timeout DUR:CONNECT sets --share-connect-timeout too, which is listed only in its line" {
	run -0 retry --share-timeout 1s:3s --share st -n 1 -- true
	run -0 retry --share-connect-timeout 3s --share st -n 1 -- true
	run -125 retry --share-timeout 1s:90s --share st -- true
	assert_usage_error --share-timeout
	run -125 retry --share-timeout 1s: --share st -- true
	assert_usage_error --share-timeout
	run -125 retry --share-connect-timeout 90s --share st -- true
	assert_usage_error --share-connect-timeout
	refute listed --share-connect-timeout "$RETRY"
	refute listed --share-connect-timeout "$RETRY" share
	listed --share-timeout "$RETRY"
}
