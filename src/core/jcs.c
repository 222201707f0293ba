/*-------------------------------------------------------------------------
 *
 * jcs.c
 *	  RFC 8785 (JSON Canonicalization Scheme) building blocks: string
 *	  escaping, UTF-16 key order and ECMAScript number formatting.
 *
 * Shortest round-trip digits come from the Schubfach algorithm (Raffaello
 * Giulietti, "The Schubfach way to render doubles", 2020), written here from
 * the paper; its 128-bit powers of ten are generated exactly by
 * gen_jcs_pow10.js into jcs_pow10.h.  Schubfach yields the shortest decimal
 * in the rounding interval and, among those, the one closest to the double
 * (ties to even), which is what ECMAScript's Number.prototype.toString
 * prescribes.
 *
 * Why not PostgreSQL's own Ryu (src/common/d2s.c,
 * double_to_shortest_decimal_bufn, which the server exports): it is not
 * shortest where ECMAScript is.  PostgreSQL builds d2s.c without
 * STRICTLY_SHORTEST, so acceptBounds is false: a decimal lying exactly on
 * the boundary of the double's rounding interval (which round-half-even
 * reads back as this double) is refused, and Ryu prints one digit more.
 * test/unit/ryu_compare.c (make -C test/unit ryu) compares both, as final
 * ECMAScript text, with V8's String(x) (test/unit/gen_v8_doubles.js) on
 * the same doubles:
 *
 *	doubles							Schubfach	Ryu mismatches
 *	28,548 special cases			0			26
 *	3,999,031 random (seed default)	0			17,214
 *	3,999,037 random (seed 7)		0			17,228
 *
 * Every Ryu mismatch is a longer text whose V8 form lies on the interval
 * boundary: 0x44b52d02c7e14af6 is "1e+23" in V8, "9.999999999999999e+22"
 * from Ryu; 2^54 + 8 is "18014398509481990" in V8, "18014398509481992"
 * from Ryu.  Nearly all are integers between 2^53 and 2^80 (3.4% of the
 * generator's random ones there); 27 of the default seed's are short
 * decimals such as 3.2e24 ("3.1999999999999997e+24" from Ryu), which
 * jcs_number_from_decimal() would then refuse as inexact.  No subnormal and
 * no random bit pattern differed; of the powers of ten and their
 * neighbours only 1e23 did.
 *
 * Speed, ns per number, best of five rounds over the same 4,056,127
 * doubles (special + default seed, gcc -O2, two shared cores, three runs):
 * ECMAScript text 60-77 (Schubfach) against 71-83 (Ryu's text read back
 * into digits and laid out by ecma_layout() below); the digits alone 22-24
 * (Schubfach) against 39-50 (Ryu with its own text, all that libpgcommon
 * exposes).  Schubfach is kept: it is exact and not slower.
 *
 * This file is free of PostgreSQL headers; it needs only C99 and libc.
 *
 * src/core/jcs.c
 *
 *-------------------------------------------------------------------------
 */
#include "jcs.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jcs_pow10.h"

#define JCS_DBL_MANT_BITS 52
#define JCS_DBL_EXP_BIAS 1075	/* value = c * 2^(exp_field - 1075) */

static const uint64_t jcs_pow10_u64[20] = {
	UINT64_C(1), UINT64_C(10), UINT64_C(100), UINT64_C(1000),
	UINT64_C(10000), UINT64_C(100000), UINT64_C(1000000),
	UINT64_C(10000000), UINT64_C(100000000), UINT64_C(1000000000),
	UINT64_C(10000000000), UINT64_C(100000000000),
	UINT64_C(1000000000000), UINT64_C(10000000000000),
	UINT64_C(100000000000000), UINT64_C(1000000000000000),
	UINT64_C(10000000000000000), UINT64_C(100000000000000000),
	UINT64_C(1000000000000000000), UINT64_C(10000000000000000000)
};

/* powers of ten that are exact doubles */
static const double jcs_pow10_dbl[23] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22
};


/* ----------------------------------------------------------------
 *		Strings
 * ----------------------------------------------------------------
 */

