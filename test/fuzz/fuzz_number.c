/*-------------------------------------------------------------------------
 *
 * fuzz_number.c
 *	  libFuzzer harness for jcs_number_from_decimal.
 *
 * Invariants: never crashes; agrees with the slow reference (status and
 * text); an accepted input and its output parse to the same double; the
 * output is what jcs_format_double prints for that double; feeding the
 * output back gives the same output.
 *
 * test/fuzz/fuzz_number.c
 *
 *-------------------------------------------------------------------------
 */
#include <string.h>

#include "fuzz_common.h"

/* One fuzz iteration. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *in = (const char *) data;
	char		out[JCS_NUMBER_BUFLEN];
	char		again[JCS_NUMBER_BUFLEN];
	char		ref[JCS_NUMBER_BUFLEN];
	char		fmt[JCS_NUMBER_BUFLEN];
	size_t		olen = 0,
				alen = 0,
				rlen = 0;
	jcs_num_status st,
				rst;

	st = jcs_number_from_decimal(in, size, out, &olen);
	FUZZ_ASSERT(st == JCS_NUM_OK || st == JCS_NUM_SYNTAX ||
				st == JCS_NUM_OUT_OF_RANGE || st == JCS_NUM_INEXACT,
				"bad status %d", (int) st);

	rst = ref_number_from_decimal(in, size, ref, &rlen);
	FUZZ_ASSERT(st == rst, "status %d, reference %d for %.*s",
				(int) st, (int) rst, (int) size, in);

	if (st == JCS_NUM_OK)
	{
		char	   *copy = malloc(size + 1);
		double		xin,
					xout;

		FUZZ_ASSERT(olen == strlen(out) && olen < JCS_NUMBER_BUFLEN,
					"bad length %zu", olen);
		FUZZ_ASSERT(strcmp(out, ref) == 0, "out %s, reference %s", out, ref);

		memcpy(copy, in, size);
		copy[size] = '\0';
		xin = strtod(copy, NULL);
		xout = strtod(out, NULL);
		free(copy);
		FUZZ_ASSERT(xin == xout, "strtod differs: %s", out);

		FUZZ_ASSERT(jcs_format_double(xin, fmt) == (int) olen &&
					strcmp(fmt, out) == 0, "format_double %s vs %s", fmt, out);

		FUZZ_ASSERT(jcs_number_from_decimal(out, olen, again, &alen) == JCS_NUM_OK &&
					alen == olen && strcmp(again, out) == 0,
					"not idempotent: %s -> %s", out, again);
	}
	return 0;
}
