/*
 * Line matching over chunks, with PCRE2.  The complete lines of a chunk are
 * searched in one call over the whole run of them (PCRE2_MULTILINE, so ^ and
 * $ hold at every line); a match that runs over a newline, which a class
 * such as [^x] or \s can do, is checked again on its first line alone.  A
 * pattern whose meaning depends on more than its line (lookaround, \A, \z,
 * \G, \K, verbs) is matched a line at a time.  A line longer than the
 * window is matched in windows, each keeping what a partial match
 * (PCRE2_PARTIAL_HARD) still needs, and marked PCRE2_NOTBOL when it does
 * not begin the line.  Every search is bounded by MATCH_LIMIT steps and a
 * small heap, so that no pattern and no line can hold retry up.
 */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib.h"
#include "match.h"

/* PCRE2, loaded when the first pattern that is not a plain string comes
 * (lib.h). */
#define PCRE2_FUNCS(X) \
	X(pcre2_code_free) X(pcre2_compile) X(pcre2_compile_context_create) \
	X(pcre2_compile_context_free) X(pcre2_get_error_message) \
	X(pcre2_get_ovector_pointer) PCRE2_JIT_FUNCS(X) \
	X(pcre2_match) X(pcre2_match_context_create) \
	X(pcre2_match_context_free) X(pcre2_match_data_create) \
	X(pcre2_match_data_free) X(pcre2_pattern_info) \
	X(pcre2_set_depth_limit) X(pcre2_set_heap_limit) \
	X(pcre2_set_match_limit) X(pcre2_set_newline)
/* Without the JIT (a platform without it, a build for valgrind, which
 * cannot follow JIT code, or the musl build, which leaves its 200 KiB
 * out), none of its functions is named, and the interpreter runs. */
#ifdef RETRY_NO_JIT
#define PCRE2_JIT_FUNCS(X)
#else
#define PCRE2_JIT_FUNCS(X) \
	X(pcre2_jit_compile) X(pcre2_jit_stack_assign) \
	X(pcre2_jit_stack_create) X(pcre2_jit_stack_free)
#endif


const char *
rule_option(enum rule_kind k)
{
	static const char *const names[RULE_COUNT] = {
		[RULE_UNTIL] = "--output until", [RULE_FAIL] = "--output fail",
		[RULE_RETRY] = "--output retry", [RULE_STOP] = "--output stop",
		[RULE_CAPTURE] = "--output delay",
	};

	return k < RULE_COUNT ? names[k] : "--output";
}

static struct pcre2_api { PCRE2_FUNCS(LIB_MEMBER) } api;

struct rule {
	pcre2_code	*re;		/* NULL: lit is searched with memmem */
	char		*lit;
	size_t		 litlen;
	bool		 per_line;	/* its meaning needs the line alone */
	size_t		 behind;	/* what a window keeps for lookbehind */
};

/* Characters that make a pattern more than a plain string. */
static const char special[] = "\\^$.[]|()?*+{}";

/* Constructs that look beyond a match or a line, found by their text (a
 * false alarm costs only speed). */
static const char *const beyond[] = {
	"(?=", "(?!", "(?<", "(*", "\\A", "\\z", "\\Z", "\\G", "\\K",
};

#define HEAP_LIMIT_KIB	8192
#define LIMITED_LINES	4	/* per run of lines, then the rest goes */
#define JIT_STACK_MAX	(512 * 1024)

/* NULL once PCRE2 is there, or why it is not. */
static const char *
pcre2_load(void)
{
#ifdef RETRY_PCRE2_SONAME
	static const char *const names[] = { PCRE2_FUNCS(LIB_NAME) };
	static const struct lib_part part = { RETRY_PCRE2_SONAME, names,
		LIB_COUNT(names) };
	static struct lib_once once;
	_Static_assert(sizeof(api) == LIB_COUNT(names) * sizeof(void *),
	    "a name for each function");

	return lib_once(&once, &part, 1, (void **)&api);
#else
	struct pcre2_api *t = &api;

	PCRE2_FUNCS(LIB_LINKED)
	return NULL;
#endif
}

