/*
 * The output rules over a stream that arrives in chunks: a row gives a
 * rule and an output, and what the scan must find, whatever the chunks.
 * Short outputs are fed whole, split in two at every byte, and a byte at
 * a time; long lines (past MATCH_WINDOW) in chunks of assorted sizes, and
 * split around the match.  Then the limits: a search that gives up, the
 * lines given up after it, and the patterns refused.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "match.h"
#include "unit.h"

/* Between the patterns of a rule given more than once. */
#define ALSO	"\037"

/* A row in the order it reads: what, the rule, the output, what it finds. */
#define ROW(name, kind, pattern, fixed, icase, output, matched, capture) \
	{ name, pattern, output, capture, kind, fixed, icase, matched }

static const struct row {
	const char	*name;
	const char	*pattern;
	const char	*output;
	const char	*capture;	/* RULE_CAPTURE: the last, or NULL */
	enum rule_kind	 kind;
	bool		 fixed, icase;
	bool		 matched;
} rows[] = {
	ROW("a plain string on its own line", RULE_UNTIL, "ready", false, false,
	  "booting\nready\n", true, NULL),
	/* Patterns given again (ALSO between them): any of them matches. */
	ROW("two patterns: the second matches", RULE_UNTIL, "ready" ALSO
	  "^up$", false, false, "booting\nup\n", true, NULL),
	ROW("two patterns: neither matches", RULE_UNTIL, "ready" ALSO "^up$",
	  false, false, "booting\nup now\n", false, NULL),
	ROW("two patterns: ^ and $ hold in each", RULE_STOP, "^a$" ALSO "^b$",
	  false, false, "ab\na b\n", false, NULL),
	ROW("two fixed strings: dots are dots, \\E is \\E", RULE_STOP,
	  "a.b" ALSO "x\\E(y", true, false, "axb\nx\\E(y\n", true, NULL),
	ROW("two fixed strings, neither found", RULE_STOP, "a.b" ALSO "x\\E(y",
	  true, false, "axb\nx\\Ey\n", false, NULL),
	ROW("two captures: each one's group is the first", RULE_CAPTURE,
	  "Retry-After: (\\d+)" ALSO "reset=(\\d+)s", false, false,
	  "Retry-After: 5\nreset=7s\n", true, "7"),
	ROW("two captures under -F: regular expressions still",
	  RULE_CAPTURE, "R: (\\d+)" ALSO "S=(\\d+)", true, false,
	  "S=4\n", true, "4"),
	ROW("two patterns, one case-blind", RULE_FAIL, "(?i)ERROR" ALSO "panic",
	  false, false, "an error\n", true, NULL),
	ROW("a plain string inside a line", RULE_UNTIL, "ready", false, false,
	  "all ready now\n", true, NULL),
	ROW("a plain string is not found across lines", RULE_UNTIL, "ready",
	  false, false, "rea\ndy\n", false, NULL),
	ROW("the last line, unfinished, is matched at the end", RULE_UNTIL,
	  "ready", false, false, "booting\nready", true, NULL),
	ROW("^ and $ hold at every line", RULE_UNTIL, "^ready$", false, false,
	  "x\nready\ny\n", true, NULL),
	ROW("^ does not hold inside a line", RULE_UNTIL, "^ready$", false,
	  false, "already\nready now\n", false, NULL),
	ROW("^...$ on an unfinished last line", RULE_UNTIL, "^ready$", false,
	  false, "x\nready", true, NULL),
	ROW("an empty line is a line", RULE_UNTIL, "^$", false, false,
	  "a\n\nb\n", true, NULL),
	ROW("after the last newline there is no line", RULE_UNTIL, "^$", false,
	  false, "a\nb\n", false, NULL),
	ROW("nor after an unfinished last line", RULE_UNTIL, "^$", false, false,
	  "a\nb", false, NULL),
	ROW("any case", RULE_FAIL, "READY", false, true, "x\nAll Ready\n", true,
	  NULL),
	ROW("a fixed string's dots are dots", RULE_STOP, "a.b", true, false,
	  "axb\na+b\n", false, NULL),
	ROW("a fixed string found", RULE_STOP, "a.b", true, false,
	  "axb\nthe a.b\n", true, NULL),
	ROW("a regex's dot is any character", RULE_STOP, "a.b", false, false,
	  "x\naxb\n", true, NULL),
	ROW("a class does not join two lines", RULE_UNTIL, "a[^x]b", false,
	  false, "a\nb\n", false, NULL),
	ROW("\\s does not join two lines", RULE_UNTIL, "a\\s+b", false, false,
	  "xa\n b\n", false, NULL),
	ROW("a match over a newline is retried on its line, the next still "
	  "found", RULE_UNTIL, "\\s+done", false, false, "x\n done\n", true,
	  NULL),
	ROW("a lookbehind, a line at a time", RULE_RETRY, "(?<=id=)42", false,
	  false, "id=41\nid=42\n", true, NULL),
	ROW("a lookbehind does not look into the line before", RULE_RETRY,
	  "(?<=id=)42", false, false, "id=\n42\n", false, NULL),
	ROW("\\A is each line's start", RULE_RETRY, "\\Aready", false, false,
	  "x\nready\n", true, NULL),
	ROW("a lookahead stops at the line's end", RULE_RETRY, "ready(?=\\n)",
	  false, false, "ready\n", false, NULL),
	ROW("a NUL byte in a line", RULE_UNTIL, "ready", false, false,
	  "\0x\nready\n", true, NULL),
	ROW("the capture: the last line's group", RULE_CAPTURE,
	  "Retry-After: ([0-9]+)", false, false,
	  "Retry-After: 5\nother\nRetry-After: 30\n", true, "30"),
	ROW("the capture: a CRLF line's group without its CR", RULE_CAPTURE,
	  "Retry-After: (.*)", false, false, "Retry-After: 7\r\n", true, "7"),
	ROW("the capture: of an unfinished last line", RULE_CAPTURE,
	  "wait ([0-9.]+)s", false, false, "wait 1s\nwait 2.5s", true, "2.5"),
	ROW("the capture: no line matches", RULE_CAPTURE, "wait ([0-9]+)s",
	  false, false, "wait s\nwaits\n", false, NULL),
	ROW("the capture: an unset group matches but captures nothing",
	  RULE_CAPTURE, "done|wait ([0-9]+)", false, false, "done\n", true,
	  NULL),
#undef ROW
};

