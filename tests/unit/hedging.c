/*
 * --hedge: DUR[:N] read and refused, when the next attempt starts beside
 * those in flight (and why not), the token that shared state gives a
 * hedge, and the words of hedge events, as text and as JSON.
 */
#include <stdlib.h>
#include <string.h>

#include "hedgefmt.h"
#include "hedging.h"
#include "share.h"
#include "unit.h"

#define MS	INT64_C(1000000)
#define S	INT64_C(1000000000)

static void
rows_parse(void)
{
	static const struct {
		const char	*in;
		int64_t		 delay;	/* 0: refused */
		unsigned	 n;
	} rows[] = {
		{ "2s", 2 * S, 2 }, { "500ms", 500 * MS, 2 },
		{ "1s:3", S, 3 }, { "1s:16", S, 16 }, { "0.1:2", 100 * MS, 2 },
		{ "0s", 0, 0 }, { "1s:1", 0, 0 }, { "1s:17", 0, 0 },
		{ "1s:", 0, 0 }, { "1s:x", 0, 0 }, { "1s:2x", 0, 0 },
		{ ":2", 0, 0 }, { "", 0, 0 }, { "x", 0, 0 }, { "1s:-2", 0, 0 },
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct hedge h = { 0, 0, 0 };
		const char *why = hedge_parse(rows[i].in, &h);
		const bool ok = rows[i].delay == 0 ?
		    why != NULL && h.delay == 0 : why == NULL &&
		    h.delay == rows[i].delay && h.n == rows[i].n;

		unit_row(ok, "hedging", rows[i].in, "why %s, delay %lld, n %u",
		    why != NULL ? why : "none", (long long)h.delay, h.n);
	}
}

/* auto[:LOAD]: no delay, the share of extra attempts. */
static void
rows_auto(void)
{
	static const struct {
		const char	*in;
		double		 load;	/* 0: refused */
	} rows[] = {
		{ "auto", 0.05 }, { "auto:5%", 0.05 }, { "auto:5", 0 },
		{ "auto:12.5%", 0.125 }, { "auto:50%", 0.5 },
		{ "auto:0.5%", 0.005 }, { "auto:.5%", 0.005 },
		{ "auto:0.01%", 0.0001 }, { "auto:0.05", 0 },
		{ "auto:0.001%", 0 }, { "auto:50.1%", 0 }, { "auto:100%", 0 },
		{ "auto:0", 0 }, { "auto:0%", 0 }, { "auto:101", 0 },
		{ "auto:1.2.3%", 0 }, { "auto:%", 0 },
		{ "auto:", 0 }, { "auto:x", 0 }, { "auto:5%%", 0 },
		{ "auto:-5", 0 }, { "auto:1e1", 0 }, { "auto5", 0 },
		{ "auto:5%x", 0 },
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct hedge h = { 7, 3, 0 };
		const char *why = hedge_parse(rows[i].in, &h);
		const bool ok = rows[i].load == 0 ? why != NULL :
		    why == NULL && h.delay == 0 && h.n == HEDGE_N &&
		    h.load > rows[i].load - 1e-12 &&
		    h.load < rows[i].load + 1e-12;

		unit_row(ok, "hedging", rows[i].in, "why %s, load %g",
		    why != NULL ? why : "none", h.load);
	}
}

