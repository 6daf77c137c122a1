/*
 * The exit statuses of retry's own making, named once, as coreutils'
 * timeout and env name theirs (and sysexits.h EX_TEMPFAIL).  A command's
 * own status passes through as it is; 128 + N is a death by signal N.
 * They are STATUS_..., not EXIT_...: <errno.h> reserves E and a capital.
 */
#ifndef RETRY_EXITS_H
#define RETRY_EXITS_H

/* The shared state ends the run: its budget is spent, its breaker open
 * past --budget, or its store down with --share-required. */
#define STATUS_SHARED		75
/* The last attempt was stopped by --timeout. */
#define STATUS_TIMEDOUT		124
/* retry's own failure, where the command's status cannot be had: the
 * command line is wrong, the command could not be started (no pipe, no
 * process), or retry could not do its own part (write its output, read
 * the environment).  coreutils' timeout and env call it EXIT_CANCELED. */
#define STATUS_CANCELED		125
/* The command was found but could not be run. */
#define STATUS_CANNOT_INVOKE	126
/* The command was not found. */
#define STATUS_ENOENT		127

#endif
