/* Did you mean: the options of a face that an unknown long option most
 * likely meant.  Pure. */
#ifndef RETRY_SUGGEST_H
#define RETRY_SUGGEST_H

#include <stddef.h>

#include "config.h"

/*
 * What name[0..n), a long option without its "--" that mode does not
 * know, most likely meant, in buf: "--a or --b" for the options it begins
 * when there are several (up to four), else "--c" for a name that other
 * retry tools use for c, an option it begins, or the nearest by edit
 * distance (at most 2); "" when nothing is near.  Aliases are never
 * offered.  Returns buf.
 */
char	*suggest_option(const char *name, size_t n, enum mode mode, char *buf,
	    size_t sz);

/* The face (simulate, show-backoff-delays, share) that word, a command
 * that was not found, most likely meant: the nearest by edit distance, at
 * most 2 and less than a third of its length; NULL when none is near. */
const char *suggest_face(const char *word);

#endif
