/*
 * An attempt in flight, one alone or several side by side (--hedge): what
 * it runs and how (struct attempt_opts), and what retry does to it while
 * it runs, the same for one and for N: the signals retry receives sent
 * on, a stop (Ctrl-Z, SIGTSTP) that stops the attempts with retry and a
 * continue that continues them, its --timeout's signal and then KILL
 * after --kill-after, and its reaping.
 */
#ifndef RETRY_FLIGHT_H
#define RETRY_FLIGHT_H

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "attempt.h"

#define STDIO_INHERIT	(-1)	/* the attempt gets retry's own fd */
#define STDIO_CLOSED	(-2)	/* the attempt gets it closed */

#define ATTEMPT_IO_MAX	6

/* The streams that the attempt's wait serves as well. */
struct attempt_io {
	void	*ctx;
	/* The fds to watch now, at most ATTEMPT_IO_MAX. */
	nfds_t	(*watch)(void *, struct pollfd *);
	/* What ppoll said of them; -1 when the attempt must end (its output
	 * cannot be passed on). */
	int	(*serve)(void *, const struct pollfd *, nfds_t);
	/* The command has ended: take only what its pipes hold now. */
	void	(*end)(void *);
	/* Whether output is still on its way out. */
	bool	(*busy)(void *);
	/* The attempt's time is up: what its destination has not taken is
	 * dropped, as the command would have been killed while blocked. */
	void	(*drop)(void *);
	/* The terminal's size changed (SIGWINCH): before the attempt hears
	 * of it, or as it does. */
	void	(*resize)(void *);
	/* Its output says the attempt is done (--exit-on-match): it is
	 * ended as on a timeout, and what it writes until then is passed
	 * on.  NULL: never. */
	bool	(*done)(void *);	/* The signal (SIGINT, SIGQUIT) that keys typed at the terminal
	 * raised in the attempt's terminal, once, or 0; SIGTSTP: Ctrl-Z,
	 * which the attempt is to be stopped by.  NULL: none. */
	int	(*keys)(void *);
};

struct attempt_opts {
	char *const	*argv;
	int		 tty;		/* the controlling terminal, or -1 */
	bool		 hand_over;	/* the attempt gets it from the start */
	int64_t		 timeout;	/* ns, -1 for none */
	int		 signal;	/* sent on timeout */
	int64_t		 kill_after;	/* ns, then SIGKILL */
	/* A timed-out attempt's status is the command's own, not 124. */
	bool		 preserve_status;
	/*
	 * No process group of its own: the attempt stays in retry's, and in
	 * the terminal's foreground when retry is, as timeout --foreground
	 * keeps it (--foreground, or retry's parent in retry's group); a
	 * timeout, --kill-after's SIGKILL and the signals sent on reach the
	 * command alone.  Neither hand_over nor session then.
	 */
	bool		 foreground;
	/* The child's fds 0, 1 and 2: an fd (closed in retry once the child
	 * has it), STDIO_INHERIT or STDIO_CLOSED. */
	int		 stdio[3];
	/*
	 * A session of its own: the attempt takes ctty, a pseudo-terminal
	 * among stdio[], as its controlling terminal; tty is raw while it
	 * runs, and io relays its keys and the attempt's output.
	 */
	bool		 session;
	int		 ctty;
	/* A session of its own with no terminal at all (--hedge): opening
	 * /dev/tty fails rather than stop it in the background. */
	bool		 detached;
	const struct attempt_io *io;	/* or NULL */
};

struct flight {
	const struct attempt_opts *o;
	pid_t		 pid;		/* 0: none */
	bool		 exited;	/* its command has ended */
	bool		 reaped;
	bool		 cancelled;	/* another attempt won: retry ended it */
	int64_t		 deadline;	/* its --timeout, CLOCK_MONOTONIC ns,
					 * or -1 */
	int64_t		 kill_at;	/* KILL for what ignores a signal, or
					 * -1 */
	struct attempt_result r;
};

/* A stop of retry's (SIGTSTP) while attempts run: each has been stopped;
 * suspend stops retry and continues them once retry is continued.  NULL:
 * retry stops as a command would and continues them by SIGCONT. */
struct flight_suspend {
	void	(*suspend)(void *);
	void	 *ctx;
};

/* Whether f runs: started, and its command not ended. */
bool	 flight_live(const struct flight *);
/* What kill(2) is to name for f: its group, or with --foreground, its
 * command alone. */
pid_t	 flight_target(const struct flight *);
/* Whether f's command has ended (not reaped yet, so that its group stays
 * its own); f->exited then. */
bool	 flight_exited(struct flight *);
/* Whether retry ended f (a timeout, a signal sent on or heard from the
 * terminal, output that could not be passed on, a match, a cancel). */
bool	 flight_ended_by_retry(const struct flight *);

/* Ends f as a timeout does: sig (its --signal) now, KILL --kill-after
 * later; no more timeout. */
void	 flight_stop(struct flight *, int sig, int64_t now);
/* f's times, now: past its timeout it is ended (r.timed_out), even once
 * its command has ended while its output is still on its way; past
 * kill_at, KILLed.  When it is next to be looked at, or -1. */
int64_t	 flight_tick(struct flight *, int64_t now);

/*
 * The signals retry received, sent on to each of the n attempts that
 * run: a real-time one sent with a value (sigqueue) to the first process
 * of each, the others to its group.  Those that end the run end each (a
 * key typed at a terminal the attempt shares with retry is not sent
 * twice: r.terminal); SIGTSTP stops them all with retry (how).
 */
void	 flights_forward(struct flight *const *, size_t n, int64_t now,
	    const struct flight_suspend *how);

/*
 * The one wait over the n attempts in flight, one alone or a round's:
 * until before says it is over, each turn their ends (before), the
 * signals retry received sent on (how: what a stop does), what is due
 * (due: false to look again at once; *at, when something next is, -1
 * for nothing), their timeouts, then one ppoll over what watch gives (at
 * most FLIGHT_WATCH_MAX fds), served by serve.
 */
#define FLIGHT_WATCH_MAX	24
struct flight_ops {
	void	 *ctx;
	bool	(*before)(void *);
	bool	(*due)(void *, int64_t now, int64_t *at);
	nfds_t	(*watch)(void *, struct pollfd *);
	void	(*serve)(void *, const struct pollfd *, nfds_t);
	const struct flight_suspend *how;
};
void	 flights_wait(struct flight *const *, size_t n,
	    const struct flight_ops *);

/* Reaps f, whose command has ended: nothing in its group outlives it when
 * retry ended it (or kill), and its result read from its status.  The
 * status, as waitpid(2) says it. */
int	 flight_reap(struct flight *, bool kill);

/* Sends sig to whom kill(2) names (-pgid, a whole group; or a pid), and
 * wakes it in case it is stopped. */
void	 signal_group(pid_t to, int sig);

#endif
