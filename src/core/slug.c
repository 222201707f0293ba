/*-------------------------------------------------------------------------
 *
 * slug.c
 *	  The slug and name-cut rules of resource names (see slug.h).
 *
 * src/core/slug.c
 *
 *-------------------------------------------------------------------------
 */
#include "slug.h"

#include <stdbool.h>

/* Is c one of a-z, 0-9? */
static inline bool
is_slug_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

/* The slug of a lowercase string (see slug.h). */
size_t
kidx_slug_lowered(const char *s, size_t len, char *out)
{
	size_t		n = 0;
	bool		gap = false;
	size_t		i;

	for (i = 0; i < len; i++)
	{
		if (!is_slug_char(s[i]))
		{
			gap = true;
			continue;
		}
		if (gap && n > 0)
			out[n++] = '-';
		gap = false;
		out[n++] = s[i];
	}
	return n;
}

/* rtrim(left(name, max), '-') of an ASCII name: its length. */
size_t
kidx_name_cut(const char *name, size_t len, size_t max)
{
	size_t		n = len < max ? len : max;

	while (n > 0 && name[n - 1] == '-')
		n--;
	return n;
}
