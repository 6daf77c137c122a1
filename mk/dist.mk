# The release: the tarball, and the check that it stands alone.
# Included by the Makefile, whose variables it uses.

# The release tarball: the files of the commit checked out (HEAD), under
# retry-VERSION/, with git's modes and the commit's time, so that the same
# commit gives the same bytes.  Changes not committed are not in it.
DIST =		retry-$(VERSION)
CLEANFILES +=	$(DIST).tar.gz $(DIST).tar.gz.tmp

dist: $(DIST).tar.gz

$(DIST).tar.gz: FORCE
	@git rev-parse --verify -q HEAD >/dev/null 2>&1 || \
	    { echo "make dist: needs a git checkout (it packs HEAD)" >&2; \
	      exit 1; }
	@n=$$(git status --porcelain 2>/dev/null | wc -l); [ "$$n" -eq 0 ] || \
	    echo "make dist: $$n files changed or new are not committed and are left out (git status lists them)" >&2
	git -c tar.umask=0022 archive --format=tar.gz -9 --prefix=$(DIST)/ -o $@.tmp HEAD
	mv $@.tmp $@

# Unpacks the tarball in a temporary directory, away from this tree, and
# builds, tests, installs and cleans it there.
distcheck: $(DIST).tar.gz
	./tests/distcheck $(DIST).tar.gz

# The release in build/release: the tarball, the Debian package, the
# static musl binaries for x86-64 and aarch64 (mk/musl.mk, mk/arm64.mk),
# named as their machines are, and their SHA-256 sums.  check-release
# builds the binaries again from the tarball elsewhere: the same bytes.
RELEASE =	build/release

release: $(DIST).tar.gz musl cross-arm64 deb
	rm -rf $(RELEASE)
	mkdir -p $(RELEASE)
	cp $(DIST).tar.gz $(RELEASE)/
	cp build/musl/retry $(RELEASE)/$(DIST)-x86_64-linux-musl
	cp build/aarch64/retry $(RELEASE)/$(DIST)-aarch64-linux-musl
	cp $$(ls -v build/deb/$(DEB_SOURCE)_$(VERSION)-*.deb | tail -n 1) \
	    $(RELEASE)/
	cd $(RELEASE) && sha256sum -- * > SHA256SUMS.tmp && \
	    mv SHA256SUMS.tmp SHA256SUMS

check-release: release
	./tests/package/check-release

.PHONY: dist distcheck release check-release
