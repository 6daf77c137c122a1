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
#include "flight.h"

/* Runs one attempt until its command ends and its output is passed on;
 * -1 (errno set) only when it could not be started (vfork failed). */
int		 attempt_run(const struct attempt_opts *,
		    struct attempt_result *);

/*
 * For attempts side by side (hedge.c): o started without the terminal
 * (detached: a session of its own, whose id names its process group too);
 * its pid, or -1 (errno set) when it could not be started; *exec_errno:
 * why its command could not be run (it is reaped then), or 0.
 */
pid_t		 attempt_start(const struct attempt_opts *, int *exec_errno);

/* Closes the fds of an attempt's stdio[] (one of them may stand twice,
 * as stdout and stderr). */
void		 stdio_close(const int stdio[3]);

#endif
