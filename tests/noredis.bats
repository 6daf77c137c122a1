#!/usr/bin/env bats
# The build without Redis (make REDIS=no, as where hiredis and OpenSSL are
# missing): a Redis store is refused in one line, exit 125, for a run and
# for retry share, and the binary links neither library.  Its tests run
# against that build alone (make check-noredis sets RETRY_NOREDIS); the
# file store's are tests/share.bats, run there too.
bats_require_minimum_version 1.5.0
load test_helper/common
load test_helper/core

setup() {
	[ -n "${RETRY_NOREDIS:-}" ] || skip "the build without Redis (make check-noredis)"
}

ABSENT="Redis is not in this build of retry (it was built without hiredis and OpenSSL): only file stores"

# refused WHAT: the run's output is the one line "retry: WHAT: ABSENT",
# its status 125.
refused() {
	assert_equal "$status" 125
	assert_output "retry: $1: $ABSENT"
}

@test "noredis: a Redis store is refused in one line, exit 125, and the command never runs" {
	local d=$BATS_TEST_TMPDIR
	run -125 retry --share x --share-store redis://127.0.0.1:1 -- touch "$d/ran"
	refused "$(command_name touch "$d/ran"): --share x: --share-store: redis://127.0.0.1:1/0"
	run -125 env RETRY_SHARE_STORE='rediss://:secret@h:6380/2' \
	    timeout 60 "$RETRY" --share x -- touch "$d/ran"
	refused "$(command_name touch "$d/ran"): --share x: \$RETRY_SHARE_STORE: rediss://:***@h:6380/2"
	refute_output --partial secret
	run -125 env RETRY_SHARE_STORE=unix:///tmp/r.sock timeout 60 \
	    "$RETRY" --share x -- touch "$d/ran"
	refused "$(command_name touch "$d/ran"): --share x: \$RETRY_SHARE_STORE: unix:///tmp/r.sock?db=0"
	[ ! -e "$d/ran" ]
	# The URL is still read first: a bad one says what is wrong with it.
	run -125 retry --share x --share-store redis://a:99999 -- true
	assert_line --index 0 "retry: --share-store: 'redis://a:99999': the port is not a number from 1 to 65535"
}

@test "noredis: retry share status and reset refuse a Redis store the same way" {
	run -125 env RETRY_SHARE_STORE=redis://127.0.0.1:1 timeout 60 \
	    "$RETRY" share status
	refused "\$RETRY_SHARE_STORE: redis://127.0.0.1:1/0"
	run -125 env RETRY_SHARE_STORE=redis://127.0.0.1:1 timeout 60 \
	    "$RETRY" share reset x
	refused "\$RETRY_SHARE_STORE: redis://127.0.0.1:1/0"
}

@test "noredis: the file store works" {
	local d=$BATS_TEST_TMPDIR
	run -0 retry --share x --share-store "file:$d/s" --max 2 -- true
	run -0 env RETRY_SHARE_STORE="file:$d/s" timeout 60 "$RETRY" share status
	assert_line --regexp '^x +tokens +'
}

@test "noredis: the binary links neither hiredis nor OpenSSL, and names neither" {
	# A static binary (the musl build) has no library to list.
	run ldd "$RETRY"
	refute_output --regexp 'libhiredis|libssl|libcrypto'
	run -1 grep -aE 'libhiredis|libssl\.so|libcrypto\.so|redisReaderCreate|SSL_CTX_new' "$RETRY"
}
