# Shared set-up for the bats suite.
# shellcheck shell=bash
# bats sets status, output and lines in run:
# shellcheck disable=SC2154

# Loads bats-support or bats-assert as bats_load_library does, but sources
# the files that its loader names directly: the loader runs dirname once a
# file, and those processes were most of what a short test cost.
load_quickly() {
	local loader line n=0
	if find_in_bats_lib_path loader "$1"; then
		while IFS= read -r line; do
			[[ $line =~ ^source\ .*(/src/[A-Za-z_]+\.bash)\"$ ]] ||
				continue
			# shellcheck source=/dev/null
			source "${loader%/*}${BASH_REMATCH[1]}" || return 1
			n=$((n + 1))
		done <"$loader"
	fi
	[ "$n" -gt 0 ] || bats_load_library "$1"
}
load_quickly bats-support
load_quickly bats-assert

# The tree's top: the nearest directory above the test with a Makefile.
ROOT=$BATS_TEST_DIRNAME
while [ ! -f "$ROOT/Makefile" ] && [ -n "$ROOT" ]; do
	ROOT=${ROOT%/*}
done
# Debian's python3 when there is one, for the helpers that are written in
# it: a version manager's shim (pyenv's) costs most of a second a call.
# A link on PATH, not a function, so that "python3 ... &" gives $! the
# server's own pid.
if [ -x /usr/bin/python3 ] && [ -n "${BATS_RUN_TMPDIR:-}" ]; then
	[ -e "$BATS_RUN_TMPDIR/python/python3" ] || {
		mkdir -p "$BATS_RUN_TMPDIR/python" &&
			ln -sf /usr/bin/python3 "$BATS_RUN_TMPDIR/python/python3"
	}
	PATH=$BATS_RUN_TMPDIR/python:$PATH
fi

# The suite may itself run in a CI: retry's --ci auto would then write the
# CI's groups around every attempt.  tests/ci.bats sets them where it means
# to.
unset GITHUB_ACTIONS GITLAB_CI

RETRY=${RETRY:-$ROOT/retry}
SHOW=${SHOW:-$ROOT/show-backoff-delays}
PATH=$ROOT/tests/bin:$PATH
export ROOT RETRY SHOW PATH

# retry, bounded in time so that a hang fails the test instead of the run.
retry() {
	timeout 60 "$RETRY" "$@"
}

show() {
	timeout 60 "$SHOW" "$@"
}

# Runs "$@" until it succeeds, a moment's sleep between tries, and
# returns then: what is waited for decides, never a guess at the machine's
# pace. Fails the test, naming the command, if $1 (seconds, as 10 or 10s; a
# generous bound, for a machine that is slow) passes first.
poll_until() {
	local bound=${1%s} now end
	shift
	[[ $bound =~ ^[0-9]+$ ]] || {
		fail "poll_until: the bound '$bound' is no whole number of seconds"
		return
	}
	now=${EPOCHREALTIME//[!0-9]/}
	end=$((10#$now + bound * 1000000))
	until "$@"; do
		now=${EPOCHREALTIME//[!0-9]/}
		if ((10#$now >= end)); then
			fail "gave up after ${bound}s waiting for: $*"
			return
		fi
		sleep 0.02
	done
}

# Whether "$@" fails: for poll_until, which waits for a success.
not() {
	! "$@"
}

# Whether process $1 has ended or "${@:2}" succeeds: for poll_until, to
# wait for a server to listen that may end instead (its port was taken).
ended_or() {
	! kill -0 "$1" 2>/dev/null || "${@:2}"
}

# Whether file $1 has at least ${2:-1} lines.
has_lines() {
	[ -f "$1" ] && [ "$(wc -l <"$1")" -ge "${2:-1}" ]
}

# Waits, up to 10 s, until file $1 has at least ${2:-1} lines.
wait_lines() {
	poll_until 10 has_lines "$1" "${2:-1}"
}

# Whether file $1 has a line matching extended regex $2.
has_match() {
	grep -Eq -- "$2" "$1" 2>/dev/null
}

# Waits, up to ${3:-10} s, until file $1 has a line matching extended
# regex $2.
wait_match() {
	poll_until "${3:-10}" has_match "$1" "$2"
}

# Milliseconds on a monotonic-enough clock.
now_ms() {
	local t
	t=$(date +%s%N)
	echo $((t / 1000000))
}

# Microseconds, from bash itself: nothing forked while timing.
now_us() {
	local t=${EPOCHREALTIME/[.,]/}
	echo $((10#$t))
}

# Succeeds when a < f * b, for decimal numbers.
less_than() {
	awk -v a="$1" -v f="$2" -v b="$3" 'BEGIN { exit !(a < f * b) }'
}

# Succeeds when a is within the fraction f of b.
within() {
	awk -v a="$1" -v f="$2" -v b="$3" 'BEGIN {
	    d = a - b; if (d < 0) d = -d; exit !(d <= f * b) }'
}

# A port of 127.0.0.1 that nothing listens on, found by binding port 0
# and letting go.
free_port() {
	python3 -c 'import socket; s = socket.socket()
s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# Fails unless directory ${1:-$TMPDIR} is empty: no temporary file was
# left behind.
assert_no_temp_files() {
	local dir=${1:-$TMPDIR} left
	left=$(ls -A "$dir") || return
	[ -z "$left" ] || fail "left in $dir: $left"
}

# Asserts a usage error: status 125, one line naming the option, then the
# pointer to --help.
assert_usage_error() {
	local option=$1
	assert_equal "$status" 125
	assert_equal "${#lines[@]}" 2
	assert_line --index 0 --regexp "^(retry|show-backoff-delays): .*${option}"
	assert_line --index 1 --regexp "^Try '(retry|show-backoff-delays) --help'\.$"
}

# An error of the run's set-up that is no usage error (a log file that
# cannot be opened): status 125, one line naming the run and the option,
# no --help.
assert_setup_error() {
	assert_equal "$status" 125
	assert_equal "${#lines[@]}" 1
	assert_line --index 0 --regexp "^retry(: .*)?: $1"
}

# Skips a test whose subject valgrind itself changes (tests/run-under
# valgrind sets RETRY_UNDER): its own files in TMPDIR, its name in ps, its
# pace, and vfork run as fork, so a failed exec cannot be told apart.
skip_under_valgrind() {
	[ "${RETRY_UNDER:-}" != valgrind ] || skip "under valgrind: $1"
}

# Skips a test of what only Linux gives, in the build that uses every
# portable fallback of src/base/compat.c instead (make check-portable sets
# RETRY_PORTABLE): the reason names what that build lacks.
skip_portable() {
	[ -z "${RETRY_PORTABLE:-}" ] || skip "the portable build: $1"
}

# Skips a test of what the static musl build does otherwise (make
# check-musl sets RETRY_MUSL): the reason names the difference.
skip_musl() {
	[ -z "${RETRY_MUSL:-}" ] || skip "the musl build: $1"
}

# Skips a test of what qemu-user does otherwise than Linux on the machine
# it emulates (make check-arm64 sets RETRY_QEMU): the reason names it.
skip_qemu() {
	[ -z "${RETRY_QEMU:-}" ] || skip "under qemu-user: $1"
}

# Whether this is the build without Redis (make check-noredis sets
# RETRY_NOREDIS), where a test's part that needs a Redis store is left
# out: such a store is refused there (tests/noredis.bats).
noredis() {
	[ -n "${RETRY_NOREDIS:-}" ]
}

# Where retry's messages say its spools are: in memory (memfd), or in the
# portable build, which has no memfd, in TMPDIR.
spool_place() {
	if [ -n "${RETRY_PORTABLE:-}" ]; then
		printf '%s' "${TMPDIR:-/tmp}"
	else
		printf memory
	fi
}

# Skips a test that takes away what ASan and LeakSanitizer need for
# themselves at exit (descriptors for the symbolizer, a process for the
# leak check): under them, it would test the sanitizer.
skip_under_asan_limits() {
	[ "${RETRY_UNDER:-}" != asan ] || skip "under ASan: $1"
}

# The command "$@" as every report line names it: its words, those of
# other than plain characters in single quotes, cut short past 24 columns
# to 21 and "..." (of control characters, newlines are made visible, as
# \x0a; a tab takes 8 columns).
command_name() {
	local w s='' q c i n=0
	for w in "$@"; do
		[ -z "$s" ] || s+=" "
		if [[ -n $w && $w != *[!A-Za-z0-9_@%+=:,./-]* ]]; then
			s+=$w
		else
			q=${w//\'/\'\\\'\'}
			s+="'$q'"
		fi
	done
	s=${s//$'\n'/\\x0a}
	q=${s//[!$'\t']/}
	if [ $((${#s} + 7 * ${#q})) -gt 24 ]; then
		for ((i = 0; i < ${#s}; i++)); do
			c=${s:i:1}
			[ "$c" = $'\t' ] && n=$((n + 8)) || n=$((n + 1))
			[ "$n" -le 21 ] || break
		done
		s=${s:0:i}
		# Never inside an escape.
		if [[ ${s: -3} == *\\* ]]; then
			q=${s: -3}
			s=${s:0:${#s}-3}${q%%\\*}
		fi
		while [[ $s == *" " ]]; do s=${s% }; done
		s+=...
	fi
	printf '%s' "$s"
}

# The same as an extended regex.
named() {
	# shellcheck disable=SC2016  # a sed expression, not the shell's
	command_name "$@" | sed 's/[].[\*^$()+?{|]/\\&/g'
}

# listed OPTION COMMAND...: whether COMMAND --help all lists OPTION on a
# line of its own (an alias it takes is not listed).
listed() {
	local option=$1
	shift
	"$@" --help all | grep -qE -- "^ {2,6}(-[a-zA-Z], )?$option( |\$)"
}
