/* The title that ps shows of a run: retry's command line, and the
 * attempt's state ("[attempt 2/5 failed, next in 4s]"). */
#ifndef RETRY_TITLE_H
#define RETRY_TITLE_H

#include <stdint.h>

#include "config.h"

/* retry's command line, its options and the command, joined (malloc'd),
 * or NULL.  Taken before the first title, which writes over argv[0]. */
char	*join_words(const struct config *);

/* The title of attempt n, what it is doing, and the delay to the next
 * (ns, or -1); command: join_words's, or NULL for the command's name. */
void	 set_title(const struct config *, const char *command,
	    unsigned long attempt, const char *what, int64_t delay);

#endif
