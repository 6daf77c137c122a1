/* The checks that need every option, after the parse: conflicts,
 * requirements, ranges, each face's arguments, and what a run without a
 * limit or with --forever takes by default. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "duration.h"
#include "engine.h"
#include "entry.h"
#include "hedgemodel.h"
#include "learnmodel.h"
#include "match.h"
#include "optable.h"
#include "optparse.h"
#include "probeurl.h"
#include "share.h"
#include "simlists.h"
#include "validate.h"

/* The default --max-delay of --exp, --linear, --fib, --decorrelated and
 * --decorrelated-v2 in a run without a limit on attempts, as Kubernetes
 * caps its restarts. */
#define UNLIMITED_CAP	(5 * 60 * NS_PER_SEC)
/* --forever's default --delay-on-success, in seconds. */
#define FOREVER_DELAY_ON_SUCCESS	1.0

/* retry share: status [NAME]... or reset NAME... */
static int
validate_share(struct parse *p)
{
	const struct config *c = p->cfg;
	const char *why;

	if (c->nargs == 0 || (strcmp(c->args[0], "status") != 0 &&
	    strcmp(c->args[0], "reset") != 0))
		return opt_fail(p, NULL, "retry share: give status "
		    "[NAME]... or reset NAME...");
	if (strcmp(c->args[0], "reset") == 0 && c->nargs == 1)
		return opt_fail(p, NULL, "retry share reset: give the NAME to "
		    "reset");
	for (int i = 1; i < c->nargs; i++)
		if ((why = share_name_check(c->args[i])) != NULL)
			return opt_fail(p, NULL, "'%s': %s", c->args[i], why);
	return 0;
}

/* --share: the options that go with it, and the probe's lease: the
 * cooldown, or a timed-out attempt's whole time if that is longer. */
