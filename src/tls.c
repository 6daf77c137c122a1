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

#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509_vfy.h>
#include <openssl/x509v3.h>

#include "lib.h"
#include "tls.h"

/* OpenSSL, loaded when the first context is made (lib.h): libcrypto's
 * functions, then libssl's.  Macros such as SSL_set_tlsext_host_name
 * are the controls they stand for. */
#define CRYPTO_FUNCS(X) \
	X(ERR_clear_error) X(ERR_get_error) X(ERR_reason_error_string) \
	X(BIO_new_mem_buf) X(BIO_free) X(PEM_read_bio_X509_AUX) \
	X(PEM_read_bio_X509) X(PEM_read_bio_PrivateKey) X(X509_free) \
	X(EVP_PKEY_free) X(X509_STORE_add_cert) \
	X(X509_VERIFY_PARAM_set1_ip_asc) X(X509_get_default_cert_dir) \
	X(X509_get_default_cert_dir_env) X(X509_get_default_cert_file) \
	X(X509_get_default_cert_file_env) X(X509_verify_cert_error_string)
#define SSL_FUNCS(X) \
	X(TLS_client_method) X(SSL_CTX_new) X(SSL_CTX_free) X(SSL_CTX_ctrl) \
	X(SSL_CTX_set_verify) X(SSL_CTX_load_verify_locations) \
	X(SSL_CTX_get_cert_store) X(SSL_CTX_use_certificate) \
	X(SSL_CTX_use_PrivateKey) X(SSL_CTX_check_private_key) X(SSL_new) \
	X(SSL_free) X(SSL_set_fd) \
	X(SSL_ctrl) X(SSL_get0_param) X(SSL_set1_host) X(SSL_set_hostflags) \
	X(SSL_connect) \
	X(SSL_read) X(SSL_write) X(SSL_get_error) X(SSL_shutdown) \
	X(SSL_get_verify_result) X(SSL_has_pending) \
	X(SSL_CTX_set_client_cert_cb) X(SSL_set_ex_data) X(SSL_get_ex_data)

static struct openssl_api {
	CRYPTO_FUNCS(LIB_MEMBER)
	SSL_FUNCS(LIB_MEMBER)
} api;

/*
 * Where systems keep their CAs, for a binary whose OpenSSL looks where it
 * was built (the static one): directories of certificates named by the
 * hash of their subjects, read only for the CAs that a chain names, else
 * bundles, which are read whole (each certificate parsed: tens of ms).
 * The first that exists is used.
 */
static const char *const hashed[] = {
	"/etc/ssl/certs",				/* Debian, Alpine, Arch */
	"/etc/pki/ca-trust/extracted/pem/directory-hash", /* Fedora */
};
static const char *const bundles[] = {
	"/etc/ssl/certs/ca-certificates.crt",	/* Debian, Alpine, Arch */
	"/etc/pki/tls/certs/ca-bundle.crt",	/* Fedora, RHEL */
	"/etc/ssl/ca-bundle.pem",		/* openSUSE */
	"/etc/ssl/cert.pem",			/* the BSDs, Alpine */
};

