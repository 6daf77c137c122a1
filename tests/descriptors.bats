#!/usr/bin/env bats
# The descriptors an attempt and a hook get: those retry was given, passed
# on untouched as timeout(1) passes them, and none of retry's own.
bats_require_minimum_version 1.5.0
load test_helper/common
load test_helper/tmux

setup() {
	D=$BATS_TEST_TMPDIR
	export D
}

teardown() {
	tmux_end
}

# Runs retry with fds 0, 1 and 2 and fd 5 (open on $D/five) only: what
# bats and its shell hold above 2 is closed first.
FD5_RUN='for f in /proc/$$/fd/*; do
		f=${f##*/}
		[ "$f" -le 2 ] || eval "exec $f>&-"
	done
	exec 5>"$D/five"
	exec timeout 60 "$RETRY" "$@"'
retry_fd5() {
	bash -c "$FD5_RUN" _ "$@"
}

# What an attempt or a hook runs to list its fds in $D/seen/$1: ls's own
# (the directory it reads) is told apart later by where it leads.
mkdir_seen() {
	mkdir -p "$D/seen"
}
lsfd() {
	printf 'ls -l /proc/self/fd >"$D/seen/%s"' "$1"
}

# Asserts that $1 listings were made in $D/seen, and that each saw fds 0,
# 1, 2 and 5, fd 5 on $D/five, and nothing else but ls's own.
assert_fds_seen() {
	local f n=0 fds
	for f in "$D"/seen/*; do
		[ -e "$f" ] || continue
		n=$((n + 1))
		fds=$(sed -n 's/.* \([0-9][0-9]*\) -> \(.*\)$/\1 \2/p' "$f" |
		    grep -Ev '^[0-9]+ /proc/[0-9]+/fd$' | cut -d' ' -f1 |
		    sort -n | tr '\n' ' ')
		[ "$fds" = "0 1 2 5 " ] ||
		    fail "${f##*/} had fds $fds:"$'\n'"$(cat "$f")"
		grep -q " 5 -> $D/five\$" "$f" ||
		    fail "${f##*/}: fd 5 is not $D/five:"$'\n'"$(cat "$f")"
	done
	assert_equal "$n listings" "$1 listings"
}

@test "a shell's <(...) reaches the command: cat and diff read it" {
	run -0 bash -c 'timeout 60 "$RETRY" --max 1 -- cat <(echo x)'
	assert_output x
	run -0 bash -c 'timeout 60 "$RETRY" --max 1 -- diff <(echo a) <(echo a)'
	assert_output ""
	run -1 bash -c 'timeout 60 "$RETRY" --max 1 -- diff <(echo a) <(echo b)'
	assert_line --index 0 1c1
}

@test "a descriptor the shell opened (exec 3>f) is the command's to write" {
	run -0 bash -c 'exec 3>"$D/f"; timeout 60 "$RETRY" --max 1 -- sh -c "echo hi >&3"'
	assert_output ""
	assert_equal "$(cat "$D/f")" hi
	# Every attempt writes there, after the one before.
	run -0 bash -c 'exec 3>"$D/g"; timeout 60 "$RETRY" --immediate --max 3 -q -- \
	    sh -c "echo \$RETRY_ATTEMPT >&3; [ \$RETRY_ATTEMPT = 3 ]"'
	assert_equal "$(cat "$D/g")" $'1\n2\n3'
}

@test "make -j4 with retry in a recipe: the sub-make keeps the jobserver and runs its jobs in parallel" {
	command -v make >/dev/null || skip "make is not installed"
	cd "$D"
	# Each job waits for the other's mark: both succeed only when they
	# run at the same time.  Without the jobserver the sub-make runs
	# one job at a time, and the first times out.
	printf '%s\n' all: '	+$(RETRY) --max 2 -- $(MAKE) -f sub.mk' >Makefile
	printf '%s\n' 'all: a b' 'a b:' \
	    '	@touch $@.started; timeout 30 sh -c '\''until [ -e $(if $(filter a,$@),b,a).started ]; do sleep 0.01; done'\' \
	    '	@echo $@ done' >sub.mk
	run -0 timeout 120 make -j4 RETRY="$RETRY"
	refute_output --partial "jobserver unavailable"
	assert_line "a done"
	assert_line "b done"
}

