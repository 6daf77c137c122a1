/* The latency sketch: buckets from a double's bits, decay, collapse. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sketch.h"

/* A sketch while a sample is added: one bucket more than it keeps. */
struct wide {
	unsigned	 n;
	struct {
		int16_t	 index;
		double	 count;
	}		 b[SKETCH_BUCKETS + 1];
};

/* The longest text of a number "%.6g" prints, and of a bucket's pair. */
#define NUMBER_MAX	24
#define PAIR_MAX	(1 + 6 + 1 + NUMBER_MAX)

int
sketch_index(int64_t ns)
{
	const double v = (double)(ns <= 0 ? 1 : ns);
	uint64_t bits;

	memcpy(&bits, &v, sizeof(bits));
	/* v >= 1: a normal double, its exponent 0 to 63. */
	return (int)((bits >> 52) - 1023) * 16 + (int)((bits >> 48) & 15);
}

/* num x 2^e / 2^k, with add (below 2^k) added before the division: the
 * value of a point of a bucket; INT64_MAX from 2^63. */
static int64_t
scaled(int e, uint64_t num, int k, uint64_t add)
{
	if (e >= 63)
		return INT64_MAX;
	if (e >= k)
		return (int64_t)(num << (e - k));
	return (int64_t)(((num << e) + add) >> k);
}

int64_t
sketch_value(int index)
{
	/* 2^e (1 + (m + 0.5) / 16) = 2^e (33 + 2m) / 32, below 2^(e + 1),
	 * rounded. */
	if (index < 0)
		return 1;
	return scaled(index / 16, (uint64_t)(33 + 2 * (index % 16)), 5, 16);
}

/* The length of a bucket's pair, its space before it. */
static size_t
pair_len(int index, double count)
{
	char pair[PAIR_MAX];
	const int len = snprintf(pair, sizeof(pair), " %d:%.6g", index, count);

	return len < 0 ? 0 : (size_t)len;
}

static size_t
text_len(uint64_t samples, double total, const struct wide *w)
{
	char head[2 * NUMBER_MAX];
	const int len = snprintf(head, sizeof(head), "%" PRIu64 " %.6g",
	    samples, total);
	size_t sum = len < 0 ? 0 : (size_t)len;

	for (unsigned i = 0; i < w->n; i++)
		sum += pair_len(w->b[i].index, w->b[i].count);
	return sum;
}

/* Merges the lowest two buckets into the higher one while more than
 * SKETCH_BUCKETS are live or the text would not fit. */
static void
collapse(uint64_t samples, double total, struct wide *w)
{
	while (w->n >= 2 && (w->n > SKETCH_BUCKETS ||
	    text_len(samples, total, w) >= SKETCH_TEXT_MAX)) {
		w->b[1].count += w->b[0].count;
		memmove(&w->b[0], &w->b[1], (w->n - 1) * sizeof(w->b[0]));
		w->n--;
	}
}

static void
widen(const struct sketch *s, struct wide *w)
{
	w->n = s->n > SKETCH_BUCKETS ? SKETCH_BUCKETS : s->n;
	for (unsigned i = 0; i < w->n; i++) {
		w->b[i].index = s->b[i].index;
		w->b[i].count = s->b[i].count;
	}
}

static void
narrow(const struct wide *w, struct sketch *s)
{
	s->n = w->n;
	for (unsigned i = 0; i < w->n; i++) {
		s->b[i].index = w->b[i].index;
		s->b[i].count = w->b[i].count;
	}
}

void
sketch_add(struct sketch *s, int64_t ns)
{
	const int16_t index = (int16_t)sketch_index(ns);
	struct wide w;
	unsigned i, kept;

	widen(s, &w);
	for (i = 0; i < w.n; i++)
		w.b[i].count = w.b[i].count * SKETCH_KEEP;
	s->total = s->total * SKETCH_KEEP + 1;
	if (s->samples < UINT64_MAX)
		s->samples++;
	for (i = 0; i < w.n && w.b[i].index < index; i++)
		continue;
	if (i < w.n && w.b[i].index == index)
		w.b[i].count += 1;
	else {
		memmove(&w.b[i + 1], &w.b[i], (w.n - i) * sizeof(w.b[0]));
		w.b[i].index = index;
		w.b[i].count = 1;
		w.n++;
	}
	for (i = kept = 0; i < w.n; i++)
		if (!(w.b[i].count < SKETCH_FLOOR))
			w.b[kept++] = w.b[i];
	w.n = kept;
	collapse(s->samples, s->total, &w);
	narrow(&w, s);
}

/* The bucket where the cumulative weight reaches q times the sum of the
 * counts, or -1 for an empty sketch. */
