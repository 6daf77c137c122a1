#!/usr/bin/env bats
# --deadline: the run's whole time, held hard: the running attempt is
# stopped as --timeout stops one, no attempt starts and no sleep or
# --on-retry hook runs past it.
bats_require_minimum_version 1.5.0
load test_helper/common
load test_helper/core

@test "--deadline stops the running attempt as --timeout does: 124, well before it would end" {
	local t0 t1
	t0=$(now_ms)
	run -124 --separate-stderr retry --deadline 1s -- sleep 30
	t1=$(now_ms)
	# Not before the deadline; long before the 30s, on a busy host too.
	((t1 - t0 >= 950 && t1 - t0 < 20000))
	assert_regex "$stderr" \
	    "^retry: sleep 30: giving up after 1 attempt in $DUR: timed out; the 1s deadline is reached\$"
}

@test "--deadline with --preserve-status: the attempt's own status" {
	run -143 --separate-stderr retry --deadline 1s --preserve-status \
	    -- sleep 30
	assert_regex "$stderr" "timed out \\(status 143\\); the 1s deadline is reached\$"
}

@test "--deadline: no attempt starts after it, and no limit on attempts without --max" {
	local d=$BATS_TEST_TMPDIR
	# Attempts 400ms apart: at 0, 0.4s and 0.8s at the most; the next
	# would start at 1.2s, past the deadline, so the run ends.
	run -1 --separate-stderr retry --deadline 1s --fixed 400ms \
	    -- sh -c 'echo x >>"$0/runs"; exit 1' "$d"
	# Ended before the deadline, unless a slow host had an attempt
	# running at it.
	assert_regex "$stderr" \
	    "; (the next attempt would start past the 1s deadline|the 1s deadline is reached)\$"
	local n
	n=$(wc -l <"$d/runs")
	((n >= 1 && n <= 3))
	# Without --max, the deadline alone limits the run, as --budget.
	run -0 retry --dry-run --deadline 10s --fixed 1s
	assert_line --index 10 --regexp "^10 +1s +9s\$"
	assert_line --index 11 "then gives up: the next attempt would start past the 10s deadline"
}

@test "--deadline: a delay that would reach it ends the run at once, said as --budget says it" {
	local t0 t1
	t0=$(now_ms)
	run -1 --separate-stderr retry --deadline 2s --fixed 30s -- false
	t1=$(now_ms)
	((t1 - t0 < 20000))
	assert_regex "$stderr" \
	    "^retry: false: giving up after 1 attempt in $DUR: exit 1; the next attempt would start past the 2s deadline\$"
	run -0 retry --dry-run --deadline 3s --fixed 1s
	assert_line "then gives up: the next attempt would start past the 3s deadline"
}

@test "--deadline: a run that ends before it does not say it is reached" {
	# Attempts at 0s, 1s and 2s; the next would start at 3s, past 2.5s:
	# the run ends at about 2s, short of the deadline.
	run -1 --separate-stderr retry --deadline 2.5s --fixed 1s -- false
	assert_regex "$stderr" \
	    "giving up after 3 attempts in $DUR: exit 1; the next attempt would start past the 2.5s deadline\$"
	refute_regex "$stderr" "is reached"
}

@test "--deadline stops an --on-retry hook too, and no attempt starts after it" {
	local d=$BATS_TEST_TMPDIR t0 t1
	t0=$(now_ms)
	run -1 --separate-stderr retry --deadline 1s --fixed 100ms \
	    --on-retry 'sleep 30' \
	    -- sh -c 'echo x >>"$0/runs"; exit 1' "$d"
	t1=$(now_ms)
	((t1 - t0 < 20000))
	assert_equal "$(wc -l <"$d/runs")" 1
	assert_regex "$stderr" "retry: $(named sh -c 'echo x >>"$0/runs"; exit 1' "$d"): --on retry: stopped at the --deadline"
	# The run's closing line follows, as a deadline's always does.
	assert_regex "$stderr" \
	    "retry: sh -c .*: giving up after 1 attempt in $DUR: exit 1; the 1s deadline is reached\$"
}

@test "--deadline reached in an --on-retry hook: JSON ends with the giveup event, reason deadline" {
	run -1 --separate-stderr retry --deadline 1s --fixed 100ms \
	    --on-retry 'sleep 30' --log-format json -- false
	assert_equal "$(printf '%s\n' "$stderr" | jq -sc 'map(.event)')" \
	    '["failure","error","giveup"]'
	assert_equal "$(printf '%s\n' "$stderr" | jq -r 'select(.event == "giveup") | "\(.reason) \(.attempt) \(.status) \(.delay_ms)"')" \
	    "deadline 1 1 null"
}

@test "--deadline: 0 is none, as --timeout's: the default --max 5 holds" {
	run -0 retry --deadline 0 -- true
	# As if not given: five attempts, not a run without end.
	run -1 --separate-stderr retry --deadline 0 --immediate \
	    -- false
	assert_regex "$stderr" "giving up after 5 attempts in $DUR: exit 1\$"
	run -0 retry --dry-run --deadline 0 -- false
	local with=$output
	run -0 retry --dry-run -- false
	assert_equal "$with" "$output"
}

@test "--budget and --max-actual-duration: 0 is none too, and --max 5 holds" {
	run -1 --separate-stderr retry --budget 0 --immediate \
	    -- false
	assert_regex "$stderr" "giving up after 5 attempts in $DUR: exit 1\$"
	run -1 --separate-stderr retry --max-actual-duration 0 \
	    --immediate -- false
	assert_regex "$stderr" "giving up after 5 attempts in $DUR: exit 1\$"
	# A 0 budget cuts no --timeout to nothing.
	run -0 retry --budget 0 --timeout 20s -- sleep 0.1
	run -0 retry --dry-run --budget 0 -- false
	local with=$output
	run -0 retry --dry-run -- false
	assert_equal "$with" "$output"
}

@test "--deadline: the last attempt allowed, stopped by it, ends the run by the deadline, not by --max" {
	run -124 --separate-stderr retry --max 1 --deadline 1s \
	    --log-format json -- sleep 30
	assert_equal "$(jq -r 'select(.event == "giveup") | .reason' <<<"$stderr")" deadline
	run -124 --separate-stderr retry --max 2 --fixed 100ms --deadline 1s \
	    -- sh -c '[ "$RETRY_ATTEMPT" = 1 ] && exit 1; exec sleep 30'
	assert_regex "${stderr_lines[-1]}" \
	    "giving up after 2 attempts in $DUR: timed out; the 1s deadline is reached\$"
}
