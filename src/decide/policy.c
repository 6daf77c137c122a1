/*
 * The run policy, in the contract's order: what ends a run whatever its
 * command did (a command that could not be run, a signal that came to
 * retry, retry's own error, its reader gone), the back-off started over,
 * the verdict, success (--successes in a row), the next delay (the
 * engine's, or the output's), then the limits that end the run: attempts
 * (and the room they leave for --successes), the time since the start, a
 * --retry-on STATUS:N, the budget.  Shared state's answers come before an attempt (the gate)
 * and after it (the record).
 */
#include <errno.h>
#include <signal.h>
#include <string.h>

#include "duration.h"
#include "exits.h"
#include "policy.h"

/* Nothing decided yet about attempt n. */
static struct next
undecided(unsigned long n)
{
	return (struct next){ .what = NEXT_EXIT, .attempt = n,
	    .delay = { -1, -1, GIVE_UP_NONE, -1, -1 }, .at = -1, .others = -1 };
}

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
	const int64_t budget = p->l->budget, deadline = p->l->deadline;
	int64_t timeout = p->l->timeout;

	if (timeout >= 0 && budget >= 0 && budget - elapsed < timeout)
		timeout = budget > elapsed ? budget - elapsed : 0;
	/* The deadline holds whether or not --timeout is given. */
	if (deadline >= 0 && (timeout < 0 || deadline - elapsed < timeout))
		timeout = deadline > elapsed ? deadline - elapsed : 0;
	return timeout;
}

int
policy_cannot_run(int e)
{
	return e == ENOENT || e == ENOTDIR ? STATUS_ENOENT :
	    STATUS_CANNOT_INVOKE;
}

/* x cut short, for why: an exit with status, or a death by signal. */
static struct next
cut_short(const struct next *x, enum next_what what, enum end why, int status)
{
	struct next y = undecided(x->attempt);

	y.what = what;
	y.end = why;
	y.status = status;
	return y;
}

/* Whether o ends the run whatever the command's verdict; x then says
 * how. */
static bool
halted(const struct observed *o, struct next *x)
{
	if (o->exec_errno != 0)
		*x = cut_short(x, NEXT_EXIT, FIN_CANNOT_RUN,
		    policy_cannot_run(o->exec_errno));
	else if (o->received != 0)
		*x = cut_short(x, NEXT_DIE, FIN_SIGNAL, o->received);
	else if (o->own_error)
		*x = cut_short(x, NEXT_EXIT, FIN_OWN_ERROR, STATUS_CANCELED);
	else if (o->reader_gone) {
		*x = cut_short(x, NEXT_DIE, FIN_READER_GONE, SIGPIPE);
		x->outcome = (struct outcome){ V_STOP, WHY_READER_GONE };
	} else
		return false;
	return true;
}

struct next
policy_halt(struct next x, const struct observed *o)
{
	(void)halted(o, &x);
	return x;
}

/* A run that did not succeed never exits 0, even when its last attempt
 * did (a failure by its output, or by --success-on); but under --until or
 * --while, as in Debian's retry, a run exits with its last status. */
static int
unsuccessful(const struct verdict_rules *r, int status)
{
	return status == 0 && !r->criteria ? 1 : status;
}

/* The most a delay that the output asks for may be. */
static int64_t
asked_max(const struct backoff *b)
{
	return b->max_delay.ns >= 0 ? b->max_delay.ns : ASKED_MAX;
}

/*
 * The delay the output asked for, within --min-delay and --max-delay (or
 * ASKED_MAX): the next delay when it is at least the strategy's, which it
 * then replaces; with --delay-from-output-replaces, in any case.
 */