/* Write the quoted, RFC 8785-escaped form of a UTF-8 string. */
void
jcs_write_string(const char *s, size_t len, jcs_write_fn w, void *arg)
{
	static const char hexdigits[] = "0123456789abcdef";
	const unsigned char *u = (const unsigned char *) s;
	size_t		start = 0;
	size_t		i;

	w(arg, "\"", 1);
	for (i = 0; i < len; i++)
	{
		unsigned char c = u[i];
		char		esc[6];
		size_t		elen = 2;

		if (c >= 0x20 && c != '"' && c != '\\')
			continue;

		/* flush the run of bytes that need no escaping */
		if (i > start)
			w(arg, s + start, i - start);
		start = i + 1;

		esc[0] = '\\';
		switch (c)
		{
			case '"':
				esc[1] = '"';
				break;
			case '\\':
				esc[1] = '\\';
				break;
			case '\b':
				esc[1] = 'b';
				break;
			case '\t':
				esc[1] = 't';
				break;
			case '\n':
				esc[1] = 'n';
				break;
			case '\f':
				esc[1] = 'f';
				break;
			case '\r':
				esc[1] = 'r';
				break;
			default:
				esc[1] = 'u';
				esc[2] = '0';
				esc[3] = '0';
				esc[4] = hexdigits[c >> 4];
				esc[5] = hexdigits[c & 0xf];
				elen = 6;
				break;
		}
		w(arg, esc, elen);
	}
	if (len > start)
		w(arg, s + start, len - start);
	w(arg, "\"", 1);
}

/*
 * Compare two valid UTF-8 strings by UTF-16 code units.
 *
 * UTF-8 byte order is code point order.  UTF-16 order differs from it only
 * when, at the first differing code point, one side is a supplementary
 * character (4-byte UTF-8, lead byte F0..F4, encoded as surrogates
 * D800..DFFF) and the other lies in U+E000..U+FFFF (lead byte EE or EF).
 * Bytes that differ after an identical prefix are either both lead bytes or
 * both continuation bytes of same-length sequences, so checking the two
 * differing bytes is enough.
 */
int
jcs_compare_keys(const char *a, size_t alen, const char *b, size_t blen)
{
	const unsigned char *ua = (const unsigned char *) a;
	const unsigned char *ub = (const unsigned char *) b;
	size_t		n = alen < blen ? alen : blen;
	size_t		i = 0;
	unsigned char ca,
				cb;

	/* skip the common prefix, eight bytes at a time where possible */
	while (i + 8 <= n && memcmp(ua + i, ub + i, 8) == 0)
		i += 8;
	while (i < n && ua[i] == ub[i])
		i++;
	if (i == n)
		return (alen < blen) ? -1 : (alen > blen) ? 1 : 0;

	ca = ua[i];
	cb = ub[i];
	if (ca >= 0xF0 && (cb == 0xEE || cb == 0xEF))
		return -1;
	if (cb >= 0xF0 && (ca == 0xEE || ca == 0xEF))
		return 1;
	return (ca < cb) ? -1 : 1;
}


/* ----------------------------------------------------------------
 *		Shortest digits (Schubfach)
 * ----------------------------------------------------------------
 */

/* floor(log10(2^e)), valid for |e| <= 1200 (checked by the generator) */
static inline int
floor_log10_pow2(int e)
{
	return (e * 1262611) >> 22;
}

/* floor(log10(3/4 * 2^e)), valid for |e| <= 1200 */
static inline int
floor_log10_three_quarters_pow2(int e)
{
	return (e * 1262611 - 524031) >> 22;
}

/* floor(log2(10^e)), valid for |e| <= 700 */
static inline int
floor_log2_pow10(int e)
{
	return (e * 1741647) >> 19;
}

/* Full 64x64 -> 128-bit product of a and b, as high and low halves. */
static inline void
umul128(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo)
{
#if defined(__SIZEOF_INT128__)
	__extension__ typedef unsigned __int128 jcs_u128;
	jcs_u128	p = (jcs_u128) a * b;

	*hi = (uint64_t) (p >> 64);
	*lo = (uint64_t) p;
#else
	uint64_t	a0 = (uint32_t) a,
				a1 = a >> 32,
				b0 = (uint32_t) b,
				b1 = b >> 32;
	uint64_t	p00 = a0 * b0,
				p01 = a0 * b1,
				p10 = a1 * b0,
				p11 = a1 * b1;
	uint64_t	mid = (p00 >> 32) + (uint32_t) p01 + (uint32_t) p10;

	*hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
	*lo = (mid << 32) | (uint32_t) p00;
#endif
}

