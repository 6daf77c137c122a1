# What the tests of the shared state share (share, redis, tls and
# cluster.bats).

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
