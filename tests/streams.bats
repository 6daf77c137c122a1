#!/usr/bin/env bats
# Output rules, --stdin and --hold-stdout, with real output.
bats_require_minimum_version 1.5.0
load test_helper/common
load test_helper/procs

setup() {
	own_tmpdir
}

teardown() {
	kill_recorded
}

@test "--until-output: exit 0 without the line is a failure; with it, a success" {
	run -0 --separate-stderr retry --immediate --until-output '^ready$' -- \
	    sh -c 'echo "try $RETRY_ATTEMPT"; [ "$RETRY_ATTEMPT" -lt 3 ] || echo ready'
	assert_equal "$output" "$(printf 'try 1\ntry 2\ntry 3\nready')"
	assert_equal "${stderr_lines[0]}" "${stderr_lines[0]%%after*}after${stderr_lines[0]#*after}"
	local name
	name=$(named sh -c 'echo "try $RETRY_ATTEMPT"; [ "$RETRY_ATTEMPT" -lt 3 ] || echo ready')
	[[ ${stderr_lines[0]} =~ ^retry:\ $name:\ attempt\ 1/5\ failed:\ exit\ 0\ after\ [0-9.]+(ns|us|ms|s)\ \(no\ line\ matched\ --output\ until\)\;\ next\ attempt\ in\ 0s$ ]]
	[[ ${stderr_lines[2]} == "retry: $(command_name sh -c 'echo "try $RETRY_ATTEMPT"; [ "$RETRY_ATTEMPT" -lt 3 ] || echo ready'): succeeded on attempt 3 of 5 after "* ]]
	assert_equal "${#stderr_lines[@]}" 3
}

@test "--until-output that never matches gives up, and never exits 0" {
	run -1 --separate-stderr retry --immediate --max 2 --until-output ready -- echo not yet
	# exit 0 is the last status, but the run did not succeed: exit 1.
	[[ ${stderr_lines[1]} =~ ^retry:\ echo\ not\ yet:\ giving\ up\ after\ 2\ attempts\ in\ .*:\ exit\ 0\ \(no\ line\ matched\ --output\ until\)$ ]]
}

@test "a line split across writes still matches" {
	run -0 retry --immediate --max 1 --until-output '^ready now$' -- \
	    sh -c 'printf "rea"; sleep 0.2; printf "dy "; sleep 0.2; printf "now\n"'
	assert_output "ready now"
}

@test "the last line matches without a final newline" {
	run -0 retry --max 1 --until-output 'done$' -- printf 'all done'
}

@test "a pattern does not match across lines" {
	run -1 retry --immediate --max 1 -q --until-output 'ab' -- printf 'a\nb\n'
	assert_output "$(printf 'a\nb')"
}

@test "a line longer than 64 KiB is matched whole, a match across pieces too" {
	run -0 retry -q --max 1 --until-output MARK -- \
	    sh -c 'printf MARK; head -c 100000 /dev/zero | tr "\0" x; echo'
	run -0 retry -q --max 1 --until-output XY -- \
	    sh -c 'head -c 65535 /dev/zero | tr "\0" a; printf XY; head -c 1000 /dev/zero | tr "\0" a; echo'
	run -0 retry -q --max 1 --until-output XY -- \
	    sh -c 'head -c 65534 /dev/zero | tr "\0" a; printf XY; head -c 1000 /dev/zero | tr "\0" a; echo'
}

@test "--match stdout ignores stderr, --match stderr ignores stdout, both reads both" {
	run -1 --separate-stderr retry -q --max 1 --match stdout --until-output ok -- sh -c 'echo ok >&2'
	run -1 --separate-stderr retry -q --max 1 --match stderr --until-output ok -- sh -c 'echo ok'
	run -0 --separate-stderr retry -q --max 1 --match both --until-output ok -- sh -c 'echo ok >&2'
	run -0 --separate-stderr retry -q --max 1 --until-output ok -- sh -c 'echo ok'
	run -0 --separate-stderr retry -q --max 1 --match stderr --until-output ok -- sh -c 'echo ok >&2'
}

