/*-------------------------------------------------------------------------
 *
 * fuzz_release.c
 *	  libFuzzer harness for release_version_key.
 *
 * The input is two release labels separated by a NUL byte.  A plain
 * reference here reads each label by the grammar release.h documents (an
 * optional "v", up to 24 dot-separated numbers of up to 18 digits, then
 * optionally a pre-release: an optional "-" or ".", a tag, and an optional
 * number after an optional "." or "-") and compares versions field by
 * field.  Invariants: a key is written exactly for a version, never longer
 * than RELEASE_KEY_MAX (the output buffer is exactly that long, so ASan
 * catches an overrun); byte order of keys is the reference's version
 * order; the key ignores case.
 *
 * test/fuzz/fuzz_release.c
 *
 *-------------------------------------------------------------------------
 */
#include <string.h>

#include "fuzz_common.h"
#include "../../src/core/release.h"

#define REF_MAX_NUMS 24
#define REF_MAX_DIGITS 18

/* A version as the reference reads it. */
typedef struct RefVersion
{
	uint64_t	nums[REF_MAX_NUMS];
	int			nnums;			/* trailing zero numbers dropped, at least 1 */
	int			pre_rank;		/* 0: a release; dev 1, a 2, b 3, rc/pre 4 */
	uint64_t	pre_num;
} RefVersion;

/* Pre-release tags and their ranks, in no particular order. */
static const struct
{
	const char *tag;
	int			rank;
}			ref_tags[] = {
	{"dev", 1}, {"a", 2}, {"alpha", 2}, {"b", 3}, {"beta", 3},
	{"rc", 4}, {"pre", 4}, {"preview", 4}
};

/* Read 1 to 18 digits at s[*i]; false if there are none or too many. */
static int
ref_number(const char *s, size_t len, size_t *i, uint64_t *v)
{
	size_t		n = 0;

	*v = 0;
	while (*i + n < len && s[*i + n] >= '0' && s[*i + n] <= '9')
	{
		*v = *v * 10 + (uint64_t) (s[*i + n] - '0');
		n++;
	}
	if (n == 0 || n > REF_MAX_DIGITS)
		return 0;
	*i += n;
	return 1;
}

/* Case-insensitive match of an ASCII tag at s[i]. */
static int
ref_tag_at(const char *s, size_t len, size_t i, const char *tag)
{
	size_t		tl = strlen(tag);
	size_t		j;

	if (len - i < tl)
		return 0;
	for (j = 0; j < tl; j++)
	{
		char		c = s[i + j];

		if (c >= 'A' && c <= 'Z')
			c = (char) (c - 'A' + 'a');
		if (c != tag[j])
			return 0;
	}
	return 1;
}

/* The pre-release part s[i..len): tag and optional number; false if not. */
static int
ref_pre(const char *s, size_t len, size_t i, RefVersion *v)
{
	size_t		t;

	if (i < len && (s[i] == '-' || s[i] == '.'))
		i++;
	for (t = 0; t < sizeof(ref_tags) / sizeof(ref_tags[0]); t++)
	{
		size_t		j = i + strlen(ref_tags[t].tag);
		uint64_t	num = 0;

		if (!ref_tag_at(s, len, i, ref_tags[t].tag))
			continue;
		if (j < len)
		{
			/* [.-]? number, the whole rest */
			size_t		k = j;

			if (s[k] == '.' || s[k] == '-')
				k++;
			if (!ref_number(s, len, &k, &num) || k != len)
				continue;
		}
		v->pre_rank = ref_tags[t].rank;
		v->pre_num = num;
		return 1;
	}
	return 0;
}

