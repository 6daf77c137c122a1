/*
 * The rows of sketch_rows.h replayed through sketch.lua, run by a real
 * server through the Redis store's connection: each row's text, and
 * whether its first was refused, must be those of sketch.c.  Usage:
 * sketchreplay URL.  Prints a TAP "not ok" line for each row that
 * differs, then "N passed, N failed".
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hiredis/hiredis.h>

#include "duration.h"
#include "redisconn.h"
#include "sketch_lua.h"
#include "../unit/sketch_rows.h"

#define S	NS_PER_SEC
/* Durations sent with one EVAL: the words left after EVAL, the script,
 * its 0 keys and the text. */
#define BATCH	(REDIS_WORDS_MAX - 4)
#define VALUES_MAX	1024

static struct redis_conn store;

struct values {
	char	 ns[VALUES_MAX][24];
	size_t	 n;
};

static void
die(const char *what, const char *why)
{
	fprintf(stderr, "sketchreplay: %s: %s\n", what, why);
	exit(2);
}

static void
collect(void *arg, int64_t ns)
{
	struct values *v = arg;

	if (v->n == VALUES_MAX)
		die("a row", "too many durations");
	snprintf(v->ns[v->n++], sizeof(v->ns[0]), "%" PRId64, ns);
}

/* The script's text after the durations from i, BATCH at most, are
 * added to text; whether it refused text. */
static bool
batch(char *text, size_t sz, const struct values *v, size_t i)
{
	struct redis_cmd q = { .argc = 4 };
	struct redisReply *rep;
	char err[1024];
	bool refused;

	q.argv[0] = "EVAL";
	q.argv[1] = sketch_lua;
	q.len[1] = sizeof(sketch_lua);
	q.argv[2] = "0";
	q.argv[3] = text;
	for (; i < v->n && q.argc < REDIS_WORDS_MAX; i++)
		q.argv[q.argc++] = v->ns[i];
	for (int k = 0; k < q.argc; k++)
		if (k != 1)
			q.len[k] = strlen(q.argv[k]);
	if ((rep = redisconn_ask(&store, &q, err, sizeof(err))) == NULL)
		die("EVAL", err);
	if (rep->type == REDIS_REPLY_ERROR)
		die("the script", rep->str);
	if (rep->type != REDIS_REPLY_ARRAY || rep->elements != 2 ||
	    rep->element[0]->type != REDIS_REPLY_STRING ||
	    rep->element[1]->type != REDIS_REPLY_INTEGER ||
	    rep->element[0]->len >= sz)
		die("the script", "an answer not its own");
	memcpy(text, rep->element[0]->str, rep->element[0]->len);
	text[rep->element[0]->len] = '\0';
	refused = rep->element[1]->integer != 0;
	redisconn_free_reply(rep);
	return refused;
}

int
main(int argc, char **argv)
{
	static struct values v;
	unsigned long passed = 0, failed = 0;
	struct store_url url;
	const char *why;

	if (argc != 2)
		die("usage", "sketchreplay URL");
	if ((why = storeurl_parse(argv[1], true, &url)) != NULL)
		die(argv[1], why);
	redisconn_open(&store, &url, 5 * S, 5 * S);
	for (size_t i = 0; i < sizeof(sketch_rows) / sizeof(sketch_rows[0]);
	    i++) {
		const struct sketch_row *w = &sketch_rows[i];
		char text[SKETCH_TEXT_MAX * 2];
		bool refused = false;

		v.n = 0;
		sketch_row_values(w->values, collect, &v);
		snprintf(text, sizeof(text), "%s", w->from);
		for (size_t k = 0; k < v.n; k += BATCH)
			if (batch(text, sizeof(text), &v, k) && k == 0)
				refused = true;
		if (strcmp(text, w->want) == 0 && refused == w->refused)
			passed++;
		else {
			failed++;
			printf("not ok %lu redis: %s\n# want '%s'%s, got "
			    "'%s'%s\n", passed + failed, w->name, w->want,
			    w->refused ? " (refused)" : "", text,
			    refused ? " (refused)" : "");
		}
	}
	redisconn_close(&store);
	printf("%lu passed, %lu failed\n", passed, failed);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
