/*
 * pairtime: times a command against a baseline in alternating pairs.
 *
 *	pairtime [-n PAIRS] [-w WARMUPS] [-k] A [ARG]... ::: B [ARG]...
 *
 * Runs A and B WARMUPS times each unmeasured, then PAIRS times each, in
 * the order AB BA AB ... so that a machine that drifts faster or slower
 * weighs on both alike.  Prints one line of medians, in seconds:
 *
 *	median(A) median(B) median(A/B) median(A-B)
 *
 * the last two taken over the pairs, each pair being A and B run back to
 * back.  Both commands read /dev/null; their stdout goes to /dev/null
 * unless -k.  A command that exits 125, 126 or 127, or is killed, is a
 * failed benchmark: pairtime says so and exits 2.
 */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static double	 now(void);
static double	 run(char **, int);
static double	 median(double *, int);
static int	 cmp(const void *, const void *);
static void	 usage(void);

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Runs argv to its end; returns the wall time it took. */
static double
run(char **argv, int keep)
{
	posix_spawn_file_actions_t fa;
	double t0, t1;
	pid_t pid;
	int st, e;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	if (!keep)
		posix_spawn_file_actions_addopen(&fa, 1, "/dev/null",
		    O_WRONLY, 0);
	t0 = now();
	if ((e = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ)) != 0) {
		fprintf(stderr, "pairtime: %s: %s\n", argv[0], strerror(e));
		exit(2);
	}
	while (waitpid(pid, &st, 0) == -1 && errno == EINTR)
		;
	t1 = now();
	posix_spawn_file_actions_destroy(&fa);
	if (WIFSIGNALED(st) || (WIFEXITED(st) && WEXITSTATUS(st) >= 125 &&
	    WEXITSTATUS(st) <= 127)) {
		fprintf(stderr, "pairtime: %s: %s %d\n", argv[0],
		    WIFSIGNALED(st) ? "killed by signal" : "exit",
		    WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
		exit(2);
	}
	return t1 - t0;
}

static int
cmp(const void *a, const void *b)
{
	const double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Sorts v. */
static double
median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void
usage(void)
{
	fprintf(stderr, "usage: pairtime [-n PAIRS] [-w WARMUPS] [-k] "
	    "A [ARG]... ::: B [ARG]...\n");
	exit(2);
}

int
main(int argc, char *argv[])
{
	double *ta, *tb, *ratio, *diff;
	char **a, **b;
	int pairs = 5, warm = 1, keep = 0, c, i;

	while ((c = getopt(argc, argv, "+n:w:k")) != -1) {
		switch (c) {
		case 'n':
			if ((pairs = atoi(optarg)) < 1)
				usage();
			break;
		case 'w':
			if ((warm = atoi(optarg)) < 0)
				usage();
			break;
		case 'k':
			keep = 1;
			break;
		default:
			usage();
		}
	}
	a = argv + optind;
	for (b = a; *b != NULL && strcmp(*b, ":::") != 0; b++)
		;
	if (b == a || *b == NULL || b[1] == NULL)
		usage();
	*b++ = NULL;

	ta = calloc((size_t)pairs, sizeof(*ta));
	tb = calloc((size_t)pairs, sizeof(*tb));
	ratio = calloc((size_t)pairs, sizeof(*ratio));
	diff = calloc((size_t)pairs, sizeof(*diff));
	if (ta == NULL || tb == NULL || ratio == NULL || diff == NULL) {
		perror("pairtime");
		return 2;
	}
	for (i = 0; i < warm; i++) {
		run(a, keep);
		run(b, keep);
	}
	for (i = 0; i < pairs; i++) {
		if (i % 2 == 0) {
			ta[i] = run(a, keep);
			tb[i] = run(b, keep);
		} else {
			tb[i] = run(b, keep);
			ta[i] = run(a, keep);
		}
		ratio[i] = ta[i] / tb[i];
		diff[i] = ta[i] - tb[i];
	}
	printf("%.9f %.9f %.6f %.9f\n", median(ta, pairs), median(tb, pairs),
	    median(ratio, pairs), median(diff, pairs));
	return 0;
}
