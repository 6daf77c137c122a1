/* Shared state: the budget, the breaker and the not-before time. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "duration.h"
#include "number.h"
#include "share.h"

/* The smaller of two numbers of tokens, which are never NaN. */
static inline double
least(double a, double b)
{
	return a < b ? a : b;
}

static const char *const breakers[] = {
	[BREAKER_CLOSED] = "closed", [BREAKER_OPEN] = "open",
	[BREAKER_HALF_OPEN] = "half-open",
};

const char *
breaker_name(enum breaker b)
{
	return breakers[b];
}

void
share_fresh(struct share_state *s, const struct share_rules *r, int64_t now)
{
	*s = (struct share_state){ .tokens = r->max };
	for (int i = 0; i < PART_COUNT; i++)
		s->changed[i] = now;
}

static void
set_breaker(struct share_state *s, enum breaker b, int64_t now)
{
	s->breaker = b;
	s->probe = 0;
	s->probe_until = 0;
	s->changed[PART_BREAKER] = now;
}

static void
hold(int64_t *t, int64_t now, int64_t most)
{
	if (*t > now && *t - now > most)
		*t = now + most;
}

/* The breaker's part of the gate: wait, give up, or GATE_GO to go on. */
static struct gate_answer
breaker_gate(struct share_state *s, const struct share_rules *r, uint64_t me,
    int64_t now)
{
	if (s->breaker == BREAKER_OPEN && now < s->open_until)
		return r->give_up ? (struct gate_answer){ GATE_GIVE_UP,
		    WAIT_OPEN, 0 } : (struct gate_answer){ GATE_WAIT,
		    WAIT_OPEN, s->open_until };
	if (s->breaker == BREAKER_OPEN)
		set_breaker(s, BREAKER_HALF_OPEN, now);
	if (s->breaker == BREAKER_HALF_OPEN && s->probe != 0 &&
	    s->probe != me && now < s->probe_until)
		return r->give_up ? (struct gate_answer){ GATE_GIVE_UP,
		    WAIT_PROBE, 0 } : (struct gate_answer){ GATE_WAIT,
		    WAIT_PROBE, s->probe_until < now + SHARE_POLL ?
		    s->probe_until : now + SHARE_POLL };
	return (struct gate_answer){ GATE_GO, WAIT_NONE, 0 };
}

static int64_t
later(int64_t a, int64_t b)
{
	return a > b ? a : b;
}

/*
 * A state whose every part is a window old, with nothing ahead of it, is
 * dropped.  A change time past now (a clock set back) counts as now, and
 * is kept so; what lies ahead counts only as far as the member's own
 * rules allow.
 */
bool
share_expire(struct share_state *s, const struct share_rules *r, int64_t now)
{
	int64_t last = 0;

	for (int i = 0; i < PART_COUNT; i++) {
		if (s->changed[i] > now)
			s->changed[i] = now;
		last = later(last, s->changed[i]);
	}
	hold(&s->not_before, now, SHARE_NOT_BEFORE_MAX);
	last = later(last, s->not_before);
	if (r->trip > 0) {
		hold(&s->open_until, now, r->cooldown);
		hold(&s->probe_until, now, r->lease);
	}
	last = later(last, later(s->open_until, s->probe_until));
	if (now - last < r->window)
		return false;
	share_fresh(s, r, now);
	return true;
}

/*
 * Tokens come back continuously and are compared to a millionth, so that
 * sums of R such as five 0.2s make a whole token; share.lua does the same
 * operations in the same order, so both stores come to the same double.
 */
static double
millionths(double t)
{
	return floor(t * 1e6 + 0.5);
}

double
share_tokens(const struct share_state *s, const struct share_rules *r,
    int64_t now)
{
	const int64_t since = now - s->changed[PART_TOKENS];
	const double t = least(s->tokens, r->max);

	if (since <= 0)
		return t;
	if (since >= r->window)
		return r->max;
	return least(r->max, t + r->max * ((double)since / (double)r->window));
}

bool
share_whole(double tokens)
{
	return millionths(tokens) >= 1e6;
}

double
share_shown(double tokens)
{
	return floor(millionths(tokens) / 1000) / 1000;
}

struct gate_answer
share_gate(struct share_state *s, const struct share_rules *r, uint64_t me,
    int64_t now)
{
	struct gate_answer a;

	/* Times held to the member's rules too. */
	(void)share_expire(s, r, now);
	if (r->trip > 0 && (a = breaker_gate(s, r, me, now)).what != GATE_GO)
		return a;
	if (now < s->not_before)
		return (struct gate_answer){ GATE_WAIT, WAIT_NOT_BEFORE,
		    s->not_before };
	if (r->trip > 0 && s->breaker == BREAKER_HALF_OPEN) {
		s->probe = me;
		s->probe_until = now + r->lease;
		s->changed[PART_BREAKER] = now;
		return (struct gate_answer){ GATE_PROBE, WAIT_NONE, 0 };
	}
	return (struct gate_answer){ GATE_GO, WAIT_NONE, 0 };
}

