/* make unit: every suite, then "N passed, N failed". */
#include <stdarg.h>
#include <stdlib.h>

#include "unit.h"

static unsigned long passed, failed;

void
unit_row(bool ok, const char *suite, const char *name, const char *fmt, ...)
{
	va_list ap;

	if (ok) {
		passed++;
		return;
	}
	failed++;
	printf("not ok %lu %s: %s\n# ", passed + failed, suite, name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

int
main(void)
{
	unit_policy();
	unit_options();
	unit_share();
	unit_lib();
	unit_replay();
	unit_model();
	unit_suggest();
	unit_line();
	unit_cifmt();
	unit_duration();
	unit_httpdate();
	unit_codes();
	unit_engine();
	unit_delays();
	unit_number();
	unit_match();
	unit_storeurl();
	unit_cluster();
	unit_pwmask();
	unit_reportfmt();
	unit_probeurl();
	unit_figures();
	unit_hedging();
	unit_sketch();
	printf("%lu passed, %lu failed\n", passed, failed);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
