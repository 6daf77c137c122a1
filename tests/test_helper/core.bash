# Helpers for the core suite (durations, strategies, jitter, the loop).
# shellcheck shell=bash
# shellcheck disable=SC2034,SC2154  # used by, and set by, the bats files

# A measured duration as retry prints it: "840us", "1.5ms", "2.013s".
DUR='[0-9]+(\.[0-9]{1,3})?(ns|us|ms|s)'

# Asserts that $output is exactly the given lines.
assert_lines() {
	assert_output "$(printf '%s\n' "$@")"
}

# Asserts that $stderr is exactly as many lines as patterns, each matching
# its extended regex (anchored at both ends).
assert_stderr_lines() {
	local i pats=("$@")
	assert_equal "${#stderr_lines[@]}" "$#"
	for ((i = 0; i < $#; i++)); do
		assert_regex "${stderr_lines[i]}" "^${pats[i]}\$"
	done
}

# The number of times flaky ran in this test (0 when it never ran).
flaky_runs() {
	cat "$BATS_TEST_TMPDIR/flaky.count" 2>/dev/null || echo 0
}

# Asserts that every line of $output (show-backoff-delays, one delay per
# line) lies in [lo, hi] for the awk expressions lo and hi of d, the delay
# before jitter, which is the awk expression base of n (1-based line).
# A tolerance of 1ns covers the printing.
assert_delays_within() {
	local base=$1 lo=$2 hi=$3 why
	why=$(awk -v fail=0 "
		{ n = NR; d = $base; lo = $lo; hi = $hi
		  if (\$1 + 0 < lo - 1e-9 || \$1 + 0 > hi + 1e-9) {
			printf \"line %d: %s not in [%.9f, %.9f]\\n\", n, \$1, lo, hi
			fail = 1 } }
		END { if (NR == 0) { print \"no delays\"; fail = 1 }; exit fail }
	" <<<"$output") || fail "$why"
}
