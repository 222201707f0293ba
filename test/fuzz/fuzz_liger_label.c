/*-------------------------------------------------------------------------
 *
 * fuzz_liger_label.c
 *	  libFuzzer harness for src/core/liger_label.c: slugs, name cuts, bare
 *	  values, torch dtypes, label templates and x values.
 *
 * Every function runs on the whole input (arbitrary bytes), each output in
 * a buffer exactly as long as the function promises (so that ASan catches
 * an overrun), and is checked against a plain reference written here from
 * the regular expression the function stands for:
 *	- the slug has only a-z, 0-9 and single inner hyphens, is its own slug
 *	  and is the reference's (runs replaced, then ends trimmed);
 *	- a name cut is a prefix of at most 100 bytes without a trailing hyphen,
 *	  the longest such prefix;
 *	- a torch dtype is bare, and its short form is the reference's;
 *	- the placeholders found are the reference's leftmost \{[^{}]*\}
 *	  matches, with the kind their stars give;
 *	- an x value is a number exactly when the reference grammar says so, a
 *	  string in every locale only when it has no byte outside 0x21-0x7E.
 *
 * test/fuzz/fuzz_liger_label.c
 *
 *-------------------------------------------------------------------------
 */
#include <stdbool.h>
#include <string.h>

#include "fuzz_common.h"
#include "../../src/core/liger_label.h"
#include "../../src/core/slug.h"

/* Is c one of a-z, 0-9? */
static bool
slug_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

/* Reference slug: replace each maximal run, then trim the ends. */
static size_t
ref_slug(const char *s, size_t len, char *out)
{
	size_t		n = 0;
	size_t		i = 0;
	size_t		start = 0;

	while (i < len)
	{
		if (slug_char(s[i]))
			out[n++] = s[i++];
		else
		{
			out[n++] = '-';
			while (i < len && !slug_char(s[i]))
				i++;
		}
	}
	while (start < n && out[start] == '-')
		start++;
	while (n > start && out[n - 1] == '-')
		n--;
	memmove(out, out + start, n - start);
	return n - start;
}

/* Reference: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? by backtracking. */
static bool
ref_digits(const char *s, size_t len, size_t i, size_t *end)
{
	size_t		j = i;

	while (j < len && s[j] >= '0' && s[j] <= '9')
		j++;
	*end = j;
	return j > i;
}

static bool
ref_number(const char *s, size_t len)
{
	size_t		i = 0;
	size_t		j;

	if (i < len && s[i] == '-')
		i++;
	if (i < len && s[i] == '0')
		i++;
	else if (i < len && s[i] >= '1' && s[i] <= '9')
		ref_digits(s, len, i, &i);
	else
		return false;
	if (i < len && s[i] == '.')
	{
		if (!ref_digits(s, len, i + 1, &j))
			return false;		/* "." can only start the fraction */
		i = j;
	}
	if (i < len && (s[i] == 'e' || s[i] == 'E'))
	{
		j = i + 1;
		if (j < len && (s[j] == '+' || s[j] == '-'))
			j++;
		if (!ref_digits(s, len, j, &j))
			return false;
		i = j;
	}
	return i == len;
}