static void
rule_free(struct rule *ru)
{
	if (ru == NULL)
		return;
	if (ru->re != NULL)
		api.pcre2_code_free(ru->re);
	free(ru->lit);
	free(ru);
}

/* The match data, limits and JIT stack that every rule's search uses. */
static int
state_init(struct output_rules *r)
{
	if (r->md != NULL)
		return 0;
	r->md = api.pcre2_match_data_create(2, NULL);
	r->mc = api.pcre2_match_context_create(NULL);
	if (r->md == NULL || r->mc == NULL)
		return -1;
#ifndef RETRY_NO_JIT
	if ((r->stack = api.pcre2_jit_stack_create(32 * 1024, JIT_STACK_MAX,
	    NULL)) == NULL)
		return -1;
	api.pcre2_jit_stack_assign(r->mc, NULL, r->stack);
#endif
	api.pcre2_set_match_limit(r->mc, MATCH_LIMIT);
	api.pcre2_set_depth_limit(r->mc, MATCH_LIMIT);
	api.pcre2_set_heap_limit(r->mc, HEAP_LIMIT_KIB);
	return 0;
}

static bool
looks_beyond(const char *pattern)
{
	for (size_t i = 0; i < sizeof(beyond) / sizeof(beyond[0]); i++)
		if (strstr(pattern, beyond[i]) != NULL)
			return true;
	return false;
}

static int
compile(struct rule *ru, const char *pattern, bool fixed, bool icase,
    bool capture, char *err, size_t errsz)
{
	const uint32_t opts = (fixed ? PCRE2_LITERAL : PCRE2_MULTILINE |
	    PCRE2_NEVER_BACKSLASH_C) | (icase ? PCRE2_CASELESS : 0);
	pcre2_compile_context *cc;
	PCRE2_UCHAR msg[256];
	PCRE2_SIZE at;
	uint32_t n = 0;
	int e;

	if ((cc = api.pcre2_compile_context_create(NULL)) == NULL) {
		snprintf(err, errsz, "out of memory");
		return -1;
	}
	api.pcre2_set_newline(cc, PCRE2_NEWLINE_LF);
	ru->re = api.pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED,
	    opts, &e, &at, cc);
	api.pcre2_compile_context_free(cc);
	if (ru->re == NULL) {
		api.pcre2_get_error_message(e, msg, sizeof(msg));
		snprintf(err, errsz, "%s (at offset %zu)", (char *)msg,
		    (size_t)at);
		return -1;
	}
	/* They make a search exponential, and are not needed for lines. */
	if (api.pcre2_pattern_info(ru->re, PCRE2_INFO_BACKREFMAX, &n) == 0 &&
	    n > 0) {
		snprintf(err, errsz, "back-references such as \\1 are not "
		    "supported");
		return -1;
	}
	if (capture && (api.pcre2_pattern_info(ru->re, PCRE2_INFO_CAPTURECOUNT,
	    &n) != 0 || n < 1)) {
		snprintf(err, errsz, "needs a group in parentheses, as in "
		    "'Retry-After: ([0-9]+)'");
		return -1;
	}
	if (api.pcre2_pattern_info(ru->re, PCRE2_INFO_MAXLOOKBEHIND, &n) == 0)
		ru->behind = n < MATCH_WINDOW / 4 ? n : MATCH_WINDOW / 4;
	ru->per_line = !fixed && looks_beyond(pattern);
#ifndef RETRY_NO_JIT
	(void)api.pcre2_jit_compile(ru->re, PCRE2_JIT_COMPLETE |
	    PCRE2_JIT_PARTIAL_HARD);
#endif
	return 0;
}

