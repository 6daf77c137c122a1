# What the tests of the shared state share (share, redis, tls and
# cluster.bats).

# The attempts so far: the lines of $BATS_TEST_TMPDIR/calls, or of
# calls.NAME for a NAME, counted without a process.
calls() {
	local f=$BATS_TEST_TMPDIR/calls${1:+.$1} n=0 _
	[ -f "$f" ] && while read -r _; do n=$((n + 1)); done <"$f"
	echo "$n"
}

# A field of NAME's state, from retry share status as JSON.
field() {
	"$RETRY" share status --log-format json "$1" | jq -r ".$2"
}
