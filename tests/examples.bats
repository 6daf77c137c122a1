#!/usr/bin/env bats
# Every example in the manual and in README.md, run as printed: the
# commands that need a network or a service (curl's addresses, kubectl,
# psql, ssh, nc, pg_isready, notify-ops) are stand-ins on PATH, curl the
# real one pointed at a web server on 127.0.0.1 that refuses each new path
# once, saying how long to wait (Retry-After: 1; GitHub's X-RateLimit-Reset
# under api.github.com; the IETF's RateLimit under /api/), then answers
# 200.
bats_require_minimum_version 1.5.0
load test_helper/common

setup_file() {
	command -v python3 >/dev/null || return 0
	local dir=$BATS_FILE_TMPDIR
	python3 "$BATS_TEST_DIRNAME/examples/httpd.py" "$dir/port" \
	    </dev/null >/dev/null 2>&1 3>&- &
	echo $! >"$dir/httpd.pid"
	poll_until 10 test -s "$dir/port"
}

teardown_file() {
	[ -f "$BATS_FILE_TMPDIR/httpd.pid" ] &&
		kill "$(cat "$BATS_FILE_TMPDIR/httpd.pid")" 2>/dev/null
	return 0
}

# A stand-in on PATH: stub NAME BODY.
stub() {
	printf '#!/bin/sh\n%s\n' "$2" >"$D/bin/$1"
	chmod +x "$D/bin/$1"
}

setup() {
	command -v python3 >/dev/null || skip "python3 is not installed"
	command -v curl >/dev/null || skip "curl is not installed"
	[ -s "$BATS_FILE_TMPDIR/port" ] || skip "the web server did not start"
	D=$BATS_TEST_TMPDIR
	PORT=$(cat "$BATS_FILE_TMPDIR/port")
	# --share's examples keep their state in the test's directory.
	export RETRY_SHARE_STORE=file:$D/share
	mkdir -p "$D/bin" "$D/work"
	# curl, with the examples' addresses on the local server.
	cat >"$D/bin/curl" <<-CURL
	#!/usr/bin/env bash
	args=()
	for a; do
		case \$a in
		https://example.com*) a=http://127.0.0.1:$PORT\${a#https://example.com} ;;
		https://api.github.com*) a=http://127.0.0.1:$PORT/github\${a#https://api.github.com} ;;
		URL) a=http://127.0.0.1:$PORT/url ;;
		esac
		args+=("\$a")
	done
	exec "$(command -v curl)" "\${args[@]}"
	CURL
	chmod +x "$D/bin/curl"
	stub kubectl 'echo Running'
	stub psql 'cat >/dev/null'
	stub nc 'exit 0'
	stub pg_isready 'exit 0'
	stub notify-ops 'echo "$*" >>notified'
	stub make 'exit 0'
	# No example changes the system: apt-get and sudo are stand-ins that
	# record what they are asked, and .ci/deps runs as printed.
	stub apt-get "echo \"apt-get \$*\" >>'$D/apt'"
	stub sudo "echo sudo >>'$D/apt'; exec \"\$@\""
	# A tunnel that runs until it is told to stop: the test stops retry.
	stub ssh 'echo tunnel up >>tunnel; kill -TERM $PPID; exec sleep 1'
	# A real server, in the background: it says where it listens once
	# it does, a moment after it starts, and runs until the test ends.
	cat >"$D/work/server" <<-'PY'
	#!/usr/bin/env python3
	import http.server, os, time
	time.sleep(0.3)
	s = http.server.HTTPServer(("127.0.0.1", 0),
	                           http.server.SimpleHTTPRequestHandler)
	with open("server.pid", "w") as f:
	    f.write(f"{os.getpid()}\n")
	print(f"listening on port {s.server_address[1]}", flush=True)
	s.serve_forever()
	PY
	chmod +x "$D/work/server"
	stub sync.sh 'exit 0'
	mv "$D/bin/sync.sh" "$D/work/"
	stub deploy.sh 'exit 0'
	mv "$D/bin/deploy.sh" "$D/work/"
	# A GitHub Actions step's file of outputs.
	export GITHUB_OUTPUT=$D/work/github_output
	echo 'select 1;' | gzip >"$D/work/dump.sql.gz"
	curl -fsS "http://127.0.0.1:$PORT/reset" >/dev/null
	# retry and show-backoff-delays as the suite builds them.
	PATH=$D/bin:$(dirname "$RETRY"):$(dirname "$SHOW"):$PATH
}

