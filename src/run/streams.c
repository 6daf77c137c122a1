/*
 * The streams set up, for the run and for each attempt: which output
 * passes through retry (pipes, or pseudo-terminals where it goes to a
 * terminal) and what each attempt's fds 0-2 are.  retry's own memory stays
 * bounded whatever the size of the data: a stream holds at most one
 * buffer that its destination has not taken yet, and reads no more until
 * it has (pump.c).  Its stdin is spool.c's, its held stdout held.c's.
 */
#include <errno.h>
#include <fcntl.h>
#include <pty.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>

#include "compat.h"
#include "feed.h"
#include "streamparts.h"
#include "streams.h"

/* Keeps the first error: the words, then errno's. */
int
streams_failed(struct streams *s, const char *fmt, ...)
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

/* Whether fds a and b lead to the same file, pipe or terminal. */
static bool
same_file(int a, int b)
{
	struct stat sa, sb;

	return fstat(a, &sa) == 0 && fstat(b, &sb) == 0 &&
	    sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino &&
	    sa.st_rdev == sb.st_rdev;
}

/* Whether no process holds the other end of fd (a pipe, a FIFO, or a
 * pseudo-terminal's master) any more. */
bool
streams_hung_up(int fd)
{
	struct pollfd p = { fd, POLLIN, 0 };

	return poll(&p, 1, 0) == 1 && (p.revents & POLLHUP) != 0;
}

/* Whether fd's writers have gone and it holds nothing more. */
bool
streams_pipe_ended(int fd)
{
	int avail;

	return streams_hung_up(fd) && ioctl(fd, FIONREAD, &avail) == 0 && avail == 0;
}

static int
stream_init(struct streams *s, struct stream *st, int fd, bool scan,
    bool held)
{
	*st = (struct stream){ .src = -1, .fd = fd, .held = held,
	    .scan = scan, .tty = isatty(fd) == 1, .piped = !held &&
	    out_piped(fd) };
	if ((st->buf = malloc(BUFSZ)) == NULL ||
	    (scan && (st->scanner = calloc(1, sizeof(*st->scanner))) == NULL))
		return streams_failed(s, "out of memory");
	s->n++;
	return 0;
}

int
streams_init(struct streams *s, const struct streams_opts *o,
    const bool closed[3], const char *name)
{
	const struct output_rules *r = o->rules;
	const char *dir = getenv("TMPDIR");
	bool scan[2], pipe[2];

	memset(s, 0, sizeof(*s));
	s->replay = s->null = s->hold = s->hold_err = -1;
	s->hold_stdout = o->hold_stdout;
	s->only_last = o->only_last;
	s->replay_at = -1;
	s->hand_over = -1;
	s->rules = r;
	s->name = name;
	s->io = pump_io(s);
	s->sess = s->tin = -1;
	s->exit_on_match = o->exit_on_match;
	memcpy(s->closed, closed, sizeof(s->closed));
	snprintf(s->tmpdir, sizeof(s->tmpdir), "%s",
	    dir != NULL && *dir != '\0' ? dir : "/tmp");
	const bool hold = o->hold_stdout || o->only_last;
	const bool one = !closed[1] && !closed[2] &&
	    same_file(STDOUT_FILENO, STDERR_FILENO);

	scan[0] = rules_any(r) && o->match != MATCH_STDERR && !closed[1];
	scan[1] = rules_any(r) && o->match != MATCH_STDOUT && !closed[2];
	pipe[0] = (scan[0] || hold) && !closed[1];
	pipe[1] = (scan[1] || o->only_last || o->relay_stderr) && !closed[2];
	/* Written to one file, stdout and stderr go through one pipe, so
	 * that their order is the command's; unless --match names one, which
	 * only two can tell apart: both then pass through retry, in the
	 * order it reads them. */
	s->merged = !hold && (pipe[0] || pipe[1]) && one &&
	    o->match == MATCH_BOTH;
	if (one && !s->merged && rules_any(r))
		pipe[0] = pipe[1] = true;
	if (s->merged) {
		if (stream_init(s, &s->s[0], STDOUT_FILENO, scan[0] || scan[1],
		    false) == -1)
			return -1;
	} else
		for (int i = 0; i < 2; i++)
			if (pipe[i] && stream_init(s, &s->s[s->n], i + 1,
			    scan[i], i == 0 ? hold : o->only_last) == -1)
				return -1;
	if (o->stdin_mode == STDIN_REPLAY && !closed[0] &&
	    keep_stdin(s) == -1)
		return -1;
	s->stdin_at = -1;
	if (o->stdin_mode == STDIN_INHERIT && !closed[0])
		stdin_note(s);
	if (o->stdin_mode == STDIN_NULL &&
	    (s->null = open("/dev/null", O_RDONLY | O_CLOEXEC)) == -1)
		return streams_failed(s, "--stdin null: /dev/null");
	if (hold && !closed[1] && (s->hold = streams_tempfile(s)) == -1)
		return streams_failed(s, "%s: cannot make a spool in memory "
		    "or in %s", o->only_last ? "--hold last" : "--hold stdout",
		    s->tmpdir);
	if (o->only_last && !closed[2] &&
	    (s->hold_err = streams_tempfile(s)) == -1)
		return streams_failed(s, "--hold last: cannot make a spool in "
		    "memory or in %s", s->tmpdir);
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
	for (int i = 0; i < 2; i++) {
		const int f = i == 0 ? s->hold : s->hold_err;

		if (f != -1 && (ftruncate(f, 0) == -1 ||
		    lseek(f, 0, SEEK_SET) == -1))
			return streams_failed(s, "%s: cannot empty its spool "
			    "in %s", s->only_last ? "--hold last" :
			    "--hold stdout", s->where);
	}
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
			streams_failed(s, "cannot make a pipe");
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
		streams_failed(s, "cannot give the attempt its stdin");
		goto fail;
	}
	/* The terminal that was its stdin is its own terminal now; a pipe
	 * or a file stays what it is. */
	if (ao->session && ao->stdio[0] == STDIO_INHERIT &&
	    tcgetpgrp(STDIN_FILENO) == getpgrp() &&
	    (ao->stdio[0] = fcntl(ao->ctty, F_DUPFD_CLOEXEC, 0)) == -1) {
		streams_failed(s, "cannot give the attempt its terminal");
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
	if (s->hold_err != -1)
		close(s->hold_err);
}
