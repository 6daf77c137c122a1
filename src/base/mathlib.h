/*
 * The C library's mathematics (libm) that retry needs only once it
 * computes a delay, a chart or a simulation: powers, a logarithm, a square
 * root, a hyperbolic tangent and rounding to an integer.  The binary that
 * make install and the Debian package install loads libm with math_load,
 * through lib.h as PCRE2, hiredis and OpenSSL are loaded: a library that
 * is linked is mapped and relocated by every run.  The static binary, the
 * portable build and builds without glibc's <gnu/lib-names.h> (which
 * compat.h reads libm's soname from) link libm as usual.
 *
 * libm ships with libc itself, so it is always there; should it fail to
 * load, the face that computes says why on one line and exits 125, as the
 * dynamic loader would have at start-up: show-backoff-delays, simulate
 * and --dry-run before they compute, and a run whose strategy computes
 * powers before its first attempt, so that the load cannot fail mid-run,
 * weeks into a --forever, nor find a libm that an attempt wrote in the
 * current directory.  The functions below never exit: called before
 * math_load, they load libm; without it, they return NaN (0 for the
 * roundings).  These are glibc's own functions, to the last bit:
 * show-backoff-delays agrees with Perl's, which calls the same pow.
 */
#ifndef RETRY_MATHLIB_H
#define RETRY_MATHLIB_H

#include <stddef.h>

/* Loads libm now, if not yet: 0, or -1 with why (one line, naming it). */
int		 math_load(char *why, size_t sz);

double		 math_pow(double, double);
double		 math_log(double);
double		 math_sqrt(double);
double		 math_tanh(double);
long		 math_lround(double);
long long	 math_llround(double);

#endif