@test "stdout and stderr written to one file: both read by the rules, unless --match names one" {
	run -0 retry -q --max 1 --until-output ok -- sh -c 'echo ok >&2'
	run -0 retry -q --max 1 --match both --until-output ok -- sh -c 'echo ok'
	run -1 retry -q --max 1 --match stdout --until-output ok -- sh -c 'echo ok >&2'
	run -1 retry -q --max 1 --match stderr --until-output ok -- sh -c 'echo ok'
}

@test "-i matches any case; without it case counts" {
	run -1 retry -q --max 1 --until-output 'connection reset' -- echo 'Connection Reset'
	run -0 retry -q --max 1 -i --until-output 'connection reset' -- echo 'Connection Reset'
	run -0 retry -q --max 1 --until-output 'connection reset' -i -- echo 'CONNECTION RESET'
}

@test "-F takes the pattern as a plain string" {
	run -0 retry -q --max 1 --until-output 'a.c' -- echo abc
	run -1 retry -q --max 1 -F --until-output 'a.c' -- echo abc
	run -0 retry -q --max 1 -F --until-output 'a.c' -- echo 'x a.c y'
	run -0 retry -q --max 1 -F --until-output '[x](' -- echo 'see [x]( here'
	run -0 retry -q --max 1 -F -i --until-output 'A.C' -- echo 'a.c'
}

@test "regexes: alternation, classes, anchors" {
	run -0 retry -q --max 1 --until-output '^(up|ready) [0-9]+$' -- echo 'ready 42'
	run -1 retry -q --max 1 --until-output '^(up|ready) [0-9]+$' -- echo 'now ready 42'
}

@test "--fail-if-output makes an exit 0 a failure" {
	run -0 --separate-stderr retry --immediate --fail-if-output 'rate limit' -- \
	    sh -c '[ "$RETRY_ATTEMPT" -ge 2 ] || echo "error: rate limit" >&2'
	[[ ${stderr_lines[0]} == "error: rate limit" ]]
	local name
	name=$(command_name sh -c '[ "$RETRY_ATTEMPT" -ge 2 ] || echo "error: rate limit" >&2')
	[[ ${stderr_lines[1]} =~ ^retry:\ $(named sh -c '[ "$RETRY_ATTEMPT" -ge 2 ] || echo "error: rate limit" >&2'):\ attempt\ 1/5\ failed:\ exit\ 0\ after\ .*\ \(a\ line\ matched\ --output\ fail\)\;\ next\ attempt\ in\ 0s$ ]]
	[[ ${stderr_lines[2]} == "retry: $name: succeeded on attempt 2 of 5 after "* ]]
	assert_equal "${#stderr_lines[@]}" 3
}

@test "--stop-if-output stops at once with the attempt's status" {
	run -3 --separate-stderr retry --immediate --stop-if-output 'fatal' -- \
	    sh -c 'echo "fatal: bad config"; exit 3'
	assert_equal "$output" "fatal: bad config"
	assert_equal "$stderr" "retry: $(command_name sh -c 'echo "fatal: bad config"; exit 3'): stopping: exit 3, and a line matched --output stop"
}

@test "--stop-if-output comes before success; the run exits 1, not 0" {
	run -1 --separate-stderr retry --immediate --stop-if-output deprecated -- echo deprecated
	assert_equal "$stderr" "retry: echo deprecated: stopping: exit 0, and a line matched --output stop"
}

@test "--retry-if-output retries what matches and stops on the rest" {
	echo 0 >"$D/n"
	run -1 --separate-stderr retry --immediate --retry-if-output 'reset' -- \
	    sh -c 'n=$(($(cat "$1") + 1)); echo $n >"$1"; [ $n -lt 3 ] && echo "connection reset"; [ $n -ge 3 ] && echo "permission denied"; exit 1' sh "$D/n"
	assert_equal "$(cat "$D/n")" 3
	assert_equal "${stderr_lines[-1]}" "retry: $(command_name sh -c 'n=$(($(cat "$1") + 1)); echo $n >"$1"; [ $n'): stopping: exit 1, and no line matched --output retry"
}

