/*
 * optdump: the option table, one line an option of each face, for the
 * tests that check the completions and the manuals against it
 * (tests/optable.bats).  Each line holds seven fields apart by tabs:
 *
 *	face	long name	short name	value	choices	adds	alias
 *
 * the face as a user types it (retry, show-backoff-delays, simulate,
 * share), the long name with its dashes, the short one (-n) or -, the
 * value's name in --help (N, DUR) or - for none, and the values it takes
 * when they are a fixed set (plain table csv json), apart by spaces, or -,
 * + where the option adds up when given again, else -, and alias for
 * an alias's row (--tries: --help lists it under --times), else -.
 * Aliases have lines of their own.
 */
#include <stdio.h>
#include <stdlib.h>

#include "optable.h"
#include "options.h"

static const struct {
	enum mode	 mode;
	const char	*name;
} faces[] = {
	{ MODE_RETRY, "retry" },
	{ MODE_SHOW, "show-backoff-delays" },
	{ MODE_SIMULATE, "simulate" },
	{ MODE_SHARE, "share" },
};

int
main(void)
{
	const size_t nfaces = sizeof(faces) / sizeof(faces[0]);
	unsigned known = 0;

	for (size_t f = 0; f < nfaces; f++)
		known |= 1u << faces[f].mode;
	for (size_t i = 0; i < OPTABLE_ROWS; i++)
		if (optable[i].modes & OPT_FACES & ~known) {
			fprintf(stderr, "optdump: --%s has a face this "
			    "program does not know\n", optable[i].name);
			return 1;
		}
	for (size_t f = 0; f < nfaces; f++)
		for (size_t i = 0; i < OPTABLE_ROWS; i++) {
			const struct opt *o = &optable[i];
			const struct opt_choice *ch = o->kind == K_CHOICE ||
			    o->kind == K_OTHER ? o->data : NULL;

			if (!(o->modes & (1u << faces[f].mode)))
				continue;
			printf("%s\t--%s\t", faces[f].name, o->name);
			if (o->key != 0)
				printf("-%c\t", o->key);
			else
				printf("-\t");
			printf("%s\t", o->metavar != NULL ? o->metavar : "-");
			if (ch == NULL)
				printf("-");
			for (size_t k = 0; ch != NULL && k < ch->n; k++)
				printf("%s%s", k > 0 ? " " : "",
				    ch->names[k].name);
			printf("\t%s\t%s\n", optable_adds(o->id) ? "+" : "-",
			    optable_listed(o, faces[f].mode) ? "-" : "alias");
		}
	return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
}
