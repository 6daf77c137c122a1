/*
 * The replays of show-backoff-delays and --dry-run.  A row gives a command
 * line and what each step of its replay must say: the delay in seconds as
 * show-backoff-delays prints it, "at T" when the step's attempt ended T
 * seconds into the run, and "-1 WHY" where the run gives up, for WHY.
 * With STATUS arguments the steps are theirs; without, every attempt fails
 * at once, when the delay before it ends.
 *
 * Then the statistics of --samples over a step's delays, and --samples
 * itself.
 */
#include <stdlib.h>
#include <string.h>

#include "number.h"
#include "options.h"
#include "replay.h"
#include "rng.h"
#include "unit.h"

static const struct row {
	const char	*name;
	const char	*command;
	const char	*want;
} rows[] = {
	/* STATUS arguments. */
	{ "each failure backs off further",
	  "show-backoff-delays --exp 1s 0 0 0", "1; 2; 4" },
	{ "a success does not end the replay, and starts the back-off over",
	  "show-backoff-delays --exp 1s 0 1 0 0", "1; 0; 1; 2" },
	{ "a time, and a time after the previous entry's",
	  "show-backoff-delays --exp 1s 0:5 0:+2.5 1",
	  "1 at 5; 2 at 7.5; 0 at 7.5" },
	{ "--max 2: the second failure gives up, and STATUS goes on",
	  "show-backoff-delays --exp 1s --max 2 0 0 0", "1; -1 max; -1 max" },
	{ "MIMD's multiple on a success",
	  "show-backoff-delays -a MIMD --initial-delay 1 "
	  "--delay-multiple-on-failure 2 --delay-multiple-on-success 0.5 "
	  "0 0 1 1", "1; 2; 1; 0.5" },
	{ "--max-actual-duration: the times of STATUS count",
	  "show-backoff-delays -a Exponential --initial-delay 1 "
	  "--max-actual-duration 5 0 0 0:4 0:6",
	  "1; 2; 4 at 4; -1 duration at 6" },
	{ "--successes: a success short of N waits the first delay, and the "
	  "Nth in a row ends the replay",
	  "show-backoff-delays --exp 1s --successes 2 -n 0 0 0 1 0 0 1 1 0",
	  "1; 2; 1; 1; 2; 1; -1" },
	{ "--successes: --max counts every STATUS, as in retry's run",
	  "show-backoff-delays --fixed 2s --successes 3 0 0 1 1 0 1 1 1",
	  "2; 2; 2; 2; -1 successes" },

	/* Every attempt failing. */
	{ "each attempt fails when the delay before it ends",
	  "show-backoff-delays --exp 1s --count 4",
	  "1; 2 at 1; 4 at 3; 8 at 7" },
	{ "--count steps at most",
	  "show-backoff-delays --fixed 250ms --count 3",
	  "0.25; 0.25 at 0.25; 0.25 at 0.5" },
	{ "the replay ends where the strategy gives up",
	  "show-backoff-delays -a Exponential --initial-delay 1 "
	  "--max-attempts 3 --count 10", "1; 2 at 1; -1 max at 3" },
	{ "--max-delay holds, and the default --max of 5 ends it",
	  "show-backoff-delays --exp 1s --max-delay 3s --count 9",
	  "1; 2 at 1; 3 at 3; 3 at 6; -1 max at 9" },
	{ "--max-actual-duration: the run's own time counts",
	  "show-backoff-delays -a Exponential --initial-delay 1 "
	  "--max-actual-duration 5 --count 10",
	  "1; 2 at 1; 4 at 3; -1 duration at 7" },

	/* retry --dry-run. */
	{ "--dry-run: the run's --max", "retry --dry-run --exp 1s --max 3",
	  "1; 2 at 1; -1 max at 3" },
	{ "--dry-run: --count steps of a run without a limit",
	  "retry --dry-run --exp 1s --max 0 --count 3", "1; 2 at 1; 4 at 3" },
	{ "--dry-run: no attempt starts past --budget",
	  "retry --dry-run --exp 1s --budget 5s --max 0",
	  "1; 2 at 1; -1 budget at 3" },
	{ "--successes: an all-failing run ends when --max leaves too few",
	  "show-backoff-delays --exp 1s --successes 3 --count 10",
	  "1; 2 at 1; -1 successes at 3" },
	{ "--dry-run: --successes", "retry --dry-run --fixed 1s --successes 3",
	  "1; 1 at 1; -1 successes at 2" },
	{ "--dry-run: --retry-on 1:2", "retry --dry-run --fixed 1s "
	  "--retry-on 1:2", "1; 1 at 1; -1 limit at 2" },
};

