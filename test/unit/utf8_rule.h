/*-------------------------------------------------------------------------
 *
 * utf8_rule.h
 *	  The server's UTF-8 character length rule (pg_utf_mblen), for the
 *	  unit tests and fuzz harnesses that hand src/core an mblen callback.
 *
 * test/unit/utf8_rule.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef KIDX_UTF8_RULE_H
#define KIDX_UTF8_RULE_H

/* Length of the UTF-8 character at s, from its first byte (reads one byte). */
static inline int
utf8_mblen(const unsigned char *s)
{
	if (*s < 0x80)
		return 1;
	if ((*s & 0xE0) == 0xC0)
		return 2;
	if ((*s & 0xF0) == 0xE0)
		return 3;
	if ((*s & 0xF8) == 0xF0)
		return 4;
	return 1;
}

#endif							/* KIDX_UTF8_RULE_H */
