#!/usr/bin/env bats
# GNU coreutils' own tests of timeout(1)'s --preserve-status and
# --foreground (github.com/coreutils/coreutils, tests/timeout/timeout.sh
# and tests/timeout/timeout-group.sh, at commit aa0c0de), their cases
# replayed against retry --max 1 --timeout with their expected values.
# Only the invocation is adapted: "timeout [OPTION] DUR CMD" becomes
# "retry --max 1 [OPTION] --timeout DUR -- CMD", and -s0 (a signal that
# ends nothing; retry refuses 0) becomes --signal CONT, which a running
# sleep ignores as it does 0.  Their "returns_ 124 ... && fail=1" asserts
# that the status is not 124; the status their comments name is checked
# too.
bats_require_minimum_version 1.5.0
load test_helper/common
load test_helper/procs

# timeout.sh: "exit status propagation even on timeout / exit status should
# be 128+TERM":
#   returns_ 124 timeout --preserve-status .1 sleep 10 && fail=1
@test "coreutils timeout.sh: --preserve-status gives 128+TERM, not 124" {
	run retry --max 1 --preserve-status --timeout .1 -- sleep 10
	[ "$status" -ne 124 ]
	assert_equal "$status" $((128 + 15))
}

# timeout.sh: "Ensure a consistent exit status with --foreground", its
# partner the same case without --foreground:
#   returns_ 124 timeout -s0 -k1 .1 sleep 10 && fail=1
#   returns_ 124 timeout --foreground -s0 -k1 .1 sleep 10 && fail=1
# timeout(1) says 128+KILL for a command that --kill-after had to kill, with
# or without --preserve-status.  retry says 124 for every timed-out attempt
# unless --preserve-status asks for the command's own status (as the
# manual says there): with it, their 137, with --foreground or without;
# without it, 124 with --foreground or without.  The same either way is
# what the case asserts.
@test "coreutils timeout.sh: -s0 -k1 is 128+KILL with --foreground as without (--preserve-status)" {
	run retry --max 1 --preserve-status --signal CONT -k 1 --timeout .1 \
	    -- sleep 10
	[ "$status" -ne 124 ]
	assert_equal "$status" $((128 + 9))
	run retry --max 1 --preserve-status --foreground --signal CONT -k 1 \
	    --timeout .1 -- sleep 10
	[ "$status" -ne 124 ]
	assert_equal "$status" $((128 + 9))
}

@test "coreutils timeout.sh: -s0 -k1 without --preserve-status is 124 with --foreground as without" {
	run -124 retry --max 1 --signal CONT -k 1 --timeout .1 -- sleep 10
	run -124 retry --max 1 --foreground --signal CONT -k 1 --timeout .1 \
	    -- sleep 10
}

# timeout-group.sh: a --foreground timeout started in the background of a
# script in a session of its own; a USR1 to that session's group (as a
# terminal's Ctrl-C goes to its foreground group) must reach the command,
# which with --foreground is in that group, and end it in good time.  Their
# script ignores USR1 so that its wait is not interrupted, and gives it
# back to the timeout with env --default-signal.  Their waits (6.3 s for
# the command to start) are bounded more generously here.
@test "coreutils timeout-group.sh: a signal to the group reaches a --foreground command" {
	local d=$BATS_TEST_TMPDIR pid i
	cd "$d"
	printf '%s\n' '#!/bin/sh' \
	    'trap '\''touch sig.received; exit'\'' USR1' \
	    'trap' \
	    'touch timeout.running' \
	    'count=$1' \
	    'until test -e sig.received || test $count = 0; do' \
	    '  sleep 1' \
	    '  count=$(expr $count - 1)' \
	    'done' >timeout.cmd
	chmod a+x timeout.cmd
	printf '%s\n' '#!/bin/sh' \
	    "trap '' USR1" \
	    "env --default-signal=USR1 $RETRY --max 1 --foreground --timeout 25 -- ./timeout.cmd 20 &" \
	    'wait' \
	    'echo group.sh wait returned $ret' >group.sh
	chmod a+x group.sh
	setsid ./group.sh </dev/null >group.out 2>&1 3>&- &
	pid=$!
	# retry_delay_ in theirs: until the command has started.
	poll_until 10 test -e timeout.running
	kill -USR1 -- -"$pid"
	wait_status "$pid"
	[ -e sig.received ]
}
