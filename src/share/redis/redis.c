/* The Redis store of shared state. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hiredis/hiredis.h>

#include "redis.h"
#include "share_lua.h"

/* The names that `share status` lists, and the pages of SCAN that it
 * reads for them, at most. */
#define NAMES_MAX	100000
#define PAGES_MAX	100000

/* Each decision as the script names it. */
static const char *const ops[] = {
	[SHARE_GATE] = "gate",
	[SHARE_RECORD] = "record",
	[SHARE_LEAVE] = "leave",
	[SHARE_HEDGE] = "hedge",
};

/* The fields of a state's hash, in the order of share_parse's text; a
 * time is in us, the others as share_parse reads them. */
static const struct {
	const char	*name;
	bool		 time;
} fields[] = {
	{ "tokens", false }, { "failures", false }, { "breaker", false },
	{ "open-until", true }, { "probe", false }, { "probe-until", true },
	{ "not-before", true }, { "tokens-changed", true },
	{ "failures-changed", true }, { "breaker-changed", true },
	{ "not-before-changed", true },
};

#define FIELDS		(sizeof(fields) / sizeof(fields[0]))
/* A field's value, at most: a double's %.17g, or a time in us. */
#define FIELD_MAX	24

const char *
redis_absent(void)
{
	return NULL;
}

void
redis_key(const char *name, char *key, size_t sz)
{
	snprintf(key, sz, REDIS_KEY_PREFIX "%s" REDIS_KEY_SUFFIX, name);
}

/* An integer of an array reply: false when it is not one. */
static bool
integer_at(const redisReply *rep, size_t i, long long *v)
{
	if (rep->type != REDIS_REPLY_ARRAY || i >= rep->elements ||
	    rep->element[i]->type != REDIS_REPLY_INTEGER)
		return false;
	*v = rep->element[i]->integer;
	return true;
}

/* The script's answer, read as share.c's. */
static bool
parse_answer(const redisReply *rep, enum share_op op,
    const struct share_rules *rules, struct share_answer *a)
{
	int64_t most = rules->cooldown > rules->lease ? rules->cooldown :
	    rules->lease;

	/* The longest wait the rules allow, in us. */
	if (most < SHARE_NOT_BEFORE_MAX)
		most = SHARE_NOT_BEFORE_MAX;
	most /= 1000;
	/* The integers that share.lua answers: gate {what, why, wait,
	 * corrupt}, record and hedge {retry, opened, closed, tokens,
	 * corrupt}, leave {corrupt}. */
	long long v[5];
	const size_t n = op == SHARE_GATE ? 4 : op == SHARE_RECORD ||
	    op == SHARE_HEDGE ? 5 : 1;

	if (rep->type != REDIS_REPLY_ARRAY || rep->elements != n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!integer_at(rep, i, &v[i]))
			return false;
	a->corrupt = v[n - 1] != 0;
	if (op == SHARE_GATE) {
		if (v[0] < GATE_GO || v[0] > GATE_GIVE_UP || v[1] < WAIT_NONE ||
		    v[1] > WAIT_NOT_BEFORE || v[2] < 0 || v[2] > most ||
		    (v[0] == GATE_WAIT && v[2] == 0))
			return false;
		a->gate = (struct gate_answer){ (enum gate)v[0],
		    (enum gate_why)v[1], v[2] * 1000 };
	} else if (op == SHARE_RECORD || op == SHARE_HEDGE) {
		a->record = (struct record_answer){ v[0] != 0, v[1] != 0,
		    v[2] != 0 };
		a->tokens = (double)v[3] / 1000;
	}
	return true;
}

/* The words of a decision that a run's name, rules and member never
 * change, formatted at its first decision, not at each: again only when
 * they differ from the last decision's (a copy of each is kept, since
 * the same memory may hold others). */
