#!/usr/bin/env bats
# The numbers show-backoff-delays prints go through number_format
# (src/number.c), which writes short decimals itself and leaves the rest to
# snprintf.  It must print exactly what printf("%.15g") prints: here over
# many generated values, against Python's '%.15g' (C's %g) where the exact
# doubles are known, and against Perl's printf('%.15g') of what
# Algorithm::Backoff computes where they are not.
bats_require_minimum_version 1.5.0
load test_helper/common
load test_helper/show

# Writes, for a seed, a --delays LIST of assorted durations in nanoseconds
# to $1/list, and what %.15g prints for each in seconds and milliseconds
# (as show-backoff-delays computes them: ns / 1e9, then x 1000) to $1/s and
# $1/ms.  Integers, short and long decimals, every decade from 1 ns to 365
# days (exponent forms below 1e-4), and the edges of the fixed form.
number_cases() {
	python3 - "$1" "$2" <<'EOF'
import random, sys

out, seed = sys.argv[1], int(sys.argv[2])
rnd = random.Random(seed)
top = 365 * 86400 * 10**9
ns = [1, 9, 10, 99999, 100000, 100001, 999999, 10**9, 10**9 + 1,
      999999999999999, 10**15, 10**15 + 1, 2**53 - 1, 2**53, 2**53 + 1, top,
      top - 1, 123456789012345, 1234567890123456, 333333333, 500000000]
for _ in range(1500):
    digits = rnd.randint(1, 17)
    v = rnd.randrange(10**(digits - 1), 10**digits)
    if rnd.random() < 0.5:
        # Fewer significant digits: trailing zeros.
        z = rnd.randint(0, digits - 1)
        v = v // 10**z * 10**z or 1
    ns.append(min(v, top))
with open(out + "/list", "w") as f:
    f.write(",".join("%dns" % n for n in ns))
with open(out + "/s", "w") as f:
    f.writelines("%.15g\n" % (n / 1e9) for n in ns)
with open(out + "/ms", "w") as f:
    f.writelines("%.15g\n" % (n / 1e9 * 1000) for n in ns)
print(len(ns))
EOF
}

@test "durations from 1 ns to 365 days print as %.15g, in s and in ms" {
	local d=$BATS_TEST_TMPDIR n
	for seed in 1 2 3 4; do
		n=$(number_cases "$d" "$seed")
		run -0 show --delays "$(cat "$d/list")" --max 0 --count "$n"
		assert_equal "$output" "$(cat "$d/s")"
		run -0 show --delays "$(cat "$d/list")" --max 0 --count "$n" \
		    --unit ms
		assert_equal "$output" "$(cat "$d/ms")"
	done
}

# Checks jittered delays, whose doubles are not known here: for each pair
# of files, every number in the first (seconds) is a whole number N of
# nanoseconds, N / 1e9 prints as it, and the line of the second (the same
# run in ms) is (N / 1e9) x 1000 printed with %.15g.  Prints the count.
check_jittered() {
	python3 - "$@" <<'EOF'
import sys
from decimal import Decimal

args = sys.argv[1:]
n = 0
for f_s, f_ms in zip(args[0::2], args[1::2]):
    s = open(f_s).read().split()
    ms = open(f_ms).read().split()
    assert len(s) == len(ms) and len(s) > 0, (f_s, len(s), len(ms))
    for a, b in zip(s, ms):
        v = Decimal(a) * 10**9
        assert v == v.to_integral_value(), a
        v = int(v) / 1e9
        assert "%.15g" % v == a, (a, "%.15g" % v)
        assert "%.15g" % (v * 1000) == b, (a, b, "%.15g" % (v * 1000))
    n += len(s)
print(n)
EOF
}

@test "jittered delays, in s and ms, agree with %.15g of their nanoseconds" {
	local d=$BATS_TEST_TMPDIR j files=()
	for j in full equal scattered down:0.3 add:1ms; do
		for seed in 1 7 42; do
			show --exp 1ms --factor 1.7 --jitter "$j" --seed "$seed" \
			    --max 0 --count 60 --max-delay 1d >"$d/$j.$seed.s"
			show --exp 1ms --factor 1.7 --jitter "$j" --seed "$seed" \
			    --max 0 --count 60 --max-delay 1d --unit ms \
			    >"$d/$j.$seed.ms"
			files+=("$d/$j.$seed.s" "$d/$j.$seed.ms")
		done
	done
	run -0 check_jittered "${files[@]}"
	assert_output 900
}

@test "--jitter-factor delays are fixed points of %.15g" {
	local seed all=()
	for seed in 1 2 3 4 5; do
		run -0 show -a MIMD --initial-delay 0.001 \
		    --delay-multiple-on-failure 1.3 --delay-multiple-on-success 0.7 \
		    --jitter-factor 0.5 --seed "$seed" 0 0 0 0 0 0 0 0 0 0 1 1 1 \
		    1 1 0 0 0 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1
		all+=("${lines[@]}")
	done
	run -0 python3 -c '
import sys
for a in sys.argv[1:]:
    assert "%.15g" % float(a) == a, a
print(len(sys.argv) - 1)
' "${all[@]}"
	assert_output 165
}

