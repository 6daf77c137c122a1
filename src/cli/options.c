/* The command line: parsing and validation, driven by the option table. */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stddef.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "duration.h"
#include "lists.h"
#include "number.h"
#include "optable.h"
#include "options.h"
#include "storeurl.h"
#include "suggest.h"

/* The default --max-delay of --exp, --linear, --fib, --decorrelated and
 * --decorrelated-v2 in a run without a limit on attempts, as Kubernetes
 * caps its restarts. */
#define UNLIMITED_CAP	(5 * 60 * NS_PER_SEC)
/* --forever's default --delay-on-success, in seconds. */
#define FOREVER_DELAY_ON_SUCCESS	1.0

struct parse {
	struct config	*cfg;
	char		*err;
	size_t		 errsz;
	const struct opt *strategy;	/* the strategy option given */
	char		*delay;		/* --delay's value, taken in validate */
	const struct opt *last;		/* the last option given, */
	const char	*last_arg;	/* and its value */
	bool		 given[O_VERSION - O_MAX + 1];
};

static int	fail(struct parse *, const struct opt *, const char *, ...)
		    __attribute__((format(printf, 3, 4)));

static int
fail(struct parse *p, const struct opt *o, const char *fmt, ...)
{
	va_list ap;
	int n = 0;

	if (o != NULL)
		n = snprintf(p->err, p->errsz, "--%s: ", o->name);
	if (n < 0 || (size_t)n >= p->errsz)
		return -1;
	va_start(ap, fmt);
	vsnprintf(p->err + n, p->errsz - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

static int
duration(struct parse *p, const struct opt *o, const char *arg, int64_t *out)
{
	const char *why;

	if ((why = duration_parse(arg, out)) != NULL)
		return fail(p, o, "'%s': %s", arg, why);
	return 0;
}

static int
real(struct parse *p, const struct opt *o, const char *arg, double lo,
    double hi, double *out)
{
	double v;

	if (!number_parse(arg, strlen(arg), &v))
		return fail(p, o, "'%s' is not a number", arg);
	if (v < lo || v > hi)
		return fail(p, o, "'%s' is out of range (%g to %g%s%s)", arg,
		    lo, hi, o->data != NULL ? ": " : "",
		    o->data != NULL ? (const char *)o->data : "");
	*out = v;
	return 0;
}

static int
count(struct parse *p, const struct opt *o, const char *arg, long long lo,
    long long hi, long long *out)
{
	const char *why = NULL;
	long long v = 0;

	/* strtonum would skip leading spaces and take a '+'. */
	if (!isdigit((unsigned char)*arg) && *arg != '-')
		why = "invalid";
	else
		v = strtonum(arg, lo, hi, &why);
	if (why != NULL)
		return fail(p, o, "'%s' is %s (give a whole number from %lld "
		    "to %lld)", arg, strcmp(why, "invalid") == 0 ?
		    "not a whole number" : why, lo, hi);
	*out = v;
	return 0;
}

static int
delay_list(struct parse *p, const struct opt *o, const char *arg)
{
	struct config *c = p->cfg;
	const char *s, *next = arg;
	char item[64];
	size_t n = 1, len, i = 0;

	for (const char *t = arg; *t != '\0'; t++)
		n += *t == ',';
	free(c->list);
	if ((c->list = calloc(n, sizeof(*c->list))) == NULL)
		return fail(p, o, "out of memory");
	/* "1, 2, 4" as Debian's retry reads it. */
	while (next != NULL) {
		s = list_item(next, &len, &next);
		if (len == 0)
			return fail(p, o, "item %zu of '%s' is empty", i + 1,
			    arg);
		if (len >= sizeof(item))
			return fail(p, o, "item %zu of '%s' is too long",
			    i + 1, arg);
		memcpy(item, s, len);
		item[len] = '\0';
		if (duration(p, o, item, &c->list[i]) != 0)
			return -1;
		i++;
	}
	c->backoff.list = c->list;
	c->backoff.nlist = n;
	return 0;
}

static int
strategy(struct parse *p, const struct opt *o, enum strategy s)
{
	if (p->strategy != NULL && p->strategy->id != o->id)
		return fail(p, o, "conflicts with --%s (give one strategy)",
		    p->strategy->name);
	p->strategy = o;
	p->cfg->backoff.strategy = s;
	return 0;
}

static int
choose(struct parse *p, const struct opt *o, const char *arg, int *out)
{
	const struct opt_choice *ch = o->data;
	char use[128] = "";

	for (size_t i = 0; i < ch->n; i++)
		if (strcmp(arg, ch->names[i].name) == 0) {
			*out = ch->names[i].value;
			return 0;
		}
	for (size_t i = 0; i < ch->n; i++)
		snprintf(use + strlen(use), sizeof(use) - strlen(use), "%s%s",
		    i == 0 ? "" : i + 1 < ch->n ? ", " : " or ",
		    ch->names[i].name);
	return fail(p, o, "unknown %s '%s' (use %s)", ch->what, arg, use);
}

/* Whether --share-store's spec can be read.  Not inlined: its 9 KiB URL
 * would otherwise sit on the stack of every parse, a page or two that
 * every run would fault in. */
static __attribute__((noinline)) int
store_spec(struct parse *p, const struct opt *o, const char *arg)
{
	struct store_url url;
	const char *why;

	if ((why = storeurl_parse(arg, false, &url)) == NULL)
		return 0;
	return fail(p, o, "'%s': %s", url.has_password ||
	    strchr(arg, '@') != NULL ? "(not shown)" : arg, why);
}

/* The options that no kind describes. */
static int
special(struct parse *p, const struct opt *o, char *arg)
{
	struct config *c = p->cfg;
	struct backoff *b = &c->backoff;
	const char *why;
	char *end;
	long long v = 0;

	switch (o->id) {
	case O_DELAYS:
		return strategy(p, o, S_LIST) || delay_list(p, o, arg);
	case O_DELAY:
		/* Its meaning waits for -a, which may come after it. */
		p->delay = arg;
		return 0;
	case O_TIMES:
		/* As Debian's retry reads it (strtol), but whole: -1, or more
		 * than anyone waits for, is no limit; 0 would run nothing. */
		errno = 0;
		v = strtoll(arg, &end, 10);
		if (end == arg || *end != '\0' || v == 0 || v < -1)
			return fail(p, o, "'%s': give a number of attempts from "
			    "1, or -1 for no limit", arg);
		b->max_attempts = v == -1 || v > 1000000000 ? 0 :
		    (unsigned long)v;
		p->given[O_MAX - O_MAX] = true;
		return 0;
	case O_SUCCESS_ON:
		if ((why = codes_parse(arg, &c->verdict.success_on)) != NULL)
			return fail(p, o, "'%s': %s", arg, why);
		c->verdict.criteria = false;
		return 0;
	case O_RETRY_ON:
		if ((why = codes_parse_limits(arg, &c->verdict.retry_on,
		    c->retry_limits, &c->limits.nretry_limits)) != NULL)
			return fail(p, o, "'%s': %s", arg, why);
		c->limits.retry_limits = c->retry_limits;
		return 0;
	case O_UNTIL:
	case O_WHILE:
		if ((why = criteria_parse(arg, &c->verdict.success_on)) !=
		    NULL)
			return fail(p, o, "'%s': %s", arg, why);
		/* --while: what ends the run is every other status. */
		if (o->id == O_WHILE)
			codes_invert(&c->verdict.success_on);
		c->verdict.criteria = true;
		return 0;
	case O_ALGORITHM:
		if (!algorithm_parse(arg, &b->strategy))
			return fail(p, o, "unknown algorithm '%s' (use "
			    "Constant, Exponential, Fibonacci, LILD, LIMD, "
			    "MILD or MIMD)", arg);
		return strategy(p, o, b->strategy);
	case O_JITTER:
		if ((why = jitter_parse(arg, &b->jitter)) != NULL)
			return fail(p, o, "'%s': %s", arg, why);
		return 0;
	case O_SEED:
		if (count(p, o, arg, 0, INT64_MAX, &v) != 0)
			return -1;
		c->seed = (uint64_t)v;
		c->seeded = true;
		return 0;
	case O_SHARE:
		if ((why = share_name_check(arg)) != NULL)
			return fail(p, o, "'%s': %s", arg, why);
		c->share = arg;
		return 0;
	case O_SHARE_BUDGET:
		if ((why = share_budget_parse(arg, &c->share_rules.max,
		    &c->share_rules.ratio)) != NULL)
			return fail(p, o, "'%s': %s", arg, why);
		return 0;
	case O_SHARE_BREAKER:
		if ((why = share_breaker_parse(arg, &c->share_rules.trip,
		    &c->share_rules.cooldown)) != NULL)
			return fail(p, o, "'%s': %s", arg, why);
		return 0;
	case O_SHARE_STORE_FILE:
		if (*arg == '\0')
			return fail(p, o, "empty file name");
		if (p->given[O_SHARE_STORE - O_MAX])
			return fail(p, o, "give --share-store or this, not "
			    "both");
		c->share_store_file = arg;
		return 0;
	case O_SHARE_STORE:
		if (p->given[O_SHARE_STORE_FILE - O_MAX])
			return fail(p, o, "give --share-store-file or this, "
			    "not both");
		if (store_spec(p, o, arg) == -1)
			return -1;
		c->share_store = arg;
		return 0;
	case O_SHARE_OPEN: {
		int give_up = 0;

		if (choose(p, o, arg, &give_up) != 0)
			return -1;
		c->share_rules.give_up = give_up != 0;
		return 0;
	}
	case O_FAILURE_RATE:
		if ((why = rates_parse(arg, NULL, 0, NULL)) != NULL)
			return fail(p, o, "'%s': %s", arg, why);
		c->failure_rates = arg;
		return 0;
	case O_CLIENTS:
		if ((why = clients_parse(arg, NULL, 0, NULL)) != NULL)
			return fail(p, o, "'%s': %s", arg, why);
		c->clients = arg;
		return 0;
	default:
		return 0;
	}
}

/*
 * getopt takes the word after an option for its value, whatever it is:
 * in "--exp -- true", '--'.  A value that is '--', or that looks like an
 * option where only a number or a duration can stand, says what was
 * missing.  Text (a pattern, a label, a command) may be anything.
 */
static bool
numeric(const struct opt *o)
{
	return o->kind == K_DURATION || o->kind == K_SPAN ||
	    o->kind == K_SECONDS || o->kind == K_COUNT || o->kind == K_REAL ||
	    o->kind == K_STRATEGY || o->id == O_TIMES || o->id == O_DELAYS ||
	    o->id == O_DELAY || o->id == O_SEED;
}

static int
missing(struct parse *p, const struct opt *o, const char *arg)
{
	const bool text = o->kind == K_TEXT || o->kind == K_LINE;
	const char *m = o->metavar;

	if (arg == NULL || text || (strcmp(arg, "--") != 0 && !(numeric(o) &&
	    arg[0] == '-' && (isalpha((unsigned char)arg[1]) ||
	    arg[1] == '-'))))
		return 0;
	if (strcmp(m, "DUR") == 0)
		return fail(p, o, "needs a duration (as in --%s 1s), not '%s'",
		    o->name, arg);
	if (strcmp(m, "N") == 0)
		return fail(p, o, "needs a number (as in --%s 3), not '%s'",
		    o->name, arg);
	if (strcmp(m, "S") == 0 || strcmp(m, "F") == 0)
		return fail(p, o, "needs a number, not '%s'", arg);
	return fail(p, o, "needs a value (%s), not '%s'", m, arg);
}

/* Takes an option's value as its row says. */
static int
apply(struct parse *p, const struct opt *o, char *arg)
{
	void *to = (char *)p->cfg + o->off;
	const char *why = NULL;
	long long v = 0;

	if (missing(p, o, arg) != 0)
		return -1;
	switch (o->kind) {
	case K_FLAG:
		*(bool *)to = true;
		return 0;
	case K_SET:
		*(int *)to = (int)o->lo;
		return 0;
	case K_DURATION:
		if (duration(p, o, arg, to) != 0)
			return -1;
		/* 0 is none, as timeout(1)'s 0 is. */
		if (o->lo > 0 && *(int64_t *)to == 0)
			*(int64_t *)to = -1;
		return 0;
	case K_WITHIN:
		if (duration(p, o, arg, to) != 0)
			return -1;
		if ((double)*(int64_t *)to < o->lo ||
		    (double)*(int64_t *)to > o->hi)
			return fail(p, o, "'%s': %s", arg,
			    (const char *)o->data);
		return 0;
	case K_SPAN:
		why = span_parse(arg, to);
		break;
	case K_SECONDS:
		why = seconds_parse(arg, o->lo < 0, to);
		if (why != NULL && o->data != NULL)
			return fail(p, o, "'%s': %s (%s)", arg, why,
			    (const char *)o->data);
		break;
	case K_COUNT:
		if (count(p, o, arg, (long long)o->lo, (long long)o->hi, &v)
		    != 0)
			return -1;
		*(unsigned long *)to = (unsigned long)v;
		return 0;
	case K_REAL:
		return real(p, o, arg, o->lo, o->hi, to);
	case K_CHOICE:
		return choose(p, o, arg, to);
	case K_CODES:
		why = codes_parse(arg, to);
		break;
	case K_SIGNAL:
		why = signal_parse(arg, to);
		break;
	case K_TEXT:
		if (*arg == '\0' && o->data != NULL)
			return fail(p, o, "%s", (const char *)o->data);
		*(char **)to = arg;
		return 0;
	case K_LINE:
		if (*arg == '\0' || strpbrk(arg, "\n\r") != NULL)
			return fail(p, o, "%s", (const char *)o->data);
		*(char **)to = arg;
		return 0;
	case K_STRATEGY:
		return strategy(p, o, (enum strategy)o->lo) ||
		    (arg != NULL && duration(p, o, arg, to) != 0);
	case K_OTHER:
		return special(p, o, arg);
	}
	if (why != NULL)
		return fail(p, o, "'%s': %s", arg, why);
	return 0;
}

/* getopt_long's complaints, in our words. */
static int
unknown(struct parse *p, int ch, const char *tok, enum mode mode)
{
	const int len = (int)strcspn(tok, "=");
	char meant[160];

	if (strncmp(tok, "--", 2) != 0)
		return fail(p, NULL, ch == ':' ? "-%c: needs a value" :
		    "unknown option '-%c'", optopt);
	if (ch == ':')
		return fail(p, NULL, "%.*s: needs a value", len, tok);
	if (tok[len] == '=') {
		for (size_t i = 0; i < OPTABLE_ROWS; i++)
			if (strncmp(optable[i].name, tok + 2, (size_t)len - 2)
			    == 0 && optable[i].name[len - 2] == '\0' &&
			    optable[i].metavar == NULL)
				return fail(p, &optable[i], "takes no value");
	}
	if (*suggest_option(tok + 2, (size_t)len - 2, mode, meant,
	    sizeof(meant)) != '\0')
		return fail(p, NULL, "unknown option '%.*s' (did you mean %s?)",
		    len, tok, meant);
	return fail(p, NULL, "unknown option '%.*s'", len, tok);
}

/*
 * getopt_long takes a unique prefix of a long option for the option; we
 * do not, so that a script's --time cannot mean --timeout today and
 * something else when an option is added.  tok is the word it was in.
 */
static int
abbreviated(struct parse *p, const struct opt *o, const char *tok)
{
	const size_t len = strcspn(tok, "=");

	if (strncmp(tok, "--", 2) != 0 || (len - 2 == strlen(o->name) &&
	    strncmp(tok + 2, o->name, len - 2) == 0))
		return 0;
	return fail(p, NULL, "unknown option '%.*s': options are not "
	    "abbreviated (did you mean --%s?)", (int)len, tok, o->name);
}

static const char *
mode_name(enum mode m)
{
	return m == MODE_SHOW ? "show-backoff-delays" :
	    m == MODE_SIMULATE ? "retry simulate" :
	    m == MODE_SHARE ? "retry share" : "retry";
}

/* retry share: status [NAME]... or reset NAME... */
static int
validate_share(struct parse *p)
{
	const struct config *c = p->cfg;
	const char *why;

	if (c->nargs == 0 || (strcmp(c->args[0], "status") != 0 &&
	    strcmp(c->args[0], "reset") != 0))
		return fail(p, NULL, "retry share: give status [NAME]... or "
		    "reset NAME...");
	if (strcmp(c->args[0], "reset") == 0 && c->nargs == 1)
		return fail(p, NULL, "retry share reset: give the NAME to "
		    "reset");
	for (int i = 1; i < c->nargs; i++)
		if ((why = share_name_check(c->args[i])) != NULL)
			return fail(p, NULL, "'%s': %s", c->args[i], why);
	return 0;
}

/* --share: the options that go with it, and the probe's lease: the
 * cooldown, or a timed-out attempt's whole time if that is longer. */
static int
validate_shared(struct parse *p)
{
	static const enum opt_id with[] = { O_SHARE_BUDGET, O_SHARE_WINDOW,
	    O_SHARE_BREAKER,
	    O_SHARE_OPEN, O_SHARE_STORE, O_SHARE_STORE_FILE, O_SHARE_TIMEOUT,
	    O_SHARE_REQUIRED };
	struct config *c = p->cfg;
	struct share_rules *r = &c->share_rules;

	for (size_t i = 0; c->share == NULL && i < OPTABLE_ROWS; i++)
		for (size_t j = 0; j < sizeof(with) / sizeof(with[0]); j++)
			if (optable[i].id == with[j] &&
			    p->given[with[j] - O_MAX])
				return fail(p, &optable[i],
				    "goes with --share");
	r->lease = r->cooldown;
	if (c->limits.timeout >= 0 &&
	    c->limits.timeout + c->kill_after > r->lease)
		r->lease = c->limits.timeout + c->kill_after;
	if (r->lease < SHARE_POLL)
		r->lease = SHARE_POLL;
	return 0;
}

/* show-backoff-delays: the output options together, and every STATUS. */
static int
validate_show(struct parse *p)
{
	const struct config *c = p->cfg;
	struct entry st = { false, 0 };
	const char *why;

	if (c->ascii && !c->chart)
		return fail(p, optable_find(0, "ascii"), "goes with --chart");
	if (c->chart && c->format != FORMAT_PLAIN)
		return fail(p, optable_find(0, "chart"),
		    "draws its own output; leave out --format");
	for (int i = 0; i < c->nargs; i++)
		if ((why = entry_parse(c->args[i], st.time, &st)) != NULL)
			return fail(p, NULL, "status '%s': %s", c->args[i],
			    why);
	return 0;
}

/* simulate: what was given, for the blog's model to fill in the rest
 * (sim_defaults, model.h). */
static int
validate_simulate(struct parse *p)
{
	struct config *c = p->cfg;

	if (c->nargs > 0)
		return fail(p, NULL, "simulate takes no arguments: '%s'",
		    c->args[0]);
	c->custom = p->strategy != NULL || p->given[O_JITTER - O_MAX];
	c->given_strategy = p->strategy != NULL;
	c->given_max_delay = p->given[O_MAX_DELAY - O_MAX];
	c->given_max = p->given[O_MAX - O_MAX];
	if (c->runs == 0)
		c->runs = 100;
	if (c->clients == NULL)
		c->clients = "100";
	return validate_show(p);
}

/* Whether s is a plain decimal number: "3", "100", "0.5". */
static bool
bare_number(const char *s)
{
	const size_t n = strspn(s, "0123456789");

	if (n == 0)
		return false;
	return s[n] == '\0' || (s[n] == '.' && s[n + 1 +
	    strspn(s + n + 1, "0123456789")] == '\0');
}

static bool
count_word(const char *w)
{
	static const char *const words[] = { "times", "tries", "attempts",
	    "retries" };

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strcmp(w, words[i]) == 0)
			return true;
	return false;
}

/* --delays 1 2 4: the list as one word, as far as the numbers go. */
static int
list_apart(struct parse *p, const struct opt *o)
{
	const struct config *c = p->cfg;
	char list[128];
	int i;

	snprintf(list, sizeof(list), "%s", p->last_arg);
	for (i = 0; i < c->nargs && bare_number(c->args[i]); i++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list),
		    ",%s", c->args[i]);
	return fail(p, o, "did you mean --%s %s? ('%s' would run as the "
	    "command)", o->name, list, c->args[0]);
}