struct fixed {
	bool		 made;
	char		 name[REDIS_KEY_MAX];
	struct share_rules rules;	/* those of its members formatted */
	uint64_t	 me;
	char		 key[REDIS_KEY_MAX], id[24], max[24], ratio[24],
			 trip[24], cool[24], lease[24], window[24];
};

static bool
same_words(const struct share_rules *a, const struct share_rules *b)
{
	return a->max == b->max && a->ratio == b->ratio && a->trip == b->trip &&
	    a->cooldown == b->cooldown && a->lease == b->lease &&
	    a->window == b->window;
}

static const struct fixed *
fixed_words(const char *name, const struct share_rules *rules, uint64_t me)
{
	static struct fixed f;

	if (f.made && f.me == me && strcmp(f.name, name) == 0 &&
	    same_words(&f.rules, rules))
		return &f;
	f.made = strlen(name) < sizeof(f.name);
	snprintf(f.name, sizeof(f.name), "%s", name);
	f.rules = *rules;
	f.me = me;
	redis_key(name, f.key, sizeof(f.key));
	snprintf(f.id, sizeof(f.id), "%" PRIu64, me);
	snprintf(f.max, sizeof(f.max), "%.0f", rules->max * 1000);
	snprintf(f.ratio, sizeof(f.ratio), "%.0f", rules->ratio * 1000);
	snprintf(f.trip, sizeof(f.trip), "%lu", rules->trip);
	snprintf(f.cool, sizeof(f.cool), "%" PRId64, rules->cooldown / 1000);
	snprintf(f.lease, sizeof(f.lease), "%" PRId64, rules->lease / 1000);
	snprintf(f.window, sizeof(f.window), "%" PRId64,
	    rules->window / 1000);
	return &f;
}

int
redis_decide(struct redis_conn *r, enum share_op op, const char *name,
    const struct share_rules *rules, uint64_t me, bool success, bool retry,
    int64_t asked, int64_t now_us, struct share_answer *a, char *err,
    size_t sz)
{
	const struct fixed *f = fixed_words(name, rules, me);
	char nb[24], now[24];
	struct redis_cmd q;
	redisReply *rep;
	int rc = 0;

	snprintf(nb, sizeof(nb), "%" PRId64, asked >= 0 ? asked / 1000 : -1);
	snprintf(now, sizeof(now), "%" PRId64, now_us);
	redisconn_build(&q, 17, "EVALSHA", SHARE_LUA_SHA1, "1", f->key,
	    ops[op], f->id, f->max, f->ratio, f->trip, f->cool, f->lease,
	    rules->give_up ? "1" : "0", success ? "1" : "0", nb,
	    now_us >= 0 ? now : "", retry ? "1" : "0", f->window);
	q.key = 3;
	r->ending = op == SHARE_LEAVE;
	rep = redisconn_ask(r, &q, err, sz);
	if (rep != NULL && redisconn_is_error(rep, "NOSCRIPT")) {
		redisconn_free_reply(rep);
		q.argv[0] = "EVAL";
		q.len[0] = strlen(q.argv[0]);
		q.argv[1] = share_lua;
		q.len[1] = sizeof(share_lua);
		rep = redisconn_ask(r, &q, err, sz);
	}
	r->ending = false;
	if (rep == NULL)
		return -1;
	if (rep->type == REDIS_REPLY_ERROR)
		rc = redisconn_fail_reply(r, rep, err, sz);
	else if (!parse_answer(rep, op, rules, a))
		rc = redisconn_fail(r, err, sz, "the script's answer is not "
		    "one of its own");
	redisconn_free_reply(rep);
	return rc;
}

/* A field of HGETALL's reply, or NULL. */
static const char *
field(const redisReply *rep, const char *name)
{
	for (size_t i = 0; i + 1 < rep->elements; i += 2)
		if (rep->element[i]->type == REDIS_REPLY_STRING &&
		    rep->element[i + 1]->type == REDIS_REPLY_STRING &&
		    strcmp(rep->element[i]->str, name) == 0)
			return rep->element[i + 1]->str;
	return NULL;
}

