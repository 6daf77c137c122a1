/*
 * Names in report lines (reportfmt.h): the command's words as a shell
 * would quote them, and any text made visible, both cut short to fit.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "line.h"
#include "reportfmt.h"

/* w, in single quotes but for a word of only these characters. */
static void
quote_word(struct line *l, const char *w)
{
	static const char plain[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "abcdefghijklmnopqrstuvwxyz0123456789_@%+=:,./-";

	if (*w != '\0' && w[strspn(w, plain)] == '\0') {
		line_add(l, "%s", w);
		return;
	}
	line_add(l, "'");
	for (size_t n; *w != '\0'; w += n) {
		n = strcspn(w, "'");
		line_add(l, "%.*s", (int)n, w);
		if (w[n] == '\'') {
			line_add(l, "'\\''");
			n++;
		}
	}
	line_add(l, "'");
}

void
report_quote_command(struct line *l, char *const *args, int nargs)
{
	for (int i = 0; i < nargs; i++) {
		line_add(l, i > 0 ? " " : "");
		quote_word(l, args[i]);
	}
}

/* s, n bytes, with its trailing blanks cut and "..." after it, in buf. */
static void
cut_short(const char *s, size_t n, char *buf, size_t sz)
{
	while (n > 0 && s[n - 1] == ' ')
		n--;
	snprintf(buf, sz, "%.*s...", (int)n, s);
}

void
report_name_command(char *const *args, int nargs, char *buf, size_t sz)
{
	struct line l = { 0 }, v = { 0 };

	report_quote_command(&l, args, nargs);
	buf[0] = '\0';
	if (!l.failed && l.buf != NULL) {
		line_add_visible(&v, l.buf, l.len);
		/* Cut short (never inside an escape), and said so. */
		if (!v.failed && v.len <= REPORT_NAME_MAX)
			strlcpy(buf, v.buf, sz);
		else if (sz > 4) {
			(void)report_visible(l.buf, buf, sz - 3);
			for (size_t n = strlen(buf); n > 0 && buf[n - 1] == ' ';)
				buf[--n] = '\0';
			strlcat(buf, "...", sz);
		}
	}
	free(v.buf);
	free(l.buf);
}

void
report_name_line(char *const *args, int nargs, char *buf, size_t sz)
{
	struct line l = { 0 }, v = { 0 };
	size_t n, cols;

	report_quote_command(&l, args, nargs);
	buf[0] = '\0';
	if (!l.failed && l.buf != NULL)
		line_add_visible(&v, l.buf, l.len);
	if (!v.failed && v.buf != NULL) {
		n = line_fit(v.buf, v.len, REPORT_LINE_NAME_COLS, &cols);
		if (n == v.len)
			strlcpy(buf, v.buf, sz);
		else {
			/* Room for "...", never inside an escape. */
			n = line_fit(v.buf, v.len, REPORT_LINE_NAME_COLS - 3,
			    &cols);
			for (size_t i = n > 3 ? n - 3 : 0; i < n; i++)
				if (v.buf[i] == '\\' && i + 4 > n) {
					n = i;
					break;
				}
			cut_short(v.buf, n, buf, sz);
		}
	}
	free(v.buf);
	free(l.buf);
}

/* The name is cut short after the word, if at all: blanks before the
 * "..." are cut, so that a blank or the end follows a word shown whole. */
bool
report_names_whole(const struct reporter *c, const char *word)
{
	struct line q = { 0 }, v = { 0 };
	bool whole = false;

	quote_word(&q, word);
	if (c->label == NULL && !c->json && !q.failed && q.buf != NULL)
		line_add_visible(&v, q.buf, q.len);
	if (!v.failed && v.buf != NULL && v.len <= strlen(c->line_name))
		whole = strncmp(c->line_name, v.buf, v.len) == 0 &&
		    (c->line_name[v.len] == ' ' ||
		    c->line_name[v.len] == '\0');
	free(v.buf);
	free(q.buf);
	return whole;
}

char *
report_visible(const char *s, char *buf, size_t sz)
{
	struct line l = { 0 };
	size_t n;

	line_add_visible(&l, s, strlen(s));
	if (l.failed || l.buf == NULL || sz == 0) {
		if (sz > 0)
			buf[0] = '\0';
		free(l.buf);
		return buf;
	}
	/* Cut short, neither an escape nor a UTF-8 sequence is cut. */
	if ((n = l.len) >= sz) {
		n = sz - 1;
		for (size_t i = n > 3 ? n - 3 : 0; i < n; i++)
			if (l.buf[i] == '\\' && i + 4 > n) {
				n = i;
				break;
			}
		while (n > 0 && ((unsigned char)l.buf[n] & 0xc0) == 0x80)
			n--;
	}
	memcpy(buf, l.buf, n);
	buf[n] = '\0';
	free(l.buf);
	return buf;
}
