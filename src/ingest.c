/*-------------------------------------------------------------------------
 *
 * ingest.c
 *	  Storing one statement's resources, comparability keys, run series and
 *	  runs (see ingest.h).
 *
 * A batch collects what a statement brings; ingest_finish() stores it in
 * four set-based steps:
 *
 * 1. resources, by kind, in digest order, INSERT ... ON CONFLICT DO
 *	  NOTHING (a workload or implementation known by digest only gets a
 *	  row without document, filled in when its document comes); a protocol
 *	  or environment that is neither brought nor stored is an error;
 * 2. comparability keys, likewise, then locked FOR NO KEY UPDATE in key
 *	  order: a load holds the keys of its runs until it commits, so that two
 *	  loads of the same runs store them once, without deadlock (and a
 *	  serialization failure under REPEATABLE READ, as ON CONFLICT gives);
 * 3. run series, likewise;
 * 4. runs, sorted by (comparability key, digest): duplicates within the
 *	  statement are dropped, and for keys that already had runs each run is
 *	  looked up first and skipped if stored.  The rows are written the way
 *	  COPY writes them (multi-insert, index entries, AFTER triggers with the
 *	  transition table, so that kernelindex.runs_references_check() sees
 *	  them).  Where kernelindex.runs is a Citus distributed table, its rows
 *	  go through SQL instead, which Citus routes to the shards (see
 *	  "Storing runs on Citus").
 *
 * Steps 1-3 touch a few rows per series and use SPI; step 4 touches one row
 * per run and stays in C.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/heapam.h"
#include "access/nbtree.h"
#include "access/table.h"
#include "access/tableam.h"
#include "access/xact.h"
#include "catalog/namespace.h"
#include "catalog/pg_namespace_d.h"
#include "catalog/pg_operator_d.h"
#include "catalog/pg_trigger.h"
#include "catalog/pg_type.h"
#include "commands/extension.h"
#include "commands/trigger.h"
#include "common/hashfn.h"
#include "executor/executor.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "nodes/makefuncs.h"
#include "parser/parse_relation.h"
#include "storage/lmgr.h"
#include "utils/acl.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/datum.h"
#include "utils/hsearch.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/rls.h"
#include "utils/snapmgr.h"
#include "utils/syscache.h"
#include "utils/tuplesort.h"
#include "utils/typcache.h"

#define KIDX_COMPAT_EXECUTOR
#include "compat.h"
#include "ingest.h"

/* Runs written per multi-insert. */
#define INGEST_MULTI_INSERT 1000

/* Tables of the resource kinds, in RunRef order. */
static const char *const ref_table[RR_N] = {
	"protocols", "workloads", "environments", "implementations"
};

/* A resource the batch brings or refers to. */
typedef struct BatchResource
{
	KidxDigest	digest;
	Jsonb	   *document;		/* NULL: known by digest only */
	int64		ord;
	int32		id;				/* its id once stored */
} BatchResource;

/* A series of the batch. */
typedef struct BatchSeries
{
	RunSeries	s;
	uint64		hash;			/* of its content, for deduplication */
	int			next_same;		/* next series with the same hash, or -1 */
	int			key;			/* its comparability key (BatchKey) */
	int			impl;			/* its implementation (BatchResource) */
	int64		ord;
	int32		id;				/* its id once stored */
	bool		used;			/* a run of it was written */
} BatchSeries;

/* A comparability key of the batch. */
typedef struct BatchKey
{
	KidxDigest	key;
	int			res[3];			/* protocol, workload, environment */
	int64		ord;
	bool		had_runs;		/* it had runs when locked */
} BatchKey;

/* Hash entries: a digest, or a content hash, to an index. */
typedef struct DigestEntry
{
	KidxDigest	digest;
	int			index;
} DigestEntry;

typedef struct HashEntry
{
	uint64		hash;
	int			index;
} HashEntry;

/* Columns of the sorted runs (run_desc). */
enum
{
	RC_KEY = 1, RC_DIGEST, RC_ORD, RC_SERIES, RC_OBSERVED_AT,
	RC_INT0,					/* RI_N integer values */
	RC_NATIVE0 = RC_INT0 + RI_N,	/* RUN_NNATIVE native values */
	RC_EXTERNAL_KEY = RC_NATIVE0 + RUN_NNATIVE,
	RC_NATTS = RC_EXTERNAL_KEY
};

struct IngestBatch
{
	MemoryContext cxt;
	MemoryContext tmp;			/* reset per run stored */
	HTAB	   *res_hash[RR_N];
	BatchResource *res[RR_N];
	int			nres[RR_N];
	int			capres[RR_N];
	HTAB	   *series_hash;
	BatchSeries **series;
	int			nseries;
	int			capseries;
	HTAB	   *key_hash;
	BatchKey   *keys;
	int			nkeys;
	int			capkeys;
	TupleDesc	run_desc;
	TupleTableSlot *run_slot;
	Tuplesortstate *runs;
	int64		nruns;
};

/* ----------------------------------------------------------------
 *		Helpers
 * ----------------------------------------------------------------
 */

/* The type of kernelindex.runs.digest: kidx_digest. */
Oid
kidx_digest_type(void)
{
	Oid			relid = get_relname_relid("runs", get_namespace_oid("kernelindex", false));
	AttrNumber	att;
	Oid			typ;
	int32		typmod;
	Oid			coll;

	if (!OidIsValid(relid) ||
		(att = get_attnum(relid, "digest")) == InvalidAttrNumber)
		elog(ERROR, "table kernelindex.runs not found");
	get_atttypetypmodcoll(relid, att, &typ, &typmod, &coll);
	return typ;
}

/* The array type of kidx_digest. */
Oid
kidx_digest_array_type(void)
{
	return get_array_type(kidx_digest_type());
}

/* The quoted schema of the extension's type and functions. */
const char *
kidx_extension_schema(void)
{
	HeapTuple	tup = SearchSysCache1(TYPEOID, ObjectIdGetDatum(kidx_digest_type()));
	Oid			nsp;

	if (!HeapTupleIsValid(tup))
		elog(ERROR, "cache lookup failed for type kidx_digest");
	nsp = ((Form_pg_type) GETSTRUCT(tup))->typnamespace;
	ReleaseSysCache(tup);
	return quote_identifier(get_namespace_name(nsp));
}

/* Run SPI work; errors come without the CONTEXT of the internal query. */
int
ingest_spi(const char *sql, int nargs, Oid *argtypes, Datum *values,
		   const char *nulls, bool read_only, long count)
{
	MemoryContext cxt = CurrentMemoryContext;
	volatile int rc = 0;

	PG_TRY();
	{
		rc = SPI_execute_with_args(sql, nargs, argtypes, values, nulls,
								   read_only, count);
	}
	PG_CATCH();
	{
		ErrorData  *edata;

		MemoryContextSwitchTo(cxt);
		edata = CopyErrorData();
		FlushErrorState();
		edata->context = NULL;
		edata->internalquery = NULL;
		edata->internalpos = 0;
		ReThrowError(edata);
	}
	PG_END_TRY();
	if (rc < 0)
		elog(ERROR, "SPI failed (%d) on: %s", rc, sql);
	return rc;
}

