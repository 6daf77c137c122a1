/*
 * Streams.  The spools of --hold-stdout and --stdin replay are anonymous
 * files in memory (memfd), or where there is no such thing, files in
 * $TMPDIR unlinked as soon as they are made: no exit path, a signal's
 * included, leaves one behind, and no directory need exist.  retry's own
 * memory stays bounded whatever the size of the data: a stream holds at
 * most one buffer that its destination has not taken yet, and reads no
 * more until it has.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pty.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "compat.h"
#include "feed.h"
#include "signals.h"
#include "streams.h"

#define BUFSZ	(128 * 1024)
#define POLLED_FEED	4	/* polled[]: the stdin fed and recorded */

static int	failed(struct streams *, const char *, ...)
		    __attribute__((format(printf, 2, 3)));

/* Keeps the first error: the words, then errno's. */
static int
failed(struct streams *s, const char *fmt, ...)
{
	const int e = errno;
	va_list ap;
	int n;

	if (s->err[0] != '\0')
		return -1;
	va_start(ap, fmt);
	n = vsnprintf(s->err, sizeof(s->err), fmt, ap);
	va_end(ap);
	if (n >= 0 && (size_t)n < sizeof(s->err))
		snprintf(s->err + n, sizeof(s->err) - (size_t)n, ": %s",
		    strerror(e));
	return -1;
}

/* A spool: in memory, else in $TMPDIR, with no name (O_TMPFILE) or with
 * one unlinked at once; s->where says which. */
