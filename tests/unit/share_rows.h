/*
 * The shared state's rules as tables of steps, read by the unit test
 * (share.c of src) and by the replay against Redis (its script): one set
 * of rows, so the two stores keep the same rules.
 *
 * A row gives the rules and steps "VERB MEMBER @ SECONDS": g, a member
 * asks to start an attempt; f or s, its attempt failed (and it would
 * retry) or succeeded; F, its last attempt failed (no retry to ask for);
 * "+S" after the time: its output asked for S more seconds; l, it leaves.
 * What each step answers: "go", "probe", "wait-open@T", "wait-probe@T",
 * "wait-nb@T", "giveup"; "retry" or "stop" (whether the budget allows a
 * retry), with "+opened" or "+closed"; "-" for a leave.  Then the state:
 * tokens, failures, breaker.
 */
#ifndef RETRY_SHARE_ROWS_H
#define RETRY_SHARE_ROWS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "duration.h"
#include "share.h"

static const struct share_row {
	const char	*name;
	double		 max, ratio;
	int		 window;		/* seconds */
	unsigned long	 trip;
	int		 cooldown, lease;	/* seconds */
	bool		 give_up;
	const char	*steps;
	const char	*want;
} share_rows[] = {
	{ "the budget: a retry takes a token while one is left", 4, 0.2, 60,
	  0, 0, 0, false, "f1@0 f2@0 f3@0 f4@0 f5@0 f6@0",
	  "retry retry retry retry stop stop; 0 6 closed" },
	{ "the budget: a run's last failure takes none", 2, 0.2, 60, 0, 0, 0,
	  false, "F1@0 F2@0 F3@0 f4@0 f4@0 f4@0",
	  "stop stop stop retry retry stop; 0 6 closed" },
	{ "the budget: a success gives R back", 2, 0.5, 60, 0, 0, 0, false,
	  "f1@0 f1@0 f1@0 s2@0 s3@0 f4@0 f4@0",
	  "retry retry stop stop stop retry stop; 0 2 closed" },
	{ "the budget: never above N", 10, 0.5, 60, 0, 0, 0, false,
	  "s1@0 s1@0 f1@0", "stop stop retry; 9 1 closed" },
	{ "the budget counts exactly: five 0.2s make a token", 1, 0.2, 60, 0,
	  0, 0, false, "f1@0 f1@0 s1@0 s1@0 s1@0 s1@0 s1@0 f1@0",
	  "retry stop stop stop stop stop stop retry; 0 1 closed" },
	{ "the budget: R 0 gives nothing back", 1, 0, 60, 0, 0, 0, false,
	  "f1@0 s1@0 f1@0", "retry stop stop; 0 1 closed" },
	{ "the budget: N come back every window, a part at a time", 10, 0,
	  10, 0, 0, 0, false, "f1@0 f1@0 f1@0 f1@0 f1@0 f1@0 f1@0 f1@0 f1@0 "
	  "f1@0 f2@0 f3@5 f4@9.9",
	  "retry retry retry retry retry retry retry retry retry retry stop "
	  "retry retry; 7.9 13 closed" },
	{ "the budget: whole a window later, with no success", 2, 0, 10, 0,
	  0, 0, false, "f1@0 f1@0 f1@0 f2@3 f2@10 f2@10 f2@10",
	  "retry retry stop stop retry retry stop; 0 7 closed" },
	{ "the budget: what comes back in a millisecond is kept", 1000, 0,
	  1000, 0, 0, 0, false, "f1@0 f1@0.001 f1@0.002",
	  "retry retry retry; 997.002 3 closed" },
	{ "a state a window old is dropped: a run of failures with it", 100,
	  0.1, 10, 3, 10, 5, false, "f1@0 f2@1 f3@12 f4@13 g5@13",
	  "retry retry retry retry go; 99 2 closed" },
	{ "an open circuit is kept past the window while it holds", 100, 0.1,
	  10, 1, 100, 5, false, "f1@0 g2@50 g2@99",
	  "retry+opened wait-open@100 wait-open@100; 99 1 open" },
	{ "no breaker: any number of failures", 100, 0.1, 3600, 0, 0, 0,
	  false, "f1@0 f1@0 f1@0 f1@0 g2@0",
	  "retry retry retry retry go; 96 4 closed" },
	{ "the breaker opens after N failures in a row", 100, 0.1, 60, 3, 10,
	  5, false, "f1@0 f2@0 f3@0 g4@3",
	  "retry retry retry+opened wait-open@10; 97 3 open" },
	{ "a success in between: no run of N", 100, 0.1, 60, 3, 10, 5, false,
	  "f1@0 f2@0 s3@0 f1@0 f2@0 g4@0",
	  "retry retry stop retry retry go; 96.1 2 closed" },
	{ "half-open: one probe, the others wait for it", 100, 0.1, 60, 1,
	  10, 5, false, "f1@0 g2@10 g3@10 g1@11",
	  "retry+opened probe wait-probe@10.25 wait-probe@11.25; 99 1 "
	  "half-open" },
	{ "the probe's success closes it", 100, 0.1, 60, 1, 10, 5, false,
	  "f1@0 g2@10 s2@11 g3@11",
	  "retry+opened probe stop+closed go; 100 0 closed" },
	{ "the probe's failure opens it again", 100, 0.1, 60, 1, 10, 5, false,
	  "f1@0 g2@10 F2@10 g3@12",
	  "retry+opened probe stop+opened wait-open@20; 100 2 open" },
	{ "a probe's lease ends: another probes", 100, 0.1, 60, 1, 10, 5,
	  false, "f1@0 g2@10 g3@14 g3@15",
	  "retry+opened probe wait-probe@14.25 probe; 99 1 half-open" },
	{ "the probe leaves: another probes at once", 100, 0.1, 60, 1, 10, 5,
	  false, "f1@0 g2@10 l2@11 g3@11",
	  "retry+opened probe - probe; 99 1 half-open" },
	{ "the probe asks again: still its own", 100, 0.1, 60, 1, 10, 5,
	  false, "f1@0 g2@10 g2@11",
	  "retry+opened probe probe; 99 1 half-open" },
	{ "another's failure while half-open is no probe's", 100, 0.1, 60, 1,
	  10, 5, false, "f1@0 g2@10 F3@10 g4@10",
	  "retry+opened probe stop wait-probe@10.25; 100 2 half-open" },
	{ "--share-open giveup: open", 100, 0.1, 60, 1, 10, 5, true,
	  "f1@0 g2@1", "retry+opened giveup; 99 1 open" },
	{ "--share-open giveup: probing", 100, 0.1, 60, 1, 10, 5, true,
	  "f1@0 g2@10 g3@10", "retry+opened probe giveup; 99 1 half-open" },
	{ "not-before holds every member", 10, 0.1, 60, 0, 0, 0, false,
	  "f1@0+30 g2@0 g2@30", "retry wait-nb@30 go; 9 1 closed" },
	{ "not-before only moves later", 10, 0.1, 60, 0, 0, 0, false,
	  "f1@0+30 f2@0+5 g3@0", "retry retry wait-nb@30; 8 2 closed" },
	{ "a not-before is kept past the window while it holds", 10, 0.1, 10,
	  0, 0, 0, false, "F1@0+3000 g2@2000",
	  "stop wait-nb@3000; 10 1 closed" },
	{ "open, then not-before", 100, 0.1, 60, 1, 10, 5, false,
	  "f1@0+20 g2@10", "retry+opened wait-nb@20; 99 1 half-open" },
};


