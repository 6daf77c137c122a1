#!/usr/bin/env bats
# Hostile input, end to end: malformed values as the real binary takes them
# (status 125, exactly one line that names the option, then "Try 'retry
# --help'.", and the command never runs), extreme but valid values, and
# hostile output.  The catalogue of malformed values for every option is
# data in tests/unit/options.c, and so is the exact wording of the common
# errors (usage.bats runs a few through the binary).  Under `make sanitize`
# and `make valgrind` every case also runs instrumented.
bats_require_minimum_version 1.5.0
load test_helper/common
load test_helper/core

# Asserts that no line of $output is a negative number.
assert_no_negative() {
	awk '$1 + 0 < 0 { exit 1 }' <<<"$output" ||
		fail "a negative delay in: $output"
}

@test "hostile values: each one clear line and 125, the command never run; extreme patterns compile" {
	# --- -n, --max, --max-attempts --------------------------------------------
	# hostile -n: no value
	run -125 retry -n
	assert_usage_error -n
	# hostile --max: no value
	run -125 retry --max
	assert_usage_error --max
	# --- durations: --budget, --timeout, --kill-after, strategies, caps -------
	# hostile --fixed: a newline inside
	bad --fixed --fixed $'1\n2'
	assert_line --index 0 "retry: --fixed: '1\\x0a2': not a number"
	# hostile --fixed: 100,000 digits
	bad --fixed --fixed "$(printf '9%.0s' {1..100000})"
	# --- --delays ---------------------------------------------------------------
	# hostile --delays: an item of 100 characters
	bad --delays --delays "1s,$(printf '0%.0s' {1..99})1"
	# hostile --delays: 10,000 items, the last bad
	local list
	list=$(printf '1ms,%.0s' {1..9999})x
	bad --delays --delays "$list"
	# --- output rules: --until-output, --fail-if-output, --retry-if-output,
	# --stop-if-output, --match --------------------------------------------------
	# hostile --output until: nested intervals that expand too far
	bad "--output until" --until-output '((((a{0,9}){0,9}){0,9}){0,9}){0,9}'
	assert_line --index 0 --partial 'regular expression is too large'
	# extreme: an interval of 32767 is a pattern, compiled at once
	run -0 retry --fail-if-output 'x{1,32767}y' --immediate --max 1 -- echo x
	# extreme: an interval of 2000 is a pattern
	run -0 retry --until-output 'x{1,2000}' --immediate --max 1 -- echo x
	# hostile --match: an unknown stream
	bad --match --until-output x --match bogus
	# hostile --match: without an output rule
	bad --match --match stdout
	# --- streams ----------------------------------------------------------------
	# hostile --stdin: an unknown mode
	bad --stdin --stdin bogus
	# hostile --stdin: empty
	bad --stdin --stdin ''
	# --- reporting ----------------------------------------------------------------
	# hostile --log-file: a directory, not a file
	bad_setup --log-file --log-file /
	# hostile --output delay: a plus after a plus after a plus
	bad "--output delay" --delay-from-output \
	    "-$(printf '+%.0s' {1..60})"
	# hostile --log-file: a directory that does not exist
	bad_setup --log-file --log-file "$BATS_TEST_TMPDIR/no/such/dir/log"
	# hostile --log-file: empty
	bad --log-file --log-file ''
	# hostile --log-format: an unknown format
	bad --log-format --log-format xml
	# hostile --on retry: empty
	bad --on-retry --on-retry ''
	# --- options and words ----------------------------------------------------------
	# hostile: an unknown option
	run -125 retry --bogus flaky 0
	assert_usage_error "'--bogus'"
	# hostile: an unknown short option
	run -125 retry -Z flaky 0
	assert_usage_error "'-Z'"
	# hostile: a value for an option that takes none
	bad --immediate --immediate=1
	# hostile: --dry-run=yes
	bad --dry-run --dry-run=yes
}

# --- show-backoff-delays ----------------------------------------------------------

@test "hostile show STATUS: a time past double" {
	bad_show status "0:1$(printf '0%.0s' {1..400})"
}

# --- extreme but valid ----------------------------------------------------------------

@test "extreme: a delay of 365 days" {
	run -0 show --fixed 365d --max 3
	assert_lines 31536000 31536000 -1
	run -0 retry --dry-run --fixed 365d --max 2
	assert_line --index 2 --regexp '^2 +365d +365d$'
}

@test "extreme: --max 0 retries until it succeeds" {
	run -0 retry --max 0 --immediate -q -- flaky 20
	assert_equal "$(flaky_runs)" 21
}

@test "extreme: --max 0 with show-backoff-delays stops at --count" {
	run -0 show --max 0 --fixed 1s --count 5
	assert_lines 1 1 1 1 1
}

@test "extreme: --max 1000000000 and --seed 2^63 - 1" {
	run -0 show --max 1000000000 --seed 9223372036854775807 \
	    --decorrelated 1s --count 3
	assert_equal "${#lines[@]}" 3
}

@test "extreme: a --delays list of 10,000 entries" {
	local list
	list=$(seq -f '%gms' 1 10000 | paste -s -d,)
	run -0 show --delays "$list" --max 0 --count 10000
	assert_equal "${#lines[@]}" 10000
	assert_equal "${lines[0]}" 0.001
	assert_equal "${lines[9999]}" 10
	run -0 retry --delays "$list" --max 3 -q -- flaky 2
	assert_equal "$(flaky_runs)" 3
}

