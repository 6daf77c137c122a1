/* The file store of shared state. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "duration.h"
#include "wait.h"
#include "store.h"

/* "PATH: DOING: the error", or without DOING; -1, errno kept. */
static int
failed(char *err, size_t sz, const char *path, const char *doing)
{
	const int e = errno;

	snprintf(err, sz, "%s: %s%s%s", path, doing != NULL ? doing : "",
	    doing != NULL ? ": " : "", strerror(e));
	errno = e;
	return -1;
}

/* The same for the name's file, as DIR/NAME. */
static int
failed_file(const struct store *s, char *err, size_t sz, const char *doing)
{
	char path[PATH_MAX + SHARE_NAME_MAX + 2];

	snprintf(path, sizeof(path), "%s/%s", s->dir, s->name);
	return failed(err, sz, path, doing);
}

/* The default directory, made if missing: $XDG_RUNTIME_DIR/retry, else
 * /tmp/retry-UID. */
static int
default_dir(char *dir, size_t sz)
{
	const char *xdg = getenv("XDG_RUNTIME_DIR");
	int n;

	if (xdg != NULL && xdg[0] == '/')
		n = snprintf(dir, sz, "%s/retry", xdg);
	else
		n = snprintf(dir, sz, "/tmp/retry-%lu",
		    (unsigned long)getuid());
	return n < 0 || (size_t)n >= sz ? -1 : 0;
}

int
store_open(struct store *s, const char *dir, bool create, char *err,
    size_t errsz)
{
	struct stat st;
	size_t len;

	memset(s, 0, sizeof(*s));
	s->dirfd = s->fd = -1;
	s->by = -1;
	if (dir != NULL && strlen(dir) >= sizeof(s->dir)) {
		snprintf(err, errsz, "%s: too long a directory", dir);
		return -1;
	}
	if (dir != NULL)
		snprintf(s->dir, sizeof(s->dir), "%s", dir);
	else if (default_dir(s->dir, sizeof(s->dir)) == -1) {
		snprintf(err, errsz, "$XDG_RUNTIME_DIR is too long");
		errno = ENAMETOOLONG;
		return -1;
	}
	/* DIR/ would follow a symlink that DIR does not. */
	while ((len = strlen(s->dir)) > 1 && s->dir[len - 1] == '/')
		s->dir[len - 1] = '\0';
	if (create && mkdir(s->dir, 0700) == -1 && errno != EEXIST)
		return failed(err, errsz, s->dir, "cannot make it");
	/* Not through a symlink; then the directory itself is checked. */
	if ((s->dirfd = open(s->dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC)) == -1) {
		const int e = errno;

		if (e == ELOOP || e == ENOTDIR)
			snprintf(err, errsz, "%s: not a directory (a symlink "
			    "or a file is refused)", s->dir);
		else
			failed(err, errsz, s->dir, NULL);
		errno = e == ELOOP || e == ENOTDIR ? EPERM : e;
		return -1;
	}
	if (fstat(s->dirfd, &st) == -1) {
		failed(err, errsz, s->dir, NULL);
		store_close(s);
		return -1;
	}
	if (st.st_uid != getuid() || (st.st_mode & 022) != 0) {
		snprintf(err, errsz, "%s: refused: %s", s->dir,
		    st.st_uid != getuid() ? "it belongs to another user" :
		    "others may write in it (chmod 700 it)");
		store_close(s);
		errno = EPERM;
		return -1;
	}
	return 0;
}

int
store_name(struct store *s, const char *name, bool create, char *err,
    size_t errsz)
{
	struct stat st;

	snprintf(s->name, sizeof(s->name), "%s", name);
	if ((s->fd = openat(s->dirfd, name, O_RDWR | (create ? O_CREAT : 0) |
	    O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0600)) == -1) {
		const int e = errno;

		snprintf(err, errsz, "%s/%s: %s", s->dir, name,
		    e == ELOOP ? "a symlink is refused" : strerror(e));
		errno = e == ELOOP ? EPERM : e;
		return -1;
	}
	if (fstat(s->fd, &st) == -1 || !S_ISREG(st.st_mode) ||
	    st.st_uid != getuid()) {
		snprintf(err, errsz, "%s/%s: refused: not a file of the "
		    "user's own", s->dir, name);
		close(s->fd);
		s->fd = -1;
		errno = EPERM;
		return -1;
	}
	return 0;
}