static int
quantile_index(const struct sketch *s, double q)
{
	const unsigned n = s->n > SKETCH_BUCKETS ? SKETCH_BUCKETS : s->n;
	double sum = 0, cum = 0;
	unsigned i;

	if (n == 0)
		return -1;
	if (!(q > 0))
		q = 0;
	else if (q > 1)
		q = 1;
	for (i = 0; i < n; i++)
		sum += s->b[i].count;
	for (i = 0; i + 1 < n; i++)
		if ((cum += s->b[i].count) >= q * sum)
			break;
	return s->b[i].index;
}

int64_t
sketch_quantile(const struct sketch *s, double q)
{
	const int i = quantile_index(s, q);

	return i < 0 ? -1 : sketch_value(i);
}

int64_t
sketch_bound(int index)
{
	/* The next bucket's least value, 2^e (16 + m) / 16, rounded up. */
	if (index < 0)
		return 1;
	return scaled((index + 1) / 16, (uint64_t)(16 + (index + 1) % 16), 4,
	    15);
}

int64_t
sketch_quantile_bound(const struct sketch *s, double q)
{
	const int i = quantile_index(s, q);

	return i < 0 ? -1 : sketch_bound(i);
}

size_t
sketch_text(const struct sketch *s, char *buf, size_t sz)
{
	char text[SKETCH_TEXT_MAX + PAIR_MAX];
	struct wide w;
	size_t len;
	int k;

	/* One that sketch_add made fits already; any other is made to. */
	widen(s, &w);
	collapse(s->samples, s->total, &w);
	k = snprintf(text, sizeof(text), "%" PRIu64 " %.6g", s->samples,
	    s->total);
	len = k < 0 ? 0 : (size_t)k;
	for (unsigned i = 0; i < w.n && len < sizeof(text); i++) {
		k = snprintf(text + len, sizeof(text) - len, " %d:%.6g",
		    w.b[i].index, w.b[i].count);
		len += k < 0 ? 0 : (size_t)k;
	}
	if (len >= sizeof(text))
		len = sizeof(text) - 1;
	if (sz > 0)
		snprintf(buf, sz, "%.*s", (int)len, text);
	return len;
}

/* A whole number without a sign or a leading zero, at most max. */
static bool
whole(const char *tok, size_t len, uint64_t max, uint64_t *v)
{
	char *end;

	if (len == 0 || len > 20 || (tok[0] == '0' && len > 1))
		return false;
	for (size_t i = 0; i < len; i++)
		if (tok[i] < '0' || tok[i] > '9')
			return false;
	errno = 0;
	*v = strtoull(tok, &end, 10);
	return errno == 0 && end == tok + len && *v <= max;
}

/* A number as "%.6g" prints it, finite and not negative: exactly what
 * printing what it reads gives back. */
static bool
number(const char *tok, size_t len, double *v)
{
	char copy[NUMBER_MAX + 1], again[NUMBER_MAX + 1];
	char *end;

	if (len == 0 || len > NUMBER_MAX || tok[0] < '0' || tok[0] > '9')
		return false;
	memcpy(copy, tok, len);
	copy[len] = '\0';
	*v = strtod(copy, &end);
	if (end != copy + len || !(*v >= 0 && isfinite(*v)))
		return false;
	snprintf(again, sizeof(again), "%.6g", *v);
	return strcmp(again, copy) == 0;
}

bool
sketch_parse(const char *text, struct sketch *s)
{
	const char *p = text, *tok, *colon;
	uint64_t v;
	size_t len;
	double d;
	int last = -1;

	*s = (struct sketch){ 0 };
	if (strlen(text) >= SKETCH_TEXT_MAX)
		return false;
	len = strcspn(p, " ");
	if (!whole(p, len, UINT64_MAX, &s->samples) || p[len] != ' ')
		goto bad;
	p += len + 1;
	len = strcspn(p, " ");
	if (!number(p, len, &s->total))
		goto bad;
	for (p += len; *p != '\0'; p += len) {
		tok = ++p;
		len = strcspn(tok, " ");
		colon = memchr(tok, ':', len);
		if (colon == NULL || s->n == SKETCH_BUCKETS ||
		    !whole(tok, (size_t)(colon - tok), SKETCH_INDEX_MAX, &v) ||
		    (int)v <= last ||
		    !number(colon + 1, len - (size_t)(colon + 1 - tok), &d) ||
		    d < SKETCH_FLOOR)
			goto bad;
		last = (int)v;
		s->b[s->n].index = (int16_t)v;
		s->b[s->n++].count = d;
	}
	return true;
bad:
	*s = (struct sketch){ 0 };
	return false;
}

bool
sketch_update(const char *in, int64_t ns, char *out, size_t sz)
{
	struct sketch s = { 0 };
	bool ok = true;

	if (in != NULL && *in != '\0')
		ok = sketch_parse(in, &s);
	sketch_add(&s, ns);
	sketch_text(&s, out, sz);
	return ok;
}
