/*-------------------------------------------------------------------------
 *
 * test_digest.c
 *	  Unit tests for src/core/digesttext.c: the text form of a digest.
 *
 * Proves that exactly the strings "sha256:" + 64 lowercase hex digits
 * parse, to the bytes they spell; that every other string is refused with
 * the first fault in reading order (missing prefix, then the first bad
 * character and its byte offset and length, then the length); that a fault
 * never reads or reports past the end of the input; and that formatting
 * and parsing are inverse for random digests.
 *
 * The last line printed is "N passed, N failed"; the exit status is
 * non-zero on any failure.
 *
 * test/unit/test_digest.c
 *
 *-------------------------------------------------------------------------
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/core/digesttext.h"
#include "unit.h"

#define GOOD "sha256:080e6e66e4ec75a131aa0c9121c74b8e8eed64e7b6d621d567c6a28f79548be8"


/*
 * Parse s (exactly len bytes, copied to the heap so that a read past the
 * end is caught by ASan or valgrind) and check the status and fault.
 */
static void
expect(const char *name, const char *s, size_t len, digest_text_status want,
	   size_t offset, size_t charlen, size_t hexlen)
{
	char	   *copy = malloc(len ? len : 1);
	unsigned char out[DIGEST_TEXT_BYTES];
	unsigned char untouched[DIGEST_TEXT_BYTES];
	DigestTextFault f;
	digest_text_status got;

	memcpy(copy, s, len);
	memset(out, 0xA5, sizeof(out));
	memset(untouched, 0xA5, sizeof(untouched));
	got = digest_text_parse(copy, len, utf8_mblen, out, &f);
	check(got == want, "%s: status %d, want %d", name, (int) got, (int) want);
	if (want == DIGEST_TEXT_UPPERCASE || want == DIGEST_TEXT_NOT_HEX)
		check(f.offset == offset, "%s: offset %zu, want %zu", name, f.offset, offset);
	if (want == DIGEST_TEXT_NOT_HEX)
		check(f.charlen == charlen, "%s: charlen %zu, want %zu", name, f.charlen, charlen);
	if (want == DIGEST_TEXT_LENGTH)
		check(f.hexlen == hexlen, "%s: hexlen %zu, want %zu", name, f.hexlen, hexlen);
	if (want != DIGEST_TEXT_OK)
		check(memcmp(out, untouched, sizeof(out)) == 0,
			  "%s: output written on a fault", name);
	free(copy);
}

/* The fixed cases: one per fault, and the edges of each. */
static void
test_cases(void)
{
	char		buf[256];
	unsigned char out[DIGEST_TEXT_BYTES];
	DigestTextFault f;
	char		text[DIGEST_TEXT_LEN + 1];

	expect("good", GOOD, strlen(GOOD), DIGEST_TEXT_OK, 0, 0, 0);
	check(digest_text_parse(GOOD, strlen(GOOD), NULL, out, &f) == DIGEST_TEXT_OK &&
		  out[0] == 0x08 && out[1] == 0x0e && out[31] == 0xe8,
		  "good: bytes");
	digest_text_format(out, text);
	check(strcmp(text, GOOD) == 0, "good: formats back, got %s", text);

	expect("empty", "", 0, DIGEST_TEXT_PREFIX_MISSING, 0, 0, 0);
	expect("prefix only, short", "sha256", 6, DIGEST_TEXT_PREFIX_MISSING, 0, 0, 0);
	expect("prefix only", "sha256:", 7, DIGEST_TEXT_LENGTH, 0, 0, 0);
	expect("uppercase prefix", "SHA256:00", 9, DIGEST_TEXT_PREFIX_MISSING, 0, 0, 0);
	expect("other algorithm", "sha512:00", 9, DIGEST_TEXT_PREFIX_MISSING, 0, 0, 0);
	expect("leading space", " " GOOD, strlen(GOOD) + 1, DIGEST_TEXT_PREFIX_MISSING, 0, 0, 0);
	expect("NUL in the prefix", "sha\000256:", 8, DIGEST_TEXT_PREFIX_MISSING, 0, 0, 0);
	expect("short", "sha256:abc", 10, DIGEST_TEXT_LENGTH, 0, 0, 3);
	expect("63 digits", GOOD, strlen(GOOD) - 1, DIGEST_TEXT_LENGTH, 0, 0, 63);

	snprintf(buf, sizeof(buf), "%s0", GOOD);
	expect("65 digits", buf, strlen(buf), DIGEST_TEXT_LENGTH, 0, 0, 65);
	snprintf(buf, sizeof(buf), "%s ", GOOD);
	expect("trailing space", buf, strlen(buf), DIGEST_TEXT_NOT_HEX, 71, 1, 0);
	snprintf(buf, sizeof(buf), "%s\n", GOOD);
	expect("trailing newline", buf, strlen(buf), DIGEST_TEXT_NOT_HEX, 71, 1, 0);

	expect("uppercase first", "sha256:A0", 9, DIGEST_TEXT_UPPERCASE, 7, 0, 0);
	expect("uppercase F", "sha256:0F", 9, DIGEST_TEXT_UPPERCASE, 8, 0, 0);
	expect("G is no digit", "sha256:0G", 9, DIGEST_TEXT_NOT_HEX, 8, 1, 0);
	expect("g is no digit", "sha256:0g", 9, DIGEST_TEXT_NOT_HEX, 8, 1, 0);
	expect("a bad character wins over the length", "sha256:abc!", 11,
		   DIGEST_TEXT_NOT_HEX, 10, 1, 0);
	expect("NUL after the prefix", "sha256:ab\000cd", 12, DIGEST_TEXT_NOT_HEX, 9, 1, 0);
	expect("two-byte character", "sha256:0\xc3\xa9", 10, DIGEST_TEXT_NOT_HEX, 8, 2, 0);
	expect("four-byte character", "sha256:\xf0\x9f\x98\x80" "00", 13,
		   DIGEST_TEXT_NOT_HEX, 7, 4, 0);
	expect("truncated character at the end", "sha256:00\xe2\x82", 11,
		   DIGEST_TEXT_NOT_HEX, 9, 2, 0);
	expect("lone lead byte at the end", "sha256:\xf0", 8, DIGEST_TEXT_NOT_HEX, 7, 1, 0);
	expect("continuation byte", "sha256:\x80" "0", 9, DIGEST_TEXT_NOT_HEX, 7, 1, 0);

	/* Without an mblen rule every bad byte is one character. */
	check(digest_text_parse("sha256:\xc3\xa9", 9, NULL, out, &f) == DIGEST_TEXT_NOT_HEX &&
		  f.charlen == 1 && f.offset == 7, "no mblen: charlen 1");
}