int
rule_compile(struct output_rules *r, enum rule_kind k, const char *pattern,
    bool fixed, bool icase, char *err, size_t errsz)
{
	const bool capture = k == RULE_CAPTURE;
	struct rule *ru;
	const char *why;

	rule_free(r->rule[k]);
	r->rule[k] = NULL;
	if ((ru = calloc(1, sizeof(*ru))) == NULL) {
		snprintf(err, errsz, "out of memory");
		return -1;
	}
	/* memmem is faster than any regex engine on a plain string, and
	 * needs no library. */
	if (!capture && !icase && (fixed ||
	    strpbrk(pattern, special) == NULL)) {
		if ((ru->lit = strdup(pattern)) == NULL) {
			free(ru);
			snprintf(err, errsz, "out of memory");
			return -1;
		}
		ru->litlen = strlen(pattern);
	} else if ((why = pcre2_load()) != NULL) {
		free(ru);
		snprintf(err, errsz, "regular expressions need PCRE2: %s", why);
		return -2;
	} else if (state_init(r) == -1) {
		free(ru);
		snprintf(err, errsz, "out of memory");
		return -1;
	} else if (compile(ru, pattern, fixed && !capture, icase, capture,
	    err, errsz) == -1) {
		rule_free(ru);
		return -1;
	}
	r->rule[k] = ru;
	return 0;
}

/* Appends s to the pattern at *buf (length *len) as an alternative: as
 * is, or, fixed, as a plain string, \Q...\E, a \E in it written \E\\E\Q.
 * Room is left for the ")" that closes the whole. */
static int
join(char **buf, size_t *len, const char *s, bool fixed)
{
	const size_t need = *len + strlen(s) * 4 + 16;
	char *b;
	size_t o;

	if ((b = realloc(*buf, need)) == NULL)
		return -1;
	*buf = b;
	o = *len;
	o += (size_t)snprintf(b + o, need - o, "%s(?:%s", o > 0 ? "|" : "(?|",
	    fixed ? "\\Q" : "");
	for (; *s != '\0'; s++)
		if (fixed && s[0] == '\\' && s[1] == 'E') {
			o += (size_t)snprintf(b + o, need - o, "\\E\\\\E\\Q");
			s++;
		} else
			b[o++] = *s;
	o += (size_t)snprintf(b + o, need - o, "%s)", fixed ? "\\E" : "");
	*len = o;
	return 0;
}

int
rule_compile_all(struct output_rules *r, enum rule_kind k,
    const char *const *patterns, size_t n, bool fixed, bool icase, char *err,
    size_t errsz, size_t *bad)
{
	char *all = NULL;
	size_t len = 0;
	int rc;

	/* Each alone first, so that a refusal names its pattern. */
	for (*bad = 0; *bad < n; (*bad)++)
		if ((rc = rule_compile(r, k, patterns[*bad], fixed, icase, err,
		    errsz)) != 0)
			return rc;
	if (n < 2)
		return 0;
	*bad = 0;
	/* --delay-from-output's patterns are regular expressions even
	 * with -F, as rule_compile takes them. */
	for (size_t i = 0; i < n; i++)
		if (join(&all, &len, patterns[i], fixed && k != RULE_CAPTURE)
		    == -1) {
			free(all);
			snprintf(err, errsz, "out of memory");
			return -1;
		}
	all[len] = ')';
	all[len + 1] = '\0';
	rc = rule_compile(r, k, all, false, icase, err, errsz);
	free(all);
	return rc;
}

void
rules_free(struct output_rules *r)
{
	for (int k = 0; k < RULE_COUNT; k++) {
		rule_free(r->rule[k]);
		r->rule[k] = NULL;
	}
	/* Made with the first pattern, and so with PCRE2 there. */
	if (api.pcre2_match_data_free != NULL) {
		api.pcre2_match_data_free(r->md);
		api.pcre2_match_context_free(r->mc);
#ifndef RETRY_NO_JIT
		api.pcre2_jit_stack_free(r->stack);
#endif
	}
	r->md = r->mc = r->stack = NULL;
}

bool
rules_any(const struct output_rules *r)
{
	for (int k = 0; k < RULE_COUNT; k++)
		if (r->rule[k] != NULL)
			return true;
	return false;
}

bool
rule_given(const struct output_rules *r, enum rule_kind k)
{
	return r->rule[k] != NULL;
}

enum found { F_NONE, F_MATCH, F_PARTIAL, F_LIMIT };

/*
 * One search of s[0..n) from at; ov gets the match (and group 1), or the
 * start of a partial match.
 */
