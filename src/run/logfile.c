/* The log file: its opening, and its queue of lines not yet taken. */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "logfile.h"

static unsigned long
lines_in(const char *p, size_t n)
{
	unsigned long k = 0;

	for (size_t i = 0; i < n; i++)
		k += p[i] == '\n';
	return k;
}

/* Writes what the log takes now: 0, or the errno that stopped it. */
static int
log_write_queued(struct logfile *f)
{
	ssize_t w;

	while (f->len > 0) {
		if ((w = out_try(&f->out, f->buf, f->len)) < 0) {
			if (errno == EINTR)
				continue;
			return errno == EWOULDBLOCK ? EAGAIN : errno;
		}
		memmove(f->buf, f->buf + w, f->len - (size_t)w);
		f->len -= (size_t)w;
	}
	return 0;
}

void
logfile_flush(struct logfile *f)
{
	const int e = log_write_queued(f);

	if (e == 0 || e == EAGAIN)
		return;
	f->dropped += lines_in(f->buf, f->len);
	f->len = 0;
	f->why = e;
}

void
logfile_queue(struct logfile *f, const char *buf, size_t n)
{
	char *p;

	if (f->len > 0 && f->len + n > LOG_QUEUE) {
		f->dropped += lines_in(buf, n);
		f->why = EAGAIN;
		return;
	}
	if (f->len + n > f->cap) {
		if ((p = realloc(f->buf, f->len + n)) == NULL) {
			f->dropped += lines_in(buf, n);
			f->why = ENOMEM;
			return;
		}
		f->buf = p;
		f->cap = f->len + n;
	}
	memcpy(f->buf + f->len, buf, n);
	f->len += n;
}

ssize_t
logfile_write(struct logfile *f, const char *buf, size_t n)
{
	ssize_t w;

	if (f->len > 0)
		return -1;
	while ((w = out_try(&f->out, buf, n)) < 0 && errno == EINTR)
		;
	if (w >= 0 && (size_t)w < n)
		logfile_queue(f, buf + w, n - (size_t)w);
	return w;
}

void
logfile_end(struct logfile *f)
{
	logfile_flush(f);
	if (f->len > 0) {
		f->dropped += lines_in(f->buf, f->len);
		f->why = EAGAIN;
		f->len = 0;
	}
}

/* Whether dir is sticky and world-writable, as /tmp is. */
static bool
shared_sticky(const struct stat *dir)
{
	return (dir->st_mode & S_ISVTX) != 0 && (dir->st_mode & S_IWOTH) != 0;
}

/*
 * The descriptor that path names, of those retry was given: standard
 * error for "-", and what /dev/stdin, /dev/stdout, /dev/stderr, /dev/fd/N
 * and /proc/self/fd/N lead to; -1 for any other name.  Named, not looked
 * up: opening them anew would truncate or seek what the command writes
 * to, where writing through the descriptor appends to it in turn.
 */
static int
named_fd(const char *path)
{
	static const struct {
		const char	*name;
		int		 fd;
	} std[] = {
		{ "-", STDERR_FILENO }, { "/dev/stdin", STDIN_FILENO },
		{ "/dev/stdout", STDOUT_FILENO }, { "/dev/stderr", STDERR_FILENO },
	};
	static const char *const dirs[] = { "/dev/fd/", "/proc/self/fd/" };
	const char *n, *why;
	size_t len;
	int fd;

	for (size_t i = 0; i < sizeof(std) / sizeof(std[0]); i++)
		if (strcmp(path, std[i].name) == 0)
			return std[i].fd;
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		len = strlen(dirs[i]);
		if (strncmp(path, dirs[i], len) != 0)
			continue;
		n = path + len;
		if (*n == '\0' || strspn(n, "0123456789") != strlen(n))
			return -1;
		fd = (int)strtonum(n, 0, INT_MAX, &why);
		/* Past any limit on descriptors: none that is open. */
		return why == NULL ? fd : INT_MAX;
	}
	return -1;
}

/* The log written through a copy (close-on-exec) of fd, which retry was
 * given open for writing. */