/* NULL once OpenSSL is there, or why it is not. */
static const char *
load_openssl(void)
{
	static char why[256];
	static int loaded = -1;	/* -1 not tried, 0 loaded, 1 missing */

	if (loaded == -1) {
#if defined(RETRY_SSL_SONAME) && defined(RETRY_CRYPTO_SONAME)
		static const char *const crypto[] = { CRYPTO_FUNCS(LIB_NAME) };
		static const char *const ssl[] = { SSL_FUNCS(LIB_NAME) };
		struct openssl_api got;
		_Static_assert(sizeof(api) == (LIB_COUNT(crypto) +
		    LIB_COUNT(ssl)) * sizeof(void *), "a name for each function");

		loaded = lib_load(RETRY_CRYPTO_SONAME, crypto, LIB_COUNT(crypto),
		    (void **)&got, why, sizeof(why)) == 0 &&
		    lib_load(RETRY_SSL_SONAME, ssl, LIB_COUNT(ssl),
		    (void **)&got + LIB_COUNT(crypto), why, sizeof(why)) == 0 ?
		    0 : 1;
		if (loaded == 0)
			api = got;
#else
		struct openssl_api *t = &api;

		CRYPTO_FUNCS(LIB_LINKED)
		SSL_FUNCS(LIB_LINKED)
		loaded = 0;
#endif
	}
	return loaded == 0 ? NULL : why;
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
static const char *
reason(unsigned long e, char *buf, size_t sz)
{
	const char *r;

	if (e == 0)
		return "an error that OpenSSL does not name";
	if (ERR_SYSTEM_ERROR(e))
		return strerror(ERR_GET_REASON(e));
	if ((r = api.ERR_reason_error_string(e)) != NULL)
		return r;
	snprintf(buf, sz, "OpenSSL error %lx", e);
	return buf;
}

/* The last error of OpenSSL's queue, the others dropped. */
static unsigned long
last_error(void)
{
	unsigned long e, last = 0;

	while ((e = api.ERR_get_error()) != 0)
		last = e;
	return last;
}

/*
 * The files that a URL or $SSL_CERT_FILE names are read here, not by
 * OpenSSL: opened without blocking, so that a FIFO with no writer cannot
 * hold the run; regular files only, up to FILE_MAX; then parsed from
 * memory.
 */
#define FILE_MAX	(1024 * 1024)

struct pem {
	char		*text;
	size_t		 len;
};

/* The file into p; -1 with why in err, "TLS: PARAM PATH: why" (errno
 * ENOENT when it is missing). */
static int
pem_read(struct pem *p, const char *param, const char *path, char *err,
    size_t sz)
{
	const int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC |
	    O_NOCTTY);
	const char *why = NULL;
	struct stat st;
	ssize_t n = 0;
	int e = 0;

	p->text = NULL;
	p->len = 0;
	if (fd == -1 || fstat(fd, &st) == -1)
		e = errno;
	else if (!S_ISREG(st.st_mode))
		why = "not a regular file";
	else if (st.st_size > FILE_MAX)
		why = "larger than 1 MiB";
	else if ((p->text = malloc((size_t)st.st_size + 1)) == NULL)
		why = "no memory to read it";
	else
		/* A file that grows as it is read is cut at its size. */
		while (p->len < (size_t)st.st_size && ((n = read(fd,
		    p->text + p->len, (size_t)st.st_size - p->len)) > 0 ||
		    (n == -1 && errno == EINTR)))
			p->len += n > 0 ? (size_t)n : 0;
	if (n == -1)
		e = errno;
	if (fd != -1)
		close(fd);
	if (e == 0 && why == NULL)
		return 0;
	snprintf(err, sz, "TLS: %s %s: %s", param, path, why != NULL ? why :
	    strerror(e));
	free(p->text);
	p->text = NULL;
	errno = e != 0 ? e : EINVAL;
	return -1;
}

static void
pem_free(struct pem *p)
{
	if (p->text != NULL)
		explicit_bzero(p->text, p->len);
	free(p->text);
	p->text = NULL;
}

/* Whether e is PEM's "no start line": the text holds no more of what
 * is read, which ends a list of certificates. */
static bool
no_start(unsigned long e)
{
	return ERR_GET_LIB(e) == ERR_LIB_PEM &&
	    ERR_GET_REASON(e) == PEM_R_NO_START_LINE;
}

/* Why a private key could not be read from a text, in words. */
static const char *
key_error(char *buf, size_t sz)
{
	const unsigned long e = last_error();

	if (no_start(e))
		return "no private key in it";
#ifdef ERR_LIB_OSSL_DECODER
	/* OpenSSL 3: no decoder took any of the text. */
	if (ERR_GET_LIB(e) == ERR_LIB_OSSL_DECODER)
		return "no private key in it";
#endif
	if (ERR_GET_LIB(e) == ERR_LIB_PEM &&
	    ERR_GET_REASON(e) == PEM_R_BAD_PASSWORD_READ)
		return "the key is encrypted, and no passphrase is asked for";
	return reason(e, buf, sz);
}

