/* Signals: handlers only set flags and write a byte to a pipe that the
 * one ppoll (wait.h) watches, so none is lost between check and wait, and none is
 * blocked, so the first to come is the first recorded.  The real-time
 * signals, only ever sent on, and SIGCHLD, which only wakes the wait, are
 * the exceptions where Linux has a signalfd: blocked, and read from it in
 * the same ppoll, they need no handler.  Each real-time signal queued is
 * kept on its own with its value, a bounded number at a time (without a
 * signalfd, by its handler).
 *
 * Every catchable signal whose default action ends a process is handled:
 * HUP, INT, QUIT, TERM, ALRM, VTALRM, PROF, IO, XCPU and, where the system
 * has them, PWR and STKFLT end the run (they are sent on to the attempt,
 * and retry then dies of the first of them); USR1, USR2, WINCH and the
 * real-time signals are only sent on.  PIPE and XFSZ are ignored, so that a write reports EPIPE or EFBIG. */
#ifndef RETRY_SIGNALS_H
#define RETRY_SIGNALS_H

#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdnoreturn.h>
#include <time.h>

#include "compat.h"
#include "wait.h"	/* signal_stop */

/* -1 (errno set) when its pipe cannot be made. */
int		 signals_init(void);
/* A signal received and not yet taken, to send on to the attempt; 0 when
 * there is none.  Each comes once; a real-time signal read from the
 * signalfd comes from signals_take_queued instead. */
int		 signals_take(void);
/* Whether sig, as signals_take last gave it, was the kernel's alone: a
 * terminal's key (Ctrl-C), its hangup or new size, which reached the
 * terminal's whole foreground process group, not retry only. */
bool		 signals_by_kernel(int);
/* The oldest real-time signal received through the signalfd and not yet
 * taken, with how it was sent and its value: as many as were queued to
 * retry (retry keeps a bounded number at a time, the kernel the rest);
 * false when there is none. */
bool		 signals_take_queued(struct compat_siginfo *);
/* Drops the signals received that would only be sent on (USR1, USR2,
 * WINCH, the real-time signals): before an attempt starts, so that it hears
 * only those that come while it runs. */
void		 signals_drain(void);
/* Whether sig ends the run. */
bool		 signals_ends(int);
/* Whether SIGPIPE was at its default when retry started: a pipeline then
 * ends when its reader goes, and so does a run. */
bool		 signals_pipe_default(void);
/* In a child before exec: the original dispositions, mask and timer
 * slack (SIGCHLD at its default, even if retry found it ignored). */
void		 signals_child(void);
/* In a process of retry's that does not exec: the same dispositions and
 * mask, set one by one. */
void		 signals_reset(void);
/* In the sentry, a process of retry's in the attempt's group: hear is
 * called for INT and QUIT (unless retry found them ignored), for WINCH
 * and for FLUSH_SIGNAL, one at a time and, on Linux, the lowest number
 * first, so that the answer to a FLUSH_SIGNAL comes after what was
 * already pending.  Ctrl-Z does not stop it, and what retry passes on to the
 * attempt's group does not end it. */
void		 signals_sentry(void (*)(int, siginfo_t *, void *));
#define FLUSH_SIGNAL	SIGURG	/* never sent on; above INT and QUIT */
/* While attempts run in sessions of their own, where the terminal's
 * Ctrl-Z does not reach them (--hedge): SIGTSTP caught when on, so that
 * signals_take gives it and retry stops them with itself; when off, as
 * retry found it again, and whether one came that was not taken (it is
 * then dropped).  One retry found ignored is left so. */
bool		 signals_catch_stop(bool on);
/* Stops retry by SIGTSTP at its default, as Ctrl-Z stops a command (the
 * shell says "Stopped", $? is 148), with its whole process group if group
 * (the rest of a pipeline, which the terminal's Ctrl-Z would have stopped
 * had the attempt not held the terminal); returns once it is continued, or
 * at once in an orphaned process group, where the kernel drops it. */
void		 signals_suspend(bool group);
/* Dies of sig, as if retry had never caught it. */
noreturn void	 signals_die(int);

#endif
