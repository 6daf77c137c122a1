/*
 * spawnloop [-v] [-s MS] N COMMAND [ARG]...: runs COMMAND up to N times,
 * one after the other, until it succeeds; exits with the last status.
 * posix_spawnp and waitpid and nothing else: the physical limit of a retry
 * wrapper, the baseline that `make bench` holds retry against.
 *
 * -v: vfork and execvp instead.  glibc's posix_spawn child resets every
 * signal's disposition (some 130 system calls) before it execs; a bare
 * vfork does not, which makes it the floor below posix_spawn.
 *
 * -s MS: sleeps MS milliseconds after each failure, until an absolute
 * CLOCK_MONOTONIC deadline, with a timer slack of 1ns (as retry sleeps):
 * the floor of a back-off sleep on this machine.
 */
#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static pid_t	 start(char **, int);
static void	 nap(long);

/* Sleeps ms from now, to an absolute deadline. */
static void
nap(long ms)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	t.tv_sec += ms / 1000;
	t.tv_nsec += (ms % 1000) * 1000000;
	if (t.tv_nsec >= 1000000000) {
		t.tv_sec++;
		t.tv_nsec -= 1000000000;
	}
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL) ==
	    EINTR)
		;
}

static pid_t
start(char **argv, int use_vfork)
{
	pid_t pid;
	int e;

	if (use_vfork) {
		if ((pid = vfork()) == 0) {
			execvp(argv[0], argv);
			_exit(127);
		}
		e = pid == -1 ? errno : 0;
	} else
		e = posix_spawnp(&pid, argv[0], NULL, NULL, argv, environ);
	if (e != 0) {
		fprintf(stderr, "spawnloop: %s: %s\n", argv[0], strerror(e));
		exit(127);
	}
	return pid;
}

int
main(int argc, char *argv[])
{
	char *end;
	long n, i, ms = 0;
	int st = 0, use_vfork = 0;

	for (;;) {
		if (argc > 1 && strcmp(argv[1], "-v") == 0) {
			use_vfork = 1;
			argc--, argv++;
		} else if (argc > 2 && strcmp(argv[1], "-s") == 0) {
			if ((ms = strtol(argv[2], &end, 10)) < 0 || *end != '\0')
				argc = 0;
			argc -= 2, argv += 2;
		} else
			break;
	}
	if (argc < 3 || (n = strtol(argv[1], &end, 10)) < 1 || *end != '\0') {
		fprintf(stderr, "usage: spawnloop [-v] [-s MS] N COMMAND "
		    "[ARG]...\n");
		return 125;
	}
	if (ms > 0)
		prctl(PR_SET_TIMERSLACK, 1UL);
	for (i = 0; i < n; i++) {
		const pid_t pid = start(argv + 2, use_vfork);

		while (waitpid(pid, &st, 0) == -1 && errno == EINTR)
			;
		if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
			break;
		if (ms > 0 && i + 1 < n)
			nap(ms);
	}
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}
