/* --help: the text each face prints, drawn from the option table.  Pure:
 * it writes to memory only. */
#ifndef RETRY_HELP_H
#define RETRY_HELP_H

#include <stdbool.h>

#include "config.h"

/* The --help text of mode, every option if all (--help all), else, for
 * retry, the options most runs need; the caller frees it.  NULL when
 * memory is short. */
char	*help_format(enum mode, bool all);

/* retry's synopsis: the first line of its --help, and the line before
 * the reason when no command is given. */
#define HELP_SYNOPSIS	"Usage: retry [OPTION]... [--] COMMAND [ARG]..."


#endif
