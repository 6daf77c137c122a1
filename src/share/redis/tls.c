/* TLS for a connection to a Redis server, through OpenSSL (tls.h). */
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tls.h"
#include "tlsapi.h"

struct openssl_api openssl;

/* NULL once OpenSSL is there, or why it is not. */
static const char *
load_openssl(void)
{
#if defined(RETRY_SSL_SONAME) && defined(RETRY_CRYPTO_SONAME)
	static const char *const crypto[] = { CRYPTO_FUNCS(LIB_NAME) };
	static const char *const ssl[] = { SSL_FUNCS(LIB_NAME) };
	static const struct lib_part parts[] = {
		{ RETRY_CRYPTO_SONAME, crypto, LIB_COUNT(crypto) },
		{ RETRY_SSL_SONAME, ssl, LIB_COUNT(ssl) },
	};
	static struct lib_once once;
	_Static_assert(sizeof(openssl) == (LIB_COUNT(crypto) +
	    LIB_COUNT(ssl)) * sizeof(void *), "a name for each function");

	return lib_once(&once, parts, LIB_COUNT(parts), (void **)&openssl);
#else
	struct openssl_api *t = &openssl;

	CRYPTO_FUNCS(LIB_LINKED)
	SSL_FUNCS(LIB_LINKED)
	return NULL;
#endif
}

/*
 * SIGPIPE, held off around what OpenSSL writes where it is not ignored
 * (retry share, --dry-run: a closed stdout ends them as it ends any
 * tool), since OpenSSL writes with write(2), not send(2) with
 * MSG_NOSIGNAL: a server that has gone away gives EPIPE, never the
 * signal.
 */
static bool guarded;

struct held {
	sigset_t	 old;
	bool		 on;
};

static void
hold_pipe(struct held *h)
{
	sigset_t pipe;

	h->on = guarded;
	if (!h->on)
		return;
	sigemptyset(&pipe);
	sigaddset(&pipe, SIGPIPE);
	(void)sigprocmask(SIG_BLOCK, &pipe, &h->old);
}

static void
release_pipe(const struct held *h)
{
	const struct timespec now = { 0, 0 };
	sigset_t pipe, pending;
	const int e = errno;

	if (!h->on)
		return;
	sigemptyset(&pipe);
	sigaddset(&pipe, SIGPIPE);
	if (sigpending(&pending) == 0 && sigismember(&pending, SIGPIPE) == 1)
		(void)sigtimedwait(&pipe, NULL, &now);
	(void)sigprocmask(SIG_SETMASK, &h->old, NULL);
	errno = e;
}

/* What OpenSSL says went wrong last, in words. */
const char *
reason(unsigned long e, char *buf, size_t sz)
{
	const char *r;

	if (e == 0)
		return "an error that OpenSSL does not name";
	if (ERR_SYSTEM_ERROR(e))
		return strerror(ERR_GET_REASON(e));
	if ((r = openssl.ERR_reason_error_string(e)) != NULL)
		return r;
	snprintf(buf, sz, "OpenSSL error %lx", e);
	return buf;
}

/* The last error of OpenSSL's queue, the others dropped. */
unsigned long
last_error(void)
{
	unsigned long e, last = 0;

	while ((e = openssl.ERR_get_error()) != 0)
		last = e;
	return last;
}

/* A session whose server asked for a client certificate, and had none:
 * why it may end the session is said. */
static int asked_marker;

static int
asked_for_certificate(SSL *s, X509 **cert, EVP_PKEY **key)
{
	(void)openssl.SSL_set_ex_data(s, 0, &asked_marker);
	return 0;
}

static const char *
asked(SSL *s)
{
	return openssl.SSL_get_ex_data(s, 0) == &asked_marker ? " (the server "
	    "asks for a client certificate: give ssl_certfile=FILE)" : "";
}

