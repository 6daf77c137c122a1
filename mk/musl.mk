# One static file for Alpine, scratch and distroless images: retry built
# with musl (Debian's musl-tools, musl-gcc) in build/musl, without the
# Redis wing (as make REDIS=no: OpenSSL and hiredis have no static
# archives for musl), stripped.  PCRE2, libbsd and libmd are Debian's own
# static archives: built against glibc, they call only a few of glibc's
# checked entry points (__memcpy_chk and the like), which mk/musl/glibc.c
# gives them; PCRE2 runs without its JIT (mk/musl/nojit.c), its
# interpreter alone.  It is built for size (-Oz) and stripped of its
# unwind tables too (.eh_frame: nothing in a C program without threads
# unwinds), and mk/musl/entropy.c gives libbsd's arc4random musl's
# getrandom(2), so that libbsd's fallback for kernels before Linux 3.17
# and libmd's SHA-512 stay out: 598 KiB.  check-musl runs the unit
# tests, built with musl too, and the whole suite against that binary; what needs Redis skips there
# (RETRY_NOREDIS=1, RETRY_MUSL=1).  Included by the Makefile, whose
# variables it uses.

MUSL_CC ?=	musl-gcc
MUSL_DIR =	build/musl
MUSL_OBJS =	$(patsubst src/%.c,$(MUSL_DIR)/%.o,$(call wing_srcs,no)) \
		$(MUSL_SHIMS)
MUSL_SHIMS =	$(MUSL_DIR)/glibc.o $(MUSL_DIR)/nojit.o $(MUSL_DIR)/entropy.o
MUSL_INC =	$(MUSL_DIR)/include
# Debian's archives by their paths: musl-gcc searches musl's directory
# alone, and glibc's libc.a beside them must not be found.
MUSL_LIBDIR =	$(dir $(shell $(CC) -print-file-name=libpcre2-8.a))
MUSL_LIBS =	$(addprefix $(MUSL_LIBDIR),libpcre2-8.a libbsd.a libmd.a)
MUSL_CFLAGS =	-Oz -g -flto=auto -fno-asynchronous-unwind-tables \
		-fno-unwind-tables
MUSL_CMD =	$(MUSL_CC) $(filter-out $(PCRE_CFLAGS) $(SSL_CFLAGS), \
		$(RETRY_CPPFLAGS)) -I$(MUSL_INC) -DRETRY_MUSL -DRETRY_NO_JIT $(CPPFLAGS) \
		$(RETRY_CFLAGS) $(MUSL_CFLAGS) -ffunction-sections \
		-fdata-sections

musl: $(MUSL_DIR)/retry $(MUSL_DIR)/show-backoff-delays

# PCRE2's header alone: the folder it is in holds glibc's headers too.
$(MUSL_INC)/pcre2.h:
	@mkdir -p $(@D)
	echo '#include <pcre2.h>' | $(CC) $(PCRE_CFLAGS) \
	    -DPCRE2_CODE_UNIT_WIDTH=8 -M -x c - | \
	    tr ' \\' '\n\n' | grep '/pcre2\.h$$' | xargs -I{} cp {} $@

$(MUSL_DIR)/retry: $(MUSL_OBJS)
	$(MUSL_CC) $(RETRY_CFLAGS) $(MUSL_CFLAGS) -static -Wl,--gc-sections -Wl,-z,noseparate-code \
	    $(LDFLAGS) -o $@.unstripped $(MUSL_OBJS) $(MUSL_LIBS) $(LDLIBS)
	$(STRIP) -R .eh_frame -R .comment -o $@ $@.unstripped
	@echo "$@: $$(wc -c < $@) bytes"

$(MUSL_DIR)/show-backoff-delays: $(MUSL_DIR)/retry
	ln -sf retry $@

$(MUSL_SHIMS): $(MUSL_DIR)/%.o: mk/musl/%.c
	@mkdir -p $(@D)
	$(MUSL_CC) -std=c11 -D_GNU_SOURCE $(WARNINGS) $(WERROR) \
	    -Wno-missing-prototypes $(MUSL_CFLAGS) -c -o $@ $<

$(MUSL_DIR)/unit: $(UNIT_SRCS) $(UNIT_HDRS) $(call unit_objs,$(MUSL_DIR)) \
	    $(MUSL_SHIMS)
	$(MUSL_CMD) -static $(LDFLAGS) -o $@ $(UNIT_SRCS) \
	    $(call unit_objs,$(MUSL_DIR)) $(MUSL_SHIMS) $(MUSL_LIBS) \
	    $(LDLIBS)

$(eval $(call tree,$(MUSL_DIR),MUSL_CMD))
$(MUSL_OBJS) $(call unit_objs,$(MUSL_DIR)): | $(MUSL_INC)/pcre2.h

check-musl: musl $(MUSL_DIR)/unit build/optdump
	RETRY=$(CURDIR)/$(MUSL_DIR)/retry \
	    SHOW=$(CURDIR)/$(MUSL_DIR)/show-backoff-delays \
	    UNIT=$(MUSL_DIR)/unit RETRY_MUSL=1 RETRY_NOREDIS=1 ./tests/run

.PHONY: musl check-musl