struct record_answer
share_record(struct share_state *s, const struct share_rules *r, uint64_t me,
    bool success, bool retry, int64_t not_before, int64_t now)
{
	struct record_answer a = { false, false, false };
	bool probe;

	(void)share_expire(s, r, now);
	probe = s->breaker == BREAKER_HALF_OPEN && s->probe == me;
	/* Runs that give the name another N meet in [0, N]. */
	s->tokens = share_tokens(s, r, now);
	if (success)
		s->tokens = least(r->max, s->tokens + r->ratio);
	else if (retry && share_whole(s->tokens)) {
		s->tokens = s->tokens > 1 ? s->tokens - 1 : 0;
		a.retry = true;
	}
	s->changed[PART_TOKENS] = now;
	if (success)
		s->failures = 0;
	else if (s->failures < UINT64_MAX)
		s->failures++;
	s->changed[PART_FAILURES] = now;
	if (probe && success) {
		set_breaker(s, BREAKER_CLOSED, now);
		a.closed = true;
	} else if (r->trip > 0 && !success && (probe ||
	    (s->breaker == BREAKER_CLOSED && s->failures >= r->trip))) {
		set_breaker(s, BREAKER_OPEN, now);
		s->open_until = now + r->cooldown;
		a.opened = true;
	}
	if (not_before > s->not_before) {
		s->not_before = not_before;
		s->changed[PART_NOT_BEFORE] = now;
	}
	return a;
}

struct record_answer
share_hedge(struct share_state *s, const struct share_rules *r, uint64_t me,
    int64_t now)
{
	struct record_answer a = { false, false, false };

	(void)me;
	(void)share_expire(s, r, now);
	s->tokens = share_tokens(s, r, now);
	if (share_whole(s->tokens)) {
		s->tokens = s->tokens > 1 ? s->tokens - 1 : 0;
		a.retry = true;
	}
	s->changed[PART_TOKENS] = now;
	return a;
}

void
share_leave(struct share_state *s, uint64_t me, int64_t now)
{
	if (s->breaker == BREAKER_HALF_OPEN && s->probe == me) {
		s->probe = 0;
		s->probe_until = 0;
		s->changed[PART_BREAKER] = now;
	}
}

/*
 * The text, one "key value" a line after a first line that names the
 * format: small, readable with cat, and checked whole when read back.
 */
#define MAGIC	"retry-share 1"

size_t
share_format(const struct share_state *s, char *buf, size_t sz)
{
	const int n = snprintf(buf, sz, MAGIC "\n"
	    "tokens %.17g\n"
	    "failures %" PRIu64 "\n"
	    "breaker %s\n"
	    "open-until %" PRId64 "\n"
	    "probe %" PRIu64 " %" PRId64 "\n"
	    "not-before %" PRId64 "\n"
	    "changed %" PRId64 " %" PRId64 " %" PRId64 " %" PRId64 "\n",
	    s->tokens, s->failures, breakers[s->breaker], s->open_until,
	    s->probe, s->probe_until, s->not_before,
	    s->changed[PART_TOKENS], s->changed[PART_FAILURES],
	    s->changed[PART_BREAKER], s->changed[PART_NOT_BEFORE]);

	return n < 0 || (size_t)n >= sz ? 0 : (size_t)n;
}

/* One line of the text, "key v1 v2 ...", into up to 4 words. */
static const char *
line(const char **p, const char *end, const char *key, char words[4][32],
    int want)
{
	const char *nl = memchr(*p, '\n', (size_t)(end - *p)), *s = *p;
	const size_t klen = strlen(key);
	int n = 0;

	if (nl == NULL)
		return "a line is cut short";
	if ((size_t)(nl - s) <= klen || strncmp(s, key, klen) != 0 ||
	    s[klen] != ' ')
		return "a line is missing or out of order";
	for (s += klen; s < nl; ) {
		size_t len;

		if (*s++ != ' ' || n == want)
			return "a line has too many values";
		len = strcspn(s, " \n");
		if (len == 0 || len >= sizeof(words[0]))
			return "a value is empty or too long";
		memcpy(words[n], s, len);
		words[n++][len] = '\0';
		s += len;
	}
	if (n != want)
		return "a line has too few values";
	*p = nl + 1;
	return NULL;
}

