# retry: run a command until it succeeds, with back-off.

VERSION =	0.1.0

PREFIX ?=	/usr/local
BINDIR ?=	$(PREFIX)/bin
MANDIR ?=	$(PREFIX)/share/man
DESTDIR ?=

CC ?=		cc
PKG_CONFIG ?=	pkg-config
BATS ?=		bats

# Our flags first; the user's CPPFLAGS, CFLAGS, LDFLAGS and LDLIBS come
# after them, so they add to ours and win where they disagree.
WARNINGS =	-Wall -Wextra -Wpedantic -Wshadow -Wformat=2 \
		-Wmissing-prototypes -Wstrict-prototypes -Wno-unused-parameter
WERROR ?=
BSD_CFLAGS !=	$(PKG_CONFIG) --cflags libbsd-overlay 2>/dev/null || echo -DNO_LIBBSD
BSD_LIBS !=	$(PKG_CONFIG) --libs libbsd-overlay 2>/dev/null || echo -lbsd
CFLAGS ?=	-O2 -g
RETRY_CPPFLAGS = -D_GNU_SOURCE -DVERSION='"$(VERSION)"' $(BSD_CFLAGS)
RETRY_CFLAGS =	-std=c11 $(WARNINGS) $(WERROR)
RETRY_LDLIBS =	$(BSD_LIBS) -lm

SRCS =		src/codes.c src/duration.c src/engine.c src/loop.c \
		src/main.c src/options.c src/report.c src/rng.c src/show.c \
		src/signals.c src/spawn.c src/verdict.c
OBJS =		$(SRCS:.c=.o)
HDRS =		$(wildcard src/*.h)

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

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1
	install -m 755 retry $(DESTDIR)$(BINDIR)/retry
	ln -sf retry $(DESTDIR)$(BINDIR)/show-backoff-delays
	install -m 644 man/retry.1 $(DESTDIR)$(MANDIR)/man1/retry.1

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/retry $(DESTDIR)$(BINDIR)/show-backoff-delays
	rm -f $(DESTDIR)$(MANDIR)/man1/retry.1

clean:
	rm -f retry show-backoff-delays $(OBJS)

.PHONY: all check deps install uninstall clean
