/*
 * The rows of share_rows.h replayed through the Redis store, its script
 * run by a real server at the rows' times: the answers and the state must
 * be those of share.c.  Usage: replay URL.  Prints a TAP "not ok" line for
 * each row that differs, then "N passed, N failed".
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "duration.h"
#include "redis.h"
#include "../unit/share_rows.h"

#define S	NS_PER_SEC
#define NAME	"replay-rules"

static struct redis_conn store;

static void
die(const char *what, const char *why)
{
	fprintf(stderr, "replay: %s: %s\n", what, why);
	exit(2);
}

/* What a step answered, in the row's words. */
static void
step(void *arg, const struct share_rules *r, const char *tok, char *out,
    size_t sz)
{
	static const char *const whys[] = { "", "open", "probe", "nb" };
	static const enum share_op ops[] = { ['g'] = SHARE_GATE,
	    ['f'] = SHARE_RECORD, ['F'] = SHARE_RECORD, ['s'] = SHARE_RECORD,
	    ['l'] = SHARE_LEAVE };
	const char verb = tok[0];
	char *end, err[1024];
	const uint64_t me = strtoull(tok + 1, &end, 10);
	const double t = strtod(end + 1, &end);
	const double more = *end == '+' ? strtod(end + 1, NULL) : 0;
	const int64_t now = llround(t * S);
	struct share_answer a;

	if (redis_decide(&store, ops[(unsigned char)verb], NAME, r, me,
	    verb == 's', verb == 'f', more > 0 ? llround(more * S) : -1,
	    now / 1000, &a,
	    err, sizeof(err)) == -1)
		die(tok, err);
	if (verb == 'g' && a.gate.what == GATE_WAIT)
		snprintf(out, sz, "wait-%s@%g", whys[a.gate.why],
		    (double)(now + a.gate.until) / S);
	else if (verb == 'g')
		snprintf(out, sz, "%s", a.gate.what == GATE_GO ? "go" :
		    a.gate.what == GATE_PROBE ? "probe" : "giveup");
	else if (verb == 'l')
		snprintf(out, sz, "-");
	else
		snprintf(out, sz, "%s%s", a.record.retry ? "retry" : "stop",
		    a.record.opened ? "+opened" : a.record.closed ?
		    "+closed" : "");
}

int
main(int argc, char **argv)
{
	unsigned long passed = 0, failed = 0;
	struct store_url url;
	const char *why;

	if (argc != 2)
		die("usage", "replay URL");
	if ((why = storeurl_parse(argv[1], true, &url)) != NULL)
		die(argv[1], why);
	redisconn_open(&store, &url, 5 * S, 5 * S);
	for (size_t i = 0; i < sizeof(share_rows) / sizeof(share_rows[0]);
	    i++) {
		const struct share_row *w = &share_rows[i];
		const struct share_rules r = share_row_rules(w);
		struct share_state st;
		char got[512], err[1024];

		if (redis_reset(&store, NAME, err, sizeof(err)) == -1)
			die("reset", err);
		share_row_steps(w, &r, step, NULL, got, sizeof(got));
		if (redis_read(&store, NAME, &st, err, sizeof(err)) != 0)
			die("read", err);
		snprintf(got + strlen(got), sizeof(got) - strlen(got),
		    "; %g %" PRIu64 " %s", st.tokens, st.failures,
		    breaker_name(st.breaker));
		if (strcmp(got, w->want) == 0)
			passed++;
		else {
			failed++;
			printf("not ok %lu redis: %s\n# want '%s', got '%s'\n",
			    passed + failed, w->name, w->want, got);
		}
	}
	(void)redis_reset(&store, NAME, (char[256]){ 0 }, 256);
	redisconn_close(&store);
	printf("%lu passed, %lu failed\n", passed, failed);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
