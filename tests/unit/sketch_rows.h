/*
 * The latency sketch's rule as rows, read by the unit test (sketch.c of
 * src) and by the replay against Redis (its twin, sketch.lua): from a
 * text (""; none yet), each duration added in turn, parse, add, text;
 * the text wanted after the last, and whether the first text was
 * refused (the sketch started afresh).
 *
 * Durations, in ns, separated by spaces: "V", V once; "V*N", N times;
 * "bA-B", the lowest duration of each bucket from index A to index B,
 * in that order (B below A: downwards).
 */
#ifndef RETRY_SKETCH_ROWS_H
#define RETRY_SKETCH_ROWS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sketch.h"

static const struct sketch_row {
	const char	*name;
	const char	*from;
	const char	*values;
	const char	*want;
	bool		 refused;
} sketch_rows[] = {
	{ "one value: 20ms",
	  "",
	  "20000000",
	  "1 1 387:1",
	  false },
	{ "two alike: the total and the count rounded as %.6g",
	  "",
	  "20000000*2",
	  "2 1.98438 387:1.98438",
	  false },
	{ "ns <= 0 is the lowest bucket, 1 ns",
	  "",
	  "0 -5 1",
	  "3 2.95337 0:2.95337",
	  false },
	{ "a day, and int64's largest",
	  "",
	  "86400000000000 9223372036854775807",
	  "2 1.98438 739:0.984375 1008:1",
	  false },
	{ "the edges of buckets: 2^24, 2^24 * 17/16 and one below",
	  "",
	  "16777216 17825791 17825792 33554431 33554432",
	  "5 4.84617 384:1.89281 385:0.968994 399:0.984375 400:1",
	  false },
	{ "95% at 20ms, 5% at 2s",
	  "",
	  "20000000*19 2000000000 20000000*19 2000000000 20000000*19 2000000000 "
	  "20000000*19 2000000000 20000000*19 2000000000",
	  "100 50.7495 387:47.8142 493:2.93483",
	  false },
	{ "decay: 200 at 20ms, then 150 at 60ms",
	  "",
	  "20000000*200 60000000*150",
	  "350 63.7417 387:5.77082 412:57.9707",
	  false },
	{ "a count below 1e-3 is dropped",
	  "",
	  "1000 20000000*500",
	  "501 63.9759 387:63.9755",
	  false },
	{ "collapse: 200 buckets upwards",
	  "",
	  "b160-359",
	  "200 61.2567 331:38.4358 332:0.653637 333:0.664012 334:0.674552 "
	  "335:0.685259 336:0.696136 337:0.707186 338:0.718411 339:0.729814 "
	  "340:0.741398 341:0.753166 342:0.765121 343:0.777266 344:0.789604 "
	  "345:0.802137 346:0.814869 347:0.827803 348:0.840943 349:0.854291 "
	  "350:0.867851 351:0.881626 352:0.89562 353:0.909836 354:0.924278 "
	  "355:0.938949 356:0.953853 357:0.968994 358:0.984375 359:1",
	  false },
	{ "collapse: 200 buckets downwards",
	  "",
	  "b359-160",
	  "200 61.2567 177:15.7974 334:44.1355 335:0.0635484 336:0.0625555 "
	  "337:0.0615781 338:0.0606159 339:0.0596688 340:0.0587365 341:0.0578187 "
	  "342:0.0569153 343:0.056026 344:0.0551506 345:0.0542889 346:0.0534406 "
	  "347:0.0526056 348:0.0517836 349:0.0509745 350:0.050178 351:0.049394 "
	  "352:0.0486222 353:0.0478625 354:0.0471146 355:0.0463784 356:0.0456537 "
	  "357:0.0449404 358:0.0442382 359:0.043547",
	  false },
	{ "collapse: a new lowest bucket merges into the one above",
	  "",
	  "b400-431 1000",
	  "33 25.9391 404:4.11813 405:0.653637 406:0.664012 407:0.674552 "
	  "408:0.685259 409:0.696136 410:0.707186 411:0.718411 412:0.729814 "
	  "413:0.741398 414:0.753166 415:0.765121 416:0.777266 417:0.789604 "
	  "418:0.802137 419:0.814869 420:0.827803 421:0.840943 422:0.854291 "
	  "423:0.867851 424:0.881626 425:0.89562 426:0.909836 427:0.924278 "
	  "428:0.938949 429:0.953853 430:0.968994 431:0.984375",
	  false },
	{ "the text's bound: old counts of many digits",
	  "",
	  "b700-731 86400000000000*350",
	  "382 63.8438 708:0.0237753 709:0.00285587 710:0.0029012 711:0.00294725 "
	  "712:0.00299403 713:0.00304155 714:0.00308983 715:0.00313887 "
	  "716:0.00318869 717:0.0032393 718:0.00329072 719:0.00334295 "
	  "720:0.00339601 721:0.00344991 722:0.00350467 723:0.0035603 "
	  "724:0.00361681 725:0.00367422 726:0.00373254 727:0.00379179 "
	  "728:0.00385198 729:0.00391312 730:0.00397523 731:0.00403833 739:63.7417",
	  false },
	{ "the text's bound: indexes of four digits",
	  "",
	  "b976-1007 9223372036854775807*400",
	  "432 63.929 985:0.0121177 986:0.0013201 987:0.00134105 988:0.00136234 "
	  "989:0.00138396 990:0.00140593 991:0.00142825 992:0.00145092 "
	  "993:0.00147395 994:0.00149735 995:0.00152112 996:0.00154526 "
	  "997:0.00156979 998:0.00159471 999:0.00162002 1000:0.00164573 "
	  "1001:0.00167185 1002:0.00169839 1003:0.00172535 1004:0.00175274 "
	  "1005:0.00178056 1006:0.00180882 1007:0.00183753 1008:63.8825",
	  false },
	{ "a sketch's text goes on",
	  "340 49.8 387:3.5 388:20.1",
	  "20000000",
	  "341 50.0219 387:4.44531 388:19.7859",
	  false },
	{ "samples: 99 and one more",
	  "99 1 387:1",
	  "20000000",
	  "100 1.98438 387:1.98438",
	  false },
	{ "samples: 199 and one more",
	  "199 1 387:1",
	  "20000000",
	  "200 1.98438 387:1.98438",
	  false },
	{ "samples: held at 2^64 - 1",
	  "18446744073709551614 1 387:1",
	  "20000000 20000000",
	  "18446744073709551615 2.95337 387:2.95337",
	  false },
	{ "refused: not a sketch",
	  "x",
	  "20000000",
	  "1 1 387:1",
	  true },
	{ "refused: a space after",
	  "1 1 387:1 ",
	  "20000000",
	  "1 1 387:1",
	  true },
	{ "refused: two spaces",
	  "1 1  387:1",
	  "20000000",
	  "1 1 387:1",
	  true },
	{ "refused: no total",
	  "1",
	  "20000000",
	  "1 1 387:1",
	  true },
	{ "refused: a leading zero",
	  "01 1 387:1",
	  "20000000",
	  "1 1 387:1",
	  true },
	{ "refused: a sign",
	  "1 -1 387:1",
	  "20000000",
	  "1 1 387:1",
	  true },
	{ "refused: not as %.6g prints it",
	  "1 1.0 387:1",
	  "20000000",
	  "1 1 387:1",
	  true },
	{ "refused: hexadecimal",
	  "1 0x1 387:1",
	  "20000000",
	  "1 1 387:1",
	  true },
	{ "refused: infinite",
	  "1 inf 387:1",
	  "20000000",
	  "1 1 387:1",
	  true },
	{ "refused: not a number",
	  "1 nan 387:1",
	  "20000000",
	  "1 1 387:1",
	  true },
	{ "refused: a count of 1e-4",
	  "1 1 387:0.0001",
	  "20000000",
	  "1 1 387:1",
	  true },
	{ "refused: indexes not rising",
	  "2 2 388:1 387:1",
	  "20000000",
	  "1 1 387:1",
	  true },
	{ "refused: an index past 1023",
	  "1 1 1024:1",
	  "20000000",
	  "1 1 387:1",
	  true },
	{ "refused: a pair without its count",
	  "1 1 387",
	  "20000000",
	  "1 1 387:1",
	  true },
	{ "refused: past 2^64 - 1",
	  "18446744073709551616 1 387:1",
	  "20000000",
	  "1 1 387:1",
	  true },
	{ "refused: a tab",
	  "1\t1 387:1",
	  "20000000",
	  "1 1 387:1",
	  true },
	{ "refused: a line's end",
	  "1 1 387:1\n",
	  "20000000",
	  "1 1 387:1",
	  true },
};

/* Calls each with every duration of a row's values in turn. */
static inline void
sketch_row_values(const char *values, void (*each)(void *, int64_t),
    void *arg)
{
	const char *p = values;
	char *end;

	while (*p != '\0') {
		if (*p == ' ')
			p++;
		else if (*p == 'b') {
			const long a = strtol(p + 1, &end, 10);
			const long b = strtol(end + 1, &end, 10);

			for (long i = a;; i += a <= b ? 1 : -1) {
				const int e = (int)(i / 16);
				const int64_t m = 16 + i % 16;

				each(arg, e >= 4 ? m << (e - 4) :
				    (m << e) / 16);
				if (i == b)
					break;
			}
			p = end;
		} else {
			const int64_t v = strtoll(p, &end, 10);
			const long n = *end == '*' ? strtol(end + 1, &end, 10) :
			    1;

			for (long i = 0; i < n; i++)
				each(arg, v);
			p = end;
		}
	}
}

#endif