/* Every byte value at every position of a good digest. */
static void
test_every_byte(void)
{
	char		buf[DIGEST_TEXT_LEN];
	size_t		pos;
	int			b;

	for (pos = 0; pos < DIGEST_TEXT_LEN; pos++)
	{
		for (b = 0; b < 256; b++)
		{
			char		name[64];
			bool		same = (unsigned char) GOOD[pos] == b;
			bool		hex = (b >= '0' && b <= '9') || (b >= 'a' && b <= 'f');

			memcpy(buf, GOOD, DIGEST_TEXT_LEN);
			buf[pos] = (char) b;
			snprintf(name, sizeof(name), "byte 0x%02x at %zu", b, pos);
			if (same || (pos >= DIGEST_TEXT_PREFIX_LEN && hex))
				expect(name, buf, DIGEST_TEXT_LEN, DIGEST_TEXT_OK, 0, 0, 0);
			else if (pos < DIGEST_TEXT_PREFIX_LEN)
				expect(name, buf, DIGEST_TEXT_LEN, DIGEST_TEXT_PREFIX_MISSING, 0, 0, 0);
			else if (b >= 'A' && b <= 'F')
				expect(name, buf, DIGEST_TEXT_LEN, DIGEST_TEXT_UPPERCASE, pos, 0, 0);
			else
			{
				size_t		l = (size_t) utf8_mblen((unsigned char *) buf + pos);

				if (l > DIGEST_TEXT_LEN - pos)
					l = DIGEST_TEXT_LEN - pos;
				expect(name, buf, DIGEST_TEXT_LEN, DIGEST_TEXT_NOT_HEX, pos, l, 0);
			}
		}
	}
}

/* Random digests format and parse back to themselves. */
static void
test_round_trip(void)
{
	int			n;

	for (n = 0; n < rounds(100000); n++)
	{
		unsigned char d[DIGEST_TEXT_BYTES];
		unsigned char back[DIGEST_TEXT_BYTES];
		char		text[DIGEST_TEXT_LEN + 1];
		DigestTextFault f;
		int			i;

		for (i = 0; i < DIGEST_TEXT_BYTES; i++)
			d[i] = (unsigned char) rnd();
		digest_text_format(d, text);
		if (!check(strlen(text) == DIGEST_TEXT_LEN &&
				   digest_text_parse(text, DIGEST_TEXT_LEN, utf8_mblen, back, &f) == DIGEST_TEXT_OK &&
				   memcmp(d, back, sizeof(d)) == 0,
				   "round trip of %s", text))
			break;
	}
}

/* Run every test. */
int
main(void)
{
	test_cases();
	test_every_byte();
	test_round_trip();
	printf("%ld passed, %ld failed\n", passed, failed);
	return failed == 0 ? 0 : 1;
}