# Perl: cases of the multiplicative and linear algorithms with assorted
# factors, many steps, in s or ms, and their delays as Algorithm::Backoff
# computes them, printed with printf('%.15g'): one case a line,
#	OPTIONS<TAB>STATUSES<TAB>DELAYS
# Long runs of successes take MIMD and LIMD to tiny delays (exponent
# forms); --max-delay keeps every delay far below 2^53, where Perl's
# integer arithmetic would part from doubles.
perl_cases() {
	perl - "$@" <<'EOF'
use strict;
use warnings;

use Algorithm::Backoff::LIMD;
use Algorithm::Backoff::MILD;
use Algorithm::Backoff::MIMD;

my ($count, $state) = @ARGV;

sub rnd {
	my ($n) = @_;
	$state = ($state * 1103515245 + 12345) % 2147483648;
	return int($state / 65536) % $n;
}

sub pick { return $_[rnd(scalar @_)] }

my %params = (
	LIMD	=> [qw(delay_increment_on_failure delay_multiple_on_success)],
	MILD	=> [qw(delay_multiple_on_failure delay_increment_on_success)],
	MIMD	=> [qw(delay_multiple_on_failure delay_multiple_on_success)],
);

for (1 .. $count) {
	my $algo = pick(sort keys %params);
	my %a = (
		initial_delay	=> pick(qw(1 0.5 0.001 1.23456789012345 0.3
				    9.99999999999999 0.000123 7 0.1)),
		max_delay	=> pick(qw(60 3600 86400 0.75)),
	);
	for my $name (@{ $params{$algo} }) {
		$a{$name} = $name =~ /multiple_on_f/ ?
		    pick(qw(2 1.5 3 1.1 1.05 1.3333333 10)) :
		    $name =~ /multiple/ ?
		    pick(qw(0.5 0.1 0.3333333 0.9 0.01 0.25 0.7)) :
		    $name =~ /on_failure/ ? pick(qw(0.1 1 0.333 2.5 0.0001)) :
		    pick(qw(-0.1 -1 -0.333 -0.0001 0.5));
	}
	$a{min_delay} = pick(qw(0.0002 0.05)) if rnd(4) == 0;
	my $ms = rnd(3) == 0;
	my $b = "Algorithm::Backoff::$algo"->new(%a, _start_timestamp => 0);
	my (@st, @d);
	my $run = pick(0, 1);
	for (1 .. 20 + rnd(100)) {
		# Runs of one status: long ones reach the limits.
		$run = 1 - $run if rnd(10) == 0;
		my $d = $run ? $b->success(0) : $b->failure(0);
		push @st, $run;
		push @d, sprintf('%.15g', $ms && $d >= 0 ? $d * 1000 : $d);
	}
	my @o = ('-a', $algo, '--max-attempts=0');
	for my $name (sort keys %a) {
		(my $opt = $name) =~ tr/_/-/;
		push @o, "--$opt=$a{$name}";
	}
	push @o, '--unit=ms' if $ms;
	print join("\t", "@o", "@st", "@d"), "\n";
}
EOF
}

@test "MIMD, LIMD and MILD sequences, in s and ms, print as Perl prints them" {
	require_perl_backoff
	perl_cases 80 20261122 >"$BATS_TEST_TMPDIR/cases"
	run -0 compare_cases "$BATS_TEST_TMPDIR/cases"
	assert_output 80
	# The cases reach both forms, and both paths of number_format.
	grep -q 'e-' "$BATS_TEST_TMPDIR/cases"
	grep -qE '[0-9]\.[0-9]{12}' "$BATS_TEST_TMPDIR/cases"
}

@test "table, csv and json print the same numbers as plain" {
	local a=(-a MIMD --initial-delay 0.001 --delay-multiple-on-failure 1.3
	    --delay-multiple-on-success 0.1 --max-attempts 0
	    0 0 0 0 0 1 1 1 1 1 1 1 0 0 0)
	run -0 show "${a[@]}"
	local plain=$output
	run -0 show --format csv "${a[@]}"
	assert_equal "$(sed 1d <<<"$output" | cut -d, -f4)" "$plain"
	run -0 show --format table "${a[@]}"
	assert_equal "$(sed 1d <<<"$output" | awk '{ print $4 }')" "$plain"
	run -0 show --format json "${a[@]}"
	assert_equal "$(sed -n 's/.*"delay": \([^}]*\)}.*/\1/p' <<<"$output")" \
	    "$plain"
}

@test "zero, exponent forms up to 1e+306, and Perl's Inf" {
	run -0 show -a MILD --initial-delay 1 --delay-multiple-on-failure 2 \
	    --delay-increment-on-success -5 --max-attempts 0 0 1 1
	assert_delays 1 0 0
	# shellcheck disable=SC2046  # 53 words
	run -0 show -a MIMD --initial-delay 1 --delay-multiple-on-failure 1e6 \
	    --delay-multiple-on-success 0.5 --max-attempts 0 \
	    $(printf '0 %.0s' $(seq 53)) 1
	assert_equal "${#lines[@]}" 54
	assert_equal "${lines[*]:0:4}" "1 1000000 1000000000000 1e+18"
	assert_equal "${lines[*]:50}" "1e+300 1e+306 Inf Inf"
}
