#!/usr/bin/env bats
# --forever, --reset-after, JSON Lines, the log file, hooks,
# --delay-from-output, the ps title and the countdown.
bats_require_minimum_version 1.5.0
load test_helper/common
load test_helper/core
load test_helper/tmux

setup() {
	D=$BATS_TEST_TMPDIR
}

teardown() {
	tmux_end
}

# A command that exits with the statuses listed in $D/script, one a run,
# and 2 once they are used up.
scripted() {
	printf '%s\n' "$@" >"$D/script"
	cat >"$D/cmd" <<'SH'
#!/bin/sh
n=$(sed -n "${RETRY_ATTEMPT}p" "$1")
exit "${n:-2}"
SH
	chmod +x "$D/cmd"
}

# The delay_ms of each JSON event that has one, in seconds, one a line.
json_delays() {
	python3 -c '
import json, sys
for line in sys.stdin:
    e = json.loads(line)
    if e["delay_ms"] is not None:
        print("%g" % (e["delay_ms"] / 1000))'
}

@test "--forever under MIMD sleeps what show-backoff-delays prints for the same statuses" {
	# Exit 1 is a failure (0 for show), exit 0 a success (1 for show).
	scripted 1 1 1 0 0 0 1 1 0
	local opts=(-a MIMD --initial-delay 0.01 --delay-multiple-on-failure 2
	    --delay-multiple-on-success 0.5 --min-delay 0.005)
	run -2 --separate-stderr retry --forever "${opts[@]}" --stop-on 2 \
	    --log-format json -- "$D/cmd" "$D/script"
	got=$(json_delays <<<"$stderr")
	want=$(show "${opts[@]}" 0 0 0 1 1 1 0 0 1)
	assert_equal "$got" "$want"
	assert_equal "$(wc -l <<<"$got")" 9
}

@test "--forever with the concise strategies: --delay-on-success, and a success resets the count" {
	scripted 1 1 0 1 0
	run -2 --separate-stderr retry --forever --exp 10ms --delay-on-success 30ms \
	    --stop-on 2 -- "$D/cmd" "$D/script"
	local want=("next attempt in 10ms" "next attempt in 20ms" "next attempt in 30ms"
	    "next attempt in 10ms" "next attempt in 30ms")
	for i in 0 1 2 3 4; do
		[[ ${stderr_lines[i]} == *"; ${want[i]}" ]] || fail "line $i: ${stderr_lines[i]}"
	done
	[[ ${stderr_lines[2]} == "retry: $(command_name "$D/cmd" "$D/script"): attempt 3 succeeded after "*"; next attempt in 30ms" ]]
	assert_equal "${stderr_lines[5]}" "retry: $(command_name "$D/cmd" "$D/script"): stopping: exit 2 is a --stop-on status"
}

@test "--forever: a command that succeeds at once runs again a second later, not at once" {
	# At most one attempt a second: in 2.5s, attempts at 0, 1 and 2s (or
	# fewer on a slow machine); without the default, hundreds.
	run -124 --separate-stderr timeout 2.5 "$RETRY" --forever -- \
	    sh -c 'echo x >>"$0/runs"' "$D"
	assert [ "$(wc -l <"$D/runs")" -le 3 ]
	[[ ${stderr_lines[0]} == "retry: $(command_name sh -c 'echo x >>"$0/runs"' "$D"): attempt 1 succeeded after "*"; next attempt in 1s" ]]
	# --dry-run says so, from the same policy.
	run -0 retry --dry-run --forever --count 2 -- true
	assert_line --index 4 "after a success: 1s to the next attempt"
	# --delay-on-success, given, is the delay.
	run -3 --separate-stderr retry --forever --delay-on-success 0 --stop-on 3 \
	    -- sh -c 'n=$(($(cat "$0/n" 2>/dev/null) + 1)); echo $n >"$0/n"; [ $n -lt 3 ] || exit 3' "$D"
	[[ ${stderr_lines[0]} == *"; next attempt in 0s" ]]
	run -0 retry --dry-run --forever --delay-on-success 250ms --count 2 -- true
	assert_line --index 4 "after a success: 250ms to the next attempt"
}