teardown() {
	[ -f "$D/work/server.pid" ] &&
		kill "$(cat "$D/work/server.pid")" 2>/dev/null
	return 0
}

# The server that the log example started answers on the port its log
# gave once retry has exited 0; then it is stopped.
assert_server_answers() {
	local port
	port=$(grep -oE 'listening on port [0-9]+' "$D/work/server.log")
	[ -n "$port" ] || fail "no port in server.log: $(cat "$D/work/server.log")"
	run -0 curl -fsS -o /dev/null "http://127.0.0.1:${port##* }/"
	kill "$(cat "$D/work/server.pid")"
}

# Runs each example that extract.py finds in $1 ($2: man or readme),
# from the work directory, and checks its status (0, or 143 for the
# tunnel, which the stand-in stops) and, for a transcript, its output.
run_examples() {
	local cmd want got st dir n=0
	while IFS= read -r -d '' cmd && IFS= read -r -d '' want; do
		case $cmd in
		make*|*sudo*|'retry [OPTION]'*|*' [OPTION]'*) continue ;;
		'sh .ci/deps'*)
			# Not a Debian system: .ci/deps says so and fails.
			command -v dpkg-query >/dev/null || continue
			RAN_DEPS=1 ;;
		esac
		n=$((n + 1))
		st=0
		# The quick start builds in the tree (make is a stand-in).
		dir=$D/work
		[[ $cmd != 'sh .ci/deps'* ]] || dir=$ROOT
		got=$(cd "$dir" && timeout 60 bash -c "$cmd" 2>"$D/err") || st=$?
		case $cmd in
		*'ssh -N'*) [ "$st" -eq 143 ] ||
			fail "status $st, not 143, for: $cmd $(cat "$D/err")" ;;
		*) [ "$st" -eq 0 ] ||
			fail "status $st for: $cmd $(cat "$D/err")" ;;
		esac
		[ "$want" = $'\x01' ] || [ "$got" = "$want" ] ||
			fail "for: $cmd
got:
$got
want:
$want"
	done < <(python3 "$BATS_TEST_DIRNAME/examples/extract.py" "$2" "$1")
	((n >= ${3:-10})) || fail "only $n examples found in $1"
}

@test "every example in retry(1) runs as printed" {
	command -v mandoc >/dev/null || skip "mandoc is not installed"
	command -v jq >/dev/null || skip "jq is not installed"
	mandoc -Tascii "$ROOT/man/retry.1" | col -bx >"$D/retry.txt"
	run_examples "$D/retry.txt" man
	assert_server_answers
	[ -s "$D/work/page.html" ]
	# The rate limits' examples waited what the server asked.
	[ -s "$D/work/repo.json" ]
	[ -s "$D/work/items.json" ]
	run -0 curl -fsS "http://127.0.0.1:$PORT/early"
	refute_line --regexp '^/(github|api)/'
	[ -s "$D/work/sync.json" ]
	assert_equal "$(cat "$D/work/tunnel")" "tunnel up"
	grep -qx 'result=success' "$D/work/github_output"
}

@test "every example in retry-share(1) runs as printed" {
	! noredis || skip "a build without Redis: its examples name Redis stores"
	command -v mandoc >/dev/null || skip "mandoc is not installed"
	mandoc -Tascii "$ROOT/man/retry-share.1" | col -bx >"$D/share.txt"
	run_examples "$D/share.txt" man 3
	# The first shared its state in the test's file store.
	[ -n "$(ls "$D/share")" ] || fail "nothing in the store $D/share"
}

@test "every example in retry-simulate(1) runs as printed" {
	command -v mandoc >/dev/null || skip "mandoc is not installed"
	mandoc -Tascii "$ROOT/man/retry-simulate.1" | col -bx >"$D/simulate.txt"
	run_examples "$D/simulate.txt" man 1
}

