# retry: run a command until it succeeds, with back-off.

VERSION =	0.1.0

PREFIX ?=	/usr/local
BINDIR ?=	$(PREFIX)/bin
MANDIR ?=	$(PREFIX)/share/man
BASHCOMPDIR ?=	$(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR ?=	$(PREFIX)/share/zsh/site-functions
FISHCOMPDIR ?=	$(PREFIX)/share/fish/vendor_completions.d
DESTDIR ?=

CC ?=		cc
PKG_CONFIG ?=	pkg-config
BATS ?=		bats

# Our flags first; the user's CPPFLAGS, CFLAGS, LDFLAGS and LDLIBS come
# after them, so they add to ours and win where they disagree.
WARNINGS =	-Wall -Wextra -Wpedantic -Wshadow -Wformat=2 \
		-Wmissing-prototypes -Wstrict-prototypes -Wno-unused-parameter \
		-Wconversion -Wsign-conversion -Wdouble-promotion -Wcast-qual \
		-Wwrite-strings -Wvla -Wundef -Wimplicit-fallthrough
WERROR ?=
BSD_CFLAGS !=	$(PKG_CONFIG) --cflags libbsd-overlay 2>/dev/null || echo -DNO_LIBBSD
BSD_LIBS !=	$(PKG_CONFIG) --libs libbsd-overlay 2>/dev/null || echo -lbsd
PCRE_CFLAGS !=	$(PKG_CONFIG) --cflags libpcre2-8 2>/dev/null || true
PCRE_LIBS !=	$(PKG_CONFIG) --libs libpcre2-8 2>/dev/null || echo -lpcre2-8
HIREDIS_LIBS !=	$(PKG_CONFIG) --libs hiredis 2>/dev/null || echo -lhiredis
CFLAGS ?=	-O2 -g
RETRY_CPPFLAGS = -D_GNU_SOURCE -DVERSION='"$(VERSION)"' $(BSD_CFLAGS) \
		$(PCRE_CFLAGS)
RETRY_CFLAGS =	-std=c11 $(WARNINGS) $(WERROR)
RETRY_LDLIBS =	$(BSD_LIBS) $(PCRE_LIBS) $(HIREDIS_LIBS) -lm

SRCS =		$(sort $(wildcard src/*.c))
OBJS =		$(SRCS:.c=.o)
HDRS =		$(sort $(wildcard src/*.h) src/share_lua.h)
MANPAGES =	man/retry.1 man/show-backoff-delays.1

all: retry show-backoff-delays

retry: $(OBJS)
	$(CC) $(RETRY_CFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $(OBJS) \
	    $(RETRY_LDLIBS) $(LDLIBS)

show-backoff-delays: retry
	ln -sf retry $@

# The script that runs the shared state's rules on Redis, as bytes, and
# the SHA-1 that EVALSHA names it by.
src/share_lua.h: src/share.lua
	{ printf '#define SHARE_LUA_SHA1 "%s"\n' \
	    "$$(sha1sum < src/share.lua | cut -c1-40)"; \
	  printf 'static const char share_lua[] = {\n'; \
	  od -An -v -tx1 src/share.lua | sed 's/ \([0-9a-f][0-9a-f]\)/0x\1,/g'; \
	  printf '};\n'; } > $@.tmp && mv $@.tmp $@

src/%.o: src/%.c $(HDRS) Makefile
	$(CC) $(RETRY_CPPFLAGS) $(CPPFLAGS) $(RETRY_CFLAGS) $(CFLAGS) \
	    -c -o $@ $<

# The pure modules: the unit tests link them, and nothing of the edge.
PURE =		codes compat duration engine lists match number options policy \
		rng share storeurl verdict
UNIT_SRCS =	$(wildcard tests/unit/*.c)

build/unit: $(UNIT_SRCS) tests/unit/unit.h $(PURE:%=src/%.o)
	@mkdir -p $(@D)
	$(CC) $(RETRY_CPPFLAGS) $(CPPFLAGS) $(RETRY_CFLAGS) $(CFLAGS) \
	    $(LDFLAGS) -o $@ $(UNIT_SRCS) $(PURE:%=src/%.o) $(RETRY_LDLIBS) \
	    $(LDLIBS)

# The rows of the shared state's unit test, replayed through Redis's
# script by a real server (tests/redis.bats runs it).
REPLAY_OBJS =	src/redis.o src/signals.o src/storeurl.o src/share.o \
		src/duration.o src/number.o src/compat.o

build/redis-replay: tests/redis/replay.c tests/unit/share_rows.h \
	    $(REPLAY_OBJS)
	@mkdir -p $(@D)
	$(CC) $(RETRY_CPPFLAGS) $(CPPFLAGS) $(RETRY_CFLAGS) $(CFLAGS) \
	    $(LDFLAGS) -o $@ tests/redis/replay.c $(REPLAY_OBJS) \
	    $(RETRY_LDLIBS) $(LDLIBS)

# Table-driven C tests of the policy and the option parser.
unit: build/unit
	./build/unit

# The unit tests, then the bats suite against the real binary.
check: $(if $(SANITIZE),sanitize-build build/asan/unit,all build/unit) \
	    build/redis-replay
	$(if $(SANITIZE),./tests/run-under asan,UNIT=build/unit ./tests/run)

# Long runs: 10,000 attempts, memory and descriptors flat.
soak: all
	./tests/run tests/soak/*.bats

# Hardening: the whole suite under AddressSanitizer and UBSan (a clang
# build of its own in build/asan), a subset under valgrind (not loop.bats,
# whose failed-exec tests need vfork's shared memory, which valgrind does
# not give), and libFuzzer
# targets (build/fuzz).  Their objects never mix with the normal build's.
CLANG ?=	clang
SAN =		-fsanitize=address,undefined -fno-sanitize-recover=all
SAN_CFLAGS =	-O1 -g -fno-omit-frame-pointer
ASAN_DIR =	build/asan
ASAN_OBJS =	$(SRCS:src/%.c=$(ASAN_DIR)/%.o)
FUZZ_DIR =	build/fuzz
FUZZ_OBJS =	$(filter-out $(FUZZ_DIR)/main.o,$(SRCS:src/%.c=$(FUZZ_DIR)/%.o))
FUZZ_TARGETS =	duration codes jitter options status number match share
FUZZ_BINS =	$(FUZZ_TARGETS:%=$(FUZZ_DIR)/fuzz-%)
FUZZ_SECONDS ?=	30
FUZZ_SEED ?=	0
VALGRIND_TESTS = $(wildcard tests/smoke.bats tests/usage.bats \
		tests/strategies.bats tests/verdicts.bats \
		tests/environment.bats tests/streams.bats \
		tests/supervise.bats)

sanitize:
	$(MAKE) check SANITIZE=1

sanitize-build: $(ASAN_DIR)/retry $(ASAN_DIR)/show-backoff-delays

$(ASAN_DIR)/retry: $(ASAN_OBJS)
	$(CLANG) $(RETRY_CFLAGS) $(SAN_CFLAGS) $(SAN) -o $@ $(ASAN_OBJS) \
	    $(RETRY_LDLIBS)

$(ASAN_DIR)/show-backoff-delays: $(ASAN_DIR)/retry
	ln -sf retry $@

$(ASAN_DIR)/unit: $(UNIT_SRCS) tests/unit/unit.h \
	    $(PURE:%=$(ASAN_DIR)/%.o)
	$(CLANG) $(RETRY_CPPFLAGS) $(RETRY_CFLAGS) $(SAN_CFLAGS) $(SAN) \
	    -o $@ $(UNIT_SRCS) $(PURE:%=$(ASAN_DIR)/%.o) $(RETRY_LDLIBS)

$(ASAN_DIR)/%.o: src/%.c $(HDRS) Makefile
	@mkdir -p $(@D)
	$(CLANG) $(RETRY_CPPFLAGS) $(RETRY_CFLAGS) $(SAN_CFLAGS) $(SAN) \
	    -c -o $@ $<

# valgrind reads DWARF 4, not the DWARF 5 that clang writes by default,
# and cannot follow PCRE2's JIT code: its build matches with PCRE2's
# interpreter, the path of platforms without the JIT.
VG_DIR =	build/valgrind
VG_OBJS =	$(SRCS:src/%.c=$(VG_DIR)/%.o)

valgrind: $(VG_DIR)/retry $(VG_DIR)/show-backoff-delays
	./tests/run-under valgrind $(VALGRIND_TESTS)

$(VG_DIR)/retry: $(VG_OBJS)
	$(CC) $(RETRY_CFLAGS) $(CFLAGS) -gdwarf-4 $(LDFLAGS) -o $@ \
	    $(VG_OBJS) $(RETRY_LDLIBS) $(LDLIBS)

$(VG_DIR)/show-backoff-delays: $(VG_DIR)/retry
	ln -sf retry $@

$(VG_DIR)/%.o: src/%.c $(HDRS) Makefile
	@mkdir -p $(@D)
	$(CC) $(RETRY_CPPFLAGS) -DRETRY_NO_JIT $(CPPFLAGS) $(RETRY_CFLAGS) \
	    $(CFLAGS) -gdwarf-4 -c -o $@ $<

$(FUZZ_DIR)/%.o: src/%.c $(HDRS) Makefile
	@mkdir -p $(@D)
	$(CLANG) $(RETRY_CPPFLAGS) $(RETRY_CFLAGS) $(SAN_CFLAGS) $(SAN) \
	    -fsanitize=fuzzer-no-link -c -o $@ $<

$(FUZZ_DIR)/fuzz-%: fuzz/%.c fuzz/fuzz.h $(FUZZ_OBJS)
	$(CLANG) $(RETRY_CPPFLAGS) $(RETRY_CFLAGS) $(SAN_CFLAGS) $(SAN) \
	    -fsanitize=fuzzer -o $@ $< $(FUZZ_OBJS) $(RETRY_LDLIBS)

fuzz-build: $(FUZZ_BINS)

fuzz: fuzz-build
	FUZZ_SEED=$(FUZZ_SEED) ./fuzz/run $(FUZZ_SECONDS) $(FUZZ_TARGETS)

deps:
	./.ci/deps

# Benchmarks (README.md, Performance); not part of CI.
BENCH_PROGS =	bench/pairtime bench/peakrss bench/spawnloop bench/redisping

bench: all $(BENCH_PROGS)
	./bench/run

bench-deps:
	./bench/deps

$(BENCH_PROGS): bench/%: bench/%.c Makefile
	$(CC) -D_GNU_SOURCE $(CPPFLAGS) $(RETRY_CFLAGS) $(CFLAGS) $(LDFLAGS) \
	    -o $@ $< $(if $(filter bench/redisping,$@),$(HIREDIS_LIBS)) $(LDLIBS)

# cppcheck and clang-tidy (.clang-tidy says which checks, and why the
# few left out are) over the sources and the fuzz targets.
CPPCHECK_FLAGS = --quiet --std=c11 --error-exitcode=1 --inline-suppr \
		--enable=warning,portability,performance -D_GNU_SOURCE

lint:
	cppcheck $(CPPCHECK_FLAGS) -Isrc src fuzz tests/unit tests/redis
	clang-tidy --quiet src/*.c fuzz/*.c tests/unit/*.c tests/redis/*.c -- \
	    $(RETRY_CPPFLAGS) -std=c11
	mandoc -Tlint -Wwarning $(MANPAGES)
	shellcheck -s bash completions/retry.bash tests/run tests/run-under \
	    fuzz/run \
	    tests/test_helper/*.bash .ci/run
	shellcheck -s sh tests/bin/* .ci/deps

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 \
	    $(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR) \
	    $(DESTDIR)$(FISHCOMPDIR)
	install -m 755 retry $(DESTDIR)$(BINDIR)/retry
	ln -sf retry $(DESTDIR)$(BINDIR)/show-backoff-delays
	install -m 644 $(MANPAGES) $(DESTDIR)$(MANDIR)/man1/
	install -m 644 completions/retry.bash $(DESTDIR)$(BASHCOMPDIR)/retry
	ln -sf retry $(DESTDIR)$(BASHCOMPDIR)/show-backoff-delays
	install -m 644 completions/_retry $(DESTDIR)$(ZSHCOMPDIR)/_retry
	install -m 644 completions/retry.fish $(DESTDIR)$(FISHCOMPDIR)/retry.fish
	ln -sf retry.fish $(DESTDIR)$(FISHCOMPDIR)/show-backoff-delays.fish

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/retry $(DESTDIR)$(BINDIR)/show-backoff-delays
	rm -f $(MANPAGES:man/%=$(DESTDIR)$(MANDIR)/man1/%)
	rm -f $(DESTDIR)$(BASHCOMPDIR)/retry \
	    $(DESTDIR)$(BASHCOMPDIR)/show-backoff-delays
	rm -f $(DESTDIR)$(ZSHCOMPDIR)/_retry
	rm -f $(DESTDIR)$(FISHCOMPDIR)/retry.fish \
	    $(DESTDIR)$(FISHCOMPDIR)/show-backoff-delays.fish

clean:
	rm -f retry show-backoff-delays $(OBJS) $(BENCH_PROGS) src/share_lua.h
	rm -rf build

.PHONY: all unit check soak deps bench bench-deps lint install uninstall clean \
	sanitize sanitize-build valgrind fuzz fuzz-build