/* A hash table of digests (or content hashes) in the batch's context. */
static HTAB *
make_hash(IngestBatch *b, const char *name, Size keysize, Size entrysize)
{
	HASHCTL		ctl;

	ctl.keysize = keysize;
	ctl.entrysize = entrysize;
	ctl.hcxt = b->cxt;
	return hash_create(name, 256, &ctl, HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
}

/* Room for one more element in a growing array. */
static void *
grow(void *array, int n, int *cap, Size elem)
{
	if (n < *cap)
		return array;
	*cap = *cap ? *cap * 2 : 64;
	return array ? repalloc_huge(array, elem * *cap) : palloc(elem * *cap);
}

/* ----------------------------------------------------------------
 *		Collecting
 * ----------------------------------------------------------------
 */

/* Start a batch; see ingest.h. */
IngestBatch *
ingest_begin(MemoryContext parent)
{
	MemoryContext cxt = AllocSetContextCreate(parent, "kernelindex ingestion",
											  ALLOCSET_DEFAULT_SIZES);
	MemoryContext old = MemoryContextSwitchTo(cxt);
	IngestBatch *b = palloc0(sizeof(IngestBatch));
	int			i;

	b->cxt = cxt;
	b->tmp = AllocSetContextCreate(cxt, "kernelindex ingestion, per run",
								   ALLOCSET_DEFAULT_SIZES);
	for (i = 0; i < RR_N; i++)
		b->res_hash[i] = make_hash(b, "kernelindex resources", sizeof(KidxDigest),
								   sizeof(DigestEntry));
	b->series_hash = make_hash(b, "kernelindex series", sizeof(uint64), sizeof(HashEntry));
	b->key_hash = make_hash(b, "kernelindex keys", sizeof(KidxDigest), sizeof(DigestEntry));
	MemoryContextSwitchTo(old);
	return b;
}

/* The batch's memory context. */
MemoryContext
ingest_context(IngestBatch *b)
{
	return b->cxt;
}

/* Add a resource (or its document to one already referred to). */
static int
add_resource(IngestBatch *b, RunRef kind, const KidxDigest *digest,
			 Jsonb *document, int64 ord)
{
	bool		found;
	DigestEntry *e = hash_search(b->res_hash[kind], digest, HASH_ENTER, &found);
	BatchResource *r;

	if (!found)
	{
		b->res[kind] = grow(b->res[kind], b->nres[kind], &b->capres[kind],
							sizeof(BatchResource));
		e->index = b->nres[kind]++;
		r = &b->res[kind][e->index];
		r->digest = *digest;
		r->document = NULL;
		r->ord = ord;
		r->id = 0;
	}
	r = &b->res[kind][e->index];
	if (document != NULL && r->document == NULL)
	{
		r->document = MemoryContextAlloc(b->cxt, VARSIZE(document));
		memcpy(r->document, document, VARSIZE(document));
		r->ord = ord;
	}
	return e->index;
}

/* A resource the statement brings or refers to; see ingest.h. */
void
ingest_resource(IngestBatch *b, RunRef kind, const KidxDigest *digest,
				Jsonb *document, int64 ord)
{
	MemoryContext old = MemoryContextSwitchTo(b->cxt);

	add_resource(b, kind, digest, document, ord);
	MemoryContextSwitchTo(old);
}

/* Hash of a series' content. */
static uint64
series_hash(const RunSeries *s)
{
	uint64		h = hash_bytes_extended((const unsigned char *) s->template,
										VARSIZE(s->template), 0);

	h = hash_bytes_extended((const unsigned char *) s->ref, sizeof(s->ref), h);
	if (s->name_stem)
		h = hash_bytes_extended((const unsigned char *) s->name_stem, strlen(s->name_stem), h + 1);
	if (s->external_id_stem)
		h = hash_bytes_extended((const unsigned char *) s->external_id_stem,
								strlen(s->external_id_stem), h + 2);
	if (s->native_unit)
		h = hash_bytes_extended((const unsigned char *) s->native_unit,
								strlen(s->native_unit), h + 3);
	return h + (uint64) (s->name_cut + 1);
}

/* Two strings equal, NULL being equal only to NULL. */
static bool
same_string(const char *a, const char *b)
{
	return (a == NULL && b == NULL) || (a != NULL && b != NULL && strcmp(a, b) == 0);
}

/* Do two series have the same content? */
static bool
same_series(const RunSeries *a, const RunSeries *b)
{
	return VARSIZE(a->template) == VARSIZE(b->template) &&
		memcmp(a->template, b->template, VARSIZE(a->template)) == 0 &&
		memcmp(a->ref, b->ref, sizeof(a->ref)) == 0 &&
		same_string(a->name_stem, b->name_stem) && a->name_cut == b->name_cut &&
		same_string(a->external_id_stem, b->external_id_stem) &&
		same_string(a->native_unit, b->native_unit);
}

/* A string's copy in the current context, or NULL. */
static char *
copy_or_null(const char *s)
{
	return s ? pstrdup(s) : NULL;
}

/* Add a series; see ingest.h. */
int
ingest_series(IngestBatch *b, RunSeries *series, int64 ord)
{
	uint64		h = series_hash(series);
	bool		found;
	HashEntry  *e;
	BatchSeries *bs;
	MemoryContext old;
	int			i;

	e = hash_search(b->series_hash, &h, HASH_ENTER, &found);
	if (found)
	{
		for (i = e->index; i >= 0; i = b->series[i]->next_same)
			if (same_series(&b->series[i]->s, series))
				return i;
	}

	old = MemoryContextSwitchTo(b->cxt);
	b->series = grow(b->series, b->nseries, &b->capseries, sizeof(BatchSeries *));
	bs = palloc0(sizeof(BatchSeries));
	bs->s.template = palloc(VARSIZE(series->template));
	memcpy(bs->s.template, series->template, VARSIZE(series->template));
	memcpy(bs->s.ref, series->ref, sizeof(series->ref));
	bs->s.name_stem = copy_or_null(series->name_stem);
	bs->s.name_cut = series->name_cut;
	bs->s.external_id_stem = copy_or_null(series->external_id_stem);
	bs->s.native_unit = copy_or_null(series->native_unit);
	run_series_prepare(&bs->s);
	bs->hash = h;
	bs->ord = ord;
	bs->next_same = found ? e->index : -1;

	/* What it refers to: its resources and its comparability key. */
	{
		int			res[RR_N];
		DigestEntry *k;

		for (i = 0; i < RR_N; i++)
			res[i] = add_resource(b, i, &series->ref[i], NULL, ord);
		bs->impl = res[RR_IMPLEMENTATION];
		k = hash_search(b->key_hash, &bs->s.comparability_key, HASH_ENTER, &found);
		if (!found)
		{
			BatchKey   *key;

			b->keys = grow(b->keys, b->nkeys, &b->capkeys, sizeof(BatchKey));
			k->index = b->nkeys++;
			key = &b->keys[k->index];
			key->key = bs->s.comparability_key;
			key->res[0] = res[RR_PROTOCOL];
			key->res[1] = res[RR_WORKLOAD];
			key->res[2] = res[RR_ENVIRONMENT];
			key->ord = ord;
			key->had_runs = false;
		}
		bs->key = k->index;
	}
	e = hash_search(b->series_hash, &h, HASH_FIND, NULL);
	e->index = b->nseries;
	b->series[b->nseries] = bs;
	MemoryContextSwitchTo(old);
	return b->nseries++;
}

/* A series of the batch. */
RunSeries *
ingest_series_get(IngestBatch *b, int series)
{
	return &b->series[series]->s;
}

/* Set up the sort the runs of the batch go through. */
static void
begin_runs(IngestBatch *b)
{
	Oid			digest_type = kidx_digest_type();
	TypeCacheEntry *tc = lookup_type_cache(digest_type, TYPECACHE_LT_OPR);
	AttrNumber	cols[3] = {RC_KEY, RC_DIGEST, RC_ORD};
	Oid			ops[3];
	Oid			colls[3] = {InvalidOid, InvalidOid, InvalidOid};
	bool		nulls_first[3] = {false, false, false};
	int			i;

	b->run_desc = CreateTemplateTupleDesc(RC_NATTS);
	TupleDescInitEntry(b->run_desc, RC_KEY, "key", digest_type, -1, 0);
	TupleDescInitEntry(b->run_desc, RC_DIGEST, "digest", digest_type, -1, 0);
	TupleDescInitEntry(b->run_desc, RC_ORD, "ord", INT8OID, -1, 0);
	TupleDescInitEntry(b->run_desc, RC_SERIES, "series", INT4OID, -1, 0);
	TupleDescInitEntry(b->run_desc, RC_OBSERVED_AT, "observed_at", TIMESTAMPTZOID, -1, 0);
	for (i = 0; i < RI_N; i++)
		TupleDescInitEntry(b->run_desc, RC_INT0 + i, "value", INT8OID, -1, 0);
	for (i = 0; i < RUN_NNATIVE; i++)
		TupleDescInitEntry(b->run_desc, RC_NATIVE0 + i, "native", NUMERICOID, -1, 0);
	TupleDescInitEntry(b->run_desc, RC_EXTERNAL_KEY, "external_key", UUIDOID, -1, 0);
	b->run_slot = MakeSingleTupleTableSlot(b->run_desc, &TTSOpsVirtual);

	if (!OidIsValid(tc->lt_opr))
		elog(ERROR, "kidx_digest has no ordering operator");
	ops[0] = ops[1] = tc->lt_opr;
	ops[2] = Int8LessOperator;
	b->runs = tuplesort_begin_heap(b->run_desc, 3, cols, ops, colls, nulls_first,
								   maintenance_work_mem, NULL, TUPLESORT_NONE);
}

/* Add a run; see ingest.h. */
void
ingest_run(IngestBatch *b, int series, const RunValues *rv,
		   const KidxDigest *digest, int64 ord)
{
	BatchSeries *bs = b->series[series];
	TupleTableSlot *slot;
	MemoryContext old = MemoryContextSwitchTo(b->cxt);
	pg_uuid_t  *ext;
	int			i;

	if (b->runs == NULL)
		begin_runs(b);
	MemoryContextSwitchTo(b->tmp);
	slot = b->run_slot;
	ExecClearTuple(slot);
	memset(slot->tts_isnull, true, sizeof(bool) * RC_NATTS);
	slot->tts_values[RC_KEY - 1] = PointerGetDatum(&bs->s.comparability_key);
	slot->tts_values[RC_DIGEST - 1] = PointerGetDatum(digest);
	slot->tts_values[RC_ORD - 1] = Int64GetDatum(ord);
	slot->tts_values[RC_SERIES - 1] = Int32GetDatum(series);
	slot->tts_values[RC_OBSERVED_AT - 1] = TimestampTzGetDatum(rv->observed_at);
	for (i = 0; i <= RC_OBSERVED_AT - 1; i++)
		slot->tts_isnull[i] = false;
	for (i = 0; i < RI_N; i++)
		if (rv->has[i])
		{
			slot->tts_values[RC_INT0 - 1 + i] = Int64GetDatum(rv->v[i]);
			slot->tts_isnull[RC_INT0 - 1 + i] = false;
		}
	for (i = 0; i < RUN_NNATIVE; i++)
	{
		Numeric		n = rv->native[i];

		if (n == NULL && rv->native_text[i] != NULL)
			n = DatumGetNumeric(DirectFunctionCall3(numeric_in,
													CStringGetDatum(rv->native_text[i]),
													ObjectIdGetDatum(InvalidOid),
													Int32GetDatum(-1)));
		if (n != NULL)
		{
			slot->tts_values[RC_NATIVE0 - 1 + i] = NumericGetDatum(n);
			slot->tts_isnull[RC_NATIVE0 - 1 + i] = false;
		}
	}
	ext = palloc(sizeof(pg_uuid_t));
	if (run_external_key(&bs->s, rv, ext))
	{
		slot->tts_values[RC_EXTERNAL_KEY - 1] = UUIDPGetDatum(ext);
		slot->tts_isnull[RC_EXTERNAL_KEY - 1] = false;
	}
	ExecStoreVirtualTuple(slot);
	tuplesort_puttupleslot(b->runs, slot);
	b->nruns++;
	MemoryContextSwitchTo(old);
	MemoryContextReset(b->tmp);
}

/* ----------------------------------------------------------------
 *		Storing resources, keys and series
 * ----------------------------------------------------------------
 */

/* An array of digests. */
static Datum
digest_array(KidxDigest **digests, int n)
{
	Datum	   *elems = palloc(sizeof(Datum) * Max(n, 1));
	int			i;

	for (i = 0; i < n; i++)
		elems[i] = PointerGetDatum(digests[i]);
	return PointerGetDatum(construct_array(elems, n, kidx_digest_type(), KIDX_DIGEST_LEN,
										   false, TYPALIGN_CHAR));
}

/* An array of int4, text or jsonb values (NULL elements where nulls[i]). */
static Datum
value_array(Datum *elems, bool *nulls, int n, Oid type)
{
	int			dims[1] = {n};
	int			lbs[1] = {1};
	int16		typlen;
	bool		typbyval;
	char		typalign;

	get_typlenbyvalalign(type, &typlen, &typbyval, &typalign);
	return PointerGetDatum(construct_md_array(elems, nulls, 1, dims, lbs, type,
											  typlen, typbyval, typalign));
}

/* Map stored (digest, id) rows back to the batch's entries of a kind. */
static void
take_ids(IngestBatch *b, HTAB *hash, int32 *(*id_of) (IngestBatch *, int, void *), void *arg)
{
	uint64		i;

	for (i = 0; i < SPI_processed; i++)
	{
		bool		isnull;
		KidxDigest *d = (KidxDigest *) DatumGetPointer(SPI_getbinval(SPI_tuptable->vals[i],
																	 SPI_tuptable->tupdesc, 1, &isnull));
		int32		id = DatumGetInt32(SPI_getbinval(SPI_tuptable->vals[i],
													 SPI_tuptable->tupdesc, 2, &isnull));
		DigestEntry *e = hash_search(hash, d, HASH_FIND, NULL);

		if (e != NULL)
			*id_of(b, e->index, arg) = id;
	}
}

/* The id field of a resource of a kind. */
static int32 *
resource_id(IngestBatch *b, int index, void *arg)
{
	return &b->res[*(RunRef *) arg][index].id;
}

/* Step 1: store the resources of one kind and learn their ids. */
static void
store_resources(IngestBatch *b, RunRef kind)
{
	const char *schema = kidx_extension_schema();
	int			n = b->nres[kind];
	KidxDigest **digests = palloc(sizeof(KidxDigest *) * Max(n, 1));
	Datum	   *docs = palloc(sizeof(Datum) * Max(n, 1));
	bool	   *docnulls = palloc(sizeof(bool) * Max(n, 1));
	Oid			types[2] = {kidx_digest_array_type(), JSONBARRAYOID};
	Datum		args[2];
	bool		placeholders = (kind == RR_WORKLOAD || kind == RR_IMPLEMENTATION);
	int			i;

	if (n == 0)
		return;
	for (i = 0; i < n; i++)
	{
		digests[i] = &b->res[kind][i].digest;
		docs[i] = PointerGetDatum(b->res[kind][i].document);
		docnulls[i] = b->res[kind][i].document == NULL;
	}
	args[0] = digest_array(digests, n);
	args[1] = value_array(docs, docnulls, n, JSONBOID);

	ingest_spi(psprintf("INSERT INTO kernelindex.%s AS t (digest, document)"
						" SELECT u.d, u.doc FROM ROWS FROM (pg_catalog.unnest($1), pg_catalog.unnest($2)) AS u(d, doc)"
						" %s ORDER BY u.d ON CONFLICT DO NOTHING",
						ref_table[kind], placeholders ? "" : "WHERE u.doc IS NOT NULL"),
			   2, types, args, NULL, false, 0);
	if (placeholders)
		ingest_spi(psprintf("UPDATE kernelindex.%s AS t SET document = u.doc"
							" FROM ROWS FROM (pg_catalog.unnest($1), pg_catalog.unnest($2)) AS u(d, doc)"
							" WHERE t.digest OPERATOR(%s.=) u.d AND t.document IS NULL"
							" AND u.doc IS NOT NULL",
							ref_table[kind], schema),
				   2, types, args, NULL, false, 0);
	ingest_spi(psprintf("SELECT t.digest, t.id FROM kernelindex.%s AS t"
						" WHERE t.digest OPERATOR(%s.=) ANY ($1)", ref_table[kind], schema),
			   1, types, args, NULL, false, 0);
	take_ids(b, b->res_hash[kind], resource_id, &kind);
	SPI_freetuptable(SPI_tuptable);

	for (i = 0; i < n; i++)
	{
		BatchResource *r = &b->res[kind][i];
		char		text[KIDX_DIGEST_TEXT_LEN + 1];

		if (r->id != 0)
			continue;
		kidx_digest_to_cstring(&r->digest, text);
		if (r->document == NULL && !placeholders)
			ereport(ERROR,
					(errcode(ERRCODE_FOREIGN_KEY_VIOLATION),
					 errmsg("document " INT64_FORMAT ": the run refers to %s %s, which is neither in the document nor stored",
							r->ord, run_ref_name[kind], text),
					 errhint("Ingest the %s first, or send it in the same bundle.",
							 run_ref_name[kind])));
		ereport(ERROR,
				(errcode(ERRCODE_T_R_SERIALIZATION_FAILURE),
				 errmsg("%s %s was deleted while document " INT64_FORMAT " was being stored",
						run_ref_name[kind], text, r->ord),
				 errhint("Retry the statement.")));
	}
}

/* Step 2: store the comparability keys and lock them, in key order. */
static void
store_keys(IngestBatch *b)
{
	const char *schema = kidx_extension_schema();
	int			n = b->nkeys;
	KidxDigest **keys = palloc(sizeof(KidxDigest *) * Max(n, 1));
	Datum	   *ids[3];
	Oid			types[4] = {kidx_digest_array_type(), INT4ARRAYOID, INT4ARRAYOID, INT4ARRAYOID};
	Datum		args[4];
	uint64		i;
	int			j;

	if (n == 0)
		return;
	for (j = 0; j < 3; j++)
		ids[j] = palloc(sizeof(Datum) * n);
	for (i = 0; i < (uint64) n; i++)
	{
		keys[i] = &b->keys[i].key;
		ids[0][i] = Int32GetDatum(b->res[RR_PROTOCOL][b->keys[i].res[0]].id);
		ids[1][i] = Int32GetDatum(b->res[RR_WORKLOAD][b->keys[i].res[1]].id);
		ids[2][i] = Int32GetDatum(b->res[RR_ENVIRONMENT][b->keys[i].res[2]].id);
	}
	args[0] = digest_array(keys, n);
	for (j = 0; j < 3; j++)
		args[1 + j] = value_array(ids[j], NULL, n, INT4OID);
	ingest_spi("INSERT INTO kernelindex.comparability_keys AS t (key, protocol_id, workload_id, environment_id)"
			   " SELECT u.k, u.p, u.w, u.e FROM ROWS FROM (pg_catalog.unnest($1), pg_catalog.unnest($2), pg_catalog.unnest($3), pg_catalog.unnest($4)) AS u(k, p, w, e)"
			   " ORDER BY u.k ON CONFLICT DO NOTHING",
			   4, types, args, NULL, false, 0);
	ingest_spi(psprintf("SELECT t.key FROM kernelindex.comparability_keys AS t"
						" WHERE t.key OPERATOR(%s.=) ANY ($1) ORDER BY t.key FOR NO KEY UPDATE",
						schema),
			   1, types, args, NULL, false, 0);
	if (SPI_processed != (uint64) n)
		ereport(ERROR,
				(errcode(ERRCODE_T_R_SERIALIZATION_FAILURE),
				 errmsg("a comparability key was deleted while its runs were being stored"),
				 errhint("Retry the statement.")));
	SPI_freetuptable(SPI_tuptable);
}

/* The id field of a series. */
static int32 *
series_id(IngestBatch *b, int index, void *arg)
{
	(void) arg;
	return &b->series[index]->id;
}

/* Step 3: store the series and learn their ids. */
static void
store_series(IngestBatch *b)
{
	const char *schema = kidx_extension_schema();
	int			n = b->nseries;
	KidxDigest **skeys = palloc(sizeof(KidxDigest *) * Max(n, 1));
	KidxDigest **ckeys = palloc(sizeof(KidxDigest *) * Max(n, 1));
	Datum	   *impl = palloc(sizeof(Datum) * Max(n, 1));
	Datum	   *tmpl = palloc(sizeof(Datum) * Max(n, 1));
	Datum	   *stem = palloc(sizeof(Datum) * Max(n, 1));
	Datum	   *cut = palloc(sizeof(Datum) * Max(n, 1));
	Datum	   *ext = palloc(sizeof(Datum) * Max(n, 1));
	Datum	   *unit = palloc(sizeof(Datum) * Max(n, 1));
	bool	   *stemnull = palloc(sizeof(bool) * Max(n, 1));
	bool	   *cutnull = palloc(sizeof(bool) * Max(n, 1));
	bool	   *extnull = palloc(sizeof(bool) * Max(n, 1));
	bool	   *unitnull = palloc(sizeof(bool) * Max(n, 1));
	Oid			types[8] = {kidx_digest_array_type(), kidx_digest_array_type(), INT4ARRAYOID,
	JSONBARRAYOID, TEXTARRAYOID, INT4ARRAYOID, TEXTARRAYOID, TEXTARRAYOID};
	Datum		args[8];
	HTAB	   *by_key;
	int			i;

	if (n == 0)
		return;
	by_key = make_hash(b, "kernelindex series keys", sizeof(KidxDigest), sizeof(DigestEntry));
	for (i = 0; i < n; i++)
	{
		RunSeries  *s = &b->series[i]->s;
		DigestEntry *e = hash_search(by_key, &s->key, HASH_ENTER, NULL);

		e->index = i;
		skeys[i] = &s->key;
		ckeys[i] = &s->comparability_key;
		impl[i] = Int32GetDatum(b->res[RR_IMPLEMENTATION][b->series[i]->impl].id);
		tmpl[i] = PointerGetDatum(s->template);
		stemnull[i] = s->name_stem == NULL;
		stem[i] = stemnull[i] ? (Datum) 0 : CStringGetTextDatum(s->name_stem);
		cutnull[i] = s->name_stem == NULL || s->name_cut < 0;
		cut[i] = Int32GetDatum(s->name_cut);
		extnull[i] = s->external_id_stem == NULL;
		ext[i] = extnull[i] ? (Datum) 0 : CStringGetTextDatum(s->external_id_stem);
		unitnull[i] = s->native_unit == NULL;
		unit[i] = unitnull[i] ? (Datum) 0 : CStringGetTextDatum(s->native_unit);
	}
	args[0] = digest_array(skeys, n);
	args[1] = digest_array(ckeys, n);
	args[2] = value_array(impl, NULL, n, INT4OID);
	args[3] = value_array(tmpl, NULL, n, JSONBOID);
	args[4] = value_array(stem, stemnull, n, TEXTOID);
	args[5] = value_array(cut, cutnull, n, INT4OID);
	args[6] = value_array(ext, extnull, n, TEXTOID);
	args[7] = value_array(unit, unitnull, n, TEXTOID);
	ingest_spi("INSERT INTO kernelindex.run_series AS t (key, comparability_key, implementation_id,"
			   " template, name_stem, name_cut, external_id_stem, native_unit)"
			   " SELECT u.* FROM ROWS FROM (pg_catalog.unnest($1), pg_catalog.unnest($2), pg_catalog.unnest($3), pg_catalog.unnest($4), pg_catalog.unnest($5), pg_catalog.unnest($6), pg_catalog.unnest($7), pg_catalog.unnest($8))"
			   " AS u(k, c, i, t, s, n, e, m) ORDER BY u.k ON CONFLICT DO NOTHING",
			   8, types, args, NULL, false, 0);
	ingest_spi(psprintf("SELECT t.key, t.id FROM kernelindex.run_series AS t"
						" WHERE t.key OPERATOR(%s.=) ANY ($1)", schema),
			   1, types, args, NULL, false, 0);
	take_ids(b, by_key, series_id, NULL);
	SPI_freetuptable(SPI_tuptable);
	for (i = 0; i < n; i++)
		if (b->series[i]->id == 0)
			ereport(ERROR,
					(errcode(ERRCODE_T_R_SERIALIZATION_FAILURE),
					 errmsg("a run series was deleted while document " INT64_FORMAT " was being stored",
							b->series[i]->ord),
					 errhint("Retry the statement.")));
}

/* ----------------------------------------------------------------
 *		Storing runs
 * ----------------------------------------------------------------
 */

/* Columns of kernelindex.runs the batch writes, by name. */
static const char *const runs_column[] = {
	"comparability_key", "digest", "series_id", "observed_at",
	"latency_ns", "latency_ns_p20", "latency_ns_p80",
	"peak_bytes", "peak_bytes_p20", "peak_bytes_p80",
	"native_p20", "native_p50", "native_p80", "external_key"
};
#define RW_KEY		0
#define RW_DIGEST	1
#define RW_SERIES	2
#define RW_OBSERVED 3
#define RW_INT0		4
#define RW_NATIVE0	(RW_INT0 + RI_N)
#define RW_EXTERNAL (RW_NATIVE0 + RUN_NNATIVE)
#define RW_N		(RW_EXTERNAL + 1)

/* An externalId met earlier in the comparability key being written. */
typedef struct ExternalEntry
{
	pg_uuid_t	key;
	KidxDigest	digest;
	int64		ord;
} ExternalEntry;

/* kernelindex.runs opened for writing, the way COPY writes. */
typedef struct RunsWriter
{
	EState	   *estate;
	ResultRelInfo *rri;
	Relation	rel;
	TransitionCaptureState *tcs;
	BulkInsertState bistate;
	CommandId	cid;
	AttrNumber	att[RW_N];
	Relation	pkey;			/* unique (comparability_key, digest) */
	Relation	extidx;			/* unique (comparability_key, external_key) */
	RegProcedure digest_eq;
	RegProcedure uuid_eq;
	TupleTableSlot *probe;
	TupleTableSlot *slots[INGEST_MULTI_INSERT];
	int			nused;
	int64		stored;
	HTAB	   *externals;		/* of the key being written */
	bool		fire;			/* fire the triggers of runs */
	bool		check;			/* else check references here */
} RunsWriter;

/* Does a trigger fire now (as PostgreSQL's TriggerEnabled decides)? */
static bool
trigger_fires(Trigger *t)
{
	if (SessionReplicationRole == SESSION_REPLICATION_ROLE_REPLICA)
		return t->tgenabled != TRIGGER_FIRES_ON_ORIGIN && t->tgenabled != TRIGGER_DISABLED;
	return t->tgenabled != TRIGGER_FIRES_ON_REPLICA && t->tgenabled != TRIGGER_DISABLED;
}

/*
 * How a batch treats the triggers of kernelindex.runs.  When the only one an
 * INSERT fires is kernelindex.runs_references_check() (the extension's own),
 * the batch makes that check itself, for the series it used, instead of
 * capturing every run in a transition table for it; with any other trigger
 * on runs, every trigger fires as for an INSERT.
 */
static void
writer_triggers(RunsWriter *w)
{
	TriggerDesc *td = w->rel->trigdesc;
	int			i;

	w->fire = false;
	w->check = false;
	for (i = 0; td != NULL && i < td->numtriggers; i++)
	{
		Trigger    *t = &td->triggers[i];
		char	   *fn = get_func_name(t->tgfoid);

		if (!TRIGGER_FOR_INSERT(t->tgtype))
			continue;
		if (fn != NULL &&
			strcmp(fn, "runs_references_check") == 0 &&
			get_func_namespace(t->tgfoid) == get_namespace_oid("kernelindex", false))
		{
			w->check = trigger_fires(t);
			continue;
		}
		w->fire = true;
		break;
	}
	if (w->fire)
		w->check = false;
}

/* Is an index a unique btree on exactly these two columns? */
static bool
index_on(ResultRelInfo *rri, int i, AttrNumber a, AttrNumber b)
{
	IndexInfo  *ii = rri->ri_IndexRelationInfo[i];

	return ii->ii_Unique && ii->ii_NumIndexKeyAttrs == 2 &&
		ii->ii_IndexAttrNumbers[0] == a && ii->ii_IndexAttrNumbers[1] == b &&
		ii->ii_Predicate == NIL && ii->ii_Expressions == NIL &&
		rri->ri_IndexRelationDescs[i]->rd_rel->relam == BTREE_AM_OID;
}

/* The equality function of an index column's operator family. */
static RegProcedure
index_eq(Relation index, int col, Oid type)
{
	Oid			op = get_opfamily_member(index->rd_opfamily[col], type, type,
										 BTEqualStrategyNumber);

	if (!OidIsValid(op))
		elog(ERROR, "index \"%s\" has no equality operator", RelationGetRelationName(index));
	return get_opcode(op);
}

/*
 * Open kernelindex.runs and its indexes, as COPY does: with RowExclusiveLock
 * held until the transaction ends, so that TRUNCATE, ALTER TABLE or CREATE
 * INDEX wait for the load.
 */
static void
writer_open(RunsWriter *w)
{
	Oid			relid = RangeVarGetRelid(makeRangeVar("kernelindex", "runs", -1),
										 RowExclusiveLock, true);
	RangeTblEntry *rte = makeNode(RangeTblEntry);
	List	   *perminfos;
	TupleDesc	desc;
	int			i;

	memset(w, 0, sizeof(*w));
	if (!OidIsValid(relid))
		elog(ERROR, "table kernelindex.runs not found");
	rte->rtekind = RTE_RELATION;
	rte->relid = relid;
	rte->relkind = RELKIND_RELATION;
	rte->rellockmode = RowExclusiveLock;
	perminfos = kidx_check_insert_permission(rte);
	if (check_enable_rls(relid, InvalidOid, false) == RLS_ENABLED)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("kernelindex cannot store runs while row-level security is enabled on kernelindex.runs")));

	w->estate = CreateExecutorState();
	kidx_init_range_table(w->estate, list_make1(rte), perminfos);
	w->rri = makeNode(ResultRelInfo);
	ExecInitResultRelation(w->estate, w->rri, 1);
	kidx_check_valid_insert_rel(w->rri);
	ExecOpenIndices(w->rri, false);
	w->rel = w->rri->ri_RelationDesc;
	w->cid = GetCurrentCommandId(true);
	w->estate->es_output_cid = w->cid;
	if (ActiveSnapshotSet())
		w->estate->es_snapshot = GetActiveSnapshot();
	w->bistate = GetBulkInsertState();
	writer_triggers(w);
	if (w->fire)
	{
		AfterTriggerBeginQuery();
		w->tcs = MakeTransitionCaptureState(w->rel->trigdesc, relid, CMD_INSERT);
	}

	desc = RelationGetDescr(w->rel);
	for (i = 0; i < RW_N; i++)
	{
		w->att[i] = attnameAttNum(w->rel, runs_column[i], false);
		if (w->att[i] == InvalidAttrNumber)
			elog(ERROR, "kernelindex.runs has no column \"%s\"", runs_column[i]);
	}
	for (i = 0; i < w->rri->ri_NumIndices; i++)
	{
		if (index_on(w->rri, i, w->att[RW_KEY], w->att[RW_DIGEST]))
			w->pkey = w->rri->ri_IndexRelationDescs[i];
		else if (index_on(w->rri, i, w->att[RW_KEY], w->att[RW_EXTERNAL]))
			w->extidx = w->rri->ri_IndexRelationDescs[i];
	}
	if (w->pkey == NULL || w->extidx == NULL)
		elog(ERROR, "kernelindex.runs lacks its unique indexes on (comparability_key, digest) and (comparability_key, external_key)");
	w->digest_eq = index_eq(w->pkey, 0, TupleDescAttr(desc, w->att[RW_DIGEST] - 1)->atttypid);
	w->uuid_eq = index_eq(w->extidx, 1, UUIDOID);
	w->probe = table_slot_create(w->rel, NULL);
	for (i = 0; i < INGEST_MULTI_INSERT; i++)
		w->slots[i] = table_slot_create(w->rel, NULL);
	if (w->fire)
		ExecBSInsertTriggers(w->estate, w->rri);
}

