/* Status sets: "0", "1,2,75-78", "SIGKILL", "TERM", each status once.
 * Pure. */
#ifndef RETRY_CODES_H
#define RETRY_CODES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define STATUS_MAX	255

struct codes {
	uint64_t	bits[(STATUS_MAX + 1) / 64];
	bool		set;		/* given on the command line */
};

const char	*codes_parse(const char *, struct codes *);

/* --retry-on's STATUS:N: the statuses of one item of the list, retried N
 * times at most in all; an attempt counts against the item that holds its
 * status (a list gives each status once). */
struct codes_limit {
	struct codes	 codes;
	unsigned long	 max;		/* retries, from 1 */
	const char	*item;		/* the item, in the list it came from */
	size_t		 len;		/* its length, ":N" included */
};

#define CODES_LIMITS	16		/* items with a limit in one list */
#define CODES_LIMIT_MAX	1000000000	/* the most N may be, as --max */

/*
 * A list as codes_parse takes it whose items may end in ":N": the
 * statuses into *out, every item's, and each item with a limit into
 * lim[0..*n-1], CODES_LIMITS at most.
 */
const char	*codes_parse_limits(const char *, struct codes *,
		    struct codes_limit *lim, size_t *n);
/* What reaching it means, in buf: "status 1 retried 2 times (--retry-on
 * 1:2)", "statuses 75-78 retried 10 times (--retry-on 75-78:10)". */
const char	*codes_limit_text(const struct codes_limit *, char *buf,
		    size_t);
/* The item of a comma list at s, without spaces around it: its start, its
 * length in *len, and in *next where the next item starts, or NULL. */
const char	*list_item(const char *s, size_t *len, const char **next);
/* Debian's retry's criteria: success, true, fail, false, N, N-M. */
const char	*criteria_parse(const char *, struct codes *);
void		 codes_add(struct codes *, int);
/* Every status from 0 to STATUS_MAX that was not in it, and none that was. */
void		 codes_invert(struct codes *);
bool		 codes_has(const struct codes *, int);
/* Every status of more added to c (a list given again). */
void		 codes_union(struct codes *c, const struct codes *more);
/* A signal by name ("TERM", "SIGTERM", case-insensitive) or number. */
const char	*signal_parse(const char *, int *);
/* "SIGTERM" for 15, or NULL. */
const char	*signal_name(int);

#endif
