/*-------------------------------------------------------------------------
 *
 * test_liger_label.c
 *	  Unit tests for src/core/liger_label.c and src/core/slug.c: slugs, name cuts, bare label
 *	  values, torch dtypes, label templates and x values.
 *
 * Each rule is checked on fixed cases (what the SQL builders of kernelindex
 * 0.1.0 answered for them, by their regular expressions) and on random
 * strings against a plain reference written here from the regular
 * expression, a character class at a time.
 *
 * The last line printed is "N passed, N failed"; the exit status is
 * non-zero on any failure.
 *
 * test/unit/test_liger_label.c
 *
 *-------------------------------------------------------------------------
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/core/liger_label.h"
#include "../../src/core/slug.h"

#define UNIT_RNG_SEED UINT64_C(0x13198A2E03707344)
#include "unit.h"

/* Bytes random strings are drawn from: the rules' specials, and others. */
static const char alphabet[] = "aZz09_.-*{}/ \t\n\"\\torch.floatbint8_E+e\xc3\xa9\x80\xff";

/* A random string of up to max bytes into buf (NUL-terminated); its length. */
static size_t
random_string(char *buf, size_t max)
{
	size_t		len = rndn((uint32_t) max + 1);
	size_t		i;

	for (i = 0; i < len; i++)
		buf[i] = alphabet[rndn(sizeof(alphabet) - 1)];
	buf[len] = '\0';
	return len;
}