/*
 * Look a run (or, with one key, a comparability key) up in an index, with
 * a dirty snapshot (what is committed or in progress, waiting for the
 * latter to end); the row found is in w->probe.
 */
static bool
writer_probe(RunsWriter *w, Relation index, int nkeys, Datum k1,
			 RegProcedure eq2, Datum k2)
{
	ScanKeyData sk[2];
	SnapshotData dirty;
	IndexScanDesc scan;
	bool		found;

	for (;;)
	{
		TransactionId xwait;

		ScanKeyInit(&sk[0], 1, BTEqualStrategyNumber, w->digest_eq, k1);
		if (nkeys > 1)
			ScanKeyInit(&sk[1], 2, BTEqualStrategyNumber, eq2, k2);
		InitDirtySnapshot(dirty);
		scan = kidx_index_beginscan(w->rel, index, &dirty, nkeys, 0);
		index_rescan(scan, sk, nkeys, NULL, 0);
		found = index_getnext_slot(scan, ForwardScanDirection, w->probe);
		xwait = TransactionIdIsValid(dirty.xmin) ? dirty.xmin : dirty.xmax;
		index_endscan(scan);
		if (!found || !TransactionIdIsValid(xwait))
			return found;
		XactLockTableWait(xwait, w->rel, &w->probe->tts_tid, XLTW_InsertIndex);
	}
}

