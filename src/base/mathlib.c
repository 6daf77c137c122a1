/* libm's functions, loaded when first called (mathlib.h). */
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "compat.h"	/* COMPAT_LIBM_SO */
#include "lib.h"
#include "mathlib.h"

#define MATH_FUNCS(X) X(pow) X(log) X(sqrt) X(tanh) X(lround) X(llround)

static struct math_api { MATH_FUNCS(LIB_MEMBER) } api;

static const struct math_api	*math(void);

int
math_load(char *why, size_t sz)
{
#ifdef COMPAT_LIBM_SO
	static const char *const names[] = { MATH_FUNCS(LIB_NAME) };
	static const struct lib_part part = { COMPAT_LIBM_SO, names,
		LIB_COUNT(names) };
	static struct lib_once once;
	const char *e;
	_Static_assert(sizeof(api) == LIB_COUNT(names) * sizeof(void *),
	    "a name for each function");

	if ((e = lib_once(&once, &part, 1, (void **)&api)) != NULL) {
		strlcpy(why, e, sz);
		return -1;
	}
#else
	static bool linked;
	struct math_api *t = &api;

	(void)why;
	(void)sz;
	if (!linked) {
		MATH_FUNCS(LIB_LINKED)
		linked = true;
	}
#endif
	return 0;
}

/*
 * In libm's place when it would not load: a value that says no number
 * (NaN, or 0 for the roundings), never an exit.  Every face loads libm
 * before it computes (math_load), and says why it cannot, so that these
 * are reached only by a computation that no face asked for first.
 */
static double
no_pow(double x, double y)
{
	(void)x;
	(void)y;
	return (double)NAN;
}

static double
no_fn(double x)
{
	(void)x;
	return (double)NAN;
}

static long
no_lround(double x)
{
	(void)x;
	return 0;
}

static long long
no_llround(double x)
{
	(void)x;
	return 0;
}

/* The functions: libm's, loaded at the first call if no face loaded it,
 * or the ones that say no number. */
static const struct math_api *
math(void)
{
	static const struct math_api none = { no_pow, no_fn, no_fn,
		no_fn, no_lround, no_llround };
	char why[256];

	return math_load(why, sizeof(why)) == -1 ? &none : &api;
}

double
math_pow(double x, double y)
{
	return math()->pow(x, y);
}

double
math_log(double x)
{
	return math()->log(x);
}

double
math_sqrt(double x)
{
	return math()->sqrt(x);
}

double
math_tanh(double x)
{
	return math()->tanh(x);
}

long
math_lround(double x)
{
	return math()->lround(x);
}

long long
math_llround(double x)
{
	return math()->llround(x);
}
