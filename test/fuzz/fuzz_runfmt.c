/*-------------------------------------------------------------------------
 *
 * fuzz_runfmt.c
 *	  libFuzzer harness for src/core/runfmt.c: RFC 3339 parsing, plain CSV
 *	  timestamps, the observedAt and slug forms, and derived strings.
 *
 * The first input byte picks what is fuzzed; the rest is its input.
 *
 *	0  rfc3339_parse(text): an accepted date-time has fields in range and
 *	   the instant glibc's timegm() gives for them (an outside calendar),
 *	   and formats back to a text that parses to the same instant; a text
 *	   said to be canonical is exactly that text.
 *	1  runfmt_plain_timestamp(text): accepts exactly what the RFC 3339
 *	   parser accepts for the same text with "T" for the space and a "Z"
 *	   (with at most six fraction digits), at the same instant.
 *	2  observed_at_format and run_slug_format of an instant (8 bytes): no
 *	   output exactly for years outside 1-9999, else the documented lengths
 *	   and characters, and the observedAt text parses back to the instant.
 *	3  runfmt_derive(stem, slug of an instant, cut): detecting the value's
 *	   stem succeeds without a cut and gives the stem back; whenever it
 *	   succeeds, the stem and cut it finds derive the value again.
 *	4  runfmt_detect on any value and the slug of an instant: whenever it
 *	   succeeds, the stem and cut it finds derive the value exactly.
 *
 * Texts use UTF-8's mblen rule, as the server's, on arbitrary bytes (so a
 * lead byte may claim more bytes than are left).
 *
 * test/fuzz/fuzz_runfmt.c
 *
 *-------------------------------------------------------------------------
 */
#include <string.h>
#include <time.h>

#include "fuzz_common.h"
#include "../unit/utf8_rule.h"
#include "../../src/core/runfmt.h"

#define USECS_PER_SEC	INT64_C(1000000)
/* Seconds from 1970-01-01 to 2000-01-01. */
#define PG_EPOCH_SECS	INT64_C(946684800)
/* 0001-01-01 and 10000-01-01 as instants, microseconds since 2000-01-01. */
#define MIN_USEC		(INT64_C(-63082281600) * USECS_PER_SEC)
#define END_USEC		(INT64_C(252455616000) * USECS_PER_SEC)

/* Eight input bytes as an int64. */
static int64_t
take64(const uint8_t *p)
{
	uint64_t	v = 0;
	int			i;

	for (i = 0; i < 8; i++)
		v = (v << 8) | p[i];
	return (int64_t) v;
}

/* An instant in years 1-9999 from eight bytes, often a whole second. */
static int64_t
instant_in_range(const uint8_t *p)
{
	uint64_t	v = (uint64_t) take64(p);
	int64_t		u = MIN_USEC + (int64_t) (v % (uint64_t) (END_USEC - MIN_USEC));

	if (p[7] & 1)
		u -= ((u % USECS_PER_SEC) + USECS_PER_SEC) % USECS_PER_SEC;
	return u;
}

/* Digits and their count after a '.' at s[i], for the fraction. */
static size_t
fraction_digits(const char *s, size_t len)
{
	const char *dot = memchr(s, '.', len);
	size_t		n = 0;

	if (dot == NULL)
		return 0;
	dot++;
	while (dot + n < s + len && dot[n] >= '0' && dot[n] <= '9')
		n++;
	return n;
}

