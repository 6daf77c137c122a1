#!/usr/bin/env bats
# show-backoff-delays through the binary: its names, STATUS arguments,
# the output formats and units, --chart, --samples, one error of each
# kind, and retry --dry-run, which replays the same way.  The delays that
# the replays give (STATUS, the all-failing run, --budget, --unit, Perl's
# numbers, --samples' statistics) and the refusals of every malformed
# entry are rows of tests/unit/delays.c and tests/unit/replay.c.
bats_require_minimum_version 1.5.0
load test_helper/common
load test_helper/show

MIMD=(-a MIMD --initial-delay 3 --min-delay 2 --delay-multiple-on-failure 2
    --delay-multiple-on-success 0.5)

# Names and dispatch.

@test "show-backoff-delays and retry show-backoff-delays are one program" {
	run -0 show --exp 100ms --max 5
	assert_delays 0.1 0.2 0.4 0.8 -1
	run -0 retry show-backoff-delays --exp 100ms --max 5
	assert_delays 0.1 0.2 0.4 0.8 -1
	# The link dispatches on its name, wherever it lives.
	ln -s "$RETRY" "$BATS_TEST_TMPDIR/show-backoff-delays"
	run -0 "$BATS_TEST_TMPDIR/show-backoff-delays" --exp 100ms --max 5
	assert_delays 0.1 0.2 0.4 0.8 -1
}

# STATUS arguments.

@test "STATUS: :T is absolute, :+S relative to the entry before" {
	run -0 show "${MIMD[@]}" --format csv 0 0:+1.5 1:4 1 0:+0.25 0:10
	assert_delays step,status,time_s,delay_s 1,0,0,3 2,0,1.5,6 3,1,4,3 \
	    4,1,4,2 5,0,4.25,4 6,0,10,8
}

@test "STATUS: a malformed entry is a usage error" {
	run -125 show 0 2
	assert_equal "${#lines[@]}" 2
	assert_line --index 1 "Try 'show-backoff-delays --help'."
	assert_line --index 0 "show-backoff-delays: status '2': a status is 0 (failure) or 1 (success), then optionally :T or :+S"
}

@test "STATUS: a time before the one before is a usage error" {
	run -125 show 0:5 0:3
	assert_usage_error "status '0:3'"
}

@test "STATUS: nothing goes to stdout before a bad entry is found" {
	run --separate-stderr -125 show 0 0 0 0 9
	assert_output ''
}

# The all-failing run.

@test "without STATUS: time runs with the delays, as the table shows" {
	run -0 show --exp 1s --format table
	assert_delays "step   status  time (s)     delay (s)" \
	    "1      failure 0            1" \
	    "2      failure 1            2" \
	    "3      failure 3            4" \
	    "4      failure 7            8" \
	    "5      failure 15           -1"
}

# Formats and units.

@test "--format table" {
	run -0 show "${MIMD[@]}" --format table 0 0:+1.5 1:4 1
	assert_delays "step   status  time (s)     delay (s)" \
	    "1      failure 0            3" \
	    "2      failure 1.5          6" \
	    "3      success 4            3" \
	    "4      success 4            2"
}

@test "--format csv --unit ms" {
	run -0 show "${MIMD[@]}" --format csv --unit ms 0 0:+1.5 1:4 1
	assert_delays step,status,time_ms,delay_ms 1,0,0,3000 2,0,1500,6000 \
	    3,1,4000,3000 4,1,4000,2000
}

@test "--format json: exact, and valid JSON" {
	run -0 show "${MIMD[@]}" --format json 0 0:+1.5 1:4 1
	assert_delays "[" \
	    '  {"step": 1, "status": 0, "time": 0, "delay": 3},' \
	    '  {"step": 2, "status": 0, "time": 1.5, "delay": 6},' \
	    '  {"step": 3, "status": 1, "time": 4, "delay": 3},' \
	    '  {"step": 4, "status": 1, "time": 4, "delay": 2}' \
	    "]"
	jq empty <<<"$output"
}

@test "--format json is valid JSON for one step, -1, --unit ms and --samples" {
	local args
	for args in "-n 1" "-n 3 --unit ms" "--samples 5 --seed 1 -j full" \
	    "--samples 5 --seed 1 -j full --unit ms -n 0 --count 3" \
	    "-a Constant --delay 0.1 --jitter-factor 0.5 --seed 2 0 1 0"; do
		# shellcheck disable=SC2086  # the words are options
		run -0 show --format json $args
		jq empty <<<"$output" ||
		    fail "not JSON for $args: $output"
	done
	run -0 show --format json -n 1
	assert_delays "[" '  {"step": 1, "status": 0, "time": 0, "delay": -1}' \
	    "]"
}

