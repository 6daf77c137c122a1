#!/usr/bin/env bats
# The completions and the manuals against the option table itself, as
# build/optdump prints src/cli/optable.c's rows: for each face (retry,
# show-backoff-delays, simulate, share), every option, its short name,
# whether it takes a value, and the values it is one of when they are a
# fixed set.  The shells are asked (tests/test_helper/offers.bash); the
# manuals' option lists are read from their mdoc source.
bats_require_minimum_version 1.5.0
load test_helper/common
load test_helper/offers

OPTDUMP=${OPTDUMP:-$ROOT/build/optdump}
FACES='retry show-backoff-delays simulate share'
PAGES=("$ROOT"/man/*.[17])

setup() {
	[ -x "$OPTDUMP" ] || fail "no $OPTDUMP: make build/optdump"
	"$OPTDUMP" >"$BATS_TEST_TMPDIR/table" || fail "$OPTDUMP failed"
}

# table FACE [FIELD]: the face's rows, or that field of each: 2 the long
# name, 3 the short one or -, 4 the value's name or -, 5 its choices or -,
# 6 + where it adds up when given again, else -, 7 alias for an alias's
# row (--tries), else -.
table() {
	awk -F '\t' -v face="$1" -v f="${2:-0}" \
	    '$1 == face { print (f ? $f : $0) }' "$BATS_TEST_TMPDIR/table"
}

# The words before the options, for each face.
prefixes() {
	case $1 in
	retry) echo retry ;;
	show-backoff-delays)
		printf '%s\n' show-backoff-delays 'retry show-backoff-delays' ;;
	*) echo "retry $1" ;;
	esac
}

# same_set WHAT WANT GOT: fails, saying what GOT lacks and what it has
# more, when the lines of WANT and GOT differ as sets.
same_set() {
	local missing extra
	missing=$(comm -23 <(grep . <<<"$2" | sort -u) <(grep . <<<"$3" | sort -u))
	extra=$(comm -13 <(grep . <<<"$2" | sort -u) <(grep . <<<"$3" | sort -u))
	[ -z "$missing$extra" ] && return 0
	echo "$1: lacks [${missing//$'\n'/ }], has more [${extra//$'\n'/ }]"
	return 1
}

# offered WORD: whether the last "offers" has WORD.
offered() {
	[[ $'\n'$output$'\n' == *$'\n'"$1"$'\n'* ]]
}

# Every name of every option of each face: --max, and -n where it has one.
# --help and --version end the command line (zsh offers nothing after
# them), so they are left out of the checks of what follows an option.
names_of() {
	table "$1" | awk -F '\t' '$2 != "--help" && $2 != "--version" {
	    print $2 "\t" $4; if ($3 != "-") print $3 "\t" $4 }'
}

# check_names SHELL: each face's options complete, exactly the table's:
# the long names after --, and (zsh and fish; bash completes no short
# option) the short ones after -, with -V, --version's other letter.
check_names() {
	local shell=$1 face prefix i failed=0 want
	local -a probes=() faces=()
	for face in $FACES; do
		while read -r prefix; do
			probes+=("$prefix --") faces+=("$face")
			[ "$shell" = bash ] || probes+=("$prefix -") faces+=("$face")
		done < <(prefixes "$face")
	done
	complete_lines "$shell" "${probes[@]}" || return 1
	[ "$(table retry 2 | wc -l)" -gt 50 ] || fail "too few rows in the table"
	for i in "${!probes[@]}"; do
		offers $((i + 1))
		if [[ ${probes[i]} == *-- ]]; then
			want=$(table "${faces[i]}" 2)
			same_set "$shell '${probes[i]}'" "$want" \
			    "$(grep -E '^--[a-z]' <<<"$output")" || failed=1
		else
			want=$(table "${faces[i]}" 3 | grep -v '^-$'
			    table "${faces[i]}" 3 | grep -qx -- -v && echo -V)
			same_set "$shell '${probes[i]}'" "$want" \
			    "$(grep -E '^-[A-Za-z0-9]$' <<<"$output")" || failed=1
		fi
	done
	return "$failed"
}

@test "bash completes each face's options, all of the table's and no other" {
	check_names bash
}

@test "zsh completes each face's options, all of the table's and no other" {
	check_names zsh
}

@test "fish completes each face's options, all of the table's and no other" {
	check_names fish
}

# check_values SHELL: each option of each face completes as taking a value
# or as not, as the table says, its short name too.  What follows a flag
# is what follows no option: retry's command (ech offers echo),
# show-backoff-delays's statuses (1), simulate's options (--help), share's
# action (status); after an option that takes a value, none of those.  And
# the word after that value is again what follows no option, in retry
# (the command) and share (the action).  Simulate's is left to bash and
# zsh: fish offers options after any option, and simulate takes no other
# word.
check_values() {
	local shell=$1 face name value i failed=0 want got
	local -a probes=() marks=() takes=()
	for face in $FACES; do
		[ "$face" = simulate ] && [ "$shell" = fish ] && continue
		while IFS=$'\t' read -r name value; do
			value=$([ "$value" = - ] && echo no || echo yes)
			case $face in
			retry)
				probes+=("retry $name ech" "retry $name x ech")
				marks+=(echo echo) ;;
			show-backoff-delays)
				probes+=("show-backoff-delays $name ")
				marks+=(1) ;;
			simulate)
				probes+=("retry simulate $name -")
				marks+=(--help) ;;
			share)
				probes+=("retry share $name " "retry share $name x ")
				marks+=(status status) ;;
			esac
			takes+=("$value")
			# The word after the value: there if it takes one.
			case $face in
			retry | share) takes+=("$value:after") ;;
			esac
		done < <(names_of "$face")
	done
	COMPLETE_TIMEOUT=300 complete_lines "$shell" "${probes[@]}" || return 1
	for i in "${!probes[@]}"; do
		offers $((i + 1))
		case ${takes[i]} in
		yes | no:after) want=absent ;;
		*) want=present ;;
		esac
		got=absent
		offered "${marks[i]}" && got=present
		[ "$got" = "$want" ] || {
			echo "$shell '${probes[i]}': ${marks[i]} $got;" \
			    "takes a value: ${takes[i]}"
			failed=1
		}
	done
	[ "${#probes[@]}" -gt 200 ] || fail "too few probes: ${#probes[@]}"
	return "$failed"
}

@test "bash completes each option as taking a value or not, as the table says" {
	check_values bash
}

@test "zsh completes each option as taking a value or not, as the table says" {
	check_values zsh
}

@test "fish completes each option as taking a value or not, as the table says" {
	check_values fish
}

# check_choices SHELL: the value of an option whose values are a fixed
# set completes as exactly that set, in each face and by either name.
check_choices() {
	local shell=$1 face prefix name short choices i failed=0
	local -a probes=() wants=()
	for face in $FACES; do
		prefix=$(prefixes "$face" | head -n 1)
		while IFS=$'\t' read -r _ name short _ choices _; do
			[ "$choices" = - ] && continue
			for name in "$name" "$short"; do
				[ "$name" = - ] && continue
				probes+=("$prefix $name ")
				wants+=("${choices// /$'\n'}")
			done
		done < <(table "$face")
	done
	[ "${#probes[@]}" -ge 10 ] || fail "too few choices: ${#probes[@]}"
	complete_lines "$shell" "${probes[@]}" || return 1
	for i in "${!probes[@]}"; do
		offers $((i + 1))
		same_set "$shell '${probes[i]}'" "${wants[i]}" "$output" ||
		    failed=1
	done
	return "$failed"
}

@test "bash completes the values of an option that has a set of them, exactly" {
	check_choices bash
}

@test "zsh completes the values of an option that has a set of them, exactly" {
	check_choices zsh
}

@test "fish completes the values of an option that has a set of them, exactly" {
	check_choices fish
}

@test "optdump: each face's --help names only options of its table, and its choices are those retry takes" {
	local face cmd name short choices value
	for face in $FACES; do
		case $face in
		retry) cmd=("$RETRY") ;;
		show-backoff-delays) cmd=("$SHOW") ;;
		*) cmd=("$RETRY" "$face") ;;
		esac
		# The options that its lines start with.
		run -0 bash -c '"$@" --help all | grep -oE -- \
		    "^ {2,6}(-[a-zA-Z], )?--[a-z][a-z0-9-]*" | grep -oE -- "--.*" |
		    sort -u' sh "${cmd[@]}"
		[ "${#lines[@]}" -gt 5 ] || fail "$face --help names too few"
		same_set "$face --help, in the table" "$output" \
		    "$(table "$face" 2 | grep -Fx -f <(echo "$output"))"
		# A value of the set is taken, any other refused (--help
		# after it: only the option is read).  --help's own value is
		# refused only as --help=VALUE: a word after it is not read.
		while IFS=$'\t' read -r _ name short _ choices _; do
			[ "$choices" = - ] && continue
			if [ "$name" = --help ]; then
				for value in $choices; do
					run -0 "${cmd[@]}" "$name=$value"
				done
				run -125 "${cmd[@]}" --help=no-such-value
				run -0 "${cmd[@]}" --help no-such-value
				continue
			fi
			for value in $choices; do
				run -0 "${cmd[@]}" "$name" "$value" --help
			done
			run -125 "${cmd[@]}" "$name" no-such-value --help
		done < <(table "$face")
	done
}

# help_options CMD...: the options that the lines of CMD's output begin
# with, as "  -n, --max N" begins, one long name a line.
help_options() {
	"$@" | grep -oE -- "^ {2,6}(-[a-zA-Z], )?--[a-z][a-z0-9-]*" |
	    grep -oE -- "--.*" | sort -u
}

@test "optdump: each face's --help all lists every option of its table but the aliases" {
	local face cmd failed=0
	for face in $FACES; do
		case $face in
		retry) cmd=("$RETRY") ;;
		show-backoff-delays) cmd=("$SHOW") ;;
		*) cmd=("$RETRY" "$face") ;;
		esac
		run -0 help_options "${cmd[@]}" --help all
		same_set "$face --help all" \
		    "$(table "$face" | awk -F '\t' '$7 != "alias" { print $2 }')" \
		    "$output" || failed=1
	done
	# The check sees an option that is missing.
	run ! same_set "retry --help all" "$(table retry 2)" \
	    "$(help_options "$RETRY" --help all)"
	assert_output --regexp "lacks \\[.*--constant .*--max-attempts"
	return "$failed"
}

@test "optdump: retry --help lists options of the table, one line each, with their value's name" {
	local name value want shown failed=0 n=0
	run -0 retry --help
	# No option's text goes on to a line of its own.
	refute_line --regexp '^ {8,}'
	# Each line of an option: its names, then its value's name as the
	# table has it, [all] for --help's optional one.
	while read -r name value; do
		want=$(table retry | awk -F '\t' -v n="$name" '$2 == n {
		    if ($4 != "-") print $4
		    else if ($5 != "-") { gsub(/ /, "|", $5); print "[" $5 "]" } }')
		grep -qE "^retry	$name	" "$BATS_TEST_TMPDIR/table" || {
			echo "retry --help: $name is not an option of retry"
			failed=1
			continue
		}
		n=$((n + 1))
		shown=$value
		[[ $value == [A-Z[]* ]] || shown=
		[ "$shown" = "$want" ] || {
			echo "retry --help: $name ${shown:-(no value)}, the table: ${want:-(no value)}"
			failed=1
		}
	done < <(grep -oE -- '^ {2,6}(-[a-zA-Z], )?--[a-z][a-z0-9-]*( [^ ]+)?' \
	    <<<"$output" | sed -E 's/^ +(-[a-zA-Z], )?//')
	[ "$n" -ge 20 ] || fail "retry --help lists too few options: $n"
	# Any option it names, in a line's text too, is one of retry's.
	while read -r name; do
		grep -qE "^retry	$name	" "$BATS_TEST_TMPDIR/table" || {
			echo "retry --help names $name, not an option of retry"
			failed=1
		}
	done < <(grep -oE -- '--[a-z][a-z0-9-]*' <<<"$output" | sort -u)
	return "$failed"
}

# The options of the manuals' tag lists (not the tables of
# COMPATIBILITY), one line an item: the page, its section, the long names
# and the short ones, each as NAME:v when Ar follows it, else NAME:-.
manual_items() {
	awk '
	FNR == 1 { depth = 0; section = "" }
	/^\.Sh / { section = substr($0, 5) }
	/^\.Bl / { kind[++depth] = $2; next }
	/^\.El/ { depth--; next }
	/^\.It Fl / && kind[depth] == "-tag" {
		n = split(substr($0, 5), alt, / , /)
		longs = shorts = ""
		for (i = 1; i <= n; i++) {
			m = split(alt[i], w, " ")
			if (w[1] != "Fl")
				continue
			v = m >= 3 && w[3] == "Ar" ? "v" : "-"
			if (w[2] ~ /^\\-/)
				longs = longs " --" substr(w[2], 3) ":" v
			else
				shorts = shorts " -" w[2] ":" v
		}
		sub(/.*\//, "", FILENAME)
		print FILENAME "\t" section "\t" substr(longs, 2) "\t" \
		    substr(shorts, 2)
	}' "${PAGES[@]}"
}

# The pages that document a face's options: show-backoff-delays.1,
# retry-simulate.1 and retry-share.1 their own, and retry.1 those they
# share with retry; retry-share.1 those of --share; show-backoff-delays.1
# Algorithm::Backoff's parameters, retry's too.
pages_of() {
	case $1 in
	show-backoff-delays) echo 'retry.1|show-backoff-delays.1' ;;
	simulate) echo 'retry.1|retry-simulate.1|show-backoff-delays.1' ;;
	retry) echo 'retry.1|retry-share.1|show-backoff-delays.1' ;;
	*) echo 'retry.1|retry-share.1' ;;
	esac
}

@test "the manuals describe every option of each face, taking a value as the table says" {
	local face name short value items failed=0 v
	manual_items >"$BATS_TEST_TMPDIR/items"
	[ "$(wc -l <"$BATS_TEST_TMPDIR/items")" -gt 50 ] ||
		fail "too few items in the manuals"
	for face in $FACES; do
		items=$(grep -E "^($(pages_of "$face"))"$'\t' \
		    "$BATS_TEST_TMPDIR/items")
		while IFS=$'\t' read -r _ name short value _; do
			v=$([ "$value" = - ] && echo - || echo v)
			grep -qE "(	| )$name:[v-]( |	|$)" <<<"$items" || {
				echo "$face: no item of $(pages_of "$face") for $name"
				failed=1
				continue
			}
			! grep -qE "(	| )$name:[^$v]( |	|$)" <<<"$items" || {
				echo "$face: an item of $name" \
				    "$([ $v = v ] && echo "lacks its Ar" ||
				    echo "has an Ar")"
				failed=1
			}
		done < <(table "$face")
	done
	return "$failed"
}

@test "the manuals' option items name only the table's options, with their short names" {
	local page section longs shorts long l s want got pairs='' failed=0
	local face
	manual_items >"$BATS_TEST_TMPDIR/items"
	while IFS=$'\t' read -r page section longs shorts; do
		# The face that the item is of: show-backoff-delays.1's
		# items, retry-simulate.1's, or any.
		case $page:$section in
		show-backoff-delays.1:*) face=show-backoff-delays ;;
		retry-simulate.1:*) face=simulate ;;
		*) face='[a-z-]*' ;;
		esac
		want='' got=''
		for long in $longs; do
			l=${long%:*}
			grep -qE "^$face	$l	" "$BATS_TEST_TMPDIR/table" || {
				echo "$page ($section): $l, not an option of" \
				    "${face/\[a-z-\]\*/any face}"
				failed=1
			}
			want+=$(grep -E "	$l	" "$BATS_TEST_TMPDIR/table" |
			    cut -f3,4 | sort -u | awk -F '\t' '$1 != "-" {
			    print $1 ":" ($2 == "-" ? "-" : "v") }')$'\n'
		done
		for s in $shorts; do
			# -V: the other letter of -v, out of the table.
			[ "${s%:*}" = -V ] && continue
			got+=$s$'\n'
			for long in $longs; do
				pairs+="${long%:*} ${s%:*}"$'\n'
			done
		done
		# An item may name an option again without its short name
		# (--delay with -a Constant), never with another.
		[ -z "$(grep -vFx -f <(echo "$want") <<<"$got")" ] || {
			echo "$page item $longs: short names not its own: $got"
			failed=1
		}
	done <"$BATS_TEST_TMPDIR/items"
	# Each short name beside its long one in an item at least.
	while IFS=$'\t' read -r _ long s _; do
		[ "$s" = - ] || grep -qFx -- "$long $s" <<<"$pairs" || {
			echo "no item names $long with $s"
			failed=1
		}
	done < <(sort -u -k2,3 "$BATS_TEST_TMPDIR/table")
	return "$failed"
}