@test "--forever: --max counts failures in a row" {
	scripted 1 0 1 1 0 1 1 1 0
	run -1 --separate-stderr retry --forever --immediate --delay-on-success 0 \
	    --max 3 -- "$D/cmd" "$D/script"
	[[ ${stderr_lines[-1]} =~ ^retry:\ $(named "$D/cmd" "$D/script"):\ giving\ up\ after\ 8\ attempts\ in\ .*:\ exit\ 1$ ]]
}

@test "--forever ends on --budget; after a success it exits 0" {
	# Up to four attempts at 0, 100, 200 and 300ms, fewer on a machine
	# slow enough to start them late (the policy's rows in make unit say
	# exactly where a budget ends a run).
	run -0 --separate-stderr retry --forever --delay-on-success 100ms --budget 350ms -- true
	[[ ${stderr_lines[-1]} =~ ^retry:\ true:\ attempt\ [1-4]\ succeeded\ after\ .*\;\ ending:\ the\ next\ attempt\ would\ start\ past\ the\ 350ms\ budget$ ]]
	refute_output --partial "giving up"
	# In JSON, the last event is a success, with the reason.
	run -0 --separate-stderr retry --forever --delay-on-success 100ms --budget 350ms \
	    --log-format json -- true
	run -0 python3 -c '
import json, sys
e = json.loads(sys.argv[1].splitlines()[-1])
print(e["event"], e["status"], e["reason"], e["delay_ms"])' "$stderr"
	assert_output "success 0 budget None"
}

@test "--forever --reset-after: a long attempt starts the count and the back-off over" {
	# Attempt 3 runs 300ms: it counts as attempt 1 again, and the next
	# delay is the first one.
	local script='[ "$(cat "$1" 2>/dev/null)" = 2 ] && sleep 0.3; echo $(($(cat "$1" 2>/dev/null) + 1)) >"$1"; exit 1'
	run -1 --separate-stderr retry --forever --exp 10ms --max 3 --reset-after 200ms -- \
	    sh -c "$script" sh "$D/n"
	assert_equal "$(cat "$D/n")" 5
	[[ ${stderr_lines[0]} == "retry: $(command_name sh -c "$script" sh "$D/n"): attempt 1 failed: exit 1 after "*"; next attempt in 10ms" ]]
	[[ ${stderr_lines[1]} == "retry: $(command_name sh -c "$script" sh "$D/n"): attempt 2 failed: exit 1 after "*"; next attempt in 20ms" ]]
	[[ ${stderr_lines[2]} == "retry: $(command_name sh -c "$script" sh "$D/n"): attempt 1 failed: exit 1 after "*"; next attempt in 10ms" ]]
	[[ ${stderr_lines[3]} == "retry: $(command_name sh -c "$script" sh "$D/n"): attempt 2 failed: exit 1 after "*"; next attempt in 20ms" ]]
	# The closing line counts every attempt made.
	[[ ${stderr_lines[4]} == "retry: $(command_name sh -c "$script" sh "$D/n"): giving up after 5 attempts in "*": exit 1" ]]
}

@test "JSON Lines: a start's elapsed_ms is the time since the run began" {
	run -1 --separate-stderr retry --verbose --fixed 200ms --max 3 \
	    --log-format json -- false
	run -0 python3 -c '
import json, sys
for l in sys.argv[1].splitlines():
    e = json.loads(l)
    if e["event"] == "start":
        print(e["attempt"], e["elapsed_ms"] >= 200 * (e["attempt"] - 1))' "$stderr"
	assert_output $'1 True\n2 True\n3 True'
}

