/*
 * The few entry points of glibc's that Debian's static archives of PCRE2,
 * libbsd and libmd call, built with _FORTIFY_SOURCE against glibc, and
 * that musl has no name for: each checks as glibc's does, then calls
 * musl's own function.  Linked into the musl build alone (mk/musl.mk).
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void	*__memcpy_chk(void *, const void *, size_t, size_t);
void	*__memmove_chk(void *, const void *, size_t, size_t);
void	*__memset_chk(void *, int, size_t, size_t);
void	 __explicit_bzero_chk(void *, size_t, size_t);
int	 __vsnprintf_chk(char *, size_t, int, size_t, const char *, va_list);
int	 __snprintf_chk(char *, size_t, int, size_t, const char *, ...);
int	 __register_atfork(void (*)(void), void (*)(void), void (*)(void),
	    void *);

void *
__memcpy_chk(void *to, const void *from, size_t n, size_t room)
{
	if (n > room)
		abort();
	return memcpy(to, from, n);
}

void *
__memmove_chk(void *to, const void *from, size_t n, size_t room)
{
	if (n > room)
		abort();
	return memmove(to, from, n);
}

void *
__memset_chk(void *to, int c, size_t n, size_t room)
{
	if (n > room)
		abort();
	return memset(to, c, n);
}

void
__explicit_bzero_chk(void *to, size_t n, size_t room)
{
	if (n > room)
		abort();
	explicit_bzero(to, n);
}

int
__vsnprintf_chk(char *s, size_t n, int flag, size_t room, const char *fmt,
    va_list ap)
{
	(void)flag;
	if (n > room)
		abort();
	return vsnprintf(s, n, fmt, ap);
}

int
__snprintf_chk(char *s, size_t n, int flag, size_t room, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = __vsnprintf_chk(s, n, flag, room, fmt, ap);
	va_end(ap);
	return r;
}

/* What pthread_atfork(3) is in glibc; the handle of the caller's shared
 * object means nothing in a static binary. */
int
__register_atfork(void (*prepare)(void), void (*parent)(void),
    void (*child)(void), void *dso)
{
	(void)dso;
	return pthread_atfork(prepare, parent, child);
}
