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
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>

#include "compat.h"
#include "output.h"
#include "wait.h"

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
		wait_until(&pfd, 1, -1);
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
/* A child wrote to stderr's terminal where retry does not see it. */
static bool unseen;

void
out_passed(int fd, const void *buf, size_t n)
{
	if (n > 0)
		open_line[fd] = ((const char *)buf)[n - 1] != '\n';
}

/* Whether descriptors a and b are one file. */
static bool
same_file(int a, int b)
{
	struct stat x, y;

	return fstat(a, &x) == 0 && fstat(b, &y) == 0 && x.st_dev == y.st_dev &&
	    x.st_ino == y.st_ino && x.st_rdev == y.st_rdev;
}

void
out_unseen(int fd)
{
	static int tty = -1;

	if (tty == -1)
		tty = isatty(STDERR_FILENO);
	if (tty == 1 && fd >= 0 && same_file(fd, STDERR_FILENO))
		unseen = true;
}

bool
out_drawable(int *cols)
{
	struct winsize ws;

	if (!isatty(STDERR_FILENO) || tcgetpgrp(STDERR_FILENO) != getpgrp())
		return false;
	*cols = ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0 ?
	    ws.ws_col : 80;
	return true;
}

bool
out_erases(void)
{
	static int erases = -1;
	const char *term;

	if (erases == -1)
		erases = (term = getenv("TERM")) != NULL && *term != '\0' &&
		    strcmp(term, "dumb") != 0;
	return erases == 1;
}

/*
 * To the first column of a line of its own, from a column unknown: a
 * line's width of blanks fills the rest of the line the cursor is on and
 * wraps to the next, or, from the first column, fills that line and waits
 * at its end for a character to wrap; either way a carriage return then
 * leads to the first column of a line that nothing else is on.  The
 * blanks are then erased, where the terminal can.
 */
static void
line_start(int cols)
{
	char blanks[256];
	size_t n;

	memset(blanks, ' ', sizeof(blanks));
	for (size_t left = (size_t)cols; left > 0; left -= n) {
		n = left < sizeof(blanks) ? left : sizeof(blanks);
		if (out_all(out_std(STDERR_FILENO), blanks, n) == -1)
			return;
	}
	if (out_erases())
		(void)out_all(out_std(STDERR_FILENO), "\r\033[K", 4);
	else
		(void)out_all(out_std(STDERR_FILENO), "\r", 1);
}

/*
 * Where stderr is a regular file, whoever wrote to it last (the command,
 * which writes there itself, or another writer of a shared log): 1 when
 * the byte before where the next write goes is not a newline, 0 when it
 * is or the file is empty there, -1 when that cannot be told.  A file open
 * with O_APPEND is written at its end, any other at fd 2's offset; a
 * write-only fd is read through a reopening of its own.
 */
static int
file_open_line(void)
{
	struct stat st;
	off_t at;
	char c;
	ssize_t n;
	int flags, fd;

	if (fstat(STDERR_FILENO, &st) == -1 || !S_ISREG(st.st_mode) ||
	    (flags = fcntl(STDERR_FILENO, F_GETFL)) == -1)
		return -1;
	at = (flags & O_APPEND) != 0 ? st.st_size :
	    lseek(STDERR_FILENO, 0, SEEK_CUR);
	if (at <= 0)
		return at == 0 ? 0 : -1;
	if ((flags & O_ACCMODE) != O_WRONLY)
		n = pread(STDERR_FILENO, &c, 1, at - 1);
	else if ((fd = compat_reopen(STDERR_FILENO, O_RDONLY | O_NOCTTY |
	    O_CLOEXEC)) == -1)
		return -1;
	else {
		n = pread(fd, &c, 1, at - 1);
		close(fd);
	}
	return n == 1 ? c != '\n' : n == 0 ? 0 : -1;
}

void
out_newline(bool text)
{
	static int same = -1;
	int cols, file;

	if (same == -1)
		same = same_file(STDOUT_FILENO, STDERR_FILENO);
	if (text && unseen && out_drawable(&cols))
		line_start(cols);
	else if ((file = file_open_line()) != -1 ? file == 1 :
	    open_line[2] || (same && open_line[1]))
		(void)out_all(out_std(STDERR_FILENO), "\n", 1);
	open_line[1] = open_line[2] = unseen = false;
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
