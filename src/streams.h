/* The attempt's standard streams: stdin replayed from a spool file or
 * /dev/null, stdout held in a file, and the output that rules watch read
 * through pipes, passed on and scanned as it flows. */
#ifndef RETRY_STREAMS_H
#define RETRY_STREAMS_H

#include <stdbool.h>
#include <stddef.h>

#include "match.h"
#include "options.h"
#include "spawn.h"

struct streams {
	const struct rules_set *rules;
	bool		 scan[2];	/* stdout, stderr: the rules watch it */
	bool		 piped[2];	/* it flows through retry */
	int		 dest[2];	/* where piped output goes */
	int		 replay;	/* the spooled stdin, or -1 */
	int		 null;		/* /dev/null for --stdin null, or -1 */
	int		 hold;		/* the held stdout, or -1 */
	struct scanner	*scanner[2];
	struct scan_result result;	/* of the current attempt */
	char		 err[256];	/* the first write error, or "" */
};

/* Spools stdin when asked; -1 with the reason in s->err. */
int	 streams_init(struct streams *, const struct config *);
/* Sets the attempt's fds: -1 with the reason in s->err. */
int	 streams_attempt(struct streams *, struct attempt_opts *);
/* Where the attempt's piped output arrives (n == 0: end of stream). */
void	 streams_sink(void *, int, const char *, size_t);
/* The held stdout goes to stdout (last attempt) or stderr. */
void	 streams_release(struct streams *, bool last);
void	 streams_free(struct streams *);

#endif
