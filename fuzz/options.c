/*
 * The whole option parser: argv built from the input, words separated by
 * NUL bytes, the first byte choosing retry or show-backoff-delays.  What it
 * accepts then drives the engine through show-backoff-delays or --dry-run,
 * with the counts capped so that one input stays fast; their output goes
 * to /dev/null.
 */
#include <stdio.h>

#include "help.h"
#include "options.h"
#include "rng.h"
#include "show.h"
#include "fuzz.h"

#define MAX_WORDS	64

int	LLVMFuzzerInitialize(int *, char ***);

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	/* The engine's output is not what is tested, and is a lot. */
	if (freopen("/dev/null", "w", stdout) == NULL)
		abort();
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char retry[] = "retry", show[] = "show-backoff-delays";
	char *argv[MAX_WORDS + 2], *buf, err[512];
	struct config cfg;
	struct rng rng;
	enum mode mode;
	char *help;
	int argc = 1;

	if (size == 0)
		return 0;
	mode = data[0] & 1 ? MODE_SHOW : MODE_RETRY;
	buf = fuzz_string(data + 1, size - 1);
	argv[0] = mode == MODE_SHOW ? show : retry;
	for (char *w = buf, *end = buf + size - 1; w <= end &&
	    argc <= MAX_WORDS; w += strlen(w) + 1)
		argv[argc++] = w;
	argv[argc] = NULL;

	err[0] = '\0';
	if (options_parse(argc, argv, mode, &cfg, err, sizeof(err)) != 0) {
		/* One line that says what is wrong. */
		CHECK(err[0] != '\0' && strlen(err) < sizeof(err));
	} else if (cfg.help) {
		help = help_format(mode, cfg.help_all);
		CHECK(help != NULL);
		free(help);
	} else if (!cfg.version) {
		CHECK(cfg.nargs >= 0 && cfg.nargs < argc);
		if (cfg.count > 200)
			cfg.count = 200;
		if (cfg.samples > 20)
			cfg.samples = 20;
		rng_seed(&rng, cfg.seed);
		/* --dry-run --share reads a store: not the fuzzer's. */
		cfg.share = NULL;
		if (mode == MODE_SHOW)
			(void)show_main(&cfg, &rng);
		else if (cfg.dry_run)
			(void)dry_run(&cfg, &rng);
	}
	options_free(&cfg);
	free(buf);
	return 0;
}