/*
 * "--exp 100 ms", "--max 3 times", "retry 5 curl": a unit, a count's word
 * or a number where the command starts is what the user meant as part of
 * an option, and no program has such a name.  After "--" the command is
 * the user's word (retry --max 3 -- ms runs ms).
 */
static int
stray_word(struct parse *p)
{
	const struct config *c = p->cfg;
	const struct opt *o = p->last;
	const char *cmd = c->args[0], *before = c->args[-1], *unit;
	bool after_value;

	if (strcmp(before, "--") == 0)
		return 0;
	/* The option's value is the word just before the command. */
	after_value = o != NULL && p->last_arg != NULL && numeric(o) &&
	    p->last_arg >= before && p->last_arg < before + strlen(before);
	unit = duration_unit_word(cmd);
	if (after_value && bare_number(p->last_arg) && unit != NULL &&
	    strcmp(o->metavar, "N") != 0)
		return fail(p, o, "did you mean --%s %s%s? ('%s' would run as "
		    "the command)", o->name, p->last_arg, unit, cmd);
	/* Debian's retry's list, with spaces: --delays 1 2 4. */
	if (after_value && bare_number(cmd) && strcmp(o->metavar, "LIST") == 0)
		return list_apart(p, o);
	if (after_value && (unit != NULL || count_word(cmd) ||
	    bare_number(cmd)))
		return fail(p, o, "did you mean --%s %s? ('%s' would run as "
		    "the command; a command named %s goes after --)", o->name,
		    p->last_arg, cmd, cmd);
	if (bare_number(cmd) && c->nargs > 1 &&
	    duration_unit_word(c->args[1]) != NULL)
		return fail(p, NULL, "'%s %s' would run as the command: did "
		    "you mean a duration, as in --timeout %s%s? (a command "
		    "named %s goes after --)", cmd, c->args[1], cmd,
		    duration_unit_word(c->args[1]), cmd);
	if (bare_number(cmd))
		return fail(p, NULL, "'%s' would run as the command: did you "
		    "mean --max %s? (a command named %s goes after --)", cmd,
		    cmd, cmd);
	return 0;
}