/*
 * A stored run found for one being written: fine under READ COMMITTED;
 * under REPEATABLE READ or SERIALIZABLE it must be visible to the
 * transaction's snapshot (as ON CONFLICT DO NOTHING requires).
 */
static void
check_found_visible(RunsWriter *w)
{
	HeapTuple	tup;
	char		text[KIDX_DIGEST_TEXT_LEN + 1];
	bool		isnull;

	if (!IsolationUsesXactSnapshot())
		return;
	tup = ExecFetchSlotHeapTuple(w->probe, false, NULL);
	if (TransactionIdIsCurrentTransactionId(HeapTupleHeaderGetXmin(tup->t_data)) ||
		table_tuple_satisfies_snapshot(w->rel, w->probe, GetTransactionSnapshot()))
		return;
	kidx_digest_to_cstring((KidxDigest *) DatumGetPointer(slot_getattr(w->probe, w->att[RW_DIGEST],
																	   &isnull)), text);
	ereport(ERROR,
			(errcode(ERRCODE_T_R_SERIALIZATION_FAILURE),
			 errmsg("could not serialize access due to concurrent insert of run %s", text),
			 errdetail("Another transaction stored the run after this one began."),
			 errhint("Retry the transaction.")));
}

/* Write the buffered runs: heap, index entries, AFTER ROW triggers. */
static void
writer_flush(RunsWriter *w)
{
	MemoryContext old;
	int			i;

	if (w->nused == 0)
		return;
	old = MemoryContextSwitchTo(GetPerTupleMemoryContext(w->estate));
	table_multi_insert(w->rel, w->slots, w->nused, w->cid, 0, w->bistate);
	MemoryContextSwitchTo(old);
	for (i = 0; i < w->nused; i++)
	{
		List	   *recheck = kidx_insert_index_tuples(w->rri, w->slots[i], w->estate);

		if (w->fire)
			ExecARInsertTriggers(w->estate, w->rri, w->slots[i], recheck, w->tcs);
		list_free(recheck);
		ExecClearTuple(w->slots[i]);
	}
	w->stored += w->nused;
	w->nused = 0;
	ResetPerTupleExprContext(w->estate);
}

