/* The run's figures as --result-file writes them (resultfmt.h). */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>

#include "resultfmt.h"

static bool
won(const struct next *x)
{
	return x->what == NEXT_EXIT && x->end == FIN_VERDICT && x->succeeded;
}

const char *
figures_result(const struct next *x)
{
	if (won(x))
		return "success";
	/* gave_up is --on-giveup's: a --stop-on verdict too, which the
	 * reports say as stopping. */
	if (x->what == NEXT_EXIT && x->gave_up && x->outcome.verdict != V_STOP)
		return "gave-up";
	return "stopped";
}

/* n as digits, or nothing for none: into buf. */
static const char *
number_or_none(char *buf, size_t size, long long n, bool none)
{
	if (none)
		buf[0] = '\0';
	else
		snprintf(buf, size, "%lld", n);
	return buf;
}

size_t
figures_format(char *buf, const struct next *x, unsigned long made,
    const struct attempt_result *last, int64_t elapsed)
{
	char on[24], st[24];
	int n;

	/* retry's status: $? after it, 128 and the signal it dies of. */
	n = snprintf(buf, FIGURES_MAX, "result=%s\nretry_status=%d\n"
	    "total_attempts=%lu\nsucceeded_on=%s\nexit_code=%s\n"
	    "elapsed_ms=%" PRId64 "\n", figures_result(x),
	    x->what == NEXT_DIE ? 128 + x->status : x->status, made,
	    number_or_none(on, sizeof(on), (long long)x->attempt, !won(x)),
	    number_or_none(st, sizeof(st), last != NULL ? last->status : 0,
	    last == NULL || last->exec_errno != 0),
	    elapsed / INT64_C(1000000));
	return n < 0 ? 0 : (size_t)n;
}
