/*-------------------------------------------------------------------------
 *
 * test_core.c
 *	  Unit tests for src/core (jcs.c, decimal.c).
 *
 * Usage: test_core [v8-data-file ...]
 *
 * Each data file holds lines "<16 hex digits of a double's bits> <V8's
 * String(x)>" as written by gen_v8_doubles.js.  The last line printed is
 * "N passed, N failed"; the exit status is non-zero on any failure.
 *
 * test/unit/test_core.c
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

#include "../../src/core/decimal.h"
#include "../../src/core/jcs.h"
#include "reference.h"
#include "unit.h"


/* ----------------------------------------------------------------
 *		jcs_write_string
 * ----------------------------------------------------------------
 */

typedef struct
{
	char		buf[4096];
	size_t		len;
	int			calls;
} sink;

/* Writer callback collecting output into a sink. */
static void
sink_write(void *arg, const char *data, size_t len)
{
	sink	   *s = (sink *) arg;

	if (s->len + len < sizeof(s->buf))
	{
		memcpy(s->buf + s->len, data, len);
		s->len += len;
	}
	s->calls++;
}

/* Run jcs_write_string on in[0..len) and return the NUL-terminated result. */
static const char *
escape(const char *in, size_t len, int *calls)
{
	static sink s;

	s.len = 0;
	s.calls = 0;
	jcs_write_string(in, len, sink_write, &s);
	s.buf[s.len] = '\0';
	if (calls)
		*calls = s.calls;
	return s.buf;
}

/* Escaping of every control char, quote, backslash, DEL and UTF-8. */
static void
test_write_string(void)
{
	static const char *const expect_ctl[32] = {
		"\\u0000", "\\u0001", "\\u0002", "\\u0003", "\\u0004", "\\u0005",
		"\\u0006", "\\u0007", "\\b", "\\t", "\\n", "\\u000b", "\\f", "\\r",
		"\\u000e", "\\u000f", "\\u0010", "\\u0011", "\\u0012", "\\u0013",
		"\\u0014", "\\u0015", "\\u0016", "\\u0017", "\\u0018", "\\u0019",
		"\\u001a", "\\u001b", "\\u001c", "\\u001d", "\\u001e", "\\u001f"
	};
	char		in[8];
	char		want[32];
	int			c;
	int			calls;
	const char *got;
	char		big[1000];
	char		all[256];
	size_t		i;

	for (c = 0; c < 32; c++)
	{
		in[0] = (char) c;
		snprintf(want, sizeof(want), "\"%s\"", expect_ctl[c]);
		got = escape(in, 1, NULL);
		check(strcmp(got, want) == 0, "escape 0x%02x: got %s want %s", c, got, want);
	}
	check(strcmp(escape("\"", 1, NULL), "\"\\\"\"") == 0, "escape quote");
	check(strcmp(escape("\\", 1, NULL), "\"\\\\\"") == 0, "escape backslash");
	check(strcmp(escape("\x7f", 1, NULL), "\"\x7f\"") == 0, "DEL not escaped");
	check(strcmp(escape("/", 1, NULL), "\"/\"") == 0, "solidus not escaped");
	check(strcmp(escape("", 0, NULL), "\"\"") == 0, "empty string");
	/* e acute, euro sign, U+FB33, emoji: passed through as UTF-8 */
	got = escape("\xc3\xa9\xe2\x82\xac\xef\xac\xb3\xf0\x9f\x98\x80", 12, NULL);
	check(strcmp(got, "\"\xc3\xa9\xe2\x82\xac\xef\xac\xb3\xf0\x9f\x98\x80\"") == 0,
		  "multibyte passthrough");
	got = escape("a\0b", 3, NULL);
	check(strcmp(got, "\"a\\u0000b\"") == 0, "embedded NUL");
	got = escape("ab\ncd\"e\\", 8, &calls);
	check(strcmp(got, "\"ab\\ncd\\\"e\\\\\"") == 0, "mixed escapes: %s", got);
	check(calls == 8, "mixed escapes chunking: %d calls", calls);

	/* a long run without escapes goes out in one call (plus the quotes) */
	memset(big, 'x', sizeof(big));
	escape(big, sizeof(big), &calls);
	check(calls == 3, "long run chunking: %d calls", calls);

	/* every byte value at once, checked by decoding */
	for (i = 0; i < 256; i++)
		all[i] = (char) i;
	{
		char		dec[256];
		size_t		dlen;

		got = escape(all, 256, NULL);
		check(ref_json_string_decode(got, strlen(got), dec, &dlen) &&
			  dlen == 256 && memcmp(dec, all, 256) == 0,
			  "all bytes round trip");
	}
}

/* ----------------------------------------------------------------
 *		jcs_compare_keys
 * ----------------------------------------------------------------
 */

/* qsort adapter for NUL-terminated UTF-8 keys. */
static int
cmp_keys_qsort(const void *a, const void *b)
{
	const char *ka = *(const char *const *) a;
	const char *kb = *(const char *const *) b;

	return jcs_compare_keys(ka, strlen(ka), kb, strlen(kb));
}

/* Append a random code point from interesting ranges to buf. */
static size_t
random_codepoint(char *buf, bool small_alphabet)
{
	uint32_t	cp;

	switch (rndn(6))
	{
		case 0:
			cp = small_alphabet ? 'a' + rndn(3) : 0x20 + rndn(0x60);
			break;
		case 1:
			cp = small_alphabet ? 0x80 + rndn(2) : 0x80 + rndn(0x780);
			break;
		case 2:
			cp = small_alphabet ? 0xD7FF - rndn(2) : 0x800 + rndn(0xD800 - 0x800);
			break;
		case 3:
			cp = small_alphabet ? 0xE000 + rndn(2) * 0x1FFF : 0xE000 + rndn(0x2000);
			break;
		case 4:
			cp = small_alphabet ? 0xFFFF - rndn(2) : 0xF000 + rndn(0x1000);
			break;
		default:
			cp = small_alphabet ? 0x10000 + rndn(2) * 0xFFFFF : 0x10000 + rndn(0x100000);
			break;
	}
	return (size_t) ref_utf8_encode(cp, buf);
}

