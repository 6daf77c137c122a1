/*
 * Non-blocking writers.  O_NONBLOCK on retry's own stdout would change the
 * file description that the shell, the attempt and the rest of a pipeline
 * share, so a pipe or a terminal is opened again through /proc, which gives
 * a description of retry's own; a socket takes MSG_DONTWAIT; what cannot be
 * opened again is polled before each write of at most PIPE_BUF bytes, which
 * a pipe with room takes whole.  Regular files and /dev/null never block.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compat.h"
#include "output.h"
#include "signals.h"

void
out_init(struct out *o, int fd)
{
	struct stat st;
	int flags, r;

	*o = (struct out){ .fd = fd };
	if (fstat(fd, &st) == -1)
		return;
	if (S_ISSOCK(st.st_mode)) {
		o->sock = true;
		return;
	}
	if (!S_ISFIFO(st.st_mode) && !(S_ISCHR(st.st_mode) && isatty(fd)))
		return;
	if ((flags = fcntl(fd, F_GETFL)) != -1 && (flags & O_NONBLOCK) != 0)
		return;
	if ((r = compat_reopen(fd, O_WRONLY | O_NONBLOCK | O_NOCTTY |
	    O_CLOEXEC)) != -1) {
		o->fd = r;
		o->owned = true;
	} else
		o->polled = true;
}

void
out_close(struct out *o)
{
	if (o->owned)
		close(o->fd);
	o->owned = false;
}

ssize_t
out_try(const struct out *o, const void *buf, size_t n)
{
	struct pollfd p = { o->fd, POLLOUT, 0 };

	if (o->sock)
		return send(o->fd, buf, n, MSG_DONTWAIT | MSG_NOSIGNAL);
	if (o->polled) {
		if (poll(&p, 1, 0) == 0) {
			errno = EAGAIN;
			return -1;
		}
		if (n > PIPE_BUF)
			n = PIPE_BUF;
	}
	return write(o->fd, buf, n);
}

int
out_all(const struct out *o, const void *buf, size_t n)
{
	const char *p = buf;
	struct pollfd pfd;
	ssize_t w;

	while (n > 0) {
		if ((w = out_try(o, p, n)) >= 0) {
			p += w;
			n -= (size_t)w;
			continue;
		}
		if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
			return -1;
		if (signal_stop != 0) {
			errno = EINTR;
			return -1;
		}
		pfd = (struct pollfd){ o->fd, POLLOUT, 0 };
		signals_wait(&pfd, 1, -1);
	}
	return 0;
}

const struct out *
out_std(int fd)
{
	static struct out std[3];
	static bool ready[3];

	if (!ready[fd]) {
		out_init(&std[fd], fd);
		ready[fd] = true;
	}
	return &std[fd];
}

static bool open_line[3];

void
out_passed(int fd, const void *buf, size_t n)
{
	if (n > 0)
		open_line[fd] = ((const char *)buf)[n - 1] != '\n';
}

void
out_newline(void)
{
	static int same = -1;
	struct stat a, b;

	if (same == -1)
		same = fstat(STDOUT_FILENO, &a) == 0 &&
		    fstat(STDERR_FILENO, &b) == 0 && a.st_dev == b.st_dev &&
		    a.st_ino == b.st_ino && a.st_rdev == b.st_rdev;
	if (open_line[2] || (same && open_line[1]))
		(void)out_all(out_std(STDERR_FILENO), "\n", 1);
	open_line[1] = open_line[2] = false;
}

bool
out_piped(int fd)
{
	struct stat st;

	return fstat(fd, &st) == 0 &&
	    (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode));
}

bool
out_gone(int fd)
{
	struct pollfd p = { fd, 0, 0 };

	return out_piped(fd) && poll(&p, 1, 0) == 1 &&
	    (p.revents & (POLLERR | POLLHUP)) != 0;
}