@test "JSON Lines: valid JSON with every field, for a hostile command and label" {
	local name=$'we"ird\\name\n\ttab\x01\xff\xfe end'
	run -1 --separate-stderr retry --immediate --max 2 --log-format json \
	    --label $'lab"el\xc3\xa9' -- sh -c 'exit 1' "$name"
	assert_equal "${#stderr_lines[@]}" 2
	run -0 python3 -c '
import json, re, sys
events = [json.loads(l) for l in sys.argv[1].splitlines()]
fields = {"ts", "event", "label", "command", "attempt", "max_attempts",
          "status", "signal", "timed_out", "duration_ms", "elapsed_ms",
          "delay_ms", "delay_from_output", "attempt_reason", "reason"}
for e in events:
    assert fields <= set(e), sorted(fields - set(e))
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", e["ts"]), e["ts"]
print([e["event"] for e in events])
print(events[0]["command"][3] == "we\"ird\\name\n\ttab\x01\ufffd\ufffd end")
print(events[0]["label"] == "lab\"el\u00e9")
print(events[0]["delay_ms"], events[1]["delay_ms"], events[1]["reason"], events[1]["attempt_reason"])
print(events[0]["status"], events[0]["signal"], events[0]["attempt"], events[0]["max_attempts"])' "$stderr"
	assert_line --index 0 "['failure', 'giveup']"
	assert_line --index 1 True
	assert_line --index 2 True
	assert_line --index 3 "0 None max_attempts status"
	assert_line --index 4 "1 None 1 2"
}

@test "JSON Lines: a signal death, a stop, and an error" {
	skip_under_valgrind "vfork runs as fork, so a failed exec looks like exit 127"
	run -143 --separate-stderr retry --max 1 --log-format json -- sh -c 'kill -TERM $$'
	run -0 jq -r '"\(.event) \(.status) \(.signal)"' <<<"$stderr"
	assert_output "giveup 143 SIGTERM"
	run -3 --separate-stderr retry --stop-on 3 --log-format json -- sh -c 'exit 3'
	run -0 jq -r '"\(.event) \(.reason)"' <<<"$stderr"
	assert_output "stop stop_on"
	run -127 --separate-stderr retry --log-format json -- no-such-command-here
	run -0 jq -r '"\(.event) \(.message)"' <<<"$stderr"
	assert_output "error no-such-command-here: command not found"
}

@test "JSON Lines: reason says why the run ended, attempt_reason why the attempt got its verdict" {
	# Giving up at --max: the run's reason is the same whatever failed the
	# last attempt; the attempt's says what did.
	run -1 --separate-stderr retry --immediate --max 2 --log-format json -- false
	run -0 jq -c '[.event, .attempt_reason, .reason]' <<<"$stderr"
	assert_output $'["failure","status",null]\n["giveup","status","max_attempts"]'
	run -1 --separate-stderr retry --immediate --max 2 --fail-if-output oops \
	    --log-format json -- echo oops
	run -0 jq -c '[.event, .attempt_reason, .reason]' <<<"$stderr"
	assert_output $'["failure","fail_if_output",null]\n["giveup","fail_if_output","max_attempts"]'
	run -1 --separate-stderr retry --immediate --max 2 --until-output ready \
	    --log-format json -- true
	run -0 jq -c '[.event, .attempt_reason, .reason]' <<<"$stderr"
	assert_output $'["failure","until_output",null]\n["giveup","until_output","max_attempts"]'
	# A run that --budget ends.
	run -1 --separate-stderr retry --fixed 1s --budget 500ms --log-format json -- false
	run -0 jq -c '[.event, .attempt_reason, .reason]' <<<"$stderr"
	assert_output '["giveup","status","budget"]'
	# A success after a failure: each event judges its attempt; only the
	# closing one has a reason, none for a success.
	run -0 --separate-stderr retry --verbose --immediate --log-format json -- flaky 1
	run -0 jq -c '[.event, .attempt_reason, .reason]' <<<"$stderr"
	assert_output "$(printf '%s\n' '["start",null,null]' \
	    '["failure","status",null]' '["start",null,null]' \
	    '["success","status",null]' '["done","status",null]')"
	# A stop: the run's reason and the attempt's are the same rule.
	run -3 --separate-stderr retry --stop-on 3 --log-format json -- sh -c 'exit 3'
	run -0 jq -c '[.event, .attempt_reason, .reason]' <<<"$stderr"
	assert_output '["stop","stop_on","stop_on"]'
}