@test "extreme: --exp saturates instead of overflowing" {
	run -0 show --exp 365d --factor 1000000 --max 0 --count 100
	assert_equal "${#lines[@]}" 100
	awk 'prev != "" && $1 + 0 < prev + 0 { exit 1 } $1 + 0 < 0 { exit 1 }
	    { prev = $1 }' <<<"$output" || fail "not non-decreasing: $output"
}

@test "extreme: --fib and --linear of 365 days for 1,000 steps" {
	run -0 show --fib 365d --max 0 --count 1000
	assert_equal "${#lines[@]}" 1000
	assert_no_negative
	run -0 show --linear 365d --max 0 --count 1000
	assert_equal "${#lines[@]}" 1000
	assert_no_negative
}

@test "extreme: --decorrelated and add jitter of 365 days" {
	run -0 show --decorrelated 365d --jitter add:365d --max 0 --count 200 \
	    --seed 1
	assert_equal "${#lines[@]}" 200
	assert_no_negative
}

@test "extreme: -a Exponential to infinity" {
	run -0 show -a Exponential --initial-delay 31536000 \
	    --exponent-base 1000000 --count 60
	assert_equal "${#lines[@]}" 60
	assert_equal "${lines[59]}" Inf
}

@test "extreme: budget, timeout and kill-after of 365 days" {
	run -0 retry --budget 365d --timeout 365d --kill-after 365d -- true
}

@test "extreme: --kill-after 0" {
	run -0 retry --timeout 1s --kill-after 0 -- true
}

@test "extreme: every status a success, a signal to stop on" {
	run -0 retry --success-on 0-255 --stop-on SIGSYS -- sh -c 'exit 200'
}

@test "extreme: a label of 10,000 characters" {
	local label
	label=$(printf 'x%.0s' {1..10000})
	run -1 --separate-stderr retry --label "$label" --max 1 -- false
	assert_equal "${#stderr_lines[@]}" 1
	assert_regex "${stderr_lines[0]}" "^retry\\[$label\\]: giving up"
}

@test "extreme: an argument of 100,000 bytes reaches the command whole" {
	local big
	big=$(printf 'y%.0s' {1..100000})
	run -0 retry -- sh -c 'printf %s "$1" | wc -c' sh "$big"
	assert_output 100000
}

# --- hostile output: what the command prints ------------------------------
# Whatever comes out, it comes out byte for byte, the rules judge it by
# lines, and retry ends promptly.

# through PATTERN FILE: the file through retry with --until-output
# PATTERN, bounded in time; checks every byte came out, and sets status.
through() {
	local out=$BATS_TEST_TMPDIR/through st=0
	timeout 60 "$RETRY" -q --max 1 --until-output "$1" -- cat "$2" >"$out" || st=$?
	cmp "$2" "$out" || fail "the output changed"
	status=$st
}

@test "hostile output: NUL bytes, and a pattern that looks past them" {
	printf 'a\0b\0ready\0\nnext\n' >"$BATS_TEST_TMPDIR/o"
	through 'ready' "$BATS_TEST_TMPDIR/o"
	assert_equal "$status" 0
	through '^next$' "$BATS_TEST_TMPDIR/o"
	assert_equal "$status" 0
}

@test "hostile output: bytes that are not UTF-8, with -i" {
	printf '\xff\xfe\xc3\x28 READY \xe2\x82\n' >"$BATS_TEST_TMPDIR/o"
	run -0 "$RETRY" -q --max 1 -i --until-output ready -- cat "$BATS_TEST_TMPDIR/o"
}

@test "hostile output: carriage returns without newlines are one line" {
	printf '10%%\r50%%\r100%%\rdone\n' >"$BATS_TEST_TMPDIR/o"
	through '^done$' "$BATS_TEST_TMPDIR/o"
	assert_equal "$status" 1
	through 'done$' "$BATS_TEST_TMPDIR/o"
	assert_equal "$status" 0
}

@test "hostile output: a million empty lines" {
	head -c 1000000 /dev/zero | tr '\0' '\n' >"$BATS_TEST_TMPDIR/o"
	through '^.+$' "$BATS_TEST_TMPDIR/o"
	assert_equal "$status" 1
	through '^$' "$BATS_TEST_TMPDIR/o"
	assert_equal "$status" 0
}

@test "hostile output: 20 MB on one line without a newline" {
	head -c 20000000 /dev/zero | tr '\0' 'z' >"$BATS_TEST_TMPDIR/o"
	printf 'end' >>"$BATS_TEST_TMPDIR/o"
	through 'z{100}end$' "$BATS_TEST_TMPDIR/o"
	assert_equal "$status" 0
	through '^end' "$BATS_TEST_TMPDIR/o"
	assert_equal "$status" 1
}

@test "hostile output: escapes and a Retry-After that is no delay" {
	printf 'Retry-After: \e[2J\e]0;x\a\x9b31m\n' >"$BATS_TEST_TMPDIR/o"
	run -1 --separate-stderr "$RETRY" --max 2 --immediate \
	    --delay-from-output '^Retry-After: (.*)' -- sh -c 'cat "$1"; exit 1' sh "$BATS_TEST_TMPDIR/o"
	[[ $stderr != *$'\e'* && $stderr != *$'\x9b'* ]] || fail "raw: $stderr"
}

@test "hostile output: every line makes the pattern backtrack to its limit" {
	local line
	printf -v line '%5000s' ''
	yes "${line// /a}b" | head -n 200 >"$BATS_TEST_TMPDIR/o"
	through '^(a|aa)+$' "$BATS_TEST_TMPDIR/o"
	assert_equal "$status" 1
}