static enum found
search(const struct output_rules *r, const struct rule *ru, const char *s,
    size_t n, size_t at, uint32_t opts, size_t ov[4])
{
	const PCRE2_SIZE *v;
	const char *p;
	int rc;

	if (ru->re == NULL) {
		if ((p = memmem(s + at, n - at, ru->lit, ru->litlen)) == NULL)
			return F_NONE;
		ov[0] = (size_t)(p - s);
		ov[1] = ov[0] + ru->litlen;
		return F_MATCH;
	}
	rc = api.pcre2_match(ru->re, (PCRE2_SPTR)s, n, at, opts, r->md, r->mc);
	v = api.pcre2_get_ovector_pointer(r->md);
	if (rc == PCRE2_ERROR_NOMATCH)
		return F_NONE;
	if (rc == PCRE2_ERROR_PARTIAL) {
		ov[0] = v[0];
		return F_PARTIAL;
	}
	if (rc < 0)
		return F_LIMIT;
	for (int i = 0; i < 4; i++)
		ov[i] = rc == 1 && i >= 2 ? PCRE2_UNSET : v[i];
	return F_MATCH;
}

/* Group 1 of a match in s, without the CR of a CRLF line. */
static void
keep_capture(struct scan_result *res, const char *s, const size_t ov[4])
{
	size_t len;

	if (ov[2] == PCRE2_UNSET)
		return;
	len = ov[3] - ov[2];
	if (len > 0 && s[ov[2] + len - 1] == '\r')
		len--;
	if (len >= sizeof(res->capture))
		len = sizeof(res->capture) - 1;
	memcpy(res->capture, s + ov[2], len);
	res->capture[len] = '\0';
	res->captured = true;
}

/* Records a match of rule k; false when the rule wants no more. */
static bool
found(enum rule_kind k, const char *s, const size_t ov[4],
    struct scan_result *res)
{
	if (k != RULE_CAPTURE) {
		res->matched[k] = true;
		return false;
	}
	res->matched[k] = true;
	keep_capture(res, s, ov);
	return true;
}

int
rule_line(const struct output_rules *r, enum rule_kind k, const char *s,
    size_t n, struct scan_result *res)
{
	size_t ov[4];

	switch (search(r, r->rule[k], s, n, 0, 0, ov)) {
	case F_MATCH:
		(void)found(k, s, ov, res);
		return 0;
	case F_NONE:
		return 0;
	default:
		return -1;
	}
}

/*
 * Rule k over the lines of s[0..n), each ended by a newline but the last,
 * which may end at n (opts: NOTBOL when s does not begin its line).  The
 * newline after the last line stays in the subject, since PCRE2's ^ does
 * not match after a newline that ends it.  Stops at the first matching
 * line, except for the capture, which wants the last.  A search over many
 * lines that meets the limit goes on a line at a time, so that one bad
 * line costs only itself; after LIMITED_LINES such lines, the rest is
 * given up.
 */
static void
lines(const struct output_rules *r, enum rule_kind k, const char *s, size_t n,
    uint32_t opts, struct scan_result *res)
{
	const struct rule *ru = r->rule[k];
	const bool open = n == 0 || s[n - 1] != '\n';
	bool one = ru->per_line;
	const char *nl, *base;		/* what ov counts from */
	size_t at = 0, ls, le, ov[4], limited = 0;
	enum found f;

	while (at < n || (at == n && open)) {
		if (one) {
			/* The line alone, as its own subject. */
			nl = memchr(s + at, '\n', n - at);
			ls = at;
			le = nl != NULL ? (size_t)(nl - s) : n;
			base = s + ls;
			f = search(r, ru, base, le - ls, 0, ls == 0 ? opts : 0,
			    ov);
		} else {
			if ((f = search(r, ru, s, n, at, opts, ov)) == F_LIMIT) {
				one = true;
				continue;
			}
			/* After the last newline there is no line. */
			if (f != F_MATCH || (ov[0] == n && !open))
				return;
			nl = ov[0] > at ? memrchr(s + at, '\n', ov[0] - at) :
			    NULL;
			ls = nl != NULL ? (size_t)(nl + 1 - s) : at;
			nl = memchr(s + ov[0], '\n', n - ov[0]);
			le = nl != NULL ? (size_t)(nl - s) : n;
			base = s;
			/* Over a newline: its first line alone decides. */
			if (ov[1] > le) {
				base = s + ls;
				f = search(r, ru, base, le - ls, 0,
				    ls == 0 ? opts : 0, ov);
			}
		}
		if (f == F_LIMIT) {
			res->limited[k] = true;
			if (++limited == LIMITED_LINES)
				return;
		} else if (f == F_MATCH && !found(k, base, ov, res))
			return;
		at = le + 1;
	}
}

