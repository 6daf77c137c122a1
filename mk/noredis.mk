# A build without the Redis wing, as where hiredis and OpenSSL are
# missing (make REDIS=no builds the binary so), in build/noredis: it links
# neither, and refuses a Redis store in one line, exit 125.
# check-noredis builds it and runs against it the tests of the file
# store, of usage, and of that refusal (tests/noredis.bats, whose tests
# run there alone: RETRY_NOREDIS=1).  Included by the Makefile, whose
# variables it uses.

NOREDIS_DIR =	build/noredis
NOREDIS_OBJS =	$(patsubst src/%.c,$(NOREDIS_DIR)/%.o,$(call wing_srcs,no))

noredis: $(NOREDIS_DIR)/retry $(NOREDIS_DIR)/show-backoff-delays

$(NOREDIS_DIR)/retry: $(NOREDIS_OBJS)
	$(CC) $(RETRY_CFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $(NOREDIS_OBJS) \
	    $(call dyn_ldlibs,no) $(LDLIBS)

$(NOREDIS_DIR)/show-backoff-delays: $(NOREDIS_DIR)/retry
	ln -sf retry $@

NOREDIS_CMD =	$(OBJ_CMD)
$(eval $(call tree,$(NOREDIS_DIR),NOREDIS_CMD))

check-noredis: noredis
	RETRY=$(CURDIR)/$(NOREDIS_DIR)/retry \
	    SHOW=$(CURDIR)/$(NOREDIS_DIR)/show-backoff-delays \
	    RETRY_NOREDIS=1 ./tests/run tests/noredis.bats tests/share.bats \
	    tests/usage.bats

.PHONY: noredis check-noredis