static int
tempfile(struct streams *s)
{
	char path[PATH_MAX];
	int fd;

	if ((fd = compat_memfd("retry")) != -1) {
		s->where = "memory";
		return fd;
	}
	s->where = s->tmpdir;
#ifdef O_TMPFILE
	if ((fd = open(s->tmpdir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600)) != -1)
		return fd;
#endif
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

/* Writes all of buf to a file, which does not block; the bytes written,
 * all n unless an error (errno) stopped it. */
static size_t
write_file(int fd, const char *buf, size_t n)
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

/* Whether fds a and b lead to the same file, pipe or terminal. */
static bool
same_file(int a, int b)
{
	struct stat sa, sb;

	return fstat(a, &sa) == 0 && fstat(b, &sb) == 0 &&
	    sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino &&
	    sa.st_rdev == sb.st_rdev;
}

/* The buffer of the copies made through retry (a held file out, what a
 * drainer passes on), allocated at its first use:
 * static, it would push the data that every run writes apart, across
 * pages that each cost a fault. */
static char *
copy_buffer(void)
{
	static char *buf;

	if (buf == NULL)
		buf = malloc(BUFSZ);
	return buf;
}

/* --stdin replay: stdin kept for every attempt, as where it began if it
 * can seek, else recorded in a spool as it arrives (feed.c). */
static int
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
	if ((s->replay = tempfile(s)) == -1)
		return failed(s, "--stdin replay: cannot make a spool in "
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
static int
feed_failed(struct streams *s)
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
	    feed_failed(s) : 0;
}

/* Whether no process holds the other end of fd (a pipe, a FIFO, or a
 * pseudo-terminal's master) any more. */
static bool
hung_up(int fd)
{
	struct pollfd p = { fd, POLLIN, 0 };

	return poll(&p, 1, 0) == 1 && (p.revents & POLLHUP) != 0;
}

/* Whether fd's writers have gone and it holds nothing more. */
static bool
pipe_ended(int fd)
{
	int avail;

	return hung_up(fd) && ioctl(fd, FIONREAD, &avail) == 0 && avail == 0;
}

/* Where the stdin that attempts share stands before the first. */
static void
stdin_note(struct streams *s)
{
	struct stat st;

	if (fstat(STDIN_FILENO, &st) == -1)
		return;
	if (S_ISREG(st.st_mode))
		s->stdin_at = lseek(STDIN_FILENO, 0, SEEK_CUR);
	else if (S_ISFIFO(st.st_mode))
		s->stdin_pipe = !pipe_ended(STDIN_FILENO);
}

bool
streams_stdin_used(struct streams *s)
{
	if (s->stdin_said || !((s->stdin_at != -1 &&
	    lseek(STDIN_FILENO, 0, SEEK_CUR) != s->stdin_at) ||
	    (s->stdin_pipe && pipe_ended(STDIN_FILENO))))
		return false;
	s->stdin_said = true;
	return true;
}

static int
stream_init(struct streams *s, struct stream *st, int fd, bool scan,
    bool held)
{
	*st = (struct stream){ .src = -1, .fd = fd, .held = held,
	    .scan = scan, .tty = isatty(fd) == 1 };
	if ((st->buf = malloc(BUFSZ)) == NULL ||
	    (scan && (st->scanner = calloc(1, sizeof(*st->scanner))) == NULL))
		return failed(s, "out of memory");
	s->n++;
	return 0;
}

static nfds_t	 io_watch(void *, struct pollfd *);
static int	 io_serve(void *, const struct pollfd *, nfds_t);
static void	 io_end(void *);
static bool	 io_busy(void *);
static void	 io_drop(void *);
static void	 io_resize(void *);
static bool	 io_done(void *);
static int	 io_keys(void *);

int
streams_init(struct streams *s, const struct config *c, const bool closed[3],
    const char *name)
{
	const struct output_rules *r = &c->verdict.output;
	const char *dir = getenv("TMPDIR");
	bool scan[2], pipe[2];

	memset(s, 0, sizeof(*s));
	s->replay = s->null = s->hold = -1;
	s->replay_at = -1;
	s->hand_over = -1;
	s->rules = r;
	s->name = name;
	s->io = (struct attempt_io){ s, io_watch, io_serve, io_end, io_busy,
	    io_drop, io_resize, io_done, io_keys };
	s->sess = s->tin = -1;
	s->exit_on_match = c->verdict.exit_on_match;
	memcpy(s->closed, closed, sizeof(s->closed));
	snprintf(s->tmpdir, sizeof(s->tmpdir), "%s",
	    dir != NULL && *dir != '\0' ? dir : "/tmp");
	const bool one = !closed[1] && !closed[2] &&
	    same_file(STDOUT_FILENO, STDERR_FILENO);

	scan[0] = rules_any(r) && c->match != MATCH_STDERR && !closed[1];
	scan[1] = rules_any(r) && c->match != MATCH_STDOUT && !closed[2];
	pipe[0] = (scan[0] || c->hold_stdout) && !closed[1];
	pipe[1] = scan[1];
	/* Written to one file, stdout and stderr go through one pipe, so
	 * that their order is the command's; unless --match names one, which
	 * only two can tell apart: both then pass through retry, in the
	 * order it reads them. */
	s->merged = !c->hold_stdout && (pipe[0] || pipe[1]) && one &&
	    c->match == MATCH_BOTH;
	if (one && !s->merged && rules_any(r))
		pipe[0] = pipe[1] = true;
	if (s->merged) {
		if (stream_init(s, &s->s[0], STDOUT_FILENO, scan[0] || scan[1],
		    false) == -1)
			return -1;
	} else
		for (int i = 0; i < 2; i++)
			if (pipe[i] && stream_init(s, &s->s[s->n], i + 1,
			    scan[i], i == 0 && c->hold_stdout) == -1)
				return -1;
	if (c->stdin_mode == STDIN_REPLAY && !closed[0] &&
	    keep_stdin(s) == -1)
		return -1;
	s->stdin_at = -1;
	if (c->stdin_mode == STDIN_INHERIT && !closed[0])
		stdin_note(s);
	if (c->stdin_mode == STDIN_NULL &&
	    (s->null = open("/dev/null", O_RDONLY | O_CLOEXEC)) == -1)
		return failed(s, "--stdin null: /dev/null");
	if (c->hold_stdout && !closed[1] && (s->hold = tempfile(s)) == -1)
		return failed(s, "--hold-stdout: cannot make a spool in memory "
		    "or in %s", s->tmpdir);
	return 0;
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
static int
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

/*
 * A pseudo-terminal for output that goes to the terminal fd: the command
 * sees a terminal (colours, line-buffered output) of the same size and
 * modes.  Its master in p[0], its terminal in p[1], opened without
 * becoming anyone's controlling terminal (the attempt may take it as its
 * own).  When the real terminal is raw while the attempt runs (raw), as
 * under script(1), it has all of the real one's modes: its output is
 * processed once, here.  Otherwise it has no output processing, so that
 * the bytes reach the real terminal as the command wrote them, and the
 * real one does it: the real one stays the command's, with Ctrl-C,
 * Ctrl-Z and its input.
 */
static int
open_pty(int fd, int p[2], bool raw)
{
	struct termios tio, *t = &tio;
	struct winsize ws, *w = &ws;

	if (tcgetattr(fd, &tio) == -1)
		t = NULL;
	else if (!raw)
		tio.c_oflag &= ~(tcflag_t)OPOST;
	if (ioctl(fd, TIOCGWINSZ, &ws) == -1)
		w = NULL;
	if (openpty(&p[0], &p[1], NULL, t, w) == -1)
		return -1;
	fcntl(p[0], F_SETFD, FD_CLOEXEC);
	fcntl(p[1], F_SETFD, FD_CLOEXEC);
	return 0;
}

/*
 * Whether the attempt may have a session of its own, whose terminal is the
 * pseudo-terminal for fd: fd is retry's controlling terminal, in whose
 * foreground retry runs, and which it hands to attempts (stdout is no
 * pipe to a pager that needs it), and the attempt is to have a process
 * group of its own (no --foreground).
 */
static bool
own_terminal(const struct attempt_opts *ao, int fd)
{
	return ao->tty >= 0 && ao->hand_over && !ao->foreground &&
	    tcgetpgrp(fd) == getpgrp();
}

int
streams_attempt(struct streams *s, struct attempt_opts *ao)
{
	bool own, raw;
	int p[2];

	ao->io = s->n > 0 || s->recording ? &s->io : NULL;
	/* Typed input goes to the attempt through retry, which reads the
	 * terminal as its foreground: the attempt gets it only once the
	 * input has ended, or when it reads the terminal itself. */
	if (s->recording && s->in.tty) {
		if (s->hand_over == -1)
			s->hand_over = ao->hand_over;
		ao->hand_over = s->hand_over == 1 && feed_ended(&s->in);
	}
	ao->session = false;
	s->sess = s->tin = -1;
	s->koff = s->klen = 0;
	s->heard = 0;
	s->stop = false;
	memset(&s->result, 0, sizeof(s->result));
	if (s->hold != -1 && (ftruncate(s->hold, 0) == -1 ||
	    lseek(s->hold, 0, SEEK_SET) == -1))
		return failed(s, "--hold-stdout: cannot empty its spool in %s",
		    s->where);
	for (int i = 0; i < 3; i++)
		ao->stdio[i] = s->closed[i] ? STDIO_CLOSED : STDIO_INHERIT;
	for (int i = 0; i < s->n; i++) {
		struct stream *st = &s->s[i];

		st->off = st->len = 0;
		st->left = SIZE_MAX;
		st->ended = false;
		if (st->scanner != NULL) {
			st->scanner->len = 0;
			st->scanner->midline = false;
		}
		st->cr = false;
		/* To the terminal that is raw while the attempt runs: the
		 * first such is the attempt's own terminal, and each does the
		 * output processing the real one would. */
		raw = st->tty && !st->held && own_terminal(ao, st->fd);
		own = s->sess == -1 && raw;
		/* Where no pseudo-terminal can be had (no /dev/pts in a
		 * bare root), a pipe. */
		st->pty = st->tty && open_pty(st->fd, p, raw) == 0;
		st->crlf = raw && st->pty;
		if (own && st->pty) {
			s->sess = i;
			s->tin = ao->tty;
			fcntl(s->tin, F_SETFL, O_NONBLOCK);
			ao->session = true;
			ao->ctty = p[1];
		}
		if (!st->pty && compat_pipe(p, false) == -1) {
			failed(s, "cannot make a pipe");
			goto fail;
		}
		/* Fewer, larger reads: a bigger pipe where the kernel allows;
		 * retry reads only what ppoll said was there. */
		if (!st->pty)
			compat_pipe_size(p[0], 1024 * 1024);
		fcntl(p[0], F_SETFL, O_NONBLOCK);
		st->src = p[0];
		ao->stdio[st->fd] = p[1];
		if (s->merged)
			ao->stdio[2] = p[1];
	}
	if (stdin_for(s, &ao->stdio[0]) == -1) {
		failed(s, "cannot give the attempt its stdin");
		goto fail;
	}
	/* The terminal that was its stdin is its own terminal now; a pipe
	 * or a file stays what it is. */
	if (ao->session && ao->stdio[0] == STDIO_INHERIT &&
	    tcgetpgrp(STDIN_FILENO) == getpgrp() &&
	    (ao->stdio[0] = fcntl(ao->ctty, F_DUPFD_CLOEXEC, 0)) == -1) {
		failed(s, "cannot give the attempt its terminal");
		goto fail;
	}
	return 0;
fail:
	stdio_close(ao->stdio);
	for (int i = 0; i < s->n; i++)
		if (s->s[i].src != -1) {
			close(s->s[i].src);
			s->s[i].src = -1;
		}
	return -1;
}

/*
 * n bytes at p to the rules.  A terminal of the attempt's own turns each
 * \n into \r\n: the rules read the \n alone, as the command wrote it.
 */
static void
feed(struct streams *s, struct stream *st, const char *p, size_t n)
{
	const char *cr;
	size_t k;

	if (st->cr) {
		st->cr = false;
		if (n == 0 || p[0] != '\n')
			scan_chunk(s->rules, st->scanner, "\r", 1, &s->result);
	}
	while (st->crlf && n > 0 && (cr = memchr(p, '\r', n)) != NULL) {
		k = (size_t)(cr - p);
		if (k + 1 == n) {
			st->cr = true;
			n = k;
			break;
		}
		/* Up to the \r of a \r\n, then on from its \n. */
		scan_chunk(s->rules, st->scanner, p, cr[1] == '\n' ? k : k + 1,
		    &s->result);
		p += k + 1;
		n -= k + 1;
	}
	if (n > 0)
		scan_chunk(s->rules, st->scanner, p, n, &s->result);
}

/* The end of a stream for its scanner: the last line counts too. */
static void
scan_done(struct streams *s, struct stream *st)
{
	if (st->scan && !st->ended && !io_done(s)) {
		feed(s, st, "", 0);
		scan_end(s->rules, st->scanner, &s->result);
	}
	st->cr = false;
	st->ended = true;
}

static void
close_src(struct streams *s, struct stream *st)
{
	if (st->src != -1)
		close(st->src);
	st->src = -1;
	scan_done(s, st);
}

/* Releases the held file to retry's fd (1 or 2); -1 on an error (errno
 * set). */
static int
release(struct streams *s, int fd)
{
	char *const buf = copy_buffer();
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
static void
hold_broken(struct streams *s, struct stream *st)
{
	failed(s, "--hold-stdout: cannot keep the output in %s", s->where);
	st->held = false;
	(void)release(s, STDOUT_FILENO);
	close(s->hold);
	s->hold = -1;
}

/*
 * Passes on what the stream has read, as far as its destination takes it
 * now; -1 when the output cannot be passed on (err says why).
 */
static int
push(struct streams *s, struct stream *st)
{
	const int i = st->fd - 1;
	ssize_t w;

	while (st->off < st->len) {
		if (st->held) {
			st->off += write_file(s->hold, st->buf + st->off,
			    st->len - st->off);
			if (st->off < st->len)
				hold_broken(s, st);
			continue;
		}
		if ((w = out_try(out_std(st->fd), st->buf + st->off,
		    st->len - st->off)) >= 0) {
			out_passed(st->fd, st->buf + st->off, (size_t)w);
			st->off += (size_t)w;
			continue;
		}
		if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)
			return 0;
		st->off = st->len = 0;
		if (errno == EPIPE) {
			/* Its reader has gone: the command learns it as
			 * without retry, from a pipe with no reader. */
			s->gone[i] = true;
			if (s->merged)
				s->gone[1] = true;
			close_src(s, st);
			return 0;
		}
		failed(s, "%s", i == 0 ? "stdout" : "stderr");
		close_src(s, st);
		return -1;
	}
	st->off = st->len = 0;
	return 0;
}

/*
 * The rules read the chunk just read; with --exit-on-match, line by line
 * up to the line that matches --until-output, and no further: what
 * follows it is passed on, not read.
 */
static void
scan(struct streams *s, struct stream *st, size_t n)
{
	const char *p = st->buf, *nl;
	size_t k;

	if (!s->exit_on_match) {
		feed(s, st, p, n);
		return;
	}
	for (; n > 0 && !io_done(s); p += k, n -= k) {
		k = (nl = memchr(p, '\n', n)) != NULL ? (size_t)(nl - p) + 1 : n;
		feed(s, st, p, k);
	}
}

/* Reads what the pipe has, scans it and passes it on. */
static int
pull(struct streams *s, struct stream *st)
{
	size_t want = st->left < BUFSZ ? st->left : BUFSZ;
	ssize_t n;

	if ((n = read(st->src, st->buf, want)) == -1)
		return errno == EAGAIN || errno == EINTR ? 0 : (close_src(s,
		    st), 0);
	if (n == 0) {
		close_src(s, st);
		return 0;
	}
	if (st->left != SIZE_MAX)
		st->left -= (size_t)n;
	if (st->scan)
		scan(s, st, (size_t)n);
	if (st->left == 0)
		scan_done(s, st);
	st->off = 0;
	st->len = (size_t)n;
	return push(s, st);
}

static bool
pending(const struct stream *st)
{
	return st->off < st->len;
}

/* What io_watch's fds are for, beside a stream's pipe (its index) and
 * its destination (index + 2). */
enum { POLL_KEYS = POLLED_FEED + 1, POLL_KEYS_OUT };

/*
 * The keys just typed, k[0..*n): the signal that its terminal's modes make
 * of one (Ctrl-C, Ctrl-\\), which the attempt is about to get from it.
 * Ctrl-Z is taken out when the attempt's own group has the foreground: it
 * leads a session whose leader's parent, retry, is outside it, so the
 * kernel would drop the SIGTSTP that should stop it (an orphaned group);
 * retry stops the group itself (s->stop).
 */
static void
keys_heard(struct streams *s, char *k, size_t *n)
{
	const int m = s->s[s->sess].src;
	struct termios t;
	size_t j = 0;
	bool own;

	if (tcgetattr(m, &t) == -1 || (t.c_lflag & ISIG) == 0)
		return;
	own = t.c_cc[VSUSP] != _POSIX_VDISABLE && tcgetpgrp(m) == tcgetsid(m);
	for (size_t i = 0; i < *n; i++) {
		const cc_t c = (cc_t)k[i];

		if (s->heard == 0 && c == t.c_cc[VINTR] &&
		    c != _POSIX_VDISABLE)
			s->heard = SIGINT;
		else if (s->heard == 0 && c == t.c_cc[VQUIT] &&
		    c != _POSIX_VDISABLE)
			s->heard = SIGQUIT;
		else if (own && c == t.c_cc[VSUSP]) {
			s->stop = true;
			continue;
		}
		k[j++] = k[i];
	}
	*n = j;
}

/* The keys on to the attempt's terminal, as far as it takes them now. */
static void
keys_write(struct streams *s)
{
	ssize_t n;

	while (s->koff < s->klen) {
		if ((n = write(s->s[s->sess].src, s->keys + s->koff,
		    s->klen - s->koff)) == -1) {
			/* Its terminal has gone: the keys with it. */
			if (errno != EAGAIN && errno != EINTR)
				s->koff = s->klen = 0;
			return;
		}
		s->koff += (size_t)n;
	}
}

/* Keys typed at the real terminal, read when ppoll says they came. */
static void
keys_read(struct streams *s)
{
	ssize_t n;

	if ((n = read(s->tin, s->keys, sizeof(s->keys))) <= 0) {
		/* Hung up: no more keys. */
		if (n == 0 || (errno != EAGAIN && errno != EINTR))
			s->tin = -1;
		return;
	}
	s->koff = 0;
	s->klen = (size_t)n;
	keys_heard(s, s->keys, &s->klen);
	keys_write(s);
}

static nfds_t
io_watch(void *ctx, struct pollfd *pfd)
{
	struct streams *s = ctx;
	nfds_t n = 0;

	/* Keys, one buffer at a time, while retry has the terminal's
	 * foreground (not after a bg): they are the attempt's. */
	if (s->sess >= 0 && s->tin != -1 && s->s[s->sess].src != -1) {
		if (s->koff < s->klen) {
			s->polled[n] = POLL_KEYS_OUT;
			pfd[n++] = (struct pollfd){ s->s[s->sess].src, POLLOUT,
			    0 };
		} else if (tcgetpgrp(s->tin) == getpgrp()) {
			s->polled[n] = POLL_KEYS;
			pfd[n++] = (struct pollfd){ s->tin, POLLIN, 0 };
		}
	}
	for (int i = 0; i < s->n; i++) {
		const struct stream *st = &s->s[i];

		if (pending(st)) {
			s->polled[n] = i + 2;
			pfd[n++] = (struct pollfd){ out_std(st->fd)->fd, POLLOUT,
			    0 };
		} else if (st->src != -1 && st->left > 0) {
			s->polled[n] = i;
			pfd[n++] = (struct pollfd){ st->src, POLLIN, 0 };
		}
	}
	if (s->recording && feed_watch(&s->in, &pfd[n]) == 1)
		s->polled[n++] = POLLED_FEED;
	return n;
}

static int
io_serve(void *ctx, const struct pollfd *pfd, nfds_t n)
{
	struct streams *s = ctx;
	int rc = 0;

	for (nfds_t j = 0; j < n; j++) {
		struct stream *st = &s->s[s->polled[j] % 2];

		if (pfd[j].revents == 0)
			continue;
		if (s->polled[j] == POLLED_FEED) {
			if (feed_serve(&s->in, &pfd[j]) == -1)
				rc = feed_failed(s);
		} else if (s->polled[j] == POLL_KEYS)
			keys_read(s);
		else if (s->polled[j] == POLL_KEYS_OUT)
			keys_write(s);
		else if ((s->polled[j] >= 2 ? push(s, st) : pull(s, st)) == -1)
			rc = -1;
	}
	return rc;
}

/*
 * The command has ended: what its pipes hold now is its output; what a
 * process it left running writes later is not.  A pseudo-terminal is not
 * a pipe: what was written to it reaches the master a moment later, from
 * a kernel worker, so FIONREAD can still say 0.  When no process holds
 * its other side any more (POLLHUP), it is read to its end instead: Linux
 * hands over everything written before it says EIO.
 */
static void
io_end(void *ctx)
{
	struct streams *s = ctx;
	int avail;

	/* Its stdin is fed no more; what is left stays recorded. */
	if (s->recording)
		feed_stop(&s->in);
	/* Keys typed from now on are the shell's, or the next attempt's. */
	s->tin = -1;
	for (int i = 0; i < s->n; i++) {
		struct stream *st = &s->s[i];

		if (st->src == -1 || (st->pty && hung_up(st->src)))
			continue;
		if (ioctl(st->src, FIONREAD, &avail) == -1 || avail < 0)
			avail = 0;
		st->left = (size_t)avail;
		if (st->left == 0)
			scan_done(s, st);
	}
}

static bool
io_busy(void *ctx)
{
	const struct streams *s = ctx;

	for (int i = 0; i < s->n; i++)
		if (pending(&s->s[i]) || (s->s[i].src != -1 && s->s[i].left > 0))
			return true;
	return false;
}

static void
io_drop(void *ctx)
{
	struct streams *s = ctx;

	for (int i = 0; i < s->n; i++) {
		s->s[i].off = s->s[i].len = s->s[i].left = 0;
		scan_done(s, &s->s[i]);
	}
}

/* The terminal has a new size: so have the attempt's pseudo-terminals. */
static void
io_resize(void *ctx)
{
	const struct streams *s = ctx;
	struct winsize ws;

	for (int i = 0; i < s->n; i++)
		if (s->s[i].pty && s->s[i].src != -1 &&
		    ioctl(s->s[i].fd, TIOCGWINSZ, &ws) == 0)
			(void)ioctl(s->s[i].src, TIOCSWINSZ, &ws);
}

static int
io_keys(void *ctx)
{
	struct streams *s = ctx;
	int sig = s->heard;

	if (sig == 0 && s->stop)
		sig = SIGTSTP;
	if (sig == SIGTSTP)
		s->stop = false;
	s->heard = 0;
	return sig;
}

/* --until-output matched, and --exit-on-match ends the attempt there. */
static bool
io_done(void *ctx)
{
	const struct streams *s = ctx;

	return s->exit_on_match && s->result.matched[RULE_UNTIL];
}

void
streams_after(struct streams *s)
{
	if (s->recording)
		feed_stop(&s->in);
	for (int i = 0; i < s->n; i++) {
		struct stream *st = &s->s[i];

		st->off = st->len = 0;
		scan_done(s, st);
		/* No writer and nothing left: no process holds it. */
		if (st->src != -1 && pipe_ended(st->src))
			close_src(s, st);
	}
}

/* What the drainer passes on: pipes and where they go. */
struct drain {
	int		 src[2], dst[2];
	const char	*name;
};

/* Passes on what the pipes get until no process holds them, then exits;
 * blocking, since it is a process of its own. */
static void
drain(void *arg)
{
	char *buf;
	struct drain *d = arg;
	struct pollfd p[2];
	ssize_t n;
	int open = 2;

	/* Orphaned at once, so that nobody need reap it. */
	if (fork() != 0 || (buf = copy_buffer()) == NULL)
		return;
	setproctitle("passing on the output of what %s left running",
	    d->name);
	for (int i = 0; i < 2; i++) {
		if (d->src[i] != -1)
			fcntl(d->src[i], F_SETFL, 0);
		else
			open--;
	}
	while (open > 0) {
		for (int i = 0; i < 2; i++)
			p[i] = (struct pollfd){ d->src[i], POLLIN, 0 };
		if (poll(p, 2, -1) == -1)
			continue;
		for (int i = 0; i < 2; i++) {
			if (p[i].revents == 0 || d->src[i] == -1)
				continue;
			if ((n = read(d->src[i], buf, BUFSZ)) <= 0 ||
			    write_file(d->dst[i], buf, (size_t)n) <
			    (size_t)n) {
				close(d->src[i]);
				d->src[i] = -1;
				open--;
			}
		}
	}
}

int
streams_settle(struct streams *s, bool out)
{
	struct drain d = { { -1, -1 }, { -1, -1 }, s->name };
	int rc = 0, keep[4], n = 0;
	pid_t pid;

	if (s->hold != -1) {
		if (release(s, out ? STDOUT_FILENO : STDERR_FILENO) == -1) {
			if (errno == EPIPE)
				s->gone[out ? 0 : 1] = true;
			else if (errno != EINTR)
				failed(s, "%s: cannot write the held output",
				    out ? "stdout" : "stderr");
			rc = -1;
		}
		if (ftruncate(s->hold, 0) == -1)
			rc = -1;
	}
	for (int i = 0; i < s->n; i++) {
		struct stream *st = &s->s[i];

		if (st->src == -1)
			continue;
		d.src[i] = keep[n++] = st->src;
		d.dst[i] = keep[n++] = st->held && !out ? STDERR_FILENO :
		    st->fd;
	}
	if (n > 0) {
		if ((pid = spawn_helper(drain, &d, keep, n)) > 0)
			while (waitpid(pid, NULL, 0) == -1 && errno == EINTR)
				;
		for (int i = 0; i < s->n; i++)
			if (s->s[i].src != -1) {
				close(s->s[i].src);
				s->s[i].src = -1;
			}
	}
	return rc;
}

void
streams_free(struct streams *s)
{
	for (int i = 0; i < s->n; i++) {
		if (s->s[i].src != -1)
			close(s->s[i].src);
		free(s->s[i].scanner);
		free(s->s[i].buf);
	}
	if (s->recording)
		feed_free(&s->in);
	if (s->replay != -1)
		close(s->replay);
	if (s->null != -1)
		close(s->null);
	if (s->hold != -1)
		close(s->hold);
}
