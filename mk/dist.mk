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

.PHONY: dist distcheck