/* Key order: RFC 8785 example, edge cases, random vs UTF-16 transcoding. */
static void
test_compare_keys(void)
{
	/* RFC 8785 section 3.2.3 */
	const char *keys[] = {
		"\xe2\x82\xac",			/* U+20AC */
		"\r",
		"\xef\xac\xb3",			/* U+FB33 */
		"1",
		"\xf0\x9f\x98\x80",		/* U+1F600 */
		"\xc2\x80",				/* U+0080 */
		"\xc3\xb6"				/* U+00F6 */
	};
	const char *want[] = {
		"\r", "1", "\xc2\x80", "\xc3\xb6", "\xe2\x82\xac",
		"\xf0\x9f\x98\x80", "\xef\xac\xb3"
	};
	int			i;

	qsort(keys, 7, sizeof(keys[0]), cmp_keys_qsort);
	for (i = 0; i < 7; i++)
		check(strcmp(keys[i], want[i]) == 0, "RFC 8785 key order position %d", i);

	check(jcs_compare_keys("a", 1, "a", 1) == 0, "equal keys");
	check(jcs_compare_keys("", 0, "", 0) == 0, "empty keys");
	check(jcs_compare_keys("", 0, "a", 1) < 0, "empty first");
	check(jcs_compare_keys("ab", 2, "a", 1) > 0, "prefix last");
	check(jcs_compare_keys("a\0b", 3, "a\0c", 3) < 0, "embedded NUL");
	/* U+FFFF sorts after U+10000 in UTF-16 */
	check(jcs_compare_keys("\xef\xbf\xbf", 3, "\xf0\x90\x80\x80", 4) > 0, "U+FFFF > U+10000");
	check(jcs_compare_keys("\xf0\x90\x80\x80", 4, "\xef\xbf\xbf", 3) < 0, "U+10000 < U+FFFF");
	/* U+E000 also after supplementary; U+D7FF before */
	check(jcs_compare_keys("\xee\x80\x80", 3, "\xf4\x8f\xbf\xbf", 4) > 0, "U+E000 > U+10FFFF");
	check(jcs_compare_keys("\xed\x9f\xbf", 3, "\xf0\x90\x80\x80", 4) < 0, "U+D7FF < U+10000");
	check(jcs_compare_keys("abcdefghijkl\xef\xbf\xbf", 15,
						   "abcdefghijkl\xf0\x90\x80\x80", 16) > 0, "long prefix then U+FFFF");
	check(jcs_compare_keys("abcdefghijklmnop", 16, "abcdefghijklmnoq", 16) < 0, "long ASCII");

	/* random strings against UTF-16 transcoding, both argument orders */
	for (i = 0; i < rounds(200000); i++)
	{
		char		a[128],
					b[128];
		size_t		alen = 0,
					blen = 0;
		bool		small = (i & 1) != 0;
		int			na = (int) rndn(8),
					nb = (int) rndn(8),
					k;
		int			r1,
					r2,
					rr;

		for (k = 0; k < na; k++)
			alen += random_codepoint(a + alen, small);
		if (rndn(2))
		{
			/* share a prefix */
			memcpy(b, a, alen);
			blen = rndn((uint32_t) alen + 1);
			while (blen > 0 && ((unsigned char) b[blen] & 0xC0) == 0x80)
				blen--;
		}
		for (k = 0; k < nb; k++)
			blen += random_codepoint(b + blen, small);
		r1 = jcs_compare_keys(a, alen, b, blen);
		r2 = jcs_compare_keys(b, blen, a, alen);
		rr = ref_utf16_compare(a, alen, b, blen);
		check((r1 > 0) - (r1 < 0) == rr && (r2 > 0) - (r2 < 0) == -rr,
			  "random key compare %d: got %d/%d want %d", i, r1, r2, rr);
	}
}

/* ----------------------------------------------------------------
 *		jcs_format_double and jcs_number_from_decimal
 * ----------------------------------------------------------------
 */

/* Double from its bit pattern. */
static double
from_bits(uint64_t b)
{
	double		d;

	memcpy(&d, &b, sizeof(d));
	return d;
}