static void
apply_asked(struct next *x, const struct backoff *b, const struct limits *l,
    const struct observed *o)
{
	const int64_t max = asked_max(b);
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

/* What the output asks the other runs of --share to wait: what it asked
 * for a retry, even when this run waits longer, or, when a failure ends
 * the run, what it asked all the same; within --max-delay (or ASKED_MAX),
 * or -1. */
static int64_t
asked_of_others(const struct next *x, const struct backoff *b,
    const struct observed *o)
{
	int64_t ns = -1;

	if (x->what == NEXT_SLEEP && x->hinted)
		ns = x->hint;
	else if (x->what == NEXT_EXIT && x->outcome.verdict != V_SUCCESS &&
	    o->capture != NULL && delay_parse(o->capture, o->wall, &ns) !=
	    NULL)
		ns = -1;
	return ns > asked_max(b) ? asked_max(b) : ns;
}

/* The end of the run after attempt n, for why: a success ends it as one,
 * unless it was short of --successes in a row. */
static void
end_with(struct next *x, const struct verdict_rules *rules,
    const struct observed *o, enum give_up why)
{
	const bool won = x->outcome.verdict == V_SUCCESS && !x->pending;

	x->what = NEXT_EXIT;
	x->end = FIN_VERDICT;
	x->give_up = why;
	x->gave_up = !won;
	x->succeeded = won;
	x->delay = (struct delay){ -1, -1, why, -1, -1 };
	x->at = -1;
	x->status = won && !rules->criteria ? 0 :
	    unsuccessful(rules, o->status);
}

/* The successes in a row that end a run. */
static unsigned long
successes(const struct limits *l)
{
	return l->successes > 1 ? l->successes : 1;
}

/* The --retry-on STATUS:N that a failure with status passes, counted, or
 * NULL. */
static const struct codes_limit *
over_limit(struct policy *p, int status)
{
	const struct limits *l = p->l;
	const struct codes_limit *over = NULL;

	for (size_t i = 0; i < l->nretry_limits; i++)
		if (codes_has(&l->retry_limits[i].codes, status) &&
		    ++p->retried[i] > l->retry_limits[i].max && over == NULL)
			over = &l->retry_limits[i];
	return over;
}

/* Whether --max leaves too few attempts after attempt p->n for the
 * successes in a row that the run still needs. */
static bool
no_room(const struct policy *p)
{
	const unsigned long max = p->e.b->max_attempts;

	return !p->l->forever && max > 0 && (p->n >= max ||
	    max - p->n < successes(p->l) - p->streak);
}

/* The verdict on attempt p->n, and what follows it, into x: by pointer,
 * for show-backoff-delays replays a hundred thousand of them. */
static void
judge(struct policy *p, const struct observed *o, struct next *x)
{
	const struct backoff *b = p->e.b;
	const struct limits *l = p->l;

	/* A long enough attempt starts the back-off over; with --forever,
	 * the count of attempts too (without, --max still counts them),
	 * and so the counts of --retry-on's limits. */
	if (l->reset_after >= 0 && o->end - o->start >= l->reset_after &&
	    p->n > 1) {
		engine_init(&p->e, b, p->e.rng, 0);
		if (l->forever) {
			x->attempt = p->n = 1;
			memset(p->retried, 0, sizeof(p->retried));
		}
	}
	x->outcome = verdict(p->rules, o->status, o->signal, o->matched,
	    o->at_terminal);
	x->end = FIN_VERDICT;
	if (x->outcome.verdict == V_STOP) {
		/* Ctrl-C, or a pager quit: die of it too, so that a
		 * calling shell loop stops, and $? is the command's; a
		 * --stop-on status is the user's own choice. */
		if (x->outcome.reason == WHY_INTERRUPTED ||
		    x->outcome.reason == WHY_QUIT) {
			x->what = NEXT_DIE;
			x->status = o->signal;
		} else {
			x->gave_up = true;
			x->status = x->outcome.reason == WHY_STOP_ON ?
			    o->status : unsuccessful(p->rules, o->status);
		}
		return;
	}
	p->streak = x->outcome.verdict == V_SUCCESS ? p->streak + 1 : 0;
	x->streak = p->streak;
	if (x->outcome.verdict == V_SUCCESS && !l->forever &&
	    p->streak >= successes(l)) {
		x->succeeded = true;
		x->status = p->rules->criteria &&
		    x->outcome.reason != WHY_MATCHED ? o->status : 0;
		return;
	}
	x->pending = x->outcome.verdict == V_SUCCESS && !l->forever;
	/* A failure that ended at the deadline (it stopped the attempt)
	 * ends the run by it, whatever other limit it reached too. */
	if (x->outcome.verdict != V_SUCCESS && l->deadline >= 0 &&
	    o->end >= l->deadline) {
		end_with(x, p->rules, o, GIVE_UP_DEADLINE);
		return;
	}
	if (no_room(p)) {
		end_with(x, p->rules, o, successes(l) > 1 ?
		    GIVE_UP_SUCCESSES : GIVE_UP_MAX);
		return;
	}
	if (x->outcome.verdict == V_SUCCESS) {
		/* With --forever, --retry-on's limits count as --max does:
		 * failures since the last success. */
		if (l->forever)
			memset(p->retried, 0, sizeof(p->retried));
		x->delay = engine_success(&p->e, o->end_s);
	} else {
		x->delay = engine_failure(&p->e, o->end_s);
		if (x->delay.ns >= 0 && (x->limit = over_limit(p, o->status)) !=
		    NULL) {
			end_with(x, p->rules, o, GIVE_UP_LIMIT);
			return;
		}
		if (x->delay.ns >= 0 && o->capture != NULL)
			apply_asked(x, b, l, o);
	}
	if (x->delay.ns < 0) {
		end_with(x, p->rules, o, x->delay.why);
		return;
	}
	x->at = sat_add(o->end, x->delay.ns);
	if (l->budget >= 0 && x->at > l->budget) {
		end_with(x, p->rules, o, GIVE_UP_BUDGET);
		return;
	}
	/* No sleep nor attempt reaches past the deadline. */
	if (l->deadline >= 0 && x->at >= l->deadline) {
		end_with(x, p->rules, o, GIVE_UP_DEADLINE);
		return;
	}
	x->what = NEXT_SLEEP;
	x->end = FIN_NONE;
	p->n++;
}

void
policy_hedged(struct policy *p, unsigned long made)
{
	if (made > p->n)
		p->n = made;
}

struct next
policy_late(const struct policy *p, struct next x, const struct observed *o,
    int64_t now)
{
	if (x.what == NEXT_SLEEP && p->l->deadline >= 0 &&
	    now >= p->l->deadline)
		end_with(&x, p->rules, o, GIVE_UP_DEADLINE);
	return x;
}

struct next
policy_next(struct policy *p, const struct observed *o)
{
	struct next x = undecided(p->n);

	if (halted(o, &x))
		return x;
	judge(p, o, &x);
	x.counted = x.what != NEXT_DIE;
	x.others = asked_of_others(&x, p->e.b, o);
	return x;
}

/*
 * The limit that a wait until at would pass: --deadline (no wait reaches
 * it) or --budget (none ends past it), or GIVE_UP_NONE.  Past both, the
 * earlier of the two; at the same instant, the deadline, which holds from
 * its instant on.
 */
static enum give_up
wait_past(const struct limits *l, int64_t at)
{
	const bool deadline = l->deadline >= 0 && at >= l->deadline;
	const bool budget = l->budget >= 0 && at > l->budget;

	if (deadline && (!budget || l->deadline <= l->budget))
		return GIVE_UP_DEADLINE;
	return budget ? GIVE_UP_BUDGET : GIVE_UP_NONE;
}

/* The end of the run by shared state, before an attempt. */
static struct next
end_shared(struct next x, enum end why)
{
	x.what = NEXT_EXIT;
	x.end = why;
	x.gave_up = true;
	x.at = -1;
	x.status = STATUS_SHARED;
	return x;
}

struct next
policy_gate(const struct policy *p, const struct gate_answer *g, bool down,
    int64_t now)
{
	struct next x = undecided(p->n);
	int64_t wait;

	x.what = NEXT_ATTEMPT;
	if (g == NULL)
		return down ? end_shared(x, FIN_SHARE_DOWN) : x;
	x.waited = g->why;
	switch (g->what) {
	case GATE_GO:
		return x;
	case GATE_PROBE:
		x.probe = true;
		return x;
	case GATE_GIVE_UP:
		return end_shared(x, FIN_SHARE_OPEN);
	case GATE_WAIT:
		break;
	}
	/* At least a millisecond, whatever a store says. */
	wait = g->until > NS_PER_MS ? g->until : NS_PER_MS;
	x.at = sat_add(now, wait);
	if ((x.give_up = wait_past(p->l, x.at)) != GIVE_UP_NONE)
		return end_shared(x, FIN_SHARE_PAST_BUDGET);
	x.what = NEXT_SLEEP;
	x.delay = (struct delay){ wait, (double)wait / 1e9, GIVE_UP_NONE, wait,
	    wait };
	return x;
}

struct next
policy_shared(const struct policy *p, struct next x, const struct observed *o,
    const struct record_answer *a, bool down, int64_t now)
{
	const bool retry = x.what == NEXT_SLEEP &&
	    x.outcome.verdict != V_SUCCESS;

	if (!x.counted)
		return x;
	if (a == NULL) {
		/* A success stands; a retry needs the store. */
		if (!retry || !down)
			return x;
		end_with(&x, p->rules, o, GIVE_UP_STORE);
		x.status = STATUS_SHARED;
		return x;
	}
	if (retry && !a->retry)
		end_with(&x, p->rules, o, GIVE_UP_SHARED);
	/* The store's time counts against --budget too. */
	else if (x.what == NEXT_SLEEP && p->l->budget >= 0 &&
	    (now > x.at ? now : x.at) > p->l->budget)
		end_with(&x, p->rules, o, GIVE_UP_BUDGET);
	else if (x.what == NEXT_SLEEP && p->l->deadline >= 0 &&
	    (now > x.at ? now : x.at) >= p->l->deadline)
		end_with(&x, p->rules, o, GIVE_UP_DEADLINE);
	return x;
}
