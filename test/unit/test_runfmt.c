/*-------------------------------------------------------------------------
 *
 * test_runfmt.c
 *	  Unit tests for src/core/runfmt.c: RFC 3339 parsing, the observedAt and
 *	  slug forms, and derived strings (stems, slugs, cuts).
 *
 * The calendar is checked against a day-by-day count over every day of the
 * years 1-9999; parsing against that calendar for random instants and for
 * each kind of fault; derived strings by detecting the stem of every
 * string derived from random stems, slugs and cuts, ASCII and UTF-8.
 *
 * The last line printed is "N passed, N failed"; the exit status is
 * non-zero on any failure.
 *
 * test/unit/test_runfmt.c
 *
 *-------------------------------------------------------------------------
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/core/release.h"
#include "../../src/core/runfmt.h"

#define UNIT_RNG_SEED UINT64_C(0x243F6A8885A308D3)
#include "unit.h"


/* Is y a leap year? */
static bool
leap(int y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

/*
 * Every day of 0001-01-01 .. 9999-12-31, counted one by one: each date's
 * midnight parses to (its day number) * 86400e6 and formats back.
 */
static void
test_calendar(void)
{
	static const int mdays[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
	int64_t		day = 0;		/* days since 0001-01-01 */
	int64_t		epoch = -1;		/* day of 2000-01-01 */
	long		bad = 0;
	int			y,
				m,
				d;

	/* Find 2000-01-01 first. */
	for (y = 1; y < 2000; y++)
		day += leap(y) ? 366 : 365;
	epoch = day;
	day = 0;
	for (y = 1; y <= 9999; y++)
		for (m = 1; m <= 12; m++)
			for (d = 1; d <= mdays[m - 1] + (m == 2 && leap(y)); d++, day++)
			{
				char		text[64];
				char		back[64] = "";
				Rfc3339		r;
				int64_t		want = (day - epoch) * INT64_C(86400000000);

				snprintf(text, sizeof(text), "%04d-%02d-%02dT00:00:00.000Z", y, m, d);
				if (rfc3339_parse(text, strlen(text), &r) != RFC3339_OK ||
					r.usec != want || !r.canonical ||
					observed_at_format(want, back) != 24 || strcmp(back, text) != 0)
				{
					if (bad++ < 5)
						check(false, "calendar: %s gives %" PRId64 " (want %" PRId64 "), back \"%s\"",
							  text, r.usec, want, back);
				}
			}
	check(bad == 0, "calendar: %ld of %" PRId64 " days wrong", bad, day);
	check(day == INT64_C(3652059), "calendar: %" PRId64 " days in years 1-9999", day);
}

/* One parse with an expected status (and, for OK, instant and canonical). */
static void
expect_parse(const char *s, rfc3339_status want, int64_t usec, bool canonical)
{
	Rfc3339		r;
	rfc3339_status st = rfc3339_parse(s, strlen(s), &r);

	if (!check(st == want, "parse \"%s\": status %d, want %d", s, (int) st, (int) want))
		return;
	if (want == RFC3339_OK)
		check(r.usec == usec && r.canonical == canonical,
			  "parse \"%s\": %" PRId64 "/%d, want %" PRId64 "/%d", s, r.usec,
			  (int) r.canonical, usec, (int) canonical);
}

/* Valid forms, offsets, fractions, and each kind of fault. */
static void
test_parse_cases(void)
{
	/* 2025-04-28T00:38:25Z (the sparsemax reference record) */
	const int64_t ref = INT64_C(799115905000000);

	expect_parse("2025-04-28T00:38:25.000Z", RFC3339_OK, ref, true);
	expect_parse("2025-04-28T00:38:25Z", RFC3339_OK, ref, false);
	expect_parse("2025-04-28t00:38:25.000z", RFC3339_OK, ref, false);
	expect_parse("2025-04-28T02:38:25.000+02:00", RFC3339_OK, ref, false);
	expect_parse("2025-04-27T19:08:25.000-05:30", RFC3339_OK, ref, false);
	expect_parse("2025-04-28T00:38:25.000-00:00", RFC3339_OK, ref, false);
	expect_parse("2025-04-28T00:38:25.5Z", RFC3339_OK, ref + 500000, false);
	expect_parse("2025-04-28T00:38:25.500Z", RFC3339_OK, ref + 500000, true);
	expect_parse("2025-04-28T00:38:25.123456Z", RFC3339_OK, ref + 123456, true);
	expect_parse("2025-04-28T00:38:25.123000Z", RFC3339_OK, ref + 123000, false);
	expect_parse("2025-04-28T00:38:25.1234565Z", RFC3339_OK, ref + 123457, false);
	expect_parse("2025-04-28T00:38:25.1234564999Z", RFC3339_OK, ref + 123456, false);
	expect_parse("2025-04-28T00:38:25.9999995Z", RFC3339_OK, ref + 1000000, false);
	expect_parse("2000-01-01T00:00:00.000Z", RFC3339_OK, 0, true);
	expect_parse("1999-12-31T23:59:59.999Z", RFC3339_OK, -1000, true);
	expect_parse("0001-01-01T00:00:00.000Z", RFC3339_OK, INT64_C(-63082281600000000), true);
	expect_parse("9999-12-31T23:59:59.999Z", RFC3339_OK, INT64_C(252455615999999000), true);
	expect_parse("2024-02-29T12:00:00.000Z", RFC3339_OK, INT64_C(762523200000000), true);
	/* the result may leave years 1-9999: valid, but not canonical */
	expect_parse("0001-01-01T00:30:00.000+01:00", RFC3339_OK, INT64_C(-63082283400000000), false);

	expect_parse("", RFC3339_SYNTAX, 0, false);
	expect_parse("2025-04-28", RFC3339_SYNTAX, 0, false);
	expect_parse("2025-04-28 00:38:25Z", RFC3339_SYNTAX, 0, false);
	expect_parse("2025-04-28T00:38:25", RFC3339_SYNTAX, 0, false);
	expect_parse("2025-04-28T00:38:25.Z", RFC3339_SYNTAX, 0, false);
	expect_parse("2025-04-28T00:38:25+0200", RFC3339_SYNTAX, 0, false);
	expect_parse("2025-04-28T00:38:25+02", RFC3339_SYNTAX, 0, false);
	expect_parse("2025-04-28T00:38:25ZZ", RFC3339_SYNTAX, 0, false);
	expect_parse("2025-04-28T00:38:25Z ", RFC3339_SYNTAX, 0, false);
	expect_parse(" 2025-04-28T00:38:25Z", RFC3339_SYNTAX, 0, false);
	expect_parse("25-04-28T00:38:25Z", RFC3339_SYNTAX, 0, false);
	expect_parse("+2025-04-28T00:38:25Z", RFC3339_SYNTAX, 0, false);
	expect_parse("2025-4-28T00:38:25Z", RFC3339_SYNTAX, 0, false);
	expect_parse("2025-04-28T0:38:25Z", RFC3339_SYNTAX, 0, false);
	expect_parse("２025-04-28T00:38:25Z", RFC3339_SYNTAX, 0, false);
	expect_parse("0000-01-01T00:00:00Z", RFC3339_YEAR, 0, false);
	expect_parse("2025-00-28T00:38:25Z", RFC3339_MONTH, 0, false);
	expect_parse("2025-13-28T00:38:25Z", RFC3339_MONTH, 0, false);
	expect_parse("2025-02-29T00:38:25Z", RFC3339_DAY, 0, false);
	expect_parse("2100-02-29T00:38:25Z", RFC3339_DAY, 0, false);
	expect_parse("2025-04-31T00:38:25Z", RFC3339_DAY, 0, false);
	expect_parse("2025-04-00T00:38:25Z", RFC3339_DAY, 0, false);
	expect_parse("2025-04-28T24:00:00Z", RFC3339_HOUR, 0, false);
	expect_parse("2025-04-28T00:60:25Z", RFC3339_MINUTE, 0, false);
	expect_parse("2016-12-31T23:59:60Z", RFC3339_SECOND, 0, false);
	expect_parse("2025-04-28T00:38:25+24:00", RFC3339_OFFSET, 0, false);
	expect_parse("2025-04-28T00:38:25-01:60", RFC3339_OFFSET, 0, false);
	check(strlen(rfc3339_status_text(RFC3339_DAY)) > 0, "status text");
}

/*
 * Random instants (millisecond and microsecond, years 1-9999): the
 * observedAt form parses back to the instant and is canonical; the slug
 * has the same date and time.
 */
static void
test_format_random(void)
{
	const int64_t lo = INT64_C(-63082281600000000);
	const int64_t hi = INT64_C(252455615999999999);
	int			i;

	for (i = 0; i < rounds(200000); i++)
	{
		int64_t		usec = lo + (int64_t) (rnd() % (uint64_t) (hi - lo + 1));
		char		at[RUNFMT_OBSERVED_AT_MAXLEN + 1];
		char		slug[RUNFMT_SLUG_BUFLEN];
		size_t		sluglen;
		Rfc3339		r;

		if (i % 2 == 0)
			usec -= ((usec % 1000) + 1000) % 1000;
		if (i % 7 == 0)
			usec -= ((usec % 1000000) + 1000000) % 1000000;
		sluglen = run_slug_format(usec, slug);
		if (!check(observed_at_format(usec, at) == (usec % 1000 == 0 ? 24 : 27),
				   "observedAt form of %" PRId64 ": %s", usec, at))
			continue;
		check(rfc3339_parse(at, strlen(at), &r) == RFC3339_OK && r.usec == usec && r.canonical,
			  "round trip of %" PRId64 " via %s", usec, at);
		check(memcmp(slug, at, 10) == 0 && slug[10] == '-' &&
			  memcmp(slug + 11, at + 11, 2) == 0 && memcmp(slug + 14, at + 14, 2) == 0 &&
			  memcmp(slug + 17, at + 17, 2) == 0,
			  "slug %s of %s", slug, at);
		check(sluglen == (usec % 1000000 == 0 ? RUNFMT_SLUG_LEN : RUNFMT_SLUG_FRACTION_LEN),
			  "slug length of %s: %zu", at, sluglen);
	}
	{
		char		slug[RUNFMT_SLUG_BUFLEN];

		check(run_slug_format(INT64_C(799115905000000), slug) == 19 &&
			  strcmp(slug, "2025-04-28-00-38-25") == 0, "reference slug: %s", slug);
		check(run_slug_format(INT64_C(799115905250000), slug) == 26 &&
			  strcmp(slug, "2025-04-28-00-38-25-250000") == 0, "fraction slug: %s", slug);
		check(run_slug_format(lo - 1, slug) == 0, "no slug before year 1");
		check(run_slug_format(hi + 1, slug) == 0, "no slug after year 9999");
		check(observed_at_format(lo - 1, slug) == 0, "no observedAt form before year 1");
	}
	{
		/*
		 * Every int64 is an instant (timestamptz's -infinity and infinity
		 * are its ends): the extremes have no form, and computing that must
		 * not overflow (UBSan stops the test here if it does).
		 */
		char		at[RUNFMT_OBSERVED_AT_MAXLEN + 1];
		char		slug[RUNFMT_SLUG_BUFLEN];

		check(observed_at_format(INT64_MIN, at) == 0 && run_slug_format(INT64_MIN, slug) == 0,
			  "no form for the smallest instant");
		check(observed_at_format(INT64_MAX, at) == 0 && run_slug_format(INT64_MAX, slug) == 0,
			  "no form for the largest instant");
		check(observed_at_format(INT64_MIN + 1, at) == 0, "no form just above the smallest");
	}
}

/* A random stem: ASCII slug characters, sometimes hyphens and UTF-8. */
static size_t
random_stem(char *buf, size_t max)
{
	static const char *const pieces[] = {"a", "b", "z", "0", "9", "-", "2", "20", "é", "漢", "-2", "x"};
	size_t		len = 0;
	int			n = (int) (rnd() % 110);

	while (n-- > 0)
	{
		const char *p = pieces[rnd() % (sizeof(pieces) / sizeof(pieces[0]))];

		if (len + strlen(p) >= max)
			break;
		memcpy(buf + len, p, strlen(p));
		len += strlen(p);
	}
	buf[len] = '\0';
	return len;
}

/*
 * Derived strings: the reference records' names and externalIds, then
 * every string derived from random stems, slugs and cuts detects a stem
 * and cut that derive it again.
 */
static void
test_derive_detect(void)
{
	const char *ref_name = "liger-sparsemax-backward-torch-nvidia-geforce-rtx-3090-features16384-tokens2048-fp32-2025-04-28-00-3";
	const char *slug = "2025-04-28-00-38-25";
	char		out[512];
	size_t		stemlen = 0;
	int			cut = 0;
	int			i;

	check(runfmt_detect(ref_name, strlen(ref_name), slug, 19, true, utf8_mblen, &stemlen, &cut) &&
		  stemlen == strlen(ref_name) - 15 && cut == 100,
		  "reference name: stem %zu, cut %d", stemlen, cut);
	check(runfmt_derive(ref_name, stemlen, slug, 19, 100, utf8_mblen, out) == strlen(ref_name) &&
		  strcmp(out, ref_name) == 0, "reference name derives back: %s", out);
	check(runfmt_detect("a/b/2025-04-28-00-38-25", 23, slug, 19, false, utf8_mblen, &stemlen, &cut) &&
		  stemlen == 4 && cut == -1, "externalId stem");
	check(!runfmt_detect("a/b/2025-04-28-00-38-2", 22, slug, 19, false, utf8_mblen, &stemlen, &cut),
		  "no cut allowed for externalIds");
	check(!runfmt_detect("liger-x-y", 9, slug, 19, true, utf8_mblen, &stemlen, &cut),
		  "no slug part");
	/* the cut falls just after a hyphen of the slug, which is trimmed */
	check(runfmt_derive("abc-", 4, slug, 19, 9, utf8_mblen, out) == 8 &&
		  strcmp(out, "abc-2025") == 0, "trimmed: %s", out);
	check(runfmt_detect("abc-2025", 8, slug, 19, true, utf8_mblen, &stemlen, &cut) &&
		  stemlen == 4 && cut == 9, "trimmed detected: %zu %d", stemlen, cut);
	check(runfmt_charlen("é漢a", strlen("é漢a"), utf8_mblen) == 3, "charlen");
	check(runfmt_derive("éé-", 5, slug, 19, 4, utf8_mblen, out) == 6 &&
		  strcmp(out, "éé-2") == 0, "cut counts characters: %s", out);

	for (i = 0; i < rounds(300000); i++)
	{
		char		stem[400];
		char		s[RUNFMT_SLUG_BUFLEN];
		char		value[512];
		char		again[512];
		size_t		len;
		size_t		sluglen;
		int			c;
		bool		found;

		len = random_stem(stem, 300);
		sluglen = run_slug_format((int64_t) (rnd() % INT64_C(252455615999999999)), s);
		if (i % 3 == 0)
			sluglen = run_slug_format((int64_t) (rnd() % INT64_C(25245561599)) * 1000000, s);
		c = (i % 4 == 0) ? -1 : (int) (rnd() % 140);
		len = runfmt_derive(stem, len, s, sluglen, c, utf8_mblen, value);
		found = runfmt_detect(value, len, s, sluglen, c >= 0, utf8_mblen, &stemlen, &cut);
		if (c < 0)
			check(found && cut == -1 && stemlen == strlen(stem),
				  "uncut \"%s\" detected: %d %zu", value, (int) found, stemlen);
		if (!found)
			continue;
		check(runfmt_derive(value, stemlen, s, sluglen, cut, utf8_mblen, again) == len &&
			  memcmp(again, value, len) == 0,
			  "\"%s\" (slug %s) detected as stem %zu cut %d derives \"%s\"",
			  value, s, stemlen, cut, again);
	}
}

/* Plain CSV timestamps: agree with the RFC 3339 parser on the same instants. */
static void
test_plain_timestamp(void)
{
	int64_t		u = 0;
	int			i;

	check(runfmt_plain_timestamp("2025-04-28 00:38:25", 19, &u) && u == INT64_C(799115905000000),
		  "plain reference timestamp: %" PRId64, u);
	check(runfmt_plain_timestamp("2025-04-28 00:38:25.25", 22, &u) && u == INT64_C(799115905250000),
		  "plain fraction: %" PRId64, u);
	check(!runfmt_plain_timestamp("2025-04-28 00:38:25.1234567", 27, &u), "seven fraction digits");
	check(!runfmt_plain_timestamp("2025-02-29 00:38:25", 19, &u), "not a leap year");
	check(!runfmt_plain_timestamp("2025-04-28T00:38:25", 19, &u), "T is not plain");
	check(!runfmt_plain_timestamp("2025-04-28 00:38", 16, &u), "no seconds");
	check(!runfmt_plain_timestamp("2025-04-28 24:00:00", 19, &u), "hour 24");
	check(!runfmt_plain_timestamp("0000-01-01 00:00:00", 19, &u), "year 0");
	check(!runfmt_plain_timestamp("2025-04-28 00:38:25 ", 20, &u), "trailing space");
	for (i = 0; i < rounds(100000); i++)
	{
		int64_t		usec = (int64_t) (rnd() % INT64_C(252455615999999999));
		char		at[RUNFMT_OBSERVED_AT_MAXLEN + 1];
		size_t		len = observed_at_format(usec, at);
		int64_t		back = -1;

		/* the observedAt form with a space for T and no Z is plain */
		at[10] = ' ';
		at[len - 1] = '\0';
		check(runfmt_plain_timestamp(at, len - 1, &back) && back == usec,
			  "plain %s: %" PRId64 " for %" PRId64, at, back, usec);
	}
}

/* Compare two release labels' keys: <0, 0 or >0; 99 if either is no version. */
static int
release_cmp(const char *a, const char *b)
{
	unsigned char ka[RELEASE_KEY_MAX];
	unsigned char kb[RELEASE_KEY_MAX];
	size_t		la = release_version_key(a, strlen(a), ka);
	size_t		lb = release_version_key(b, strlen(b), kb);
	int			c;

	if (la == 0 || lb == 0)
		return 99;
	c = memcmp(ka, kb, la < lb ? la : lb);
	if (c != 0)
		return c < 0 ? -1 : 1;
	return la < lb ? -1 : la > lb ? 1 : 0;
}

/* Release labels in version order: a list in order, and what is no version. */
static void
test_release_order(void)
{
	static const char *const ordered[] = {
		"0.1.1", "0.2.1", "0.3.1", "0.4.0", "0.4.1", "0.4.2", "0.5.4", "0.5.8",
		"0.5.9", "0.5.10", "0.6.0.dev1", "0.6.0a1", "0.6.0-alpha.2", "0.6.0b1",
		"0.6.0rc1", "0.6.0-rc.2", "0.6.0", "0.6.0.1rc1", "0.6.1", "v0.7", "0.8.0",
		"0.8.1", "1", "1.0.1", "10.0"
	};
	static const char *const not_versions[] = {
		"", "main", "nightly-2025-08-01", "0.6.x", "1..2", ".5", "1.", "v", "1.0+local",
		"1.0rc1x", "1.0-", "abc1.0", "1.0 ", "99999999999999999999",
		/* a separator after the tag must be followed by its number */
		"1.0-alpha.", "1.0rc-", "1.0b."
	};
	int			i,
				j;

	for (i = 0; i < (int) (sizeof(ordered) / sizeof(ordered[0])); i++)
		for (j = 0; j < (int) (sizeof(ordered) / sizeof(ordered[0])); j++)
		{
			int			want = i < j ? -1 : i > j ? 1 : 0;

			check(release_cmp(ordered[i], ordered[j]) == want, "release %s vs %s: %d, want %d",
				  ordered[i], ordered[j], release_cmp(ordered[i], ordered[j]), want);
		}
	check(release_cmp("1.0", "1.0.0") == 0 && release_cmp("v1.2", "1.2") == 0 &&
		  release_cmp("1.0RC1", "1.0rc1") == 0, "equal versions");
	for (i = 0; i < (int) (sizeof(not_versions) / sizeof(not_versions[0])); i++)
	{
		unsigned char k[RELEASE_KEY_MAX];

		check(release_version_key(not_versions[i], strlen(not_versions[i]), k) == 0,
			  "\"%s\" is no version", not_versions[i]);
	}
	{
		/* the longest label still fits the key */
		char		many[24 * 19 + 30];
		unsigned char k[RELEASE_KEY_MAX];
		size_t		n = 0;

		for (i = 0; i < 24; i++)
			n += (size_t) sprintf(many + n, "%s999999999999999999", i ? "." : "");
		n += (size_t) sprintf(many + n, "rc999999999999999999");
		check(release_version_key(many, n, k) > 0 && release_version_key(many, n, k) <= RELEASE_KEY_MAX,
			  "longest version key");
	}
}

/* Run every test. */
int
main(void)
{
	test_calendar();
	test_parse_cases();
	test_format_random();
	test_derive_detect();
	test_plain_timestamp();
	test_release_order();
	printf("runfmt: %ld passed, %ld failed\n", passed, failed);
	return failed == 0 ? 0 : 1;
}
