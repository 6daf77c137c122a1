#!/usr/bin/env bats
# retry simulate: the AWS Architecture Blog's contention model.  Its
# determinism, the blog's results, the model's simple cases, the options
# and their errors, the output formats and the chart, the completions.
bats_require_minimum_version 1.5.0
load test_helper/common
load test_helper/tmux

# The blog's five and Polly's successor of its decorrelated jitter.
SIX=(none exponential equal-jitter full-jitter decorrelated decorrelated-v2)

# One number from the csv in $output: get CLIENTS STRATEGY COLUMN, where
# COLUMN is time_ms, calls or gave_up.
get() {
	awk -F, -v n="$1" -v s="$2" -v col="$3" '
	    NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	    $1 == n && $2 == s { print $c[col]; found = 1 }
	    END { exit !found }' <<<"$output"
}

# The widest line of $output in characters, not bytes.
widest_line() {
	python3 -c 'import sys; print(max(len(l) for l in sys.stdin.read().splitlines()))' <<<"$output"
}

# Determinism.

@test "the same seed gives the same numbers, to the last digit" {
	local first
	run -0 retry simulate --seed 7 --runs 20 --clients 10,40 --format csv
	first=$output
	run -0 retry simulate --seed 7 --runs 20 --clients 10,40 --format csv
	assert_output "$first"
	run -0 retry simulate --seed 8 --runs 20 --clients 10,40 --format csv
	[ "$output" != "$first" ] || fail "seeds 7 and 8 gave the same"
}

@test "a strategy's numbers do not depend on the others simulated with it" {
	local args=(--seed 3 --runs 20 --format csv) alone
	run -0 retry simulate "${args[@]}" --clients 20,50
	local all=$output
	for pair in "full-jitter --jitter full" \
	    "equal-jitter --jitter equal" "exponential --exp 10ms" \
	    "none --immediate" "decorrelated --decorrelated 5ms" \
	    "decorrelated-v2 --decorrelated-v2 10ms"; do
		read -r name opts <<<"$pair"
		# shellcheck disable=SC2086  # the words are options
		run -0 retry simulate "${args[@]}" --clients 50 $opts
		alone=$(tail -n 1 <<<"$output" | cut -d, -f3-)
		output=$all
		assert_equal "$alone" "$(get 50 "$name" runs),$(get 50 "$name" \
		    time_ms),$(get 50 "$name" calls),$(get 50 "$name" gave_up)"
	done
}

# The blog's simulator.

# The means of the blog's own simulator, aws-samples/aws-arch-backoff-
# simulator (src/backoff_simulator.py at 66cb169, its base 5ms and cap 2s,
# its clients and network unchanged), under Python 3: 10,000 runs of each
# strategy at each number of clients.  Clients, strategy, time in ms until
# the last client is done, write calls.  Their standard errors are under
# 0.1% of each mean.
AWS_SIMULATOR=(
	"10 none 379.77 50.851"
	"10 exponential 3472.25 50.827"
	"10 equal-jitter 727.21 42.494"
	"10 full-jitter 464.39 39.007"
	"10 decorrelated 437.09 37.670"
	"50 none 1140.26 689.940"
	"50 exponential 36438.21 623.807"
	"50 equal-jitter 4242.23 347.234"
	"50 full-jitter 2897.26 332.490"
	"50 decorrelated 2207.68 374.724"
	"100 none 2027.93 2422.294"
	"100 exponential 63410.66 1854.439"
	"100 equal-jitter 6614.74 812.188"
	"100 full-jitter 4911.85 795.987"
	"100 decorrelated 4599.92 1001.808"
)

@test "the defaults reproduce the blog's simulator: calls within 2%, time within 3%" {
	local n runs row clients s time calls
	# Runs enough that 3% of the time is 4 standard errors or more: a
	# run's time varies by up to 38% at 10 clients (exponential) and 15%
	# at 100 (decorrelated).  About 2s in all.
	for n in "10 4000" "50 1000" "100 400"; do
		read -r n runs <<<"$n"
		run -0 retry simulate --seed 1 --clients "$n" --runs "$runs" \
		    --format csv
		for row in "${AWS_SIMULATOR[@]}"; do
			read -r clients s time calls <<<"$row"
			[ "$clients" = "$n" ] || continue
			within "$(get "$n" "$s" calls)" 0.02 "$calls" ||
			    fail "$n clients, $s: $(get "$n" "$s" calls) calls, the simulator's $calls"
			within "$(get "$n" "$s" time_ms)" 0.03 "$time" ||
			    fail "$n clients, $s: $(get "$n" "$s" time_ms)ms, the simulator's ${time}ms"
		done
	done
}

