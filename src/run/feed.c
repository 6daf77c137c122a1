/*
 * The recording of a stdin to replay, and its replay to the attempts that
 * start before the input has ended.  Back-pressure, as without retry:
 * while attempts are fed, the input is read only once one of them has
 * taken everything recorded, so a slow reader slows the writer instead of
 * growing anything, and a hedge that starts late, or an attempt that
 * stalls, holds up no other; between attempts, and once every attempt fed
 * has ended or closed its stdin, the input is recorded as it comes.  The
 * spool is the only copy: what an attempt's pipe has no room for now is
 * read from it again, so retry holds one buffer, for one read at a time,
 * however many attempts it feeds.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "compat.h"
#include "feed.h"

#define FEED_BUFSZ	(128 * 1024)

void
feed_init(struct feed *f, int spool, const char *where)
{
	*f = (struct feed){ .src = STDIN_FILENO, .spool = spool,
	    .where = where, .tty = isatty(STDIN_FILENO) == 1 };
	for (int i = 0; i < FEED_READERS; i++)
		f->r[i].to = -1;
	/* A description of retry's own, so that a read never waits, and
	 * the shell's keeps its flags; else fd 0, read once ppoll says so. */
	if ((f->src = compat_reopen(STDIN_FILENO, O_RDONLY | O_NONBLOCK |
	    O_NOCTTY | O_CLOEXEC)) != -1)
		f->own = true;
	else
		f->src = STDIN_FILENO;
}

bool
feed_ended(const struct feed *f)
{
	return f->ended;
}

static void
close_to(struct feed_reader *r)
{
	if (r->to != -1)
		close(r->to);
	r->to = -1;
}

/* A pipe for reader r, which gets the recording from its start: its read
 * end, or -1 (errno set). */
static int
open_to(struct feed_reader *r)
{
	int p[2];

	if (compat_pipe(p, false) == -1)
		return -1;
	if (fcntl(p[1], F_SETFL, O_NONBLOCK) == -1) {
		close(p[0]);
		close(p[1]);
		return -1;
	}
	r->to = p[1];
	r->sent = 0;
	return p[0];
}

int
feed_attempt(struct feed *f)
{
	feed_stop(f);
	return open_to(&f->r[0]);
}

int
feed_join(struct feed *f, int *id)
{
	for (*id = 0; *id < FEED_READERS; (*id)++)
		if (f->r[*id].to == -1)
			return open_to(&f->r[*id]);
	errno = EMFILE;
	return -1;
}

/* Whether the input may be read: no attempt is fed, or one has taken all
 * that was recorded (the others read the recording at their pace). */
static bool
wanted(const struct feed *f)
{
	bool fed = false;

	for (int i = 0; i < FEED_READERS; i++) {
		if (f->r[i].to == -1)
			continue;
		if (f->r[i].sent == f->kept)
			return true;
		fed = true;
	}
	return !fed;
}

/* Keeps why the input cannot be kept: the words, then errno's. */
static int
failed(struct feed *f, const char *what)
{
	const int e = errno;

	snprintf(f->err, sizeof(f->err), "--stdin replay: %s: %s", what,
	    strerror(e));
	return -1;
}

/* Reader r takes what was recorded, as far as its pipe has room. */
static void
pump(struct feed *f, struct feed_reader *r)
{
	ssize_t n, w;
	off_t want;

	while (r->to != -1 && r->sent < f->kept) {
		want = f->kept - r->sent;
		if (want > FEED_BUFSZ)
			want = FEED_BUFSZ;
		if ((n = pread(f->spool, f->buf, (size_t)want, r->sent)) <= 0) {
			if (n == -1 && errno == EINTR)
				continue;
			/* The recording cannot be read back: this attempt
			 * gets no more of it. */
			close_to(r);
			return;
		}
		if ((w = write(r->to, f->buf, (size_t)n)) == -1) {
			if (errno == EINTR)
				continue;
			if (errno != EAGAIN && errno != EWOULDBLOCK)
				/* The attempt closed its stdin (EPIPE: retry
				 * ignores SIGPIPE): what it did not read
				 * stays recorded for the next. */
				close_to(r);
			return;
		}
		r->sent += w;
	}
	/* All of the input taken: the attempt reads its end. */
	if (f->ended)
		close_to(r);
}

