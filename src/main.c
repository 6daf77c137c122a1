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

/*
 * Set-user-ID or set-group-ID, or with file capabilities: a copy made so
 * would run any command with privileges that its user has not.  Refused,
 * as sudo is the tool for that.
 */
static void
refuse_privileges(void)
{
	if (compat_privileged())
		errx(STATUS_CANCELED, "refusing to run set-user-ID, "
		    "set-group-ID or with capabilities: it would run any "
		    "command with them");
}

/* A run of commands: --dry-run says what it would do; else the reports'
 * sinks are opened, and the run made. */
static int
retry_face(const struct config *c, struct reporter *rep, struct rng *rng,
    const bool closed[3])
{
	char why[512];
	int status;

	if (c->dry_run)
		return dry_run(c, rng);
	if (reporter_open(rep, c->log_file, why, sizeof(why)) == -1) {
		/* The options were right: no pointer to --help; said as the
		 * run's own errors are, naming it. */
		report_error(rep, "%s", why);
		return STATUS_CANCELED;
	}
	if (signals_init() == -1)
		err(STATUS_CANCELED, "cannot make a pipe");
	status = loop_run(c, rep, rng, closed);
	reporter_close(rep);
	return status;
}

static int
show_face(const struct config *c, struct reporter *rep, struct rng *rng,
    const bool closed[3])
{
	return show_main(c, rng);
}

static int
simulate_face(const struct config *c, struct reporter *rep, struct rng *rng,
    const bool closed[3])
{
	return simulate_main(c, rng);
}

static int
share_face(const struct config *c, struct reporter *rep, struct rng *rng,
    const bool closed[3])
{
	return share_main(c);
}

/* retry's faces: a run, and the subcommands (show-backoff-delays also by
 * the program's name); whether each computes delays before it starts. */
static const struct face {
	const char	*name;
	enum mode	 mode;
	bool		 computes;
	int		(*run)(const struct config *, struct reporter *,
			    struct rng *, const bool[3]);
} faces[] = {
	{ "retry", MODE_RETRY, false, retry_face },
	{ "show-backoff-delays", MODE_SHOW, true, show_face },
	{ "simulate", MODE_SIMULATE, true, simulate_face },
	{ "share", MODE_SHARE, false, share_face },
};

/* The face that the program's name or its first word names; argv moved
 * past a subcommand's word. */
static const struct face *
face_of(int *argc, char ***argv)
{
	const char *name = strrchr((*argv)[0], '/');

	name = name != NULL ? name + 1 : (*argv)[0];
	if (strcmp(name, faces[1].name) == 0)
		return &faces[1];
	setprogname("retry");
	for (size_t i = 1; *argc > 1 && i < sizeof(faces) / sizeof(faces[0]); i++)
		if (strcmp((*argv)[1], faces[i].name) == 0) {
			(*argc)--, (*argv)++;
			return &faces[i];
		}
	return &faces[0];
}

/* Options that could not be read: one line, and a pointer to --help
 * unless a library could not be loaded. */
static int
refused(int status, const char *why)
{
	if (status == OPTIONS_NO_LIBRARY)
		run_error(getprogname(), why, false);
	else
		usage_error(getprogname(), status == OPTIONS_NO_COMMAND ?
		    HELP_SYNOPSIS : NULL, why);
	return STATUS_CANCELED;
}

/* What --version says after the version of a build that leaves something
 * out: the musl build (mk/musl.mk) has no Redis wing. */
#ifdef RETRY_MUSL
#define BUILD_NOTE	" (musl; without Redis: file stores alone)"
#else
#define BUILD_NOTE	""
#endif

/* --help (of the face, or all of it) or --version, on stdout. */
static int
help_or_version(const struct config *c, enum mode mode)
{
	char *help;

	if (c->version)
		printf("%s %s%s\n", getprogname(), VERSION, BUILD_NOTE);
	else if ((help = help_format(mode, c->help_all)) != NULL) {
		fputs(help, stdout);
		free(help);
	}
	if (fflush(stdout) != 0)
		err(STATUS_CANCELED, "stdout");
	return 0;
}

/* --seed's draws, or the system's randomness. */
static void
seed(const struct config *c, struct rng *rng)
{
	uint64_t s = c->seed;

	if (!c->seeded)
		compat_random(&s, sizeof(s));
	rng_seed(rng, s);
}

int
main(int argc, char *argv[])
{
	struct config cfg;
	struct reporter rep;
	struct rng rng;
	char **const argv0 = argv, **const envp0 = environ;
	const int argc0 = argc;
	const struct face *face;
	char why[512];
	bool closed[3];
	int status;

	open_std_fds(closed);
	refuse_privileges();
	face = face_of(&argc, &argv);
	/* A run's title in ps(1) says which attempt it is at.  Before the
	 * options point into argv, which titles write over; and with the
	 * environment moved first, so setproctitle_init need not copy it
	 * variable by variable with setenv(3). */
	if (face->mode == MODE_RETRY) {
		if (env_init() == -1)
			err(STATUS_CANCELED, "the environment");
		setproctitle_init(argc0, argv0, envp0);
	}
	status = options_parse(argc, argv, face->mode, &cfg, why, sizeof(why));
	if (status != 0)
		status = refused(status, why);
	else if (cfg.help || cfg.version)
		status = help_or_version(&cfg, face->mode);
	/* The faces that compute load libm before they do, and say so if
	 * they cannot: what computes never exits (a run loads it in
	 * loop_run, before its first attempt, if its delays need it). */
	else if ((face->computes || cfg.dry_run) &&
	    math_load(why, sizeof(why)) == -1) {
		run_error(getprogname(), why, false);
		status = STATUS_CANCELED;
	} else {
		seed(&cfg, &rng);
		reporter_init(&rep, &cfg.report);
		status = face->run(&cfg, &rep, &rng, closed);
	}
	options_free(&cfg);
	return status;
}
