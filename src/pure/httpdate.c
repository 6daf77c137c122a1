/* HTTP-dates in their three forms (httpdate.h). */
#include <string.h>
#include <time.h>

#include "httpdate.h"

/* The forms, as strptime(3) reads them in the C locale (retry sets no
 * other): a name, short or long, and a number of one digit or two, in
 * either, as RFC 9110 asks recipients to be robust. */
static const char *const imf = "%a, %d %b %Y %H:%M:%S GMT";
static const char *const rfc850 = "%a, %d-%b-%y %H:%M:%S GMT";
static const char *const asc = "%a %b %d %H:%M:%S %Y";

/* Whether s is the whole of fmt, into tm. */
static bool
whole(const char *s, const char *fmt, struct tm *tm)
{
	const char *end;

	memset(tm, 0, sizeof(*tm));
	end = strptime(s, fmt, tm);
	return end != NULL && *end == '\0';
}

/* The year of two digits (RFC 9110: "a timestamp that appears to be more
 * than 50 years in the future" is "the most recent year in the past that
 * had the same last two digits"), on tm's date and time. */
static int64_t
two_digits(struct tm tm, int64_t now)
{
	const time_t n = (time_t)now;
	struct tm limit;
	int64_t t;
	int year, yy;

	if (gmtime_r(&n, &limit) == NULL)
		return (int64_t)timegm(&tm);
	limit.tm_year += 50;
	yy = (tm.tm_year + 1900) % 100;
	year = limit.tm_year + 1900;
	year -= ((year - yy) % 100 + 100) % 100;
	tm.tm_year = year - 1900;
	if ((t = (int64_t)timegm(&tm)) > (int64_t)timegm(&limit)) {
		tm.tm_year -= 100;
		t = (int64_t)timegm(&tm);
	}
	return t;
}

bool
httpdate_parse(const char *s, int64_t now, int64_t *t)
{
	struct tm tm;

	if (whole(s, imf, &tm) || whole(s, asc, &tm))
		*t = (int64_t)timegm(&tm);
	else if (whole(s, rfc850, &tm))
		*t = two_digits(tm, now);
	else
		return false;
	return true;
}
