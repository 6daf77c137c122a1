/*
 * bench/redisping [-a] [-s SHA1] PORT N: N PINGs to Redis on
 * 127.0.0.1:PORT, one at a time, each waiting for its answer: the round
 * trip that every decision of --share on Redis makes, as the floor of its
 * cost.
 *
 * -a: the PINGs go two by two after an attempt, as retry's decisions do
 * (the record of one attempt, then the gate of the next): before each
 * pair, /bin/false is vforked, execed and waited for.  Less `spawnloop -v
 * N/2 /bin/false`, that is the round trip of a client that has just
 * waited for a process, to a server that has been idle meanwhile.
 *
 * -s SHA1: instead of PING, retry's script (loaded already), called as a
 * run with --share-budget 1000000 calls it: a record, then a gate, and so
 * on.  What retry adds to a decision is its own time less this one's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <hiredis/hiredis.h>

/* A record or a gate of a bare client, as retry words it. */
static redisReply *
decide(redisContext *c, const char *sha, int record)
{
	const char *argv[] = { "EVALSHA", sha, "1", "retry:redisping:state",
	    record ? "record" : "gate", "1", "1000000000", "200", "0", "0",
	    "0", "0", "0", "-1", "", "1", "60000000" };
	size_t len[sizeof(argv) / sizeof(argv[0])];

	for (size_t i = 0; i < sizeof(argv) / sizeof(argv[0]); i++)
		len[i] = strlen(argv[i]);
	return redisCommandArgv(c, (int)(sizeof(argv) / sizeof(argv[0])),
	    argv, len);
}

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
	const char *sha = NULL;
	long n, i;
	int spawn = 0;

	for (;;) {
		if (argc > 1 && strcmp(argv[1], "-a") == 0) {
			spawn = 1;
			argc--, argv++;
		} else if (argc > 2 && strcmp(argv[1], "-s") == 0) {
			sha = argv[2];
			argc -= 2, argv += 2;
		} else
			break;
	}
	if (argc != 3 || (n = strtol(argv[2], NULL, 10)) < 1) {
		fprintf(stderr, "usage: redisping [-a] [-s SHA1] PORT N\n");
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
		r = sha != NULL ? decide(c, sha, i % 2 == 0) :
		    redisCommand(c, "PING");
		if (r == NULL || r->type == REDIS_REPLY_ERROR) {
			fprintf(stderr, "redisping: %s\n", r != NULL ? r->str :
			    c->errstr);
			return 1;
		}
		freeReplyObject(r);
	}
	redisFree(c);
	return 0;
}
