/*-------------------------------------------------------------------------
 *
 * runfmt.c
 *	  The text forms of a run's per-run values (see runfmt.h).
 *
 * Calendar arithmetic is proleptic Gregorian on day numbers (the civil
 * from/to days algorithms of H. Hinnant), exact for every year 1-9999.
 *
 * src/core/runfmt.c
 *
 *-------------------------------------------------------------------------
 */
#include "runfmt.h"

#include <string.h>

#define USECS_PER_SEC	INT64_C(1000000)
#define USECS_PER_DAY	INT64_C(86400000000)
/* Days from 1970-01-01 to 2000-01-01 (PostgreSQL's epoch). */
#define PG_EPOCH_DAYS	INT64_C(10957)
/* 0001-01-01 and 10000-01-01 00:00 UTC, microseconds since 2000-01-01. */
#define YEAR1_USEC		(INT64_C(-730119) * USECS_PER_DAY)
#define YEAR10000_USEC	(INT64_C(2921940) * USECS_PER_DAY)

/* Days since 1970-01-01 of a proleptic Gregorian date. */
static int64_t
days_from_civil(int64_t y, int m, int d)
{
	int64_t		era;
	int64_t		yoe;
	int64_t		doy;
	int64_t		doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

/* The proleptic Gregorian date of a day number (days since 1970-01-01). */
static void
civil_from_days(int64_t z, int64_t *y, int *m, int *d)
{
	int64_t		era;
	int64_t		doe;
	int64_t		yoe;
	int64_t		doy;
	int64_t		mp;

	z += 719468;
	era = (z >= 0 ? z : z - 146096) / 146097;
	doe = z - era * 146097;
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	*d = (int) (doy - (153 * mp + 2) / 5 + 1);
	*m = (int) (mp < 10 ? mp + 3 : mp - 9);
	*y = yoe + era * 400 + (*m <= 2);
}

/* Days in a month of a year. */
static int
days_in_month(int y, int m)
{
	static const int days[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};

	if (m == 2 && ((y % 4 == 0 && y % 100 != 0) || y % 400 == 0))
		return 29;
	return days[m - 1];
}

/* Read n decimal digits at s[*i]; false if any is not a digit. */
static bool
digits(const char *s, size_t len, size_t *i, int n, int *value)
{
	int			v = 0;
	int			k;

	if (*i + n > len)
		return false;
	for (k = 0; k < n; k++)
	{
		char		c = s[*i + k];

		if (c < '0' || c > '9')
			return false;
		v = v * 10 + (c - '0');
	}
	*i += n;
	*value = v;
	return true;
}

/* True if s[*i] is c (consumed). */
static bool
expect(const char *s, size_t len, size_t *i, char c)
{
	if (*i >= len || s[*i] != c)
		return false;
	(*i)++;
	return true;
}

/* Floor division of a by b (b > 0). */
static int64_t
floor_div(int64_t a, int64_t b)
{
	int64_t		q = a / b;

	if ((a % b) != 0 && a < 0)
		q--;
	return q;
}

/* Parse an RFC 3339 date-time; see runfmt.h. */
rfc3339_status
rfc3339_parse(const char *s, size_t len, Rfc3339 *out)
{
	size_t		i = 0;
	int64_t		frac = 0;
	int			offset_minutes = 0;
	char		canon[RUNFMT_OBSERVED_AT_MAXLEN + 1];

	memset(out, 0, sizeof(*out));
	if (!digits(s, len, &i, 4, &out->year) || !expect(s, len, &i, '-') ||
		!digits(s, len, &i, 2, &out->month) || !expect(s, len, &i, '-') ||
		!digits(s, len, &i, 2, &out->day))
		return RFC3339_SYNTAX;
	if (i >= len || (s[i] != 'T' && s[i] != 't'))
		return RFC3339_SYNTAX;
	i++;
	if (!digits(s, len, &i, 2, &out->hour) || !expect(s, len, &i, ':') ||
		!digits(s, len, &i, 2, &out->minute) || !expect(s, len, &i, ':') ||
		!digits(s, len, &i, 2, &out->second))
		return RFC3339_SYNTAX;
	if (i < len && s[i] == '.')
	{
		int			n = 0;
		bool		round_up = false;

		i++;
		while (i < len && s[i] >= '0' && s[i] <= '9')
		{
			if (n < 6)
				frac = frac * 10 + (s[i] - '0');
			else if (n == 6)
				round_up = s[i] >= '5';
			n++;
			i++;
		}
		if (n == 0)
			return RFC3339_SYNTAX;
		for (; n < 6; n++)
			frac *= 10;
		if (round_up)
			frac++;
	}
	if (i < len && (s[i] == 'Z' || s[i] == 'z'))
		i++;
	else if (i < len && (s[i] == '+' || s[i] == '-'))
	{
		int			sign = s[i] == '-' ? -1 : 1;
		int			oh,
					om;

		i++;
		if (!digits(s, len, &i, 2, &oh) || !expect(s, len, &i, ':') ||
			!digits(s, len, &i, 2, &om))
			return RFC3339_SYNTAX;
		if (i != len)
			return RFC3339_SYNTAX;
		if (oh > 23 || om > 59)
			return RFC3339_OFFSET;
		offset_minutes = sign * (oh * 60 + om);
	}
	else
		return RFC3339_SYNTAX;
	if (i != len)
		return RFC3339_SYNTAX;

	if (out->year == 0)
		return RFC3339_YEAR;
	if (out->month < 1 || out->month > 12)
		return RFC3339_MONTH;
	if (out->day < 1 || out->day > days_in_month(out->year, out->month))
		return RFC3339_DAY;
	if (out->hour > 23)
		return RFC3339_HOUR;
	if (out->minute > 59)
		return RFC3339_MINUTE;
	if (out->second > 59)
		return RFC3339_SECOND;

	out->usec = (days_from_civil(out->year, out->month, out->day) - PG_EPOCH_DAYS) * USECS_PER_DAY
		+ ((int64_t) out->hour * 3600 + out->minute * 60 + out->second) * USECS_PER_SEC
		+ frac - (int64_t) offset_minutes * 60 * USECS_PER_SEC;
	out->canonical = observed_at_format(out->usec, canon) == len &&
		memcmp(canon, s, len) == 0;
	return RFC3339_OK;
}

/* Parse a plain "YYYY-MM-DD HH:MM:SS[.ffffff]" timestamp; see runfmt.h. */
bool
runfmt_plain_timestamp(const char *s, size_t len, int64_t *usec)
{
	size_t		i = 0;
	int			y,
				mo,
				d,
				h,
				mi,
				sec;
	int64_t		frac = 0;

	if (!digits(s, len, &i, 4, &y) || !expect(s, len, &i, '-') ||
		!digits(s, len, &i, 2, &mo) || !expect(s, len, &i, '-') ||
		!digits(s, len, &i, 2, &d) || !expect(s, len, &i, ' ') ||
		!digits(s, len, &i, 2, &h) || !expect(s, len, &i, ':') ||
		!digits(s, len, &i, 2, &mi) || !expect(s, len, &i, ':') ||
		!digits(s, len, &i, 2, &sec))
		return false;
	if (i < len)
	{
		int			n = 0;

		if (s[i++] != '.')
			return false;
		while (i < len && n < 6 && s[i] >= '0' && s[i] <= '9')
		{
			frac = frac * 10 + (s[i++] - '0');
			n++;
		}
		if (n == 0 || i != len)
			return false;
		for (; n < 6; n++)
			frac *= 10;
	}
	if (y < 1 || mo < 1 || mo > 12 || d < 1 || d > days_in_month(y, mo) ||
		h > 23 || mi > 59 || sec > 59)
		return false;
	*usec = (days_from_civil(y, mo, d) - PG_EPOCH_DAYS) * USECS_PER_DAY +
		((int64_t) h * 3600 + mi * 60 + sec) * USECS_PER_SEC + frac;
	return true;
}

/* A sentence saying what is wrong, for messages. */
const char *
rfc3339_status_text(rfc3339_status status)
{
	switch (status)
	{
		case RFC3339_OK:
			return "It is valid.";
		case RFC3339_SYNTAX:
			return "It is not of the form YYYY-MM-DDTHH:MM:SS[.fraction](Z|+HH:MM|-HH:MM).";
		case RFC3339_YEAR:
			return "Year 0000 does not exist.";
		case RFC3339_MONTH:
			return "The month is not 01 to 12.";
		case RFC3339_DAY:
			return "The day is not a day of its month.";
		case RFC3339_HOUR:
			return "The hour is not 00 to 23.";
		case RFC3339_MINUTE:
			return "The minute is not 00 to 59.";
		case RFC3339_SECOND:
			return "The second is not 00 to 59 (leap seconds cannot be stored).";
		case RFC3339_OFFSET:
			return "The offset from UTC is not -23:59 to +23:59.";
	}
	return "It is invalid.";
}

/* Write n >= 0 as exactly width digits at p. */
static void
put_digits(char *p, int64_t n, int width)
{
	while (width-- > 0)
	{
		p[width] = (char) ('0' + n % 10);
		n /= 10;
	}
}

/*
 * Split an instant into its UTC date, time of day and microseconds; false
 * for a year outside 1-9999.
 */
static bool
split_instant(int64_t usec, int64_t *y, int *m, int *d, int64_t *secs,
			  int64_t *fraction)
{
	int64_t		days;
	int64_t		rest;

	/*
	 * Refuse instants outside the years first: near the ends of int64
	 * (timestamptz's -infinity is INT64_MIN) days * USECS_PER_DAY overflows.
	 */
	if (usec < YEAR1_USEC || usec >= YEAR10000_USEC)
		return false;
	days = floor_div(usec, USECS_PER_DAY);
	rest = usec - days * USECS_PER_DAY;
	civil_from_days(days + PG_EPOCH_DAYS, y, m, d);
	*secs = rest / USECS_PER_SEC;
	*fraction = rest % USECS_PER_SEC;
	return true;
}

/* Write the date and time YYYY?MM?DD?HH?MI?SS with the given separators. */
static void
put_date_time(char *buf, int64_t y, int m, int d, int64_t secs,
			  const char *sep)
{
	put_digits(buf, y, 4);
	buf[4] = sep[0];
	put_digits(buf + 5, m, 2);
	buf[7] = sep[1];
	put_digits(buf + 8, d, 2);
	buf[10] = sep[2];
	put_digits(buf + 11, secs / 3600, 2);
	buf[13] = sep[3];
	put_digits(buf + 14, (secs / 60) % 60, 2);
	buf[16] = sep[4];
	put_digits(buf + 17, secs % 60, 2);
}

/* Write the observedAt form of an instant; see runfmt.h. */
size_t
observed_at_format(int64_t usec, char *buf)
{
	int64_t		y,
				secs,
				fraction;
	int			m,
				d;

	if (!split_instant(usec, &y, &m, &d, &secs, &fraction))
		return 0;
	put_date_time(buf, y, m, d, secs, "--T::");
	buf[19] = '.';
	if (fraction % 1000 == 0)
	{
		put_digits(buf + 20, fraction / 1000, 3);
		buf[23] = 'Z';
		buf[24] = '\0';
		return RUNFMT_OBSERVED_AT_LEN;
	}
	put_digits(buf + 20, fraction, 6);
	buf[26] = 'Z';
	buf[27] = '\0';
	return RUNFMT_OBSERVED_AT_MAXLEN;
}

/* Write the timestamp slug of an instant; see runfmt.h. */
size_t
run_slug_format(int64_t usec, char *buf)
{
	int64_t		y,
				secs,
				fraction;
	int			m,
				d;

	if (!split_instant(usec, &y, &m, &d, &secs, &fraction))
		return 0;
	put_date_time(buf, y, m, d, secs, "-----");
	if (fraction == 0)
	{
		buf[RUNFMT_SLUG_LEN] = '\0';
		return RUNFMT_SLUG_LEN;
	}
	buf[19] = '-';
	put_digits(buf + 20, fraction, 6);
	buf[RUNFMT_SLUG_FRACTION_LEN] = '\0';
	return RUNFMT_SLUG_FRACTION_LEN;
}

/* The number of characters of s[0..len). */
int
runfmt_charlen(const char *s, size_t len, runfmt_mblen_fn mblen)
{
	size_t		i = 0;
	int			n = 0;

	while (i < len)
	{
		int			l = (unsigned char) s[i] < 0x80 ? 1 : mblen((const unsigned char *) s + i);

		i += l > 0 ? (size_t) l : 1;
		n++;
	}
	return n;
}

/* The string derived from a stem and a slug; see runfmt.h. */
size_t
runfmt_derive(const char *stem, size_t stemlen, const char *slug,
			  size_t sluglen, int cut, runfmt_mblen_fn mblen, char *out)
{
	size_t		len = stemlen + sluglen;

	memcpy(out, stem, stemlen);
	memcpy(out + stemlen, slug, sluglen);
	if (cut >= 0)
	{
		size_t		i = 0;
		int			n = 0;

		while (i < len && n < cut)
		{
			int			l = (unsigned char) out[i] < 0x80 ? 1 : mblen((unsigned char *) out + i);

			i += l > 0 ? (size_t) l : 1;
			n++;
		}
		len = i < len ? i : len;
		while (len > 0 && out[len - 1] == '-')
			len--;
	}
	out[len] = '\0';
	return len;
}

/* Find the stem and cut a value derives from with a slug; see runfmt.h. */
bool
runfmt_detect(const char *value, size_t len, const char *slug, size_t sluglen,
			  bool allow_cut, runfmt_mblen_fn mblen, size_t *stemlen, int *cut)
{
	size_t		k;
	char		buf[512];

	if (sluglen == 0)
		return false;
	if (len >= sluglen && memcmp(value + len - sluglen, slug, sluglen) == 0)
	{
		*stemlen = len - sluglen;
		*cut = -1;
		return true;
	}
	if (!allow_cut || len + sluglen >= sizeof(buf))
		return false;

	/*
	 * Cut: the value ends with the slug's first k characters (the slug is
	 * ASCII, so characters are bytes), possibly followed in the uncut string
	 * by a '-' that the cut left at the end and that was trimmed.  Prefer the
	 * longest such end, and the longer cut.
	 */
	for (k = (len < sluglen - 1 ? len : sluglen - 1); k >= 1; k--)
	{
		size_t		stem = len - k;
		int			c;

		if (memcmp(value + stem, slug, k) != 0)
			continue;
		c = runfmt_charlen(value, stem, mblen) + (int) k + (slug[k] == '-' ? 1 : 0);
		if (runfmt_derive(value, stem, slug, sluglen, c, mblen, buf) == len &&
			memcmp(buf, value, len) == 0)
		{
			*stemlen = stem;
			*cut = c;
			return true;
		}
	}
	return false;
}
