# retry: run a command until it succeeds, with back-off.

# The one place the version is written: retry --version, the tarball's
# name and debian/changelog (checked by make deb) all come from it.
VERSION :=	$(strip $(file <VERSION))
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
CFLAGS ?=	-O2 -g
WERROR ?=

all: retry show-backoff-delays

# Not empty when $(1) and $(2) are the same words.
same =		$(and $(findstring $(strip $(1)),$(strip $(2))),$(findstring \
		$(strip $(2)),$(strip $(1))))

# What this system has (pkg-config's flags, sonames, static archives,
# lld) is asked once by mk/configure into build/config.mk, made again
# when CC, CFLAGS, PKG_CONFIG, the compiler (CC_PATH: CC found in PATH),
# the Makefile or mk/configure change.  Goals that build nothing skip it.
CONFIG_KEY =	$(CC) | $(PKG_CONFIG) | $(CFLAGS)
CC_PATH =	$(firstword $(wildcard $(filter /%,$(firstword $(CC))) \
		$(addsuffix /$(firstword $(CC)),$(subst :, ,$(PATH)))))
NOCONFIG =	clean deps dist distcheck deb check-deb uninstall format \
		bench-deps
ifneq ($(filter-out $(NOCONFIG),$(or $(MAKECMDGOALS),all)),)
include build/config.mk
endif

build/config.mk: export CONFIG_KEY := $(CONFIG_KEY)
build/config.mk: export CC := $(CC)
build/config.mk: export PKG_CONFIG := $(PKG_CONFIG)
build/config.mk: mk/configure Makefile $(CC_PATH) \
	    $(if $(call same,$(CONFIG_KEY),$(CONFIGURED)),,FORCE)
	@mkdir -p $(@D)
	./mk/configure >$@.tmp && mv $@.tmp $@

# Our flags first; the user's CPPFLAGS, CFLAGS, LDFLAGS and LDLIBS come
# after them, so they add to ours and win where they disagree.
WARNINGS =	-Wall -Wextra -Wpedantic -Wshadow -Wformat=2 \
		-Wmissing-prototypes -Wstrict-prototypes -Wno-unused-parameter \
		-Wconversion -Wsign-conversion -Wdouble-promotion -Wcast-qual \
		-Wwrite-strings -Wvla -Wundef -Wimplicit-fallthrough
RETRY_CPPFLAGS = -D_GNU_SOURCE -Ibuild/gen $(SRC_DIRS:%=-I%) $(BSD_CFLAGS) \
		$(PCRE_CFLAGS) $(SSL_CFLAGS)
RETRY_CFLAGS =	-std=c11 $(WARNINGS) $(WERROR)
RETRY_LDLIBS =	$(BSD_LIBS) $(PCRE_LIBS) $(HIREDIS_LIBS) $(SSL_LIBS) -lm

# What the binary and the builds that check it link: PCRE2, hiredis and
# OpenSSL are loaded when a run first needs them (LAZY_CPPFLAGS names the
# sonames; LAZY_LIBS links those without one).  libbsd and libmd come
# from their static archives where there are some: each shared library
# costs every run its mapping and relocation.  libm stays, as needed only:
# a compiler that calls what -O2 inlines (rint, at -O0) links it.
# $(call dyn_ldlibs,no): those of a build without Redis.
dyn_ldlibs =	$(or $(BSD_STATIC),$(BSD_LIBS)) $(if $(filter no,$(1)), \
		$(filter-out $(HIREDIS_LIBS) $(SSL_LIBS),$(LAZY_LIBS)), \
		$(LAZY_LIBS)) -Wl,--as-needed -lm -Wl,--no-as-needed
DYN_LDLIBS =	$(call dyn_ldlibs,$(REDIS))

