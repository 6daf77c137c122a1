/* retry share status|reset: the shared state of names, read or reset. */
#ifndef RETRY_SHARECMD_H
#define RETRY_SHARECMD_H

#include "config.h"

/* Prints or resets; returns an exit status. */
int	share_main(const struct config *);

#endif
