#!/usr/bin/env bats
# The checks of make lint fail where they should: mk/layers on a tree whose
# includes run up or go round, or whose file has no row; mk/names on a
# name that libc or POSIX reserves.  Each runs on a small tree of its own.
bats_require_minimum_version 1.5.0
load test_helper/common

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	mkdir -p src/base src/cli src/decide src/run
}

# A file of the tree: its path, then its lines.
put() {
	local file=$1
	shift
	printf '%s\n' "$@" >"$file"
}

# A tree that keeps the layers: base below decide below run, a header
# included by its name and one by its path, a map with a row a file.
good_tree() {
	put src/base/a.h '/* a */'
	put src/base/a.c '#include "a.h"'
	put src/cli/o.c '#include "a.h"'
	put src/decide/d.h '#include "a.h"'
	put src/decide/d.c '#include "d.h"' '#include "../base/a.h"'
	put src/run/loop.h '#include "d.h"'
	put src/run/loop.c '#include "loop.h"' '#include "../decide/d.h"'
	put src/run/up.h '/* up */'
	put HACKING.md '| file | layer | job |' '|---|---|---|' \
	    '| `src/base/a.c` | base | a |' \
	    '| `src/cli/o.c` | options | o |' \
	    '| `src/decide/d.c` | pure decision | d |' \
	    '| `src/run/loop.c` | edge | the loop |' \
	    '| `src/run/up.h` | edge | up |'
}

# A row more in the map.
row() {
	printf '| `%s` | %s | job |\n' "$1" "$2" >>HACKING.md
}

layers() {
	run "$ROOT/mk/layers" "$@" HACKING.md src
}

@test "lint: mk/layers passes a tree that keeps the layers" {
	good_tree
	layers
	assert_success
	assert_output ''
}

@test "lint: mk/layers fails on a header of a layer above, included by its path" {
	good_tree
	put src/decide/d.c '#include "d.h"' '#include "../run/up.h"'
	layers
	assert_failure
	assert_output 'src/decide/d.c (pure decision) includes ../run/up.h (edge), a layer above'
}

@test "lint: mk/layers fails on a header of a layer above, included by its name" {
	good_tree
	put src/decide/d.c '#include "d.h"' '#include "up.h"'
	layers
	assert_failure
	assert_output 'src/decide/d.c (pure decision) includes up.h (edge), a layer above'
}

@test "lint: mk/layers finds a header beside the file before the include path" {
	good_tree
	# cli/ comes first on the include path, and is a layer above.
	put src/cli/x.h '/* options */'
	put src/decide/x.h '/* pure decision */'
	row src/cli/x.h options
	row src/decide/x.h 'pure decision'
	put src/decide/d.c '#include "x.h"'
	layers
	assert_success
	put src/base/a.c '#include "x.h"'
	layers
	assert_failure
	assert_output 'src/base/a.c (base) includes x.h (options), a layer above'
}

@test "lint: mk/layers fails on two files that include each other" {
	good_tree
	put src/base/b.h '/* b */'
	put src/base/b.c '#include "b.h"' '#include "a.h"'
	put src/base/a.c '#include "a.h"' '#include "b.h"'
	row src/base/b.c base
	layers
	assert_failure
	assert_output 'src/base/a and src/base/b include each other: src/base/a.c includes b.h; src/base/b.c includes a.h'
	# A circle that -k names passes.
	layers -k 'base/b base/a'
	assert_success
	assert_output ''
}

@test "lint: mk/layers fails on a circle through a third file" {
	good_tree
	put src/decide/e.h '#include "../run/loop.h"'
	put src/run/loop.h '#include "e.h"'
	put src/decide/d.h '#include "e.h"'
	put src/run/loop.c '#include "loop.h"'
	row src/decide/e.h 'pure decision'
	layers
	assert_failure
	assert_line 'src/decide/e.h (pure decision) includes ../run/loop.h (edge), a layer above'
	assert_line 'src/decide/e and src/run/loop include each other: src/decide/e.h includes ../run/loop.h; src/run/loop.h includes e.h'
	# d.h, e.h, f.h, and d.h again.
	put src/run/loop.h '#include "d.h"'
	put src/decide/e.h '#include "f.h"'
	put src/decide/f.h '#include "d.h"'
	row src/decide/f.h 'pure decision'
	layers
	assert_failure
	assert_output 'an include circle of 3 modules: src/decide/d src/decide/e src/decide/f: src/decide/d.h includes e.h; src/decide/e.h includes f.h; src/decide/f.h includes d.h'
}

@test "lint: mk/layers fails on a file without a row" {
	good_tree
	put src/base/c.c '#include "a.h"'
	layers
	assert_failure
	assert_output 'src/base/c.c: not in the map in HACKING.md'
}

# mk/names over a tree of one header with these lines.
names() {
	rm -rf src
	mkdir -p src/base
	put src/base/n.h "$@"
	run "$ROOT/mk/names" src
}

@test "lint: mk/names passes names that no header reserves" {
	names '#ifndef RETRY_N_H' '#define RETRY_N_H' \
	    '#define OPT_X 1' '#define STATUS_X 2' '#define Ex 3' \
	    '#define SI_X 4' '#define LCX 5' '#define X_O_Y 6' \
	    '#ifndef O_PATH' '#define O_PATH 0' '#endif' \
	    '#undef SIGPWR' '#define SIGPWR 30' \
	    '#if !defined(ENOTSUP)' '#define ENOTSUP 95' '#endif' \
	    'enum a { A_X, /* EBAD, SIGX */ B_X = 2,' '	STOP_X };' \
	    'enum b { C_X, // EBAD' '	D_X };' \
	    'struct my_enum { int EBAD; };' '#endif'
	assert_success
	assert_output ''
}

@test "lint: mk/names fails on a macro of each reserved prefix" {
	local name
	for name in O_X S_X EX E0 SIGX LC_X _X; do
		names '/* n */' "#define $name 1"
		assert_failure
		assert_output --regexp "^src/base/n\\.h:2: macro $name: the prefix .* is reserved\$"
	done
}

@test "lint: mk/names fails on an enum constant of each reserved prefix" {
	local name
	for name in O_X S_X EX E0 SIGX LC_X _X; do
		names 'enum n {' '	N_A,' "	$name = 2," '	N_B' '};'
		assert_failure
		assert_output --regexp "^src/base/n\\.h:3: enum constant $name: the prefix .* is reserved\$"
	done
	names 'enum n { N_A, N_B, EV_DONE };'
	assert_failure
	assert_output --partial 'src/base/n.h:1: enum constant EV_DONE:'
}
