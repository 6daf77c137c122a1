/*
 * HTTP-dates: the three forms RFC 9110 (5.6.7) has every recipient read,
 * the rows of urllib3's test_retry.py among them, RFC 850's year of two
 * digits placed by the 50 years' rule, and the loose forms refused.
 */
#include <string.h>
#include <time.h>

#include "httpdate.h"
#include "unit.h"

/* Tue, 14 Nov 2023 22:13:20 GMT. */
#define NOW	INT64_C(1700000000)
/* Tue, 01 Dec 2026 21:45:00 GMT, the day. */
#define DEC26	INT64_C(1796161500)

static const struct dated {
	int64_t		 now;
	const char	*in;
	const char	*want;	/* UTC, or "none" */
} dated[] = {
	/* The three forms of one time. */
	{ NOW, "Sun, 06 Nov 1994 08:49:37 GMT", "1994-11-06 08:49:37" },
	{ NOW, "Sunday, 06-Nov-94 08:49:37 GMT", "1994-11-06 08:49:37" },
	{ NOW, "Sun Nov  6 08:49:37 1994", "1994-11-06 08:49:37" },
	/* urllib3's, each 3s after the other. */
	{ DEC26, "Tue, 01 Dec 2026 21:45:09 GMT", "2026-12-01 21:45:09" },
	{ DEC26, "Tuesday, 01-Dec-26 21:45:12 GMT", "2026-12-01 21:45:12" },
	{ DEC26, "Tue Dec  1 21:45:15 2026", "2026-12-01 21:45:15" },
	/* asctime's day of two digits, and a name short or long in either
	 * of the others, as RFC 9110 asks recipients to be robust. */
	{ NOW, "Tue Nov 14 22:13:25 2023", "2023-11-14 22:13:25" },
	{ NOW, "Tue, 14-Nov-23 22:13:25 GMT", "2023-11-14 22:13:25" },
	{ NOW, "Tuesday, 14 Nov 2023 22:13:25 GMT", "2023-11-14 22:13:25" },
	/* RFC 850's year: the latest with its digits not more than 50
	 * years after now. */
	{ NOW, "Tuesday, 14-Nov-73 22:13:20 GMT", "2073-11-14 22:13:20" },
	{ NOW, "Tuesday, 14-Nov-73 22:13:21 GMT", "1973-11-14 22:13:21" },
	{ NOW, "Friday, 31-Dec-99 23:59:59 GMT", "1999-12-31 23:59:59" },
	{ NOW, "Saturday, 01-Jan-00 00:00:00 GMT", "2000-01-01 00:00:00" },
	{ NOW, "Tuesday, 14-Nov-24 22:13:20 GMT", "2024-11-14 22:13:20" },
	{ NOW, "Friday, 31-Dec-74 23:59:59 GMT", "1974-12-31 23:59:59" },
	{ INT64_C(4102444800), "Friday, 01-Jan-49 00:00:00 GMT",
	    "2149-01-01 00:00:00" },
	{ INT64_C(4102444800), "Friday, 01-Jan-51 00:00:00 GMT",
	    "2051-01-01 00:00:00" },
	/* Loose forms: a numeric zone, UTC, no weekday, no zone, more. */
	{ NOW, "Tue, 14 Nov 2023 22:13:25 +0000", "none" },
	{ NOW, "Tue, 14 Nov 2023 22:13:25 UTC", "none" },
	{ NOW, "14 Nov 2023 22:13:25 GMT", "none" },
	{ NOW, "Tue, 14 Nov 2023 22:13:25", "none" },
	{ NOW, "Tuesday, 14-Nov-23 22:13:25 UTC", "none" },
	{ NOW, "14-Nov-23 22:13:25 GMT", "none" },
	{ NOW, "Nov 14 22:13:25 2023", "none" },
	{ NOW, "Tue Nov 14 22:13:25 2023 GMT", "none" },
	{ NOW, "2023-11-14T22:13:25Z", "none" },
	{ NOW, "Tue, 14 Nov 2023 22:13:25 GMT; x", "none" },
	{ NOW, "", "none" },
};

void
unit_httpdate(void)
{
	char got[32];
	struct tm tm;
	time_t tt;
	int64_t t;

	for (size_t i = 0; i < sizeof(dated) / sizeof(dated[0]); i++) {
		const struct dated *r = &dated[i];

		snprintf(got, sizeof(got), "none");
		if (httpdate_parse(r->in, r->now, &t)) {
			tt = (time_t)t;
			if (gmtime_r(&tt, &tm) == NULL ||
			    strftime(got, sizeof(got), "%Y-%m-%d %H:%M:%S",
			    &tm) == 0)
				snprintf(got, sizeof(got), "%lld",
				    (long long)t);
		}
		unit_row(strcmp(got, r->want) == 0, "httpdate_parse", r->in,
		    "want %s, got %s", r->want, got);
	}
}
