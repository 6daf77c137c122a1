#!/usr/bin/env bats
# How a run's end is told to what comes after it: --on-success beside
# --on-retry and --on-giveup, and --result-file, the run's figures as
# key=value lines in the format of GitHub's $GITHUB_OUTPUT, opened as
# --log-file is and written once, without waiting, as the run ends.
bats_require_minimum_version 1.5.0
load test_helper/common
load test_helper/core
load test_helper/procs
load test_helper/users

setup() {
	own_tmpdir
}

teardown() {
	kill_recorded
	users_cleanup
}

# The hook that records what it sees in $D/hooks, as NAME.
# shellcheck disable=SC2016  # for the hook's shell
hook() {
	printf 'echo "%s $RETRY_ATTEMPT $RETRY_STATUS $RETRY_LAST_STATUS $RETRY_DELAY_MS $RETRY_MAX_ATTEMPTS" >>"%s/hooks"' "$1" "$D"
}

@test "--on-success runs once when the run succeeds, with the attempt that succeeded; not on a give-up" {
	run -0 --separate-stderr retry --immediate --on-success "$(hook success)" \
	    -- flaky 2
	assert_equal "$(cat "$D/hooks")" "success 3 0 0 0 5"
	# Any success: a first attempt's too.
	rm "$D/hooks" "$BATS_TEST_TMPDIR/flaky.count"
	run -0 --separate-stderr retry --immediate --on-success "$(hook success)" \
	    -- flaky 0
	assert_equal "$(cat "$D/hooks")" "success 1 0 0 0 5"
	assert_equal "$stderr" ""
	# A success by --success-on: its status, and retry exits 0.
	rm "$D/hooks"
	run -0 --separate-stderr retry --immediate --success-on 3 \
	    --on-success "$(hook success)" -- sh -c 'exit 3'
	assert_equal "$(cat "$D/hooks")" "success 1 3 3 0 5"
	# A run that gives up, or stops, never succeeded.
	rm "$D/hooks"
	run -4 --separate-stderr retry --immediate --max 2 \
	    --on-success "$(hook success)" -- sh -c 'exit 4'
	run -2 --separate-stderr retry --immediate --stop-on 2 \
	    --on-success "$(hook success)" -- sh -c 'exit 2'
	[ ! -e "$D/hooks" ]
}

@test "--on-retry, --on-giveup and --on-success together: each when it should" {
	local hooks
	hooks=(--on-retry "$(hook retry)" --on-giveup "$(hook giveup)"
	    --on-success "$(hook success)")
	run -0 --separate-stderr retry --fixed 20ms "${hooks[@]}" -- flaky 2
	assert_equal "$(cat "$D/hooks")" "$(printf '%s\n' \
	    "retry 1 1 1 20 5" "retry 2 1 1 20 5" "success 3 0 0 0 5")"
	rm "$D/hooks"
	run -1 --separate-stderr retry --fixed 20ms --max 2 "${hooks[@]}" -- false
	assert_equal "$(cat "$D/hooks")" "$(printf '%s\n' \
	    "retry 1 1 1 20 2" "giveup 2 1 1 0 2")"
}

@test "--on EVENT:CMD is each hook's own option, given again they add up; --help all lists only --on; an unknown event is refused" {
	local hooks
	hooks=(--on retry:"$(hook retry)" --on giveup:"$(hook giveup)"
	    --on success:"$(hook success)")
	run -0 --separate-stderr retry --fixed 20ms "${hooks[@]}" -- flaky 2
	assert_equal "$(cat "$D/hooks")" "$(printf '%s\n' \
	    "retry 1 1 1 20 5" "retry 2 1 1 20 5" "success 3 0 0 0 5")"
	rm "$D/hooks"
	# With the old names, mixed: the same, in the order given.
	run -1 --separate-stderr retry --fixed 20ms --max 2 --on-retry "$(hook retry)" \
	    --on retry:"echo second >>'$D/hooks'" --on-giveup "$(hook giveup)" -- false
	assert_equal "$(cat "$D/hooks")" "$(printf '%s\n' \
	    "retry 1 1 1 20 2" second "giveup 2 1 1 0 2")"
	# CMD keeps its colons.
	run -0 --separate-stderr retry --on success:'echo a:b' -- true
	assert_equal "$stderr" "a:b"
	run -0 retry --help all
	assert_line --regexp '^  +--on EVENT:CMD \+ '
	refute_line --regexp '^ +--on-(retry|giveup|success) '
	run -125 retry --on failure:'echo x' -- true
	assert_usage_error "--on: unknown event in 'failure:echo x' \(give retry, giveup or success"
	run -125 retry --on giveup: -- true
	assert_usage_error "--on: 'giveup:': empty command"
}