/* RFC 8785 Appendix B number table. */
static void
test_rfc_numbers(void)
{
	static const struct
	{
		uint64_t	bits;
		const char *text;
	}			t[] = {
		{UINT64_C(0x0000000000000000), "0"},
		{UINT64_C(0x8000000000000000), "0"},
		{UINT64_C(0x0000000000000001), "5e-324"},
		{UINT64_C(0x8000000000000001), "-5e-324"},
		{UINT64_C(0x7fefffffffffffff), "1.7976931348623157e+308"},
		{UINT64_C(0xffefffffffffffff), "-1.7976931348623157e+308"},
		{UINT64_C(0x4340000000000000), "9007199254740992"},
		{UINT64_C(0xc340000000000000), "-9007199254740992"},
		{UINT64_C(0x4430000000000000), "295147905179352830000"},
		{UINT64_C(0x44b52d02c7e14af5), "9.999999999999997e+22"},
		{UINT64_C(0x44b52d02c7e14af6), "1e+23"},
		{UINT64_C(0x44b52d02c7e14af7), "1.0000000000000001e+23"},
		{UINT64_C(0x444b1ae4d6e2ef4e), "999999999999999700000"},
		{UINT64_C(0x444b1ae4d6e2ef4f), "999999999999999900000"},
		{UINT64_C(0x444b1ae4d6e2ef50), "1e+21"},
		{UINT64_C(0x3eb0c6f7a0b5ed8c), "9.999999999999997e-7"},
		{UINT64_C(0x3eb0c6f7a0b5ed8d), "0.000001"},
		{UINT64_C(0x41b3de4355555553), "333333333.3333332"},
		{UINT64_C(0x41b3de4355555554), "333333333.33333325"},
		{UINT64_C(0x41b3de4355555555), "333333333.3333333"},
		{UINT64_C(0x41b3de4355555556), "333333333.3333334"},
		{UINT64_C(0x41b3de4355555557), "333333333.33333343"},
		{UINT64_C(0xbecbf647612f3696), "-0.0000033333333333333333"},
		{UINT64_C(0x43143ff3c1cb0959), "1424953923781206.2"},
	};
	size_t		i;
	char		out[JCS_NUMBER_BUFLEN];

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
	{
		int			n = jcs_format_double(from_bits(t[i].bits), out);

		check(n == (int) strlen(t[i].text) && strcmp(out, t[i].text) == 0,
			  "RFC 8785 number %016" PRIx64 ": got %s want %s",
			  t[i].bits, out, t[i].text);
	}
	check(jcs_format_double(from_bits(UINT64_C(0x7ff0000000000000)), out) == -1, "Inf");
	check(jcs_format_double(from_bits(UINT64_C(0xfff0000000000000)), out) == -1, "-Inf");
	check(jcs_format_double(from_bits(UINT64_C(0x7ff8000000000000)), out) == -1, "NaN");
	check(jcs_format_double(1e21, out) > 0 && strcmp(out, "1e+21") == 0, "1e21");
	check(jcs_format_double(1e-7, out) > 0 && strcmp(out, "1e-7") == 0, "1e-7");
	check(jcs_format_double(1.5e-7, out) > 0 && strcmp(out, "1.5e-7") == 0, "1.5e-7");
	check(jcs_format_double(1e-6, out) > 0 && strcmp(out, "0.000001") == 0, "1e-6");
	check(jcs_format_double(100, out) > 0 && strcmp(out, "100") == 0, "100");
	check(jcs_format_double(123456789012345680000.0, out) > 0 &&
		  strcmp(out, "123456789012345680000") == 0, "1.2345678901234568e20");
}

/* Compare jcs_number_from_decimal with the reference on one input. */
static void
compare_number(const char *in, size_t len)
{
	char		o1[JCS_NUMBER_BUFLEN],
				o2[JCS_NUMBER_BUFLEN];
	size_t		l1 = 0,
				l2 = 0;
	jcs_num_status s1 = jcs_number_from_decimal(in, len, o1, &l1);
	jcs_num_status s2 = ref_number_from_decimal(in, len, o2, &l2);

	if (check(s1 == s2, "number_from_decimal(%.*s): status %d, reference %d",
			  (int) (len > 200 ? 200 : len), in, (int) s1, (int) s2) &&
		s1 == JCS_NUM_OK)
		check(l1 == l2 && strcmp(o1, o2) == 0 && strlen(o1) == l1,
			  "number_from_decimal(%.*s): got %s, reference %s",
			  (int) (len > 200 ? 200 : len), in, o1, o2);
}

/*
 * Check both functions against one V8 line.  heavy selects the slower
 * cross-checks against the reference implementation.
 */
static void
check_v8_line(uint64_t bits, const char *want, bool heavy, bool exact_expansion)
{
	char		out[JCS_NUMBER_BUFLEN];
	size_t		olen = 0;
	double		d = from_bits(bits);
	int			n = jcs_format_double(d, out);
	jcs_num_status st;

	check(n == (int) strlen(want) && strcmp(out, want) == 0,
		  "format_double(%016" PRIx64 "): got %s, V8 %s", bits, out, want);

	/* V8's text is shortest, so it must be accepted and printed back */
	st = jcs_number_from_decimal(want, strlen(want), out, &olen);
	check(st == JCS_NUM_OK && strcmp(out, want) == 0 && olen == strlen(want),
		  "number_from_decimal(V8 %s): status %d out %s", want, (int) st, out);

	if (heavy)
	{
		char		buf[64];
		size_t		len = strlen(want);
		char	   *e;

		n = ref_format_double(d, out);
		check(strcmp(out, want) == 0, "ref_format_double(%016" PRIx64 "): got %s, V8 %s",
			  bits, out, want);

		/* perturbed decimals: an extra trailing digit, last digit +-1 */
		e = strchr(want, 'e');
		if (e == NULL)
			e = (char *) want + len;
		snprintf(buf, sizeof(buf), "%.*s%s1%s", (int) (e - want), want,
				 strchr(want, '.') || strchr(want, 'e') ? "" : ".", e);
		compare_number(buf, strlen(buf));
		snprintf(buf, sizeof(buf), "%.*s%s3%s", (int) (e - want), want,
				 strchr(want, '.') || strchr(want, 'e') ? "" : ".", e);
		compare_number(buf, strlen(buf));
		if (e > want && e[-1] >= '1' && e[-1] <= '8')
		{
			strcpy(buf, want);
			buf[e - want - 1] += 1;
			compare_number(buf, strlen(buf));
			buf[e - want - 1] -= 2;
			compare_number(buf, strlen(buf));
		}
	}
	if (exact_expansion && d != 0.0)
	{
		/* the exact binary value, in full: accepted only if it is shortest */
		static char full[1200];
		size_t		flen = 0;

		snprintf(full, sizeof(full), "%.800e", d);
		st = jcs_number_from_decimal(full, strlen(full), out, &flen);
		if (ref_decimal_equal(full, want))
			check(st == JCS_NUM_OK && strcmp(out, want) == 0,
				  "exact expansion of %s: status %d", want, (int) st);
		else
			check(st == JCS_NUM_INEXACT, "exact expansion of %s: status %d",
				  want, (int) st);
	}
}

