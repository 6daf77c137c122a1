/* The files of hedged attempts: attempts side by side each read their
 * stdin from its start and write to spools of their own. */
#ifndef RETRY_HEDGEIO_H
#define RETRY_HEDGEIO_H

#include <stdbool.h>

#include "streams.h"

/* An attempt's own stdin in *fd, read from its start: a pipe fed from the
 * recording of a replayed pipe or terminal, then from the input as it
 * arrives, while the input has not ended (the feed's reader in *id, else
 * -1); the replay opened anew, or copied where it cannot be; /dev/null;
 * STDIO_CLOSED.  -1 (errno set). */
int	 hedge_stdin(struct streams *, int *fd, int *id);
/* The attempt fed as reader id (-1: none) has ended: it is fed no more. */
void	 hedge_stdin_end(struct streams *, int id);
/* The round has ended: no attempt is fed any more. */
void	 hedge_stdin_stop(struct streams *);
/* An attempt's fd (1 or 2) in *to: a copy of *file, a spool made for it,
 * or STDIO_CLOSED where retry's own is closed; -1 (errno set). */
int	 hedge_spool(struct streams *, int fd, int *file, int *to);
/* Whether attempt n's spools (out and err) kept all it wrote: where one
 * could take no more (a full disk, a quota, a file size limit), its
 * writes there failed, its error with them; s->err then says so.  Asked
 * by writing one more byte at the end of each, and taking it back. */
bool	 hedge_spools_kept(struct streams *, int out, int err,
	    unsigned long n);

#endif
