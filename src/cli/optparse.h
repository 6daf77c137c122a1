/* The parser's state, and its helpers (optparse.c) that options.c (the
 * options one by one) and validate.c (the checks that need every option)
 * share.  Pure. */
#ifndef RETRY_OPTPARSE_H
#define RETRY_OPTPARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "optable.h"

struct parse {
	struct config	*cfg;
	char		*err;
	size_t		 errsz;
	const struct opt *strategy;	/* the strategy option given */
	char		*delay;		/* --delay's value, taken in validate */
	const struct opt *last;		/* the last option given, */
	const char	*last_arg;	/* and its value */
	bool		 given[OPT_VERSION - OPT_MAX + 1];
};

/* -1, with "--NAME: " (o not NULL) and the rest in p's err. */
int		 opt_fail(struct parse *p, const struct opt *o,
		    const char *fmt, ...)
		    __attribute__((format(printf, 3, 4)));
/* arg, a duration, in *out: 0, or -1 (opt_fail). */
int		 opt_duration(struct parse *p, const struct opt *o,
		    const char *arg, int64_t *out);
/* o's strategy s, or -1 if another strategy option was given. */
int		 opt_strategy(struct parse *p, const struct opt *o,
		    enum strategy s);
/* Debian's retry's list of delays, "1, 2, 4", into the config. */
int		 opt_delay_list(struct parse *p, const struct opt *o,
		    const char *arg);
/* Whether only a number or a duration can stand for o's value. */
bool		 opt_numeric(const struct opt *o);

#endif
