/*-------------------------------------------------------------------------
 *
 * release.c
 *	  Release labels in version order (see release.h).
 *
 * The key is a sequence of items: each number as 0x10 and eight bytes, big
 * endian; then 0x01, the pre-release tag's rank and its number for a
 * pre-release, or 0x08 for a release.  0x01 < 0x08 < 0x10 makes a
 * pre-release sort before its release and both before a longer version.
 *
 * src/core/release.c
 *
 *-------------------------------------------------------------------------
 */
#include "release.h"

#include <stdint.h>
#include <string.h>

#define ITEM_PRE		0x01
#define ITEM_END		0x08
#define ITEM_NUMBER		0x10

/* Pre-release tags, by rank. */
static const struct
{
	const char *tag;
	unsigned char rank;
}			tags[] = {
	{"alpha", 2}, {"beta", 3}, {"preview", 4}, {"dev", 1}, {"pre", 4}, {"rc", 4}, {"a", 2}, {"b", 3}
};

/* Append eight big-endian bytes. */
static void
put64(unsigned char *out, size_t *n, uint64_t v)
{
	int			i;

	for (i = 7; i >= 0; i--)
		out[(*n)++] = (unsigned char) (v >> (8 * i));
}

/* Read a decimal number of at most 18 digits at s[*i]; false if none. */
static int
number(const char *s, size_t len, size_t *i, uint64_t *v)
{
	size_t		start = *i;

	*v = 0;
	while (*i < len && s[*i] >= '0' && s[*i] <= '9')
	{
		if (*i - start >= 18)
			return 0;
		*v = *v * 10 + (uint64_t) (s[*i] - '0');
		(*i)++;
	}
	return *i > start;
}

/* Lowercase of an ASCII letter. */
static char
lower(char c)
{
	return (c >= 'A' && c <= 'Z') ? (char) (c - 'A' + 'a') : c;
}

/* The version key of a release label; see release.h. */
size_t
release_version_key(const char *s, size_t len, unsigned char *out)
{
	uint64_t	nums[24];
	int			nnums = 0;
	size_t		i = 0;
	size_t		n = 0;
	int			k;

	if (len > 0 && (s[0] == 'v' || s[0] == 'V'))
		i++;
	for (;;)
	{
		if (nnums == 24 || !number(s, len, &i, &nums[nnums]))
			return 0;
		nnums++;
		if (i + 1 < len && s[i] == '.' && s[i + 1] >= '0' && s[i + 1] <= '9')
		{
			i++;
			continue;
		}
		break;
	}
	while (nnums > 1 && nums[nnums - 1] == 0)
		nnums--;
	for (k = 0; k < nnums; k++)
	{
		out[n++] = ITEM_NUMBER;
		put64(out, &n, nums[k]);
	}
	if (i == len)
	{
		out[n++] = ITEM_END;
		return n;
	}

	/* a pre-release */
	if (s[i] == '-' || s[i] == '.')
		i++;
	for (k = 0; k < (int) (sizeof(tags) / sizeof(tags[0])); k++)
	{
		size_t		tl = strlen(tags[k].tag);
		size_t		j;

		if (len - i < tl)
			continue;
		for (j = 0; j < tl; j++)
			if (lower(s[i + j]) != tags[k].tag[j])
				break;
		if (j == tl)
			break;
	}
	if (k == (int) (sizeof(tags) / sizeof(tags[0])))
		return 0;
	i += strlen(tags[k].tag);
	out[n++] = ITEM_PRE;
	out[n++] = tags[k].rank;
	{
		uint64_t	pre = 0;

		/* an optional number, after an optional "." or "-" */
		if (i < len && (s[i] == '.' || s[i] == '-'))
		{
			i++;
			if (!number(s, len, &i, &pre))
				return 0;
		}
		else if (i < len && !number(s, len, &i, &pre))
			return 0;
		if (i != len)
			return 0;
		put64(out, &n, pre);
	}
	return n;
}
