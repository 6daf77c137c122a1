/* The checks that need every option, after the parse (validate.c):
 * options.c asks them last.  Pure. */
#ifndef RETRY_VALIDATE_H
#define RETRY_VALIDATE_H

#include "optparse.h"

/* Options that are right but need a library that cannot be loaded, and
 * retry without a command (options.h's OPTIONS_NO_LIBRARY and
 * OPTIONS_NO_COMMAND). */
#define VALIDATE_NO_LIBRARY	(-2)
#define VALIDATE_NO_COMMAND	(-3)

/* 0, -1 (p's err says why), VALIDATE_NO_LIBRARY or VALIDATE_NO_COMMAND
 * (with that line in p's err). */
int		 opt_validate(struct parse *p);

#endif
