/*
 * Status sets: what a list of codes (--success-on, --retry-on, --stop-on)
 * and a list of Debian's criteria (--until, --while) hold, written back as
 * the statuses they hold ("0,2,75-78"), or why they are refused; and
 * signals by name.
 */
#include <string.h>

#include "codes.h"
#include "unit.h"

/* A list, and the statuses it holds or why it is refused. */
struct row {
	const char	*in;
	const char	*holds;		/* NULL: refused */
	const char	*why;
};

/* --success-on, --retry-on, --stop-on: numbers, ranges, signal names
 * (128 + N); every item counts. */
static const struct row codes[] = {
	{ "0", "0", NULL },
	{ "2,7,40-42", "2,7,40-42", NULL },
	{ "75-78", "75-78", NULL },
	{ "1,5-6,SIGTERM,USR1", "1,5-6,138,143", NULL },
	{ "SIGSEGV", "139", NULL },
	{ "SEGV", "139", NULL },
	{ "segv", "139", NULL },
	{ "sigsegv", "139", NULL },
	{ "139", "139", NULL },
	{ "1,SIGSEGV", "1,139", NULL },
	{ "KILL,TERM", "137,143", NULL },
	{ "1,75-78,SIGKILL", "1,75-78,137", NULL },
	{ "0-255", "0-255", NULL },
	{ "3,1,2", "1-3", NULL },
	{ "", NULL, "empty list" },
	{ "1,,2", NULL, "empty item" },
	{ "KILL,", NULL, "empty item" },
	{ "5-3", NULL, "reversed range" },
	{ "5-", NULL, "open range (give both ends, as in 75-78)" },
	{ "-1", NULL, "open range (give both ends, as in 75-78)" },
	{ "256", NULL, "out of range" },
	{ "99999999999", NULL, "out of range" },
	{ "1-2-3", NULL, "not a number or a signal name" },
	{ "1, 2", NULL, "not a number or a signal name" },
	{ "SIGBOGUS", NULL, "unknown signal name" },
	/* Each status once. */
	{ "1,2,1", NULL, "status 1 is given twice (each status once in a "
	  "list)" },
	{ "137,KILL", NULL, "status 137 is given twice (each status once in a "
	  "list)" },
	{ "75-78,70-76", NULL, "status 75 is given twice (each status once in "
	  "a list)" },
	{ "0-255,255", NULL, "status 255 is given twice (each status once in "
	  "a list)" },
	/* A limit is --retry-on's only. */
	{ "1:2", NULL, "only --retry-on takes a limit (:N)" },
	{ "0,KILL:1", NULL, "only --retry-on takes a limit (:N)" },
};

/* --retry-on: an item may end in ":N", a number of retries; what the list
 * holds, then each limit as its statuses and N, or why it is refused. */
static const struct limit_row {
	const char	*in;
	const char	*holds;		/* NULL: refused */
	const char	*limits;	/* or why */
} limited[] = {
	{ "1,75", "1,75", "" },
	{ "1:2,75", "1,75", " 1:2=1x2" },
	{ "75-78:10", "75-78", " 75-78:10=75-78x10" },
	{ "SIGKILL:1", "137", " SIGKILL:1=137x1" },
	{ "kill:1,TERM", "137,143", " kill:1=137x1" },
	{ "1:2,1:3", NULL, "status 1 is given twice (each status once in a "
	  "list)" },
	{ "1-9:3,2:1", NULL, "status 2 is given twice (each status once in a "
	  "list)" },
	{ "1:2,SIGKILL:1,1", NULL, "status 1 is given twice (each status once "
	  "in a list)" },
	{ "1:02", "1", " 1:02=1x2" },
	{ "1:1000000000", "1", " 1:1000000000=1x1000000000" },
	{ "0:1,1:1,2:1,3:1,4:1,5:1,6:1,7:1,8:1,9:1,10:1,11:1,12:1,13:1,"
	  "14:1,15:1", "0-15", " 0:1=0x1 1:1=1x1 2:1=2x1 3:1=3x1 4:1=4x1 "
	  "5:1=5x1 6:1=6x1 7:1=7x1 8:1=8x1 9:1=9x1 10:1=10x1 11:1=11x1 "
	  "12:1=12x1 13:1=13x1 14:1=14x1 15:1=15x1" },
	{ "0:1,1:1,2:1,3:1,4:1,5:1,6:1,7:1,8:1,9:1,10:1,11:1,12:1,13:1,"
	  "14:1,15:1,16:1", NULL, "more than 16 items with a limit" },
	{ "1:0", NULL, "a limit is a number of retries from 1 to 1000000000, "
	  "as in 1:2" },
	{ "1:", NULL, "a limit is a number of retries from 1 to 1000000000, "
	  "as in 1:2" },
	{ "1:1000000001", NULL, "a limit is a number of retries from 1 to "
	  "1000000000, as in 1:2" },
	{ "1:-2", NULL, "a limit is a number of retries from 1 to 1000000000, "
	  "as in 1:2" },
	{ "1:2:3", NULL, "a limit is a number of retries from 1 to "
	  "1000000000, as in 1:2" },
	{ "1:x", NULL, "a limit is a number of retries from 1 to 1000000000, "
	  "as in 1:2" },
	{ ":2", NULL, "empty item" },
	{ "1,:2", NULL, "empty item" },
	{ "300:2", NULL, "out of range" },
	{ "BOGUS:2", NULL, "unknown signal name" },
	{ "5-3:2", NULL, "reversed range" },
};

