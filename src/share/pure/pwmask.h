/*
 * A password kept out of what a server says: a server may say back any
 * part of what it was sent, cut where it likes (Redis cuts an unknown
 * command's arguments to about 128 bytes), with its line breaks as
 * spaces.  Pure: no I/O.
 */
#ifndef RETRY_PWMASK_H
#define RETRY_PWMASK_H

#include <stddef.h>

/*
 * text into out (cut to sz), with every run of it that is made of pieces
 * of 4 bytes of pw (all of pw, when shorter) as "***"; the pieces of pw
 * with its line breaks as spaces too.  They are looked for in the whole
 * text before anything is cut.  pw fits a store URL's password
 * (storeurl.h).
 */
void	mask_password(const char *text, const char *pw, char *out, size_t sz);

#endif
