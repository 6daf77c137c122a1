#!/usr/bin/env bats
# --ci: GitHub's groups and annotations and GitLab's sections on stderr,
# beside the reports, escaped, each on a line of its own; stdout stays the
# command's, byte for byte; nothing outside CI.
bats_require_minimum_version 1.5.0
load test_helper/common
load test_helper/core

# $stderr's workflow commands (its lines that start with ::), into $ci.
github_lines() {
	ci=$(grep -a '^::' <<<"$stderr" || true)
}

# Asserts that $ci is exactly the lines given.
assert_ci() {
	assert_equal "$ci" "$(printf '%s\n' "$@")"
}

@test "ci: GitHub: each attempt in a group on stderr, a warning after a success that failed first" {
	GITHUB_ACTIONS=true run -0 --separate-stderr \
	    retry --max 3 --fixed 10ms flaky 2
	# stdout is the command's alone.
	assert_lines "run 1" "run 2" "run 3"
	# The groups hold each attempt's report; the reports are as without
	# --ci.
	assert_stderr_lines \
	    "::group::retry: attempt 1/3: flaky 2" \
	    "retry: flaky 2: attempt 1/3 failed: exit 1 after $DUR; next attempt in 10ms" \
	    "::endgroup::" \
	    "::group::retry: attempt 2/3: flaky 2" \
	    "retry: flaky 2: attempt 2/3 failed: exit 1 after $DUR; next attempt in 10ms" \
	    "::endgroup::" \
	    "::group::retry: attempt 3/3: flaky 2" \
	    "::endgroup::" \
	    "retry: flaky 2: succeeded on attempt 3 of 3 after $DUR" \
	    "::warning title=retry%3A succeeded after failures::flaky 2: succeeded on attempt 3 after 2 failures: exit 1"
}

@test "ci: GitHub: a run that gives up leaves an error naming the statuses that failed" {
	cd "$BATS_TEST_TMPDIR"
	GITHUB_ACTIONS=true run -9 --separate-stderr retry --max 3 --fixed 10ms \
	    statuses runs 3 KILL 9
	github_lines
	assert_ci \
	    "::group::retry: attempt 1/3: statuses runs 3 KILL 9" \
	    "::endgroup::" \
	    "::group::retry: attempt 2/3: statuses runs 3 KILL 9" \
	    "::endgroup::" \
	    "::group::retry: attempt 3/3: statuses runs 3 KILL 9" \
	    "::endgroup::" \
	    "::error title=retry%3A gave up::statuses runs 3 KILL 9: gave up after 3 attempts: exit 3, killed by SIGKILL, exit 9"
	refute_output --partial "::"
}

@test "ci: GitHub: the error names a --preserve-status timeout's status as the reports do" {
	GITHUB_ACTIONS=true run -143 --separate-stderr retry --max 1 \
	    --timeout 100ms --preserve-status -- sleep 30
	assert_output ""
	assert_stderr_lines "::group::retry: attempt 1/1: sleep 30" \
	    "retry: sleep 30: giving up after 1 attempt in $DUR: timed out \\(status 143\\)" \
	    "::endgroup::" \
	    "::error title=retry%3A gave up::sleep 30: gave up after 1 attempt: timed out \\(status 143\\)"
}

@test "ci: GitHub: a first attempt that succeeds leaves its group and no annotation" {
	GITHUB_ACTIONS=true run -0 --separate-stderr retry --max 3 flaky 0
	assert_output "run 1"
	assert_equal "$stderr" $'::group::retry: attempt 1/3: flaky 0\n::endgroup::'
}

@test "ci: GitHub: hostile arguments and labels cannot inject a command" {
	GITHUB_ACTIONS=true run -1 --separate-stderr retry --max 1 \
	    --label 'a,b:c%' -- false $'x\n::error::pwned' '%0A,::'
	github_lines
	assert_ci \
	    "::group::retry[a,b:c%25]: attempt 1/1: false 'x\\x0a::error::pwned' %250A,::" \
	    "::endgroup::" \
	    "::error title=retry[a%2Cb%3Ac%25]%3A gave up::false 'x\\x0a::error::pwned' %250A,::: gave up after 1 attempt: exit 1"
	run grep -c '^::error::' <<<"$stderr"
	assert_output 0
}

