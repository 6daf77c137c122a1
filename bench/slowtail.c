/*
 * slowtail FILE [FAST SLOW PERMILLE]: a command whose latency has a heavy
 * tail, for `make hedge`.  It appends one byte to FILE as it starts (so
 * FILE's size counts the calls of a run, the ones stopped early too), then
 * sleeps SLOW milliseconds (default 2000) PERMILLE times in a thousand
 * (default 50), chosen at random for each call, else FAST (default 20),
 * and exits 0.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

static long
arg(char **argv, int argc, int i, long def)
{
	char *end;
	long v;

	if (i >= argc)
		return def;
	v = strtol(argv[i], &end, 10);
	if (end == argv[i] || *end != '\0' || v < 0) {
		fprintf(stderr, "slowtail: '%s': not a number\n", argv[i]);
		exit(2);
	}
	return v;
}

int
main(int argc, char **argv)
{
	const long fast = arg(argv, argc, 2, 20), slow = arg(argv, argc, 3,
	    2000), permille = arg(argv, argc, 4, 50);
	struct timespec ts;
	uint32_t r;
	long ms;
	int fd;

	if (argc < 2) {
		fputs("usage: slowtail FILE [FAST SLOW PERMILLE]\n", stderr);
		return 2;
	}
	if ((fd = open(argv[1], O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC,
	    0600)) == -1 || write(fd, "1", 1) != 1) {
		perror(argv[1]);
		return 2;
	}
	close(fd);
	if (getrandom(&r, sizeof(r), 0) != (ssize_t)sizeof(r)) {
		perror("getrandom");
		return 2;
	}
	ms = r % 1000 < (uint32_t)permille ? slow : fast;
	ts.tv_sec = ms / 1000;
	ts.tv_nsec = ms % 1000 * 1000000;
	while (clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, &ts) == EINTR)
		;
	return 0;
}
