/* A seedable generator (xoshiro256**). Pure: seeding from the system is the
 * caller's business. */
#ifndef RETRY_RNG_H
#define RETRY_RNG_H

#include <stdint.h>

struct rng {
	uint64_t	s[4];
};

void		 rng_seed(struct rng *, uint64_t);
uint64_t	 rng_next(struct rng *);
/* Uniform in [0, 1). */
double		 rng_unit(struct rng *);
/* Uniform integer in [lo, hi]; lo when hi <= lo. */
int64_t		 rng_range(struct rng *, int64_t, int64_t);

#endif
