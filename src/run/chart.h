/*
 * Charts on stdout, for show-backoff-delays and retry simulate: how many
 * cells a bar has (the terminal's width less what the line says before
 * it), and bars and spreads of values on one scale, in Unicode's blocks
 * and box-drawing lines, or with ascii in '#', '=', '-' and '|'.  What a
 * row says beside its bar is the caller's.
 */
#ifndef RETRY_CHART_H
#define RETRY_CHART_H

#include <stdbool.h>

/* Quantiles of one row, drawn as one spread. */
struct spread {
	double		 min, median, p90, max;
};

/*
 * The cells left for a bar on a line whose first prefix columns are
 * taken, so that the longest bar ends at the terminal's last column: its
 * width is COLUMNS, else stdout's window, else 80.  At least 10.
 */
int		 chart_cells(int prefix);

/* A space and a bar of v, where max fills cells; nothing for v <= 0. */
void		 chart_bar(double v, double max, int cells, bool ascii);

/* A space and a spread on cells, where max is the last one: min to p90
 * heavy, p90 to max light, the median marked. */
void		 chart_spread(const struct spread *, double max, int cells,
		    bool ascii);
/* What a spread's marks mean, as a line. */
void		 chart_spread_key(bool ascii);

#endif
