#!/usr/bin/env bats
# Resource hygiene over long runs: no fd leaks into attempts or in retry,
# no zombie after any attempt, no temporary file after any exit path, and
# memory that stays flat over 10,000 attempts.  The attempts look at retry
# through /proc/$PPID: retry is their parent.
bats_require_minimum_version 1.5.0
load test_helper/common
load test_helper/core
load test_helper/procs

setup() {
	# Thousands of attempts: too slow under valgrind, where the other
	# suites run a subset (make valgrind).
	[ "${RETRY_UNDER:-}" != valgrind ] || skip "too slow under valgrind"
}

# retry's fd count seen from an attempt, once retry waits for it again
# (state S): until then, it may still hold the attempt's ends of its
# pipes.
RETRY_FDS='
	retry_fds() {
		i=0
		while [ "$i" -lt 10000 ]; do
			read -r _ _ state _ </proc/$PPID/stat
			[ "$state" != S ] || break
			i=$((i + 1))
		done
		set -- /proc/$PPID/fd/*
		echo "$#"
	}'

# An attempt that records its own fds (the shell's glob opens the directory
# it lists, so that one is there too: 0 1 2 3) in $1/own, and retry's fd
# count at attempts 10 and 300 in $1/first and $1/last; it succeeds at the
# 300th attempt.  Built-ins only, so the attempts take a second or so.
FDS_ATTEMPT=$RETRY_FDS'
	set -- "$1" /proc/self/fd/*
	dir=$1
	shift
	own=
	for f; do own="$own ${f##*/}"; done
	[ "$own" = " 0 1 2 3" ] || echo "attempt $RETRY_ATTEMPT:$own" >>"$dir/own"
	[ "$RETRY_ATTEMPT" -ne 10 ] || retry_fds >"$dir/first"
	[ "$RETRY_ATTEMPT" -ne 300 ] || retry_fds >"$dir/last"
	[ "$RETRY_ATTEMPT" -ge 300 ]'

# retry, given fds 0, 1 and 2 only: what bats holds above 2 is closed.
retry_012() {
	bash -c 'for f in /proc/$$/fd/*; do
		f=${f##*/}
		[ "$f" -le 2 ] || eval "exec $f>&-"
	done
	exec timeout 60 "$RETRY" "$@"' _ "$@"
}

assert_no_fd_leak() {
	local dir=$BATS_TEST_TMPDIR
	[ ! -e "$dir/own" ] || fail "fds leaked into attempts: $(head "$dir/own")"
	assert_equal "$(cat "$dir/last")" "$(cat "$dir/first")"
}

@test "hygiene: 300 attempts get fds 0, 1 and 2 only; retry keeps none" {
	run -0 retry_012 --immediate --max 0 -q -- sh -c "$FDS_ATTEMPT" sh \
	    "$BATS_TEST_TMPDIR"
	assert_no_fd_leak
}

@test "hygiene: no fd leak over 300 attempts with output rules and spools" {
	run -0 retry_012 --immediate --max 0 -q --stdin replay --hold-stdout \
	    --fail-if-output never-printed -- sh -c "$FDS_ATTEMPT" sh \
	    "$BATS_TEST_TMPDIR" <<<"input"
	assert_no_fd_leak
}

@test "hygiene: 100 timed-out attempts leak no fd" {
	# Attempts 10 and 100 count retry's fds, however long a busy machine
	# makes that take once they run (the timeout's TERM is ignored, and
	# KILL comes 5s later); the others time out.
	run retry --immediate --max 100 -q --timeout 100ms -- sh -c \
	    "$RETRY_FDS"'
		case $RETRY_ATTEMPT in
		10) trap "" TERM; retry_fds >"$0/first"; exit 1 ;;
		100) trap "" TERM; retry_fds >"$0/last"; exit 1 ;;
		esac
		exec sleep 1' "$BATS_TEST_TMPDIR"
	# The last attempt's exit 1, or 124 if its counting outlasted 100ms.
	[[ $status == 1 || $status == 124 ]] || fail "status $status"
	assert_equal "$(cat "$BATS_TEST_TMPDIR/last")" \
	    "$(cat "$BATS_TEST_TMPDIR/first")"
}

