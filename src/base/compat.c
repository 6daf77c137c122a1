/* What is Linux's and glibc's own, and its fallbacks elsewhere. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

/* What this system has; none of it with RETRY_PORTABLE. */
#ifndef RETRY_PORTABLE
#ifdef __linux__
#define HAVE_PIPE2
#ifdef __GLIBC__	/* musl has no close_range(3) */
#define HAVE_CLOSE_RANGE
#endif
#define HAVE_MEMFD
#define HAVE_PROC_FD
#define HAVE_PROC_STATUS
#define HAVE_PRCTL
#define HAVE_SIGNALFD
#define HAVE_GETRANDOM
#define HAVE_AUXV
#ifdef O_TMPFILE
#define HAVE_TMPFILE
#endif
#ifdef F_SETPIPE_SZ
#define HAVE_PIPE_SZ
#endif
#endif
#if defined(__linux__) || defined(__FreeBSD__) || defined(__OpenBSD__) || \
    defined(__NetBSD__) || defined(__DragonFly__)
#define HAVE_PPOLL
#endif
#if defined(SOCK_NONBLOCK) && defined(SOCK_CLOEXEC)
#define HAVE_SOCK_FLAGS
#endif
#ifdef __GLIBC__
#define HAVE_SIGABBREV_NP
#endif
#endif

#ifdef HAVE_MEMFD
#include <sys/mman.h>
#endif
#ifdef HAVE_PRCTL
#include <sys/prctl.h>
#endif
#ifdef HAVE_SIGNALFD
#include <sys/signalfd.h>
#endif
#ifdef HAVE_GETRANDOM
#include <sys/random.h>
#endif
#ifdef HAVE_AUXV
#include <sys/auxv.h>
#endif

#include "compat.h"

int
compat_pipe(int fd[2], bool nonblock)
{
#ifdef HAVE_PIPE2
	return pipe2(fd, O_CLOEXEC | (nonblock ? O_NONBLOCK : 0));
#else
	int e;

	if (pipe(fd) == -1)
		return -1;
	for (int i = 0; i < 2; i++)
		if (fcntl(fd[i], F_SETFD, FD_CLOEXEC) == -1 ||
		    (nonblock && fcntl(fd[i], F_SETFL, O_NONBLOCK) == -1)) {
			e = errno;
			close(fd[0]);
			close(fd[1]);
			errno = e;
			return -1;
		}
	return 0;
#endif
}

/*
 * Not libbsd's closefrom(3), which may call opendir(3) and allocate, which a
 * child of vfork must not; close_range is missing before Linux 5.9.  poll(2)
 * is async-signal-safe and says POLLNVAL of a descriptor that is not open,
 * so the fallback closes only what is, asking a block at a time: a limit
 * of a million descriptors costs a few thousand calls, not a million.
 */
void
compat_close_range(unsigned lo, unsigned hi)
{
	struct pollfd p[256];
	struct rlimit rl;
	unsigned max = 1024;
	nfds_t n;

#ifdef HAVE_CLOSE_RANGE
	if (close_range(lo, hi, 0) == 0)
		return;
#endif
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
		max = rl.rlim_cur < INT_MAX ? (unsigned)rl.rlim_cur : INT_MAX;
	if (max == 0 || lo >= max)
		return;
	if (hi >= max)
		hi = max - 1;
	/* Never more at once than the limit, which poll(2) holds to. */
	for (unsigned fd = lo; fd <= hi; fd += (unsigned)n) {
		for (n = 0; n < sizeof(p) / sizeof(p[0]) && fd + n <= hi; n++)
			p[n] = (struct pollfd){ (int)(fd + n), 0, 0 };
		if (poll(p, n, 0) == -1)
			for (nfds_t i = 0; i < n; i++)
				p[i].revents = 0;
		for (nfds_t i = 0; i < n; i++)
			if (!(p[i].revents & POLLNVAL))
				close(p[i].fd);
	}
}

int
compat_memfd(const char *name)
{
#ifdef HAVE_MEMFD
	return memfd_create(name, MFD_CLOEXEC);
#else
	(void)name;
	errno = ENOSYS;
	return -1;
#endif
}

#ifndef HAVE_SOCK_FLAGS
/* A socket's flags set after the fact, as compat_pipe's fallback sets a
 * pipe's: fd, or -1 with errno and fd closed. */