/* What reaching a limit says. */
static const struct text_row {
	const char	*in;
	const char	*says;
} texts[] = {
	{ "1:2", "status 1 retried 2 times (--retry-on 1:2)" },
	{ "75-78:10", "statuses 75-78 retried 10 times (--retry-on 75-78:10)" },
	{ "SIGKILL:1", "status SIGKILL retried 1 time (--retry-on SIGKILL:1)" },
};

/* --until and --while, as Debian's retry reads them. */
static const struct row criteria[] = {
	{ "success", "0", NULL },
	{ "true", "0", NULL },
	{ "fail", "1-255", NULL },
	{ "false", "1-255", NULL },
	{ "3", "3", NULL },
	{ "2-3", "2-3", NULL },
	{ "3,1", "1,3", NULL },
	{ "success,2", "0,2", NULL },
	{ "false,2-4", "1-255", NULL },
	{ "1, 2 ,success", "0-2", NULL },
	{ "success,true,fail,false,0,1-3", "0-255", NULL },
	/* Above 255 only as a range's end, where it stands for 255. */
	{ "10-20", "10-20", NULL },
	{ "1-999", "1-255", NULL },
	{ "", NULL, "empty item" },
	{ "1,,2", NULL, "empty item" },
	{ "success,", NULL, "empty item" },
	{ " ", NULL, "empty item" },
	{ "s", NULL, "unknown criterion (use success, true, fail, false, a "
	  "status or a range such as 1-3)" },
	{ "succ", NULL, "unknown criterion (use success, true, fail, false, "
	  "a status or a range such as 1-3)" },
	{ "SUCCESS", NULL, "unknown criterion (use success, true, fail, "
	  "false, a status or a range such as 1-3)" },
	{ "TERM", NULL, "unknown criterion (use success, true, fail, false, "
	  "a status or a range such as 1-3)" },
	{ "-1", NULL, "unknown criterion (use success, true, fail, false, a "
	  "status or a range such as 1-3)" },
	{ "256", NULL, "out of range (exit statuses are 0 to 255)" },
	{ "300-400", NULL, "out of range (exit statuses are 0 to 255)" },
	{ "1-TERM", NULL, "not a number" },
	{ "1 2", NULL, "not a number" },
	{ "3-1", NULL, "reversed range" },
	{ "3-", NULL, "a range needs both ends, as in 1-3" },
};

/* A signal by name or number, and its number; 0: refused. */
static const struct signal_row {
	const char	*in;
	int		 sig;
} signals[] = {
	{ "TERM", 15 },
	{ "SIGTERM", 15 },
	{ "sigkill", 9 },
	{ "Int", 2 },
	{ "9", 9 },
	{ "64", 64 },
	{ "65", 0 },
	{ "0", 0 },
	{ "", 0 },
	{ "SIG", 0 },
	{ "-9", 0 },
	{ "KILL ", 0 },
	{ "BOGUS", 0 },
	{ "99999999999999999999", 0 },
};

