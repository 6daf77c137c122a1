/* The sleep between attempts: the one wait until a deadline, which a
 * signal, the reader of stdout gone or a stdin that cannot be kept cut
 * short; on a terminal, a countdown. */
#ifndef RETRY_SLEEP_H
#define RETRY_SLEEP_H

#include <stdbool.h>
#include <stdint.h>

#include "report.h"
#include "streams.h"

/* Sleeps until deadline (monotonic, ns); false when the reader of stdout
 * went away (piped: stdout is watched for it) or the stdin to replay
 * could not be kept (st->err says why). */
bool	sleep_until(const struct reporter *, struct streams *, bool piped,
	    int64_t deadline);

#endif