#define NROWS	(sizeof(rows) / sizeof(rows[0]))

static struct scanner sc;

/* Feeds out[0..n) in chunks of the sizes in sizes (the last repeated),
 * or split once at split when sizes is NULL. */
static void
feed(const struct output_rules *r, const char *out, size_t n,
    const size_t *sizes, size_t nsizes, size_t split, struct scan_result *res)
{
	size_t at = 0, chunk, i = 0;

	memset(res, 0, sizeof(*res));
	sc.len = 0;
	sc.midline = false;
	if (sizes == NULL) {
		scan_chunk(r, &sc, out, split, res);
		scan_chunk(r, &sc, out + split, n - split, res);
	} else
		for (; at < n; at += chunk) {
			chunk = sizes[i < nsizes - 1 ? i++ : i];
			if (chunk > n - at)
				chunk = n - at;
			scan_chunk(r, &sc, out + at, chunk, res);
		}
	scan_end(r, &sc, res);
}

static bool
agrees(const struct scan_result *res, enum rule_kind k, bool matched,
    const char *capture)
{
	if (res->matched[k] != matched || res->limited[k])
		return false;
	if (k != RULE_CAPTURE)
		return true;
	return capture == NULL ? !res->captured : res->captured &&
	    strcmp(res->capture, capture) == 0;
}

/* The output's length: up to its last character that is not the NUL the
 * literal ends with; a row's leading NUL counts. */
static size_t
output_len(const struct row *w)
{
	return w->output[0] == '\0' ? 1 + strlen(w->output + 1) :
	    strlen(w->output);
}

/* The row's patterns, ALSO between them, compiled as one rule. */
static int
compile_row(struct output_rules *r, const struct row *w, char *err,
    size_t errsz)
{
	char buf[256], *v[8], *s = buf;
	size_t n = 0, bad;

	snprintf(buf, sizeof(buf), "%s", w->pattern);
	while (n < 8 && (v[n] = strsep(&s, ALSO)) != NULL)
		n++;
	return rule_compile_all(r, w->kind, (const char *const *)v, n,
	    w->fixed, w->icase, err, errsz, &bad);
}

static void
rows_chunks(void)
{
	static const size_t one[] = { 1 };
	char err[256];

	for (size_t i = 0; i < NROWS; i++) {
		const struct row *w = &rows[i];
		const size_t n = output_len(w);
		struct output_rules r = { 0 };
		struct scan_result res;
		long bad = -2;	/* -1: byte by byte; else the split */

		if (compile_row(&r, w, err, sizeof(err)) != 0) {
			unit_row(false, "match", w->name, "refused: %s", err);
			continue;
		}
		for (size_t split = 0; split <= n && bad == -2; split++) {
			feed(&r, w->output, n, NULL, 0, split, &res);
			if (!agrees(&res, w->kind, w->matched, w->capture))
				bad = (long)split;
		}
		if (bad == -2) {
			feed(&r, w->output, n, one, 1, 0, &res);
			if (!agrees(&res, w->kind, w->matched, w->capture))
				bad = -1;
		}
		unit_row(bad == -2, "match", w->name, "%s at %ld: matched %d, "
		    "limited %d, capture '%s'", bad == -1 ? "byte by byte" :
		    "split", bad, res.matched[w->kind], res.limited[w->kind],
		    res.captured ? res.capture : "");
		rules_free(&r);
	}
}

