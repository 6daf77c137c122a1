#!/usr/bin/perl
# Generates show-backoff-delays cases and their expected delays, as
# Algorithm::Backoff computes them: one case a line,
#
#	OPTIONS<TAB>STATUSES<TAB>DELAYS
#
# (space-separated each; delays printed with '%.15g').  Deterministic: the
# parameters come from a fixed-seed generator of our own, not from rand(),
# so every perl produces the same cases.  No jitter; without "times" every
# event happens at 0, the start, with it each status gets a relative time
# ":+S" and Algorithm::Backoff the running sum.
#
# Usage: perl tests/perl-cases.pl [COUNT [SEED [times]]]
use strict;
use warnings;

use Algorithm::Backoff::Constant;
use Algorithm::Backoff::Exponential;
use Algorithm::Backoff::Fibonacci;
use Algorithm::Backoff::LILD;
use Algorithm::Backoff::LIMD;
use Algorithm::Backoff::MILD;
use Algorithm::Backoff::MIMD;

# --consider-actual-delay as Algorithm::Backoff 0.010 has it (upstream
# commit 0be87d3, "Use _prev_delay"): the previous delay counted is the one
# returned, after jitter and clamping.  0.009, which Debian 12 ships,
# counted its own unclamped sum; give it the newer rule.
if ($Algorithm::Backoff::VERSION < 0.010) {
	no warnings 'redefine';
	*Algorithm::Backoff::_consider_actual_delay = sub {
		my ($self, $raw, $now) = @_;
		my $waited = $now - $self->{_last_timestamp};
		return $raw + ($self->{_prev_delay} // 0) - $waited;
	};
}

my $count = shift // 300;
my $state = shift // 20240611;
my $times = (shift // '') eq 'times';

# A 31-bit linear congruential generator (the C standard's example).
sub rnd {
	my ($n) = @_;
	$state = ($state * 1103515245 + 12345) % 2147483648;
	return int($state / 65536) % $n;
}

sub pick { return $_[rnd(scalar @_)] }

# A decimal string as a user would type it: "3", "0.5", "1.25", "0.333".
sub seconds {
	my ($max) = @_;
	my $v = rnd($max * 1000 + 1) / 1000;
	return pick($v, sprintf("%.1f", $v), int($v), sprintf("%.3f", $v));
}

my %params = (
	Constant	=> [qw(delay)],
	Exponential	=> [qw(initial_delay)],
	Fibonacci	=> [qw(initial_delay1 initial_delay2)],
	LILD		=> [qw(initial_delay delay_increment_on_failure
			       delay_increment_on_success)],
	LIMD		=> [qw(initial_delay delay_increment_on_failure
			       delay_multiple_on_success)],
	MILD		=> [qw(initial_delay delay_multiple_on_failure
			       delay_increment_on_success)],
	MIMD		=> [qw(initial_delay delay_multiple_on_failure
			       delay_multiple_on_success)],
);

# A value for a parameter; multiples stay small so that 20 steps stay far
# below 2^53, where Perl's integer arithmetic would part from doubles.
sub value {
	my ($name) = @_;
	return pick(qw(1.5 2 3 1.1 0.5 1.25 0.75)) if $name eq 'exponent_base';
	# A failure never shortens the delay: retry refuses on-failure
	# multiples under 1 and increments under 0.
	return pick(qw(2 1.5 3 1.1 1.05 1 2.5)) if $name =~ /multiple_on_f/;
	return pick(seconds(5), 0) if $name =~ /increment_on_f/;
	return pick(qw(0.5 0.3333333 0.1 0.9 0 1 0.25)) if $name =~ /multiple/;
	return pick(seconds(5), '-' . seconds(3), 0) if $name =~ /increment/;
	return rnd(6) if $name eq 'max_attempts';
	return seconds(10);
}

sub options {
	my ($algo) = @_;
	my %a = map { $_ => value($_) } @{ $params{$algo} };
	my @common = qw(min_delay max_delay max_attempts max_actual_duration);

	push @common, 'delay_on_success'
	    if $algo =~ /^(Constant|Exponential|Fibonacci)$/;
	push @common, 'exponent_base' if $algo eq 'Exponential';
	for my $name (@common) {
		$a{$name} = value($name) if rnd(3) == 0;
	}
	$a{consider_actual_delay} = 1 if rnd(4) == 0;
	return %a;
}

sub command_line {
	my ($algo, %a) = @_;
	my @o = ("-a", $algo);

	for my $name (sort keys %a) {
		(my $opt = $name) =~ tr/_/-/;
		if ($name eq 'consider_actual_delay') {
			push @o, "--$opt";
		} else {
			push @o, "--$opt=$a{$name}";
		}
	}
	return "@o";
}

for (1 .. $count) {
	my $algo = pick(sort keys %params);
	my %a = options($algo);
	my $b = "Algorithm::Backoff::$algo"->new(%a, _start_timestamp => 0);
	my (@st, @d);
	my $t = 0;

	for (1 .. 1 + rnd(20)) {
		my $ok = rnd(10) < 7 ? 0 : 1;
		my $s = $times ? pick(0, seconds(10)) : undef;

		$t += $s if $times;
		push @st, $ok . ($times ? ":+$s" : '');
		push @d, sprintf("%.15g", $ok ? $b->success($t) :
		    $b->failure($t));
	}
	print join("\t", command_line($algo, %a), "@st", "@d"), "\n";
}
