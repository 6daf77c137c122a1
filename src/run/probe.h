/* An attempt that is a probe (probeurl.h): no process, a connection
 * made inside the one wait and closed once accepted. */
#ifndef RETRY_PROBE_H
#define RETRY_PROBE_H

#include <stddef.h>
#include <stdint.h>

#include "attempt.h"

/* The status of a probe that was refused or could not connect, as nc -z's
 * and wait-for-it's. */
#define PROBE_FAILED	1

struct config;
struct reporter;

/*
 * One attempt of the probe that c names: connects to each address its
 * host has in turn (or to its socket's path) until one accepts, within
 * timeout ns, else what is left of the budget for an attempt that starts
 * at start ns into the run (-1: neither).  r says how it ended: status 0
 * (the connection accepted, then closed), PROBE_FAILED (what refused is
 * said), 124 and timed_out (what did not answer is said), or interrupted
 * by a signal that ends the run.
 */
void		 probe_attempt(const struct config *c, const struct reporter *,
		    int64_t timeout, int64_t start, struct attempt_result *r);

#endif
