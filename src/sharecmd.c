/*
 * retry share status [NAME]... and retry share reset NAME...: the shared
 * state of names, as a table or JSON Lines, and a fresh start for one.
 * Listing all names, a master of a cluster that cannot be reached is said
 * in a line of its own, the others' names are listed, and the status is
 * STATUS_SHARED.  The whole command waits for the store one connection's
 * bound and SHARE_CMD_WAITS times --share-timeout at most: what was not
 * asked by then is said, and the status is STATUS_SHARED too.
 */
#include <err.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "duration.h"
#include "exits.h"
#include "number.h"
#include "report.h"
#include "shared.h"
#include "sharecmd.h"
#include "sketch.h"

/* The command's waits for the store, all together, in --share-timeout,
 * past the connection's bound. */
#define SHARE_CMD_WAITS	10

/* With --log-format json, the reporter whose "error" events say what goes
 * wrong, as a run's do; NULL: lines of text, as warnx(3) writes them. */
static const struct reporter *events;

static void	say(const char *, ...) __attribute__((format(printf, 1, 2)));

/* An error, or that there is nothing to show, on stderr: text made visible
 * (what it quotes may come from a server), or a JSON event. */
static void
say(const char *fmt, ...)
{
	char msg[4096], vis[4096];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (events != NULL)
		report_error(events, "%s", msg);
	else
		warnx("%s", report_visible(msg, vis, sizeof(vis)));
}

