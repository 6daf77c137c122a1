#!/usr/bin/env bats
# Limits by what attempts ended with: --retry-on STATUS:N, a status retried
# N times at most in the whole run, and --successes N, a run done only after
# N successes in a row.  The rules themselves are rows of
# tests/unit/policy.c, show-backoff-delays' delays and the refusals word
# for word rows of tests/unit/delays.c; here the real binary, its reports,
# its exit status, its hooks and its held output.
bats_require_minimum_version 1.5.0
load test_helper/common
load test_helper/core

@test "--retry-on 1:2,75: status 1 retried twice, then the run gives up with it" {
	local f=$BATS_TEST_TMPDIR/runs
	run -1 --separate-stderr retry --fixed 1ms --retry-on 1:2,75 \
	    --on-giveup 'echo gave up >&2' statuses "$f" 1
	assert_equal "$(statuses_runs "$f")" 3
	assert_stderr_lines \
	    "retry: $(named statuses "$f" 1): attempt 1/5 failed: exit 1 after $DUR; next attempt in 1ms" \
	    "retry: $(named statuses "$f" 1): attempt 2/5 failed: exit 1 after $DUR; next attempt in 1ms" \
	    "retry: $(named statuses "$f" 1): giving up after 3 attempts in $DUR: exit 1; status 1 retried 2 times \(--retry-on 1:2\)" \
	    "gave up"
}

@test "--retry-on 1:2,75: 75 is retried up to --max" {
	local f=$BATS_TEST_TMPDIR/runs
	run -75 --separate-stderr retry -n 4 --fixed 1ms --retry-on 1:2,75 \
	    statuses "$f" 75
	assert_equal "$(statuses_runs "$f")" 4
	assert_regex "${stderr_lines[3]}" "^retry: $(named statuses "$f" 75): giving up after 4 attempts in $DUR: exit 75$"
}

@test "--retry-on 1:2: the attempts of the whole run count, in a row or not" {
	local f=$BATS_TEST_TMPDIR/runs
	run -1 --separate-stderr retry -n 0 --fixed 1ms --retry-on 1:2,75 \
	    statuses "$f" 1 75 1 75 1 0
	assert_equal "$(statuses_runs "$f")" 5
	assert_regex "${stderr_lines[4]}" \
	    "status 1 retried 2 times \(--retry-on 1:2\)$"
}

@test "--retry-on: a range counts as one, a signal's name as its status" {
	local f=$BATS_TEST_TMPDIR/runs
	run -77 --separate-stderr retry --fixed 1ms --retry-on 75-78:2 \
	    statuses "$f" 75 76 77 0
	assert_equal "$(statuses_runs "$f")" 3
	assert_regex "${stderr_lines[2]}" \
	    "statuses 75-78 retried 2 times \(--retry-on 75-78:2\)$"
	run -137 --separate-stderr retry --fixed 1ms --retry-on SIGKILL:1 \
	    sh -c 'kill -KILL $$'
	assert_regex "${stderr_lines[1]}" \
	    "^retry: sh -c 'kill -KILL \\\$\\\$': giving up after 2 attempts in $DUR: killed by SIGKILL; status SIGKILL retried 1 time \(--retry-on SIGKILL:1\)$"
}

@test "--retry-on STATUS:N in JSON: the reason and the limit" {
	run -1 --separate-stderr retry --fixed 1ms --log-format json \
	    --retry-on 2,1:1 sh -c 'exit 1'
	assert_regex "${stderr_lines[1]}" '"event":"giveup".*"attempt":2,.*"reason":"retry_on_limit",.*"limit":"1:1"'
}

@test "--retry-on STATUS:N: --dry-run shows where the run gives up" {
	run -0 retry --dry-run --fixed 1s --retry-on 1:2,75
	assert_lines "attempt  delay      starts at" \
	    "1        -          0s" \
	    "2        1s         1s" \
	    "3        1s         2s" \
	    "then gives up: status 1 retried 2 times (--retry-on 1:2)"
}

@test "--retry-on STATUS:N: a limit that is no number of retries, or a limit elsewhere, is a usage error" {
	run retry --retry-on 1:0 true
	assert_usage_error "--retry-on: '1:0': a limit is a number of retries from 1 to 1000000000, as in 1:2"
	run retry --stop-on 2:1 true
	assert_usage_error "--stop-on: '2:1': only --retry-on takes a limit"
}

@test "--retry-on 1:2,1:3: a status given twice in a list is a usage error, nothing run" {
	run retry --retry-on 1:2,1:3 -- echo ran
	assert_usage_error "--retry-on: '1:2,1:3': status 1 is given twice \\(each status once in a list\\)"
}

