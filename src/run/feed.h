/* --stdin replay from what cannot be read again (a pipe, a terminal, a
 * socket): the input recorded into a spool as it arrives, and passed on
 * to an attempt that starts before it has ended, through a pipe that
 * retry fills from the spool without ever blocking.  Every wait of an
 * attempt and every back-off sleep serves it, in the one ppoll. */
#ifndef RETRY_FEED_H
#define RETRY_FEED_H

#include <poll.h>
#include <stdbool.h>
#include <sys/types.h>

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
	int		 to;		/* the attempt's stdin, retry's end
					 * (non-blocking), or -1 */
	off_t		 sent;		/* of the recording, what it took */
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
/* An attempt starts before the input's end: the read end of a pipe that
 * gets what was recorded, then the rest as it arrives; -1 (errno set). */
int	 feed_attempt(struct feed *);
/* The one fd to watch now, or 0. */
nfds_t	 feed_watch(struct feed *, struct pollfd *);
/* What ppoll said of it; -1 when the input cannot be kept or read (err
 * says why). */
int	 feed_serve(struct feed *, const struct pollfd *);
/* The attempt has ended: it is fed no more. */
void	 feed_stop(struct feed *);
void	 feed_free(struct feed *);

#endif