/*
 * Round-to-odd approximation of g * cp / 2^128, where g is the 128-bit
 * table value (hi, lo).  The integer part is exact; the lowest bit is set
 * when the (true) fraction is nonzero, which makes comparisons of the result
 * with even integers exact.
 */
static inline uint64_t
round_to_odd(const uint64_t *g, uint64_t cp)
{
	uint64_t	x_hi,
				x_lo,
				y_hi,
				y_lo,
				z;

	umul128(g[1], cp, &x_hi, &x_lo);
	umul128(g[0], cp, &y_hi, &y_lo);
	(void) x_lo;
	z = y_lo + x_hi;
	y_hi += (z < x_hi);
	return y_hi | (z != 0);
}

/*
 * Shortest decimal s * 10^k in the rounding interval of c * 2^q, closest to
 * it, ties to even digit; s has no trailing zeros.  lower_closer says the
 * predecessor double is half as far away (c is a power of two).
 */
static void
schubfach(uint64_t c, int q, bool lower_closer, uint64_t *digits, int *exp10)
{
	bool		is_even = (c & 1) == 0;
	uint64_t	cb = c << 2;
	uint64_t	cbl = cb - 2 + (lower_closer ? 1 : 0);
	uint64_t	cbr = cb + 2;
	int			k;
	int			h;
	const uint64_t *g;
	uint64_t	vbl,
				vb,
				vbr,
				lower,
				upper,
				s;
	uint64_t	result;
	int			rexp;

	k = lower_closer ? floor_log10_three_quarters_pow2(q) : floor_log10_pow2(q);
	h = q + floor_log2_pow10(-k) + 1;
	g = jcs_pow10_g[k - JCS_POW10_MIN_K];

	vbl = round_to_odd(g, cbl << h);
	vb = round_to_odd(g, cb << h);
	vbr = round_to_odd(g, cbr << h);
	lower = vbl + (is_even ? 0 : 1);
	upper = vbr - (is_even ? 0 : 1);

	s = vb >> 2;
	if (s >= 10)
	{
		/* is exactly one of the two one-digit-shorter candidates inside? */
		uint64_t	sp = s / 10;
		bool		u_in = lower <= 40 * sp;
		bool		w_in = 40 * sp + 40 <= upper;

		if (u_in != w_in)
		{
			result = w_in ? sp + 1 : sp;
			rexp = k + 1;
			goto strip;
		}
	}
	{
		bool		u_in = lower <= 4 * s;
		bool		w_in = 4 * s + 4 <= upper;

		if (u_in != w_in)
			result = w_in ? s + 1 : s;
		else
		{
			/* both inside: take the closer one, ties to even */
			uint64_t	mid = 4 * s + 2;
			bool		up = vb > mid || (vb == mid && (s & 1) != 0);

			result = up ? s + 1 : s;
		}
		rexp = k;
	}

strip:
	while (result % 10 == 0)
	{
		result /= 10;
		rexp++;
	}
	*digits = result;
	*exp10 = rexp;
}

/*
 * Shortest digits of a finite, nonzero, positive double given as its bits.
 */
static void
shortest_digits(uint64_t bits, uint64_t *digits, int *exp10)
{
	uint64_t	mant = bits & ((UINT64_C(1) << JCS_DBL_MANT_BITS) - 1);
	int			ef = (int) ((bits >> JCS_DBL_MANT_BITS) & 0x7ff);
	uint64_t	c;
	int			q;

	if (ef == 0)
	{
		/* subnormal: same spacing as the smallest normals */
		schubfach(mant, 1 - JCS_DBL_EXP_BIAS, false, digits, exp10);
		return;
	}

	c = mant | (UINT64_C(1) << JCS_DBL_MANT_BITS);
	q = ef - JCS_DBL_EXP_BIAS;

	/*
	 * Integers below 2^53 are their own shortest form: the rounding interval
	 * is at most one unit wide, so no other decimal with as few digits fits.
	 */
	if (q <= 0 && q > -JCS_DBL_MANT_BITS - 1 &&
		(c & ((UINT64_C(1) << -q) - 1)) == 0)
	{
		uint64_t	v = c >> -q;
		int			e = 0;

		while (v % 10 == 0)
		{
			v /= 10;
			e++;
		}
		*digits = v;
		*exp10 = e;
		return;
	}

	schubfach(c, q, mant == 0 && ef > 1, digits, exp10);
}


