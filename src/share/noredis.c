/*
 * The Redis store in a build without it (make REDIS=no, or where
 * hiredis's or OpenSSL's headers are missing): in place of redis.c,
 * redisconn.c, redisnode.c, redisreply.c, tls.c and tlsfiles.c, which
 * the build leaves out.  A redis://, rediss:// or unix:// store is
 * refused when it is named (redis_absent), so that nothing below is
 * reached; each says the same, should it be.
 */
#include <errno.h>
#include <stdio.h>

#include "redis.h"

const char *
redis_absent(void)
{
	return "Redis is not in this build of retry (it was built without "
	    "hiredis and OpenSSL): only file stores";
}

static int
absent(char *err, size_t sz)
{
	snprintf(err, sz, "%s", redis_absent());
	errno = ENOTSUP;
	return -1;
}

void
redis_key(const char *name, char *key, size_t sz)
{
	snprintf(key, sz, REDIS_KEY_PREFIX "%s" REDIS_KEY_SUFFIX, name);
}

int
redis_decide(struct redis_conn *r, enum share_op op, const char *name,
    const struct share_rules *rules, uint64_t me, bool success, bool retry,
    int64_t asked, int64_t now_us, struct share_answer *a, char *err,
    size_t sz)
{
	return absent(err, sz);
}

int
redis_read(struct redis_conn *r, const char *name, struct share_state *s,
    char *err, size_t sz)
{
	return absent(err, sz);
}

int
redis_reset(struct redis_conn *r, const char *name, char *err, size_t sz)
{
	return absent(err, sz);
}

int
redis_names(struct redis_conn *r, char ***names, size_t *n,
    void (*fault)(void *, const char *), void *arg, char *err, size_t sz)
{
	*names = NULL;
	*n = 0;
	return absent(err, sz);
}

void
redisconn_load(const struct store_url *u)
{
}

void
redisconn_close(struct redis_conn *r)
{
}
