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
CFLAGS ?=	-O2 -g
RETRY_CPPFLAGS = -D_GNU_SOURCE -DVERSION='"$(VERSION)"' $(BSD_CFLAGS)
RETRY_CFLAGS =	-std=c11 $(WARNINGS) $(WERROR)
RETRY_LDLIBS =	$(BSD_LIBS) -lm

SRCS =		$(sort $(wildcard src/*.c))
OBJS =		$(SRCS:.c=.o)
HDRS =		$(wildcard src/*.h)
MANPAGES =	man/retry.1 man/show-backoff-delays.1

all: retry show-backoff-delays

retry: $(OBJS)
	$(CC) $(RETRY_CFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $(OBJS) \
	    $(RETRY_LDLIBS) $(LDLIBS)

show-backoff-delays: retry
	ln -sf retry $@

src/%.o: src/%.c $(HDRS) Makefile
	$(CC) $(RETRY_CPPFLAGS) $(CPPFLAGS) $(RETRY_CFLAGS) $(CFLAGS) \
	    -c -o $@ $<

check: all
	./tests/run

deps:
	./.ci/deps

# Benchmarks (README.md, Performance); not part of CI.
BENCH_PROGS =	bench/pairtime bench/peakrss bench/spawnloop

bench: all $(BENCH_PROGS)
	./bench/run

bench-deps:
	./bench/deps

$(BENCH_PROGS): bench/%: bench/%.c Makefile
	$(CC) -D_GNU_SOURCE $(CPPFLAGS) $(RETRY_CFLAGS) $(CFLAGS) $(LDFLAGS) \
	    -o $@ $< $(LDLIBS)

lint:
	mandoc -Tlint -Wwarning $(MANPAGES)
	shellcheck -s bash completions/retry.bash tests/run \
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
	rm -f retry show-backoff-delays $(OBJS) $(BENCH_PROGS)

.PHONY: all check deps bench bench-deps lint install uninstall clean
