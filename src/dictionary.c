/*-------------------------------------------------------------------------
 *
 * dictionary.c
 *	  The dictionaries of the values runs repeat (see dictionary.h).
 *
 * Every dictionary is a table (id, hash, value): id a small integer runs
 * refer to, hash the first 16 bytes of SHA-256 of the value's canonical JSON
 * (unique; the table CHECKs it), value the string or jsonb.  The template
 * dictionary has the template's rules as further columns, in its hash too
 * (run_template_hash).  A statement's values are interned in memory with
 * simplehash, keyed by their bytes; the new ones are stored at the end of
 * the statement with one INSERT ... ON CONFLICT (hash) DO NOTHING per
 * dictionary, in hash order (so that concurrent loads wait for each other
 * instead of deadlocking), and every value's id is read back with the
 * value itself, which is compared with the statement's: a hash shared by
 * two different values fails the statement, never stores a wrong value.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "compat.h"

#include "catalog/pg_type.h"
#include "common/hashfn.h"
#include "executor/spi.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/hsearch.h"
#include "utils/jsonb.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"

#include "canonical.h"
#include "dictionary.h"
#include "extension.h"
#include "intern.h"

/* The values of one dictionary a statement brings. */
typedef struct DictValues
{
	InternTable *keys;			/* the bytes that identify them */
	void	  **values;			/* the value: char *, Jsonb * or RunTemplate * */
	int			cap;
	int32	   *ids;			/* once stored */
} DictValues;

struct DictSet
{
	MemoryContext cxt;
	DictValues	d[DK_N];
};

/* ----------------------------------------------------------------
 *		Hashes
 * ----------------------------------------------------------------
 */

/* The dictionary hash of a string: its canonical JSON string. */
void
dict_hash_text(const char *s, int len, pg_uuid_t *result)
{
	CanonSink  *sink = canon_sink_digest();
	KidxDigest	d;

	canon_write_string(sink, s, len);
	canon_sink_finish(sink, &d);
	memcpy(result->data, d.data, UUID_LEN);
}

/* The dictionary hash of a jsonb value: its canonical JSON. */
void
dict_hash_jsonb(Jsonb *jb, pg_uuid_t *result)
{
	CanonSink  *sink = canon_sink_digest();
	KidxDigest	d;

	canon_write_container(sink, &jb->root);
	canon_sink_finish(sink, &d);
	memcpy(result->data, d.data, UUID_LEN);
}

/* ----------------------------------------------------------------
 *		Interning a statement's values
 * ----------------------------------------------------------------
 */

/* A new set; see dictionary.h. */
DictSet *
dict_set_create(MemoryContext cxt)
{
	DictSet    *ds = MemoryContextAllocZero(cxt, sizeof(DictSet));
	int			k;

	ds->cxt = cxt;
	for (k = 0; k < DK_N; k++)
		ds->d[k].keys = intern_create(cxt);
	return ds;
}

/*
 * The index of a value with these key bytes; for a new one *isnew says so,
 * and its value is the table's copy of the bytes until the caller sets it.
 */
static int
intern(DictSet *ds, DictKind kind, const char *bytes, int len, bool *isnew)
{
	DictValues *dv = &ds->d[kind];
	int			i = intern_add(dv->keys, bytes, len, isnew);

	if (*isnew)
	{
		if (i == dv->cap)
		{
			dv->cap = dv->cap ? dv->cap * 2 : 64;
			dv->values = dv->values ?
				repalloc_huge(dv->values, sizeof(void *) * dv->cap) :
				MemoryContextAlloc(ds->cxt, sizeof(void *) * dv->cap);
		}
		dv->values[i] = (void *) intern_bytes(dv->keys, i, NULL);
	}
	return i;
}

/* The set's index of a string; see dictionary.h. */
int
dict_text(DictSet *ds, DictKind kind, const char *s)
{
	bool		isnew;

	if (s == NULL)
		return -1;
	return intern(ds, kind, s, strlen(s), &isnew);
}

