/*
 * Line matching over chunks.  Complete lines inside a chunk are matched in
 * one regexec over the whole run of them (REG_NEWLINE keeps every match
 * within a line), so the cost is the regex engine's scan, not a call per
 * line; only a line split across chunks is assembled, in a bounded buffer.
 */
#include <stdlib.h>
#include <string.h>

#include "match.h"

/* ERE metacharacters, escaped for --fixed-strings. */
static const char special[] = "\\.[]()*+?{}|^$";

static void
rule_free(struct rules_set *r, int k)
{
	regfree(&r->re[k]);
	free(r->literal[k]);
	r->literal[k] = NULL;
	r->set[k] = false;
}

int
rule_compile(struct rules_set *r, enum rule_kind k, const char *pattern,
    bool fixed, bool icase, char *err, size_t errsz)
{
	const size_t len = strlen(pattern);
	const bool plain = fixed || strpbrk(pattern, special) == NULL;
	char *escaped = NULL, *q;
	int e, flags = REG_EXTENDED | REG_NEWLINE | REG_NOSUB;

	if (r->set[k])
		rule_free(r, (int)k);
	if (icase)
		flags |= REG_ICASE;
	if (fixed) {
		if ((escaped = q = malloc(2 * len + 1)) == NULL) {
			strlcpy(err, "out of memory", errsz);
			return -1;
		}
		for (const char *s = pattern; *s != '\0'; s++) {
			if (strchr(special, *s) != NULL)
				*q++ = '\\';
			*q++ = *s;
		}
		*q = '\0';
	}
	e = regcomp(&r->re[k], escaped != NULL ? escaped : pattern, flags);
	free(escaped);
	if (e != 0) {
		regerror(e, &r->re[k], err, errsz);
		return -1;
	}
	r->set[k] = true;
	/* memmem is far faster than the regex engine on a plain string. */
	if (plain && !icase && (r->literal[k] = strdup(pattern)) != NULL)
		r->litlen[k] = len;
	return 0;
}

void
rules_free(struct rules_set *r)
{
	for (int k = 0; k < RULE_COUNT; k++)
		if (r->set[k])
			rule_free(r, k);
}

bool
rules_any(const struct rules_set *r)
{
	for (int k = 0; k < RULE_COUNT; k++)
		if (r->set[k])
			return true;
	return false;
}

/* Matches the lines in s[0..n), which end at n or at a newline. */
static void
match_lines(const struct rules_set *r, const char *s, size_t n,
    bool matched[RULE_COUNT])
{
	regmatch_t m;

	for (int k = 0; k < RULE_COUNT; k++) {
		if (!r->set[k] || matched[k])
			continue;
		if (r->literal[k] != NULL) {
			matched[k] = memmem(s, n, r->literal[k],
			    r->litlen[k]) != NULL;
			continue;
		}
		m.rm_so = 0;
		m.rm_eo = (regoff_t)n;
		if (regexec(&r->re[k], s, 1, &m, REG_STARTEND) == 0)
			matched[k] = true;
	}
}

static void
flush(const struct rules_set *r, struct scanner *sc, bool matched[RULE_COUNT])
{
	sc->line[sc->len] = '\0';
	match_lines(r, sc->line, sc->len, matched);
	sc->len = 0;
}

/* Appends to the carried line; a full buffer is matched as a piece. */
static void
carry(const struct rules_set *r, struct scanner *sc, const char *s, size_t n,
    bool matched[RULE_COUNT])
{
	size_t room;

	while (n > 0) {
		room = MATCH_LINE_MAX - sc->len;
		if (room > n)
			room = n;
		memcpy(sc->line + sc->len, s, room);
		sc->len += room;
		s += room;
		n -= room;
		if (sc->len == MATCH_LINE_MAX)
			flush(r, sc, matched);
	}
}

void
scan_chunk(const struct rules_set *r, struct scanner *sc, const char *s,
    size_t n, bool matched[RULE_COUNT])
{
	const char *nl, *last;

	if ((nl = memchr(s, '\n', n)) == NULL) {
		carry(r, sc, s, n, matched);
		return;
	}
	/* The line begun in an earlier chunk ends here. */
	carry(r, sc, s, (size_t)(nl - s), matched);
	flush(r, sc, matched);
	n -= (size_t)(nl + 1 - s);
	s = nl + 1;
	if ((last = memrchr(s, '\n', n)) != NULL) {
		/* Whole lines, in pieces of at most MATCH_LINE_MAX. */
		const char *end = last, *p = s;

		while ((size_t)(end - p) > MATCH_LINE_MAX) {
			const char *cut = memrchr(p, '\n', MATCH_LINE_MAX);

			cut = cut != NULL ? cut : p + MATCH_LINE_MAX;
			match_lines(r, p, (size_t)(cut - p), matched);
			p = *cut == '\n' ? cut + 1 : cut;
		}
		match_lines(r, p, (size_t)(end - p), matched);
		n -= (size_t)(last + 1 - s);
		s = last + 1;
	}
	carry(r, sc, s, n, matched);
}

void
scan_end(const struct rules_set *r, struct scanner *sc,
    bool matched[RULE_COUNT])
{
	if (sc->len > 0)
		flush(r, sc, matched);
}
