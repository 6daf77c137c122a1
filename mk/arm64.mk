# retry for aarch64: the musl build of mk/musl.mk, made again with Debian's
# cross compiler (gcc-aarch64-linux-gnu) and musl's aarch64 files
# (musl-dev:arm64) in build/aarch64, against the arm64 static archives of
# PCRE2, libbsd and libmd (Debian's multiarch packages).  check-arm64 runs
# it under qemu-user: the unit tests, tests/arm64/plans compared byte for
# byte with what this machine's retry prints (every strategy, jitter,
# Algorithm::Backoff's family and simulate), and a core subset of the
# suite.  Included by the Makefile, whose variables it uses.

ARM64_DIR =	build/aarch64
ARM64_CC ?=	aarch64-linux-gnu-gcc
ARM64_STRIP ?=	aarch64-linux-gnu-strip
ARM64_MUSL ?=	/usr/lib/aarch64-linux-musl
ARM64_LIBDIR ?=	/usr/lib/aarch64-linux-gnu/
QEMU_AARCH64 ?=	qemu-aarch64
# The suite's files that say what retry plans and how it runs a command;
# terminals, stores and installs stay with the native builds.
ARM64_TESTS =	perl-compare upstream-backoff strategies algorithms show \
		durations jitter smoke loop number usage verdicts results \
		repeats limits deadline timeout signals streams simulate

cross-arm64:
	$(MAKE) MUSL_DIR=$(ARM64_DIR) \
	    MUSL_CC='$(ARM64_CC) -specs $(ARM64_MUSL)/musl-gcc.specs' \
	    MUSL_LIBDIR=$(ARM64_LIBDIR) STRIP=$(ARM64_STRIP) \
	    $(ARM64_DIR)/retry $(ARM64_DIR)/show-backoff-delays $(ARM64_DIR)/unit

# Each program through qemu-aarch64 under the name it was called by, so
# that a link named show-backoff-delays dispatches as on the machine.
$(ARM64_DIR)/qemu/retry $(ARM64_DIR)/qemu/unit: mk/arm64.mk
	@mkdir -p $(@D)
	printf '#!/bin/sh\nexec %s -0 "$$0" %s "$$@"\n' '$(QEMU_AARCH64)' \
	    '$(CURDIR)/$(ARM64_DIR)/$(@F)' > $@.tmp
	chmod +x $@.tmp
	mv $@.tmp $@

$(ARM64_DIR)/qemu/show-backoff-delays: $(ARM64_DIR)/qemu/retry
	ln -sf retry $@

check-arm64: cross-arm64 $(ARM64_DIR)/qemu/show-backoff-delays \
	    $(ARM64_DIR)/qemu/unit all build/optdump
	tests/arm64/plans ./retry ./show-backoff-delays > $(ARM64_DIR)/plans.x86_64
	tests/arm64/plans $(ARM64_DIR)/qemu/retry \
	    $(ARM64_DIR)/qemu/show-backoff-delays > $(ARM64_DIR)/plans.aarch64
	@if cmp -s $(ARM64_DIR)/plans.x86_64 $(ARM64_DIR)/plans.aarch64; then \
	    echo "ok - aarch64 plans as x86-64:" \
	        "$$(wc -l < $(ARM64_DIR)/plans.aarch64) lines the same"; \
	else \
	    diff -u $(ARM64_DIR)/plans.x86_64 $(ARM64_DIR)/plans.aarch64 | \
	        head -n 40; \
	    echo "not ok - aarch64 plans otherwise than x86-64"; \
	    echo "0 passed, 1 failed"; exit 1; \
	fi
	RETRY=$(CURDIR)/$(ARM64_DIR)/qemu/retry \
	    SHOW=$(CURDIR)/$(ARM64_DIR)/qemu/show-backoff-delays \
	    UNIT=$(ARM64_DIR)/qemu/unit RETRY_MUSL=1 \
	    RETRY_NOREDIS=1 RETRY_QEMU=1 \
	    ./tests/run $(patsubst %,tests/%.bats,$(ARM64_TESTS))

.PHONY: cross-arm64 check-arm64