/* The string of a set's index of a text dictionary (-1: NULL). */
const char *
dict_text_value(DictSet *ds, DictKind kind, int index)
{
	if (index < 0)
		return NULL;
	return ds->d[kind].values[index];
}

/* The set's index of a label set; see dictionary.h. */
int
dict_labels(DictSet *ds, Jsonb *labels)
{
	bool		isnew;

	if (labels == NULL)
		return -1;
	return intern(ds, DK_LABELS, (const char *) labels, VARSIZE(labels), &isnew);
}

/* The bytes that identify a template: its rules, then its document. */
static StringInfo
template_key(const RunTemplate *t)
{
	StringInfo	key = makeStringInfo();
	int32		head[3] = {t->name_form, t->name_cut, t->external_id_form};

	appendBinaryStringInfo(key, (const char *) head, sizeof(head));
	if (t->name_prefix != NULL)
		appendStringInfoString(key, t->name_prefix);
	appendStringInfoChar(key, '\0');
	if (t->native_unit != NULL)
		appendStringInfoString(key, t->native_unit);
	appendStringInfoChar(key, '\0');
	appendBinaryStringInfo(key, (const char *) t->doc, VARSIZE(t->doc));
	return key;
}

/* A string's copy in cxt, or NULL. */
static char *
copy_or_null(MemoryContext cxt, const char *s)
{
	return s ? MemoryContextStrdup(cxt, s) : NULL;
}

/* The set's index of a template; see dictionary.h. */
int
dict_template(DictSet *ds, const RunTemplate *t, RunTemplate **interned)
{
	StringInfo	key = template_key(t);
	bool		isnew;
	int			i = intern(ds, DK_TEMPLATE, key->data, key->len, &isnew);
	DictValues *dv = &ds->d[DK_TEMPLATE];


	if (isnew)
	{
		MemoryContext old = MemoryContextSwitchTo(ds->cxt);
		RunTemplate *copy = palloc0(sizeof(RunTemplate));

		copy->doc = palloc(VARSIZE(t->doc));
		memcpy(copy->doc, t->doc, VARSIZE(t->doc));
		copy->name_form = t->name_form;
		copy->name_prefix = copy_or_null(ds->cxt, t->name_prefix);
		copy->name_cut = t->name_cut;
		copy->external_id_form = t->external_id_form;
		copy->native_unit = copy_or_null(ds->cxt, t->native_unit);
		run_template_prepare(copy);
		dv->values[i] = copy;
		MemoryContextSwitchTo(old);
	}
	pfree(key->data);
	pfree(key);
	*interned = (RunTemplate *) dv->values[i];
	return i;
}

/* ----------------------------------------------------------------
 *		Storing them
 * ----------------------------------------------------------------
 */

/* A hash to an index, while the ids are read back. */
typedef struct HashEntry
{
	pg_uuid_t	hash;
	int			index;
} HashEntry;

/* Is a stored value the statement's?  (Its hash matched.) */
static bool
same_value(DictKind kind, void *ours, HeapTuple tup, TupleDesc desc)
{
	bool		isnull;
	Datum		d = SPI_getbinval(tup, desc, 3, &isnull);

	if (isnull)
		return false;
	if (kind == DK_TEMPLATE)
	{
		RunTemplate *t = ours;
		pg_uuid_t	a,
					b;
		RunTemplate stored = *t;

		/* the same canonical document and rules */
		stored.doc = DatumGetJsonbP(d);
		run_template_hash(t, &a);
		run_template_hash(&stored, &b);
		return memcmp(&a, &b, sizeof(a)) == 0 &&
			strcmp(TextDatumGetCString(SPI_getbinval(tup, desc, 4, &isnull)),
				   run_name_form_name[t->name_form]) == 0;
	}
	if (kind == DK_LABELS)
	{
		Jsonb	   *jb = DatumGetJsonbP(d);

		return VARSIZE(jb) == VARSIZE(ours) && memcmp(jb, ours, VARSIZE(jb)) == 0;
	}
	return strcmp(TextDatumGetCString(d), (const char *) ours) == 0;
}

