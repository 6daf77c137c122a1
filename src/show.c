/*
 * show-backoff-delays and retry --dry-run: the replays of replay.c printed
 * as rows (plain, a table, CSV or JSON) or drawn as a chart, and --dry-run's
 * schedule and what --share's state would do.
 */
#include <err.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chart.h"
#include "clock.h"
#include "duration.h"
#include "exits.h"
#include "number.h"
#include "replay.h"
#include "report.h"
#include "shared.h"
#include "show.h"
#include "store.h"

/* The chart's columns: STEP [STATUS] LABEL BAR. */
struct layout {
	int		 step_w, label_w, bar_w;
	bool		 statuses, ascii;
	double		 max;		/* the delay drawn bar_w wide */
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

/* A number in JSON, which has no Inf or NaN: null for them. */
static const char *
json_number(double v, char *buf)
{
	return isfinite(v) ? number_text(v, buf) : "null";
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

/*
 * The plain format's delays, the long case: written to stdout in blocks,
 * and a delay the same as the one before (a sequence at its --max-delay)
 * not formatted again.
 */
struct plain {
	char	 buf[16384];
	size_t	 len;
	double	 last;
	char	 text[NUMBER_BUFSZ + 1];	/* last's, with its newline */
	size_t	 tlen;			/* 0: none yet */
};

static void
plain_flush(struct plain *pl)
{
	if (pl->len > 0)
		fwrite(pl->buf, 1, pl->len, stdout);
	pl->len = 0;
}

static void
plain_step(struct plain *pl, double d)
{
	char b[NUMBER_BUFSZ];

	if (!isfinite(d)) {
		plain_flush(pl);
		printf("%s\n", number_text(d, b));
		return;
	}
	/* 0 and -0 are equal, and print apart. */
	if (pl->tlen == 0 || d != pl->last || signbit(d) != signbit(pl->last)) {
		/* A finite %.15g takes 22 bytes at most: the newline fits. */
		pl->tlen = number_format(d, pl->text, sizeof(pl->text) - 1);
		pl->text[pl->tlen++] = '\n';
		pl->last = d;
	}
	if (pl->len + pl->tlen > sizeof(pl->buf))
		plain_flush(pl);
	memcpy(pl->buf + pl->len, pl->text, pl->tlen);
	pl->len += pl->tlen;
}

static void
print_step(const struct config *c, const struct step *s, bool first)
{
	const double t = in_unit(c, s->st.time), d = in_unit(c, s->d.s);
	const int ok = s->st.success ? 1 : 0;
	char a[NUMBER_BUFSZ], b[NUMBER_BUFSZ];

	switch (c->format) {
	case FORMAT_PLAIN:	/* plain_step writes these */
		break;
	case FORMAT_TABLE:
		printf("%-6lu %-7s %-12s %s\n", s->n, ok ? "success" :
		    "failure", number_text(t, a), number_text(d, b));
		break;
	case FORMAT_CSV:
		printf("%lu,%d,%s,%s\n", s->n, ok, number_text(t, a),
		    number_text(d, b));
		break;
	case FORMAT_JSON:
		printf("%s  {\"step\": %lu, \"status\": %d, \"time\": %s, "
		    "\"delay\": %s}", first ? "" : ",\n", s->n, ok,
		    json_number(t, a), json_number(d, b));
		break;
	}
}

static void
print_stats(const struct config *c, const struct stats *s, bool first)
{
	char a[NUMBER_BUFSZ], b[NUMBER_BUFSZ], p[NUMBER_BUFSZ];
	char m[NUMBER_BUFSZ];
	const char *lo = number_text(in_unit(c, s->min), a);
	const char *mid = number_text(in_unit(c, s->median), b);
	const char *p90 = number_text(in_unit(c, s->p90), p);
	const char *hi = number_text(in_unit(c, s->max), m);

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
		    json_number(in_unit(c, s->min), a),
		    json_number(in_unit(c, s->median), b),
		    json_number(in_unit(c, s->p90), p),
		    json_number(in_unit(c, s->max), m));
		break;
	}
}

/*
 * The label of a delay, to six significant digits (a picture needs no
 * more; the exact values are the plain output's): "2.5s", "2500ms", or
 * "-1" where it gives up.
 */
