/*
 * What is Linux's and glibc's own, in one place (but for the names SIGPWR
 * and SIGSTKFLT, which signals.c takes where they are defined).  On Linux
 * these are the kernel's and glibc's calls; elsewhere each has a portable
 * fallback that keeps retry correct, if less thorough (noted at each), so
 * that a BSD or macOS port starts by filling in compat.c (HACKING.md's
 * Porting says what else it uses beyond POSIX).  Each is safe in a vfork child where it
 * says so.  Built with RETRY_PORTABLE defined, retry uses every fallback
 * on Linux too: make check-portable runs the suite against that build.
 */
#ifndef RETRY_COMPAT_H
#define RETRY_COMPAT_H

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <time.h>

/* pipe2(2) with O_CLOEXEC and maybe O_NONBLOCK; elsewhere pipe(2) and
 * fcntl(2), which a thread that forks could race (retry has no other
 * thread). */
int		 compat_pipe(int fd[2], bool nonblock);
/* A socket, non-blocking and close-on-exec (SOCK_NONBLOCK, SOCK_CLOEXEC);
 * elsewhere socket(2) and fcntl(2), with compat_pipe's race. */
int		 compat_socket(int domain, int type, int protocol);
/* Closes fds lo to hi: close_range(2); elsewhere those of them that poll(2)
 * finds open, up to the limit on descriptors.  Async-signal-safe, for a
 * child forked while another thread may hold malloc's lock. */
void		 compat_close_range(unsigned lo, unsigned hi);
/* Asks for a pipe buffer of n bytes (F_SETPIPE_SZ); elsewhere nothing. */
void		 compat_pipe_size(int fd, int n);
/* "TERM" for 15 (sigabbrev_np); elsewhere a table of the names that
 * glibc gives.  NULL when unknown. */
const char	*compat_signal_abbrev(int sig);
/* A new open file description of what fd is open to, through /proc;
 * elsewhere a terminal's by its name, and -1 for anything else (the
 * callers then share fd's, with care). */
int		 compat_reopen(int fd, int flags);
/* Whether signal sig (below 65) is pending for process pid, not yet
 * delivered: 1 or 0, through /proc; elsewhere -1, not known. */
int		 compat_signal_pending(pid_t pid, int sig);
/* The calling process gets sig when its parent dies (PR_SET_PDEATHSIG);
 * elsewhere nothing: the attempt outlives a retry killed outright.  Safe
 * in a vfork child. */
void		 compat_parent_death(int sig);
/* The timer slack of the process, in ns (PR_GET/SET_TIMERSLACK); elsewhere
 * 0 and nothing. */
unsigned long	 compat_timer_slack(void);
void		 compat_set_timer_slack(unsigned long ns);
/* Waits as ppoll(2) does, the signal mask unchanged: ppoll where it is;
 * elsewhere poll(2), to the millisecond, rounded up.  No mask needs
 * swapping for the wait: retry's caught signals are never blocked, and
 * each handler writes to a pipe in fds, and the real-time signals, blocked,
 * make a signalfd in fds readable, so a signal ends the wait at once
 * however it waits. */
int		 compat_wait(struct pollfd *, nfds_t, const struct timespec *);
/* A signal read from a signalfd: its number, how it was sent (SI_USER
 * for kill(2), SI_QUEUE for sigqueue(3)...) and the value it came with. */
struct compat_siginfo {
	int		 signo;
	int		 code;
	union sigval	 value;
};
/* A descriptor, non-blocking and close-on-exec, that reads the signals of
 * set while they are blocked (signalfd(2)); elsewhere -1 (ENOSYS): the
 * caller catches them.  Then, in one read, the signals that came, up to
 * max of them (8 at most) into si, each queued one on its own: how
 * many. */
int		 compat_signalfd(const sigset_t *);
size_t		 compat_signalfd_take(int fd, struct compat_siginfo *si,
		    size_t max);
/* An anonymous file in memory, close-on-exec (memfd_create); elsewhere -1
 * (ENOSYS): the caller makes one in a directory. */
int		 compat_memfd(const char *name);
/* A file with no name in dir, read and written, close-on-exec
 * (O_TMPFILE); elsewhere -1 (ENOSYS): the caller makes one with a name
 * and unlinks it. */
int		 compat_tmpfile(const char *dir);
/* n random bytes: getrandom(2), one system call, while the kernel's pool
 * is ready; elsewhere, or early in a boot, arc4random_buf(3), which maps a
 * state of its own. */
void		 compat_random(void *buf, size_t n);
/* Whether the process has privileges that its user has not: set-user-ID,
 * set-group-ID or file capabilities, as the kernel says (AT_SECURE);
 * elsewhere, whether its real and effective ids differ. */
bool		 compat_privileged(void);
/* No core file of this process (PR_SET_DUMPABLE); elsewhere RLIMIT_CORE
 * 0. */
void		 compat_no_core(void);

/* A directory opened only to name files in it; elsewhere opened to read. */
#if !defined(O_PATH) || defined(RETRY_PORTABLE)
#undef O_PATH
#define O_PATH	0
#endif

/* libm's soname (glibc's LIBM_SO), where libm is loaded when a run first
 * needs it (RETRY_LIBM_LAZY); elsewhere undefined, and libm is linked. */
#if defined(RETRY_LIBM_LAZY) && !defined(RETRY_PORTABLE) && \
    defined(__has_include)
#if __has_include(<gnu/lib-names.h>)
#include <gnu/lib-names.h>
#define COMPAT_LIBM_SO	LIBM_SO
#endif
#endif

#endif
