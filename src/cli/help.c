/* The --help text of each face: its usage and what it does, then its
 * options from the option table, section by section; retry's short one,
 * the options most runs need, one line each. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "help.h"
#include "optable.h"

static const char *const group_titles[] = {
	"Attempts and time",
	"Back-off strategies (one of them; default --exp 1s)",
	"Algorithm::Backoff strategies (-a), values in seconds",
	"Jitter",
	"Deciding what an attempt means (RE: a Perl-compatible regex, PCRE2)",
	"Streams",
	"Reporting",
	"Shared state: runs that name the same NAME back off as one",
	"Simulation",
	"Output",
	"Other",
};

/* The headings of the short --help, a section's: a heading is printed
 * where it changes, so --jitter joins the strategies. */
static const char *const brief_titles[] = {
	[G_ATTEMPTS] = "Attempts and time",
	[G_STRATEGY] = "Back-off (one strategy; default --exp 1s)",
	[G_ALGORITHM] = "Algorithm::Backoff strategies",
	[G_JITTER] = "Back-off (one strategy; default --exp 1s)",
	[G_VERDICT] = "Deciding what an attempt means (RE: a PCRE2 regex)",
	[G_STREAMS] = "Streams",
	[G_REPORT] = "Reporting",
	[G_SHARE] = "Shared state",
	[G_SIMULATE] = "Simulation",
	[G_SHOW] = "Output",
	[G_OTHER] = "Other",
};

#define RETRY_USAGE	HELP_SYNOPSIS "\n" \
	"       retry [OPTION]... [--] tcp://HOST:PORT | unix:///PATH\n" \
	"       retry show-backoff-delays [OPTION]... [STATUS]...\n" \
	"       retry simulate [OPTION]...\n" \
	"       retry share status|reset [OPTION]... [NAME]...\n" \
	"Run COMMAND; when it fails, wait and run it again.\n"
#define RETRY_DUR	"DUR is a number with a unit (ns, us, ms, s, m, h, d; " \
	"1m30s adds up),\nor a bare number of seconds.\n"

/* An option's help in a face: simulate's clients, as the blog's, never give
 * up unless told, so its --max has no default limit. */
static const char *
help_of(const struct opt *o, enum mode mode)
{
	if (mode == MODE_SIMULATE && o->id == OPT_MAX)
		return "at most N attempts a client (default 0: no\n"
		    "limit, as the blog's clients)";
	/* The other faces' --help is whole already. */
	if (mode != MODE_RETRY && o->id == OPT_HELP)
		return "show this help and exit";
	if (mode == MODE_SIMULATE && o->id == OPT_HEDGE)
		return "the hedging model: after DUR, another attempt\n"
		    "beside the first, up to N in flight (default\n"
		    "the 95th percentile of --latency, N 2); auto or\n"
		    "auto:LOAD, a delay learned run by run, with at\n"
		    "most LOAD extra attempts (5% if not given)";
	return o->help;
}

/* An option's names and value, as its line begins: "-n, --max N", with
 * the mark of one that adds up if adds; in retry's, "-h, --help [all]"
 * for one whose value is optional. */
static void
names_of(const struct opt *o, enum mode mode, bool adds, char *left,
    size_t size)
{
	const struct opt_choice *ch = o->data;
	size_t n;

	n = (size_t)snprintf(left, size, "%s%c%s--%s%s%s%s",
	    o->key ? "-" : "", o->key ? o->key : ' ', o->key ? ", " : "   ",
	    o->name, o->metavar ? " " : "", o->metavar ? o->metavar : "",
	    adds && optable_adds(o->id) ? OPT_ADDS_MARK : "");
	for (size_t i = 0; mode == MODE_RETRY && optable_optional(o) &&
	    i < ch->n && n < size; i++)
		n += (size_t)snprintf(left + n, size - n, "%s%s%s",
		    i == 0 ? " [" : "|", ch->names[i].name,
		    i + 1 == ch->n ? "]" : "");
}

/* retry's short --help: the options of optable_briefs, one line each. */
static void
brief(FILE *f)
{
	const char *title = NULL;
	char left[64];

	fputs(RETRY_USAGE "By default, at most 5 attempts, 1s, 2s, 4s and 8s "
	    "apart.\ntcp://HOST:PORT or unix:///PATH in its place is a "
	    "probe: an attempt connects.\n" RETRY_DUR, f);
	for (size_t i = 0; i < OPTABLE_BRIEFS; i++) {
		const struct opt *o = NULL;

		/* The option's own row, not an alias's. */
		for (size_t j = 0; j < OPTABLE_ROWS && o == NULL; j++)
			if (optable[j].id == optable_briefs[i].id &&
			    optable[j].help != NULL)
				o = &optable[j];
		if (o == NULL)
			continue;
		if (title == NULL || strcmp(title, brief_titles[o->group]) != 0) {
			title = brief_titles[o->group];
			fprintf(f, "\n%s:\n", title);
		}
		names_of(o, MODE_RETRY, false, left, sizeof(left));
		fprintf(f, "  %-25s %s\n", left, optable_briefs[i].help);
	}
	fputs("\nExit status: 0 on success; else the last attempt's status "
	    "(124 for a\ntimeout); 125 for a usage error.\n"
	    "Every option: retry --help all; the manual: man retry\n", f);
}

