/*
 * How an attempt ended, as data: what spawn.c fills in and the reports
 * read.  Pure: data only, no functions.
 */
#ifndef RETRY_ATTEMPT_H
#define RETRY_ATTEMPT_H

#include <stdbool.h>

struct attempt_result {
	int		 exec_errno;	/* the command could not be run */
	int		 status;	/* 0-255, 128 + N, or 124 (timed out,
					 * unless preserve_status) */
	int		 signal;	/* death by this signal, or 0 */
	bool		 timed_out;
	bool		 aborted;	/* ended because its output had nowhere
					 * to go */
	bool		 matched;	/* ended by retry because its output
					 * said it was done: status 0 */
	int		 interrupted;	/* a signal that ends the run, or 0 */
	bool		 unstarted;	/* it came before the attempt could
					 * start: none ran */
	bool		 forwarded;	/* retry sent it on to the attempt */
	unsigned	 in_flight;	/* --hedge: the attempts it was sent
					 * on to, this one included (0: one) */
	bool		 terminal;	/* it came from the terminal (Ctrl-C) */
	bool		 foreground;	/* the attempt had the terminal's
					 * foreground when it ended */
};

#endif
