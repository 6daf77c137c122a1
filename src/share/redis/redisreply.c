/* The commands to Redis formatted and its replies read, by hiredis. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "redisnode.h"

/* hiredis, which formats commands and parses replies: loaded when the
 * store is opened, before a run's first attempt (lib.h). */
struct hiredis_api hiredis;

const char *
load_hiredis(void)
{
#ifdef RETRY_HIREDIS_SONAME
	static const char *const names[] = { HIREDIS_FUNCS(LIB_NAME) };
	static const struct lib_part part = { RETRY_HIREDIS_SONAME, names,
		LIB_COUNT(names) };
	static struct lib_once once;
	_Static_assert(sizeof(hiredis) == LIB_COUNT(names) * sizeof(void *),
	    "a name for each function");

	return lib_once(&once, &part, 1, (void **)&hiredis);
#else
	struct hiredis_api *t = &hiredis;

	HIREDIS_FUNCS(LIB_LINKED)
	return NULL;
#endif
}

/* hiredis's own reply objects, but an array whose header says more than
 * REPLY_ELEMENTS_MAX is refused before its elements are allocated (privdata:
 * the connection). */
static redisReplyObjectFunctions bounded;
static void	*(*unbounded_array)(const redisReadTask *, int);

static void *
bounded_array(const redisReadTask *task, int elements)
{
	if (elements > REPLY_ELEMENTS_MAX) {
		((struct redis_conn *)task->privdata)->too_many = true;
		return NULL;
	}
	return unbounded_array(task, elements);
}

redisReader *
new_reader(struct redis_conn *r)
{
	redisReader *rd = hiredis.redisReaderCreate();

	if (rd == NULL)
		return NULL;
	if (unbounded_array == NULL) {
		bounded = *rd->fn;
		unbounded_array = bounded.createArray;
		bounded.createArray = bounded_array;
	}
	rd->fn = &bounded;
	rd->privdata = r;
	r->too_many = false;
	return rd;
}

void
redisconn_build(struct redis_cmd *q, int argc, ...)
{
	va_list ap;

	va_start(ap, argc);
	q->argc = argc;
	q->key = 0;
	for (int i = 0; i < argc; i++) {
		q->argv[i] = va_arg(ap, const char *);
		q->len[i] = strlen(q->argv[i]);
	}
	va_end(ap);
}

bool
redisconn_is_error(const redisReply *rep, const char *words)
{
	return rep->type == REDIS_REPLY_ERROR &&
	    strncmp(rep->str, words, strlen(words)) == 0;
}

int
format_all(struct redis_cmd *all, size_t k_all, char **out,
    size_t *len)
{
	sds one;
	int k;

	*out = NULL;
	*len = 0;
	for (size_t i = 0; i < k_all; i++) {
		char *more = NULL;

		/* The sds form: hiredis formats its lengths itself, where
		 * the other calls sprintf for each. */
		k = hiredis.redisFormatSdsCommandArgv(&one, all[i].argc,
		    all[i].argv, all[i].len);
		if (k < 0 || (more = realloc(*out, *len + (size_t)k)) == NULL) {
			if (k >= 0)
				hiredis.redisFreeSdsCommand(one);
			if (*out != NULL)
				explicit_bzero(*out, *len);
			free(*out);
			*out = NULL;
			return -1;
		}
		*out = more;
		memcpy(*out + *len, one, (size_t)k);
		*len += (size_t)k;
		explicit_bzero(one, (size_t)k);
		hiredis.redisFreeSdsCommand(one);
	}
	return 0;
}

void
redisconn_free_reply(redisReply *rep)
{
	hiredis.freeReplyObject(rep);
}
