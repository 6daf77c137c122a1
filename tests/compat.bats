#!/usr/bin/env bats
# retry-compat.7: a subsection for each tool whose command lines
# and habits users bring, and every command line that it gives for a
# tool's way run here, to do what its row says.  The peers' own behaviour
# is as their sources have it (Debian's retry is tested in debian.bats);
# coreutils' timeout is run beside retry where the row compares them.
# Single quotes keep $RETRY_ATTEMPT for the command; run sets $stderr.
# shellcheck disable=SC2016,SC2154
bats_require_minimum_version 1.5.0
load test_helper/common

# The subsections, in the manual's order.
PEERS=("Debian's retry" "coreutils timeout" recur joshdk/retry
    kadwanev/retry nick-fields/retry tenacity cenkalti/backoff
    Algorithm::Backoff)

# Every command line the section gives, each run by a test below.
LINES=(
	"retry -t -1 -d 10 --stdin replay --hold stdout -- cmd"
	"retry --max 1 -q -k 365d --timeout 10 -- cmd"
	"retry --max 10 --immediate -- cmd"
	"retry --max 5 --exp 3s --factor 3 --max-delay 1m -- cmd"
	"retry --max 10 --immediate -- sh -c 'exec cmd'"
	"retry --max 3 --fixed 5s --budget 1m --timeout 1m -- cmd"
	"retry --max 3 --fixed 5s --success-on 1-255 -- cmd"
	"retry --max 11 --exp 300ms --max-delay 1m --stop-on 127 -- cmd"
	"retry --max 3 --fixed 10s --timeout 10m -- bash -c 'cmd'"
	"retry --max 0 --immediate -- cmd"
	"retry --max 0 --exp 1s --min-delay 4s --max-delay 10s -- cmd"
	"retry --max 0 --exp 500ms -j full --max-delay 1m -- cmd"
	"retry --max 0 --exp 1s -j add:1s --max-delay 1m -- cmd"
	"retry -x 500ms --factor 1.5 -j scattered:0.5 -M 1m -b 15m -- cmd"
	"retry --delays 2s,1s -j scattered:0.5 -b 15m -- cmd"
	"retry -a Exponential --initial-delay 1 --max 0 -- cmd"
)

PAGE=$ROOT/man/retry-compat.7

# The page's DESCRIPTION, which holds the subsections, from its .Sh to
# the next one.
section() {
	sed -n '/^\.Sh DESCRIPTION$/,/^\.Sh /p' "$PAGE" | sed '$d'
}

# The command lines the section gives (.Dl or .Ql), one a line.
given_lines() {
	section | sed -n -E 's/^\.(Dl|Ql) (retry .* -- .*cmd.*)$/\2/p'
}

# run_theirs LINE [OPTION...] -- COMMAND...: runs LINE as the manual gives
# it, with the OPTIONs after its own (the last of an option wins) and
# COMMAND for its cmd (within a word, COMMAND's words joined by spaces).
# Standard output and standard error apart, as $output and $stderr.  A
# first argument -N expects status N, as run's.
run_theirs() {
	local expect=() w seen=0
	case $1 in -[0-9]*) expect=("$1"); shift ;; esac
	local line=$1
	local -a extra=() fixture=() words=() args=()
	shift
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		extra+=("$1")
		shift
	done
	shift
	fixture=("$@")
	given_lines | grep -qxF -- "$line" ||
	    fail "retry-compat.7 does not give: $line"
	eval "words=($line)"
	for w in "${words[@]:1}"; do
		if [ "$seen" = 0 ] && [ "$w" = -- ]; then
			args+=("${extra[@]}" --)
			seen=1
		elif [ "$seen" = 1 ] && [ "$w" = cmd ]; then
			args+=("${fixture[@]}")
		elif [ "$seen" = 1 ]; then
			args+=("${w//cmd/${fixture[*]}}")
		else
			args+=("$w")
		fi
	done
	run "${expect[@]}" --separate-stderr retry "${args[@]}"
}

