# Helpers for the core suite (durations, strategies, jitter, the loop, and
# the command lines retry refuses).
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

# The number of times statuses ran with the file $1.
statuses_runs() {
	wc -l <"$1" | tr -d ' '
}

# refused_by CHECK OPTION ARG...: retry ARG... flaky 0 exits 125 without
# running, its line naming OPTION right after "retry: " (or after "retry:
# status" for a STATUS), as CHECK wants it.
refused_by() {
	local check=$1 option=$2
	shift 2
	run -125 retry "$@" flaky 0
	"$check" "$option"
	# A set-up error names the run first, as the run's errors do.
	if [ "$check" = assert_setup_error ]; then
		assert_line --index 0 --regexp "^retry: flaky 0: ${option}[:= ]"
	else
		assert_line --index 0 --regexp "^retry: ${option}[:= ]"
	fi
	assert_equal "$(flaky_runs)" 0
}

# bad OPTION ARG...: a usage error.
bad() {
	refused_by assert_usage_error "$@"
}

# bad_setup OPTION ARG...: what is no usage error (a log file that cannot
# be opened): one line, without the pointer to --help.
bad_setup() {
	refused_by assert_setup_error "$@"
}

# bad_show OPTION ARG...: the same for show-backoff-delays ARG...
bad_show() {
	local option=$1
	shift
	run -125 show "$@"
	assert_usage_error "$option"
	assert_line --index 0 --regexp "^show-backoff-delays: ${option}[:= ]"
}

# usage_error OPTION MESSAGE ARG...: retry ARG... flaky 0 is a usage error
# whose first line is "retry: MESSAGE"; flaky never ran.
usage_error() {
	local option=$1 message=$2
	shift 2
	run -125 retry "$@" flaky 0
	assert_usage_error "$option"
	assert_line --index 0 "retry: $message"
	assert_equal "$(flaky_runs)" 0
}
