/*-------------------------------------------------------------------------
 *
 * reference.c
 *	  Slow, independent reference implementations used by the unit tests
 *	  and the fuzzers to check src/core.  Clarity over speed: big-decimal
 *	  string arithmetic, snprintf/strtod probing, explicit transcoding.
 *
 * test/unit/reference.c
 *
 *-------------------------------------------------------------------------
 */
#include "reference.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A parsed decimal: value = (neg ? -1 : 1) * 0.digits * 10^point. */
typedef struct
{
	bool		neg;
	char	   *digits;			/* significant digits, no leading zeros */
	size_t		ndigits;		/* 0 for zero */
	long long	point;
} ref_dec;

/* Free a parsed decimal. */
static void
ref_dec_free(ref_dec *d)
{
	free(d->digits);
	d->digits = NULL;
}

/*
 * Parse [+-]? (D+ ('.' D*)? | '.' D+) ([eE] WS* [+-]? D+)? where WS is
 * allowed only if allow_exp_space.  Exponent magnitudes are saturated at
 * 10^15; *exp_sat is set when that happened, and in PostgreSQL mode
 * (allow_exp_space) also for exponents numeric_in rejects, in which case
 * parsing stops there as numeric_in does.  Returns false on bad syntax.
 */
static bool
ref_dec_parse(const char *s, size_t len, bool allow_exp_space, ref_dec *out,
			  long long *raw_exp, long long *frac_digits, bool *exp_sat)
{
	size_t		i = 0;
	size_t		start_int,
				nint,
				start_frac = 0,
				nfrac = 0;
	long long	e = 0;
	bool		eneg = false;
	size_t		k,
				j;

	memset(out, 0, sizeof(*out));
	*exp_sat = false;
	if (i < len && (s[i] == '+' || s[i] == '-'))
	{
		out->neg = s[i] == '-';
		i++;
	}
	start_int = i;
	while (i < len && s[i] >= '0' && s[i] <= '9')
		i++;
	nint = i - start_int;
	if (i < len && s[i] == '.')
	{
		i++;
		start_frac = i;
		while (i < len && s[i] >= '0' && s[i] <= '9')
			i++;
		nfrac = i - start_frac;
	}
	if (nint + nfrac == 0)
		return false;
	if (i < len && (s[i] == 'e' || s[i] == 'E'))
	{
		size_t		ds;

		i++;
		if (allow_exp_space)
			while (i < len && isspace((unsigned char) s[i]))
				i++;
		if (i < len && (s[i] == '+' || s[i] == '-'))
		{
			eneg = s[i] == '-';
			i++;
		}
		ds = i;
		while (i < len && s[i] >= '0' && s[i] <= '9')
		{
			if (e < 1000000000000000LL)
				e = e * 10 + (s[i] - '0');
			else
				*exp_sat = true;
			i++;
		}
		if (i == ds)
			return false;
		if (eneg)
			e = -e;

		/*
		 * numeric_in rejects an exponent of INT_MAX/2 or more in magnitude
		 * as soon as it has read it, before looking at what follows.
		 */
		if (allow_exp_space && (*exp_sat || e >= 1073741823LL || e <= -1073741823LL))
		{
			*exp_sat = true;
			return true;
		}
	}
	if (i != len)
		return false;

	/* collect all mantissa digits, then strip leading zeros */
	out->digits = malloc(nint + nfrac + 1);
	k = 0;
	for (j = 0; j < nint; j++)
		out->digits[k++] = s[start_int + j];
	for (j = 0; j < nfrac; j++)
		out->digits[k++] = s[start_frac + j];
	out->point = (long long) nint + e;
	j = 0;
	while (j < k && out->digits[j] == '0')
	{
		j++;
		out->point--;
	}
	memmove(out->digits, out->digits + j, k - j);
	k -= j;
	while (k > 0 && out->digits[k - 1] == '0')
		k--;
	out->ndigits = k;
	out->digits[k] = '\0';
	if (k == 0)
	{
		out->neg = false;
		out->point = 0;
	}
	if (raw_exp)
		*raw_exp = e;
	if (frac_digits)
		*frac_digits = (long long) nfrac;
	return true;
}