#define NROWS	(sizeof(rows) / sizeof(rows[0]))

/* Splits s at spaces into argv, its face's name first; its mode.  retry
 * gets a command at the end. */
static int
split(const char *s, char *buf, size_t bufsz, char **argv, int max,
    enum mode *mode)
{
	static char cmd[] = "true";
	int n = 0;

	snprintf(buf, bufsz, "%s", s);
	for (char *t = strtok(buf, " "); t != NULL && n < max - 2;
	    t = strtok(NULL, " "))
		argv[n++] = t;
	*mode = n > 0 && strcmp(argv[0], "retry") == 0 ? MODE_RETRY :
	    MODE_SHOW;
	if (*mode == MODE_RETRY)
		argv[n++] = cmd;
	argv[n] = NULL;
	return n;
}

/* A replay of c in the rows' words. */
static void
replay_words(const struct config *c, char *got, size_t gotsz)
{
	static const char *const why[] = {
		[GIVE_UP_NONE] = "", [GIVE_UP_MAX] = " max",
		[GIVE_UP_BUDGET] = " budget", [GIVE_UP_DURATION] = " duration",
		[GIVE_UP_SHARED] = " shared", [GIVE_UP_STORE] = " store",
		[GIVE_UP_LIMIT] = " limit", [GIVE_UP_SUCCESSES] = " successes",
	};
	char d[NUMBER_BUFSZ], t[NUMBER_BUFSZ];
	struct replay r;
	struct rng rng;
	struct step s;
	size_t len = 0;

	got[0] = '\0';
	rng_seed(&rng, 1);
	replay_start(&r, c, &rng);
	while (replay_step(&r, &s) && len < gotsz)
		len += (size_t)snprintf(got + len, gotsz - len, "%s%s%s%s%s",
		    len > 0 ? "; " : "", number_text(s.d.s, d),
		    s.d.ns < 0 ? why[s.d.why] : "",
		    s.st.time != 0 ? " at " : "",
		    s.st.time != 0 ? number_text(s.st.time, t) : "");
}

static void
rows_replay(void)
{
	char *argv[64], buf[1024], err[256], got[1024];
	struct config c;
	enum mode mode;

	for (size_t i = 0; i < NROWS; i++) {
		const struct row *r = &rows[i];
		const int argc = split(r->command, buf, sizeof(buf), argv, 64,
		    &mode);

		if (options_parse(argc, argv, mode, &c, err,
		    sizeof(err)) != 0) {
			unit_row(false, "replay", r->name, "options: %s", err);
			options_free(&c);
			continue;
		}
		replay_words(&c, got, sizeof(got));
		unit_row(strcmp(got, r->want) == 0, "replay", r->name,
		    "want %s\n# got  %s", r->want, got);
		options_free(&c);
	}
}

/* --samples' statistics: the median of an even count is the mean of the
 * middle two; p90 is the nearest rank, ceil(0.9 n). */
static void
rows_stats(void)
{
	static const struct {
		const char	*name;
		double		 v[20];
		size_t		 n;
		double		 min, median, p90, max;
	} t[] = {
		{ "one delay", { 3 }, 1, 3, 3, 3, 3 },
		{ "an odd count, in any order", { 5, 1, 3 }, 3, 1, 3, 5, 5 },
		{ "an even count", { 4, 1, 3, 2 }, 4, 1, 2.5, 4, 4 },
		{ "ten: p90 is the ninth", { 10, 9, 8, 7, 6, 5, 4, 3, 2, 1 },
		  10, 1, 5.5, 9, 10 },
		{ "eleven: p90 is the tenth", { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
		  11 }, 11, 1, 6, 10, 11 },
		{ "twenty: p90 is the eighteenth", { 1, 2, 3, 4, 5, 6, 7, 8, 9,
		  10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20 }, 20, 1, 10.5,
		  18, 20 },
		{ "ties", { 2, 2, 0, 2 }, 4, 0, 2, 2, 2 },
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		double v[20];
		struct stats s;

		memcpy(v, t[i].v, sizeof(v));
		stats_compute(v, t[i].n, &s);
		unit_row(s.runs == t[i].n && s.min == t[i].min &&
		    s.median == t[i].median && s.p90 == t[i].p90 &&
		    s.max == t[i].max, "stats", t[i].name,
		    "want %g %g %g %g of %zu, got %g %g %g %g of %lu", t[i].min,
		    t[i].median, t[i].p90, t[i].max, t[i].n, s.min, s.median,
		    s.p90, s.max, s.runs);
	}
}