/* Records what the input has now. */
static int
record(struct feed *f)
{
	char what[384];
	ssize_t n, w;
	size_t done = 0;

	if ((n = read(f->src, f->buf, FEED_BUFSZ)) == -1) {
		if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)
			return 0;
		/* A terminal hung up: its input has ended. */
		if (!(f->tty && errno == EIO))
			return failed(f, "cannot read stdin");
		n = 0;
	}
	if (n == 0) {
		f->ended = true;
		if (f->own)
			close(f->src);
		f->src = -1;
		return 0;
	}
	while (done < (size_t)n) {
		if ((w = pwrite(f->spool, f->buf + done, (size_t)n - done,
		    f->kept)) <= 0) {
			if (w == -1 && errno == EINTR)
				continue;
			if (w == 0)
				errno = ENOSPC;
			snprintf(what, sizeof(what), "cannot keep stdin in %s "
			    "after %lld bytes", f->where, (long long)f->kept);
			return failed(f, what);
		}
		done += (size_t)w;
		f->kept += w;
	}
	return 0;
}

/* How the input may be read now. */
enum may {
	MAY_NOT,	/* it has ended, or an attempt has the terminal */
	MAY_POLL,	/* once ppoll says it has something */
	MAY_TRY,	/* a terminal whose foreground is another job's */
};

static enum may
may_read(const struct feed *f)
{
	siginfo_t si;
	pid_t fg;

	if (f->src == -1 || f->ended)
		return MAY_NOT;
	/* Not retry's controlling terminal: no job control to heed. */
	if (!f->tty || (fg = tcgetpgrp(f->src)) == -1 || fg == getpgrp())
		return MAY_POLL;
	/* A group with a child of retry's in it: the attempt that was
	 * given the terminal, which a read would take it from. */
	si.si_pid = 0;
	if (waitid(P_PGID, (id_t)fg, &si, WEXITED | WNOHANG | WNOWAIT) == 0)
		return MAY_NOT;
	return MAY_TRY;
}

nfds_t
feed_watch(struct feed *f, struct pollfd *pfd)
{
	nfds_t n = 0;

	/* A file is always ready: feed_serve then says what failed. */
	if (f->pending) {
		*pfd = (struct pollfd){ f->spool, POLLIN, 0 };
		return 1;
	}
	/*
	 * retry runs in the background of the terminal it reads: the read
	 * stops it (SIGTTIN), as it stops any job that reads its terminal,
	 * until the shell's fg brings it to the foreground, where it returns;
	 * in an orphaned group, it fails (EIO), which ends the input.  Only
	 * where the read cannot wait (a reopening of its own, non-blocking).
	 */
	if (wanted(f))
		if (may_read(f) == MAY_TRY && f->own && (f->buf != NULL ||
		    (f->buf = malloc(FEED_BUFSZ)) != NULL) &&
		    record(f) == -1) {
			f->pending = true;
			return feed_watch(f, pfd);
		}
	for (int i = 0; i < FEED_READERS; i++)
		if (f->r[i].to != -1 && f->r[i].sent < f->kept)
			pfd[n++] = (struct pollfd){ f->r[i].to, POLLOUT, 0 };
	if (wanted(f) && may_read(f) == MAY_POLL)
		pfd[n++] = (struct pollfd){ f->src, POLLIN, 0 };
	return n;
}

int
feed_serve(struct feed *f, const struct pollfd *p)
{
	if (p->revents == 0)
		return 0;
	if (f->pending) {
		f->pending = false;
		return -1;
	}
	if (f->buf == NULL && (f->buf = malloc(FEED_BUFSZ)) == NULL) {
		errno = ENOMEM;
		return failed(f, "cannot read stdin");
	}
	if (p->fd == f->src && record(f) == -1)
		return -1;
	for (int i = 0; i < FEED_READERS; i++)
		pump(f, &f->r[i]);
	return 0;
}

void
feed_leave(struct feed *f, int id)
{
	if (id >= 0 && id < FEED_READERS)
		close_to(&f->r[id]);
}

void
feed_stop(struct feed *f)
{
	for (int i = 0; i < FEED_READERS; i++)
		close_to(&f->r[i]);
}

void
feed_free(struct feed *f)
{
	feed_stop(f);
	if (f->own && f->src != -1)
		close(f->src);
	f->src = -1;
	free(f->buf);
	f->buf = NULL;
}