/* ns of the time of day as RFC 3339 in UTC with milliseconds. */
static const char *
stamp(int64_t ns, char *buf, size_t sz)
{
	const time_t t = (time_t)(ns / NS_PER_SEC);
	struct tm tm;
	char day[32];

	if (ns <= 0 || gmtime_r(&t, &tm) == NULL)
		return "-";
	strftime(day, sizeof(day), "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf, sz, "%.19s.%03dZ", day, (int)(ns / 1000000 % 1000));
	return buf;
}

/* The quantiles that `retry share status` shows of a history. */
static const struct {
	const char	*name;
	double		 q;
} shown_q[] = { { "p50", 0.5 }, { "p95", 0.95 }, { "p99", 0.99 } };

/* A history's row: its samples and quantiles, or nothing without one. */
static void
history_row(const char *name, int w, const char *history)
{
	struct sketch k;
	char v[128], d[DURATION_BUFSZ];
	size_t len;

	if (!sketch_parse(history, &k) || k.samples == 0)
		return;
	len = (size_t)snprintf(v, sizeof(v), "%" PRIu64 " run%s:", k.samples,
	    k.samples == 1 ? "" : "s");
	for (size_t i = 0; i < sizeof(shown_q) / sizeof(shown_q[0]) &&
	    len < sizeof(v); i++)
		len += (size_t)snprintf(v + len, sizeof(v) - len, "%s %s %s",
		    i > 0 ? "," : "", shown_q[i].name, duration_format(
		    duration_round(sketch_quantile(&k, shown_q[i].q)), d,
		    sizeof(d)));
	printf("%-*s  latency     %s\n", w, name, v);
}

/* The same in JSON: "latency":{"samples":N,"p50":S,...} in seconds, or
 * null. */
static void
history_json(const char *history)
{
	struct sketch k;

	if (!sketch_parse(history, &k) || k.samples == 0) {
		printf(",\"latency\":null");
		return;
	}
	printf(",\"latency\":{\"samples\":%" PRIu64, k.samples);
	for (size_t i = 0; i < sizeof(shown_q) / sizeof(shown_q[0]); i++)
		printf(",\"%s\":%.9g", shown_q[i].name,
		    (double)sketch_quantile(&k, shown_q[i].q) / 1e9);
	printf("}");
}

static void
print_table(const char *name, int w, const struct share_state *s,
    const char *history)
{
	static bool headed;
	char v[64], a[32], b[32], t[NUMBER_BUFSZ];

	if (!headed)
		printf("%-*s  %-11s %-41s %s\n", w, "name", "part", "value",
		    "changed");
	headed = true;
	printf("%-*s  tokens      %-41s %s\n", w, name,
	    number_text(share_shown(s->tokens), t),
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
	history_row(name, w, history);
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
print_json(const char *name, const struct share_state *s,
    const char *history)
{
	char t[NUMBER_BUFSZ];

	printf("{\"name\":\"%s\",\"tokens\":%s", name,
	    number_text(share_shown(s->tokens), t));
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
	history_json(history);
	puts("}");
}

/* One name: 0, or 1 with a line on stderr (a listed name without a
 * state, as after a reset of the file store, is left out); *shown counts
 * the states printed. */
static int
one(struct shared *sh, const char *name, bool reset, bool listed, bool json,
    int w, size_t *shown)
{
	struct share_state s, now_s;
	char why[1024], history[SKETCH_TEXT_MAX];
	const int64_t now = wall_ns();
	int rc;

	if (reset)
		rc = shared_reset(sh, name, why, sizeof(why));
	else if ((rc = shared_read(sh, name, &s, history, why,
	    sizeof(why))) == 0) {
		/* A window old: as good as gone, as Redis has dropped it.
		 * Else the tokens as a run would find them now: what was
		 * left, and what came back since (share.c's rule, which
		 * share.lua keeps too). */
		now_s = s;
		if (share_expire(&now_s, sh->rules, now))
			rc = 1;
		else
			s.tokens = share_tokens(&now_s, sh->rules, now);
	}
	if (!reset && rc == 1) {
		if (!listed)
			say("%s: no shared state in %s", name, sh->shown);
		return listed ? 0 : 1;
	}
	if (!reset && rc == 0 && json)
		print_json(name, &s, history);
	else if (!reset && rc == 0)
		print_table(name, w, &s, history);
	if (rc == 0 && !reset)
		(*shown)++;
	if (rc == -1)
		say("%s", why);
	return rc == 0 ? 0 : 1;
}

/* A master whose names are not listed: said, and counted in *arg. */
static void
unlisted(void *arg, const char *why)
{
	say("%s; the names it holds are not listed", why);
	(*(size_t *)arg)++;
}

int
share_main(const struct config *c)
{
	const bool reset = strcmp(c->args[0], "reset") == 0;
	const bool json = c->log_format == LOG_JSON;
	static const struct reporter rep = { .json = true };
	/* A first connection's bound and the waits after it. */
	const int64_t waits = shared_connect_timeout(&c->shared) +
	    SHARE_CMD_WAITS * c->share_timeout;
	const int64_t until = mono_ns() + waits;
	char **names = NULL, why[1024], d[DURATION_BUFSZ];
	static char what[DURATION_BUFSZ + 64];
	size_t n = 0, shown = 0, unreached = 0, late = 0;
	struct shared sh;
	int rc = 0, w = 4, opened, e;

	events = json ? &rep : NULL;
	opened = shared_open(&sh, &c->shared, false, why, sizeof(why));
	e = errno;
	if (events != NULL)
		report_news(events, &sh, c->share);
	for (size_t i = 0; i < sh.nnews; i++)
		warnx("%s", sh.news[i]);
	sh.nnews = 0;
	errno = e;
	if (opened == -1) {
		/* No default directory: no run made it yet, so no state,
		 * nothing to reset.  A store that was named must be there: a
		 * typo is no empty store. */
		if (errno == ENOENT && sh.default_dir && (reset ||
		    c->nargs == 1)) {
			if (!reset)
				say("no shared state yet");
			return 0;
		}
		if (errno == ENOENT && sh.default_dir) {
			say("no shared state yet");
			return 1;
		}
		if (errno == ENOENT)
			say("%s: %s (no store there)", c->share_store != NULL ?
			    "--share-store" : c->share_store_file != NULL ?
			    "--share-store @FILE" : "$RETRY_SHARE_STORE", why);
		else
			say("%s", why);
		return STATUS_CANCELED;
	}
	snprintf(what, sizeof(what), "share %s's %s in all", c->args[0],
	    duration_format(waits, d, sizeof(d)));
	shared_until(&sh, until, what);
	if (c->nargs == 1 && shared_names(&sh, &names, &n, unlisted,
	    &unreached, why, sizeof(why)) == -1) {
		say("%s", why);
		shared_close(&sh);
		return 1;
	}
	for (size_t i = 0; i < n; i++)
		w = (int)strlen(names[i]) > w ? (int)strlen(names[i]) : w;
	for (int i = 1; i < c->nargs; i++)
		w = (int)strlen(c->args[i]) > w ? (int)strlen(c->args[i]) : w;
	for (size_t i = 0; i < n; i++) {
		if (mono_ns() >= until)
			late++;
		else
			rc |= one(&sh, names[i], false, true, json, w, &shown);
		free(names[i]);
	}
	free(names);
	for (int i = 1; i < c->nargs; i++) {
		if (mono_ns() >= until)
			late++;
		else
			rc |= one(&sh, c->args[i], reset, false, json, w,
			    &shown);
	}
	/* Past its deadline: one line for what was not asked. */
	if (late > 0) {
		say("%s: %zu name%s not %s: %s ran out", sh.shown, late,
		    late == 1 ? "" : "s", reset ? "reset" : "read", what);
		unreached++;
	}
	/* All names asked for, and none has a state: said, not an error. */
	if (c->nargs == 1 && shown == 0 && rc == 0 && unreached == 0)
		say("no shared state in %s", sh.shown);
	shared_close(&sh);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		say("stdout: %s", strerror(errno));
		return STATUS_CANCELED;
	}
	/* A part of the store down: what was listed is not all. */
	return unreached > 0 ? STATUS_SHARED : rc;
}