/* retry: the output rules, compiled now that -F and -i are known. */
static int
validate_retry(struct parse *p)
{
	static const char *const names[RULE_COUNT] = {
		"until-output", "fail-if-output", "retry-if-output",
		"stop-if-output", "delay-from-output",
	};
	struct config *c = p->cfg;
	char why[256];
	int rc;

	for (int k = 0; k < RULE_COUNT; k++) {
		const char *re = c->patterns[k];

		if (re == NULL)
			continue;
		if (*re == '\0')
			return fail(p, optable_find(0, names[k]),
			    "empty pattern");
		if ((rc = rule_compile(&c->verdict.output, (enum rule_kind)k,
		    re, c->fixed_strings, c->ignore_case, why,
		    sizeof(why))) != 0) {
			(void)fail(p, optable_find(0, names[k]), "'%s': %s", re,
			    why);
			/* A library that cannot load is no usage error. */
			return rc == -2 ? OPTIONS_NO_LIBRARY : -1;
		}
	}
	if (c->verdict.exit_on_match && c->patterns[RULE_UNTIL] == NULL)
		return fail(p, optable_find(0, "exit-on-match"), "goes with "
		    "--until-output, whose match it waits for");
	if (c->limits.output_replaces && c->patterns[RULE_CAPTURE] == NULL)
		return fail(p, optable_find(0, "delay-from-output-replaces"),
		    "goes with --delay-from-output, whose delay it takes");
	if (!rules_any(&c->verdict.output)) {
		const char *lone = p->given[O_MATCH - O_MAX] ? "match" :
		    p->given[O_FIXED_STRINGS - O_MAX] ? "fixed-strings" :
		    p->given[O_IGNORE_CASE - O_MAX] ? "ignore-case" : NULL;

		if (lone != NULL)
			return fail(p, optable_find(0, lone), "goes with an "
			    "output rule such as --until-output");
	}
	if (p->given[O_COUNT - O_MAX] && !c->dry_run)
		return fail(p, optable_find(0, "count"), "goes with --dry-run "
		    "(a run is limited by --max)");
	if (c->nargs == 0 && !c->dry_run) {
		(void)fail(p, NULL, "no command given (as in: retry -- "
		    "curl -fsS URL)");
		return OPTIONS_NO_COMMAND;
	}
	if (c->nargs > 0 && stray_word(p) != 0)
		return -1;
	return validate_shared(p);
}