static void
all_lines(const struct output_rules *r, const char *s, size_t n, uint32_t opts,
    struct scan_result *res)
{
	for (int k = 0; k < RULE_COUNT; k++)
		if (r->rule[k] != NULL && (k == RULE_CAPTURE ||
		    !res->matched[k]))
			lines(r, (enum rule_kind)k, s, n, opts, res);
}

/* Where the last n of len bytes begin. */
static size_t
tail(size_t len, size_t n)
{
	return n < len ? len - n : 0;
}

/*
 * A full window of an unfinished line: each rule searches it, and the
 * window keeps what a partial match or a lookbehind still needs.
 */
static void
window(const struct output_rules *r, struct scanner *sc, struct scan_result *res)
{
	const uint32_t opts = PCRE2_NOTEOL | PCRE2_PARTIAL_HARD |
	    (sc->midline ? PCRE2_NOTBOL : 0);
	size_t keep = sc->len, ov[4], from;
	const struct rule *ru;

	for (int k = 0; k < RULE_COUNT; k++) {
		if ((ru = r->rule[k]) == NULL ||
		    (k != RULE_CAPTURE && res->matched[k]))
			continue;
		switch (search(r, ru, sc->line, sc->len, 0, opts, ov)) {
		case F_MATCH:
			if (!found((enum rule_kind)k, sc->line, ov, res))
				continue;
			from = tail(sc->len, ru->behind);
			break;
		case F_PARTIAL:
			from = ov[0] - (ov[0] < ru->behind ? ov[0] : ru->behind);
			break;
		case F_LIMIT:
			res->limited[k] = true;
			continue;
		default:
			/* A plain string may begin in the window's tail. */
			from = tail(sc->len, ru->re == NULL ? ru->litlen - 1 :
			    ru->behind);
			break;
		}
		if (from < keep)
			keep = from;
	}
	/* A match longer than the window cannot be held: let it go. */
	if (keep == 0)
		keep = sc->len / 2;
	memmove(sc->line, sc->line + keep, sc->len - keep);
	sc->len -= keep;
	sc->midline = true;
}

static void
append(const struct output_rules *r, struct scanner *sc, const char *s,
    size_t n, struct scan_result *res)
{
	size_t room;

	while (n > 0) {
		room = MATCH_WINDOW - sc->len;
		if (room > n)
			room = n;
		memcpy(sc->line + sc->len, s, room);
		sc->len += room;
		s += room;
		n -= room;
		if (sc->len == MATCH_WINDOW)
			window(r, sc, res);
	}
}

/* The carried line has ended. */
static void
finish(const struct output_rules *r, struct scanner *sc, struct scan_result *res)
{
	all_lines(r, sc->line, sc->len, sc->midline ? PCRE2_NOTBOL : 0, res);
	sc->len = 0;
	sc->midline = false;
}

void
scan_chunk(const struct output_rules *r, struct scanner *sc, const char *s,
    size_t n, struct scan_result *res)
{
	const char *nl;

	while (n > 0) {
		if (sc->len > 0 || sc->midline) {
			/* The line begun in an earlier chunk goes on. */
			nl = memchr(s, '\n', n);
			append(r, sc, s, nl != NULL ? (size_t)(nl - s) : n, res);
			if (nl == NULL)
				return;
			finish(r, sc, res);
			n -= (size_t)(nl + 1 - s);
			s = nl + 1;
			continue;
		}
		if ((nl = memrchr(s, '\n', n)) != NULL) {
			all_lines(r, s, (size_t)(nl + 1 - s), 0, res);
			n -= (size_t)(nl + 1 - s);
			s = nl + 1;
		}
		append(r, sc, s, n, res);
		return;
	}
}

void
scan_end(const struct output_rules *r, struct scanner *sc,
    struct scan_result *res)
{
	if (sc->len > 0 || sc->midline)
		finish(r, sc, res);
}