# The blog's results.

# Full and equal jitter make far fewer calls than no back-off and than
# exponential back-off without jitter (the blog: jitter roughly halves
# them), and exponential without jitter takes far longer than any
# jittered strategy.  Measured (seeds 1 and 2): calls 0.48-0.56 of them
# at 50 clients, 0.33-0.44 at 100; time 8.5-16 times.
assert_blog_results() {
	local n=$1 s
	for s in full-jitter equal-jitter; do
		less_than "$(get "$n" "$s" calls)" 0.75 \
		    "$(get "$n" exponential calls)" ||
		    fail "$n clients: $s makes as many calls as exponential"
		less_than "$(get "$n" "$s" calls)" 0.75 "$(get "$n" none calls)" ||
		    fail "$n clients: $s makes as many calls as none"
	done
	for s in full-jitter equal-jitter decorrelated; do
		less_than "$(get "$n" "$s" time_ms)" 0.25 \
		    "$(get "$n" exponential time_ms)" ||
		    fail "$n clients: exponential is not far slower than $s"
	done
}

@test "the blog's results at 50 and 100 clients" {
	local seed
	for seed in 1 2; do
		run -0 retry simulate --seed "$seed" --clients 50,100 --format csv
		assert_blog_results 50
		assert_blog_results 100
	done
}

# Polly's DecorrelatedJitterBackoffV2 is the smoother successor of the
# blog's decorrelated jitter: in this model too it is far faster than
# exponential back-off without jitter and makes fewer calls than none
# (measured, seeds 1 and 2 at 50 and 100 clients: time 0.09-0.10 of
# exponential's, calls 0.33-0.49 of none's).
@test "decorrelated-v2 fares as the jittered strategies do" {
	local seed n time calls
	for seed in 1 2; do
		run -0 retry simulate --seed "$seed" --clients 50,100 --format csv
		for n in 50 100; do
			time=$(get "$n" decorrelated-v2 time_ms) ||
			    fail "$n clients: no decorrelated-v2"
			calls=$(get "$n" decorrelated-v2 calls)
			less_than "$time" 0.25 "$(get "$n" exponential time_ms)" ||
			    fail "$n clients: decorrelated-v2 not far faster than exponential"
			less_than "$calls" 0.75 "$(get "$n" none calls)" ||
			    fail "$n clients: decorrelated-v2 makes as many calls as none"
		done
	done
}

@test "the blog's results without a seed" {
	run -0 retry simulate --clients 100 --runs 50 --format csv
	assert_blog_results 100
}

@test "the defaults: 100 runs of 100 clients, six strategies, in seconds" {
	local start end
	start=$(now_ms)
	run -0 retry simulate --format csv
	end=$(now_ms)
	assert_equal "${#lines[@]}" 7
	assert_line --index 0 clients,strategy,runs,time_ms,calls,gave_up
	for s in "${SIX[@]}"; do
		assert_line --regexp "^100,$s,100,[0-9.]+,[0-9.]+,0$"
	done
	# About 0.3s alone; room for a busy machine.
	[ $((end - start)) -lt 20000 ] || fail "took $((end - start))ms"
}

# The model's simple cases.

@test "one client: one write, four hops of about 10ms each" {
	run -0 retry simulate --clients 1 --runs 200 --seed 1 --format csv
	for s in "${SIX[@]}"; do
		assert_equal "$(get 1 "$s" calls)" 1
		less_than 36 1 "$(get 1 "$s" time_ms)" || fail "$s: too fast"
		less_than "$(get 1 "$s" time_ms)" 1 44 || fail "$s: too slow"
	done
}