/* --delay: Algorithm::Backoff's seconds with -a, else Debian's retry's
 * list of delays, the last repeated. */
static int
resolve_delay(struct parse *p, bool algo)
{
	const struct opt *o = optable_find(0, "delay");
	const char *why;

	if (algo) {
		if ((why = seconds_parse(p->delay, false,
		    &p->cfg->backoff.delay)) != NULL)
			return fail(p, o, "'%s': %s (with -a, one number of "
			    "seconds)", p->delay, why);
		return 0;
	}
	return strategy(p, o, S_LIST) || delay_list(p, o, p->delay);
}

/*
 * --forever: without --delay-on-success, FOREVER_DELAY_ON_SUCCESS.
 * --successes: without --delay-on-success, the delay after a success
 * short of N in a row is the strategy's first delay, so that the successes
 * are apart, as the failures are; -a LILD, LIMD, MILD and MIMD keep their
 * own rule for successes.
 */
static void
between_successes(struct parse *p, bool algo)
{
	struct backoff *b = &p->cfg->backoff;
	double *d = &b->delay_on_success;

	if (p->given[O_DELAY_ON_SUCCESS - O_MAX])
		return;
	/* --forever: a command that succeeds at once (a daemon that forks
	 * and exits) is not restarted faster than once a second, as runit's
	 * runsv waits a second before it restarts a service that ran for
	 * less.  -a's increase/decrease strategies keep their own rule. */
	if (p->cfg->limits.forever && (!algo || b->strategy == A_CONSTANT ||
	    b->strategy == A_EXPONENTIAL || b->strategy == A_FIBONACCI)) {
		*d = FOREVER_DELAY_ON_SUCCESS;
		return;
	}
	if (p->cfg->limits.successes <= 1)
		return;
	if (!algo)
		*d = b->strategy == S_IMMEDIATE ? 0 : b->strategy == S_LIST ?
		    (double)b->list[0] / 1e9 : (double)b->base / 1e9;
	else if (b->strategy == A_CONSTANT)
		*d = b->delay;
	else if (b->strategy == A_EXPONENTIAL)
		*d = b->initial_delay;
	else if (b->strategy == A_FIBONACCI)
		*d = b->initial_delay1;
}

