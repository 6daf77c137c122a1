#!/usr/bin/env bats
# Algorithm::Backoff's own tests (the t/*.t of its distribution, 0.010,
# whose main branch is at commit 951c4d9), each history and its expected
# delays a row here, replayed through show-backoff-delays -a.  The module's
# failure(T) and success(T) are the statuses 0:T and 1:T; a call without a
# time is a status without one.  Where the module's test asserts nothing
# about a call (it makes it only for what follows), the row says "."; where
# it asserts only "not -1", the row gives the delay itself.
#
# Of the 91 assertions in those files, the rows hold 86, the jitter tests
# below 4 (rand_between_ok) and the last test 1 (dies_ok).
bats_require_minimum_version 1.5.0
load test_helper/common
load test_helper/show

# FILE: SUBTEST | OPTIONS | STATUSES | DELAYS
rows() {
	cat <<'EOF'
t/01-base.t: max_attempts 0 | -a Constant --delay 2 --max-attempts 0 | 0:1 0:2 0:3 | 2 2 2
t/01-base.t: max_attempts 1 | -a Constant --delay 2 --max-attempts 1 | 0:1 | -1
t/01-base.t: max_attempts 2, a success resets | -a Constant --delay 2 --max-attempts 2 | 0:1 0:1 1:1 0:1 0:1 | 2 -1 . 2 -1
t/01-base.t: max_actual_duration | -a Constant --delay 2 --max-actual-duration 4 --max-attempts 3 | 0:0 0:2 0:4 | 2 2 -1
t/01-base.t: consider_actual_delay | -a Constant --consider-actual-delay --delay 2 --max-attempts 0 | 0:1 0:1 0:6 0:8 0:11 | 2 4 1 1 0
t/01-base.t: consider_actual_delay + post-processing | -a Constant --consider-actual-delay --delay 3 --max-delay 2 --max-attempts 0 | 0:1 0:3 0:7 0:13 0:13 | 2 2 1 0 2
t/constant.t: basics | -a Constant --delay 2 --delay-on-success 1 | 1:1 1:1 0:1 0:1 0:2 0:4 | 1 1 2 2 2 2
t/constant.t: basics, the time now | -a Constant --delay 2 --delay-on-success 1 | 1 0 | 1 2
t/exponential.t: initial_delay, max_delay, delay_on_success | -a Exponential --delay-on-success 1 --initial-delay 5 --max-delay 100 | 0:1 0:1 0:1 0:8 0:8 0:8 1:8 | 5 10 20 40 80 100 1
t/exponential.t: exponent_base | -a Exponential --initial-delay 5 --exponent-base 3 | 0:1 0:1 0:1 | 5 15 45
t/fibonacci.t: initial_delay1, initial_delay2, max_delay, delay_on_success | -a Fibonacci --delay-on-success 1 --initial-delay1 2 --initial-delay2 3 --max-delay 20 | 0:1 0:1 0:1 0:8 0:8 0:8 1:8 | 2 3 5 8 13 20 1
t/lild.t: initial_delay, increments, min_delay | -a LILD --delay-increment-on-failure 4 --delay-increment-on-success=-5 --initial-delay 3 --min-delay 1 | 0:1 0:1 0:1 1:1 1:1 1:1 1:1 0:1 0:1 | 3 7 11 6 1 1 1 5 9
t/limd.t: initial_delay, increment, multiple, min_delay | -a LIMD --delay-increment-on-failure 4 --delay-multiple-on-success 0.2 --initial-delay 2 --min-delay 1 | 0:1 0:1 0:1 1:1 1:1 1:1 0:1 0:1 | 2 6 10 2 1 1 5 9
t/mild.t: initial_delay, multiple, increment, min_delay | -a MILD --delay-multiple-on-failure 2 --delay-increment-on-success=-2 --initial-delay 3 --min-delay 1 | 0:1 0:1 0:1 1:1 1:1 1:1 1:1 1:1 1:1 1:1 1:1 0:1 0:1 | 3 6 12 10 8 6 4 2 1 1 1 2 4
t/mimd.t: initial_delay, multiples, min_delay | -a MIMD --delay-multiple-on-failure 2 --delay-multiple-on-success 0.5 --initial-delay 3 --min-delay 2 | 0:1 0:1 0:1 1:1 1:1 1:1 1:1 1:1 0:1 0:1 | 3 6 12 6 3 2 2 2 4 8
EOF
}

@test "every history of Algorithm::Backoff's t/*.t gives the delays they expect" {
	local name opts st want got n=0 bad='' i
	local -a w g
	while IFS='|' read -r name opts st want; do
		n=$((n + 1))
		# shellcheck disable=SC2086  # options and statuses are words
		run -0 show $opts $st
		read -ra w <<<"$want"
		mapfile -t g <<<"$output"
		got=${g[*]}
		[ "${#g[@]}" -eq "${#w[@]}" ] || bad+="${name% }: $got, not$want
"
		for i in "${!w[@]}"; do
			[ "${w[i]}" = . ] || [ "${w[i]}" = "${g[i]:-}" ] || {
				bad+="${name% }: $got, not$want
"
				break
			}
		done
	done < <(rows)
	[ -z "$bad" ] || fail "$bad"
	assert_equal "$n" 15
}

@test "the rows hold 86 of the files' 91 assertions, and the tests below the rest" {
	local n
	n=$(rows | cut -d'|' -f4 | tr ' ' '\n' | grep -c '^[-0-9]')
	assert_equal "$n" 86
	run -0 grep -c '^@test "t/' "$BATS_TEST_FILENAME"
	assert_output 3
}

# rand_between_ok: 30 delays, all within the bounds, not all the same.
between() {
	local lo=$1 hi=$2
	shift 2
	run -0 show "$@"
	assert_equal "${#lines[@]}" 30
	awk -v lo="$lo" -v hi="$hi" '$1 < lo || $1 > hi { bad = 1 } END { exit bad }' \
	    <<<"$output" || fail "a delay outside [$lo, $hi]: $output"
	[ "$(sort -u <<<"$output" | wc -l)" -gt 1 ] || fail "constant: $output"
}

@test "t/01-base.t: jitter_factor, on failure and on success" {
	local f s
	f=$(printf '0:1 %.0s' {1..30})
	s=$(printf '1:1 %.0s' {1..30})
	# shellcheck disable=SC2086  # the statuses are words
	between 1.8 2.2 -a Constant --delay 2 --delay-on-success 3 \
	    --jitter-factor 0.1 $f
	# shellcheck disable=SC2086
	between 2.7 3.3 -a Constant --delay 2 --delay-on-success 3 \
	    --jitter-factor 0.1 $s
}

@test "t/01-base.t: jittered delays still keep min_delay and max_delay" {
	local f s
	f=$(printf '0:1 %.0s' {1..30})
	s=$(printf '1:1 %.0s' {1..30})
	# shellcheck disable=SC2086  # the statuses are words
	between 1.8 2.2 -a Constant --delay 2 --delay-on-success 2 \
	    --min-delay 1.8 --max-delay 2.2 --jitter-factor 0.5 $f
	# shellcheck disable=SC2086
	between 2.8 3.2 -a Constant --delay 2 --delay-on-success 3 \
	    --min-delay 2.8 --max-delay 3.2 --jitter-factor 0.5 $s
}

@test "t/01-base.t: a time must not decrease" {
	run -125 show -a Constant --delay 2 1:2 1:1
	assert_line --partial "status '1:1': the time goes backwards"
}
