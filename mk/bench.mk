# Benchmarks (bench/README.md); not part of CI.  Included by the
# Makefile, whose variables it uses.

BENCH_PROGS =	bench/pairtime bench/peakrss bench/spawnloop bench/redisping \
		bench/slowtail
CLEANFILES +=	$(BENCH_PROGS)

bench: all $(BENCH_PROGS)
	$(MAKE) static || echo "make bench: no static binary; its rows are left out" >&2
	$(MAKE) musl || echo "make bench: no musl binary; its rows are left out" >&2
	./bench/run

bench-deps:
	./bench/deps

# A fleet of real retry processes, with and without --share, against a
# flaky local HTTP service, beside retry simulate's model.
fleet: all
	RETRY='$(or $(RETRY),$(CURDIR)/retry)' ./bench/fleet

# Hedged attempts on real processes: a command with a heavy tail (95% of
# calls 20ms, 5% 2s), RUNS runs (default 1000) alone, with --timeout and
# with --hedge, beside retry simulate's hedging model.
hedge: all bench/slowtail
	RETRY='$(or $(RETRY),$(CURDIR)/retry)' HEDGE_RUNS='$(or $(RUNS),1000)' \
	    ./bench/hedge

$(BENCH_PROGS): bench/%: bench/%.c mk/bench.mk
	$(CC) -D_GNU_SOURCE $(CPPFLAGS) $(RETRY_CFLAGS) $(CFLAGS) $(LDFLAGS) \
	    $(if $(filter bench/redisping,$@),$(SSL_CFLAGS)) -o $@ $< \
	    $(if $(filter bench/redisping,$@),$(HIREDIS_LIBS) $(SSL_LIBS)) \
	    $(LDLIBS)

.PHONY: bench bench-deps fleet hedge
