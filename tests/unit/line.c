/*
 * Lines and the quoting of text in them: the one rule for what retry
 * writes as text (made visible for a terminal), and JSON strings.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "line.h"
#include "unit.h"

static const struct quoted {
	const char	*name;
	const char	*in;
	const char	*visible;	/* line_add_visible */
	const char	*json;		/* line_add_json */
} quoted[] = {
	{ "plain text", "ok 1", "ok 1", "\"ok 1\"" },
	{ "a tab is kept", "a\tb", "a\tb", "\"a\\u0009b\"" },
	{ "a newline", "a\nb", "a\\x0ab", "\"a\\u000ab\"" },
	{ "a carriage return", "a\rb", "a\\x0db", "\"a\\u000db\"" },
	{ "ESC and a title", "\033]0;t\007", "\\x1b]0;t\\x07",
	  "\"\\u001b]0;t\\u0007\"" },
	{ "DEL", "a\177", "a\\x7f", "\"a\\u007f\"" },
	{ "quote and backslash", "\"\\", "\"\\", "\"\\\"\\\\\"" },
	{ "UTF-8 is kept", "\303\251t\303\251", "\303\251t\303\251",
	  "\"\303\251t\303\251\"" },
	{ "a 4-byte sequence is kept", "\360\237\230\200",
	  "\360\237\230\200", "\"\360\237\230\200\"" },
	{ "C1: U+0085 (NEL)", "a\302\205b", "a\\xc2\\x85b",
	  "\"a\\u0085b\"" },
	{ "C1: U+009B (CSI)", "\302\233" "2J", "\\xc2\\x9b" "2J",
	  "\"\\u009b" "2J\"" },
	{ "U+00A0 is no control", "\302\240", "\302\240", "\"\302\240\"" },
	{ "a byte that is not UTF-8", "a\377b", "a\\xffb",
	  "\"a\\ufffdb\"" },
	{ "a lone continuation byte", "\200", "\\x80", "\"\\ufffd\"" },
	{ "an overlong '/'", "\300\257", "\\xc0\\xaf",
	  "\"\\ufffd\\ufffd\"" },
	{ "an overlong 3-byte form", "\340\200\257", "\\xe0\\x80\\xaf",
	  "\"\\ufffd\\ufffd\\ufffd\"" },
	{ "a surrogate", "\355\240\200", "\\xed\\xa0\\x80",
	  "\"\\ufffd\\ufffd\\ufffd\"" },
	{ "past U+10FFFF", "\364\220\200\200", "\\xf4\\x90\\x80\\x80",
	  "\"\\ufffd\\ufffd\\ufffd\\ufffd\"" },
	{ "a sequence cut short", "\303", "\\xc3", "\"\\ufffd\"" },
	{ "a sequence cut by the next character", "\342\202a",
	  "\\xe2\\x82a", "\"\\ufffd\\ufffda\"" },
};

static const struct fitted {
	const char	*name;
	const char	*in;
	size_t		 cols;
	size_t		 bytes;		/* that fit */
	size_t		 used;		/* their columns */
} fitted[] = {
	{ "all of it", "next attempt in 3s", 29, 18, 18 },
	{ "cut at the width", "retry[deploy-production]: next", 29, 29, 29 },
	{ "no column", "abc", 0, 0, 0 },
	{ "nothing to fit", "", 10, 0, 0 },
	{ "a 2-byte character is one column", "\303\251t\303\251", 2, 3,
	  2 },
	{ "a wide character is two", "\344\275\240\345\245\275", 3, 3, 2 },
	{ "a wide character is never cut", "a\344\275\240", 2, 1, 1 },
	{ "a 4-byte character is two", "\360\237\230\200x", 3, 5, 3 },
	{ "a tab is eight", "\tx", 8, 1, 8 },
	{ "a tab past the width", "ab\t", 9, 2, 2 },
};

