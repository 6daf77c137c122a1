#!/usr/bin/perl
# The baseline of `make bench`'s show-backoff-delays figures: the delays of
# Algorithm::Backoff::MIMD (initial 1s, x2 on failure, x0.5 on success, at
# most 60s, no limit on attempts), one per line, as show-backoff-delays
# prints them.  Every event happens at time 0.
#
# Usage: perl bench/backoff.pl -n N      N failures in a row
#        perl bench/backoff.pl FILE      the 0/1 statuses in FILE, one a line
use strict;
use warnings;

use Algorithm::Backoff::MIMD;

my $ab = Algorithm::Backoff::MIMD->new(
	initial_delay			=> 1,
	delay_multiple_on_failure	=> 2,
	delay_multiple_on_success	=> 0.5,
	max_delay			=> 60,
	max_attempts			=> 0,
);
if ($ARGV[0] eq '-n') {
	print $ab->failure(0), "\n" for 1 .. $ARGV[1];
	exit 0;
}
open(my $in, '<', $ARGV[0]) or die "$ARGV[0]: $!\n";
while (my $s = <$in>) {
	chomp $s;
	print $s ? $ab->success(0) : $ab->failure(0), "\n";
}
