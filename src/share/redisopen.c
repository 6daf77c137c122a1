/*
 * A Redis store's connections opened (redisconn.h), in every build: no
 * connection yet, the bounds kept, and the libraries loaded by
 * redisconn_load (redisconn.c; in a build without Redis, noredis.c's,
 * which loads nothing).
 */
#include <string.h>

#include "redisconn.h"

void
redisconn_open(struct redis_conn *r, const struct store_url *u,
    int64_t timeout, int64_t connect_timeout)
{
	/* Loaded now, before a run's first attempt. */
	redisconn_load(u);
	memset(r, 0, sizeof(*r));
	r->url = *u;
	r->timeout = timeout;
	r->connect_timeout = connect_timeout;
	r->by = -1;
	r->hops_by = -1;
	r->seeds_by = -1;
}
