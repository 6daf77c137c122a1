/* show-backoff-delays' STATUS entries (entry.h). */
#include <string.h>

#include "entry.h"
#include "number.h"

/* Seconds as Perl prints them: digits, a point, and an exponent when the
 * number is small or large (1.40666961669922e-05); no sign. */
static const char *
time_parse(const char *s, double *out)
{
	if (*s == '+' || *s == '-' || !number_parse(s, strlen(s), out))
		return "the time is not a number of seconds";
	return NULL;
}

const char *
entry_parse(const char *s, double prev, struct entry *out)
{
	const char *err;
	double t;

	if ((s[0] != '0' && s[0] != '1') || (s[1] != '\0' && s[1] != ':'))
		return "a status is 0 (failure) or 1 (success), then "
		    "optionally :T or :+S";
	out->success = s[0] == '1';
	out->time = prev;
	if (s[1] == '\0')
		return NULL;
	if (s[2] == '+') {
		if ((err = time_parse(s + 3, &t)) != NULL)
			return err;
		out->time = prev + t;
		return NULL;
	}
	if ((err = time_parse(s + 2, &t)) != NULL)
		return err;
	if (t < prev)
		return "the time goes backwards";
	out->time = t;
	return NULL;
}
