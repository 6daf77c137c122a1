/*
 * show-backoff-delays and retry --dry-run: the engine driven by a list of
 * statuses, or by a run in which every attempt fails, instead of by real
 * attempts.  Replaying and the statistics are pure; printing and drawing
 * take their results.
 */
#include <sys/ioctl.h>

#include <ctype.h>
#include <err.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "duration.h"
#include "engine.h"
#include "exits.h"
#include "lists.h"
#include "mathlib.h"
#include "number.h"
#include "policy.h"
#include "shared.h"
#include "show.h"
#include "store.h"

/* One event of a replay and the delay that the policy gave for it. */
struct step {
	unsigned long	 n;		/* 1-based */
	struct entry	 st;
	struct delay	 d;		/* d.ns < 0: gives up, for d.why */
};

/* A replay in progress. */
struct replay {
	const struct config *c;
	struct limits	 l;
	struct policy	 pol;
	bool		 statuses;	/* replays STATUS, else all-failing */
	unsigned long	 limit;		/* steps at most */
	unsigned long	 done;
	double		 prev;		/* the previous entry's time, s */
	int64_t		 at;		/* all-failing: the next failure, ns */
	bool		 over;
};

/* One step of --samples: statistics over the runs that go on. */
struct stats {
	unsigned long	 n;
	unsigned long	 runs;		/* runs whose delay is not -1 */
	double		 min, median, p90, max;	/* -1 when runs is 0 */
};

/* The chart's columns: STEP [STATUS] LABEL BAR. */
struct layout {
	int		 step_w, label_w, bar_w;
	bool		 statuses, ascii;
	double		 max;		/* the delay drawn bar_w wide */
};

typedef char numbuf[NUMBER_BUFSZ];

/* Unicode blocks: a whole cell, and the left 1/8 to 7/8 of one. */
static const char full_block[] = "\xe2\x96\x88";		/* U+2588 */
static const char *const eighths[8] = {
	"", "\xe2\x96\x8f", "\xe2\x96\x8e", "\xe2\x96\x8d", "\xe2\x96\x8c",
	"\xe2\x96\x8b", "\xe2\x96\x8a", "\xe2\x96\x89",	/* U+258F..U+2589 */
};

/* Room for n + 1 elements of size sz in *p; false when out of memory. */
static bool
grow(void *p, size_t *cap, size_t n, size_t sz)
{
	void *t;
	size_t c;

	if (n < *cap)
		return true;
	c = *cap > 0 ? *cap * 2 : 16;
	if ((t = reallocarray(*(void **)p, c, sz)) == NULL)
		return false;
	*(void **)p = t;
	*cap = c;
	return true;
}

/* A replay asks the policy as retry does; in show-backoff-delays, a
 * success does not end it (STATUS goes on after one). */
static void
replay_init(struct replay *r, const struct config *c, struct rng *rng,
    unsigned long limit)
{
	memset(r, 0, sizeof(*r));
	r->c = c;
	r->statuses = c->mode == MODE_SHOW && c->nargs > 0;
	r->limit = r->statuses ? (unsigned long)c->nargs : limit;
	r->l = c->limits;
	r->l.forever = r->l.forever || c->mode == MODE_SHOW;
	policy_init(&r->pol, &c->backoff, &r->l, &c->verdict, rng);
}

/*
 * The next step of a run; false when it is over.  In an all-failing run
 * each attempt fails at once, when the previous delay ends, and the run
 * ends where the strategy gives up.  The options checked the statuses.
 */
static bool
replay_step(struct replay *r, struct step *s)
{
	const struct config *c = r->c;
	struct observed o = { .status = 1 };

	if (r->over || r->done >= r->limit)
		return false;
	memset(s, 0, sizeof(*s));
	s->n = ++r->done;
	if (r->statuses)
		(void)entry_parse(c->args[s->n - 1], r->prev, &s->st);
	else
		s->st.time = (double)r->at / 1e9;
	r->prev = s->st.time;
	o.status = s->st.success ? 0 : 1;
	o.start = o.end = r->statuses ?
	    sat_from_ldouble((long double)s->st.time * 1e9L) : r->at;
	o.end_s = s->st.time;
	s->d = policy_next(&r->pol, &o).delay;
	if (!r->statuses) {
		r->over = s->d.ns < 0;
		r->at = sat_add(r->at, s->d.ns < 0 ? 0 : s->d.ns);
	}
	return true;
}

