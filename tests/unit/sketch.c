/*
 * The latency sketch: the rows of sketch_rows.h (which Redis's twin
 * replays too), its quantiles against exact ones, its error bound, the
 * decay, the collapse, and its text read back or refused.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sketch.h"
#include "sketch_rows.h"
#include "unit.h"

/* The relative error of a bucket's midpoint, 1/32, and a little more. */
#define BOUND	0.032
#define VALUES_MAX	1024

/* A row's updates, each through the text, as a store makes them. */
struct chain {
	char	 text[SKETCH_TEXT_MAX];
	bool	 refused;	/* the first text was */
	bool	 first;
	size_t	 longest;	/* the longest text of any step */
	bool	 unread;	/* a step's text that did not read back */
	int64_t	 values[VALUES_MAX];	/* the durations, in order */
	size_t	 n;
};

static void
chain_step(void *arg, int64_t ns)
{
	struct chain *c = arg;
	char again[SKETCH_TEXT_MAX];
	struct sketch s;
	const bool ok = sketch_update(c->text, ns, c->text, sizeof(c->text));

	if (c->first)
		c->refused = !ok;
	c->first = false;
	if (strlen(c->text) > c->longest)
		c->longest = strlen(c->text);
	if (!sketch_parse(c->text, &s))
		c->unread = true;
	sketch_text(&s, again, sizeof(again));
	if (strcmp(again, c->text) != 0)
		c->unread = true;
	if (c->n < VALUES_MAX)
		c->values[c->n++] = ns;
}

static void
chain_run(struct chain *c, const char *from, const char *values)
{
	memset(c, 0, sizeof(*c));
	snprintf(c->text, sizeof(c->text), "%s", from);
	c->first = true;
	sketch_row_values(values, chain_step, c);
}

static double
off(int64_t got, int64_t want)
{
	const double d = (double)got - (double)want;

	return (d < 0 ? -d : d) / (double)want;
}

/* The exact quantile q of the durations, each weighed as the sketch
 * weighs it: SKETCH_KEEP to the power of the samples after it. */
static int64_t
exact(const struct chain *c, double q)
{
	static int64_t v[VALUES_MAX];
	static double w[VALUES_MAX];
	double weight = 1, sum = 0, cum = 0;
	size_t i, j;

	for (i = c->n; i-- > 0; weight *= SKETCH_KEEP) {
		for (j = c->n - 1 - i; j > 0 && v[j - 1] > c->values[i]; j--) {
			v[j] = v[j - 1];
			w[j] = w[j - 1];
		}
		v[j] = c->values[i];
		w[j] = weight;
		sum += weight;
	}
	for (i = 0; i + 1 < c->n; i++)
		if ((cum += w[i]) >= q * sum)
			break;
	return v[i];
}

static void
rows_rule(void)
{
	static struct chain c;

	for (size_t i = 0; i < sizeof(sketch_rows) / sizeof(sketch_rows[0]);
	    i++) {
		const struct sketch_row *r = &sketch_rows[i];

		chain_run(&c, r->from, r->values);
		unit_row(strcmp(c.text, r->want) == 0 &&
		    c.refused == r->refused, "sketch", r->name,
		    "'%s'%s, not '%s'%s", c.text, c.refused ? " (refused)" : "",
		    r->want, r->refused ? " (refused)" : "");
		unit_row(c.longest < SKETCH_TEXT_MAX && !c.unread, "sketch",
		    r->name, "the longest text %zu bytes (at most %d), %s",
		    c.longest, SKETCH_TEXT_MAX - 1,
		    c.unread ? "one not read back" : "each read back");
	}
}

