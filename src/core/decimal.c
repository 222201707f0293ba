/*-------------------------------------------------------------------------
 *
 * decimal.c
 *	  Exact decimal unit conversion (milliseconds to nanoseconds, MiB to
 *	  bytes) without floating point.
 *
 * The input grammar is that of PostgreSQL's numeric_in: optional leading
 * and trailing whitespace, NaN and the infinities in any case, an optional
 * sign, digits with an optional '.' (".5" and "5." are valid), and an
 * optional exponent read like strtol() reads it.  Inputs that numeric_in
 * rejects as "value overflows numeric format" (an exponent of INT_MAX/2 or
 * more in magnitude, more than 16383 digits after the decimal point) are
 * rejected as out of range here too, so that the result is always
 * round(x::numeric * multiplier)::bigint or an error.
 *
 * This file is free of PostgreSQL headers; it needs only C99 and libc.
 *
 * src/core/decimal.c
 *
 *-------------------------------------------------------------------------
 */
#include "decimal.h"

#include <ctype.h>
#include <limits.h>
#include <stdbool.h>

#define DEC_NUMERIC_DSCALE_MAX 16383	/* PostgreSQL's NUMERIC_DSCALE_MAX */
#define DEC_EXPONENT_LIMIT (INT_MAX / 2)	/* numeric_in's exponent bound */

/*
 * If s[0..len) starts with word (ASCII, compared case-insensitively),
 * return its length, else 0.
 */
static size_t
match_word(const char *s, size_t len, const char *word)
{
	size_t		i;

	for (i = 0; word[i] != '\0'; i++)
	{
		if (i >= len ||
			tolower((unsigned char) s[i]) != tolower((unsigned char) word[i]))
			return 0;
	}
	return i;
}

/* Is everything in p[0..end) whitespace? */
static bool
only_space(const char *p, const char *end)
{
	for (; p < end; p++)
	{
		if (!isspace((unsigned char) *p))
			return false;
	}
	return true;
}

