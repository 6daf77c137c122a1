/*
 * The environment that commands and hooks see.  env_init moves the one
 * retry was given into a block of its own, once, out of the way of the
 * process title (setproctitle(3) writes over the strings that argv and
 * environ came in), and keeps retry's own variables at its end, each in a
 * buffer rewritten in place: no setenv(3), which scans the environment
 * and keeps every value it was ever given.  Inherited variables of the
 * same names give way to retry's.  Not pure: it sets environ, and nothing
 * else may change it after env_init (the variables would be lost).
 */
#ifndef RETRY_ENV_H
#define RETRY_ENV_H

#include <stdbool.h>
#include <stdint.h>

/* In the order they follow the inherited variables. */
enum env_var {
	VAR_MAX_ATTEMPTS,	/* RETRY_MAX_ATTEMPTS */
	VAR_LAST_STATUS,	/* RETRY_LAST_STATUS, empty before a status */
	VAR_ATTEMPT,		/* RETRY_ATTEMPT */
	VAR_ELAPSED_MS,		/* RETRY_ELAPSED_MS */
	VAR_STATUS,		/* RETRY_STATUS, for hooks */
	VAR_DELAY_MS,		/* RETRY_DELAY_MS, for hooks */
	VAR_HEDGED,		/* RETRY_HEDGED, 1 in an attempt started as a
				 * hedge */
	VAR_COUNT
};

/* Moves environ; -1 (errno ENOMEM) leaves it as it was. */
int		 env_init(void);
/* Whether the environment env_init moved had RETRY_ATTEMPT: retry runs
 * as, or under, another run's attempt or hook. */
bool		 env_nested(void);
/* NAME=v, or NAME= with empty true. */
void		 env_set(enum env_var, uint64_t v, bool empty);
void		 env_unset(enum env_var);

#endif