/*
 * A long line: len bytes of 'x' but for the needle at offset at (and, with
 * gap, a second needle gap bytes after the first one ends), then a newline
 * when nl.  What the rule finds whatever the chunks.
 */
static const struct long_row {
	const char	*name;
	const char	*pattern;
	size_t		 len, at;
	const char	*needle;
	size_t		 gap;
	const char	*needle2;
	bool		 nl, matched;
} long_rows[] = {
	{ "a plain string across the first window's end", "needle", 200000,
	  MATCH_WINDOW - 3, "needle", 0, NULL, true, true },
	{ "a regex across the first window's end", "nee+dle", 200000,
	  MATCH_WINDOW - 3, "needle", 0, NULL, true, true },
	{ "a plain string across a later window's end", "needle", 300000,
	  3 * MATCH_WINDOW - 2, "needle", 0, NULL, true, true },
	{ "a plain string in the last window, the line unfinished", "needle",
	  200000, 200000 - 6, "needle", 0, NULL, false, true },
	{ "a regex at the end of a long line, $ there", "needle$", 200000,
	  200000 - 6, "needle", 0, NULL, true, true },
	{ "$ not inside a long line", "needle$", 200000, MATCH_WINDOW + 10,
	  "needle", 0, NULL, true, false },
	{ "^ at a long line's start", "^needle", 200000, 0, "needle", 0, NULL,
	  true, true },
	{ "^ not in a later window of a long line", "^needle", 200000,
	  MATCH_WINDOW, "needle", 0, NULL, true, false },
	{ "a lookbehind across a window's end", "(?<=needle)=1", 200000,
	  MATCH_WINDOW - 7, "needle=1", 0, NULL, true, true },
	{ "a match of 60,000 bytes across windows", "start.*?end", 200000,
	  50000, "start", 60000, "end", true, true },
	{ "nothing in 200,000 bytes", "needle", 200000, 0, "x", 0, NULL, true,
	  false },
};

static char *
long_output(const struct long_row *w, size_t *n)
{
	char *s = malloc(w->len + 1);
	const size_t l1 = strlen(w->needle);

	if (s == NULL)
		abort();
	memset(s, 'x', w->len);
	memcpy(s + w->at, w->needle, l1);
	if (w->needle2 != NULL)
		memcpy(s + w->at + l1 + w->gap, w->needle2,
		    strlen(w->needle2));
	*n = w->len;
	if (w->nl)
		s[(*n)++] = '\n';
	return s;
}

static void
rows_long(void)
{
	static const size_t sizes[][3] = {
		{ 1 << 20 }, { 1 }, { 4096 }, { MATCH_WINDOW },
		{ MATCH_WINDOW - 1 }, { 7, 65521, 97 }, { 100000 },
	};
	char err[256];

	for (size_t i = 0; i < sizeof(long_rows) / sizeof(long_rows[0]); i++) {
		const struct long_row *w = &long_rows[i];
		struct output_rules r = { 0 };
		struct scan_result res;
		size_t n, bad = 0, tried = 0;
		char *s = long_output(w, &n);

		if (rule_compile(&r, RULE_UNTIL, w->pattern, false, false,
		    err, sizeof(err)) != 0) {
			unit_row(false, "match long", w->name, "refused: %s",
			    err);
			free(s);
			continue;
		}
		for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
			feed(&r, s, n, sizes[k], sizes[k][2] != 0 ? 3 : 1, 0,
			    &res);
			bad += !agrees(&res, RULE_UNTIL, w->matched, NULL);
			tried++;
		}
		/* Split around the needle, and inside it. */
		for (size_t d = 0; d < 16 && w->at + d <= n; d++) {
			feed(&r, s, n, NULL, 0, w->at + d, &res);
			bad += !agrees(&res, RULE_UNTIL, w->matched, NULL);
			tried++;
		}
		unit_row(bad == 0, "match long", w->name, "%zu of %zu feeds "
		    "wrong", bad, tried);
		rules_free(&r);
		free(s);
	}
}

/* A pattern that backtracks past MATCH_LIMIT on a line of a's and a b. */
#define SLOW	"^(a|a?)+$"

static char *
slow_lines(size_t bad, const char *last, size_t *n)
{
	const size_t line = 40;
	char *s = malloc(bad * (line + 1) + strlen(last) + 1);

	if (s == NULL)
		abort();
	*n = 0;
	for (size_t i = 0; i < bad; i++) {
		memset(s + *n, 'a', line - 1);
		s[*n + line - 1] = 'b';
		s[*n + line] = '\n';
		*n += line + 1;
	}
	memcpy(s + *n, last, strlen(last) + 1);
	*n += strlen(last);
	return s;
}

