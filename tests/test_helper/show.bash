# Helpers for the show-backoff-delays suites (show, algorithms,
# perl-compare, number).
# shellcheck shell=bash
# shellcheck disable=SC2154  # output is set by bats' run

# Asserts that $output is exactly the given lines.
assert_delays() {
	assert_output "$(printf '%s\n' "$@")"
}

# The widest line of $output in characters (not bytes), and the number of
# lines; the charts are UTF-8.
widest_line() {
	python3 -c 'import sys; print(max(len(l) for l in sys.stdin.read().splitlines()))' <<<"$output"
}

# Runs show-backoff-delays with "$@" and asserts that it prints one line per
# expected delay, where the expected delays are the words of $1:
#	assert_show "3 6 12 -1" -a Exponential --initial-delay 3 ...
assert_show() {
	local want=$1
	shift
	run -0 show "$@"
	# shellcheck disable=SC2086  # the words are the delays
	assert_delays $want
}

# The Perl module is what the -a family must agree with.
require_perl_backoff() {
	perl -MAlgorithm::Backoff::MIMD -e 1 2>/dev/null ||
	    skip "Algorithm::Backoff is not installed"
}

# Runs every case of the file $1 (OPTIONS<TAB>STATUSES<TAB>DELAYS) and
# fails with the first few that disagree.
compare_cases() {
	local opts st want got n=0 bad=0 report='' out=$BATS_TEST_TMPDIR/case
	local -a lines
	while IFS=$'\t' read -r opts st want; do
		n=$((n + 1))
		# Into a file, not through a pipe: a case costs one process
		# less, and there are hundreds of cases.
		# shellcheck disable=SC2086  # options and statuses are words
		timeout 10 "$SHOW" $opts $st >"$out" 2>&1
		mapfile -t lines <"$out"
		got=${lines[*]}
		if [ "$got" != "$want" ]; then
			bad=$((bad + 1))
			[ "$bad" -le 5 ] && report+="show-backoff-delays $opts $st
  perl: $want
  ours: $got
"
		fi
	done <"$1"
	[ "$bad" -eq 0 ] || fail "$bad of $n cases disagree:
$report"
	echo "$n"
}
