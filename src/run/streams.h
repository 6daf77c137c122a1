/* The attempt's standard streams: stdin replayed (a seekable stdin read
 * again from where it began, anything else recorded in a spool file as
 * it arrives, and passed on as it comes to an attempt that starts before
 * its end) or
 * /dev/null, stdout held in a file, and the output that rules read passed
 * through pipes, or pseudo-terminals where it goes to a terminal, scanned
 * as it flows and passed on without ever blocking retry. */
#ifndef RETRY_STREAMS_H
#define RETRY_STREAMS_H

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "config.h"
#include "feed.h"
#include "match.h"
#include "output.h"
#include "spawn.h"

/* One output stream of the attempt that passes through retry. */
struct stream {
	int		 src;		/* the pipe's read end, or -1 */
	int		 fd;		/* retry's fd it goes to: 1 or 2 */
	bool		 held;		/* it goes to the held file */
	bool		 scan;		/* rules read it */
	bool		 tty;		/* fd is a terminal */
	bool		 piped;		/* fd is a pipe, a FIFO or a socket,
					 * whose reader may go */
	bool		 pty;		/* src is the master of a pseudo-
					 * terminal (where one can be had for
					 * a terminal), not a pipe */
	struct scanner	*scanner;
	char		*buf;		/* read, not yet written: [off, len) */
	size_t		 off, len;
	size_t		 left;		/* once the command has ended: what
					 * it wrote that is still to take */
	bool		 ended;		/* the scanner has seen its end */
	bool		 crlf;		/* its terminal turns \n into \r\n:
					 * the rules read \n */
	bool		 cr;		/* a \r at the end of the last read,
					 * not yet scanned */
};

struct streams {
	const struct output_rules *rules;
	struct stream	 s[2];		/* stdout (or both, merged), stderr */
	int		 n;		/* streams in use */
	bool		 merged;	/* one pipe for stdout and stderr */
	bool		 exit_on_match;	/* no rule reads past --until-output's
					 * match, which ends the attempt */
	bool		 closed[3];	/* retry's fds 0-2 were closed */
	int		 hold;		/* the held stdout, or -1 */
	int		 hold_err;	/* --only-last's held stderr, or -1 */
	bool		 hold_stdout;	/* --hold-stdout */
	bool		 only_last;	/* --only-last */
	int		 replay;	/* the spooled stdin, or -1 */
	bool		 recording;	/* in: stdin recorded into replay */
	struct feed	 in;
	int		 hand_over;	/* the attempt's, before the terminal's
					 * input was read: 1, 0, or -1 (not
					 * known yet) */
	off_t		 replay_at;	/* a seekable stdin's start, or -1 */
	int		 null;		/* /dev/null for --stdin null, or -1 */
	off_t		 stdin_at;	/* an inherited file's offset, or -1 */
	bool		 stdin_pipe;	/* an inherited pipe with input to come */
	bool		 stdin_said;	/* that an attempt used it up, said */
	char		 tmpdir[256];	/* where spools are made without memfd */
	const char	*where;		/* "memory", or tmpdir */
	const char	*name;		/* the command's, for ps */
	struct attempt_io io;
	int		 polled[ATTEMPT_IO_MAX];	/* stream, + 2 for output,
						 * + POLL_GONE for its
						 * reader, or the feed's or
						 * keys' */
	struct scan_result result;	/* of the current attempt */
	bool		 gone[2];	/* stdout's, stderr's reader has gone */
	/*
	 * A rule at the terminal: the attempt runs in a session of its own
	 * whose terminal is the pseudo-terminal of stream sess, and the keys
	 * typed at the real terminal tin pass through keys[koff, klen).
	 */
	int		 sess;		/* that stream, or -1 */
	int		 tin;		/* the real terminal, or -1 */
	char		 keys[1024];
	size_t		 koff, klen;
	int		 heard;		/* the signal keys raised, or 0 */
	bool		 stop;		/* Ctrl-Z, for retry to carry out */
	char		 err[256];	/* the first error, or "" */
};

/* What the streams are set up for, as the options say. */
struct streams_opts {
	const struct output_rules *rules;	/* the output rules, kept */
	bool		 exit_on_match;	/* --until-output's match ends the
					 * attempt */
	enum match_stream match;	/* --match: the streams rules read */
	bool		 hold_stdout;	/* --hold-stdout */
	bool		 only_last;	/* --only-last */
	bool		 relay_stderr;	/* stderr passes through retry, which
					 * then knows where its lines end */
	enum stdin_mode	 stdin_mode;	/* --stdin */
};

/* Sets up the streams; closed: retry's fds 0-2 that were closed; name: the
 * command's, for ps; -1 with the reason in err. */
int	 streams_init(struct streams *, const struct streams_opts *,
	    const bool closed[3], const char *name);
/* Sets the attempt's fds; -1 with the reason in err. */
int	 streams_attempt(struct streams *, struct attempt_opts *);
/* After the attempt: the pipes it left behind (a process it left running
 * may still hold them) wait for streams_settle. */
void	 streams_after(struct streams *);
/* The attempt's held stdout goes to stdout (out) or stderr (with
 * --only-last, its held stdout and stderr pass on only if it is the last),
 * and what the
 * processes it left running write goes on being passed on, by a process
 * of retry's that lives as long as they hold the pipes; -1 when the held
 * output could not be written (err says why, or gone[] is set). */
int	 streams_settle(struct streams *, bool out, bool last);
/* A held file of --hedge's (an attempt's stdout or stderr) passed on to
 * retry's fd (1 or 2), as streams_settle passes on --hold-stdout's: -1
 * when it could not be written (err says why, or gone[] is set). */
int	 streams_pass_held(struct streams *, int file, int fd);
void	 streams_free(struct streams *);
/* A spool file, in memory or in s->tmpdir (s->where says which); -1
 * (errno set). */
int	 streams_tempfile(struct streams *);
/* Whether --stdin replay records what is typed at a terminal. */
bool	 streams_typed(const struct streams *);
/* Between attempts, in the back-off sleep's wait, stdin goes on being
 * recorded; while --hedge's attempts run, it is fed to them too.  The fds
 * to watch (at most 1 between attempts, FEED_WATCH_MAX in a round), and
 * what ppoll said of one; -1 when it cannot be kept (err says why). */
nfds_t	 streams_wait_watch(struct streams *, struct pollfd *);
int	 streams_wait_serve(struct streams *, const struct pollfd *);
/* Once, after an attempt: whether the stdin that attempts share (the
 * default) was read, so that the next attempt will not see that input
 * again: a file's offset has moved, or a pipe is at its end. */
bool	 streams_stdin_used(struct streams *);

#endif
