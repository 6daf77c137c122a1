/* Lines being written, and text quoted in them. */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "line.h"

void
line_add(struct line *l, const char *fmt, ...)
{
	va_list ap;
	char *p;
	int n;

	if (l->failed)
		return;
	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(l->buf == NULL ? NULL : l->buf + l->len,
		    l->cap - l->len, fmt, ap);
		va_end(ap);
		if (n < 0) {
			l->failed = true;
			return;
		}
		if ((size_t)n < l->cap - l->len) {
			l->len += (size_t)n;
			return;
		}
		if ((p = realloc(l->buf, 2 * l->cap + (size_t)n + 256)) ==
		    NULL) {
			l->failed = true;
			return;
		}
		l->buf = p;
		l->cap = 2 * l->cap + (size_t)n + 256;
	}
}

/* The length of the UTF-8 sequence at p, which ends by end, or 0 when it
 * is not one: nothing at or past end is read. */
static size_t
utf8_length(const unsigned char *p, const unsigned char *end)
{
	size_t n;
	unsigned int cp;

	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2, cp = p[0] & 0x1fu;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		n = 3, cp = p[0] & 0x0fu;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		n = 4, cp = p[0] & 0x07u;
	else
		return 0;
	if ((size_t)(end - p) < n)
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3fu);
	}
	/* Overlong forms, surrogates and past U+10FFFF are not UTF-8. */
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return n;
}

/* Whether the UTF-8 sequence at p, n bytes long, is a C1 control
 * (U+0080 to U+009F), which some terminals obey as ESC sequences. */
static bool
c1(const unsigned char *p, size_t n)
{
	return n == 2 && p[0] == 0xc2 && p[1] < 0xa0;
}

void
line_add_json(struct line *l, const char *s)
{
	line_add_json_n(l, s, strlen(s));
}

void
line_add_json_n(struct line *l, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + len;
	size_t n;

	line_add(l, "\"");
	while (p < end) {
		if (*p == '"' || *p == '\\')
			line_add(l, "\\%c", *p++);
		else if (*p < 0x20 || *p == 0x7f)
			line_add(l, "\\u%04x", *p++);
		else if (*p < 0x80)
			line_add(l, "%c", *p++);
		else if ((n = utf8_length(p, end)) > 0 && c1(p, n)) {
			line_add(l, "\\u%04x", p[1]);
			p += n;
		} else if (n > 0) {
			line_add(l, "%.*s", (int)n, (const char *)p);
			p += n;
		} else {
			line_add(l, "\\ufffd");
			p++;
		}
	}
	line_add(l, "\"");
}

void
line_add_visible(struct line *l, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + n;
	size_t k;

	while (p < end) {
		if (*p == '\t' || (*p >= 0x20 && *p < 0x7f))
			line_add(l, "%c", *p++);
		else if (*p >= 0x80 && (k = utf8_length(p, end)) > 0 &&
		    !c1(p, k)) {
			line_add(l, "%.*s", (int)k, (const char *)p);
			p += k;
		} else
			line_add(l, "\\x%02x", *p++);
	}
}

size_t
line_fit(const char *s, size_t n, size_t cols, size_t *used)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, w = 0, k, cw;

	while (i < n) {
		k = p[i] < 0xc0 ? 1 : p[i] < 0xe0 ? 2 : p[i] < 0xf0 ? 3 : 4;
		cw = p[i] == '\t' ? 8 : k >= 3 ? 2 : 1;
		if (i + k > n || w + cw > cols)
			break;
		i += k;
		w += cw;
	}
	*used = w;
	return i;
}
