/*
 * retry simulate: the models of model.h, run for the strategies asked
 * (the blog's five where none is) and printed or charted.
 */
#ifndef RETRY_SIMULATE_H
#define RETRY_SIMULATE_H

#include "config.h"
#include "rng.h"

/* The subcommand: simulates and prints; returns an exit status. */
int		 simulate_main(const struct config *, struct rng *);

#endif
