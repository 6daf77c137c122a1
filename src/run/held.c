/*
 * --hold-stdout: the attempt's stdout kept in a spool (streams_tempfile),
 * and released to stdout or stderr once the attempt has ended; a spool
 * that cannot take more (a full disk) lets what it kept go out at once.
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

/* Releases the held file to retry's fd (1 or 2); -1 on an error (errno
 * set). */
int
held_release(struct streams *s, int fd)
{
	char *const buf = held_buffer();
	off_t off = 0;
	ssize_t n;

	if (buf == NULL) {
		errno = ENOMEM;
		return -1;
	}
	while ((n = pread(s->hold, buf, BUFSZ, off)) > 0) {
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
	streams_failed(s, "--hold-stdout: cannot keep the output in %s", s->where);
	st->held = false;
	(void)held_release(s, STDOUT_FILENO);
	close(s->hold);
	s->hold = -1;
}

int
held_out(struct streams *s, bool out)
{
	int rc = 0;

	if (held_release(s, out ? STDOUT_FILENO : STDERR_FILENO) == -1) {
		if (errno == EPIPE)
			s->gone[out ? 0 : 1] = true;
		else if (errno != EINTR)
			streams_failed(s, "%s: cannot write the held output",
			    out ? "stdout" : "stderr");
		rc = -1;
	}
	if (ftruncate(s->hold, 0) == -1)
		rc = -1;
	return rc;
}
