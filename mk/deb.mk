# The Debian package retry-backoff, built from the release tarball
# (mk/dist.mk).  Included by the Makefile, whose variables it uses.

DEB_SOURCE =	retry-backoff

# The sonames that the binary loads when it needs them, which dpkg-shlibdeps
# cannot see: debian/rules makes the packages that have PCRE2's (output
# rules, which any run may give) dependencies of the package, and those
# that have hiredis's and OpenSSL's (a Redis store alone) recommended.
sonames:
	@echo $(SONAMES)

redis-sonames:
	@echo $(REDIS_SONAMES)

# The package, source and binary, built from the tarball as Debian builds
# it, in build/deb, then checked by lintian.
deb: $(DIST).tar.gz
	./tests/package/build-deb $(DIST).tar.gz $(DEB_SOURCE) $(VERSION)

# Installs that package (apt-get, so as root or through sudo: it takes the
# place of Debian's retry, which is put back after), runs the suite
# against /usr/bin/retry, and purges it.
check-deb:
	@deb=$$(ls -v build/deb/$(DEB_SOURCE)_$(VERSION)-*.deb 2>/dev/null | \
	    tail -n 1); [ -n "$$deb" ] || \
	    { echo "make check-deb: no package in build/deb; make deb" >&2; \
	      exit 1; }; \
	./tests/package/check-installed "$$deb" $(DEB_SOURCE)

.PHONY: sonames redis-sonames deb check-deb
