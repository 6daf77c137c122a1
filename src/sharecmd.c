/*
 * retry share status [NAME]... and retry share reset NAME...: the shared
 * state of names, as a table or JSON Lines, and a fresh start for one.
 */
#include <err.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "shared.h"
#include "sharecmd.h"
#include "store.h"

/* ns of the time of day as RFC 3339 in UTC with milliseconds. */
static const char *
stamp(int64_t ns, char *buf, size_t sz)
{
	const time_t t = (time_t)(ns / 1000000000);
	struct tm tm;
	char day[32];

	if (ns <= 0 || gmtime_r(&t, &tm) == NULL)
		return "-";
	strftime(day, sizeof(day), "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf, sz, "%.19s.%03dZ", day, (int)(ns / 1000000 % 1000));
	return buf;
}

static void
print_table(const char *name, int w, const struct share_state *s)
{
	char v[64], a[32], b[32];

	printf("%-*s  tokens      %-41.6g %s\n", w, name, s->tokens,
	    stamp(s->changed[PART_TOKENS], a, sizeof(a)));
	printf("%-*s  failures    %-41" PRIu64 " %s\n", w, name, s->failures,
	    stamp(s->changed[PART_FAILURES], a, sizeof(a)));
	if (s->breaker == BREAKER_OPEN)
		snprintf(v, sizeof(v), "open until %s",
		    stamp(s->open_until, b, sizeof(b)));
	else if (s->breaker == BREAKER_HALF_OPEN && s->probe != 0)
		snprintf(v, sizeof(v), "half-open until %s",
		    stamp(s->probe_until, b, sizeof(b)));
	else
		snprintf(v, sizeof(v), "%s", breaker_name(s->breaker));
	printf("%-*s  breaker     %-41s %s\n", w, name, v,
	    stamp(s->changed[PART_BREAKER], a, sizeof(a)));
	printf("%-*s  not-before  %-41s %s\n", w, name,
	    stamp(s->not_before, b, sizeof(b)),
	    stamp(s->changed[PART_NOT_BEFORE], a, sizeof(a)));
}

/* A time for JSON: a string, or null. */
static void
json_time(const char *key, int64_t ns)
{
	char a[32];

	if (ns > 0)
		printf(",\"%s\":\"%s\"", key, stamp(ns, a, sizeof(a)));
	else
		printf(",\"%s\":null", key);
}

static void
print_json(const char *name, const struct share_state *s)
{
	printf("{\"name\":\"%s\",\"tokens\":%.6g", name, s->tokens);
	json_time("tokens_changed", s->changed[PART_TOKENS]);
	printf(",\"failures\":%" PRIu64, s->failures);
	json_time("failures_changed", s->changed[PART_FAILURES]);
	printf(",\"breaker\":\"%s\"", breaker_name(s->breaker));
	json_time("open_until", s->breaker == BREAKER_OPEN ? s->open_until :
	    0);
	json_time("probe_until", s->breaker == BREAKER_HALF_OPEN &&
	    s->probe != 0 ? s->probe_until : 0);
	json_time("breaker_changed", s->changed[PART_BREAKER]);
	json_time("not_before", s->not_before);
	json_time("not_before_changed", s->changed[PART_NOT_BEFORE]);
	puts("}");
}

/* One name: 0, or 1 with a line on stderr. */
static int
one(struct store *st, const char *name, bool reset, bool json, int w)
{
	struct share_state s;
	char why[512];
	int rc;

	if (store_name(st, name, false, why, sizeof(why)) == -1) {
		if (errno == ENOENT && reset)
			return 0;
		if (errno == ENOENT)
			warnx("%s: no shared state in %s", name, st->dir);
		else
			warnx("%s", why);
		return 1;
	}
	if (reset)
		rc = store_reset(st, why, sizeof(why));
	else if ((rc = store_read(st, &s, why, sizeof(why))) == 1) {
		warnx("%s: no shared state yet", name);
		rc = 0;
	} else if (rc == 0 && json)
		print_json(name, &s);
	else if (rc == 0)
		print_table(name, w, &s);
	if (rc == -1)
		warnx("%s", why);
	store_unname(st);
	return rc == 0 ? 0 : 1;
}

int
share_main(const struct config *c)
{
	const bool reset = strcmp(c->args[0], "reset") == 0;
	const bool json = c->log_format == LOG_JSON;
	char **names = NULL, why[512];
	size_t n = 0;
	struct store st;
	int rc = 0, w = 4;

	if (store_open(&st, shared_spec(c), false, why, sizeof(why)) == -1) {
		/* No directory: no state yet, nothing to reset. */
		if (errno == ENOENT && (reset || c->nargs == 1))
			return 0;
		warnx("%s", errno == ENOENT ? "no shared state yet" : why);
		return errno == ENOENT ? 1 : 125;
	}
	if (c->nargs == 1 && store_names(&st, &names, &n) == -1) {
		warn("%s", st.dir);
		store_close(&st);
		return 1;
	}
	for (size_t i = 0; i < n; i++)
		w = (int)strlen(names[i]) > w ? (int)strlen(names[i]) : w;
	for (int i = 1; i < c->nargs; i++)
		w = (int)strlen(c->args[i]) > w ? (int)strlen(c->args[i]) : w;
	if (!reset && !json && (n > 0 || c->nargs > 1))
		printf("%-*s  %-11s %-41s %s\n", w, "name", "part", "value",
		    "changed");
	for (size_t i = 0; i < n; i++) {
		rc |= one(&st, names[i], false, json, w);
		free(names[i]);
	}
	free(names);
	for (int i = 1; i < c->nargs; i++)
		rc |= one(&st, c->args[i], reset, json, w);
	store_close(&st);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		warn("stdout");
		return 125;
	}
	return rc;
}
