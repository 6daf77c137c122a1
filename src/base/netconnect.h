/* A connection made without blocking: connect(2) on a non-blocking
 * socket, its end awaited inside the one wait (wait.h) up to a deadline,
 * for a socket's address or for each address a name resolved to in turn.
 * What the Redis store's nodes and the probes both make. */
#ifndef RETRY_NETCONNECT_H
#define RETRY_NETCONNECT_H

#include <stdbool.h>
#include <stdint.h>
#include <netdb.h>
#include <sys/socket.h>

/* Connects the non-blocking socket fd to addr by the absolute
 * CLOCK_MONOTONIC deadline in ns (-1: none): 0, or -1 with errno
 * (ETIMEDOUT once the deadline has passed; EINTR once a signal that ends
 * the run has come, where heed says to give up then). */
int	net_connect(int fd, const struct sockaddr *, socklen_t, int64_t by,
	    bool heed);
/* Each address of ai in turn, a socket of its own (close-on-exec,
 * non-blocking) connected as net_connect does, tried told of each address
 * first (when not NULL): the connected socket, or -1 with the last
 * address's errno; a deadline passed or a signal stops the turns. */
int	net_connect_any(const struct addrinfo *ai, int64_t by, bool heed,
	    void (*tried)(void *, const struct addrinfo *), void *arg);

#endif
