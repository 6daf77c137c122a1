/* Output rules: POSIX extended regexes (or fixed strings) matched line by
 * line over a stream that arrives in chunks. Pure. */
#ifndef RETRY_MATCH_H
#define RETRY_MATCH_H

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>

#define MATCH_LINE_MAX	(64 * 1024)	/* longer lines match in pieces */

enum rule_kind { RULE_UNTIL, RULE_FAIL, RULE_RETRY, RULE_STOP, RULE_COUNT };

struct rules_set {
	regex_t		 re[RULE_COUNT];
	bool		 set[RULE_COUNT];
	/* A pattern that is a plain string is searched for as one. */
	char		*literal[RULE_COUNT];
	size_t		 litlen[RULE_COUNT];
	/* A string that every match of a regex contains, or NULL: where it
	 * is absent, regexec need not run. */
	char		*must[RULE_COUNT];
	size_t		 mustlen[RULE_COUNT];
	/* --delay-from-output: a regex whose first group is wanted. */
	regex_t		 capture;
	bool		 capturing;
};

#define CAPTURE_MAX	128

/* What the output told: the rules it matched, and the last capture. */
struct scan_result {
	bool		 matched[RULE_COUNT];
	bool		 captured;
	char		 capture[CAPTURE_MAX];
};

/* Per stream: the unfinished line carried from one chunk to the next. */
struct scanner {
	char		 line[MATCH_LINE_MAX + 1];
	size_t		 len;
};

/* Compiles pattern for a rule; fixed: a literal string. On error, writes
 * the reason into err and returns -1. */
int	 rule_compile(struct rules_set *, enum rule_kind, const char *pattern,
	    bool fixed, bool icase, char *err, size_t errsz);
/* The same for --delay-from-output's regex, which needs a group. */
int	 capture_compile(struct rules_set *, const char *pattern, bool icase,
	    char *err, size_t errsz);
void	 rules_free(struct rules_set *);
bool	 rules_any(const struct rules_set *);

/* Feeds a chunk; sets matched[k] for every rule k a complete line matched
 * (rules already matched are not tried again), and keeps the capture of
 * the last line that matched the capture regex. */
void	 scan_chunk(const struct rules_set *, struct scanner *, const char *,
	    size_t, struct scan_result *);
/* The end of the stream: the last line, if unfinished, is matched too. */
void	 scan_end(const struct rules_set *, struct scanner *,
	    struct scan_result *);

#endif