static const char *
integer(const char *w, int64_t lo, int64_t *out)
{
	char *end;
	long long v;

	errno = 0;
	if (!isdigit((unsigned char)*w) && *w != '-')
		return "a value is not a number";
	v = strtoll(w, &end, 10);
	if (*end != '\0' || errno == ERANGE || v < lo)
		return "a value is not a number in range";
	*out = v;
	return NULL;
}

static const char *
unsigned_integer(const char *w, uint64_t *out)
{
	char *end;

	errno = 0;
	if (!isdigit((unsigned char)*w))
		return "a value is not a number";
	*out = strtoull(w, &end, 10);
	if (*end != '\0' || errno == ERANGE)
		return "a value is not a number in range";
	return NULL;
}

const char *
share_parse(const char *text, size_t len, struct share_state *out)
{
	const char *p = text, *end = text + len, *why;
	struct share_state s = { 0 };
	char w[4][32], *e;

	if (len < sizeof(MAGIC) || memcmp(text, MAGIC "\n", sizeof(MAGIC))
	    != 0)
		return "it is not retry's shared state";
	p += sizeof(MAGIC);
	if ((why = line(&p, end, "tokens", w, 1)) != NULL)
		return why;
	errno = 0;
	s.tokens = strtod(w[0], &e);
	if (*e != '\0' || errno == ERANGE || !isfinite(s.tokens) ||
	    s.tokens < 0 || !(isdigit((unsigned char)w[0][0])))
		return "the tokens are not a number";
	if ((why = line(&p, end, "failures", w, 1)) != NULL ||
	    (why = unsigned_integer(w[0], &s.failures)) != NULL)
		return why;
	if ((why = line(&p, end, "breaker", w, 1)) != NULL)
		return why;
	for (s.breaker = BREAKER_CLOSED; s.breaker <= BREAKER_HALF_OPEN;
	    s.breaker++)
		if (strcmp(w[0], breakers[s.breaker]) == 0)
			break;
	if (s.breaker > BREAKER_HALF_OPEN)
		return "the breaker is neither closed, open nor half-open";
	if ((why = line(&p, end, "open-until", w, 1)) != NULL ||
	    (why = integer(w[0], 0, &s.open_until)) != NULL)
		return why;
	if ((why = line(&p, end, "probe", w, 2)) != NULL ||
	    (why = unsigned_integer(w[0], &s.probe)) != NULL ||
	    (why = integer(w[1], 0, &s.probe_until)) != NULL)
		return why;
	if ((why = line(&p, end, "not-before", w, 1)) != NULL ||
	    (why = integer(w[0], 0, &s.not_before)) != NULL)
		return why;
	if ((why = line(&p, end, "changed", w, 4)) != NULL)
		return why;
	for (int i = 0; i < PART_COUNT; i++)
		if ((why = integer(w[i], 0, &s.changed[i])) != NULL)
			return why;
	if (p != end)
		return "there is more after the last line";
	*out = s;
	return NULL;
}

const char *
share_name_check(const char *name)
{
	const size_t len = strlen(name);

	if (len == 0 || len > SHARE_NAME_MAX)
		return "give 1 to 64 characters";
	if (strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "0123456789._-") != len)
		return "only letters, digits, '.', '_' and '-'";
	if (name[0] == '.' || name[0] == '-')
		return "a name starts with a letter, a digit or '_'";
	return NULL;
}

/* A number from lo to hi, all of [s, s + len). */
static bool
number(const char *s, size_t len, double lo, double hi, double *out)
{
	return number_parse(s, len, out) && *out >= lo && *out <= hi;
}

const char *
share_budget_parse(const char *s, double *max, double *ratio)
{
	const char *colon = strchr(s, ':');
	double n, r = SHARE_RATIO;

	if (!number(s, colon != NULL ? (size_t)(colon - s) : strlen(s), 1, 1e6,
	    &n))
		return "N must be a number of tokens from 1 to 1000000";
	if (colon != NULL && !number(colon + 1, strlen(colon + 1), 0, n, &r))
		return "R must be a number from 0 to N";
	/* In thousandths: so every store counts alike. */
	*max = (double)sat_scale(1000, n) / 1000;
	*ratio = (double)sat_scale(1000, r) / 1000;
	return NULL;
}

const char *
share_breaker_parse(const char *s, unsigned long *trip, int64_t *cooldown)
{
	const char *colon = strchr(s, ':'), *why;
	double n;

	if (colon == NULL)
		return "give N:COOLDOWN, as in 5:30s";
	if (!number(s, (size_t)(colon - s), 1, 1e6, &n) ||
	    n != floor(n))
		return "N must be a whole number from 1 to 1000000";
	if ((why = duration_parse(colon + 1, cooldown)) != NULL)
		return why;
	if (*cooldown <= 0)
		return "the cooldown must be longer than 0";
	*trip = (unsigned long)n;
	return NULL;
}
