#!/usr/bin/env bats
# Hostile input: malformed and extreme values for every option that takes
# one.  A malformed value is a usage error: status 125, exactly one line
# that names the option, then "Try 'retry --help'.", and the command never
# runs.  Extreme but valid values work.  The exact wording of the common
# errors is in usage.bats; this catalogue is about breadth.  Under
# `make sanitize` and `make valgrind` every case also runs instrumented.
bats_require_minimum_version 1.5.0
load test_helper/common
load test_helper/core

# bad OPTION ARG...: retry ARG... flaky 0 is a usage error whose line names
# OPTION right after "retry: " (or after "retry: status" for a STATUS).
bad() {
	local option=$1
	shift
	run -125 retry "$@" flaky 0
	assert_usage_error "$option"
	assert_line --index 0 --regexp "^retry: ${option}[:= ]"
	assert_equal "$(flaky_runs)" 0
}

# bad_show OPTION ARG...: the same for show-backoff-delays ARG...
bad_show() {
	local option=$1
	shift
	run -125 show "$@"
	assert_usage_error "$option"
	assert_line --index 0 --regexp "^show-backoff-delays: ${option}[:= ]"
}

# bad_sim OPTION ARG...: the same for retry simulate ARG...
bad_sim() {
	local option=$1
	shift
	run -125 retry simulate "$@"
	assert_usage_error "$option"
	assert_line --index 0 --regexp "^retry: ${option}[:= ]"
}

# Asserts that no line of $output is a negative number.
assert_no_negative() {
	awk '$1 + 0 < 0 { exit 1 }' <<<"$output" ||
		fail "a negative delay in: $output"
}

# Skips a test of an option that this build does not have yet.
needs_option() {
	"$RETRY" --help | grep -q -- "--$1\\b" ||
		skip "retry has no --$1 yet"
}

# --- -n, --max, --max-attempts --------------------------------------------

@test "hostile --max: empty" { bad --max --max ''; }
@test "hostile --max: a leading space" { bad --max --max ' 3'; }
@test "hostile --max: a trailing space" { bad --max --max '3 '; }
@test "hostile --max: negative" { bad --max --max -1; }
@test "hostile --max: one over a billion" { bad --max --max 1000000001; }
@test "hostile --max: past 64 bits" { bad --max --max 99999999999999999999999; }
@test "hostile --max: a fraction" { bad --max --max 3.5; }
@test "hostile --max: an exponent" { bad --max --max 1e3; }
@test "hostile --max: hexadecimal" { bad --max --max 0x10; }
@test "hostile --max: NaN" { bad --max --max nan; }
@test "hostile --max: a word" { bad --max --max three; }
@test "hostile -n: no value" { run -125 retry -n; assert_usage_error -n; }
@test "hostile --max: no value" { run -125 retry --max; assert_usage_error --max; }
@test "hostile --max=: an empty value" { bad --max --max= ; }
@test "hostile --max: a plus sign" { bad --max --max +3; }
@test "hostile --max-attempts: negative" { bad --max-attempts --max-attempts -5; }
@test "hostile --count: a leading space" { bad --count --dry-run --count ' 5'; }

# --- durations: --budget, --timeout, --kill-after, strategies, caps -------