/* The lock on the whole file, tried again inside the wait until it comes,
 * a signal ends the run (unless these are its last words), or the
 * store's deadline passes. */
static int
lock(const struct store *s, short type, char *err, size_t errsz)
{
	struct flock fl = { .l_type = type, .l_whence = SEEK_SET };
	const int64_t start = mono_ns();
	int64_t pause = 100000;		/* 0.1ms, doubling to 1.6ms */
	char d[DURATION_BUFSZ];

	while (fcntl(s->fd, F_OFD_SETLK, &fl) == -1) {
		const int64_t now = mono_ns();

		if (errno != EAGAIN && errno != EACCES)
			return failed_file(s, err, errsz, "cannot lock it");
		if (signal_stop != 0 && !s->ending) {
			snprintf(err, errsz, "%s/%s: interrupted", s->dir,
			    s->name);
			return -1;
		}
		if (now >= s->by) {
			snprintf(err, errsz, "%s/%s: another process has held "
			    "its lock for %s", s->dir, s->name,
			    duration_format(duration_round(now - start), d,
			    sizeof(d)));
			return -1;
		}
		(void)wait_until(NULL, 0, now + pause < s->by ? now + pause :
		    s->by);
		pause = pause < 1600000 ? 2 * pause : pause;
	}
	return 0;
}

static void
unlock(const struct store *s)
{
	struct flock fl = { .l_type = F_UNLCK, .l_whence = SEEK_SET };

	(void)fcntl(s->fd, F_OFD_SETLK, &fl);
}

/*
 * A state is written as a record of STORE_RECORD bytes at the file's
 * start: its text, then NULs to the end.  Each state takes the same bytes,
 * so a write replaces the whole of the one before, in one pwrite and no
 * ftruncate: a run killed at any point of an update leaves the state it
 * found or the one it made, never one's text with the other's tail.  A
 * file written whole as its text alone (by a version before the record)
 * still reads.
 */
#define STORE_RECORD	SHARE_TEXT_MAX

/* How much of the n bytes read is the state's text. */
static size_t
record_text(const char *buf, size_t n)
{
	return strnlen(buf, n);
}

/*
 * The history is the second record, of HISTORY_RECORD bytes at offset
 * STORE_RECORD: its text, then NULs, written whole in one pwrite as the
 * state is.  A file with a history and no state yet has NULs where the
 * state goes, which read as none.
 */
#define HISTORY_RECORD	SKETCH_TEXT_MAX

/* Reads the history into h: "" when there is none or it is not one (a
 * record without its NUL, or a text that sketch_parse refuses). */
static int
history_read(const struct store *s, struct store_history *h, char *err,
    size_t errsz)
{
	struct sketch k;
	ssize_t n;
	_Static_assert(sizeof(h->text) == HISTORY_RECORD, "read whole");

	if ((n = pread(s->fd, h->text, sizeof(h->text), STORE_RECORD)) == -1)
		return failed_file(s, err, errsz, "cannot read it");
	if (strnlen(h->text, (size_t)n) == (size_t)n ||
	    !sketch_parse(h->text, &k))
		h->text[0] = '\0';
	return 0;
}

/* Adds h->add to the history read into h, and writes it back. */
static int
history_write(const struct store *s, struct store_history *h, char *err,
    size_t errsz)
{
	char buf[HISTORY_RECORD];
	size_t len;

	(void)sketch_update(h->text, h->add, h->text, sizeof(h->text));
	len = strnlen(h->text, sizeof(h->text));
	memcpy(buf, h->text, len);
	memset(buf + len, '\0', sizeof(buf) - len);
	if (pwrite(s->fd, buf, sizeof(buf), STORE_RECORD) !=
	    (ssize_t)sizeof(buf))
		return failed_file(s, err, errsz, "cannot write it");
	return 0;
}