@test "ci: GitHub: a command that cannot start closes its group and leaves an error naming it and why" {
	GITHUB_ACTIONS=true run -127 --separate-stderr retry --max 3 \
	    --label 'a,b:c' -- $'no\n::error::pwned%' arg
	assert_output ""
	assert_equal "$stderr" "::group::retry[a,b:c]: attempt 1/3: 'no\\x0a::error::pwned%25' arg
retry[a,b:c]: no\\x0a::error::pwned%: command not found
::endgroup::
::error title=retry[a%2Cb%3Ac]%3A could not start::'no\\x0a::error::pwned%25' arg: could not start: command not found"
	# Not executable, on a later attempt: the statuses before it named.
	cd "$BATS_TEST_TMPDIR"
	printf '#!/bin/sh\nchmod -x "$0"\nexit 1\n' >once
	chmod +x once
	GITHUB_ACTIONS=true run -126 --separate-stderr retry --max 3 \
	    --fixed 10ms ./once
	github_lines
	assert_ci \
	    "::group::retry: attempt 1/3: ./once" "::endgroup::" \
	    "::group::retry: attempt 2/3: ./once" "::endgroup::" \
	    "::error title=retry%3A could not start::./once: could not start on attempt 2: Permission denied; failed before: exit 1"
}

@test "ci: GitHub: the command's own workflow commands pass through untouched" {
	GITHUB_ACTIONS=true run -0 --separate-stderr retry --max 1 -- \
	    printf '::error file=a.c,line=1::lint%%0A\n::notice::x\n'
	assert_lines "::error file=a.c,line=1::lint%0A" "::notice::x"
	assert_equal "${#stderr_lines[@]}" 2
	assert_regex "${stderr_lines[0]}" "^::group::retry: attempt 1/1: printf "
	assert_equal "${stderr_lines[1]}" "::endgroup::"
}

@test "ci: GitHub: --hold-stdout: the held output on stdout, the groups on stderr" {
	GITHUB_ACTIONS=true run -0 --separate-stderr retry --max 2 \
	    --fixed 10ms --hold-stdout flaky 1
	assert_output "run 2"
	github_lines
	assert_ci \
	    "::group::retry: attempt 1/2: flaky 1" "::endgroup::" \
	    "::group::retry: attempt 2/2: flaky 1" "::endgroup::" \
	    "::warning title=retry%3A succeeded after failures::flaky 1: succeeded on attempt 2 after 1 failure: exit 1"
	# The failed attempt's held output goes to stderr, in its group.
	assert_equal "${stderr_lines[1]}" "run 1"
}

@test "ci: GitLab: each attempt in a collapsed section on stderr, plain lines for the annotations" {
	local e=$'\e' t='[0-9]+'
	GITLAB_CI=true run -0 --separate-stderr \
	    retry --max 3 --fixed 10ms --label 'web app' flaky 1
	assert_lines "run 1" "run 2"
	assert_equal "${#stderr_lines[@]}" 7
	assert_regex "${stderr_lines[0]}" "^${e}\\[0Ksection_start:$t:retry_web_app_attempt_1\\[collapsed=true\\]"$'\r'"${e}\\[0Kretry\\[web app\\]: attempt 1/3: flaky 1\$"
	assert_regex "${stderr_lines[1]}" "^retry\\[web app\\]: attempt 1/3 failed: exit 1 after "
	assert_regex "${stderr_lines[2]}" "^${e}\\[0Ksection_end:$t:retry_web_app_attempt_1"$'\r'"${e}\\[0K\$"
	assert_regex "${stderr_lines[3]}" "^${e}\\[0Ksection_start:$t:retry_web_app_attempt_2\\[collapsed=true\\]"$'\r'"${e}\\[0Kretry\\[web app\\]: attempt 2/3: flaky 1\$"
	assert_regex "${stderr_lines[4]}" "^${e}\\[0Ksection_end:$t:retry_web_app_attempt_2"$'\r'"${e}\\[0K\$"
	assert_regex "${stderr_lines[5]}" "^retry\\[web app\\]: succeeded on attempt 2 of 3 after "
	assert_equal "${stderr_lines[6]}" "retry[web app]: succeeded after failures: flaky 1: succeeded on attempt 2 after 1 failure: exit 1"
}

