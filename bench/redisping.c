/*
 * bench/redisping [-a] PORT N: N PINGs to Redis on 127.0.0.1:PORT, one at
 * a time, each waiting for its answer: the round trip that every decision
 * of --share on Redis makes, as the floor of its cost.
 *
 * -a: the PINGs go two by two after an attempt, as retry's decisions do
 * (the record of one attempt, then the gate of the next): before each
 * pair, /bin/false is vforked, execed and waited for.  Less `spawnloop -v
 * N/2 /bin/false`, that is the round trip of a client that has just
 * waited for a process, to a server that has been idle meanwhile.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <hiredis/hiredis.h>

/* vforks, execs and waits for /bin/false. */
static void
attempt(void)
{
	pid_t pid;
	int st;

	if ((pid = vfork()) == 0) {
		execl("/bin/false", "false", (char *)NULL);
		_exit(127);
	}
	if (pid == -1 || waitpid(pid, &st, 0) == -1) {
		perror("redisping");
		exit(1);
	}
}

int
main(int argc, char **argv)
{
	redisContext *c;
	redisReply *r;
	long n, i;
	int spawn = 0;

	if (argc > 1 && strcmp(argv[1], "-a") == 0) {
		spawn = 1;
		argc--, argv++;
	}
	if (argc != 3 || (n = strtol(argv[2], NULL, 10)) < 1) {
		fprintf(stderr, "usage: redisping [-a] PORT N\n");
		return 2;
	}
	c = redisConnect("127.0.0.1", atoi(argv[1]));
	if (c == NULL || c->err != 0) {
		fprintf(stderr, "redisping: %s\n", c != NULL ? c->errstr :
		    "out of memory");
		return 1;
	}
	for (i = 0; i < n; i++) {
		if (spawn && i % 2 == 0)
			attempt();
		if ((r = redisCommand(c, "PING")) == NULL) {
			fprintf(stderr, "redisping: %s\n", c->errstr);
			return 1;
		}
		freeReplyObject(r);
	}
	redisFree(c);
	return 0;
}
