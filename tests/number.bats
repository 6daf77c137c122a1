#!/usr/bin/env bats
# The numbers show-backoff-delays prints go through number_format
# (src/pure/number.c), which must print exactly what printf("%.15g") prints:
# tests/unit/number.c holds it to that over generated durations, jittered
# delays and --jitter-factor's, in s and ms.  Here the binary against
# Perl's printf('%.15g') of what Algorithm::Backoff computes, and the
# other formats against the plain one.
bats_require_minimum_version 1.5.0
load test_helper/common
load test_helper/show

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
