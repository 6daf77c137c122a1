#!/usr/bin/env bats
# --exit-on-match: the line that --until-output waits for ends the attempt
# as a success; its process group is stopped as on a timeout. With real
# servers, log followers and process groups.
bats_require_minimum_version 1.5.0
load test_helper/common
load test_helper/procs

setup() {
	D=$BATS_TEST_TMPDIR
}

teardown() {
	kill_recorded
}

# A web server on 127.0.0.1, on a port of its own choosing, that says so
# on its stdout ($1) once it listens: "Serving HTTP on 127.0.0.1 port N".
serve() {
	command -v python3 >/dev/null || skip "python3 is not installed"
	# In a subshell, so that bash says nothing when teardown kills it.
	(python3 -u -m http.server --bind 127.0.0.1 0 >"$1" 2>&1 </dev/null \
	    3>&- & echo $! >>"$D/pids")
}

# The port that the server's log $1 gives.
port_of() {
	grep -oE 'port [0-9]+' "$1" | head -1 | cut -d' ' -f2
}

served='Serving HTTP on \S+ port \d+'

@test "--exit-on-match without --until-output is a usage error" {
	run -125 "$RETRY" --exit-on-match -- true
	assert_usage_error --exit-on-match
	run -125 "$RETRY" --exit-on-match --fail-if-output x -- true
	assert_usage_error --exit-on-match
}

@test "a log follower: retry exits 0 at the line, the server answers, the follower is stopped" {
	command -v curl >/dev/null || skip "curl is not installed"
	local t0 t1
	serve "$D/log"
	t0=$(now_ms)
	start_retry --max 1 --timeout 30s --exit-on-match \
	    --until-output "$served" -- \
	    sh -c 'echo $$ >"$0/follower"; exec tail -n +1 -F "$0/log"' "$D"
	wait_status "$RETRY_PID"
	t1=$(now_ms)
	assert_equal "$status" 0
	((t1 - t0 < 20000))
	run -0 grep -E 'Serving HTTP on 127\.0\.0\.1 port [0-9]+' "$D/out"
	# The server, started apart, keeps running and answers.
	run -0 curl -fsS -o /dev/null "http://127.0.0.1:$(port_of "$D/log")/"
	# The follower and its group are gone.
	assert_group_gone "$(cat "$D/follower")"
}

@test "the server itself: the attempt that matched is stopped, and retry exits 0" {
	command -v curl >/dev/null || skip "curl is not installed"
	command -v python3 >/dev/null || skip "python3 is not installed"
	start_retry --max 1 --timeout 30s --exit-on-match \
	    --until-output "$served" -- \
	    sh -c 'echo $$ >"$0/server"
	    exec python3 -u -m http.server --bind 127.0.0.1 0' "$D"
	wait_status "$RETRY_PID"
	assert_equal "$status" 0
	assert_group_gone "$(cat "$D/server")"
	# It listened, and listens no more.
	run -7 curl -fsS -o /dev/null "http://127.0.0.1:$(port_of "$D/out")/"
}

@test "what follows the match is passed on; what ignores --signal gets KILL after --kill-after" {
	local t0 t1
	t0=$(now_ms)
	run -0 --separate-stderr retry -k 1s --exit-on-match --until-output ready -- \
	    sh -c 'echo $$ >"$0/leader"; trap "" TERM
	    sleep 60 & echo $! >"$0/bg"
	    printf "ready\nafter\n"; wait' "$D"
	t1=$(now_ms)
	assert_equal "$output" $'ready\nafter'
	assert_equal "$stderr" ""
	((t1 - t0 >= 900 && t1 - t0 < 10000))
	assert_gone "$(cat "$D/leader")" "$(cat "$D/bg")"
	assert_group_gone "$(cat "$D/leader")"
}

@test "--signal INT stops the matched attempt without ending the run as a Ctrl-C" {
	run -0 --separate-stderr timeout 60 env --default-signal=INT,QUIT \
	    "$RETRY" --verbose --signal INT --exit-on-match --until-output ready -- \
	    sh -c 'echo $$ >"$0/leader"; echo ready; exec sleep 60' "$D"
	assert_output ready
	assert_regex "$stderr" 'attempt 1/5 succeeded after [0-9.]+(us|ms|s): a line matched --output until \(--exit-on-match\)'
	assert_group_gone "$(cat "$D/leader")"
}

@test "the report: a success, status 0, not timed out, attempt_reason matched" {
	command -v jq >/dev/null || skip "jq is not installed"
	run -0 --separate-stderr retry --verbose --log-format json --exit-on-match \
	    --until-output ready -- sh -c 'echo ready; exec sleep 60'
	run -0 jq -c 'select(.event == "success") |
	    [.status, .signal, .timed_out, .attempt_reason, .reason]' <<<"$stderr"
	assert_output '[0,null,false,"matched",null]'
}

@test "no match before --timeout: 124, retried as any failure, nothing left" {
	local t0 t1
	t0=$(now_ms)
	run -124 --separate-stderr retry -n 2 -d 0 -T 0.5s --exit-on-match \
	    --until-output ready -- sh -c 'echo $$ >>"$0/leaders"
	    echo not yet; exec sleep 60' "$D"
	t1=$(now_ms)
	assert_regex "$stderr" 'giving up after 2 attempts in [0-9.]+(us|ms|s): timed out \(no line matched --output until\)$'
	((t1 - t0 >= 900 && t1 - t0 < 10000))
	local g
	for g in $(cat "$D/leaders"); do
		assert_group_gone "$g"
	done
}

@test "a command that ends by itself after the match succeeds whatever its status" {
	run -0 retry -n 1 --exit-on-match --until-output ready -- \
	    sh -c 'echo ready; exit 3'
	assert_output ready
}

@test "--fail-if-output before the match still fails the attempt; after it, it is not read" {
	run -1 --separate-stderr retry -n 1 --fail-if-output error \
	    --exit-on-match --until-output ready -- \
	    sh -c 'echo error; echo ready; exec sleep 60'
	assert_regex "$stderr" 'giving up after 1 attempt.*\(a line matched --output fail\)$'
	run -0 retry -n 1 --fail-if-output error --exit-on-match \
	    --until-output ready -- sh -c 'printf "ready\nerror\n"; exec sleep 60'
	assert_output $'ready\nerror'
}

@test "--hold-stdout: a failed attempt's output to stderr, the matched one's to stdout" {
	run -0 --separate-stderr retry -n 3 -d 0 --hold-stdout --exit-on-match \
	    --until-output ready -- sh -c '
	    n=$(cat "$0/n" 2>/dev/null || echo 0); echo $((n + 1)) >"$0/n"
	    [ "$n" -ge 1 ] || { echo first; exit 1; }
	    echo second ready; exec sleep 60' "$D"
	assert_output "second ready"
	[[ $stderr == first$'\n'* ]]
}

@test "--forever: each match is a success, and the command runs again" {
	run -1 --separate-stderr retry --forever -n 1 -d 0 --exit-on-match \
	    --until-output ready -- sh -c '
	    n=$(cat "$0/n" 2>/dev/null || echo 0); echo $((n + 1)) >"$0/n"
	    [ "$n" -ge 2 ] && exit 1
	    echo ready; exec sleep 60' "$D"
	assert_equal "$(cat "$D/n")" 3
	assert_output $'ready\nready'
	run -0 grep -c 'succeeded after .*(--exit-on-match)' <<<"$stderr"
	assert_output 2
}