/* ----------------------------------------------------------------
 *		ECMAScript text
 * ----------------------------------------------------------------
 */

/*
 * Lay out k digits dig[] with decimal point position n (the value is
 * 0.dig * 10^n) as Number.prototype.toString does.  Returns the length.
 */
static int
ecma_layout(bool neg, const char *dig, int k, int n, char *out)
{
	char	   *p = out;

	if (neg)
		*p++ = '-';
	if (k <= n && n <= 21)
	{
		/* integer: digits followed by n - k zeros */
		memcpy(p, dig, (size_t) k);
		p += k;
		memset(p, '0', (size_t) (n - k));
		p += n - k;
	}
	else if (0 < n && n <= 21)
	{
		/* decimal point inside the digits */
		memcpy(p, dig, (size_t) n);
		p += n;
		*p++ = '.';
		memcpy(p, dig + n, (size_t) (k - n));
		p += k - n;
	}
	else if (-6 < n && n <= 0)
	{
		/* 0.000ddd */
		*p++ = '0';
		*p++ = '.';
		memset(p, '0', (size_t) -n);
		p += -n;
		memcpy(p, dig, (size_t) k);
		p += k;
	}
	else
	{
		/* exponent form: d[.ddd]e+x / d[.ddd]e-x */
		int			e = n - 1;
		char		ebuf[12];
		int			elen = 0;

		*p++ = dig[0];
		if (k > 1)
		{
			*p++ = '.';
			memcpy(p, dig + 1, (size_t) (k - 1));
			p += k - 1;
		}
		*p++ = 'e';
		*p++ = (e < 0) ? '-' : '+';
		if (e < 0)
			e = -e;
		do
		{
			ebuf[elen++] = (char) ('0' + e % 10);
			e /= 10;
		} while (e > 0);
		while (elen > 0)
			*p++ = ebuf[--elen];
	}
	*p = '\0';
	return (int) (p - out);
}

/*
 * Format the decimal digits * 10^exp10 (digits > 0, no trailing zeros,
 * at most 19 digits) as ECMAScript text.  Returns the length.
 */
static int
format_decimal(bool neg, uint64_t digits, int exp10, char *out)
{
	char		buf[24];
	int			k = 0;
	int			i;
	char		dig[24];

	do
	{
		buf[k++] = (char) ('0' + digits % 10);
		digits /= 10;
	} while (digits > 0);
	for (i = 0; i < k; i++)
		dig[i] = buf[k - 1 - i];
	return ecma_layout(neg, dig, k, exp10 + k, out);
}

/* Format a finite double as ECMAScript Number.prototype.toString. */
int
jcs_format_double(double d, char *out)
{
	uint64_t	bits;
	uint64_t	digits;
	int			exp10;
	bool		neg;

	memcpy(&bits, &d, sizeof(bits));
	neg = (bits >> 63) != 0;
	bits &= ~(UINT64_C(1) << 63);

	if ((bits >> JCS_DBL_MANT_BITS) == 0x7ff)
		return -1;				/* NaN or infinity */
	if (bits == 0)
	{
		/* +0 and -0 both print as "0" */
		out[0] = '0';
		out[1] = '\0';
		return 1;
	}
	shortest_digits(bits, &digits, &exp10);
	return format_decimal(neg, digits, exp10, out);
}


/* ----------------------------------------------------------------
 *		Decimal text to ECMAScript text, exactly
 * ----------------------------------------------------------------
 */

/*
 * Is the decimal whose significant digits are in p[0..end) (digits and at
 * most one '.', leading zeros allowed) and whose leading significant digit
 * has place value 10^308, at least 2^1024 - 2^970, the smallest value that
 * rounds to infinity?
 */
static bool
at_least_overflow_threshold(const char *p, const char *end)
{
	const char *t = jcs_overflow_digits;
	bool		started = false;

	for (; p < end; p++)
	{
		if (*p == '.')
			continue;
		if (!started && *p == '0')
			continue;
		started = true;
		if (*t == '\0')
		{
			/* all threshold digits matched: any nonzero rest makes it larger */
			if (*p != '0')
				return true;
			continue;
		}
		if (*p != *t)
			return *p > *t;
		t++;
	}
	/* input ran out: equal if the threshold ran out too */
	return *t == '\0';
}

