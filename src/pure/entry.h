/* show-backoff-delays' STATUS entries: an attempt's verdict, and when it
 * ended.  Pure. */
#ifndef RETRY_ENTRY_H
#define RETRY_ENTRY_H

#include <stdbool.h>

/* A STATUS entry: an attempt's verdict, and when it ended. */
struct entry {
	bool	 success;
	double	 time;		/* seconds since the start */
};

/* Parses "0", "1", "0:5", "1:+2.5" after an entry at time prev. */
const char	*entry_parse(const char *, double prev, struct entry *);

#endif
