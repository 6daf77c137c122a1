# The whole suite under AddressSanitizer and UBSan: a clang build of its
# own in build/asan.  Included by the Makefile, whose variables it uses;
# mk/fuzz.mk uses its CLANG, SAN and SAN_CFLAGS.

CLANG ?=	clang
SAN =		-fsanitize=address,undefined -fno-sanitize-recover=all
SAN_CFLAGS =	-O1 -g -fno-omit-frame-pointer
ASAN_DIR =	build/asan
ASAN_OBJS =	$(SRCS:src/%.c=$(ASAN_DIR)/%.o)

sanitize:
	$(MAKE) check SANITIZE=1

sanitize-build: $(ASAN_DIR)/retry $(ASAN_DIR)/show-backoff-delays

$(ASAN_DIR)/retry: $(ASAN_OBJS)
	$(CLANG) $(RETRY_CFLAGS) $(SAN_CFLAGS) $(SAN) -o $@ $(ASAN_OBJS) \
	    $(DYN_LDLIBS)

$(ASAN_DIR)/show-backoff-delays: $(ASAN_DIR)/retry
	ln -sf retry $@

$(ASAN_DIR)/unit: $(UNIT_SRCS) $(UNIT_HDRS) $(call unit_objs,$(ASAN_DIR))
	$(CLANG) $(RETRY_CPPFLAGS) $(RETRY_CFLAGS) $(SAN_CFLAGS) $(SAN) \
	    -o $@ $(UNIT_SRCS) $(call unit_objs,$(ASAN_DIR)) $(DYN_LDLIBS)

ASAN_CMD =	$(CLANG) $(RETRY_CPPFLAGS) $(LAZY_CPPFLAGS) $(RETRY_CFLAGS) \
		$(SAN_CFLAGS) $(SAN)
$(eval $(call tree,$(ASAN_DIR),ASAN_CMD))

.PHONY: sanitize sanitize-build