/* Do two decimal texts denote the same value? (false if either is bad) */
bool
ref_decimal_equal(const char *a, const char *b)
{
	ref_dec		da,
				db;
	bool		sa,
				sb,
				eq;

	if (!ref_dec_parse(a, strlen(a), false, &da, NULL, NULL, &sa))
		return false;
	if (!ref_dec_parse(b, strlen(b), false, &db, NULL, NULL, &sb))
	{
		ref_dec_free(&da);
		return false;
	}
	eq = !sa && !sb && da.neg == db.neg && da.ndigits == db.ndigits &&
		(da.ndigits == 0 || da.point == db.point) &&
		memcmp(da.digits, db.digits, da.ndigits) == 0;
	ref_dec_free(&da);
	ref_dec_free(&db);
	return eq;
}

/*
 * ECMAScript Number::toString layout of digits dig (k of them, no trailing
 * zeros) with n such that the value is 0.dig * 10^n, following the steps of
 * the specification one by one.
 */
static int
ref_layout(bool neg, const char *dig, int k, int n, char *out)
{
	char		tmp[64];
	int			i;

	tmp[0] = '\0';
	if (k <= n && n <= 21)
	{
		strncat(tmp, dig, k);
		for (i = 0; i < n - k; i++)
			strcat(tmp, "0");
	}
	else if (0 < n && n <= 21)
	{
		strncat(tmp, dig, n);
		strcat(tmp, ".");
		strncat(tmp, dig + n, k - n);
	}
	else if (-6 < n && n <= 0)
	{
		strcat(tmp, "0.");
		for (i = 0; i < -n; i++)
			strcat(tmp, "0");
		strncat(tmp, dig, k);
	}
	else
	{
		char		e[16];

		strncat(tmp, dig, 1);
		if (k > 1)
		{
			strcat(tmp, ".");
			strncat(tmp, dig + 1, k - 1);
		}
		snprintf(e, sizeof(e), "e%c%d", n - 1 >= 0 ? '+' : '-', abs(n - 1));
		strcat(tmp, e);
	}
	return snprintf(out, JCS_NUMBER_BUFLEN, "%s%s", neg ? "-" : "", tmp);
}

/*
 * Shortest round-trip digits of |d| by probing: at each precision p, the
 * correctly rounded p-digit decimal and its other p-digit neighbour.
 */
int
ref_format_double(double d, char *out)
{
	double		a = fabs(d);
	int			p;

	if (isnan(d) || isinf(d))
		return -1;
	if (a == 0.0)
		return snprintf(out, JCS_NUMBER_BUFLEN, "0");

	for (p = 1; p <= 17; p++)
	{
		char		buf[64];
		char		dig[32];
		int			e;
		int			attempt;

		snprintf(buf, sizeof(buf), "%.*e", p - 1, a);
		for (attempt = 0; attempt < 2; attempt++)
		{
			double		r;
			char	   *ep;
			int			k = 0;
			int			i;

			if (attempt == 1)
			{
				/* step the p-digit decimal one unit towards a */
				bool		up = strtod(buf, NULL) < a;
				char		m[32];
				int			nm = 0;

				for (i = 0; buf[i] != 'e'; i++)
					if (buf[i] != '.')
						m[nm++] = buf[i];
				e = atoi(strchr(buf, 'e') + 1);
				i = nm - 1;
				if (up)
				{
					while (i >= 0 && m[i] == '9')
						m[i--] = '0';
					if (i < 0)
					{
						m[0] = '1';
						e++;
					}
					else
						m[i]++;
				}
				else
				{
					while (i >= 0 && m[i] == '0')
						m[i--] = '9';
					m[i]--;
					if (m[0] == '0')
					{
						/* 1000 -> 0999: renormalize to 9999 * 10^(e-1) */
						memmove(m, m + 1, nm - 1);
						m[nm - 1] = '9';
						e--;
					}
				}
				m[nm] = '\0';
				if (nm > 1)
					snprintf(buf, sizeof(buf), "%c.%se%d", m[0], m + 1, e);
				else
					snprintf(buf, sizeof(buf), "%ce%d", m[0], e);
			}
			r = strtod(buf, &ep);
			if (r != a)
				continue;
			/* found: extract digits and exponent */
			for (i = 0; buf[i] != 'e'; i++)
				if (buf[i] != '.')
					dig[k++] = buf[i];
			while (k > 1 && dig[k - 1] == '0')
				k--;
			dig[k] = '\0';
			e = atoi(strchr(buf, 'e') + 1);
			return ref_layout(d < 0, dig, k, e + 1, out);
		}
	}
	return -1;					/* not reached for finite doubles */
}