@test "--successes 3: done after three successes in a row, each reported" {
	run -0 --separate-stderr retry --fixed 1ms --successes 3 flaky 1
	assert_equal "$(flaky_runs)" 4
	assert_stderr_lines \
	    "retry: flaky 1: attempt 1/5 failed: exit 1 after $DUR; next attempt in 1ms" \
	    "retry: flaky 1: attempt 2/5 succeeded after $DUR, 1 of 3 in a row; next attempt in 1ms" \
	    "retry: flaky 1: attempt 3/5 succeeded after $DUR, 2 of 3 in a row; next attempt in 1ms" \
	    "retry: flaky 1: attempt 4/5 succeeded after $DUR, 3 of 3 in a row" \
	    "retry: flaky 1: succeeded on attempt 4 of 5 after $DUR"
}

@test "--successes: a failure starts the count over" {
	local f=$BATS_TEST_TMPDIR/runs
	run -0 --separate-stderr retry -n 0 --fixed 1ms --successes 2 \
	    statuses "$f" 0 1 0 0 1
	assert_equal "$(statuses_runs "$f")" 4
}

@test "--successes: --max counts every attempt, and the run gives up once too few are left" {
	local f=$BATS_TEST_TMPDIR/runs
	run -1 --separate-stderr retry -n 4 --fixed 1ms --successes 3 \
	    --on-giveup 'echo "gave up: $RETRY_STATUS" >&2' statuses "$f" 0 1 0
	assert_equal "$(statuses_runs "$f")" 2
	assert_stderr_lines \
	    "retry: $(named statuses "$f" 0 1 0): attempt 1/4 succeeded after $DUR, 1 of 3 in a row; next attempt in 1ms" \
	    "retry: $(named statuses "$f" 0 1 0): giving up after 2 attempts in $DUR: exit 1; --max 4 leaves too few attempts for 3 successes in a row" \
	    "gave up: 1"
}

@test "--successes: a run that --budget ends short of N gives up, never with 0" {
	run -1 --separate-stderr retry --budget 300ms --fixed 200ms \
	    --successes 3 true
	assert_regex "${stderr_lines[-1]}" \
	    "^retry: true: giving up after 2 attempts in $DUR: exit 0, 2 of 3 in a row; the next attempt would start past the 300ms budget$"
}

@test "--successes: the delay between successes is the strategy's first, as show-backoff-delays prints" {
	run -0 --separate-stderr retry --exp 40ms --successes 2 \
	    --log-format json flaky 2
	assert_regex "${stderr_lines[0]}" '"event":"failure".*"delay_ms":40,'
	assert_regex "${stderr_lines[1]}" '"event":"failure".*"delay_ms":80,'
	assert_regex "${stderr_lines[2]}" '"event":"success".*"delay_ms":40,.*"in_a_row":1'
	assert_regex "${stderr_lines[3]}" '"event":"success".*"delay_ms":null,.*"in_a_row":2'
}

@test "--successes: a success is the verdict's, --until-output's line included" {
	local f=$BATS_TEST_TMPDIR/runs
	# shellcheck disable=SC2016  # expanded by the command's shell
	run -0 --separate-stderr retry -n 0 --fixed 1ms --successes 2 \
	    --until-output ready -- sh -c 'echo run >>"$1"
	    [ "$(wc -l <"$1")" -eq 2 ] && echo busy || echo ready' sh "$f"
	assert_equal "$(statuses_runs "$f")" 4
	assert_regex "${stderr_lines[1]}" "failed: exit 0 after $DUR \(no line matched --output until\)"
}

@test "--successes --hold-stdout: only the success that makes N reaches stdout" {
	run -0 --separate-stderr retry --fixed 1ms --successes 3 --hold-stdout \
	    -q flaky 1
	assert_output "run 4"
	assert_equal "$stderr" "$(printf 'run 1\nrun 2\nrun 3')"
}

@test "--successes: --dry-run and show-backoff-delays show where the run gives up" {
	run -0 retry --dry-run --fixed 1s --successes 3
	assert_lines "attempt  delay      starts at" \
	    "1        -          0s" \
	    "2        1s         1s" \
	    "3        1s         2s" \
	    "then gives up: --max 5 leaves too few attempts for 3 successes in a row"
	run -0 show --format csv --fixed 2 --successes 2 0 1 1 0
	assert_lines step,status,time_s,delay_s 1,0,0,2 2,1,0,2 3,1,0,-1
	COLUMNS=30 run -0 show --chart --ascii --fixed 2 --successes 2 0 1 1
	assert_line --index 2 "3 1 -1 done"
}

@test "--successes: --forever, or more than --max, is a usage error" {
	run retry --forever --successes 2 true
	assert_usage_error "--successes: a --forever run never ends on a success"
	run retry -n 3 --successes 4 true
	assert_usage_error "--successes: 4 in a row cannot fit in --max 3"
	run show --successes 0
	assert_usage_error "--successes: '0' is too small"
	run retry simulate --successes 2
	assert_usage_error "--successes: is not an option of retry simulate"
}
