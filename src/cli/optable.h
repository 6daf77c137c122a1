/* The option table: one row per option, the one source that getopt_long,
 * validation, --help and the did-you-mean suggestions all read.  Each row
 * says the option's names, which faces take it, how its value is taken and
 * where in struct config it goes, and its help.  Pure. */
#ifndef RETRY_OPTABLE_H
#define RETRY_OPTABLE_H

#include <stdbool.h>
#include <stddef.h>

#include "config.h"
#include "engine.h"

/* An option, its aliases' rows too; the values after 256, so that a short
 * option's letter is never one. */
enum opt_id {
	OPT_MAX = 256, OPT_TIMES, OPT_BUDGET, OPT_DEADLINE, OPT_TIMEOUT, OPT_SIGNAL, OPT_KILL_AFTER,
	OPT_PRESERVE_STATUS, OPT_FOREGROUND, OPT_HEDGE,
	OPT_FIXED, OPT_LINEAR, OPT_EXP, OPT_FIB, OPT_DELAYS, OPT_DECORRELATED,
	OPT_IMMEDIATE, OPT_DECORRELATED_V2, OPT_ALGORITHM, OPT_MAX_DELAY, OPT_MIN_DELAY, OPT_FACTOR,
	OPT_DELAY, OPT_DELAY_ON_SUCCESS, OPT_INITIAL_DELAY, OPT_EXPONENT_BASE,
	OPT_INITIAL_DELAY1, OPT_INITIAL_DELAY2, OPT_INC_FAILURE, OPT_INC_SUCCESS,
	OPT_MUL_FAILURE, OPT_MUL_SUCCESS, OPT_JITTER_FACTOR, OPT_MAX_ACTUAL_DURATION,
	OPT_CONSIDER_ACTUAL_DELAY,
	OPT_SUCCESSES,
	OPT_JITTER, OPT_SEED,
	OPT_SUCCESS_ON, OPT_RETRY_ON, OPT_STOP_ON, OPT_UNTIL, OPT_WHILE,
	OPT_UNTIL_OUTPUT, OPT_FAIL_IF_OUTPUT, OPT_RETRY_IF_OUTPUT, OPT_STOP_IF_OUTPUT,
	OPT_DELAY_FROM_OUTPUT, OPT_DELAY_FROM_OUTPUT_REPLACES, OPT_FOREVER,
	OPT_RESET_AFTER, OPT_LOG_FORMAT, OPT_CI,
	OPT_LOG_FILE, OPT_SYSLOG, OPT_ON_RETRY, OPT_ON_GIVEUP, OPT_ON_SUCCESS,
	OPT_RESULT_FILE,
	OPT_MATCH, OPT_FIXED_STRINGS, OPT_IGNORE_CASE, OPT_STDIN, OPT_HOLD_STDOUT,
	OPT_ONLY_LAST,
	OPT_QUIET, OPT_VERBOSE, OPT_LABEL, OPT_DRY_RUN,
	OPT_SHARE, OPT_SHARE_BUDGET, OPT_SHARE_WINDOW, OPT_SHARE_BREAKER, OPT_SHARE_OPEN,
	OPT_SHARE_STORE, OPT_SHARE_STORE_FILE, OPT_SHARE_TIMEOUT, OPT_SHARE_CONNECT_TIMEOUT,
	OPT_SHARE_REQUIRED, OPT_COUNT, OPT_FORMAT, OPT_UNIT, OPT_CHART, OPT_ASCII, OPT_SAMPLES,
	OPT_CLIENTS, OPT_RUNS, OPT_FAILURE_RATE, OPT_LATENCY, OPT_LATENCY_AFTER,
	OPT_EXIT_ON_MATCH, OPT_HOLD, OPT_OUTPUT, OPT_ON,
	OPT_HELP, OPT_VERSION,
};

/* --hold's values: stdout, as --hold-stdout; last, as --only-last. */
enum { HOLD_STDOUT = 1, HOLD_LAST = 2 };

/* The sections of --help, in their order. */
enum opt_group {
	G_ATTEMPTS, G_STRATEGY, G_ALGORITHM, G_JITTER, G_VERDICT, G_STREAMS,
	G_REPORT, G_SHARE,
	G_SIMULATE, G_SHOW, G_OTHER,
};

/* Which -a algorithms take an option, and which need it: a row's takes
 * and needs are sets of OPT_ALGO bits, and OPT_CONCISE in takes says that
 * the concise strategies (--exp and the rest) take it too. */
#define OPT_ALGO(s)	(1u << ((s) - ALGO_CONSTANT))
#define OPT_CONCISE	(1u << 8)

/* In a row's modes, besides the faces that take it: face m takes it, but
 * m's --help all leaves it to another face's (the -a parameters, listed by
 * show-backoff-delays), or, m all faces, lists it only in another row's
 * text (-t, Debian's --max). */
#define OPT_UNLISTED(m)	(1u << (16 + (m)))
#define OPT_FACES	0xffffu