@test "ci: GitLab: a section's start and end are Unix times of now" {
	local before after s
	before=$(date +%s)
	GITLAB_CI=true run -1 --separate-stderr retry --ci auto --max 1 false
	after=$(date +%s)
	[[ ${stderr_lines[0]} =~ section_start:([0-9]+): ]]
	s=${BASH_REMATCH[1]}
	((s >= before && s <= after))
	[[ ${stderr_lines[2]} =~ section_end:([0-9]+): ]]
	s=${BASH_REMATCH[1]}
	((s >= before && s <= after))
	assert_equal "${stderr_lines[3]}" "retry: gave up: false: gave up after 1 attempt: exit 1"
}

@test "ci: GitLab: a command that cannot start closes its section and says so in a plain line" {
	local e=$'\e' t='[0-9]+'
	GITLAB_CI=true run -127 --separate-stderr retry --max 3 -- \
	    $'no\n::x' arg
	assert_output ""
	assert_equal "${#stderr_lines[@]}" 4
	assert_regex "${stderr_lines[0]}" "^${e}\\[0Ksection_start:$t:retry_attempt_1\\["
	assert_equal "${stderr_lines[1]}" "retry: 'no\\x0a::x' arg: command not found"
	assert_regex "${stderr_lines[2]}" "^${e}\\[0Ksection_end:$t:retry_attempt_1"$'\r'"${e}\\[0K\$"
	assert_equal "${stderr_lines[3]}" "retry: could not start: 'no\\x0a::x' arg: could not start: command not found"
}

@test "ci: --ci github and gitlab need no environment; --ci none under GitHub Actions says nothing new" {
	run -0 --separate-stderr retry --ci github --max 1 echo hi
	assert_output "hi"
	assert_equal "$stderr" $'::group::retry: attempt 1/1: echo hi\n::endgroup::'
	run -0 --separate-stderr retry --ci gitlab --max 1 echo hi
	assert_output "hi"
	assert_regex "${stderr_lines[0]}" 'section_start:[0-9]+:retry_attempt_1\['
	GITHUB_ACTIONS=true GITLAB_CI=true run -0 --separate-stderr \
	    retry --ci none --max 3 --fixed 10ms flaky 1
	assert_lines "run 1" "run 2"
	refute_regex "$stderr" '::|section_'
}

@test "ci: outside CI, --ci auto adds nothing" {
	run -0 --separate-stderr env -u GITHUB_ACTIONS -u GITLAB_CI \
	    GITHUB_ACTIONS=1 "$RETRY" --ci auto --max 3 --fixed 10ms flaky 1
	assert_lines "run 1" "run 2"
	assert_stderr_lines \
	    "retry: flaky 1: attempt 1/3 failed: exit 1 after $DUR; next attempt in 10ms" \
	    "retry: flaky 1: succeeded on attempt 2 of 3 after $DUR"
}

@test "ci: a run inside another run's attempt adds no group of its own, which neither CI nests" {
	GITLAB_CI=true run -1 --separate-stderr "$RETRY" -q --max 1 -- \
	    "$RETRY" -q --immediate --max 2 -- false
	assert_equal "$(grep -c 'section_start' <<<"$stderr")" 1
	assert_equal "$(grep -c 'section_end' <<<"$stderr")" 1
	GITHUB_ACTIONS=true run -0 --separate-stderr "$RETRY" -q --max 1 -- \
	    "$RETRY" -q --max 2 --immediate flaky 1
	assert_equal "$(grep -c '^::group::' <<<"$stderr")" 1
	assert_equal "$(grep -c '^::endgroup::' <<<"$stderr")" 1
	# Asked for, it is written all the same.
	GITHUB_ACTIONS=true run -1 --separate-stderr "$RETRY" -q --max 1 -- \
	    "$RETRY" -q --ci github --max 1 -- false
	assert_equal "$(grep -c '^::group::' <<<"$stderr")" 2
}

@test "ci: --ci auto on a terminal adds nothing" {
	command -v script >/dev/null || skip "no script(1)"
	GITHUB_ACTIONS=true run -0 timeout 60 script -qec \
	    "'$RETRY' --ci auto --max 1 echo hi" /dev/null
	refute_output --partial "::"
	assert_output --partial "hi"
}

