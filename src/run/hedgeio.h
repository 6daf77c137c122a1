/* The files of hedged attempts: attempts side by side each read their
 * stdin from its start and write to spools of their own. */
#ifndef RETRY_HEDGEIO_H
#define RETRY_HEDGEIO_H

#include <stdbool.h>
#include <stdint.h>

#include "streams.h"

/* An attempt's own stdin in *fd, read from its start (the replay opened
 * anew, or copied where it cannot be; /dev/null; STDIO_CLOSED): -1 (errno
 * set). */
int	 hedge_stdin(struct streams *, int *fd);
/* An attempt's fd (1 or 2) in *to: a copy of *file, a spool made for it,
 * or STDIO_CLOSED where retry's own is closed; -1 (errno set). */
int	 hedge_spool(struct streams *, int fd, int *file, int *to);
/* --stdin replay of a pipe or a terminal read to its end in the one wait,
 * so that every attempt reads all of it, at most until until
 * (CLOCK_MONOTONIC ns, or -1): whether until came first. */
bool	 hedge_read_stdin(struct streams *, int64_t until);

#endif