@test "every client writes once at least; each stale write is a call" {
	run -0 retry simulate --clients 2,10 --runs 20 --seed 1 --format csv
	for s in "${SIX[@]}"; do
		less_than 1.999 1 "$(get 2 "$s" calls)" || fail "$s, 2 clients"
		less_than 10.1 1 "$(get 10 "$s" calls)" || fail "$s, 10 clients"
	done
}

@test "clients never give up, whatever retry's default --max" {
	run -0 retry simulate --clients 50 --runs 10 --seed 1 --format csv
	for s in "${SIX[@]}"; do
		assert_equal "$(get 50 "$s" gave_up)" 0
	done
	run -0 retry simulate --clients 10 --runs 5 --seed 1
	refute_output --partial "gave up"
}

@test "--max 1: each client writes once and gives up if that fails" {
	run -0 retry simulate --max 1 --clients 10 --runs 20 --seed 1 \
	    --format csv
	for s in "${SIX[@]}"; do
		assert_equal "$(get 10 "$s" calls)" 10
		less_than 0 1 "$(get 10 "$s" gave_up)" || fail "$s: none gave up"
		less_than "$(get 10 "$s" gave_up)" 1 10 || fail "$s: all gave up"
	done
	run -0 retry simulate --max 1 --clients 10 --runs 5 --seed 1
	assert_line --index 0 --regexp "calls +gave up$"
}

@test "--max-delay sets the cap (default 2s)" {
	run -0 retry simulate --exp 5ms --clients 50 --runs 20 --seed 1 \
	    --format csv
	local capped2s
	capped2s=$(get 50 exp time_ms)
	run -0 retry simulate --exp 5ms --max-delay 100ms --clients 50 \
	    --runs 20 --seed 1 --format csv
	less_than "$(get 50 exp time_ms)" 0.5 "$capped2s" ||
	    fail "a 100ms cap is not faster than 2s"
	run -0 retry simulate --exp 5ms --max-delay 2s --clients 50 \
	    --runs 20 --seed 1 --format csv
	assert_equal "$(get 50 exp time_ms)" "$capped2s"
}

@test "the strategy options of retry, named in the table" {
	local pair
	for pair in "fixed+full-jitter --fixed 10ms -j full" \
	    "exp+scattered-jitter -j scattered" "linear --linear 5ms" \
	    "fib --fib 5ms" "delays --delays 5ms,10ms,1s" \
	    "exp --exp 1ms --factor 3" \
	    "MIMD -a MIMD --initial-delay 0.005 --delay-multiple-on-failure 2 --delay-multiple-on-success 0.5" \
	    "Exponential -a Exponential --initial-delay 0.005"; do
		read -r name opts <<<"$pair"
		# shellcheck disable=SC2086  # the words are options
		run -0 retry simulate $opts --clients 5 --runs 3 --seed 1 \
		    --format csv
		assert_equal "${#lines[@]}" 2
		assert_line --index 1 --regexp \
		    "^5,${name//+/\\+},3,[0-9.]+,[0-9.]+,0$"
	done
	# The six compare with the modifiers given.
	run -0 retry simulate --factor 3 --min-delay 1ms --clients 5 \
	    --runs 3 --format csv
	assert_equal "${#lines[@]}" 7
}

# --clients and --runs.

@test "--clients: a list, a range and a range with a step" {
	run -0 retry simulate --clients 10,50,3 --runs 2 --seed 1 --format csv
	assert_equal "$(cut -d, -f1 <<<"$output" | uniq | tr '\n' ' ')" \
	    "clients 10 50 3 "
	run -0 retry simulate --clients 10-190:20 --runs 1 --seed 1 \
	    --immediate --format csv
	assert_equal "$(cut -d, -f1 <<<"$output" | tr '\n' ' ')" \
	    "clients 10 30 50 70 90 110 130 150 170 190 "
	run -0 retry simulate --clients 3-5,1,7-12:4 --runs 1 --seed 1 \
	    --immediate --format csv
	assert_equal "$(cut -d, -f1 <<<"$output" | tr '\n' ' ')" \
	    "clients 3 4 5 1 7 11 "
}

