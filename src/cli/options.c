/* The command line parsed, option by option as the option table says;
 * validate.c checks what needs every option. */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "duration.h"
#include "number.h"
#include "optable.h"
#include "options.h"
#include "optparse.h"
#include "storeurl.h"
#include "suggest.h"
#include "validate.h"

static int	apply(struct parse *, const struct opt *, char *);

static int
real(struct parse *p, const struct opt *o, const char *arg, double lo,
    double hi, double *out)
{
	double v;

	if (!number_parse(arg, strlen(arg), &v))
		return opt_fail(p, o, "'%s' is not a number", arg);
	if (v < lo || v > hi)
		return opt_fail(p, o, "'%s' is out of range (%g to %g%s%s)",
		    arg, lo, hi, o->data != NULL ? ": " : "",
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
		return opt_fail(p, o, "'%s' is %s (give a whole number "
		    "from %lld to %lld)", arg, strcmp(why, "invalid") == 0 ?
		    "not a whole number" : why, lo, hi);
	*out = v;
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
	return opt_fail(p, o, "unknown %s '%s' (use %s)", ch->what, arg, use);
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
	return opt_fail(p, o, "'%s': %s", url.has_password ||
	    strchr(arg, '@') != NULL ? "(not shown)" : arg, why);
}

/* What a K_PARSED row's reader takes: NULL, or why arg is wrong. */
static const char *
parsed(enum opt_parser reader, char *arg, void *to)
{
	struct verdict_rules *v = to;
	struct share_rules *r = to;
	struct codes more = { 0 };
	const char *why;

	switch (reader) {
	case P_JITTER:
		return jitter_parse(arg, to);
	case P_SUCCESS_ON:
		/* Given again, it adds up; the first replaces the default. */
		if ((why = codes_parse(arg, &more)) != NULL)
			return why;
		if (!v->success_on.set || v->criteria)
			v->success_on = more;
		else
			codes_union(&v->success_on, &more);
		v->criteria = false;
		return NULL;
	case P_UNTIL:
	case P_WHILE:
		if ((why = criteria_parse(arg, &v->success_on)) != NULL)
			return why;
		/* --while: what ends the run is every other status. */
		if (reader == P_WHILE)
			codes_invert(&v->success_on);
		v->criteria = true;
		return NULL;
	case P_SHARE_NAME:
		if ((why = share_name_check(arg)) == NULL)
			*(char **)to = arg;
		return why;
	case P_SHARE_BUDGET:
		return share_budget_parse(arg, &r->max, &r->ratio);
	case P_SHARE_BREAKER:
		return share_breaker_parse(arg, &r->trip, &r->cooldown);
	case P_CLIENTS:
		if ((why = clients_parse(arg, NULL, 0, NULL)) == NULL)
			*(const char **)to = arg;
		return why;
	case P_RATES:
		if ((why = rates_parse(arg, NULL, 0, NULL)) == NULL)
			*(const char **)to = arg;
		return why;
	case P_HEDGE:
		return hedge_parse(arg, to);
	case P_LATENCY:
		return latency_parse(arg, to);
	}
	return NULL;
}

/* The limit of status s among lim[0..n-1]: its N, or 0 for none. */
static unsigned long
limit_of(const struct codes_limit *lim, size_t n, int s)
{
	for (size_t i = 0; i < n; i++)
		if (codes_has(&lim[i].codes, s))
			return lim[i].max;
	return 0;
}

/* --retry-on, given again or not: its statuses and limits added to those
 * given before, a status given again only with the same limit. */
static int
retry_on(struct parse *p, const struct opt *o, const char *arg)
{
	struct config *c = p->cfg;
	struct limits *l = &c->limits;
	struct codes more = { 0 };
	struct codes_limit lim[CODES_LIMITS];
	size_t n = 0;
	const char *why;

	if ((why = codes_parse_limits(arg, &more, lim, &n)) != NULL)
		return opt_fail(p, o, "'%s': %s", arg, why);
	for (int s = 0; s <= STATUS_MAX; s++)
		if (codes_has(&more, s) && codes_has(&c->verdict.retry_on, s) &&
		    limit_of(lim, n, s) != limit_of(c->retry_limits,
		    l->nretry_limits, s))
			return opt_fail(p, o, "'%s': status %d is given again "
			    "with another limit", arg, s);
	if (l->nretry_limits + n > CODES_LIMITS)
		return opt_fail(p, o, "'%s': more than %d items with a limit "
		    "in all", arg, CODES_LIMITS);
	memcpy(c->retry_limits + l->nretry_limits, lim, n * sizeof(lim[0]));
	l->nretry_limits += n;
	l->retry_limits = c->retry_limits;
	codes_union(&c->verdict.retry_on, &more);
	return 0;
}

/* Options that name another's value before a colon: --output RULE:RE
 * gives the rule's own option (--until-output) RE, --on EVENT:CMD the
 * hook's (--on-retry) CMD, each as if given by its name. */
struct prefixed {
	const char	*what;		/* "rule" */
	const char	*names;		/* "until, fail, ..." */
	const char	*example;	/* "until:ready" */
	size_t		 n;
	struct {
		const char	*name;
		enum opt_id	 id;
	} of[5];
};

static const struct prefixed output_rules = { "rule", "until, fail, retry, "
	"stop or delay, a colon and RE", "until:ready", 5,
	{ { "until", OPT_UNTIL_OUTPUT }, { "fail", OPT_FAIL_IF_OUTPUT },
	  { "retry", OPT_RETRY_IF_OUTPUT }, { "stop", OPT_STOP_IF_OUTPUT },
	  { "delay", OPT_DELAY_FROM_OUTPUT } } };
static const struct prefixed hook_events = { "event", "retry, giveup or "
	"success, a colon and CMD", "giveup:'notify-ops failed'", 3,
	{ { "retry", OPT_ON_RETRY }, { "giveup", OPT_ON_GIVEUP },
	  { "success", OPT_ON_SUCCESS } } };

static int
prefixed(struct parse *p, const struct opt *o, char *arg,
    const struct prefixed *x)
{
	const size_t len = strcspn(arg, ":");

	for (size_t i = 0; arg[len] == ':' && i < x->n; i++) {
		if (strlen(x->of[i].name) != len ||
		    strncmp(arg, x->of[i].name, len) != 0)
			continue;
		if (arg[len + 1] == '\0')
			return opt_fail(p, o, "'%s': empty %s", arg,
			    x == &output_rules ? "pattern" : "command");
		p->given[x->of[i].id - OPT_MAX] = true;
		return apply(p, optable_row(x->of[i].id), arg + len + 1);
	}
	return opt_fail(p, o, "unknown %s in '%s' (give %s, as in --%s %s)",
	    x->what, arg, x->names, o->name, x->example);
}

/* The options whose value reaches past their own field: other options
 * given, the strategy, -a that may come later. */
static int
special(struct parse *p, const struct opt *o, char *arg)
{
	struct config *c = p->cfg;
	struct backoff *b = &c->backoff;
	char *end;
	long long v = 0;
	int all;

	switch (o->id) {
	case OPT_DELAYS:
		return opt_strategy(p, o, STRAT_LIST) || opt_delay_list(p, o, arg);
	case OPT_DELAY:
		/* Its meaning waits for -a, which may come after it. */
		p->delay = arg;
		return 0;
	case OPT_TIMES:
		/* As Debian's retry reads it (strtol), but whole: -1, or more
		 * than anyone waits for, is no limit; 0 would run nothing. */
		errno = 0;
		v = strtoll(arg, &end, 10);
		if (end == arg || *end != '\0' || v == 0 || v < -1)
			return opt_fail(p, o, "'%s': give a number of "
			    "attempts from 1, or -1 for no limit", arg);
		b->max_attempts = v == -1 || v > 1000000000 ? 0 :
		    (unsigned long)v;
		p->given[OPT_MAX - OPT_MAX] = true;
		return 0;
	case OPT_RETRY_ON:
		return retry_on(p, o, arg);
	case OPT_OUTPUT:
		return prefixed(p, o, arg, &output_rules);
	case OPT_ON:
		return prefixed(p, o, arg, &hook_events);
	case OPT_HOLD:
		/* Given again, each value holds: both, as both flags. */
		all = 0;
		if (choose(p, o, arg, &all) != 0)
			return -1;
		c->hold_stdout |= all == HOLD_STDOUT;
		c->only_last |= all == HOLD_LAST;
		p->given[(all == HOLD_STDOUT ? OPT_HOLD_STDOUT : OPT_ONLY_LAST) -
		    OPT_MAX] = true;
		return 0;
	case OPT_ALGORITHM:
		if (!algorithm_parse(arg, &b->strategy))
			return opt_fail(p, o, "unknown algorithm '%s' (use "
			    "Constant, Exponential, Fibonacci, LILD, LIMD, "
			    "MILD or MIMD)", arg);
		return opt_strategy(p, o, b->strategy);
	case OPT_SEED:
		if (count(p, o, arg, 0, INT64_MAX, &v) != 0)
			return -1;
		c->seed = (uint64_t)v;
		c->seeded = true;
		return 0;
	case OPT_HELP:
		/* --help=all; all as the word after it: options_parse. */
		if (arg != NULL && choose(p, o, arg, &all) != 0)
			return -1;
		c->help = true;
		c->help_all = arg != NULL;
		return 0;
	case OPT_SHARE_STORE_FILE:
		if (*arg == '\0')
			return opt_fail(p, o, "empty file name");
		if (p->given[OPT_SHARE_STORE - OPT_MAX])
			return opt_fail(p, o, "give --share-store or this, not "
			    "both");
		c->share_store_file = arg;
		return 0;
	case OPT_SHARE_STORE:
		if (p->given[OPT_SHARE_STORE_FILE - OPT_MAX])
			return opt_fail(p, o, "give --share-store-file or "
			    "this, not both");
		/* @FILE, as curl's: the store from FILE's first line (no
		 * store's URL starts with @). */
		if (*arg == '@') {
			if (arg[1] == '\0')
				return opt_fail(p, o, "empty file name");
			c->share_store_file = arg + 1;
			c->share_store = NULL;
			return 0;
		}
		c->share_store_file = NULL;
		if (store_spec(p, o, arg) == -1)
			return -1;
		c->share_store = arg;
		return 0;
	default:
		return 0;
	}
}

static int
missing(struct parse *p, const struct opt *o, const char *arg)
{
	const bool text = o->kind == K_TEXT || o->kind == K_LINE ||
	    o->kind == K_TEXTS;
	const char *m = o->metavar;

	if (arg == NULL || m == NULL || text || (strcmp(arg, "--") != 0 &&
	    !(opt_numeric(o) && arg[0] == '-' &&
	    (isalpha((unsigned char)arg[1]) || arg[1] == '-'))))
		return 0;
	if (strcmp(m, "DUR") == 0)
		return opt_fail(p, o, "needs a duration (as in --%s 1s), "
		    "not '%s'", o->name, arg);
	if (strcmp(m, "N") == 0)
		return opt_fail(p, o, "needs a number (as in --%s 3), not '%s'",
		    o->name, arg);
	if (strcmp(m, "S") == 0 || strcmp(m, "F") == 0)
		return opt_fail(p, o, "needs a number, not '%s'", arg);
	return opt_fail(p, o, "needs a value (%s), not '%s'", m, arg);
}

/* A strategy and its DUR; --decorrelated DUR:v2 is --decorrelated-v2
 * DUR, one strategy with it as another option would be. */
static int
strategy(struct parse *p, const struct opt *o, const char *arg)
{
	int64_t *base = &p->cfg->backoff.base;
	const size_t n = arg != NULL ? strlen(arg) : 0;
	char dur[64];

	if (o->id == OPT_DECORRELATED && n > 3 && n - 3 < sizeof(dur) &&
	    strcmp(arg + n - 3, ":v2") == 0) {
		memcpy(dur, arg, n - 3);
		dur[n - 3] = '\0';
		return opt_strategy(p, optable_row(OPT_DECORRELATED_V2),
		    STRAT_DECORRELATED_V2) || opt_duration(p, o, dur, base) != 0;
	}
	return opt_strategy(p, o, (enum strategy)o->lo) ||
	    (arg != NULL && opt_duration(p, o, arg, base) != 0);
}

/* A duration within o's bounds (K_WITHIN): text, a part of arg. */
static int
within(struct parse *p, const struct opt *o, const char *arg,
    const char *text, int64_t *to)
{
	if (opt_duration(p, o, text, to) != 0)
		return -1;
	if ((double)*to < o->lo || (double)*to > o->hi)
		return opt_fail(p, o, "'%s': %s", arg, (const char *)o->data);
	return 0;
}

/* --share-timeout DUR:CONNECT: DUR, and CONNECT the bound of a new
 * connection, as --share-connect-timeout takes it. */
static int
share_timeouts(struct parse *p, const struct opt *o, const char *arg)
{
	char part[64];
	const char *colon = strchr(arg, ':');
	int64_t *const to[2] = { &p->cfg->share_timeout,
	    &p->cfg->share_connect_timeout };
	const char *from[2] = { part, colon + 1 };
	const size_t n = (size_t)(colon - arg);

	if (n >= sizeof(part) || n == 0 || colon[1] == '\0')
		return opt_fail(p, o, "'%s': give DUR or DUR:CONNECT", arg);
	memcpy(part, arg, n);
	part[n] = '\0';
	for (size_t i = 0; i < 2; i++)
		if (within(p, o, arg, from[i], to[i]) != 0)
			return -1;
	return 0;
}

/* Takes an option's value as its row says. */
static int
apply(struct parse *p, const struct opt *o, char *arg)
{
	void *to = (char *)p->cfg + o->off;
	struct codes more = { 0 };
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
		if (opt_duration(p, o, arg, to) != 0)
			return -1;
		/* 0 is none, as timeout(1)'s 0 is. */
		if (o->lo > 0 && *(int64_t *)to == 0)
			*(int64_t *)to = -1;
		return 0;
	case K_WITHIN:
		if (o->id == OPT_SHARE_TIMEOUT && strchr(arg, ':') != NULL)
			return share_timeouts(p, o, arg);
		return within(p, o, arg, arg, to);
	case K_SPAN:
		why = span_parse(arg, to);
		break;
	case K_SECONDS:
		why = seconds_parse(arg, o->lo < 0, to);
		if (why != NULL && o->data != NULL)
			return opt_fail(p, o, "'%s': %s (%s)", arg, why,
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
		/* Given again, it adds up. */
		if ((why = codes_parse(arg, &more)) == NULL)
			codes_union(to, &more);
		break;
	case K_SIGNAL:
		why = signal_parse(arg, to);
		break;
	case K_TEXT:
		if (*arg == '\0' && o->data != NULL)
			return opt_fail(p, o, "%s", (const char *)o->data);
		*(char **)to = arg;
		return 0;
	case K_LINE:
		if (*arg == '\0' || strpbrk(arg, "\n\r") != NULL)
			return opt_fail(p, o, "%s", (const char *)o->data);
		*(char **)to = arg;
		return 0;
	case K_TEXTS:
		if (*arg == '\0' && o->data != NULL)
			return opt_fail(p, o, "%s", (const char *)o->data);
		if (((struct texts *)to)->n == TEXTS_MAX)
			return opt_fail(p, o, "given more than %d times",
			    TEXTS_MAX);
		((struct texts *)to)->v[((struct texts *)to)->n++] = arg;
		return 0;
	case K_STRATEGY:
		return strategy(p, o, arg);
	case K_PARSED:
		why = parsed((enum opt_parser)o->lo, arg, to);
		break;
	case K_OTHER:
		return special(p, o, arg);
	}
	if (why != NULL)
		return opt_fail(p, o, "'%s': %s", arg, why);
	return 0;
}

/* getopt_long's complaints, in our words. */
static int
unknown(struct parse *p, int ch, const char *tok, enum mode mode)
{
	const int len = (int)strcspn(tok, "=");
	char meant[160];

	if (strncmp(tok, "--", 2) != 0)
		return opt_fail(p, NULL, ch == ':' ? "-%c: needs a value" :
		    "unknown option '-%c'", optopt);
	if (ch == ':')
		return opt_fail(p, NULL, "%.*s: needs a value", len, tok);
	if (tok[len] == '=') {
		for (size_t i = 0; i < OPTABLE_ROWS; i++)
			if (strncmp(optable[i].name, tok + 2, (size_t)len - 2)
			    == 0 && optable[i].name[len - 2] == '\0' &&
			    optable[i].metavar == NULL)
				return opt_fail(p, &optable[i],
				    "takes no value");
	}
	if (*suggest_option(tok + 2, (size_t)len - 2, mode, meant,
	    sizeof(meant)) != '\0')
		return opt_fail(p, NULL, "unknown option '%.*s' (did you "
		    "mean %s?)", len, tok, meant);
	return opt_fail(p, NULL, "unknown option '%.*s'", len, tok);
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
	return opt_fail(p, NULL, "unknown option '%.*s': options are not "
	    "abbreviated (did you mean --%s?)", (int)len, tok, o->name);
}

static const char *
mode_name(enum mode m)
{
	return m == MODE_SHOW ? "show-backoff-delays" :
	    m == MODE_SIMULATE ? "retry simulate" :
	    m == MODE_SHARE ? "retry share" : "retry";
}

static void
defaults(struct config *c, enum mode mode)
{
	memset(c, 0, sizeof(*c));
	c->mode = mode;
	c->backoff.strategy = STRAT_EXP;
	c->backoff.base = NS_PER_SEC;
	c->backoff.factor = 2;
	c->backoff.exponent_base = 2;
	c->backoff.max_delay = span_of(-1);
	c->backoff.max_attempts = 5;
	c->limits.budget = -1;
	c->limits.timeout = -1;
	c->limits.deadline = -1;
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

/* What the reports and the shared state take, built once. */
static void
module_opts(struct config *c)
{
	c->report = (struct reporter_opts){ .label = c->label,
	    .args = c->args, .nargs = c->nargs, .verbosity = c->verbosity,
	    .log_format = c->log_format, .ci = c->ci, .syslog = c->syslog,
	    .forever = c->limits.forever,
	    .max_attempts = c->backoff.max_attempts,
	    .successes = c->limits.successes, .budget = c->limits.budget,
	    .deadline = c->limits.deadline,
	    .retry_on = c->verdict.retry_on.set, .rules = &c->verdict.output,
	    .hedge = c->hedge.delay > 0,
	    .share = c->share, .share_rules = &c->share_rules };
	c->shared = (struct shared_opts){ .name = c->share,
	    .rules = &c->share_rules, .store = c->share_store,
	    .store_file = c->share_store_file, .timeout = c->share_timeout,
	    .connect_timeout = c->share_connect_timeout,
	    .required = c->share_required };
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
		    row->metavar != NULL ? required_argument :
		    optable_optional(row) ? optional_argument : no_argument,
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
		/* musl's optind counts a missing value: past the end. */
		if (ch == '?' || ch == ':')
			return unknown(&p, ch, argv[optind > argc ? argc - 1 :
			    optind - 1], mode);
		o = ch < OPT_MAX ? optable_find(ch == 'V' ? 'v' : ch, NULL) :
		    &optable[idx];
		/* The word of the option: before its value's, if apart. */
		if (ch >= OPT_MAX && abbreviated(&p, o, argv[optind - (optarg !=
		    NULL && optarg == argv[optind - 1] ? 2 : 1)]) != 0)
			return -1;
		if (!(o->modes & (1u << mode)))
			return opt_fail(&p, o, "is not an option of %s",
			    mode_name(mode));
		p.given[o->id - OPT_MAX] = true;
		if (apply(&p, o, optarg) != 0)
			return -1;
		p.last = o;
		p.last_arg = optarg;
		/* As Debian's retry and most tools: at once, whatever
		 * follows. */
		if (c->help || c->version)
			break;
	}
	/* --help all: the word after --help, which nothing else reads; any
	 * other word is not read, as any that follows. */
	if (c->help && !c->help_all && optind < argc &&
	    strcmp(argv[optind], "all") == 0)
		c->help_all = true;
	c->args = argv + optind;
	c->nargs = argc - optind;
	c->words = argv;
	c->nwords = argc;
	if (c->help || c->version)
		return 0;
	switch (opt_validate(&p)) {
	case 0:
		module_opts(c);
		return 0;
	case VALIDATE_NO_LIBRARY:
		return OPTIONS_NO_LIBRARY;
	case VALIDATE_NO_COMMAND:
		return OPTIONS_NO_COMMAND;
	default:
		return -1;
	}
}

void
options_free(struct config *c)
{
	free(c->list);
	c->list = NULL;
	rules_free(&c->verdict.output);
}
