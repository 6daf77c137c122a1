/*
 * Where the shared state is kept, as --share-store, --share-store-file
 * and $RETRY_SHARE_STORE name it:
 *
 *   file:DIR
 *   redis://[[USER]:PASSWORD@]HOST[:PORT][/DB]
 *   unix://[[USER]:PASSWORD@]/PATH[?db=DB]
 *
 * HOST is a name, an IPv4 address or an IPv6 one in brackets; USER and
 * PASSWORD may hold %XX escapes.  Pure.
 */
#ifndef RETRY_STOREURL_H
#define RETRY_STOREURL_H

#include <stdbool.h>
#include <stddef.h>

enum store_kind { STORE_FILE, STORE_REDIS_TCP, STORE_REDIS_UNIX };

#define STOREURL_MAX	4096	/* a spec's length, at most */

struct store_url {
	enum store_kind	 kind;
	char		 path[4096];	/* STORE_FILE: DIR; UNIX: the socket */
	char		 host[256];	/* TCP, without brackets */
	char		 port[6];	/* TCP: "6379" unless given */
	char		 user[128];	/* "" when none */
	char		 password[512];	/* "" when none */
	bool		 has_password;
	int		 db;		/* 0 unless given */
};

/*
 * Reads a spec; NULL, or what is wrong with it.  A password is refused
 * unless secret_ok: a command line is seen by every user, in ps.
 */
const char	*storeurl_parse(const char *, bool secret_ok,
		    struct store_url *);
/* The store as it may be shown: the password never, as "***". */
void		 storeurl_show(const struct store_url *, char *, size_t);

#endif