/* How an option's value is taken, and where it goes. */
enum opt_kind {
	K_FLAG,		/* bool: given */
	K_SET,		/* int: lo */
	K_DURATION,	/* int64_t ns; lo 1: more than 0 */
	K_WITHIN,	/* int64_t ns, from lo to hi ns; data says so */
	K_SPAN,		/* struct span */
	K_SECONDS,	/* double seconds; lo -1: negative too */
	K_COUNT,	/* unsigned long, whole, from lo to hi */
	K_REAL,		/* double, from lo to hi */
	K_CHOICE,	/* int: the value of one of data's names */
	K_CODES,	/* struct codes */
	K_SIGNAL,	/* int: a signal's number */
	K_TEXT,		/* char *: data complains if it is empty */
	K_LINE,		/* char *: one line, not empty, else data's complaint */
	K_TEXTS,	/* struct texts: one more, as K_TEXT takes it */
	K_STRATEGY,	/* backoff.strategy lo, and DUR into backoff.base */
	K_PARSED,	/* what lo's reader (enum opt_parser) takes */
	K_OTHER,	/* the parser's own code for this option; data, if
			 * not NULL, the names its value is one of */
};

/* The readers of K_PARSED rows: pure, each says why a value is wrong (the
 * parser says it after "'VALUE': "), and writes, only when it is right,
 * what it says here at the row's off. */
enum opt_parser {
	P_JITTER,	/* struct jitter */
	P_SUCCESS_ON,	/* struct verdict_rules: statuses, not criteria */
	P_UNTIL,	/* struct verdict_rules: criteria, as given */
	P_WHILE,	/* struct verdict_rules: criteria, inverted */
	P_SHARE_NAME,	/* char *: a shared state's name */
	P_SHARE_BUDGET,	/* struct share_rules: max and ratio */
	P_SHARE_BREAKER, /* struct share_rules: trip and cooldown */
	P_CLIENTS,	/* char *: numbers of clients, as simulate reads them */
	P_RATES,	/* char *: failure rates, as simulate reads them */
	P_HEDGE,	/* struct hedge: DUR[:N] */
	P_LATENCY,	/* struct latency: simulate's --latency */
};

/* A value among names, as in --format json. */
struct opt_choice {
	const char	*what;		/* "format" */
	size_t		 n;
	struct {
		const char	*name;
		int		 value;
	} names[8];
};

struct opt {
	const char	*name;
	int		 key;		/* short option, or 0 */
	enum opt_id	 id;
	const char	*metavar;	/* NULL: takes no value */
	enum opt_group	 group;
	unsigned	 modes;		/* the faces that take it: 1 << mode;
					 * and OPT_UNLISTED bits */
	unsigned	 takes, needs;	/* -a algorithms (OPT_ALGO bits) */
	enum opt_kind	 kind;		/* how its value is taken */
	size_t		 off;		/* where it goes in struct config */
	double		 lo, hi;	/* bounds, or the value to set */
	const void	*data;		/* a choice's names (K_CHOICE, K_OTHER),
					 * a complaint (K_TEXT, K_LINE,
					 * K_WITHIN), a number's reason for
					 * its bounds */
	const char	*help;		/* NULL: an alias, not listed */
};

/*
 * The options most runs need, in the order retry's short --help lists
 * them, each with a summary of one line; --help all lists every row.
 */
struct opt_brief {
	enum opt_id	 id;
	const char	*help;		/* one line, at most 50 columns */
};

#define OPTABLE_BRIEFS	26

extern const struct opt_brief optable_briefs[];

/* The rows, OPTABLE_ROWS of them (optable.c checks the number), so that
 * the parser's tables for getopt_long are arrays of a known size. */
#define OPTABLE_ROWS	100

extern const struct opt optable[];

/*
 * Two options that cannot both hold, said once for every face that takes
 * both: given together, the later check refuses them in one line that
 * names both, as two strategies are.  How they clash:
 */
enum opt_clash {
	C_BOTH,		/* whatever their values */
	C_STATUS,	/* when their status sets share a status */
	C_ABOVE,	/* when a's duration is above b's */
};

struct opt_conflict {
	enum opt_id	 a, b;
	enum opt_clash	 when;
	unsigned	 modes;		/* the faces that refuse them */
	const char	*why;		/* said after "conflicts with --b" */
};

#define OPTABLE_CONFLICTS	12

extern const struct opt_conflict optable_conflicts[];

/* Whether option id, given again, adds up (a list of statuses, an output
 * rule, a hook), its values in the order given; else the last counts.
 * --help marks those with OPT_ADDS_MARK. */
bool		 optable_adds(enum opt_id id);
#define OPT_ADDS_MARK	" +"

/* Whether row o takes a value only as --NAME=VALUE or, --help's, as the
 * word after it: one of its choices (--help all). */
bool		 optable_optional(const struct opt *o);

/* Whether face mode's --help all lists row o: an option of the face, not
 * an alias, nor one it leaves to another row or face. */
bool		 optable_listed(const struct opt *o, enum mode mode);

/* The row of the long option name, or, name NULL, of the short option key;
 * NULL if there is none. */
const struct opt *optable_find(int key, const char *name);
/* The listed row of option id (not an alias's), else its first: an
 * option folded into another's (--hold-stdout) is named as it was. */
const struct opt *optable_row(enum opt_id id);

#endif
