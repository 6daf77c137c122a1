/* Numbers as Perl prints them, printf("%.15g") but faster, and decimal
 * numbers read from options.  Pure. */
#ifndef RETRY_NUMBER_H
#define RETRY_NUMBER_H

#include <stdbool.h>
#include <stddef.h>

/* Room for any %.15g of a double ("-1.23456789012345e-308") and its NUL. */
#define NUMBER_BUFSZ	32

/*
 * Writes what snprintf(buf, size, "%.15g", v) writes, byte for byte, and
 * returns what it returns: the length of the whole text, which is cut to
 * size - 1 bytes when longer.
 */
size_t		 number_format(double, char *, size_t);
/*
 * The one printer of numbers: as number_format into buf, which has
 * NUMBER_BUFSZ bytes, but with Perl's spelling of Inf, -Inf and NaN
 * (printf writes "inf" and "-nan"); buf.
 */
const char	*number_text(double, char *buf);

/*
 * Reads a decimal number that is all of s[0..len): an optional sign,
 * digits with an optional point, an optional exponent.  Spaces, hex,
 * Inf, NaN and a value that overflows are refused with false.
 */
bool		 number_parse(const char *, size_t, double *);

#endif