# The sources, a folder a layer (HACKING.md): src/base, src/pure,
# src/decide, src/cli, the shared-state wing src/share, src/run, and the
# faces in src/ itself.  A header is included by its name alone: every
# folder is on the include path, and mk/layers checks who includes what.
ALL_SRCS =	$(sort $(wildcard src/*.c src/*/*.c src/*/*/*.c))
SRC_DIRS =	$(patsubst %/,%,$(sort $(dir $(ALL_SRCS))))
# The Redis wing, src/share/redis: the files that need hiredis and
# OpenSSL.  Without them (REDIS = no: mk/configure's fact where their
# headers are missing, or make REDIS=no), src/share/noredis.c stands in,
# which refuses a Redis store; $(call wing_srcs,no) names the sources of
# such a build.
WING =		$(wildcard src/share/redis/*.c)
wing_srcs =	$(filter-out $(if $(filter no,$(1)),$(WING), \
		src/share/noredis.c),$(ALL_SRCS))
SRCS =		$(call wing_srcs,$(REDIS))
OBJ_DIR =	build/obj
OBJS =		$(SRCS:src/%.c=$(OBJ_DIR)/%.o)
MAN1 =		man/retry.1 man/retry-share.1 man/retry-simulate.1 \
		man/show-backoff-delays.1
MAN7 =		man/retry-compat.7 man/retry-hedge.7 \
		man/retry-reports.7
MANPAGES =	$(MAN1) $(MAN7)

# The list of objects, rewritten when it changes (make REDIS=no and
# back), so that the binary is linked again.
$(OBJ_DIR).list: $(if $(call same,$(OBJS),$(file <$(OBJ_DIR).list)),,FORCE)
	@mkdir -p $(@D)
	@printf '%s\n' '$(OBJS)' >$@

retry: $(OBJS) $(OBJ_DIR).list
	$(CC) $(RETRY_CFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $(OBJS) \
	    $(DYN_LDLIBS) $(LDLIBS)

show-backoff-delays: retry
	ln -sf retry $@

# The scripts that Redis runs, as bytes, and the SHA-1 that EVALSHA names
# each by: share.lua, the shared state's rules (share_lua.h), and
# sketch.lua, the latency sketch's (sketch_lua.h).
build/gen/%_lua.h: src/share/pure/%.lua
	@mkdir -p $(@D)
	{ printf '#define %s_LUA_SHA1 "%s"\n' "$$(echo '$*' | tr a-z A-Z)" \
	    "$$(sha1sum < $< | cut -c1-40)"; \
	  printf 'static const char %s_lua[] = {\n' '$*'; \
	  od -An -v -tx1 $< | sed 's/ \([0-9a-f][0-9a-f]\)/0x\1,/g'; \
	  printf '};\n'; } > $@.tmp && mv $@.tmp $@

# One rule compiles every tree of objects, each in its own directory under
# build/, never mixed: the binary's in build/obj, and those of the checks
# in mk/ (build/asan, build/valgrind, build/fuzz, build/static,
# build/portable).  $(call tree,DIR,VAR) makes DIR/NAME.o from src/NAME.c
# with the command in variable VAR.  The compiler writes beside each
# object the headers it read (-MMD -MP: DIR/NAME.d, included below), so a
# header remakes the objects that include it and no other.  DIR.flags
# keeps the command, rewritten only when it changes, so that new flags (a
# new Makefile, make CFLAGS=...) remake that tree and only that tree.
# Only main.o is told VERSION (retry --version), so a new version remakes
# main.o alone.
define tree
$(1)/%.o: src/%.c $(1).flags | build/gen/share_lua.h
	@mkdir -p $$(@D)
	$$($(2)) $$(if $$(filter main.o,$$(@F)),-DVERSION='"$$(VERSION)"') \
	    -MMD -MP -c -o $$@ $$<

$(filter %/main.o,$(SRCS:src/%.c=$(1)/%.o)): VERSION

$(1).flags: export TREE_COMMAND = $$($(2))
$(1).flags: $$(if $$(call same,$$($(2)),$$(file <$(1).flags)),,FORCE)
	@mkdir -p $$(@D)
	@printf '%s\n' "$$$$TREE_COMMAND" >$$@

-include $$(wildcard $(1)/*.d $(1)/*/*.d $(1)/*/*/*.d)
endef

OBJ_CMD =	$(CC) $(RETRY_CPPFLAGS) $(LAZY_CPPFLAGS) $(CPPFLAGS) \
		$(RETRY_CFLAGS) $(CFLAGS)
$(eval $(call tree,$(OBJ_DIR),OBJ_CMD))