/*
 * --decorrelated draws every delay from [DUR, 3 x the previous]: DUR is
 * its floor, and a --max-delay under it would leave no range to draw
 * from, so it is refused, as Polly's AwsDecorrelatedJitterBackoff refuses
 * a maxDelay under its minDelay.  The deterministic strategies take such
 * a cap as it is, every delay at the cap (as cenkalti/backoff and
 * Algorithm::Backoff cap their first delay too).
 */
static int
floor_above_cap(struct parse *p)
{
	const struct backoff *b = &p->cfg->backoff;
	char cap[32], base[32];

	if (b->strategy != S_DECORRELATED || b->max_delay.ns >= b->base)
		return 0;
	return fail(p, optable_find(0, "max-delay"), "%s is below "
	    "--decorrelated's %s, the least delay it draws", duration_format(
	    b->max_delay.ns, cap, sizeof(cap)), duration_format(b->base, base,
	    sizeof(base)));
}

/* Checks that need every option: conflicts, requirements, ranges. */
static int
validate(struct parse *p)
{
	struct config *c = p->cfg;
	struct backoff *b = &c->backoff;
	const bool algo = strategy_is_algorithm(b->strategy);
	const unsigned bit = algo ? OPT_ALGO(b->strategy) : 0;

	for (size_t i = 0; i < OPTABLE_ROWS; i++) {
		const struct opt *o = &optable[i];

		if (o->takes == 0 || o->help == NULL)
			continue;
		if (p->given[o->id - O_MAX] && !algo &&
		    !(o->takes & OPT_CONCISE))
			return fail(p, o, "goes with -a/--algorithm");
		if (p->given[o->id - O_MAX] && algo && !(o->takes & bit))
			return fail(p, o, "is not an option of -a %s",
			    algorithm_name(b->strategy));
		if (algo && (o->needs & bit) && !p->given[o->id - O_MAX])
			return fail(p, optable_find(0, "algorithm"),
			    "%s needs --%s", algorithm_name(b->strategy),
			    o->name);
	}
	if (p->delay != NULL && resolve_delay(p, algo) != 0)
		return -1;
	/* No limit on attempts: --forever's default; a time limit alone
	 * (--budget, --max-actual-duration), as tenacity's stop_after_delay;
	 * and show-backoff-delays -a, Algorithm::Backoff's own default. */
	if (!p->given[O_MAX - O_MAX] && (c->limits.forever ||
	    p->given[O_BUDGET - O_MAX] ||
	    p->given[O_MAX_ACTUAL_DURATION - O_MAX] ||
	    (algo && c->mode == MODE_SHOW)))
		b->max_attempts = 0;
	/* A strategy that grows, in a run without a limit, waits at most
	 * UNLIMITED_CAP unless --max-delay says otherwise. */
	if (b->max_attempts == 0 && !p->given[O_MAX_DELAY - O_MAX] &&
	    (b->strategy == S_EXP || b->strategy == S_LINEAR ||
	    b->strategy == S_FIB || b->strategy == S_DECORRELATED ||
	    b->strategy == S_DECORRELATED_V2))
		b->max_delay = span_of(UNLIMITED_CAP);
	if (p->given[O_MAX_DELAY - O_MAX] && floor_above_cap(p) != 0)
		return -1;
	if (!algo && (b->jitter_factor > 0 || b->consider_actual_delay))
		return fail(p, optable_find(0, b->consider_actual_delay ?
		    "consider-actual-delay" : "jitter-factor"),
		    "goes with -a/--algorithm");
	if (p->given[O_FACTOR - O_MAX] && b->strategy != S_EXP)
		return fail(p, optable_find(0, "factor"), "goes with --exp");
	if (c->limits.forever && p->given[O_SUCCESSES - O_MAX])
		return fail(p, optable_find(0, "successes"), "a --forever run "
		    "never ends on a success");
	if (b->max_attempts > 0 && c->limits.successes > b->max_attempts)
		return fail(p, optable_find(0, "successes"), "%lu in a row "
		    "cannot fit in --max %lu", c->limits.successes,
		    b->max_attempts);
	between_successes(p, algo);
	if (c->mode == MODE_SIMULATE)
		return validate_simulate(p);
	if (c->mode == MODE_SHARE)
		return validate_share(p);
	return c->mode == MODE_SHOW ? validate_show(p) : validate_retry(p);
}

