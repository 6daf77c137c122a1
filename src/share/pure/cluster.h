/*
 * Redis Cluster's rules that need no server: the slot of a key, which
 * says the node that holds it, and the words of a redirection, the error
 * with which a node sends a client to another (-MOVED for good, -ASK for
 * the one command, while a slot moves).  Pure.
 */
#ifndef RETRY_CLUSTER_H
#define RETRY_CLUSTER_H

#include <stdbool.h>
#include <stddef.h>

#define CLUSTER_SLOTS	16384

struct cluster_redirect {
	bool		 ask;		/* -ASK: for this command only */
	unsigned	 slot;
	char		 host[256];	/* "": the host of the node that said
					 * it */
	char		 port[6];
};

/* The slot of the key's len bytes: CRC16 of its hash tag (what is between
 * its first '{' and the first '}' after it, when that is not empty), or
 * else of the whole key, modulo CLUSTER_SLOTS. */
unsigned	 cluster_slot(const char *key, size_t len);
/* Whether an error reply's words (without the '-') are a redirection,
 * "MOVED SLOT HOST:PORT" or "ASK SLOT HOST:PORT"; then *to says where.
 * HOST may be a name, an address (an IPv6 one with or without brackets),
 * or empty or "?" when the node does not know it. */
bool		 cluster_redirect_parse(const char *, struct cluster_redirect *to);

#endif