/*
 * Close kernelindex.runs: AFTER STATEMENT triggers fire here, or the batch
 * checks the series its runs use.
 */
static void
writer_close(RunsWriter *w, IngestBatch *b)
{
	int			i;

	writer_flush(w);
	if (w->fire)
	{
		ExecASInsertTriggers(w->estate, w->rri, w->tcs);
		AfterTriggerEndQuery(w->estate);
	}
	else if (w->check)
	{
		int32	   *ids = palloc(sizeof(int32) * Max(b->nseries, 1));
		KidxDigest *keys = palloc(sizeof(KidxDigest) * Max(b->nseries, 1));
		int			n = 0;

		for (i = 0; i < b->nseries; i++)
			if (b->series[i]->used)
			{
				ids[n] = b->series[i]->id;
				keys[n++] = b->series[i]->s.comparability_key;
			}
		references_check_series(n, ids, keys);
	}
	FreeBulkInsertState(w->bistate);
	table_finish_bulk_insert(w->rel, 0);
	ExecDropSingleTupleTableSlot(w->probe);
	for (i = 0; i < INGEST_MULTI_INSERT; i++)
		ExecDropSingleTupleTableSlot(w->slots[i]);
	ExecCloseResultRelations(w->estate);
	ExecCloseRangeTableRelations(w->estate);
	FreeExecutorState(w->estate);
}