@test "--log-file gets every event, -q or not, appended" {
	echo "before" >"$D/log"
	run -0 --separate-stderr retry -q --immediate --log-file "$D/log" -- flaky 1
	assert_equal "$stderr" ""
	assert_equal "$(sed -n 1p "$D/log")" before
	assert_equal "$(wc -l <"$D/log")" 6
	[[ $(sed -n 2p "$D/log") == *"Z retry: flaky 1: attempt 1/5 starting" ]]
	[[ $(sed -n 3p "$D/log") == *"Z retry: flaky 1: attempt 1/5 failed: exit 1 after "* ]]
	[[ $(sed -n 5p "$D/log") == *"Z retry: flaky 1: attempt 2/5 succeeded after "* ]]
	[[ $(sed -n 6p "$D/log") == *"Z retry: flaky 1: succeeded on attempt 2 of 5 after "* ]]
}

@test "JSON Lines: a success after failures ends with a done event that counts them" {
	run -0 --separate-stderr retry --fixed 100ms --max 5 --log-format json -- flaky 2
	run -0 jq -c '[.event, .attempt, .max_attempts, .attempts, .failures,
	    .status, .signal, .timed_out, .delay_ms, .reason,
	    .elapsed_ms >= 100 * (.attempt - 1),
	    (.duration_ms | type)]' <<<"$stderr"
	assert_output "$(printf '%s\n' \
	    '["failure",1,5,null,null,1,null,false,100,null,true,"number"]' \
	    '["failure",2,5,null,null,1,null,false,100,null,true,"number"]' \
	    '["done",3,5,3,2,0,null,false,null,null,true,"number"]')"
	# A run that gives up counts them the same way.
	run -1 --separate-stderr retry --immediate --max 2 --log-format json -- false
	run -0 jq -c 'select(.event == "giveup") | [.attempts, .failures, .reason]' <<<"$stderr"
	assert_output '[2,2,"max_attempts"]'
	# --forever: every attempt made, after the success that --budget ends
	# the run on, with its reason.
	run -0 --separate-stderr retry --forever --fixed 10ms --delay-on-success 50ms \
	    --budget 200ms --reset-after 20ms --log-format json -- \
	    sh -c '[ "$RETRY_ATTEMPT" != 1 ] && sleep 0.03'
	run -0 jq -sc '(map(select(.event == "success")) | length) as $s |
	    .[-2:] | [.[0].event, .[1].event, .[1].attempt, .[1].max_attempts,
	    .[1].attempts == $s + 1, .[1].failures, .[1].reason]' <<<"$stderr"
	assert_output '["success","done",1,0,true,1,"budget"]'
}

@test "--log-file gets the closing line of a success after failures, -q or not, text or JSON" {
	run -0 --separate-stderr retry -q --immediate --log-file "$D/log" -- flaky 1
	assert_equal "$stderr" ""
	assert_regex "$(tail -n 1 "$D/log")" \
	    "^[0-9-]+T[0-9:.]+Z retry: flaky 1: succeeded on attempt 2 of 5 after [0-9.]+(ns|us|ms|s)\$"
	run -0 --separate-stderr retry -q --immediate --log-format json \
	    --log-file "$D/json" -- flaky 1 1 "$D/count"
	assert_equal "$stderr" ""
	run -0 jq -c '[.event, .attempts, .failures]' "$D/json"
	assert_output "$(printf '%s\n' '["start",null,null]' '["failure",null,null]' \
	    '["start",null,null]' '["success",null,null]' '["done",2,1]')"
}

@test "--log-file that cannot be opened: one line naming it, exit 125, nothing run" {
	run -125 --separate-stderr retry --log-file /nonexistent/dir/log -- touch "$D/ran"
	# No usage error: no pointer to --help.
	assert_equal "$stderr" "retry: $(command_name touch "$D/ran"): --log-file: /nonexistent/dir/log: No such file or directory"
	[ ! -e "$D/ran" ]
}

# A /dev of the test's own in $D/dev: the real null, zero, full, random,
# urandom and tty are bound over files there when retry_in_dev runs.
make_dev() {
	unshare -rm true 2>/dev/null ||
		skip "no private mount namespace (unshare -rm) here"
	mkdir -p "$D/dev"
	local n
	for n in null zero full random urandom tty; do
		[ -e "$D/dev/$n" ] || : >"$D/dev/$n"
	done
	ln -sfn /proc/self/fd "$D/dev/fd"
}

