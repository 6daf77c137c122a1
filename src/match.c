/*
 * Line matching over chunks.  Complete lines inside a chunk are matched in
 * one regexec over the whole run of them (REG_NEWLINE keeps every match
 * within a line), so the cost is the regex engine's scan, not a call per
 * line; only a line split across chunks is assembled, in a bounded buffer.
 */
#include <stdlib.h>
#include <string.h>

#include "match.h"
#include "recost.h"

/* ERE metacharacters, escaped for --fixed-strings. */
static const char special[] = "\\.[]()*+?{}|^$";

/*
 * The longest run of characters that every match of the ERE p contains, or
 * NULL. Conservative: nothing for an alternation; groups, bracket
 * expressions, anchors, '.' and unknown escapes end a run and are skipped
 * whole; a character under ?, * or an interval is left out; one under +
 * only is kept, and ends the run.
 */
static char *
required(const char *p, size_t *lenp)
{
	const size_t len = strlen(p);
	char *run, *best;
	size_t cur = 0, nbest = 0, i = 0, j;
	bool optional, plus;
	int depth;
	char c;

	if (strchr(p, '|') != NULL || (run = malloc(2 * len + 2)) == NULL)
		return NULL;
	best = run + len + 1;
	for (;;) {
		c = '\0';
		if (p[i] == '\\' && p[i + 1] != '\0' &&
		    strchr(special, p[i + 1]) != NULL) {
			c = p[i + 1];
			j = i + 2;
		} else if (p[i] != '\0' && strchr(special, p[i]) == NULL) {
			c = p[i];
			j = i + 1;
		}
		if (c != '\0') {
			/* Its quantifiers, stacked ones too. */
			optional = plus = false;
			while (p[j] != '\0' && strchr("?*+{", p[j]) != NULL) {
				if (p[j] == '+')
					plus = true;
				else
					optional = true;
				if (p[j] == '{')
					while (p[j] != '\0' && p[j] != '}')
						j++;
				if (p[j] != '\0')
					j++;
			}
			i = j;
			if (!optional)
				run[cur++] = c;
			if (!optional && !plus)
				continue;
		}
		if (cur > nbest) {
			memcpy(best, run, cur);
			nbest = cur;
		}
		cur = 0;
		if (c != '\0')
			continue;
		if (p[i] == '\0')
			break;
		/* Not a literal: skip it whole. */
		if (p[i] == '[') {
			i++;
			if (p[i] == '^')
				i++;
			if (p[i] == ']')
				i++;
			while (p[i] != '\0' && p[i] != ']') {
				/* [:class:], [.coll.] and [=equiv=] */
				if (p[i] == '[' && p[i + 1] != '\0' &&
				    strchr(":.=", p[i + 1]) != NULL) {
					c = p[i + 1];
					for (i += 2; p[i] != '\0' &&
					    !(p[i] == c && p[i + 1] == ']'); i++)
						;
					if (p[i] != '\0')
						i++;
				}
				if (p[i] != '\0')
					i++;
			}
		} else if (p[i] == '(') {
			for (depth = 0; p[i] != '\0'; i++) {
				if (p[i] == '\\' && p[i + 1] != '\0')
					i++;
				else if (p[i] == '(')
					depth++;
				else if (p[i] == ')' && --depth == 0)
					break;
			}
		} else if (p[i] == '{') {
			while (p[i] != '\0' && p[i] != '}')
				i++;
		} else if (p[i] == '\\' && p[i + 1] != '\0')
			i++;
		if (p[i] != '\0')
			i++;
	}
	if (nbest == 0) {
		free(run);
		return NULL;
	}
	memmove(run, best, nbest);
	run[nbest] = '\0';
	*lenp = nbest;
	return run;
}

static void
rule_free(struct rules_set *r, int k)
{
	regfree(&r->re[k]);
	free(r->literal[k]);
	r->literal[k] = NULL;
	free(r->must[k]);
	r->must[k] = NULL;
	r->set[k] = false;
}

