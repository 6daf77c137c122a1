/* simulate's lists: --clients, --failure-rate and --latency. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "duration.h"
#include "number.h"
#include "simlists.h"

static const char *
whole(const char *s, unsigned long *out)
{
	const char *why = NULL;
	long long v;

	if (*s == '\0' || strspn(s, "0123456789") != strlen(s))
		return "give whole numbers, as in 10,50,100 or 10-190:20";
	v = strtonum(s, 1, CLIENTS_MAX, &why);
	if (why != NULL)
		return "every number is from 1 to 10000";
	*out = (unsigned long)v;
	return NULL;
}

/* N, A-B or A-B:STEP, in place. */
static const char *
range_parse(char *s, unsigned long *lo, unsigned long *hi,
    unsigned long *step)
{
	char *colon = strchr(s, ':'), *dash = strchr(s, '-');
	const char *why;

	*step = 1;
	if (colon != NULL) {
		*colon = '\0';
		if (dash == NULL || dash > colon)
			return "a step goes with a range, as in 10-190:20";
		if ((why = whole(colon + 1, step)) != NULL)
			return why;
	}
	if (dash != NULL)
		*dash = '\0';
	if ((why = whole(s, lo)) != NULL)
		return why;
	*hi = *lo;
	if (dash != NULL && (why = whole(dash + 1, hi)) != NULL)
		return why;
	if (*hi < *lo)
		return "a range goes from the smaller number to the larger";
	return NULL;
}

const char *
clients_parse(const char *s, unsigned long *out, size_t cap, size_t *n)
{
	unsigned long lo, hi, step;
	const char *comma, *why;
	char item[32];
	size_t len, count = 0;

	for (;; s = comma + 1) {
		comma = strchr(s, ',');
		len = comma != NULL ? (size_t)(comma - s) : strlen(s);
		if (len == 0)
			return "an empty item";
		if (len >= sizeof(item))
			return "an item is too long";
		memcpy(item, s, len);
		item[len] = '\0';
		if ((why = range_parse(item, &lo, &hi, &step)) != NULL)
			return why;
		for (unsigned long v = lo; v <= hi; v += step) {
			if (count >= CLIENTS_LISTMAX)
				return "more than 1000 values";
			if (out != NULL && count < cap)
				out[count] = v;
			count++;
		}
		if (comma == NULL)
			break;
	}
	if (n != NULL)
		*n = count;
	return NULL;
}

/* A probability, all of s[0..len). */
static const char *
rate(const char *s, size_t len, double *out)
{
	if (len == 0)
		return "an empty item";
	if (!number_parse(s, len, out))
		return "not a number";
	if (*out < 0 || *out > 1)
		return "a probability is from 0 to 1";
	return NULL;
}

const char *
rates_parse(const char *s, double *out, size_t cap, size_t *n)
{
	const char *comma, *dash, *colon, *why;
	double lo, hi, step, v;
	size_t len, count = 0;

	for (;; s = comma + 1) {
		comma = strchr(s, ',');
		len = comma != NULL ? (size_t)(comma - s) : strlen(s);
		dash = memchr(s, '-', len);
		colon = memchr(s, ':', len);
		if (dash == NULL && colon == NULL) {
			if ((why = rate(s, len, &lo)) != NULL)
				return why;
			hi = lo;
			step = 1;
		} else if (dash == NULL || colon == NULL || colon < dash)
			return "a range is LO-HI:STEP, as in 0.1-0.9:0.2";
		else if ((why = rate(s, (size_t)(dash - s), &lo)) != NULL ||
		    (why = rate(dash + 1, (size_t)(colon - dash - 1), &hi)) !=
		    NULL || (why = rate(colon + 1, (size_t)(s + len - colon -
		    1), &step)) != NULL)
			return why;
		else if (hi < lo || step <= 0)
			return "a range goes up, by a step over 0";
		/* The steps by multiplication, so that 0.1 + 0.1 + ... adds
		 * no error; HI itself when a step lands on it. */
		for (unsigned long k = 0; lo + (double)k * step <= hi + 1e-9;
		    k++) {
			if (count >= RATES_MAX)
				return "more than 100 values";
			v = lo + (double)k * step;
			if (out != NULL && count < cap)
				out[count] = v < 1 ? v : 1;
			count++;
		}
		if (comma == NULL)
			break;
	}
	if (n != NULL)
		*n = count;
	return NULL;
}

/* One item of a --latency LIST, s[0..len): its duration into *at, its
 * chance into *p (-1: none given). */
static const char *
latency_item(const char *s, size_t len, int64_t *at, double *p)
{
	char item[64];
	const char *why;
	char *mark;
	size_t plen;

	if (len == 0)
		return "an empty item";
	if (len >= sizeof(item))
		return "an item is too long";
	memcpy(item, s, len);
	item[len] = '\0';
	*p = -1;
	if ((mark = strchr(item, '@')) != NULL) {
		*mark++ = '\0';
		plen = strlen(mark);
		if (plen < 2 || mark[plen - 1] != '%' ||
		    !number_parse(mark, plen - 1, p))
			return "a chance is a percentage, as in 2s@5%";
		if (*p <= 0 || *p > 100)
			return "a chance is over 0% and at most 100%";
		*p /= 100;
	}
	if ((why = duration_parse(item, at)) != NULL)
		return why;
	if (*at <= 0)
		return "a latency is more than 0";
	return NULL;
}

const char *
latency_parse(const char *s, struct latency *out)
{
	struct latency l = { 0 };
	const char *comma, *why;
	double given = 0, p[LATENCY_MAX];
	int64_t at;
	size_t len, open = 0, k;

	for (;; s = comma + 1) {
		comma = strchr(s, ',');
		len = comma != NULL ? (size_t)(comma - s) : strlen(s);
		if (l.n >= LATENCY_MAX)
			return "more than 16 items";
		if ((why = latency_item(s, len, &at, &p[l.n])) != NULL)
			return why;
		for (k = 0; k < l.n; k++)
			if (l.at[k] == at)
				return "a latency is given twice";
		l.at[l.n] = at;
		if (p[l.n] < 0)
			open++;
		else
			given += p[l.n];
		l.n++;
		if (comma == NULL)
			break;
	}
	if (given > 1 + 1e-9 || (open == 0 && given < 1 - 1e-9))
		return "the chances must add up to 100%";
	if (open > 0 && given > 1 - 1e-9)
		return "the chances leave nothing for an item without one";
	for (k = 0; k < l.n; k++)
		l.p[k] = p[k] < 0 ? (1 - given) / (double)open : p[k];
	/* Ascending: an insertion sort of at most 16. */
	for (size_t i = 1; i < l.n; i++)
		for (k = i; k > 0 && l.at[k - 1] > l.at[k]; k--) {
			const int64_t t = l.at[k];
			const double q = l.p[k];

			l.at[k] = l.at[k - 1];
			l.p[k] = l.p[k - 1];
			l.at[k - 1] = t;
			l.p[k - 1] = q;
		}
	if (out != NULL)
		*out = l;
	return NULL;
}