# Each attempt first lists retry's children that are zombies, then ends in
# its own way: an exit, death by a signal, a timeout, a timeout that needs
# KILL, a background child left behind, and at last a success.
@test "hygiene: no zombie after any attempt, however it ended" {
	run -0 retry --immediate --max 0 -q --timeout 300ms --kill-after 100ms \
	    -- sh -c '
		ps -o stat=,pid=,args= --ppid "$PPID" | grep "^Z" >>"$0/zombies"
		case $RETRY_ATTEMPT in
		1) exit 1 ;;
		2) kill -SEGV $$ ;;
		3) exec sleep 5 ;;
		4) trap "" TERM; exec sleep 5 ;;
		5) sleep 5 >/dev/null 2>&1 & exit 1 ;;
		6) /bin/false; exit 3 ;;
		esac' "$BATS_TEST_TMPDIR"
	[ ! -s "$BATS_TEST_TMPDIR/zombies" ] ||
		fail "zombies: $(cat "$BATS_TEST_TMPDIR/zombies")"
}

# retry with TMPDIR set to an empty directory of its own; its spools must
# be gone by the time it exits, whatever way it exits.
tmp_retry() {
	local tmp=$BATS_TEST_TMPDIR/tmp
	mkdir -p "$tmp"
	TMPDIR=$tmp timeout 60 "$RETRY" --stdin replay --hold-stdout "$@"
}

@test "hygiene: no temporary file after any exit status" {
	run -0 tmp_retry --immediate -- flaky 1 <<<in
	assert_no_temp_files "$BATS_TEST_TMPDIR/tmp"
	run -1 tmp_retry --immediate --max 2 -- false <<<in
	assert_no_temp_files "$BATS_TEST_TMPDIR/tmp"
	run -2 tmp_retry --immediate --stop-on 2 -- sh -c 'exit 2' <<<in
	assert_no_temp_files "$BATS_TEST_TMPDIR/tmp"
	run -3 tmp_retry --immediate --retry-on 1 -- sh -c 'exit 3' <<<in
	assert_no_temp_files "$BATS_TEST_TMPDIR/tmp"
	run -124 tmp_retry --immediate --max 2 --timeout 10ms -- sleep 5 <<<in
	assert_no_temp_files "$BATS_TEST_TMPDIR/tmp"
	run -1 tmp_retry --fixed 10s --budget 1s -- false <<<in
	assert_no_temp_files "$BATS_TEST_TMPDIR/tmp"
	run -125 tmp_retry --fixed bogus -- true <<<in
	assert_no_temp_files "$BATS_TEST_TMPDIR/tmp"
	run -127 tmp_retry -- no-such-command-anywhere <<<in
	assert_no_temp_files "$BATS_TEST_TMPDIR/tmp"
	run -126 tmp_retry -- "$BATS_TEST_TMPDIR" <<<in
	assert_no_temp_files "$BATS_TEST_TMPDIR/tmp"
	run -139 tmp_retry --max 1 -- sh -c 'kill -SEGV $$' <<<in
	assert_no_temp_files "$BATS_TEST_TMPDIR/tmp"
}

# tmp_signal SIGNAL WHEN: retry, in a session of its own, gets SIGNAL while
# an attempt runs (WHEN=attempt: once the attempt says it started) or while
# it sleeps (WHEN=sleep: once retry said so).
tmp_signal() {
	local sig=$1 when=$2 tmp=$BATS_TEST_TMPDIR/tmp d=$BATS_TEST_TMPDIR pid
	mkdir -p "$tmp"
	rm -f "$d/started" "$d/err"
	# A background job starts with INT and QUIT ignored, nohup with HUP
	# ignored, and retry keeps a signal ignored that it was started with.
	if [ "$when" = attempt ]; then
		TMPDIR=$tmp setsid env --default-signal=HUP,INT,QUIT "$RETRY" \
		    --stdin replay --hold-stdout -- \
		    sh -c 'echo out; echo >"$0"; exec sleep 30' "$d/started" \
		    <<<in >/dev/null 2>"$d/err" 3>&- &
		pid=$!
		wait_lines "$d/started"
	else
		TMPDIR=$tmp setsid env --default-signal=HUP,INT,QUIT "$RETRY" \
		    --stdin replay --hold-stdout --fixed 30s -- \
		    sh -c 'echo out; exit 1' <<<in >/dev/null 2>"$d/err" 3>&- &
		pid=$!
		wait_match "$d/err" 'next attempt in 30s'
	fi
	kill -"$sig" "$pid"
	local start=$SECONDS
	wait "$pid" || true
	(( SECONDS - start < 10 )) || fail "retry outlived SIG$sig ($when)"
	assert_no_temp_files "$BATS_TEST_TMPDIR/tmp"
}