/* Run the V8 comparison over one data file. */
static void
test_v8_file(const char *path)
{
	FILE	   *f = fopen(path, "r");
	char		line[256];
	long		lines = 0;
	long		before = failed;

	if (!check(f != NULL, "cannot open %s", path))
		return;
	while (fgets(line, sizeof(line), f))
	{
		char	   *sp = strchr(line, ' ');
		char	   *nl;
		uint64_t	bits;

		if (sp == NULL)
			continue;
		*sp = '\0';
		nl = strchr(sp + 1, '\n');
		if (nl)
			*nl = '\0';
		bits = strtoull(line, NULL, 16);
		check_v8_line(bits, sp + 1, lines % 16 == 0, lines % 64 == 0);
		lines++;
	}
	fclose(f);
	printf("V8 comparison: %ld doubles from %s, %ld failures\n",
		   lines, path, failed - before);
}

/* Fixed jcs_number_from_decimal cases. */
static void
test_number_cases(void)
{
	static const struct
	{
		const char *in;
		jcs_num_status st;
		const char *out;
	}			t[] = {
		{"9007199254740993", JCS_NUM_INEXACT, NULL},
		{"9007199254740992", JCS_NUM_OK, "9007199254740992"},
		{"-9007199254740992", JCS_NUM_OK, "-9007199254740992"},
		{"0.30000000000000001", JCS_NUM_INEXACT, NULL},
		{"0.30000000000000004", JCS_NUM_OK, "0.30000000000000004"},
		{"0.3", JCS_NUM_OK, "0.3"},
		{"1e-400", JCS_NUM_INEXACT, NULL},
		{"5e-324", JCS_NUM_OK, "5e-324"},
		{"-5e-324", JCS_NUM_OK, "-5e-324"},
		{"4.9406564584124654e-324", JCS_NUM_INEXACT, NULL},
		{"1e-323", JCS_NUM_OK, "1e-323"},
		{"2.4703282292062328e-324", JCS_NUM_INEXACT, NULL},
		{"2.628607988357544", JCS_NUM_OK, "2.628607988357544"},
		{"2.629631996154785", JCS_NUM_OK, "2.629631996154785"},
		{"94.83366394042969", JCS_NUM_OK, "94.83366394042969"},
		{"1.50", JCS_NUM_OK, "1.5"},
		{"100", JCS_NUM_OK, "100"},
		{"1e2", JCS_NUM_OK, "100"},
		{"100.000", JCS_NUM_OK, "100"},
		{"-0", JCS_NUM_OK, "0"},
		{"-0.000", JCS_NUM_OK, "0"},
		{"0", JCS_NUM_OK, "0"},
		{"0e999999999999", JCS_NUM_OK, "0"},
		{"1e21", JCS_NUM_OK, "1e+21"},
		{"1000000000000000000000", JCS_NUM_OK, "1e+21"},
		{"100000000000000000000", JCS_NUM_OK, "100000000000000000000"},
		{"0.0000001", JCS_NUM_OK, "1e-7"},
		{"0.000001", JCS_NUM_OK, "0.000001"},
		{"0.00000015", JCS_NUM_OK, "1.5e-7"},
		{"123456789012345680000", JCS_NUM_OK, "123456789012345680000"},
		{"123456789012345678901", JCS_NUM_INEXACT, NULL},
		{"1.7976931348623157e308", JCS_NUM_OK, "1.7976931348623157e+308"},
		{"1.7976931348623158e308", JCS_NUM_INEXACT, NULL},
		{"1.7976931348623159e308", JCS_NUM_OUT_OF_RANGE, NULL},
		{"2e308", JCS_NUM_OUT_OF_RANGE, NULL},
		{"1e309", JCS_NUM_OUT_OF_RANGE, NULL},
		{"-1e400", JCS_NUM_OUT_OF_RANGE, NULL},
		{"1E+2", JCS_NUM_OK, "100"},
		{"1e-2", JCS_NUM_OK, "0.01"},
		{"+1", JCS_NUM_OK, "1"},
		{".5", JCS_NUM_OK, "0.5"},
		{"5.", JCS_NUM_OK, "5"},
		{"1.2345678901234567e-100", JCS_NUM_OK, "1.2345678901234567e-100"},
		{"", JCS_NUM_SYNTAX, NULL},
		{"-", JCS_NUM_SYNTAX, NULL},
		{".", JCS_NUM_SYNTAX, NULL},
		{"1e", JCS_NUM_SYNTAX, NULL},
		{"1e+", JCS_NUM_SYNTAX, NULL},
		{"1.2.3", JCS_NUM_SYNTAX, NULL},
		{"0x10", JCS_NUM_SYNTAX, NULL},
		{" 1", JCS_NUM_SYNTAX, NULL},
		{"1 ", JCS_NUM_SYNTAX, NULL},
		{"NaN", JCS_NUM_SYNTAX, NULL},
		{"Infinity", JCS_NUM_SYNTAX, NULL},
		{"--1", JCS_NUM_SYNTAX, NULL},
		{"1e5.5", JCS_NUM_SYNTAX, NULL},
	};
	size_t		i;
	char		out[JCS_NUMBER_BUFLEN];
	static char big[2000];
	size_t		olen;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
	{
		jcs_num_status st;

		olen = 0;
		st = jcs_number_from_decimal(t[i].in, strlen(t[i].in), out, &olen);
		if (check(st == t[i].st, "number_from_decimal(\"%s\"): status %d want %d",
				  t[i].in, (int) st, (int) t[i].st) && t[i].out)
			check(strcmp(out, t[i].out) == 0 && olen == strlen(out),
				  "number_from_decimal(\"%s\"): got %s want %s", t[i].in, out, t[i].out);
		compare_number(t[i].in, strlen(t[i].in));
	}

	/* not NUL-terminated: only len bytes count */
	check(jcs_number_from_decimal("12345", 2, out, &olen) == JCS_NUM_OK &&
		  strcmp(out, "12") == 0, "length respected");

	/* 1e400 as numeric_out prints it: 1 and 400 zeros */
	big[0] = '1';
	memset(big + 1, '0', 400);
	big[401] = '\0';
	check(jcs_number_from_decimal(big, 401, out, &olen) == JCS_NUM_OUT_OF_RANGE,
		  "1e400 long digits");
	/* 1e308 in long form is fine */
	check(jcs_number_from_decimal(big, 309, out, &olen) == JCS_NUM_OK &&
		  strcmp(out, "1e+308") == 0, "1e308 long digits: %s", out);
	/* 1e-400 in long form: 0.000...0001 */
	strcpy(big, "0.");
	memset(big + 2, '0', 399);
	strcpy(big + 401, "1");
	check(jcs_number_from_decimal(big, strlen(big), out, &olen) == JCS_NUM_INEXACT,
		  "1e-400 long digits");
	/* 1e-300 in long form */
	strcpy(big, "0.");
	memset(big + 2, '0', 299);
	strcpy(big + 301, "1000");
	check(jcs_number_from_decimal(big, strlen(big), out, &olen) == JCS_NUM_OK &&
		  strcmp(out, "1e-300") == 0, "1e-300 long digits: %s", out);
	/* the overflow threshold 2^1024 - 2^970 and its neighbours */
	{
		const char *thr = "179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093042880177904174497792";

		check(jcs_number_from_decimal(thr, strlen(thr), out, &olen) ==
			  JCS_NUM_OUT_OF_RANGE, "overflow threshold");
		strcpy(big, thr);
		big[strlen(big) - 1] = '1';
		check(jcs_number_from_decimal(big, strlen(big), out, &olen) ==
			  JCS_NUM_INEXACT, "just below overflow threshold");
		snprintf(big, sizeof(big), "%s.000000000001", thr);
		check(jcs_number_from_decimal(big, strlen(big), out, &olen) ==
			  JCS_NUM_OUT_OF_RANGE, "just above overflow threshold");
		snprintf(big, sizeof(big), "%.30se279", thr);
		big[1] = '.';
		memmove(big + 2, thr + 1, 28);
		compare_number(big, strlen(big));
	}
}

