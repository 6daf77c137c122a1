/*
 * Where the shared state is kept, as --share-store, --share-store-file
 * and $RETRY_SHARE_STORE name it:
 *
 *   file:DIR
 *   redis://[[USER]:PASSWORD@]HOST[:PORT][/DB]
 *   rediss://[[USER]:PASSWORD@]HOST[:PORT][/DB][?OPTION=VALUE[&...]]
 *   unix://[[USER]:PASSWORD@]/PATH[?db=DB]
 *
 * HOST is a name, an IPv4 address or an IPv6 one in brackets; USER,
 * PASSWORD and an option's VALUE may hold %XX escapes.  rediss:// is
 * Redis over TLS; its options are redis-py's: ssl_ca_certs=FILE (the CAs
 * to trust instead of the system's), ssl_certfile=FILE and
 * ssl_keyfile=FILE (a client certificate and its key; the key in the
 * certificate's file unless given) and ssl_cert_reqs=none|required (none:
 * the server's certificate is not verified).  Pure.
 */
#ifndef RETRY_STOREURL_H
#define RETRY_STOREURL_H

#include <stdbool.h>
#include <stddef.h>

enum store_kind { STORE_FILE, STORE_REDIS_TCP, STORE_REDIS_UNIX };

#define STOREURL_MAX	4096	/* a spec's length, at most */
#define STOREURL_FILE_MAX 1024	/* a TLS option's file, with its NUL */

struct store_url {
	enum store_kind	 kind;
	char		 path[4096];	/* STORE_FILE: DIR; UNIX: the socket */
	char		 host[256];	/* TCP, without brackets */
	char		 port[6];	/* TCP: "6379" unless given */
	char		 user[128];	/* "" when none */
	char		 password[512];	/* "" when none */
	bool		 has_password;
	int		 db;		/* 0 unless given */
	bool		 tls;		/* rediss:// (kind STORE_REDIS_TCP) */
	bool		 verify;	/* TLS: the server's certificate */
	char		 ca[STOREURL_FILE_MAX];	/* "": the system's CAs */
	char		 cert[STOREURL_FILE_MAX];	/* "": none */
	char		 key[STOREURL_FILE_MAX];	/* "": in cert's file */
};

/*
 * Reads a spec; NULL, or what is wrong with it.  A password is refused
 * unless secret_ok: a command line is seen by every user, in ps.
 */
const char	*storeurl_parse(const char *, bool secret_ok,
		    struct store_url *);
/* The store as it may be shown: the password never, as "***"; the TLS
 * options neither. */
void		 storeurl_show(const struct store_url *, char *, size_t);
/* What a run that uses the store should be told once before it does
 * (a TLS server that is not verified), or NULL. */
const char	*storeurl_warning(const struct store_url *);

#endif
