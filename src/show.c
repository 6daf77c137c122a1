/* show-backoff-delays and retry --dry-run. */
#include <ctype.h>
#include <err.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "duration.h"
#include "engine.h"
#include "show.h"

struct step {
	unsigned long	 n;		/* 1-based */
	struct status	 st;
	struct delay	 d;
};

static const char *
time_parse(const char *s, double *out)
{
	char *end;
	const char *p;

	for (p = s; isdigit((unsigned char)*p); p++)
		;
	if (*p == '.')
		for (p++; isdigit((unsigned char)*p); p++)
			;
	if (p == s || *p != '\0' || strcmp(s, ".") == 0)
		return "the time is not a number of seconds";
	errno = 0;
	*out = strtod(s, &end);
	if (errno != 0 || !isfinite(*out))
		return "the time is out of range";
	return NULL;
}

const char *
status_parse(const char *s, double prev, struct status *out)
{
	const char *err;
	double t;

	if ((s[0] != '0' && s[0] != '1') || (s[1] != '\0' && s[1] != ':'))
		return "a status is 0 (failure) or 1 (success), then "
		    "optionally :T or :+S";
	out->success = s[0] == '1';
	out->time = prev;
	if (s[1] == '\0')
		return NULL;
	if (s[2] == '+') {
		if ((err = time_parse(s + 3, &t)) != NULL)
			return err;
		out->time = prev + t;
		return NULL;
	}
	if ((err = time_parse(s + 2, &t)) != NULL)
		return err;
	if (t < prev)
		return "the time goes backwards";
	out->time = t;
	return NULL;
}

static double
in_unit(const struct config *c, double s)
{
	return c->unit_ms && s >= 0 ? s * 1000 : s;
}

static void
print_step(const struct config *c, const struct step *s, bool last)
{
	const double v = in_unit(c, s->d.s);

	switch (c->format) {
	case FORMAT_PLAIN:
		printf("%.15g\n", v);
		break;
	case FORMAT_TABLE:
		printf("%-6lu %-7s %-12.15g %.15g\n", s->n,
		    s->st.success ? "success" : "failure",
		    in_unit(c, s->st.time), v);
		break;
	case FORMAT_CSV:
		printf("%lu,%d,%.15g,%.15g\n", s->n, s->st.success ? 1 : 0,
		    in_unit(c, s->st.time), v);
		break;
	case FORMAT_JSON:
		printf("  {\"step\": %lu, \"status\": %d, \"time\": %.15g, "
		    "\"delay\": %.15g}%s\n", s->n, s->st.success ? 1 : 0,
		    in_unit(c, s->st.time), v, last ? "" : ",");
		break;
	}
}

static void
print_header(const struct config *c)
{
	const char *u = c->unit_ms ? "ms" : "s";

	if (c->format == FORMAT_TABLE)
		printf("%-6s %-7s %-12s %s\n", "step", "status",
		    c->unit_ms ? "time (ms)" : "time (s)",
		    c->unit_ms ? "delay (ms)" : "delay (s)");
	else if (c->format == FORMAT_CSV)
		printf("step,status,time_%s,delay_%s\n", u, u);
	else if (c->format == FORMAT_JSON)
		fputs("[\n", stdout);
}

static int
finish(void)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		warn("stdout");
		return 125;
	}
	return 0;
}

int
show_main(const struct config *c, struct rng *rng)
{
	struct engine e;
	struct step s = { 0 };
	double prev = 0;
	const char *why;
	unsigned long total;

	/* Check every status before printing anything. */
	for (int i = 0; i < c->nargs; i++) {
		if ((why = status_parse(c->args[i], prev, &s.st)) != NULL) {
			warnx("status '%s': %s", c->args[i], why);
			return 125;
		}
		prev = s.st.time;
	}
	engine_init(&e, &c->backoff, rng, 0);
	total = c->nargs > 0 ? (unsigned long)c->nargs : c->count;
	print_header(c);
	prev = 0;
	for (unsigned long i = 0; i < total; i++) {
		s.n = i + 1;
		s.st = (struct status){ false, 0 };
		if (c->nargs > 0)
			status_parse(c->args[i], prev, &s.st);
		prev = s.st.time;
		s.d = s.st.success ? engine_success(&e, s.st.time) :
		    engine_failure(&e, s.st.time);
		/* Without STATUS the run ends where the strategy gives up. */
		print_step(c, &s, i + 1 == total || (c->nargs == 0 &&
		    s.d.ns < 0));
		if (c->nargs == 0 && s.d.ns < 0)
			break;
	}
	if (c->format == FORMAT_JSON)
		fputs("]\n", stdout);
	return finish();
}

int
dry_run(const struct config *c, struct rng *rng)
{
	char d[DURATION_BUFSZ], t[DURATION_BUFSZ];
	struct engine e;
	struct delay next;
	int64_t at = 0;

	engine_init(&e, &c->backoff, rng, 0);
	printf("%-8s %-10s %s\n", "attempt", "delay", "starts at");
	printf("%-8d %-10s %s\n", 1, "-", "0s");
	for (unsigned long n = 2; n <= c->count; n++) {
		next = engine_failure(&e, (double)at / 1e9);
		if (next.ns < 0)
			break;
		if (c->budget >= 0 && sat_add(at, next.ns) > c->budget) {
			printf("then gives up: the next attempt would end past "
			    "the %s budget\n", duration_format(c->budget, d,
			    sizeof(d)));
			return finish();
		}
		at = sat_add(at, next.ns);
		printf("%-8lu %-10s %s\n", n,
		    duration_format(next.ns, d, sizeof(d)),
		    duration_format(at, t, sizeof(t)));
	}
	return finish();
}
