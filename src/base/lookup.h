/*
 * A name looked up while the caller waits for other things too: in a child
 * process of its own, which getaddrinfo(3) may hold for as long as the
 * resolver takes, and which is killed and reaped when the caller gives up.
 * A lookup given up holds nothing, so the next one asks the resolver anew
 * and sees a name as soon as it resolves.  The addresses come back as one
 * block, freed with lookup_free.
 */
#ifndef RETRY_LOOKUP_H
#define RETRY_LOOKUP_H

#include <stdbool.h>

struct addrinfo;
struct lookup;

/* Starts looking host and port up with hints: 0, or an EAI_ code. */
int	 lookup_start(struct lookup **, const char *host, const char *port,
	    const struct addrinfo *hints);
/* The descriptor that is readable when the lookup may have ended: for the
 * one wait to watch. */
int	 lookup_fd(const struct lookup *);
/* Whether it has ended; if so, *rc says how (0, with the addresses in
 * *out, the caller's to free with lookup_free, or an EAI_ code), and it is
 * freed. */
bool	 lookup_done(struct lookup *, int *rc, struct addrinfo **out);
/* Gives a lookup up: its process killed and reaped, and it freed. */
void	 lookup_cancel(struct lookup *);
/* host and port as numbers (hints with AI_NUMERICHOST added), at once, in
 * the block lookup_done gives: 0, or an EAI_ code. */
int	 lookup_numeric(const char *host, const char *port,
	    const struct addrinfo *hints, struct addrinfo **out);
/* Frees what lookup_done or lookup_numeric gave. */
void	 lookup_free(struct addrinfo *);

#endif