/* Parse, scale exactly, round half away from zero and range-check. */
dec_status
dec_scale_round_int64(const char *s, size_t len, uint32_t multiplier,
					  int64_t *result)
{
	static const char *const specials[] = {
		"NaN", "Infinity", "+Infinity", "-Infinity", "inf", "+inf", "-inf"
	};
	const char *p = s;
	const char *end = s + len;
	const char *mant_start;
	const char *mant_end;
	bool		neg = false;
	bool		seen_dot = false;
	int64_t		int_digits = 0;
	int64_t		frac_digits = 0;
	int64_t		ndigits;
	int64_t		exponent = 0;
	int64_t		dscale;
	int64_t		split;
	int64_t		idx;
	uint64_t	ipart = 0;
	uint64_t	mag;
	uint64_t	carry = 0;
	uint64_t	twice_m = (uint64_t) multiplier * 2;
	size_t		i;

	/* leading whitespace */
	while (p < end && isspace((unsigned char) *p))
		p++;
	if (p == end)
		return DEC_EMPTY;

	/* NaN and infinities, in numeric_in's order of checking */
	for (i = 0; i < sizeof(specials) / sizeof(specials[0]); i++)
	{
		size_t		n = match_word(p, (size_t) (end - p), specials[i]);

		if (n > 0)
		{
			if (!only_space(p + n, end))
				return DEC_SYNTAX;
			return (i == 0) ? DEC_NAN : DEC_INFINITE;
		}
	}

	/* sign, then a digit or a '.' followed by a digit */
	if (*p == '+' || *p == '-')
	{
		neg = (*p == '-');
		p++;
	}
	mant_start = p;
	if (p < end && *p == '.')
	{
		seen_dot = true;
		p++;
	}
	if (p == end || !isdigit((unsigned char) *p))
		return DEC_SYNTAX;

	for (; p < end; p++)
	{
		if (isdigit((unsigned char) *p))
		{
			if (seen_dot)
				frac_digits++;
			else
				int_digits++;
		}
		else if (*p == '.')
		{
			if (seen_dot)
				return DEC_SYNTAX;
			seen_dot = true;
		}
		else
			break;
	}
	mant_end = p;

	/* exponent, read as strtol() would: whitespace, sign, digits */
	if (p < end && (*p == 'e' || *p == 'E'))
	{
		bool		eneg = false;
		bool		edigit = false;

		p++;
		while (p < end && isspace((unsigned char) *p))
			p++;
		if (p < end && (*p == '+' || *p == '-'))
		{
			eneg = (*p == '-');
			p++;
		}
		for (; p < end && isdigit((unsigned char) *p); p++)
		{
			edigit = true;
			if (exponent < DEC_EXPONENT_LIMIT)
				exponent = exponent * 10 + (*p - '0');
		}
		if (!edigit)
			return DEC_SYNTAX;
		if (exponent >= DEC_EXPONENT_LIMIT)
			return DEC_OUT_OF_RANGE;
		if (eneg)
			exponent = -exponent;
	}
	if (!only_space(p, end))
		return DEC_SYNTAX;

	/* numeric cannot store more than 16383 digits after the point */
	dscale = frac_digits - exponent;
	if (dscale > DEC_NUMERIC_DSCALE_MAX)
		return DEC_OUT_OF_RANGE;

	if (multiplier == 0)
	{
		*result = 0;
		return DEC_OK;
	}

	/*
	 * The value is the digit string D (ndigits digits) times 10^(exponent -
	 * frac_digits).  Its first "split" digits form the integer part, the
	 * rest (preceded by -split zeros if split < 0) the fraction.
	 */
	ndigits = int_digits + frac_digits;
	split = int_digits + exponent;

	/* integer part, exactly, bailing out once it exceeds 2^64 / 10 */
	idx = 0;
	for (p = mant_start; p < mant_end && idx < split; p++)
	{
		if (*p == '.')
			continue;
		if (ipart > (UINT64_MAX - 9) / 10)
			return DEC_OUT_OF_RANGE;
		ipart = ipart * 10 + (uint64_t) (*p - '0');
		idx++;
	}
	if (ipart != 0)
	{
		int64_t		zeros;

		for (zeros = split - ndigits; zeros > 0; zeros--)
		{
			if (ipart > UINT64_MAX / 10)
				return DEC_OUT_OF_RANGE;
			ipart *= 10;
		}
		if (ipart > UINT64_MAX / multiplier)
			return DEC_OUT_OF_RANGE;
	}
	mag = ipart * multiplier;

	/*
	 * Fraction F: carry = floor(F * 2 * multiplier), computed by long
	 * multiplication from the last digit leftwards.  Its low bit says
	 * whether F * multiplier has a fractional part of at least one half.
	 * Since 2 * multiplier < 10^10, once eleven or more zeros precede the
	 * first fraction digit the product is below one and carry stays zero.
	 */
	if (split > -11)
	{
		int64_t		first_frac = split > 0 ? split : 0;
		int64_t		zeros;
		size_t		pos = (size_t) (mant_end - mant_start);

		idx = ndigits - 1;
		while (pos > 0 && idx >= first_frac)
		{
			char		c = mant_start[--pos];

			if (c == '.')
				continue;
			carry = ((uint64_t) (c - '0') * twice_m + carry) / 10;
			idx--;
		}
		for (zeros = -split; zeros > 0; zeros--)
			carry /= 10;
	}

	/* add floor(F * multiplier) and round half away from zero */
	{
		uint64_t	add = (carry >> 1) + (carry & 1);

		if (mag > UINT64_MAX - add)
			return DEC_OUT_OF_RANGE;
		mag += add;
	}

	if (neg)
	{
		if (mag > (uint64_t) INT64_MAX + 1)
			return DEC_OUT_OF_RANGE;
		*result = (mag == (uint64_t) INT64_MAX + 1) ? INT64_MIN : -(int64_t) mag;
	}
	else
	{
		if (mag > (uint64_t) INT64_MAX)
			return DEC_OUT_OF_RANGE;
		*result = (int64_t) mag;
	}
	return DEC_OK;
}

/*
 * dec_pow2_quotient
 *
 * value / 2^shift is a whole number when the value's lowest set bit is at
 * or above the shift; else, with value = m * 2^t (m odd, t < shift), it is
 * m / 2^(shift - t) = m * 5^(shift - t) / 10^(shift - t), whose last digit
 * is that of an odd multiple of 5: 5, so no scale is shorter.
 */
bool
dec_pow2_quotient(int64_t value, int shift, int64_t *mantissa, int *scale)
{
	int			t = 0;
	int			k;
	int64_t		m;

	if (shift < 0 || shift > 62)
		return false;
	if (value == 0)
	{
		*mantissa = 0;
		*scale = 0;
		return true;
	}
	while (t < shift && ((uint64_t) value & ((uint64_t) 1 << t)) == 0)
		t++;
	if (t == shift)
	{
		/* a multiple of 2^shift: the division is exact */
		*mantissa = value / ((int64_t) 1 << shift);
		*scale = 0;
		return true;
	}
	m = value / ((int64_t) 1 << t);
	for (k = 0; k < shift - t; k++)
	{
		if (m > INT64_MAX / 5 || m < INT64_MIN / 5)
			return false;
		m *= 5;
	}
	*mantissa = m;
	*scale = shift - t;
	return true;
}
