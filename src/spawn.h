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
	/* The child's fds 0, 1 and 2, or -1 to inherit retry's; closed in
	 * retry once the child has them. */
	int		 stdio[3];
	/* Read ends drained while the attempt runs (its stdout and stderr
	 * pipes), or -1; each chunk, then the end (n == 0), goes to sink. */
	int		 watch[2];
	void		(*sink)(void *, int, const char *, size_t);
	void		*ctx;
};

struct attempt_result {
	int		 exec_errno;	/* the command could not be run */
	int		 status;	/* 0-255, 128 + N, or 124 */
	int		 signal;	/* death by this signal, or 0 */
	bool		 timed_out;
	int		 interrupted;	/* a signal retry received, or 0 */
};

/* Runs one attempt to its end, its output drained to the last byte; -1 (errno set) only when retry itself
 * could not start it (fork or pipe failed). */
int		 attempt_run(const struct attempt_opts *,
		    struct attempt_result *);

#endif