/* The externalId of a sorted run, for messages. */
static char *
run_external_id_of(IngestBatch *b, TupleTableSlot *in)
{
	RunValues	rv;
	char	   *name;
	char	   *id;

	memset(&rv, 0, sizeof(rv));
	rv.observed_at = DatumGetTimestampTz(in->tts_values[RC_OBSERVED_AT - 1]);
	run_strings(&b->series[DatumGetInt32(in->tts_values[RC_SERIES - 1])]->s, &rv, &name, &id);
	return id;
}

/* Refuse a run whose source and externalId another run has. */
static void
external_collision(IngestBatch *b, TupleTableSlot *in, const KidxDigest *other,
				   int64 other_ord)
{
	char		mine[KIDX_DIGEST_TEXT_LEN + 1];
	char		theirs[KIDX_DIGEST_TEXT_LEN + 1];

	kidx_digest_to_cstring((KidxDigest *) DatumGetPointer(in->tts_values[RC_DIGEST - 1]), mine);
	kidx_digest_to_cstring(other, theirs);
	ereport(ERROR,
			(errcode(ERRCODE_UNIQUE_VIOLATION),
			 errmsg("document " INT64_FORMAT ": run %s has the same source and externalId as %s run %s",
					DatumGetInt64(in->tts_values[RC_ORD - 1]), mine,
					other_ord > 0 ? psprintf("document " INT64_FORMAT "'s", other_ord) : "stored",
					theirs),
			 errdetail("The externalId is \"%s\".", run_external_id_of(b, in)),
			 errhint("Two different runs of one source cannot share an externalId; nothing was stored.")));
}

/*
 * Remember a sorted run's externalId among those of its comparability key
 * in this statement; another run with it is refused.
 */
static void
note_external(IngestBatch *b, HTAB *externals, TupleTableSlot *in)
{
	Datum	   *v = in->tts_values;
	bool		found;
	ExternalEntry *e;

	if (in->tts_isnull[RC_EXTERNAL_KEY - 1])
		return;
	e = hash_search(externals, DatumGetPointer(v[RC_EXTERNAL_KEY - 1]), HASH_ENTER, &found);
	if (found)
		external_collision(b, in, &e->digest, e->ord);
	memcpy(&e->digest, DatumGetPointer(v[RC_DIGEST - 1]), sizeof(KidxDigest));
	e->ord = DatumGetInt64(v[RC_ORD - 1]);
}

/* Store one sorted run (unless it is stored already). */
static void
writer_put(RunsWriter *w, IngestBatch *b, TupleTableSlot *in, BatchKey *key)
{
	TupleTableSlot *slot;
	Datum	   *v = in->tts_values;
	bool	   *nulls = in->tts_isnull;
	bool		isnull;
	int			i;

	if (key->had_runs)
	{
		if (writer_probe(w, w->pkey, 2, v[RC_KEY - 1], w->digest_eq, v[RC_DIGEST - 1]))
		{
			check_found_visible(w);
			return;
		}
		if (!nulls[RC_EXTERNAL_KEY - 1] &&
			writer_probe(w, w->extidx, 2, v[RC_KEY - 1], w->uuid_eq, v[RC_EXTERNAL_KEY - 1]))
			external_collision(b, in, (KidxDigest *) DatumGetPointer(slot_getattr(w->probe,
																				  w->att[RW_DIGEST],
																				  &isnull)), 0);
	}
	note_external(b, w->externals, in);

	slot = w->slots[w->nused];
	ExecClearTuple(slot);
	memset(slot->tts_isnull, true, sizeof(bool) * slot->tts_tupleDescriptor->natts);
#define SET(col, datum) \
	do { \
		slot->tts_values[w->att[col] - 1] = (datum); \
		slot->tts_isnull[w->att[col] - 1] = false; \
	} while (0)
	SET(RW_KEY, v[RC_KEY - 1]);
	SET(RW_DIGEST, v[RC_DIGEST - 1]);
	SET(RW_SERIES, Int32GetDatum(b->series[DatumGetInt32(v[RC_SERIES - 1])]->id));
	b->series[DatumGetInt32(v[RC_SERIES - 1])]->used = true;
	SET(RW_OBSERVED, v[RC_OBSERVED_AT - 1]);
	for (i = 0; i < RI_N; i++)
		if (!nulls[RC_INT0 - 1 + i])
			SET(RW_INT0 + i, v[RC_INT0 - 1 + i]);
	for (i = 0; i < RUN_NNATIVE; i++)
		if (!nulls[RC_NATIVE0 - 1 + i])
			SET(RW_NATIVE0 + i, v[RC_NATIVE0 - 1 + i]);
	if (!nulls[RC_EXTERNAL_KEY - 1])
		SET(RW_EXTERNAL, v[RC_EXTERNAL_KEY - 1]);
#undef SET
	ExecStoreVirtualTuple(slot);
	ExecMaterializeSlot(slot);
	if (w->rel->rd_att->constr)
		ExecConstraints(w->rri, slot, w->estate);
	if (++w->nused == INGEST_MULTI_INSERT)
		writer_flush(w);
}