@test "--runs: the number of runs averaged over" {
	run -0 retry simulate --runs 3 --clients 5 --seed 1 --format csv
	assert_line --index 1 --regexp "^5,none,3,"
	run -0 retry simulate --runs 1 --clients 5 --seed 1 --format csv \
	    --immediate
	# One run: a whole number of calls.
	assert_line --index 1 --regexp "^5,immediate,1,[0-9.]+,[0-9]+,0$"
}

# Output.

@test "the table: a header, a row per strategy, aligned" {
	run -0 retry simulate --seed 1 --runs 5 --clients 20
	assert_equal "${#lines[@]}" 7
	assert_line --index 0 --regexp "^clients  strategy +time \(ms\) +calls$"
	for s in "${SIX[@]}"; do
		assert_line --regexp "^     20  $s +[0-9]+\.[0-9] +[0-9]+\.[0-9]$"
	done
	# plain is the table; table says so.
	local table=$output
	run -0 retry simulate --seed 1 --runs 5 --clients 20 --format plain
	assert_output "$table"
	run -0 retry simulate --seed 1 --runs 5 --clients 20 --format table
	assert_output "$table"
	# Each column lines up: every line is as long as the header.
	run -0 awk '{ print length($0) }' <<<"$table"
	assert_equal "$(sort -u <<<"$output" | wc -l)" 1
}

@test "--format json: valid, and the same numbers as csv" {
	run -0 retry simulate --seed 2 --runs 5 --clients 5,15 --format json
	jq empty <<<"$output"
	local json=$output
	run -0 retry simulate --seed 2 --runs 5 --clients 5,15 --format csv
	local csv=$output
	run -0 python3 -c '
import json, sys
for r in json.loads(sys.argv[1]):
    print("%d,%s,%d,%.15g,%.15g,%.15g" % (r["clients"], r["strategy"],
        r["runs"], r["time_ms"], r["calls"], r["gave_up"]))' "$json"
	assert_equal "clients,strategy,runs,time_ms,calls,gave_up"$'\n'"$output" \
	    "$csv"
}

@test "--chart: time then calls, a bar per strategy, as wide as COLUMNS" {
	COLUMNS=60 run -0 retry simulate --chart --seed 1 --runs 5 \
	    --clients 10,20
	assert_line --index 0 "Mean time until the last client is done"
	assert_line --index 1 "10 clients"
	assert_line --index 8 "20 clients"
	# (run leaves out the empty line between the two.)
	assert_line --index 15 "Mean write calls per run"
	assert_line --index 23 "20 clients"
	assert_equal "${#lines[@]}" 30
	assert_line --regexp "^  exponential +[0-9.]+m?s █+"
	run -0 widest_line
	assert_output 60
}

@test "--chart --ascii: bars of #" {
	COLUMNS=50 run -0 retry simulate --chart --ascii --seed 1 --runs 5 \
	    --clients 10 --jitter full
	assert_line --index 2 --regexp "^  exp\+full-jitter [0-9.]+m?s #+$"
	assert_line --index 5 --regexp "^  exp\+full-jitter [0-9.]+ #+$"
	run -0 widest_line
	assert_output 50
}

# Help and errors.

@test "--help: the model and the options of simulate, 125 for the rest" {
	run -0 retry simulate --help
	assert_line --index 0 "Usage: retry simulate [OPTION]..."
	assert_output --partial "--clients LIST"
	assert_output --partial "--runs N"
	refute_output --partial "--timeout"
	refute_output --partial "--count"
	run -0 retry --help
	assert_line --index 3 "       retry simulate [OPTION]..."
}

@test "bad option values exit 125, naming the option" {
	local bad
	for bad in "--clients 0" "--clients abc" "--clients 10-5" \
	    "--clients 10-100:0" "--clients 10,,20" "--clients 5:2" \
	    "--clients 10001" "--clients 1-2000" "--clients -5" \
	    "--clients 1.5" "--runs 0" "--runs x" "--runs 100001" \
	    "--format xml" "--jitter bogus" "--max -1" "--exp 1x" \
	    "--max-delay -1s" "--factor 0.5" "--seed -1"; do
		# shellcheck disable=SC2086  # the words are options
		run -125 retry simulate $bad
		assert_usage_error "${bad%% *}"
	done
	run -125 retry simulate --clients ''
	assert_usage_error --clients
}

