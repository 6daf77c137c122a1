#!/usr/bin/env bats
# --ci: GitHub's groups and annotations and GitLab's sections on stdout,
# escaped, with the reports on stderr as without them; nothing outside CI.
bats_require_minimum_version 1.5.0
load test_helper/common
load test_helper/core

@test "ci: GitHub: each attempt in a group, a warning after a success that failed first" {
	GITHUB_ACTIONS=true run -0 --separate-stderr \
	    retry --max 3 --fixed 10ms flaky 2
	assert_lines \
	    "::group::retry: attempt 1/3: flaky 2" "run 1" "::endgroup::" \
	    "::group::retry: attempt 2/3: flaky 2" "run 2" "::endgroup::" \
	    "::group::retry: attempt 3/3: flaky 2" "run 3" "::endgroup::" \
	    "::warning title=retry%3A succeeded after failures::flaky 2: succeeded on attempt 3 after 2 failures: exit 1"
	# The reports on stderr are as without --ci.
	assert_stderr_lines \
	    "retry: flaky 2: attempt 1/3 failed: exit 1 after $DUR; next attempt in 10ms" \
	    "retry: flaky 2: attempt 2/3 failed: exit 1 after $DUR; next attempt in 10ms" \
	    "retry: flaky 2: succeeded on attempt 3 of 3 after $DUR"
}

@test "ci: GitHub: a run that gives up leaves an error naming the statuses that failed" {
	cd "$BATS_TEST_TMPDIR"
	GITHUB_ACTIONS=true run -9 --separate-stderr retry --max 3 --fixed 10ms \
	    statuses runs 3 KILL 9
	assert_lines \
	    "::group::retry: attempt 1/3: statuses runs 3 KILL 9" \
	    "::endgroup::" \
	    "::group::retry: attempt 2/3: statuses runs 3 KILL 9" \
	    "::endgroup::" \
	    "::group::retry: attempt 3/3: statuses runs 3 KILL 9" \
	    "::endgroup::" \
	    "::error title=retry%3A gave up::statuses runs 3 KILL 9: gave up after 3 attempts: exit 3, killed by SIGKILL, exit 9"
}

@test "ci: GitHub: the error names a --preserve-status timeout's status as the reports do" {
	GITHUB_ACTIONS=true run -143 --separate-stderr retry --max 1 \
	    --timeout 100ms --preserve-status -- sleep 30
	assert_lines "::group::retry: attempt 1/1: sleep 30" "::endgroup::" \
	    "::error title=retry%3A gave up::sleep 30: gave up after 1 attempt: timed out (status 143)"
	assert_stderr_lines \
	    "retry: sleep 30: giving up after 1 attempt in $DUR: timed out \\(status 143\\)"
}

@test "ci: GitHub: a first attempt that succeeds leaves its group and no annotation" {
	GITHUB_ACTIONS=true run -0 --separate-stderr retry --max 3 flaky 0
	assert_lines "::group::retry: attempt 1/3: flaky 0" "run 1" \
	    "::endgroup::"
	assert_equal "$stderr" ""
}

@test "ci: GitHub: hostile arguments and labels cannot inject a command" {
	GITHUB_ACTIONS=true run -1 --separate-stderr retry --max 1 \
	    --label 'a,b:c%' -- false $'x\n::error::pwned' '%0A,::'
	assert_lines \
	    "::group::retry[a,b:c%25]: attempt 1/1: false 'x\\x0a::error::pwned' %250A,::" \
	    "::endgroup::" \
	    "::error title=retry[a%2Cb%3Ac%25]%3A gave up::false 'x\\x0a::error::pwned' %250A,::: gave up after 1 attempt: exit 1"
	refute_line --partial $'\n::error::pwned'
	refute_line --regexp '^::error::'
}

@test "ci: GitHub: a command that cannot start closes its group and leaves an error naming it and why" {
	GITHUB_ACTIONS=true run -127 --separate-stderr retry --max 3 \
	    --label 'a,b:c' -- $'no\n::error::pwned%' arg
	assert_lines \
	    "::group::retry[a,b:c]: attempt 1/3: 'no\\x0a::error::pwned%25' arg" \
	    "::endgroup::" \
	    "::error title=retry[a%2Cb%3Ac]%3A could not start::'no\\x0a::error::pwned%25' arg: could not start: command not found"
	refute_line --regexp '^::error::'
	assert_equal "$stderr" "retry[a,b:c]: no\\x0a::error::pwned%: command not found"
	# Not executable, on a later attempt: the statuses before it named.
	cd "$BATS_TEST_TMPDIR"
	printf '#!/bin/sh\nchmod -x "$0"\nexit 1\n' >once
	chmod +x once
	GITHUB_ACTIONS=true run -126 --separate-stderr retry --max 3 \
	    --fixed 10ms ./once
	assert_lines \
	    "::group::retry: attempt 1/3: ./once" "::endgroup::" \
	    "::group::retry: attempt 2/3: ./once" "::endgroup::" \
	    "::error title=retry%3A could not start::./once: could not start on attempt 2: Permission denied; failed before: exit 1"
}

@test "ci: GitHub: the command's own workflow commands pass through untouched" {
	GITHUB_ACTIONS=true run -0 --separate-stderr retry --max 1 -- \
	    printf '::error file=a.c,line=1::lint%%0A\n::notice::x\n'
	assert_regex "${lines[0]}" "^::group::retry: attempt 1/1: printf "
	assert_equal "${lines[1]}" "::error file=a.c,line=1::lint%0A"
	assert_equal "${lines[2]}" "::notice::x"
	assert_equal "${lines[3]}" "::endgroup::"
	assert_equal "${#lines[@]}" 4
}