static int
compare(const void *a, const void *b)
{
	const double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Min, median, p90 (nearest rank) and max of v[0..n-1], n > 0; sorts v. */
static void
stats_compute(double *v, size_t n, struct stats *s)
{
	qsort(v, n, sizeof(*v), compare);
	s->runs = n;
	s->min = v[0];
	s->median = n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	s->p90 = v[(9 * n + 9) / 10 - 1];
	s->max = v[n - 1];
}

/*
 * --samples: N runs that go in step, so that memory grows with the number
 * of runs, not with the number of steps.  They draw from one generator in
 * turn, so a seed gives the same statistics every time.
 */
struct sampler {
	struct replay	*runs;
	size_t		 nruns;
	double		*v;		/* this step's delays */
};

static const char *
sampler_init(struct sampler *sp, const struct config *c, struct rng *rng)
{
	sp->nruns = c->samples;
	sp->runs = calloc(sp->nruns, sizeof(*sp->runs));
	sp->v = calloc(sp->nruns, sizeof(*sp->v));
	if (sp->runs == NULL || sp->v == NULL)
		return "out of memory";
	for (size_t j = 0; j < sp->nruns; j++)
		replay_init(&sp->runs[j], c, rng, c->count);
	return NULL;
}

static void
sampler_free(struct sampler *sp)
{
	free(sp->runs);
	free(sp->v);
}

/* One step of every run; false when none of them has a step left. */
static bool
sampler_step(struct sampler *sp, struct stats *x)
{
	struct step s;
	size_t m = 0;
	bool any = false;

	*x = (struct stats){ 0, 0, -1, -1, -1, -1 };
	for (size_t j = 0; j < sp->nruns; j++) {
		if (!replay_step(&sp->runs[j], &s))
			continue;
		any = true;
		x->n = s.n;
		if (s.d.ns >= 0)
			sp->v[m++] = s.d.s;
	}
	if (m > 0)
		stats_compute(sp->v, m, x);
	return any;
}

/*
 * A number as Perl prints it: %.15g (number_format, which spares most
 * numbers printf's multi-precision arithmetic), with Perl's spelling of
 * Inf and NaN.
 */
static const char *
num(numbuf buf, double v)
{
	if (isnan(v))
		return "NaN";
	if (isinf(v))
		return v > 0 ? "Inf" : "-Inf";
	(void)number_format(v, buf, sizeof(numbuf));
	return buf;
}

/* JSON has no Inf or NaN: null. */
static const char *
jnum(numbuf buf, double v)
{
	return isfinite(v) ? num(buf, v) : "null";
}

static double
in_unit(const struct config *c, double s)
{
	return (c->unit == UNIT_MS) && s >= 0 ? s * 1000 : s;
}

static void
print_header(const struct config *c, bool samples)
{
	const char *u = (c->unit == UNIT_MS) ? "ms" : "s";
	char h[4][16];

	switch (c->format) {
	case FORMAT_PLAIN:
		return;
	case FORMAT_TABLE:
		snprintf(h[0], sizeof(h[0]), "%s (%s)",
		    samples ? "min" : "time", u);
		snprintf(h[1], sizeof(h[1]), "%s (%s)",
		    samples ? "median" : "delay", u);
		snprintf(h[2], sizeof(h[2]), "p90 (%s)", u);
		snprintf(h[3], sizeof(h[3]), "max (%s)", u);
		if (samples)
			printf("%-6s %-6s %-12s %-12s %-12s %s\n", "step",
			    "runs", h[0], h[1], h[2], h[3]);
		else
			printf("%-6s %-7s %-12s %s\n", "step", "status", h[0],
			    h[1]);
		return;
	case FORMAT_CSV:
		if (samples)
			printf("step,runs,min_%s,median_%s,p90_%s,max_%s\n", u,
			    u, u, u);
		else
			printf("step,status,time_%s,delay_%s\n", u, u);
		return;
	case FORMAT_JSON:
		fputs("[\n", stdout);
		return;
	}
}

static void
print_step(const struct config *c, const struct step *s, bool first)
{
	const double t = in_unit(c, s->st.time), d = in_unit(c, s->d.s);
	const int ok = s->st.success ? 1 : 0;
	numbuf a, b;
	size_t n;

	switch (c->format) {
	case FORMAT_PLAIN:
		/*
		 * The common case, and the long one: one write to the buffer.
		 * A finite %.15g takes 22 bytes at most, so the newline fits.
		 */
		if (isfinite(d)) {
			n = number_format(d, b, sizeof(b) - 1);
			b[n++] = '\n';
			fwrite(b, 1, n, stdout);
		} else
			printf("%s\n", num(b, d));
		break;
	case FORMAT_TABLE:
		printf("%-6lu %-7s %-12s %s\n", s->n, ok ? "success" :
		    "failure", num(a, t), num(b, d));
		break;
	case FORMAT_CSV:
		printf("%lu,%d,%s,%s\n", s->n, ok, num(a, t), num(b, d));
		break;
	case FORMAT_JSON:
		printf("%s  {\"step\": %lu, \"status\": %d, \"time\": %s, "
		    "\"delay\": %s}", first ? "" : ",\n", s->n, ok, jnum(a, t),
		    jnum(b, d));
		break;
	}
}

static void
print_stats(const struct config *c, const struct stats *s, bool first)
{
	numbuf a, b, p, m;
	const char *lo = num(a, in_unit(c, s->min));
	const char *mid = num(b, in_unit(c, s->median));
	const char *p90 = num(p, in_unit(c, s->p90));
	const char *hi = num(m, in_unit(c, s->max));

	switch (c->format) {
	case FORMAT_PLAIN:
		printf("%s %s %s %s\n", lo, mid, p90, hi);
		break;
	case FORMAT_TABLE:
		printf("%-6lu %-6lu %-12s %-12s %-12s %s\n", s->n, s->runs,
		    lo, mid, p90, hi);
		break;
	case FORMAT_CSV:
		printf("%lu,%lu,%s,%s,%s,%s\n", s->n, s->runs, lo, mid, p90,
		    hi);
		break;
	case FORMAT_JSON:
		printf("%s  {\"step\": %lu, \"runs\": %lu, \"min\": %s, "
		    "\"median\": %s, \"p90\": %s, \"max\": %s}",
		    first ? "" : ",\n", s->n, s->runs,
		    jnum(a, in_unit(c, s->min)), jnum(b, in_unit(c, s->median)),
		    jnum(p, in_unit(c, s->p90)), jnum(m, in_unit(c, s->max)));
		break;
	}
}

/* The terminal's width: COLUMNS, else stdout's window, else 80. */
int
terminal_width(void)
{
	const char *s = getenv("COLUMNS"), *why = NULL;
	struct winsize ws;
	long long n;

	if (s != NULL && *s != '\0') {
		n = strtonum(s, 1, 100000, &why);
		if (why == NULL)
			return (int)n;
	}
	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
	return 80;
}

/*
 * The label of a delay, to six significant digits (a picture needs no
 * more; the exact values are the plain output's): "2.5s", "2500ms", or
 * "-1" where it gives up.
 */
static const char *
label(const struct config *c, double v, numbuf buf)
{
	const char *u = (c->unit == UNIT_MS) ? "ms" : "s";

	if (v < 0)
		return "-1";
	if (isfinite(v))
		snprintf(buf, sizeof(numbuf), "%.6g%s", in_unit(c, v), u);
	else
		snprintf(buf, sizeof(numbuf), "%s%s", isnan(v) ? "NaN" : "Inf",
		    u);
	return buf;
}

/*
 * The widths of the columns, given the widest label and the last step;
 * the bar takes the rest of the line, at least 10 cells, so that the
 * longest bar ends at the terminal's last column.
 */
static struct layout
layout(const struct config *c, unsigned long last, int label_w,
    bool statuses, double max)
{
	struct layout l = { 1, label_w, 0, statuses, c->ascii, max };
	int prefix;

	for (; last >= 10; last /= 10)
		l.step_w++;
	prefix = l.step_w + 1 + (l.statuses ? 2 : 0) + l.label_w + 1;
	l.bar_w = terminal_width() - prefix;
	if (l.bar_w < 10)
		l.bar_w = 10;
	return l;
}

static int
wider(int w, const char *s)
{
	return (int)strlen(s) > w ? (int)strlen(s) : w;
}

static void
row_start(const struct layout *l, unsigned long n, bool success,
    const char *lab)
{
	printf("%*lu ", l->step_w, n);
	if (l->statuses)
		printf("%d ", success ? 1 : 0);
	printf("%*s", l->label_w, lab);
}

/* v on a scale of units where max is all of them; v > 0 shows. */
static long
scaled(double v, double max, long units)
{
	long u;

	if (!(v > 0))
		return 0;
	if (!(v < max))
		return units;
	u = math_lround(v / max * (double)units);
	return u < 1 ? 1 : u;
}

/* The cell of v in 0..cells-1, where max is the last one. */
static long
position(double v, double max, long cells)
{
	if (!(v > 0))
		return 0;
	if (!(v < max))
		return cells - 1;
	return math_lround(v / max * (double)(cells - 1));
}

/* A space and a bar of v, where max fills cells; nothing for v <= 0. */
void
chart_bar(double v, double max, int cells, bool ascii)
{
	const long u = scaled(v, max, cells * (ascii ? 1L : 8L));

	if (u > 0)
		putchar(' ');
	if (ascii)
		for (long i = 0; i < u; i++)
			putchar('#');
	else {
		for (long i = 0; i < u / 8; i++)
			fputs(full_block, stdout);
		fputs(eighths[u % 8], stdout);
	}
}

/* --chart: a bar per delay, labelled with it. */
static void
chart_steps(const struct config *c, const struct step *s, size_t n)
{
	struct layout l;
	numbuf buf;
	double max = 0;
	int w = 2;

	for (size_t i = 0; i < n; i++) {
		if (isfinite(s[i].d.s) && s[i].d.s > max)
			max = s[i].d.s;
		w = wider(w, label(c, s[i].d.s, buf));
	}
	l = layout(c, n > 0 ? s[n - 1].n : 1, w, c->nargs > 0, max);
	for (size_t i = 0; i < n; i++) {
		row_start(&l, s[i].n, s[i].st.success, label(c, s[i].d.s, buf));
		if (s[i].d.ns < 0)
			fputs(" gives up", stdout);
		else
			chart_bar(s[i].d.s, l.max, l.bar_w, l.ascii);
		putchar('\n');
	}
}

/*
 * --samples --chart: per step, min to p90 heavy, p90 to max light and the
 * median marked, on one scale, labelled with the median.
 */
static void
draw_spread(const struct layout *l, const struct stats *s)
{
	const char *heavy = l->ascii ? "=" : "\xe2\x94\x81";	/* U+2501 */
	const char *light = l->ascii ? "-" : "\xe2\x94\x80";	/* U+2500 */
	const char *mark = l->ascii ? "|" : "\xe2\x94\x83";	/* U+2503 */
	const long lo = position(s->min, l->max, l->bar_w);
	const long mid = position(s->median, l->max, l->bar_w);
	const long p90 = position(s->p90, l->max, l->bar_w);
	const long hi = position(s->max, l->max, l->bar_w);

	putchar(' ');
	for (long i = 0; i <= hi; i++)
		fputs(i == mid ? mark : i < lo ? " " : i <= p90 ? heavy : light,
		    stdout);
}

static void
chart_stats(const struct config *c, const struct stats *s, size_t n)
{
	struct layout l;
	numbuf buf;
	double max = 0;
	int w = 2;

	for (size_t i = 0; i < n; i++) {
		if (isfinite(s[i].max) && s[i].max > max)
			max = s[i].max;
		w = wider(w, label(c, s[i].median, buf));
	}
	l = layout(c, n > 0 ? s[n - 1].n : 1, w, false, max);
	for (size_t i = 0; i < n; i++) {
		row_start(&l, s[i].n, false, label(c, s[i].median, buf));
		if (s[i].runs == 0)
			fputs(" gives up", stdout);
		else
			draw_spread(&l, &s[i]);
		putchar('\n');
	}
	printf("%s min to p90, %s p90 to max, %s median\n",
	    l.ascii ? "=" : "\xe2\x94\x81", l.ascii ? "-" : "\xe2\x94\x80",
	    l.ascii ? "|" : "\xe2\x94\x83");
}

static int
flushed(void)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		warn("stdout");
		return EXIT_USAGE;
	}
	return 0;
}

