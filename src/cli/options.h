/* The command line parsed and checked into a struct config (config.h), as
 * the option table (optable.h) says, which --help (help.h) reads too: for
 * main and the unit tests; everything else reads config.h.  Pure: errors
 * come back as strings. */
#ifndef RETRY_OPTIONS_H
#define RETRY_OPTIONS_H

#include <stddef.h>

#include "config.h"

/* 0, or -1 with one line naming the option and the problem in err; or,
 * options that are right but need a library that cannot be loaded (PCRE2
 * for a pattern), OPTIONS_NO_LIBRARY with that line. */
#define OPTIONS_NO_LIBRARY	(-2)
/* Or, for retry without a command, OPTIONS_NO_COMMAND with that line: its
 * usage goes before it. */
#define OPTIONS_NO_COMMAND	(-3)
int		 options_parse(int, char **, enum mode, struct config *,
		    char *err, size_t);
void		 options_free(struct config *);

#endif
