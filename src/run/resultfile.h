/*
 * --result-file: the run's figures (resultfmt.h), appended to FILE as it
 * ends in one write.  The file is opened as --log-file is, before the
 * first attempt, and written without waiting.
 */
#ifndef RETRY_RESULTFILE_H
#define RETRY_RESULTFILE_H

#include <stdint.h>

#include "attempt.h"
#include "logfile.h"
#include "policy.h"
#include "report.h"

/* Opens path (logfile_open's rules) into *fp; -1 with one line in err. */
int	resultfile_open(struct logfile **fp, const char *path, char *err,
	    size_t errsz);
/* Writes what the run's end x says (NEXT_EXIT or NEXT_DIE), after made
 * attempts, the last one's result last (NULL: none), elapsed ns since
 * the run started; what cannot be written at once is said through rep.
 * f NULL: nothing. */
void	resultfile_write(struct logfile *f, const struct reporter *rep,
	    const struct next *x, unsigned long made,
	    const struct attempt_result *last, int64_t elapsed);

#endif