char *
help_format(enum mode mode, bool all)
{
	char *buf = NULL, left[64];
	size_t len = 0;
	FILE *f;

	if ((f = open_memstream(&buf, &len)) == NULL)
		return NULL;
	if (mode == MODE_RETRY && !all) {
		brief(f);
		fclose(f);
		return buf;
	}
	if (mode == MODE_SHOW)
		fputs("Usage: show-backoff-delays [OPTION]... [STATUS]...\n"
		    "Print the delays a back-off strategy gives for a sequence "
		    "of attempts:\nSTATUS 0 is a failure, 1 a success, with an "
		    "optional time :T or :+S in seconds.\nWithout STATUS, "
		    "every attempt fails as soon as the previous delay ends,\n"
		    "until the strategy gives up. Delays print in seconds as "
		    "Perl prints numbers\n(%.15g); -1 where it gives up.\n",
		    f);
	else if (mode == MODE_SHARE)
		fputs("Usage: retry share status [OPTION]... [NAME]...\n"
		    "       retry share reset [OPTION]... NAME...\n"
		    "Show the state that runs with --share NAME share (all "
		    "names when none is\ngiven): the retry budget's tokens, "
		    "the breaker, failures in a row, the\nnot-before time, "
		    "and when each last changed; or start NAME afresh.\n"
		    "A state unused for --share-window (60s) is none: runs "
		    "drop it.\nThe manual: man retry-share\n",
		    f);
	else if (mode == MODE_SIMULATE)
		fputs("Usage: retry simulate [OPTION]...\n"
		    "Simulate the AWS Architecture Blog's \"Exponential Backoff "
		    "And Jitter\": N\nclients start together; each reads the "
		    "version of one shared row and writes\nwith it; a stale "
		    "write fails, and that client backs off and starts over.\n"
		    "Each network hop takes |Normal(10ms, 2ms)|. Without a "
		    "strategy or --jitter,\ncompare none (--immediate), "
		    "exponential (--exp 10ms: the blog's 5ms x 2^n\nafter the "
		    "n-th failure), equal-jitter and full-jitter (the same with\n"
		    "--jitter), decorrelated (--decorrelated 5ms), and Polly's\n"
		    "decorrelated-v2 (--decorrelated 10ms:v2). The cap is 2s "
		    "unless --max-delay\nsays otherwise; clients never give up "
		    "unless --max or\n--max-actual-duration says so. "
		    "Means over the runs: time until the last\nclient is done, "
		    "and calls, the write calls of all clients.\n"
		    "--format plain is the table; --chart draws a bar per "
		    "strategy.\nThe manual: man retry-simulate\n", f);
	else
		fputs(RETRY_USAGE
		    "tcp://HOST:PORT or unix:///PATH in its place is a probe: "
		    "an attempt connects.\n" RETRY_DUR
		    "An option marked +, given again, adds up, in the order "
		    "given; any other\ngiven again, the last counts.\n", f);
	for (int g = G_ATTEMPTS; g <= G_OTHER; g++) {
		bool title = false;

		for (size_t i = 0; i < OPTABLE_ROWS; i++) {
			const struct opt *o = &optable[i];
			/* retry's --count is --dry-run's, a report. */
			const enum opt_group og = mode == MODE_RETRY &&
			    o->id == OPT_COUNT ? G_REPORT : o->group;

			if (og != (enum opt_group)g ||
			    !optable_listed(o, mode))
				continue;
			if (!title) {
				fprintf(f, "\n%s:\n", mode == MODE_SIMULATE &&
				    g == G_STRATEGY ? "Back-off strategies "
				    "(default: compare the five above)" :
				    group_titles[g]);
				title = true;
			}
			names_of(o, mode, true, left, sizeof(left));
			if (strlen(left) > 25)
				fprintf(f, "  %s\n  %-25s ", left, "");
			else
				fprintf(f, "  %-25s ", left);
			/* Continuation lines line up with the first. */
			for (const char *h = help_of(o, mode); *h != '\0'; h++)
				if (*h == '\n')
					fprintf(f, "\n%28s", "");
				else
					fputc(*h, f);
			fputc('\n', f);
		}
	}
	if (mode == MODE_RETRY)
		fputs("\nExit status: 0 on success; the last attempt's status "
		    "when it gives up\nor stops (128+N for signal N, 124 for a "
		    "timeout); 125 for a usage\nerror or output it cannot "
		    "write; 126 or 127 when COMMAND cannot be run;\n141 when "
		    "the reader of its output has gone.\n", f);
	fclose(f);
	return buf;
}