static void
rows_quantile(void)
{
	static const struct {
		const char	*name;
		const char	*values;
		double		 q;
		int64_t		 want;	/* 0: the exact quantile */
	} rows[] = {
		{ "one value: p50", "20000000", 0.5, 20000000 },
		{ "one value: p0", "20000000", 0, 20000000 },
		{ "one value: p100", "20000000", 1, 20000000 },
		{ "95% at 20ms, 5% at 2s: p50",
		  "20000000*19 2000000000 20000000*19 2000000000 "
		  "20000000*19 2000000000 20000000*19 2000000000 "
		  "20000000*19 2000000000", 0.5, 20000000 },
		{ "95% at 20ms, 5% at 2s: p99",
		  "20000000*19 2000000000 20000000*19 2000000000 "
		  "20000000*19 2000000000 20000000*19 2000000000 "
		  "20000000*19 2000000000", 0.99, 2000000000 },
		{ "95% at 20ms, 5% at 2s, ending on 20ms: p99",
		  "2000000000 20000000*19 2000000000 20000000*19 "
		  "2000000000 20000000*19 2000000000 20000000*19 "
		  "2000000000 20000000*19", 0.99, 2000000000 },
		{ "decay: 200 at 20ms, 150 at 60ms: p50",
		  "20000000*200 60000000*150", 0.5, 60000000 },
		{ "decay: 200 at 20ms, 44 at 60ms: p50 already",
		  "20000000*200 60000000*44", 0.5, 60000000 },
		{ "decay: 200 at 20ms, 150 at 60ms: p5 still 20ms",
		  "20000000*200 60000000*150", 0.05, 20000000 },
		{ "collapse upwards: p99", "b160-359", 0.99, 0 },
		{ "collapse upwards: p90", "b160-359", 0.9, 0 },
		{ "collapse downwards: p99", "b359-160", 0.99, 0 },
		{ "held to [0, 1]: q 2", "1000 20000000", 2, 20000000 },
		{ "held to [0, 1]: q -1", "1000 20000000", -1, 1000 },
	};
	static struct chain c;
	struct sketch s;

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		int64_t got, want;

		chain_run(&c, "", rows[i].values);
		want = rows[i].want != 0 ? rows[i].want :
		    exact(&c, rows[i].q);
		got = sketch_parse(c.text, &s) ?
		    sketch_quantile(&s, rows[i].q) : -2;
		unit_row(got > 0 && off(got, want) <= BOUND, "sketch",
		    rows[i].name, "%" PRId64 ", not %" PRId64 " within 3.2%%",
		    got, want);
	}
	chain_run(&c, "", "b160-359");
	(void)sketch_parse(c.text, &s);
	unit_row(s.n <= SKETCH_BUCKETS && s.n >= SKETCH_BUCKETS - 4,
	    "sketch", "collapse: 200 buckets kept in 32 at most",
	    "%u buckets", s.n);
	s = (struct sketch){ 0 };
	unit_row(sketch_quantile(&s, 0.5) == -1, "sketch", "empty: -1",
	    "%" PRId64, sketch_quantile(&s, 0.5));
	unit_row(sketch_parse("0 0", &s) && sketch_quantile(&s, 0.99) == -1,
	    "sketch", "empty, read from its text: -1", "%" PRId64,
	    sketch_quantile(&s, 0.99));
}

/* A sample alone: the worst relative error of its bucket's value yet. */
static void
alone(int64_t v, double *worst, int64_t *at)
{
	struct sketch s = { 0 };
	double d;

	sketch_add(&s, v);
	if ((d = off(sketch_quantile(&s, 0.5), v)) > *worst) {
		*worst = d;
		*at = v;
	}
}

/* A sample alone, from 1us to a day: its bucket's value within 1/32. */
static void
rows_error(void)
{
	static const int64_t edges[] = { 1000, 1023, 1024, 1087, 1088,
	    16777216, 17825791, 17825792, 33554431, 86400000000000 };
	double worst = 0, x = 1000;
	int64_t at = 0;

	while (x <= 86400e9) {
		alone((int64_t)x, &worst, &at);
		x *= 1.0073;
	}
	for (size_t k = 0; k < sizeof(edges) / sizeof(edges[0]); k++)
		alone(edges[k], &worst, &at);
	unit_row(worst <= 1.0 / 32, "sketch",
	    "the relative error, from 1us to a day, is 1/32 at most",
	    "%.4f%% at %" PRId64, worst * 100, at);
}

static void
rows_index(void)
{
	static const struct {
		int64_t		 ns;
		int		 index;
		int64_t		 value;
	} rows[] = {
		{ -1, 0, 1 }, { 0, 0, 1 }, { 1, 0, 1 }, { 2, 16, 2 },
		{ 3, 24, 3 }, { 31, 79, 32 }, { 32, 80, 33 },
		{ 1024, 160, 1056 }, { 1087, 160, 1056 }, { 1088, 161, 1120 },
		{ 20000000, 387, 20447232 },
		{ INT64_MAX, 1008, INT64_MAX },
		{ INT64_C(4611686018427387904), 992, INT64_C(4755801206503243776) },
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const int got = sketch_index(rows[i].ns);

		unit_row(got == rows[i].index &&
		    sketch_value(got) == rows[i].value, "sketch", "index",
		    "%" PRId64 ": bucket %d, %" PRId64 "; not %d, %" PRId64,
		    rows[i].ns, got, sketch_value(got), rows[i].index,
		    rows[i].value);
	}
}

/* A bucket's bound is the next one's least value, above every sample of
 * its own: a hedge at a quantile's bound starts for none of them. */
