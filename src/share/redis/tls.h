/*
 * TLS for a connection to a Redis server (rediss://), through OpenSSL:
 * TLS 1.2 or later, the server's certificate verified by default (its
 * chain against the system's CAs or the URL's ssl_ca_certs, its name
 * against the host connected to, which is sent as SNI), a client
 * certificate when the URL gives one.  libssl and libcrypto are loaded
 * by tls_load, or the first time a context is made (lib.h).
 *
 * Nothing here waits: the handshake, each read and each write do what
 * they can without blocking and say which of POLLIN and POLLOUT the
 * socket must become before they can go on, for the caller's one wait.
 * What goes wrong is said in err, without the store's name.  Not pure.
 */
#ifndef RETRY_TLS_H
#define RETRY_TLS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "storeurl.h"

struct ssl_ctx_st;
struct ssl_st;

/* Loads OpenSSL, if not yet: NULL, or why it cannot be (said again by
 * tls_context). */
const char	*tls_load(void);

/* The settings of the URL's TLS options, their files read: NULL with why
 * in err. */
struct ssl_ctx_st *tls_context(const struct store_url *, char *err, size_t);
void		 tls_context_free(struct ssl_ctx_st *);
/* A session on the connected socket fd, for host (a name, or an address
 * that the certificate must name).  NULL with why in err. */
struct ssl_st	*tls_session(struct ssl_ctx_st *, int fd, const char *host,
		    char *err, size_t);
/* Sends the session's close_notify, if the socket takes it now, and frees
 * the session; the caller closes fd. */
void		 tls_end(struct ssl_st *);

/*
 * One step of the handshake: 0 once it is done; 1 while it must wait for
 * *events (POLLIN or POLLOUT) on the socket; -1 with why in err (a
 * certificate refused says what is wrong with it).
 */
int		 tls_handshake(struct ssl_st *, short *events, char *err,
		    size_t);
/*
 * As read(2) and write(2) on the session: bytes, or 0 when the server has
 * closed it (a read), or -1 with errno EAGAIN while the socket must become
 * *events, else with why in err.
 */
ssize_t		 tls_read(struct ssl_st *, void *, size_t, short *events,
		    char *err, size_t);
ssize_t		 tls_write(struct ssl_st *, const void *, size_t,
		    short *events, char *err, size_t);
/* Whether the session holds bytes read from the socket and not yet
 * given: a wait on the socket would not see them. */
bool		 tls_pending(const struct ssl_st *);

#endif