struct ssl_ctx_st *
tls_context(const struct store_url *u, char *err, size_t sz)
{
	struct sigaction sa;
	const char *why;
	SSL_CTX *ctx;

	if ((why = load_openssl()) != NULL) {
		snprintf(err, sz, "TLS needs OpenSSL: %s", why);
		return NULL;
	}
	guarded = sigaction(SIGPIPE, NULL, &sa) == 0 &&
	    sa.sa_handler != SIG_IGN;
	openssl.ERR_clear_error();
	if ((ctx = openssl.SSL_CTX_new(openssl.TLS_client_method())) == NULL) {
		snprintf(err, sz, "TLS: %s", reason(last_error(),
		    (char[64]){ 0 }, 64));
		return NULL;
	}
	(void)openssl.SSL_CTX_ctrl(ctx, SSL_CTRL_SET_MIN_PROTO_VERSION,
	    TLS1_2_VERSION, NULL);
	(void)openssl.SSL_CTX_ctrl(ctx, SSL_CTRL_MODE,
	    SSL_MODE_ENABLE_PARTIAL_WRITE |
	    SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER, NULL);
	/* A reply's records in one read(2), not a header and a body each:
	 * what is read ahead, tls_pending says. */
	(void)openssl.SSL_CTX_ctrl(ctx, SSL_CTRL_SET_READ_AHEAD, 1, NULL);
	openssl.SSL_CTX_set_verify(ctx, u->verify ? SSL_VERIFY_PEER :
	    SSL_VERIFY_NONE, NULL);
	if ((u->verify && u->ca[0] != '\0' ? load_file(ctx, "ssl_ca_certs",
	    u->ca, load_cas, err, sz) : u->verify ? system_cas(ctx, err, sz) :
	    0) == -1)
		goto fail;
	if (u->cert[0] == '\0')
		openssl.SSL_CTX_set_client_cert_cb(ctx, asked_for_certificate);
	else if (load_file(ctx, "ssl_certfile", u->cert, load_chain, err,
	    sz) == -1 || load_file(ctx, u->key[0] != '\0' ? "ssl_keyfile" :
	    "ssl_certfile", u->key[0] != '\0' ? u->key : u->cert, load_key,
	    err, sz) == -1)
		goto fail;
	return ctx;
fail:
	openssl.ERR_clear_error();
	openssl.SSL_CTX_free(ctx);
	return NULL;
}

const char *
tls_load(void)
{
	return load_openssl();
}

void
tls_context_free(struct ssl_ctx_st *ctx)
{
	if (ctx != NULL)
		openssl.SSL_CTX_free(ctx);
}

struct ssl_st *
tls_session(struct ssl_ctx_st *ctx, int fd, const char *host, char *err,
    size_t sz)
{
	unsigned char addr[sizeof(struct in6_addr)];
	const bool numeric = inet_pton(AF_INET, host, addr) == 1 ||
	    inet_pton(AF_INET6, host, addr) == 1;
	SSL *s;

	openssl.ERR_clear_error();
	if ((s = openssl.SSL_new(ctx)) == NULL || openssl.SSL_set_fd(s, fd) != 1 ||
	    /* A name is sent (SNI) and verified; an address, verified. */
	    (numeric ? openssl.X509_VERIFY_PARAM_set1_ip_asc(openssl.SSL_get0_param(s),
	    host) != 1 : openssl.SSL_ctrl(s, SSL_CTRL_SET_TLSEXT_HOSTNAME,
	    TLSEXT_NAMETYPE_host_name, (void *)(uintptr_t)host) != 1 ||
	    openssl.SSL_set1_host(s, host) != 1)) {
		snprintf(err, sz, "TLS: %s", reason(last_error(),
		    (char[64]){ 0 }, 64));
		if (s != NULL)
			openssl.SSL_free(s);
		return NULL;
	}
	/*
	 * The names are the certificate's subjectAltName only, a wildcard a
	 * whole label (*.example.test, not r*.example.test), as Python's ssl
	 * (redis-py) and RFC 6125 have it: never the subject's CN.
	 */
	openssl.SSL_set_hostflags(s, X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS |
	    X509_CHECK_FLAG_NEVER_CHECK_SUBJECT);
	return s;
}

void
tls_end(struct ssl_st *s)
{
	struct held h;

	if (s == NULL)
		return;
	hold_pipe(&h);
	(void)openssl.SSL_shutdown(s);
	release_pipe(&h);
	openssl.ERR_clear_error();
	openssl.SSL_free(s);
}

/*
 * What a call that returned k comes to: 1 while the socket must become
 * *events first; 0 when the server closed the session (its close_notify,
 * or the connection's end, which a reply's own length guards against
 * cutting); -1 with why in err.  during: the handshake's words.
 */
