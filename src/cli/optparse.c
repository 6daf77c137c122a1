/* The parser's helpers that options.c (the options one by one) and
 * validate.c (the checks that need every option) share: a failure said,
 * a duration read, Debian's list of delays, one strategy, whether a value
 * must be a number.  Pure. */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "duration.h"
#include "optable.h"
#include "optparse.h"

int
opt_fail(struct parse *p, const struct opt *o, const char *fmt, ...)
{
	va_list ap;
	int n = 0;

	if (o != NULL)
		n = snprintf(p->err, p->errsz, "--%s: ", o->name);
	if (n < 0 || (size_t)n >= p->errsz)
		return -1;
	va_start(ap, fmt);
	vsnprintf(p->err + n, p->errsz - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

int
opt_duration(struct parse *p, const struct opt *o, const char *arg,
    int64_t *out)
{
	const char *why;

	if ((why = duration_parse(arg, out)) != NULL)
		return opt_fail(p, o, "'%s': %s", arg, why);
	return 0;
}

int
opt_delay_list(struct parse *p, const struct opt *o, const char *arg)
{
	struct config *c = p->cfg;
	const char *s, *next = arg;
	char item[64];
	size_t n = 1, len, i = 0;

	for (const char *t = arg; *t != '\0'; t++)
		n += *t == ',';
	free(c->list);
	if ((c->list = calloc(n, sizeof(*c->list))) == NULL)
		return opt_fail(p, o, "out of memory");
	/* "1, 2, 4" as Debian's retry reads it. */
	while (next != NULL) {
		s = list_item(next, &len, &next);
		if (len == 0)
			return opt_fail(p, o, "item %zu of '%s' is empty",
			    i + 1, arg);
		if (len >= sizeof(item))
			return opt_fail(p, o, "item %zu of '%s' is too long",
			    i + 1, arg);
		memcpy(item, s, len);
		item[len] = '\0';
		if (opt_duration(p, o, item, &c->list[i]) != 0)
			return -1;
		i++;
	}
	c->backoff.list = c->list;
	c->backoff.nlist = n;
	return 0;
}

int
opt_strategy(struct parse *p, const struct opt *o, enum strategy s)
{
	if (p->strategy != NULL && p->strategy->id != o->id)
		return opt_fail(p, o, "conflicts with --%s (give one strategy)",
		    p->strategy->name);
	p->strategy = o;
	p->cfg->backoff.strategy = s;
	return 0;
}

/*
 * getopt takes the word after an option for its value, whatever it is:
 * in "--exp -- true", '--'.  A value that is '--', or that looks like an
 * option where only a number or a duration can stand, says what was
 * missing.  Text (a pattern, a label, a command) may be anything.
 */
bool
opt_numeric(const struct opt *o)
{
	return o->kind == K_DURATION || o->kind == K_SPAN ||
	    o->kind == K_SECONDS || o->kind == K_COUNT || o->kind == K_REAL ||
	    o->kind == K_STRATEGY || o->id == OPT_TIMES || o->id == OPT_DELAYS ||
	    o->id == OPT_DELAY || o->id == OPT_SEED;
}
