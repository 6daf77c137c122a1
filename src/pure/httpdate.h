/*
 * An HTTP-date (RFC 9110, 5.6.7) in any of its three forms, as every
 * recipient must read them:
 *
 *	Sun, 06 Nov 1994 08:49:37 GMT	IMF-fixdate, the one servers send
 *	Sunday, 06-Nov-94 08:49:37 GMT	RFC 850's, obsolete
 *	Sun Nov  6 08:49:37 1994	asctime(3)'s, obsolete
 *
 * Pure.
 */
#ifndef RETRY_HTTPDATE_H
#define RETRY_HTTPDATE_H

#include <stdbool.h>
#include <stdint.h>

/*
 * The date s names, in seconds since the epoch, into *t: true, or false
 * when s is none of the three forms (a numeric zone, UTC, a date without
 * its weekday, anything before or after it).  RFC 850's year of two
 * digits is the latest year with them that is not more than 50 years
 * after now (seconds since the epoch).
 */
bool	httpdate_parse(const char *s, int64_t now, int64_t *t);

#endif