@test "ci: --ci auto adds nothing among --log-format json's lines" {
	GITHUB_ACTIONS=true run -1 --separate-stderr retry --log-format json \
	    --max 2 --fixed 10ms false
	assert_output ""
	assert_equal "${#stderr_lines[@]}" 2
	assert_regex "${stderr_lines[0]}" '^\{"ts":.*"event":"failure"'
	assert_regex "${stderr_lines[1]}" '^\{"ts":.*"event":"giveup"'
	# Asked for, they are there.
	GITHUB_ACTIONS=true run -1 --separate-stderr retry --log-format json \
	    --ci github --max 1 false
	assert_equal "${stderr_lines[0]}" "::group::retry: attempt 1/1: false"
}

@test "ci: an unknown --ci is refused" {
	run -125 retry --ci jenkins true
	assert_usage_error --ci
	assert_line --index 0 \
	    "retry: --ci: unknown CI 'jenkins' (use auto, github, gitlab or none)"
}

@test "ci: stdout is the command's, byte for byte, under GitHub and GitLab, whatever the options" {
	local env opts x
	cd "$BATS_TEST_TMPDIR"
	for env in GITHUB_ACTIONS GITLAB_CI; do
		for opts in "" -q --hold-stdout --only-last "--hedge 10s --stdin null" \
		    "--retry-if-output nomatch" "-q --hold-stdout --until-output 42"; do
			# shellcheck disable=SC2086
			x=$(env "$env=true" "$RETRY" $opts -- sh -c 'echo 42' \
			    2>err)
			assert_equal "$x" "42"
			grep -q -e '^::group::' -e 'section_start' err
			# To a file, and through a pipe, with no newline.
			# shellcheck disable=SC2086
			env "$env=true" "$RETRY" $opts -- printf 42 \
			    >data 2>/dev/null
			assert_equal "$(od -An -c data | tr -d ' ')" "42"
			# shellcheck disable=SC2086
			x=$(env "$env=true" "$RETRY" $opts -- printf 42 \
			    2>/dev/null | od -An -c | tr -d ' ')
			assert_equal "$x" "42"
		done
	done
}

# Runs retry "$@" with stderr a pipe, as a CI runner gives it, and stdout
# on /dev/null: $output is what reached stderr.
stderr_piped() {
	run sh -c '"$0" "$@" 2>&1 >/dev/null | cat' "$RETRY" "$@"
}

@test "ci: every marker starts a line of its own after the command's stderr, on GitHub" {
	# Killed by --timeout mid-line: its report and its group's end each
	# start a line.
	GITHUB_ACTIONS=true stderr_piped --max 2 --fixed 10ms \
	    --timeout 200ms -- sh -c 'printf ... >&2; exec sleep 30'
	assert_equal "${#lines[@]}" 9
	assert_equal "${lines[0]}" "::group::retry: attempt 1/2: sh -c 'printf ... >&2; exec sleep 30'"
	assert_equal "${lines[1]}" "..."
	assert_regex "${lines[2]}" "^retry: .*: attempt 1/2 failed: timed out after "
	assert_equal "${lines[3]}" "::endgroup::"
	assert_equal "${lines[5]}" "..."
	assert_equal "${lines[7]}" "::endgroup::"
	assert_equal "${lines[8]}" "::error title=retry%3A gave up::sh -c 'printf ... >&2; exec sleep 30': gave up after 2 attempts: timed out"
	# -q: no report ends the line, the marker does.
	GITHUB_ACTIONS=true stderr_piped -q --max 1 -- sh -c 'printf x >&2'
	assert_lines "::group::retry: attempt 1/1: sh -c 'printf x >&2'" \
	    "x" "::endgroup::"
	# What ends with a newline gets none more.
	GITHUB_ACTIONS=true stderr_piped -q --max 1 -- sh -c 'echo x >&2'
	assert_lines "::group::retry: attempt 1/1: sh -c 'echo x >&2'" \
	    "x" "::endgroup::"
}

