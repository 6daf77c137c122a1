/* Redis Cluster's slots and redirections (cluster.h). */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster.h"

/* CRC16 as Redis Cluster has it: XMODEM, polynomial 0x1021, from 0. */
static unsigned
crc16(const char *p, size_t n)
{
	uint16_t crc = 0;

	for (size_t i = 0; i < n; i++) {
		crc ^= (uint16_t)((unsigned char)p[i] << 8);
		for (int bit = 0; bit < 8; bit++)
			crc = (crc & 0x8000) != 0 ?
			    (uint16_t)(crc << 1 ^ 0x1021) : (uint16_t)(crc << 1);
	}
	return crc;
}

unsigned
cluster_slot(const char *key, size_t len)
{
	const char *open = memchr(key, '{', len), *close = NULL;

	if (open != NULL)
		close = memchr(open + 1, '}', len - (size_t)(open + 1 - key));
	if (close != NULL && close > open + 1)
		return crc16(open + 1, (size_t)(close - open - 1)) %
		    CLUSTER_SLOTS;
	return crc16(key, len) % CLUSTER_SLOTS;
}

bool
cluster_redirect_parse(const char *s, struct cluster_redirect *to)
{
	const char *p, *colon;
	size_t hlen, plen;
	unsigned long slot = 0;

	memset(to, 0, sizeof(*to));
	if (strncmp(s, "MOVED ", 6) == 0)
		p = s + 6;
	else if (strncmp(s, "ASK ", 4) == 0) {
		to->ask = true;
		p = s + 4;
	} else
		return false;
	if (!isdigit((unsigned char)*p))
		return false;
	while (isdigit((unsigned char)*p) && slot < CLUSTER_SLOTS)
		slot = slot * 10 + (unsigned long)(*p++ - '0');
	if (slot >= CLUSTER_SLOTS || *p++ != ' ' || (colon = strrchr(p,
	    ':')) == NULL)
		return false;
	hlen = (size_t)(colon - p);
	plen = strlen(colon + 1);
	if (hlen >= 2 && p[0] == '[' && p[hlen - 1] == ']') {
		p++;
		hlen -= 2;
	}
	if (hlen >= sizeof(to->host) || plen == 0 || plen > 5 ||
	    strspn(colon + 1, "0123456789") != plen ||
	    strtoul(colon + 1, NULL, 10) < 1 ||
	    strtoul(colon + 1, NULL, 10) > 65535)
		return false;
	for (size_t i = 0; i < hlen; i++)
		if (!isalnum((unsigned char)p[i]) && strchr(".-_:", p[i]) ==
		    NULL && !(hlen == 1 && p[i] == '?'))
			return false;
	if (!(hlen == 1 && p[0] == '?'))
		memcpy(to->host, p, hlen);
	memcpy(to->port, colon + 1, plen);
	to->slot = (unsigned)slot;
	return true;
}