/* Mode 0: the RFC 3339 parser against timegm() and its own formatter. */
static void
fuzz_rfc3339(const char *s, size_t len)
{
	Rfc3339		r;
	rfc3339_status st = rfc3339_parse(s, len, &r);
	struct tm	tm;
	time_t		t;
	int64_t		frac = 0;
	int64_t		offset = 0;
	int64_t		want;
	size_t		n = fraction_digits(s, len);
	size_t		i;
	char		buf[RUNFMT_OBSERVED_AT_MAXLEN + 1];
	size_t		flen;
	Rfc3339		back;

	if (st != RFC3339_OK)
	{
		FUZZ_ASSERT(st >= RFC3339_SYNTAX && st <= RFC3339_OFFSET, "status %d", (int) st);
		FUZZ_ASSERT(rfc3339_status_text(st)[0] != '\0', "no text");
		return;
	}
	FUZZ_ASSERT(len >= 20 && (s[10] == 'T' || s[10] == 't'), "accepted \"%.*s\"", (int) len, s);
	FUZZ_ASSERT(r.year >= 1 && r.month >= 1 && r.month <= 12 && r.day >= 1 && r.day <= 31 &&
				r.hour <= 23 && r.minute <= 59 && r.second <= 59,
				"fields out of range in \"%.*s\"", (int) len, s);

	/* the fraction, rounded half up at the seventh digit */
	if (n > 0)
	{
		const char *d = memchr(s, '.', len) + 1;

		for (i = 0; i < 6; i++)
			frac = frac * 10 + (i < n ? d[i] - '0' : 0);
		if (n > 6 && d[6] >= '5')
			frac++;
	}
	if (s[len - 1] != 'Z' && s[len - 1] != 'z')
	{
		int			oh = (s[len - 5] - '0') * 10 + (s[len - 4] - '0');
		int			om = (s[len - 2] - '0') * 10 + (s[len - 1] - '0');

		offset = (s[len - 6] == '-' ? -1 : 1) * (oh * 60 + om) * INT64_C(60);
	}
	memset(&tm, 0, sizeof(tm));
	tm.tm_year = r.year - 1900;
	tm.tm_mon = r.month - 1;
	tm.tm_mday = r.day;
	tm.tm_hour = r.hour;
	tm.tm_min = r.minute;
	tm.tm_sec = r.second;
	t = timegm(&tm);
	FUZZ_ASSERT(tm.tm_mday == r.day && tm.tm_mon == r.month - 1,
				"timegm normalised \"%.*s\": no such day", (int) len, s);
	want = ((int64_t) t - PG_EPOCH_SECS - offset) * USECS_PER_SEC + frac;
	FUZZ_ASSERT(r.usec == want, "\"%.*s\": %lld, timegm says %lld", (int) len, s,
				(long long) r.usec, (long long) want);

	flen = observed_at_format(r.usec, buf);
	if (flen == 0)
	{
		/* only an offset or a fraction rounded up leaves years 1-9999 */
		FUZZ_ASSERT(!r.canonical && (r.year == 1 || r.year == 9999),
					"\"%.*s\" does not format", (int) len, s);
		return;
	}
	FUZZ_ASSERT(rfc3339_parse(buf, flen, &back) == RFC3339_OK && back.usec == r.usec &&
				back.canonical, "\"%.*s\" formats as %s, which does not parse back",
				(int) len, s, buf);
	if (r.canonical)
		FUZZ_ASSERT(flen == len && memcmp(buf, s, len) == 0,
					"\"%.*s\" canonical but formats as %s", (int) len, s, buf);
}

/* Mode 1: plain timestamps against the RFC 3339 parser. */
static void
fuzz_plain(const char *s, size_t len)
{
	int64_t		plain = 0;
	bool		ok = runfmt_plain_timestamp(s, len, &plain);
	char	   *t = malloc(len + 2);
	Rfc3339		r;
	bool		rok;

	memcpy(t, s, len);
	if (len > 10 && t[10] == ' ')
		t[10] = 'T';
	t[len] = 'Z';
	rok = len > 10 && s[10] == ' ' && memchr(s, 'T', len) == NULL &&
		memchr(s, 't', len) == NULL &&
		memchr(s, 'Z', len) == NULL && memchr(s, 'z', len) == NULL &&
		memchr(s, '+', len) == NULL &&
		rfc3339_parse(t, len + 1, &r) == RFC3339_OK && fraction_digits(s, len) <= 6;
	if (ok)
		FUZZ_ASSERT(rok && r.usec == plain, "plain \"%.*s\" accepted as %lld, RFC 3339 says %d",
					(int) len, s, (long long) plain, (int) rok);
	else
		FUZZ_ASSERT(!rok, "plain \"%.*s\" refused, RFC 3339 accepts it", (int) len, s);
	free(t);
}

