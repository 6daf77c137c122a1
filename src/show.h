/* show-backoff-delays and --dry-run: the engine driven by a list of
 * statuses, or by a run in which every attempt fails, instead of by real
 * attempts, and printed. */
#ifndef RETRY_SHOW_H
#define RETRY_SHOW_H

#include "config.h"
#include "rng.h"

/* Both return an exit status; errors go to stderr as one line. */
int		 show_main(const struct config *, struct rng *);
int		 dry_run(const struct config *, struct rng *);

#endif