static void
rows_bound(void)
{
	static const struct {
		int		 index;
		int64_t		 bound;
	} rows[] = {
		{ -1, 1 }, { 0, 2 }, { 16, 3 }, { 79, 32 }, { 160, 1088 },
		{ 387, 20971520 }, { 1007, INT64_MAX }, { 1008, INT64_MAX },
	};
	struct sketch s;

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const int64_t got = sketch_bound(rows[i].index);

		unit_row(got == rows[i].bound, "sketch", "bound",
		    "bucket %d: %" PRId64 ", not %" PRId64, rows[i].index,
		    got, rows[i].bound);
	}
	for (int64_t ns = 1; ns < INT64_MAX / 3; ns = ns * 3 + 1)
		unit_row(sketch_bound(sketch_index(ns)) > ns &&
		    sketch_value(sketch_index(ns)) < sketch_bound(
		    sketch_index(ns)), "sketch", "bound above",
		    "%" PRId64 ": bound %" PRId64, ns,
		    sketch_bound(sketch_index(ns)));
	memset(&s, 0, sizeof(s));
	unit_row(sketch_quantile_bound(&s, 0.95) == -1, "sketch",
	    "bound of none", "an empty sketch has no bound");
	for (int i = 0; i < 95; i++)
		sketch_add(&s, 20000000);
	for (int i = 0; i < 5; i++)
		sketch_add(&s, 2000000000);
	unit_row(sketch_quantile_bound(&s, 0.9) == 20971520, "sketch",
	    "bound of p90", "95 at 20ms, 5 at 2s: %" PRId64,
	    sketch_quantile_bound(&s, 0.9));
	unit_row(sketch_quantile_bound(&s, 0.999) ==
	    sketch_bound(sketch_index(2000000000)), "sketch", "bound of p99.9",
	    "95 at 20ms, 5 at 2s: %" PRId64, sketch_quantile_bound(&s, 0.999));
}

static void
rows_text(void)
{
	static const char *const good[] = {
		"0 0", "1 1 387:1", "340 49.8 387:3.5 388:20.1",
		"18446744073709551615 64 0:1 1023:63",
		"5 2.5 0:0.001 1:1e+06 2:64",
	};
	static const char *const bad[] = {
		"", " ", "1", "1 ", " 1 1", "1 1 ", "1  1", "1\t1", "1 1\n",
		"a 1", "-1 1", "+1 1", "01 1", "1 -0", "1 +1", "1 .5", "1 1.",
		"1 1.0", "1 1.50", "1 1e0", "1 1e5", "1 0x1", "1 inf", "1 nan",
		"1 1e999", "18446744073709551616 1", "99999999999999999999 1",
		"1 1 387", "1 1 387:", "1 1 :1", "1 1 387:1:1", "1 1 387;1",
		"1 1 0387:1", "1 1 -1:1", "1 1 1024:1", "1 1 65536:1",
		"1 1 387:0.0009", "1 1 387:0", "1 1 387:1 387:1",
		"1 1 388:1 387:1", "1 1 387:1  388:1",
	};
	char text[SKETCH_TEXT_MAX * 2], again[SKETCH_TEXT_MAX];
	struct sketch s;
	size_t len;

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		const bool ok = sketch_parse(good[i], &s);

		sketch_text(&s, again, sizeof(again));
		unit_row(ok && strcmp(again, good[i]) == 0, "sketch text",
		    good[i], "%s: '%s'", ok ? "read" : "refused", again);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const bool ok = sketch_parse(bad[i], &s);

		unit_row(!ok && s.n == 0 && s.samples == 0 && s.total == 0,
		    "sketch text", bad[i], "%s, %u buckets",
		    ok ? "read" : "refused", s.n);
	}
	/* 33 pairs; and a text as long as a sketch's can be, and one more. */
	len = (size_t)snprintf(text, sizeof(text), "33 33");
	for (int i = 0; i < 33; i++)
		len += (size_t)snprintf(text + len, sizeof(text) - len, " %d:1",
		    100 + i);
	unit_row(!sketch_parse(text, &s), "sketch text", "33 buckets",
	    "read");
	len = (size_t)snprintf(text, sizeof(text), "1 1");
	for (int i = 0; len < SKETCH_TEXT_MAX; i++)
		len += (size_t)snprintf(text + len, sizeof(text) - len,
		    " %d:0.00123457", 100 + i);
	unit_row(!sketch_parse(text, &s), "sketch text",
	    "longer than SKETCH_TEXT_MAX", "read %zu bytes", len);
	/* A sketch made by hand, of 32 long pairs: made to fit. */
	s = (struct sketch){ .samples = UINT64_MAX, .total = 0.00123457 };
	for (s.n = 0; s.n < SKETCH_BUCKETS; s.n++) {
		s.b[s.n].index = (int16_t)(990 + s.n);
		s.b[s.n].count = 0.00123457;
	}
	len = sketch_text(&s, text, sizeof(text));
	unit_row(len < SKETCH_TEXT_MAX && len == strlen(text) &&
	    sketch_parse(text, &s), "sketch text",
	    "one made by hand is made to fit", "%zu bytes: %s", len, text);
	len = sketch_text(&s, again, 8);
	unit_row(len > 8 && strlen(again) == 7, "sketch text",
	    "cut as snprintf cuts", "%zu, '%s'", len, again);
}

void
unit_sketch(void)
{
	rows_bound();
	rows_rule();
	rows_quantile();
	rows_error();
	rows_index();
	rows_text();
}
