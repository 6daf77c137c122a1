/*
 * The shared state over the tables of steps of share_rows.h, its limits,
 * its text, and the values of its options.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "duration.h"
#include "number.h"
#include "share.h"
#include "storeurl.h"
#include "share_rows.h"
#include "unit.h"

#define S	NS_PER_SEC

/* What a step answered, in the row's words. */
static void
step(void *arg, const struct share_rules *r, const char *tok, char *out,
    size_t sz)
{
	struct share_state *st = arg;
	char verb = tok[0], *end;
	const uint64_t me = strtoull(tok + 1, &end, 10);
	const double t = strtod(end + 1, &end);
	const double more = *end == '+' ? strtod(end + 1, NULL) : 0;
	const int64_t now = llround(t * S);
	struct gate_answer g;
	struct record_answer a;
	static const char *const whys[] = { "", "open", "probe", "nb" };

	if (verb == 'g') {
		g = share_gate(st, r, me, now);
		if (g.what == GATE_WAIT)
			snprintf(out, sz, "wait-%s@%g", whys[g.why],
			    (double)g.until / S);
		else
			snprintf(out, sz, "%s", g.what == GATE_GO ? "go" :
			    g.what == GATE_PROBE ? "probe" : "giveup");
	} else if (verb == 'l') {
		share_leave(st, me, now);
		snprintf(out, sz, "-");
	} else {
		a = share_record(st, r, me, verb == 's', verb == 'f',
		    more > 0 ? now + llround(more * S) : 0, now);
		snprintf(out, sz, "%s%s", a.retry ? "retry" : "stop",
		    a.opened ? "+opened" : a.closed ? "+closed" : "");
	}
}

static void
rows_share(void)
{
	for (size_t i = 0; i < sizeof(share_rows) / sizeof(share_rows[0]);
	    i++) {
		const struct share_row *w = &share_rows[i];
		const struct share_rules r = share_row_rules(w);
		struct share_state st;
		char got[512];

		share_fresh(&st, &r, 0);
		share_row_steps(w, &r, step, &st, got, sizeof(got));
		snprintf(got + strlen(got), sizeof(got) - strlen(got),
		    "; %g %" PRIu64 " %s", st.tokens, st.failures,
		    breaker_name(st.breaker));
		unit_row(strcmp(got, w->want) == 0, "share", w->name,
		    "want '%s', got '%s'", w->want, got);
	}
}

/* What comes back with time is kept however often runs decide; a clock
 * set back neither freezes the budget nor keeps the state for good. */
static void
rows_time(void)
{
	const struct share_rules r = { .max = 10, .ratio = 0.2,
	    .window = 3600 * S };
	struct share_state st;
	struct record_answer a;
	int64_t now = 0;

	/* 0.83 millionths come back between two decisions 0.3ms apart. */
	share_fresh(&st, &r, 0);
	st.tokens = 0;
	for (int i = 0; i < 100000; i++)
		(void)share_record(&st, &r, 1, false, false, 0,
		    now += 300000);
	unit_row(fabs(st.tokens - 10.0 * 30 / 3600) < 1e-9, "share",
	    "what comes back is kept, whatever the decisions' pace",
	    "tokens %.9g after 30s", st.tokens);
	share_fresh(&st, &r, 0);
	st.tokens = 0;
	for (int i = 0; i < PART_COUNT; i++)
		st.changed[i] = 365 * 86400 * S;
	a = share_record(&st, &r, 1, false, true, 0, S);
	unit_row(!a.retry && st.changed[PART_BREAKER] == S, "share",
	    "a change time past now counts as now, and is kept so",
	    "retry %d, breaker changed %lld", a.retry,
	    (long long)st.changed[PART_BREAKER]);
	a = share_record(&st, &r, 1, false, true, 0, S + r.window);
	unit_row(a.retry && st.tokens == 9 && st.failures == 1, "share",
	    "then a window of quiet drops it", "retry %d, tokens %g, "
	    "failures %" PRIu64, a.retry, st.tokens, st.failures);
}