@test "Inf and NaN are null in JSON" {
	# 1e6^52 overflows to Inf; Inf x 0 on the success is NaN (Perl's
	# spellings in plain output: tests/unit/delays.c).
	local big=(-a MIMD --initial-delay 1 --delay-multiple-on-failure 1e6
	    --delay-multiple-on-success 0) st
	st=$(printf '0 %.0s' {1..53})
	# shellcheck disable=SC2086  # the statuses are words
	run -0 show "${big[@]}" --format json $st 1
	assert_line --index 53 '  {"step": 53, "status": 0, "time": 0, "delay": null},'
	assert_line --index 54 '  {"step": 54, "status": 1, "time": 0, "delay": null}'
	jq empty <<<"$output"
}

@test "--format and --unit take only their words" {
	run -125 show --format yaml
	assert_usage_error --format
	run -125 show --unit h
	assert_usage_error --unit
}

# --chart.

@test "--chart: Unicode bars in eighths, the longest ending at COLUMNS" {
	COLUMNS=40 run -0 show --chart "${MIMD[@]}" 0 0 0 0 1 1 1 1 1 0 0 0
	assert_delays \
	    " 1 0  3s ███▉" \
	    " 2 0  6s ███████▊" \
	    " 3 0 12s ███████████████▌" \
	    " 4 0 24s ███████████████████████████████" \
	    " 5 1 12s ███████████████▌" \
	    " 6 1  6s ███████▊" \
	    " 7 1  3s ███▉" \
	    " 8 1  2s ██▋" \
	    " 9 1  2s ██▋" \
	    "10 0  4s █████▏" \
	    "11 0  8s ██████████▍" \
	    "12 0 16s ████████████████████▋"
	run -0 widest_line
	assert_output 40
}

@test "--chart --ascii: whole cells of #; 0 has no bar; -1 gives up" {
	COLUMNS=30 run -0 show --chart --ascii --delays 0,1,2.5,10 -n 5
	assert_delays \
	    "1   0s" \
	    "2   1s ##" \
	    "3 2.5s ######" \
	    "4  10s #######################" \
	    "5   -1 gives up"
	run -0 widest_line
	assert_output 30
}

@test "--chart: a delay above 0 always shows" {
	COLUMNS=40 run -0 show --chart --ascii --delays 1ms,10s -n 3
	assert_delays "1 0.001s #" "2    10s ###############################" \
	    "3     -1 gives up"
}

@test "--chart --unit ms, and labels to six digits" {
	COLUMNS=40 run -0 show --chart --unit ms --fixed 250ms -n 3
	assert_delays "1 250ms ████████████████████████████████" \
	    "2 250ms ████████████████████████████████" \
	    "3    -1 gives up"
	COLUMNS=60 run -0 show --chart -a MIMD --initial-delay 1 \
	    --delay-multiple-on-failure 3 --delay-multiple-on-success 0.3333333 \
	    0 0 1 1 1
	assert_delays \
	    "1 0        1s ███████████████▍" \
	    "2 0        3s ██████████████████████████████████████████████" \
	    "3 1        1s ███████████████▍" \
	    "4 1 0.333333s █████▏" \
	    "5 1 0.111111s █▊"
}

@test "--chart scales to COLUMNS, with at least 10 cells" {
	local cols
	for cols in 20 50 80 132; do
		COLUMNS=$cols run -0 show --chart --exp 1s -n 0 --count 12
		run -0 widest_line
		assert_output "$cols"
	done
	COLUMNS=5 run -0 show --chart --ascii -n 3
	assert_delays "1 1s #####" "2 2s ##########" "3 -1 gives up"
}

@test "--chart without COLUMNS: the terminal's width, else 80" {
	run -0 env -u COLUMNS "$SHOW" --chart --ascii -n 3
	assert_line --index 1 "2 2s $(printf '#%.0s' {1..75})"
	COLUMNS=junk run -0 show --chart --ascii -n 3
	assert_line --index 1 "2 2s $(printf '#%.0s' {1..75})"
	# On a terminal 50 columns wide, stdout's window size.
	run -0 script -qec "stty cols 50 rows 20; env -u COLUMNS $SHOW --chart --ascii -n 3" /dev/null
	assert_line --index 1 "2 2s $(printf '#%.0s' {1..45})"$'\r'
}

@test "--chart is deterministic" {
	COLUMNS=70 run -0 show --chart --jitter full --seed 4 --count 20 -n 0
	local first=$output
	COLUMNS=70 run -0 show --chart --jitter full --seed 4 --count 20 -n 0
	assert_equal "$output" "$first"
}