@test "ci: GitHub: --hold-stdout: the held output inside its attempt's group" {
	GITHUB_ACTIONS=true run -0 --separate-stderr retry --max 2 \
	    --fixed 10ms --hold-stdout flaky 1
	assert_lines \
	    "::group::retry: attempt 1/2: flaky 1" "::endgroup::" \
	    "::group::retry: attempt 2/2: flaky 1" "run 2" "::endgroup::" \
	    "::warning title=retry%3A succeeded after failures::flaky 1: succeeded on attempt 2 after 1 failure: exit 1"
}

@test "ci: GitLab: each attempt in a collapsed section, plain lines for the annotations" {
	local e=$'\e' t='[0-9]+'
	GITLAB_CI=true run -0 --separate-stderr \
	    retry --max 3 --fixed 10ms --label 'web app' flaky 1
	assert_equal "${#lines[@]}" 7
	assert_regex "${lines[0]}" "^${e}\\[0Ksection_start:$t:retry_web_app_attempt_1\\[collapsed=true\\]"$'\r'"${e}\\[0Kretry\\[web app\\]: attempt 1/3: flaky 1\$"
	assert_equal "${lines[1]}" "run 1"
	assert_regex "${lines[2]}" "^${e}\\[0Ksection_end:$t:retry_web_app_attempt_1"$'\r'"${e}\\[0K\$"
	assert_regex "${lines[3]}" "^${e}\\[0Ksection_start:$t:retry_web_app_attempt_2\\[collapsed=true\\]"$'\r'"${e}\\[0Kretry\\[web app\\]: attempt 2/3: flaky 1\$"
	assert_equal "${lines[4]}" "run 2"
	assert_regex "${lines[5]}" "^${e}\\[0Ksection_end:$t:retry_web_app_attempt_2"$'\r'"${e}\\[0K\$"
	assert_equal "${lines[6]}" "retry[web app]: succeeded after failures: flaky 1: succeeded on attempt 2 after 1 failure: exit 1"
}

@test "ci: GitLab: a section's start and end are Unix times of now" {
	local before after s
	before=$(date +%s)
	GITLAB_CI=true run -1 --separate-stderr retry --ci auto --max 1 false
	after=$(date +%s)
	[[ ${lines[0]} =~ section_start:([0-9]+): ]]
	s=${BASH_REMATCH[1]}
	((s >= before && s <= after))
	assert_equal "${lines[2]}" "retry: gave up: false: gave up after 1 attempt: exit 1"
}

@test "ci: GitLab: a command that cannot start closes its section and says so in a plain line" {
	local e=$'\e' t='[0-9]+'
	GITLAB_CI=true run -127 --separate-stderr retry --max 3 -- \
	    $'no\n::x' arg
	assert_equal "${#lines[@]}" 3
	assert_regex "${lines[0]}" "^${e}\\[0Ksection_start:$t:retry_attempt_1\\["
	assert_regex "${lines[1]}" "^${e}\\[0Ksection_end:$t:retry_attempt_1"$'\r'"${e}\\[0K\$"
	assert_equal "${lines[2]}" "retry: could not start: 'no\\x0a::x' arg: could not start: command not found"
}

@test "ci: --ci github and gitlab need no environment; --ci none under GitHub Actions says nothing new" {
	run -0 --separate-stderr retry --ci github --max 1 echo hi
	assert_lines "::group::retry: attempt 1/1: echo hi" "hi" "::endgroup::"
	run -0 --separate-stderr retry --ci gitlab --max 1 echo hi
	assert_line --index 1 "hi"
	assert_regex "${lines[0]}" 'section_start:[0-9]+:retry_attempt_1\['
	GITHUB_ACTIONS=true GITLAB_CI=true run -0 --separate-stderr \
	    retry --ci none --max 3 --fixed 10ms flaky 1
	assert_lines "run 1" "run 2"
}

@test "ci: outside CI, --ci auto adds nothing" {
	run -0 --separate-stderr env -u GITHUB_ACTIONS -u GITLAB_CI \
	    GITHUB_ACTIONS=1 "$RETRY" --ci auto --max 3 --fixed 10ms flaky 1
	assert_lines "run 1" "run 2"
	assert_stderr_lines \
	    "retry: flaky 1: attempt 1/3 failed: exit 1 after $DUR; next attempt in 10ms" \
	    "retry: flaky 1: succeeded on attempt 2 of 3 after $DUR"
}

@test "ci: --ci auto on a terminal adds nothing" {
	command -v script >/dev/null || skip "no script(1)"
	GITHUB_ACTIONS=true run -0 timeout 60 script -qec \
	    "'$RETRY' --ci auto --max 1 echo hi" /dev/null
	refute_output --partial "::"
	assert_output --partial "hi"
}

@test "ci: an unknown --ci is refused" {
	run -125 retry --ci jenkins true
	assert_usage_error --ci
	assert_line --index 0 \
	    "retry: --ci: unknown CI 'jenkins' (use auto, github, gitlab or none)"
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
	assert_lines \
	    "::group::retry: attempt 2/5: ./three 0" "run 2" "::endgroup::" \
	    "::warning title=retry%3A succeeded after failures::./three 0: succeeded on attempt 2 after 1 failure: exit 11"
}

@test "ci: --hedge: a run that gives up names every status that failed, those beside others too" {
	cd "$BATS_TEST_TMPDIR"
	hedged_three
	GITHUB_ACTIONS=true run -13 --separate-stderr retry --max 3 \
	    --hedge 50ms --stdin null ./three 12
	assert_lines \
	    "::group::retry: attempt 3/3: ./three 12" "run 3" "::endgroup::" \
	    "::error title=retry%3A gave up::./three 12: gave up after 3 attempts: exit 11, exit 12, exit 13"
}
