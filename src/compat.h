/*
 * What is Linux's own, in one place.  On Linux these are the kernel's and
 * glibc's calls; elsewhere each has a portable fallback that keeps retry
 * correct, if less thorough (noted at each), so that a BSD or macOS port
 * starts by filling in compat.c.  Each is safe in a vfork child where it
 * says so.
 */
#ifndef RETRY_COMPAT_H
#define RETRY_COMPAT_H

#include <poll.h>
#include <stdbool.h>
#include <time.h>

/* pipe2(2) with O_CLOEXEC and maybe O_NONBLOCK; elsewhere pipe(2) and
 * fcntl(2), which a thread could race (retry has none). */
int		 compat_pipe(int fd[2], bool nonblock);
/* Closes fds lo to hi: close_range(2), else one by one up to the limit.
 * Safe in a vfork child. */
void		 compat_close_range(unsigned lo, unsigned hi);
/* Asks for a pipe buffer of n bytes (F_SETPIPE_SZ); elsewhere nothing. */
void		 compat_pipe_size(int fd, int n);
/* "TERM" for 15 (sigabbrev_np); elsewhere sys_signame or a table of the
 * POSIX names.  NULL when unknown. */
const char	*compat_signal_abbrev(int sig);
/* A new open file description of what fd is open to, through /proc;
 * elsewhere -1 (the callers then share fd's, with care). */
int		 compat_reopen(int fd, int flags);
/* The calling process gets sig when its parent dies (PR_SET_PDEATHSIG);
 * elsewhere nothing: the attempt outlives a retry killed outright.  Safe
 * in a vfork child. */
void		 compat_parent_death(int sig);
/* The timer slack of the process, in ns (PR_GET/SET_TIMERSLACK); elsewhere
 * 0 and nothing. */
unsigned long	 compat_timer_slack(void);
void		 compat_set_timer_slack(unsigned long ns);
/* Waits as ppoll(2) does, the signal mask unchanged: ppoll where it is;
 * elsewhere poll(2), to the millisecond, rounded up (a signal still ends
 * the wait at once: its handler writes to a pipe in fds). */
int		 compat_wait(struct pollfd *, nfds_t, const struct timespec *);
/* An anonymous file in memory, close-on-exec (memfd_create); elsewhere -1
 * (ENOSYS): the caller makes one in a directory. */
int		 compat_memfd(const char *name);
/* No core file of this process (PR_SET_DUMPABLE); elsewhere RLIMIT_CORE
 * 0. */
void		 compat_no_core(void);

/* A directory opened only to name files in it. */
#ifndef O_PATH
#define O_PATH	0
#endif

#endif