# Runs retry "$@" in a private mount namespace whose /dev is $D/dev, its
# stderr in $D/stderr.
retry_in_dev() {
	timeout 60 unshare -rm sh -c 'for n in null zero full random urandom tty; do
		mount --bind "/dev/$n" "$0/dev/$n" || exit 125
	    done
	    mount --bind "$0/dev" /dev && exec "$@"' "$D" "$RETRY" "$@" \
	    2>"$D/stderr"
}

# Runs retry "$@" with a syslog of its own: a datagram socket in the
# scratch directory, bound over /dev/log in a private mount namespace, so
# that nothing reaches the system's log; what it received is in
# $D/syslog, a message a line, once $SYSLOG_LINES of them came.
syslog_run() {
	make_dev
	rm -f "$D/dev/log" "$D/syslog" "$D/syslog.ready"
	python3 -c '
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
open(sys.argv[2] + ".ready", "w").close()
with open(sys.argv[2], "ab", buffering=0) as f:
    while True:
        f.write(s.recv(65536).rstrip(b"\0\n") + b"\n")' \
	    "$D/dev/log" "$D/syslog" 3>&- &
	local server=$! st=0
	poll_until 10 test -e "$D/syslog.ready" || { kill "$server"; return 1; }
	retry_in_dev "$@" || st=$?
	poll_until 10 has_lines "$D/syslog" "$SYSLOG_LINES" || st=1
	kill "$server"
	return "$st"
}

@test "--syslog does not disturb the run" {
	SYSLOG_LINES=5 run -0 syslog_run --syslog --immediate -- flaky 1
	assert_output "run 1"$'\n'"run 2"
	run -0 cat "$D/stderr"
	assert_line --index 0 --regexp "^retry: flaky 1: attempt 1/5 failed: exit 1 after "
	refute_output --partial "--syslog"
}

@test "--syslog where nothing listens says so once, and the run goes on" {
	make_dev
	# No /dev/log, as in most containers.
	rm -f "$D/dev/log"
	run -0 retry_in_dev --syslog --immediate -- flaky 2
	assert_output "run 1"$'\n'"run 2"$'\n'"run 3"
	run -0 cat "$D/stderr"
	assert_equal "${#lines[@]}" 4
	assert_line --index 0 "retry: flaky 2: --syslog: nothing listens on /dev/log: No such file or directory"
	assert_line --index 1 --regexp "^retry: flaky 2: attempt 1/5 failed: "
	# A file that no one reads, with -q: said once all the same; the
	# status is the command's.
	: >"$D/dev/log"
	run -3 retry_in_dev --syslog -q --label web -n 2 --immediate -- \
	    sh -c 'exit 3'
	run -0 cat "$D/stderr"
	assert_output "retry[web]: --syslog: nothing listens on /dev/log: Connection refused"
}

@test "--syslog: each message names its run: the label, or the command" {
	# Every event, at its priority (user.info, user.warning, user.err).
	SYSLOG_LINES=4 run -3 syslog_run --syslog --label web-1 --immediate -n 2 \
	    -- sh -c 'exit 3'
	run -0 cat "$D/syslog"
	assert_equal "${#lines[@]}" 4
	assert_regex "${lines[0]}" "^<14>.* retry\[[0-9]+\]: \[web-1\] attempt 1/2 starting\$"
	assert_regex "${lines[1]}" "^<12>.* retry\[[0-9]+\]: \[web-1\] attempt 1/2 failed: exit 3 after $DUR; next attempt in 0s\$"
	assert_regex "${lines[3]}" "^<11>.* retry\[[0-9]+\]: \[web-1\] giving up after 2 attempts in $DUR: exit 3\$"
	# Without a label, the command; stderr is as ever.
	SYSLOG_LINES=5 run -0 syslog_run --syslog --immediate -n 3 -- flaky 1
	run -0 cat "$D/syslog"
	assert_equal "${#lines[@]}" 5
	assert_regex "${lines[1]}" "^<12>.* retry\[[0-9]+\]: \[flaky 1\] attempt 1/3 failed: exit 1 after $DUR; next attempt in 0s\$"
	assert_regex "${lines[4]}" "^<14>.* retry\[[0-9]+\]: \[flaky 1\] succeeded on attempt 2 of 3 after $DUR\$"
	assert_regex "$(head -n 1 "$D/stderr")" "^retry: .*attempt 1/3 failed: exit 1 after "
	# A label made visible; JSON as it is, naming both.
	SYSLOG_LINES=2 run -1 syslog_run --syslog --label $'a\x1bb' -n 1 -- false
	run -0 cat "$D/syslog"
	assert_regex "${lines[1]}" ' retry\[[0-9]+\]: \[a\\x1bb\] giving up after 1 attempt in '
	SYSLOG_LINES=2 run -1 syslog_run --syslog --log-format json --label j -n 1 -- false
	run -0 cat "$D/syslog"
	assert_regex "${lines[1]}" ' retry\[[0-9]+\]: \{"ts":.*"event":"giveup","label":"j","command":\["false"\]'
}