@test "--retry-on and --retry-if-output: either one retries" {
	run -0 retry -q --immediate --retry-on 7 --retry-if-output transient -- \
	    sh -c 'case $RETRY_ATTEMPT in 1) exit 7;; 2) echo transient; exit 1;; esac'
	run -2 --separate-stderr retry --immediate --retry-on 7 --retry-if-output transient -- sh -c 'exit 2'
	assert_equal "$stderr" "retry: sh -c 'exit 2': stopping: exit 2 is not a --retry-on status, and no line matched --output retry"
}

@test "output flows on while the command runs, before it ends" {
	retry -q --max 1 --until-output two -- \
	    sh -c 'echo one; while [ ! -e "$1" ]; do sleep 0.05; done; echo two' \
	    sh "$D/go" >"$D/out" 3>&- &
	local pid=$!
	poll_until 10 eval '[ "$(cat "$D/out")" = one ]'
	assert_equal "$(cat "$D/out")" one
	touch "$D/go"
	wait "$pid"
	assert_equal "$(cat "$D/out")" "$(printf 'one\ntwo')"
}

@test "stdout and stderr keep their own order and destinations" {
	run -0 --separate-stderr retry -q --max 1 --until-output . -- \
	    sh -c 'for i in 1 2 3; do echo "out $i"; echo "err $i" >&2; done'
	assert_equal "$output" "$(printf 'out 1\nout 2\nout 3')"
	assert_equal "$stderr" "$(printf 'err 1\nerr 2\nerr 3')"
}

@test "binary output passes through byte for byte" {
	head -c 3000000 /dev/urandom >"$D/bin"
	retry -q --max 1 --fail-if-output 'never there' -- cat "$D/bin" >"$D/copy"
	cmp "$D/bin" "$D/copy"
}

@test "the output of a process left behind is passed on, not judged" {
	run -1 retry -q --max 1 --until-output late -- sh -c '(sleep 0.3; echo late) & echo early'
	assert_output "$(printf 'early\nlate')"
}

# Where the command's fd $1 leads, with retry's stdout and stderr files.
fd_target() {
	local fd=$1
	shift
	retry -q --max 1 "$@" -- sh -c 't=$(readlink /proc/$$/fd/$1); echo "$t" >"$2"; echo .' \
	    sh "$fd" "$D/where" >"$D/out" 2>"$D/err"
	cat "$D/where"
}

@test "without output rules the command's stdout is retry's own, not a pipe" {
	assert_equal "$(fd_target 1)" "$D/out"
	assert_equal "$(fd_target 2)" "$D/err"
	[[ $(fd_target 1 --until-output .) == pipe:* ]]
	[[ $(fd_target 2 --until-output .) == pipe:* ]]
	assert_equal "$(fd_target 2 --match stdout --until-output .)" "$D/err"
	assert_equal "$(fd_target 1 --match stderr --until-output .)" "$D/out"
}

@test "--stdin replay gives 20 MB of binary stdin from a pipe to three attempts" {
	head -c 20000000 /dev/urandom >"$D/in"
	want=$(cksum <"$D/in")
	cat "$D/in" | retry -q --immediate --max 3 --stdin replay -- \
	    sh -c 'cksum >>"$1"; exit 1' sh "$D/sums" || true
	assert_equal "$(wc -l <"$D/sums")" 3
	assert_equal "$(sort -u "$D/sums")" "$want"
	assert_no_temp_files
}

@test "--stdin replay from a file starts where the file's offset was" {
	printf 'skip me\nline 2\nline 3\n' >"$D/in"
	run -1 bash -c '{ read -r first; "$RETRY" -q --immediate --max 2 --stdin replay -- sh -c "cat >>\"\$1\"; exit 1" sh "$1"; } <"$2"' \
	    _ "$D/got" "$D/in"
	assert_equal "$(cat "$D/got")" "$(printf 'line 2\nline 3\nline 2\nline 3')"
}

@test "--stdin replay: each attempt may read only part, the next starts over" {
	run -0 bash -c 'printf "1\n2\n3\n" | "$RETRY" -q --immediate --stdin replay -- sh -c "read -r x; echo \$x; [ \$RETRY_ATTEMPT -ge 2 ]"'
	assert_output "$(printf '1\n1')"
}

