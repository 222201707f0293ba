/*-------------------------------------------------------------------------
 *
 * digesttext.c
 *	  The text form of a SHA-256 content digest (see digesttext.h).
 *
 * The first fault wins, in reading order: a missing prefix, then the first
 * byte after it that is not a lowercase hex digit, then the length.  So
 * "sha256:abc!" is a bad character, not a bad length, and the message can
 * point at it.
 *
 * src/core/digesttext.c
 *
 *-------------------------------------------------------------------------
 */
#include "digesttext.h"

#include <string.h>

static const char hexdigits[] = "0123456789abcdef";

/* Value of a lowercase hex digit, or -1 for any other byte. */
static inline int
hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* Parse the text form of a digest; see digesttext.h. */
digest_text_status
digest_text_parse(const char *s, size_t len, digest_mblen_fn mblen,
				  unsigned char *out, DigestTextFault *fault)
{
	const char *hex;
	size_t		hexlen;
	size_t		i;

	memset(fault, 0, sizeof(*fault));
	if (len < DIGEST_TEXT_PREFIX_LEN ||
		memcmp(s, DIGEST_TEXT_PREFIX, DIGEST_TEXT_PREFIX_LEN) != 0)
		return DIGEST_TEXT_PREFIX_MISSING;

	hex = s + DIGEST_TEXT_PREFIX_LEN;
	hexlen = len - DIGEST_TEXT_PREFIX_LEN;
	for (i = 0; i < hexlen; i++)
	{
		unsigned char c = (unsigned char) hex[i];

		if (hex_value(c) >= 0)
			continue;
		fault->offset = DIGEST_TEXT_PREFIX_LEN + i;
		if (c >= 'A' && c <= 'F')
			return DIGEST_TEXT_UPPERCASE;
		fault->charlen = 1;
		if (c >= 0x80 && mblen != NULL)
		{
			int			l = mblen((const unsigned char *) hex + i);

			if (l > 1)
				fault->charlen = (size_t) l < hexlen - i ? (size_t) l : hexlen - i;
		}
		return DIGEST_TEXT_NOT_HEX;
	}
	if (hexlen != DIGEST_TEXT_HEX_LEN)
	{
		fault->hexlen = hexlen;
		return DIGEST_TEXT_LENGTH;
	}
	for (i = 0; i < DIGEST_TEXT_BYTES; i++)
		out[i] = (unsigned char) ((hex_value(hex[2 * i]) << 4) |
								  hex_value(hex[2 * i + 1]));
	return DIGEST_TEXT_OK;
}

/* Write the text form of a digest; see digesttext.h. */
void
digest_text_format(const unsigned char *digest, char *buf)
{
	char	   *p = buf;
	int			i;

	memcpy(p, DIGEST_TEXT_PREFIX, DIGEST_TEXT_PREFIX_LEN);
	p += DIGEST_TEXT_PREFIX_LEN;
	for (i = 0; i < DIGEST_TEXT_BYTES; i++)
	{
		*p++ = hexdigits[digest[i] >> 4];
		*p++ = hexdigits[digest[i] & 0x0F];
	}
	*p = '\0';
}
