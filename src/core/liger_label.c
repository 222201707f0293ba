/*-------------------------------------------------------------------------
 *
 * liger_label.c
 *	  The text rules of Liger workload labels (see liger_label.h).
 *
 * Each function reads its regular expression deterministically: none of
 * them needs backtracking, because each optional or repeated part ends
 * where the next one cannot begin.
 *
 * src/core/liger_label.c
 *
 *-------------------------------------------------------------------------
 */
#include "liger_label.h"

#include <string.h>

/* Is c one of a-z, 0-9? */
static inline bool
is_slug_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

/* Is c a decimal digit? */
static inline bool
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Is c an ASCII letter? */
static inline bool
is_letter(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* Does s[0..len) begin with the NUL-terminated prefix p? */
static inline bool
starts_with(const char *s, size_t len, const char *p)
{
	size_t		n = strlen(p);

	return len >= n && memcmp(s, p, n) == 0;
}

/* ^[A-Za-z_][A-Za-z0-9_.]*$ and not true, false, null. */
bool
liger_label_is_bare(const char *s, size_t len)
{
	size_t		i;

	if (len == 0 || !(is_letter(s[0]) || s[0] == '_'))
		return false;
	for (i = 1; i < len; i++)
		if (!(is_letter(s[i]) || is_digit(s[i]) || s[i] == '_' || s[i] == '.'))
			return false;
	return !((len == 4 && memcmp(s, "true", 4) == 0) ||
			 (len == 5 && memcmp(s, "false", 5) == 0) ||
			 (len == 4 && memcmp(s, "null", 4) == 0));
}

/* ^torch\.(float|bfloat|int|uint|complex)[0-9]+(_[a-z0-9]+)?$ */
bool
liger_is_torch_dtype(const char *s, size_t len)
{
	static const char *const kinds[] = {"float", "bfloat", "int", "uint", "complex"};
	size_t		i = 0;
	size_t		k;
	size_t		digits;

	if (!starts_with(s, len, "torch."))
		return false;
	i = 6;
	/* no kind is a prefix of another: at most one matches */
	for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
		if (starts_with(s + i, len - i, kinds[k]))
			break;
	if (k == sizeof(kinds) / sizeof(kinds[0]))
		return false;
	i += strlen(kinds[k]);
	for (digits = 0; i < len && is_digit(s[i]); i++)
		digits++;
	if (digits == 0)
		return false;
	if (i == len)
		return true;
	if (s[i++] != '_' || i == len)
		return false;
	for (; i < len; i++)
		if (!is_slug_char(s[i]))
			return false;
	return true;
}

/* torch.float32 -> fp32, torch.bfloat16 -> bf16, torch.int8 -> int8. */
size_t
liger_dtype_label(const char *s, size_t len, char *out)
{
	const char *prefix = "";
	size_t		skip = 0;
	size_t		plen;

	if (starts_with(s, len, "torch.float") && len > 11 && is_digit(s[11]))
	{
		prefix = "fp";
		skip = 11;
	}
	else if (starts_with(s, len, "torch.bfloat") && len > 12 && is_digit(s[12]))
	{
		prefix = "bf";
		skip = 12;
	}
	else if (starts_with(s, len, "torch."))
		skip = 6;
	plen = strlen(prefix);
	memcpy(out, prefix, plen);
	memcpy(out + plen, s + skip, len - skip);
	return plen + len - skip;
}

/* The leftmost \{[^{}]*\} at or after pos. */
bool
liger_template_next(const char *t, size_t len, size_t pos, LigerPlaceholder *ph)
{
	size_t		i = pos;

	while (i < len)
	{
		size_t		j;

		if (t[i] != '{')
		{
			i++;
			continue;
		}
		/* the first brace after this one decides */
		for (j = i + 1; j < len && t[j] != '{' && t[j] != '}'; j++)
			;
		if (j == len)
			return false;
		if (t[j] == '}')
		{
			ph->start = i;
			ph->end = j + 1;
			return true;
		}
		i = j;					/* another "{": a placeholder may start there */
	}
	return false;
}

/* LIGER_PH_LONE ([^{}*]+), LIGER_PH_PRODUCT (^[^*]+\*[^*]+$) or LIGER_PH_KEY. */
LigerPlaceholderKind
liger_placeholder_kind(const char *k, size_t len, size_t *star)
{
	const char *p = memchr(k, '*', len);
	size_t		at;

	if (p == NULL)
		return len > 0 ? LIGER_PH_LONE : LIGER_PH_KEY;
	at = (size_t) (p - k);
	if (at == 0 || at == len - 1 || memchr(p + 1, '*', len - at - 1) != NULL)
		return LIGER_PH_KEY;
	*star = at;
	return LIGER_PH_PRODUCT;
}

/* Is s exactly -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? ? */
static bool
is_number_text(const char *s, size_t len)
{
	size_t		i = 0;

	if (i < len && s[i] == '-')
		i++;
	if (i < len && s[i] == '0')
		i++;
	else if (i < len && s[i] >= '1' && s[i] <= '9')
		while (i < len && is_digit(s[i]))
			i++;
	else
		return false;
	if (i + 1 < len && s[i] == '.' && is_digit(s[i + 1]))
	{
		i++;
		while (i < len && is_digit(s[i]))
			i++;
	}
	if (i < len && (s[i] == 'e' || s[i] == 'E'))
	{
		size_t		j = i + 1;

		if (j < len && (s[j] == '+' || s[j] == '-'))
			j++;
		if (j < len && is_digit(s[j]))
		{
			i = j;
			while (i < len && is_digit(s[i]))
				i++;
		}
	}
	return i == len;
}

/* A number, a string in every locale, or up to the locale (see liger_label.h). */
LigerXKind
liger_x_kind(const char *s, size_t len)
{
	size_t		i;

	if (is_number_text(s, len))
		return LIGER_X_NUMBER;
	for (i = 0; i < len; i++)
		if ((unsigned char) s[i] < 0x21 || (unsigned char) s[i] > 0x7e)
			return LIGER_X_UNSURE;
	return LIGER_X_STRING;
}