/* The end of a printed (not charted) output of n rows. */
static void
print_footer(const struct config *c, size_t n)
{
	if (c->format == FORMAT_JSON)
		fputs(n > 0 ? "\n]\n" : "]\n", stdout);
}

/* Rows are printed as they come; a chart needs them all first. */
static const char *
show_steps(const struct config *c, struct rng *rng)
{
	struct step s, *v = NULL;
	struct replay r;
	const char *why = NULL;
	size_t n = 0, cap = 0;

	replay_init(&r, c, rng, c->count);
	if (!c->chart)
		print_header(c, false);
	while (why == NULL && replay_step(&r, &s)) {
		if (!c->chart)
			print_step(c, &s, n == 0);
		else if (grow(&v, &cap, n, sizeof(*v)))
			v[n] = s;
		else
			why = "out of memory";
		n++;
	}
	if (why == NULL && c->chart)
		chart_steps(c, v, n);
	else if (why == NULL)
		print_footer(c, n);
	free(v);
	return why;
}

static const char *
show_samples(const struct config *c, struct rng *rng)
{
	struct sampler sp;
	struct stats x, *v = NULL;
	const char *why;
	size_t n = 0, cap = 0;

	if ((why = sampler_init(&sp, c, rng)) == NULL && !c->chart)
		print_header(c, true);
	while (why == NULL && sampler_step(&sp, &x)) {
		if (!c->chart)
			print_stats(c, &x, n == 0);
		else if (grow(&v, &cap, n, sizeof(*v)))
			v[n] = x;
		else
			why = "out of memory";
		n++;
	}
	if (why == NULL && c->chart)
		chart_stats(c, v, n);
	else if (why == NULL)
		print_footer(c, n);
	sampler_free(&sp);
	free(v);
	return why;
}