# What the unit tests link: the layers below the stores and the edge, by
# their folders (the base with its loaders, the pure modules and
# decisions, the option parser, the shared state's pure rules), and
# nothing of the edge.  $(call unit_objs,DIR) names them in the tree DIR.
UNIT_DIRS =	src/base src/pure src/decide src/cli src/share/pure
unit_objs =	$(patsubst src/%.c,$(1)/%.o,$(wildcard $(UNIT_DIRS:%=%/*.c)))
UNIT_SRCS =	$(wildcard tests/unit/*.c)
UNIT_HDRS =	$(wildcard tests/unit/*.h)

build/unit: $(UNIT_SRCS) $(UNIT_HDRS) $(call unit_objs,$(OBJ_DIR))
	$(CC) $(RETRY_CPPFLAGS) $(CPPFLAGS) $(RETRY_CFLAGS) $(CFLAGS) \
	    $(LDFLAGS) -o $@ $(UNIT_SRCS) $(call unit_objs,$(OBJ_DIR)) \
	    $(DYN_LDLIBS) $(LDLIBS)

# The rows of the shared state's unit test, replayed through Redis's
# script by a real server (tests/redis.bats runs it).
REPLAY_OBJS =	$(patsubst src/%.c,$(OBJ_DIR)/%.o,$(WING) src/share/redisopen.c \
		$(wildcard src/base/*.c src/pure/*.c src/share/pure/*.c))

build/redis-replay: tests/redis/replay.c tests/unit/share_rows.h \
	    $(REPLAY_OBJS)
	$(CC) $(RETRY_CPPFLAGS) $(CPPFLAGS) $(RETRY_CFLAGS) $(CFLAGS) \
	    $(LDFLAGS) -o $@ tests/redis/replay.c $(REPLAY_OBJS) \
	    $(RETRY_LDLIBS) $(LDLIBS)

# The rows of the latency sketch's unit test, replayed through its Lua
# twin by a real server (tests/redis.bats runs it).
build/sketch-replay: tests/redis/sketchreplay.c tests/unit/sketch_rows.h \
	    build/gen/sketch_lua.h $(REPLAY_OBJS)
	$(CC) $(RETRY_CPPFLAGS) $(CPPFLAGS) $(RETRY_CFLAGS) $(CFLAGS) \
	    $(LDFLAGS) -o $@ tests/redis/sketchreplay.c $(REPLAY_OBJS) \
	    $(RETRY_LDLIBS) $(LDLIBS)

# Table-driven C tests of the policy and the option parser.
unit: build/unit
	./build/unit

# The unit tests, then the bats suite against the real binary.
check: $(if $(SANITIZE),sanitize-build build/asan/unit,all build/unit) \
	    $(if $(filter no,$(REDIS)),,build/redis-replay build/sketch-replay)
	$(if $(SANITIZE),./tests/run-under asan,UNIT=build/unit ./tests/run)

# Long runs: 10,000 attempts, memory and descriptors flat.
soak: all
	./tests/run tests/soak/*.bats

deps:
	./.ci/deps

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 \
	    $(DESTDIR)$(MANDIR)/man7 \
	    $(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR) \
	    $(DESTDIR)$(FISHCOMPDIR)
	install -m 755 retry $(DESTDIR)$(BINDIR)/retry
	ln -sf retry $(DESTDIR)$(BINDIR)/show-backoff-delays
	install -m 644 $(MAN1) $(DESTDIR)$(MANDIR)/man1/
	install -m 644 $(MAN7) $(DESTDIR)$(MANDIR)/man7/
	install -m 644 completions/retry.bash $(DESTDIR)$(BASHCOMPDIR)/retry
	ln -sf retry $(DESTDIR)$(BASHCOMPDIR)/show-backoff-delays
	install -m 644 completions/_retry $(DESTDIR)$(ZSHCOMPDIR)/_retry
	install -m 644 completions/retry.fish $(DESTDIR)$(FISHCOMPDIR)/retry.fish
	ln -sf retry.fish $(DESTDIR)$(FISHCOMPDIR)/show-backoff-delays.fish

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/retry $(DESTDIR)$(BINDIR)/show-backoff-delays
	rm -f $(MAN1:man/%=$(DESTDIR)$(MANDIR)/man1/%) \
	    $(MAN7:man/%=$(DESTDIR)$(MANDIR)/man7/%)
	rm -f $(DESTDIR)$(BASHCOMPDIR)/retry \
	    $(DESTDIR)$(BASHCOMPDIR)/show-backoff-delays
	rm -f $(DESTDIR)$(ZSHCOMPDIR)/_retry
	rm -f $(DESTDIR)$(FISHCOMPDIR)/retry.fish \
	    $(DESTDIR)$(FISHCOMPDIR)/show-backoff-delays.fish

# All that a build makes is in build/, but for the binary, its link and
# CLEANFILES; src/ holds nothing made (what older builds left is removed).
clean:
	rm -f retry show-backoff-delays $(CLEANFILES)
	rm -f src/*.o src/*.d src/share_lua.h
	rm -rf build

.PHONY: all unit check soak deps install uninstall clean FORCE
FORCE:

# The check trees (the build without Redis among them), lint, the release, the Debian package and the
# benchmarks, each in its own file.
include mk/asan.mk mk/valgrind.mk mk/fuzz.mk mk/static.mk mk/portable.mk \
	mk/noredis.mk mk/musl.mk mk/arm64.mk mk/lint.mk mk/dist.mk mk/deb.mk mk/bench.mk mk/optdump.mk
