/*
 * The files of hedged attempts (hedgeio.h): each attempt's own stdin, read
 * from its start, and the spools its stdout and stderr are written to.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compat.h"
#include "feed.h"
#include "hedgeio.h"
#include "hedging.h"

_Static_assert(FEED_READERS >= HEDGE_N_MAX,
    "every attempt of a round can be fed");

/*
 * A file of its own with what fd holds from at: where there is no /proc
 * to open fd anew, so that attempts side by side never share an offset.
 */
static int
copy_of(struct streams *s, int fd, off_t at)
{
	char buf[16384];
	ssize_t n, w;
	int to, e;

	if ((to = streams_tempfile(s)) == -1)
		return -1;
	while ((n = pread(fd, buf, sizeof(buf), at)) > 0) {
		if ((w = write(to, buf, (size_t)n)) != n) {
			/* A short write: the spool can take no more. */
			if (w >= 0)
				errno = ENOSPC;
			n = -1;
			break;
		}
		at += n;
	}
	if (n != 0 || lseek(to, 0, SEEK_SET) == -1) {
		e = errno;
		close(to);
		errno = e;
		return -1;
	}
	return to;
}

/* fd opened anew (its own offset) at at; -1 (errno set). */
static int
reopen_at(struct streams *s, int fd, off_t at)
{
	int r;

	if ((r = compat_reopen(fd, O_RDONLY | O_CLOEXEC)) == -1)
		return copy_of(s, fd, at);
	if (lseek(r, at, SEEK_SET) == -1) {
		close(r);
		return -1;
	}
	return r;
}

int
hedge_stdin(struct streams *s, int *fd, int *id)
{
	*fd = STDIO_CLOSED;
	*id = -1;
	if (s->null != -1)
		*fd = fcntl(s->null, F_DUPFD_CLOEXEC, 0);
	else if (s->closed[0])
		return 0;
	else if (s->recording && !feed_ended(&s->in))
		*fd = feed_join(&s->in, id);
	else if (s->replay != -1)
		*fd = reopen_at(s, s->replay, 0);
	else if (s->replay_at != -1)
		*fd = reopen_at(s, STDIN_FILENO, s->replay_at);
	return *fd == -1 ? -1 : 0;
}

int
hedge_spool(struct streams *s, int fd, int *file, int *to)
{
	if (s->closed[fd]) {
		*to = STDIO_CLOSED;
		return 0;
	}
	if ((*file = streams_tempfile(s)) == -1 ||
	    (*to = fcntl(*file, F_DUPFD_CLOEXEC, 0)) == -1)
		return -1;
	return 0;
}

void
hedge_stdin_end(struct streams *s, int id)
{
	if (s->recording)
		feed_leave(&s->in, id);
}

void
hedge_stdin_stop(struct streams *s)
{
	if (s->recording)
		feed_stop(&s->in);
}

/* Whether file could take no more: errno then says why. */
static bool
full(int file)
{
	struct stat st;

	if (file < 0 || fstat(file, &st) == -1)
		return false;
	if (pwrite(file, "", 1, st.st_size) == 1)
		return ftruncate(file, st.st_size) == -1;
	return errno == ENOSPC || errno == EFBIG || errno == EDQUOT;
}

bool
hedge_spools_kept(struct streams *s, int out, int err, unsigned long n)
{
	const char *which = full(out) ? "stdout" : full(err) ? "stderr" : NULL;

	if (which == NULL)
		return true;
	if (s->err[0] == '\0')
		(void)snprintf(s->err, sizeof(s->err), "--hedge: cannot keep "
		    "the %s of attempt %lu in %s: %s", which, n, s->where,
		    strerror(errno));
	return false;
}