@test "--on-retry runs before each sleep with the variables; --on-giveup once at the end" {
	run -1 bash -c "cd '$D' && '$RETRY' --fixed 20ms --max 3 --on-retry 'echo \"retry \$RETRY_ATTEMPT \$RETRY_STATUS \$RETRY_DELAY_MS \$RETRY_MAX_ATTEMPTS\" >>hooks' --on-giveup 'echo \"giveup \$RETRY_ATTEMPT \$RETRY_STATUS \$RETRY_DELAY_MS\" >>hooks' -- sh -c 'exit 4' 2>/dev/null; exit 1"
	assert_equal "$(cat "$D/hooks")" "$(printf 'retry 1 4 20 3\nretry 2 4 20 3\ngiveup 3 4 0')"
}

@test "hooks: not on success; a failing hook is reported and changes nothing" {
	run -0 --separate-stderr retry --immediate --on-retry 'exit 3' \
	    --on-giveup "touch '$D/gave-up'" -- flaky 2
	[ ! -e "$D/gave-up" ]
	assert_equal "$(flaky_runs 2>/dev/null || cat "$BATS_TEST_TMPDIR/flaky.count")" 3
	assert_equal "$(grep -c '^retry: flaky 2: --on retry: exit 3$' <<<"$stderr")" 2
}

@test "a hook's stdout goes to stderr, and it cannot read stdin" {
	run -1 --separate-stderr bash -c 'echo secret | "$RETRY" --immediate --max 2 --on-retry "cat; echo from-hook" -- sh -c "exit 1"'
	assert_equal "$output" ""
	assert_equal "$(grep -c '^from-hook$' <<<"$stderr")" 1
	refute [ "$(grep -c secret <<<"$stderr")" -gt 0 ]
}

@test "a hook cannot hang retry past --timeout" {
	local t0 t1
	t0=$(now_ms)
	run -124 --separate-stderr retry --timeout 300ms --immediate --max 2 \
	    --on-retry 'sleep 30' -- sleep 30
	t1=$(now_ms)
	# Long before the hook's 30s, on a busy host too.
	((t1 - t0 < 20000))
	[[ $stderr == *"retry: sleep 30: --on retry: timed out"* ]]
}

@test "--delay-from-output-replaces honours Retry-After: 1 against a 5s strategy" {
	local t0 t1
	t0=$(now_ms)
	run -1 --separate-stderr retry --fixed 5s --max 2 -q \
	    --delay-from-output '^Retry-After: ([^ ]+)' \
	    --delay-from-output-replaces -- \
	    sh -c 'printf "HTTP/1.1 503\r\nRetry-After: 1\r\n\r\n"; exit 1'
	t1=$(now_ms)
	# 1s, not the strategy's 5s: the rest is room for a busy host.
	((t1 - t0 >= 1000 && t1 - t0 < 4900))
	run -1 --separate-stderr retry --fixed 5s --max 2 \
	    --delay-from-output '^Retry-After: ([^ ]+)' \
	    --delay-from-output-replaces -- \
	    sh -c 'printf "Retry-After: 0.2\r\n"; exit 1'
	[[ ${stderr_lines[0]} == *"; next attempt in 200ms, as the command's output asked" ]]
	run -125 --separate-stderr retry --delay-from-output-replaces -- true
	assert_equal "${stderr_lines[0]}" "retry: --delay-from-output-replaces: goes with --output delay, whose delay it takes"
}

