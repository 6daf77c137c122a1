#!/usr/bin/env bats
# Long runs (make soak): thousands of generated cases of the -a family,
# from seeds that make check does not use, agree with Algorithm::Backoff to
# the last printed digit.
bats_require_minimum_version 1.5.0
load ../test_helper/common
load ../test_helper/show

setup() {
	require_perl_backoff
	[ "${RETRY_UNDER:-}" != valgrind ] || skip "too slow under valgrind"
}

@test "soak: 2,000 generated cases agree with Algorithm::Backoff" {
	perl "$ROOT/tests/perl-cases.pl" 2000 4242 >"$BATS_TEST_TMPDIR/cases"
	run -0 compare_cases "$BATS_TEST_TMPDIR/cases"
	assert_output 2000
}

@test "soak: 1,000 generated cases with :+S times agree" {
	perl "$ROOT/tests/perl-cases.pl" 1000 7 times >"$BATS_TEST_TMPDIR/cases"
	run -0 compare_cases "$BATS_TEST_TMPDIR/cases"
	assert_output 1000
}
