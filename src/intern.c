/*-------------------------------------------------------------------------
 *
 * intern.c
 *	  Byte strings numbered in the order they are first met (see intern.h).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "common/hashfn.h"
#include "utils/memutils.h"

#include "intern.h"

/* The bytes of a string. */
typedef struct InternKey
{
	const char *bytes;
	int			len;
} InternKey;

/* One string of a table. */
typedef struct InternEntry
{
	InternKey	key;
	uint32		hash;			/* of the key, for simplehash */
	int			n;				/* its number */
	char		status;			/* simplehash's */
} InternEntry;

#define SH_PREFIX interns
#define SH_ELEMENT_TYPE InternEntry
#define SH_KEY_TYPE InternKey
#define SH_KEY key
#define SH_HASH_KEY(tb, k) hash_bytes((const unsigned char *) (k).bytes, (k).len)
#define SH_EQUAL(tb, a, b) ((a).len == (b).len && memcmp((a).bytes, (b).bytes, (a).len) == 0)
#define SH_SCOPE static inline
#define SH_STORE_HASH
#define SH_GET_HASH(tb, a) (a)->hash
#define SH_DECLARE
#define SH_DEFINE
#include "lib/simplehash.h"

struct InternTable
{
	MemoryContext cxt;
	interns_hash *hash;
	InternKey  *keys;			/* by number */
	int			n;
	int			cap;
};

/* A new table; see intern.h. */
InternTable *
intern_create(MemoryContext cxt)
{
	InternTable *t = MemoryContextAllocZero(cxt, sizeof(InternTable));

	t->cxt = cxt;
	t->hash = interns_create(cxt, 64, NULL);
	return t;
}

/* The number of a string, added if new; see intern.h. */
int
intern_add(InternTable *t, const char *bytes, int len, bool *isnew)
{
	InternKey	key = {bytes, len};
	bool		found;
	InternEntry *e = interns_insert(t->hash, key, &found);
	char	   *copy;

	*isnew = !found;
	if (found)
		return e->n;
	if (t->n == t->cap)
	{
		t->cap = t->cap ? t->cap * 2 : 64;
		t->keys = t->keys ?
			repalloc_huge(t->keys, sizeof(InternKey) * t->cap) :
			MemoryContextAlloc(t->cxt, sizeof(InternKey) * t->cap);
	}
	copy = MemoryContextAlloc(t->cxt, len + 1);
	memcpy(copy, bytes, len);
	copy[len] = '\0';
	e->key.bytes = copy;
	e->key.len = len;
	e->n = t->n;
	t->keys[t->n] = e->key;
	return t->n++;
}

/* The number of a string, or -1; see intern.h. */
int
intern_find(InternTable *t, const char *bytes, int len)
{
	InternKey	key = {bytes, len};
	InternEntry *e = interns_lookup(t->hash, key);

	return e ? e->n : -1;
}

/* The bytes of a number; see intern.h. */
const char *
intern_bytes(InternTable *t, int n, int *len)
{
	Assert(n >= 0 && n < t->n);
	if (len != NULL)
		*len = t->keys[n].len;
	return t->keys[n].bytes;
}

/* How many strings the table holds. */
int
intern_count(InternTable *t)
{
	return t->n;
}
