/* The environment of commands and hooks (env.h). */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "env.h"

extern char **environ;

static const char *const names[VAR_COUNT] = {
	[VAR_MAX_ATTEMPTS] = "RETRY_MAX_ATTEMPTS",
	[VAR_LAST_STATUS] = "RETRY_LAST_STATUS",
	[VAR_ATTEMPT] = "RETRY_ATTEMPT",
	[VAR_ELAPSED_MS] = "RETRY_ELAPSED_MS",
	[VAR_STATUS] = "RETRY_STATUS",
	[VAR_DELAY_MS] = "RETRY_DELAY_MS",
	[VAR_HEDGED] = "RETRY_HEDGED",
};

static struct {
	char	**block;	/* the pointers, then the strings: kept
				 * for the life of the process */
	char	**tail;		/* after the inherited variables */
	bool	  set[VAR_COUNT];
	bool	  nested;	/* RETRY_ATTEMPT was inherited */
	char	  buf[VAR_COUNT][48];
} env;

static bool	 ours(const char *);
static void	 env_tail(void);

/* Whether NAME=... is one of retry's names. */
static bool
ours(const char *s)
{
	size_t len;

	if (strncmp(s, "RETRY_", 6) != 0)
		return false;
	for (size_t i = 0; i < VAR_COUNT; i++) {
		len = strlen(names[i]);
		if (strncmp(s, names[i], len) == 0 && s[len] == '=')
			return true;
	}
	return false;
}

int
env_init(void)
{
	size_t n = 0, bytes = 0, len;
	char **v, *p;

	for (char **e = environ; *e != NULL; e++, n++)
		bytes += strlen(*e) + 1;
	/* The pointers, room for ours and the NULL, then the strings. */
	if ((v = malloc((n + VAR_COUNT + 1) * sizeof(*v) + bytes)) == NULL)
		return -1;
	p = (char *)(v + n + VAR_COUNT + 1);
	n = 0;
	for (char **e = environ; *e != NULL; e++) {
		if (ours(*e)) {
			env.nested |= strncmp(*e, "RETRY_ATTEMPT=", 14) == 0;
			continue;
		}
		len = strlen(*e) + 1;
		v[n++] = memcpy(p, *e, len);
		p += len;
	}
	env.block = v;
	env.tail = v + n;
	*env.tail = NULL;
	environ = v;
	return 0;
}

/* Retry's variables that are set, in order, then the NULL. */
static void
env_tail(void)
{
	size_t k = 0;

	if (env.tail == NULL)
		return;
	for (size_t i = 0; i < VAR_COUNT; i++)
		if (env.set[i])
			env.tail[k++] = env.buf[i];
	env.tail[k] = NULL;
}

void
env_set(enum env_var var, uint64_t v, bool empty)
{
	if (empty)
		snprintf(env.buf[var], sizeof(env.buf[var]), "%s=",
		    names[var]);
	else
		snprintf(env.buf[var], sizeof(env.buf[var]), "%s=%" PRIu64,
		    names[var], v);
	if (!env.set[var]) {
		env.set[var] = true;
		env_tail();
	}
}

void
env_unset(enum env_var var)
{
	if (env.set[var]) {
		env.set[var] = false;
		env_tail();
	}
}

bool
env_nested(void)
{
	return env.nested;
}
