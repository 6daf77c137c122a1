/* --stdin replay from what cannot be read again (a pipe, a terminal, a
 * socket): the input recorded into a spool as it arrives, and passed on
 * to each attempt that starts before it has ended (one, or --hedge's side
 * by side), through a pipe of its own that retry fills from the spool
 * without ever blocking.  Every wait of an attempt and every back-off
 * sleep serves it, in the one ppoll. */
#ifndef RETRY_FEED_H
#define RETRY_FEED_H

#include <poll.h>
#include <stdbool.h>
#include <sys/types.h>

/* Attempts fed at once, at most: --hedge's most. */
#define FEED_READERS	16
/* The fds feed_watch may ask for: each reader's, and the input. */
#define FEED_WATCH_MAX	(FEED_READERS + 1)

/* An attempt fed: its stdin, retry's end (non-blocking), or -1; of the
 * recording, what it took. */
struct feed_reader {
	int		 to;
	off_t		 sent;
};

struct feed {
	int		 src;		/* where the input is read, or -1 */
	bool		 own;		/* src is a reopening of retry's stdin,
					 * non-blocking, its own to close */
	bool		 tty;		/* src is a terminal: read only while
					 * retry is its foreground */
	int		 spool;		/* the recording */
	const char	*where;		/* "memory", or the spool's directory */
	off_t		 kept;		/* bytes recorded */
	bool		 ended;		/* the input has ended, all recorded */
	struct feed_reader r[FEED_READERS];
	char		*buf;		/* one buffer, allocated on first use */
	bool		 pending;	/* err, from a read outside ppoll, is
					 * yet to be said */
	char		 err[512];	/* why the input cannot be kept */
};

/* Records retry's stdin into spool (a file, left open); where names the
 * spool's place for errors. */
void	 feed_init(struct feed *, int spool, const char *where);
/* Whether all of the input is recorded, to be read from the spool. */
bool	 feed_ended(const struct feed *);
/* An attempt starts before the input's end, the only one fed: the read
 * end of a pipe that gets what was recorded, then the rest as it arrives;
 * -1 (errno set). */
int	 feed_attempt(struct feed *);
/* The same for an attempt fed beside others (--hedge), its reader's
 * number in *id; -1 (errno set, or EMFILE when FEED_READERS are fed). */
int	 feed_join(struct feed *, int *id);
/* The fds to watch now (at most FEED_WATCH_MAX), or 0. */
nfds_t	 feed_watch(struct feed *, struct pollfd *);
/* What ppoll said of one of them; -1 when the input cannot be kept or
 * read (err says why). */
int	 feed_serve(struct feed *, const struct pollfd *);
/* Reader id's attempt has ended: it is fed no more. */
void	 feed_leave(struct feed *, int id);
/* The attempts have ended: none is fed any more. */
void	 feed_stop(struct feed *);
void	 feed_free(struct feed *);

#endif