/* The hash as the text that share_parse reads, times in ns. */
static bool
parse_state(const redisReply *rep, struct share_state *s)
{
	char text[SHARE_TEXT_MAX], v[FIELDS][FIELD_MAX + 4];

	for (size_t i = 0; i < FIELDS; i++) {
		const char *got = field(rep, fields[i].name);

		if (got == NULL || strlen(got) > FIELD_MAX)
			return false;
		/* us to ns: three more digits, "0" stays "0". */
		snprintf(v[i], sizeof(v[i]), "%s%s", got, !fields[i].time ||
		    strcmp(got, "0") == 0 ? "" : "000");
	}
	snprintf(text, sizeof(text), "retry-share 1\ntokens %s\n"
	    "failures %s\nbreaker %s\nopen-until %s\nprobe %s %s\n"
	    "not-before %s\nchanged %s %s %s %s\n", v[0], v[1], v[2], v[3],
	    v[4], v[5], v[6], v[7], v[8], v[9], v[10]);
	return share_parse(text, strlen(text), s) == NULL;
}

/* VERB retry:NAME:state, and its reply if it is of the type wanted;
 * else NULL, with why in err (an error reply is one). */
static redisReply *
ask_key(struct redis_conn *r, const char *verb, const char *name, int want,
    char *err, size_t sz)
{
	char key[REDIS_KEY_MAX];
	struct redis_cmd q;
	redisReply *rep;

	redis_key(name, key, sizeof(key));
	redisconn_build(&q, 2, verb, key);
	q.key = 1;
	if ((rep = redisconn_ask(r, &q, err, sz)) == NULL || rep->type == want)
		return rep;
	if (rep->type == REDIS_REPLY_ERROR)
		redisconn_fail_reply(r, rep, err, sz);
	else
		redisconn_fail(r, err, sz, "%s: not the answer of a Redis "
		    "server", verb);
	redisconn_free_reply(rep);
	return NULL;
}

int
redis_read(struct redis_conn *r, const char *name, struct share_state *s,
    char *err, size_t sz)
{
	redisReply *rep = ask_key(r, "HGETALL", name, REDIS_REPLY_ARRAY, err,
	    sz);
	char key[REDIS_KEY_MAX];
	int rc = 0;

	if (rep == NULL)
		return -1;
	if (rep->elements == 0)
		rc = 1;
	else if (!parse_state(rep, s)) {
		redis_key(name, key, sizeof(key));
		rc = redisconn_fail(r, err, sz, "%s is not a shared state",
		    key);
	}
	redisconn_free_reply(rep);
	return rc;
}

int
redis_reset(struct redis_conn *r, const char *name, char *err, size_t sz)
{
	redisReply *rep = ask_key(r, "DEL", name, REDIS_REPLY_INTEGER, err,
	    sz);

	if (rep == NULL)
		return -1;
	redisconn_free_reply(rep);
	return 0;
}

static int
by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names of one page of SCAN's keys, added to *names. */
static bool
add_names(const redisReply *keys, char ***names, size_t *n, size_t *cap)
{
	const size_t around = REDIS_KEY_PREFIX_LEN + REDIS_KEY_SUFFIX_LEN;

	for (size_t i = 0; i < keys->elements; i++) {
		const redisReply *k = keys->element[i];
		char **more;
		size_t len;

		if (k->type != REDIS_REPLY_STRING)
			return false;
		len = k->len;
		if (len <= around || len - around > SHARE_NAME_MAX)
			continue;
		if (*n >= NAMES_MAX)
			return false;
		if (*n == *cap) {
			if ((more = reallocarray(*names, *cap * 2 + 16,
			    sizeof(**names))) == NULL)
				return false;
			*names = more;
			*cap = *cap * 2 + 16;
		}
		if (((*names)[*n] = strndup(k->str + REDIS_KEY_PREFIX_LEN,
		    len - around)) == NULL)
			return false;
		if (share_name_check((*names)[*n]) != NULL)
			free((*names)[*n]);
		else
			(*n)++;
	}
	return true;
}

