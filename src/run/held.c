/*
 * --hold-stdout: the attempt's stdout kept in a spool (streams_tempfile),
 * and released to stdout or stderr once the attempt has ended; a spool
 * that cannot take more (a full disk) lets what it kept go out at once.
 * --only-last: stdout and stderr each kept so, and released, stdout
 * first, only after the run's last attempt; an earlier one's are emptied
 * unread when the next attempt starts.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <unistd.h>

#include "output.h"
#include "streamparts.h"
#include "streams.h"

/* Writes all of buf to a file, which does not block; the bytes written,
 * all n unless an error (errno) stopped it. */
size_t
held_write(int fd, const char *buf, size_t n)
{
	size_t done = 0;
	ssize_t w;

	while (done < n) {
		if ((w = write(fd, buf + done, n - done)) <= 0) {
			if (w == -1 && errno == EINTR)
				continue;
			if (w == 0)
				errno = ENOSPC;
			break;
		}
		done += (size_t)w;
	}
	return done;
}

/* The buffer of the copies made through retry (a held file out, what a
 * drainer passes on), allocated at its first use:
 * static, it would push the data that every run writes apart, across
 * pages that each cost a fault. */
char *
held_buffer(void)
{
	static char *buf;

	if (buf == NULL)
		buf = malloc(BUFSZ);
	return buf;
}

/* The file that holds the stream's output. */
int
held_file(const struct streams *s, const struct stream *st)
{
	return st->fd == STDERR_FILENO ? s->hold_err : s->hold;
}

/* Releases the held file to retry's fd (1 or 2); -1 on an error (errno
 * set). */
int
held_release(int file, int fd)
{
	char *const buf = held_buffer();
	off_t off = 0;
	ssize_t n;

	if (buf == NULL) {
		errno = ENOMEM;
		return -1;
	}
	while ((n = pread(file, buf, BUFSZ, off)) > 0) {
		if (out_all(out_std(fd), buf, (size_t)n) == -1)
			return -1;
		out_passed(fd, buf, (size_t)n);
		off += n;
	}
	return n == -1 ? -1 : 0;
}

/* The held file cannot take more (a full disk): what it kept goes out now,
 * and the rest of the output after it, rather than be lost. */
void
held_broken(struct streams *s, struct stream *st)
{
	int *const file = st->fd == STDERR_FILENO ? &s->hold_err : &s->hold;

	streams_failed(s, "%s: cannot keep the output in %s",
	    s->only_last ? "--hold last" : "--hold stdout", s->where);
	st->held = false;
	(void)held_release(*file, s->only_last ? st->fd : STDOUT_FILENO);
	close(*file);
	*file = -1;
}

/* The held file, if any, to fd (1 or 2), and emptied; -1 (err says why, or gone[]
 * is set). */
static int
held_to(struct streams *s, int file, int fd)
{
	int rc = 0;

	if (file == -1)
		return 0;
	if (held_release(file, fd) == -1) {
		if (errno == EPIPE)
			s->gone[fd - 1] = true;
		else if (errno != EINTR)
			streams_failed(s, "%s: cannot write the held output",
			    fd == STDOUT_FILENO ? "stdout" : "stderr");
		rc = -1;
	}
	if (ftruncate(file, 0) == -1)
		rc = -1;
	return rc;
}

int
held_out(struct streams *s, bool out, bool last)
{
	const int to = out || !s->hold_stdout ? STDOUT_FILENO : STDERR_FILENO;
	int rc;

	/* Kept until the next attempt empties it, so that a signal before
	 * that passes on the output of the attempt that was the last. */
	if (s->only_last && !last)
		return 0;
	rc = held_to(s, s->hold, to);
	if (held_to(s, s->hold_err, STDERR_FILENO) == -1)
		rc = -1;
	return rc;
}

int
streams_pass_held(struct streams *s, int file, int fd)
{
	if (s->closed[fd] || s->gone[fd - 1])
		return 0;
	return held_to(s, file, fd);
}
