/* What the files of the streams share: streams.c sets them up for each
 * attempt, spool.c keeps stdin, held.c holds stdout, pump.c passes the
 * output on.  Not for the rest of retry, which has streams.h.  It names
 * struct streams and struct stream and does not define them: each file
 * that includes it includes streams.h too, which does not include this. */
#ifndef RETRY_STREAMPARTS_H
#define RETRY_STREAMPARTS_H

#include <stdbool.h>
#include <stddef.h>

#include "spawn.h"

struct stream;
struct streams;

/* The size of a stream's buffer and of the copies made through retry. */
#define BUFSZ	(128 * 1024)
/* polled[]: the stdin fed and recorded. */
#define POLLED_FEED	4

/* Keeps the first error in s->err: the words, then errno's; -1. */
int	 streams_failed(struct streams *, const char *, ...)
	    __attribute__((format(printf, 2, 3)));
/* Whether no process holds the other end of fd (a pipe, a FIFO, or a
 * pseudo-terminal's master) any more; whether, besides, it holds
 * nothing more. */
bool	 streams_hung_up(int fd);
bool	 streams_pipe_ended(int fd);

/* spool.c (its spool files: streams_tempfile, in streams.h): --stdin
 * replay set up; -1 (err says why). */
int	 keep_stdin(struct streams *);
/* Where the stdin that attempts share stands before the first. */
void	 stdin_note(struct streams *);
/* The attempt's stdin in *fd; -1 (errno set). */
int	 stdin_for(struct streams *, int *fd);
/* The feed's error, as the streams' first; -1. */
int	 streams_feed_failed(struct streams *);

/* held.c: all of buf written to a file, which does not block: the bytes
 * written, all n unless an error (errno) stopped it. */
size_t	 held_write(int fd, const char *buf, size_t n);
/* The buffer of BUFSZ bytes for copies, allocated at its first use. */
char	*held_buffer(void);
/* The file (s->hold or s->hold_err) that holds the stream's output. */
int	 held_file(const struct streams *, const struct stream *);
/* The held file to retry's fd (1 or 2); -1 (errno set). */
int	 held_release(int file, int fd);
/* The held file cannot take more: what it kept goes out now, and the
 * stream's output after it. */
void	 held_broken(struct streams *, struct stream *);
/* After the attempt: the held stdout to stdout (out) or stderr, and the
 * spool emptied; with --only-last, the held stdout and stderr passed on
 * after the last attempt only; -1 (err says why, or gone[] is set). */
int	 held_out(struct streams *, bool out, bool last);

/* pump.c: the pump's part in the attempt's io. */
struct attempt_io pump_io(struct streams *);

#endif