@test "--on-success: its stdout on stderr, before the closing line; a failing hook is reported and changes nothing" {
	run -0 --separate-stderr retry --immediate \
	    --on-success 'echo from-hook; exit 3' -- flaky 1
	assert_equal "$output" "run 1
run 2"
	assert_equal "${#stderr_lines[@]}" 4
	assert_equal "${stderr_lines[1]}" "from-hook"
	assert_equal "${stderr_lines[2]}" "retry: flaky 1: --on success: exit 3"
	assert_regex "${stderr_lines[3]}" "^retry: flaky 1: succeeded on attempt 2 of 5 after "
}

@test "--on-success cannot hang retry past --timeout" {
	local t0
	t0=$(now_ms)
	run -0 --separate-stderr retry --timeout 300ms --on-success 'sleep 30' \
	    -- true
	# Long before the hook's 30s, on a busy host too.
	(($(now_ms) - t0 < 20000))
	assert_equal "$stderr" "retry: true: --on success: timed out"
}

# The lines of $D/out but elapsed_ms's value, which is checked to be a
# number of milliseconds no greater than the test's bound ($1 ms).
figures() {
	local ms
	ms=$(sed -n 's/^elapsed_ms=//p' "$D/out")
	[[ $ms =~ ^[0-9]+$ ]] || fail "elapsed_ms: '$ms'"
	((ms <= $1)) || fail "elapsed_ms $ms past $1"
	sed 's/^elapsed_ms=[0-9]*$/elapsed_ms=N/' "$D/out"
}

@test "--result-file: a success after 2 failures, exactly" {
	local t0
	t0=$(now_ms)
	run -0 --separate-stderr retry --fixed 50ms --result-file "$D/out" \
	    -- flaky 2
	assert_equal "$(figures $(($(now_ms) - t0)))" "$(printf '%s\n' \
	    result=success retry_status=0 total_attempts=3 succeeded_on=3 \
	    exit_code=0 elapsed_ms=N)"
	# At least the two delays.
	(($(sed -n 's/^elapsed_ms=//p' "$D/out") >= 100))
	assert_equal "$(stat -c %a "$D/out")" 600
}

@test "--result-file: a give-up, a stop, a command that cannot run, exactly" {
	skip_qemu "qemu-user runs vfork as fork, so a failed exec cannot tell retry its errno"
	run -4 --separate-stderr retry --immediate --max 2 --result-file "$D/out" \
	    -- sh -c 'exit 4'
	assert_equal "$(figures 60000)" "$(printf '%s\n' \
	    result=gave-up retry_status=4 total_attempts=2 succeeded_on= \
	    exit_code=4 elapsed_ms=N)"
	rm "$D/out"
	run -2 --separate-stderr retry --immediate --stop-on 2 \
	    --result-file "$D/out" -- flaky 5 2
	assert_equal "$(figures 60000)" "$(printf '%s\n' \
	    result=stopped retry_status=2 total_attempts=1 succeeded_on= \
	    exit_code=2 elapsed_ms=N)"
	rm "$D/out"
	run -127 --separate-stderr retry --result-file "$D/out" -- "$D/none"
	assert_equal "$(figures 60000)" "$(printf '%s\n' \
	    result=stopped retry_status=127 total_attempts=1 succeeded_on= \
	    exit_code= elapsed_ms=N)"
}

@test "--result-file: written as retry dies of a signal" {
	start_retry --result-file "$D/out" -- sh -c 'echo up >"$1"; exec sleep 30' \
	    sh "$D/up"
	echo "$RETRY_PID" >>"$D/pids"
	wait_lines "$D/up"
	kill -TERM "$RETRY_PID"
	wait_status "$RETRY_PID"
	assert_equal "$status" 143
	assert_equal "$(figures 60000)" "$(printf '%s\n' \
	    result=stopped retry_status=143 total_attempts=1 succeeded_on= \
	    exit_code=143 elapsed_ms=N)"
}

