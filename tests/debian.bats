#!/usr/bin/env bats
# Debian's retry (Graham Leggett's, package retry) and this one on the same
# command lines: the same number of attempts and the same exit status.  The
# command is tests/bin/statuses, which ends each run as its script says.
bats_require_minimum_version 1.5.0
load test_helper/common

setup() {
	DEBIAN=${DEBIAN_RETRY:-/usr/bin/retry}
	[ -x "$DEBIAN" ] ||
	    skip "Debian's retry is not installed at $DEBIAN (make deps installs the package retry)"
	"$DEBIAN" --help 2>&1 | grep -q 'Graham Leggett' ||
	    skip "$DEBIAN is not Debian's retry"
}

# Runs RETRY-PROGRAM OPTIONS... -- statuses FILE SCRIPT... and prints
# "status S, N attempts".
attempts() {
	local prog=$1 file=$2 script=$3 rc=0
	shift 3
	rm -f "$file"
	# shellcheck disable=SC2086
	timeout 60 "$prog" "$@" -- statuses "$file" $script \
	    </dev/null >/dev/null 2>&1 || rc=$?
	local runs=()
	[ ! -f "$file" ] || mapfile -t runs <"$file"
	echo "status $rc, ${#runs[@]} attempts"
}

# same "SCRIPT" OPTIONS...: both retries give the same attempts and status.
# They run side by side, so a line costs the longer of the two.
same() {
	local script=$1 d=$BATS_TEST_TMPDIR theirs ours
	shift
	attempts "$DEBIAN" "$d/debian" "$script" "$@" >"$d/debian.out" &
	ours=$(attempts "$RETRY" "$d/ours" "$script" "$@")
	wait $!
	read -r theirs <"$d/debian.out"
	[ "$theirs" = "$ours" ] ||
	    fail "retry $* -- statuses $script: Debian's: $theirs; ours: $ours"
	echo "retry $* -- statuses $script: $ours"
}

@test "debian: -t and --times count every attempt; -d and --delay space them" {
	same "1 1 0" -t 5 -d 0
	same "0" -t 5 -d 0
	same "1 1 1" -t 3 -d 0
	same "1 1 1 1 1" --times=4 --delay=0
	same "2 2 2" --times 2 --delay 0
	same "1 1 0" -t3 -d0
	same "1 1 0" -t 5 -d 0,0,0
	same "1 1 1" -t 2 -d 1
	same "126 0" -t 3 -d 0
	same "127 127" -t 2 -d 0
	same "255 255 255" -t 3 -d 0
	same "1 1 0" -t " 4" -d "0, 0, 0"
	same "1 1 0" -t +4 -d " 0"
	same "1 1 1 1 1 1 0" -t 9999999999 -d 0
}

@test "debian: -t -1 has no limit, as Debian's default" {
	same "3 3 3 3 3 3 0" -t -1 -d 0
	same "1 0" -d 0
}

@test "debian: -t, --times and --tries are --max's other spellings, listed only in its line" {
	local want
	want=$(show -n 3 --fixed 1)
	for t in -t --times --tries; do
		run -0 show "$t" 3 --fixed 1
		assert_equal "$output" "$want"
		run -125 retry "$t" 0 -- true
		assert_usage_error "$t"
	done
	listed --max "$RETRY"
	refute listed --times "$RETRY"
	refute listed --tries "$RETRY"
	refute listed --times "$SHOW"
	run -0 retry --help all
	assert_output --partial "also -t, --times N as Debian's"
}

@test "debian: --delays is -d's other spelling, listed only in its line; -a Constant tells them apart" {
	local want
	want=$(show -d 1,2 -n 4)
	run -0 show --delays 1,2 -n 4
	assert_equal "$output" "$want"
	run -0 show -a Constant --delay 1 -n 3
	assert_output $'1\n1\n-1'
	run -125 show -a Constant --delays 1 -n 3
	assert_usage_error --delays
	listed --delay "$RETRY"
	refute listed --delays "$RETRY"
	refute listed --delays "$SHOW"
	run -0 retry --help all
	assert_output --partial "(also --delays)"
}

@test "debian: -m and --message name the command in reports" {
	same "1 1 1" -t 3 -d 0 -m label
	same "1 0" -t 3 -d 0 --message="the sync"
	run -1 retry -t 2 -d 0 -m the-sync -- false
	assert_line --index 0 --partial "retry[the-sync]: attempt 1/2 failed"
}

@test "debian: -u and --until end the run with the status that meets them" {
	same "0 0 3" -t 5 -d 0 -u 3
	same "0 0 3" -t 5 -d 0 --until=3
	same "1 1 0" -t 5 -d 0 --until=success
	same "1 1 0" -t 5 -d 0 -u true
	same "0 0 4" -t 5 -d 0 -u fail
	same "0 0 4" -t 5 -d 0 --until false
	same "1 5 2" -t 5 -d 0 -u 2-3
	same "0 0 3" -t 5 -d 0 -u 3,1
	same "1 1 0" -t 5 -d 0 -u success,2
}

@test "debian: -u: when the attempts run out, the last status, even 0" {
	same "0 0 0" -t 3 -d 0 -u fail
	same "7 8 9" -t 3 -d 0 -u 10-20
	same "1 1 1" -t 2 -d 0 -u 0
}

@test "debian: -w and --while retry while the status meets them" {
	same "0 0 3" -t 5 -d 0 -w 0
	same "0 0 3" -t 5 -d 0 --while=success
	same "1 1 0" -t 5 -d 0 -w fail
	same "1 0 1" -t 5 -d 0 --while false
	same "1 2 5" -t 5 -d 0 -w 0-2
	same "1 1 1" -t 3 -d 0 -w 1
	same "1 1 3" -t 5 -d 0 -w 1,2
}

