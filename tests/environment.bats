#!/usr/bin/env bats
# The variables every attempt gets: RETRY_ATTEMPT, RETRY_MAX_ATTEMPTS,
# RETRY_LAST_STATUS and RETRY_ELAPSED_MS.
bats_require_minimum_version 1.5.0
load test_helper/common
load test_helper/core

# Each attempt appends "ATTEMPT|MAX|LAST_STATUS|ELAPSED_MS" to env.log
# ("unset" for an unset variable), then exits with 10 + its attempt
# number, until attempt $1 succeeds.
record() {
	local until=$1
	shift
	run --separate-stderr retry "$@" sh -c '
		printf "%s|%s|%s|%s\n" "${RETRY_ATTEMPT-unset}" \
		    "${RETRY_MAX_ATTEMPTS-unset}" "${RETRY_LAST_STATUS-unset}" \
		    "${RETRY_ELAPSED_MS-unset}" >>"$0"
		[ "$RETRY_ATTEMPT" -ge "$1" ] && exit 0
		exit $((10 + RETRY_ATTEMPT))' "$BATS_TEST_TMPDIR/env.log" "$until"
	mapfile -t env <"$BATS_TEST_TMPDIR/env.log"
}

# Field F (1-based) of the record of attempt N.
field() {
	local line=${env[$1 - 1]}
	cut -d '|' -f "$2" <<<"$line"
}

@test "RETRY_ATTEMPT counts from 1 in every attempt" {
	record 99 -n 4 --immediate
	assert_equal "$status" 14
	assert_equal "${#env[@]}" 4
	assert_equal "$(field 1 1) $(field 2 1) $(field 3 1) $(field 4 1)" \
	    "1 2 3 4"
}

@test "RETRY_MAX_ATTEMPTS is --max in every attempt" {
	record 99 -n 3 --immediate
	assert_equal "$(field 1 2) $(field 2 2) $(field 3 2)" "3 3 3"
}

@test "RETRY_MAX_ATTEMPTS is 5 by default" {
	record 1 --immediate
	assert_equal "$(field 1 2)" 5
}

@test "RETRY_MAX_ATTEMPTS is 0 when unlimited" {
	record 3 -n 0 --immediate
	assert_equal "$status" 0
	assert_equal "$(field 1 2) $(field 2 2) $(field 3 2)" "0 0 0"
}

@test "RETRY_LAST_STATUS is set and empty on the first attempt" {
	record 1 -n 3 --immediate
	assert_equal "${env[0]}" "1|3||$(field 1 4)"
}

@test "RETRY_LAST_STATUS is the previous attempt's status" {
	record 4 -n 5 --immediate
	assert_equal "$status" 0
	assert_equal "$(field 1 3),$(field 2 3),$(field 3 3),$(field 4 3)" \
	    ",11,12,13"
}

@test "RETRY_LAST_STATUS is 128 + N after a death by signal N" {
	run -0 --separate-stderr retry -n 2 --immediate sh -c '
		[ "$RETRY_ATTEMPT" = 1 ] && kill -SEGV $$
		echo "last=$RETRY_LAST_STATUS"'
	assert_output "last=139"
}

@test "RETRY_ELAPSED_MS grows with each attempt" {
	record 99 -n 3 --fixed 100ms
	local e1 e2 e3
	e1=$(field 1 4) e2=$(field 2 4) e3=$(field 3 4)
	assert_regex "$e1$e2$e3" '^[0-9]+$'
	((e1 < e2 && e2 < e3))
	((e2 >= 100 && e3 >= 200))
	# The delays lie between them; the first is the run's start, bounded
	# for a busy host.
	((e2 - e1 >= 100 && e3 - e2 >= 100))
	((e1 < 10000))
}

@test "values from the caller's environment are replaced" {
	RETRY_ATTEMPT=42 RETRY_MAX_ATTEMPTS=42 RETRY_LAST_STATUS=42 \
	    RETRY_ELAPSED_MS=99999 record 1 -n 2 --immediate
	assert_equal "$(field 1 1)|$(field 1 2)|$(field 1 3)" "1|2|"
	(($(field 1 4) < 99999))
}

@test "the rest of the environment passes through" {
	FOO='a b=c' run -0 retry -n 1 sh -c 'printf "%s\n" "$FOO"'
	assert_output 'a b=c'
}
