/* One attempt: start it in its own process group, wait for it while
 * watching a deadline, signals and the streams it writes, and say how it
 * ended. */
#ifndef RETRY_SPAWN_H
#define RETRY_SPAWN_H

#include <poll.h>
#include <stdbool.h>
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

/* Runs one attempt until its command ends and its output is passed on;
 * -1 (errno set) only when it could not be started (vfork failed). */
int		 attempt_run(const struct attempt_opts *,
		    struct attempt_result *);

/*
 * For attempts side by side (hedge.c): o started without the terminal
 * (detached: a session of its own, whose id names its process group too);
 * its pid, or -1 (errno set) when it could not
 * be started; *exec_errno: why its command could not be run (it is reaped
 * then), or 0.  Whether pid has ended (not reaped yet, so that its group
 * stays its own); sig to whom kill(2) names, woken if stopped; how the
 * status st of an attempt's end reads, as attempt_run fills r in.
 */
pid_t		 attempt_start(const struct attempt_opts *, int *exec_errno);
bool		 attempt_exited(pid_t);
void		 signal_group(pid_t to, int sig);
void		 attempt_ended(int st, bool preserve, struct attempt_result *);

/* Closes the fds of an attempt's stdio[] (one of them may stand twice,
 * as stdout and stderr). */
void		 stdio_close(const int stdio[3]);

#endif