/* What one step ("f1@0+30") answered, in the row's words, into out. */
typedef void	(*share_step_fn)(void *, const struct share_rules *,
		    const char *, char *, size_t);

/* The rules of a row. */
static struct share_rules
share_row_rules(const struct share_row *w)
{
	return (struct share_rules){ .max = w->max, .ratio = w->ratio,
	    .trip = w->trip, .cooldown = (int64_t)w->cooldown * NS_PER_SEC,
	    .lease = (int64_t)w->lease * NS_PER_SEC, .give_up = w->give_up,
	    .window = (int64_t)w->window * NS_PER_SEC };
}

/* The answers of a row's steps, one after another, into got. */
static void
share_row_steps(const struct share_row *w, const struct share_rules *r,
    share_step_fn step, void *arg, char *got, size_t sz)
{
	char steps[256], one[64], *tok, *save;

	got[0] = '\0';
	snprintf(steps, sizeof(steps), "%s", w->steps);
	for (tok = strtok_r(steps, " ", &save); tok != NULL;
	    tok = strtok_r(NULL, " ", &save)) {
		step(arg, r, tok, one, sizeof(one));
		snprintf(got + strlen(got), sz - strlen(got), "%s%s",
		    got[0] != '\0' ? " " : "", one);
	}
}

#endif
