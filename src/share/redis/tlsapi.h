/*
 * The inside of TLS, shared by tls.c (the contexts, the sessions, each
 * step inside the caller's wait) and tlsfiles.c (the CAs, the client's
 * certificate and key, read from their files), and included by no other
 * file: OpenSSL's functions, loaded by tls.c.
 */
#ifndef RETRY_TLSAPI_H
#define RETRY_TLSAPI_H

#include <stddef.h>

#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509_vfy.h>
#include <openssl/x509v3.h>

#include "lib.h"

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

struct openssl_api {
	CRYPTO_FUNCS(LIB_MEMBER)
	SSL_FUNCS(LIB_MEMBER)
};
extern struct openssl_api openssl;

/* tls.c */
/* What OpenSSL says went wrong last, in words. */
const char	*reason(unsigned long e, char *buf, size_t sz);
/* The last error of OpenSSL's queue, the others dropped. */
unsigned long	 last_error(void);

/* tlsfiles.c */
/* A file's text, as read. */
struct pem {
	char		*text;
	size_t		 len;
};
/* The certificates of p into ctx's store of CAs; 0, or -1 with why in
 * err. */
int	load_cas(SSL_CTX *, const struct pem *, const char *param,
	    const char *path, char *err, size_t);
/* The client's certificate, and the chain after it, from p into ctx. */
int	load_chain(SSL_CTX *, const struct pem *, const char *param,
	    const char *path, char *err, size_t);
/* The client's private key from p into ctx, checked against its
 * certificate. */
int	load_key(SSL_CTX *, const struct pem *, const char *param,
	    const char *path, char *err, size_t);
/* A file of a parameter, read and loaded into ctx by load: 0, or -1 with
 * why in err, "TLS: PARAM PATH: why" (errno ENOENT when it is missing). */
int	load_file(SSL_CTX *, const char *param, const char *path,
	    int (*load)(SSL_CTX *, const struct pem *, const char *,
	    const char *, char *, size_t), char *err, size_t);
/* The system's CAs into ctx: 0, or -1 with why in err. */
int	system_cas(SSL_CTX *, char *err, size_t);

#endif