# An input that comes slowly: its writer waits for an event of the run
# (a file, up to about 20 s) before it writes more, and says in $D/saw
# whether the event came.
@test "--stdin replay streams: the first attempt reads the input as it arrives" {
	# Not poll_until: the writer is a bash of its own, and may not fail.
	run -0 timeout 60 bash -c '{ echo a
	    for ((i = 0; i < 400; i++)); do
	    [ -e "$1/done" ] && { echo saw >"$1/saw"; break; }; sleep 0.05; done
	    echo b; } | { "$RETRY" --stdin replay --max 1 -- sh -c "read -r x; echo \$x"
	    echo $? >"$1/done"; }' _ "$D"
	assert_output a
	# retry ended while what writes its stdin still waited.
	assert_equal "$(cat "$D/saw")" saw
	assert_equal "$(cat "$D/done")" 0
}

@test "--stdin replay: tail -f's lines reach the attempt while tail runs" {
	echo first >"$D/log"
	run -0 timeout 60 bash -c 'exec 4< <(exec tail -f "$1"); tailpid=$!
	    "$RETRY" --stdin replay --max 1 -- sh -c "read -r x; echo got \$x" <&4
	    st=$?; kill -0 "$tailpid" && echo tail still runs; kill "$tailpid"
	    exit $st' _ "$D/log"
	assert_output "$(printf 'got first\ntail still runs')"
}

@test "--stdin replay: --budget and --timeout hold while the input has not ended" {
	run -124 --separate-stderr timeout 60 bash -c 'exec 4< <(exec sleep 30); p=$!
	    t0=$(date +%s%N)
	    "$RETRY" --stdin replay --fixed 100ms --budget 2s --timeout 1s -- cat <&4
	    st=$?; echo $((($(date +%s%N) - t0) / 1000000)) >"$1"; kill "$p"
	    exit $st' _ "$D/ms"
	(($(cat "$D/ms") < 15000)) || fail "ended after $(cat "$D/ms") ms"
	assert_regex "${stderr_lines[0]}" '^retry: cat: attempt 1 failed: timed out after 1(\.[0-9]+)?s; next attempt in 100ms$'
	assert_regex "${stderr_lines[-1]}" '^retry: cat: giving up after [2-9] attempts in '
}

@test "--stdin replay: 5 MB, byte for byte, to an attempt that read part, one that started before the input ended, and one after" {
	head -c 2500000 /dev/urandom >"$D/a"
	head -c 2500000 /dev/urandom >"$D/b"
	want=$(cat "$D/a" "$D/b" | cksum)
	# The second half is written once attempt 2 has started.  Not
	# poll_until: the writer is a bash of its own, and may not fail.
	run -1 timeout 60 bash -c '{ cat "$1/a"
	    for ((i = 0; i < 400; i++)); do
	    [ -e "$1/started" ] && { echo saw >"$1/saw"; break; }; sleep 0.05; done
	    cat "$1/b"; } | "$RETRY" -q --immediate --max 3 --stdin replay -- sh -c "
	    case \$RETRY_ATTEMPT in
	    1) head -c 1000000 >/dev/null ;;
	    2) : >\"\$1/started\"; cksum >>\"\$1/sums\" ;;
	    3) cat >\"\$1/copy\" ;;
	    esac
	    exit 1" sh "$1"' _ "$D"
	assert_equal "$(cat "$D/saw")" saw
	assert_equal "$(cat "$D/sums")" "$want"
	cat "$D/a" "$D/b" | cmp - "$D/copy"
	assert_no_temp_files
}

@test "--stdin replay: an attempt that closes its stdin early kills nothing and loses nothing" {
	seq 1 200000 >"$D/in"
	run -0 bash -c 'cat "$1" | "$RETRY" -q --immediate --stdin replay -- sh -c "
	    if [ \$RETRY_ATTEMPT -eq 1 ]; then head -n 1; exit 1; fi; cat >\"\$1\"" sh "$2"' _ "$D/in" "$D/copy"
	assert_output 1
	cmp "$D/in" "$D/copy"
}

