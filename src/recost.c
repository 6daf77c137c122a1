/*
 * The cost of an extended regex: its pieces, each interval ({m,n}) counting
 * what it applies to max(m, n) times, so that nested intervals multiply.
 * An estimate on the safe side, in saturating arithmetic.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "recost.h"

#define DEPTH	64

static size_t
mul(size_t a, size_t b)
{
	return a != 0 && b > (RE_COST_MAX + 1) / a ? RE_COST_MAX + 1 : a * b;
}

static size_t
add(size_t a, size_t b)
{
	return a + b > RE_COST_MAX + 1 ? RE_COST_MAX + 1 : a + b;
}

/* The end of the bracket expression that starts at s. */
static const char *
bracket(const char *s)
{
	s++;
	if (*s == '^')
		s++;
	if (*s == ']')
		s++;
	for (; *s != '\0' && *s != ']'; s++)
		if (s[0] == '[' && (s[1] == ':' || s[1] == '.' || s[1] == '=')) {
			const char close = s[1];

			for (s += 2; *s != '\0' && !(s[0] == close && s[1] == ']');
			    s++)
				;
			if (*s == '\0')
				return s;
			s++;
		}
	return s;
}

const char *
re_cost_check(const char *p)
{
	size_t size[DEPTH + 1] = { 0 }, last[DEPTH + 1] = { 0 }, n;
	int d = 0, stacked = 0;

	for (; *p != '\0'; p++) {
		/* Quantifiers on quantifiers (a+*+*) nest closures that glibc's
		 * regcomp takes seconds over; two in a row (.*?) are enough. */
		if (strchr("*+?", *p) != NULL ||
		    (*p == '{' && isdigit((unsigned char)p[1]))) {
			if (++stacked > 2)
				return "stacks three quantifiers or more";
		} else
			stacked = 0;
		switch (*p) {
		case '(':
			if (d == DEPTH)
				return "nests groups too deep";
			d++;
			size[d] = last[d] = 0;
			continue;
		case ')':
			if (d == 0)
				break;
			last[d - 1] = size[d];
			d--;
			size[d] = add(size[d], last[d]);
			continue;
		case '{':
			if (!isdigit((unsigned char)p[1]))
				break;
			n = 0;
			for (p++; isdigit((unsigned char)*p) || *p == ','; p++)
				if (isdigit((unsigned char)*p))
					n = add(mul(n, 10), (size_t)(*p - '0'));
				else if (isdigit((unsigned char)p[1]))
					n = 0;	/* the upper bound counts */
				else
					n = add(n, 1);	/* {m,}: m + 1 */
			if (*p != '}')
				p--;
			/* The piece is there once already. */
			size[d] = add(size[d], mul(last[d], n > 0 ? n - 1 : 0));
			last[d] = mul(last[d], n);
			if (size[d] > RE_COST_MAX)
				return "too complex (its intervals such as "
				    "{1,100} repeat too much)";
			continue;
		case '[':
			p = bracket(p);
			if (*p == '\0')
				p--;
			break;
		case '\\':
			if (p[1] != '\0')
				p++;
			break;
		case '+':
			/* x+ is compiled as xx*: nested, it doubles. */
			size[d] = add(size[d], last[d]);
			last[d] = mul(last[d], 2);
			if (size[d] > RE_COST_MAX)
				return "too complex (its intervals such as "
				    "{1,100} repeat too much)";
			continue;
		case '|':
		case '*':
		case '?':
		case '^':
		case '$':
			continue;
		default:
			break;
		}
		last[d] = 1;
		size[d] = add(size[d], 1);
	}
	for (; d >= 0; d--)
		if (size[d] > RE_COST_MAX)
			return "too complex (its intervals such as {1,100} "
			    "repeat too much)";
	return NULL;
}