/*
 * The ids of the stored values among n hashes (of the set's values, by
 * by_hash), each stored value checked to be the set's.
 */
static void
read_ids(DictSet *ds, DictKind kind, HTAB *by_hash, Datum *hashes, int n)
{
	DictValues *dv = &ds->d[kind];
	Oid			types[1] = {UUIDARRAYOID};
	Datum		args[1] = {kidx_datum_array(hashes, NULL, n, UUIDOID)};
	uint64		r;

	kidx_spi_execute(psprintf("SELECT t.hash, t.id, t.value%s FROM kernelindex.%s AS t"
							  " WHERE t.hash OPERATOR(pg_catalog.=) ANY ($1)",
							  kind == DK_TEMPLATE ? ", t.name_form" : "", dict_table[kind]),
					 1, types, args, NULL, false, 0);
	for (r = 0; r < SPI_processed; r++)
	{
		HeapTuple	tup = SPI_tuptable->vals[r];
		TupleDesc	desc = SPI_tuptable->tupdesc;
		bool		isnull;
		pg_uuid_t  *h = DatumGetUUIDP(SPI_getbinval(tup, desc, 1, &isnull));
		HashEntry  *e = hash_search(by_hash, h, HASH_FIND, NULL);

		if (e == NULL)
			continue;
		if (!same_value(kind, dv->values[e->index], tup, desc))
			elog(ERROR, "two values of kernelindex.%s share the hash %s",
				 dict_table[kind],
				 DatumGetCString(DirectFunctionCall1(uuid_out, UUIDPGetDatum(h))));
		dv->ids[e->index] = DatumGetInt32(SPI_getbinval(tup, desc, 2, &isnull));
	}
	SPI_freetuptable(SPI_tuptable);
}

/*
 * The rules a template row of kernelindex.run_templates carries after its
 * hash and value: name_form, name_prefix, name_cut, external_id_form,
 * native_unit (the INSERT's $3 to $7, in that order).
 */
#define TEMPLATE_RULES 5

