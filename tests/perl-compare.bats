#!/usr/bin/env bats
# show-backoff-delays -a against Algorithm::Backoff itself, over cases that
# tests/perl-cases.pl generates with a fixed seed: every delay must agree
# to the last printed digit (%.15g).
bats_require_minimum_version 1.5.0
load test_helper/common
load test_helper/show

setup() {
	require_perl_backoff
}

@test "the generator is deterministic and covers every algorithm" {
	run -0 perl "$ROOT/tests/perl-cases.pl" 300
	local first=$output
	assert_equal "${#lines[@]}" 300
	for a in Constant Exponential Fibonacci LILD LIMD MILD MIMD; do
		assert_line --partial "-a $a "
	done
	# Limits, clamps and consider-actual-delay all take part.
	for o in --max-attempts --max-delay --min-delay --consider-actual-delay \
	    --delay-on-success --exponent-base; do
		assert_line --partial " $o"
	done
	assert_line --regexp $'\t.*-1( |$)'
	run -0 perl "$ROOT/tests/perl-cases.pl" 300
	assert_equal "$output" "$first"
}

# make soak compares thousands more, from other seeds.
@test "60 generated cases agree with Algorithm::Backoff (events at time 0)" {
	perl "$ROOT/tests/perl-cases.pl" 60 >"$BATS_TEST_TMPDIR/cases"
	run -0 compare_cases "$BATS_TEST_TMPDIR/cases"
	assert_output 60
}

@test "40 generated cases with :+S times agree too" {
	perl "$ROOT/tests/perl-cases.pl" 40 99 times >"$BATS_TEST_TMPDIR/cases"
	grep -q ':+' "$BATS_TEST_TMPDIR/cases"
	run -0 compare_cases "$BATS_TEST_TMPDIR/cases"
	assert_output 40
}

@test "the documented vectors, through the module" {
	# shellcheck disable=SC2016  # Perl, not shell
	run -0 perl -MAlgorithm::Backoff::MIMD -e '
		my $b = Algorithm::Backoff::MIMD->new(initial_delay => 3,
		    min_delay => 2, delay_multiple_on_failure => 2,
		    delay_multiple_on_success => 0.5, _start_timestamp => 0);
		printf "%.15g\n", $_ ? $b->success(0) : $b->failure(0)
		    for qw(0 0 0 0 1 1 1 1 1 0 0 0);'
	local perl=$output
	run -0 show -a MIMD --initial-delay 3 --min-delay 2 \
	    --delay-multiple-on-failure 2 --delay-multiple-on-success 0.5 \
	    0 0 0 0 1 1 1 1 1 0 0 0
	assert_equal "$output" "$perl"
}