@test "the attempts and the hooks get the fds retry was given, and none of retry's own" {
	mkdir_seen
	run -1 retry_fd5 --immediate --max 2 -q \
	    --on-retry "$(lsfd on-retry)" --on-giveup "$(lsfd on-giveup)" \
	    -- sh -c "$(lsfd 'attempt.$RETRY_ATTEMPT'); exit 1"
	assert_fds_seen 4
}

@test "none of retry's own fds reaches an attempt or a hook with an output rule, --hold-stdout, --stdin replay and --log-file" {
	mkdir_seen
	run -1 retry_fd5 --immediate --max 2 -q --stdin replay --hold-stdout \
	    --fail-if-output never-printed --log-file "$D/log" \
	    --on-retry "$(lsfd on-retry)" --on-giveup "$(lsfd on-giveup)" \
	    -- sh -c "cat >/dev/null; $(lsfd 'attempt.$RETRY_ATTEMPT'); exit 1" \
	    <<<input
	assert_fds_seen 4
	[ -s "$D/log" ]
}

@test "none of retry's own fds reaches an attempt, --on-retry or --on-success with --result-file" {
	mkdir_seen
	run -0 retry_fd5 --immediate -q --result-file "$D/figures" \
	    --on-retry "$(lsfd on-retry)" --on-success "$(lsfd on-success)" \
	    -- sh -c "$(lsfd 'attempt.$RETRY_ATTEMPT'); [ \$RETRY_ATTEMPT -ge 2 ]"
	assert_fds_seen 4
	grep -qx result=success "$D/figures"
}

@test "none of retry's own fds reaches an attempt or a hook with --share in a file store" {
	mkdir_seen
	run -1 retry_fd5 --immediate --max 3 -q --share fds \
	    --share-store "file:$D/store" \
	    --on-retry "$(lsfd 'on-retry.$RETRY_ATTEMPT')" \
	    --on-giveup "$(lsfd on-giveup)" \
	    -- sh -c "$(lsfd 'attempt.$RETRY_ATTEMPT'); exit 1"
	assert_fds_seen 6
	[ -n "$(ls "$D/store")" ]
}

@test "none of retry's own fds reaches an attempt or a hook with --share in Redis" {
	load test_helper/redis
	redis_start
	mkdir_seen
	run -1 retry_fd5 --immediate --max 3 -q --share fds \
	    --share-store "$REDIS_URL" --share-required \
	    --on-retry "$(lsfd 'on-retry.$RETRY_ATTEMPT')" \
	    --on-giveup "$(lsfd on-giveup)" \
	    -- sh -c "$(lsfd 'attempt.$RETRY_ATTEMPT'); exit 1"
	redis_stop
	assert_fds_seen 6
}

@test "none of retry's own fds reaches an attempt or a hook with --share in Redis over TLS" {
	load test_helper/tls
	tls_start localhost
	mkdir_seen
	run -1 retry_fd5 --immediate --max 3 -q --share fds \
	    --share-store "$TLS_URL?$TLS_CA" --share-required \
	    --on-retry "$(lsfd 'on-retry.$RETRY_ATTEMPT')" \
	    --on-giveup "$(lsfd on-giveup)" \
	    -- sh -c "$(lsfd 'attempt.$RETRY_ATTEMPT'); exit 1"
	tls_stop
	assert_fds_seen 6
}

