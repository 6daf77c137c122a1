# retry: run a command until it succeeds, with back-off.

# The one place the version is written: retry --version, the tarball's
# name and debian/changelog (checked by make deb) all come from it.
VERSION !=	cat VERSION
$(if $(VERSION),,$(error the file VERSION is missing or empty))

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
# libbsd is no option: without its overlay's flags nothing compiles, so
# the first step of a build says so (make deps and make clean need none).
BSD_CFLAGS !=	$(PKG_CONFIG) --cflags libbsd-overlay 2>/dev/null || true
need_libbsd =	$(if $(BSD_CFLAGS),,$(error retry needs libbsd, through \
		$(PKG_CONFIG) --cflags libbsd-overlay: install libbsd-dev \
		(make deps does)))
BSD_LIBS !=	$(PKG_CONFIG) --libs libbsd-overlay 2>/dev/null || echo -lbsd
PCRE_CFLAGS !=	$(PKG_CONFIG) --cflags libpcre2-8 2>/dev/null || true
PCRE_LIBS !=	$(PKG_CONFIG) --libs libpcre2-8 2>/dev/null || echo -lpcre2-8
HIREDIS_LIBS !=	$(PKG_CONFIG) --libs hiredis 2>/dev/null || echo -lhiredis
SSL_CFLAGS !=	$(PKG_CONFIG) --cflags openssl 2>/dev/null || true
SSL_LIBS !=	$(PKG_CONFIG) --libs openssl 2>/dev/null || echo -lssl -lcrypto
# PCRE2, hiredis and OpenSSL (libssl and libcrypto) are loaded by the
# installed binary when a run first needs them (src/lib.h), by the sonames
# of the libraries built against; where a soname cannot be told, that
# library is linked as usual.
soname =	objdump -p "$$($(CC) -print-file-name=$(1).so)" 2>/dev/null | \
		awk '$$1 == "SONAME" { print $$2 }'
PCRE_SONAME !=	$(call soname,libpcre2-8)
HIREDIS_SONAME != $(call soname,libhiredis)
SSL_SONAME !=	$(call soname,libssl)
CRYPTO_SONAME != $(call soname,libcrypto)
LAZY_CPPFLAGS =	-DRETRY_LIBM_LAZY \
		$(if $(PCRE_SONAME),-DRETRY_PCRE2_SONAME='"$(PCRE_SONAME)"') \
		$(if $(HIREDIS_SONAME),-DRETRY_HIREDIS_SONAME='"$(HIREDIS_SONAME)"') \
		$(if $(SSL_SONAME),$(if $(CRYPTO_SONAME),-DRETRY_SSL_SONAME='"$(SSL_SONAME)"' \
		    -DRETRY_CRYPTO_SONAME='"$(CRYPTO_SONAME)"'))
LAZY_LIBS =	$(if $(PCRE_SONAME),,$(PCRE_LIBS)) \
		$(if $(HIREDIS_SONAME),,$(HIREDIS_LIBS)) \
		$(if $(SSL_SONAME),$(if $(CRYPTO_SONAME),,$(SSL_LIBS)),$(SSL_LIBS))
# libbsd and libmd are linked in from their static archives where Debian's
# libbsd-dev has them: every shared library costs each run its mapping and
# relocation, and these give retry a few small functions.
BSD_STATIC !=	test -f "$$($(CC) -print-file-name=libbsd.a)" && \
		test -f "$$($(CC) -print-file-name=libmd.a)" && \
		echo -Wl,-Bstatic -lbsd -lmd -Wl,-Bdynamic || true
# What the binary, and the builds that check it (unit, sanitizers,
# valgrind), link: their objects load PCRE2, hiredis and libm when needed
# (src/mathlib.h).  libm stays on the line, as needed only: a build whose
# compiler calls a function that -O2 inlines (rint, at -O0) links it.
DYN_LDLIBS =	$(or $(BSD_STATIC),$(BSD_LIBS)) $(LAZY_LIBS) \
		-Wl,--as-needed -lm -Wl,--no-as-needed
CFLAGS ?=	-O2 -g
RETRY_CPPFLAGS = -D_GNU_SOURCE $(BSD_CFLAGS) $(PCRE_CFLAGS) $(SSL_CFLAGS)
RETRY_CFLAGS =	-std=c11 $(WARNINGS) $(WERROR)
RETRY_LDLIBS =	$(BSD_LIBS) $(PCRE_LIBS) $(HIREDIS_LIBS) $(SSL_LIBS) -lm