int
show_main(const struct config *c, struct rng *rng)
{
	const char *why;

	why = c->samples > 0 ? show_samples(c, rng) : show_steps(c, rng);
	if (why != NULL) {
		fflush(stdout);
		warnx("%s", why);
		return EXIT_USAGE;
	}
	return flushed();
}

/* --dry-run --share: what the shared state would do now, unchanged. */
static void
dry_run_shared(const struct config *c)
{
	const struct share_rules *r = &c->share_rules;
	struct share_state st;
	struct gate_answer g;
	struct shared sh;
	char why[1024], vis[4096], d[DURATION_BUFSZ];
	const int64_t now = wall_ns();
	char t[2][NUMBER_BUFSZ];
	double tokens;
	int got = 1;

	if (shared_open(&sh, c, NULL, false, why, sizeof(why)) == -1) {
		if (errno != ENOENT) {
			printf("shared %s: %s\n", c->share,
			    report_visible(why, vis, sizeof(vis)));
			return;
		}
	} else {
		got = shared_read(&sh, c->share, &st, why, sizeof(why));
		shared_close(&sh);
		if (got == -1) {
			printf("shared %s: %s\n", c->share,
			    report_visible(why, vis, sizeof(vis)));
			return;
		}
	}
	/* A window old: a run would find it dropped. */
	if (got == 0 && share_expire(&st, r, now))
		got = 1;
	if (got == 1)
		share_fresh(&st, r, now);
	tokens = share_tokens(&st, r, now);
	printf("shared %s: %s%s of %s tokens: a retry %s; %" PRIu64
	    " failure%s in a row\n", c->share, got == 1 ? "no state yet, " :
	    "", number_text(share_shown(tokens), t[0]),
	    number_text(r->max, t[1]), share_whole(tokens) ?
	    "after a failure would run" : "would not run (the budget is "
	    "spent)", st.failures, st.failures == 1 ? "" : "s");
	g = share_gate(&st, r, 1, now);
	if (g.what == GATE_GO)
		printf("an attempt would start now\n");
	else if (g.what == GATE_PROBE)
		printf("the circuit is half-open: an attempt would start now "
		    "and probe it\n");
	else if (g.what == GATE_GIVE_UP)
		printf("the circuit is open: the run would give up (%d)\n",
		    EXIT_SHARED);
	else
		printf("an attempt would wait %s: %s\n", duration_format(
		    duration_round(g.until - now), d, sizeof(d)),
		    g.why == WAIT_OPEN ? "the circuit is open" :
		    g.why == WAIT_PROBE ? "another run probes the circuit" :
		    "another run was asked to wait");
}

/* The schedule of an all-failing run: --count attempts at most. */
int
dry_run(const struct config *c, struct rng *rng)
{
	char d[DURATION_BUFSZ], t[DURATION_BUFSZ];
	struct step s = { 0 };
	struct replay r;
	int64_t at = 0;

	/* One step past --count: whether the run would go on. */
	replay_init(&r, c, rng, c->count);
	printf("%-8s %-10s %s\n", "attempt", "delay", "starts at");
	printf("%-8d %-10s %s\n", 1, "-", "0s");
	while (replay_step(&r, &s) && s.d.ns >= 0) {
		if (s.n >= c->count) {
			printf("and so on: the run goes on past attempt %lu "
			    "(--count shows more)\n", c->count);
			break;
		}
		at = sat_add(at, s.d.ns);
		printf("%-8lu %-10s %s\n", s.n + 1,
		    duration_format(s.d.ns, d, sizeof(d)),
		    duration_format(at, t, sizeof(t)));
	}
	if (s.d.why == GIVE_UP_BUDGET)
		printf("then gives up: the next attempt would start past the %s "
		    "budget\n", duration_format(c->limits.budget, d, sizeof(d)));
	if (c->share != NULL)
		dry_run_shared(c);
	return flushed();
}