/* Read a label by the documented grammar; false if it is no version. */
static int
ref_parse(const char *s, size_t len, RefVersion *v)
{
	size_t		i = 0;

	memset(v, 0, sizeof(*v));
	if (len > 0 && (s[0] == 'v' || s[0] == 'V'))
		i++;
	for (;;)
	{
		if (v->nnums == REF_MAX_NUMS || !ref_number(s, len, &i, &v->nums[v->nnums]))
			return 0;
		v->nnums++;
		if (i + 1 < len && s[i] == '.' && s[i + 1] >= '0' && s[i + 1] <= '9')
		{
			i++;
			continue;
		}
		break;
	}
	while (v->nnums > 1 && v->nums[v->nnums - 1] == 0)
		v->nnums--;
	if (i == len)
		return 1;
	return ref_pre(s, len, i, v);
}

/* Version order: -1, 0 or 1. */
static int
ref_compare(const RefVersion *a, const RefVersion *b)
{
	int			i;

	for (i = 0; i < a->nnums && i < b->nnums; i++)
		if (a->nums[i] != b->nums[i])
			return a->nums[i] < b->nums[i] ? -1 : 1;
	if (a->nnums != b->nnums)
		return a->nnums < b->nnums ? -1 : 1;
	if (a->pre_rank != b->pre_rank)
	{
		if (a->pre_rank == 0 || b->pre_rank == 0)
			return a->pre_rank == 0 ? 1 : -1;
		return a->pre_rank < b->pre_rank ? -1 : 1;
	}
	if (a->pre_num != b->pre_num)
		return a->pre_num < b->pre_num ? -1 : 1;
	return 0;
}

/* Key order: memcmp, shorter first on a common prefix. */
static int
key_compare(const unsigned char *a, size_t la, const unsigned char *b, size_t lb)
{
	int			c = memcmp(a, b, la < lb ? la : lb);

	if (c != 0)
		return c < 0 ? -1 : 1;
	return la < lb ? -1 : la > lb ? 1 : 0;
}

/* One fuzz iteration. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *label[2];
	size_t		len[2];
	unsigned char *key[2];
	size_t		klen[2];
	RefVersion	ref[2];
	int			ok[2];
	const uint8_t *nul = memchr(data, 0, size);
	int			k;

	label[0] = (const char *) data;
	len[0] = nul ? (size_t) (nul - data) : size;
	label[1] = nul ? (const char *) nul + 1 : "";
	len[1] = nul ? size - len[0] - 1 : 0;

	for (k = 0; k < 2; k++)
	{
		char	   *lower = malloc(len[k] + 1);
		unsigned char *lkey = malloc(RELEASE_KEY_MAX);
		size_t		lklen;
		size_t		i;

		key[k] = malloc(RELEASE_KEY_MAX);
		klen[k] = release_version_key(label[k], len[k], key[k]);
		ok[k] = ref_parse(label[k], len[k], &ref[k]);
		FUZZ_ASSERT(klen[k] <= RELEASE_KEY_MAX, "key of %zu bytes", klen[k]);
		FUZZ_ASSERT((klen[k] > 0) == ok[k], "\"%.*s\": key of %zu bytes, reference says %s",
					(int) len[k], label[k], klen[k], ok[k] ? "a version" : "no version");

		for (i = 0; i < len[k]; i++)
			lower[i] = (label[k][i] >= 'A' && label[k][i] <= 'Z') ?
				(char) (label[k][i] - 'A' + 'a') : label[k][i];
		lklen = release_version_key(lower, len[k], lkey);
		FUZZ_ASSERT(lklen == klen[k] && memcmp(lkey, key[k], klen[k]) == 0,
					"\"%.*s\": case changes the key", (int) len[k], label[k]);
		free(lower);
		free(lkey);
	}
	if (ok[0] && ok[1])
	{
		int			got = key_compare(key[0], klen[0], key[1], klen[1]);
		int			want = ref_compare(&ref[0], &ref[1]);

		FUZZ_ASSERT(got == want, "\"%.*s\" vs \"%.*s\": keys say %d, versions %d",
					(int) len[0], label[0], (int) len[1], label[1], got, want);
	}
	free(key[0]);
	free(key[1]);
	return 0;
}