/* The names of the node's keys, added to *names; *pages counts the pages
 * of SCAN that all nodes gave.  0, or -1 with why in err (-2: the node
 * cannot be reached, or stopped answering). */
static int
scan_node(struct redis_conn *r, size_t node, char ***names, size_t *n,
    size_t *cap, size_t *pages, char *err, size_t sz)
{
	char cursor[32] = "0";
	struct redis_cmd q;
	redisReply *rep;
	int rc = 0;

	do {
		if (++*pages > PAGES_MAX)
			return redisconn_fail(r, err, sz, "SCAN: more than %d "
			    "pages", PAGES_MAX);
		redisconn_build(&q, 6, "SCAN", cursor, "MATCH",
		    REDIS_KEY_PREFIX "*" REDIS_KEY_SUFFIX, "COUNT", "1000");
		if ((rep = redisconn_ask_node(r, node, &q, err, sz)) == NULL)
			return -2;
		if (rep->type == REDIS_REPLY_ERROR)
			rc = redisconn_fail_reply(r, rep, err, sz);
		else if (rep->type != REDIS_REPLY_ARRAY || rep->elements != 2 ||
		    rep->element[0]->type != REDIS_REPLY_STRING ||
		    rep->element[0]->len >= sizeof(cursor) ||
		    rep->element[1]->type != REDIS_REPLY_ARRAY)
			rc = redisconn_fail(r, err, sz, "SCAN: not the answer "
			    "of a Redis server");
		else if (!add_names(rep->element[1], names, n, cap))
			rc = *n >= NAMES_MAX ? redisconn_fail(r, err, sz,
			    "SCAN: more than %d names", NAMES_MAX) :
			    redisconn_fail(r, err, sz, "%s", strerror(ENOMEM));
		else
			memcpy(cursor, rep->element[0]->str,
			    rep->element[0]->len + 1);
		redisconn_free_reply(rep);
	} while (rc == 0 && strcmp(cursor, "0") != 0);
	return rc;
}

int
redis_names(struct redis_conn *r, char ***names, size_t *n,
    void (*fault)(void *, const char *), void *arg, char *err, size_t sz)
{
	size_t cap = 0, kept = 0, pages = 0, *masters, count;
	bool cluster;
	int rc;

	*names = NULL;
	*n = 0;
	/* A cluster's names are on its masters, each SCANned whole; one
	 * that cannot be reached is said, and the others are listed. */
	if ((rc = redisconn_masters(r, &masters, &count, err, sz)) == 0) {
		cluster = r->slots != NULL;
		for (size_t i = 0; i < count && rc == 0; i++) {
			/* Past the command's deadline: said, not asked. */
			if (cluster && redisconn_late(r, masters[i], err,
			    sz)) {
				fault(arg, err);
				continue;
			}
			rc = scan_node(r, masters[i], names, n, &cap, &pages,
			    err, sz);
			if (rc == -2 && cluster) {
				fault(arg, err);
				rc = 0;
			}
		}
	}
	if (rc == -2)
		rc = -1;
	free(masters);
	/* SCAN may give a key twice. */
	if (*n > 1)
		qsort(*names, *n, sizeof(**names), by_name);
	for (size_t i = 0; i < *n; i++) {
		if (kept > 0 && strcmp((*names)[kept - 1], (*names)[i]) == 0)
			free((*names)[i]);
		else
			(*names)[kept++] = (*names)[i];
	}
	*n = kept;
	if (rc == -1) {
		for (size_t i = 0; i < *n; i++)
			free((*names)[i]);
		free(*names);
		*names = NULL;
		*n = 0;
	}
	return rc;
}