SRCS =		$(sort $(wildcard src/*.c))
OBJS =		$(SRCS:.c=.o)
MANPAGES =	man/retry.1 man/show-backoff-delays.1

all: retry show-backoff-delays

retry: $(OBJS)
	$(CC) $(RETRY_CFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $(OBJS) \
	    $(DYN_LDLIBS) $(LDLIBS)

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

# One rule compiles every tree of objects: the binary's in src/, and those
# of build/asan, build/valgrind, build/fuzz, build/static and
# build/portable, each in its own directory, never mixed.  Called as
# $(call tree,DIR,VAR), it makes DIR/NAME.o from src/NAME.c with the
# command in variable VAR.  The compiler writes beside each object the
# headers it read (-MMD -MP: DIR/NAME.d, included below), so a header
# remakes the objects that include it and no other.  build/DIR.flags
# keeps the command, rewritten only when it changes, so that new flags (a
# new Makefile, make CFLAGS=...) remake that tree and only that tree.
# Only main.o is told VERSION (retry --version), so a new version remakes
# main.o alone.
tree_flags =	build/$(notdir $(1)).flags

define tree
$(1)/%.o: src/%.c $(tree_flags) | src/share_lua.h
	@mkdir -p $$(@D)
	$$($(2)) $$(if $$(filter main.o,$$(@F)),-DVERSION='"$$(VERSION)"') \
	    -MMD -MP -c -o $$@ $$<

$(1)/main.o: VERSION

$(tree_flags): export TREE_COMMAND = $$($(2))
$(tree_flags): FORCE
	@mkdir -p $$(@D) $$(need_libbsd)
	@printf '%s\n' "$$$$TREE_COMMAND" | cmp -s - $$@ 2>/dev/null || \
	    printf '%s\n' "$$$$TREE_COMMAND" >$$@

-include $$(wildcard $(1)/*.d)
endef

OBJ_CMD =	$(CC) $(RETRY_CPPFLAGS) $(LAZY_CPPFLAGS) $(CPPFLAGS) \
		$(RETRY_CFLAGS) $(CFLAGS)
$(eval $(call tree,src,OBJ_CMD))

# The pure modules: the unit tests link them, and nothing of the edge.
PURE =		cluster codes compat duration engine help line lists match model \
		number optable options policy replay rng share storeurl suggest \
		verdict
UNIT_SRCS =	$(wildcard tests/unit/*.c)
UNIT_HDRS =	$(wildcard tests/unit/*.h)

# The loaders that pure modules call: lib (PCRE2) and mathlib (libm).
LOADERS =	lib mathlib

build/unit: $(UNIT_SRCS) $(UNIT_HDRS) $(PURE:%=src/%.o) \
	    $(LOADERS:%=src/%.o)
	@mkdir -p $(@D)
	$(CC) $(RETRY_CPPFLAGS) $(CPPFLAGS) $(RETRY_CFLAGS) $(CFLAGS) \
	    $(LDFLAGS) -o $@ $(UNIT_SRCS) $(PURE:%=src/%.o) \
	    $(LOADERS:%=src/%.o) $(DYN_LDLIBS) $(LDLIBS)

# The rows of the shared state's unit test, replayed through Redis's
# script by a real server (tests/redis.bats runs it).
REPLAY_OBJS =	src/redis.o src/redisconn.o src/signals.o src/storeurl.o \
		src/share.o src/duration.o src/number.o src/compat.o src/lib.o \
		src/clock.o src/tls.o src/cluster.o

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
	    $(DYN_LDLIBS)

$(ASAN_DIR)/show-backoff-delays: $(ASAN_DIR)/retry
	ln -sf retry $@

$(ASAN_DIR)/unit: $(UNIT_SRCS) $(UNIT_HDRS) \
	    $(PURE:%=$(ASAN_DIR)/%.o) $(LOADERS:%=$(ASAN_DIR)/%.o)
	$(CLANG) $(RETRY_CPPFLAGS) $(RETRY_CFLAGS) $(SAN_CFLAGS) $(SAN) \
	    -o $@ $(UNIT_SRCS) $(PURE:%=$(ASAN_DIR)/%.o) \
	    $(LOADERS:%=$(ASAN_DIR)/%.o) $(DYN_LDLIBS)

ASAN_CMD =	$(CLANG) $(RETRY_CPPFLAGS) $(LAZY_CPPFLAGS) $(RETRY_CFLAGS) \
		$(SAN_CFLAGS) $(SAN)
$(eval $(call tree,$(ASAN_DIR),ASAN_CMD))

# valgrind reads DWARF 4, not the DWARF 5 that clang writes by default,
# and cannot follow PCRE2's JIT code: its build matches with PCRE2's
# interpreter, the path of platforms without the JIT.
VG_DIR =	build/valgrind
VG_OBJS =	$(SRCS:src/%.c=$(VG_DIR)/%.o)

valgrind: $(VG_DIR)/retry $(VG_DIR)/show-backoff-delays
	./tests/run-under valgrind $(VALGRIND_TESTS)

$(VG_DIR)/retry: $(VG_OBJS)
	$(CC) $(RETRY_CFLAGS) $(CFLAGS) -gdwarf-4 $(LDFLAGS) -o $@ \
	    $(VG_OBJS) $(DYN_LDLIBS) $(LDLIBS)

$(VG_DIR)/show-backoff-delays: $(VG_DIR)/retry
	ln -sf retry $@

VG_CMD =	$(CC) $(RETRY_CPPFLAGS) $(LAZY_CPPFLAGS) -DRETRY_NO_JIT \
		$(CPPFLAGS) $(RETRY_CFLAGS) $(CFLAGS) -gdwarf-4
$(eval $(call tree,$(VG_DIR),VG_CMD))

FUZZ_CMD =	$(CLANG) $(RETRY_CPPFLAGS) $(RETRY_CFLAGS) $(SAN_CFLAGS) $(SAN) \
		-fsanitize=fuzzer-no-link
$(eval $(call tree,$(FUZZ_DIR),FUZZ_CMD))

$(FUZZ_DIR)/fuzz-%: fuzz/%.c fuzz/fuzz.h $(FUZZ_OBJS)
	$(CLANG) $(RETRY_CPPFLAGS) $(RETRY_CFLAGS) $(SAN_CFLAGS) $(SAN) \
	    -fsanitize=fuzzer -o $@ $< $(FUZZ_OBJS) $(RETRY_LDLIBS)

# Kept: they are made for a pattern rule, which would delete them.
.SECONDARY: $(FUZZ_OBJS)

fuzz-build: $(FUZZ_BINS)

fuzz: fuzz-build
	FUZZ_SEED=$(FUZZ_SEED) ./fuzz/run $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# One file that runs anywhere Linux does: glibc's, libbsd's, PCRE2's,
# hiredis's and OpenSSL's static archives from Debian, in build/static:
# position independent (so the kernel places it anywhere), hardened as
# Debian hardens its packages, and stripped.  Name lookups (--share-store
# redis://NAME) read /etc/hosts and ask DNS with glibc's own code; only
# other NSS sources (LDAP, mDNS) need glibc's shared libraries at run time
# (GNU ld warns of that for getaddrinfo).  With lld, the functions a
# waiting run executes are laid out together, in the order of
# src/static.order (make static-order writes it; see
# tests/package/hot-symbols): the kernel maps text 64 KiB around each
# page touched, so gathered they cost a few hundred KiB of memory, not a
# megabyte.  lld also packs its relocations (RELR): OpenSSL's tables hold
# some 20,000 pointers, which as RELA records were half a megabyte read
# at each start.  Without lld the binary is the same but for those.
STATIC_DIR =	build/static
STATIC_OBJS =	$(SRCS:src/%.c=$(STATIC_DIR)/%.o)
STATIC_LIBS !=	$(PKG_CONFIG) --static --libs libbsd-overlay libpcre2-8 hiredis \
		openssl 2>/dev/null || echo -lbsd -lmd -lpcre2-8 -lhiredis -lssl \
		-lcrypto
STATIC_LD !=	command -v ld.lld >/dev/null 2>&1 && \
		echo -fuse-ld=lld -Wl,--symbol-ordering-file=src/static.order \
		    -Wl,--no-warn-symbol-ordering -Wl,--pack-dyn-relocs=relr || true
STATIC_HARDEN =	-fPIE -fstack-protector-strong -fstack-clash-protection \
		-fcf-protection -D_FORTIFY_SOURCE=2
STRIP ?=	strip

static: $(STATIC_DIR)/retry $(STATIC_DIR)/show-backoff-delays

$(STATIC_DIR)/retry: $(STATIC_OBJS) src/static.order
	$(CC) $(RETRY_CFLAGS) $(CFLAGS) -static-pie $(STATIC_LD) \
	    -Wl,--gc-sections -Wl,-z,relro,-z,now $(LDFLAGS) \
	    -o $@.unstripped $(STATIC_OBJS) $(STATIC_LIBS) -lm $(LDLIBS)
	$(STRIP) -o $@ $@.unstripped
	@echo "$@: $$(wc -c < $@) bytes"

$(STATIC_DIR)/show-backoff-delays: $(STATIC_DIR)/retry
	ln -sf retry $@

STATIC_CMD =	$(CC) $(RETRY_CPPFLAGS) $(CPPFLAGS) $(RETRY_CFLAGS) $(CFLAGS) \
		$(STATIC_HARDEN) -ffunction-sections -fdata-sections
$(eval $(call tree,$(STATIC_DIR),STATIC_CMD))

static-order: $(STATIC_DIR)/retry
	./tests/package/hot-symbols $(STATIC_DIR)/retry.unstripped \
	    > src/static.order.tmp && mv src/static.order.tmp src/static.order

# The whole suite against the static binary, and what only it promises.
check-static: static build/redis-replay
	RETRY=$(CURDIR)/$(STATIC_DIR)/retry \
	    SHOW=$(CURDIR)/$(STATIC_DIR)/show-backoff-delays \
	    ./tests/run --also tests/package/static.bats

# What retry does where Linux's own calls are missing: every portable
# fallback of src/compat.c at once (-DRETRY_PORTABLE), in build/portable,
# and the unit tests and the whole suite against it.  The few tests of
# what only Linux gives are skipped there (RETRY_PORTABLE=1), each saying
# why.
PORT_DIR =	build/portable
PORT_OBJS =	$(SRCS:src/%.c=$(PORT_DIR)/%.o)

portable: $(PORT_DIR)/retry $(PORT_DIR)/show-backoff-delays

$(PORT_DIR)/retry: $(PORT_OBJS)
	$(CC) $(RETRY_CFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $(PORT_OBJS) \
	    $(DYN_LDLIBS) $(LDLIBS)

$(PORT_DIR)/show-backoff-delays: $(PORT_DIR)/retry
	ln -sf retry $@

$(PORT_DIR)/unit: $(UNIT_SRCS) $(UNIT_HDRS) $(PURE:%=$(PORT_DIR)/%.o) \
	    $(LOADERS:%=$(PORT_DIR)/%.o)
	$(CC) $(RETRY_CPPFLAGS) $(CPPFLAGS) $(RETRY_CFLAGS) $(CFLAGS) \
	    $(LDFLAGS) -o $@ $(UNIT_SRCS) $(PURE:%=$(PORT_DIR)/%.o) \
	    $(LOADERS:%=$(PORT_DIR)/%.o) $(DYN_LDLIBS) $(LDLIBS)

PORT_CMD =	$(CC) $(RETRY_CPPFLAGS) $(LAZY_CPPFLAGS) -DRETRY_PORTABLE \
		$(CPPFLAGS) $(RETRY_CFLAGS) $(CFLAGS)
$(eval $(call tree,$(PORT_DIR),PORT_CMD))

check-portable: portable $(PORT_DIR)/unit build/redis-replay
	RETRY=$(CURDIR)/$(PORT_DIR)/retry \
	    SHOW=$(CURDIR)/$(PORT_DIR)/show-backoff-delays \
	    UNIT=$(PORT_DIR)/unit RETRY_PORTABLE=1 ./tests/run

deps:
	./.ci/deps

# cppcheck and clang-tidy (.clang-tidy says which checks, and why the
# few left out are) over the sources and the fuzz targets.
CPPCHECK_FLAGS = --quiet --std=c11 --error-exitcode=1 --inline-suppr \
		--enable=warning,portability,performance -D_GNU_SOURCE

lint:
	cppcheck $(CPPCHECK_FLAGS) -Isrc src fuzz tests/unit tests/redis
	clang-tidy --quiet src/*.c fuzz/*.c tests/unit/*.c tests/redis/*.c -- \
	    $(RETRY_CPPFLAGS) -std=c11
	clang-tidy --quiet src/compat.c -- $(RETRY_CPPFLAGS) -DRETRY_PORTABLE \
	    -std=c11
	mandoc -Tlint -Wwarning $(MANPAGES)
	shellcheck -s bash completions/retry.bash tests/run tests/run-under \
	    fuzz/run tests/distcheck tests/package/build-deb \
	    tests/package/check-installed tests/package/hot-symbols \
	    tests/test_helper/*.bash .ci/run
	shellcheck -s sh tests/bin/* .ci/deps

# clang-format (.clang-format: style(9), tabs) over the lines changed
# since FORMAT_BASE (HEAD: what is not committed yet), not over whole
# files, so that code no one touched keeps the layout it was given.
FORMAT_BASE ?=	HEAD

format:
	git clang-format --force --extensions c,h \
	    $(FORMAT_BASE) -- src fuzz tests/unit tests/redis bench

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
	rm -f retry show-backoff-delays $(OBJS) $(OBJS:.o=.d) src/share_lua.h \
	    src/static.order.tmp $(CLEANFILES)
	rm -rf build

.PHONY: all unit check soak deps lint format install uninstall clean \
	sanitize sanitize-build valgrind fuzz fuzz-build static check-static \
	static-order portable check-portable FORCE
FORCE:

# The release, the Debian package and the benchmarks, each in its own file.
include mk/dist.mk mk/deb.mk mk/bench.mk

