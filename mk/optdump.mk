# build/optdump: the option table (src/cli/optable.c), one line an option of
# each face, which tests/optable.bats checks the completions and the
# manuals against.  Included by the Makefile, whose variables it uses.

OPTABLE_OBJ =	$(filter %/optable.o,$(OBJS))

build/optdump: tests/optable/dump.c $(OPTABLE_OBJ)
	$(CC) $(RETRY_CPPFLAGS) $(CPPFLAGS) $(RETRY_CFLAGS) $(CFLAGS) \
	    $(LDFLAGS) -o $@ tests/optable/dump.c $(OPTABLE_OBJ) $(LDLIBS)

# The suites that run tests/optable.bats.
check check-static check-portable: build/optdump
