/* The files of TLS: the CAs, the client's certificate and key (tls.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tlsapi.h"

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

/*
 * The files that a URL or $SSL_CERT_FILE names are read here, not by
 * OpenSSL: opened without blocking, so that a FIFO with no writer cannot
 * hold the run; regular files only, up to FILE_MAX; then parsed from
 * memory.
 */
#define FILE_MAX	(1024 * 1024)

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
int
load_cas(SSL_CTX *ctx, const struct pem *p, const char *param,
    const char *path, char *err, size_t sz)
{
	BIO *b = openssl.BIO_new_mem_buf(p->text, (int)p->len);
	X509_STORE *store = openssl.SSL_CTX_get_cert_store(ctx);
	unsigned long e = 0;
	size_t count = 0;
	X509 *x;

	while (b != NULL && e == 0 && (x = openssl.PEM_read_bio_X509_AUX(b, NULL,
	    no_passphrase, NULL)) != NULL) {
		if (openssl.X509_STORE_add_cert(store, x) == 1)
			count++;
		else
			e = last_error();
		openssl.X509_free(x);
	}
	/* The end of the text is an error of its own, which is none. */
	if (e == 0 && (e = last_error()) != 0 && count > 0 && no_start(e))
		e = 0;
	if (e == 0 && count == 0)
		e = ERR_PACK(ERR_LIB_PEM, 0, PEM_R_NO_START_LINE);
	if (b != NULL)
		(void)openssl.BIO_free(b);
	if (b != NULL && e == 0)
		return 0;
	snprintf(err, sz, "TLS: %s %s: %s", param, path, no_start(e) ?
	    "no certificate in it" : reason(e, (char[64]){ 0 }, 64));
	return -1;
}

/* The client's certificate, and the chain after it, from p into ctx. */
int
load_chain(SSL_CTX *ctx, const struct pem *p, const char *param,
    const char *path, char *err, size_t sz)
{
	BIO *b = openssl.BIO_new_mem_buf(p->text, (int)p->len);
	bool ok = false;
	unsigned long e;
	X509 *x = NULL;

	if (b != NULL && (x = openssl.PEM_read_bio_X509_AUX(b, NULL,
	    no_passphrase, NULL)) != NULL)
		ok = openssl.SSL_CTX_use_certificate(ctx, x) == 1;
	if (x != NULL)
		openssl.X509_free(x);
	while (ok && (x = openssl.PEM_read_bio_X509(b, NULL, no_passphrase,
	    NULL)) != NULL)
		/* add0: the context takes it. */
		if (openssl.SSL_CTX_ctrl(ctx, SSL_CTRL_CHAIN_CERT, 0, x) != 1) {
			ok = false;
			openssl.X509_free(x);
		}
	/* The chain ends where the text holds no more. */
	e = last_error();
	if (b != NULL)
		(void)openssl.BIO_free(b);
	if (ok && (e == 0 || no_start(e)))
		return 0;
	snprintf(err, sz, "TLS: %s %s: %s", param, path, no_start(e) ?
	    "no certificate in it" : reason(e, (char[64]){ 0 }, 64));
	return -1;
}

/* The client's private key from p into ctx, checked against its
 * certificate. */
int
load_key(SSL_CTX *ctx, const struct pem *p, const char *param,
    const char *path, char *err, size_t sz)
{
	BIO *b = openssl.BIO_new_mem_buf(p->text, (int)p->len);
	EVP_PKEY *k = NULL;
	char buf[64];
	bool ok = false;
	const char *why;

	if (b != NULL && (k = openssl.PEM_read_bio_PrivateKey(b, NULL,
	    no_passphrase, NULL)) != NULL)
		ok = openssl.SSL_CTX_use_PrivateKey(ctx, k) == 1 &&
		    openssl.SSL_CTX_check_private_key(ctx) == 1;
	why = k == NULL ? key_error(buf, sizeof(buf)) : reason(last_error(),
	    buf, sizeof(buf));
	if (k != NULL)
		openssl.EVP_PKEY_free(k);
	if (b != NULL)
		(void)openssl.BIO_free(b);
	if (ok)
		return 0;
	snprintf(err, sz, "TLS: %s %s: %s", param, path, why);
	return -1;
}

/* A file of a parameter, read and loaded into ctx by load. */
int
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
int
system_cas(SSL_CTX *ctx, char *err, size_t sz)
{
	const char *file = getenv(openssl.X509_get_default_cert_file_env());
	const char *dir = getenv(openssl.X509_get_default_cert_dir_env());
	char param[64];

	if ((file != NULL && file[0] != '\0') || (dir != NULL &&
	    dir[0] != '\0')) {
		snprintf(param, sizeof(param), "$%s",
		    openssl.X509_get_default_cert_file_env());
		if (file != NULL && file[0] != '\0') {
			if (load_file(ctx, param, file, load_cas, err, sz) ==
			    -1 && errno != ENOENT)
				return -1;
		} else
			(void)openssl.SSL_CTX_load_verify_locations(ctx,
			    openssl.X509_get_default_cert_file(), NULL);
		(void)openssl.SSL_CTX_load_verify_locations(ctx, NULL, dir !=
		    NULL && dir[0] != '\0' ? dir :
		    openssl.X509_get_default_cert_dir());
		openssl.ERR_clear_error();
		return 0;
	}
	dir = openssl.X509_get_default_cert_dir();
	for (size_t i = 0; dir != NULL && !is_hashed(dir); i++)
		dir = i < LIB_COUNT(hashed) ? hashed[i] : NULL;
	file = dir != NULL ? NULL : openssl.X509_get_default_cert_file();
	for (size_t i = 0; file != NULL && access(file, R_OK) == -1; i++)
		file = i < LIB_COUNT(bundles) ? bundles[i] : NULL;
	if (dir != NULL || file != NULL)
		(void)openssl.SSL_CTX_load_verify_locations(ctx, dir != NULL ? NULL :
		    file, dir);
	openssl.ERR_clear_error();
	return 0;
}
