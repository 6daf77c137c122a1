/*
 * The shared state over tables of steps.  A row gives the rules and steps
 * "VERB MEMBER @ SECONDS": g, a member asks to start an attempt; f or s,
 * its attempt failed or succeeded ("+S" after the time: its output asked
 * for S more seconds); l, it leaves.  What each step answers: "go",
 * "probe", "wait-open@T", "wait-probe@T", "wait-nb@T", "giveup"; "retry"
 * or "stop" (whether the budget allows a retry), with "+opened" or
 * "+closed"; "-" for a leave.  Then the state: tokens, failures, breaker.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/duration.h"
#include "../../src/number.h"
#include "../../src/share.h"
#include "unit.h"

#define S	NS_PER_SEC

static const struct row {
	const char	*name;
	double		 max, ratio;
	unsigned long	 trip;
	int		 cooldown, lease;	/* seconds */
	bool		 give_up;
	const char	*steps;
	const char	*want;
} rows[] = {
	{ "the budget: a retry while tokens > N/2", 10, 0.1, 0, 0, 0, false,
	  "f1@0 f2@0 f3@0 f4@0 f5@0 f6@0",
	  "retry retry retry retry stop stop; 4 6 closed" },
	{ "the budget: a success gives R back", 10, 0.1, 0, 0, 0, false,
	  "f1@0 f1@0 f1@0 f1@0 f1@0 s2@1 f3@2",
	  "retry retry retry retry stop stop stop; 4.1 1 closed" },
	{ "the budget: never above N", 10, 0.5, 0, 0, 0, false,
	  "s1@0 s1@0 f1@0", "stop stop retry; 9 1 closed" },
	{ "the budget: never below 0", 2, 1, 0, 0, 0, false,
	  "f1@0 f1@0 f1@0 s1@0", "stop stop stop stop; 1 0 closed" },
	{ "the budget counts in thousandths: ten 0.2s make 2", 10, 0.2, 0, 0,
	  0, false, "f1@0 f1@0 f1@0 f1@0 f1@0 f1@0 s1@0 s1@0 s1@0 s1@0 s1@0 "
	  "s1@0 s1@0 s1@0 s1@0 s1@0 f1@0",
	  "retry retry retry retry stop stop stop stop stop stop stop stop "
	  "stop stop stop stop stop; 5 1 closed" },
	{ "the budget: R 0 gives nothing back", 4, 0, 0, 0, 0, false,
	  "f1@0 s1@0 f1@0", "retry stop stop; 2 1 closed" },
	{ "no breaker: any number of failures", 100, 0.1, 0, 0, 0, false,
	  "f1@0 f1@0 f1@0 f1@0 g2@1", "retry retry retry retry go; 96 4 closed" },
	{ "the breaker opens after N failures in a row", 100, 0.1, 3, 10, 5,
	  false, "f1@0 f2@1 f3@2 g4@3",
	  "retry retry retry+opened wait-open@12; 97 3 open" },
	{ "a success in between: no run of N", 100, 0.1, 3, 10, 5, false,
	  "f1@0 f2@1 s3@2 f1@3 f2@4 g4@5",
	  "retry retry stop retry retry go; 96.1 2 closed" },
	{ "half-open: one probe, the others wait for it", 100, 0.1, 1, 10, 5,
	  false, "f1@0 g2@10 g3@10 g1@11",
	  "retry+opened probe wait-probe@10.25 wait-probe@11.25; 99 1 half-open" },
	{ "the probe's success closes it", 100, 0.1, 1, 10, 5, false,
	  "f1@0 g2@10 s2@11 g3@11", "retry+opened probe stop+closed go; 99.1 0 closed" },
	{ "the probe's failure opens it again", 100, 0.1, 1, 10, 5, false,
	  "f1@0 g2@10 f2@11 g3@12",
	  "retry+opened probe retry+opened wait-open@21; 98 2 open" },
	{ "a probe's lease ends: another probes", 100, 0.1, 1, 10, 5, false,
	  "f1@0 g2@10 g3@14 g3@15", "retry+opened probe wait-probe@14.25 probe; 99 1 half-open" },
	{ "the probe leaves: another probes at once", 100, 0.1, 1, 10, 5,
	  false, "f1@0 g2@10 l2@11 g3@11", "retry+opened probe - probe; 99 1 half-open" },
	{ "the probe asks again: still its own", 100, 0.1, 1, 10, 5, false,
	  "f1@0 g2@10 g2@11", "retry+opened probe probe; 99 1 half-open" },
	{ "another's failure while half-open is no probe's", 100, 0.1, 1, 10,
	  5, false, "f1@0 g2@10 f3@11 g4@11",
	  "retry+opened probe retry wait-probe@11.25; 98 2 half-open" },
	{ "--share-open giveup: open", 100, 0.1, 1, 10, 5, true,
	  "f1@0 g2@1", "retry+opened giveup; 99 1 open" },
	{ "--share-open giveup: probing", 100, 0.1, 1, 10, 5, true,
	  "f1@0 g2@10 g3@10", "retry+opened probe giveup; 99 1 half-open" },
	{ "not-before holds every member", 10, 0.1, 0, 0, 0, false,
	  "f1@0+30 g2@1 g2@30", "retry wait-nb@30 go; 9 1 closed" },
	{ "not-before only moves later", 10, 0.1, 0, 0, 0, false,
	  "f1@0+30 f2@1+5 g3@2", "retry retry wait-nb@30; 8 2 closed" },
	{ "open, then not-before", 100, 0.1, 1, 10, 5, false,
	  "f1@0+20 g2@10", "retry+opened wait-nb@20; 99 1 half-open" },
};

/* What a step answered, in the row's words. */
static void
step(struct share_state *st, const struct share_rules *r, const char *tok,
    char *out, size_t sz)
{
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
		a = share_record(st, r, me, verb == 's',
		    more > 0 ? now + llround(more * S) : 0, now);
		snprintf(out, sz, "%s%s", a.retry ? "retry" : "stop",
		    a.opened ? "+opened" : a.closed ? "+closed" : "");
	}
}

static void
rows_share(void)
{
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct row *w = &rows[i];
		const struct share_rules r = { w->max, w->ratio, w->trip,
		    (int64_t)w->cooldown * S, (int64_t)w->lease * S,
		    w->give_up };
		struct share_state st;
		char steps[256], got[512] = "", one[64], *tok, *save;

		share_fresh(&st, &r, 0);
		snprintf(steps, sizeof(steps), "%s", w->steps);
		for (tok = strtok_r(steps, " ", &save); tok != NULL;
		    tok = strtok_r(NULL, " ", &save)) {
			step(&st, &r, tok, one, sizeof(one));
			snprintf(got + strlen(got), sizeof(got) - strlen(got),
			    "%s%s", got[0] != '\0' ? " " : "", one);
		}
		snprintf(got + strlen(got), sizeof(got) - strlen(got),
		    "; %g %" PRIu64 " %s", st.tokens, st.failures,
		    breaker_name(st.breaker));
		unit_row(strcmp(got, w->want) == 0, "share", w->name,
		    "want '%s', got '%s'", w->want, got);
	}
}

/* What a state says is held to what the member's own rules allow. */
static void
rows_bounds(void)
{
	const struct share_rules none = { 10, 0.1, 0, 0, 0, false };
	const struct share_rules breaker = { 10, 0.1, 3, 10 * S, 5 * S,
	    false };
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
	    ratio == 0.1, "share", "--share-budget N: R is 0.1", "%g:%g",
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

void
unit_share(void)
{
	rows_numbers();
	rows_share();
	rows_bounds();
	rows_text();
	rows_values();
}
