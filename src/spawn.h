/* One attempt: start it in its own process group, wait for it while
 * watching a deadline and signals, and say how it ended. */
#ifndef RETRY_SPAWN_H
#define RETRY_SPAWN_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

struct attempt_opts {
	char *const	*argv;
	int		 tty;		/* the controlling terminal, or -1 */
	bool		 hand_over;	/* the attempt gets it from the start */
	int64_t		 timeout;	/* ns, -1 for none */
	int		 signal;	/* sent on timeout */
	int64_t		 kill_after;	/* ns, then SIGKILL */
};

struct attempt_result {
	int		 exec_errno;	/* the command could not be run */
	int		 status;	/* 0-255, 128 + N, or 124 */
	int		 signal;	/* death by this signal, or 0 */
	bool		 timed_out;
	int		 interrupted;	/* a signal retry received, or 0 */
};

/* Runs one attempt to its end; -1 (errno set) only when retry itself
 * could not start it (fork or pipe failed). */
int		 attempt_run(const struct attempt_opts *,
		    struct attempt_result *);

#endif