@test "--ascii goes with --chart, and --chart with no --format" {
	run -125 show --ascii
	assert_usage_error --ascii
	run -125 show --chart --format csv
	assert_usage_error --chart
	run -0 show --chart --format plain -n 1
}

# --samples.

@test "--samples: min, median, p90 and max per step" {
	run -0 show --samples 1000 --seed 1 --jitter full
	assert_delays \
	    "0.001263272 0.4934719095 0.894311679 0.998179398" \
	    "0.002571914 0.969829203 1.784753848 1.994620971" \
	    "0.001494354 1.9309992005 3.56650341 3.997691842" \
	    "0.01899074 4.1143142735 7.318064203 7.986763221" \
	    "-1 -1 -1 -1"
}

@test "--samples of a strategy without randomness: all the same" {
	run -0 show --samples 3 --seed 1 --format csv -n 3
	assert_delays step,runs,min_s,median_s,p90_s,max_s 1,3,1,1,1,1 \
	    2,3,2,2,2,2 3,0,-1,-1,-1,-1
}

@test "--samples --format table and json, --unit ms" {
	run -0 show --samples 1000 --seed 1 --jitter full --format table -n 3
	assert_delays \
	    "step   runs   min (s)      median (s)   p90 (s)      max (s)" \
	    "1      1000   0.001263272  0.4934719095 0.894311679  0.998179398" \
	    "2      1000   0.002571914  0.969829203  1.784753848  1.994620971" \
	    "3      0      -1           -1           -1           -1"
	run -0 show --samples 1000 --seed 1 --jitter equal --format json \
	    --unit ms -n 3
	assert_delays "[" \
	    '  {"step": 1, "runs": 1000, "min": 500.287522, "median": 741.167181, "p90": 944.957846, "max": 998.688647},' \
	    '  {"step": 2, "runs": 1000, "min": 1001.2761, "median": 1504.351675, "p90": 1897.453092, "max": 1999.558847},' \
	    '  {"step": 3, "runs": 0, "min": -1, "median": -1, "p90": -1, "max": -1}' \
	    "]"
	jq empty <<<"$output"
}

@test "--samples --chart: the spread of each step on one scale" {
	COLUMNS=60 run -0 show --samples 1000 --seed 1 --jitter full --chart
	assert_delays \
	    "1 0.493472s ━━━┃━━─" \
	    "2 0.969829s ━━━━━━┃━━━━━─" \
	    "3    1.931s ━━━━━━━━━━━┃━━━━━━━━━━───" \
	    "4  4.11431s ━━━━━━━━━━━━━━━━━━━━━━━━┃━━━━━━━━━━━━━━━━━━━────" \
	    "5        -1 gives up" \
	    "━ min to p90, ─ p90 to max, ┃ median"
	run -0 widest_line
	assert_output 60
}

@test "--samples --chart --ascii --unit ms" {
	COLUMNS=60 run -0 show --samples 200 --seed 3 -a Exponential \
	    --initial-delay 1 --jitter-factor 0.5 --count 5 --chart --ascii \
	    --unit ms
	assert_delays \
	    "1 1015.13ms  =|=" \
	    "2 2051.01ms   ==|=-" \
	    "3 4047.15ms     ====|===-" \
	    "4 8278.18ms         ========|======-" \
	    "5 16899.5ms                 =================|===========---" \
	    "= min to p90, - p90 to max, | median"
}

@test "--samples takes 1 to 100000" {
	run -125 show --samples 0
	assert_usage_error --samples
}

@test "--chart, --ascii and --samples are show-backoff-delays' only" {
	run -125 retry --chart -- true
	assert_usage_error --chart
	run -125 retry --samples 3 -- true
	assert_usage_error --samples
}

# retry --dry-run replays the same way.

@test "--dry-run: the schedule of the same delays" {
	run -0 retry --dry-run --decorrelated 1s --seed 9 -n 5 --max-delay 1m
	assert_delays \
	    "delays drawn at random with --seed 9: the same each time" \
	    "attempt  delay      starts at  drawn from" \
	    "1        -          0s" \
	    "2        1.688s     1.688s     [1s, 3s]" \
	    "3        4.19s      5.879s     [1s, 5.065s]" \
	    "4        1.219s     7.098s     [1s, 12.571s]" \
	    "5        1.926s     9.024s     [1s, 3.657s]"
}

