#!/usr/bin/env bats
# Long runs (make soak): retry's resident memory stays flat over 10,000
# attempts, with reports and without.  The attempts read it through
# /proc/$PPID: retry is their parent.
bats_require_minimum_version 1.5.0
load ../test_helper/common
load ../test_helper/core

setup() {
	[ "${RETRY_UNDER:-}" != valgrind ] || skip "too slow under valgrind"
}

# The attempt reads retry's resident set at attempts 100 and 10,000.
RSS_ATTEMPT='
	case $RETRY_ATTEMPT in 100|10000)
		while read -r key kb _; do
			[ "$key" != VmRSS: ] || echo "$kb" >>"$0/rss"
		done </proc/$PPID/status
	esac
	[ "$RETRY_ATTEMPT" -ge 10000 ]'

# Asserts that the two readings differ by less than $1 KiB.
assert_rss_flat() {
	local before after
	{ read -r before && read -r after; } <"$BATS_TEST_TMPDIR/rss"
	(( after - before < $1 )) ||
		fail "resident set grew from ${before} KiB to ${after} KiB"
}

# retry, with time for 10,000 attempts on a loaded machine.
soak_retry() {
	timeout 600 "$RETRY" "$@"
}

# ASan holds freed memory in quarantine by design, and valgrind's own
# memory is in the figure: resident memory is measured on the plain build.
skip_under_asan() {
	[ -z "${RETRY_UNDER:-}" ] ||
		skip "resident memory means little under $RETRY_UNDER"
}

@test "hygiene: memory stays flat over 10,000 attempts" {
	skip_under_asan
	run -0 soak_retry --immediate --max 0 -q -- sh -c "$RSS_ATTEMPT" \
	    "$BATS_TEST_TMPDIR"
	# 9,900 attempts: 13 bytes each would already show.
	assert_rss_flat 128
}

@test "hygiene: memory stays flat over 10,000 attempts with reports" {
	skip_under_asan
	"$RETRY" --help | grep -q -- '--log-file' ||
		skip "retry has no --log-file yet"
	run -0 --separate-stderr soak_retry --immediate --max 0 \
	    --log-file "$BATS_TEST_TMPDIR/log" -- sh -c "$RSS_ATTEMPT" \
	    "$BATS_TEST_TMPDIR"
	# A line for each failure, and the closing line of the recovery.
	assert_equal "${#stderr_lines[@]}" 10000
	assert_regex "${stderr_lines[9999]}" \
	    "^retry: $(named sh -c "$RSS_ATTEMPT" "$BATS_TEST_TMPDIR"): "'succeeded on attempt 10000 after '
	assert_rss_flat 128
}

@test "soak: memory stays flat over 10,000 attempts through pipes and spools" {
	skip_under_asan
	run -0 --separate-stderr soak_retry --immediate --max 0 -q --stdin replay --hold-stdout \
	    --until-output '^done [0-9]+$' -- sh -c 'echo "line $RETRY_ATTEMPT"
		'"$RSS_ATTEMPT"' && echo "done $RETRY_ATTEMPT"' "$BATS_TEST_TMPDIR" <<<input
	assert_output "$(printf 'line 10000\ndone 10000')"
	assert_rss_flat 128
}