/* Mode 2: the observedAt and slug forms of any instant. */
static void
fuzz_format(const uint8_t *p, size_t size)
{
	int64_t		u;
	char		at[RUNFMT_OBSERVED_AT_MAXLEN + 1];
	char		slug[RUNFMT_SLUG_BUFLEN];
	size_t		alen,
				slen,
				i;
	bool		in_range;
	Rfc3339		r;

	if (size < 9)
		return;
	u = (p[8] & 1) ? instant_in_range(p) : take64(p);
	in_range = u >= MIN_USEC && u < END_USEC;
	alen = observed_at_format(u, at);
	slen = run_slug_format(u, slug);
	FUZZ_ASSERT((alen != 0) == in_range && (slen != 0) == in_range,
				"instant %lld: lengths %zu %zu", (long long) u, alen, slen);
	if (!in_range)
		return;
	FUZZ_ASSERT(alen == strlen(at) && (alen == RUNFMT_OBSERVED_AT_LEN ||
									   alen == RUNFMT_OBSERVED_AT_MAXLEN),
				"observedAt %s", at);
	FUZZ_ASSERT(rfc3339_parse(at, alen, &r) == RFC3339_OK && r.usec == u && r.canonical,
				"observedAt %s of %lld does not parse back", at, (long long) u);
	FUZZ_ASSERT(slen == strlen(slug) && (slen == RUNFMT_SLUG_LEN ||
										 slen == RUNFMT_SLUG_FRACTION_LEN) &&
				(slen == RUNFMT_SLUG_FRACTION_LEN) == (u % USECS_PER_SEC != 0),
				"slug %s of %lld", slug, (long long) u);
	for (i = 0; i < slen; i++)
		FUZZ_ASSERT((slug[i] >= '0' && slug[i] <= '9') ||
					(slug[i] == '-' && (i == 4 || i == 7 || i == 10 || i == 13 ||
										i == 16 || i == 19)),
					"slug %s", slug);
	/* the slug spells the observedAt's date and time */
	FUZZ_ASSERT(memcmp(slug, at, 10) == 0 && memcmp(slug + 11, at + 11, 2) == 0 &&
				memcmp(slug + 14, at + 14, 2) == 0 && memcmp(slug + 17, at + 17, 2) == 0,
				"slug %s, observedAt %s", slug, at);
}

/* Check that a detected stem and cut derive value again. */
static void
check_detected(const char *value, size_t len, const char *slug, size_t sluglen,
			   size_t stemlen, int cut)
{
	char	   *again = malloc(len + sluglen + 1);

	FUZZ_ASSERT(stemlen <= len, "stem %zu of %zu bytes", stemlen, len);
	FUZZ_ASSERT(runfmt_derive(value, stemlen, slug, sluglen, cut, utf8_mblen, again) == len &&
				memcmp(again, value, len) == 0,
				"\"%.*s\" (slug %s): stem %zu cut %d derives \"%s\"",
				(int) len, value, slug, stemlen, cut, again);
	free(again);
}

/* Modes 3 and 4: derived strings. */
static void
fuzz_derive(int mode, const uint8_t *p, size_t size)
{
	char		slug[RUNFMT_SLUG_BUFLEN];
	size_t		sluglen;
	const char *text;
	size_t		len;
	int			cut;
	size_t		stemlen = 0;
	int			found_cut = 0;

	if (size < 10)
		return;
	sluglen = run_slug_format(instant_in_range(p), slug);
	cut = (p[8] & 0x80) ? -1 : (int) (p[8] & 0x7F) + (int) (p[9] & 0x3F);
	text = (const char *) p + 10;
	len = size - 10;

	if (mode == 3)
	{
		char	   *value = malloc(len + sluglen + 1);
		size_t		vlen = runfmt_derive(text, len, slug, sluglen, cut, utf8_mblen, value);
		bool		found;

		FUZZ_ASSERT(vlen <= len + sluglen && value[vlen] == '\0', "derived length %zu", vlen);
		FUZZ_ASSERT(cut < 0 || runfmt_charlen(value, vlen, utf8_mblen) <= cut,
					"cut %d, derived %d characters", cut, runfmt_charlen(value, vlen, utf8_mblen));
		found = runfmt_detect(value, vlen, slug, sluglen, cut >= 0, utf8_mblen,
							  &stemlen, &found_cut);
		if (cut < 0)
			FUZZ_ASSERT(found && found_cut == -1 && stemlen == len,
						"uncut \"%s\": found %d, stem %zu of %zu", value, (int) found,
						stemlen, len);
		if (found)
			check_detected(value, vlen, slug, sluglen, stemlen, found_cut);
		free(value);
	}
	else
	{
		char	   *value = malloc(len ? len : 1);

		memcpy(value, text, len);
		if (runfmt_detect(value, len, slug, sluglen, (p[9] & 0x40) != 0, utf8_mblen,
						  &stemlen, &found_cut))
			check_detected(value, len, slug, sluglen, stemlen, found_cut);
		free(value);
	}
}

/* One fuzz iteration. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char	   *text;

	if (size < 1)
		return 0;
	/* a heap copy of exactly the text, so that ASan sees any overread */
	text = malloc(size);
	memcpy(text, data + 1, size - 1);
	switch (data[0] % 5)
	{
		case 0:
			fuzz_rfc3339(text, size - 1);
			break;
		case 1:
			fuzz_plain(text, size - 1);
			break;
		case 2:
			fuzz_format(data + 1, size - 1);
			break;
		default:
			fuzz_derive(data[0] % 5, data + 1, size - 1);
			break;
	}
	free(text);
	return 0;
}