/* Reference slug: replace each maximal run, then trim the ends. */
static size_t
ref_slug(const char *s, size_t len, char *out)
{
	char	   *tmp = malloc(len + 1);
	size_t		n = 0;
	size_t		i = 0;
	size_t		start = 0;
	size_t		end;

	while (i < len)
	{
		if ((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9'))
			tmp[n++] = s[i++];
		else
		{
			tmp[n++] = '-';
			while (i < len && !((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9')))
				i++;
		}
	}
	end = n;
	while (start < end && tmp[start] == '-')
		start++;
	while (end > start && tmp[end - 1] == '-')
		end--;
	memcpy(out, tmp + start, end - start);
	free(tmp);
	return end - start;
}

/* Slugs: fixed cases, then random strings against the reference. */
static void
test_slug(void)
{
	static const struct
	{
		const char *in;
		const char *out;
	}			cases[] = {
		{"nvidia a100-sxm4-80gb", "nvidia-a100-sxm4-80gb"},
		{"features16384-tokens2048-fp32", "features16384-tokens2048-fp32"},
		{"---", ""},
		{"", ""},
		{"   a   ", "a"},
		{"a--b__c..d", "a-b-c-d"},
		{"x=1,y=\"a/b\"", "x-1-y-a-b"},
		{"\xc3\xa4rger gpu", "rger-gpu"},
		{"stra\xc3\x9f" "e", "stra-e"},
		{"MIXED", ""},
		{"a\tb\nc", "a-b-c"},
	};
	char		buf[256];
	char		out[256];
	char		ref[256];
	long		r;
	size_t		i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
	{
		size_t		n = kidx_slug_lowered(cases[i].in, strlen(cases[i].in), out);

		check(n == strlen(cases[i].out) && memcmp(out, cases[i].out, n) == 0,
			  "slug of \"%s\": \"%.*s\", expected \"%s\"", cases[i].in, (int) n, out, cases[i].out);
	}
	for (r = 0; r < rounds(200000); r++)
	{
		size_t		len = random_string(buf, 60);
		size_t		n = kidx_slug_lowered(buf, len, out);
		size_t		m = ref_slug(buf, len, ref);

		if (!check(n == m && memcmp(out, ref, n) == 0, "random slug of \"%s\"", buf))
			continue;
		/* a slug is its own slug */
		check(kidx_slug_lowered(out, n, ref) == n && memcmp(out, ref, n) == 0,
			  "slug of slug \"%.*s\"", (int) n, out);
	}
}

/* Name cuts: rtrim(left(name, max), '-'). */
static void
test_name_cut(void)
{
	char		name[300];
	size_t		i;
	long		r;

	check(kidx_name_cut("liger-bench-", 12, 100) == 11, "trailing hyphen goes");
	check(kidx_name_cut("abc", 3, 100) == 3, "short name stays");
	check(kidx_name_cut("---", 3, 100) == 0, "only hyphens");
	check(kidx_name_cut("", 0, 100) == 0, "empty");
	memset(name, 'k', 99);
	name[99] = '-';
	name[100] = 'x';
	check(kidx_name_cut(name, 101, 100) == 99, "cut before a hyphen at 100");
	for (r = 0; r < rounds(100000); r++)
	{
		size_t		len = rndn(200);
		size_t		n;
		size_t		want;

		for (i = 0; i < len; i++)
			name[i] = rndn(3) == 0 ? '-' : 'a';
		n = kidx_name_cut(name, len, KIDX_NAME_MAX);
		want = len < KIDX_NAME_MAX ? len : KIDX_NAME_MAX;
		while (want > 0 && name[want - 1] == '-')
			want--;
		check(n == want, "cut of %zu bytes: %zu, expected %zu", len, n, want);
	}
}

/* Bare label values, torch dtypes and their short forms. */
static void
test_values(void)
{
	static const struct
	{
		const char *s;
		bool		bare;
		bool		dtype;
		const char *shortened;
	}			cases[] = {
		{"torch.float32", true, true, "fp32"},
		{"torch.bfloat16", true, true, "bf16"},
		{"torch.float8_e4m3fn", true, true, "fp8_e4m3fn"},
		{"torch.int8", true, true, "int8"},
		{"torch.uint8", true, true, "uint8"},
		{"torch.complex64", true, true, "complex64"},
		{"torch.float", true, false, "float"},
		{"torch.floatx", true, false, "floatx"},
		{"torch.bfloat", true, false, "bfloat"},
		{"torch.float32_", true, false, "fp32_"},
		{"torch.float32_E4", true, false, "fp32_E4"},
		{"torch.float32__x", true, false, "fp32__x"},
		{"torch.half", true, false, "half"},
		{"torch.", true, false, ""},
		{"float32", true, false, "float32"},
		{"torch_float32", true, false, "torch_float32"},
		{"xtorch.float32", true, false, "xtorch.float32"},
		{"true", false, false, "true"},
		{"false", false, false, "false"},
		{"null", false, false, "null"},
		{"True", true, false, "True"},
		{"_x.y_z", true, false, "_x.y_z"},
		{"1a", false, false, "1a"},
		{"", false, false, ""},
		{"a b", false, false, "a b"},
		{"a/b", false, false, "a/b"},
		{"\xc3\xa9", false, false, "\xc3\xa9"},
	};
	char		out[64];
	size_t		i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
	{
		const char *s = cases[i].s;
		size_t		len = strlen(s);
		size_t		n = liger_dtype_label(s, len, out);

		check(liger_label_is_bare(s, len) == cases[i].bare, "\"%s\" bare: %d", s, cases[i].bare);
		check(liger_is_torch_dtype(s, len) == cases[i].dtype, "\"%s\" dtype: %d", s, cases[i].dtype);
		check(n == strlen(cases[i].shortened) && memcmp(out, cases[i].shortened, n) == 0,
			  "short dtype of \"%s\": \"%.*s\", expected \"%s\"", s, (int) n, out, cases[i].shortened);
	}
}

/*
 * Reference placeholders: every "{" at or after pos whose first brace after
 * it is "}" starts one, scanning left to right past each one found.
 */
static int
ref_placeholders(const char *t, size_t len, LigerPlaceholder *out, int max)
{
	int			n = 0;
	size_t		i = 0;

	while (i < len && n < max)
	{
		size_t		j;

		if (t[i] != '{')
		{
			i++;
			continue;
		}
		j = i + 1;
		while (j < len && t[j] != '{' && t[j] != '}')
			j++;
		if (j < len && t[j] == '}')
		{
			out[n].start = i;
			out[n].end = j + 1;
			n++;
			i = j + 1;
		}
		else
			i++;
	}
	return n;
}

/* Reference kind of a placeholder's key, by counting its stars. */
static LigerPlaceholderKind
ref_kind(const char *k, size_t len, size_t *star)
{
	size_t		stars = 0;
	size_t		i;

	for (i = 0; i < len; i++)
		if (k[i] == '*')
		{
			stars++;
			*star = i;
		}
	if (stars == 0)
		return len > 0 ? LIGER_PH_LONE : LIGER_PH_KEY;
	if (stars == 1 && *star > 0 && *star < len - 1)
		return LIGER_PH_PRODUCT;
	return LIGER_PH_KEY;
}

/* Templates: fixed ones, then random ones against the reference. */
static void
test_template(void)
{
	static const struct
	{
		const char *t;
		const char *keys;		/* the placeholders' keys, "|" after each */
	}			cases[] = {
		{"features{V}-tokens{B*T}-{dtype}", "V|B*T|dtype|"},
		{"batch{B}-seq{T}-vocab{V}-{dtype}", "B|T|V|dtype|"},
		{"", ""},
		{"fixed", ""},
		{"{}", "|"},
		{"{a{b}c}}{{d}{", "b|d|"},
		{"{{}}", "|"},
		{"{a", ""},
		{"a}", ""},
		{"{a*b*c}{*x}{x*}", "a*b*c|*x|x*|"},
	};
	static const struct
	{
		const char *k;
		LigerPlaceholderKind kind;
		size_t		star;
	}			kinds[] = {
		{"V", LIGER_PH_LONE, 0}, {"B*T", LIGER_PH_PRODUCT, 1}, {"", LIGER_PH_KEY, 0},
		{"a*b*c", LIGER_PH_KEY, 0}, {"*x", LIGER_PH_KEY, 0}, {"x*", LIGER_PH_KEY, 0},
		{"*", LIGER_PH_KEY, 0}, {"ab*cd", LIGER_PH_PRODUCT, 2}, {"a b", LIGER_PH_LONE, 0},
	};
	char		buf[128];
	LigerPlaceholder got[64];
	LigerPlaceholder want[64];
	size_t		i;
	long		r;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
	{
		const char *t = cases[i].t;
		char		keys[128] = "";
		size_t		pos = 0;
		LigerPlaceholder ph;

		while (liger_template_next(t, strlen(t), pos, &ph))
		{
			strncat(keys, t + ph.start + 1, ph.end - ph.start - 2);
			strcat(keys, "|");
			pos = ph.end;
		}
		check(strcmp(keys, cases[i].keys) == 0, "placeholders of \"%s\": \"%s\", expected \"%s\"",
			  t, keys, cases[i].keys);
	}
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
	{
		size_t		star = 0;
		LigerPlaceholderKind k = liger_placeholder_kind(kinds[i].k, strlen(kinds[i].k), &star);

		check(k == kinds[i].kind && (k != LIGER_PH_PRODUCT || star == kinds[i].star),
			  "kind of \"%s\": %d", kinds[i].k, (int) k);
	}
	for (r = 0; r < rounds(200000); r++)
	{
		size_t		len = random_string(buf, 40);
		int			n = ref_placeholders(buf, len, want, 64);
		int			m = 0;
		size_t		pos = 0;
		LigerPlaceholder ph;
		int			j;

		while (m < 64 && liger_template_next(buf, len, pos, &ph))
		{
			got[m++] = ph;
			pos = ph.end;
		}
		if (!check(m == n, "\"%s\": %d placeholders, expected %d", buf, m, n))
			continue;
		for (j = 0; j < n; j++)
		{
			const char *key = buf + got[j].start + 1;
			size_t		keylen = got[j].end - got[j].start - 2;
			size_t		s1 = 0;
			size_t		s2 = 0;
			LigerPlaceholderKind k1;
			LigerPlaceholderKind k2;

			check(got[j].start == want[j].start && got[j].end == want[j].end,
				  "\"%s\": placeholder %d at %zu-%zu, expected %zu-%zu", buf, j,
				  got[j].start, got[j].end, want[j].start, want[j].end);
			k1 = liger_placeholder_kind(key, keylen, &s1);
			k2 = ref_kind(key, keylen, &s2);
			check(k1 == k2 && (k1 != LIGER_PH_PRODUCT || s1 == s2),
				  "kind of \"%.*s\": %d, expected %d", (int) keylen, key, (int) k1, (int) k2);
		}
	}
}

/* Reference: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? as a state machine. */
static bool
ref_number(const char *s, size_t len)
{
	/* states: 0 start, 1 sign, 2 zero, 3 int, 4 point, 5 frac, 6 e, 7 esign, 8 exp */
	int			st = 0;
	size_t		i;

	for (i = 0; i < len; i++)
	{
		char		c = s[i];
		bool		d = c >= '0' && c <= '9';

		switch (st)
		{
			case 0:
			case 1:
				st = c == '-' && st == 0 ? 1 : c == '0' ? 2 : d ? 3 : -1;
				break;
			case 2:
			case 3:
				st = st == 3 && d ? 3 : c == '.' ? 4 : (c == 'e' || c == 'E') ? 6 : -1;
				break;
			case 4:
				st = d ? 5 : -1;
				break;
			case 5:
				st = d ? 5 : (c == 'e' || c == 'E') ? 6 : -1;
				break;
			case 6:
				st = (c == '+' || c == '-') ? 7 : d ? 8 : -1;
				break;
			case 7:
			case 8:
				st = d ? 8 : -1;
				break;
		}
		if (st < 0)
			return false;
	}
	return st == 2 || st == 3 || st == 5 || st == 8;
}

/* x values: fixed cases, then random ones against the reference. */
static void
test_x_kind(void)
{
	static const struct
	{
		const char *s;
		LigerXKind kind;
	}			cases[] = {
		{"16384", LIGER_X_NUMBER}, {"0", LIGER_X_NUMBER}, {"-0", LIGER_X_NUMBER},
		{"0.10", LIGER_X_NUMBER}, {"1e3", LIGER_X_NUMBER}, {"1E+3", LIGER_X_NUMBER},
		{"1.5e-7", LIGER_X_NUMBER}, {"0123", LIGER_X_STRING}, {"00", LIGER_X_STRING},
		{"5.", LIGER_X_STRING}, {"1e", LIGER_X_STRING}, {"+1", LIGER_X_STRING},
		{".5", LIGER_X_STRING}, {"-", LIGER_X_STRING}, {"", LIGER_X_STRING},
		{"abc", LIGER_X_STRING}, {" 5", LIGER_X_UNSURE}, {"5 ", LIGER_X_UNSURE},
		{"\t5", LIGER_X_UNSURE}, {"a b", LIGER_X_UNSURE}, {"5\xc2\xa0", LIGER_X_UNSURE},
		{"\x7f", LIGER_X_UNSURE},
	};
	char		buf[64];
	size_t		i;
	long		r;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		check(liger_x_kind(cases[i].s, strlen(cases[i].s)) == cases[i].kind,
			  "x kind of \"%s\": %d", cases[i].s, (int) cases[i].kind);
	for (r = 0; r < rounds(300000); r++)
	{
		static const char digits[] = "0123456789-.eE+ x";
		size_t		len = rndn(12);
		bool		printable = true;
		LigerXKind want;

		for (i = 0; i < len; i++)
		{
			buf[i] = digits[rndn(sizeof(digits) - 1)];
			printable = printable && buf[i] != ' ';
		}
		buf[len] = '\0';
		want = ref_number(buf, len) ? LIGER_X_NUMBER : printable ? LIGER_X_STRING : LIGER_X_UNSURE;
		check(liger_x_kind(buf, len) == want, "x kind of \"%s\"", buf);
	}
}

/* Run every test. */
int
main(void)
{
	test_slug();
	test_name_cut();
	test_values();
	test_template();
	test_x_kind();
	printf("liger_label: %ld passed, %ld failed\n", passed, failed);
	return failed == 0 ? 0 : 1;
}