# The delays of a --dry-run's schedule in $output, in ms, one a line.
dry_delays() {
	awk 'function ms(d,   t, n, u, tok) {
		t = 0
		while (match(d, /^[0-9.]+(ns|us|ms|s|m|h|d)/)) {
			tok = substr(d, 1, RLENGTH)
			d = substr(d, RLENGTH + 1)
			n = tok + 0
			u = tok
			sub(/^[0-9.]+/, "", u)
			t += n * (u == "ns" ? 1e-6 : u == "us" ? 1e-3 : \
			    u == "ms" ? 1 : u == "s" ? 1e3 : u == "m" ? 6e4 : \
			    u == "h" ? 3.6e6 : 8.64e7)
		}
		return t
	}
	$1 ~ /^[0-9]+$/ && $2 != "-" { printf "%.3f\n", ms($2) }' <<<"$output"
}

# The number of attempts a --dry-run's schedule in $output shows.
dry_attempts() {
	grep -cE '^[0-9]+ ' <<<"$output"
}

@test "retry-compat.7 has a subsection for each peer in order, and retry.1 points to it" {
	local -a got
	mapfile -t got < <(section | sed -n 's/^\.Ss //p')
	[ ${#got[@]} -gt 0 ] || fail "retry-compat.7 has no subsections"
	assert_equal "${got[*]}" "${PEERS[*]}"
	# Each subsection gives a command line for the peer's way.
	local peer
	for peer in "${PEERS[@]}"; do
		section | awk -v peer="$peer" '/^\.Ss / { on = ($0 == ".Ss " peer) }
		    on && /^\.(Dl|Ql) retry .* -- / { n++ } END { exit !n }' ||
		    fail "$peer gives no command line"
	done
	sed -n '/^\.Sh COMPATIBILITY$/,/^\.Sh /p' "$ROOT/man/retry.1" |
	    grep -qx '\.Xr retry-compat 7 \.' ||
	    fail "retry.1's COMPATIBILITY does not point to retry-compat(7)"
	command -v mandoc >/dev/null || return 0
	run -0 bash -c 'mandoc -Tascii "$1" | col -bx' sh "$PAGE"
	assert_line "DESCRIPTION"
	assert_line "   Debian's retry"
	refute_output --partial "COMING FROM"
}

@test "every command line COMPATIBILITY gives is one this file runs" {
	local given want
	given=$(given_lines | sort)
	want=$(printf '%s\n' "${LINES[@]}" | sort)
	[ -n "$given" ] || fail "retry-compat.7 gives no command line"
	assert_equal "$given" "$want"
}

@test "every command line COMPATIBILITY displays fits in 80 columns" {
	command -v mandoc >/dev/null || skip "mandoc is not installed"
	local -a shown
	mapfile -t shown < <(section | sed -n 's/^\.Dl //p')
	[ ${#shown[@]} -gt 10 ] || fail "too few displays: ${#shown[@]}"
	run -0 bash -c 'mandoc -Tascii "$1" | col -bx' sh "$PAGE"
	local line
	for line in "${shown[@]}"; do
		assert_line --regexp "^ +${line//[.*+?()|\[\]\\^\$]/.}\$"
	done
}

@test "compat: Debian's retry: forever, 10s apart, stdin replayed, stdout held" {
	local line="retry -t -1 -d 10 --stdin replay --hold stdout -- cmd"
	run_theirs "$line" --dry-run --count 12 -- cmd
	assert_success
	assert_equal "$(dry_attempts)" 12
	assert_equal "$(dry_delays | sort -u)" "10000.000"
	assert_output --partial "goes on past attempt 12"
	run_theirs "$line" -d 0 -- sh -c 'cat; flaky 2' < <(printf 'in\n')
	assert_success
	assert_equal "$output" "$(printf 'in\nrun 3')"
	assert_equal "$(grep -c '^in$' <<<"$stderr")" 2
	# Debian's own, where it is installed, with no option but -d 0.
	local debian=${DEBIAN_RETRY:-/usr/bin/retry}
	[ -x "$debian" ] && "$debian" --help 2>&1 | grep -q 'Graham Leggett' ||
	    return 0
	rm -f "$BATS_TEST_TMPDIR/flaky.count"
	run -0 --separate-stderr timeout 60 "$debian" -d 0 -- \
	    sh -c 'cat; flaky 2' < <(printf 'in\n')
	assert_equal "$output" "$(printf 'in\nrun 3')"
	assert_equal "$(grep -c '^in$' <<<"$stderr")" 2
}

@test "compat: timeout: once, quiet, no SIGKILL within seconds, as timeout" {
	local line="retry --max 1 -q -k 365d --timeout 10 -- cmd"
	local d=$BATS_TEST_TMPDIR rc=0
	# A command that ignores SIGTERM outlives retry's default
	# --kill-after (5s), as it outlives coreutils' timeout without -k.
	local script='trap "" TERM; sleep 6; echo survived; exit 3'
	timeout 60 timeout 0.1 sh -c "$script" >"$d/theirs" 2>&1 3>&- &
	local pid=$!
	run_theirs "$line" --timeout 100ms -- sh -c "$script"
	wait "$pid" || rc=$?
	assert_equal "$status" 124
	assert_equal "$output" survived
	assert_equal "$stderr" ""
	assert_equal "$rc" 124
	assert_equal "$(cat "$d/theirs")" survived
	run_theirs "$line" --dry-run -- cmd
	assert_equal "$(dry_attempts)" 1
}

@test "compat: timeout: 124 after SIGKILL, where timeout -k exits 137" {
	local line="retry --max 1 -q -k 365d --timeout 10 -- cmd"
	local script='trap "" TERM; sleep 30'
	run_theirs "$line" --timeout 100ms -k 100ms -- sh -c "$script"
	assert_equal "$status" 124
	run timeout 60 timeout -k 0.1 0.1 sh -c "$script"
	assert_equal "$status" 137
}

@test "compat: recur: 10 attempts at once, RETRY_ATTEMPT from 1 as RECUR_ATTEMPT" {
	run_theirs "retry --max 10 --immediate -- cmd" --dry-run -- cmd
	assert_equal "$(dry_attempts)" 10
	assert_equal "$(dry_delays | sort -u)" "0.000"
	run_theirs "retry --max 10 --immediate -- cmd" -- \
	    sh -c 'echo "$RETRY_ATTEMPT"; exit 4'
	assert_equal "$status" 4
	assert_equal "$output" "$(seq 1 10)"
}

@test "compat: recur: -a 5 -b 3s -m 1m waits 3s, 9s, 27s, then 1m" {
	run_theirs "retry --max 5 --exp 3s --factor 3 --max-delay 1m -- cmd" \
	    --dry-run -- cmd
	assert_success
	assert_equal "$(dry_delays | tr '\n' ' ')" \
	    "3000.000 9000.000 27000.000 60000.000 "
	assert_equal "$(dry_attempts)" 5
}

@test "compat: recur: a command not found ends the run; through sh it is retried" {
	run_theirs -127 "retry --max 10 --immediate -- cmd" -- no-such-command-here
	assert_equal "$(grep -c 'not found' <<<"$stderr")" 1
	run_theirs -127 "retry --max 10 --immediate -- sh -c 'exec cmd'" -- \
	    no-such-command-here
	assert_equal "$(grep -c 'exec: no-such-command-here: not found' \
	    <<<"$stderr")" 10
}

@test "compat: joshdk/retry: 3 attempts 5s apart, a running one ended by the budget" {
	local line="retry --max 3 --fixed 5s --budget 1m --timeout 1m -- cmd"
	run_theirs "$line" --dry-run -- cmd
	assert_success
	assert_equal "$(dry_delays | tr '\n' ' ')" "5000.000 5000.000 "
	assert_equal "$(dry_attempts)" 3
	# The budget's end ends the attempt that runs past it.
	local t0
	t0=$(now_ms)
	run_theirs "$line" --budget 500ms -- sleep 30
	assert_equal "$status" 124
	[ $(($(now_ms) - t0)) -lt 20000 ] || fail "the attempt outlived the budget"
}

@test "compat: joshdk/retry: -invert: exit 0 at the first failure, 1 if none" {
	local line="retry --max 3 --fixed 5s --success-on 1-255 -- cmd"
	local f=$BATS_TEST_TMPDIR/runs
	run_theirs "$line" --max-delay 0 -- statuses "$f" 0 0 2
	assert_equal "$status" 0
	assert_equal "$(wc -l <"$f")" 3
	rm -f "$f"
	run_theirs "$line" --max-delay 0 -- statuses "$f" 0
	assert_equal "$status" 1
	assert_equal "$(wc -l <"$f")" 3
}

@test "compat: joshdk/retry: its one-dash -attempts=3 is refused" {
	section | grep -qxF -- ".Ql -attempts=3" ||
	    fail "retry-compat.7 does not say so"
	section | grep -qxF -- ".Ql -a ttempts=3" ||
	    fail "retry-compat.7 does not say so"
	run retry -attempts=3 true
	assert_usage_error "ttempts=3"
}

@test "compat: kadwanev/retry: 11 attempts, 0.3s doubling up to 1m" {
	run_theirs "retry --max 11 --exp 300ms --max-delay 1m --stop-on 127 -- cmd" \
	    --dry-run --count 20 -- cmd
	assert_success
	assert_equal "$(dry_delays | tr '\n' ' ')" "300.000 600.000 1200.000 \
2400.000 4800.000 9600.000 19200.000 38400.000 60000.000 60000.000 "
	assert_equal "$(dry_attempts)" 11
}

@test "compat: kadwanev/retry: RETRY_ATTEMPT - 1 counts from 0; any 127 stops" {
	local line="retry --max 11 --exp 300ms --max-delay 1m --stop-on 127 -- cmd"
	run_theirs "$line" --max-delay 0 -- \
	    sh -c 'echo "$((RETRY_ATTEMPT - 1))"; exit 1'
	assert_equal "$status" 1
	assert_equal "$output" "$(seq 0 10)"
	run_theirs -127 "$line" --max-delay 0 -- sh -c 'echo run; exit 127'
	assert_equal "$output" run
	# Without --stop-on 127, a shell's 127 is retried.
	run -127 --separate-stderr retry --max 3 --immediate -- \
	    sh -c 'echo run; exit 127'
	assert_equal "$output" "$(printf 'run\nrun\nrun')"
}

@test "compat: nick-fields/retry: 3 attempts 10s apart, none after the last" {
	run_theirs "retry --max 3 --fixed 10s --timeout 10m -- bash -c 'cmd'" \
	    --dry-run -- cmd
	assert_success
	assert_equal "$(dry_delays | tr '\n' ' ')" "10000.000 10000.000 "
	assert_equal "$(dry_attempts)" 3
	refute_output --partial "goes on"
}

@test "compat: nick-fields/retry: through bash, a command not found is retried" {
	run_theirs -127 "retry --max 3 --fixed 10s --timeout 10m -- bash -c 'cmd'" \
	    --max-delay 0 -- no-such-command-here
	assert_equal "$(grep -c 'no-such-command-here: command not found' \
	    <<<"$stderr")" 3
}

@test "compat: tenacity: by default, forever and at once" {
	local line="retry --max 0 --immediate -- cmd"
	run_theirs "$line" --dry-run --count 20 -- cmd
	assert_equal "$(dry_attempts)" 20
	assert_equal "$(dry_delays | sort -u)" "0.000"
	assert_output --partial "goes on past attempt 20"
	run_theirs "$line" -- flaky 7
	assert_success
	assert_equal "$(tail -n 1 <<<"$output")" "run 8"
}

@test "compat: tenacity: wait_exponential(multiplier=1, min=4, max=10)" {
	run_theirs "retry --max 0 --exp 1s --min-delay 4s --max-delay 10s -- cmd" \
	    --dry-run --count 7 -- cmd
	assert_equal "$(dry_delays | tr '\n' ' ')" \
	    "4000.000 4000.000 4000.000 8000.000 10000.000 10000.000 "
}

@test "compat: tenacity: wait_random_exponential(multiplier=0.5, max=60)" {
	local line="retry --max 0 --exp 500ms -j full --max-delay 1m -- cmd"
	local seed bad
	for seed in 1 2 3 4 5; do
		run_theirs "$line" --dry-run --count 16 --seed "$seed" -- cmd
		assert_success
		# Delay n is uniform in [0, min(0.5 x 2^(n-1), 60)] seconds.
		bad=$(dry_delays | awk '{ h = 500 * 2 ^ (NR - 1)
		    if (h > 60000) h = 60000
		    if ($1 < 0 || $1 > h) print NR ": " $1 " > " h }')
		assert_equal "$bad" ""
	done
	# Jitter, then the floor: with a min, some delays are the min itself,
	# where tenacity draws between the min and the delay.
	run_theirs "$line" --dry-run --count 30 --seed 1 \
	    --min-delay 1s --max-delay 2s -- cmd
	assert [ "$(dry_delays | sed 1,2d | grep -c '^1000\.000$')" -gt 0 ]
}

@test "compat: tenacity: wait_exponential_jitter(max=60)" {
	local line="retry --max 0 --exp 1s -j add:1s --max-delay 1m -- cmd"
	local seed bad
	for seed in 1 2 3 4 5; do
		run_theirs "$line" --dry-run --count 12 --seed "$seed" -- cmd
		assert_success
		# max(0, min(2^(n-1) + uniform(0, 1), 60)) seconds.
		bad=$(dry_delays | awk '{ lo = 1000 * 2 ^ (NR - 1); hi = lo + 1000
		    if (lo > 60000) lo = 60000
		    if (hi > 60000) hi = 60000
		    if ($1 < lo || $1 > hi) print NR ": " $1 " not in " lo "-" hi }')
		assert_equal "$bad" ""
	done
}

@test "compat: cenkalti/backoff: its defaults, the cap held after the jitter" {
	local line="retry -x 500ms --factor 1.5 -j scattered:0.5 -M 1m -b 15m -- cmd"
	local seed bad
	for seed in 1 2 3; do
		run_theirs "$line" --dry-run --count 60 --seed "$seed" -- cmd
		assert_success
		assert_output --partial "past the 15m budget"
		# Within half of 0.5 x 1.5^(n-1) seconds, capped at 60 after it.
		bad=$(dry_delays | awk '{ d = 500 * 1.5 ^ (NR - 1)
		    if (d > 60000) d = 60000
		    hi = 1.5 * d
		    if (hi > 60000) hi = 60000
		    if ($1 < 0.5 * d - 0.001 || $1 > hi + 0.001)
			print NR ": " $1 " for " d }')
		assert_equal "$bad" ""
	done
}

@test "compat: cenkalti/backoff: a first delay above the cap, as theirs" {
	local seed bad
	for seed in 1 2 3; do
		run_theirs "retry --delays 2s,1s -j scattered:0.5 -b 15m -- cmd" \
		    --dry-run --count 10 --seed "$seed" -- cmd
		assert_success
		bad=$(dry_delays | awk 'NR == 1 && ($1 < 1000 || $1 > 3000) ||
		    NR > 1 && ($1 < 500 || $1 > 1500) { print NR ": " $1 }')
		assert_equal "$bad" ""
	done
	# Here --max-delay caps the first delay too.
	run retry --dry-run --exp 2s --max-delay 1s -- cmd
	assert_equal "$(dry_delays | sort -u)" "1000.000"
}

@test "compat: Algorithm::Backoff: -a with --max 0 has no limit and no cap" {
	run_theirs "retry -a Exponential --initial-delay 1 --max 0 -- cmd" \
	    --dry-run --count 12 -- cmd
	assert_equal "$(dry_attempts)" 12
	assert_equal "$(dry_delays | tail -n 1)" "1024000.000"
	assert_output --partial "goes on past attempt 12"
	# Without it, 5 attempts here; show-backoff-delays has no limit.
	run retry --dry-run -a Exponential --initial-delay 1 -- cmd
	assert_equal "$(dry_attempts)" 5
	run -0 show -a Exponential --initial-delay 1 --count 12
	assert_equal "${#lines[@]}" 12
	assert_line --index 10 1024
}
