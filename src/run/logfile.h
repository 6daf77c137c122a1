/* --log-file: opened safely, and written without ever waiting: what its
 * reader does not take now waits in a queue, up to LOG_QUEUE bytes, and
 * past that lines are dropped and counted, for the reporter to say. */
#ifndef RETRY_LOGFILE_H
#define RETRY_LOGFILE_H

#include <stddef.h>
#include <sys/types.h>

#include "output.h"

#define LOG_QUEUE	(64 * 1024)

struct logfile {
	struct out	 out;
	char		*buf;		/* lines its reader has not taken */
	size_t		 len, cap;
	unsigned long	 dropped;	/* lines not written, not yet said */
	int		 why;		/* errno of the last line dropped;
					 * EAGAIN: its reader did not take it */
};

/* Opens path to append (0600, without blocking, and neither through a
 * symlink nor into a file or FIFO that another user planted in a sticky
 * world-writable directory); -1 with one line saying why in err. */
int	logfile_open(struct logfile **, const char *path, char *err, size_t);
/* The same, for the option opt (--result-file): its name begins err. */
int	logfile_open_as(struct logfile **, const char *opt, const char *path,
	    char *err, size_t);
void	logfile_close(struct logfile *);
/* Writes what the log takes now of what waits; after an error other than
 * a full pipe, what waits is dropped, counted. */
void	logfile_flush(struct logfile *);
/* Queues buf[0..n), or drops it, counted, when the queue is full. */
void	logfile_queue(struct logfile *, const char *buf, size_t n);
/* When nothing waits, writes buf[0..n) straight, what the log takes now,
 * and queues the rest: the count written; -1 when something waits or on
 * an error. */
ssize_t	logfile_write(struct logfile *, const char *buf, size_t n);
/* At the end of the run: what the log does not take now is dropped,
 * counted as lines its reader did not take. */
void	logfile_end(struct logfile *);

#endif