@test "--result-file: appended to what the file holds, a run after another" {
	printf 'earlier=1\n' >"$D/out"
	run -0 --separate-stderr retry --immediate --result-file "$D/out" -- true
	run -1 --separate-stderr retry --immediate --max 1 --result-file "$D/out" \
	    -- false
	assert_equal "$(sed 's/^elapsed_ms=[0-9]*$/elapsed_ms=N/' "$D/out")" \
	    "$(printf '%s\n' earlier=1 \
	    result=success retry_status=0 total_attempts=1 succeeded_on=1 \
	    exit_code=0 elapsed_ms=N \
	    result=gave-up retry_status=1 total_attempts=1 succeeded_on= \
	    exit_code=1 elapsed_ms=N)"
}

@test "--result-file: a FIFO that nobody reads is an error before the first attempt, not a hang" {
	mkfifo "$D/fifo"
	run -125 timeout 10 "$RETRY" --result-file "$D/fifo" -- touch "$D/ran"
	assert_setup_error "$(named touch "$D/ran"): --result-file"
	assert_line --index 0 "retry: $(command_name touch "$D/ran"): --result-file: $D/fifo: a FIFO that no process reads"
	[ ! -e "$D/ran" ]
}

@test "--result-file: a FIFO whose reader has no room holds no run: the figures are lost, said" {
	mkfifo "$D/fifo"
	# A reader that never reads, once the FIFO is full.
	sh -c 'dd if=/dev/zero of=/dev/fd/4 bs=4096 oflag=nonblock 2>/dev/null
	    echo full >"$1"; exec sleep 60' sh "$D/full" 4<>"$D/fifo" 3>&- &
	echo $! >>"$D/pids"
	wait_lines "$D/full"
	local t0
	t0=$(now_ms)
	run -0 --separate-stderr timeout 30 "$RETRY" --result-file "$D/fifo" -- true
	(($(now_ms) - t0 < 20000))
	assert_equal "$stderr" "retry: true: --result-file: not written: its reader did not take it"
}

@test "--result-file that cannot be opened: one line naming it, exit 125, nothing run" {
	run -125 --separate-stderr retry --result-file /nonexistent/dir/out \
	    -- touch "$D/ran"
	assert_equal "$stderr" "retry: $(command_name touch "$D/ran"): --result-file: /nonexistent/dir/out: No such file or directory"
	run -125 --separate-stderr retry --result-file "$D" -- touch "$D/ran"
	assert_equal "$stderr" "retry: $(command_name touch "$D/ran"): --result-file: $D: Is a directory"
	[ ! -e "$D/ran" ]
	needs_root "to act as a user who may not write the file"
	command -v setpriv >/dev/null || skip "setpriv is not installed"
	: >"$D/root-only"
	chmod 600 "$D/root-only"
	chmod 755 "$D"
	setpriv --reuid=65534 --regid=65534 --clear-groups true ||
		skip "cannot act as uid 65534"
	run -125 --separate-stderr setpriv --reuid=65534 --regid=65534 \
	    --clear-groups "$RETRY" --result-file "$D/root-only" -- true
	assert_equal "$stderr" "retry: true: --result-file: $D/root-only: Permission denied"
}

@test "--result-file refuses a symlink that another user planted in /tmp's kind of directory" {
	plant_symlink out
	run -125 retry --result-file "$SHARED/out" -- touch "$D/ran"
	assert_setup_error "$(named touch "$D/ran"): --result-file"
	assert_line --index 0 --partial "a symlink that another user (uid 65534)"
	assert_equal "$(cat "$D/private")" secret
	[ ! -e "$D/ran" ]
	# One's own symlink there is followed, as --log-file follows it.
	ln -s "$D/mine" "$SHARED/own"
	run -0 retry --result-file "$SHARED/own" -- true
	grep -qx result=success "$D/mine"
}

@test "--on-success and --result-file: an empty value is a usage error" {
	run -125 retry --on-success '' -- true
	assert_usage_error --on-success
	assert_line --index 0 --partial "empty command"
	run -125 retry --result-file '' -- true
	assert_usage_error --result-file
	assert_line --index 0 --partial "empty file name"
}