@test "ci: every marker starts a line of its own on GitLab, stdout and stderr one pipe too" {
	local e=$'\e'
	GITLAB_CI=true stderr_piped -q --max 1 -- sh -c 'printf x >&2; exit 3'
	assert_equal "${#lines[@]}" 4
	assert_equal "${lines[1]}" "x"
	assert_regex "${lines[2]}" "^${e}\\[0Ksection_end:"
	assert_equal "${lines[3]}" "retry: gave up: sh -c 'printf x >&2; exit 3': gave up after 1 attempt: exit 3"
	# One pipe for both, as GitLab's shell executor gives: the order is
	# the command's, and the stdout it left open is ended too.
	GITLAB_CI=true run sh -c '"$0" "$@" 2>&1 | cat' "$RETRY" -q --max 1 -- \
	    sh -c 'echo o1; printf e1 >&2; printf o2; exit 3'
	assert_equal "${#lines[@]}" 5
	assert_equal "${lines[1]}" "o1"
	assert_equal "${lines[2]}" "e1o2"
	assert_regex "${lines[3]}" "^${e}\\[0Ksection_end:"
	assert_regex "${lines[4]}" "^retry: gave up: "
}

# Asserts that file $1 has $2 lines, line $3 the command's output $4, and
# the last the end of a group (GitHub, $env GITHUB_ACTIONS) or a section.
assert_file_ci() {
	local e=$'\e' end="::endgroup::"
	[ "$env" = GITHUB_ACTIONS ] || end="${e}\\[0Ksection_end:"
	mapfile -t lines <"$1"
	assert_equal "${#lines[@]}" "$2"
	assert_equal "${lines[$3]}" "$4"
	assert_regex "${lines[$2 - 1]}" "^$end"
}

@test "ci: every marker starts a line of its own where stdout and stderr are one file" {
	skip_portable "no /proc: a write-only stderr cannot be read back"
	local env
	cd "$BATS_TEST_TMPDIR"
	for env in GITHUB_ACTIONS GITLAB_CI; do
		env "$env=true" "$RETRY" -q -- printf out >log 2>&1
		assert_file_ci log 3 1 out
		# What ends with a newline gets none more.
		env "$env=true" "$RETRY" -q -- echo out >log 2>&1
		assert_file_ci log 3 1 out
	done
}

@test "ci: every marker starts a line of its own where stderr is a file of its own" {
	skip_portable "no /proc: a write-only stderr cannot be read back"
	local env
	cd "$BATS_TEST_TMPDIR"
	for env in GITHUB_ACTIONS GITLAB_CI; do
		env "$env=true" "$RETRY" -q -- sh -c 'printf err >&2' \
		    2>e >/dev/null
		assert_file_ci e 3 1 err
	done
}

@test "ci: every marker starts a line of its own where both streams append to one file" {
	skip_portable "no /proc: a write-only stderr cannot be read back"
	local env
	cd "$BATS_TEST_TMPDIR"
	for env in GITHUB_ACTIONS GITLAB_CI; do
		# Two descriptions, each written at the file's end.
		echo before >log
		env "$env=true" "$RETRY" -q -- printf abc >>log 2>>log
		assert_file_ci log 4 2 abc
	done
}

@test "ci: the command's stderr passes through whole, in its order, where it is a pipe" {
	cd "$BATS_TEST_TMPDIR"
	head -c 300000 /dev/urandom | od -An -tx1 -v >blob
	GITHUB_ACTIONS=true run -0 sh -c '"$0" "$@" 2>&1 >out | cat >err' \
	    "$RETRY" --max 1 -- sh -c 'echo o; cat blob >&2; echo o2'
	assert_equal "$(cat out)" $'o\no2'
	assert_equal "$(head -n 1 err)" "::group::retry: attempt 1/1: sh -c 'echo o; cat blob >&2; echo o2'"
	assert_equal "$(tail -n 1 err)" "::endgroup::"
	sed '1d;$d' err | cmp - blob
}

