/*
 * retry simulate's hedging model: what "The Tail at Scale" (Dean and
 * Barroso, CACM 2013) does to a command whose latency has a tail.  Every
 * attempt succeeds, in a time drawn from a --latency LIST, each attempt's
 * on its own; three ways to run it:
 *
 *   none     one attempt, however long it takes;
 *   timeout  --timeout DUR, retried at once: an attempt that has run DUR
 *            is stopped and the next one started;
 *   hedge    --hedge DUR:N: an attempt that has run DUR without ending
 *            gets the next one started beside it, up to N in flight; the
 *            first to end ends the run.
 *
 * The latencies are a few values, so the model is exact, not drawn: the
 * run's latency is the minimum over the attempts i < N of i x DUR + L_i,
 * which an attempt never started does not change (one had ended before
 * its turn), and attempt i starts when none has ended by i x DUR.  Pure.
 */
#ifndef RETRY_HEDGEMODEL_H
#define RETRY_HEDGEMODEL_H

#include <stdint.h>

#include "hedging.h"
#include "simlists.h"

/* The latency where --hedge is given without --latency: 95% of attempts
 * take 20ms, 5% take 2s. */
#define LATENCY_DEFAULT	"20ms,2s@5%"

enum tail_kind { TAIL_NONE, TAIL_TIMEOUT, TAIL_HEDGE, TAIL_COUNT };

/* A run's latency at three percentiles (ns; -1: a run never ends), and
 * the attempts a run starts, on average (INFINITY: without end). */
struct tail_result {
	int64_t		 p50, p99, p999;
	double		 calls;
};

/* The q-th quantile of one attempt's latency: the least latency that
 * that share of attempts takes or less (the 95th percentile: q 0.95). */
int64_t		 latency_quantile(const struct latency *, double q);

/* The three ways to run, with h's DUR as the timeout too, into out[k] for
 * each kind k. */
void		 tail_model(const struct latency *, const struct hedge *h,
		    struct tail_result out[TAIL_COUNT]);

#endif
