/* lib_load: a library found and its functions taken; a missing library or
 * function named in one line. */
#include <stddef.h>
#include <string.h>

#include "../../src/lib.h"
#include "unit.h"

void
unit_lib(void)
{
	static const char *const both[] = { "strlen", "strcmp" };
	static const char *const one[] = { "f" };
	static const char *const missing[] = { "strlen",
	    "retry_no_such_function" };
	struct { __typeof__(strlen) *len; __typeof__(strcmp) *cmp; } t = { 0 };
	const char *why;

	why = lib_load("libc.so.6", both, 2, (void **)&t);
	unit_row(why == NULL && t.len != NULL && t.len("four") == 4 &&
	    t.cmp("a", "a") == 0, "lib", "libc's strlen and strcmp",
	    "%s", why != NULL ? why : "the functions are not libc's");
	why = lib_load("libretry-none.so.0", one, 1, (void **)&t);
	unit_row(why != NULL && strstr(why, "libretry-none.so.0") != NULL &&
	    strchr(why, '\n') == NULL, "lib", "a missing library is named",
	    "%s", why != NULL ? why : "(loaded)");
	why = lib_load("libc.so.6", missing, 2, (void **)&t);
	unit_row(why != NULL && strcmp(why,
	    "libc.so.6: no retry_no_such_function") == 0, "lib",
	    "a missing function is named", "%s", why != NULL ? why : "(found)");
}
