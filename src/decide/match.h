/* Output rules: Perl-compatible regular expressions (PCRE2) or plain
 * strings, matched line by line over a stream that arrives in chunks, each
 * match bounded in time and memory. Pure. */
#ifndef RETRY_MATCH_H
#define RETRY_MATCH_H

#include <stdbool.h>
#include <stddef.h>

/* A line longer than this is matched in windows of this size, each
 * carrying on from where a match could still begin: a match as long as
 * MATCH_WINDOW minus the pattern's lookbehind is always found. */
#define MATCH_WINDOW	(64 * 1024)

/* The backtracking steps one search may take before it gives up; with
 * PCRE2's JIT, a few milliseconds. */
#define MATCH_LIMIT	500000

enum rule_kind { RULE_UNTIL, RULE_FAIL, RULE_RETRY, RULE_STOP, RULE_CAPTURE,
	RULE_COUNT };

/* How rule k is given on the command line: "--output until". */
const char	*rule_option(enum rule_kind k);

struct rule;

struct output_rules {
	struct rule	*rule[RULE_COUNT];	/* NULL: not given */
	void		*md, *mc, *stack;	/* PCRE2's match state */
};

#define CAPTURE_MAX	128

/* What the output told: the rules it matched, the last capture, and the
 * rules that gave up on a line that took too long. */
struct scan_result {
	bool		 matched[RULE_COUNT];
	bool		 limited[RULE_COUNT];
	bool		 captured;
	char		 capture[CAPTURE_MAX];
};

/* Per stream: the unfinished line carried from one chunk to the next. */
struct scanner {
	char		 line[MATCH_WINDOW];
	size_t		 len;
	bool		 midline;	/* line[0] is not where the line began */
};

/* Compiles pattern for rule k (RULE_CAPTURE: --delay-from-output, which
 * needs a group); fixed: a plain string. On error, writes the reason into
 * err and returns -1 (the pattern is refused) or -2 (PCRE2, which it needs,
 * cannot be loaded). */
int	 rule_compile(struct output_rules *, enum rule_kind, const char *pattern,
	    bool fixed, bool icase, char *err, size_t errsz);
/* The same for n patterns of rule k, any of which matches (one regular
 * expression, each pattern an alternative with its groups numbered from
 * 1); a pattern refused is *bad. */
int	 rule_compile_all(struct output_rules *, enum rule_kind,
	    const char *const *patterns, size_t n, bool fixed, bool icase,
	    char *err, size_t errsz, size_t *bad);
void	 rules_free(struct output_rules *);
bool	 rules_any(const struct output_rules *);
bool	 rule_given(const struct output_rules *, enum rule_kind);

/* Rule k against one line alone (no newline in it), recorded in res as
 * scan_chunk records it; -1 when the search gave up.  What scanning a
 * stream must agree with, line by line. */
int	 rule_line(const struct output_rules *, enum rule_kind, const char *,
	    size_t, struct scan_result *);

/* Feeds a chunk; sets matched[k] for every rule k a line matched (rules
 * already matched are not tried again), and keeps the capture of the last
 * line that matched the capture rule. */
void	 scan_chunk(const struct output_rules *, struct scanner *, const char *,
	    size_t, struct scan_result *);
/* The end of the stream: the last line, if unfinished, is matched too. */
void	 scan_end(const struct output_rules *, struct scanner *,
	    struct scan_result *);

#endif