@test "--dry-run: --max-actual-duration and --budget, as show gives them" {
	run -0 retry --dry-run -a Exponential --initial-delay 3 \
	    --max-actual-duration 21
	assert_delays "attempt  delay      starts at" "1        -          0s" \
	    "2        3s         3s" "3        6s         9s" \
	    "4        12s        21s"
	run -0 retry --dry-run --budget 10s
	assert_delays "attempt  delay      starts at" "1        -          0s" \
	    "2        1s         1s" "3        2s         3s" \
	    "4        4s         7s" \
	    "then gives up: the next attempt would start past the 10s budget"
}

@test "--dry-run: --budget or --max-actual-duration without --max limits by time alone" {
	run -0 retry --dry-run --fixed 2s --budget 9s
	assert_delays "attempt  delay      starts at" "1        -          0s" \
	    "2        2s         2s" "3        2s         4s" \
	    "4        2s         6s" "5        2s         8s" \
	    "then gives up: the next attempt would start past the 9s budget"
	run -0 retry --dry-run --fixed 2s --budget 5m --count 200
	assert_equal "${#lines[@]}" 153
	assert_equal "${lines[151]}" "151      2s         5m"
	run -0 retry --dry-run --fixed 1s --max-actual-duration 7 --count 20
	assert_equal "${lines[-1]}" "8        1s         7s"
	# --max still wins when given.
	run -0 retry --dry-run --fixed 2s --budget 5m --max 3
	assert_equal "${#lines[@]}" 4
}

@test "-a without --max runs 5 attempts, as every strategy" {
	run -0 retry --dry-run -a Constant --delay 1
	assert_equal "${#lines[@]}" 6
	assert_equal "${lines[5]}" "5        1s         4s"
	run -1 timeout 10 "$RETRY" -q -a Constant --delay 0 -- \
	    sh -c 'echo x >>"$1"; exit 1' sh "$BATS_TEST_TMPDIR/runs"
	assert_equal "$(wc -l <"$BATS_TEST_TMPDIR/runs")" 5
}

@test "--count is --dry-run's: listed beside it, refused for a run" {
	run -0 retry --help all
	assert_output --regexp $'--dry-run [^\n]*\n +--count N '
	run -125 retry --count 3 -- true
	assert_usage_error --count
	assert_line --index 0 "retry: --count: goes with --dry-run (a run is limited by --max)"
}

@test "--dry-run: --count attempts at most" {
	run -0 retry --dry-run -n 0 --count 3 --fixed 2s
	assert_delays "attempt  delay      starts at" "1        -          0s" \
	    "2        2s         2s" "3        2s         4s" \
	    "and so on: the run goes on past attempt 3 (--count shows more)"
	run -0 retry --dry-run -n 0 --count 1
	assert_delays "attempt  delay      starts at" "1        -          0s" \
	    "and so on: the run goes on past attempt 1 (--count shows more)"
	# A run that ends within --count says nothing more.
	run -0 retry --dry-run -n 3 --count 3 --fixed 2s
	assert_delays "attempt  delay      starts at" "1        -          0s" \
	    "2        2s         2s" "3        2s         4s"
	run -0 retry --dry-run --max 0
	assert_equal "${#lines[@]}" 12
	assert_equal "${lines[11]}" "and so on: the run goes on past attempt 10 (--count shows more)"
}

@test "STATUS: a time that is no number of seconds is a usage error; durations take no exponent" {
	run -125 show -a Constant --delay 3 0:1e400
	assert_usage_error "status '0:1e400'"
	assert_line --index 0 "show-backoff-delays: status '0:1e400': the time is not a number of seconds"
	run -125 retry --fixed 1e-3 -- true
	assert_usage_error --fixed
}

@test "show: Algorithm::Backoff's parameters are listed by show-backoff-delays, taken by retry -a too" {
	local o
	run -0 show -a Exponential --initial-delay 1 --exponent-base 3 -n 3
	assert_output $'1\n3\n-1'
	run -0 retry --dry-run -a Exponential --initial-delay 1 --exponent-base 3 -n 3 -- true
	assert_output --partial "3s"
	for o in --initial-delay --exponent-base --initial-delay1 --initial-delay2 \
	    --delay-increment-on-failure --delay-increment-on-success \
	    --delay-multiple-on-failure --delay-multiple-on-success \
	    --jitter-factor --consider-actual-delay --max-actual-duration; do
		listed "$o" "$SHOW"
		listed "$o" "$RETRY" show-backoff-delays
		refute listed "$o" "$RETRY"
	done
	listed --algorithm "$RETRY"
	listed --delay-on-success "$RETRY"
	run -0 retry --help all
	assert_output --partial "parameters are show-backoff-delays's"
}