@test "options that do not fit simulate exit 125" {
	local bad
	for bad in "--timeout 1s" "--count 3" "--budget 1s" "--samples 3" \
	    "--unit ms" "--dry-run" "--label x" "--stop-on 1" \
	    "--until 0" "--exp 1s --fixed 1s" "--chart --format csv" \
	    "--ascii"; do
		# shellcheck disable=SC2086  # the words are options
		run -125 retry simulate $bad
		assert_usage_error "--"
	done
	run -125 retry simulate --timeout 1s
	assert_line --index 0 "retry: --timeout: is not an option of retry simulate"
	run -125 retry simulate 100
	assert_usage_error "simulate takes no arguments: '100'"
}

@test "--failure-rate: the load model; the plain cases match their closed forms" {
	run -0 retry simulate --failure-rate 0.5,0.9 --runs 20 --format csv
	assert_line --index 0 "failure_rate,strategy,success,load,closed_success,closed_load"
	assert_equal "${#lines[@]}" 9
	local line p name success load cs cl
	for line in "${lines[@]:1}"; do
		IFS=, read -r p name success load cs cl <<<"$line"
		[ -n "$cs" ] || continue
		awk -v a="$success" -v b="$cs" -v c="$load" -v d="$cl" \
		    'BEGIN { exit !((a - b) ^ 2 < 1e-4 && (c - d) ^ 2 < 1e-4) }' ||
		    fail "$line: not within 0.01 of the closed forms"
	done
	assert_line --regexp '^0\.9,3 retries,0\.3[34][0-9]*,3\.4[34][0-9]*,0\.3439,3\.439$'
}

@test "--failure-rate: the shared budget and the breaker cut the load of 3 retries" {
	run -0 retry simulate --failure-rate 0.1,0.5,0.9,1 --runs 10 --format json
	local p
	for p in 0.5 0.9; do
		jq -e --argjson p "$p" '
		    [.[] | select(.failure_rate == $p)] as $r
		    | ($r[] | select(.strategy == "3 retries") | .load) as $all
		    | ($r[] | select(.strategy == "3 retries + budget") | .load) < $all - 0.5
		    and ($r[] | select(.strategy == "3 retries + budget") | .load) < 1.15' \
		    <<<"$output" >/dev/null || fail "the budget saves nothing at $p"
	done
	# Ordinary flakiness costs nothing: the budget's success is that of 3
	# retries; an outage: at most 1.1 calls a first try.
	jq -e '[.[] | select(.failure_rate == 0.1)]
	    | (map(select(.strategy == "3 retries"))[0].success)
	      - (map(select(.strategy == "3 retries + budget"))[0].success)
	    | fabs < 0.01' <<<"$output" >/dev/null ||
	    fail "the budget costs success at 0.1"
	jq -e '[.[] | select(.failure_rate == 1)]
	    | map(select(.strategy == "3 retries + budget"))[0].load <= 1.1' \
	    <<<"$output" >/dev/null || fail "the budget lets an outage through"
	jq -e '[.[] | select(.failure_rate == 0.9)]
	    | (map(select(.strategy == "3 retries + breaker"))[0].load)
	    < (map(select(.strategy == "3 retries"))[0].load) / 2' <<<"$output" >/dev/null
	run -0 retry simulate --failure-rate 0.5,0.9 --runs 2 --chart --ascii
	assert_line "Calls per first try (load)"
	assert_line "First tries that succeed"
	assert_line "failure rate 0.9"
}

@test "--failure-rate: bad lists exit 125" {
	local bad
	for bad in 2 -0.5 0.5-0.1:0.1 0.1-0.5 0.1-0.5:0 x "" 0.5,,0.9; do
		run -125 retry simulate --failure-rate "$bad"
		assert_usage_error --failure-rate
	done
	run -125 retry simulate --failure-rate 0.5 --clients 10,20
	assert_output --partial "one number of --clients"
}

