/*
 * The pump: the attempt's output read from its pipes or pseudo-terminals
 * as ppoll says it came, scanned by the rules and passed on as far as its
 * destination takes it now, never blocking retry; keys typed at the
 * terminal passed on to an attempt in a session of its own; and, once the
 * attempt has ended, a drainer process that passes on what the processes
 * it left running still write.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "feed.h"
#include "helper.h"
#include "signals.h"
#include "streamparts.h"
#include "streams.h"

static nfds_t	 io_watch(void *, struct pollfd *);
static int	 io_serve(void *, const struct pollfd *, nfds_t);
static void	 io_end(void *);
static bool	 io_busy(void *);
static void	 io_drop(void *);
static void	 io_resize(void *);
static bool	 io_done(void *);
static int	 io_keys(void *);

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

/*
 * The reader of the stream's destination has gone: the command learns it
 * as without retry, from a pipe with no reader, its next write there
 * failing with EPIPE (SIGPIPE).
 */
static void
reader_gone(struct streams *s, struct stream *st)
{
	s->gone[st->fd - 1] = true;
	if (s->merged)
		s->gone[1] = true;
	close_src(s, st);
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
			st->off += held_write(held_file(s, st), st->buf + st->off,
			    st->len - st->off);
			if (st->off < st->len)
				held_broken(s, st);
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
			reader_gone(s, st);
			return 0;
		}
		streams_failed(s, "%s", i == 0 ? "stdout" : "stderr");
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
enum { POLL_KEYS = POLLED_FEED + 1, POLL_KEYS_OUT, POLL_GONE };

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
			/* Idle, its destination is watched too, so that its
			 * reader's going is seen when it goes, not at the
			 * next write, which the command would have met. */
			if (st->piped) {
				s->polled[n] = POLL_GONE + i;
				pfd[n++] = (struct pollfd){ out_std(st->fd)->fd,
				    0, 0 };
			}
		}
	}
	/* One attempt fed: one fd, its pipe's or the input's. */
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
		if (s->polled[j] >= POLL_GONE) {
			st = &s->s[s->polled[j] - POLL_GONE];
			if (st->src != -1 &&
			    (pfd[j].revents & (POLLERR | POLLHUP)) != 0)
				reader_gone(s, st);
		} else if (s->polled[j] == POLLED_FEED) {
			if (feed_serve(&s->in, &pfd[j]) == -1)
				rc = streams_feed_failed(s);
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

		if (st->src == -1 || (st->pty && streams_hung_up(st->src)))
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
		if (st->src != -1 && streams_pipe_ended(st->src))
			close_src(s, st);
	}
}

struct attempt_io
pump_io(struct streams *s)
{
	return (struct attempt_io){ s, io_watch, io_serve, io_end, io_busy,
	    io_drop, io_resize, io_done, io_keys };
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
	if (fork() != 0 || (buf = held_buffer()) == NULL)
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
			    held_write(d->dst[i], buf, (size_t)n) <
			    (size_t)n) {
				close(d->src[i]);
				d->src[i] = -1;
				open--;
			}
		}
	}
}

int
streams_settle(struct streams *s, bool out, bool last)
{
	struct drain d = { { -1, -1 }, { -1, -1 }, s->name };
	int rc = 0, keep[4], n = 0;
	pid_t pid;

	if (s->hold != -1 || s->hold_err != -1)
		rc = held_out(s, out, last);
	for (int i = 0; i < s->n; i++) {
		struct stream *st = &s->s[i];

		if (st->src == -1)
			continue;
		d.src[i] = keep[n++] = st->src;
		d.dst[i] = keep[n++] = st->held && s->hold_stdout && !out &&
		    st->fd == STDOUT_FILENO ? STDERR_FILENO : st->fd;
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