/* No passphrase is asked for: OpenSSL's own asks on the terminal. */
static int
no_passphrase(char *buf, int size, int rwflag, void *u)
{
	return -1;
}

/* The certificates of p into ctx's store of CAs; 0, or -1 with why in err. */
static int
load_cas(SSL_CTX *ctx, const struct pem *p, const char *param,
    const char *path, char *err, size_t sz)
{
	BIO *b = api.BIO_new_mem_buf(p->text, (int)p->len);
	X509_STORE *store = api.SSL_CTX_get_cert_store(ctx);
	unsigned long e = 0;
	size_t count = 0;
	X509 *x;

	while (b != NULL && e == 0 && (x = api.PEM_read_bio_X509_AUX(b, NULL,
	    no_passphrase, NULL)) != NULL) {
		if (api.X509_STORE_add_cert(store, x) == 1)
			count++;
		else
			e = last_error();
		api.X509_free(x);
	}
	/* The end of the text is an error of its own, which is none. */
	if (e == 0 && (e = last_error()) != 0 && count > 0 && no_start(e))
		e = 0;
	if (e == 0 && count == 0)
		e = ERR_PACK(ERR_LIB_PEM, 0, PEM_R_NO_START_LINE);
	if (b != NULL)
		(void)api.BIO_free(b);
	if (b != NULL && e == 0)
		return 0;
	snprintf(err, sz, "TLS: %s %s: %s", param, path, no_start(e) ?
	    "no certificate in it" : reason(e, (char[64]){ 0 }, 64));
	return -1;
}

/* The client's certificate, and the chain after it, from p into ctx. */
static int
load_chain(SSL_CTX *ctx, const struct pem *p, const char *param,
    const char *path, char *err, size_t sz)
{
	BIO *b = api.BIO_new_mem_buf(p->text, (int)p->len);
	bool ok = false;
	unsigned long e;
	X509 *x = NULL;

	if (b != NULL && (x = api.PEM_read_bio_X509_AUX(b, NULL,
	    no_passphrase, NULL)) != NULL)
		ok = api.SSL_CTX_use_certificate(ctx, x) == 1;
	if (x != NULL)
		api.X509_free(x);
	while (ok && (x = api.PEM_read_bio_X509(b, NULL, no_passphrase,
	    NULL)) != NULL)
		/* add0: the context takes it. */
		if (api.SSL_CTX_ctrl(ctx, SSL_CTRL_CHAIN_CERT, 0, x) != 1) {
			ok = false;
			api.X509_free(x);
		}
	/* The chain ends where the text holds no more. */
	e = last_error();
	if (b != NULL)
		(void)api.BIO_free(b);
	if (ok && (e == 0 || no_start(e)))
		return 0;
	snprintf(err, sz, "TLS: %s %s: %s", param, path, no_start(e) ?
	    "no certificate in it" : reason(e, (char[64]){ 0 }, 64));
	return -1;
}

/* The client's private key from p into ctx, checked against its
 * certificate. */
static int
load_key(SSL_CTX *ctx, const struct pem *p, const char *param,
    const char *path, char *err, size_t sz)
{
	BIO *b = api.BIO_new_mem_buf(p->text, (int)p->len);
	EVP_PKEY *k = NULL;
	char buf[64];
	bool ok = false;
	const char *why;

	if (b != NULL && (k = api.PEM_read_bio_PrivateKey(b, NULL,
	    no_passphrase, NULL)) != NULL)
		ok = api.SSL_CTX_use_PrivateKey(ctx, k) == 1 &&
		    api.SSL_CTX_check_private_key(ctx) == 1;
	why = k == NULL ? key_error(buf, sizeof(buf)) : reason(last_error(),
	    buf, sizeof(buf));
	if (k != NULL)
		api.EVP_PKEY_free(k);
	if (b != NULL)
		(void)api.BIO_free(b);
	if (ok)
		return 0;
	snprintf(err, sz, "TLS: %s %s: %s", param, path, why);
	return -1;
}