/* What a state says is held to what the member's own rules allow. */
static void
rows_bounds(void)
{
	const struct share_rules none = { .max = 10, .ratio = 0.1,
	    .window = 60 * S };
	const struct share_rules breaker = { .max = 10, .ratio = 0.1,
	    .trip = 3, .cooldown = 10 * S, .lease = 5 * S, .window = 60 * S };
	struct share_state st;
	struct gate_answer g;

	share_fresh(&st, &breaker, 0);
	st.breaker = BREAKER_OPEN;
	st.open_until = 100 * S;
	g = share_gate(&st, &none, 1, S);
	unit_row(g.what == GATE_GO, "share", "no breaker of its own: an open "
	    "one does not hold it", "answer %d", g.what);
	g = share_gate(&st, &breaker, 1, S);
	unit_row(g.what == GATE_WAIT && g.until == 11 * S, "share",
	    "open past the cooldown: held to it", "answer %d until %lld",
	    g.what, (long long)g.until);
	share_fresh(&st, &breaker, 0);
	st.not_before = INT64_MAX;
	g = share_gate(&st, &none, 1, S);
	unit_row(g.what == GATE_WAIT && g.until == S + SHARE_NOT_BEFORE_MAX,
	    "share", "a not-before a lifetime away: held to an hour",
	    "answer %d until %lld", g.what, (long long)g.until);
	share_fresh(&st, &breaker, 0);
	st.breaker = BREAKER_HALF_OPEN;
	st.probe = 2;
	st.probe_until = 1000 * S;
	g = share_gate(&st, &breaker, 1, S);
	unit_row(g.what == GATE_WAIT && g.until == S + SHARE_POLL, "share",
	    "a probe's lease past its own: held to it",
	    "answer %d until %lld", g.what, (long long)g.until);
	g = share_gate(&st, &breaker, 1, 6 * S + 1);
	unit_row(g.what == GATE_PROBE, "share", "then another probes",
	    "answer %d", g.what);
}

/* The text: a state comes back as it was; anything else is refused. */
static void
rows_text(void)
{
	static const char *const bad[] = {
		"", "retry-share 2\n", "retry-share 1\n",
		"retry-share 1\ntokens 1\n",
		"retry-share 1\ntokens nan\nfailures 0\n",
		"retry-share 1\ntokens -1\nfailures 0\n",
		"retry-share 1\ntokens 1\nfailures x\n",
		"retry-share 1\ntokens 1\nfailures 0\nbreaker ajar\n",
		"retry-share 1\ntokens 1\nfailures 0\nbreaker open\n"
		    "open-until 0\nprobe 0\n",
		"retry-share 1\ntokens 1\nfailures 0\nbreaker open\n"
		    "open-until 0\nprobe 0 0\nnot-before 0\n"
		    "changed 0 0 0 0\nmore\n",
		"retry-share 1\ntokens 1\nfailures 0\nbreaker open\n"
		    "open-until 0\nprobe 0 0\nnot-before 0\nchanged 0 0 0",
		"retry-share 1\ntokens 1\nfailures 0\nbreaker open\n"
		    "open-until 0\nprobe 0 0\nnot-before -5\n"
		    "changed 0 0 0 0\n",
		"retry-share 1\ntokens 1\nfailures  0\n",
		"retry-share 1\ntokens 1\nfailures 99999999999999999999\n",
	};
	const struct share_state s = { 7.25, 3, BREAKER_HALF_OPEN,
	    1700000000123456789, UINT64_MAX, 1700000001000000000, 42,
	    { 1, 2, 3, 4 } };
	struct share_state back;
	char buf[SHARE_TEXT_MAX], again[SHARE_TEXT_MAX];
	const char *why;
	size_t n;

	n = share_format(&s, buf, sizeof(buf));
	why = share_parse(buf, n, &back);
	unit_row(n > 0 && why == NULL && back.tokens == s.tokens &&
	    back.failures == s.failures && back.breaker == s.breaker &&
	    back.open_until == s.open_until && back.probe == s.probe &&
	    back.probe_until == s.probe_until &&
	    back.not_before == s.not_before &&
	    memcmp(back.changed, s.changed, sizeof(s.changed)) == 0 &&
	    share_format(&back, again, sizeof(again)) == n &&
	    memcmp(buf, again, n) == 0, "share", "the text round trip",
	    "%s: %s", why != NULL ? why : "differs", buf);
	unit_row(share_format(&s, buf, 20) == 0, "share",
	    "the text in too small a buffer", "it fitted");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		unit_row(share_parse(bad[i], strlen(bad[i]), &back) != NULL,
		    "share", "a corrupt text is refused", "taken: '%s'",
		    bad[i]);
}