@test "hostile --budget: empty" { bad --budget --budget ''; }
@test "hostile --budget: a space" { bad --budget --budget ' '; }
@test "hostile --budget: negative" { bad --budget --budget -1s; }
@test "hostile --budget: a day over a year" { bad --budget --budget 366d; }
@test "hostile --budget: overflowing days" { bad --budget --budget 99999999999999999999d; }
@test "hostile --budget: overflowing nanoseconds" { bad --budget --budget 99999999999999999999999ns; }
@test "hostile --budget: a space inside" { bad --budget --budget '1s 2s'; }
@test "hostile --budget: two decimal points" { bad --budget --budget 1.2.3s; }
@test "hostile --timeout: zero" { bad --timeout --timeout 0; }
@test "hostile --timeout: negative" { bad --timeout --timeout -5; }
@test "hostile --timeout: an unknown unit" { bad --timeout --timeout 5q; }
@test "hostile --timeout: inf" { bad --timeout --timeout inf; }
@test "hostile --kill-after: negative" { bad --kill-after --kill-after -1s; }
@test "hostile --kill-after: empty" { bad --kill-after --kill-after ''; }
@test "hostile --kill-after: years" { bad --kill-after --kill-after 1y; }
@test "hostile --exp: NaN" { bad --exp --exp nan; }
@test "hostile --exp: -inf" { bad --exp --exp -inf; }
@test "hostile --exp: an exponent" { bad --exp --exp 1e9; }
@test "hostile --exp: a space before the unit" { bad --exp --exp '1 s'; }
@test "hostile --exp: a plus sign" { bad --exp --exp +1s; }
@test "hostile --exp: a unit alone" { bad --exp --exp ms; }
@test "hostile --fixed: trailing junk" { bad --fixed --fixed '1s!'; }
@test "hostile --fixed: a lone dot" { bad --fixed --fixed .; }
@test "hostile --fixed: a newline inside" {
	bad --fixed --fixed $'1\n2'
	assert_line --index 0 "retry: --fixed: '1\\n2': not a number"
}
@test "hostile --fixed: a control character" { bad --fixed --fixed $'1s\x01'; }
@test "hostile --fixed: 100,000 digits" {
	bad --fixed --fixed "$(printf '9%.0s' {1..100000})"
}
@test "hostile --constant: an unknown unit" { bad --constant --constant 5x; }
@test "hostile --linear: a bare number after a unit" { bad --linear --linear 1m30; }
@test "hostile --fib: two dots" { bad --fib --fib 1..5s; }
@test "hostile --decorrelated: negative" { bad --decorrelated --decorrelated -1s; }
@test "hostile --decorrelated: a bad unit inside" { bad --decorrelated --decorrelated 1h1x; }
@test "hostile --max-delay: an upper-case unit" { bad --max-delay --max-delay 1S; }
@test "hostile --max-delay: negative" { bad --max-delay --max-delay -5ms; }
@test "hostile --min-delay: inf" { bad --min-delay --min-delay inf; }
@test "hostile --min-delay: a word" { bad --min-delay --min-delay ten; }
@test "hostile --max-actual-duration: negative" { bad --max-actual-duration --max-actual-duration -1; }
@test "hostile --max-actual-duration: NaN" { bad --max-actual-duration --max-actual-duration nan; }
@test "hostile --max-actual-duration: over a year" { bad --max-actual-duration --max-actual-duration 31536001; }

# --- --delays ---------------------------------------------------------------

@test "hostile --delays: empty" { bad --delays --delays ''; }
@test "hostile --delays: a lone comma" { bad --delays --delays ,; }
@test "hostile --delays: a trailing comma" { bad --delays --delays 1s,; }
@test "hostile --delays: a leading comma" { bad --delays --delays ,1s; }
@test "hostile --delays: a negative item" { bad --delays --delays 1s,-2s; }
@test "hostile --delays: a NaN item" { bad --delays --delays 1s,nan; }
@test "hostile --delays: an item over a year" { bad --delays --delays 1s,366d; }
@test "hostile --delays: an item of 100 characters" {
	bad --delays --delays "1s,$(printf '0%.0s' {1..99})1"
}
@test "hostile --delays: 10,000 items, the last bad" {
	local list
	list=$(printf '1ms,%.0s' {1..9999})x
	bad --delays --delays "$list"
}

# --- -a and Algorithm::Backoff's options -------------------------------------