@test "--stdin replay: an attempt that does not read holds its writer back, as a pipe would; the back-off sleep records the rest" {
	# 20 MB fit in no pipe: the writer can end only once it is read.
	run -0 --separate-stderr timeout 60 bash -c '{ head -c 20000000 /dev/zero; : >"$1/wrote"; } |
	    "$RETRY" --stdin replay --fixed 100ms -- sh -c "
	    if [ \$RETRY_ATTEMPT -eq 1 ]; then
	    sleep 1; [ -e \"\$1/wrote\" ] || echo held; exit 1; fi
	    wc -c" sh "$1"' _ "$D"
	assert_output "$(printf 'held\n20000000')"
}

@test "--stdin replay: retry's memory stays bounded while a large input streams" {
	[ -z "${RETRY_UNDER:-}" ] ||
		skip "resident memory means little under $RETRY_UNDER"
	# The attempt reads 64 MB, then retry's peak resident set.
	run -0 bash -c 'head -c 64000000 /dev/zero | "$RETRY" -q --stdin replay -- sh -c "
	    wc -c; while read -r key kb _; do
	    [ \"\$key\" != VmHWM: ] || echo \$kb; done </proc/\$PPID/status"'
	assert_equal "${lines[0]}" 64000000
	((${lines[1]} < 16384)) || fail "retry's peak resident set: ${lines[1]} KiB"
}

@test "--stdin replay: TERM while the input flows ends retry at once" {
	bash -c 'while :; do echo line; sleep 0.01; done' 3>&- |
	    "$RETRY" --stdin replay -- sh -c 'echo $$ >"$1"; exec cat >/dev/null' sh "$D/pid" \
	    >/dev/null 2>"$D/err" 3>&- &
	local pid=$! st=0
	echo "$pid" >"$D/pids"
	wait_lines "$D/pid"
	kill -TERM "$pid"
	assert_gone "$pid"
	assert_gone "$(cat "$D/pid")"
	wait "$pid" || st=$?
	assert_equal "$st" 143
}

@test "--stdin inherit never reads stdin itself: while read loops keep their input" {
	run -0 bash -c 'printf "a\nb\nc\n" | while read -r x; do "$RETRY" -q --max 2 -- true; echo "$x"; done'
	assert_output "$(printf 'a\nb\nc')"
	run -0 bash -c 'printf "a\nb\nc\n" | while read -r x; do "$RETRY" -q --max 2 --until-output . -- echo "[$x]"; done'
	assert_output "$(printf '[a]\n[b]\n[c]')"
}

@test "--stdin null: attempts read nothing, and the input stays" {
	run -0 bash -c 'printf "a\nb\n" | { "$RETRY" -q --stdin null -- sh -c "cat; echo end"; cat; }'
	assert_output "$(printf 'end\na\nb')"
}

@test "--hold-stdout: a pipeline sees only the successful attempt's stdout" {
	run -0 --separate-stderr bash -c '"$RETRY" --immediate --hold-stdout -- sh -c "echo out \$RETRY_ATTEMPT; [ \$RETRY_ATTEMPT -ge 3 ]" | cat'
	assert_equal "$output" "out 3"
	assert_equal "${stderr_lines[0]}" "out 1"
	local name
	name=$(named sh -c "echo out \$RETRY_ATTEMPT; [ \$RETRY_ATTEMPT -ge 3 ]")
	[[ ${stderr_lines[1]} =~ ^retry:\ $name:\ attempt\ 1/5\ failed ]]
	assert_equal "${stderr_lines[2]}" "out 2"
	[[ ${stderr_lines[3]} =~ ^retry:\ $name:\ attempt\ 2/5\ failed ]]
	[[ ${stderr_lines[4]} =~ ^retry:\ $name:\ succeeded\ on\ attempt\ 3\ of\ 5 ]]
	assert_equal "${#stderr_lines[@]}" 5
	assert_no_temp_files
}

@test "--hold-stdout: a run that never succeeds gives stdout nothing, as Debian's retry and recur" {
	run -1 --separate-stderr retry --immediate --max 2 --hold-stdout -- sh -c 'echo "out $RETRY_ATTEMPT"; exit 1'
	assert_equal "$output" ""
	assert_equal "${stderr_lines[0]}" "out 1"
	assert_equal "${stderr_lines[2]}" "out 2"
	[[ ${stderr_lines[3]} =~ ^retry:\ $(named sh -c 'echo "out $RETRY_ATTEMPT"; exit 1'):\ giving\ up\ after\ 2\ attempts ]]
	# A stop-on status ends the run too, without a success.
	run -3 --separate-stderr retry --hold-stdout --stop-on 3 -- sh -c 'echo page; exit 3'
	assert_equal "$output" ""
	assert_equal "${stderr_lines[0]}" "page"
}

@test "--hold-stdout keeps binary output byte for byte, whatever its size" {
	head -c 5000000 /dev/urandom >"$D/bin"
	retry -q --immediate --hold-stdout -- sh -c 'cat "$1"; [ "$RETRY_ATTEMPT" -ge 2 ]' sh "$D/bin" >"$D/copy" 2>"$D/err"
	cmp "$D/bin" "$D/copy"
	cmp "$D/bin" "$D/err"
}

@test "--hold-stdout with an output rule" {
	run -0 --separate-stderr retry --immediate --hold-stdout --until-output ready -- \
	    sh -c 'echo "try $RETRY_ATTEMPT"; [ "$RETRY_ATTEMPT" -lt 2 ] || echo ready'
	assert_equal "$output" "$(printf 'try 2\nready')"
	assert_equal "${stderr_lines[0]}" "try 1"
}

@test "spools live in memory, and are gone after SIGTERM" {
	skip_under_valgrind "it keeps files of its own in TMPDIR"
	skip_portable "no memfd: spools are files in TMPDIR"
	"$RETRY" --stdin replay --hold-stdout -- sh -c 'echo $$ >"$1"; sleep 100' sh "$D/pid" \
	    </dev/null >/dev/null 2>&1 3>&- &
	local rpid=$!
	echo "$rpid" >"$D/retry.pid"
	poll_until 10 test -s "$D/pid"
	assert_no_temp_files
	# retry holds them open, in memory.
	run -0 bash -c "ls -l /proc/$rpid/fd | grep -c '/memfd:retry (deleted)'"
	assert_output 2
	kill -TERM "$rpid"
	local st=0
	wait "$rpid" || st=$?
	assert_equal "$st" 143
	assert_no_temp_files
}

@test "a TMPDIR that does not exist is no matter: spools live in memory" {
	skip_under_valgrind "it needs TMPDIR itself"
	skip_portable "no memfd: spools are files in TMPDIR"
	export TMPDIR=$D/missing
	run -0 --separate-stderr retry --stdin replay -- cat <<<"in"
	assert_output "in"
	run -0 --separate-stderr retry --hold-stdout -- echo out
	assert_output "out"
}

@test "bad patterns and values are usage errors" {
	run -125 retry --until-output 'a[' -- true
	assert_usage_error "--output until"
	run -125 retry --fail-if-output '(' -- true
	assert_usage_error "--output fail"
	run -125 retry --retry-if-output 'a{2,1}' -- true
	assert_usage_error "--output retry"
	run -125 retry --stop-if-output '' -- true
	assert_usage_error "--output stop"
	run -125 retry --match stdoutt --until-output x -- true
	assert_usage_error --match
	run -125 retry --match stdout -- true
	assert_usage_error --match
	run -125 retry -F -- true
	assert_usage_error --fixed-strings
	run -125 retry -i -- true
	assert_usage_error --ignore-case
	run -125 retry --stdin replayy -- true
	assert_usage_error --stdin
	run -125 retry --stdin -- true
	assert_usage_error --stdin
}

@test "regex rules agree with grep -E, the plain-string shortcuts included" {
	printf '%s\n' 'listening on port 8080' 'ac' 'aaab' 'x.y' 'foo' 'fooo bar' \
	    'tab	here' 'a+b literal' 'end$' '[x]' 'C:\path' 'ABC def' >"$D/lines"
	local re want got
	for re in 'listening on port [0-9]+' 'port [0-9]{5}' 'ab*c' 'a+b' 'x\.y' \
	    'xzy|x\.y' 'fo{2}' 'fo{4}' 'o+ b' '^foo$' '^fooo' 'bar$' '[[:space:]]here' \
	    'a\+b' 'end\$' '\[x\]' 'C:\\path' '(ab)+' 'b?c' 'abc' 'def' 'q*' \
	    'por?t 80' 'listening  on' 'port [0-9]+0$' '(foo|bar) ba' 'o{2,}'; do
		want=0 got=0
		grep -qE -- "$re" "$D/lines" || want=1
		"$RETRY" -q --max 1 --until-output "$re" -- cat "$D/lines" >/dev/null || got=1
		[ "$got" = "$want" ] || fail "'$re': retry $got, grep -E $want"
	done
}

@test "a pattern that stacks quantifiers is refused at once" {
	local t0 t1
	t0=$(now_ms)
	run -125 retry --until-output '\\**+++++++*********\**********++++++++*l***y*' -- true
	t1=$(now_ms)
	assert_usage_error "--output until"
	assert_line --index 0 --partial "quantifier does not follow a repeatable item"
	# The refusal decides; the bound is for a busy host.
	((t1 - t0 < 10000))
	run -125 retry --delay-from-output '(x)a+++' -- true
	assert_usage_error "--output delay"
	# Two in a row, as in .*?, are fine.
	run -0 retry -q --max 1 --until-output 'a.*?b' -- echo axb
}

@test "a report starts a line of its own after output that ended mid-line" {
	run -1 bash -c '"$RETRY" -n 2 --immediate --until-output zzz -- sh -c "printf Pending; exit 1" 2>&1'
	assert_line --index 0 "Pending"
	assert_line --index 1 --partial "retry: sh -c 'printf Pending...: attempt 1/2 failed"
	assert_line --index 2 "Pending"
	assert_line --index 3 --partial "retry: sh -c 'printf Pending...: giving up after 2 attempts"
	run -1 --separate-stderr retry -n 1 --until-output zzz -- sh -c 'printf Pending >&2; exit 1'
	assert_equal "${stderr_lines[0]}" "Pending"
	assert_equal "${#stderr_lines[@]}" 2
	# Held output given to stderr, too; a whole line is left as it is.
	run -1 --separate-stderr retry -n 2 --immediate --hold-stdout -- sh -c 'printf page; exit 1'
	assert_equal "${stderr_lines[0]}" "page"
	assert_equal "${stderr_lines[2]}" "page"
	run -1 --separate-stderr retry -n 1 --until-output zzz -- sh -c 'echo whole >&2; exit 1'
	assert_equal "${stderr_lines[0]}" "whole"
	assert_equal "${#stderr_lines[@]}" 2
}

@test "an attempt that used up the stdin that attempts share is said once, naming --stdin replay" {
	local said="attempt 1 read stdin: the next attempt will not see that input again (--stdin replay gives every attempt all of it)"
	# A pipe read to its end.
	run -1 bash -c 'printf "a\nb\n" | "$RETRY" -n 3 --immediate -- sh -c "cat >/dev/null; exit 1"'
	assert_line --index 1 "retry: $(command_name sh -c "cat >/dev/null; exit 1"): $said"
	assert_equal "$(grep -c 'read stdin' <<<"$output")" 1
	# A file whose offset moved.
	printf 'a\nb\n' >"$BATS_TEST_TMPDIR/in"
	run -1 retry -n 2 --immediate -- sh -c 'read x; exit 1' <"$BATS_TEST_TMPDIR/in"
	assert_line --index 1 "retry: $(command_name sh -c 'read x; exit 1'): $said"
	# Nothing read, an empty pipe, /dev/null, --stdin replay, a success: nothing said.
	run -1 retry -n 2 --immediate -- false <"$BATS_TEST_TMPDIR/in"
	refute_output --partial "read stdin"
	# (A pipe whose writer has already gone: one that goes during the
	# first attempt cannot be told from one that attempt read to its end.)
	run -1 python3 -c 'import os, sys
r, w = os.pipe()
os.close(w)
os.dup2(r, 0)
os.execv(sys.argv[1], sys.argv[1:])' "$RETRY" -n 2 --immediate -- sh -c "cat; exit 1"
	refute_output --partial "read stdin"
	run -1 retry -n 2 --immediate -- sh -c 'cat; exit 1' </dev/null
	refute_output --partial "read stdin"
	run -1 retry -n 2 --immediate --stdin replay -- sh -c 'cat >/dev/null; exit 1' <"$BATS_TEST_TMPDIR/in"
	refute_output --partial "read stdin"
	run -0 bash -c 'printf "a\n" | "$RETRY" -n 2 -- sh -c "cat >/dev/null"'
	refute_output --partial "read stdin"
}

@test "--match stdout or stderr holds when both streams go to one place" {
	run -0 bash -c '"$RETRY" -n 1 --fail-if-output ERROR --match stdout -- sh -c "echo ERROR >&2" 2>&1'
	assert_output "ERROR"
	run -1 bash -c '"$RETRY" -n 1 --fail-if-output ERROR --match stdout -- sh -c "echo ERROR" 2>&1'
	assert_line --index 0 "ERROR"
	run -0 bash -c '"$RETRY" -n 1 --fail-if-output ERROR --match stderr -- echo ERROR 2>&1'
	run -0 bash -c '"$RETRY" -n 1 --fail-if-output ERROR --match stdout -- sh -c "echo ERROR >&2" >/dev/null 2>&1'
	# Both streams still arrive, whole, in the order of lines written
	# apart in time.
	run -0 bash -c '"$RETRY" -n 1 --until-output b --match stdout -- sh -c "echo a >&2; sleep 0.1; echo b; sleep 0.1; echo c >&2" 2>&1'
	assert_output "$(printf 'a\nb\nc')"
}

# same_run ARGS...: retry run with ARGS, its status and its output (stdout
# and stderr, in order) with the times taken out, as "status: output".
same_run() {
	local out rc=0
	out=$("$RETRY" "$@" 2>&1) || rc=$?
	printf '%s: %s\n' "$rc" "$out" | sed -E 's/[0-9.]+(ns|us|ms|s)\b/T/g'
}

@test "--output RULE:RE is each rule's own option: until, fail, retry, stop, delay; they add up, and RE keeps its colons" {
	local cmd='echo "n=$RETRY_ATTEMPT"; echo "a:b"; echo "wait 0"; echo fatal >&2; exit 1'
	local rule old
	for rule in until:n=3 fail:a:b retry:a:b stop:fatal 'delay:wait (\d+)'; do
		case ${rule%%:*} in
		until) old=--until-output ;;
		fail) old=--fail-if-output ;;
		retry) old=--retry-if-output ;;
		stop) old=--stop-if-output ;;
		delay) old=--delay-from-output ;;
		esac
		run -0 same_run --output "$rule" --max 3 --fixed 10ms --success-on 0,1 \
		    -- sh -c "$cmd"
		local new=$output
		run -0 same_run "$old" "${rule#*:}" --max 3 --fixed 10ms \
		    --success-on 0,1 -- sh -c "$cmd"
		assert_equal "$new" "$output"
	done
	# The until rule: the first success is the third attempt.
	run -0 --separate-stderr retry -q --output until:n=3 --fixed 10ms -- \
	    sh -c 'echo "n=$RETRY_ATTEMPT"'
	assert_output "$(printf 'n=%s\n' 1 2 3)"
	# Given again, they add up, --output and the old names alike.
	run -0 --separate-stderr retry -q --output until:n=9 \
	    --until-output n=2 --fixed 10ms -- sh -c 'echo "n=$RETRY_ATTEMPT"'
	assert_output "$(printf 'n=%s\n' 1 2)"
	# A colon after the first is the pattern's.
	run -0 retry -q --output until:a:b -- echo a:b
	run -1 retry -q --max 1 --output until:a:c -- echo a:b
}

@test "--output: --help all lists it and none of the rules' own options; an unknown rule is refused in one line" {
	local old
	run -0 retry --help all
	assert_line --regexp '^  +--output RULE:RE \+ '
	for old in until-output fail-if-output retry-if-output stop-if-output \
	    delay-from-output; do
		refute_line --regexp "^ +--$old "
	done
	for old in bogus:x until x :x; do
		run -125 retry --output "$old" -- true
		assert_usage_error '--output: unknown rule'
		assert_line --index 0 --partial 'until, fail, retry, stop or delay'
	done
	run -125 retry --output until: -- true
	assert_usage_error "--output: 'until:': empty pattern"
}