# entries PAGE SECTION NAME: the text of each item of NAME in PAGE, in its
# section SECTION (any if empty), each up to the next option's item.
entries() {
	awk -v sec="$2" -v name="\\\\-${3#--}" '
	/^\.Sh / { in_sec = sec == "" || substr($0, 5) == sec }
	/^\.It Fl / { on = 0; for (i = 3; i <= NF; i++)
		if ($i == name && $(i - 1) == "Fl") on = in_sec }
	on' "$1"
}

# entries_of FACE NAME: the items of NAME where FACE's are: those of
# show-backoff-delays.1 or of retry-simulate.1 when they have one, else
# those of retry.1 and retry-share.1 (whose entries retry.1's list of
# --share's options names in a line each).
entries_of() {
	local text=
	case $1 in
	show-backoff-delays)
		text=$(entries "$ROOT/man/show-backoff-delays.1" '' "$2") ;;
	simulate) text=$(entries "$ROOT/man/retry-simulate.1" '' "$2") ;;
	esac
	[ -n "$text" ] || text=$(entries "$ROOT/man/retry.1" '' "$2"
	    entries "$ROOT/man/retry-share.1" '' "$2")
	printf '%s\n' "$text"
}

@test "the manuals name each value of an option that has a set of them" {
	local face name choices c text failed=0
	for face in $FACES; do
		while IFS=$'\t' read -r _ name _ _ choices _; do
			[ "$choices" = - ] && continue
			text=$(entries_of "$face" "$name" |
			    grep -E '[. ]Cm ' || true)
			for c in $choices; do
				grep -qE "[. ]Cm ([^ ]+ , )*$c( |\$)" <<<"$text" || {
					echo "$face: the item of $name lacks Cm $c"
					failed=1
				}
			done
		done < <(table "$face")
	done
	return "$failed"
}

