/* What is Linux's own, and its fallbacks elsewhere. */
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/mman.h>
#include <sys/prctl.h>
#else
#include <errno.h>
#endif

#include "compat.h"

int
compat_pipe(int fd[2], bool nonblock)
{
#ifdef __linux__
	return pipe2(fd, O_CLOEXEC | (nonblock ? O_NONBLOCK : 0));
#else
	if (pipe(fd) == -1)
		return -1;
	for (int i = 0; i < 2; i++) {
		fcntl(fd[i], F_SETFD, FD_CLOEXEC);
		if (nonblock)
			fcntl(fd[i], F_SETFL, O_NONBLOCK);
	}
	return 0;
#endif
}

/* Not libbsd's closefrom(3), which may call opendir(3) and allocate, which
 * a vfork child must not; close_range is missing before Linux 5.9. */
void
compat_close_range(unsigned lo, unsigned hi)
{
	struct rlimit rl;
	unsigned max = 1024;

#ifdef __linux__
	if (close_range(lo, hi, 0) == 0)
		return;
#endif
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
		max = rl.rlim_cur < INT_MAX ? (unsigned)rl.rlim_cur : INT_MAX;
	for (unsigned fd = lo; fd <= hi && fd < max; fd++)
		close((int)fd);
}

int
compat_memfd(const char *name)
{
#ifdef __linux__
	return memfd_create(name, MFD_CLOEXEC);
#else
	(void)name;
	errno = ENOSYS;
	return -1;
#endif
}

void
compat_pipe_size(int fd, int n)
{
#ifdef F_SETPIPE_SZ
	fcntl(fd, F_SETPIPE_SZ, n);
#else
	(void)fd;
	(void)n;
#endif
}

const char *
compat_signal_abbrev(int sig)
{
#if defined(__GLIBC__)
	return sigabbrev_np(sig);
#else
	static const struct {
		int		 sig;
		const char	*name;
	} names[] = {
		{ SIGHUP, "HUP" }, { SIGINT, "INT" }, { SIGQUIT, "QUIT" },
		{ SIGILL, "ILL" }, { SIGTRAP, "TRAP" }, { SIGABRT, "ABRT" },
		{ SIGBUS, "BUS" }, { SIGFPE, "FPE" }, { SIGKILL, "KILL" },
		{ SIGUSR1, "USR1" }, { SIGSEGV, "SEGV" }, { SIGUSR2, "USR2" },
		{ SIGPIPE, "PIPE" }, { SIGALRM, "ALRM" }, { SIGTERM, "TERM" },
		{ SIGCHLD, "CHLD" }, { SIGCONT, "CONT" }, { SIGSTOP, "STOP" },
		{ SIGTSTP, "TSTP" }, { SIGTTIN, "TTIN" }, { SIGTTOU, "TTOU" },
		{ SIGURG, "URG" }, { SIGXCPU, "XCPU" }, { SIGXFSZ, "XFSZ" },
		{ SIGVTALRM, "VTALRM" }, { SIGPROF, "PROF" },
		{ SIGWINCH, "WINCH" }, { SIGSYS, "SYS" },
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].sig == sig)
			return names[i].name;
	return NULL;
#endif
}

int
compat_reopen(int fd, int flags)
{
#ifdef __linux__
	char path[32];

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	return open(path, flags);
#else
	(void)fd;
	(void)flags;
	return -1;
#endif
}

void
compat_parent_death(int sig)
{
#ifdef __linux__
	prctl(PR_SET_PDEATHSIG, sig);
#else
	(void)sig;
#endif
}

unsigned long
compat_timer_slack(void)
{
#ifdef __linux__
	const int r = prctl(PR_GET_TIMERSLACK);

	return r > 0 ? (unsigned long)r : 0;
#else
	return 0;
#endif
}

void
compat_set_timer_slack(unsigned long ns)
{
#ifdef __linux__
	prctl(PR_SET_TIMERSLACK, ns);
#else
	(void)ns;
#endif
}

int
compat_wait(struct pollfd *fds, nfds_t n, const struct timespec *t)
{
#if defined(__linux__) || defined(__FreeBSD__) || defined(__OpenBSD__) || \
    defined(__NetBSD__) || defined(__DragonFly__)
	return ppoll(fds, n, t, NULL);
#else
	long long ms = -1;

	if (t != NULL) {
		ms = (long long)t->tv_sec * 1000 + (t->tv_nsec + 999999) / 1000000;
		if (ms > INT_MAX)
			ms = INT_MAX;
	}
	return poll(fds, n, (int)ms);
#endif
}

void
compat_no_core(void)
{
#ifdef __linux__
	prctl(PR_SET_DUMPABLE, 0);
#else
	const struct rlimit none = { 0, 0 };

	setrlimit(RLIMIT_CORE, &none);
#endif
}