@test "--hedge: the hedging model's table, worked out by hand" {
	run -0 retry simulate --hedge 100ms
	assert_equal "${#lines[@]}" 4
	assert_line --index 0 --regexp '^strategy +p50 +p99 +p99\.9 +calls$'
	# 95% of 20ms, 5% of 2s: the timeout ends in round k at k x 100ms +
	# 20ms; the hedge is slow in 0.05^2 of runs, more than 0.001.
	assert_line --index 1 --regexp '^none +20ms +2s +2s +1\.000$'
	assert_line --index 2 --regexp '^timeout 100ms +20ms +120ms +220ms +1\.053$'
	assert_line --index 3 --regexp '^hedge 100ms:2 +20ms +120ms +2s +1\.050$'
	run -0 retry simulate --hedge 100ms:3 --format csv
	assert_line --index 0 "strategy,delay_ms,in_flight,p50_ms,p99_ms,p99_9_ms,calls"
	assert_line --index 3 "hedge,100,3,20,120,220,1.0525"
}

@test "--latency: any list, hedged at its 95th percentile; json, and never" {
	run -0 retry simulate --latency 10ms,30ms --hedge 20ms --format json
	jq -e 'length == 3 and .[0].strategy == "none" and .[0].delay_ms == null
	    and (.[1] | .strategy == "timeout" and .p99_ms == 130 and .calls == 2)
	    and (.[2] | .p50_ms == 10 and .p99_ms == 30 and .calls == 1.5)' \
	    <<<"$output" >/dev/null || fail "not the model's numbers"
	run -0 retry simulate --latency 2s@5%,20ms
	assert_line --index 3 --regexp '^hedge 20ms:2 +20ms +40ms +2s +1\.050$'
	# A timeout below every latency: a run never ends.
	run -0 retry simulate --latency 1s --hedge 500ms --format json
	jq -e '.[1] | .p50_ms == null and .calls == null' <<<"$output" >/dev/null ||
	    fail "a run that never ends"
	run -0 retry simulate --latency 1s --hedge 500ms
	assert_line --index 2 --regexp '^timeout 500ms +never +never +never +Inf$'
}

@test "--latency and --hedge: bad values, and options of other models, exit 125" {
	local bad
	for bad in "" 20ms,2s@5 2s@0% 1s@50%,2s@40% 1s,1000ms 1s,,2s 0s x \
	    1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17; do
		run -125 retry simulate --latency "$bad"
		assert_usage_error --latency
	done
	for bad in 0 1s:1 1s:17 1s: :2 x; do
		run -125 retry simulate --hedge "$bad"
		assert_usage_error --hedge
	done
	for bad in "--clients 10" "--runs 10" "--failure-rate 0.5" "--chart" \
	    "--exp 1s" "--jitter full"; do
		# shellcheck disable=SC2086
		run -125 retry simulate --hedge 1s $bad
		assert_usage_error "${bad%% *}: has no part"
	done
}

# The learning model: --hedge auto.

@test "--hedge auto: no hedge, the best fixed one and auto on the same draws; the manual's example as printed" {
	run -0 retry simulate --hedge auto:4% --latency 20ms,1s@4% \
	    --latency-after 60ms,2s@4% --seed 3
	assert_equal "${#lines[@]}" 6
	assert_line --index 0 --regexp '^strategy +p50 +p99 +p99\.9 +calls$'
	assert_line --index 1 --regexp '^none +60ms +2s +2s +1\.000$'
	assert_line --index 2 --regexp '^hedge 60ms:2 +60ms +120ms '
	assert_line --index 3 --regexp '^auto:4% +60ms +12[0-9.]+ms '
	assert_line --index 4 --regexp "^auto:4%'s delay: 20\.972ms at run 1001 of 2000, 6[0-9.]+ms at the end\.$"
	assert_line --index 5 --regexp '^Within 20% of the new 96th percentile \(60ms\) after [0-9]+ runs\.$'
	local first=$output
	mandoc -Tascii "$ROOT/man/retry-simulate.1" | col -bx |
	    sed -n '/--latency-after 60ms,2s@4% --seed 3$/,/after [0-9]* runs\.$/p' |
	    sed '1d; s/^ *//; s/  */ /g' >"$BATS_TEST_TMPDIR/manual"
	assert_equal "$(sed 's/  */ /g' <<<"$first")" \
	    "$(cat "$BATS_TEST_TMPDIR/manual")"
	# The same seed, the same runs.
	run -0 retry simulate --hedge auto:4% --latency 20ms,1s@4% \
	    --latency-after 60ms,2s@4% --seed 3
	assert_equal "$output" "$first"
}