static void
rows_next(void)
{
	const struct hedge h = { 100 * MS, 3, 0 };
	static const struct {
		const char	*name;
		int64_t		 since;
		unsigned long	 made, max;
		int64_t		 budget, deadline, now;
		int64_t		 due;
		unsigned	 inflight;
		enum hedge_bar	 want;
	} rows[] = {
		{ "not yet", 0, 1, 5, -1, -1, 99 * MS, 100 * MS, 1,
		  HEDGE_NOT_YET },
		{ "due: go", 0, 1, 5, -1, -1, 100 * MS, 100 * MS, 1, HEDGE_GO },
		{ "after a failure beside: DUR after it", 150 * MS, 2, 5, -1, -1,
		  200 * MS, 250 * MS, 2, HEDGE_NOT_YET },
		{ "N in flight: none", 0, 3, 5, -1, -1, S, -1, 3, HEDGE_FULL },
		{ "none in flight: none", 0, 1, 5, -1, -1, S, -1, 0,
		  HEDGE_FULL },
		{ "--max made", 0, 5, 5, -1, -1, S, 100 * MS, 1, HEDGE_MAX },
		{ "--max 0: no limit", 0, 50, 0, -1, -1, S, 100 * MS, 1,
		  HEDGE_GO },
		{ "past --budget", 0, 1, 5, 500 * MS, -1, S, 100 * MS, 1,
		  HEDGE_BUDGET },
		{ "at --budget", 0, 1, 5, S, -1, S, 100 * MS, 1, HEDGE_GO },
		{ "before --deadline", 0, 1, 5, -1, S + 1, S, 100 * MS, 1,
		  HEDGE_GO },
		{ "at --deadline: none", 0, 1, 5, -1, S, S, 100 * MS, 1,
		  HEDGE_BUDGET },
		{ "past --deadline", 0, 1, 5, -1, 500 * MS, S, 100 * MS, 1,
		  HEDGE_BUDGET },
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const enum hedge_bar got = hedge_next(&h, rows[i].inflight,
		    rows[i].since, rows[i].made, rows[i].max, rows[i].budget,
		    rows[i].deadline, rows[i].now);
		const int64_t due = hedge_due(&h, rows[i].inflight,
		    rows[i].since);

		unit_row(got == rows[i].want && due == rows[i].due, "hedging",
		    rows[i].name, "got %d, due %lld", got, (long long)due);
	}
}

static void
rows_share(void)
{
	const struct share_rules r = { .max = 2, .ratio = 0.5,
	    .trip = 1, .cooldown = 10 * S, .window = 3600 * S };
	struct share_state st;
	struct record_answer a;

	share_fresh(&st, &r, 0);
	a = share_hedge(&st, &r, 1, S);
	unit_row(a.retry && st.tokens == 1 && st.failures == 0 &&
	    st.breaker == BREAKER_CLOSED, "hedging",
	    "a hedge takes a token, and counts no failure",
	    "retry %d, tokens %g, failures %llu", a.retry, st.tokens,
	    (unsigned long long)st.failures);
	(void)share_hedge(&st, &r, 1, S);
	a = share_hedge(&st, &r, 1, S);
	unit_row(!a.retry && st.tokens == 0, "hedging",
	    "with no whole token left, no hedge",
	    "retry %d, tokens %g", a.retry, st.tokens);
}