static int
set_flags(int fd, bool nonblock)
{
	int e;

	if (fcntl(fd, F_SETFD, FD_CLOEXEC) == -1 ||
	    (nonblock && fcntl(fd, F_SETFL, O_NONBLOCK) == -1)) {
		e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}
#endif

int
compat_socket(int domain, int type, int protocol)
{
#ifdef HAVE_SOCK_FLAGS
	return socket(domain, type | SOCK_NONBLOCK | SOCK_CLOEXEC, protocol);
#else
	int fd;

	if ((fd = socket(domain, type, protocol)) == -1)
		return -1;
	return set_flags(fd, true);
#endif
}

int
compat_tmpfile(const char *dir)
{
#ifdef HAVE_TMPFILE
	return open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
#else
	(void)dir;
	errno = ENOSYS;
	return -1;
#endif
}

void
compat_random(void *buf, size_t n)
{
#ifdef HAVE_GETRANDOM
	if (getrandom(buf, n, GRND_NONBLOCK) == (ssize_t)n)
		return;
#endif
	arc4random_buf(buf, n);
}

bool
compat_privileged(void)
{
#ifdef HAVE_AUXV
	return getauxval(AT_SECURE) != 0;
#else
	return getuid() != geteuid() || getgid() != getegid();
#endif
}

void
compat_pipe_size(int fd, int n)
{
#ifdef HAVE_PIPE_SZ
	fcntl(fd, F_SETPIPE_SZ, n);
#else
	(void)fd;
	(void)n;
#endif
}

const char *
compat_signal_abbrev(int sig)
{
#ifdef HAVE_SIGABBREV_NP
	return sigabbrev_np(sig);
#else
	/* glibc's names, in its order; others where a system has them. */
	static const struct {
		int		 sig;
		const char	*name;
	} names[] = {
		{ SIGHUP, "HUP" }, { SIGINT, "INT" }, { SIGQUIT, "QUIT" },
		{ SIGILL, "ILL" }, { SIGTRAP, "TRAP" }, { SIGABRT, "ABRT" },
		{ SIGBUS, "BUS" }, { SIGFPE, "FPE" }, { SIGKILL, "KILL" },
		{ SIGUSR1, "USR1" }, { SIGSEGV, "SEGV" }, { SIGUSR2, "USR2" },
		{ SIGPIPE, "PIPE" }, { SIGALRM, "ALRM" }, { SIGTERM, "TERM" },
#ifdef SIGSTKFLT
		{ SIGSTKFLT, "STKFLT" },
#endif
		{ SIGCHLD, "CHLD" }, { SIGCONT, "CONT" }, { SIGSTOP, "STOP" },
		{ SIGTSTP, "TSTP" }, { SIGTTIN, "TTIN" }, { SIGTTOU, "TTOU" },
		{ SIGURG, "URG" }, { SIGXCPU, "XCPU" }, { SIGXFSZ, "XFSZ" },
		{ SIGVTALRM, "VTALRM" }, { SIGPROF, "PROF" },
		{ SIGWINCH, "WINCH" },
#ifdef SIGPOLL
		{ SIGPOLL, "POLL" },
#elif defined(SIGIO)
		{ SIGIO, "IO" },
#endif
#ifdef SIGPWR
		{ SIGPWR, "PWR" },
#endif
#ifdef SIGEMT
		{ SIGEMT, "EMT" },
#endif
#ifdef SIGINFO
		{ SIGINFO, "INFO" },
#endif
		{ SIGSYS, "SYS" },
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
#ifdef HAVE_PROC_FD
	char path[32];

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	return open(path, flags);
#else
	/* A terminal, by its name: ttyname_r(3) searches /dev where it has
	 * no /proc. */
	char path[PATH_MAX];

	if (isatty(fd) != 1 || ttyname_r(fd, path, sizeof(path)) != 0)
		return -1;
	return open(path, flags | O_NOCTTY);
#endif
}

int
compat_signal_pending(pid_t pid, int sig)
{
#ifdef HAVE_PROC_STATUS
	static const char *const fields[] = { "\nSigPnd:", "\nShdPnd:" };
	char path[32], buf[4096], *p;
	ssize_t n;
	int fd, pending = 0;

	snprintf(path, sizeof(path), "/proc/%ld/status", (long)pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		if ((p = strstr(buf, fields[i])) == NULL)
			return -1;
		if (strtoull(p + strlen(fields[i]), NULL, 16) &
		    (1ULL << (sig - 1)))
			pending = 1;
	}
	return pending;
#else
	(void)pid;
	(void)sig;
	return -1;
#endif
}

void
compat_parent_death(int sig)
{
#ifdef HAVE_PRCTL
	prctl(PR_SET_PDEATHSIG, sig);
#else
	(void)sig;
#endif
}

unsigned long
compat_timer_slack(void)
{
#ifdef HAVE_PRCTL
	const int r = prctl(PR_GET_TIMERSLACK);

	return r > 0 ? (unsigned long)r : 0;
#else
	return 0;
#endif
}

void
compat_set_timer_slack(unsigned long ns)
{
#ifdef HAVE_PRCTL
	prctl(PR_SET_TIMERSLACK, ns);
#else
	(void)ns;
#endif
}

int
compat_wait(struct pollfd *fds, nfds_t n, const struct timespec *t)
{
#ifdef HAVE_PPOLL
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

int
compat_signalfd(const sigset_t *set)
{
#ifdef HAVE_SIGNALFD
	return signalfd(-1, set, SFD_NONBLOCK | SFD_CLOEXEC);
#else
	(void)set;
	errno = ENOSYS;
	return -1;
#endif
}

size_t
compat_signalfd_take(int fd, struct compat_siginfo *to, size_t max)
{
	size_t n = 0;
#ifdef HAVE_SIGNALFD
	struct signalfd_siginfo si[8];
	ssize_t k;

	if (max > sizeof(si) / sizeof(si[0]))
		max = sizeof(si) / sizeof(si[0]);
	if (max > 0 && (k = read(fd, si, max * sizeof(si[0]))) > 0)
		for (; n < (size_t)k / sizeof(si[0]); n++) {
			to[n].signo = (int)si[n].ssi_signo;
			to[n].code = si[n].ssi_code;
			/* The whole union: its int is the pointer's low
			 * bits, as the kernel copied it. */
			to[n].value.sival_ptr =
			    (void *)(uintptr_t)si[n].ssi_ptr;
		}
#else
	(void)fd;
	(void)to;
	(void)max;
#endif
	return n;
}

void
compat_no_core(void)
{
#ifdef HAVE_PRCTL
	prctl(PR_SET_DUMPABLE, 0);
#else
	const struct rlimit none = { 0, 0 };

	setrlimit(RLIMIT_CORE, &none);
#endif
}
