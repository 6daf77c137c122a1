/* The did-you-mean suggester, over the option table. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "optable.h"
#include "suggest.h"

/* The edit distance of a[0..n) and b, for suggestions; small strings. */
static size_t
distance(const char *a, size_t n, const char *b)
{
	size_t row[64], prev, t, m = strlen(b);

	if (n >= sizeof(row) / sizeof(row[0]) || m >= 64)
		return SIZE_MAX;
	for (size_t j = 0; j <= m; j++)
		row[j] = j;
	for (size_t i = 1; i <= n; i++) {
		prev = row[0];
		row[0] = i;
		for (size_t j = 1; j <= m; j++) {
			t = row[j];
			row[j] = a[i - 1] == b[j - 1] ? prev : 1 + (prev <
			    row[j] ? (prev < row[j - 1] ? prev : row[j - 1]) :
			    (row[j] < row[j - 1] ? row[j] : row[j - 1]));
			prev = t;
		}
	}
	return row[m];
}

/* Names that other retry tools use, and ours for them. */
static const struct {
	const char	*name, *ours;
} synonyms[] = {
	{ "attempts", "max" }, { "retries", "max" }, { "sleep", "fixed" },
	{ "interval", "fixed" }, { "wait", "fixed" }, { "backoff", "exp" },
	{ "exponential", "exp" },
};

/* Whether mode lists o: an option of its own, not an alias. */
static bool
listed(const struct opt *o, enum mode mode)
{
	return o->help != NULL && (o->modes & (1u << mode)) != 0;
}

/* The option that name[0..n) most likely meant, or NULL: a synonym, an
 * option it abbreviates or that starts the same, or the nearest by edit
 * distance (at most 2, and less than name's length: "n" is as near to
 * "--ci" as to anything). */
static const struct opt *
meant(const char *name, size_t n, enum mode mode)
{
	const struct opt *best = NULL, *ours;
	size_t d, best_d = 3;

	/* Ours for it, where the face has it. */
	for (size_t i = 0; i < sizeof(synonyms) / sizeof(synonyms[0]); i++)
		if (strlen(synonyms[i].name) == n &&
		    strncmp(synonyms[i].name, name, n) == 0 &&
		    (ours = optable_find(0, synonyms[i].ours)) != NULL &&
		    listed(ours, mode))
			return ours;
	for (size_t i = 0; i < OPTABLE_ROWS; i++) {
		const struct opt *o = &optable[i];

		if (!listed(o, mode))
			continue;
		if (n > 0 && strncmp(o->name, name, n) == 0)
			return o;
		if ((d = distance(name, n, o->name)) < best_d && d < n) {
			best_d = d;
			best = o;
		}
	}
	return best;
}

char *
suggest_option(const char *name, size_t n, enum mode mode, char *buf,
    size_t sz)
{
	const struct opt *o;
	char all[160] = "";

	/* A prefix of several: getopt_long calls it ambiguous. */
	for (size_t i = 0, k = 0; i < OPTABLE_ROWS && k < 4; i++)
		if (listed(&optable[i], mode) &&
		    strncmp(optable[i].name, name, n) == 0)
			snprintf(all + strlen(all), sizeof(all) - strlen(all),
			    "%s--%s", k++ > 0 ? " or " : "", optable[i].name);
	if (strstr(all, " or ") != NULL)
		snprintf(buf, sz, "%s", all);
	else if ((o = meant(name, n, mode)) != NULL)
		snprintf(buf, sz, "--%s", o->name);
	else if (sz > 0)
		buf[0] = '\0';
	return buf;
}

const char *
suggest_face(const char *word)
{
	static const char *const faces[] = { "simulate",
	    "show-backoff-delays", "share" };
	const size_t n = strlen(word);
	const char *best = NULL;
	size_t best_d = 3, d;

	for (size_t i = 0; i < sizeof(faces) / sizeof(faces[0]); i++)
		if ((d = distance(word, n, faces[i])) < best_d && 3 * d < n) {
			best = faces[i];
			best_d = d;
		}
	return best;
}
