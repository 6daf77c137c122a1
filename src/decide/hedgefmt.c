/*
 * The words of --hedge's events (hedgefmt.h).
 */
#include <stdbool.h>

#include "codes.h"
#include "duration.h"
#include "exits.h"
#include "hedgefmt.h"

static const char *const names[] = {
	[HE_STARTED] = "hedge", [HE_FAILED] = "hedge_failed",
	[HE_WON] = "hedge_won", [HE_CANCELLED] = "cancelled",
};

static void
text(struct line *l, const struct reporter *c, const struct hedge_event *e)
{
	char d[32];

	switch (e->what) {
	case HE_STARTED:
		if (e->failed != 0)
			line_add(l, "%s after attempt %lu failed: started "
			    "attempt %lu beside attempt %lu", duration_format(
			    e->after, d, sizeof(d)), e->failed, e->attempt,
			    e->beside);
		else
			line_add(l, "attempt %lu still running after %s: "
			    "started attempt %lu beside it", e->beside,
			    duration_format(e->after, d, sizeof(d)),
			    e->attempt);
		return;
	case HE_FAILED:
		/* As a single attempt's failure line says it. */
		report_attempt(l, c, e->attempt);
		line_add(l, " failed: ");
		report_status(l, e->result, NULL);
		line_add(l, " after %s%s; %u other%s still running",
		    duration_format(duration_round(e->duration), d,
		    sizeof(d)), report_failure_why(e->why), e->others,
		    e->others == 1 ? "" : "s");
		return;
	case HE_WON:
		line_add(l, "attempt %lu succeeded first, after %s: "
		    "cancelling %u other%s", e->attempt,
		    duration_format(duration_round(e->duration), d,
		    sizeof(d)), e->others, e->others == 1 ? "" : "s");
		return;
	case HE_CANCELLED:
		line_add(l, "attempt %lu cancelled after %s (attempt %lu "
		    "%s)", e->attempt, duration_format(
		    duration_round(e->duration), d, sizeof(d)), e->beside,
		    e->won ? "won" : "ended the run");
		return;
	}
}

static void
json(struct line *l, const struct reporter *c, const struct hedge_event *e,
    const struct timespec *now)
{
	const struct attempt_result *r = e->result;
	const char *sig;

	report_json_head(l, c, names[e->what], now);
	line_add(l, ",\"attempt\":%lu,\"max_attempts\":%lu", e->attempt,
	    c->max_attempts);
	if (e->what == HE_STARTED && e->failed != 0)
		line_add(l, ",\"beside\":%lu,\"hedge_ms\":%lld,"
		    "\"after_failure_of\":%lu", e->beside,
		    (long long)(e->after / NS_PER_MS), e->failed);
	else if (e->what == HE_STARTED)
		line_add(l, ",\"beside\":%lu,\"hedge_ms\":%lld,"
		    "\"after_failure_of\":null", e->beside,
		    (long long)(e->after / NS_PER_MS));
	if (e->what == HE_CANCELLED && e->won)
		line_add(l, ",\"winner\":%lu,\"by\":%lu", e->beside,
		    e->beside);
	else if (e->what == HE_CANCELLED)
		line_add(l, ",\"winner\":null,\"by\":%lu", e->beside);
	if (e->what == HE_WON || e->what == HE_FAILED)
		line_add(l, ",\"others\":%u", e->others);
	if (r != NULL) {
		line_add(l, ",\"status\":%d,\"signal\":", r->status);
		if (r->signal != 0 && (sig = signal_name(r->signal)) != NULL)
			line_add(l, "\"%s\"", sig);
		else
			line_add(l, "null");
		line_add(l, ",\"timed_out\":%s", r->timed_out ? "true" :
		    "false");
	}
	if (e->what != HE_STARTED)
		line_add(l, ",\"duration_ms\":%lld",
		    (long long)(e->duration / NS_PER_MS));
	line_add(l, ",\"elapsed_ms\":%lld}",
	    (long long)(e->elapsed / NS_PER_MS));
}

void
hedge_format_output(struct line *l, const struct reporter *c,
    unsigned long attempt, const char *stream, const char *text, size_t len,
    const struct timespec *now)
{
	if (c->json) {
		report_json_head(l, c, "output", now);
		line_add(l, ",\"attempt\":%lu,\"stream\":\"%s\",\"line\":",
		    attempt, stream);
		line_add_json_n(l, text, len);
		line_add(l, "}");
	} else {
		report_prefix_named(l, c);
		line_add(l, "attempt %lu %s: ", attempt, stream);
		line_add_visible(l, text, len);
	}
	line_add(l, "\n");
}

size_t
hedge_format(struct line *l, const struct reporter *c,
    const struct hedge_event *e, const struct timespec *now)
{
	size_t body = 0;

	if (c->json)
		json(l, c, e, now);
	else {
		report_prefix_named(l, c);
		body = l->len;
		text(l, c, e);
	}
	report_finish(c, l);
	return body;
}
