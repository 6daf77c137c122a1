/* A line being written, growing as needed, and the two ways text is
 * quoted in what retry writes: made visible for a terminal, or escaped
 * as a JSON string.  Pure. */
#ifndef RETRY_LINE_H
#define RETRY_LINE_H

#include <stdbool.h>
#include <stddef.h>

/* Starts as { 0 }; buf is the caller's to free.  A line that memory
 * cannot hold is failed, and then nothing more is added to it. */
struct line {
	char	*buf;
	size_t	 len, cap;
	bool	 failed;
};

void	line_add(struct line *, const char *, ...)
	    __attribute__((format(printf, 2, 3)));
/*
 * s[0..n) with what a terminal would obey made visible, the one rule for
 * all that retry writes as text: C0 controls but tab, DEL, C1 controls and
 * bytes that are not UTF-8 as \xHH, UTF-8 kept, so that nothing retry
 * quotes (output, labels, commands, values, a server's words) can move
 * the cursor, set a title or clear the screen.
 */
void	line_add_visible(struct line *, const char *s, size_t n);
/* s as a JSON string, in quotes: '"' and '\' escaped, controls (C1 too)
 * as \u00XX, and any byte that is not UTF-8 as U+FFFD. */
void	line_add_json(struct line *, const char *s);
/* The same for s[0..n), NUL bytes (as \u0000) too. */
void	line_add_json_n(struct line *, const char *s, size_t n);
/*
 * How many bytes of s[0..n), text made visible (printable ASCII, tabs,
 * UTF-8), fit in cols columns of a terminal, never a character cut; their
 * columns in *used.  Each counts as many as it may take, so that what
 * fits never wraps: a tab 8, a character of three or four bytes 2 (the
 * East Asian wide ones are among them), any other 1.
 */
size_t	line_fit(const char *s, size_t n, size_t cols, size_t *used);

#endif
