#!/usr/bin/env bats
# Every jitter mode: exact values for a seed (each checked by hand to lie
# within its mode's bounds before it was pinned), reproducibility, and the
# bounds over many seeds and steps, under --max-delay.
bats_require_minimum_version 1.5.0
load test_helper/common
load test_helper/core

# Six delays of --fixed 1s with jitter MODE and seed 42.
jittered() {
	run -0 show --fixed 1s -n 0 --count 6 --seed 42 --jitter "$1"
}

# --exp 100ms capped at 1s: d = min(0.1 x 2^(n-1), 1), twelve steps, 240
# runs (--samples, one process); at each step the least and the greatest
# delay must lie in [lo, hi] (awk, in terms of d) and never above the cap.
CAPPED='(0.1 * 2 ^ (n - 1) < 1 ? 0.1 * 2 ^ (n - 1) : 1)'
assert_mode_bounds() {
	local mode=$1 lo=$2 hi=$3 why
	run -0 show --exp 100ms --max-delay 1s -n 0 --count 12 --seed 1 \
	    --samples 240 --format csv --jitter "$mode"
	assert_equal "${#lines[@]}" 13
	why=$(awk -F, -v fail=0 "
		NR > 1 { n = \$1; d = $CAPPED; lo = $lo; hi = $hi
		  if (hi > 1) hi = 1
		  if (\$2 != 240 || \$3 + 0 < lo - 1e-9 || \$6 + 0 > hi + 1e-9) {
			printf \"step %d: [%s, %s] of %s runs not in [%.9f, %.9f]\\n\",
			    n, \$3, \$6, \$2, lo, hi
			fail = 1 } }
		END { exit fail }
	" <<<"$output") || fail "$why"
}

@test "jitter none: the delay itself" {
	jittered none
	assert_lines 1 1 1 1 1 1
}

@test "jitter full: pinned values for seed 42, each in [0, d]" {
	jittered full
	assert_lines 0.85555998 0.973591417 0.70397226 0.124550101 \
	    0.769764517 0.866563769
}

@test "jitter equal: pinned values for seed 42, each in [d/2, d]" {
	jittered equal
	assert_lines 0.80856122 0.982639745 0.659385535 0.566976043 \
	    0.974211594 0.667376981
}

@test "jitter half is equal" {
	jittered equal
	local equal=$output
	jittered half
	assert_equal "$output" "$equal"
}

@test "jitter scattered: R 0.5 by default, each in [d/2, 3d/2]" {
	jittered scattered
	assert_lines 1.35555998 1.473591417 1.20397226 0.624550101 \
	    1.269764517 1.366563769
}

@test "jitter scattered:0.1: each in [0.9d, 1.1d]" {
	jittered scattered:0.1
	assert_lines 0.967564959 0.909784812 1.025625512 0.994254074 \
	    1.087553044 0.969816789
}

@test "jitter down: R 0.2 by default, each in [0.8d, d]" {
	jittered down
	assert_lines 0.867564959 0.809784812 0.925625512 0.894254074 \
	    0.987553044 0.869816789
}

@test "jitter down:0.5: each in [d/2, d]" {
	jittered down:0.5
	assert_lines 0.80856122 0.982639745 0.659385535 0.566976043 \
	    0.974211594 0.667376981
}

@test "jitter add:500ms: each in [d, d + 0.5s]" {
	jittered add:500ms
	assert_lines 1.30856122 1.482639745 1.159385535 1.066976043 \
	    1.474211594 1.167376981
}

@test "jitter: a bare duration is add:DUR, as Debian's retry's -j" {
	jittered add:500ms
	local added=$output
	jittered 500ms
	assert_output "$added"
	run -0 show --fixed 1s -n 0 --count 6 --seed 42 -j 2
	refute_output "$(show --fixed 1s -n 0 --count 6 --seed 42)"
}

@test "jitter: the same seed twice gives the same delays, in every mode" {
	local mode first
	for mode in full equal scattered scattered:0.3 down down:0.7 add:1s; do
		run -0 show --exp 100ms -n 0 --count 20 --seed 1234 \
		    --jitter "$mode"
		first=$output
		run -0 show --exp 100ms -n 0 --count 20 --seed 1234 \
		    --jitter "$mode"
		assert_equal "$output" "$first"
		run -0 show --exp 100ms -n 0 --count 20 --seed 1235 \
		    --jitter "$mode"
		refute_output "$first"
	done
}

@test "jitter: without --seed, two runs differ" {
	run -0 show --fixed 1s -n 0 --count 8 --jitter full
	local first=$output
	run -0 show --fixed 1s -n 0 --count 8 --jitter full
	refute_output "$first"
}

@test "jitter full stays in [0, d] and under --max-delay" {
	assert_mode_bounds full 0 d
}

@test "jitter equal stays in [d/2, d] and under --max-delay" {
	assert_mode_bounds equal 'd / 2' d
}

@test "jitter scattered stays in [d/2, 3d/2] and under --max-delay" {
	assert_mode_bounds scattered 'd * 0.5' 'd * 1.5'
}

@test "jitter scattered:0.25 stays in [0.75d, 1.25d] and under --max-delay" {
	assert_mode_bounds scattered:0.25 'd * 0.75' 'd * 1.25'
}

@test "jitter down stays in [0.8d, d] and under --max-delay" {
	assert_mode_bounds down 'd * 0.8' d
}

@test "jitter down:0.5 stays in [d/2, d] and under --max-delay" {
	assert_mode_bounds down:0.5 'd * 0.5' d
}

@test "jitter add:300ms stays in [d, d + 0.3] and under --max-delay" {
	assert_mode_bounds add:300ms d 'd + 0.3'
}

@test "jitter: --max-delay is a hard ceiling, reached when jitter goes above" {
	run -0 show --fixed 1s --max-delay 1s -n 0 --count 50 --seed 5 \
	    --jitter scattered
	assert_delays_within 1 0.5 1
	assert_line 1
	run -0 show --fixed 1s --max-delay 1s -n 0 --count 50 --seed 5 \
	    --jitter add:1s
	assert_lines $(yes 1 | head -n 50)
}

@test "jitter: --min-delay is a floor after the jitter" {
	run -0 show --fixed 1s --min-delay 900ms -n 0 --count 100 --seed 3 \
	    --jitter full
	assert_delays_within 1 0.9 1
	assert_line 0.9
}

@test "jitter: --dry-run uses the seeded jitter too" {
	run -0 retry --dry-run --fixed 1s --jitter add:500ms --seed 42 -n 3
	assert_lines \
	    "attempt  delay      starts at" \
	    "1        -          0s" \
	    "2        1.309s     1.309s" \
	    "3        1.483s     2.791s"
}