/* The --samples of c, each step as "min median p90 max (runs)". */
static void
samples_words(const struct config *c, char *got, size_t gotsz)
{
	char a[NUMBER_BUFSZ], b[NUMBER_BUFSZ], p[NUMBER_BUFSZ], m[NUMBER_BUFSZ];
	struct sampler sp;
	struct stats x;
	struct rng rng;
	const char *why;
	size_t len = 0;

	got[0] = '\0';
	rng_seed(&rng, 1);
	if ((why = sampler_start(&sp, c, &rng)) != NULL)
		snprintf(got, gotsz, "%s", why);
	while (why == NULL && sampler_step(&sp, &x) && len < gotsz)
		len += (size_t)snprintf(got + len, gotsz - len,
		    "%s%s %s %s %s (%lu)", len > 0 ? "; " : "",
		    number_text(x.min, a), number_text(x.median, b),
		    number_text(x.p90, p), number_text(x.max, m), x.runs);
	sampler_free(&sp);
}

/* --samples: the runs go in step; a step where every run gave up has no
 * runs and -1 for each statistic. */
static void
rows_sampler(void)
{
	static const struct row t[] = {
		{ "without jitter every run is the same",
		  "show-backoff-delays --exp 1s --count 3 --samples 5",
		  "1 1 1 1 (5); 2 2 2 2 (5); 4 4 4 4 (5)" },
		{ "a step where every run gives up",
		  "show-backoff-delays -a Exponential --initial-delay 1 "
		  "--max-attempts 2 --count 5 --samples 3",
		  "1 1 1 1 (3); -1 -1 -1 -1 (0)" },
		{ "one run", "show-backoff-delays --exp 1s --count 2 "
		  "--samples 1", "1 1 1 1 (1); 2 2 2 2 (1)" },
	};
	char *argv[64], buf[1024], err[256], got[512];
	struct config c;
	enum mode mode;

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		const int argc = split(t[i].command, buf, sizeof(buf), argv,
		    64, &mode);

		if (options_parse(argc, argv, mode, &c, err,
		    sizeof(err)) != 0) {
			unit_row(false, "sampler", t[i].name, "options: %s",
			    err);
			options_free(&c);
			continue;
		}
		samples_words(&c, got, sizeof(got));
		unit_row(strcmp(got, t[i].want) == 0, "sampler", t[i].name,
		    "want %s\n# got  %s", t[i].want, got);
		options_free(&c);
	}
}

/* --samples over full jitter: the statistics in order, within 0 and the
 * strategy's delay, over every run. */
static void
row_sampler_jitter(void)
{
	char *argv[64], buf[1024], err[256];
	struct sampler sp;
	struct stats x = { 0 };
	struct config c;
	struct rng rng;
	enum mode mode;
	const int argc = split("show-backoff-delays --exp 1s --jitter full "
	    "--count 1 --samples 1000", buf, sizeof(buf), argv, 64, &mode);
	bool ok = false;

	if (options_parse(argc, argv, mode, &c, err, sizeof(err)) == 0) {
		rng_seed(&rng, 1);
		ok = sampler_start(&sp, &c, &rng) == NULL &&
		    sampler_step(&sp, &x) && x.runs == 1000 && x.min >= 0 &&
		    x.min <= x.median && x.median <= x.p90 &&
		    x.p90 <= x.max && x.max <= 1 && x.min < x.max;
		sampler_free(&sp);
	}
	unit_row(ok, "sampler", "full jitter: in order, within 0 and 1s",
	    "got %g %g %g %g of %lu", x.min, x.median, x.p90, x.max, x.runs);
	options_free(&c);
}

void
unit_replay(void)
{
	rows_replay();
	rows_stats();
	rows_sampler();
	row_sampler_jitter();
}