@test "zsh offers an option that adds up again once given, and a single-valued one not" {
	local name failed=0 i=0
	local -a adds probes=()
	mapfile -t adds < <(table retry | awk -F '\t' '$6 == "+" { print $2 }')
	[ "${#adds[@]}" -gt 5 ] || fail "too few options that add up"
	for name in "${adds[@]}"; do
		probes+=("retry $name x ${name%-*}")
	done
	probes+=("retry --timeout 1 --time")
	complete_lines zsh "${probes[@]}" || return 1
	for name in "${adds[@]}"; do
		offers $((++i))
		offered "$name" || { echo "zsh: $name not offered again"; failed=1; }
	done
	offers $((++i))
	! offered --timeout || { echo "zsh: --timeout offered again"; failed=1; }
	return "$failed"
}

@test "the manual lists the options that add up when given again, exactly the table's" {
	local want got
	want=$(table retry | awk -F '\t' '$6 == "+" { print $2 }')
	# The paragraph that opens "Given again,", to the next .Pp.
	got=$(awk '/^Given again, / { p = 1 } p && /^\.Pp/ { exit }
	    p && /^\.Fl / { print "-" $2 }' "$ROOT/man/retry.1" | tr -d '\\' |
	    sed 's/,$//' | sort -u)
	same_set "retry.1's options that add up" "$want" "$got"
}