/* A fresh table of the externalIds of one comparability key. */
static HTAB *
new_externals(IngestBatch *b, HTAB *old)
{
	HASHCTL		ctl;

	if (old != NULL)
		hash_destroy(old);
	ctl.keysize = sizeof(pg_uuid_t);
	ctl.entrysize = sizeof(ExternalEntry);
	ctl.hcxt = b->cxt;
	return hash_create("kernelindex externalIds", 64, &ctl,
					   HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
}

/* ----------------------------------------------------------------
 *		Storing runs on Citus
 *
 * When kernelindex.runs is a Citus distributed table (see
 * kernelindex.distribute()), the coordinator's table holds no rows: its
 * shards on the workers do.  The sorted runs then go, a chunk at a time,
 * through INSERT ... SELECT FROM unnest(arrays) ON CONFLICT (comparability_key,
 * digest) DO NOTHING, which Citus routes to the shards.  Runs stored before
 * are skipped by ON CONFLICT on their shard (waiting for, or under
 * REPEATABLE READ and SERIALIZABLE failing on, runs other transactions
 * stored, as the heap path does); a run whose externalId a stored run of
 * its key has fails on the shard's unique index (23505).  The series a run
 * names is checked by the foreign key (series_id, comparability_key) ->
 * run_series (id, comparability_key) that distribute() declares, on each
 * shard against its server's copy of the reference table.
 * ----------------------------------------------------------------
 */

/* Runs written per INSERT through SQL. */
#define INGEST_SQL_CHUNK 100000

/* Is a kernelindex table (NULL: any) a Citus table?  See ingest.h. */
bool
kidx_distributed(const char *relname)
{
	Oid			nsp;
	Oid			argtypes[1] = {OIDOID};
	Datum		args[1];
	bool		found;

	if (!OidIsValid(get_extension_oid("citus", true)) ||
		!OidIsValid(get_relname_relid("pg_dist_partition", PG_CATALOG_NAMESPACE)))
		return false;
	nsp = get_namespace_oid("kernelindex", false);
	if (relname != NULL)
	{
		args[0] = ObjectIdGetDatum(get_relname_relid(relname, nsp));
		if (!OidIsValid(DatumGetObjectId(args[0])))
			return false;
	}
	else
		args[0] = ObjectIdGetDatum(nsp);
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	ingest_spi(relname != NULL ?
			   "SELECT 1 FROM pg_catalog.pg_dist_partition AS p"
			   " WHERE p.logicalrelid::pg_catalog.oid OPERATOR(pg_catalog.=) $1" :
			   "SELECT 1 FROM pg_catalog.pg_dist_partition AS p"
			   " JOIN pg_catalog.pg_class AS c ON c.oid OPERATOR(pg_catalog.=) p.logicalrelid::pg_catalog.oid"
			   " WHERE c.relnamespace OPERATOR(pg_catalog.=) $1",
			   1, argtypes, args, NULL, true, 1);
	found = SPI_processed > 0;
	SPI_finish();
	return found;
}

/* Runs buffered column by column for one INSERT through SQL. */
typedef struct SqlRunsWriter
{
	MemoryContext cxt;			/* the buffered values; reset per chunk */
	char	   *sql;
	Oid			type[RW_N];
	int16		typlen[RW_N];
	bool		typbyval[RW_N];
	char		typalign[RW_N];
	Datum	   *values[RW_N];
	bool	   *nulls[RW_N];
	int			n;
	int			cap;			/* runs per INSERT */
	int64		stored;
} SqlRunsWriter;

/* Set up the INSERT the runs go through. */
static void
sql_writer_open(SqlRunsWriter *w, IngestBatch *b)
{
	Oid			digest_type = kidx_digest_type();
	StringInfoData sql;
	int			i;

	memset(w, 0, sizeof(*w));
	w->cap = (int) Min(b->nruns, INGEST_SQL_CHUNK);
	w->cxt = AllocSetContextCreate(b->cxt, "kernelindex runs through SQL",
								   ALLOCSET_DEFAULT_SIZES);
	for (i = 0; i < RW_N; i++)
	{
		if (i == RW_KEY || i == RW_DIGEST)
			w->type[i] = digest_type;
		else if (i == RW_SERIES)
			w->type[i] = INT4OID;
		else if (i == RW_OBSERVED)
			w->type[i] = TIMESTAMPTZOID;
		else if (i < RW_NATIVE0)
			w->type[i] = INT8OID;
		else if (i < RW_EXTERNAL)
			w->type[i] = NUMERICOID;
		else
			w->type[i] = UUIDOID;
		get_typlenbyvalalign(w->type[i], &w->typlen[i], &w->typbyval[i], &w->typalign[i]);
		w->values[i] = MemoryContextAlloc(b->cxt, sizeof(Datum) * w->cap);
		w->nulls[i] = MemoryContextAlloc(b->cxt, sizeof(bool) * w->cap);
	}
	initStringInfo(&sql);
	appendStringInfoString(&sql, "INSERT INTO kernelindex.runs AS t (");
	for (i = 0; i < RW_N; i++)
		appendStringInfo(&sql, "%s%s", i ? ", " : "", runs_column[i]);
	appendStringInfoString(&sql, ") SELECT u.* FROM ROWS FROM (");
	for (i = 0; i < RW_N; i++)
		appendStringInfo(&sql, "%spg_catalog.unnest($%d)", i ? ", " : "", i + 1);
	appendStringInfoString(&sql, ") AS u ON CONFLICT (comparability_key, digest) DO NOTHING");
	w->sql = sql.data;
}

/* Write the buffered runs with one INSERT; Citus routes them to the shards. */
static void
sql_writer_flush(SqlRunsWriter *w)
{
	MemoryContext cxt = CurrentMemoryContext;
	Oid			argtypes[RW_N];
	Datum		args[RW_N];
	int			dims[1] = {w->n};
	int			lbs[1] = {1};
	int			i;

	if (w->n == 0)
		return;
	MemoryContextSwitchTo(w->cxt);
	for (i = 0; i < RW_N; i++)
	{
		argtypes[i] = get_array_type(w->type[i]);
		args[i] = PointerGetDatum(construct_md_array(w->values[i], w->nulls[i], 1, dims, lbs,
													 w->type[i], w->typlen[i],
													 w->typbyval[i], w->typalign[i]));
	}
	MemoryContextSwitchTo(cxt);
	PG_TRY();
	{
		ingest_spi(w->sql, RW_N, argtypes, args, NULL, false, 0);
	}
	PG_CATCH();
	{
		ErrorData  *edata;

		MemoryContextSwitchTo(cxt);
		edata = CopyErrorData();
		if (edata->sqlerrcode != ERRCODE_UNIQUE_VIOLATION)
			PG_RE_THROW();
		FlushErrorState();
		ereport(ERROR,
				(errcode(ERRCODE_UNIQUE_VIOLATION),
				 errmsg("a run has the same source and externalId as a stored run of its comparability key"),
				 edata->detail ? errdetail_internal("%s", edata->detail) :
				 errdetail_internal("%s", edata->message),
				 errhint("Two different runs of one source cannot share an externalId; nothing was stored.")));
	}
	PG_END_TRY();
	w->stored += SPI_processed;
	SPI_freetuptable(SPI_tuptable);
	w->n = 0;
	MemoryContextReset(w->cxt);
}

/* Buffer one sorted run (a copy of its values) for the next INSERT. */
static void
sql_writer_put(SqlRunsWriter *w, IngestBatch *b, TupleTableSlot *in)
{
	Datum	   *v = in->tts_values;
	bool	   *nulls = in->tts_isnull;
	MemoryContext old = MemoryContextSwitchTo(w->cxt);
	int			series = DatumGetInt32(v[RC_SERIES - 1]);
	int			i;

#define PUT(col, isnull, datum) \
	do { \
		w->nulls[col][w->n] = (isnull); \
		w->values[col][w->n] = (isnull) ? (Datum) 0 : \
			datumCopy((datum), w->typbyval[col], w->typlen[col]); \
	} while (0)
	PUT(RW_KEY, false, v[RC_KEY - 1]);
	PUT(RW_DIGEST, false, v[RC_DIGEST - 1]);
	PUT(RW_SERIES, false, Int32GetDatum(b->series[series]->id));
	PUT(RW_OBSERVED, false, v[RC_OBSERVED_AT - 1]);
	for (i = 0; i < RI_N; i++)
		PUT(RW_INT0 + i, nulls[RC_INT0 - 1 + i], v[RC_INT0 - 1 + i]);
	for (i = 0; i < RUN_NNATIVE; i++)
		PUT(RW_NATIVE0 + i, nulls[RC_NATIVE0 - 1 + i], v[RC_NATIVE0 - 1 + i]);
	PUT(RW_EXTERNAL, nulls[RC_EXTERNAL_KEY - 1], v[RC_EXTERNAL_KEY - 1]);
#undef PUT
	b->series[series]->used = true;
	MemoryContextSwitchTo(old);
	if (++w->n == w->cap)
		sql_writer_flush(w);
}

/*
 * Step 4: store the runs in key order; returns how many are new.  On one
 * server they go into the heap and its indexes directly; where runs is a
 * Citus table, through SQL (see "Storing runs on Citus").
 */
static int64
store_runs(IngestBatch *b)
{
	bool		sql;
	RunsWriter	w;
	SqlRunsWriter sw;
	TupleTableSlot *in;
	KidxDigest	prev_key;
	KidxDigest	prev_digest;
	bool		have_prev = false;
	BatchKey   *key = NULL;
	int64		stored;

	if (b->nruns == 0)
		return 0;
	sql = kidx_distributed("runs");
	tuplesort_performsort(b->runs);
	in = MakeSingleTupleTableSlot(b->run_desc, &TTSOpsMinimalTuple);
	if (sql)
	{
		sql_writer_open(&sw, b);
		w.externals = NULL;
	}
	else
		writer_open(&w);
	while (tuplesort_gettupleslot(b->runs, true, false, in, NULL))
	{
		KidxDigest *k;
		KidxDigest *d;

		CHECK_FOR_INTERRUPTS();
		slot_getallattrs(in);
		k = (KidxDigest *) DatumGetPointer(in->tts_values[RC_KEY - 1]);
		d = (KidxDigest *) DatumGetPointer(in->tts_values[RC_DIGEST - 1]);
		if (!have_prev || memcmp(k, &prev_key, sizeof(KidxDigest)) != 0)
		{
			if (!sql)
			{
				DigestEntry *e = hash_search(b->key_hash, k, HASH_FIND, NULL);

				if (e == NULL)
					elog(ERROR, "a run's comparability key is not in its batch");
				key = &b->keys[e->index];
				key->had_runs = writer_probe(&w, w.pkey, 1, in->tts_values[RC_KEY - 1], InvalidOid, 0);
			}
			w.externals = new_externals(b, w.externals);
			prev_key = *k;
		}
		else if (memcmp(d, &prev_digest, sizeof(KidxDigest)) == 0)
			continue;			/* the same run twice in one statement */
		prev_digest = *d;
		have_prev = true;
		if (sql)
		{
			note_external(b, w.externals, in);
			sql_writer_put(&sw, b, in);
		}
		else
			writer_put(&w, b, in, key);
	}
	if (sql)
	{
		sql_writer_flush(&sw);
		MemoryContextDelete(sw.cxt);
		stored = sw.stored;
	}
	else
	{
		writer_close(&w, b);
		stored = w.stored;
	}
	ExecDropSingleTupleTableSlot(in);
	tuplesort_end(b->runs);
	b->runs = NULL;
	return stored;
}

/* Store the batch; see ingest.h. */
int64
ingest_finish(IngestBatch *b)
{
	int64		stored;
	int			i;

	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	for (i = 0; i < RR_N; i++)
		store_resources(b, i);
	store_keys(b);
	store_series(b);
	CommandCounterIncrement();
	stored = store_runs(b);
	if (SPI_finish() != SPI_OK_FINISH)
		elog(ERROR, "SPI_finish failed");
	return stored;
}

/* ----------------------------------------------------------------
 *		Statements
 * ----------------------------------------------------------------
 */

/* The statements ingesting now, innermost first. */
static IngestStatement *statements = NULL;
static bool callbacks_registered = false;

/* Forget the statements of an aborted (sub)transaction. */
static void
statements_subxact_callback(SubXactEvent event, SubTransactionId mySubid,
							SubTransactionId parentSubid, void *arg)
{
	if (event != SUBXACT_EVENT_ABORT_SUB)
		return;
	while (statements != NULL && statements->subid >= mySubid)
	{
		IngestStatement *s = statements;

		statements = s->prev;
		MemoryContextDelete(s->cxt);
	}
}

/* Forget every statement at the end of a transaction (its memory goes too). */
static void
statements_xact_callback(XactEvent event, void *arg)
{
	if (event == XACT_EVENT_ABORT || event == XACT_EVENT_PARALLEL_ABORT ||
		event == XACT_EVENT_COMMIT || event == XACT_EVENT_PARALLEL_COMMIT ||
		event == XACT_EVENT_PREPARE)
		statements = NULL;
}

/* Begin ingesting a statement into relid (its BEFORE STATEMENT trigger). */
IngestStatement *
ingest_statement_begin(Oid relid)
{
	MemoryContext cxt;
	IngestStatement *s;

	if (!callbacks_registered)
	{
		RegisterXactCallback(statements_xact_callback, NULL);
		RegisterSubXactCallback(statements_subxact_callback, NULL);
		callbacks_registered = true;
	}
	cxt = AllocSetContextCreate(TopTransactionContext, "kernelindex statement",
								ALLOCSET_DEFAULT_SIZES);
	s = MemoryContextAllocZero(cxt, sizeof(IngestStatement));
	s->cxt = cxt;
	s->relid = relid;
	s->subid = GetCurrentSubTransactionId();
	s->batch = ingest_begin(cxt);
	s->prev = statements;
	statements = s;
	return s;
}

/* The statement ingesting into relid now (its row trigger). */
IngestStatement *
ingest_statement_current(Oid relid)
{
	IngestStatement *s;

	for (s = statements; s != NULL; s = s->prev)
		if (s->relid == relid)
			return s;
	ereport(ERROR,
			(errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
			 errmsg("no kernelindex statement is ingesting into \"%s\"", get_rel_name(relid)),
			 errhint("Its BEFORE INSERT FOR EACH STATEMENT trigger did not run; is it disabled?")));
	return NULL;
}

/* End the innermost statement ingesting into relid; the caller deletes s->cxt. */
IngestStatement *
ingest_statement_end(Oid relid)
{
	IngestStatement *s = statements;

	if (s == NULL || s->relid != relid)
		ereport(ERROR,
				(errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
				 errmsg("no kernelindex statement is ingesting into \"%s\"", get_rel_name(relid))));
	statements = s->prev;
	return s;
}