@test "every manual page but retry-compat(7) has examples that this file runs" {
	local page
	for page in "$ROOT"/man/*.1; do
		grep -q "man/${page##*/}\"" "$BATS_TEST_FILENAME" ||
		    fail "no test runs the examples of ${page##*/}"
	done
}

@test "every example in show-backoff-delays(1) runs as printed, output and all" {
	command -v mandoc >/dev/null || skip "mandoc is not installed"
	mandoc -Tascii "$ROOT/man/show-backoff-delays.1" | col -bx >"$D/show.txt"
	run_examples "$D/show.txt" man 5
}

@test "every example in README.md runs as printed" {
	command -v jq >/dev/null || skip "jq is not installed"
	local p
	run_examples "$ROOT/README.md" readme
	assert_server_answers
	command -v dpkg-query >/dev/null || return 0
	# The quick start's .ci/deps ran, and asked the stand-in apt-get
	# for what is missing here, if anything, and nothing else.
	assert_equal "${RAN_DEPS:-}" 1
	[ -s "$D/apt" ] || return 0
	for p in $(sed -n 's/^apt-get install -y -qq --no-install-recommends //p' "$D/apt"); do
		[ "$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null)" != installed ] ||
			fail ".ci/deps asked to install $p, which is installed"
	done
}

@test "the quick start's .ci/deps installs what is missing, with sudo when not root, and nothing else" {
	# dpkg-query says jq alone is missing, for this machine and for
	# arm64; apt-get, sudo and dpkg's changes record.
	stub dpkg "case \$1 in --print-architecture) echo amd64 ;;
--print-foreign-architectures) ;; *) echo \"dpkg \$*\" >>'$D/apt' ;; esac"
	stub dpkg-query 'for p; do :; done; [ "$p" = jq ] ||
printf "installed %s\n" amd64 arm64'
	run -0 sh "$ROOT/.ci/deps"
	assert_output "make deps: installing jq"
	local sudo=
	[ "$(id -u)" -eq 0 ] || sudo=$'sudo\n'
	assert_equal "$(cat "$D/apt")" "${sudo}apt-get update -qq
${sudo}apt-get install -y -qq --no-install-recommends jq"
	# An arm64 archive missing: arm64 is added first, once.
	rm "$D/apt"
	stub dpkg-query 'for p; do :; done; [ "$p" = libmd-dev ] ||
printf "installed %s\n" amd64 arm64
[ "$p" != libmd-dev ] || echo "installed amd64"'
	run -0 sh "$ROOT/.ci/deps"
	assert_output "make deps: installing libmd-dev:arm64"
	assert_equal "$(cat "$D/apt")" "${sudo}dpkg --add-architecture arm64
${sudo}apt-get update -qq
${sudo}apt-get install -y -qq --no-install-recommends libmd-dev:arm64"
	# A package of this machine's missing is told from arm64's.
	rm "$D/apt"
	stub dpkg-query 'for p; do :; done; [ "$p" = libbsd-dev ] ||
printf "installed %s\n" amd64 arm64
[ "$p" != libbsd-dev ] || echo "installed arm64"'
	run -0 sh "$ROOT/.ci/deps"
	assert_output "make deps: installing libbsd-dev"
	# Nothing missing: nothing asked.
	rm "$D/apt"
	stub dpkg-query 'printf "installed %s\n" amd64 arm64'
	run -0 sh "$ROOT/.ci/deps"
	assert_output "make deps: everything is installed"
	assert [ ! -e "$D/apt" ]
}

@test "the manual's examples render with every quote and space" {
	command -v mandoc >/dev/null || skip "mandoc is not installed"
	mandoc -Tascii "$ROOT/man/retry.1" | col -bx >"$D/retry.txt"
	run -0 grep -F "jsonpath='{.status.phase}'" "$D/retry.txt"
	run -0 grep -F "| jq ." "$D/retry.txt"
	run -0 grep -F "'notify-ops \"sync failed: \$RETRY_STATUS\"'" "$D/retry.txt"
	run -0 grep -F "'delay:(?i)^retry-after: *(.+)'" "$D/retry.txt"
}
