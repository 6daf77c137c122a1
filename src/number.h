/* Numbers as Perl prints them: printf("%.15g"), faster.  Pure. */
#ifndef RETRY_NUMBER_H
#define RETRY_NUMBER_H

#include <stddef.h>

/* Room for any %.15g of a double ("-1.23456789012345e-308") and its NUL. */
#define NUMBER_BUFSZ	32

/*
 * Writes what snprintf(buf, size, "%.15g", v) writes, byte for byte, and
 * returns what it returns: the length of the whole text, which is cut to
 * size - 1 bytes when longer.
 */
size_t		 number_format(double, char *, size_t);

#endif
