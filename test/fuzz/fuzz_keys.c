/*-------------------------------------------------------------------------
 *
 * fuzz_keys.c
 *	  libFuzzer harness for jcs_compare_keys.
 *
 * The input is turned into three valid UTF-8 strings: if it starts with an
 * even byte, each following pair of bytes selects a code point from ranges
 * where UTF-8 and UTF-16 order interact (0xFF bytes separate strings);
 * otherwise the raw bytes, split at 0xFF, are used if they are valid UTF-8.
 * Invariants: agreement with UTF-16 transcoding, antisymmetry, reflexivity
 * and transitivity.
 *
 * test/fuzz/fuzz_keys.c
 *
 *-------------------------------------------------------------------------
 */
#include <string.h>

#include "fuzz_common.h"

#define NKEYS 3

/* Code point for a pair of input bytes. */
static uint32_t
pick_codepoint(uint8_t sel, uint8_t v)
{
	switch (sel % 7)
	{
		case 0:
			return 0x20 + (v % 0x5f);
		case 1:
			return 0x80 + v;
		case 2:
			return 0xD700 + v;	/* just below the surrogates */
		case 3:
			return 0xE000 + v;	/* private use, after surrogates */
		case 4:
			return 0xFF00 + v;	/* top of the BMP */
		case 5:
			return 0x10000 + v; /* supplementary */
		default:
			return 0x10FF00 + v;	/* top of Unicode */
	}
}

/* Sign of an int. */
static int
sgn(int v)
{
	return (v > 0) - (v < 0);
}

/* One fuzz iteration. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char	   *buf[NKEYS];
	size_t		len[NKEYS] = {0, 0, 0};
	int			k = 0;
	size_t		i;
	int			a,
				b,
				c;

	if (size < 1)
		return 0;
	for (i = 0; i < NKEYS; i++)
		buf[i] = malloc(size * 2 + 4);

	if ((data[0] & 1) == 0)
	{
		for (i = 1; i < size && k < NKEYS; i++)
		{
			if (data[i] == 0xFF)
			{
				k++;
				continue;
			}
			if (i + 1 >= size)
				break;
			len[k] += (size_t) ref_utf8_encode(pick_codepoint(data[i], data[i + 1]),
											   buf[k] + len[k]);
			i++;
		}
	}
	else
	{
		for (i = 1; i < size && k < NKEYS; i++)
		{
			if (data[i] == 0xFF)
				k++;
			else
				buf[k][len[k]++] = (char) data[i];
		}
		for (k = 0; k < NKEYS; k++)
			if (!ref_utf8_valid(buf[k], len[k]))
				goto done;
	}

	for (a = 0; a < NKEYS; a++)
	{
		int			self = jcs_compare_keys(buf[a], len[a], buf[a], len[a]);

		FUZZ_ASSERT(self == 0, "not reflexive");
		for (b = 0; b < NKEYS; b++)
		{
			int			r = sgn(jcs_compare_keys(buf[a], len[a], buf[b], len[b]));
			int			rr = ref_utf16_compare(buf[a], len[a], buf[b], len[b]);
			int			rev = sgn(jcs_compare_keys(buf[b], len[b], buf[a], len[a]));

			FUZZ_ASSERT(r == rr, "keys %d,%d: %d, UTF-16 says %d", a, b, r, rr);
			FUZZ_ASSERT(rev == -r, "not antisymmetric");
			for (c = 0; c < NKEYS; c++)
			{
				if (r < 0 &&
					jcs_compare_keys(buf[b], len[b], buf[c], len[c]) < 0)
					FUZZ_ASSERT(jcs_compare_keys(buf[a], len[a], buf[c], len[c]) < 0,
								"not transitive");
			}
		}
	}
done:
	for (i = 0; i < NKEYS; i++)
		free(buf[i]);
	return 0;
}