void
codes_text(const struct codes *c, char *s, size_t sz)
{
	size_t len = 0;
	int lo;

	s[0] = '\0';
	for (int i = 0; i <= STATUS_MAX && len < sz; i++) {
		if (!codes_has(c, i))
			continue;
		for (lo = i; i < STATUS_MAX && codes_has(c, i + 1); i++)
			;
		len += (size_t)(lo == i ? snprintf(s + len, sz - len, "%s%d",
		    len > 0 ? "," : "", i) : snprintf(s + len, sz - len,
		    "%s%d-%d", len > 0 ? "," : "", lo, i));
	}
	if (len == 0)
		snprintf(s, sz, "none");
}

static void
rows(const char *suite, const struct row *t, size_t n,
    const char *(*parse)(const char *, struct codes *))
{
	struct codes c;
	char got[1024] = "";
	const char *why;

	for (size_t i = 0; i < n; i++) {
		memset(&c, 0, sizeof(c));
		if ((why = parse(t[i].in, &c)) == NULL)
			codes_text(&c, got, sizeof(got));
		if (t[i].holds != NULL)
			unit_row(why == NULL && strcmp(got, t[i].holds) == 0,
			    suite, t[i].in, "want %s, got %s", t[i].holds,
			    why != NULL ? why : got);
		else
			unit_row(why != NULL && strcmp(why, t[i].why) == 0,
			    suite, t[i].in, "want '%s', got '%s'", t[i].why,
			    why != NULL ? why : got);
	}
}

static void
rows_limits(void)
{
	struct codes c;
	struct codes_limit lim[CODES_LIMITS];
	char got[1024], held[1024], one[1024];
	const char *why;
	size_t n;

	for (size_t i = 0; i < sizeof(limited) / sizeof(limited[0]); i++) {
		const struct limit_row *r = &limited[i];

		memset(&c, 0, sizeof(c));
		n = 0;
		if ((why = codes_parse_limits(r->in, &c, lim, &n)) == NULL) {
			codes_text(&c, held, sizeof(held));
			got[0] = '\0';
			for (size_t k = 0, len = 0; k < n; k++) {
				codes_text(&lim[k].codes, one, sizeof(one));
				len += (size_t)snprintf(got + len, sizeof(got) -
				    len, " %.*s=%sx%lu", (int)lim[k].len,
				    lim[k].item, one, lim[k].max);
			}
		}
		if (r->holds != NULL)
			unit_row(why == NULL && strcmp(held, r->holds) == 0 &&
			    strcmp(got, r->limits) == 0, "codes_parse_limits",
			    r->in, "want %s%s, got %s%s", r->holds, r->limits,
			    why != NULL ? why : held, why != NULL ? "" : got);
		else
			unit_row(why != NULL && strcmp(why, r->limits) == 0,
			    "codes_parse_limits", r->in, "want '%s', got '%s'",
			    r->limits, why != NULL ? why : held);
	}
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		why = codes_parse_limits(texts[i].in, &c, lim, &n);
		if (why == NULL && n == 1)
			codes_limit_text(&lim[0], got, sizeof(got));
		else
			snprintf(got, sizeof(got), "%s", why != NULL ? why :
			    "not one limit");
		unit_row(strcmp(got, texts[i].says) == 0, "codes_limit_text",
		    texts[i].in, "want '%s', got '%s'", texts[i].says, got);
	}
}

void
unit_codes(void)
{
	const char *why;
	int sig;

	rows("codes_parse", codes, sizeof(codes) / sizeof(codes[0]),
	    codes_parse);
	rows("criteria_parse", criteria, sizeof(criteria) /
	    sizeof(criteria[0]), criteria_parse);
	rows_limits();
	for (size_t i = 0; i < sizeof(signals) / sizeof(signals[0]); i++) {
		sig = 0;
		why = signal_parse(signals[i].in, &sig);
		unit_row(signals[i].sig != 0 ? why == NULL &&
		    sig == signals[i].sig : why != NULL, "signal_parse",
		    signals[i].in, "want %d, got %d (%s)", signals[i].sig, sig,
		    why != NULL ? why : "accepted");
	}
}