@test "--delay-from-output waits the longer of what it asks and the strategy's delay" {
	local t0 t1
	# Retry-After: 0 does not make a 1s strategy retry at once.
	t0=$(now_ms)
	run -1 --separate-stderr retry --fixed 1s --max 2 \
	    --delay-from-output '^Retry-After: ([^ ]+)' -- \
	    sh -c 'printf "HTTP/1.1 503\r\nRetry-After: 0\r\n\r\n"; exit 1'
	t1=$(now_ms)
	# The report says which delay; the time, at least 1s, is bounded
	# for a busy host.
	((t1 - t0 >= 1000 && t1 - t0 < 10000))
	[[ ${stderr_lines[0]} == *"; next attempt in 1s, the strategy's: the command's output asked for 0s" ]]
	# Retry-After: 1 holds a 100ms strategy back.
	t0=$(now_ms)
	run -1 --separate-stderr retry --fixed 100ms --max 2 \
	    --delay-from-output '^Retry-After: ([^ ]+)' -- \
	    sh -c 'printf "Retry-After: 1\r\n"; exit 1'
	t1=$(now_ms)
	((t1 - t0 >= 1000 && t1 - t0 < 10000))
	[[ ${stderr_lines[0]} == *"; next attempt in 1s, as the command's output asked" ]]
	# JSON says both.
	run -1 --separate-stderr retry --fixed 300ms --max 2 --log-format json \
	    --delay-from-output 'wait (.+)' -- sh -c 'echo wait 100ms; exit 1'
	run -0 python3 -c '
import json, sys
for l in sys.argv[1].splitlines():
    e = json.loads(l)
    print(e["event"], e["delay_ms"], e["delay_from_output"],
          e["strategy_delay_ms"], e["output_delay_ms"])' "$stderr"
	assert_output $'failure 300 False 300 100\ngiveup None False None None'
	run -1 --separate-stderr retry --fixed 100ms --max 2 --log-format json \
	    --delay-from-output 'wait (.+)' -- sh -c 'echo wait 300ms; exit 1'
	run -0 python3 -c '
import json, sys
e = json.loads(sys.argv[1].splitlines()[0])
print(e["delay_ms"], e["delay_from_output"], e["strategy_delay_ms"],
      e["output_delay_ms"])' "$stderr"
	assert_output '300 True 100 300'
}

@test "--delay-from-output: a Unix time, as X-RateLimit-Reset gives it" {
	local t0 t1
	t0=$(now_ms)
	run -1 --separate-stderr retry --immediate --max 2 \
	    --delay-from-output '^x-ratelimit-reset: (\d+)' -- \
	    sh -c 'echo "x-ratelimit-reset: $(($(date +%s) + 2))"; exit 1'
	t1=$(now_ms)
	# From now, to the nanosecond: up to 2s, and the next attempt starts
	# more than 1s after t0, as the reset is; the bound is for a busy host.
	((t1 - t0 >= 1000 && t1 - t0 < 10000))
	assert_regex "${stderr_lines[0]}" "; next attempt in ([0-9.]+ms|1(\\.[0-9]+)?s|2s), as the command's output asked\$"
	# One gone by asks for nothing: the strategy's delay.
	run -1 --separate-stderr retry --fixed 10ms --max 2 \
	    --delay-from-output '^x-ratelimit-reset: (\d+)' -- \
	    sh -c 'echo "x-ratelimit-reset: $(($(date +%s) - 60))"; exit 1'
	assert_regex "${stderr_lines[0]}" "; next attempt in 10ms, the strategy's: the command's output asked for 0s\$"
}

