/*-------------------------------------------------------------------------
 *
 * fuzz_decimal.c
 *	  libFuzzer harness for dec_scale_round_int64.
 *
 * The first input byte picks the multiplier (1000000, 1048576, 1, or the
 * next four bytes); the rest is the text.  Invariant: status and value
 * agree with the big-decimal reference.
 *
 * test/fuzz/fuzz_decimal.c
 *
 *-------------------------------------------------------------------------
 */
#include <string.h>

#include "fuzz_common.h"

/* One fuzz iteration. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint32_t	m;
	int64_t		a = 0,
				b = 0;
	dec_status	sa,
				sb;

	if (size < 1)
		return 0;
	switch (data[0] & 3)
	{
		case 0:
			m = 1000000;
			break;
		case 1:
			m = 1048576;
			break;
		case 2:
			m = 1;
			break;
		default:
			if (size < 5)
				return 0;
			m = (uint32_t) data[1] | ((uint32_t) data[2] << 8) |
				((uint32_t) data[3] << 16) | ((uint32_t) data[4] << 24);
			data += 4;
			size -= 4;
			break;
	}
	data++;
	size--;

	sa = dec_scale_round_int64((const char *) data, size, m, &a);
	sb = ref_scale_round_int64((const char *) data, size, m, &b);
	FUZZ_ASSERT(sa == sb && (sa != DEC_OK || a == b),
				"m=%u \"%.*s\": %d/%lld, reference %d/%lld", m,
				(int) size, (const char *) data, (int) sa, (long long) a,
				(int) sb, (long long) b);
	return 0;
}
