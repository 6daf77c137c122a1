/*
 * --hedge: the option read, and when the next hedge may start (after Dean
 * and Barroso's "The Tail at Scale": a second request once the first has
 * taken longer than a chosen delay).
 */
#include <stdlib.h>
#include <string.h>

#include "duration.h"
#include "hedging.h"

/* auto[:LOAD%]: a delay learned run by run (retry simulate's model). */
static const char *
auto_parse(const char *arg, struct hedge *h)
{
	static const char bad[] = "LOAD must be a percentage over 0%, up to "
	    "50%, as 5%";
	const char *load = arg[4] == ':' ? arg + 5 : NULL;
	size_t digits;
	char *end;
	double pct = HEDGE_LOAD * 100;

	if (arg[4] != '\0' && load == NULL)
		return "give DUR, DUR:N, auto or auto:LOAD%, as auto:5%";
	if (load != NULL) {
		digits = strspn(load, "0123456789.");
		if (digits == 0 || strcmp(load + digits, "%") != 0)
			return bad;
		pct = strtod(load, &end);
		if (end != load + digits || !(pct >= 0.01) || pct > 50)
			return bad;
	}
	*h = (struct hedge){ 0, HEDGE_N, pct / 100 };
	return NULL;
}

const char *
hedge_parse(const char *arg, struct hedge *h)
{
	const char *colon = strchr(arg, ':');
	char dur[64];
	size_t len = colon != NULL ? (size_t)(colon - arg) : strlen(arg);
	int64_t d;
	char *end;
	unsigned long n = HEDGE_N;

	if (strncmp(arg, "auto", 4) == 0)
		return auto_parse(arg, h);
	if (len == 0 || len >= sizeof(dur))
		return "give DUR or DUR:N, as 2s:3";
	memcpy(dur, arg, len);
	dur[len] = '\0';
	if (duration_parse(dur, &d) != NULL || d <= 0)
		return "DUR must be a duration over 0, as 500ms";
	if (colon != NULL) {
		if (colon[1] < '0' || colon[1] > '9')
			return "N must be a whole number from 2 to 16";
		n = strtoul(colon + 1, &end, 10);
		if (*end != '\0' || n < 2 || n > HEDGE_N_MAX)
			return "N must be a whole number from 2 to 16";
	}
	h->delay = d;
	h->n = (unsigned)n;
	h->load = 0;
	return NULL;
}

int64_t
hedge_due(const struct hedge *h, unsigned inflight, int64_t since)
{
	if (h->delay <= 0 || inflight == 0 || inflight >= h->n)
		return -1;
	return since > INT64_MAX - h->delay ? INT64_MAX :
	    since + h->delay;
}

enum hedge_bar
hedge_next(const struct hedge *h, unsigned inflight, int64_t since,
    unsigned long made, unsigned long max_attempts, int64_t budget,
    int64_t deadline, int64_t now)
{
	const int64_t due = hedge_due(h, inflight, since);

	if (due < 0)
		return HEDGE_FULL;
	if (now < due)
		return HEDGE_NOT_YET;
	if (max_attempts > 0 && made >= max_attempts)
		return HEDGE_MAX;
	if ((budget >= 0 && now > budget) || (deadline >= 0 && now >= deadline))
		return HEDGE_BUDGET;
	return HEDGE_GO;
}
