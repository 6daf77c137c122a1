/* The title that ps shows of a run: retry's command line, and the
 * attempt's state ("[attempt 2/5 failed, next in 4s]"). */
#ifndef RETRY_TITLE_H
#define RETRY_TITLE_H

#include <stdint.h>

/* retry's command line, its nwords words (its options and the command),
 * joined (malloc'd), or NULL.  Taken before the first title, which writes
 * over argv[0]. */
char	*join_words(char *const *words, int nwords);

/* The title of attempt n of max (0: no limit is shown), what it is doing,
 * and the delay to the next (ns, or -1), after cmd: join_words's, or the
 * command's name. */
void	 set_title(const char *cmd, unsigned long attempt,
	    unsigned long max, const char *what, int64_t delay);
/* --hedge: running attempts in flight, the oldest first and the youngest
 * last, after the last title's command: "[attempts 1-3/5 running]", or
 * "[attempts 1-3/5: 2 running]" when some between have ended. */
void	 title_hedged(unsigned long first, unsigned long last,
	    unsigned running);

#endif
