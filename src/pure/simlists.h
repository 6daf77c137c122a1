/* simulate's lists: --clients, --failure-rate and --latency.  Pure. */
#ifndef RETRY_SIMLISTS_H
#define RETRY_SIMLISTS_H

#include <stddef.h>
#include <stdint.h>

/* simulate's --clients: how many clients at a time. */
#define CLIENTS_MAX	10000		/* one --clients value */
#define CLIENTS_LISTMAX	1000		/* values in one --clients LIST */

/*
 * Parses a --clients LIST ("10,50,100", "10-190:20") into out[0..cap-1]
 * and its length into *n; out and n may be NULL to check it only.  NULL
 * or why it is wrong.
 */
const char	*clients_parse(const char *, unsigned long *out, size_t cap,
		    size_t *n);

/*
 * Parses a --failure-rate LIST of probabilities ("0.5,0.9", "0.1-0.9:0.2")
 * into out[0..cap-1] and its length into *n, as clients_parse.
 */
#define RATES_MAX	100
const char	*rates_parse(const char *, double *out, size_t cap, size_t *n);

/*
 * A --latency LIST: durations an attempt takes, each with its chance, as
 * in "20ms,2s@5%" (2s one time in 20, 20ms the rest): items DUR@P% share
 * what the items without a chance leave, equally; the chances add up to
 * 100%.  In at, ascending, each once; p their chances, adding up to 1.
 */
#define LATENCY_MAX	16
struct latency {
	size_t		 n;
	int64_t		 at[LATENCY_MAX];	/* ns, more than 0 */
	double		 p[LATENCY_MAX];
};
/* Parses a --latency LIST into *out, which may be NULL to check it only:
 * NULL or why it is wrong. */
const char	*latency_parse(const char *, struct latency *out);

#endif