static void
defaults(struct config *c, enum mode mode)
{
	memset(c, 0, sizeof(*c));
	c->mode = mode;
	c->backoff.strategy = S_EXP;
	c->backoff.base = NS_PER_SEC;
	c->backoff.factor = 2;
	c->backoff.exponent_base = 2;
	c->backoff.max_delay = span_of(-1);
	c->backoff.max_attempts = 5;
	c->limits.budget = -1;
	c->limits.timeout = -1;
	c->kill_after = 5 * NS_PER_SEC;
	c->signal = 15;			/* SIGTERM */
	codes_add(&c->verdict.success_on, 0);
	c->share_rules = (struct share_rules){ .max = 10, .ratio = SHARE_RATIO,
	    .window = SHARE_WINDOW };
	c->share_timeout = 200 * NS_PER_MS;
	c->count = 10;
	c->limits.reset_after = -1;
	c->limits.successes = 1;
}

int
options_parse(int argc, char **argv, enum mode mode, struct config *c,
    char *err, size_t errsz)
{
	struct option longopts[OPTABLE_ROWS + 1];
	char shortopts[2 * OPTABLE_ROWS + 5], *s = shortopts;
	struct parse p = { .cfg = c, .err = err, .errsz = errsz };
	const struct opt *o;
	int ch, idx;

	defaults(c, mode);
	/* retry stops at the command; show takes STATUS anywhere. */
	if (mode == MODE_RETRY)
		*s++ = '+';
	*s++ = ':';
	for (size_t i = 0; i < OPTABLE_ROWS; i++) {
		const struct opt *row = &optable[i];

		longopts[i] = (struct option){ row->name,
		    row->metavar != NULL ? required_argument : no_argument,
		    NULL, (int)row->id };
		if (row->key != 0) {
			*s++ = (char)row->key;
			if (row->metavar != NULL)
				*s++ = ':';
		}
	}
	*s++ = 'V';		/* -v's other letter: --version */
	*s = '\0';
	longopts[OPTABLE_ROWS] = (struct option){ NULL, 0, NULL, 0 };

	opterr = 0;
	optind = 0;
	while ((ch = getopt_long(argc, argv, shortopts, longopts, &idx)) != -1) {
		if (ch == '?' || ch == ':')
			return unknown(&p, ch, argv[optind - 1], mode);
		o = ch < O_MAX ? optable_find(ch == 'V' ? 'v' : ch, NULL) :
		    &optable[idx];
		/* The word of the option: before its value's, if apart. */
		if (ch >= O_MAX && abbreviated(&p, o, argv[optind - (optarg !=
		    NULL && optarg == argv[optind - 1] ? 2 : 1)]) != 0)
			return -1;
		if (!(o->modes & (1u << mode)))
			return fail(&p, o, "is not an option of %s",
			    mode_name(mode));
		p.given[o->id - O_MAX] = true;
		if (apply(&p, o, optarg) != 0)
			return -1;
		p.last = o;
		p.last_arg = optarg;
		/* As Debian's retry and most tools: at once, whatever
		 * follows. */
		if (c->help || c->version)
			break;
	}
	c->args = argv + optind;
	c->nargs = argc - optind;
	c->words = argv;
	c->nwords = argc;
	if (c->help || c->version)
		return 0;
	return validate(&p);
}

void
options_free(struct config *c)
{
	free(c->list);
	c->list = NULL;
	rules_free(&c->verdict.output);
}
