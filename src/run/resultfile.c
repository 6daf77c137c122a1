/* --result-file: the run's figures as it ends (resultfile.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "duration.h"
#include "resultfile.h"

int
resultfile_open(struct logfile **fp, const char *path, char *err,
    size_t errsz)
{
	return logfile_open_as(fp, "--result-file", path, err, errsz);
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

void
resultfile_write(struct logfile *f, const struct reporter *rep,
    const struct next *x, unsigned long made,
    const struct attempt_result *last, int64_t elapsed)
{
	const bool won = x->what == NEXT_EXIT && x->end == END_VERDICT &&
	    x->succeeded;
	/* As the reports say: giving up when the back-off or shared state
	 * ended the run, stopping on a --stop-on verdict, a signal, a
	 * command that cannot run or retry's own error. */
	const bool gave_up = x->what == NEXT_EXIT && x->gave_up &&
	    x->outcome.verdict != V_STOP;
	char buf[256], on[24], st[24];
	ssize_t w;
	int n;

	if (f == NULL)
		return;
	/* retry's status: $? after it, 128 and the signal it dies of. */
	n = snprintf(buf, sizeof(buf), "result=%s\nexit_status=%d\n"
	    "attempts=%lu\nsucceeded_on=%s\nlast_status=%s\n"
	    "elapsed_ms=%lld\n",
	    won ? "success" : gave_up ? "gave-up" : "stopped",
	    x->what == NEXT_DIE ? 128 + x->status : x->status, made,
	    number_or_none(on, sizeof(on), (long long)x->attempt, !won),
	    number_or_none(st, sizeof(st), last != NULL ? last->status : 0,
	    last == NULL || last->exec_errno != 0),
	    (long long)(elapsed / NS_PER_MS));
	/* Less than PIPE_BUF: a pipe or a FIFO takes it whole or not. */
	while ((w = out_try(&f->out, buf, (size_t)n)) < 0 && errno == EINTR)
		;
	if (w < 0)
		report_error(rep, "--result-file: not written: %s",
		    errno == EAGAIN || errno == EWOULDBLOCK ?
		    "its reader did not take it" : strerror(errno));
	else if (w < n)
		report_error(rep, "--result-file: %d of %d bytes not written",
		    n - (int)w, n);
}
