/* A connection made without blocking (netconnect.h). */
#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <unistd.h>

#include "clock.h"
#include "compat.h"
#include "netconnect.h"
#include "wait.h"

/* Whether the run must give up waiting: a signal that ends it (where heed
 * says so, EINTR) or the deadline passed (ETIMEDOUT). */
static bool
given_up(int64_t by, bool heed)
{
	if (heed && signal_stop != 0) {
		errno = EINTR;
		return true;
	}
	if (by >= 0 && mono_ns() >= by) {
		errno = ETIMEDOUT;
		return true;
	}
	return false;
}

/*
 * A Unix socket whose listener's backlog is full refuses a non-blocking
 * connect with EAGAIN, and nothing can be polled for room: try again after
 * a pause that doubles from 1 ms to 64 ms, inside the one wait, until the
 * deadline.  0 once a try succeeds or goes on in progress; -1 with errno.
 */
static int
connect_unix(int fd, const struct sockaddr *addr, socklen_t len, int64_t by,
    bool heed)
{
	int64_t pause = NS_PER_MS;

	while (connect(fd, addr, len) == -1) {
		if (errno != EAGAIN)
			return -1;
		if (given_up(by, heed))
			return -1;
		(void)wait_until(NULL, 0, earliest(by, mono_ns() + pause));
		if (pause < 64 * NS_PER_MS)
			pause *= 2;
	}
	return 0;
}

int
net_connect(int fd, const struct sockaddr *addr, socklen_t len, int64_t by,
    bool heed)
{
	struct pollfd p = { .fd = fd, .events = POLLOUT };
	socklen_t elen = sizeof(int);
	int e = 0;

	if (addr->sa_family == AF_UNIX) {
		if (connect_unix(fd, addr, len, by, heed) == 0)
			return 0;
	} else if (connect(fd, addr, len) == 0)
		return 0;
	if (errno != EINPROGRESS)
		return -1;
	while (p.revents == 0) {
		if (given_up(by, heed))
			return -1;
		(void)wait_until(&p, 1, by);
	}
	if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &e, &elen) == -1)
		return -1;
	errno = e;
	return e == 0 ? 0 : -1;
}

int
net_connect_any(const struct addrinfo *ai, int64_t by, bool heed,
    void (*tried)(void *, const struct addrinfo *), void *arg)
{
	int e = ENOTCONN;

	for (const struct addrinfo *a = ai; a != NULL; a = a->ai_next) {
		int fd;

		if (tried != NULL)
			tried(arg, a);
		if ((fd = compat_socket(a->ai_family, a->ai_socktype,
		    a->ai_protocol)) == -1) {
			e = errno;
			continue;
		}
		if (net_connect(fd, a->ai_addr, a->ai_addrlen, by, heed) == 0)
			return fd;
		e = errno;
		(void)close(fd);
		if ((heed && signal_stop != 0) || (by >= 0 && mono_ns() >= by))
			break;
	}
	errno = e;
	return -1;
}