static int
outcome(SSL *s, int k, int e, short *events, const char *during, char *err,
    size_t sz)
{
	const int code = openssl.SSL_get_error(s, k);
	const unsigned long last = last_error();
	char buf[64];
	long v;

	switch (code) {
	case SSL_ERROR_WANT_READ:
		*events = POLLIN;
		return 1;
	case SSL_ERROR_WANT_WRITE:
		*events = POLLOUT;
		return 1;
	case SSL_ERROR_ZERO_RETURN:
		return 0;
	case SSL_ERROR_SYSCALL:
		if (e == 0)
			return 0;
		snprintf(err, sz, "TLS%s: %s%s", during, strerror(e), asked(s));
		return -1;
	default:
		break;
	}
	if (ERR_GET_REASON(last) == SSL_R_UNEXPECTED_EOF_WHILE_READING)
		return 0;
	if ((v = openssl.SSL_get_verify_result(s)) != X509_V_OK) {
		snprintf(err, sz, "TLS: the server's certificate is refused: "
		    "%s%s", openssl.X509_verify_cert_error_string(v),
		    v == X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY ||
		    v == X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN ||
		    v == X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT ?
		    " (give its CA as ?ssl_ca_certs=FILE)" :
		    v == X509_V_ERR_HOSTNAME_MISMATCH ||
		    v == X509_V_ERR_IP_ADDRESS_MISMATCH ?
		    " (it does not name the host connected to)" : "");
		return -1;
	}
	snprintf(err, sz, "TLS%s: %s%s", during, reason(last, buf, sizeof(buf)),
	    asked(s));
	return -1;
}

int
tls_handshake(struct ssl_st *s, short *events, char *err, size_t sz)
{
	struct held h;
	int k, e, rc;

	openssl.ERR_clear_error();
	hold_pipe(&h);
	errno = 0;
	k = openssl.SSL_connect(s);
	e = errno;
	release_pipe(&h);
	if (k == 1)
		return 0;
	if ((rc = outcome(s, k, e, events, " handshake", err, sz)) == 0)
		snprintf(err, sz, "TLS handshake: the server closed the "
		    "connection (is the port one of TLS?)");
	return rc == 1 ? 1 : -1;
}

/* A read or a write of tls.h: k, or its outcome as errno and err.  The
 * error queue that SSL_get_error reads is empty before each call, with
 * no clearing: every failure's outcome empties it. */
static ssize_t
io_result(SSL *s, int k, int e, short *events, char *err, size_t sz)
{
	if (k > 0)
		return k;
	switch (outcome(s, k, e, events, "", err, sz)) {
	case 1:
		errno = EAGAIN;
		return -1;
	case 0:
		if (*asked(s) == '\0')
			return 0;
		snprintf(err, sz, "TLS: the server closed the connection%s",
		    asked(s));
		errno = ECONNRESET;
		return -1;
	default:
		errno = EPROTO;
		return -1;
	}
}

ssize_t
tls_read(struct ssl_st *s, void *buf, size_t n, short *events, char *err,
    size_t sz)
{
	struct held h;
	int k, e;

	hold_pipe(&h);
	errno = 0;
	k = openssl.SSL_read(s, buf, n > INT_MAX ? INT_MAX : (int)n);
	e = errno;
	release_pipe(&h);
	return io_result(s, k, e, events, err, sz);
}

ssize_t
tls_write(struct ssl_st *s, const void *buf, size_t n, short *events,
    char *err, size_t sz)
{
	struct held h;
	ssize_t k;
	int e;

	hold_pipe(&h);
	errno = 0;
	k = openssl.SSL_write(s, buf, n > INT_MAX ? INT_MAX : (int)n);
	e = errno;
	release_pipe(&h);
	/* The server's end, to a write: the connection is gone. */
	if ((k = io_result(s, (int)k, e, events, err, sz)) == 0) {
		snprintf(err, sz, "TLS: the server closed the connection");
		errno = EPIPE;
		return -1;
	}
	return k;
}

bool
tls_pending(const struct ssl_st *s)
{
	return openssl.SSL_has_pending(s) == 1;
}
