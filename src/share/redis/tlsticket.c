/*
 * A TLS session's ticket kept across runs (tls.h), so that a run's first
 * handshake with a server can resume a session that an earlier run made
 * rather than verify the server's certificate and agree on keys afresh.
 * The ticket of a server is a file of retry's private directory (the
 * file store's default, store.h), 0600, named after the host and port:
 * a line that says for which server and which TLS settings it was made,
 * then the session in DER.  It is written whole under a temporary name
 * and renamed over the one before; a ticket that cannot be read, is not
 * the user's own, was made for other settings, is stale or corrupt is
 * ignored, and the handshake is a full one.
 */
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <netdb.h>

#include "store.h"
#include "tls.h"
#include "tlsapi.h"

/* A ticket's file, at most: a session in DER is under 2 KiB. */
#define TICKET_MAX	16384

/* The TLS settings of the run's store: a ticket made for others is not
 * resumed (one made without verification, say, by a run that verifies). */
static char settings[3 * STOREURL_FILE_MAX + 16];
/* The session whose ticket is to be kept, once it comes, under name;
 * NULL once kept (TLS 1.3 servers send two) or given up. */
static struct {
	const SSL	*s;
	char		 name[512];
	char		 line[sizeof(settings) + 512];
} pending;

/* The ticket's name for the server s is connected to, as host; and the
 * line its file starts with.  -1 when the peer is unknown. */
static int
ticket_name(int fd, const char *host, char *name, size_t nsz, char *line,
    size_t lsz)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);
	char port[NI_MAXSERV];
	int n;

	if (getpeername(fd, (struct sockaddr *)&ss, &len) == -1 ||
	    getnameinfo((struct sockaddr *)&ss, len, NULL, 0, port,
	    sizeof(port), NI_NUMERICSERV) != 0 || strchr(host, '/') != NULL)
		return -1;
	n = snprintf(name, nsz, ".tls-ticket.%s.%s", host, port);
	if (n < 0 || (size_t)n >= nsz)
		return -1;
	n = snprintf(line, lsz, "retry TLS ticket %s %s %s\n", host, port,
	    settings);
	return n < 0 || (size_t)n >= lsz ? -1 : 0;
}

void
ticket_settings(const struct store_url *u)
{
	snprintf(settings, sizeof(settings), "%d %s %s %s", u->verify, u->ca,
	    u->cert, u->key);
}

void
ticket_resume(SSL *s, int fd, const char *host)
{
	char name[512], line[sizeof(settings) + 512], err[64];
	unsigned char buf[TICKET_MAX];
	const unsigned char *p;
	const int e = errno;
	struct store st;
	struct stat sb;
	SSL_SESSION *sess;
	size_t llen;
	ssize_t n;
	int tfd;

	pending.s = NULL;
	if (ticket_name(fd, host, name, sizeof(name), line,
	    sizeof(line)) == -1) {
		errno = e;
		return;
	}
	pending.s = s;
	memcpy(pending.name, name, sizeof(name));
	memcpy(pending.line, line, sizeof(line));
	if (store_open(&st, NULL, false, err, sizeof(err)) == -1) {
		errno = e;
		return;
	}
	tfd = openat(st.dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
	    O_CLOEXEC);
	store_close(&st);
	if (tfd == -1) {
		errno = e;
		return;
	}
	n = fstat(tfd, &sb) == 0 && S_ISREG(sb.st_mode) &&
	    sb.st_uid == getuid() && (sb.st_mode & 077) == 0 ?
	    read(tfd, buf, sizeof(buf)) : -1;
	(void)close(tfd);
	llen = strlen(line);
	if (n > (ssize_t)llen && n < (ssize_t)sizeof(buf) &&
	    memcmp(buf, line, llen) == 0) {
		p = buf + llen;
		if ((sess = openssl.d2i_SSL_SESSION(NULL, &p, n -
		    (ssize_t)llen)) != NULL) {
			if (openssl.SSL_SESSION_is_resumable(sess) == 1 &&
			    openssl.SSL_SESSION_get_time(sess) +
			    openssl.SSL_SESSION_get_timeout(sess) > time(NULL))
				(void)openssl.SSL_set_session(s, sess);
			openssl.SSL_SESSION_free(sess);
		}
	}
	openssl.ERR_clear_error();
	errno = e;
}

/* OpenSSL's word that s has a new session, whose ticket is kept for the
 * runs to come unless s resumed one; 0: OpenSSL keeps sess. */
static int
new_session(SSL *s, SSL_SESSION *sess)
{
	char tmp[sizeof(pending.name) + 24], err[64];
	unsigned char buf[TICKET_MAX], *p;
	const int e = errno;
	struct store st;
	size_t llen;
	int len, fd;

	if (pending.s != s || openssl.SSL_session_reused(s) == 1 ||
	    openssl.SSL_SESSION_is_resumable(sess) != 1)
		return 0;
	pending.s = NULL;
	if ((llen = strlen(pending.line)) >= sizeof(buf) ||
	    (len = openssl.i2d_SSL_SESSION(sess, NULL)) <= 0 ||
	    (size_t)len > sizeof(buf) - llen)
		goto out;
	memcpy(buf, pending.line, llen);
	p = buf + llen;
	if (openssl.i2d_SSL_SESSION(sess, &p) != len ||
	    store_open(&st, NULL, true, err, sizeof(err)) == -1)
		goto out;
	snprintf(tmp, sizeof(tmp), "%s.%ld", pending.name, (long)getpid());
	if ((fd = openat(st.dirfd, tmp, O_WRONLY | O_CREAT | O_TRUNC |
	    O_NOFOLLOW | O_CLOEXEC, 0600)) != -1) {
		const bool whole = write(fd, buf, llen + (size_t)len) ==
		    (ssize_t)(llen + (size_t)len);

		if (close(fd) == -1 || !whole ||
		    renameat(st.dirfd, tmp, st.dirfd, pending.name) == -1)
			(void)unlinkat(st.dirfd, tmp, 0);
	}
	store_close(&st);
out:
	openssl.ERR_clear_error();
	errno = e;
	return 0;
}

void
ticket_keep(SSL_CTX *ctx)
{
	(void)openssl.SSL_CTX_ctrl(ctx, SSL_CTRL_SET_SESS_CACHE_MODE,
	    SSL_SESS_CACHE_CLIENT | SSL_SESS_CACHE_NO_INTERNAL_STORE, NULL);
	openssl.SSL_CTX_sess_set_new_cb(ctx, new_session);
}