/* The limits: a search that gives up says so, a line that does not match
 * after it is still matched, and after LIMITED_LINES such lines in one run
 * of lines, the rest of the run is given up. */
static void
rows_limits(void)
{
	static const struct {
		const char	*name;
		size_t		 bad;
		const char	*last;
		bool		 chunked, matched, limited;
	} t[] = {
		{ "a line past the limit gives up, and says so", 1, "", false,
		  false, true },
		{ "a line after one past the limit is still matched", 1,
		  "aaaa\n", false, true, true },
		{ "a line after three past the limit is still matched", 3,
		  "aaaa\n", false, true, true },
		{ "after four past the limit, the rest of the run goes", 4,
		  "aaaa\n", false, false, true },
		{ "four past the limit in chunks of their own: the next chunk "
		  "is matched", 4, "aaaa\n", true, true, true },
	};
	char err[256];
	struct output_rules r = { 0 };
	struct scan_result res, one;
	size_t n;

	if (rule_compile(&r, RULE_UNTIL, SLOW, false, false, err,
	    sizeof(err)) != 0) {
		unit_row(false, "match limits", SLOW, "refused: %s", err);
		return;
	}
	memset(&one, 0, sizeof(one));
	unit_row(rule_line(&r, RULE_UNTIL, "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab",
	    32, &one) == -1 && !one.matched[RULE_UNTIL], "match limits",
	    "rule_line: a search past the limit is -1", "matched %d",
	    one.matched[RULE_UNTIL]);
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		char *s = slow_lines(t[i].bad, t[i].last, &n);
		const size_t line[] = { 41 };

		feed(&r, s, n, t[i].chunked ? line : NULL, 1, n, &res);
		unit_row(res.matched[RULE_UNTIL] == t[i].matched &&
		    res.limited[RULE_UNTIL] == t[i].limited, "match limits",
		    t[i].name, "matched %d, limited %d",
		    res.matched[RULE_UNTIL], res.limited[RULE_UNTIL]);
		free(s);
	}
	rules_free(&r);
}

/* Several rules over one output: each finds its own line. */
static void
row_rules(void)
{
	static const char out[] = "warming up\nerror: busy\nretry later\n";
	static const size_t one[] = { 1 };
	char err[256] = "";
	struct output_rules r = { 0 };
	struct scan_result res = { 0 };
	bool ok;

	ok = rule_compile(&r, RULE_UNTIL, "ready", false, false, err,
	    sizeof(err)) == 0 && rule_compile(&r, RULE_FAIL, "^error:",
	    false, false, err, sizeof(err)) == 0 && rule_compile(&r,
	    RULE_RETRY, "RETRY", false, true, err, sizeof(err)) == 0;
	for (int k = 0; ok && k < 2; k++) {
		feed(&r, out, sizeof(out) - 1, k == 0 ? NULL : one, 1,
		    sizeof(out) - 1, &res);
		ok = !res.matched[RULE_UNTIL] && res.matched[RULE_FAIL] &&
		    res.matched[RULE_RETRY] && !res.matched[RULE_STOP];
	}
	unit_row(ok, "match", "several rules, each its own line",
	    "until %d, fail %d, retry %d (%s)", res.matched[RULE_UNTIL],
	    res.matched[RULE_FAIL], res.matched[RULE_RETRY], err);
	rules_free(&r);
}

/* Patterns refused, and why. */
static void
rows_refused(void)
{
	static const struct {
		enum rule_kind	 kind;
		const char	*pattern;
		const char	*why;
	} t[] = {
		{ RULE_UNTIL, "(a)\\1",
		  "back-references such as \\1 are not supported" },
		{ RULE_CAPTURE, "Retry-After: [0-9]+", "needs a group in "
		  "parentheses, as in 'Retry-After: ([0-9]+)'" },
		{ RULE_UNTIL, "a(b",
		  "missing closing parenthesis (at offset 3)" },
	};
	char err[256];

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct output_rules r = { 0 };
		const int rc = rule_compile(&r, t[i].kind, t[i].pattern, false,
		    false, err, sizeof(err));

		unit_row(rc == -1 && strcmp(err, t[i].why) == 0 &&
		    !rule_given(&r, t[i].kind), "match refused", t[i].pattern,
		    "status %d, error '%s'", rc, rc == 0 ? "" : err);
		rules_free(&r);
	}
}

void
unit_match(void)
{
	rows_chunks();
	rows_long();
	rows_limits();
	row_rules();
	rows_refused();
}