/* Number of leading zero bits of a nonzero 64-bit value. */
static inline int
clz64(uint64_t v)
{
#if defined(__GNUC__) || defined(__clang__)
	return __builtin_clzll(v);
#else
	int			n = 0;

	while ((v & (UINT64_C(1) << 63)) == 0)
	{
		v <<= 1;
		n++;
	}
	return n;
#endif
}

/*
 * A candidate for the double nearest to acc * 10^e10 (acc > 0), from the
 * top 64 bits of acc times the 128-bit power of ten.  It is usually the
 * nearest double and otherwise an ulp away; the caller verifies it.
 * Returns false where no candidate is made (subnormal or overflowing
 * results, powers of ten beyond the table).
 */
static bool
approx_double_bits(uint64_t acc, int e10, uint64_t *bits)
{
	const uint64_t *g;
	uint64_t	m,
				a_hi,
				a_lo,
				b_hi,
				b_lo,
				mid,
				top,
				mant;
	int			lz,
				r,
				e,
				biased;

	if (-e10 < JCS_POW10_MIN_K || -e10 > JCS_POW10_MAX_K)
		return false;
	g = jcs_pow10_g[-e10 - JCS_POW10_MIN_K];
	r = floor_log2_pow10(e10);	/* g ~ 10^e10 * 2^(127 - r) */
	lz = clz64(acc);
	m = acc << lz;

	/* top 128 bits of the 192-bit product m * g */
	umul128(m, g[0], &a_hi, &a_lo);
	umul128(m, g[1], &b_hi, &b_lo);
	(void) b_lo;
	mid = a_lo + b_hi;
	top = a_hi + (mid < a_lo);

	/* value ~ top * 2^(r + 1 - lz); normalize top to bit 63 */
	e = r + 1 - lz;
	if ((top >> 63) == 0)
	{
		top = (top << 1) | (mid >> 63);
		e--;
	}
	mant = top >> 11;
	mant += (top >> 10) & 1;	/* round to nearest on the next bit */
	e += 11;
	if (mant == (UINT64_C(1) << 53))
	{
		mant >>= 1;
		e++;
	}
	biased = e + 52 + 1023;
	if (biased <= 0 || biased >= 0x7ff)
		return false;
	*bits = ((uint64_t) biased << JCS_DBL_MANT_BITS) |
		(mant & ((UINT64_C(1) << JCS_DBL_MANT_BITS) - 1));
	return true;
}

/*
 * Decide whether the double nearest to the decimal text denotes the same
 * decimal value when printed in ECMAScript shortest form, and if so write
 * that text.
 *
 * Fast paths: a decimal with at most 15 significant digits in the normal
 * range is always recovered by the shortest form, so it is formatted
 * directly.  Otherwise a candidate double is computed cheaply (possibly off
 * by an ulp) and its shortest form compared with the input: a match proves
 * that the input lies in the candidate's rounding interval, i.e. that the
 * candidate is the nearest double.  Only on a mismatch is the correctly
 * rounded strtod() consulted to tell a wrong candidate from an inexact input.
 */