static void
rows_values(void)
{
	static const struct {
		const char	*s;
		bool		 ok;
	} names[] = {
		{ "deploy-api", true }, { "a", true }, { "A.b_c-9", true },
		{ "", false }, { ".", false }, { "..", false },
		{ "-x", false }, { ".hidden", false }, { "_x", true },
		{ "a/b", false }, { "a b", false }, { "é", false },
		{ "0123456789012345678901234567890123456789012345678901234567"
		  "890123", true },
		{ "0123456789012345678901234567890123456789012345678901234567"
		  "8901234", false },
	}, budgets[] = {
		{ "10", true }, { "10:0.1", true }, { "1:1", true },
		{ "5:0", true }, { "0", false }, { "10:11", false },
		{ "10:", false }, { ":1", false }, { "-1", false },
		{ "nan", false }, { "10:x", false }, { "1e7", false },
	}, breakers[] = {
		{ "5:30s", true }, { "1:1ms", true }, { "5", false },
		{ "0:1s", false }, { "5:0", false }, { "2.5:1s", false },
		{ "5:x", false }, { ":1s", false },
	};
	double max, ratio;
	unsigned long trip;
	int64_t cooldown;

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		unit_row((share_name_check(names[i].s) == NULL) ==
		    names[i].ok, "share", "--share NAME", "'%s'", names[i].s);
	for (size_t i = 0; i < sizeof(budgets) / sizeof(budgets[0]); i++)
		unit_row((share_budget_parse(budgets[i].s, &max, &ratio) ==
		    NULL) == budgets[i].ok, "share", "--share-budget", "'%s'",
		    budgets[i].s);
	for (size_t i = 0; i < sizeof(breakers) / sizeof(breakers[0]); i++)
		unit_row((share_breaker_parse(breakers[i].s, &trip, &cooldown)
		    == NULL) == breakers[i].ok, "share", "--share-breaker",
		    "'%s'", breakers[i].s);
	unit_row(share_budget_parse("20", &max, &ratio) == NULL && max == 20 &&
	    ratio == 0.2, "share", "--share-budget N: R is 0.2", "%g:%g",
	    max, ratio);
}

/* The decimal reader behind --factor, --share-budget and --failure-rate. */
static void
rows_numbers(void)
{
	static const struct {
		const char	*s;
		bool		 ok;
		double		 v;
	} numbers[] = {
		{ "0.5", true, 0.5 }, { ".5", true, 0.5 }, { "+2", true, 2 },
		{ "-1.5e2", true, -150 }, { "10", true, 10 }, { "", false, 0 },
		{ " 1", false, 0 }, { "1 ", false, 0 }, { "0x10", false, 0 },
		{ "1p3", false, 0 }, { "inf", false, 0 }, { "nan", false, 0 },
		{ "1e999", false, 0 }, { "+", false, 0 }, { ".", false, 0 },
		{ "1,2", false, 0 }, { "--1", false, 0 }, { "e5", false, 0 },
		{ "0.00000000000000000000000000000000000000000000000000000000000000000"
		  "1", false, 0 },
	};
	double v;

	for (size_t i = 0; i < sizeof(numbers) / sizeof(numbers[0]); i++) {
		bool ok = number_parse(numbers[i].s, strlen(numbers[i].s), &v);

		unit_row(ok == numbers[i].ok && (!ok || v == numbers[i].v),
		    "number", "number_parse", "'%s'", numbers[i].s);
	}
	unit_row(number_parse("0.25,x", 4, &v) && v == 0.25, "number",
	    "number_parse reads only the length given", "%g", v);
}

