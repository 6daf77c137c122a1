/* Status sets and signal names. */
#include <ctype.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "codes.h"
#include "compat.h"

void
codes_add(struct codes *c, int status)
{
	if (status >= 0 && status <= STATUS_MAX)
		c->bits[status / 64] |= UINT64_C(1) << (status % 64);
}

void
codes_invert(struct codes *c)
{
	for (size_t i = 0; i < sizeof(c->bits) / sizeof(c->bits[0]); i++)
		c->bits[i] = ~c->bits[i];
}

void
codes_union(struct codes *c, const struct codes *more)
{
	for (size_t i = 0; i < sizeof(c->bits) / sizeof(c->bits[0]); i++)
		c->bits[i] |= more->bits[i];
	c->set = c->set || more->set;
}

bool
codes_has(const struct codes *c, int status)
{
	if (status < 0 || status > STATUS_MAX)
		return false;
	return (c->bits[status / 64] >> (status % 64)) & 1;
}

const char *
signal_name(int sig)
{
	static char buf[16];
	const char *abbrev;

	if (sig <= 0 || sig >= NSIG ||
	    (abbrev = compat_signal_abbrev(sig)) == NULL)
		return NULL;
	strcpy(buf, "SIG");
	strncat(buf, abbrev, sizeof(buf) - 4);
	return buf;
}

static const char *
digits(const char *s, size_t len, long max, int *out)
{
	long v = 0;

	if (len == 0)
		return "empty item";
	for (size_t i = 0; i < len; i++) {
		if (!isdigit((unsigned char)s[i]))
			return "not a number or a signal name";
		v = v * 10 + (s[i] - '0');
		if (v > max)
			return "out of range";
	}
	*out = (int)v;
	return NULL;
}

const char *
signal_parse(const char *s, int *out)
{
	const char *abbrev;
	size_t len = strlen(s);

	if (len > 0 && isdigit((unsigned char)s[0])) {
		if (digits(s, len, NSIG - 1, out) != NULL || *out == 0)
			return "not a valid signal number";
		return NULL;
	}
	if (strncasecmp(s, "SIG", 3) == 0)
		s += 3;
	for (int sig = 1; sig < NSIG; sig++)
		if ((abbrev = compat_signal_abbrev(sig)) != NULL &&
		    strcasecmp(abbrev, s) == 0) {
			*out = sig;
			return NULL;
		}
	return "unknown signal name";
}

/* One item: a number, a range "A-B", or a signal name meaning 128 + N. */
static const char *
item(const char *s, size_t len, struct codes *c)
{
	char name[32];
	const char *dash, *err;
	int lo, hi, sig;

	if (len > 0 && isalpha((unsigned char)s[0])) {
		if (len >= sizeof(name))
			return "unknown signal name";
		memcpy(name, s, len);
		name[len] = '\0';
		if ((err = signal_parse(name, &sig)) != NULL)
			return err;
		if (128 + sig > STATUS_MAX)
			return "signal number too large for a status";
		codes_add(c, 128 + sig);
		return NULL;
	}
	if ((dash = memchr(s, '-', len)) == NULL) {
		if ((err = digits(s, len, STATUS_MAX, &lo)) != NULL)
			return err;
		codes_add(c, lo);
		return NULL;
	}
	if (dash == s || dash == s + len - 1)
		return "open range (give both ends, as in 75-78)";
	if ((err = digits(s, (size_t)(dash - s), STATUS_MAX, &lo)) != NULL ||
	    (err = digits(dash + 1, (size_t)(s + len - dash - 1), STATUS_MAX,
	    &hi)) != NULL)
		return err;
	if (lo > hi)
		return "reversed range";
	for (int i = lo; i <= hi; i++)
		codes_add(c, i);
	return NULL;
}

/* N of an item's ":N": a number of retries. */
static const char *
limit(const char *s, size_t len, unsigned long *out)
{
	unsigned long v = 0;

	if (len == 0)
		goto bad;
	for (size_t i = 0; i < len; i++) {
		if (!isdigit((unsigned char)s[i]))
			goto bad;
		v = v * 10 + (unsigned long)(s[i] - '0');
		if (v > CODES_LIMIT_MAX)
			goto bad;
	}
	if (v == 0)
		goto bad;
	*out = v;
	return NULL;
bad:
	return "a limit is a number of retries from 1 to 1000000000, as in "
	    "1:2";
}

/* What a list that gives a status twice is told: the lowest of those in
 * bits, the word i of a set's. */
static const char *
twice(uint64_t bits, size_t i)
{
	static char why[64];
	int status = (int)i * 64;

	while ((bits & 1) == 0)
		bits >>= 1, status++;
	snprintf(why, sizeof(why), "status %d is given twice (each status "
	    "once in a list)", status);
	return why;
}

/* A list of items, each status in one of them; with lim, an item may end
 * in ":N". */
