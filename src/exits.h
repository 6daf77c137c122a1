/*
 * The exit statuses of retry's own making, named once, as coreutils'
 * timeout and env name theirs (and sysexits.h EX_TEMPFAIL).  A command's
 * own status passes through as it is; 128 + N is a death by signal N.
 */
#ifndef RETRY_EXITS_H
#define RETRY_EXITS_H

/* The shared state ends the run: its budget is spent, its breaker open
 * past --budget, or its store down with --share-required. */
#define EXIT_SHARED		75
/* The last attempt was stopped by --timeout. */
#define EXIT_TIMEDOUT		124
/* A usage error, or retry could not do what it had to (write its output,
 * start an attempt). */
#define EXIT_USAGE		125
/* The command was found but could not be run. */
#define EXIT_CANNOT_INVOKE	126
/* The command was not found. */
#define EXIT_ENOENT		127

#endif