jcs_num_status
jcs_number_from_decimal(const char *dec, size_t len, char *out, size_t *outlen)
{
	const char *p = dec;
	const char *end = dec + len;
	const char *mant_start;
	const char *mant_end;
	bool		neg = false;
	bool		seen_dot = false;
	bool		any_digit = false;
	bool		seen_nonzero = false;
	bool		too_many = false;
	int64_t		idx = 0;
	int64_t		int_digits = 0;
	int64_t		lead = 0;
	int64_t		last = 0;
	uint64_t	acc = 0;
	int64_t		exp_val = 0;
	int64_t		nsig;
	int64_t		point;			/* value = 0.DDD * 10^point */
	int64_t		lead_exp;		/* leading digit's place: 10^lead_exp */
	int			e10;
	uint64_t	bits;
	uint64_t	sdigits;
	int			sexp;
	double		x;
	bool		have_candidate;
	int			n;

	if (p < end && (*p == '-' || *p == '+'))
	{
		neg = (*p == '-');
		p++;
	}

	/* mantissa: digits with at most one '.' */
	mant_start = p;
	for (; p < end; p++)
	{
		unsigned char c = (unsigned char) *p;

		if (c >= '0' && c <= '9')
		{
			any_digit = true;
			if (!seen_dot)
				int_digits++;
			if (c != '0')
			{
				if (!seen_nonzero)
				{
					seen_nonzero = true;
					lead = idx;
					acc = c - '0';
				}
				else if (!too_many)
				{
					if (idx - lead + 1 > 19)
						too_many = true;
					else
						acc = acc * jcs_pow10_u64[idx - last] + (c - '0');
				}
				last = idx;
			}
			idx++;
		}
		else if (c == '.' && !seen_dot)
			seen_dot = true;
		else
			break;
	}
	mant_end = p;
	if (!any_digit)
		return JCS_NUM_SYNTAX;

	/* exponent, saturated far beyond any meaningful magnitude */
	if (p < end && (*p == 'e' || *p == 'E'))
	{
		bool		eneg = false;
		bool		edigit = false;

		p++;
		if (p < end && (*p == '-' || *p == '+'))
		{
			eneg = (*p == '-');
			p++;
		}
		for (; p < end && *p >= '0' && *p <= '9'; p++)
		{
			edigit = true;
			if (exp_val < INT64_C(1000000000000))
				exp_val = exp_val * 10 + (*p - '0');
		}
		if (!edigit)
			return JCS_NUM_SYNTAX;
		if (eneg)
			exp_val = -exp_val;
	}
	if (p != end)
		return JCS_NUM_SYNTAX;

	if (!seen_nonzero)
	{
		/* any zero, including -0, is "0" */
		out[0] = '0';
		out[1] = '\0';
		*outlen = 1;
		return JCS_NUM_OK;
	}

	nsig = last - lead + 1;
	point = int_digits - lead + exp_val;
	lead_exp = point - 1;

	if (lead_exp > 308)
		return JCS_NUM_OUT_OF_RANGE;
	if (lead_exp == 308 && at_least_overflow_threshold(mant_start, mant_end))
		return JCS_NUM_OUT_OF_RANGE;
	if (lead_exp < -324)
		return JCS_NUM_INEXACT; /* below 1e-324: rounds to zero */
	if (too_many || nsig > 17)
		return JCS_NUM_INEXACT; /* no double prints more than 17 digits */

	/* now value = acc * 10^e10, acc < 10^17 without trailing zeros */
	e10 = (int) (point - nsig);

	if (nsig <= 15 && lead_exp >= -307 && lead_exp <= 307)
	{
		n = format_decimal(neg, acc, e10, out);
		*outlen = (size_t) n;
		return JCS_NUM_OK;
	}

	/*
	 * A cheap candidate: exact (Clinger's fast path) when acc and 10^|e10|
	 * are both exact doubles, else from the 128-bit power table.
	 */
	have_candidate = false;
	if (acc <= (UINT64_C(1) << 53) && e10 >= -22 && e10 <= 22)
	{
		x = (double) acc;
		if (e10 < 0)
			x /= jcs_pow10_dbl[-e10];
		else
			x *= jcs_pow10_dbl[e10];
		memcpy(&bits, &x, sizeof(bits));
		have_candidate = true;
	}
	else
		have_candidate = approx_double_bits(acc, e10, &bits);
	if (have_candidate)
	{
		shortest_digits(bits, &sdigits, &sexp);
		if (sdigits == acc && sexp == e10)
			goto accept;
	}

	/* the exact answer: the correctly rounded double */
	{
		char		buf[48];

		snprintf(buf, sizeof(buf), "%llue%d", (unsigned long long) acc, e10);
		x = strtod(buf, NULL);
	}
	if (!(x <= 1.7976931348623157e308))
		return JCS_NUM_OUT_OF_RANGE;
	if (x == 0.0)
		return JCS_NUM_INEXACT;
	memcpy(&bits, &x, sizeof(bits));
	shortest_digits(bits, &sdigits, &sexp);
	if (sdigits != acc || sexp != e10)
		return JCS_NUM_INEXACT;

accept:
	n = format_decimal(neg, acc, e10, out);
	*outlen = (size_t) n;
	return JCS_NUM_OK;
}