int
store_update(struct store *s, const struct share_rules *r, int64_t now,
    store_fn fn, void *arg, bool write, struct store_history *h,
    bool *corrupt, char *err, size_t errsz)
{
	struct share_state st;
	char buf[SHARE_TEXT_MAX + 1];
	ssize_t n;
	size_t len;
	int rc = 0;
	_Static_assert(STORE_RECORD < sizeof(buf), "a record is read whole");

	*corrupt = false;
	if (lock(s, write ? F_WRLCK : F_RDLCK, err, errsz) == -1)
		return -1;
	if ((n = pread(s->fd, buf, sizeof(buf), 0)) == -1) {
		rc = failed_file(s, err, errsz, "cannot read it");
		goto out;
	}
	if (h != NULL && (rc = history_read(s, h, err, errsz)) == -1)
		goto out;
	if (n == 0 || record_text(buf, (size_t)n) == 0)
		share_fresh(&st, r, now);
	else if (share_parse(buf, record_text(buf, (size_t)n), &st) != NULL) {
		*corrupt = true;
		share_fresh(&st, r, now);
	}
	fn(&st, now, arg);
	if (!write)
		goto out;
	/* The text and at least one NUL: len < STORE_RECORD. */
	if ((len = share_format(&st, buf, STORE_RECORD)) == 0) {
		snprintf(err, errsz, "%s: the state does not fit", s->name);
		rc = -1;
		goto out;
	}
	memset(buf + len, '\0', STORE_RECORD - len);
	if ((n = pwrite(s->fd, buf, STORE_RECORD, 0)) != STORE_RECORD) {
		if (n >= 0)
			errno = ENOSPC;
		rc = failed_file(s, err, errsz, "cannot write it");
		/* Half a state is no state: the next reader starts afresh
		 * (or, if even this fails, finds it corrupt and does). */
		if (ftruncate(s->fd, 0) == -1)
			rc = -1;
	} else if (h != NULL && h->add >= 0)
		rc = history_write(s, h, err, errsz);
out:
	unlock(s);
	return rc;
}

static int
by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int
store_names(const struct store *s, char ***out, size_t *count)
{
	struct dirent *e;
	char **names = NULL, **more;
	size_t n = 0, cap = 0;
	DIR *d;
	int fd;

	if ((fd = fcntl(s->dirfd, F_DUPFD_CLOEXEC, 0)) == -1 ||
	    (d = fdopendir(fd)) == NULL) {
		if (fd != -1)
			close(fd);
		return -1;
	}
	rewinddir(d);
	while ((e = readdir(d)) != NULL) {
		if (share_name_check(e->d_name) != NULL)
			continue;
		if (n == cap && (more = reallocarray(names, cap * 2 + 8,
		    sizeof(*names))) != NULL) {
			names = more;
			cap = cap * 2 + 8;
		}
		if (n == cap || (names[n] = strdup(e->d_name)) == NULL) {
			for (size_t i = 0; i < n; i++)
				free(names[i]);
			free(names);
			closedir(d);
			errno = ENOMEM;
			return -1;
		}
		n++;
	}
	closedir(d);
	if (n > 0)
		qsort(names, n, sizeof(*names), by_name);
	*out = names;
	*count = n;
	return 0;
}

int
store_reset(struct store *s, char *err, size_t errsz)
{
	int rc = 0;

	if (lock(s, F_WRLCK, err, errsz) == -1)
		return -1;
	if (ftruncate(s->fd, 0) == -1)
		rc = failed_file(s, err, errsz, "cannot empty it");
	unlock(s);
	return rc;
}

int
store_read(struct store *s, struct share_state *st, struct store_history *h,
    char *err, size_t errsz)
{
	char buf[SHARE_TEXT_MAX + 1];
	const char *why;
	ssize_t n;
	int rc = 0;

	if (lock(s, F_RDLCK, err, errsz) == -1)
		return -1;
	if ((n = pread(s->fd, buf, sizeof(buf), 0)) == -1)
		rc = failed_file(s, err, errsz, "cannot read it");
	else if (h != NULL && history_read(s, h, err, errsz) == -1)
		rc = -1;
	else if (n == 0 || record_text(buf, (size_t)n) == 0)
		rc = 1;
	else if ((why = share_parse(buf, record_text(buf, (size_t)n), st)) !=
	    NULL) {
		snprintf(err, errsz, "%s/%s: not a shared state: %s", s->dir,
		    s->name, why);
		rc = -1;
	}
	unlock(s);
	return rc;
}

void
store_unname(struct store *s)
{
	if (s->fd != -1)
		close(s->fd);
	s->fd = -1;
}

void
store_close(struct store *s)
{
	if (s->fd != -1)
		close(s->fd);
	if (s->dirfd != -1)
		close(s->dirfd);
	s->fd = s->dirfd = -1;
}