@test "debian: of -u and -w, the last given counts" {
	same "0 1 3" -t 5 -d 0 -u 3 -w 0
	same "0 1 3" -t 5 -d 0 -w 0 -u 3
	same "1 1 3" -t 5 -d 0 -u 3 -w 1
}

@test "debian: with -u or -w, a command killed by a signal ends the run" {
	same "1 KILL 0" -t 5 -d 0 -u success
	same "TERM 0" -t 5 -d 0 -u fail
	same "0 SEGV" -t 5 -d 0 -w 0
	same "1 KILL" -t 5 -d 0 -w 1
	same "USR1 0" -t 3 -d 0 -u 0-255
	same "ABRT" -t 3 -d 0 -w 0-255
}

@test "debian: -h and -v, long or short, print and exit 0" {
	local opt
	for opt in -h --help -v --version; do
		run -0 "$DEBIAN" "$opt"
		run -0 "$RETRY" "$opt"
		assert_output --regexp '[Rr]etry'
	done
	run -0 "$RETRY" -v
	assert_output --regexp '^retry [0-9]'
	# At once, whatever follows.
	run -0 "$DEBIAN" -h -t 0 -- x
	run -0 "$RETRY" -h -t 0 -- x
	run -0 "$DEBIAN" -v -u s
	run -0 "$RETRY" -v -u s
}

# The examples of Debian's retry(1), with statuses in place of false and a
# stand-in for curl; both wait as long as the example says (10s by default
# there, --exp 1s here).
@test "debian: its manual's examples: --until=success, and a --delay list" {
	same "1 0" --until=success
	same "1 1 0" --until=success --delay "1,2,4,8,16,32,64"
}

@test "debian: its manual's example: a pipeline of two retries" {
	local d=$BATS_TEST_TMPDIR prog
	mkdir "$d/bin"
	# A curl that fails once, printing nothing, then answers.
	cat >"$d/bin/curl" <<-'EOF'
	#!/bin/sh
	url=$(printf '%s\n' "$@" | grep http)
	state="$CURL_STATE/$(echo "$url" | tr -c 'a-z\n' _)"
	echo run >>"$state"
	[ "$(wc -l <"$state")" -ge 2 ] || exit 22
	case $url in
	*/entities) echo '{"entities": [1, 2]}' ;;
	*) echo "created" ;;
	esac
	EOF
	chmod +x "$d/bin/curl"
	for prog in "$DEBIAN" "$RETRY"; do
		mkdir "$d/state"
		CURL_STATE=$d/state PATH=$d/bin:$PATH timeout 60 sh -c '
		    "$1" -- curl --fail http://localhost/entities | \
		    jq -c . | \
		    "$1" -- curl --fail -X POST http://localhost/resource | \
		    cat' sh "$prog" >"$d/out.${prog##*/}" 2>/dev/null </dev/null
		echo "$?, $(cat "$d/state"/* | wc -l) runs" >>"$d/out.${prog##*/}"
		rm -r "$d/state"
	done
	run cat "$d/out.retry"
	assert_output "created
0, 4 runs"
	[ "$(cat "$d/out.${DEBIAN##*/}")" = "$output" ]
}

# Where retry-compat(7) says this retry differs on purpose: each claim, checked
# against Debian's binary.
@test "debian: differs: any criterion of a list counts, not only the first" {
	run attempts "$DEBIAN" "$BATS_TEST_TMPDIR/d" "0 0 3" -t 5 -d 0 -u 1,3
	assert_output "status 3, 5 attempts"
	run attempts "$RETRY" "$BATS_TEST_TMPDIR/o" "0 0 3" -t 5 -d 0 -u 1,3
	assert_output "status 3, 3 attempts"
}

@test "debian: differs: without -u or -w, a signal is a failure like any other" {
	run attempts "$DEBIAN" "$BATS_TEST_TMPDIR/d" "KILL 0" -t 3 -d 0
	assert_output "status 137, 1 attempts"
	run attempts "$RETRY" "$BATS_TEST_TMPDIR/o" "KILL 0" -t 3 -d 0
	assert_output "status 0, 2 attempts"
}

@test "debian: differs: a command that cannot be run is not retried" {
	run timeout 60 "$DEBIAN" -t 2 -d 0 -- "$BATS_TEST_TMPDIR/no-such-command"
	assert_equal "$status" 1
	assert_equal "$(grep -c 'Could not execute' <<<"$output")" 2
	run -127 retry -t 2 -d 0 -- "$BATS_TEST_TMPDIR/no-such-command"
}

@test "debian: differs: values are read whole, and bad usage exits 125" {
	run -0 timeout 60 "$DEBIAN" -t 0 -- false
	run -125 retry -t 0 -- false
	assert_line --index 0 --partial "--times: '0'"
	run -0 timeout 60 "$DEBIAN" -t 1 -u s -- true
	run -125 retry -t 1 -u s -- true
	assert_line --index 0 --partial "--until: 's'"
	run -1 timeout 60 "$DEBIAN" -t 1 -u bogus -- true
	run -125 retry -t 1 -u bogus -- true
	run -0 timeout 60 "$DEBIAN" -t "" -- false
	run -125 retry -t "" -- false
	run -0 timeout 60 "$DEBIAN" -t 1 -d 0,,0 -- true
	run -125 retry -t 1 -d 0,,0 -- true
	run -0 timeout 60 "$DEBIAN" -t 1 -u 0,bogus -- true
	run -125 retry -t 1 -u 0,bogus -- true
	run -0 timeout 60 "$DEBIAN" --tim=1 -- true
	run -125 retry --tim=1 -- true
	assert_line --index 0 --partial "did you mean --times or --timeout?"
}
