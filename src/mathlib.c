/* libm's functions, loaded when first called (mathlib.h). */
#include <err.h>
#include <math.h>
#include <stdbool.h>

#include "exits.h"
#include "lib.h"
#include "mathlib.h"

#if defined(RETRY_LIBM_LAZY) && defined(__has_include)
#if __has_include(<gnu/lib-names.h>)
#include <gnu/lib-names.h>	/* LIBM_SO, "libm.so.6" */
#endif
#endif

#define MATH_FUNCS(X) X(pow) X(powl) X(log) X(sqrt) X(tanh) X(lround) X(llround)

static struct math_api { MATH_FUNCS(LIB_MEMBER) } api;

static const struct math_api	*math(void);

int
math_load(char *why, size_t sz)
{
	static bool loaded;

	if (loaded)
		return 0;
#ifdef LIBM_SO
	static const char *const names[] = { MATH_FUNCS(LIB_NAME) };

	_Static_assert(sizeof(api) == LIB_COUNT(names) * sizeof(void *),
	    "a name for each function");
	if (lib_load(LIBM_SO, names, LIB_COUNT(names), (void **)&api, why,
	    sz) == -1)
		return -1;
#else
	struct math_api *t = &api;

	(void)why;
	(void)sz;
	MATH_FUNCS(LIB_LINKED)
#endif
	loaded = true;
	return 0;
}

/* A face that computes at once (show-backoff-delays, simulate, a chart)
 * loads libm at its first call; a run has loaded it before its first
 * attempt. */
static const struct math_api *
math(void)
{
	char why[256];

	if (math_load(why, sizeof(why)) == -1)
		errx(EXIT_CANCELED, "%s", why);
	return &api;
}

double
math_pow(double x, double y)
{
	return math()->pow(x, y);
}

long double
math_powl(long double x, long double y)
{
	return math()->powl(x, y);
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