@test "--delay-from-output: an HTTP-date, the cap, and a value that is no delay" {
	run -1 --separate-stderr retry --fixed 5s --max 2 --max-delay 300ms \
	    --delay-from-output 'wait ([^ ]+)' -- sh -c 'echo wait 10m; exit 1'
	assert_regex "${stderr_lines[0]}" "; next attempt in 300ms, capped: the command's output asked for 10m\$"
	# Retry-After: 3600 under --max-delay (control.bats: --min-delay).
	run -1 --separate-stderr retry --max 2 --max-delay 200ms \
	    --delay-from-output '^Retry-After: (.*)' -- sh -c 'echo "Retry-After: 3600"; exit 1'
	assert_regex "${stderr_lines[0]}" "; next attempt in 200ms, capped: the command's output asked for 1h\$"
	date=$(LC_ALL=C date -u -d '@'$(($(date +%s) - 100)) '+%a, %d %b %Y %H:%M:%S GMT')
	run -1 --separate-stderr retry --immediate --max 2 \
	    --delay-from-output '^Retry-After: (.*)$' -- sh -c "echo 'Retry-After: $date'; exit 1"
	[[ ${stderr_lines[0]} == *"; next attempt in 0s, as the command's output asked" ]]
	run -1 --separate-stderr retry --fixed 10ms --max 2 \
	    --delay-from-output 'wait (.*)' -- sh -c 'echo wait soon; exit 1'
	assert_equal "${stderr_lines[0]}" "retry: $(command_name sh -c 'echo wait soon; exit 1'): --output delay: 'soon': neither seconds, a duration nor an HTTP-date"
	[[ ${stderr_lines[1]} == *"; next attempt in 10ms" ]]
	run -125 retry --delay-from-output 'Retry-After: [0-9]+' -- true
	assert_usage_error "--output delay"
}

@test "while it sleeps, ps shows the state" {
	skip_under_valgrind "ps shows valgrind"
	"$RETRY" -q --fixed 5s --max 2 -- sh -c 'echo x >>"$1"; exit 1' sh "$D/runs" \
	    >/dev/null 2>&1 3>&- &
	local pid=$! title=
	poll_until 10 eval 'title=$(ps -o args= -p "$pid"); [[ $title == *failed* ]]'
	kill -TERM "$pid"
	wait "$pid" || true
	assert_equal "${title##* -- sh -c * sh $D/runs }" "[attempt 1/2 failed, next in 5s]"
}

@test "ps shows the state of a run whose command line is 120 KB long, the command cut short" {
	skip_under_valgrind "ps shows valgrind"
	local big pid i title=
	big=$(printf '%0120000d' 0)
	"$RETRY" -q --fixed 30s --max 2 -- sh -c 'echo x >>"$1"; exit 1' sh \
	    "$D/runs" "$big" >/dev/null 2>&1 3>&- &
	pid=$!
	poll_until 10 eval '[ -s "$D/runs" ] && title=$(ps -o args= -p "$pid") &&
	    [[ $title == *failed* ]]'
	kill -TERM "$pid"
	wait "$pid" || true
	[[ $title == *"0000... [attempt 1/2 failed, next in 30s]" ]] ||
		fail "the title: ${title:0:80}...${title: -60}"
}

@test "a countdown on the terminal, cleared before the next attempt" {
	tmux_pane 120 20 "'$RETRY' --fixed 3s --max 2 -- sh -c 'echo attempt \$RETRY_ATTEMPT; exit 1'; echo done; sleep 30"
	local name
	name=$(named sh -c 'echo attempt $RETRY_ATTEMPT; exit 1')
	wait_screen "^retry: $name: next attempt in 2s"
	wait_screen '^done$'
	run -0 screen
	refute_line --regexp "^retry: $name: next attempt in"
	assert_equal "$(grep -c '^attempt 2$' <<<"$output")" 1
}

@test "no countdown when stderr is not a terminal" {
	run -1 --separate-stderr retry --fixed 1100ms --max 2 -- false
	refute [ "$(grep -c $'\r' <<<"$stderr")" -gt 0 ]
}

@test "bad values of the new options are usage errors" {
	run -125 retry --log-format xml -- true
	assert_usage_error --log-format
	run -125 retry --log-file '' -- true
	assert_usage_error --log-file
	run -125 retry --on-retry '' -- true
	assert_usage_error --on-retry
	run -125 retry --reset-after -1s -- true
	assert_usage_error --reset-after
	run -125 retry --delay-from-output '(' -- true
	assert_usage_error "--output delay"
	run -125 retry --delay-on-success 1s -a MIMD --initial-delay 1 --delay-multiple-on-failure 2 --delay-multiple-on-success 0.5 -- true
	assert_usage_error --delay-on-success
}