static const char *
label(const struct config *c, double v, char buf[NUMBER_BUFSZ])
{
	const char *u = (c->unit == UNIT_MS) ? "ms" : "s";
	char t[NUMBER_BUFSZ];

	if (v < 0)
		return "-1";
	if (isfinite(v))
		snprintf(buf, NUMBER_BUFSZ, "%.6g%s", in_unit(c, v), u);
	else
		snprintf(buf, NUMBER_BUFSZ, "%s%s", number_text(v, t), u);
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
	l.bar_w = chart_cells(prefix);
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

/* --chart: a bar per delay, labelled with it. */
static void
chart_steps(const struct config *c, const struct step *s, size_t n)
{
	struct layout l;
	char buf[NUMBER_BUFSZ];
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
		/* --successes: the last of N in a row ends the run. */
		if (s[i].d.ns < 0 && s[i].st.success &&
		    s[i].d.why == GIVE_UP_NONE)
			fputs(" done", stdout);
		else if (s[i].d.ns < 0)
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
chart_stats(const struct config *c, const struct stats *s, size_t n)
{
	struct layout l;
	char buf[NUMBER_BUFSZ];
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
			chart_spread(&(const struct spread){ s[i].min,
			    s[i].median, s[i].p90, s[i].max }, l.max, l.bar_w,
			    l.ascii);
		putchar('\n');
	}
	chart_spread_key(l.ascii);
}

static int
flushed(void)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		warn("stdout");
		return STATUS_CANCELED;
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
	struct plain pl = { .len = 0, .tlen = 0 };
	struct replay r;
	const char *why = NULL;
	size_t n = 0, cap = 0;

	replay_start(&r, c, rng);
	if (!c->chart)
		print_header(c, false);
	while (why == NULL && replay_step(&r, &s)) {
		if (!c->chart && c->format == FORMAT_PLAIN)
			plain_step(&pl, in_unit(c, s.d.s));
		else if (!c->chart)
			print_step(c, &s, n == 0);
		else if (grow(&v, &cap, n, sizeof(*v)))
			v[n] = s;
		else
			why = "out of memory";
		n++;
	}
	plain_flush(&pl);
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

	if ((why = sampler_start(&sp, c, rng)) == NULL && !c->chart)
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
		return STATUS_CANCELED;
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
	struct policy pol;
	struct rng rng;
	struct next x;
	double tokens;
	int got = 1, opened, e;

	opened = shared_open(&sh, &c->shared, false, why, sizeof(why));
	e = errno;
	for (size_t i = 0; i < sh.nnews; i++)
		warnx("%s", sh.news[i]);
	errno = e;
	if (opened == -1) {
		if (errno != ENOENT) {
			printf("shared %s: %s\n", c->share,
			    report_visible(why, vis, sizeof(vis)));
			return;
		}
	} else {
		got = shared_read(&sh, c->share, &st, NULL, why, sizeof(why));
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
	/* The policy judges the gate's answer, as it does in a run. */
	g = share_gate(&st, r, 1, now);
	if (g.what == GATE_WAIT)
		g.until -= now;
	rng_seed(&rng, 0);
	policy_init(&pol, &c->backoff, &c->limits, &c->verdict, &rng);
	x = policy_gate(&pol, &g, false, 0);
	if (x.what == NEXT_ATTEMPT)
		printf("%s\n", x.probe ? "the circuit is half-open: an attempt "
		    "would start now and probe it" : "an attempt would start now");
	else if (x.end == FIN_SHARE_OPEN)
		printf("the circuit is open: the run would give up (%d)\n",
		    x.status);
	else {
		printf("an attempt would wait %s: %s", duration_format(
		    duration_round(g.until), d, sizeof(d)),
		    g.why == WAIT_OPEN ? "the circuit is open" :
		    g.why == WAIT_PROBE ? "another run probes the circuit" :
		    "another run was asked to wait");
		/* The policy names the limit passed. */
		if (x.what == NEXT_EXIT)
			printf("; past --%s, the run would give up (%d)",
			    x.give_up == GIVE_UP_DEADLINE ? "deadline" :
			    "budget", x.status);
		putchar('\n');
	}
}

/* --dry-run --delay-from-output: what a delay that the output asks for does
 * to the schedule, whose attempts print nothing. */
static void
dry_run_asked(const struct config *c)
{
	const struct backoff *b = &c->backoff;
	char lo[DURATION_BUFSZ], hi[DURATION_BUFSZ];
	int64_t max = b->max_delay.ns >= 0 ? b->max_delay.ns : ASKED_MAX;

	if (max < b->min_delay.ns)
		max = b->min_delay.ns;
	duration_format(b->min_delay.ns, lo, sizeof(lo));
	duration_format(max, hi, sizeof(hi));
	if (c->limits.output_replaces)
		printf("the command's output can replace any of these "
		    "delays, within %s and %s\n", lo, hi);
	else
		printf("the command's output can lengthen any of these "
		    "delays, to %s at most\n", hi);
}

/* --dry-run --forever: the delay after a success, as the policy gives it. */
static void
dry_run_success(const struct config *c, struct rng *rng)
{
	char d[DURATION_BUFSZ];
	struct observed o = { .status = 0 };
	struct policy pol;
	struct next x;

	policy_init(&pol, &c->backoff, &c->limits, &c->verdict, rng);
	x = policy_next(&pol, &o);
	if (x.outcome.verdict == V_SUCCESS && x.what == NEXT_SLEEP)
		printf("after a success: %s to the next attempt\n",
		    duration_format(x.delay.ns, d, sizeof(d)));
}

/* "[LO, HI]", the range a delay was drawn from, or "-" where it was not
 * (a limit held it to one value). */
static const char *
drawn_from(const struct delay *dl, char *buf, size_t sz)
{
	char lo[DURATION_BUFSZ], hi[DURATION_BUFSZ];

	if (dl->lo >= dl->hi)
		snprintf(buf, sz, "-");
	else
		snprintf(buf, sz, "[%s, %s]", duration_format(dl->lo, lo,
		    sizeof(lo)), duration_format(dl->hi, hi, sizeof(hi)));
	return buf;
}

/* --dry-run --hedge: when attempts would start beside one another, as
 * many as --max leaves room for. */
static void
dry_run_hedge(const struct config *c)
{
	const unsigned long max = c->backoff.max_attempts;
	char d[DURATION_BUFSZ], t[DURATION_BUFSZ];
	unsigned long n = c->hedge.n;

	if (max > 0 && max < n)
		n = max;
	if (n < 2) {
		printf("no hedge: --max %lu allows one attempt\n", max);
		return;
	}
	printf("each attempt still running after %s: the next starts beside "
	    "it, up to %lu at once", duration_format(c->hedge.delay, d,
	    sizeof(d)), n);
	if (n > 2)
		printf(" (the third %s after the first, if both still run)",
		    duration_format(2 * c->hedge.delay, t, sizeof(t)));
	printf("; the first to succeed wins, and each counts toward --max\n");
}

/* The schedule of an all-failing run: --count attempts at most. */
int
dry_run(const struct config *c, struct rng *rng)
{
	const struct backoff *b = &c->backoff;
	/* Whether the delays are drawn: jitter, or a strategy that draws. */
	const bool drawn = b->jitter.mode != J_NONE || b->jitter_factor > 0 ||
	    b->strategy == STRAT_DECORRELATED || b->strategy == STRAT_DECORRELATED_V2;
	char d[DURATION_BUFSZ], t[DURATION_BUFSZ], lim[128], range[64];
	struct step s = { 0 };
	struct replay r;
	int64_t at = 0;

	/* One step past --count: whether the run would go on. */
	replay_start(&r, c, rng);
	if (drawn && !c->seeded)
		printf("delays drawn at random: each run draws anew "
		    "(--seed N draws the same each time)\n");
	else if (drawn)
		printf("delays drawn at random with --seed %llu: the same "
		    "each time\n", (unsigned long long)c->seed);
	printf("%-8s %-10s %s%s\n", "attempt", "delay", drawn ?
	    "starts at  " : "starts at", drawn ? "drawn from" : "");
	printf("%-8d %-10s %s\n", 1, "-", "0s");
	while (replay_step(&r, &s) && s.d.ns >= 0) {
		if (s.n >= c->count) {
			printf("and so on: the run goes on past attempt %lu "
			    "(--count shows more)\n", c->count);
			break;
		}
		at = sat_add(at, s.d.ns);
		printf("%-8lu %-10s %-*s", s.n + 1,
		    duration_format(s.d.ns, d, sizeof(d)), drawn ? 10 : 0,
		    duration_format(at, t, sizeof(t)));
		if (drawn)
			printf(" %s", drawn_from(&s.d, range, sizeof(range)));
		printf("\n");
	}
	if (s.d.why == GIVE_UP_BUDGET)
		printf("then gives up: the next attempt would start past the %s "
		    "budget\n", duration_format(c->limits.budget, d, sizeof(d)));
	else if (s.d.why == GIVE_UP_DEADLINE)
		printf("then gives up: the next attempt would start past the %s "
		    "deadline\n", duration_format(c->limits.deadline, d,
		    sizeof(d)));
	else if (s.d.why == GIVE_UP_LIMIT)
		printf("then gives up: %s\n", codes_limit_text(s.limit, lim,
		    sizeof(lim)));
	else if (s.d.why == GIVE_UP_SUCCESSES)
		printf("then gives up: --max %lu leaves too few attempts for "
		    "%lu successes in a row\n", c->backoff.max_attempts,
		    c->limits.successes);
	if (c->limits.forever)
		dry_run_success(c, rng);
	if (c->patterns[RULE_CAPTURE].n > 0)
		dry_run_asked(c);
	if (c->hedge.delay > 0)
		dry_run_hedge(c);
	if (c->share != NULL)
		dry_run_shared(c);
	return flushed();
}
