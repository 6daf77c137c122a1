# Tests that act as another user, as root: a sticky world-writable
# directory as /tmp is ($SHARED), a symlink that another user planted in
# it, a second user of the test's own ($OTHER); users_cleanup, called by
# teardown after kill_recorded, removes what they made.
# shellcheck shell=bash
# OTHER_UID is for the tests that load this file:
# shellcheck disable=SC2034

# Skips the test unless it runs as root, saying what root is needed for.
needs_root() {
	[ "$(id -u)" -eq 0 ] || skip "needs root: $1"
}

# $SHARED: a new directory in /tmp, sticky and world-writable as /tmp is.
sticky_dir() {
	SHARED=$(mktemp -d /tmp/retry-sticky.XXXXXX)
	chmod 1777 "$SHARED"
}

# $SHARED/$1: a symlink to $D/private (its one line "secret", 0600) that
# uid 65534 planted in a sticky world-writable $SHARED, as anyone may in
# /tmp.  Skips where no second user can act.
plant_symlink() {
	needs_root "to act as a second user"
	command -v setpriv >/dev/null || skip "setpriv is not installed"
	sticky_dir
	echo secret >"$D/private"
	chmod 600 "$D/private"
	setpriv --reuid=65534 --regid=65534 --clear-groups \
	    ln -s "$D/private" "$SHARED/$1" ||
		skip "cannot act as uid 65534"
}

# $OTHER, a user of the test's own, and OTHER_UID its uid; skips unless
# root ($1 says what for) can add one.
add_user() {
	needs_root "$1"
	command -v useradd >/dev/null || skip "useradd is not installed"
	OTHER=retry-t$$
	useradd --no-create-home --home-dir / --shell /bin/sh "$OTHER" ||
		skip "cannot add a user"
	OTHER_UID=$(id -u "$OTHER")
}

# $SHARED removed and $OTHER deleted, where a test made them; never fails.
users_cleanup() {
	[ -z "${SHARED:-}" ] || rm -rf "$SHARED"
	[ -z "${OTHER:-}" ] || userdel "$OTHER" 2>/dev/null || true
	return 0
}