/* One fuzz iteration. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *) data;
	char	   *out = malloc(size + 1);
	char	   *ref = malloc(size + 1);
	size_t		n;
	size_t		m;
	size_t		i;
	size_t		pos;
	LigerPlaceholder ph;
	LigerXKind kind;
	bool		printable = true;

	/* slug */
	n = kidx_slug_lowered(s, size, out);
	m = ref_slug(s, size, ref);
	FUZZ_ASSERT(n == m && memcmp(out, ref, n) == 0, "slug of %zu bytes differs from the reference", size);
	for (i = 0; i < n; i++)
		FUZZ_ASSERT(slug_char(out[i]) || (out[i] == '-' && i > 0 && i < n - 1 && out[i - 1] != '-'),
					"slug byte %zu is 0x%02x", i, (unsigned char) out[i]);
	m = kidx_slug_lowered(out, n, ref);
	FUZZ_ASSERT(m == n && memcmp(out, ref, n) == 0, "a slug's slug differs");

	/* name cut */
	n = kidx_name_cut(s, size, KIDX_NAME_MAX);
	m = size < KIDX_NAME_MAX ? size : KIDX_NAME_MAX;
	while (m > 0 && s[m - 1] == '-')
		m--;
	FUZZ_ASSERT(n == m, "cut to %zu, expected %zu", n, m);

	/* bare values and dtypes */
	if (liger_is_torch_dtype(s, size))
		FUZZ_ASSERT(liger_label_is_bare(s, size) && size > 6 && memcmp(s, "torch.", 6) == 0,
					"a torch dtype that is not bare");
	{
		char	   *shortened = malloc(size > 0 ? size : 1);

		n = liger_dtype_label(s, size, shortened);
		if (size > 11 && memcmp(s, "torch.float", 11) == 0 && s[11] >= '0' && s[11] <= '9')
			FUZZ_ASSERT(n == size - 9 && memcmp(shortened, "fp", 2) == 0 &&
						memcmp(shortened + 2, s + 11, size - 11) == 0, "fp dtype");
		else if (size > 12 && memcmp(s, "torch.bfloat", 12) == 0 && s[12] >= '0' && s[12] <= '9')
			FUZZ_ASSERT(n == size - 10 && memcmp(shortened, "bf", 2) == 0 &&
						memcmp(shortened + 2, s + 12, size - 12) == 0, "bf dtype");
		else if (size >= 6 && memcmp(s, "torch.", 6) == 0)
			FUZZ_ASSERT(n == size - 6 && memcmp(shortened, s + 6, n) == 0, "torch. dtype");
		else
			FUZZ_ASSERT(n == size && memcmp(shortened, s, n) == 0, "other dtype");
		free(shortened);
	}

	/* template: the reference scans every "{" */
	pos = 0;
	i = 0;
	while (liger_template_next(s, size, pos, &ph))
	{
		size_t		j = 0;
		size_t		star = 0;
		size_t		stars = 0;
		size_t		at = 0;
		LigerPlaceholderKind k;

		for (; i < size; i++)
		{
			if (s[i] != '{')
				continue;
			for (j = i + 1; j < size && s[j] != '{' && s[j] != '}'; j++)
				;
			if (j < size && s[j] == '}')
				break;
		}
		FUZZ_ASSERT(i < size && ph.start == i && ph.end == j + 1,
					"placeholder at %zu-%zu, the reference's at %zu", ph.start, ph.end, i);
		k = liger_placeholder_kind(s + ph.start + 1, ph.end - ph.start - 2, &star);
		for (j = ph.start + 1; j < ph.end - 1; j++)
			if (s[j] == '*')
			{
				stars++;
				at = j - ph.start - 1;
			}
		if (stars == 0)
			FUZZ_ASSERT(k == (ph.end - ph.start > 2 ? LIGER_PH_LONE : LIGER_PH_KEY), "kind without a star");
		else if (stars == 1 && at > 0 && at < ph.end - ph.start - 3)
			FUZZ_ASSERT(k == LIGER_PH_PRODUCT && star == at, "product kind");
		else
			FUZZ_ASSERT(k == LIGER_PH_KEY, "kind with stars");
		pos = ph.end;
		i = ph.end;
	}
	for (; i < size; i++)
	{
		size_t		j;

		if (s[i] != '{')
			continue;
		for (j = i + 1; j < size && s[j] != '{' && s[j] != '}'; j++)
			;
		FUZZ_ASSERT(j == size || s[j] != '}', "placeholder at %zu missed", i);
	}

	/* x values */
	for (i = 0; i < size; i++)
		printable = printable && data[i] >= 0x21 && data[i] <= 0x7e;
	kind = liger_x_kind(s, size);
	FUZZ_ASSERT((kind == LIGER_X_NUMBER) == ref_number(s, size), "number or not");
	if (kind != LIGER_X_NUMBER)
		FUZZ_ASSERT((kind == LIGER_X_STRING) == printable, "string or unsure");

	free(out);
	free(ref);
	return 0;
}
