# One file that runs anywhere Linux does: glibc's, libbsd's, PCRE2's,
# hiredis's and OpenSSL's static archives from Debian, in build/static:
# position independent (so the kernel places it anywhere), hardened as
# Debian hardens its packages, and stripped.  Included by the Makefile,
# whose variables it uses.
#
# Name lookups (--share-store redis://NAME) read /etc/hosts and ask DNS
# with glibc's own code; only other NSS sources (LDAP, mDNS) need glibc's
# shared libraries at run time (GNU ld warns of that for getaddrinfo).
# With lld, the functions a waiting run executes are laid out together,
# in the order of mk/static/order (make static-order writes it with
# mk/static/hot-symbols): the kernel maps text 64 KiB around each page
# touched, so gathered they cost a few hundred KiB of memory, not a
# megabyte.  lld also packs its relocations (RELR): OpenSSL's tables hold
# some 20,000 pointers, which as RELA records were half a megabyte read
# at each start.  Without lld the binary is the same but for those.

STATIC_DIR =	build/static
STATIC_OBJS =	$(SRCS:src/%.c=$(STATIC_DIR)/%.o)
STATIC_ORDER =	mk/static/order
LLD_FLAGS =	$(STATIC_LLD) -Wl,--symbol-ordering-file=$(STATIC_ORDER) \
		-Wl,--no-warn-symbol-ordering -Wl,--pack-dyn-relocs=relr
STATIC_LD =	$(if $(STATIC_LLD),$(LLD_FLAGS))
STATIC_HARDEN =	-fPIE -fstack-protector-strong -fstack-clash-protection \
		-fcf-protection -D_FORTIFY_SOURCE=2
STRIP ?=	strip
CLEANFILES +=	$(STATIC_ORDER).tmp

static: $(STATIC_DIR)/retry $(STATIC_DIR)/show-backoff-delays

$(STATIC_DIR)/retry: $(STATIC_OBJS) $(STATIC_ORDER)
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
	./mk/static/hot-symbols $(STATIC_DIR)/retry.unstripped \
	    > $(STATIC_ORDER).tmp && mv $(STATIC_ORDER).tmp $(STATIC_ORDER)

# The whole suite against the static binary, and what only it promises.
check-static: static build/redis-replay build/sketch-replay
	RETRY=$(CURDIR)/$(STATIC_DIR)/retry \
	    SHOW=$(CURDIR)/$(STATIC_DIR)/show-backoff-delays \
	    ./tests/run --also tests/package/static.bats

.PHONY: static static-order check-static
