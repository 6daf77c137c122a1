/* A password kept out of what a server says. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pwmask.h"
#include "storeurl.h"

#define PASSWORD_MAX	sizeof(((struct store_url *)0)->password)

static int
by_value(const void *a, const void *b)
{
	const uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* The w bytes at p as one number. */
static uint32_t
gram(const char *p, size_t w)
{
	uint32_t v = 0;

	for (size_t i = 0; i < w; i++)
		v = v << 8 | (unsigned char)p[i];
	return v;
}

/*
 * text into out (cut to sz), with every run of it that is made of pieces
 * of 4 bytes of pw (all of pw, when shorter) as "***".  A server may say
 * back any part of what it was sent, cut where it likes (Redis cuts an
 * unknown command's arguments to about 128 bytes), with its line breaks
 * as spaces: the pieces of both are looked for, in the whole text, before
 * anything is cut.
 */
void
mask_password(const char *text, const char *pw, char *out, size_t sz)
{
	const size_t n = strlen(text), p = strlen(pw), w = p < 4 ? p : 4;
	uint32_t grams[2 * PASSWORD_MAX] = { 0 };
	char spaced[PASSWORD_MAX];
	size_t ng = 0, o = 0, until = 0;
	bool hidden = false;

	memcpy(spaced, pw, p + 1);
	for (char *c = spaced; *c != '\0'; c++)
		if (*c == '\r' || *c == '\n')
			*c = ' ';
	for (size_t i = 0; w > 0 && i + w <= p; i++) {
		grams[ng++] = gram(pw + i, w);
		grams[ng++] = gram(spaced + i, w);
	}
	qsort(grams, ng, sizeof(*grams), by_value);
	for (size_t i = 0; i < n && o + 1 < sz; i++) {
		const uint32_t g = i + w <= n ? gram(text + i, w) : 0;

		if (i + w <= n && bsearch(&g, grams, ng, sizeof(*grams),
		    by_value) != NULL)
			until = i + w;
		if (i >= until) {
			out[o++] = text[i];
			hidden = false;
		} else if (!hidden) {
			for (const char *c = "***"; *c != '\0' && o + 1 < sz;
			    c++)
				out[o++] = *c;
			hidden = true;
		}
	}
	out[o] = '\0';
	explicit_bzero(spaced, sizeof(spaced));
	explicit_bzero(grams, sizeof(grams));
}
