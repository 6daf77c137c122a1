/*
 * bench/redisping PORT N: N PINGs to Redis on 127.0.0.1:PORT, one at a
 * time, each waiting for its answer: the round trip that every decision
 * of --share on Redis makes, as the floor of its cost.
 */
#include <stdio.h>
#include <stdlib.h>

#include <hiredis/hiredis.h>

int
main(int argc, char **argv)
{
	redisContext *c;
	redisReply *r;
	long n;

	if (argc != 3 || (n = strtol(argv[2], NULL, 10)) < 1) {
		fprintf(stderr, "usage: redisping PORT N\n");
		return 2;
	}
	c = redisConnect("127.0.0.1", atoi(argv[1]));
	if (c == NULL || c->err != 0) {
		fprintf(stderr, "redisping: %s\n", c != NULL ? c->errstr :
		    "out of memory");
		return 1;
	}
	while (n-- > 0) {
		if ((r = redisCommand(c, "PING")) == NULL) {
			fprintf(stderr, "redisping: %s\n", c->errstr);
			return 1;
		}
		freeReplyObject(r);
	}
	redisFree(c);
	return 0;
}
