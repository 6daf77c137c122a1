/*
 * --result-file's lines: each way a run ends (a verdict's success or
 * give-up, a --stop-on stop, shared state, a command that cannot run, a
 * signal retry dies of) named as the reports name it, with the attempt
 * that succeeded and the last status only where there is one.
 */
#include <string.h>

#include "resultfmt.h"
#include "unit.h"

struct row {
	const char	*name;
	struct next	 x;
	unsigned long	 made;
	bool		 ran;		/* last is given */
	struct attempt_result last;
	int64_t		 elapsed;
	const char	*want;
};

#define MS	INT64_C(1000000)

static const struct row rows[] = {
	{ "success after 2 failures",
	  { .what = NEXT_EXIT, .end = FIN_VERDICT, .attempt = 3,
	    .succeeded = true }, 3, true, { .status = 0 }, 1204 * MS + 999999,
	  "result=success\nretry_status=0\ntotal_attempts=3\nsucceeded_on=3\n"
	  "exit_code=0\nelapsed_ms=1204\n" },
	{ "success by --success-on 3: retry exits 0, the status is 3",
	  { .what = NEXT_EXIT, .end = FIN_VERDICT, .attempt = 1,
	    .succeeded = true }, 1, true, { .status = 3 }, 0,
	  "result=success\nretry_status=0\ntotal_attempts=1\nsucceeded_on=1\n"
	  "exit_code=3\nelapsed_ms=0\n" },
	{ "a --forever run reset: the attempt as counted, the attempts made",
	  { .what = NEXT_EXIT, .end = FIN_VERDICT, .attempt = 1,
	    .succeeded = true }, 7, true, { .status = 0 }, 5 * MS,
	  "result=success\nretry_status=0\ntotal_attempts=7\nsucceeded_on=1\n"
	  "exit_code=0\nelapsed_ms=5\n" },
	{ "give-up at --max",
	  { .what = NEXT_EXIT, .end = FIN_VERDICT, .attempt = 2,
	    .outcome = { .verdict = V_RETRY }, .give_up = GIVE_UP_MAX,
	    .gave_up = true, .status = 4 }, 2, true, { .status = 4 }, 1 * MS,
	  "result=gave-up\nretry_status=4\ntotal_attempts=2\nsucceeded_on=\n"
	  "exit_code=4\nelapsed_ms=1\n" },
	{ "a success short of --successes, then the end of --max",
	  { .what = NEXT_EXIT, .end = FIN_VERDICT, .attempt = 5,
	    .give_up = GIVE_UP_SUCCESSES, .gave_up = true, .pending = true,
	    .status = 1 }, 5, true, { .status = 0 }, 0,
	  "result=gave-up\nretry_status=1\ntotal_attempts=5\nsucceeded_on=\n"
	  "exit_code=0\nelapsed_ms=0\n" },
	{ "shared state's breaker open before an attempt",
	  { .what = NEXT_EXIT, .end = FIN_SHARE_OPEN, .attempt = 1,
	    .gave_up = true, .status = 75 }, 0, false, { 0 }, 2 * MS,
	  "result=gave-up\nretry_status=75\ntotal_attempts=0\nsucceeded_on=\n"
	  "exit_code=\nelapsed_ms=2\n" },
	{ "a --stop-on status stops",
	  { .what = NEXT_EXIT, .end = FIN_VERDICT, .attempt = 1,
	    .outcome = { .verdict = V_STOP }, .gave_up = true, .status = 2 },
	  1, true, { .status = 2 }, 0,
	  "result=stopped\nretry_status=2\ntotal_attempts=1\nsucceeded_on=\n"
	  "exit_code=2\nelapsed_ms=0\n" },
	{ "a command that cannot run: no status of its own",
	  { .what = NEXT_EXIT, .end = FIN_CANNOT_RUN, .attempt = 1,
	    .status = 127 }, 1, true, { .exec_errno = 2 }, 0,
	  "result=stopped\nretry_status=127\ntotal_attempts=1\nsucceeded_on=\n"
	  "exit_code=\nelapsed_ms=0\n" },
	{ "retry dies of SIGTERM during attempt 1",
	  { .what = NEXT_DIE, .end = FIN_SIGNAL, .attempt = 1,
	    .status = 15 }, 1, true, { .status = 143 }, 356 * MS,
	  "result=stopped\nretry_status=143\ntotal_attempts=1\nsucceeded_on=\n"
	  "exit_code=143\nelapsed_ms=356\n" },
	{ "retry's own error before the first attempt",
	  { .what = NEXT_EXIT, .end = FIN_OWN_ERROR, .attempt = 1,
	    .status = 125 }, 0, false, { 0 }, 0,
	  "result=stopped\nretry_status=125\ntotal_attempts=0\nsucceeded_on=\n"
	  "exit_code=\nelapsed_ms=0\n" },
};

void
unit_figures(void)
{
	char buf[FIGURES_MAX];
	size_t n;

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct row *r = &rows[i];

		n = figures_format(buf, &r->x, r->made, r->ran ? &r->last :
		    NULL, r->elapsed);
		unit_row(n == strlen(r->want) && strcmp(buf, r->want) == 0,
		    "figures", r->name, "got:\n%s\nwant:\n%s", buf, r->want);
	}
}
