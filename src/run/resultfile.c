/* --result-file: the run's figures as it ends (resultfile.h). */
#include <errno.h>
#include <string.h>

#include "resultfmt.h"
#include "resultfile.h"

int
resultfile_open(struct logfile **fp, const char *path, char *err,
    size_t errsz)
{
	return logfile_open_as(fp, "--result-file", path, err, errsz);
}

void
resultfile_write(struct logfile *f, const struct reporter *rep,
    const struct next *x, unsigned long made,
    const struct attempt_result *last, int64_t elapsed)
{
	char buf[FIGURES_MAX];
	size_t n;
	ssize_t w;

	if (f == NULL)
		return;
	n = figures_format(buf, x, made, last, elapsed);
	/* Less than PIPE_BUF: a pipe or a FIFO takes it whole or not. */
	while ((w = out_try(&f->out, buf, n)) < 0 && errno == EINTR)
		;
	if (w < 0)
		report_error(rep, "--result-file: not written: %s",
		    errno == EAGAIN || errno == EWOULDBLOCK ?
		    "its reader did not take it" : strerror(errno));
	else if ((size_t)w < n)
		report_error(rep, "--result-file: %zu of %zu bytes not "
		    "written", n - (size_t)w, n);
}
