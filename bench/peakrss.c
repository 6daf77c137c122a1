/*
 * peakrss [-o FILE] COMMAND [ARG]...: runs COMMAND and writes its own peak
 * resident set size in KiB to FILE (default stderr), then exits with its
 * status.
 *
 * The peak is VmHWM from /proc/PID/status, read as the command exits, with
 * its memory still mapped: COMMAND runs under ptrace, stopped once at
 * PTRACE_EVENT_EXIT; every other stop (signals it receives, its exec) is
 * passed on unchanged.  Unlike wait4's ru_maxrss, which is the largest of
 * the process and every child it reaped, this counts the command alone,
 * not the attempts that retry starts.  Where ptrace is not allowed it
 * falls back to ru_maxrss and says so ("rusage", an upper bound).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

static long	 vmhwm(pid_t);

/* VmHWM of pid in KiB, or -1. */
static long
vmhwm(pid_t pid)
{
	char path[64], line[256];
	long kib = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%ld/status", (long)pid);
	if ((f = fopen(path, "r")) == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL)
		if (strncmp(line, "VmHWM:", 6) == 0)
			kib = strtol(line + 6, NULL, 10);
	fclose(f);
	return kib;
}

int
main(int argc, char *argv[])
{
	struct rusage ru;
	const char *out = NULL;
	long kib = -1;
	pid_t pid;
	int st, sig, c, traced = 0;
	FILE *f = stderr;

	while ((c = getopt(argc, argv, "+o:")) != -1) {
		if (c != 'o') {
			fprintf(stderr, "usage: peakrss [-o FILE] COMMAND "
			    "[ARG]...\n");
			return 125;
		}
		out = optarg;
	}
	if (optind >= argc) {
		fprintf(stderr, "usage: peakrss [-o FILE] COMMAND [ARG]...\n");
		return 125;
	}
	if ((pid = fork()) == -1) {
		perror("peakrss: fork");
		return 125;
	}
	if (pid == 0) {
		/* Untraced, it simply runs: the parent sees no stop. */
		if (ptrace(PTRACE_TRACEME, 0, NULL, NULL) == 0)
			raise(SIGSTOP);
		execvp(argv[optind], argv + optind);
		fprintf(stderr, "peakrss: %s: %s\n", argv[optind],
		    strerror(errno));
		_exit(127);
	}
	for (;;) {
		while (wait4(pid, &st, 0, &ru) == -1)
			if (errno != EINTR) {
				perror("peakrss: wait4");
				return 125;
			}
		if (!WIFSTOPPED(st))
			break;
		sig = WSTOPSIG(st);
		if (!traced) {
			/* The SIGSTOP it raised itself before exec. */
			traced = 1;
			ptrace(PTRACE_SETOPTIONS, pid, NULL,
			    (void *)(long)(PTRACE_O_TRACEEXIT |
			    PTRACE_O_TRACEEXEC | PTRACE_O_EXITKILL));
			sig = 0;
		} else if (st >> 8 == (SIGTRAP | (PTRACE_EVENT_EXIT << 8))) {
			kib = vmhwm(pid);
			sig = 0;
		} else if (st >> 8 == (SIGTRAP | (PTRACE_EVENT_EXEC << 8)))
			sig = 0;
		ptrace(PTRACE_CONT, pid, NULL, (void *)(long)sig);
	}
	if (out != NULL && (f = fopen(out, "w")) == NULL) {
		perror(out);
		return 125;
	}
	if (kib >= 0)
		fprintf(f, "%ld vmhwm\n", kib);
	else
		fprintf(f, "%ld rusage\n", ru.ru_maxrss);
	if (f != stderr)
		fclose(f);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}
