/* Status sets: "0", "1,2,75-78", "SIGKILL", "TERM". Pure. */
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
/* The item of a comma list at s, without spaces around it: its start, its
 * length in *len, and in *next where the next item starts, or NULL. */
const char	*list_item(const char *s, size_t *len, const char **next);
/* Debian's retry's criteria: success, true, fail, false, N, N-M. */
const char	*criteria_parse(const char *, struct codes *);
void		 codes_add(struct codes *, int);
/* Every status from 0 to STATUS_MAX that was not in it, and none that was. */
void		 codes_invert(struct codes *);
bool		 codes_has(const struct codes *, int);
/* A signal by name ("TERM", "SIGTERM", case-insensitive) or number. */
const char	*signal_parse(const char *, int *);
/* "SIGTERM" for 15, or NULL. */
const char	*signal_name(int);

#endif
