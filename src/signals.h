/* Signals: handlers only set flags; everything else waits in ppoll with
 * the handled signals unblocked, so none is lost between check and wait. */
#ifndef RETRY_SIGNALS_H
#define RETRY_SIGNALS_H

#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdnoreturn.h>
#include <time.h>

extern volatile sig_atomic_t signal_child;	/* SIGCHLD arrived */
extern volatile sig_atomic_t signal_stop;	/* INT, TERM, HUP or QUIT */

void		 signals_init(void);
/* In a child before exec: the original dispositions, mask and timer
 * slack (SIGCHLD at its default, even if retry found it ignored). */
void		 signals_child(void);
/* Waits until a handled signal, a ready fd, or the absolute
 * CLOCK_MONOTONIC deadline in ns (-1: none); returns ppoll's result. */
int		 signals_wait(struct pollfd *, nfds_t, int64_t);
/* Dies of sig, as if retry had never caught it. */
noreturn void	 signals_die(int);

/* CLOCK_MONOTONIC now, in ns. */
int64_t		 mono_ns(void);

#endif