/* Reference for jcs_number_from_decimal. */
jcs_num_status
ref_number_from_decimal(const char *dec, size_t len, char *out, size_t *outlen)
{
	ref_dec		d;
	bool		sat;
	char	   *copy;
	double		x;
	char		text[JCS_NUMBER_BUFLEN];
	jcs_num_status st;

	if (!ref_dec_parse(dec, len, false, &d, NULL, NULL, &sat))
		return JCS_NUM_SYNTAX;
	if (d.ndigits == 0)
	{
		ref_dec_free(&d);
		strcpy(out, "0");
		*outlen = 1;
		return JCS_NUM_OK;
	}
	ref_dec_free(&d);

	copy = malloc(len + 1);
	memcpy(copy, dec, len);
	copy[len] = '\0';
	x = strtod(copy, NULL);
	if (isinf(x))
		st = JCS_NUM_OUT_OF_RANGE;
	else if (x == 0.0)
		st = JCS_NUM_INEXACT;
	else
	{
		ref_format_double(x, text);
		if (ref_decimal_equal(text, copy))
		{
			strcpy(out, text);
			*outlen = strlen(text);
			st = JCS_NUM_OK;
		}
		else
			st = JCS_NUM_INEXACT;
	}
	free(copy);
	return st;
}

/* Reference for dec_scale_round_int64, by big-decimal string arithmetic. */
dec_status
ref_scale_round_int64(const char *s, size_t len, uint32_t multiplier,
					  int64_t *result)
{
	static const char *const infs[] = {
		"infinity", "+infinity", "-infinity", "inf", "+inf", "-inf"
	};
	size_t		b = 0,
				e = len;
	char		low[16];
	ref_dec		d;
	bool		sat;
	long long	raw_exp,
				nfrac;
	char		mstr[16];
	size_t		nm,
				np,
				i,
				j;
	int		   *prod;
	char	   *pd;
	long long	intlen;
	char		ip[64];
	size_t		nip = 0;
	int			first_frac = 0;
	const char *limit;

	while (b < e && isspace((unsigned char) s[b]))
		b++;
	while (e > b && isspace((unsigned char) s[e - 1]))
		e--;
	if (b == e)
		return DEC_EMPTY;
	if (e - b < sizeof(low))
	{
		for (i = 0; i < e - b; i++)
			low[i] = (char) tolower((unsigned char) s[b + i]);
		low[e - b] = '\0';
		/* compare lengths too: the input may hold a NUL byte */
		if (e - b == 3 && memcmp(low, "nan", 3) == 0)
			return DEC_NAN;
		for (i = 0; i < sizeof(infs) / sizeof(infs[0]); i++)
			if (e - b == strlen(infs[i]) && memcmp(low, infs[i], e - b) == 0)
				return DEC_INFINITE;
	}
	if (!ref_dec_parse(s + b, e - b, true, &d, &raw_exp, &nfrac, &sat))
		return DEC_SYNTAX;
	if (sat || raw_exp >= 1073741823LL || raw_exp <= -1073741823LL)
	{
		ref_dec_free(&d);
		return DEC_OUT_OF_RANGE;
	}
	if (nfrac - raw_exp > 16383)
	{
		ref_dec_free(&d);
		return DEC_OUT_OF_RANGE;
	}
	if (d.ndigits == 0 || multiplier == 0)
	{
		ref_dec_free(&d);
		*result = 0;
		return DEC_OK;
	}

	/* product digits = digits * multiplier, schoolbook */
	nm = (size_t) snprintf(mstr, sizeof(mstr), "%u", multiplier);
	np = d.ndigits + nm;
	prod = calloc(np, sizeof(int));
	for (i = 0; i < d.ndigits; i++)
		for (j = 0; j < nm; j++)
			prod[i + j + 1] += (d.digits[i] - '0') * (mstr[j] - '0');
	for (i = np - 1; i > 0; i--)
	{
		prod[i - 1] += prod[i] / 10;
		prod[i] %= 10;
	}
	pd = malloc(np + 1);
	for (i = 0; i < np; i++)
		pd[i] = (char) ('0' + prod[i]);
	pd[np] = '\0';
	free(prod);

	/*
	 * value = 0.digits * 10^point * m = 0.pd * 10^(point + nm); the integer
	 * part is the first intlen digits of pd (padded with zeros).
	 */
	intlen = d.point + (long long) nm;
	ref_dec_free(&d);
	if (intlen > 40)
	{
		/* pd starts with at most one zero, so the value exceeds 10^38 */
		free(pd);
		return DEC_OUT_OF_RANGE;
	}
	for (i = 0; (long long) i < intlen; i++)
		ip[nip++] = i < np ? pd[i] : '0';
	ip[nip] = '\0';
	if (intlen >= 0 && (size_t) intlen < np)
		first_frac = pd[intlen] - '0';
	free(pd);

	/* round half away from zero: increment the integer string */
	if (first_frac >= 5)
	{
		long long	k = (long long) nip - 1;

		while (k >= 0 && ip[k] == '9')
			ip[k--] = '0';
		if (k < 0)
		{
			memmove(ip + 1, ip, nip + 1);
			ip[0] = '1';
			nip++;
		}
		else
			ip[k]++;
	}
	/* strip leading zeros */
	i = 0;
	while (i + 1 < nip && ip[i] == '0')
		i++;
	memmove(ip, ip + i, nip - i + 1);
	nip -= i;
	if (nip == 0)
	{
		strcpy(ip, "0");
		nip = 1;
	}

	limit = s[b] == '-' ? "9223372036854775808" : "9223372036854775807";
	if (nip > 19 || (nip == 19 && strcmp(ip, limit) > 0))
		return DEC_OUT_OF_RANGE;
	{
		uint64_t	v = 0;

		for (i = 0; i < nip; i++)
			v = v * 10 + (uint64_t) (ip[i] - '0');
		if (s[b] == '-')
			*result = (v == (uint64_t) INT64_MAX + 1) ? INT64_MIN : -(int64_t) v;
		else
			*result = (int64_t) v;
	}
	return DEC_OK;
}

