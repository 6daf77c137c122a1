/*
 * getentropy(3) for libbsd's arc4random in the musl build: musl's own
 * getrandom(2), which Linux has had since 3.17.  Defined here, it keeps
 * libbsd's getentropy out of the link, and with it a fallback for older
 * kernels that hashes /proc and the clocks with libmd's SHA-512: 9 KiB
 * of a binary that must stay small.  Linked into the musl build alone
 * (mk/musl.mk).
 */
#include <errno.h>
#include <stddef.h>
#include <sys/random.h>

int	getentropy(void *, size_t);

int
getentropy(void *buf, size_t len)
{
	unsigned char *p = buf;

	if (len > 256) {
		errno = EIO;
		return -1;
	}
	while (len > 0) {
		ssize_t n = getrandom(p, len, 0);

		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}
