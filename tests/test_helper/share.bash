# What the tests of the shared state share (share, redis, tls and
# cluster.bats, and signals.bats for a store's lock).

# The attempts so far: the lines of $BATS_TEST_TMPDIR/calls, or of
# calls.NAME for a NAME, counted without a process.
calls() {
	local f=$BATS_TEST_TMPDIR/calls${1:+.$1} n=0 _
	[ -f "$f" ] && while read -r _; do n=$((n + 1)); done <"$f"
	echo "$n"
}

# A field of NAME's state, from retry share status as JSON.  The tokens are
# shown as a run would find them now; a window of a day (the longest) gives
# back a thousandth of the tokens in 8.6s, so they read as last written.
field() {
	"$RETRY" share status --share-window 1d --log-format json "$1" |
	    jq -r ".$2"
}

# Whether NAME's circuit is in state $2 (closed, open, half-open).
breaker_is() {
	[ "$(field "$1" breaker)" = "$2" ]
}

# Holds the lock of FILE (an fcntl lock, as another run's) for SECONDS,
# in the background; returns once it holds it. Its pid in LOCKER, for the
# test.
# shellcheck disable=SC2034
hold_lock() {
	local file=$1 seconds=$2 ready=$BATS_TEST_TMPDIR/locked.$RANDOM
	python3 -c '
import fcntl, sys, time
f = open(sys.argv[1], "r+")
fcntl.lockf(f, fcntl.LOCK_EX)
open(sys.argv[2], "w").close()
time.sleep(float(sys.argv[3]))' "$file" "$ready" "$seconds" 3>&- &
	LOCKER=$!
	poll_until 10 test -e "$ready"
}

# Opens NAME's circuit, waits until it half-opens, and starts a run that
# probes it with sleep 30 in the background (more of its options in $@),
# whose pid is PROBE; returns once it holds the probe, and fails the test
# if it never does.
# shellcheck disable=SC2034
start_probe() {
	local name=$1
	shift
	run -1 retry --share "$name" --share-breaker 1:1s -n 1 -- false
	assert_equal "$(field "$name" breaker)" open
	sleep 1.1
	timeout 60 "$RETRY" --share "$name" --share-breaker 1:30s "$@" -- \
	    sleep 30 2>/dev/null 3>&- &
	PROBE=$!
	poll_until 10 breaker_is "$name" half-open 2>/dev/null ||
		fail "the run $PROBE never held the probe of $name"
}

# The lines of $output that say the store failed.
# shellcheck disable=SC2154
faults() {
	grep -c "going on without\|--share-required: giving up" <<<"$output"
}