static const char *
list(const char *s, struct codes *out, struct codes_limit *lim, size_t *n)
{
	struct codes c = { .set = true }, one;
	const char *comma, *colon, *err;
	size_t len, k = 0;

	if (*s == '\0')
		return "empty list";
	for (;;) {
		comma = strchr(s, ',');
		len = comma != NULL ? (size_t)(comma - s) : strlen(s);
		colon = memchr(s, ':', len);
		memset(&one, 0, sizeof(one));
		if ((err = item(s, colon != NULL ? (size_t)(colon - s) : len,
		    &one)) != NULL)
			return err;
		if (colon != NULL && lim == NULL)
			return "only --retry-on takes a limit (:N)";
		if (colon != NULL) {
			if (k == CODES_LIMITS)
				return "more than 16 items with a limit";
			lim[k] = (struct codes_limit){ one, 0, s, len };
			if ((err = limit(colon + 1, (size_t)(s + len - colon -
			    1), &lim[k].max)) != NULL)
				return err;
			k++;
		}
		for (size_t i = 0; i < sizeof(c.bits) / sizeof(c.bits[0]); i++)
			if ((c.bits[i] & one.bits[i]) != 0)
				return twice(c.bits[i] & one.bits[i], i);
			else
				c.bits[i] |= one.bits[i];
		if (comma == NULL)
			break;
		s = comma + 1;
	}
	*out = c;
	if (n != NULL)
		*n = k;
	return NULL;
}

const char *
codes_parse(const char *s, struct codes *out)
{
	return list(s, out, NULL, NULL);
}

const char *
codes_parse_limits(const char *s, struct codes *out, struct codes_limit *lim,
    size_t *n)
{
	return list(s, out, lim, n);
}

const char *
codes_limit_text(const struct codes_limit *l, char *buf, size_t sz)
{
	const char *colon = memchr(l->item, ':', l->len);
	const int n = (int)(colon - l->item);

	snprintf(buf, sz, "%s %.*s retried %lu time%s (--retry-on %.*s)",
	    memchr(l->item, '-', (size_t)n) != NULL ? "statuses" : "status",
	    n, l->item, l->max, l->max == 1 ? "" : "s", (int)l->len, l->item);
	return buf;
}

const char *
list_item(const char *s, size_t *len, const char **next)
{
	const char *comma = strchr(s, ',');
	size_t n = comma != NULL ? (size_t)(comma - s) : strlen(s);

	*next = comma != NULL ? comma + 1 : NULL;
	while (n > 0 && *s == ' ')
		s++, n--;
	while (n > 0 && s[n - 1] == ' ')
		n--;
	*len = n;
	return s;
}

/* A number of a criterion: a status, or above 255 only as a range's end,
 * where it stands for 255 (no exit status is higher). */
static const char *
criterion_number(const char *s, size_t len, bool end, int *out)
{
	long long v = 0;

	if (len == 0)
		return "a range needs both ends, as in 1-3";
	for (size_t i = 0; i < len; i++) {
		if (!isdigit((unsigned char)s[i]))
			return "not a number";
		if (v <= STATUS_MAX)
			v = v * 10 + (s[i] - '0');
	}
	if (v > STATUS_MAX && !end)
		return "out of range (exit statuses are 0 to 255)";
	*out = v > STATUS_MAX ? STATUS_MAX : (int)v;
	return NULL;
}

/*
 * Debian's retry's --until and --while: "success" or "true" (0), "fail" or
 * "false" (1 to 255), a status or a range; a comma list of them matches
 * when any one does.  Spaces around an item are allowed.  Exit statuses
 * only: a signal's name is refused.
 */
const char *
criteria_parse(const char *s, struct codes *out)
{
	static const struct {
		const char	*word;
		int		 lo, hi;
	} words[] = {
		{ "success", 0, 0 }, { "true", 0, 0 },
		{ "fail", 1, STATUS_MAX }, { "false", 1, STATUS_MAX },
	};
	struct codes c = { .set = true };
	const char *next = s, *dash, *err;
	size_t len, w;
	int lo, hi;

	while (next != NULL) {
		s = list_item(next, &len, &next);
		for (w = 0; w < sizeof(words) / sizeof(words[0]); w++)
			if (strlen(words[w].word) == len &&
			    strncmp(words[w].word, s, len) == 0)
				break;
		if (w < sizeof(words) / sizeof(words[0])) {
			lo = words[w].lo;
			hi = words[w].hi;
		} else if (len == 0)
			return "empty item";
		else if (!isdigit((unsigned char)s[0]))
			return "unknown criterion (use success, true, fail, "
			    "false, a status or a range such as 1-3)";
		else if ((dash = memchr(s, '-', len)) == NULL) {
			if ((err = criterion_number(s, len, false, &lo)) !=
			    NULL)
				return err;
			hi = lo;
		} else if ((err = criterion_number(s, (size_t)(dash - s),
		    false, &lo)) != NULL || (err = criterion_number(dash + 1,
		    (size_t)(s + len - dash - 1), true, &hi)) != NULL)
			return err;
		else if (lo > hi)
			return "reversed range";
		for (int i = lo; i <= hi; i++)
			codes_add(&c, i);
	}
	*out = c;
	return NULL;
}
