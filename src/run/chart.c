/*
 * Bars and spreads on stdout.  A bar is drawn in eighths of a cell (in
 * ASCII, whole cells), so that delays that differ by less than a cell
 * still differ; a value above 0 always shows, and one at max or past it
 * fills the bar.
 */
#include <sys/ioctl.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "chart.h"
#include "mathlib.h"

/* Unicode blocks: a whole cell, and the left 1/8 to 7/8 of one. */
static const char full_block[] = "\xe2\x96\x88";		/* U+2588 */
static const char *const eighths[8] = {
	"", "\xe2\x96\x8f", "\xe2\x96\x8e", "\xe2\x96\x8d", "\xe2\x96\x8c",
	"\xe2\x96\x8b", "\xe2\x96\x8a", "\xe2\x96\x89",	/* U+258F..U+2589 */
};

/* A spread's marks, in Unicode (U+2501, U+2500, U+2503) and in ASCII. */
enum mark { HEAVY, LIGHT, MEDIAN };
static const char *const marks[2][3] = {
	{ "\xe2\x94\x81", "\xe2\x94\x80", "\xe2\x94\x83" },
	{ "=", "-", "|" },
};

/* The terminal's width: COLUMNS, else stdout's window, else 80. */
static int
terminal_width(void)
{
	const char *s = getenv("COLUMNS"), *why = NULL;
	struct winsize ws;
	long long n;

	if (s != NULL && *s != '\0') {
		n = strtonum(s, 1, 100000, &why);
		if (why == NULL)
			return (int)n;
	}
	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
	return 80;
}

int
chart_cells(int prefix)
{
	const int cells = terminal_width() - prefix;

	return cells < 10 ? 10 : cells;
}

/* v on a scale of units where max is all of them; v > 0 shows. */
static long
scaled(double v, double max, long units)
{
	long u;

	if (!(v > 0))
		return 0;
	if (!(v < max))
		return units;
	u = math_lround(v / max * (double)units);
	return u < 1 ? 1 : u;
}

/* The cell of v in 0..cells-1, where max is the last one. */
static long
position(double v, double max, long cells)
{
	if (!(v > 0))
		return 0;
	if (!(v < max))
		return cells - 1;
	return math_lround(v / max * (double)(cells - 1));
}

void
chart_bar(double v, double max, int cells, bool ascii)
{
	const long u = scaled(v, max, cells * (ascii ? 1L : 8L));

	if (u > 0)
		putchar(' ');
	if (ascii)
		for (long i = 0; i < u; i++)
			putchar('#');
	else {
		for (long i = 0; i < u / 8; i++)
			fputs(full_block, stdout);
		fputs(eighths[u % 8], stdout);
	}
}

void
chart_spread(const struct spread *s, double max, int cells, bool ascii)
{
	const long lo = position(s->min, max, cells);
	const long mid = position(s->median, max, cells);
	const long p90 = position(s->p90, max, cells);
	const long hi = position(s->max, max, cells);
	const char *const *m = marks[ascii ? 1 : 0];

	putchar(' ');
	for (long i = 0; i <= hi; i++)
		fputs(i == mid ? m[MEDIAN] : i < lo ? " " : i <= p90 ?
		    m[HEAVY] : m[LIGHT], stdout);
}

void
chart_spread_key(bool ascii)
{
	const char *const *m = marks[ascii ? 1 : 0];

	printf("%s min to p90, %s p90 to max, %s median\n", m[HEAVY],
	    m[LIGHT], m[MEDIAN]);
}
