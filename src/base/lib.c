/* Libraries loaded when a run first needs them (lib.h). */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "lib.h"

#define SYMBOLS_MAX	32
#define ONCE_MAX	64	/* the functions of all of one lib_once's parts */

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

/* Kept for every later ask; allocated, as a failure is rare and the
 * static memory of a run is the pages it writes. */
static const char *
failed(struct lib_once *o, const char *why)
{
	char *kept = strdup(why);

	o->why = kept != NULL ? kept : "out of memory";
	/* Kept in *o, not lost: cppcheck follows no pointer into it. */
	// cppcheck-suppress memleak
	return o->why;
}

const char *
lib_once(struct lib_once *o, const struct lib_part *parts, size_t n,
    void **table)
{
	void *got[ONCE_MAX];
	char why[256];
	size_t at = 0;

	if (o->state != 0)
		return o->state == 1 ? NULL : o->why;
	o->state = -1;
	for (size_t i = 0; i < n; i++) {
		if (parts[i].n > ONCE_MAX - at) {
			snprintf(why, sizeof(why), "%s: too many functions",
			    parts[i].soname);
			return failed(o, why);
		}
		if (lib_load(parts[i].soname, parts[i].names, parts[i].n,
		    got + at, why, sizeof(why)) == -1)
			return failed(o, why);
		at += parts[i].n;
	}
	memcpy(table, got, at * sizeof(got[0]));
	o->state = 1;
	return NULL;
}
