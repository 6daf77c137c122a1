/*
 * The shared state's rules as tables of steps, read by the unit test
 * (share.c of src) and by the replay against Redis (its script): one set
 * of rows, so the two stores keep the same rules.
 *
 * A row gives the rules and steps "VERB MEMBER @ SECONDS": g, a member
 * asks to start an attempt; f or s, its attempt failed or succeeded ("+S"
 * after the time: its output asked for S more seconds); l, it leaves.
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

#include "../../src/duration.h"
#include "../../src/share.h"

static const struct share_row {
	const char	*name;
	double		 max, ratio;
	unsigned long	 trip;
	int		 cooldown, lease;	/* seconds */
	bool		 give_up;
	const char	*steps;
	const char	*want;
} share_rows[] = {
	{ "the budget: a retry while tokens > N/2", 10, 0.1, 0, 0, 0, false,
	  "f1@0 f2@0 f3@0 f4@0 f5@0 f6@0",
	  "retry retry retry retry stop stop; 4 6 closed" },
	{ "the budget: a success gives R back", 10, 0.1, 0, 0, 0, false,
	  "f1@0 f1@0 f1@0 f1@0 f1@0 s2@1 f3@2",
	  "retry retry retry retry stop stop stop; 4.1 1 closed" },
	{ "the budget: never above N", 10, 0.5, 0, 0, 0, false,
	  "s1@0 s1@0 f1@0", "stop stop retry; 9 1 closed" },
	{ "the budget: never below 0", 2, 1, 0, 0, 0, false,
	  "f1@0 f1@0 f1@0 s1@0", "stop stop stop stop; 1 0 closed" },
	{ "the budget counts in thousandths: ten 0.2s make 2", 10, 0.2, 0, 0,
	  0, false, "f1@0 f1@0 f1@0 f1@0 f1@0 f1@0 s1@0 s1@0 s1@0 s1@0 s1@0 "
	  "s1@0 s1@0 s1@0 s1@0 s1@0 f1@0",
	  "retry retry retry retry stop stop stop stop stop stop stop stop "
	  "stop stop stop stop stop; 5 1 closed" },
	{ "the budget: R 0 gives nothing back", 4, 0, 0, 0, 0, false,
	  "f1@0 s1@0 f1@0", "retry stop stop; 2 1 closed" },
	{ "no breaker: any number of failures", 100, 0.1, 0, 0, 0, false,
	  "f1@0 f1@0 f1@0 f1@0 g2@1", "retry retry retry retry go; 96 4 closed" },
	{ "the breaker opens after N failures in a row", 100, 0.1, 3, 10, 5,
	  false, "f1@0 f2@1 f3@2 g4@3",
	  "retry retry retry+opened wait-open@12; 97 3 open" },
	{ "a success in between: no run of N", 100, 0.1, 3, 10, 5, false,
	  "f1@0 f2@1 s3@2 f1@3 f2@4 g4@5",
	  "retry retry stop retry retry go; 96.1 2 closed" },
	{ "half-open: one probe, the others wait for it", 100, 0.1, 1, 10, 5,
	  false, "f1@0 g2@10 g3@10 g1@11",
	  "retry+opened probe wait-probe@10.25 wait-probe@11.25; 99 1 half-open" },
	{ "the probe's success closes it", 100, 0.1, 1, 10, 5, false,
	  "f1@0 g2@10 s2@11 g3@11", "retry+opened probe stop+closed go; 99.1 0 closed" },
	{ "the probe's failure opens it again", 100, 0.1, 1, 10, 5, false,
	  "f1@0 g2@10 f2@11 g3@12",
	  "retry+opened probe retry+opened wait-open@21; 98 2 open" },
	{ "a probe's lease ends: another probes", 100, 0.1, 1, 10, 5, false,
	  "f1@0 g2@10 g3@14 g3@15", "retry+opened probe wait-probe@14.25 probe; 99 1 half-open" },
	{ "the probe leaves: another probes at once", 100, 0.1, 1, 10, 5,
	  false, "f1@0 g2@10 l2@11 g3@11", "retry+opened probe - probe; 99 1 half-open" },
	{ "the probe asks again: still its own", 100, 0.1, 1, 10, 5, false,
	  "f1@0 g2@10 g2@11", "retry+opened probe probe; 99 1 half-open" },
	{ "another's failure while half-open is no probe's", 100, 0.1, 1, 10,
	  5, false, "f1@0 g2@10 f3@11 g4@11",
	  "retry+opened probe retry wait-probe@11.25; 98 2 half-open" },
	{ "--share-open giveup: open", 100, 0.1, 1, 10, 5, true,
	  "f1@0 g2@1", "retry+opened giveup; 99 1 open" },
	{ "--share-open giveup: probing", 100, 0.1, 1, 10, 5, true,
	  "f1@0 g2@10 g3@10", "retry+opened probe giveup; 99 1 half-open" },
	{ "not-before holds every member", 10, 0.1, 0, 0, 0, false,
	  "f1@0+30 g2@1 g2@30", "retry wait-nb@30 go; 9 1 closed" },
	{ "not-before only moves later", 10, 0.1, 0, 0, 0, false,
	  "f1@0+30 f2@1+5 g3@2", "retry retry wait-nb@30; 8 2 closed" },
	{ "open, then not-before", 100, 0.1, 1, 10, 5, false,
	  "f1@0+20 g2@10", "retry+opened wait-nb@20; 99 1 half-open" },
};


/* What one step ("f1@0+30") answered, in the row's words, into out. */
typedef void	(*share_step_fn)(void *, const struct share_rules *,
		    const char *, char *, size_t);

/* The rules of a row. */
static struct share_rules
share_row_rules(const struct share_row *w)
{
	return (struct share_rules){ w->max, w->ratio, w->trip,
	    (int64_t)w->cooldown * NS_PER_SEC, (int64_t)w->lease * NS_PER_SEC,
	    w->give_up };
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