@test "none of retry's own fds reaches an attempt or a hook with --syslog" {
	# A syslog of the test's own at /dev/log, in a mount namespace of
	# its own: /dev is a directory of links to the real one, and log.
	[ -x /usr/bin/python3 ] || skip "no python3 for a syslog listener"
	unshare -m true 2>/dev/null || skip "no mount namespace here"
	mkdir_seen
	python3 -c '
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
with open(sys.argv[2], "ab", buffering=0) as f:
    while True:
        f.write(s.recv(65536) + b"\n")
' "$D/log" "$D/syslog" 3>&- &
	local pid=$!
	poll_until 60 test -S "$D/log"
	mkdir "$D/old" "$D/dev"
	run -1 unshare -m bash -c '
	    mount --rbind /dev "$D/old" || exit 9
	    for f in "$D"/old/*; do ln -s "$f" "$D/dev/"; done
	    ln -s "$D/log" "$D/dev/log"
	    ln -sfn /proc/self/fd "$D/dev/fd"
	    mount --bind "$D/dev" /dev || exit 9
	    '"$FD5_RUN" _ --immediate --max 2 -q --syslog \
	    --on-retry "$(lsfd on-retry)" --on-giveup "$(lsfd on-giveup)" \
	    -- sh -c "$(lsfd 'attempt.$RETRY_ATTEMPT'); exit 1"
	kill "$pid"
	wait "$pid" || true
	# retry's connection was open when attempt 2 and the hooks ran.
	grep -q 'retry\[[0-9]*\]: .*attempt 1/2 failed' "$D/syslog"
	assert_fds_seen 4
}

@test "none of retry's own fds reaches an attempt or a hook with an output rule at a terminal" {
	mkdir_seen
	# The run, in a script that the pane's shell runs.
	{
		printf 'export D=%q RETRY=%q\n' "$D" "$RETRY"
		printf 'exec bash -c %q _' "$FD5_RUN"
		printf ' %q' --immediate --max 2 -q --fail-if-output never-printed \
		    --on-retry "$(lsfd on-retry)" --on-giveup "$(lsfd on-giveup)" \
		    -- sh -c "$(lsfd 'attempt.$RETRY_ATTEMPT'); exit 1"
		printf '\n'
	} >"$D/go"
	tmux_pane 120 40 "bash --norc --noprofile -i"
	local tty pty
	tty=$(tmux -S "$SOCK" display-message -p '#{pane_tty}')
	type_line "bash '$D/go'; echo \$? >'$D/status'"
	wait_match "$D/status" . 60
	tmux_end
	assert_equal "$(cat "$D/status")" 1
	# Its stderr was retry's pseudo-terminal, not the pane's.
	pty=$(sed -n 's/.* 2 -> //p' "$D/seen/attempt.1")
	[[ $tty == /dev/pts/* && $pty == /dev/pts/* && $pty != "$tty" ]] ||
	    fail "pane $tty, stderr $pty: no pseudo-terminal of retry's"
	assert_fds_seen 4
}

@test "an inherited pipe ends for its reader with the command and retry, while a process of retry's still passes on output" {
	# fd 5 leads to a reader that notes the pipe's end.  The command
	# leaves a process, without fd 5, that writes to stdout later,
	# once told to; a process of retry's passes that on meanwhile.
	mkfifo "$D/pipe"
	{ cat "$D/pipe" >/dev/null; echo end >"$D/end"; } 3>&- &
	bash -c 'exec 5>"$D/pipe"
	    exec timeout 60 "$RETRY" -q --max 1 --until-output early -- sh -c "
	    (exec 5>&-; i=0
	    while [ ! -e \"\$0/go\" ] && [ \$i -lt 1200 ]; do
		sleep 0.05; i=\$((i + 1)); done
	    echo late) & echo early" "$D"' >"$D/out" 3>&-
	wait_match "$D/end" . 60
	assert_equal "$(cat "$D/out")" early
	touch "$D/go"
	wait_match "$D/out" late 60
}

# The lines of a two-attempt run of COMMAND that prints NAME1 and NAME2
# on the way, with --log-file's lines (their time first) among them, in
# order: FILE NAME COMMAND...
assert_log_interleaved() {
	local t='^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]+Z retry: ' n
	n=$(named "${@:3}")
	run cat "$1"
	assert_equal "${#lines[@]}" 6
	assert_line --index 0 --regexp "${t}$n: attempt 1/2 starting\$"
	assert_line --index 1 "${2}1"
	assert_line --index 2 --regexp "${t}$n: attempt 1/2 failed: exit 1 "
	assert_line --index 3 --regexp "${t}$n: attempt 2/2 starting\$"
	assert_line --index 4 "${2}2"
	assert_line --index 5 --regexp "${t}$n: giving up after 2 attempts "
}

@test "--log-file -: the log's lines on stderr, no file named -" {
	cd "$D"
	run -1 --separate-stderr retry -q --max 2 -d 0 --log-file - -- \
	    sh -c 'echo out$RETRY_ATTEMPT; exit 1'
	assert_output $'out1\nout2'
	printf '%s\n' "${stderr_lines[@]}" >"$D/err"
	sed -i '/^out/d' "$D/err"
	run -0 grep -c . "$D/err"
	assert_output 4
	run -0 grep -Ec '^[0-9-]{10}T[0-9:.]+Z retry: ' "$D/err"
	assert_output 4
	assert [ ! -e "$D/-" ]
}

@test "--log-file /dev/stdout and /dev/stderr into a file opened with >: the log and the command's output take turns" {
	retry -q --max 2 -d 0 --log-file /dev/stdout -- \
	    sh -c 'echo out$RETRY_ATTEMPT; exit 1' >"$D/out" || true
	assert_log_interleaved "$D/out" out sh -c 'echo out$RETRY_ATTEMPT; exit 1'
	retry -q --max 2 -d 0 --log-file /dev/stderr -- \
	    sh -c 'echo err$RETRY_ATTEMPT >&2; exit 1' 2>"$D/err" || true
	assert_log_interleaved "$D/err" err sh -c 'echo err$RETRY_ATTEMPT >&2; exit 1'
	# Through an output rule and --hold-stdout too: the held output
	# of the attempt that succeeded, after the lines that came before.
	retry -q --max 2 -d 0 --log-file /dev/stdout --hold-stdout \
	    --fail-if-output never-printed -- \
	    sh -c 'echo out$RETRY_ATTEMPT; [ $RETRY_ATTEMPT = 2 ]' >"$D/held"
	run -0 cat "$D/held"
	local n
	n=$(named sh -c 'echo out$RETRY_ATTEMPT; [ $RETRY_ATTEMPT = 2 ]')
	assert_line --index 0 --regexp "Z retry: $n: attempt 1/2 starting\$"
	assert_line --index 1 --regexp "Z retry: $n: attempt 1/2 failed: exit 1 "
	assert_line --index 2 --regexp "Z retry: $n: attempt 2/2 starting\$"
	assert_line --index 3 out2
	assert_line --index 4 --regexp 'Z retry: '
}

@test "--log-file /dev/fd/N and /proc/self/fd/N: the descriptor retry was given, written in turn with the command" {
	bash -c 'exec 5>"$D/five"; timeout 60 "$RETRY" -q --max 2 -d 0 \
	    --log-file /dev/fd/5 -- sh -c "echo five\$RETRY_ATTEMPT >&5; exit 1"' || true
	assert_log_interleaved "$D/five" five sh -c 'echo five$RETRY_ATTEMPT >&5; exit 1'
	bash -c 'exec 6>>"$D/six"; timeout 60 "$RETRY" -q --max 2 -d 0 \
	    --log-file /proc/self/fd/6 -- sh -c "echo six\$RETRY_ATTEMPT >&6; exit 1"' || true
	assert_log_interleaved "$D/six" six sh -c 'echo six$RETRY_ATTEMPT >&6; exit 1'
}

@test "--log-file naming a descriptor that is not open, or not for writing: one line, exit 125, nothing run" {
	run retry --log-file /dev/fd/47 -- touch "$D/ran"
	assert_setup_error "--log-file: /dev/fd/47: Bad file descriptor\$"
	run retry --log-file /proc/self/fd/99999999999 -- touch "$D/ran"
	assert_setup_error "--log-file: /proc/self/fd/99999999999: Bad file descriptor\$"
	run retry --log-file /dev/stdin -- touch "$D/ran" <"$D"
	assert_setup_error "--log-file: /dev/stdin: descriptor 0 is not open for writing\$"
	assert [ ! -e "$D/ran" ]
}
