/* Shared by the libFuzzer targets: the input as a C string, and a check
 * that fails loudly (a trap is a finding, with the input saved). */
#ifndef RETRY_FUZZ_H
#define RETRY_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

#define CHECK(x)	do { if (!(x)) __builtin_trap(); } while (0)

/* The input up to its first NUL, as a string the caller frees. */
static inline char *
fuzz_string(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (s == NULL)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

#endif