/* A file of a parameter, read and loaded into ctx by load. */
static int
load_file(SSL_CTX *ctx, const char *param, const char *path, int (*load)(
    SSL_CTX *, const struct pem *, const char *, const char *, char *,
    size_t), char *err, size_t sz)
{
	struct pem p;
	int rc;

	if (pem_read(&p, param, path, err, sz) == -1)
		return -1;
	rc = load(ctx, &p, param, path, err, sz);
	pem_free(&p);
	/* A file that is there and holds no certificate is no missing one. */
	errno = rc == -1 ? EINVAL : errno;
	return rc;
}

/* A session whose server asked for a client certificate, and had none:
 * why it may end the session is said. */
static int asked_marker;

static int
asked_for_certificate(SSL *s, X509 **cert, EVP_PKEY **key)
{
	(void)api.SSL_set_ex_data(s, 0, &asked_marker);
	return 0;
}

static const char *
asked(SSL *s)
{
	return api.SSL_get_ex_data(s, 0) == &asked_marker ? " (the server "
	    "asks for a client certificate: give ssl_certfile=FILE)" : "";
}

/* Whether dir holds certificates by the hash of their subjects. */
static bool
is_hashed(const char *dir)
{
	DIR *d = opendir(dir);
	const struct dirent *e;
	bool found = false;

	while (d != NULL && !found && (e = readdir(d)) != NULL)
		found = strlen(e->d_name) >= 10 && strspn(e->d_name,
		    "0123456789abcdef") == 8 && e->d_name[8] == '.' &&
		    strspn(e->d_name + 9, "0123456789") == strlen(e->d_name + 9);
	if (d != NULL)
		closedir(d);
	return found;
}

/*
 * The system's CAs: where $SSL_CERT_FILE or $SSL_CERT_DIR say, as OpenSSL
 * has it (the one that is not set, OpenSSL's own; a file that is missing,
 * none); else OpenSSL's own directory, or the first of the usual ones,
 * when its certificates are named by hash; else OpenSSL's own bundle, or
 * the first of the usual ones.  $SSL_CERT_FILE is read here, as the
 * URL's files are; the directories, by OpenSSL, a file a name when a
 * chain names its issuer.  -1 with why in err when $SSL_CERT_FILE names
 * what cannot be read.
 */
static int
system_cas(SSL_CTX *ctx, char *err, size_t sz)
{
	const char *file = getenv(api.X509_get_default_cert_file_env());
	const char *dir = getenv(api.X509_get_default_cert_dir_env());
	char param[64];

	if ((file != NULL && file[0] != '\0') || (dir != NULL &&
	    dir[0] != '\0')) {
		snprintf(param, sizeof(param), "$%s",
		    api.X509_get_default_cert_file_env());
		if (file != NULL && file[0] != '\0') {
			if (load_file(ctx, param, file, load_cas, err, sz) ==
			    -1 && errno != ENOENT)
				return -1;
		} else
			(void)api.SSL_CTX_load_verify_locations(ctx,
			    api.X509_get_default_cert_file(), NULL);
		(void)api.SSL_CTX_load_verify_locations(ctx, NULL, dir !=
		    NULL && dir[0] != '\0' ? dir :
		    api.X509_get_default_cert_dir());
		api.ERR_clear_error();
		return 0;
	}
	dir = api.X509_get_default_cert_dir();
	for (size_t i = 0; dir != NULL && !is_hashed(dir); i++)
		dir = i < LIB_COUNT(hashed) ? hashed[i] : NULL;
	file = dir != NULL ? NULL : api.X509_get_default_cert_file();
	for (size_t i = 0; file != NULL && access(file, R_OK) == -1; i++)
		file = i < LIB_COUNT(bundles) ? bundles[i] : NULL;
	if (dir != NULL || file != NULL)
		(void)api.SSL_CTX_load_verify_locations(ctx, dir != NULL ? NULL :
		    file, dir);
	api.ERR_clear_error();
	return 0;
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
	api.ERR_clear_error();
	if ((ctx = api.SSL_CTX_new(api.TLS_client_method())) == NULL) {
		snprintf(err, sz, "TLS: %s", reason(last_error(),
		    (char[64]){ 0 }, 64));
		return NULL;
	}
	(void)api.SSL_CTX_ctrl(ctx, SSL_CTRL_SET_MIN_PROTO_VERSION,
	    TLS1_2_VERSION, NULL);
	(void)api.SSL_CTX_ctrl(ctx, SSL_CTRL_MODE,
	    SSL_MODE_ENABLE_PARTIAL_WRITE |
	    SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER, NULL);
	/* A reply's records in one read(2), not a header and a body each:
	 * what is read ahead, tls_pending says. */
	(void)api.SSL_CTX_ctrl(ctx, SSL_CTRL_SET_READ_AHEAD, 1, NULL);
	api.SSL_CTX_set_verify(ctx, u->verify ? SSL_VERIFY_PEER :
	    SSL_VERIFY_NONE, NULL);
	if ((u->verify && u->ca[0] != '\0' ? load_file(ctx, "ssl_ca_certs",
	    u->ca, load_cas, err, sz) : u->verify ? system_cas(ctx, err, sz) :
	    0) == -1)
		goto fail;
	if (u->cert[0] == '\0')
		api.SSL_CTX_set_client_cert_cb(ctx, asked_for_certificate);
	else if (load_file(ctx, "ssl_certfile", u->cert, load_chain, err,
	    sz) == -1 || load_file(ctx, u->key[0] != '\0' ? "ssl_keyfile" :
	    "ssl_certfile", u->key[0] != '\0' ? u->key : u->cert, load_key,
	    err, sz) == -1)
		goto fail;
	return ctx;
fail:
	api.ERR_clear_error();
	api.SSL_CTX_free(ctx);
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
		api.SSL_CTX_free(ctx);
}