/* Encode code point cp as UTF-8. */
int
ref_utf8_encode(uint32_t cp, char *out)
{
	unsigned char *o = (unsigned char *) out;

	if (cp < 0x80)
	{
		o[0] = (unsigned char) cp;
		return 1;
	}
	if (cp < 0x800)
	{
		o[0] = (unsigned char) (0xC0 | (cp >> 6));
		o[1] = (unsigned char) (0x80 | (cp & 0x3F));
		return 2;
	}
	if (cp < 0x10000)
	{
		o[0] = (unsigned char) (0xE0 | (cp >> 12));
		o[1] = (unsigned char) (0x80 | ((cp >> 6) & 0x3F));
		o[2] = (unsigned char) (0x80 | (cp & 0x3F));
		return 3;
	}
	o[0] = (unsigned char) (0xF0 | (cp >> 18));
	o[1] = (unsigned char) (0x80 | ((cp >> 12) & 0x3F));
	o[2] = (unsigned char) (0x80 | ((cp >> 6) & 0x3F));
	o[3] = (unsigned char) (0x80 | (cp & 0x3F));
	return 4;
}

/*
 * Decode one UTF-8 sequence at s[*i]; returns the code point or -1 if the
 * sequence is malformed.
 */
static long
ref_utf8_next(const unsigned char *s, size_t len, size_t *i)
{
	unsigned char c = s[*i];
	int			n;
	uint32_t	cp;
	uint32_t	min;
	int			k;

	if (c < 0x80)
	{
		(*i)++;
		return c;
	}
	if (c >= 0xC2 && c <= 0xDF)
	{
		n = 1;
		cp = c & 0x1F;
		min = 0x80;
	}
	else if (c >= 0xE0 && c <= 0xEF)
	{
		n = 2;
		cp = c & 0x0F;
		min = 0x800;
	}
	else if (c >= 0xF0 && c <= 0xF4)
	{
		n = 3;
		cp = c & 0x07;
		min = 0x10000;
	}
	else
		return -1;
	if (len - *i < (size_t) n + 1)
		return -1;
	for (k = 1; k <= n; k++)
	{
		unsigned char cc = s[*i + k];

		if ((cc & 0xC0) != 0x80)
			return -1;
		cp = (cp << 6) | (cc & 0x3F);
	}
	if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
		return -1;
	*i += (size_t) n + 1;
	return (long) cp;
}

