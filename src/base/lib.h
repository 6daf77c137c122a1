/*
 * Libraries that only some runs need, PCRE2 for regular expressions,
 * hiredis for Redis, OpenSSL for TLS and libm for exponential delays
 * (mathlib.c), loaded by a run that needs one, before its first attempt
 * (so that no load fails mid-run, nor finds what an attempt wrote in the
 * current directory): a library that is linked is mapped and relocated
 * by every run, used or not.  A module lists the functions it calls with an
 * X-macro and keeps them in a table of its own:
 *
 *	#define FUNCS(X) X(pcre2_compile) X(pcre2_match)
 *	static struct { FUNCS(LIB_MEMBER) } api;
 *	static const char *const names[] = { FUNCS(LIB_NAME) };
 *	static const struct lib_part part = { RETRY_PCRE2_SONAME, names,
 *	    LIB_COUNT(names) };
 *	static struct lib_once once;
 *	const char *why = lib_once(&once, &part, 1, (void **)&api);
 *
 * Built without the library's soname (the static binary, a build that
 * could not tell it, or for libm the portable build), the module fills
 * its table with FUNCS(LIB_LINKED) instead, and the library is linked as
 * usual.  Not pure: dlopen reads files.
 */
#ifndef RETRY_LIB_H
#define RETRY_LIB_H

#include <stddef.h>

/* A member of the table: the function's own name and type. */
#define LIB_MEMBER(f)	__typeof__(f) *f;
/* Its name as the library exports it, macros expanded (pcre2_compile is
 * pcre2_compile_8). */
#define LIB_NAME(f)	LIB_STR(f),
#define LIB_STR(f)	LIB_STR_(f)
#define LIB_STR_(f)	#f
#define LIB_COUNT(a)	(sizeof(a) / sizeof((a)[0]))
/* The table of a linked library, in a function that has it as *t. */
#define LIB_LINKED(f)	t->f = f;

/* A library's soname and the names of the functions taken from it. */
struct lib_part {
	const char		*soname;
	const char *const	*names;
	size_t			 n;
};

/* A library loaded once: tried when first needed, the answer kept. */
struct lib_once {
	int		 state;		/* 0 not tried, 1 loaded, -1 not */
	char		*why;		/* state -1: why not */
};

/*
 * The first time o is asked: each of the n parts loaded, its functions
 * into table in turn (the table left as it was unless all are found).
 * Then and after: NULL once loaded, else why not, one line that names the
 * library.
 */
const char	*lib_once(struct lib_once *o, const struct lib_part *parts,
		    size_t n, void **table);

/*
 * Loads the library of that soname and fills table[i] with the address of
 * names[i], for n names; the table is left as it was unless all are found.
 * 0, or -1 with why not in why, one line that names the library (what
 * dlerror says).
 */
int		 lib_load(const char *soname, const char *const names[],
		    size_t n, void **table, char *why, size_t whysz);

#endif
