/*
 * Where the shared state is kept, as --share-store, --share-store-file
 * and $RETRY_SHARE_STORE name it:
 *
 *   file:DIR
 *   redis://[[USER]:PASSWORD@]SEED[,SEED]...[/DB]
 *   rediss://[[USER]:PASSWORD@]SEED[,SEED]...[/DB][?OPTION=VALUE[&...]]
 *   unix://[[USER]:PASSWORD@]/PATH[?db=DB]
 *
 * A SEED is HOST[:PORT]: the URL names 1 to STOREURL_SEEDS_MAX of them,
 * each once, to be tried in order (a cluster's nodes, or the addresses a
 * server may be found at); a unix:// URL names one socket.  HOST is a
 * name, an IPv4 address in dotted decimal (what only inet_aton reads,
 * 010.0.0.1 or 2130706433, is refused) or an IPv6 one in brackets; USER,
 * PASSWORD and an option's VALUE may hold %XX escapes.  rediss:// is Redis
 * over TLS; its
 * options are redis-py's: ssl_ca_certs=FILE (the CAs to trust instead of
 * the system's), ssl_certfile=FILE and ssl_keyfile=FILE (a client
 * certificate and its key; the key in the certificate's file unless
 * given) and ssl_cert_reqs=none|required (none: the server's certificate
 * is not verified).  Pure.
 */
#ifndef RETRY_STOREURL_H
#define RETRY_STOREURL_H

#include <stdbool.h>
#include <stddef.h>

enum store_kind { STORE_FILE, STORE_REDIS_TCP, STORE_REDIS_UNIX };

#define STOREURL_MAX	4096	/* a spec's length, at most */
#define STOREURL_SEEDS_MAX 16	/* the seeds of a URL, at most */
/* What storeurl_show writes, at most, with its NUL: the longest spec,
 * with a port added to each seed, the db, and a password of one character
 * shown as three. */
#define STOREURL_SHOWN_MAX (STOREURL_MAX + STOREURL_SEEDS_MAX * 6 + 64)
#define STOREURL_FILE_MAX 1024	/* a TLS option's file, with its NUL */

struct store_seed {
	char		 host[256];	/* without brackets */
	char		 port[6];	/* "6379" unless given */
};

struct store_url {
	enum store_kind	 kind;
	char		 path[4096];	/* STORE_FILE: DIR; UNIX: the socket */
	struct store_seed seed[STOREURL_SEEDS_MAX];	/* TCP, in order */
	size_t		 nseeds;	/* TCP: 1 or more; else 0 */
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
/* The store as it may be shown, every seed with its port, and the db:
 * the password never, as "***"; the TLS options neither.  Its size:
 * STOREURL_SHOWN_MAX. */
void		 storeurl_show(const struct store_url *, char *, size_t);
/* What a run that uses the store should be told once before it does
 * (a TLS server that is not verified), or NULL. */
const char	*storeurl_warning(const struct store_url *);

#endif