/* Append a random decimal number text to buf; returns its length. */
static size_t
random_decimal_text(char *buf, bool pg_style)
{
	size_t		n = 0;
	int			nd;
	int			i;
	int			kind = (int) rndn(10);

	if (rndn(4) == 0)
		buf[n++] = '-';
	else if (!pg_style && rndn(20) == 0)
		buf[n++] = '+';

	if (kind < 4)
	{
		/* near a double: print a random double with 15..17 digits */
		double		d;
		char		tmp[64];
		uint64_t	bits = rnd() & ~(UINT64_C(1) << 63);

		if ((bits >> 52) == 0x7ff)
			bits = 0x3ff0000000000000;
		if (rndn(2))
			bits = (bits & UINT64_C(0x000fffffffffffff)) |
				((uint64_t) (1023 + (int) rndn(80) - 40) << 52);
		d = from_bits(bits);
		snprintf(tmp, sizeof(tmp), "%.*e", 14 + (int) rndn(4), d);
		if (rndn(3) == 0)
		{
			/* perturb a digit */
			char	   *p = strchr(tmp, 'e') - 1 - rndn(3);

			if (*p >= '0' && *p <= '8')
				(*p)++;
		}
		memcpy(buf + n, tmp, strlen(tmp));
		n += strlen(tmp);
		return n;
	}

	/* digits with a random point */
	nd = 1 + (int) rndn(kind == 9 ? 40 : 20);
	{
		int			point = (int) rndn((uint32_t) nd + 1);
		int			lead0 = rndn(3) == 0 ? (int) rndn(5) : 0;

		for (i = 0; i < lead0; i++)
			buf[n++] = '0';
		for (i = 0; i < nd; i++)
		{
			if (i == point && i > 0)
				buf[n++] = '.';
			buf[n++] = (char) ('0' + (rndn(4) == 0 ? 0 : rndn(10)));
		}
	}
	if (rndn(2))
	{
		int			e = (int) rndn(700) - 350;

		if (rndn(2))
			e = (int) rndn(50) - 25;
		n += (size_t) sprintf(buf + n, "%s%d", rndn(2) ? "e" : "E", e);
	}
	return n;
}

/* Random jcs_number_from_decimal inputs against the reference. */
static void
test_number_random(void)
{
	int			i;

	for (i = 0; i < rounds(200000); i++)
	{
		char		buf[128];
		size_t		n = random_decimal_text(buf, false);

		buf[n] = '\0';
		compare_number(buf, n);
	}
}

/* ----------------------------------------------------------------
 *		dec_scale_round_int64
 * ----------------------------------------------------------------
 */

/* Check one conversion against an expected status and value. */
static void
expect_dec(const char *in, uint32_t m, dec_status want_st, int64_t want)
{
	int64_t		got = 0x5a5a5a5a;
	int64_t		ref = 0;
	dec_status	st = dec_scale_round_int64(in, strlen(in), m, &got);
	dec_status	rst = ref_scale_round_int64(in, strlen(in), m, &ref);

	if (check(st == want_st, "dec(\"%.200s\", %u): status %d want %d", in, m,
			  (int) st, (int) want_st) && st == DEC_OK)
		check(got == want, "dec(\"%.200s\", %u): got %" PRId64 " want %" PRId64,
			  in, m, got, want);
	check(rst == want_st && (rst != DEC_OK || ref == want),
		  "ref dec(\"%.200s\", %u): status %d value %" PRId64, in, m, (int) rst, ref);
}