static int
logfile_dup(struct logfile **fp, const char *opt, const char *path, int fd,
    char *err, size_t errsz)
{
	int flags, d;

	if ((flags = fcntl(fd, F_GETFL)) == -1 ||
	    (d = fcntl(fd, F_DUPFD_CLOEXEC, 0)) == -1) {
		snprintf(err, errsz, "%s: %s: %s", opt, path,
		    strerror(errno));
		return -1;
	}
	if ((flags & O_ACCMODE) == O_RDONLY || (flags & O_PATH) != 0) {
		close(d);
		snprintf(err, errsz, "%s: %s: descriptor %d is not "
		    "open for writing", opt, path, fd);
		return -1;
	}
	if ((*fp = calloc(1, sizeof(**fp))) == NULL) {
		close(d);
		snprintf(err, errsz, "%s: %s: %s", opt, path,
		    strerror(errno));
		return -1;
	}
	out_init(&(*fp)->out, d);
	/* A pipe or a terminal opened again, of its own, non-blocking. */
	if ((*fp)->out.owned)
		close(d);
	return 0;
}

/*
 * Refuses what the kernel's protected_symlinks, protected_regular and
 * protected_fifos refuse, whatever the system's settings: in a sticky
 * world-writable directory (/tmp), a symlink, a file or a FIFO that neither
 * retry's user nor the directory's owner owns.  A name that is not a
 * symlink now is opened with O_NOFOLLOW, so that one planted in between
 * fails, and what was opened is judged by its descriptor, so that a file
 * planted in between is refused before a line is written to it.
 */
int
logfile_open(struct logfile **fp, const char *path, char *err,
    size_t errsz)
{
	return logfile_open_as(fp, "--log-file", path, err, errsz);
}

int
logfile_open_as(struct logfile **fp, const char *opt, const char *path,
    char *err, size_t errsz)
{
	char dir[PATH_MAX], base[PATH_MAX];
	struct stat st, ds;
	int dfd, fd, nofollow = O_NOFOLLOW;

	if ((fd = named_fd(path)) != -1)
		return logfile_dup(fp, opt, path, fd, err, errsz);
	if (strlcpy(dir, path, sizeof(dir)) >= sizeof(dir)) {
		errno = ENAMETOOLONG;
		goto fail;
	}
	strlcpy(base, path, sizeof(base));
	if ((dfd = open(dirname(dir), O_PATH | O_DIRECTORY | O_CLOEXEC)) == -1)
		goto fail;
	if (fstat(dfd, &ds) == -1) {
		close(dfd);
		goto fail;
	}
	if (fstatat(dfd, basename(base), &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    S_ISLNK(st.st_mode)) {
		if (shared_sticky(&ds) && st.st_uid != geteuid() &&
		    st.st_uid != ds.st_uid) {
			close(dfd);
			snprintf(err, errsz, "%s: %s: a symlink that "
			    "another user (uid %lu) made in a world-writable "
			    "sticky directory; refused", opt, path,
			    (unsigned long)st.st_uid);
			return -1;
		}
		nofollow = 0;
	}
	/* A FIFO without a reader fails (ENXIO) rather than block. */
	fd = openat(dfd, basename(base), O_WRONLY | O_APPEND | O_CREAT |
	    O_NONBLOCK | O_NOCTTY | O_CLOEXEC | nofollow, 0600);
	close(dfd);
	if (fd != -1 && fstat(fd, &st) == 0 && shared_sticky(&ds) &&
	    (S_ISREG(st.st_mode) || S_ISFIFO(st.st_mode)) &&
	    st.st_uid != geteuid() && st.st_uid != ds.st_uid) {
		close(fd);
		snprintf(err, errsz, "%s: %s: a %s that another user "
		    "(uid %lu) owns in a world-writable sticky directory; "
		    "refused", opt, path,
		    S_ISFIFO(st.st_mode) ? "FIFO" : "file",
		    (unsigned long)st.st_uid);
		return -1;
	}
	if (fd != -1 && (*fp = calloc(1, sizeof(**fp))) == NULL) {
		close(fd);
		fd = -1;
	}
	if (fd != -1) {
		out_init(&(*fp)->out, fd);
		return 0;
	}
fail:
	snprintf(err, errsz, "%s: %s: %s", opt, path, errno == ENXIO ?
	    "a FIFO that no process reads" : errno == ELOOP ?
	    "a symlink that appeared while it was opened" : strerror(errno));
	return -1;
}

void
logfile_close(struct logfile *f)
{
	if (f == NULL)
		return;
	out_close(&f->out);
	free(f->buf);
	free(f);
}
