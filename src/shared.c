/* A run's side of --share. */
#include <stdlib.h>
#include <string.h>

#include "shared.h"
#include "signals.h"

/* A store that failed is left alone this long: each try can cost up to
 * STORE_LOCK_WAIT. */
#define FAULT_PAUSE	(10 * 1000000000LL)

const char *
shared_spec(const struct config *c)
{
	const char *env = getenv("RETRY_SHARE_STORE");

	if (c->share_store != NULL)
		return c->share_store;
	return env != NULL && env[0] != '\0' ? env : NULL;
}

int
shared_open(struct shared *sh, const struct config *c,
    const struct reporter *rep, char *err, size_t errsz)
{
	memset(sh, 0, sizeof(*sh));
	sh->rules = &c->share_rules;
	sh->rep = rep;
	sh->name = c->share;
	while (sh->me == 0)
		arc4random_buf(&sh->me, sizeof(sh->me));
	if (store_open(&sh->store, shared_spec(c), true, err, errsz) == -1)
		return -1;
	if (store_name(&sh->store, c->share, true, err, errsz) == -1) {
		store_close(&sh->store);
		return -1;
	}
	sh->on = true;
	return 0;
}

/* One decision: fn under the lock; a fault or a corrupt state said once. */
static bool
decide(struct shared *sh, store_fn fn, void *arg, bool write)
{
	char err[512];
	bool corrupt;

	if (sh->faulty && mono_ns() < sh->retry_at)
		return false;
	if (store_update(&sh->store, sh->rules, wall_ns(), fn, arg, write,
	    &corrupt, err, sizeof(err)) == -1) {
		/* A signal ends the run: no fault of the store's. */
		if (signal_stop != 0)
			return false;
		if (!sh->faulty)
			report_error(sh->rep, "--share %s: %s; going on "
			    "without the shared state until it answers",
			    sh->name, err);
		sh->faulty = true;
		sh->retry_at = mono_ns() + FAULT_PAUSE;
		return false;
	}
	if (sh->faulty)
		report_error(sh->rep, "--share %s: the store answers again",
		    sh->name);
	sh->faulty = false;
	if (corrupt && !sh->said_corrupt)
		report_error(sh->rep, "--share %s: %s/%s was not a shared "
		    "state; it starts afresh", sh->name, sh->store.dir,
		    sh->name);
	sh->said_corrupt |= corrupt;
	return true;
}

struct gate_arg {
	const struct shared *sh;
	struct gate_answer a;
};

static void
gate_fn(struct share_state *s, void *p)
{
	struct gate_arg *g = p;

	g->a = share_gate(s, g->sh->rules, g->sh->me, wall_ns());
}

bool
shared_gate(struct shared *sh, struct gate_answer *a)
{
	struct gate_arg g = { sh, { GATE_GO, WAIT_NONE, 0 } };

	if (!sh->on || !decide(sh, gate_fn, &g, true))
		return false;
	*a = g.a;
	return true;
}

struct record_arg {
	const struct shared *sh;
	bool		 success;
	int64_t		 not_before;
	struct record_answer a;
	double		 tokens;
};

static void
record_fn(struct share_state *s, void *p)
{
	struct record_arg *r = p;

	r->a = share_record(s, r->sh->rules, r->sh->me, r->success,
	    r->not_before, wall_ns());
	r->tokens = s->tokens;
}

bool
shared_record(struct shared *sh, bool success, int64_t not_before,
    struct record_answer *a, double *tokens)
{
	struct record_arg r = { sh, success, not_before,
	    { false, false, false }, 0 };

	if (!sh->on || !decide(sh, record_fn, &r, true))
		return false;
	*a = r.a;
	*tokens = r.tokens;
	return true;
}

static void
leave_fn(struct share_state *s, void *p)
{
	const struct shared *sh = p;

	share_leave(s, sh->me, wall_ns());
}

void
shared_leave(struct shared *sh)
{
	if (sh->on)
		(void)decide(sh, leave_fn, sh, true);
}

void
shared_close(struct shared *sh)
{
	if (sh->on)
		store_close(&sh->store);
	sh->on = false;
}
