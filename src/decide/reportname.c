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

/* The command's words, in single quotes but for words of only these
 * characters. */
void
report_name_command(char *const *args, int nargs, char *buf, size_t sz)
{
	static const char plain[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "abcdefghijklmnopqrstuvwxyz0123456789_@%+=:,./-";
	struct line l = { 0 }, v = { 0 };

	for (int i = 0; i < nargs; i++) {
		const char *w = args[i];

		line_add(&l, i > 0 ? " " : "");
		if (*w != '\0' && w[strspn(w, plain)] == '\0') {
			line_add(&l, "%s", w);
			continue;
		}
		line_add(&l, "'");
		for (size_t n; *w != '\0'; w += n) {
			n = strcspn(w, "'");
			line_add(&l, "%.*s", (int)n, w);
			if (w[n] == '\'') {
				line_add(&l, "'\\''");
				n++;
			}
		}
		line_add(&l, "'");
	}
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