@test "hostile -a: an unknown algorithm" { bad --algorithm -a bogus; }
@test "hostile -a: empty" { bad --algorithm -a ''; }
@test "hostile -a: a prefix of a name" { bad --algorithm -a Constan; }
@test "hostile -a: a trailing space" { bad --algorithm -a 'MIMD '; }
@test "hostile -a Constant: without --delay" { bad --algorithm -a Constant; }
@test "hostile --delay: negative" { bad --delay -a Constant --delay -1; }
@test "hostile --delay: NaN" { bad --delay -a Constant --delay nan; }
@test "hostile --delay: empty" { bad --delay -a Constant --delay ''; }
@test "hostile --delay: over a year" { bad --delay -a Constant --delay 31536001; }
@test "hostile --delay: 1e999" { bad --delay -a Constant --delay 1e999; }
@test "hostile --delay: without -a" { bad --delay --delay 1; }
@test "hostile --delay-on-success: negative" {
	bad --delay-on-success -a Constant --delay 1 --delay-on-success -1
}
@test "hostile --initial-delay: negative" {
	bad --initial-delay -a Exponential --initial-delay -0.5
}
@test "hostile --exponent-base: negative" {
	bad --exponent-base -a Exponential --initial-delay 1 --exponent-base -1
}
@test "hostile --exponent-base: out of range" {
	bad --exponent-base -a Exponential --initial-delay 1 --exponent-base 1e7
}
@test "hostile --exponent-base: NaN" {
	bad --exponent-base -a Exponential --initial-delay 1 --exponent-base nan
}
@test "hostile --initial-delay1: negative" {
	bad --initial-delay1 -a Fibonacci --initial-delay1 -1 --initial-delay2 1
}
@test "hostile --initial-delay2: hexadecimal" {
	bad --initial-delay2 -a Fibonacci --initial-delay1 1 --initial-delay2 0x1
}
@test "hostile --delay-increment-on-failure: NaN" {
	bad --delay-increment-on-failure -a LILD --initial-delay 1 \
	    --delay-increment-on-failure nan --delay-increment-on-success 1
}
@test "hostile --delay-increment-on-success: minus more than a year" {
	bad --delay-increment-on-success -a LILD --initial-delay 1 \
	    --delay-increment-on-failure 1 --delay-increment-on-success -366d
}
@test "hostile --delay-multiple-on-failure: negative" {
	bad --delay-multiple-on-failure -a MIMD --initial-delay 1 \
	    --delay-multiple-on-failure -2 --delay-multiple-on-success 0.5
}
@test "hostile --delay-multiple-on-failure: inf" {
	bad --delay-multiple-on-failure -a MIMD --initial-delay 1 \
	    --delay-multiple-on-failure inf --delay-multiple-on-success 0.5
}
@test "hostile --delay-multiple-on-success: a word" {
	bad --delay-multiple-on-success -a MIMD --initial-delay 1 \
	    --delay-multiple-on-failure 2 --delay-multiple-on-success half
}
@test "hostile --jitter-factor: over 0.5" {
	bad --jitter-factor -a Constant --delay 1 --jitter-factor 0.6
}
@test "hostile --jitter-factor: negative" {
	bad --jitter-factor -a Constant --delay 1 --jitter-factor -0.1
}
@test "hostile --jitter-factor: NaN" {
	bad --jitter-factor -a Constant --delay 1 --jitter-factor nan
}

# --- --factor ---------------------------------------------------------------

@test "hostile --factor: under 1" { bad --factor --factor 0.5; }
@test "hostile --factor: zero" { bad --factor --factor 0; }
@test "hostile --factor: negative" { bad --factor --factor -2; }
@test "hostile --factor: NaN" { bad --factor --factor nan; }
@test "hostile --factor: inf" { bad --factor --factor inf; }
@test "hostile --factor: over a million" { bad --factor --factor 1e7; }
@test "hostile --factor: hexadecimal" { bad --factor --factor 0x10; }
@test "hostile --factor: empty" { bad --factor --factor ''; }

# --- -j, --jitter, --seed -----------------------------------------------------

@test "hostile --jitter: empty" { bad --jitter --jitter ''; }
@test "hostile --jitter: an unknown mode" { bad --jitter --jitter bogus; }
@test "hostile --jitter: full takes no ratio" { bad --jitter --jitter full:0.5; }
@test "hostile --jitter: none takes no ratio" { bad --jitter --jitter none:1; }
@test "hostile --jitter: a ratio over 1" { bad --jitter --jitter scattered:2; }
@test "hostile --jitter: a negative ratio" { bad --jitter --jitter scattered:-0.1; }
@test "hostile --jitter: an empty ratio" { bad --jitter --jitter scattered:; }
@test "hostile --jitter: a NaN ratio" { bad --jitter --jitter down:nan; }
@test "hostile --jitter: add without a duration" { bad --jitter --jitter add; }
@test "hostile --jitter: add with an empty duration" { bad --jitter --jitter add:; }
@test "hostile --jitter: add with a negative duration" { bad --jitter --jitter add:-1s; }
@test "hostile --jitter: add over a year" { bad --jitter --jitter add:366d; }
@test "hostile --seed: negative" { bad --seed --seed -1; }
@test "hostile --seed: past 2^63 - 1" { bad --seed --seed 9223372036854775808; }
@test "hostile --seed: a fraction" { bad --seed --seed 1.5; }
@test "hostile --seed: empty" { bad --seed --seed ''; }