@test "hygiene: no temporary file after TERM, INT, HUP or KILL" {
	for sig in TERM INT HUP QUIT KILL; do
		tmp_signal "$sig" attempt
		tmp_signal "$sig" sleep
	done
}

# Every run pays for the libraries it maps; PCRE2 and hiredis are mapped
# only by the runs that use them.  The attempt reads retry's own maps.
@test "hygiene: a plain run maps neither PCRE2 nor hiredis; a pattern maps PCRE2 alone" {
	# shellcheck disable=SC2016  # for the attempt's shell
	local maps='cat /proc/$PPID/maps'
	run -0 retry --max 1 -- sh -c "$maps"
	refute_output --partial libpcre2
	refute_output --partial libhiredis
	refute_output --partial libssl
	# The static binary maps no library at all: PCRE2 is in it.
	grep -q 'libc\.so' <<<"$output" ||
		skip "a static binary: PCRE2 and hiredis are linked in"
	run -0 retry --max 1 --until-output 'plain string' -- sh -c "$maps; echo plain string"
	refute_output --partial libpcre2
	run -0 retry --max 1 --until-output '^[0-9]+ lines?$' -- sh -c "$maps; echo 1 line"
	assert_output --partial libpcre2
	refute_output --partial libhiredis
}

# A PCRE2 that cannot be loaded (a broken file where the loader looks
# first) is said in one line, with 125 and no pointer to --help: the
# options were right.  A plain string needs no PCRE2.
@test "hygiene: a PCRE2 that cannot be loaded: one line, 125, no usage hint, nothing run" {
	# shellcheck disable=SC2016  # for the attempt's shell
	run -0 retry --max 1 -- sh -c 'cat /proc/$PPID/maps'
	grep -q 'libc\.so' <<<"$output" ||
		skip "a static binary: PCRE2 is linked in"
	local d=$BATS_TEST_TMPDIR/lib
	mkdir "$d"
	echo 'not a library' >"$d/libpcre2-8.so.0"
	run -125 env LD_LIBRARY_PATH="$d" "$RETRY" --until-output 'a+b' -- \
	    echo ran
	assert_output --regexp "^retry: --output until: 'a\+b': regular expressions need PCRE2: .*libpcre2-8\.so\.0.*$"
	assert_equal "${#lines[@]}" 1
	run -0 env LD_LIBRARY_PATH="$d" "$RETRY" --until-output 'ran' -- \
	    echo ran
	assert_output ran
}

# libm is loaded before the first attempt by a run whose strategy calls
# it (--decorrelated-v2 and -a Exponential), so that its load cannot fail
# mid-run (weeks into a --forever, after an upgrade), and by no other:
# --exp's powers, whatever the factor, are computed in integers.  The
# first attempt reads the maps.
@test "hygiene: libm is mapped before the first attempt by a run whose delays call it and that may retry, and only by one" {
	# shellcheck disable=SC2016  # for the attempt's shell
	local maps='cat /proc/$PPID/maps'
	run -0 retry --max 1 --fixed 1s -- sh -c "$maps"
	grep -q 'libc\.so' <<<"$output" ||
		skip "a static binary: libm is linked in"
	[ "${RETRY_UNDER:-}" != asan ] ||
		skip "under ASan, whose runtime links libm"
	skip_portable "libm is linked: its soname is glibc's <gnu/lib-names.h>"
	refute_output --partial libm.so
	# One attempt computes no delay, whatever the strategy.
	run -0 retry --max 1 -- sh -c "$maps"
	refute_output --partial libm.so
	run -0 retry --max 2 --exp 1ms -- sh -c "$maps"
	refute_output --partial libm.so
	run -0 retry --max 2 -- sh -c "$maps"
	refute_output --partial libm.so
	run -0 retry --max 2 --exp 1ms --factor 3 -- sh -c "$maps"
	refute_output --partial libm.so
	run -0 retry --max 2 --exp 1ms --factor 1.5 -- sh -c "$maps"
	refute_output --partial libm.so
	run -0 retry --max 2 -a Exponential --initial-delay 0.001 -- sh -c "$maps"
	assert_output --partial libm.so
	run -0 retry --max 2 --decorrelated-v2 1ms -- sh -c "$maps"
	assert_output --partial libm.so
	run -0 retry --max 2 --fixed 1ms -- sh -c \
	    "[ \"\$RETRY_ATTEMPT\" = 2 ] || exit 1; $maps"
	refute_output --partial libm.so
}

