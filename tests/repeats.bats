#!/usr/bin/env bats
# Options given again: status lists, output rules and hooks add up, in the
# order given, as grep's -e does; any other option, the last counts.
bats_require_minimum_version 1.5.0
load test_helper/common

@test "repeats: --stop-on given twice stops on either list's statuses" {
	run -3 retry -n 3 -d 0 --stop-on 3 --stop-on 2 -- sh -c 'exit 3'
	assert_line --partial "stopping: exit 3 is a --stop-on status"
	run -2 retry -n 3 -d 0 --stop-on 3 --stop-on 2 -- sh -c 'exit 2'
	assert_line --partial "stopping: exit 2 is a --stop-on status"
}

@test "repeats: --retry-on given twice retries either list's statuses" {
	local d=$BATS_TEST_TMPDIR
	run -1 retry -n 3 -d 0 --retry-on 1 --retry-on 75 \
	    -- sh -c 'echo x >>"$0/runs"; exit 1' "$d"
	assert_equal "$(wc -l <"$d/runs")" 3
	# A status given again only with the limit it had.
	run -125 retry --retry-on 1:2 --retry-on 1:3 -- true
	assert_line --index 0 "retry: --retry-on: '1:3': status 1 is given again with another limit"
}

@test "repeats: --success-on given twice: either list's statuses succeed" {
	run -0 retry -n 1 --success-on 3 --success-on 4 -- sh -c 'exit 4'
	run -0 retry -n 1 --success-on 3 --success-on 4 -- sh -c 'exit 3'
}

@test "repeats: output rules given again: a line that matches any of them" {
	run -0 --separate-stderr retry -n 2 -d 0 --until-output '^up$' \
	    --until-output ready -- echo up
	run -1 --separate-stderr retry -n 2 -d 0 --fail-if-output '^bad' \
	    --fail-if-output oops -- echo bad news
}

@test "repeats: hooks of one kind run in order, as sh's &&: the first that fails ends the rest" {
	run -1 --separate-stderr retry -n 2 -d 0 --on-retry 'echo r1' \
	    --on-retry 'echo r2' --on-giveup 'echo g1' \
	    --on-giveup 'echo g2; exit 4' --on-giveup 'echo g3' -- false
	assert_equal "$(grep -E '^(r|g)[0-9]$' <<<"$stderr" | tr '\n' ' ')" \
	    "r1 r2 g1 g2 "
	assert_regex "$stderr" "retry: false: --on giveup: exit 4"
	assert_regex "$stderr" "retry: false: --on giveup: the 1 given after it not run"
	run -0 --separate-stderr retry --on-success 'echo s1' \
	    --on-success 'echo s2' -- true
	assert_equal "$(tr '\n' ' ' <<<"$stderr")" "s1 s2 "
}

@test "repeats: single values: the last counts" {
	local t0 t1
	t0=$(now_ms)
	run -124 retry -n 1 --timeout 30s --timeout 500ms -- sleep 30
	t1=$(now_ms)
	((t1 - t0 < 20000))
}

@test "repeats: --help all marks the options that add up, and only those" {
	run -0 retry --help all
	assert_line --regexp "^An option marked \\+, given again, adds up"
	assert_line --regexp "^ +--retry-on CODES \\+ "
	assert_line --regexp "^ +--on EVENT:CMD \\+ "
	assert_line --regexp "^ +--output RULE:RE \\+ "
	assert_line --regexp "^  -T, --timeout DUR +stop an attempt"
	assert_line --regexp "^  -u, --until CRIT +retry until"
}