/* The store's spec: what it reads, what it refuses, how it is shown. */
static void
rows_stores(void)
{
	static const struct {
		const char	*spec;
		bool		 secret_ok;
		const char	*shown;		/* NULL: refused */
		const char	*password;
	} stores[] = {
		{ "file:/var/lib/x", false, "file:/var/lib/x", "" },
		{ "redis://cache", false, "redis://cache:6379/0", "" },
		{ "redis://cache:6380/3", false, "redis://cache:6380/3", "" },
		{ "redis://cache/", false, "redis://cache:6379/0", "" },
		{ "redis://10.0.0.1:7000", false, "redis://10.0.0.1:7000/0", "" },
		{ "redis://[::1]:7000/2", false, "redis://[::1]:7000/2", "" },
		{ "redis://:s3cret@cache/1", true, "redis://:***@cache:6379/1",
		  "s3cret" },
		{ "redis://app:p%40ss%3Aw%2F@cache", true,
		  "redis://app:***@cache:6379/0", "p@ss:w/" },
		{ "redis://:a@b@cache", true, "redis://:***@cache:6379/0",
		  "a@b" },
		{ "unix:///run/redis.sock", false, "unix:///run/redis.sock?db=0",
		  "" },
		{ "unix://:pw@/run/redis.sock?db=4", true,
		  "unix://:***@/run/redis.sock?db=4", "pw" },
		{ "redis://:s3cret@cache", false, NULL, NULL },
		{ "redis://user@cache", true, NULL, NULL },
		{ "redis://:@cache", true, NULL, NULL },
		{ "redis://:%00@cache", true, NULL, NULL },
		{ "redis://:%4@cache", true, NULL, NULL },
		{ "redis://", false, NULL, NULL },
		{ "redis://cache:0", false, NULL, NULL },
		{ "redis://cache:65536", false, NULL, NULL },
		{ "redis://cache:12x", false, NULL, NULL },
		{ "redis://cache:", false, NULL, NULL },
		{ "redis://cache/x", false, NULL, NULL },
		{ "redis://cache/1000001", false, NULL, NULL },
		{ "redis://ca che", false, NULL, NULL },
		{ "redis://cache\n", false, NULL, NULL },
		{ "redis://[::1", false, NULL, NULL },
		{ "redis://[zz]", false, NULL, NULL },
		{ "redis://c/1/2", false, NULL, NULL },
		{ "rediss://cache", false, "rediss://cache:6379/0", "" },
		{ "unix://relative.sock", false, NULL, NULL },
		{ "unix:///s?db=x", false, NULL, NULL },
		{ "unix:///s?dbx=1", false, NULL, NULL },
		{ "unix:///0123456789012345678901234567890123456789012345678901"
		  "23456789012345678901234567890123456789012345678901234567", false,
		  NULL, NULL },
		{ "file:", false, NULL, NULL },
		{ "http://cache", false, NULL, NULL },
		{ "", false, NULL, NULL },
	};
	struct store_url u;
	char shown[STOREURL_SHOWN_MAX];

	for (size_t i = 0; i < sizeof(stores) / sizeof(stores[0]); i++) {
		const char *why = storeurl_parse(stores[i].spec,
		    stores[i].secret_ok, &u);

		if (why == NULL)
			storeurl_show(&u, shown, sizeof(shown));
		unit_row(stores[i].shown == NULL ? why != NULL : why == NULL &&
		    strcmp(shown, stores[i].shown) == 0 &&
		    strcmp(u.password, stores[i].password) == 0, "storeurl",
		    stores[i].spec, "%s", why != NULL ? why : shown);
	}
}

void
unit_share(void)
{
	rows_numbers();
	rows_stores();
	rows_share();
	rows_bounds();
	rows_time();
	rows_text();
	rows_values();
}