void
unit_line(void)
{
	struct line l;
	char big[3000];

	for (size_t i = 0; i < sizeof(quoted) / sizeof(quoted[0]); i++) {
		const struct quoted *q = &quoted[i];

		l = (struct line){ 0 };
		line_add_visible(&l, q->in, strlen(q->in));
		unit_row(!l.failed && l.buf != NULL &&
		    strcmp(l.buf, q->visible) == 0, "visible", q->name,
		    "got '%s'", l.buf != NULL ? l.buf : "(nothing)");
		free(l.buf);
		l = (struct line){ 0 };
		line_add_json(&l, q->in);
		unit_row(!l.failed && l.buf != NULL &&
		    strcmp(l.buf, q->json) == 0, "json", q->name,
		    "got '%s'", l.buf != NULL ? l.buf : "(nothing)");
		free(l.buf);
	}

	/* Only s[0..n) is read: a sequence that n cuts is not UTF-8. */
	l = (struct line){ 0 };
	line_add_visible(&l, "\303\251\303\251", 3);
	unit_row(l.buf != NULL && strcmp(l.buf, "\303\251\\xc3") == 0,
	    "visible", "a sequence that n cuts", "got '%s'",
	    l.buf != NULL ? l.buf : "(nothing)");
	free(l.buf);

	/*
	 * A sequence's first byte at the very end of the memory it is in,
	 * before a page that cannot be read: nothing past it is read, by
	 * either quoting.
	 */
	{
		const size_t page = (size_t)sysconf(_SC_PAGESIZE);
		char *m = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		static const char *const leads[] = { "\302", "\342", "\360" };

		if (m == MAP_FAILED || mprotect(m + page, page, PROT_NONE) != 0)
			abort();
		for (size_t i = 0; i < sizeof(leads) / sizeof(leads[0]); i++) {
			char *at = m + page - 1;

			*at = leads[i][0];
			l = (struct line){ 0 };
			line_add_visible(&l, at, 1);
			unit_row(l.buf != NULL && strlen(l.buf) == 4 &&
			    strncmp(l.buf, "\\x", 2) == 0, "visible",
			    "a lead byte at a buffer's end", "got '%s'",
			    l.buf != NULL ? l.buf : "(nothing)");
			free(l.buf);
			/* A string's NUL is the last byte there. */
			at[-1] = leads[i][0];
			at[0] = '\0';
			l = (struct line){ 0 };
			line_add_json(&l, at - 1);
			unit_row(l.buf != NULL &&
			    strcmp(l.buf, "\"\\ufffd\"") == 0, "json",
			    "a lead byte before a string's end", "got '%s'",
			    l.buf != NULL ? l.buf : "(nothing)");
			free(l.buf);
		}
		munmap(m, 2 * page);
	}

	/* A line grows as needed, and what is added goes at its end. */
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	l = (struct line){ 0 };
	line_add(&l, "%d:", 42);
	line_add(&l, "%s", big);
	line_add(&l, "%s", "!");
	unit_row(!l.failed && l.len == 3 + sizeof(big) - 1 + 1 &&
	    strncmp(l.buf, "42:xxx", 6) == 0 && l.buf[l.len - 1] == '!' &&
	    l.buf[l.len] == '\0', "line", "grows and appends",
	    "len %zu", l.len);
	free(l.buf);

	for (size_t i = 0; i < sizeof(fitted) / sizeof(fitted[0]); i++) {
		const struct fitted *f = &fitted[i];
		size_t used = 99;
		const size_t n = line_fit(f->in, strlen(f->in), f->cols,
		    &used);

		unit_row(n == f->bytes && used == f->used, "fit", f->name,
		    "%zu bytes in %zu columns", n, used);
	}

	/* A failed line takes nothing more. */
	l = (struct line){ .failed = true };
	line_add(&l, "more");
	unit_row(l.buf == NULL && l.len == 0, "line", "a failed line stays "
	    "as it was", "len %zu", l.len);
}
