/* What a command line says, as options.c parses it and validate.c checks
 * it: data only, read by every layer above (the options' table and parser
 * fill it, the edge and the faces read it).  Pure: no functions. */
#ifndef RETRY_CONFIG_H
#define RETRY_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "codes.h"
#include "engine.h"
#include "hedging.h"
#include "match.h"
#include "policy.h"
#include "probeurl.h"
#include "share.h"
#include "simlists.h"
#include "verdict.h"

enum mode { MODE_RETRY, MODE_SHOW, MODE_SIMULATE, MODE_SHARE };
enum format { FORMAT_PLAIN, FORMAT_TABLE, FORMAT_CSV, FORMAT_JSON };
enum verbosity { QUIET = -1, NORMAL = 0, VERBOSE = 1 };
enum stdin_mode { STDIN_INHERIT, STDIN_REPLAY, STDIN_NULL };
enum match_stream { MATCH_BOTH, MATCH_STDOUT, MATCH_STDERR };
enum log_format { LOG_TEXT, LOG_JSON };
enum unit { UNIT_S, UNIT_MS };
/* --ci: which CI's log format retry's own lines take (cifmt.h). */
enum ci_mode { CI_AUTO, CI_GITHUB, CI_GITLAB, CI_NONE };

/* The values of an option that adds up: each given, in order. */
#define TEXTS_MAX	16
struct texts {
	char		*v[TEXTS_MAX];
	size_t		 n;
};

/* What reports need, as the options say. */
struct reporter_opts {
	const char	*label;		/* --label, or NULL */
	char *const	*args;		/* the command */
	int		 nargs;
	enum verbosity	 verbosity;	/* -q, --verbose */
	enum log_format	 log_format;	/* --log-format */
	enum ci_mode	 ci;		/* --ci */
	bool		 syslog;	/* --syslog */
	bool		 forever;	/* --forever */
	unsigned long	 max_attempts;	/* --max */
	unsigned long	 successes;	/* --successes */
	int64_t		 budget;	/* --budget, ns, or -1 */
	int64_t		 deadline;	/* --deadline, ns, or -1 */
	bool		 retry_on;	/* --retry-on given */
	bool		 hedge;		/* --hedge given */
	const struct output_rules *rules;	/* the output rules */
	const char	*share;		/* --share NAME, or NULL */
	const struct share_rules *share_rules;
};

/* What a run, `retry share` or --dry-run says of its shared state. */
struct shared_opts {
	const char	*name;		/* --share NAME, or NULL */
	const struct share_rules *rules;
	const char	*store;		/* --share-store, or NULL */
	const char	*store_file;	/* --share-store-file, or NULL */
	int64_t		 timeout;	/* --share-timeout, ns */
	int64_t		 connect_timeout;	/* --share-connect-timeout, ns;
					 * 0: the default */
	bool		 required;	/* --share-required */
};

struct config {
	enum mode	 mode;
	struct backoff	 backoff;
	int64_t		*list;		/* owns backoff.list */
	bool		 seeded;
	uint64_t	 seed;
	struct limits	 limits;
	int64_t		 kill_after;	/* ns */
	int		 signal;
	bool		 preserve_status;	/* a timed-out attempt's status
						 * is the command's */
	struct hedge	 hedge;		/* --hedge, or delay 0 */
	bool		 foreground;	/* attempts stay in retry's process
					 * group (timeout --foreground) */
	struct verdict_rules verdict;
	struct codes_limit retry_limits[CODES_LIMITS];	/* limits.retry_limits */
	struct texts	 patterns[RULE_COUNT];	/* the output rules given,
						 * --delay-from-output's too */
	enum match_stream match;
	bool		 fixed_strings, ignore_case;
	enum stdin_mode	 stdin_mode;
	bool		 hold_stdout;
	bool		 only_last;
	enum log_format	 log_format;
	enum ci_mode	 ci;
	char		*log_file;
	bool		 syslog;
	struct texts	 on_retry, on_giveup;	/* sh -c's arguments */
	struct texts	 on_success;	/* sh -c's arguments */
	char		*result_file;	/* --result-file, or NULL */
	enum verbosity	 verbosity;
	char		*label;
	bool		 dry_run;
	bool		 help, version;
	bool		 help_all;	/* --help all: every option */
	/* shared state (--share), and retry share */
	char		*share;		/* NAME, or NULL */
	struct share_rules share_rules;
	char		*share_store;	/* --share-store, or NULL */
	char		*share_store_file;	/* --share-store-file, or NULL */
	int64_t		 share_timeout;	/* ns, a lock, an exchange */
	int64_t		 share_connect_timeout;	/* ns, a new connection to
					 * Redis; 0: SHARE_CONNECT_TIMEOUT,
					 * or share_timeout if longer */
	bool		 share_required;	/* a store that does not answer
					 * ends the run (75) */
	/* show-backoff-delays */
	unsigned long	 count;
	enum format	 format;
	enum unit	 unit;
	bool		 chart, ascii;
	unsigned long	 samples;	/* 0: one run */
	/* simulate */
	const char	*clients;	/* the --clients LIST, checked */
	const char	*failure_rates;	/* --failure-rate LIST, checked */
	struct latency	 latency;	/* --latency LIST; n 0: not given */
	struct latency	 latency_after;	/* --latency-after LIST, or n 0 */
	unsigned long	 runs;
	bool		 custom;	/* a strategy or --jitter given */
	bool		 given_strategy, given_max_delay, given_max;	/* the
					 * blog's model where not (model.h) */
	/* The command (retry) or the STATUS arguments (show). */
	char *const	*args;
	int		 nargs;
	struct probe_url probe;		/* args[0] as a probe, or PROBE_NONE */
	/* The whole command line, retry's name first: ps shows it. */
	char *const	*words;
	int		 nwords;
	/* What the modules take, built once from the above by options.c. */
	struct reporter_opts report;
	struct shared_opts shared;
};

#endif
