/*
 * The did-you-mean suggester: what an unknown long option most likely
 * meant, among the options of the face it was given to.
 */
#include <string.h>

#include "suggest.h"
#include "unit.h"

static const struct suggestion {
	enum mode	 mode;
	const char	*name;		/* without its "--" */
	const char	*want;
} suggestions[] = {
	/* Several options that it begins: up to four, in the table's order. */
	{ MODE_RETRY, "unti", "--until" },
	{ MODE_RETRY, "time", "--times or --timeout" },
	{ MODE_RETRY, "jit", "--jitter-factor or --jitter" },
	{ MODE_RETRY, "share-b", "--share-budget or --share-breaker" },
	{ MODE_RETRY, "ma", "--max or --max-actual-duration or --max-delay or "
	  "--match" },
	{ MODE_RETRY, "dela", "--delays or --delay or --delay-on-success or "
	  "--delay-increment-on-failure" },
	{ MODE_RETRY, "fi", "--fixed or --fib or --fixed-strings" },
	/* One that it begins. */
	{ MODE_RETRY, "dry", "--dry-run" },
	{ MODE_RETRY, "delay-from-output-r", "--delay-from-output-replaces" },
	/* The names of other retry tools. */
	{ MODE_RETRY, "attempts", "--max" },
	{ MODE_RETRY, "retries", "--max" },
	{ MODE_RETRY, "sleep", "--fixed" },
	{ MODE_RETRY, "interval", "--fixed" },
	{ MODE_RETRY, "wait", "--fixed" },
	{ MODE_RETRY, "backoff", "--exp" },
	{ MODE_RETRY, "exponential", "--exp" },
	/* The nearest by edit distance, up to 2. */
	{ MODE_RETRY, "jiter", "--jitter" },
	{ MODE_RETRY, "lable", "--label" },
	{ MODE_RETRY, "fixd", "--fixed" },
	{ MODE_RETRY, "fixxed", "--fixed" },
	{ MODE_RETRY, "timeoutt", "--timeout" },
	{ MODE_RETRY, "dely", "--delay" },
	{ MODE_RETRY, "jitter-factr", "--jitter-factor" },
	{ MODE_RETRY, "hols", "--hold" },
	{ MODE_RETRY, "xp", "--exp" },
	/* Nothing near. */
	{ MODE_RETRY, "zzzzzz", "" },
	{ MODE_RETRY, "abcdefghij", "" },
	{ MODE_RETRY, "n", "" },
	/* Aliases are never offered. */
	{ MODE_RETRY, "constan", "" },
	{ MODE_RETRY, "max-attempt", "" },
	{ MODE_RETRY, "mesage", "" },
	{ MODE_RETRY, "hold-stdot", "" },
	/* Only the face's own options. */
	{ MODE_RETRY, "chrt", "" },
	{ MODE_SHOW, "chrt", "--chart" },
	{ MODE_SHARE, "attempts", "" },
	{ MODE_SHARE, "sleep", "" },
	{ MODE_SHOW, "attempts", "--max" },
	{ MODE_SHOW, "cout", "--count" },
	{ MODE_SHOW, "unti", "--unit" },
	{ MODE_SHOW, "time", "--times" },
	{ MODE_SHOW, "s", "--successes or --seed or --samples" },
	{ MODE_SIMULATE, "share-b", "--share-budget or --share-breaker" },
	{ MODE_SIMULATE, "cout", "" },
	{ MODE_SHARE, "share-b", "--share-budget" },
	{ MODE_SHARE, "share-t", "--share-timeout" },
	{ MODE_SHARE, "jiter", "" },
};

void
unit_suggest(void)
{
	char buf[160], small[8] = "";

	for (size_t i = 0; i < sizeof(suggestions) / sizeof(suggestions[0]);
	    i++) {
		const struct suggestion *s = &suggestions[i];

		suggest_option(s->name, strlen(s->name), s->mode, buf,
		    sizeof(buf));
		unit_row(strcmp(buf, s->want) == 0, "suggest", s->name,
		    "got '%s', want '%s'", buf, s->want);
	}
	/* Only the first n bytes of the name are read. */
	suggest_option("jiterXYZ", 5, MODE_RETRY, buf, sizeof(buf));
	unit_row(strcmp(buf, "--jitter") == 0, "suggest",
	    "a name that is not NUL-terminated", "got '%s'", buf);
	/* A buffer too small: cut, and terminated. */
	suggest_option("unti", 4, MODE_RETRY, small, sizeof(small));
	unit_row(strcmp(small, "--until") == 0, "suggest",
	    "a buffer of 8 bytes", "got '%s'", small);
}