# A libm that cannot be loaded ends the run before its first attempt, in
# one line and with 125, no usage error; and what an attempt writes in the
# current directory, which an empty element of LD_LIBRARY_PATH names, is
# never loaded: the libraries were loaded before it ran.
@test "hygiene: a libm that cannot load ends the run before its first attempt; one an attempt writes in the current directory is never loaded" {
	# shellcheck disable=SC2016  # for the attempt's shell
	run -0 retry --max 1 -- sh -c 'cat /proc/$PPID/maps'
	grep -q 'libc\.so' <<<"$output" ||
		skip "a static binary: libm is linked in"
	[ "${RETRY_UNDER:-}" != asan ] ||
		skip "under ASan, whose runtime links libm"
	skip_portable "libm is linked: its soname is glibc's <gnu/lib-names.h>"
	local d=$BATS_TEST_TMPDIR/lib w=$BATS_TEST_TMPDIR/work
	mkdir "$d" "$w"
	echo 'not a library' >"$d/libm.so.6"
	run -125 env LD_LIBRARY_PATH="$d" "$RETRY" --decorrelated 1ms:v2 -- \
	    echo ran
	assert_output --regexp '^retry: echo ran: its delays need libm: .*libm\.so\.6.*$'
	assert_equal "${#lines[@]}" 1
	# The first attempt writes a libm where the empty element points.
	cd "$w"
	run -0 env LD_LIBRARY_PATH=":$d/none" "$RETRY" -a Exponential \
	    --initial-delay 0.001 --max 3 -- \
	    sh -c '[ -e libm.so.6 ] && exit 0; echo x >libm.so.6; exit 1'
	assert_line --index 0 --regexp ': attempt 1/3 failed: exit 1 after .*; next attempt in 1ms$'
	assert_line --index 1 --regexp ': succeeded on attempt 2 of 3 after '
	assert_equal "${#lines[@]}" 2
}

# The faces that compute (show-backoff-delays, simulate, --dry-run) load
# libm as they start: one that cannot load ends them there, with 125 and
# one line, before they print a row, whatever their strategy.
@test "hygiene: a libm that cannot load ends show-backoff-delays, simulate and --dry-run before their first row" {
	# shellcheck disable=SC2016  # for the attempt's shell
	run -0 retry --max 1 -- sh -c 'cat /proc/$PPID/maps'
	grep -q 'libc\.so' <<<"$output" ||
		skip "a static binary: libm is linked in"
	[ "${RETRY_UNDER:-}" != asan ] ||
		skip "under ASan, whose runtime links libm"
	skip_portable "libm is linked: its soname is glibc's <gnu/lib-names.h>"
	local d=$BATS_TEST_TMPDIR/lib face
	mkdir "$d"
	echo 'not a library' >"$d/libm.so.6"
	for face in 'show-backoff-delays --exp 1s --max 3' \
	    'show-backoff-delays --fixed 1s --max 3' \
	    'simulate --exp 1s --max 3' '--dry-run --exp 1s --max 3 -- true'; do
		# shellcheck disable=SC2086  # the face's words
		run -125 --separate-stderr env LD_LIBRARY_PATH="$d" "$RETRY" \
		    $face
		assert_equal "$output" ''
		[[ $stderr =~ ^retry:\ .*libm\.so\.6.*$ ]] ||
			fail "$face: $stderr"
		assert_equal "${#stderr_lines[@]}" 1
	done
}
