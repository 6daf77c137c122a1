/* Writing where a reader may be slow or gone (retry's stdout and stderr,
 * a log FIFO): every write is non-blocking, and waiting for room happens in
 * wait_until (wait.h), where signals are seen. */
#ifndef RETRY_OUTPUT_H
#define RETRY_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct out {
	int	 fd;		/* written to, and polled for room */
	bool	 owned;		/* a non-blocking reopening, ours to close */
	bool	 sock;		/* a socket: send(MSG_DONTWAIT) */
	bool	 polled;	/* may block: poll first, PIPE_BUF at a time */
};

/* A writer for fd: a private non-blocking reopening of a pipe or a
 * terminal where /proc allows, never the shared file's own flags. */
void	 out_init(struct out *, int fd);
void	 out_close(struct out *);
/* Writes what fits now, without waiting: the count, or -1 (EAGAIN when
 * there is no room). */
ssize_t	 out_try(const struct out *, const void *, size_t);
/* Writes all of it, waiting in wait_until for room; -1 with errno on an
 * error, EINTR when a signal that ends retry came first. */
int	 out_all(const struct out *, const void *, size_t);
/* The writer of retry's own stdout (1) or stderr (2), set up on first
 * use. */
const struct out *out_std(int fd);
/* What retry passed on to its stdout (1) or stderr (2) ended with:
 * whether a line is left open there. */
void	 out_passed(int fd, const void *, size_t);
/* A child (an attempt, a hook) is to write to fd itself: when that is
 * stderr's terminal, retry no longer knows the column there. */
void	 out_unseen(int fd);
/* Whether retry may draw on stderr: a terminal whose foreground is
 * retry's process group (in the background, the user types on the
 * cursor's line); its width in columns then, or 80 when it does not
 * say. */
bool	 out_drawable(int *cols);
/* Whether stderr's terminal takes the escapes that erase (ESC [ K to the
 * end of a line, ESC [ J to the end of the screen): TERM is set, and not
 * "dumb". */
bool	 out_erases(void);
/*
 * Before retry's own words on stderr, so that a report never sticks to
 * the command's last words: in text, where a child wrote to the terminal
 * unseen and retry may draw, what leads to the first column of a line of
 * its own whatever column the cursor is in (blanks, a carriage return and
 * an erase); else a newline, when a line is open there: where stderr is
 * a regular file, as its last byte written says, whoever wrote it;
 * elsewhere, as what retry passed on to stderr (or to stdout, when both
 * are one file) left it.
 */
void	 out_newline(bool text);
/* Whether fd is a pipe, a FIFO or a socket. */
bool	 out_piped(int fd);
/* Whether fd is a pipe, FIFO or socket whose reader has gone. */
bool	 out_gone(int fd);

#endif
