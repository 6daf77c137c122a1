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