static void
rows_words(void)
{
	const struct attempt_result failed = { .status = 4 };
	const struct reporter text = { .max_attempts = 5, .name = "cmd",
		.line_name = "cmd" };
	const struct reporter json = { .max_attempts = 5, .json = true };
	const struct timespec now = { 0, 0 };
	static const struct {
		struct hedge_event e;
		const char	*text;
		const char	*json;
	} rows[] = {
		{ { HE_STARTED, 2, 1, 0, false, NULL, 2 * S, 0, 2 * S, 0,
		    WHY_NONE },
		  "retry: cmd: attempt 1 still running after 2s: started "
		  "attempt 2 beside it\n",
		  "\"event\":\"hedge\",\"label\":null,\"command\":[],"
		  "\"name\":null,\"attempt\":2,\"max_attempts\":5,\"beside\":1,"
		  "\"hedge_ms\":2000,\"after_failure_of\":null,"
		  "\"elapsed_ms\":2000}\n" },
		/* DUR after a failure, not after attempt 1 started. */
		{ { HE_STARTED, 3, 1, 0, false, NULL, 2 * S, 0, 4300 * MS, 2,
		    WHY_NONE },
		  "retry: cmd: 2s after attempt 2 failed: started attempt 3 "
		  "beside attempt 1\n",
		  "\"event\":\"hedge\",\"label\":null,\"command\":[],"
		  "\"name\":null,\"attempt\":3,\"max_attempts\":5,\"beside\":1,"
		  "\"hedge_ms\":2000,\"after_failure_of\":2,"
		  "\"elapsed_ms\":4300}\n" },
		/* A failure says why output failed it, as a single
		 * attempt's line does. */
		{ { HE_FAILED, 2, 0, 1, false, NULL, 0, 300 * MS, 2300 * MS, 0,
		    WHY_NO_UNTIL },
		  "retry: cmd: attempt 2/5 failed: exit 4 after 300ms (no line "
		  "matched --output until); 1 other still running\n",
		  "\"event\":\"hedge_failed\",\"label\":null,\"command\":[],"
		  "\"name\":null,\"attempt\":2,\"max_attempts\":5,\"others\":1,\"status\":4,"
		  "\"signal\":null,\"timed_out\":false,\"duration_ms\":300,"
		  "\"elapsed_ms\":2300}\n" },
		{ { HE_FAILED, 2, 0, 1, false, NULL, 0, 300 * MS, 2300 * MS, 0,
		    WHY_NONE },
		  "retry: cmd: attempt 2/5 failed: exit 4 after 300ms; 1 other "
		  "still running\n",
		  "\"event\":\"hedge_failed\",\"label\":null,\"command\":[],"
		  "\"name\":null,\"attempt\":2,\"max_attempts\":5,\"others\":1,\"status\":4,"
		  "\"signal\":null,\"timed_out\":false,\"duration_ms\":300,"
		  "\"elapsed_ms\":2300}\n" },
		{ { HE_WON, 3, 0, 2, false, NULL, 0, 50 * MS, 4 * S, 0,
		    WHY_NONE },
		  "retry: cmd: attempt 3 succeeded first, after 50ms: "
		  "cancelling 2 others\n",
		  "\"event\":\"hedge_won\",\"label\":null,\"command\":[],"
		  "\"name\":null,\"attempt\":3,\"max_attempts\":5,\"others\":2,"
		  "\"duration_ms\":50,\"elapsed_ms\":4000}\n" },
		{ { HE_CANCELLED, 1, 3, 0, true, NULL, 0, 4 * S, 4 * S, 0,
		    WHY_NONE },
		  "retry: cmd: attempt 1 cancelled after 4s (attempt 3 won)\n",
		  "\"event\":\"cancelled\",\"label\":null,\"command\":[],"
		  "\"name\":null,\"attempt\":1,\"max_attempts\":5,\"winner\":3,\"by\":3,"
		  "\"duration_ms\":4000,\"elapsed_ms\":4000}\n" },
		{ { HE_CANCELLED, 1, 2, 0, false, NULL, 0, S, 2 * S, 0,
		    WHY_NONE },
		  "retry: cmd: attempt 1 cancelled after 1s (attempt 2 ended "
		  "the run)\n",
		  "\"event\":\"cancelled\",\"label\":null,\"command\":[],"
		  "\"name\":null,\"attempt\":1,\"max_attempts\":5,\"winner\":null,"
		  "\"by\":2,\"duration_ms\":1000,\"elapsed_ms\":2000}\n" },
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct hedge_event e = rows[i].e;
		struct line l = { 0 };
		const char *j;

		if (e.what == HE_FAILED)
			e.result = &failed;
		(void)hedge_format(&l, &text, &e, &now);
		unit_row(l.buf != NULL && strcmp(l.buf, rows[i].text) == 0,
		    "hedging", rows[i].text, "got '%s'", l.buf);
		free(l.buf);
		l = (struct line){ 0 };
		(void)hedge_format(&l, &json, &e, &now);
		j = l.buf != NULL ? strstr(l.buf, "\"event\"") : NULL;
		unit_row(j != NULL && strcmp(j, rows[i].json) == 0, "hedging",
		    rows[i].json, "got '%s'", l.buf);
		free(l.buf);
	}
}

/* A loser's line of output, for the log: made visible, or a JSON string
 * that keeps even a NUL. */
static void
rows_output(void)
{
	const struct reporter text = { .max_attempts = 5, .line_name = "cmd" };
	const struct reporter json = { .max_attempts = 5, .json = true };
	const struct timespec now = { 0, 0 };
	static const char out[] = "a\033[2J\0b";
	struct line l = { 0 };
	const char *j;

	hedge_format_output(&l, &text, 2, "stderr", out, sizeof(out) - 1,
	    &now);
	unit_row(l.buf != NULL && strcmp(l.buf,
	    "retry: cmd: attempt 2 stderr: a\\x1b[2J\\x00b\n") == 0, "hedging",
	    "a loser's line in the text log, made visible", "got '%s'", l.buf);
	free(l.buf);
	l = (struct line){ 0 };
	hedge_format_output(&l, &json, 2, "stdout", out, sizeof(out) - 1,
	    &now);
	j = l.buf != NULL ? strstr(l.buf, "\"attempt\"") : NULL;
	unit_row(j != NULL && strcmp(j, "\"attempt\":2,\"stream\":\"stdout\","
	    "\"line\":\"a\\u001b[2J\\u0000b\"}\n") == 0, "hedging",
	    "a loser's line in the JSON log", "got '%s'", l.buf);
	free(l.buf);
}

void
unit_hedging(void)
{
	rows_parse();
	rows_auto();
	rows_next();
	rows_share();
	rows_words();
	rows_output();
}
