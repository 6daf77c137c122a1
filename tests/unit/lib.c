/* lib_load: a library found and its functions taken; a missing library or
 * function named in one line. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "lib.h"
#include "unit.h"

void
unit_lib(void)
{
	static const char *const both[] = { "strlen", "strcmp" };
	static const char *const one[] = { "f" };
	static const char *const missing[] = { "strlen",
	    "retry_no_such_function" };
	struct { __typeof__(strlen) *len; __typeof__(strcmp) *cmp; } t = { 0 };
	char why[256] = "";
	int rc;

#ifdef RETRY_MUSL
	/* A static musl binary links what it needs and loads nothing: musl's
	 * dlopen fails there, whatever the library. */
	puts("# skipped: lib: the musl build loads no library");
	return;
#endif
	rc = lib_load("libc.so.6", both, 2, (void **)&t, why, sizeof(why));
	unit_row(rc == 0 && t.len != NULL && t.len("four") == 4 &&
	    t.cmp("a", "a") == 0, "lib", "libc's strlen and strcmp",
	    "%s", rc != 0 ? why : "the functions are not libc's");
	rc = lib_load("libretry-none.so.0", one, 1, (void **)&t, why,
	    sizeof(why));
	unit_row(rc == -1 && strstr(why, "libretry-none.so.0") != NULL &&
	    strchr(why, '\n') == NULL, "lib", "a missing library is named",
	    "%s", rc == 0 ? "(loaded)" : why);
	rc = lib_load("libc.so.6", missing, 2, (void **)&t, why, sizeof(why));
	unit_row(rc == -1 && strcmp(why,
	    "libc.so.6: no retry_no_such_function") == 0 &&
	    t.len("four") == 4, "lib",
	    "a missing function is named, the table left as it was", "%s",
	    rc == 0 ? "(found)" : why);
}