@test "ci: where stderr's reader has gone, the command meets it at its next write there, as without retry" {
	[ -d /proc/self/fd ] || skip "no /proc"
	cd "$BATS_TEST_TMPDIR"
	# Once the reader has gone (the file gone), and its parent holds its
	# stderr no more (at most 5s), writes there, then leaves reached.
	cat >late <<-'EOF2'
	#!/bin/sh
	i=0
	while [ ! -e gone ] && [ $i -lt 500 ]; do
		sleep 0.01
		i=$((i + 1))
	done
	p=$(readlink /proc/$$/fd/2)
	i=0
	while ls -l /proc/$PPID/fd | grep -qF "$p" && [ $i -lt 500 ]; do
		sleep 0.01
		i=$((i + 1))
	done
	echo late >&2
	echo reached >"$1"
	EOF2
	chmod +x late
	# Without retry: killed by SIGPIPE at that write, so is the pipeline.
	run -141 bash -c './late z0 2>&1 >/dev/null | { head -c 0; touch gone; }
	    exit "${PIPESTATUS[0]}"'
	[ ! -e z0 ]
	rm gone
	# Through retry, where --ci relays stderr: the same.
	GITHUB_ACTIONS=true run -141 bash -c '"$0" --max 1 -- ./late z1 2>&1 \
	    >/dev/null | { head -c 0; touch gone; }
	    exit "${PIPESTATUS[0]}"' "$RETRY"
	[ ! -e z1 ]
	rm gone
	# And where stdout and stderr are one pipe.
	GITLAB_CI=true run -141 bash -c '"$0" --max 1 -- ./late z2 2>&1 |
	    { head -c 0; touch gone; }
	    exit "${PIPESTATUS[0]}"' "$RETRY"
	[ ! -e z2 ]
}

@test "ci: a --ci line that cannot be written is lost as a report is, and the run goes on" {
	cd "$BATS_TEST_TMPDIR"
	[ -w /dev/full ] || skip "no /dev/full"
	GITHUB_ACTIONS=true run -0 sh -c '"$0" "$@" 2>/dev/full' "$RETRY" \
	    --max 3 --fixed 10ms flaky 1
	assert_lines "run 1" "run 2"
	GITLAB_CI=true run -1 sh -c '"$0" "$@" 2>&-' "$RETRY" --ci gitlab \
	    --max 2 --fixed 10ms false
	assert_output ""
}

# --hedge 50ms: attempt 1 fails (11) once attempt 2 runs; attempt 3 starts
# beside attempt 2 once that failure is counted; attempt 2 then ends with
# $1 (0: it wins, attempt 3 is cancelled); else attempt 3 fails (13) once
# attempt 2 is reaped.
hedged_three() {
	cat >three <<-'EOF2'
	#!/bin/sh
	waitfor() {
		i=0
		while ! eval "$1" && [ $i -lt 1000 ]; do
			sleep 0.02
			i=$((i + 1))
		done
	}
	echo "run $RETRY_ATTEMPT"
	case $RETRY_ATTEMPT in
	1)	waitfor '[ -e pid.2 ]'
		exit 11 ;;
	2)	echo $$ >p && mv p pid.2
		waitfor '[ -e pid.3 ]'
		exit "$1" ;;
	3)	echo $$ >pid.3
		[ "$1" = 0 ] && exec sleep 30
		waitfor '! kill -0 "$(cat pid.2)" 2>/dev/null'
		exit 13 ;;
	esac
	EOF2
	chmod +x three
}

@test "ci: --hedge: the group holds and names the attempt whose output it is; failures beside others are named" {
	cd "$BATS_TEST_TMPDIR"
	hedged_three
	GITHUB_ACTIONS=true run -0 --separate-stderr retry --hedge 50ms \
	    --stdin null ./three 0
	assert_output "run 2"
	github_lines
	assert_ci \
	    "::group::retry: attempt 2/5: ./three 0" "::endgroup::" \
	    "::warning title=retry%3A succeeded after failures::./three 0: succeeded on attempt 2 after 1 failure: exit 11"
}

@test "ci: --hedge: a run that gives up names every status that failed, those beside others too" {
	cd "$BATS_TEST_TMPDIR"
	hedged_three
	GITHUB_ACTIONS=true run -13 --separate-stderr retry --max 3 \
	    --hedge 50ms --stdin null ./three 12
	github_lines
	assert_ci \
	    "::group::retry: attempt 3/3: ./three 12" "::endgroup::" \
	    "::error title=retry%3A gave up::./three 12: gave up after 3 attempts: exit 11, exit 12, exit 13"
}
