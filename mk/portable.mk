# What retry does where Linux's own calls are missing: every portable
# fallback of src/base/compat.c at once (-DRETRY_PORTABLE), in build/portable,
# and the unit tests and the whole suite against it.  The few tests of
# what only Linux gives are skipped there (RETRY_PORTABLE=1), each saying
# why.  Included by the Makefile, whose variables it uses.

PORT_DIR =	build/portable
PORT_OBJS =	$(SRCS:src/%.c=$(PORT_DIR)/%.o)

portable: $(PORT_DIR)/retry $(PORT_DIR)/show-backoff-delays

$(PORT_DIR)/retry: $(PORT_OBJS)
	$(CC) $(RETRY_CFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $(PORT_OBJS) \
	    $(DYN_LDLIBS) $(LDLIBS)

$(PORT_DIR)/show-backoff-delays: $(PORT_DIR)/retry
	ln -sf retry $@

$(PORT_DIR)/unit: $(UNIT_SRCS) $(UNIT_HDRS) $(call unit_objs,$(PORT_DIR))
	$(CC) $(RETRY_CPPFLAGS) $(CPPFLAGS) $(RETRY_CFLAGS) $(CFLAGS) \
	    $(LDFLAGS) -o $@ $(UNIT_SRCS) $(call unit_objs,$(PORT_DIR)) \
	    $(DYN_LDLIBS) $(LDLIBS)

PORT_CMD =	$(CC) $(RETRY_CPPFLAGS) $(LAZY_CPPFLAGS) -DRETRY_PORTABLE \
		$(CPPFLAGS) $(RETRY_CFLAGS) $(CFLAGS)
$(eval $(call tree,$(PORT_DIR),PORT_CMD))

check-portable: portable $(PORT_DIR)/unit build/redis-replay build/sketch-replay
	RETRY=$(CURDIR)/$(PORT_DIR)/retry \
	    SHOW=$(CURDIR)/$(PORT_DIR)/show-backoff-delays \
	    UNIT=$(PORT_DIR)/unit RETRY_PORTABLE=1 ./tests/run

.PHONY: portable check-portable
