/* The password kept out of what a server says: whole, cut anywhere, with
 * its line breaks as spaces, and the text cut only after. */
#include <stdio.h>
#include <string.h>

#include "pwmask.h"
#include "unit.h"

void
unit_pwmask(void)
{
	static const struct {
		const char	*text;
		const char	*pw;
		size_t		 sz;
		const char	*out;
	} rows[] = {
		{ "WRONGPASS hunter22 x", "hunter22", 64, "WRONGPASS *** x" },
		{ "a hunter22 b hunter22", "hunter22", 64, "a *** b ***" },
		/* Cut by the server: any 4 bytes of it are enough. */
		{ "say cdefg.", "abcdefgh", 64, "say ***." },
		{ "ERR 'hunt'", "hunter22", 64, "ERR '***'" },
		{ "ERR 'hun'", "hunter22", 64, "ERR 'hun'" },
		/* Its line breaks said back as spaces. */
		{ "x ab cd y", "ab\ncd", 64, "x *** y" },
		{ "x ab\ncd y", "ab\ncd", 64, "x *** y" },
		/* Shorter than 4: the whole of it. */
		{ "xaby", "ab", 64, "x***y" },
		{ "xa by", "ab", 64, "xa by" },
		{ "nothing here", "", 64, "nothing here" },
		/* Cut after the masking, never before it. */
		{ "pw=hunter22 tail", "hunter22", 8, "pw=*** " },
		{ "hunter22", "hunter22", 3, "**" },
		{ "0123456hunter22", "hunter22", 9, "0123456*" },
		{ "text", "pw", 1, "" },
	};
	char out[64];

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		memset(out, 'z', sizeof(out));
		mask_password(rows[i].text, rows[i].pw, out, rows[i].sz);
		unit_row(strcmp(out, rows[i].out) == 0, "pwmask",
		    rows[i].text, "pw \"%s\", %zu bytes: \"%s\", not \"%s\"",
		    rows[i].pw, rows[i].sz, out, rows[i].out);
	}
}
