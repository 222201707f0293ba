/*-------------------------------------------------------------------------
 *
 * fuzz_digest.c
 *	  libFuzzer harness for digest_text_parse, the parser behind
 *	  kidx_digest's text input and every digest a document carries.
 *
 * The input is the text.  Invariants: it parses exactly when it is
 * "sha256:" and 64 lowercase hex digits (checked by a plain reference
 * here), to the bytes that format back to it; otherwise the fault is the
 * first in reading order, its offset and length lie inside the input, and
 * the output is untouched.  The mblen rule is UTF-8's, as the server's,
 * and may claim more bytes than are left.
 *
 * test/fuzz/fuzz_digest.c
 *
 *-------------------------------------------------------------------------
 */
#include <string.h>

#include "fuzz_common.h"
#include "../unit/utf8_rule.h"
#include "../../src/core/digesttext.h"

/* True for a lowercase hexadecimal digit. */
static int
is_lower_hex(unsigned char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
}

/* One fuzz iteration. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *) data;
	unsigned char out[DIGEST_TEXT_BYTES];
	DigestTextFault f;
	digest_text_status st;
	size_t		first_bad = size;
	int			prefix_ok;
	size_t		i;

	memset(out, 0x5A, sizeof(out));
	st = digest_text_parse(s, size, utf8_mblen, out, &f);

	prefix_ok = size >= DIGEST_TEXT_PREFIX_LEN &&
		memcmp(s, DIGEST_TEXT_PREFIX, DIGEST_TEXT_PREFIX_LEN) == 0;
	if (prefix_ok)
		for (i = DIGEST_TEXT_PREFIX_LEN; i < size; i++)
			if (!is_lower_hex(data[i]))
			{
				first_bad = i;
				break;
			}

	if (!prefix_ok)
		FUZZ_ASSERT(st == DIGEST_TEXT_PREFIX_MISSING, "no prefix, status %d", (int) st);
	else if (first_bad < size)
	{
		unsigned char c = data[first_bad];

		FUZZ_ASSERT(f.offset == first_bad, "fault at %zu, first bad byte at %zu",
					f.offset, first_bad);
		if (c >= 'A' && c <= 'F')
			FUZZ_ASSERT(st == DIGEST_TEXT_UPPERCASE, "uppercase, status %d", (int) st);
		else
		{
			size_t		want = (size_t) utf8_mblen(&c);

			if (want > size - first_bad)
				want = size - first_bad;
			FUZZ_ASSERT(st == DIGEST_TEXT_NOT_HEX, "bad byte, status %d", (int) st);
			FUZZ_ASSERT(f.charlen == want && f.offset + f.charlen <= size,
						"charlen %zu, want %zu", f.charlen, want);
		}
	}
	else if (size != DIGEST_TEXT_LEN)
		FUZZ_ASSERT(st == DIGEST_TEXT_LENGTH && f.hexlen == size - DIGEST_TEXT_PREFIX_LEN,
					"length %zu, status %d, hexlen %zu", size, (int) st, f.hexlen);
	else
	{
		char		text[DIGEST_TEXT_LEN + 1];

		FUZZ_ASSERT(st == DIGEST_TEXT_OK, "a good digest refused, status %d", (int) st);
		digest_text_format(out, text);
		FUZZ_ASSERT(memcmp(text, s, DIGEST_TEXT_LEN) == 0 && text[DIGEST_TEXT_LEN] == '\0',
					"does not format back: %s", text);
	}
	if (st != DIGEST_TEXT_OK)
		for (i = 0; i < sizeof(out); i++)
			FUZZ_ASSERT(out[i] == 0x5A, "output written on a fault");
	return 0;
}
