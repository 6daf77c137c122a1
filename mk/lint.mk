# Static checks and formatting.  Included by the Makefile, whose
# variables it uses.

# mk/layers: no file includes a header of a layer above its own, nor a
# face another face's (the layers are HACKING.md's map of the code), and
# no two modules include each other.
# mk/names: no macro or enum constant takes a prefix that a libc or
# POSIX header reserves (O_, S_, E and a capital, SIG, LC_, _ and a
# capital).

# cppcheck and clang-tidy (.clang-tidy says which checks, and why the
# few left out are) over the sources and the fuzz targets.
CPPCHECK_FLAGS = --quiet --std=c11 --error-exitcode=1 --inline-suppr \
		--enable=warning,portability,performance -D_GNU_SOURCE

lint: build/gen/share_lua.h build/gen/sketch_lua.h
	./mk/layers HACKING.md src
	./mk/names src
	cppcheck $(CPPCHECK_FLAGS) $(SRC_DIRS:%=-I%) src fuzz tests/unit tests/redis \
	    tests/optable
	clang-tidy --quiet $(ALL_SRCS) fuzz/*.c tests/unit/*.c tests/redis/*.c \
	    tests/optable/*.c -- \
	    $(RETRY_CPPFLAGS) -std=c11
	clang-tidy --quiet src/base/compat.c -- $(RETRY_CPPFLAGS) -DRETRY_PORTABLE \
	    -std=c11
	mandoc -Tlint -Wwarning $(MANPAGES)
	shellcheck -s bash completions/retry.bash tests/run tests/run-under \
	    fuzz/run tests/distcheck tests/package/build-deb \
	    tests/package/check-installed tests/package/check-release \
	    mk/static/hot-symbols \
	    tests/test_helper/*.bash tests/arm64/plans .ci/run \
	    bench/run bench/syscalls
	shellcheck -s sh tests/bin/* .ci/deps mk/configure mk/layers \
	    mk/names bench/deps

# clang-format (.clang-format: style(9), tabs) over the lines changed
# since FORMAT_BASE (HEAD: what is not committed yet), not over whole
# files, so that code no one touched keeps the layout it was given.
FORMAT_BASE ?=	HEAD

format:
	git clang-format --force --extensions c,h \
	    $(FORMAT_BASE) -- src fuzz tests/unit tests/redis bench

.PHONY: lint format
