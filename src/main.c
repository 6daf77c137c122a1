/* retry: run a command until it succeeds, backing off between attempts. */
#include <err.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compat.h"
#include "env.h"
#include "exits.h"
#include "help.h"
#include "loop.h"
#include "mathlib.h"
#include "options.h"
#include "report.h"
#include "rng.h"
#include "sharecmd.h"
#include "show.h"
#include "signals.h"
#include "simulate.h"

extern char **environ;

#ifndef VERSION
#define VERSION "unknown"
#endif

/* fds 0-2 closed by the caller would be taken by retry's own files: they
 * hold /dev/null, and closed[] says which they were. */
static void
open_std_fds(bool closed[3])
{
	int fd;

	for (int i = 0; i < 3; i++)
		closed[i] = fcntl(i, F_GETFD) == -1;
	if (!closed[0] && !closed[1] && !closed[2])
		return;
	while ((fd = open("/dev/null", O_RDWR)) >= 0 && fd <= 2)
		;
	if (fd > 2)
		close(fd);
}

int
main(int argc, char *argv[])
{
	struct config cfg;
	struct reporter_opts ro;
	struct reporter rep;
	struct rng rng;
	char **const argv0 = argv, **const envp0 = environ;
	const int argc0 = argc;
	const char *name = strrchr(argv[0], '/');
	enum mode mode = MODE_RETRY;
	char why[512], *help;
	uint64_t seed;
	bool closed[3];
	int status;

	open_std_fds(closed);
	/*
	 * Set-user-ID or set-group-ID, or with file capabilities: a copy
	 * made so would run any command with privileges that its user has
	 * not.  Refused, as sudo is the tool for that.
	 */
	if (compat_privileged())
		errx(STATUS_CANCELED, "refusing to run set-user-ID, "
		    "set-group-ID or with capabilities: it would run any "
		    "command with them");
	name = name != NULL ? name + 1 : argv[0];
	if (strcmp(name, "show-backoff-delays") == 0)
		mode = MODE_SHOW;
	else {
		setprogname("retry");
		if (argc > 1 && strcmp(argv[1], "show-backoff-delays") == 0) {
			mode = MODE_SHOW;
			argc--, argv++;
		} else if (argc > 1 && strcmp(argv[1], "simulate") == 0) {
			mode = MODE_SIMULATE;
			argc--, argv++;
		} else if (argc > 1 && strcmp(argv[1], "share") == 0) {
			mode = MODE_SHARE;
			argc--, argv++;
		}
	}
	/* A run's title in ps(1) says which attempt it is at.  Before the
	 * options point into argv, which titles write over; and with the
	 * environment moved first, so setproctitle_init need not copy it
	 * variable by variable with setenv(3). */
	if (mode == MODE_RETRY) {
		if (env_init() == -1)
			err(STATUS_CANCELED, "the environment");
		setproctitle_init(argc0, argv0, envp0);
	}
	if ((status = options_parse(argc, argv, mode, &cfg, why,
	    sizeof(why))) != 0) {
		/* A library that cannot load: no pointer to --help. */
		if (status == OPTIONS_NO_LIBRARY)
			run_error(getprogname(), why, false);
		else
			usage_error(getprogname(), status ==
			    OPTIONS_NO_COMMAND ? HELP_SYNOPSIS : NULL, why);
		options_free(&cfg);
		return STATUS_CANCELED;
	}
	if (cfg.help || cfg.version) {
		if (cfg.version)
			printf("%s %s\n", getprogname(), VERSION);
		else if ((help = help_format(mode, cfg.help_all)) != NULL) {
			fputs(help, stdout);
			free(help);
		}
		options_free(&cfg);
		if (fflush(stdout) != 0)
			err(STATUS_CANCELED, "stdout");
		return 0;
	}
	if (cfg.seeded)
		seed = cfg.seed;
	else
		compat_random(&seed, sizeof(seed));
	rng_seed(&rng, seed);

	/* The faces that compute load libm before they do, and say so if
	 * they cannot: what computes never exits (a run loads it in
	 * loop_run, before its first attempt, if its delays need it). */
	if ((mode == MODE_SHOW || mode == MODE_SIMULATE ||
	    (mode == MODE_RETRY && cfg.dry_run)) &&
	    math_load(why, sizeof(why)) == -1) {
		run_error(getprogname(), why, false);
		options_free(&cfg);
		return STATUS_CANCELED;
	}
	ro = (struct reporter_opts){ .label = cfg.label, .args = cfg.args,
	    .nargs = cfg.nargs, .verbosity = cfg.verbosity,
	    .log_format = cfg.log_format, .ci = cfg.ci, .syslog = cfg.syslog,
	    .forever = cfg.limits.forever,
	    .max_attempts = cfg.backoff.max_attempts,
	    .successes = cfg.limits.successes, .budget = cfg.limits.budget,
	    .deadline = cfg.limits.deadline,
	    .retry_on = cfg.verdict.retry_on.set, .rules = &cfg.verdict.output,
	    .hedge = cfg.hedge.delay > 0,
	    .share = cfg.share, .share_rules = &cfg.share_rules };
	reporter_init(&rep, &ro);
	if (mode == MODE_SHOW)
		status = show_main(&cfg, &rng);
	else if (mode == MODE_SIMULATE)
		status = simulate_main(&cfg, &rng);
	else if (mode == MODE_SHARE)
		status = share_main(&cfg);
	else if (cfg.dry_run)
		status = dry_run(&cfg, &rng);
	else if (reporter_open(&rep, cfg.log_file, why,
	    sizeof(why)) == -1) {
		/* The options were right: no pointer to --help; said as the
		 * run's own errors are, naming it. */
		report_error(&rep, "%s", why);
		status = STATUS_CANCELED;
	} else {
		if (signals_init() == -1)
			err(STATUS_CANCELED, "cannot make a pipe");
		status = loop_run(&cfg, &rep, &rng, closed);
		reporter_close(&rep);
	}
	options_free(&cfg);
	return status;
}