/* Compare dec_scale_round_int64 with the reference on one input. */
static void
compare_dec(const char *in, size_t len, uint32_t m)
{
	int64_t		a = 0,
				b = 0;
	dec_status	sa = dec_scale_round_int64(in, len, m, &a);
	dec_status	sb = ref_scale_round_int64(in, len, m, &b);

	check(sa == sb && (sa != DEC_OK || a == b),
		  "dec(\"%.*s\", %u): %d/%" PRId64 ", reference %d/%" PRId64,
		  (int) (len > 200 ? 200 : len), in, m, (int) sa, a, (int) sb, b);
}

/*
 * Check dec_pow2_quotient on one value: where it answers, mantissa / 10^scale
 * is value / 2^shift exactly (mantissa * 2^shift = value * 10^scale, in 128
 * bits) with no trailing zero; where it does not, the shortest mantissa
 * indeed leaves int64.
 */
static void
check_pow2_quotient(int64_t value, int shift)
{
	int64_t		mantissa = 0;
	int			scale = -1;
	bool		ok = dec_pow2_quotient(value, shift, &mantissa, &scale);
	__int128	lhs,
				rhs,
				m;
	int			t = 0,
				k;

	/* the exact answer: value = m * 2^t, m odd (or t = shift) */
	while (value != 0 && t < shift && (((uint64_t) value >> t) & 1) == 0)
		t++;
	m = value == 0 ? 0 : (__int128) value / ((__int128) 1 << t);
	for (k = 0; value != 0 && t < shift && k < shift - t; k++)
	{
		m *= 5;
		if (m > INT64_MAX || m < INT64_MIN)
			break;				/* it does not fit; stop before 128 bits */
	}
	if (value != 0 && t == shift)
		m = (__int128) value / ((__int128) 1 << shift);
	if (!ok)
	{
		check(m > INT64_MAX || m < INT64_MIN,
			  "pow2_quotient(%" PRId64 ", %d) refused a mantissa that fits", value, shift);
		return;
	}
	lhs = (__int128) mantissa * ((__int128) 1 << shift);
	rhs = value;
	for (k = 0; k < scale; k++)
		rhs *= 10;
	check(lhs == rhs && (scale == 0 || mantissa % 10 != 0) && scale >= 0,
		  "pow2_quotient(%" PRId64 ", %d) = %" PRId64 "e-%d", value, shift, mantissa, scale);
}

/* Fixed and random dec_pow2_quotient cases (bytes to MiB: shift 20). */
static void
test_pow2_quotient(void)
{
	static const int64_t fixed[] = {0, 1, -1, 1048575, 1048576, -1048576, 524288,
	-524288, 1572864, INT64_MAX, INT64_MIN, INT64_MIN + 1, 4503599627370497};
	int64_t		mantissa;
	int			scale;
	long		i,
				n = rounds(400000);

	for (i = 0; i < (long) (sizeof(fixed) / sizeof(fixed[0])); i++)
	{
		check_pow2_quotient(fixed[i], 20);
		check_pow2_quotient(fixed[i], 0);
		check_pow2_quotient(fixed[i], 62);
	}
	check(dec_pow2_quotient(1572864, 20, &mantissa, &scale) &&
		  mantissa == 15 && scale == 1, "1572864 bytes are 1.5 MiB");
	check(dec_pow2_quotient(1, 20, &mantissa, &scale) &&
		  mantissa == INT64_C(95367431640625) && scale == 20, "1 byte is 2^-20 MiB");
	check(!dec_pow2_quotient(1, 63, &mantissa, &scale), "a shift over 62 is refused");
	for (i = 0; i < n; i++)
	{
		/* every magnitude, and as many values with low zero bits */
		uint64_t	r = rnd() >> (rnd() % 64);
		int64_t		v = (int64_t) (r << (rnd() % 2 ? 0 : rnd() % 40));

		check_pow2_quotient(v, 20);
		check_pow2_quotient(v, (int) (rnd() % 63));
	}
}

