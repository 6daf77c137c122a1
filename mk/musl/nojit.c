/*
 * PCRE2 without its JIT, which is a third of the musl build's size: the
 * four functions of the JIT's object that the interpreter's objects name.
 * Each is reached only for a pattern that pcre2_jit_compile compiled, and
 * that build never calls it (RETRY_NO_JIT), so none is: each aborts.
 * Linked before Debian's libpcre2-8.a, they keep its JIT object out.
 */
#include <stdlib.h>

int	 _pcre2_jit_check_exec_8(const void *, unsigned);
int	 pcre2_jit_match_8(const void *, const void *, size_t, size_t,
	    unsigned, void *, void *);
void	 _pcre2_jit_free_8(void *, void *);
size_t	 _pcre2_jit_get_size_8(void *);

int
_pcre2_jit_check_exec_8(const void *code, unsigned options)
{
	(void)code;
	(void)options;
	abort();
}

int
pcre2_jit_match_8(const void *code, const void *subject, size_t length,
    size_t start, unsigned options, void *md, void *mc)
{
	(void)code;
	(void)subject;
	(void)length;
	(void)start;
	(void)options;
	(void)md;
	(void)mc;
	abort();
}

void
_pcre2_jit_free_8(void *jit, void *memctl)
{
	(void)jit;
	(void)memctl;
	abort();
}

size_t
_pcre2_jit_get_size_8(void *jit)
{
	(void)jit;
	abort();
}