@test "--hedge auto: csv and json, with what was learned" {
	run -0 retry simulate --hedge auto --seed 1 --runs 500 --format csv
	assert_line --index 0 'strategy,delay_ms,in_flight,p50_ms,p99_ms,p99_9_ms,calls'
	assert_line --index 1 --regexp '^none,,1,20,'
	assert_line --index 3 --regexp '^auto,[0-9.]+,2,20,'
	assert_equal "${#lines[@]}" 4
	run -0 retry simulate --hedge auto --seed 1 --runs 500 --format json
	run -0 jq -r '.[2] | [.strategy, .load, (.delay_at_shift_ms > 20),
	    (.calls <= 1.06)] | @tsv' <<<"$output"
	assert_output $'auto\t0.05\ttrue\ttrue'
	# Down from 2s to 20ms, the old runs weigh for about 200 more.
	run -0 retry simulate --hedge auto --seed 1 --runs 200 --format json \
	    --latency 2s --latency-after 20ms
	run -0 jq -r '.[2].settled_runs' <<<"$output"
	assert_output null
}

@test "--hedge auto: bad values and other models' options exit 125; a run refuses it" {
	local bad
	for bad in auto: auto:0 auto:0% auto:5 auto:51% auto:x auto:5%% auto:1e1 autox; do
		run -125 retry simulate --hedge "$bad"
		assert_usage_error --hedge
	done
	for bad in "--clients 10" "--failure-rate 0.5" "--chart" "--exp 1s" \
	    "--jitter full"; do
		# shellcheck disable=SC2086
		run -125 retry simulate --hedge auto $bad
		assert_usage_error "${bad%% *}: has no part"
	done
	run -125 retry simulate --hedge auto --runs 1
	assert_usage_error "--runs: must be 2 or more with --hedge auto"
	run -125 retry simulate --latency-after 1s
	assert_usage_error "--latency-after: needs --hedge auto"
	run -125 retry simulate --hedge 1s --latency-after 1s
	assert_usage_error "--latency-after: needs --hedge auto"
	run -125 retry --hedge auto --stdin null -- true
	assert_usage_error "--hedge: auto: a delay learned run by run is retry simulate's model"
}

# Progress: at a terminal only.

teardown() {
	tmux_end
}

@test "progress never appears on a pipe or in a file" {
	run -0 --separate-stderr retry simulate --clients 400 --runs 20 --seed 1
	assert_equal "$stderr" ""
	refute_output --partial $'\r'
	refute_output --partial 'done'
}

@test "at a terminal: a long simulation says how long up front, shows its progress, and clears it" {
	pane_start
	# Long enough to be said (minutes): stopped once its progress shows.
	type_line "$RETRY simulate --clients 5000 --runs 100 >'$D/out'"
	wait_recorded "$D/pane" 'retry simulate: this will take about [0-9.]+(m|h|s)' 60
	wait_recorded "$D/pane" 'retry simulate: [0-9]+% done, about [0-9].* left' 60
	tmux -S "$SOCK" send-keys C-c
	# The marker as typed is not the marker as printed.
	type_line "echo inter''rupted"
	wait_recorded "$D/pane" 'interrupted' 60
	# A short one draws its line and clears it: the screen keeps the
	# table and nothing of the line.  (Whether an estimate is said
	# depends on how fast the machine simulates: not asked here.)
	: >"$D/pane"
	type_line "$RETRY simulate --clients 400 --runs 40 --seed 1; echo fini''shed"
	wait_recorded "$D/pane" 'finished' 60
	grep -q '% done' "$D/pane"
	run -0 bash -c 'tmux -S "$1" capture-pane -p | sed -n "/--clients 400/,\$p"' \
	    sh "$SOCK"
	assert_output --partial '    400  decorrelated'
	refute_output --partial '% done'
}

@test "in the background, a simulation draws no progress over the shell" {
	pane_start
	type_line "$RETRY simulate --clients 400 --runs 40 --seed 1 >/dev/null & wait; echo fini''shed"
	wait_recorded "$D/pane" 'finished' 60
	run -1 grep -q '% done' "$D/pane"
}
