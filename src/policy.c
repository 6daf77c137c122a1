/*
 * The run policy, in the contract's order: the reader gone, the back-off
 * started over, the verdict, success, the next delay (the engine's, or the
 * output's), then the limits that end the run: attempts, the time since
 * the start, the budget.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>

#include "duration.h"
#include "exits.h"
#include "policy.h"

void
policy_init(struct policy *p, const struct backoff *b,
    const struct limits *l, const struct verdict_rules *rules,
    struct rng *rng)
{
	memset(p, 0, sizeof(*p));
	p->l = l;
	p->rules = rules;
	p->n = 1;
	engine_init(&p->e, b, rng, 0);
}

int64_t
policy_timeout(const struct policy *p, int64_t elapsed)
{
	const int64_t budget = p->l->budget, timeout = p->l->timeout;

	if (timeout >= 0 && budget >= 0 && budget - elapsed < timeout)
		return budget > elapsed ? budget - elapsed : 0;
	return timeout;
}

int
policy_cannot_run(int e)
{
	return e == ENOENT || e == ENOTDIR ? EXIT_ENOENT : EXIT_CANNOT_INVOKE;
}

/* A run that did not succeed never exits 0, even when its last attempt
 * did (a failure by its output, or by --success-on); but under --until or
 * --while, as in Debian's retry, a run exits with its last status. */
static int
unsuccessful(const struct verdict_rules *r, int status)
{
	return status == 0 && !r->criteria ? 1 : status;
}

/*
 * The delay the output asked for, within --min-delay and --max-delay (or
 * ASKED_MAX): the next delay when it is at least the strategy's, which it
 * then replaces; with --delay-from-output-replaces, in any case.
 */
static void
asked(struct next *x, const struct backoff *b, const struct limits *l,
    const struct observed *o)
{
	const int64_t max = b->max_delay.ns >= 0 ? b->max_delay.ns :
	    ASKED_MAX;
	int64_t ns;

	if ((x->unusable = delay_parse(o->capture, o->wall, &ns)) != NULL)
		return;
	x->hinted = true;
	x->wanted = ns;
	x->strategy = x->delay.ns;
	if (ns > max)
		ns = max;
	if (ns < b->min_delay.ns)
		ns = b->min_delay.ns;
	x->hint = ns;
	if (ns < x->delay.ns && !l->output_replaces)
		return;
	x->delay.ns = ns;
	x->delay.s = (double)ns / 1e9;
	x->asked = true;
}

/* The end of the run after attempt n, for why. */
static struct next
ends(struct next x, const struct verdict_rules *rules,
    const struct observed *o, enum give_up why)
{
	x.what = NEXT_EXIT;
	x.give_up = why;
	x.delay = (struct delay){ -1, -1, why };
	x.status = x.outcome.verdict == V_SUCCESS && !rules->criteria ? 0 :
	    unsuccessful(rules, o->status);
	return x;
}

struct next
policy_denied(const struct policy *p, struct next x, const struct observed *o,
    enum give_up why)
{
	x = ends(x, p->rules, o, why);
	if (why == GIVE_UP_STORE)
		x.status = EXIT_SHARED;
	return x;
}

struct next
policy_late(const struct policy *p, struct next x, const struct observed *o,
    int64_t now)
{
	const int64_t at = sat_add(o->end, x.delay.ns);

	if (x.what == NEXT_SLEEP && p->l->budget >= 0 &&
	    (now > at ? now : at) > p->l->budget)
		return ends(x, p->rules, o, GIVE_UP_BUDGET);
	return x;
}

struct next
policy_next(struct policy *p, const struct observed *o)
{
	const struct backoff *b = p->e.b;
	const struct limits *l = p->l;
	struct next x = { .what = NEXT_EXIT, .attempt = p->n,
	    .delay = { -1, -1, GIVE_UP_NONE } };

	if (o->reader_gone) {
		x.outcome = (struct outcome){ V_STOP, WHY_READER_GONE };
		x.what = NEXT_DIE;
		x.status = SIGPIPE;
		return x;
	}
	/* A long enough attempt starts the back-off over; with --forever,
	 * the count of attempts too (without, --max still counts them). */
	if (l->reset_after >= 0 && o->end - o->start >= l->reset_after &&
	    p->n > 1) {
		engine_init(&p->e, b, p->e.rng, 0);
		if (l->forever)
			x.attempt = p->n = 1;
	}
	x.outcome = verdict(p->rules, o->status, o->signal, o->matched);
	if (x.outcome.verdict == V_STOP) {
		/* Ctrl-C: die of it too, so that a calling shell loop
		 * stops; a --stop-on status is the user's own choice. */
		if (x.outcome.reason == WHY_INTERRUPTED) {
			x.what = NEXT_DIE;
			x.status = o->signal;
		} else
			x.status = x.outcome.reason == WHY_STOP_ON ?
			    o->status : unsuccessful(p->rules, o->status);
		return x;
	}
	if (x.outcome.verdict == V_SUCCESS && !l->forever) {
		x.status = p->rules->criteria &&
		    x.outcome.reason != WHY_MATCHED ? o->status : 0;
		return x;
	}
	if (x.outcome.verdict != V_SUCCESS && !l->forever &&
	    b->max_attempts > 0 && p->n >= b->max_attempts)
		return ends(x, p->rules, o, GIVE_UP_MAX);
	if (x.outcome.verdict == V_SUCCESS)
		x.delay = engine_success(&p->e, o->end_s);
	else {
		x.delay = engine_failure(&p->e, o->end_s);
		if (x.delay.ns >= 0 && o->capture != NULL)
			asked(&x, b, l, o);
	}
	if (x.delay.ns < 0)
		return ends(x, p->rules, o, x.delay.why);
	if (l->budget >= 0 && sat_add(o->end, x.delay.ns) > l->budget)
		return ends(x, p->rules, o, GIVE_UP_BUDGET);
	x.what = NEXT_SLEEP;
	p->n++;
	return x;
}
