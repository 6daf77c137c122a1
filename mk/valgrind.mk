# A subset of the suite under valgrind's memcheck (not loop.bats, whose
# failed-exec tests need vfork's shared memory, which valgrind does not
# give), against a build of its own in build/valgrind.  Included by the
# Makefile, whose variables it uses.
#
# valgrind reads DWARF 4, not the DWARF 5 that clang writes by default,
# and cannot follow PCRE2's JIT code: its build matches with PCRE2's
# interpreter, the path of platforms without the JIT.

VG_DIR =	build/valgrind
VG_OBJS =	$(SRCS:src/%.c=$(VG_DIR)/%.o)
VALGRIND_TESTS = $(wildcard tests/smoke.bats tests/usage.bats \
		tests/strategies.bats tests/verdicts.bats \
		tests/environment.bats tests/streams.bats \
		tests/supervise.bats)

valgrind: $(VG_DIR)/retry $(VG_DIR)/show-backoff-delays
	./tests/run-under valgrind $(VALGRIND_TESTS)

$(VG_DIR)/retry: $(VG_OBJS)
	$(CC) $(RETRY_CFLAGS) $(CFLAGS) -gdwarf-4 $(LDFLAGS) -o $@ \
	    $(VG_OBJS) $(DYN_LDLIBS) $(LDLIBS)

$(VG_DIR)/show-backoff-delays: $(VG_DIR)/retry
	ln -sf retry $@

VG_CMD =	$(CC) $(RETRY_CPPFLAGS) $(LAZY_CPPFLAGS) -DRETRY_NO_JIT \
		$(CPPFLAGS) $(RETRY_CFLAGS) $(CFLAGS) -gdwarf-4
$(eval $(call tree,$(VG_DIR),VG_CMD))

.PHONY: valgrind
