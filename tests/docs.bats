#!/usr/bin/env bats
# The help, the manuals and the completions name the same options.
bats_require_minimum_version 1.5.0
load test_helper/common

# Every long option that a --help all text names.
long_options() {
	"$@" --help all | grep -oE -- '--[a-z][a-z0-9-]*' | sort -u
}

# Fails, naming them, when FILE lacks any of the options on stdin; with
# more than one FILE (manual pages, all of one kind), when none of them
# has it.
assert_names_all() {
	local file=$1 missing=() opt pattern
	while read -r opt; do
		pattern=$opt
		case $file in
		*.1) pattern="Fl \\\\-${opt#--}([ ,]|$)" ;;
		*/_retry) pattern="[{(' ,)\"*]${opt}[=+\\[')}]" ;;
		*.fish) pattern="-l ${opt#--}( |$)" ;;
		*) pattern="(^|[ '])${opt}([ '|)]|$)" ;;
		esac
		grep -qE -- "$pattern" "$@" || missing+=("$opt")
	done
	if [ ${#missing[@]} -gt 0 ]; then
		echo "$* lacks: ${missing[*]}"
		return 1
	fi
}

@test "the help names at least the options everyone uses" {
	run -0 long_options "$RETRY"
	for opt in --max --budget --timeout --exp --jitter --seed --stop-on \
	    --dry-run --algorithm --help --version; do
		assert_line "$opt"
	done
}

@test "retry.1 or retry-share.1 describes every option of retry --help" {
	long_options "$RETRY" |
	    assert_names_all "$ROOT/man/retry.1" "$ROOT/man/retry-share.1"
}

@test "retry-simulate.1, retry.1 or show-backoff-delays.1 describes every option of retry simulate --help" {
	long_options "$RETRY" simulate |
	    assert_names_all "$ROOT/man/retry-simulate.1" "$ROOT/man/retry.1" \
	    "$ROOT/man/show-backoff-delays.1"
}

@test "retry-share.1 or retry.1 describes every option of retry share --help" {
	long_options "$RETRY" share |
	    assert_names_all "$ROOT/man/retry-share.1" "$ROOT/man/retry.1"
}

# retry.1 lists the options of --share, one line each; retry-share.1 has
# an entry for each.
@test "retry-share.1 has an entry for every option of --share, not only retry.1's list" {
	local opt missing=()
	while read -r opt; do
		grep -qE -- "^\\.It Fl \\\\${opt#-}( |\$)" "$ROOT/man/retry-share.1" ||
		    missing+=("$opt")
	done < <(long_options "$RETRY" | grep -- '^--share')
	assert_equal "${missing[*]}" ""
}

@test "show-backoff-delays.1 or retry.1 describes every option of show-backoff-delays --help" {
	local missing
	missing=$(long_options "$SHOW" | while read -r opt; do
		grep -qE -- "Fl \\\\-${opt#--}([ ,]|$)" \
		    "$ROOT/man/show-backoff-delays.1" "$ROOT/man/retry.1" ||
		    echo "$opt"
	done)
	assert_equal "$missing" ""
}

@test "the bash completion knows every option" {
	{ long_options "$RETRY"; long_options "$SHOW"
	    long_options "$RETRY" simulate; } | sort -u |
	    assert_names_all "$ROOT/completions/retry.bash"
}

@test "the zsh completion knows every option" {
	{ long_options "$RETRY"; long_options "$SHOW"
	    long_options "$RETRY" simulate; } | sort -u |
	    assert_names_all "$ROOT/completions/_retry"
}

@test "the fish completion knows every option" {
	{ long_options "$RETRY"; long_options "$SHOW"
	    long_options "$RETRY" simulate; } | sort -u |
	    assert_names_all "$ROOT/completions/retry.fish"
}

@test "the checks above fail for an option that is missing" {
	run ! assert_names_all "$ROOT/completions/retry.fish" <<<"--no-such-option"
	assert_output --partial "lacks: --no-such-option"
	run ! assert_names_all "$ROOT/man/retry.1" <<<"--no-such-option"
	run ! assert_names_all "$ROOT/man/retry.1" "$ROOT/man/retry-share.1" \
	    <<<"--no-such-option"
	assert_output --partial "retry-share.1 lacks: --no-such-option"
	run ! assert_names_all "$ROOT/completions/_retry" <<<"--no-such-option"
	run ! assert_names_all "$ROOT/completions/retry.bash" <<<"--no-such-option"
}

@test "retry's, simulate's and share's --help name their manual pages, which exist" {
	local face page
	for face in '' simulate share; do
		run -0 "$RETRY" $face --help
		page=$(grep -oE 'the manual: man [a-z-]+$|^The manual: man [a-z-]+$' \
		    <<<"$output")
		page=${page##* }
		[ "$page" = "retry${face:+-$face}" ] ||
			fail "retry $face --help names ${page:-no page}"
		[ -f "$ROOT/man/$page.1" ] || fail "no man/$page.1"
	done
}

@test "every --help text fits in 80 columns" {
	run -0 bash -c '"$RETRY" --help; "$RETRY" --help all; "$SHOW" --help
	    "$RETRY" simulate --help; "$RETRY" share --help'
	local line
	for line in "${lines[@]}"; do
		[ "${#line}" -le 80 ] || fail "too wide: $line"
	done
}

@test "every manual page passes mandoc's lint" {
	command -v mandoc >/dev/null || skip "mandoc is not installed"
	local pages=("$ROOT"/man/*.[17])
	[ ${#pages[@]} -ge 5 ] || fail "too few pages: ${pages[*]}"
	run -0 mandoc -Tlint -Wwarning "${pages[@]}"
	assert_output ""
}

@test "the Makefile's MANPAGES names every manual page, and retry.1 links to each" {
	local page name
	run -0 make -s --no-print-directory -C "$ROOT" \
	    --eval 'print-pages: ; @echo $(MANPAGES)' \
	    print-pages
	for page in "$ROOT"/man/*.[17]; do
		name=${page#"$ROOT"/}
		assert_output --regexp "(^| )$name( |\$)"
		[ "$name" = man/retry.1 ] || {
			name=${name#man/}
			grep -qx "\.Xr ${name%.*} ${name##*.}[ ,]*" "$ROOT/man/retry.1" ||
			    fail "retry.1's SEE ALSO lacks $name"
		}
	done
}

# The subsection "JSON events" of retry-reports.7.
log_format_entry() {
	sed -n '/^\.Ss JSON events$/,/^\.S[sh] /p' "$ROOT/man/retry-reports.7"
}

# The names in the table NAME of src/decide/reportfmt.c, one a line.
report_table() {
	sed -n "/^static const char \\*const $1\\[\\] = {/,/^};/p" \
	    "$ROOT/src/decide/reportfmt.c" | grep -oE '"[a-z_]+"' | tr -d '"'
}

# Fails, naming them, when the --log-format entry quotes none of the
# words on stdin as .Dq WORD.
assert_quotes_all() {
	local entry word missing=()
	entry=$(log_format_entry)
	while read -r word; do
		grep -qE "(^\\.| )Dq $word( |\$)" <<<"$entry" || missing+=("$word")
	done
	if [ ${#missing[@]} -gt 0 ]; then
		echo "retry-reports.7's JSON events lack: ${missing[*]}"
		return 1
	fi
}

@test "retry-reports.7's JSON events name every JSON event, share event and field" {
	local events shares fields
	events=$(report_table event_names)
	[[ $events == *done* ]] || fail "no event names found: $events"
	{ echo "$events"; echo error; } | assert_quotes_all
	# Read from the C: if it changed shape, these would find nothing and
	# check nothing.
	shares=$(report_table share_events)
	[[ $'\n'$shares$'\n' == *$'\n'opened$'\n'*$'\n'store_down$'\n'* ]] ||
		fail "no share events found in src/decide/reportfmt.c: $shares"
	assert_quotes_all <<<"$shares"
	fields=$(grep -oE '\\"[a-z_]+\\":' "$ROOT/src/decide/reportfmt.c" | tr -d '\\":' |
	    sort -u)
	[ "$(grep -cxE 'ts|event|attempt|status|delay_ms' <<<"$fields")" -eq 5 ] ||
		fail "no JSON fields found in src/decide/reportfmt.c: $fields"
	assert_quotes_all <<<"$fields"
	run ! assert_quotes_all <<<"no_such_event"
	assert_output --partial "lack: no_such_event"
}

@test "the manuals render no stray space inside parentheses: fib(n), not fib( n)" {
	command -v mandoc >/dev/null || skip "mandoc is not installed"
	for page in "$ROOT"/man/*.[17]; do
		run -0 bash -c 'mandoc -Tascii "$1" | col -bx' sh "$page"
		refute_output --regexp '[a-z]\( [a-z]'
	done
	run -0 bash -c 'mandoc -Tascii "$1" | col -bx' sh "$ROOT/man/retry.1"
	assert_output --partial 'dur x fib(n), with fib = 1, 1, 2'
}

@test "the manuals render no quote opened inside another: ('stop', reason 'quit')" {
	command -v mandoc >/dev/null || skip "mandoc is not installed"
	for page in "$ROOT"/man/*.[17]; do
		run -0 bash -c 'mandoc -Tascii "$1" | col -bx' sh "$page"
		refute_output --regexp "\`[^']*\`"
	done
	run -0 bash -c 'mandoc -Tascii "$1" | col -bx | tr -s " \n" "  "' sh \
	    "$ROOT/man/retry.1"
	assert_output --partial "(\`stop', reason \`quit')"
}

@test "retry simulate --help gives --max the default simulate uses: no limit" {
	run -0 retry simulate --help
	refute_output --partial 'default 5'
	assert_output --partial 'at most N attempts a client (default 0: no'
}

@test "retry.1 says that RETRY_ATTEMPT counts from 1, unlike kadwanev/retry's" {
	command -v mandoc >/dev/null || skip "mandoc is not installed"
	run -0 bash -c 'mandoc -Tascii "$1" | col -bx | tr -s " \n" "  "' sh \
	    "$ROOT/man/retry.1"
	assert_output --partial 'from 1: the first attempt sees 1'
	assert_output --partial 'kadwanev/retry counts its attempts from 0'
}

@test "README: an example said to be silent quiets its command too, not only retry" {
	run -0 grep -A2 -i 'silently' "$ROOT/README.md"
	assert_output --partial 'pg_isready -q '
}

# The figures that a newcomer's first ten minutes hang on: the README at
# most 10 KB, its sentences 20 words on average and no more than three
# past 40; retry(1) at most 1,300 lines at 80 columns; retry --help at
# most 60 lines; retry --help all at most 60 long options.
@test "the README, retry(1) and --help stay short enough to read in ten minutes" {
	command -v mandoc >/dev/null || skip "mandoc is not installed"
	local bytes lines
	bytes=$(wc -c <"$ROOT/README.md")
	((bytes <= 10000)) || fail "README.md is $bytes bytes, over 10000"
	run -0 python3 "$BATS_TEST_DIRNAME/prose.py" "$ROOT/README.md"
	[[ ${lines[0]} =~ ^[0-9]+\ sentences,\ ([0-9.]+)\ words ]] ||
		fail "prose.py said: $output"
	awk -v a="${BASH_REMATCH[1]}" 'BEGIN { exit !(a <= 20) }' ||
		fail "README.md's sentences average ${BASH_REMATCH[1]} words"
	((${#lines[@]} - 1 <= 3)) || fail "README.md's long sentences: $output"
	lines=$(MANWIDTH=80 mandoc -Tascii -O width=80 "$ROOT/man/retry.1" | col -bx | wc -l)
	((lines <= 1300)) || fail "retry.1 renders $lines lines, over 1300"
	run -0 "$RETRY" --help
	((${#lines[@]} <= 60)) || fail "retry --help is ${#lines[@]} lines"
	run -0 bash -c '"$1" --help all | grep -oE -- "^  (-[a-zA-Z], |    )--[a-z][a-z0-9-]*" | sort -u | wc -l' sh "$RETRY"
	((output <= 60)) || fail "retry --help all lists $output long options"
	((output >= 40)) || fail "only $output long options found in --help all"
}

@test "prose.py counts the long sentences it is given" {
	printf '%s\n' '# Title' '' "$(printf 'word %.0s' {1..45})ends here." '' \
	    '```' "$(printf 'code %.0s' {1..80})." '```' '' '- A short item. Two words.' >"$D/long.md"
	run -0 python3 "$BATS_TEST_DIRNAME/prose.py" "$D/long.md"
	assert_line --index 0 "3 sentences, 17.3 words on average"
	assert_line --index 1 --partial "47: word word"
	assert_equal "${#lines[@]}" 2
}
