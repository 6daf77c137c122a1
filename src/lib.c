/* Libraries loaded when a run first needs them (lib.h). */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "lib.h"

#define SYMBOLS_MAX	32

int
lib_load(const char *soname, const char *const names[], size_t n,
    void **table, char *why, size_t whysz)
{
	void *h, *sym[SYMBOLS_MAX];
	const char *e;

	if (n > SYMBOLS_MAX) {
		snprintf(why, whysz, "%s: too many functions", soname);
		return -1;
	}
	/* RTLD_LOCAL: nothing of it is found by the names of another. */
	if ((h = dlopen(soname, RTLD_NOW | RTLD_LOCAL)) == NULL) {
		e = dlerror();
		snprintf(why, whysz, "%s", e != NULL ? e : soname);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		if ((sym[i] = dlsym(h, names[i])) == NULL) {
			snprintf(why, whysz, "%s: no %s", soname, names[i]);
			return -1;
		}
	memcpy(table, sym, n * sizeof(sym[0]));
	return 0;
}