/* Store one dictionary's values and learn their ids. */
static void
store_dictionary(DictSet *ds, DictKind kind)
{
	DictValues *dv = &ds->d[kind];
	int			n = intern_count(dv->keys);
	bool		is_jsonb = kind == DK_LABELS || kind == DK_TEMPLATE;
	Datum	   *hashes;
	Datum	   *values;
	Datum	   *rules[TEMPLATE_RULES];
	bool	   *rule_nulls[TEMPLATE_RULES];
	Oid			types[2 + TEMPLATE_RULES];
	Datum		args[2 + TEMPLATE_RULES];
	int			nargs = 2;
	HTAB	   *by_hash;
	HASHCTL		ctl;
	int			m;
	int			i;

	if (n == 0)
		return;
	dv->ids = MemoryContextAllocZero(ds->cxt, sizeof(int32) * n);
	hashes = palloc(sizeof(Datum) * n);
	values = palloc(sizeof(Datum) * n);
	ctl.keysize = sizeof(pg_uuid_t);
	ctl.entrysize = sizeof(HashEntry);
	ctl.hcxt = CurrentMemoryContext;
	by_hash = hash_create("kernelindex dictionary hashes", n, &ctl,
						  HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
	if (kind == DK_TEMPLATE)
		for (i = 0; i < TEMPLATE_RULES; i++)
		{
			rules[i] = palloc(sizeof(Datum) * n);
			rule_nulls[i] = palloc0(sizeof(bool) * n);
		}
	for (i = 0; i < n; i++)
	{
		pg_uuid_t  *h = palloc(sizeof(pg_uuid_t));
		HashEntry  *e;
		bool		found;

		if (kind == DK_TEMPLATE)
		{
			RunTemplate *t = dv->values[i];

			run_template_hash(t, h);
			values[i] = PointerGetDatum(t->doc);
			rules[0][i] = CStringGetTextDatum(run_name_form_name[t->name_form]);
			rule_nulls[1][i] = t->name_prefix == NULL;
			rules[1][i] = t->name_prefix ? CStringGetTextDatum(t->name_prefix) : (Datum) 0;
			rules[2][i] = Int32GetDatum(t->name_cut);
			rules[3][i] = CStringGetTextDatum(run_id_form_name[t->external_id_form]);
			rule_nulls[4][i] = t->native_unit == NULL;
			rules[4][i] = t->native_unit ? CStringGetTextDatum(t->native_unit) : (Datum) 0;
		}
		else if (kind == DK_LABELS)
		{
			dict_hash_jsonb(dv->values[i], h);
			values[i] = PointerGetDatum(dv->values[i]);
		}
		else
		{
			int			len;
			const char *bytes = intern_bytes(dv->keys, i, &len);

			dict_hash_text(bytes, len, h);
			values[i] = CStringGetTextDatum(dv->values[i]);
		}
		hashes[i] = UUIDPGetDatum(h);
		e = hash_search(by_hash, h, HASH_ENTER, &found);
		if (!found)
			e->index = i;
		else
			dv->ids[i] = -1 - e->index; /* the same value twice: see below */
	}
	/*
	 * The values stored before get their ids; only the others are inserted,
	 * so that a value stored before takes no id from the sequence (ON
	 * CONFLICT alone would take one for every value offered, and reloads
	 * would exhaust the ids).
	 */
	read_ids(ds, kind, by_hash, hashes, n);
	for (i = 0, m = 0; i < n; i++)
		if (dv->ids[i] == 0)
		{
			hashes[m] = hashes[i];
			values[m] = values[i];
			if (kind == DK_TEMPLATE)
			{
				int			j;

				for (j = 0; j < TEMPLATE_RULES; j++)
				{
					rules[j][m] = rules[j][i];
					rule_nulls[j][m] = rule_nulls[j][i];
				}
			}
			m++;
		}
	if (m > 0)
	{
		types[0] = UUIDARRAYOID;
		args[0] = kidx_datum_array(hashes, NULL, m, UUIDOID);
		types[1] = is_jsonb ? JSONBARRAYOID : TEXTARRAYOID;
		args[1] = kidx_datum_array(values, NULL, m, is_jsonb ? JSONBOID : TEXTOID);
		if (kind == DK_TEMPLATE)
		{
			static const Oid rule_type[TEMPLATE_RULES] = {TEXTOID, TEXTOID, INT4OID, TEXTOID, TEXTOID};

			for (i = 0; i < TEMPLATE_RULES; i++)
			{
				types[2 + i] = get_array_type(rule_type[i]);
				args[2 + i] = kidx_datum_array(rules[i], rule_nulls[i], m, rule_type[i]);
			}
			nargs = 2 + TEMPLATE_RULES;
		}
		kidx_spi_execute(kind == DK_TEMPLATE ?
						 "INSERT INTO kernelindex.run_templates AS t (hash, value, name_form, name_prefix,"
						 " name_cut, external_id_form, native_unit)"
						 " SELECT u.* FROM ROWS FROM (pg_catalog.unnest($1), pg_catalog.unnest($2),"
						 " pg_catalog.unnest($3), pg_catalog.unnest($4), pg_catalog.unnest($5),"
						 " pg_catalog.unnest($6), pg_catalog.unnest($7)) AS u"
						 " ORDER BY 1 ON CONFLICT (hash) DO NOTHING" :
						 psprintf("INSERT INTO kernelindex.%s AS t (hash, value)"
								  " SELECT u.h, u.v FROM ROWS FROM (pg_catalog.unnest($1), pg_catalog.unnest($2)) AS u(h, v)"
								  " ORDER BY u.h ON CONFLICT (hash) DO NOTHING", dict_table[kind]),
						 nargs, types, args, NULL, false, 0);
		read_ids(ds, kind, by_hash, hashes, m);
	}
	for (i = 0; i < n; i++)
	{
		if (dv->ids[i] < 0)		/* a value equal to an earlier one */
			dv->ids[i] = dv->ids[-1 - dv->ids[i]];
		if (dv->ids[i] == 0)
			ereport(ERROR,
					(errcode(ERRCODE_T_R_SERIALIZATION_FAILURE),
					 errmsg("a value of kernelindex.%s was deleted while a load was storing it",
							dict_table[kind]),
					 errhint("Retry the statement.")));
	}
	hash_destroy(by_hash);
}

/* Store the set's new values; see dictionary.h. */
void
dict_store(DictSet *ds)
{
	int			k;

	for (k = 0; k < DK_N; k++)
		store_dictionary(ds, k);
}

/* The id of a value of the set; see dictionary.h. */
int32
dict_id(DictSet *ds, DictKind kind, int index)
{
	if (index < 0)
		return 0;
	Assert(ds->d[kind].ids != NULL && index < intern_count(ds->d[kind].keys));
	return ds->d[kind].ids[index];
}

/* ----------------------------------------------------------------
 *		Looking values up by id
 * ----------------------------------------------------------------
 */

typedef struct CacheEntry
{
	int32		id;
	void	   *value;			/* char *, Jsonb * or RunTemplate * */
} CacheEntry;

struct DictCache
{
	MemoryContext cxt;
	HTAB	   *byid[DK_N];
};

/* A new cache; see dictionary.h. */
DictCache *
dict_cache_create(MemoryContext cxt)
{
	DictCache  *dc = MemoryContextAllocZero(cxt, sizeof(DictCache));
	HASHCTL		ctl;
	int			k;

	dc->cxt = cxt;
	ctl.keysize = sizeof(int32);
	ctl.entrysize = sizeof(CacheEntry);
	ctl.hcxt = cxt;
	for (k = 0; k < DK_N; k++)
		dc->byid[k] = hash_create("kernelindex dictionary values", 64, &ctl,
								  HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
	return dc;
}

/* Parse a rule's text as run_templates stores it. */
static int
rule_of(const char *const *names, int n, const char *s)
{
	int			i;

	for (i = 0; i < n; i++)
		if (strcmp(names[i], s) == 0)
			return i;
	ereport(ERROR,
			(errcode(ERRCODE_DATA_CORRUPTED),
			 errmsg("run template rule \"%s\" is not known", s)));
	return 0;
}

/* The value of a dictionary's id, read once. */
static void *
cache_lookup(DictCache *dc, DictKind kind, int32 id)
{
	bool		found;
	CacheEntry *e = hash_search(dc->byid[kind], &id, HASH_ENTER, &found);
	Oid			argtypes[1] = {INT4OID};
	Datum		args[1] = {Int32GetDatum(id)};
	MemoryContext old;
	HeapTuple	tup;
	TupleDesc	desc;
	bool		isnull;
	Datum		d;

	if (found)
		return e->value;
	kidx_spi_connect();
	kidx_spi_execute_kept(psprintf("SELECT t.value%s FROM kernelindex.%s AS t"
								   " WHERE t.id OPERATOR(pg_catalog.=) $1",
								   kind == DK_TEMPLATE ?
								   ", t.name_form, t.name_prefix, t.name_cut, t.external_id_form, t.native_unit" : "",
								   dict_table[kind]),
						  1, argtypes, args, NULL, true, 1);
	if (SPI_processed != 1)
	{
		SPI_finish();
		hash_search(dc->byid[kind], &id, HASH_REMOVE, NULL);
		ereport(ERROR,
				(errcode(ERRCODE_FOREIGN_KEY_VIOLATION),
				 errmsg("a stored run refers to id %d of kernelindex.%s, which does not exist",
						id, dict_table[kind])));
	}
	tup = SPI_tuptable->vals[0];
	desc = SPI_tuptable->tupdesc;
	d = SPI_getbinval(tup, desc, 1, &isnull);
	old = MemoryContextSwitchTo(dc->cxt);
	if (kind == DK_TEMPLATE)
	{
		RunTemplate *t = palloc0(sizeof(RunTemplate));
		Datum		cut;

		t->doc = DatumGetJsonbPCopy(d);
		t->name_form = rule_of(run_name_form_name, RNF_N,
							   TextDatumGetCString(SPI_getbinval(tup, desc, 2, &isnull)));
		d = SPI_getbinval(tup, desc, 3, &isnull);
		t->name_prefix = isnull ? NULL : TextDatumGetCString(d);
		cut = SPI_getbinval(tup, desc, 4, &isnull);
		t->name_cut = isnull ? -1 : DatumGetInt32(cut);
		t->external_id_form = rule_of(run_id_form_name, RIF_N,
									  TextDatumGetCString(SPI_getbinval(tup, desc, 5, &isnull)));
		d = SPI_getbinval(tup, desc, 6, &isnull);
		t->native_unit = isnull ? NULL : TextDatumGetCString(d);
		run_template_prepare(t);
		e->value = t;
	}
	else if (kind == DK_LABELS)
		e->value = DatumGetJsonbPCopy(d);
	else
		e->value = TextDatumGetCString(d);
	MemoryContextSwitchTo(old);
	SPI_finish();
	return e->value;
}

/* The string of a text dictionary's id. */
const char *
dict_cache_text(DictCache *dc, DictKind kind, int32 id)
{
	return cache_lookup(dc, kind, id);
}

/* The label set of an id. */
Jsonb *
dict_cache_labels(DictCache *dc, int32 id)
{
	return cache_lookup(dc, DK_LABELS, id);
}

/* The template of an id, laid out. */
RunTemplate *
dict_cache_template(DictCache *dc, int32 id)
{
	return cache_lookup(dc, DK_TEMPLATE, id);
}

/* ----------------------------------------------------------------
 *		SQL: the hashes the dictionaries CHECK
 * ----------------------------------------------------------------
 */

PG_FUNCTION_INFO_V1(kidx_dictionary_hash_text);
PG_FUNCTION_INFO_V1(kidx_dictionary_hash_jsonb);
PG_FUNCTION_INFO_V1(kidx_template_hash);

/* kernelindex_internal.dictionary_hash(text) -> uuid */
Datum
kidx_dictionary_hash_text(PG_FUNCTION_ARGS)
{
	text	   *t = PG_GETARG_TEXT_PP(0);
	pg_uuid_t  *result = palloc(sizeof(pg_uuid_t));

	dict_hash_text(VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t), result);
	PG_RETURN_UUID_P(result);
}

/* kernelindex_internal.dictionary_hash(jsonb) -> uuid */
Datum
kidx_dictionary_hash_jsonb(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *result = palloc(sizeof(pg_uuid_t));

	dict_hash_jsonb(PG_GETARG_JSONB_P(0), result);
	PG_RETURN_UUID_P(result);
}

/*
 * kernelindex_internal.template_hash(template, name_form, name_prefix, name_cut,
 * external_id_form, native_unit) -> uuid; NULL if a required part is.
 */
Datum
kidx_template_hash(PG_FUNCTION_ARGS)
{
	RunTemplate t;
	pg_uuid_t  *result;

	if (PG_ARGISNULL(0) || PG_ARGISNULL(1) || PG_ARGISNULL(3) || PG_ARGISNULL(4))
		PG_RETURN_NULL();
	memset(&t, 0, sizeof(t));
	t.doc = PG_GETARG_JSONB_P(0);
	t.name_form = rule_of(run_name_form_name, RNF_N,
						  text_to_cstring(PG_GETARG_TEXT_PP(1)));
	t.name_prefix = PG_ARGISNULL(2) ? NULL : text_to_cstring(PG_GETARG_TEXT_PP(2));
	t.name_cut = PG_GETARG_INT32(3);
	t.external_id_form = rule_of(run_id_form_name, RIF_N,
								 text_to_cstring(PG_GETARG_TEXT_PP(4)));
	t.native_unit = PG_ARGISNULL(5) ? NULL : text_to_cstring(PG_GETARG_TEXT_PP(5));
	result = palloc(sizeof(pg_uuid_t));
	run_template_hash(&t, result);
	PG_RETURN_UUID_P(result);
}