struct ssl_st *
tls_session(struct ssl_ctx_st *ctx, int fd, const char *host, char *err,
    size_t sz)
{
	unsigned char addr[sizeof(struct in6_addr)];
	const bool numeric = inet_pton(AF_INET, host, addr) == 1 ||
	    inet_pton(AF_INET6, host, addr) == 1;
	SSL *s;

	api.ERR_clear_error();
	if ((s = api.SSL_new(ctx)) == NULL || api.SSL_set_fd(s, fd) != 1 ||
	    /* A name is sent (SNI) and verified; an address, verified. */
	    (numeric ? api.X509_VERIFY_PARAM_set1_ip_asc(api.SSL_get0_param(s),
	    host) != 1 : api.SSL_ctrl(s, SSL_CTRL_SET_TLSEXT_HOSTNAME,
	    TLSEXT_NAMETYPE_host_name, (void *)(uintptr_t)host) != 1 ||
	    api.SSL_set1_host(s, host) != 1)) {
		snprintf(err, sz, "TLS: %s", reason(last_error(),
		    (char[64]){ 0 }, 64));
		if (s != NULL)
			api.SSL_free(s);
		return NULL;
	}
	/*
	 * The names are the certificate's subjectAltName only, a wildcard a
	 * whole label (*.example.test, not r*.example.test), as Python's ssl
	 * (redis-py) and RFC 6125 have it: never the subject's CN.
	 */
	api.SSL_set_hostflags(s, X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS |
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
	(void)api.SSL_shutdown(s);
	release_pipe(&h);
	api.ERR_clear_error();
	api.SSL_free(s);
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
	const int code = api.SSL_get_error(s, k);
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
	if ((v = api.SSL_get_verify_result(s)) != X509_V_OK) {
		snprintf(err, sz, "TLS: the server's certificate is refused: "
		    "%s%s", api.X509_verify_cert_error_string(v),
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

	api.ERR_clear_error();
	hold_pipe(&h);
	errno = 0;
	k = api.SSL_connect(s);
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
	k = api.SSL_read(s, buf, n > INT_MAX ? INT_MAX : (int)n);
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
	k = api.SSL_write(s, buf, n > INT_MAX ? INT_MAX : (int)n);
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
	return api.SSL_has_pending(s) == 1;
}
