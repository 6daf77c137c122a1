/*
 * Streams.  Temporary files are unlinked as soon as they are made, so no
 * exit path, a signal's included, leaves one behind; they live in $TMPDIR,
 * and memory stays bounded whatever the size of the data.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <unistd.h>

#include "streams.h"

static int
failed(struct streams *s, const char *what)
{
	if (s->err[0] == '\0')
		snprintf(s->err, sizeof(s->err), "%s: %s", what,
		    strerror(errno));
	return -1;
}

static int
tempfile(void)
{
	const char *dir = getenv("TMPDIR");
	char path[PATH_MAX];
	int fd;

	if (dir == NULL || *dir == '\0')
		dir = "/tmp";
	if (snprintf(path, sizeof(path), "%s/retry.XXXXXX", dir) >=
	    (int)sizeof(path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	if ((fd = mkostemp(path, O_CLOEXEC)) == -1)
		return -1;
	unlink(path);
	return fd;
}

/* Writes all of buf, or fails. */
static int
write_all(int fd, const char *buf, size_t n)
{
	ssize_t w;

	while (n > 0) {
		if ((w = write(fd, buf, n)) == -1) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		buf += w;
		n -= (size_t)w;
	}
	return 0;
}

static int
spool_stdin(struct streams *s)
{
	static char buf[128 * 1024];
	ssize_t n;

	if ((s->replay = tempfile()) == -1)
		return failed(s, "--stdin replay: cannot make a file in "
		    "$TMPDIR");
	while ((n = read(STDIN_FILENO, buf, sizeof(buf))) != 0) {
		if (n == -1) {
			if (errno == EINTR)
				continue;
			return failed(s, "--stdin replay: cannot read stdin");
		}
		if (write_all(s->replay, buf, (size_t)n) == -1)
			return failed(s, "--stdin replay: cannot keep stdin "
			    "in $TMPDIR");
	}
	return 0;
}

int
streams_init(struct streams *s, const struct config *c)
{
	const struct rules_set *r = &c->output;

	memset(s, 0, sizeof(*s));
	s->replay = s->null = s->hold = -1;
	s->rules = r;
	s->scan[0] = rules_any(r) && c->match != MATCH_STDERR;
	s->scan[1] = rules_any(r) && c->match != MATCH_STDOUT;
	s->piped[0] = s->scan[0] || c->hold_stdout;
	s->piped[1] = s->scan[1];
	s->dest[0] = STDOUT_FILENO;
	s->dest[1] = STDERR_FILENO;
	for (int i = 0; i < 2; i++)
		if (s->scan[i] && (s->scanner[i] =
		    malloc(sizeof(*s->scanner[i]))) == NULL)
			return failed(s, "out of memory");
	if (c->stdin_mode == STDIN_REPLAY && spool_stdin(s) == -1)
		return -1;
	if (c->stdin_mode == STDIN_NULL &&
	    (s->null = open("/dev/null", O_RDONLY | O_CLOEXEC)) == -1)
		return failed(s, "--stdin null: /dev/null");
	if (c->hold_stdout) {
		if ((s->hold = tempfile()) == -1)
			return failed(s, "--hold-stdout: cannot make a file "
			    "in $TMPDIR");
		s->dest[0] = s->hold;
	}
	return 0;
}

/* A new open file description, so that each attempt reads from 0. */
static int
reopen(int fd)
{
	char path[32];
	int r;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if ((r = open(path, O_RDONLY | O_CLOEXEC)) != -1)
		return r;
	/* No /proc: share the offset, rewound. */
	if ((r = fcntl(fd, F_DUPFD_CLOEXEC, 0)) != -1)
		lseek(r, 0, SEEK_SET);
	return r;
}

static int
output_pipe(struct streams *s, struct attempt_opts *ao, int i)
{
	int p[2];

	if (pipe2(p, O_CLOEXEC) == -1)
		return failed(s, "pipe");
	/* Fewer, larger reads: a bigger pipe where the kernel allows. */
	fcntl(p[0], F_SETPIPE_SZ, 1024 * 1024);
	ao->stdio[i + 1] = p[1];
	ao->watch[i] = p[0];
	return 0;
}

int
streams_attempt(struct streams *s, struct attempt_opts *ao)
{
	ao->stdio[0] = ao->stdio[1] = ao->stdio[2] = -1;
	ao->watch[0] = ao->watch[1] = -1;
	ao->sink = streams_sink;
	ao->ctx = s;
	memset(&s->result, 0, sizeof(s->result));
	for (int i = 0; i < 2; i++)
		if (s->scanner[i] != NULL)
			s->scanner[i]->len = 0;
	if (s->hold != -1 && (ftruncate(s->hold, 0) == -1 ||
	    lseek(s->hold, 0, SEEK_SET) == -1))
		return failed(s, "--hold-stdout");
	if (s->replay != -1 && (ao->stdio[0] = reopen(s->replay)) == -1)
		return failed(s, "--stdin replay");
	if (s->null != -1 &&
	    (ao->stdio[0] = fcntl(s->null, F_DUPFD_CLOEXEC, 0)) == -1)
		return failed(s, "--stdin null");
	for (int i = 0; i < 2; i++)
		if (s->piped[i] && output_pipe(s, ao, i) == -1)
			return -1;
	return 0;
}

/* Held output that cannot be kept goes out now rather than be lost. */
static void
hold_broken(struct streams *s)
{
	failed(s, "--hold-stdout: cannot keep the output in $TMPDIR");
	streams_release(s, true);
	s->dest[0] = STDOUT_FILENO;
	close(s->hold);
	s->hold = -1;
}

void
streams_sink(void *ctx, int i, const char *buf, size_t n)
{
	struct streams *s = ctx;

	if (n == 0) {
		if (s->scan[i])
			scan_end(s->rules, s->scanner[i], &s->result);
		return;
	}
	if (write_all(s->dest[i], buf, n) == -1) {
		if (s->dest[i] == s->hold) {
			hold_broken(s);
			write_all(s->dest[i], buf, n);
		} else
			failed(s, i == 0 ? "stdout" : "stderr");
	}
	if (s->scan[i])
		scan_chunk(s->rules, s->scanner[i], buf, n, &s->result);
}

void
streams_release(struct streams *s, bool last)
{
	static char buf[64 * 1024];
	const int out = last ? STDOUT_FILENO : STDERR_FILENO;
	off_t off = 0, size;
	ssize_t n;

	if (s->hold == -1 || (size = lseek(s->hold, 0, SEEK_END)) <= 0)
		return;
	while (off < size) {
		n = sendfile(out, s->hold, &off, (size_t)(size - off));
		if (n > 0)
			continue;
		if (n == -1 && errno == EINTR)
			continue;
		break;
	}
	/* sendfile cannot write to every kind of file: copy the rest. */
	while (off < size && (n = pread(s->hold, buf, sizeof(buf), off)) > 0) {
		if (write_all(out, buf, (size_t)n) == -1)
			break;
		off += n;
	}
	ftruncate(s->hold, 0);
}

void
streams_free(struct streams *s)
{
	for (int i = 0; i < 2; i++)
		free(s->scanner[i]);
	if (s->replay != -1)
		close(s->replay);
	if (s->null != -1)
		close(s->null);
	if (s->hold != -1)
		close(s->hold);
}
