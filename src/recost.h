/* A bound on what a regex costs to compile. Pure. */
#ifndef RETRY_RECOST_H
#define RETRY_RECOST_H

#include <stddef.h>

/* Most pieces that a pattern's intervals may expand to. */
#define RE_COST_MAX	2000

/* NULL, or why pattern would cost too much to compile: glibc's regcomp
 * copies a group once per repetition of an interval such as {1,100}, so
 * that nested intervals take gigabytes and minutes. */
const char	*re_cost_check(const char *pattern);

#endif
