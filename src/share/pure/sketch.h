/*
 * A latency sketch: a compact, mergeable summary of how long a run's
 * attempts took, from which a quantile (p50, p99) is read back within
 * about 3.1%.  DDSketch's idea with a fixed layout: a duration in ns, as
 * a double, falls in the bucket of its exponent and its top 4 mantissa
 * bits (16 linear sub-buckets per power of two), whose value is its
 * midpoint.
 *
 * Recent samples weigh more: each add first multiplies every count (and
 * the total) by SKETCH_KEEP, so that a shift in latency is followed
 * within about 100 samples.  A count that falls below SKETCH_FLOOR is
 * dropped; when more than SKETCH_BUCKETS would be live, or the text would
 * not fit in SKETCH_TEXT_MAX, the lowest two buckets merge into the
 * higher one (DDSketch's collapse of the lowest): the high quantiles stay
 * exact.
 *
 * The text (sketch_text) is what a store keeps: "SAMPLES TOTAL
 * INDEX:COUNT ...", numbers as "%.6g" prints them.  An update is parse,
 * add, text (sketch_update), so the rounding of "%.6g" is part of the
 * rule; share/pure/sketch.lua is its twin, run by Redis, and comes to the
 * same text byte for byte.
 *
 * Pure.
 */
#ifndef RETRY_SKETCH_H
#define RETRY_SKETCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SKETCH_BUCKETS		32
#define SKETCH_KEEP		(1.0 - 1.0 / 64)
#define SKETCH_FLOOR		1e-3
/* The text with its NUL, at most. */
#define SKETCH_TEXT_MAX		384
/* A bucket's index, at most: exponent 63, 16 sub-buckets. */
#define SKETCH_INDEX_MAX	1023

struct sketch {
	uint64_t	 samples;	/* every sample ever added, saturating */
	double		 total;		/* the decayed weight of them all */
	unsigned	 n;		/* buckets live */
	struct {
		int16_t	 index;		/* exponent * 16 + top 4 bits */
		double	 count;		/* decayed weight, >= SKETCH_FLOOR */
	}		 b[SKETCH_BUCKETS];	/* sorted by index */
};

/* The bucket of a duration in ns; ns <= 0 is the lowest (1 ns), 0. */
int		 sketch_index(int64_t ns);
/* A bucket's value: its midpoint in ns, rounded, INT64_MAX at most. */
int64_t		 sketch_value(int index);
/* A bucket's bound: the least value of the next, above every sample of
 * its own; INT64_MAX at most. */
int64_t		 sketch_bound(int index);
/* Decays every count, then adds a sample of ns. */
void		 sketch_add(struct sketch *, int64_t ns);
/* The value at quantile q (held to [0, 1]) of the counts: that of the
 * bucket where their cumulative weight reaches q times their sum; -1
 * for an empty sketch. */
int64_t		 sketch_quantile(const struct sketch *, double q);
/* The same bucket's bound (sketch_bound): a limit that no sample of the
 * quantile's bucket reaches, as a hedge's delay or a timeout. */
int64_t		 sketch_quantile_bound(const struct sketch *, double q);
/* Writes the text, as snprintf does (its length is returned); with its
 * NUL it takes SKETCH_TEXT_MAX bytes at most. */
size_t		 sketch_text(const struct sketch *, char *, size_t);
/* Reads a text that sketch_text writes; anything else is refused
 * (false), and the sketch left empty. */
bool		 sketch_parse(const char *, struct sketch *);
/*
 * The rule a store applies: the sketch of text in (NULL or "": none yet)
 * with a sample of ns added, as text in out (SKETCH_TEXT_MAX bytes; it
 * may be in's).  false when in was malformed: the sketch started afresh.
 */
bool		 sketch_update(const char *in, int64_t ns, char *out, size_t);

#endif
