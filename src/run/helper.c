/*
 * A helper execs nothing, so it closes every descriptor but those it needs,
 * the inherited ones too: a pipe's end that it held would keep that pipe's
 * reader from its EOF.
 */
#include <limits.h>
#include <unistd.h>

#include "compat.h"
#include "signals.h"
#include "helper.h"

/* Closes every fd but those in keep[0..n). */
static void
close_except(const int *keep, int n)
{
	unsigned lo = 0, next;

	for (;;) {
		next = UINT_MAX;
		for (int i = 0; i < n; i++)
			if (keep[i] >= 0 && (unsigned)keep[i] >= lo &&
			    (unsigned)keep[i] < next)
				next = (unsigned)keep[i];
		if (next == UINT_MAX) {
			compat_close_range(lo, ~0U);
			return;
		}
		if (next > lo)
			compat_close_range(lo, next - 1);
		lo = next + 1;
	}
}

pid_t
spawn_helper(void (*fn)(void *), void *arg, const int *keep, int n)
{
	pid_t pid;

	if ((pid = fork()) != 0)
		return pid;
	signals_reset();
	close_except(keep, n);
	fn(arg);
	_exit(0);
}
