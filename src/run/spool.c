/*
 * The attempt's stdin: the one that attempts share, watched for whether
 * an attempt used it up; /dev/null; or --stdin replay's, read again from
 * where it began if it can seek, else recorded in a spool as it arrives
 * (feed.c), which each attempt reads from its start.
 *
 * The spools of --stdin replay and --hold-stdout are anonymous files in
 * memory (memfd), or where there is no such thing, files in $TMPDIR
 * unlinked as soon as they are made: no exit path, a signal's included,
 * leaves one behind, and no directory need exist.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compat.h"
#include "feed.h"
#include "streamparts.h"
#include "streams.h"

/* A spool: in memory, else in $TMPDIR, with no name (O_TMPFILE) or with
 * one unlinked at once; s->where says which. */
int
streams_tempfile(struct streams *s)
{
	char path[PATH_MAX];
	int fd;

	if ((fd = compat_memfd("retry")) != -1) {
		s->where = "memory";
		return fd;
	}
	s->where = s->tmpdir;
	if ((fd = compat_tmpfile(s->tmpdir)) != -1)
		return fd;
	if (snprintf(path, sizeof(path), "%s/retry.XXXXXX", s->tmpdir) >=
	    (int)sizeof(path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	if ((fd = mkostemp(path, O_CLOEXEC)) == -1)
		return -1;
	unlink(path);
	return fd;
}

/* --stdin replay: stdin kept for every attempt, as where it began if it
 * can seek, else recorded in a spool as it arrives (feed.c). */
int
keep_stdin(struct streams *s)
{
	struct stat st;
	off_t at;

	if (fstat(STDIN_FILENO, &st) == 0 &&
	    (S_ISREG(st.st_mode) || S_ISBLK(st.st_mode)) &&
	    (at = lseek(STDIN_FILENO, 0, SEEK_CUR)) != -1) {
		s->replay_at = at;
		return 0;
	}
	if ((s->replay = streams_tempfile(s)) == -1)
		return streams_failed(s, "--stdin replay: cannot make a spool in "
		    "memory or in %s", s->tmpdir);
	feed_init(&s->in, s->replay, s->where);
	s->recording = true;
	return 0;
}

bool
streams_typed(const struct streams *s)
{
	return s->recording && s->in.tty;
}

/* The feed's error, as the streams' first. */
int
streams_feed_failed(struct streams *s)
{
	if (s->err[0] == '\0')
		strlcpy(s->err, s->in.err, sizeof(s->err));
	return -1;
}

nfds_t
streams_wait_watch(struct streams *s, struct pollfd *pfd)
{
	return s->recording ? feed_watch(&s->in, pfd) : 0;
}

int
streams_wait_serve(struct streams *s, const struct pollfd *pfd)
{
	return s->recording && feed_serve(&s->in, pfd) == -1 ?
	    streams_feed_failed(s) : 0;
}

/* Where the stdin that attempts share stands before the first. */
void
stdin_note(struct streams *s)
{
	struct stat st;

	if (fstat(STDIN_FILENO, &st) == -1)
		return;
	if (S_ISREG(st.st_mode))
		s->stdin_at = lseek(STDIN_FILENO, 0, SEEK_CUR);
	else if (S_ISFIFO(st.st_mode))
		s->stdin_pipe = !streams_pipe_ended(STDIN_FILENO);
}

bool
streams_stdin_used(struct streams *s)
{
	if (s->stdin_said || !((s->stdin_at != -1 &&
	    lseek(STDIN_FILENO, 0, SEEK_CUR) != s->stdin_at) ||
	    (s->stdin_pipe && streams_pipe_ended(STDIN_FILENO))))
		return false;
	s->stdin_said = true;
	return true;
}

/* A new open file description, so that each attempt reads from 0. */
static int
reopen(int fd)
{
	int r;

	if ((r = compat_reopen(fd, O_RDONLY | O_CLOEXEC)) != -1)
		return r;
	/* No /proc: share the offset, rewound. */
	if ((r = fcntl(fd, F_DUPFD_CLOEXEC, 0)) != -1)
		lseek(r, 0, SEEK_SET);
	return r;
}

/* The attempt's stdin: *fd, or -1 (errno set). */
int
stdin_for(struct streams *s, int *fd)
{
	*fd = STDIO_INHERIT;
	if (s->null != -1)
		return (*fd = fcntl(s->null, F_DUPFD_CLOEXEC, 0)) == -1 ? -1 : 0;
	if (s->closed[0])
		*fd = STDIO_CLOSED;
	else if (s->recording && !feed_ended(&s->in))
		return (*fd = feed_attempt(&s->in)) == -1 ? -1 : 0;
	else if (s->replay != -1)
		return (*fd = reopen(s->replay)) == -1 ? -1 : 0;
	else if (s->replay_at != -1 &&
	    lseek(STDIN_FILENO, s->replay_at, SEEK_SET) == -1)
		return -1;
	return 0;
}