/* Is s[0..len) well-formed UTF-8? */
bool
ref_utf8_valid(const char *s, size_t len)
{
	size_t		i = 0;

	while (i < len)
		if (ref_utf8_next((const unsigned char *) s, len, &i) < 0)
			return false;
	return true;
}

/* Compare two valid UTF-8 strings by transcoding them to UTF-16. */
int
ref_utf16_compare(const char *a, size_t alen, const char *b, size_t blen)
{
	uint16_t   *ua = malloc((alen + 1) * 2 * sizeof(uint16_t));
	uint16_t   *ub = malloc((blen + 1) * 2 * sizeof(uint16_t));
	size_t		na = 0,
				nb = 0,
				i,
				k;
	int			r = 0;

	for (k = 0; k < 2; k++)
	{
		const char *s = k == 0 ? a : b;
		size_t		len = k == 0 ? alen : blen;
		uint16_t   *u = k == 0 ? ua : ub;
		size_t	   *n = k == 0 ? &na : &nb;

		i = 0;
		while (i < len)
		{
			long		cp = ref_utf8_next((const unsigned char *) s, len, &i);

			if (cp < 0)
				abort();		/* caller promised valid UTF-8 */
			if (cp >= 0x10000)
			{
				cp -= 0x10000;
				u[(*n)++] = (uint16_t) (0xD800 + (cp >> 10));
				u[(*n)++] = (uint16_t) (0xDC00 + (cp & 0x3FF));
			}
			else
				u[(*n)++] = (uint16_t) cp;
		}
	}
	for (i = 0; i < na && i < nb; i++)
	{
		if (ua[i] != ub[i])
		{
			r = ua[i] < ub[i] ? -1 : 1;
			break;
		}
	}
	if (r == 0 && na != nb)
		r = na < nb ? -1 : 1;
	free(ua);
	free(ub);
	return r;
}

/* Value of a hex digit, or -1. */
static int
ref_hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Decode a canonical (RFC 8785) JSON string literal. */
bool
ref_json_string_decode(const char *json, size_t len, char *out, size_t *outlen)
{
	size_t		i = 1;
	size_t		o = 0;

	if (len < 2 || json[0] != '"' || json[len - 1] != '"')
		return false;
	while (i < len - 1)
	{
		unsigned char c = (unsigned char) json[i];

		if (c == '"' || c < 0x20)
			return false;		/* must have been escaped */
		if (c != '\\')
		{
			out[o++] = (char) c;
			i++;
			continue;
		}
		if (i + 1 >= len - 1)
			return false;
		switch (json[i + 1])
		{
			case '"':
				out[o++] = '"';
				break;
			case '\\':
				out[o++] = '\\';
				break;
			case 'b':
				out[o++] = '\b';
				break;
			case 't':
				out[o++] = '\t';
				break;
			case 'n':
				out[o++] = '\n';
				break;
			case 'f':
				out[o++] = '\f';
				break;
			case 'r':
				out[o++] = '\r';
				break;
			case 'u':
				{
					int			v = 0;
					int			k;

					if (i + 6 > len - 1)
						return false;
					for (k = 0; k < 4; k++)
					{
						int			h = ref_hexval(json[i + 2 + k]);

						/* canonical form: lowercase hex only */
						if (h < 0 || (json[i + 2 + k] >= 'A' && json[i + 2 + k] <= 'F'))
							return false;
						v = v * 16 + h;
					}
					/* canonical form: \u only for controls without short form */
					if (v >= 0x20 || v == '\b' || v == '\t' || v == '\n' ||
						v == '\f' || v == '\r')
						return false;
					out[o++] = (char) v;
					i += 6;
					continue;
				}
			default:
				return false;	/* includes "\/", which is not canonical */
		}
		i += 2;
	}
	*outlen = o;
	return true;
}
