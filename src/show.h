/* show-backoff-delays and --dry-run: the engine driven by a list of
 * statuses instead of real attempts. */
#ifndef RETRY_SHOW_H
#define RETRY_SHOW_H

#include <stdbool.h>
#include <stdio.h>

#include "options.h"
#include "rng.h"

/* Both return an exit status; errors go to stderr as one line. */
int		 show_main(const struct config *, struct rng *);
int		 dry_run(const struct config *, struct rng *);

/* The chart's pieces, shared with simulate: the width to fill (COLUMNS,
 * else stdout's window, else 80), and a bar of v where max fills cells. */
int		 terminal_width(void);
void		 chart_bar(double v, double max, int cells, bool ascii);

#endif