/* Fixed and random dec_scale_round_int64 cases. */
static void
test_decimal(void)
{
	const uint32_t MS = 1000000;
	const uint32_t MIB = 1048576;
	static char big[40000];
	int			i;

	expect_dec("2.628607988357544", MS, DEC_OK, 2628608);
	expect_dec("2.629631996154785", MS, DEC_OK, 2629632);
	expect_dec("94.83366394042969", MS, DEC_OK, 94833664);
	expect_dec("1e-05", MS, DEC_OK, 10);
	expect_dec(" 3 ", MS, DEC_OK, 3000000);
	expect_dec("\t\n 3\r\n", MS, DEC_OK, 3000000);
	expect_dec("0.0000005", MS, DEC_OK, 1);
	expect_dec("-0.0000005", MS, DEC_OK, -1);
	expect_dec("2.5e-6", MS, DEC_OK, 3);
	expect_dec("-2.5e-6", MS, DEC_OK, -3);
	expect_dec("0.0000004999999", MS, DEC_OK, 0);
	expect_dec("-0.0000004999999", MS, DEC_OK, 0);
	expect_dec("0.00000050000000000000000000000000000001", MS, DEC_OK, 1);
	expect_dec("9223372036854.775807", MS, DEC_OK, INT64_MAX);
	expect_dec("9223372036854.7758074999", MS, DEC_OK, INT64_MAX);
	expect_dec("9223372036854.7758075", MS, DEC_OUT_OF_RANGE, 0);
	expect_dec("9223372036854.775808", MS, DEC_OUT_OF_RANGE, 0);
	expect_dec("-9223372036854.775808", MS, DEC_OK, INT64_MIN);
	expect_dec("-9223372036854.7758084999", MS, DEC_OK, INT64_MIN);
	expect_dec("-9223372036854.7758085", MS, DEC_OUT_OF_RANGE, 0);
	expect_dec("-9223372036854.775809", MS, DEC_OUT_OF_RANGE, 0);
	expect_dec("9223372036854775807", 1, DEC_OK, INT64_MAX);
	expect_dec("9223372036854775808", 1, DEC_OUT_OF_RANGE, 0);
	expect_dec("-9223372036854775808", 1, DEC_OK, INT64_MIN);
	expect_dec("-9223372036854775808.5", 1, DEC_OUT_OF_RANGE, 0);
	expect_dec("-9223372036854775807.5", 1, DEC_OK, INT64_MIN);
	expect_dec("18446744073709551616", 1, DEC_OUT_OF_RANGE, 0);
	expect_dec("99999999999999999999999", MS, DEC_OUT_OF_RANGE, 0);
	expect_dec("0", MS, DEC_OK, 0);
	expect_dec("-0", MS, DEC_OK, 0);
	expect_dec("-0.0000001", MS, DEC_OK, 0);
	expect_dec(".5", MS, DEC_OK, 500000);
	expect_dec("5.", MS, DEC_OK, 5000000);
	expect_dec("+5.e-6", MS, DEC_OK, 5);
	expect_dec("-.5e-6", MS, DEC_OK, -1);
	expect_dec("1E3", MS, DEC_OK, 1000000000);
	expect_dec("1e+3", MS, DEC_OK, 1000000000);
	expect_dec("0001.2500000", MS, DEC_OK, 1250000);
	expect_dec("1e 3", MS, DEC_OK, 1000000000);	/* strtol skips spaces */
	expect_dec("1e-1073741822", MS, DEC_OUT_OF_RANGE, 0);	/* dscale too big */
	expect_dec("1e-1073741822", 0, DEC_OUT_OF_RANGE, 0);
	expect_dec("1e-1073741823", MS, DEC_OUT_OF_RANGE, 0);
	expect_dec("0e1073741823", MS, DEC_OUT_OF_RANGE, 0);
	expect_dec("1e99999999999999999999999", MS, DEC_OUT_OF_RANGE, 0);
	expect_dec("1e1000000", MS, DEC_OUT_OF_RANGE, 0);
	/* numeric_in checks the exponent range before trailing junk */
	expect_dec("1e223372036854.7758085", MS, DEC_OUT_OF_RANGE, 0);
	expect_dec("1e1073741823x", MS, DEC_OUT_OF_RANGE, 0);
	expect_dec("1e1073741822x", MS, DEC_SYNTAX, 0);
	expect_dec("0e1000000", MS, DEC_OK, 0);
	expect_dec("1e-16377", MS, DEC_OK, 0);
	expect_dec("1e-16384", MS, DEC_OUT_OF_RANGE, 0);
	expect_dec("NaN", MS, DEC_NAN, 0);
	expect_dec(" nan ", MS, DEC_NAN, 0);
	expect_dec("NAN", MS, DEC_NAN, 0);
	expect_dec("-NaN", MS, DEC_SYNTAX, 0);
	expect_dec("NaNa", MS, DEC_SYNTAX, 0);
	expect_dec("Infinity", MS, DEC_INFINITE, 0);
	expect_dec("-Infinity", MS, DEC_INFINITE, 0);
	expect_dec("+infinity", MS, DEC_INFINITE, 0);
	expect_dec(" inf", MS, DEC_INFINITE, 0);
	expect_dec("-INF ", MS, DEC_INFINITE, 0);
	expect_dec("+inf", MS, DEC_INFINITE, 0);
	expect_dec("infinit", MS, DEC_SYNTAX, 0);
	expect_dec("infinityx", MS, DEC_SYNTAX, 0);
	expect_dec("", MS, DEC_EMPTY, 0);
	expect_dec("   ", MS, DEC_EMPTY, 0);
	expect_dec("\t\n", MS, DEC_EMPTY, 0);
	expect_dec("1e", MS, DEC_SYNTAX, 0);
	expect_dec("1e+", MS, DEC_SYNTAX, 0);
	expect_dec("1e+ 3", MS, DEC_SYNTAX, 0);
	expect_dec("--1", MS, DEC_SYNTAX, 0);
	expect_dec("+-1", MS, DEC_SYNTAX, 0);
	expect_dec("1.2.3", MS, DEC_SYNTAX, 0);
	expect_dec("0x10", MS, DEC_SYNTAX, 0);
	expect_dec("1 2", MS, DEC_SYNTAX, 0);
	expect_dec("1_000", MS, DEC_SYNTAX, 0);
	expect_dec(".", MS, DEC_SYNTAX, 0);
	expect_dec("-", MS, DEC_SYNTAX, 0);
	expect_dec("- 1", MS, DEC_SYNTAX, 0);
	expect_dec(".e1", MS, DEC_SYNTAX, 0);
	expect_dec("1,5", MS, DEC_SYNTAX, 0);
	expect_dec("abc", MS, DEC_SYNTAX, 0);
	/* MiB -> bytes */
	expect_dec("1", MIB, DEC_OK, 1048576);
	expect_dec("0.5", MIB, DEC_OK, 524288);
	expect_dec("1.5", MIB, DEC_OK, 1572864);
	expect_dec("0.00000047683715820312", MIB, DEC_OK, 0);	/* just below 0.5 B */
	expect_dec("0.000000476837158203125", MIB, DEC_OK, 1);	/* exactly 0.5 B */
	expect_dec("-0.000000476837158203125", MIB, DEC_OK, -1);
	expect_dec("0.0000014305114746093750", MIB, DEC_OK, 2);	/* 1.5 B */
	expect_dec("8796093022207.999999046325683594", MIB, DEC_OK, INT64_MAX);
	expect_dec("8796093022208", MIB, DEC_OUT_OF_RANGE, 0);
	expect_dec("-8796093022208", MIB, DEC_OK, INT64_MIN);
	expect_dec("1234.5678", MIB, DEC_OK, 1294538165);	/* 1294538165.45 */
	expect_dec("16384.0", MIB, DEC_OK, 17179869184);
	/* other multipliers */
	expect_dec("1.5", 1, DEC_OK, 2);
	expect_dec("-1.5", 1, DEC_OK, -2);
	expect_dec("2.5", 1, DEC_OK, 3);
	expect_dec("1.49999", 1, DEC_OK, 1);
	expect_dec("123", 0, DEC_OK, 0);
	expect_dec("1", 4294967295u, DEC_OK, 4294967295);
	expect_dec("2147483648.5", 4294967295u, DEC_OUT_OF_RANGE, 0);
	expect_dec("2147483647.5", 4294967295u, DEC_OK, INT64_C(9223372032559808513));

	/* not NUL-terminated */
	{
		int64_t		r;

		check(dec_scale_round_int64("12345", 2, 1, &r) == DEC_OK && r == 12,
			  "dec length respected");
		check(dec_scale_round_int64("1\0", 2, 1, &r) == DEC_SYNTAX,
			  "dec embedded NUL");
	}

	/* a very long fraction */
	strcpy(big, "0.");
	memset(big + 2, '0', 5);
	memset(big + 7, '5', 16000);
	big[16007] = '\0';
	compare_dec(big, strlen(big), MS);
	expect_dec(big, MS, DEC_OK, 6);
	expect_dec(big, MIB, DEC_OK, 6);
	/* and one numeric would not store */
	memset(big + 7, '0', 20000);
	big[20007] = '1';
	big[20008] = '\0';
	expect_dec(big, MS, DEC_OUT_OF_RANGE, 0);
	/* long integer part with leading zeros */
	memset(big, '0', 30000);
	strcpy(big + 30000, "42.5");
	expect_dec(big, 1, DEC_OK, 43);

	/* random inputs against the reference */
	for (i = 0; i < rounds(300000); i++)
	{
		char		buf[256];
		size_t		n = 0;
		uint32_t	m;

		switch (rndn(5))
		{
			case 0:
			case 1:
				m = MS;
				break;
			case 2:
				m = MIB;
				break;
			case 3:
				m = 1;
				break;
			default:
				m = (uint32_t) rnd();
				break;
		}
		if (rndn(8) == 0)
			buf[n++] = ' ';
		if (i % 3 == 0)
		{
			/* an exact half of a unit, possibly nudged by one last digit */
			uint64_t	k = rnd() % (rndn(2) ? 100000 : UINT64_C(20000000000000));
			/* (2k + 1) / (2m) as a decimal: (2k+1) * 5^j / 10^j */
			char		digits[128];
			uint32_t	mm = m;
			int			nd,
						j,
						carry,
						pos;

			/* only multipliers of the form 2^a 5^b have finite halves */
			while (mm % 2 == 0)
				mm /= 2;
			while (mm % 5 == 0)
				mm /= 5;
			if (mm != 1)
				m = MS;
			/* value v = (2k+1) / (2m); scale 10^s with s large enough */
			{
				/* compute exactly with a digit array: (2k+1) * 10^40 / (2m) */
				int			num[80];
				uint64_t	rem = 0;

				nd = snprintf(digits, sizeof(digits), "%" PRIu64, 2 * k + 1);
				for (j = 0; j < nd; j++)
					num[j] = digits[j] - '0';
				for (j = nd; j < nd + 40; j++)
					num[j] = 0;
				/* long division by 2m */
				for (j = 0; j < nd + 40; j++)
				{
					uint64_t	cur = rem * 10 + (uint64_t) num[j];

					num[j] = (int) (cur / (2 * (uint64_t) m));
					rem = cur % (2 * (uint64_t) m);
				}
				/* rem is zero; print with the point 40 from the right */
				pos = 0;
				for (j = 0; j < nd + 40; j++)
				{
					if (j == nd)
						digits[pos++] = '.';
					digits[pos++] = (char) ('0' + num[j]);
				}
				digits[pos] = '\0';
				/* strip trailing zeros after the point */
				while (pos > 0 && digits[pos - 1] == '0')
					digits[--pos] = '\0';
				carry = (int) rndn(3);
				if (carry == 1 && digits[pos - 1] >= '1' && digits[pos - 1] != '.')
					digits[pos - 1]--;
				else if (carry == 2)
					digits[pos++] = '1', digits[pos] = '\0';
			}
			if (rndn(2))
				buf[n++] = '-';
			memcpy(buf + n, digits, strlen(digits));
			n += strlen(digits);
		}
		else
			n += random_decimal_text(buf + n, true);
		if (rndn(8) == 0)
			buf[n++] = '\t';
		buf[n] = '\0';
		compare_dec(buf, n, m);

		/* and where it fits, against __int128 arithmetic on integers */
		if (i % 7 == 0)
		{
			int64_t		v = (int64_t) (rnd() >> rndn(64));
			int64_t		r = 0;
			__extension__ __int128 w;
			dec_status	st;

			if (rndn(2))
				v = -v;
			n = (size_t) snprintf(buf, sizeof(buf), "%" PRId64, v);
			st = dec_scale_round_int64(buf, n, m, &r);
			w = (__int128) v * m;
			if (w > INT64_MAX || w < INT64_MIN)
				check(st == DEC_OUT_OF_RANGE, "int128 %s * %u overflow", buf, m);
			else
				check(st == DEC_OK && r == (int64_t) w, "int128 %s * %u", buf, m);
		}
	}
}

/* Run all tests; print "N passed, N failed" last. */
int
main(int argc, char **argv)
{
	int			i;

	test_write_string();
	test_compare_keys();
	test_rfc_numbers();
	test_number_cases();
	test_number_random();
	test_decimal();
	test_pow2_quotient();
	for (i = 1; i < argc; i++)
		test_v8_file(argv[i]);

	printf("%ld passed, %ld failed\n", passed, failed);
	return failed == 0 ? 0 : 1;
}