# --- --signal ---------------------------------------------------------------

@test "hostile --signal: an unknown name" { bad --signal --signal BOGUS; }
@test "hostile --signal: zero" { bad --signal --signal 0; }
@test "hostile --signal: past the last signal" { bad --signal --signal 65; }
@test "hostile --signal: a huge number" { bad --signal --signal 99999999999999999999; }
@test "hostile --signal: empty" { bad --signal --signal ''; }
@test "hostile --signal: SIG alone" { bad --signal --signal SIG; }
@test "hostile --signal: a dash" { bad --signal --signal -9; }
@test "hostile --signal: a trailing space" { bad --signal --signal 'KILL '; }

# --- --success-on, --retry-on, --stop-on --------------------------------------

@test "hostile --success-on: over 255" { bad --success-on --success-on 256; }
@test "hostile --success-on: a huge number" { bad --success-on --success-on 99999999999; }
@test "hostile --success-on: empty" { bad --success-on --success-on ''; }
@test "hostile --success-on: an empty item" { bad --success-on --success-on 1,,2; }
@test "hostile --success-on: a trailing comma" { bad --success-on --success-on KILL,; }
@test "hostile --success-on: negative" { bad --success-on --success-on -1; }
@test "hostile --retry-on: a reversed range" { bad --retry-on --retry-on 5-3; }
@test "hostile --retry-on: an open range" { bad --retry-on --retry-on 5-; }
@test "hostile --retry-on: three ends" { bad --retry-on --retry-on 1-2-3; }
@test "hostile --stop-on: an unknown signal" { bad --stop-on --stop-on SIGBOGUS; }
@test "hostile --stop-on: a space" { bad --stop-on --stop-on '1, 2'; }
@test "hostile --stop-on: a newline" { bad --stop-on --stop-on $'1\n'; }

# --- output rules: --until-output, --fail-if-output, --retry-if-output,
# --stop-if-output, --match --------------------------------------------------

@test "hostile --until-output: empty" {
	needs_option until-output
	bad --until-output --until-output ''
}
@test "hostile --until-output: an unmatched parenthesis" {
	needs_option until-output
	bad --until-output --until-output '('
}
@test "hostile --fail-if-output: an unmatched bracket" {
	needs_option fail-if-output
	bad --fail-if-output --fail-if-output '['
}
@test "hostile --retry-if-output: a reversed interval" {
	needs_option retry-if-output
	bad --retry-if-output --retry-if-output 'x{2,1}'
}
@test "hostile --stop-if-output: a back reference to nothing" {
	needs_option stop-if-output
	bad --stop-if-output --stop-if-output '\1'
}
@test "hostile --until-output: an unknown character class" {
	needs_option until-output
	bad --until-output --until-output '[[:bogus:]]'
}
@test "hostile --until-output: a newline in a bad pattern" {
	needs_option until-output
	bad --until-output --until-output $'a\n('
}
@test "hostile --until-output: nested intervals that expand too far" {
	needs_option until-output
	bad --until-output --until-output '((((a{0,9}){0,9}){0,9}){0,9}){0,9}'
	assert_line --index 0 --partial 'regular expression is too large'
}
@test "hostile --fail-if-output: an interval past 65535" {
	needs_option fail-if-output
	bad --fail-if-output --fail-if-output 'x{1,65536}'
}
@test "extreme: an interval of 32767 is a pattern, compiled at once" {
	needs_option fail-if-output
	run -0 retry --fail-if-output 'x{1,32767}y' --immediate --max 1 -- echo x
}
@test "extreme: an interval of 2000 is a pattern" {
	needs_option until-output
	run -0 retry --until-output 'x{1,2000}' --immediate --max 1 -- echo x
}
@test "hostile --match: an unknown stream" {
	needs_option match
	bad --match --until-output x --match bogus
}
@test "hostile --match: without an output rule" {
	needs_option match
	bad --match --match stdout
}

# --- streams ----------------------------------------------------------------

