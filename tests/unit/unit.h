/*
 * A harness for table-driven tests of the pure modules: each row is one
 * test, and the run ends with "N passed, N failed" as the bats suites do.
 * Rows are data, so a case is one line; nothing here needs fixtures, mocks
 * or a process per test.
 */
#ifndef RETRY_UNIT_H
#define RETRY_UNIT_H

#include <stdbool.h>
#include <stdio.h>

/* Counts a row as passed or failed; a failure prints the row's name and
 * what was wrong, as TAP's "not ok" does. */
void	unit_row(bool ok, const char *suite, const char *name, const char *fmt,
	    ...) __attribute__((format(printf, 4, 5)));

void	unit_policy(void);
void	unit_options(void);
void	unit_share(void);
void	unit_lib(void);
void	unit_replay(void);
void	unit_model(void);
void	unit_suggest(void);
void	unit_line(void);
void	unit_cifmt(void);
void	unit_duration(void);
void	unit_httpdate(void);
void	unit_codes(void);
void	unit_engine(void);
void	unit_delays(void);
void	unit_number(void);
void	unit_match(void);

struct codes;
/* The statuses of a set as "0,2,75-78", or "none". */
void	codes_text(const struct codes *, char *, size_t);
void	unit_storeurl(void);
void	unit_cluster(void);
void	unit_pwmask(void);
void	unit_reportfmt(void);
void	unit_probeurl(void);
void	unit_figures(void);
void	unit_hedging(void);
void	unit_sketch(void);

#endif
