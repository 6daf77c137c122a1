/*
 * The title that ps shows of a run, set with libbsd's setproctitle: the
 * command line as it was, so that pgrep -f finds a run by it, with the
 * attempt's state after it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "duration.h"
#include "title.h"

/*
 * retry's command line, its options and the command, joined, for ps:
 * pgrep -f finds a run by it, as before the first title.  Taken before
 * the first title, which writes over argv[0].
 */
char *
join_words(char *const *words, int nwords)
{
	size_t len = 1;
	char *s;

	for (int i = 0; i < nwords; i++)
		len += strlen(words[i]) + 1;
	if ((s = calloc(1, len)) == NULL)
		return NULL;
	for (int i = 0; i < nwords; i++) {
		if (i > 0)
			strlcat(s, " ", len);
		strlcat(s, words[i], len);
	}
	return s;
}

/* What libbsd's setproctitle keeps of a title, at most: the rest is cut. */
#define TITLE_MAX	255

/* The command and the limit of the last title, for title_hedged's. */
static const char *title_cmd;
static unsigned long title_max;

/* cmd, then state whole, the command line cut short (never inside a
 * UTF-8 character) to leave it room. */
static void
put_title(const char *cmd, const char *state)
{
	size_t room, len = strlen(cmd);

	room = TITLE_MAX - strlen(state);
	if (len > room) {
		len = room - 3;
		while (len > 0 && ((unsigned char)cmd[len] & 0xc0) == 0x80)
			len--;
	}
	/* '-': no "retry: " first; the command line is retry's own. */
	setproctitle("-%.*s%s%s", (int)len, cmd, len < strlen(cmd) ? "..." :
	    "", state);
}

void
set_title(const char *cmd, unsigned long attempt, unsigned long max,
    const char *what, int64_t delay)
{
	char d[DURATION_BUFSZ], n[48], next[64] = "", state[192];

	title_cmd = cmd;
	title_max = max;
	if (max > 0)
		snprintf(n, sizeof(n), "%lu/%lu", attempt, max);
	else
		snprintf(n, sizeof(n), "%lu", attempt);
	if (delay >= 0)
		snprintf(next, sizeof(next), ", next in %s",
		    duration_format(delay, d, sizeof(d)));
	snprintf(state, sizeof(state), " [attempt %s %s%s]", n, what, next);
	put_title(cmd, state);
}

void
title_hedged(unsigned long first, unsigned long last, unsigned running)
{
	char n[64], state[192];

	if (title_cmd == NULL)
		return;
	if (first == last) {
		set_title(title_cmd, first, title_max, "running", -1);
		return;
	}
	if (title_max > 0)
		snprintf(n, sizeof(n), "%lu-%lu/%lu", first, last, title_max);
	else
		snprintf(n, sizeof(n), "%lu-%lu", first, last);
	if (running == last - first + 1)
		snprintf(state, sizeof(state), " [attempts %s running]", n);
	else
		snprintf(state, sizeof(state), " [attempts %s: %u running]", n,
		    running);
	put_title(title_cmd, state);
}
