# libFuzzer targets (fuzz/README), built with the sanitizers of
# mk/asan.mk in build/fuzz.  Included by the Makefile, whose variables it
# uses.

FUZZ_DIR =	build/fuzz
FUZZ_OBJS =	$(filter-out %/main.o,$(SRCS:src/%.c=$(FUZZ_DIR)/%.o))
FUZZ_TARGETS =	duration codes jitter options status number match share
FUZZ_BINS =	$(FUZZ_TARGETS:%=$(FUZZ_DIR)/fuzz-%)
FUZZ_SECONDS ?=	30
FUZZ_SEED ?=	0

fuzz-build: $(FUZZ_BINS)

fuzz: fuzz-build
	FUZZ_SEED=$(FUZZ_SEED) ./fuzz/run $(FUZZ_SECONDS) $(FUZZ_TARGETS)

$(FUZZ_DIR)/fuzz-%: fuzz/%.c fuzz/fuzz.h $(FUZZ_OBJS)
	$(CLANG) $(RETRY_CPPFLAGS) $(RETRY_CFLAGS) $(SAN_CFLAGS) $(SAN) \
	    -fsanitize=fuzzer -o $@ $< $(FUZZ_OBJS) $(RETRY_LDLIBS)

# Kept: they are made for a pattern rule, which would delete them.
.SECONDARY: $(FUZZ_OBJS)

FUZZ_CMD =	$(CLANG) $(RETRY_CPPFLAGS) $(RETRY_CFLAGS) $(SAN_CFLAGS) $(SAN) \
		-fsanitize=fuzzer-no-link
$(eval $(call tree,$(FUZZ_DIR),FUZZ_CMD))

.PHONY: fuzz fuzz-build