static int
validate_shared(struct parse *p)
{
	static const enum opt_id with[] = { OPT_SHARE_BUDGET, OPT_SHARE_WINDOW,
	    OPT_SHARE_BREAKER,
	    OPT_SHARE_OPEN, OPT_SHARE_STORE, OPT_SHARE_STORE_FILE, OPT_SHARE_TIMEOUT,
	    OPT_SHARE_CONNECT_TIMEOUT, OPT_SHARE_REQUIRED };
	struct config *c = p->cfg;
	struct share_rules *r = &c->share_rules;

	for (size_t i = 0; c->share == NULL && i < OPTABLE_ROWS; i++)
		for (size_t j = 0; j < sizeof(with) / sizeof(with[0]); j++)
			if (optable[i].id == with[j] &&
			    p->given[with[j] - OPT_MAX])
				return opt_fail(p, &optable[i],
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
		return opt_fail(p, optable_find(0, "ascii"),
		    "goes with --chart");
	if (c->chart && c->format != FORMAT_PLAIN)
		return opt_fail(p, optable_find(0, "chart"),
		    "draws its own output; leave out --format");
	for (int i = 0; i < c->nargs; i++)
		if ((why = entry_parse(c->args[i], st.time, &st)) != NULL)
			return opt_fail(p, NULL, "status '%s': %s", c->args[i],
			    why);
	return 0;
}

/* simulate's hedging model: exact, one latency LIST, no clients and no
 * back-off; LATENCY_DEFAULT where no --latency is given, and a hedge at
 * its 95th percentile where no --hedge is. */
static int
validate_hedging(struct parse *p)
{
	static const enum opt_id other[] = { OPT_FAILURE_RATE, OPT_CLIENTS,
	    OPT_CHART };
	struct config *c = p->cfg;

	for (size_t i = 0; i < OPTABLE_ROWS; i++)
		for (size_t j = 0; j < sizeof(other) / sizeof(other[0]); j++)
			if (optable[i].id == other[j] &&
			    p->given[other[j] - OPT_MAX])
				return opt_fail(p, &optable[i], "has no part "
				    "in the hedging model (--latency, "
				    "--hedge)");
	if (c->custom)
		return opt_fail(p, p->strategy != NULL ? p->strategy :
		    optable_find(0, "jitter"), "has no part in the hedging "
		    "model: its timeout retries at once");
	if (c->latency.n == 0)
		(void)latency_parse(LATENCY_DEFAULT, &c->latency);
	if (c->hedge.load > 0) {
		if (c->runs == 0)
			c->runs = LEARN_RUNS;
		if (c->runs < 2)
			return opt_fail(p, optable_find(0, "runs"), "must be 2 "
			    "or more with --hedge auto: the runs learn one "
			    "from another");
		return 0;
	}
	if (p->given[OPT_RUNS - OPT_MAX])
		return opt_fail(p, optable_find(0, "runs"), "has no part in "
		    "the hedging model (--latency, --hedge) but with --hedge "
		    "auto");
	if (c->latency_after.n > 0)
		return opt_fail(p, optable_find(0, "latency-after"), "needs "
		    "--hedge auto: a shift is for a delay that learns");
	if (c->hedge.delay == 0)
		c->hedge = (struct hedge){ latency_quantile(&c->latency,
		    0.95), HEDGE_N, 0 };
	return 0;
}

/* simulate: what was given, for the blog's model to fill in the rest
 * (sim_defaults, model.h). */
static int
validate_simulate(struct parse *p)
{
	struct config *c = p->cfg;

	if (c->nargs > 0)
		return opt_fail(p, NULL, "simulate takes no arguments: '%s'",
		    c->args[0]);
	c->custom = p->strategy != NULL || p->given[OPT_JITTER - OPT_MAX];
	c->given_strategy = p->strategy != NULL;
	c->given_max_delay = p->given[OPT_MAX_DELAY - OPT_MAX];
	c->given_max = p->given[OPT_MAX - OPT_MAX];
	if ((c->latency.n > 0 || c->latency_after.n > 0 ||
	    c->hedge.delay > 0 || c->hedge.load > 0) &&
	    validate_hedging(p) != 0)
		return -1;
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
	return opt_fail(p, o, "did you mean --%s %s? ('%s' would run as the "
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
	after_value = o != NULL && p->last_arg != NULL && opt_numeric(o) &&
	    p->last_arg >= before && p->last_arg < before + strlen(before);
	unit = duration_unit_word(cmd);
	if (after_value && bare_number(p->last_arg) && unit != NULL &&
	    strcmp(o->metavar, "N") != 0)
		return opt_fail(p, o, "did you mean --%s %s%s? ('%s' would "
		    "run as the command)", o->name, p->last_arg, unit, cmd);
	/* Debian's retry's list, with spaces: --delays 1 2 4. */
	if (after_value && bare_number(cmd) && strcmp(o->metavar, "LIST") == 0)
		return list_apart(p, o);
	if (after_value && (unit != NULL || count_word(cmd) ||
	    bare_number(cmd)))
		return opt_fail(p, o, "did you mean --%s %s? ('%s' would "
		    "run as the command; a command named %s goes after --)",
		    o->name, p->last_arg, cmd, cmd);
	if (bare_number(cmd) && c->nargs > 1 &&
	    duration_unit_word(c->args[1]) != NULL)
		return opt_fail(p, NULL, "'%s %s' would run as the command: "
		    "did you mean a duration, as in --timeout %s%s? (a "
		    "command named %s goes after --)", cmd, c->args[1], cmd,
		    duration_unit_word(c->args[1]), cmd);
	if (bare_number(cmd))
		return opt_fail(p, NULL, "'%s' would run as the command: did "
		    "you mean --max %s? (a command named %s goes after --)",
		    cmd, cmd, cmd);
	return 0;
}

/*
 * A probe in the command's place: no process, so no output to match or
 * hold, no stdin to replay, and no signal to send; each option that
 * speaks of those is refused, in one line.
 */
static int
validate_probe(struct parse *p)
{
	static const char *const process[] = {
		"hold-stdout", "only-last", "kill-after", "signal",
		"preserve-status", "foreground",
	};
	static const int given[] = {
		OPT_HOLD_STDOUT, OPT_ONLY_LAST, OPT_KILL_AFTER, OPT_SIGNAL,
		OPT_PRESERVE_STATUS, OPT_FOREGROUND,
	};
	struct config *c = p->cfg;
	const char *why;

	if ((why = probeurl_parse(c->args[0], &c->probe)) != NULL)
		return opt_fail(p, NULL, "probe '%s': %s", c->args[0], why);
	if (c->nargs > 1)
		return opt_fail(p, NULL, "probe '%s' takes no arguments (a "
		    "command named so runs as ./%s)", c->args[0], c->args[0]);
	for (int k = 0; k < RULE_COUNT; k++)
		if (c->patterns[k].n > 0)
			return opt_fail(p, NULL, "%s: a probe (%s) has no "
			    "output", rule_option((enum rule_kind)k),
			    c->args[0]);
	if (c->stdin_mode == STDIN_REPLAY)
		return opt_fail(p, optable_find(0, "stdin"), "a probe (%s) "
		    "has no stdin to replay", c->args[0]);
	for (size_t i = 0; i < sizeof(given) / sizeof(given[0]); i++)
		if (p->given[given[i] - OPT_MAX])
			return opt_fail(p, optable_find(0, process[i]),
			    "a probe (%s) has no process", c->args[0]);
	return 0;
}

/*
 * --hedge: attempts side by side each read stdin from its start (replay)
 * or nothing; the options it cannot be given with are the table's
 * conflicts.
 */
static int
validate_hedge(struct parse *p)
{
	const struct opt *h = optable_find(0, "hedge");
	struct config *c = p->cfg;
	char t[DURATION_BUFSZ], d[DURATION_BUFSZ];

	if (c->hedge.load > 0)
		return opt_fail(p, h, "auto: a delay learned run by run is "
		    "retry simulate's model; a run takes DUR or DUR:N");
	if (c->hedge.delay == 0)
		return 0;
	if (c->stdin_mode == STDIN_INHERIT)
		return opt_fail(p, h, "needs --stdin replay or --stdin null "
		    "(attempts side by side cannot share one stdin)");
	/* Not a row of the table of conflicts: --successes 1 is the
	 * default, and holds. */
	if (c->limits.successes > 1)
		return opt_fail(p, h, "conflicts with --successes (a hedged "
		    "run ends on its first success)");
	if (c->nargs > 0 && probeurl_is(c->args[0]))
		return opt_fail(p, h, "a probe (%s) cannot be hedged",
		    c->args[0]);
	if (c->limits.timeout >= 0 && c->limits.timeout <= c->hedge.delay)
		return opt_fail(p, h, "conflicts with --timeout (%s is not "
		    "below %s: no attempt runs long enough to be hedged)",
		    duration_format(c->limits.timeout, t, sizeof(t)),
		    duration_format(c->hedge.delay, d, sizeof(d)));
	return 0;
}

/* retry: the output rules, compiled now that -F and -i are known. */
static int
validate_retry(struct parse *p)
{
	struct config *c = p->cfg;
	char why[256];
	size_t bad;
	int rc;

	for (int k = 0; k < RULE_COUNT; k++) {
		const struct texts *re = &c->patterns[k];

		for (size_t i = 0; i < re->n; i++)
			if (*re->v[i] == '\0')
				return opt_fail(p, NULL, "%s: empty pattern",
				    rule_option((enum rule_kind)k));
		if (re->n > 0 && (rc = rule_compile_all(&c->verdict.output,
		    (enum rule_kind)k, (const char *const *)re->v, re->n,
		    c->fixed_strings, c->ignore_case, why, sizeof(why),
		    &bad)) != 0) {
			(void)opt_fail(p, NULL, "%s: '%s': %s",
			    rule_option((enum rule_kind)k), re->v[bad], why);
			/* A library that cannot load is no usage error. */
			return rc == -2 ? VALIDATE_NO_LIBRARY : -1;
		}
	}
	if (c->verdict.exit_on_match && c->patterns[RULE_UNTIL].n == 0)
		return opt_fail(p, optable_find(0, "exit-on-match"),
		    "goes with --output until, whose match it waits for");
	if (c->limits.output_replaces && c->patterns[RULE_CAPTURE].n == 0)
		return opt_fail(p,
		    optable_find(0, "delay-from-output-replaces"),
		    "goes with --output delay, whose delay it takes");
	if (!rules_any(&c->verdict.output)) {
		const char *lone = p->given[OPT_MATCH - OPT_MAX] ? "match" :
		    p->given[OPT_FIXED_STRINGS - OPT_MAX] ? "fixed-strings" :
		    p->given[OPT_IGNORE_CASE - OPT_MAX] ? "ignore-case" : NULL;

		if (lone != NULL)
			return opt_fail(p, optable_find(0, lone),
			    "goes with an output rule such as "
			    "--output until");
	}
	if (p->given[OPT_COUNT - OPT_MAX] && !c->dry_run)
		return opt_fail(p, optable_find(0, "count"),
		    "goes with --dry-run (a run is limited by --max)");
	if (c->nargs == 0 && !c->dry_run) {
		(void)opt_fail(p, NULL, "no command given (as in: retry -- "
		    "curl -fsS URL)");
		return VALIDATE_NO_COMMAND;
	}
	if (c->nargs > 0 && stray_word(p) != 0)
		return -1;
	if (c->nargs > 0 && probeurl_is(c->args[0]) && validate_probe(p) != 0)
		return -1;
	if (validate_hedge(p) != 0)
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
			return opt_fail(p, o, "'%s': %s (with -a, one "
			    "number of seconds)", p->delay, why);
		return 0;
	}
	return opt_strategy(p, o, STRAT_LIST) || opt_delay_list(p, o, p->delay);
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

	if (p->given[OPT_DELAY_ON_SUCCESS - OPT_MAX])
		return;
	/* --forever: a command that succeeds at once (a daemon that forks
	 * and exits) is not restarted faster than once a second, as runit's
	 * runsv waits a second before it restarts a service that ran for
	 * less.  -a's increase/decrease strategies keep their own rule. */
	if (p->cfg->limits.forever && (!algo || b->strategy == ALGO_CONSTANT ||
	    b->strategy == ALGO_EXPONENTIAL || b->strategy == ALGO_FIBONACCI)) {
		*d = FOREVER_DELAY_ON_SUCCESS;
		return;
	}
	if (p->cfg->limits.successes <= 1)
		return;
	if (!algo)
		*d = b->strategy == STRAT_IMMEDIATE ? 0 : b->strategy == STRAT_LIST ?
		    (double)b->list[0] / 1e9 : (double)b->base / 1e9;
	else if (b->strategy == ALGO_CONSTANT)
		*d = b->delay;
	else if (b->strategy == ALGO_EXPONENTIAL)
		*d = b->initial_delay;
	else if (b->strategy == ALGO_FIBONACCI)
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

	if (b->strategy != STRAT_DECORRELATED || b->max_delay.ns >= b->base)
		return 0;
	return opt_fail(p, optable_find(0, "max-delay"), "%s is below "
	    "--decorrelated's %s, the least delay it draws", duration_format(
	    b->max_delay.ns, cap, sizeof(cap)), duration_format(b->base, base,
	    sizeof(base)));
}

/* The statuses that option id gave. */
static const struct codes *
status_set(const struct config *c, enum opt_id id)
{
	return id == OPT_STOP_ON ? &c->verdict.stop_on :
	    id == OPT_RETRY_ON ? &c->verdict.retry_on : &c->verdict.success_on;
}

/* The first status in both, or -1. */
static int
shared_status(const struct codes *a, const struct codes *b)
{
	for (int s = 0; s <= STATUS_MAX; s++)
		if (codes_has(a, s) && codes_has(b, s))
			return s;
	return -1;
}

/* The duration option id gave, in ns. */
static int64_t
span_given(const struct config *c, enum opt_id id)
{
	return id == OPT_MIN_DELAY ? c->backoff.min_delay.ns :
	    c->backoff.max_delay.ns;
}

/* The pairs of the option table's conflicts given together, in one line
 * that names both. */
static int
conflicts(struct parse *p)
{
	const struct config *c = p->cfg;
	char a[32], b[32];
	int s;

	for (size_t i = 0; i < OPTABLE_CONFLICTS; i++) {
		const struct opt_conflict *k = &optable_conflicts[i];
		const struct opt *oa = optable_row(k->a), *ob = optable_row(k->b);

		if (!(k->modes & (1u << c->mode)) || !p->given[k->a - OPT_MAX] ||
		    !p->given[k->b - OPT_MAX])
			continue;
		switch (k->when) {
		case C_BOTH:
			return opt_fail(p, oa, "conflicts with --%s (%s)",
			    ob->name, k->why);
		case C_STATUS:
			if ((s = shared_status(status_set(c, k->a),
			    status_set(c, k->b))) < 0)
				break;
			return opt_fail(p, oa, "conflicts with --%s on "
			    "status %d (%s)", ob->name, s, k->why);
		case C_ABOVE:
			if (span_given(c, k->a) <= span_given(c, k->b))
				break;
			return opt_fail(p, oa, "conflicts with --%s (%s is "
			    "above %s: %s)", ob->name, duration_format(
			    span_given(c, k->a), a, sizeof(a)), duration_format(
			    span_given(c, k->b), b, sizeof(b)), k->why);
		}
	}
	return 0;
}

/*
 * --retry-on that names a status of the default success (0): that status
 * never reaches it, so the option would quietly mean "stop on every
 * failure".  Refused as the table refuses it beside --success-on, unless
 * --success-on or --until says what succeeds (the table's), --while does
 * (its own rule), or an output rule can make an exit 0 a failure, which
 * --retry-on 0 then retries.
 */
static int
success_retried(struct parse *p)
{
	const struct config *c = p->cfg;
	int s;

	if (c->mode != MODE_RETRY || !p->given[OPT_RETRY_ON - OPT_MAX] ||
	    p->given[OPT_SUCCESS_ON - OPT_MAX] || p->given[OPT_UNTIL - OPT_MAX] ||
	    p->given[OPT_WHILE - OPT_MAX] || p->given[OPT_FAIL_IF_OUTPUT - OPT_MAX] ||
	    p->given[OPT_UNTIL_OUTPUT - OPT_MAX] ||
	    (s = shared_status(&c->verdict.retry_on,
	    &c->verdict.success_on)) < 0)
		return 0;
	return opt_fail(p, optable_row(OPT_RETRY_ON), "status %d is a success, never "
	    "retried; --success-on can say which statuses succeed", s);
}

/* Checks that need every option: conflicts, requirements, ranges. */
int
opt_validate(struct parse *p)
{
	struct config *c = p->cfg;
	struct backoff *b = &c->backoff;
	const bool algo = strategy_is_algorithm(b->strategy);
	const unsigned bit = algo ? OPT_ALGO(b->strategy) : 0;

	for (size_t i = 0; i < OPTABLE_ROWS; i++) {
		const struct opt *o = &optable[i];

		if (o->takes == 0 || o->help == NULL)
			continue;
		if (p->given[o->id - OPT_MAX] && !algo &&
		    !(o->takes & OPT_CONCISE))
			return opt_fail(p, o, "goes with -a/--algorithm");
		if (p->given[o->id - OPT_MAX] && algo && !(o->takes & bit))
			return opt_fail(p, o, "is not an option of -a %s",
			    algorithm_name(b->strategy));
		if (algo && (o->needs & bit) && !p->given[o->id - OPT_MAX])
			return opt_fail(p, optable_find(0, "algorithm"),
			    "%s needs --%s", algorithm_name(b->strategy),
			    o->name);
	}
	if (p->delay != NULL && resolve_delay(p, algo) != 0)
		return -1;
	if (conflicts(p) != 0 || success_retried(p) != 0)
		return -1;
	/* No limit on attempts: --forever's default; a time limit alone
	 * (--budget, --deadline, --max-actual-duration), as tenacity's
	 * stop_after_delay and joshdk/retry's total time;
	 * and show-backoff-delays -a, Algorithm::Backoff's own default.
	 * A --budget, --deadline or --max-actual-duration of 0 is none,
	 * as if not given: the default --max holds. */
	if (!p->given[OPT_MAX - OPT_MAX] && (c->limits.forever ||
	    c->limits.budget >= 0 || c->limits.deadline >= 0 ||
	    b->max_actual_duration > 0 ||
	    (algo && c->mode == MODE_SHOW)))
		b->max_attempts = 0;
	/* A strategy that grows, in a run without a limit, waits at most
	 * UNLIMITED_CAP unless --max-delay says otherwise. */
	if (b->max_attempts == 0 && !p->given[OPT_MAX_DELAY - OPT_MAX] &&
	    (b->strategy == STRAT_EXP || b->strategy == STRAT_LINEAR ||
	    b->strategy == STRAT_FIB || b->strategy == STRAT_DECORRELATED ||
	    b->strategy == STRAT_DECORRELATED_V2))
		b->max_delay = span_of(UNLIMITED_CAP);
	if (p->given[OPT_MAX_DELAY - OPT_MAX] && floor_above_cap(p) != 0)
		return -1;
	if (!algo && (b->jitter_factor > 0 || b->consider_actual_delay))
		return opt_fail(p, optable_find(0, b->consider_actual_delay ?
		    "consider-actual-delay" : "jitter-factor"),
		    "goes with -a/--algorithm");
	if (p->given[OPT_FACTOR - OPT_MAX] && b->strategy != STRAT_EXP)
		return opt_fail(p, optable_find(0, "factor"),
		    "goes with --exp");
	if (c->limits.forever && p->given[OPT_SUCCESSES - OPT_MAX])
		return opt_fail(p, optable_find(0, "successes"),
		    "a --forever run never ends on a success");
	if (b->max_attempts > 0 && c->limits.successes > b->max_attempts)
		return opt_fail(p, optable_find(0, "successes"), "%lu in a row "
		    "cannot fit in --max %lu", c->limits.successes,
		    b->max_attempts);
	between_successes(p, algo);
	if (c->mode == MODE_SIMULATE)
		return validate_simulate(p);
	if (c->mode == MODE_SHARE)
		return validate_share(p);
	return c->mode == MODE_SHOW ? validate_show(p) : validate_retry(p);
}