@test "hostile --stdin: an unknown mode" {
	needs_option stdin
	bad --stdin --stdin bogus
}
@test "hostile --stdin: empty" {
	needs_option stdin
	bad --stdin --stdin ''
}

# --- reporting ----------------------------------------------------------------

@test "hostile --label: empty" { bad --label --label ''; }
@test "hostile --label: a newline" { bad --label --label $'a\nb'; }
@test "hostile --label: a carriage return" { bad --label --label $'a\r'; }

@test "hostile --log-file: a directory, not a file" {
	needs_option log-file
	bad --log-file --log-file /
}
@test "hostile --delay-from-output: a plus after a plus after a plus" {
	needs_option delay-from-output
	bad --delay-from-output --delay-from-output \
	    "-$(printf '+%.0s' {1..60})"
}
@test "hostile --log-file: a directory that does not exist" {
	needs_option log-file
	bad --log-file --log-file "$BATS_TEST_TMPDIR/no/such/dir/log"
}
@test "hostile --log-file: empty" {
	needs_option log-file
	bad --log-file --log-file ''
}
@test "hostile --log-format: an unknown format" {
	needs_option log-format
	bad --log-format --log-format xml
}
@test "hostile --on-retry: empty" {
	needs_option on-retry
	bad --on-retry --on-retry ''
}

# --- options and words ----------------------------------------------------------

@test "hostile: an unknown option" {
	run -125 retry --bogus flaky 0
	assert_usage_error "'--bogus'"
}
@test "hostile: an unknown short option" {
	run -125 retry -Z flaky 0
	assert_usage_error "'-Z'"
}
@test "hostile: a value for an option that takes none" { bad --immediate --immediate=1; }
@test "hostile: --dry-run=yes" { bad --dry-run --dry-run=yes; }

# --- show-backoff-delays ----------------------------------------------------------

@test "hostile show --count: zero" { bad_show --count --count 0; }
@test "hostile show --count: negative" { bad_show --count --count -1; }
@test "hostile show --count: over ten million" { bad_show --count --count 10000001; }
@test "hostile show --count: a word" { bad_show --count --count ten; }
@test "hostile show --format: an unknown format" { bad_show --format --format xml; }
@test "hostile show --format: upper case" { bad_show --format --format JSON; }
@test "hostile show --format: empty" { bad_show --format --format ''; }
@test "hostile show --unit: microseconds" { bad_show --unit --unit us; }
@test "hostile show --unit: empty" { bad_show --unit --unit ''; }
@test "hostile show --samples: zero" { bad_show --samples --samples 0; }
@test "hostile show --samples: over 100,000" { bad_show --samples --samples 100001; }
@test "hostile show STATUS: 2" { bad_show status 2; }
@test "hostile show STATUS: a colon and nothing" { bad_show status 0:; }
@test "hostile show STATUS: a negative time" { bad_show status 0:-1; }
@test "hostile show STATUS: a plus and nothing" { bad_show status 0:+; }
@test "hostile show STATUS: a word for a time" { bad_show status 0:abc; }
@test "hostile show STATUS: an exponent" { bad_show status 1:1e3; }
@test "hostile show STATUS: NaN" { bad_show status 0:nan; }
@test "hostile show STATUS: a time that goes backwards" { bad_show status 0:5 0:3; }
@test "hostile show STATUS: a time past double" {
	bad_show status "0:1$(printf '0%.0s' {1..400})"
}

# --- retry simulate ------------------------------------------------------------------

@test "hostile simulate --clients: zero" { bad_sim --clients --clients 0; }
@test "hostile simulate --clients: empty" { bad_sim --clients --clients ''; }
@test "hostile simulate --clients: a reversed range" { bad_sim --clients --clients 5-1; }
@test "hostile simulate --clients: a huge range" {
	bad_sim --clients --clients 1-99999999999999999999
}
@test "hostile simulate --runs: zero" { bad_sim --runs --runs 0; }

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
	head -c 5000 /dev/zero | tr '\0' a >"$BATS_TEST_TMPDIR/line"
	echo b >>"$BATS_TEST_TMPDIR/line"
	for ((i = 0; i < 200; i++)); do cat "$BATS_TEST_TMPDIR/line"; done >"$BATS_TEST_TMPDIR/o"
	through '^(a|aa)+$' "$BATS_TEST_TMPDIR/o"
	assert_equal "$status" 1
}