int
rule_compile(struct rules_set *r, enum rule_kind k, const char *pattern,
    bool fixed, bool icase, char *err, size_t errsz)
{
	const size_t len = strlen(pattern);
	const bool plain = fixed || strpbrk(pattern, special) == NULL;
	char *escaped = NULL, *q;
	const char *why;
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
	if ((why = re_cost_check(pattern)) != NULL) {
		free(escaped);
		strlcpy(err, why, errsz);
		return -1;
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
	else if (!plain && !icase)
		r->must[k] = required(pattern, &r->mustlen[k]);
	return 0;
}

int
capture_compile(struct rules_set *r, const char *pattern, bool icase,
    char *err, size_t errsz)
{
	const char *why;
	int e, flags = REG_EXTENDED | REG_NEWLINE;

	if (icase)
		flags |= REG_ICASE;
	if ((why = re_cost_check(pattern)) != NULL) {
		strlcpy(err, why, errsz);
		return -1;
	}
	if ((e = regcomp(&r->capture, pattern, flags)) != 0) {
		regerror(e, &r->capture, err, errsz);
		return -1;
	}
	r->capturing = true;
	if (r->capture.re_nsub < 1) {
		strlcpy(err, "needs a group in parentheses, as in "
		    "'Retry-After: ([0-9]+)'", errsz);
		return -1;
	}
	return 0;
}

void
rules_free(struct rules_set *r)
{
	for (int k = 0; k < RULE_COUNT; k++)
		if (r->set[k])
			rule_free(r, k);
	if (r->capturing) {
		regfree(&r->capture);
		r->capturing = false;
	}
}

bool
rules_any(const struct rules_set *r)
{
	for (int k = 0; k < RULE_COUNT; k++)
		if (r->set[k])
			return true;
	return r->capturing;
}

/* Keeps the first group of the last line in s[0..n) that matches. */
static void
capture_lines(const struct rules_set *r, const char *s, size_t n,
    struct scan_result *res)
{
	const char *end = s + n, *nl;
	regmatch_t m[2];
	size_t len;

	for (; s < end; s = nl + 1) {
		if ((nl = memchr(s, '\n', (size_t)(end - s))) == NULL)
			nl = end;
		m[0].rm_so = 0;
		m[0].rm_eo = (regoff_t)(nl - s);
		if (regexec(&r->capture, s, 2, m, REG_STARTEND) != 0 ||
		    m[1].rm_so < 0)
			continue;
		len = (size_t)(m[1].rm_eo - m[1].rm_so);
		if (len >= sizeof(res->capture))
			len = sizeof(res->capture) - 1;
		memcpy(res->capture, s + m[1].rm_so, len);
		res->capture[len] = '\0';
		res->captured = true;
	}
}

/* Matches the lines in s[0..n), which end at n or at a newline. */
static void
match_lines(const struct rules_set *r, const char *s, size_t n,
    struct scan_result *res)
{
	bool *matched = res->matched;
	regmatch_t m;

	for (int k = 0; k < RULE_COUNT; k++) {
		if (!r->set[k] || matched[k])
			continue;
		if (r->literal[k] != NULL) {
			matched[k] = memmem(s, n, r->literal[k],
			    r->litlen[k]) != NULL;
			continue;
		}
		/* No line holds what every match holds: none matches. */
		if (r->must[k] != NULL &&
		    memmem(s, n, r->must[k], r->mustlen[k]) == NULL)
			continue;
		m.rm_so = 0;
		m.rm_eo = (regoff_t)n;
		if (regexec(&r->re[k], s, 1, &m, REG_STARTEND) == 0)
			matched[k] = true;
	}
	if (r->capturing)
		capture_lines(r, s, n, res);
}

static void
flush(const struct rules_set *r, struct scanner *sc, struct scan_result *res)
{
	sc->line[sc->len] = '\0';
	match_lines(r, sc->line, sc->len, res);
	sc->len = 0;
}

/* Appends to the carried line; a full buffer is matched as a piece. */
static void
carry(const struct rules_set *r, struct scanner *sc, const char *s, size_t n,
    struct scan_result *res)
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
			flush(r, sc, res);
	}
}

void
scan_chunk(const struct rules_set *r, struct scanner *sc, const char *s,
    size_t n, struct scan_result *res)
{
	const char *nl, *last;

	if ((nl = memchr(s, '\n', n)) == NULL) {
		carry(r, sc, s, n, res);
		return;
	}
	/* The line begun in an earlier chunk ends here. */
	carry(r, sc, s, (size_t)(nl - s), res);
	flush(r, sc, res);
	n -= (size_t)(nl + 1 - s);
	s = nl + 1;
	if ((last = memrchr(s, '\n', n)) != NULL) {
		/* Whole lines, in pieces of at most MATCH_LINE_MAX. */
		const char *end = last, *p = s;

		while ((size_t)(end - p) > MATCH_LINE_MAX) {
			const char *cut = memrchr(p, '\n', MATCH_LINE_MAX);

			cut = cut != NULL ? cut : p + MATCH_LINE_MAX;
			match_lines(r, p, (size_t)(cut - p), res);
			p = *cut == '\n' ? cut + 1 : cut;
		}
		match_lines(r, p, (size_t)(end - p), res);
		n -= (size_t)(last + 1 - s);
		s = last + 1;
	}
	carry(r, sc, s, n, res);
}

void
scan_end(const struct rules_set *r, struct scanner *sc,
    struct scan_result *res)
{
	if (sc->len > 0)
		flush(r, sc, res);
}
