/*-------------------------------------------------------------------------
 *
 * batch.c
 *	  Storing one statement's resources, comparability keys, dictionary
 *	  values and runs (see batch.h).
 *
 * A batch collects what a statement brings, in memory: resources by kind
 * and digest, comparability keys, the dictionary values its runs repeat
 * (dictionary.c), and the runs themselves, sorted by (comparability key,
 * digest).  batch_finish() stores it in set-based steps, each one SQL
 * statement per table, in a fixed order of tables and, within each, of
 * keys, so that concurrent loads of the same data wait for each other
 * instead of deadlocking:
 *
 * 1. resources, by kind: those not stored yet by one INSERT, first without
 *	  ON CONFLICT, then, if a concurrent load stored one meanwhile, again
 *	  with ON CONFLICT DO NOTHING (insert_new(): a speculative insertion
 *	  costs about twice a plain one); a workload or implementation known by
 *	  digest only gets a row without document, filled in when its document
 *	  comes, the rows locked in digest order first; a protocol or
 *	  environment that is neither brought nor stored is an error (23503);
 * 2. comparability keys, likewise, the resources the new ones name then
 *	  checked and locked FOR KEY SHARE at once, as foreign keys would one
 *	  key at a time (references.c), but for those the batch stored itself;
 * 3. dictionary values, likewise (dictionary.c);
 * 4. runs, in key order, INSERT ... SELECT FROM unnest(...) ON CONFLICT
 *	  (comparability_key, digest) DO NOTHING, a chunk at a time: a run
 *	  stored before, by this statement or another transaction, is skipped
 *	  (waiting for one in progress; under REPEATABLE READ and SERIALIZABLE a
 *	  run this snapshot cannot see is a serialization failure, 40001).  A run
 *	  with the source and externalId of another run of its key, in the
 *	  statement or stored, fails the statement (23505, naming both runs).
 *	  The same INSERT serves one server and Citus, which routes each run to
 *	  its shard; on one server the statement trigger of kernelindex.runs
 *	  checks every reference the new runs make (references.c).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "compat.h"

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/stratnum.h"
#include "access/table.h"
#include "access/xact.h"
#include "catalog/namespace.h"
#include "catalog/pg_am_d.h"
#include "catalog/pg_operator_d.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "parser/parse_relation.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/datum.h"
#include "utils/guc.h"
#include "utils/hsearch.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/resowner.h"
#include "utils/snapmgr.h"
#include "utils/tuplesort.h"
#include "utils/typcache.h"

#include "batch.h"
#include "comparability.h"
#include "dictionary.h"
#include "extension.h"
#include "kernelindex.h"
#include "run_store.h"

/*
 * Runs written per INSERT at most.  Its unnest($1) argument is one array
 * datum, which may not pass 1 GB (MaxAllocSize); 100,000 runs of a few
 * hundred bytes keep it to tens of MB, while one INSERT's own cost (its
 * executor start and its statement trigger's check of references,
 * src/references.c) is spread over many runs.
 */
#define BATCH_CHUNK 100000

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
	bool		label_stored;	/* a workload's label was read from a stored
								 * document (label) */
	bool		label_assumed;	/* runs were held by label (RIF_LABELLED) */
	bool		inserted;		/* stored by this batch */
	bool		recheck;		/* a placeholder when first read: its label
								 * is read again once filled in */
	char	   *label;			/* a workload's label, once known */
} BatchResource;

/* A comparability key of the batch. */
typedef struct BatchKey
{
	KidxDigest	key;
	int			res[3];			/* protocol, workload, environment */
	int64		ord;
	bool		existing;		/* stored before this statement */
} BatchKey;

/* Hash entries: a digest to an index. */
typedef struct DigestEntry
{
	KidxDigest	digest;
	int			index;
} DigestEntry;

/*
 * Columns of the sorted runs (run_desc): the key and digest they sort by,
 * the position in the statement, then what becomes each column of runs:
 * the batch's numbers of its implementation, template, label set and
 * strings (ids once the batch is stored), and its values.
 */
enum
{
	BC_KEY = 1, BC_DIGEST, BC_ORD, BC_IMPLEMENTATION, BC_TEMPLATE, BC_LABELS,
	BC_TEXT0,					/* RT_N dictionary strings */
	BC_OBSERVED_AT = BC_TEXT0 + RT_N,
	BC_VALUE0,					/* RV_N values */
	BC_NATIVE0 = BC_VALUE0 + RV_N,	/* RUN_NNATIVE native values */
	BC_EXTERNAL_KEY = BC_NATIVE0 + RUN_NNATIVE,
	BC_NATTS = BC_EXTERNAL_KEY
};

struct Batch
{
	const char *item;			/* what its runs come in, for messages:
								 * "document" or "row" */
	MemoryContext cxt;
	MemoryContext tmp;			/* reset per run */
	HTAB	   *res_hash[RR_N];
	BatchResource *res[RR_N];
	int			nres[RR_N];
	int			capres[RR_N];
	HTAB	   *key_hash;
	BatchKey   *keys;
	int			nkeys;
	int			capkeys;
	DictSet    *dicts;
	RunTemplate **templates;	/* by the batch's template number */
	int			ntemplates;
	int			captemplates;
	Oid			workloads;		/* kernelindex.workloads, its primary key */
	Oid			workloads_pkey;	/* (InvalidOid: not looked up yet) */
	RegProcedure digest_eq;		/* the key's equality */
	AttrNumber	workload_att[3];	/* digest, document, label */
	TupleDesc	run_desc;
	TupleTableSlot *run_slot;
	Tuplesortstate *runs;
	int64		nruns;
};

/* ----------------------------------------------------------------
 *		Collecting
 * ----------------------------------------------------------------
 */

/* A hash table of digests in the batch's context. */
static HTAB *
digest_hash(MemoryContext cxt, const char *name)
{
	HASHCTL		ctl;

	ctl.keysize = sizeof(KidxDigest);
	ctl.entrysize = sizeof(DigestEntry);
	ctl.hcxt = cxt;
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

/* Start a batch; see batch.h. */
Batch *
batch_begin(MemoryContext parent)
{
	MemoryContext cxt;
	MemoryContext old;
	Batch	   *b;
	int			i;

	kidx_check_version();
	cxt = AllocSetContextCreate(parent, "kernelindex batch", ALLOCSET_DEFAULT_SIZES);
	old = MemoryContextSwitchTo(cxt);
	b = palloc0(sizeof(Batch));

	b->item = "document";
	b->cxt = cxt;
	b->tmp = AllocSetContextCreate(cxt, "kernelindex batch, per run",
								   ALLOCSET_DEFAULT_SIZES);
	for (i = 0; i < RR_N; i++)
		b->res_hash[i] = digest_hash(cxt, "kernelindex resources");
	b->key_hash = digest_hash(cxt, "kernelindex keys");
	b->dicts = dict_set_create(cxt);
	MemoryContextSwitchTo(old);
	return b;
}

/* Name what the batch's runs come in, for messages; see batch.h. */
void
batch_items(Batch *b, const char *item)
{
	b->item = item;
}

/* The batch's memory context. */
MemoryContext
batch_context(Batch *b)
{
	return b->cxt;
}

/* Add a resource (or its document to one already referred to). */
static int
add_resource(Batch *b, RunRef kind, const KidxDigest *digest, Jsonb *document,
			 int64 ord)
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
		r->label_stored = false;
		r->label_assumed = false;
		r->inserted = false;
		r->recheck = false;
		r->label = NULL;
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

/* A resource the statement brings or refers to; see batch.h. */
void
batch_resource(Batch *b, RunRef kind, const KidxDigest *digest, Jsonb *document,
			   int64 ord)
{
	MemoryContext old = MemoryContextSwitchTo(b->cxt);

	add_resource(b, kind, digest, document, ord);
	MemoryContextSwitchTo(old);
}

/* A workload document's metadata.labels.label (NULL: none). */
static char *
document_label(Jsonb *doc)
{
	JsonbValue *v = getKeyJsonValueFromContainer(&doc->root, "metadata", 8, NULL);

	if (v == NULL || v->type != jbvBinary)
		return NULL;
	v = getKeyJsonValueFromContainer(v->val.binary.data, "labels", 6, NULL);
	if (v == NULL || v->type != jbvBinary)
		return NULL;
	v = getKeyJsonValueFromContainer(v->val.binary.data, "label", 5, NULL);
	if (v == NULL || v->type != jbvString)
		return NULL;
	return pnstrdup(v->val.string.val, v->val.string.len);
}

/* Find kernelindex.workloads, its primary key and columns (once a batch). */
static void
find_workloads(Batch *b)
{
	static const char *const column[3] = {"digest", "document", "label"};
	Relation	rel;
	Relation	idx;
	Oid			op;
	int			i;

	b->workloads = get_relname_relid("workloads", get_namespace_oid("kernelindex", false));
	if (!OidIsValid(b->workloads))
		elog(ERROR, "kernelindex.workloads does not exist");
	rel = table_open(b->workloads, AccessShareLock);
	for (i = 0; i < 3; i++)
	{
		b->workload_att[i] = attnameAttNum(rel, column[i], false);
		if (b->workload_att[i] == InvalidAttrNumber)
			elog(ERROR, "kernelindex.workloads has no column \"%s\"", column[i]);
	}
	b->workloads_pkey = kidx_primary_key_index(rel);
	if (!OidIsValid(b->workloads_pkey))
		elog(ERROR, "kernelindex.workloads has no primary key");
	idx = index_open(b->workloads_pkey, AccessShareLock);
	if (idx->rd_index->indnatts != 1 || idx->rd_index->indkey.values[0] != b->workload_att[0] ||
		idx->rd_rel->relam != BTREE_AM_OID)
		elog(ERROR, "the primary key of kernelindex.workloads is not a btree on its digest");
	op = get_opfamily_member(idx->rd_opfamily[0], idx->rd_opcintype[0], idx->rd_opcintype[0],
							 BTEqualStrategyNumber);
	if (!OidIsValid(op))
		elog(ERROR, "the primary key of kernelindex.workloads has no equality");
	b->digest_eq = get_opcode(op);
	index_close(idx, AccessShareLock);
	table_close(rel, AccessShareLock);
}

/*
 * Read a stored workload's label into r, if the workload is stored with its
 * document (then its label never changes: kernelindex.workloads_update):
 * one probe of its primary key, with the statement's snapshot, as the query
 * "SELECT label FROM kernelindex.workloads WHERE digest = $1 AND document IS
 * NOT NULL" would read it (without a plan to start for each workload).
 */
static void
read_stored_label(Batch *b, BatchResource *r)
{
	Relation	rel;
	ScanKeyData key;
	SysScanDesc scan;
	HeapTuple	tup;

	if (!OidIsValid(b->workloads_pkey))
		find_workloads(b);
	rel = table_open(b->workloads, AccessShareLock);
	ScanKeyInit(&key, b->workload_att[0], BTEqualStrategyNumber, b->digest_eq,
				PointerGetDatum(&r->digest));
	scan = systable_beginscan(rel, b->workloads_pkey, true, GetActiveSnapshot(), 1, &key);
	tup = systable_getnext(scan);
	if (HeapTupleIsValid(tup))
	{
		TupleDesc	desc = RelationGetDescr(rel);
		bool		isnull;
		Datum		d;

		(void) heap_getattr(tup, b->workload_att[1], desc, &isnull);
		if (!isnull)
		{
			d = heap_getattr(tup, b->workload_att[2], desc, &isnull);
			r->label_stored = true;
			r->label = isnull ? NULL : MemoryContextStrdup(b->cxt, TextDatumGetCString(d));
		}
	}
	systable_endscan(scan);
	table_close(rel, AccessShareLock);
}

/* The label runs of a workload are held by; see batch.h. */
const char *
batch_workload_label(Batch *b, const KidxDigest *workload, int64 ord)
{
	MemoryContext old = MemoryContextSwitchTo(b->cxt);
	int			i = add_resource(b, RR_WORKLOAD, workload, NULL, ord);
	BatchResource *r = &b->res[RR_WORKLOAD][i];	/* after add_resource grew it */

	if (!r->label_stored && r->label == NULL)
	{
		read_stored_label(b, r);
		if (!r->label_stored && r->document != NULL)
			r->label = document_label(r->document);
	}
	if (r->label != NULL)
		r->label_assumed = true;
	MemoryContextSwitchTo(old);
	return r->label;
}

/* The batch's number of a template; see batch.h. */
int
batch_template(Batch *b, const RunTemplate *t, RunTemplate **interned)
{
	int			i = dict_template(b->dicts, t, interned);

	if (i == b->ntemplates)
	{
		MemoryContext old = MemoryContextSwitchTo(b->cxt);

		b->templates = grow(b->templates, b->ntemplates, &b->captemplates,
							sizeof(RunTemplate *));
		b->templates[b->ntemplates++] = *interned;
		MemoryContextSwitchTo(old);
	}
	return i;
}

/* The batch's number of a run's comparability key (added if new). */
static int
add_key(Batch *b, const RunParts *parts, int64 ord)
{
	KidxDigest	key;
	bool		found;
	DigestEntry *e;

	kidx_comparability_key(&parts->ref[RR_PROTOCOL], &parts->ref[RR_WORKLOAD],
						   &parts->ref[RR_ENVIRONMENT], &key);
	e = hash_search(b->key_hash, &key, HASH_ENTER, &found);
	if (!found)
	{
		BatchKey   *k;

		b->keys = grow(b->keys, b->nkeys, &b->capkeys, sizeof(BatchKey));
		e->index = b->nkeys++;
		k = &b->keys[e->index];
		k->key = key;
		k->res[0] = add_resource(b, RR_PROTOCOL, &parts->ref[RR_PROTOCOL], NULL, ord);
		k->res[1] = add_resource(b, RR_WORKLOAD, &parts->ref[RR_WORKLOAD], NULL, ord);
		k->res[2] = add_resource(b, RR_ENVIRONMENT, &parts->ref[RR_ENVIRONMENT], NULL, ord);
		k->ord = ord;
		k->existing = true;
	}
	return e->index;
}

/* Set up the sort the runs of the batch go through. */
static void
begin_runs(Batch *b)
{
	Oid			digest_type = kidx_digest_type();
	TypeCacheEntry *tc = lookup_type_cache(digest_type, TYPECACHE_LT_OPR);
	AttrNumber	cols[3] = {BC_KEY, BC_DIGEST, BC_ORD};
	Oid			ops[3];
	Oid			colls[3] = {InvalidOid, InvalidOid, InvalidOid};
	bool		nulls_first[3] = {false, false, false};
	int			i;

	b->run_desc = CreateTemplateTupleDesc(BC_NATTS);
	TupleDescInitEntry(b->run_desc, BC_KEY, "key", digest_type, -1, 0);
	TupleDescInitEntry(b->run_desc, BC_DIGEST, "digest", digest_type, -1, 0);
	TupleDescInitEntry(b->run_desc, BC_ORD, "ord", INT8OID, -1, 0);
	TupleDescInitEntry(b->run_desc, BC_IMPLEMENTATION, "implementation", INT4OID, -1, 0);
	TupleDescInitEntry(b->run_desc, BC_TEMPLATE, "template", INT4OID, -1, 0);
	TupleDescInitEntry(b->run_desc, BC_LABELS, "labels", INT4OID, -1, 0);
	for (i = 0; i < RT_N; i++)
		TupleDescInitEntry(b->run_desc, BC_TEXT0 + i, "text", INT4OID, -1, 0);
	TupleDescInitEntry(b->run_desc, BC_OBSERVED_AT, "observed_at", TIMESTAMPTZOID, -1, 0);
	for (i = 0; i < RV_N; i++)
		TupleDescInitEntry(b->run_desc, BC_VALUE0 + i, "value", INT8OID, -1, 0);
	for (i = 0; i < RUN_NNATIVE; i++)
		TupleDescInitEntry(b->run_desc, BC_NATIVE0 + i, "native", NUMERICOID, -1, 0);
	TupleDescInitEntry(b->run_desc, BC_EXTERNAL_KEY, "external_key", UUIDOID, -1, 0);
	b->run_slot = MakeSingleTupleTableSlot(b->run_desc, &TTSOpsVirtual);

	if (!OidIsValid(tc->lt_opr))
		elog(ERROR, "kidx_digest has no ordering operator");
	ops[0] = ops[1] = tc->lt_opr;
	ops[2] = Int8LessOperator;
	b->runs = tuplesort_begin_heap(b->run_desc, 3, cols, ops, colls, nulls_first,
								   maintenance_work_mem, NULL, TUPLESORT_NONE);
}

/* Set a column of the slot being filled. */
#define SET_COLUMN(slot, col, datum) \
	do { \
		(slot)->tts_values[(col) - 1] = (datum); \
		(slot)->tts_isnull[(col) - 1] = false; \
	} while (0)

/* Intern what a run refers to; see batch.h. */
void
batch_refs(Batch *b, const RunParts *parts, int template, int64 ord, BatchRefs *refs)
{
	MemoryContext old = MemoryContextSwitchTo(b->cxt);
	int			i;

	refs->key = add_key(b, parts, ord);
	refs->implementation = add_resource(b, RR_IMPLEMENTATION, &parts->ref[RR_IMPLEMENTATION],
										NULL, ord);
	refs->template = template;
	refs->labels = dict_labels(b->dicts, parts->labels);
	for (i = 0; i < RT_N; i++)
		refs->text[i] = dict_text(b->dicts, run_text_dict[i], parts->text[i]);
	MemoryContextSwitchTo(old);
}

/* Add a run; see batch.h. */
void
batch_run(Batch *b, const BatchRefs *refs, const RunParts *parts, const KidxDigest *digest,
		  int64 ord)
{
	TupleTableSlot *slot;
	MemoryContext old = MemoryContextSwitchTo(b->cxt);
	const RunValues *rv = &parts->values;
	pg_uuid_t  *ext;
	int			i;

	if (b->runs == NULL)
		begin_runs(b);
	slot = b->run_slot;
	ExecClearTuple(slot);
	memset(slot->tts_isnull, true, sizeof(bool) * BC_NATTS);
	SET_COLUMN(slot, BC_KEY, PointerGetDatum(&b->keys[refs->key].key));
	SET_COLUMN(slot, BC_DIGEST, PointerGetDatum(digest));
	SET_COLUMN(slot, BC_ORD, Int64GetDatum(ord));
	SET_COLUMN(slot, BC_IMPLEMENTATION, Int32GetDatum(refs->implementation));
	SET_COLUMN(slot, BC_TEMPLATE, Int32GetDatum(refs->template));
	if (refs->labels >= 0)
		SET_COLUMN(slot, BC_LABELS, Int32GetDatum(refs->labels));
	for (i = 0; i < RT_N; i++)
		if (refs->text[i] >= 0)
			SET_COLUMN(slot, BC_TEXT0 + i, Int32GetDatum(refs->text[i]));
	SET_COLUMN(slot, BC_OBSERVED_AT, TimestampTzGetDatum(rv->observed_at));
	MemoryContextSwitchTo(b->tmp);
	for (i = 0; i < RV_N; i++)
		if (rv->has[i])
			SET_COLUMN(slot, BC_VALUE0 + i, Int64GetDatum(rv->v[i]));
	for (i = 0; i < RUN_NNATIVE; i++)
	{
		Numeric		n = rv->native[i];

		if (n == NULL && rv->native_text[i] != NULL)
			n = run_numeric_in(rv->native_text[i]);
		if (n != NULL)
			SET_COLUMN(slot, BC_NATIVE0 + i, NumericGetDatum(n));
	}
	ext = palloc(sizeof(pg_uuid_t));
	if (run_external_key(parts, ext))
		SET_COLUMN(slot, BC_EXTERNAL_KEY, UUIDPGetDatum(ext));
	ExecStoreVirtualTuple(slot);
	MemoryContextSwitchTo(b->cxt);
	tuplesort_puttupleslot(b->runs, slot);
	b->nruns++;
	MemoryContextSwitchTo(old);
	MemoryContextReset(b->tmp);
}

/* ----------------------------------------------------------------
 *		Storing resources and keys
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

/*
 * Run a statement (sql, else a kept plan) in a subtransaction: NULL if it
 * ran, its error if it failed on a unique index (23505); any other error is
 * thrown.  Its result stays in SPI_tuptable.
 */
static ErrorData *
execute_in_subxact(const char *sql, SPIPlanPtr plan, int nargs, Oid *types, Datum *args)
{
	MemoryContext cxt = CurrentMemoryContext;
	ResourceOwner owner = CurrentResourceOwner;
	ErrorData  *edata = NULL;

	BeginInternalSubTransaction(NULL);
	MemoryContextSwitchTo(cxt);
	PG_TRY();
	{
		if (sql != NULL)
			kidx_spi_execute(sql, nargs, types, args, NULL, false, 0);
		else
			kidx_spi_execute_plan(plan, args, NULL, false, 0);
		ReleaseCurrentSubTransaction();
		MemoryContextSwitchTo(cxt);
		CurrentResourceOwner = owner;
	}
	PG_CATCH();
	{
		MemoryContextSwitchTo(cxt);
		edata = CopyErrorData();
		FlushErrorState();
		RollbackAndReleaseCurrentSubTransaction();
		MemoryContextSwitchTo(cxt);
		CurrentResourceOwner = owner;
		if (edata->sqlerrcode != ERRCODE_UNIQUE_VIOLATION)
			ReThrowError(edata);
	}
	PG_END_TRY();
	return edata;
}

/*
 * Run an INSERT of rows a read has just found new: first without ON
 * CONFLICT, in a subtransaction (a speculative insertion costs every row an
 * index probe and a WAL record more: about half of such an INSERT); if a
 * concurrent load stored one of the rows meanwhile (23505), the INSERT runs
 * again with ON CONFLICT DO NOTHING (conflict_sql), which skips it.  Both
 * wait for a concurrent load storing the same row, as ON CONFLICT does.
 */
static void
insert_new(const char *plain_sql, const char *conflict_sql, int nargs, Oid *types, Datum *args)
{
	ErrorData  *edata = execute_in_subxact(plain_sql, NULL, nargs, types, args);

	if (edata == NULL)
		return;
	FreeErrorData(edata);
	kidx_spi_execute(conflict_sql, nargs, types, args, NULL, false, 0);
}

/*
 * Runs held by a workload's label rebuild their externalIds from the label
 * stored: it must be the one they assumed.  It is, unless a concurrent load
 * stored this workload with another document.
 */
static void
check_stored_label(BatchResource *res, bool isnull, Datum label)
{
	char		shown[KIDX_DIGEST_TEXT_LEN + 1];

	if (!res->label_assumed ||
		(!isnull && strcmp(TextDatumGetCString(label), res->label) == 0))
		return;
	kidx_digest_to_cstring(&res->digest, shown);
	ereport(ERROR,
			(errcode(ERRCODE_T_R_SERIALIZATION_FAILURE),
			 errmsg("workload %s was stored by a concurrent load with another label while document " INT64_FORMAT " was being stored",
					shown, res->ord),
			 errhint("Retry the statement.")));
}

/*
 * Learn the ids (and check the labels) of resources from the rows of a
 * query (digest, id[, label]); with inserted, mark them stored by the batch.
 * With first, the rows are (digest, id, document IS NULL[, label]): a
 * placeholder's label is checked once it is read again.
 */
static void
read_resource_ids(Batch *b, RunRef kind, bool inserted, bool first)
{
	uint64		r;

	if (SPI_tuptable == NULL)
		elog(ERROR, "the ids of kernelindex.%s were not returned", ref_table[kind]);
	for (r = 0; r < SPI_processed; r++)
	{
		HeapTuple	tup = SPI_tuptable->vals[r];
		TupleDesc	desc = SPI_tuptable->tupdesc;
		bool		isnull;
		KidxDigest *d = (KidxDigest *) DatumGetPointer(SPI_getbinval(tup, desc, 1, &isnull));
		DigestEntry *e = hash_search(b->res_hash[kind], d, HASH_FIND, NULL);
		BatchResource *res;
		Datum		label;

		if (e == NULL)
			continue;
		res = &b->res[kind][e->index];
		res->id = DatumGetInt32(SPI_getbinval(tup, desc, 2, &isnull));
		res->inserted |= inserted;
		if (first)
			res->recheck = DatumGetBool(SPI_getbinval(tup, desc, 3, &isnull));
		if (kind != RR_WORKLOAD || res->recheck)
			continue;
		label = SPI_getbinval(tup, desc, first ? 4 : 3, &isnull);
		check_stored_label(res, isnull, label);
	}
	SPI_freetuptable(SPI_tuptable);
}

/*
 * Step 1: store the resources of one kind and learn their ids: those stored
 * before from the first read, those this batch stores from its INSERT, and
 * only the others (stored meanwhile by a concurrent load, or a placeholder
 * filled in) read again.
 */
static void
store_resources(Batch *b, RunRef kind)
{
	const char *schema = kidx_extension_schema();
	int			n = b->nres[kind];
	KidxDigest **digests = palloc(sizeof(KidxDigest *) * Max(n, 1));
	Datum	   *docs = palloc(sizeof(Datum) * Max(n, 1));
	bool	   *docnulls = palloc(sizeof(bool) * Max(n, 1));
	Oid			types[2] = {kidx_digest_array_type(), JSONBARRAYOID};
	Datum		args[2];
	Datum		newargs[2];
	bool		placeholders = (kind == RR_WORKLOAD || kind == RR_IMPLEMENTATION);
	const char *label = kind == RR_WORKLOAD ? ", t.label" : "";
	uint64		stored;
	int			m;
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
	args[1] = kidx_datum_array(docs, docnulls, n, JSONBOID);

	/*
	 * New resources only: one stored before takes no id from the sequence
	 * (ON CONFLICT alone would take one for every resource offered).  A
	 * stored workload's label never changes once it has a document
	 * (workloads_label): read now; a placeholder's once it is filled in.
	 */
	kidx_spi_execute(psprintf("SELECT t.digest, t.id, t.document IS NULL%s FROM kernelindex.%s AS t"
							  " WHERE t.digest OPERATOR(%s.=) ANY ($1)", label, ref_table[kind], schema),
					 1, types, args, NULL, false, 0);
	stored = SPI_processed;
	read_resource_ids(b, kind, false, true);
	if (stored < (uint64) n)
	{
		bool		returning = !kidx_distributed(ref_table[kind]);
		char	   *sql;

		m = 0;
		for (i = 0; i < n; i++)
			if (b->res[kind][i].id == 0)
			{
				digests[m] = digests[i];
				docs[m] = docs[i];
				docnulls[m] = docnulls[i];
				m++;
			}
		newargs[0] = digest_array(digests, m);
		newargs[1] = kidx_datum_array(docs, docnulls, m, JSONBOID);
		sql = psprintf("INSERT INTO kernelindex.%s AS t (digest, document)"
					   " SELECT u.d, u.doc FROM ROWS FROM (pg_catalog.unnest($1), pg_catalog.unnest($2)) AS u(d, doc)"
					   " %s ORDER BY u.d%%s%s",
					   ref_table[kind], placeholders ? "" : "WHERE u.doc IS NOT NULL",
					   returning ? psprintf(" RETURNING t.digest, t.id%s", label) : "");
		/* (on Citus an INSERT ... SELECT into a reference table returns no rows) */
		if (returning)
			insert_new(psprintf(sql, ""), psprintf(sql, " ON CONFLICT DO NOTHING"), 2, types, newargs);
		else
			kidx_spi_execute(psprintf(sql, " ON CONFLICT DO NOTHING"), 2, types, newargs, NULL, false, 0);
		if (returning)
			read_resource_ids(b, kind, true, false);
		else
			SPI_freetuptable(SPI_tuptable);
	}
	/*
	 * Documents of rows stored without one are filled in: those this batch
	 * brings a document for and did not store itself, which the first read
	 * found stored without one or did not see (a concurrent load may have
	 * stored them since, with or without).  The rows are locked first in
	 * digest order, so that two loads filling in the same rows wait for each
	 * other instead of deadlocking (an UPDATE locks them in the order its
	 * join meets them).  Both statements name the digests as an index
	 * condition (= ANY): with a join alone the planner may read the whole
	 * primary key in digest order for the ORDER BY (regress chunks).
	 */
	m = 0;
	if (placeholders)
		for (i = 0; i < n; i++)
		{
			BatchResource *res = &b->res[kind][i];

			if (res->document != NULL && !res->inserted && (res->recheck || res->id == 0))
			{
				digests[m] = &res->digest;
				docs[m] = PointerGetDatum(res->document);
				docnulls[m] = false;
				m++;
			}
		}
	if (m > 0)
	{
		newargs[0] = digest_array(digests, m);
		newargs[1] = kidx_datum_array(docs, docnulls, m, JSONBOID);
		kidx_spi_execute(psprintf("SELECT FROM kernelindex.%s AS t"
								  " WHERE t.digest OPERATOR(%s.=) ANY ($1) AND t.document IS NULL"
								  " ORDER BY t.digest FOR NO KEY UPDATE OF t",
								  ref_table[kind], schema),
						 1, types, newargs, NULL, false, 0);
		if (SPI_processed > 0)
			kidx_spi_execute(psprintf("UPDATE kernelindex.%s AS t SET document = u.doc"
									  " FROM ROWS FROM (pg_catalog.unnest($1), pg_catalog.unnest($2)) AS u(d, doc)"
									  " WHERE t.digest OPERATOR(%s.=) u.d AND t.digest OPERATOR(%s.=) ANY ($1)"
									  " AND t.document IS NULL",
									  ref_table[kind], schema, schema),
							 2, types, newargs, NULL, false, 0);
	}

	/* Read again what is not known yet. */
	m = 0;
	for (i = 0; i < n; i++)
		if (b->res[kind][i].id == 0 || b->res[kind][i].recheck)
			digests[m++] = &b->res[kind][i].digest;
	if (m > 0)
	{
		newargs[0] = digest_array(digests, m);
		kidx_spi_execute(psprintf("SELECT t.digest, t.id%s FROM kernelindex.%s AS t"
								  " WHERE t.digest OPERATOR(%s.=) ANY ($1)",
								  label, ref_table[kind], schema),
						 1, types, newargs, NULL, false, 0);
		for (i = 0; i < n; i++)
			if (b->res[kind][i].recheck)
			{
				/* (read again just now, its label checked this time) */
				b->res[kind][i].id = 0;
				b->res[kind][i].recheck = false;
			}
		read_resource_ids(b, kind, false, false);
	}

	for (i = 0; i < n; i++)
	{
		BatchResource *res = &b->res[kind][i];
		char		text[KIDX_DIGEST_TEXT_LEN + 1];

		if (res->id != 0)
			continue;
		kidx_digest_to_cstring(&res->digest, text);
		if (res->document == NULL && !placeholders)
			ereport(ERROR,
					(errcode(ERRCODE_FOREIGN_KEY_VIOLATION),
					 errmsg("%s " INT64_FORMAT ": the run refers to %s %s, which is neither in the %s nor stored",
							b->item, res->ord, run_ref_name[kind], text, b->item),
					 errhint("Ingest the %s first, or send it in the same bundle.",
							 run_ref_name[kind])));
		ereport(ERROR,
				(errcode(ERRCODE_T_R_SERIALIZATION_FAILURE),
				 errmsg("%s %s was deleted while %s " INT64_FORMAT " was being stored",
						run_ref_name[kind], text, b->item, res->ord),
				 errhint("Retry the statement.")));
	}
}

/* The batch's entry of the key in the first column of a result row, or NULL. */
static DigestEntry *
key_of_row(Batch *b, uint64 r)
{
	bool		isnull;

	return hash_search(b->key_hash,
					   DatumGetPointer(SPI_getbinval(SPI_tuptable->vals[r], SPI_tuptable->tupdesc, 1, &isnull)),
					   HASH_FIND, NULL);
}

/* Step 2: store the comparability keys. */
static void
store_keys(Batch *b)
{
	int			n = b->nkeys;
	KidxDigest **keys = palloc(sizeof(KidxDigest *) * Max(n, 1));
	Datum	   *ids[3];
	Oid			types[4] = {kidx_digest_array_type(), INT4ARRAYOID, INT4ARRAYOID, INT4ARRAYOID};
	Datum		args[4];
	bool		distributed;
	const char *sql;
	bool	   *stored;
	int			m;
	int32	   *new_ids[KEY_NREFS];
	int			nnew[KEY_NREFS] = {0, 0, 0};
	static const RunRef key_ref[KEY_NREFS] = {RR_PROTOCOL, RR_WORKLOAD, RR_ENVIRONMENT};
	uint64		r;
	int			i;
	int			j;

	StaticAssertStmt(KEY_NREFS == 3, "a key is a protocol, a workload and an environment");
	if (n == 0)
		return;
	for (j = 0; j < 3; j++)
	{
		ids[j] = palloc(sizeof(Datum) * n);
		new_ids[j] = palloc(sizeof(int32) * n);
	}
	for (i = 0; i < n; i++)
	{
		keys[i] = &b->keys[i].key;
		ids[0][i] = Int32GetDatum(b->res[RR_PROTOCOL][b->keys[i].res[0]].id);
		ids[1][i] = Int32GetDatum(b->res[RR_WORKLOAD][b->keys[i].res[1]].id);
		ids[2][i] = Int32GetDatum(b->res[RR_ENVIRONMENT][b->keys[i].res[2]].id);
	}
	args[0] = digest_array(keys, n);
	for (j = 0; j < 3; j++)
		args[1 + j] = kidx_datum_array(ids[j], NULL, n, INT4OID);
	/*
	 * The keys this statement stores have no runs but this statement's (on
	 * one server: Citus's INSERT ... SELECT into a reference table returns
	 * no rows to SPI, and every key counts as stored before).
	 */
	distributed = kidx_distributed("comparability_keys");
	sql = "INSERT INTO kernelindex.comparability_keys AS t (key, protocol_id, workload_id, environment_id)"
		" SELECT u.k, u.p, u.w, u.e FROM ROWS FROM (pg_catalog.unnest($1), pg_catalog.unnest($2),"
		" pg_catalog.unnest($3), pg_catalog.unnest($4)) AS u(k, p, w, e)"
		" ORDER BY u.k%s%s";
	if (distributed)
	{
		kidx_spi_execute(psprintf(sql, " ON CONFLICT DO NOTHING", ""), 4, types, args, NULL, false, 0);
		SPI_freetuptable(SPI_tuptable);
		return;
	}

	/* The keys stored before; the others go in (insert_new). */
	kidx_spi_execute(psprintf("SELECT t.key FROM kernelindex.comparability_keys AS t"
							  " WHERE t.key OPERATOR(%s.=) ANY ($1)", kidx_extension_schema()),
					 1, types, args, NULL, false, 0);
	stored = palloc0(sizeof(bool) * n);
	for (r = 0; r < SPI_processed; r++)
	{
		DigestEntry *e = key_of_row(b, r);

		if (e != NULL)
			stored[e->index] = true;
	}
	SPI_freetuptable(SPI_tuptable);
	for (i = 0, m = 0; i < n; i++)
		if (!stored[i])
		{
			keys[m] = keys[i];
			for (j = 0; j < 3; j++)
				ids[j][m] = ids[j][i];
			m++;
		}
	if (m == 0)
		return;
	args[0] = digest_array(keys, m);
	for (j = 0; j < 3; j++)
		args[1 + j] = kidx_datum_array(ids[j], NULL, m, INT4OID);
	insert_new(psprintf(sql, "", " RETURNING t.key"),
			   psprintf(sql, " ON CONFLICT DO NOTHING", " RETURNING t.key"), 4, types, args);
	for (r = 0; r < SPI_processed; r++)
	{
		DigestEntry *e = key_of_row(b, r);

		if (e == NULL)
			elog(ERROR, "a comparability key stored is not in its batch");
		b->keys[e->index].existing = false;
		for (j = 0; j < KEY_NREFS; j++)
		{
			BatchResource *res = &b->res[key_ref[j]][b->keys[e->index].res[j]];

			/*
			 * (A row this batch stored needs no lock: no other transaction
			 * sees it before this one commits, and then sees the key too.)
			 */
			if (!res->inserted)
				new_ids[j][nnew[j]++] = res->id;
		}
	}
	SPI_freetuptable(SPI_tuptable);

	/*
	 * What the new keys name exists and stays until this transaction ends
	 * (on Citus, foreign keys: distribute()).
	 */
	keys_references_check(new_ids, nnew);
}

/* ----------------------------------------------------------------
 *		Storing runs
 * ----------------------------------------------------------------
 */

/* What a sorted run's externalId is made of (for messages). */
typedef struct ExternalParts
{
	int			template;		/* the batch's numbers */
	int			text;
	int			benchmark;
	int			workload;
	TimestampTz observed_at;
} ExternalParts;

/* An externalId met earlier in the comparability key being written. */
typedef struct ExternalEntry
{
	pg_uuid_t	key;
	KidxDigest	digest;
	int64		ord;
	ExternalParts parts;
} ExternalEntry;

/*
 * Runs buffered for one INSERT: rows of kernelindex.runs, formed in C, that
 * the INSERT reads as one array (INSERT ... SELECT u.* FROM unnest($1) u).
 * Runs of comparability keys this statement stored first go in without ON
 * CONFLICT: no other transaction can have stored a run of such a key (it
 * would have stored the key first, and this statement would have waited
 * for it), nor this one.  Runs of keys stored before go in with ON CONFLICT
 * (comparability_key, digest) DO NOTHING, in a subtransaction, so that a run
 * with the externalId of a stored run is refused naming both.
 */
typedef struct RunsBuffer
{
	MemoryContext cxt;			/* its rows; reset when written */
	SPIPlanPtr	plan;			/* its INSERT's, kept (kidx_kept_plan) */
	bool		existing;		/* runs of keys stored before */
	bool		counted;		/* the INSERT returns the count it stored */
	Datum	   *rows;			/* composite datums of runs rows */
	int64	   *ords;			/* for messages */
	ExternalParts *externals;	/* for messages */
	int			n;
} RunsBuffer;

typedef struct RunsWriter
{
	TupleDesc	desc;			/* of kernelindex.runs */
	Oid			rowtype;
	AttrNumber	att[RC_N];
	Datum	   *values;			/* a row being formed, by attribute */
	bool	   *nulls;
	RunsBuffer	buf[2];			/* new keys, keys stored before */
	int			cap;			/* runs per INSERT */
	bool		distributed;	/* on Citus: the INSERTs read pending_runs() */
	int64		stored;
	HTAB	   *externals;		/* of the key being written */
} RunsWriter;

/* What a sorted run's externalId is made of. */
static void
external_parts(Datum *v, bool *nulls, const BatchKey *key, ExternalParts *e)
{
	e->template = DatumGetInt32(v[BC_TEMPLATE - 1]);
	e->text = nulls[BC_TEXT0 - 1 + RT_EXTERNAL_ID] ? -1 :
		DatumGetInt32(v[BC_TEXT0 - 1 + RT_EXTERNAL_ID]);
	e->benchmark = nulls[BC_TEXT0 - 1 + RT_BENCHMARK] ? -1 :
		DatumGetInt32(v[BC_TEXT0 - 1 + RT_BENCHMARK]);
	e->workload = key->res[1];
	e->observed_at = DatumGetTimestampTz(v[BC_OBSERVED_AT - 1]);
}

/* The externalId of a sorted run, for messages. */
static char *
external_id_of(Batch *b, const ExternalParts *e)
{
	RunParts	parts;

	memset(&parts, 0, sizeof(parts));
	parts.template = b->templates[e->template];
	parts.text[RT_EXTERNAL_ID] = dict_text_value(b->dicts, run_text_dict[RT_EXTERNAL_ID], e->text);
	parts.text[RT_BENCHMARK] = dict_text_value(b->dicts, run_text_dict[RT_BENCHMARK], e->benchmark);
	parts.workload_label = b->res[RR_WORKLOAD][e->workload].label;
	parts.values.observed_at = e->observed_at;
	return run_external_id(&parts);
}

/*
 * How many times the INSERT of runs whose keys were stored before is tried
 * when a concurrent load's identical runs race it on the externalId index
 * (each try sees the runs committed before it; three races in a row are
 * not seen in 050_load_mix's runs).
 */
#define INSERT_ATTEMPTS 3

/* Refuse a run whose source and externalId another run has. */
static void
external_collision(const char *item, int64 ord, const KidxDigest *mine, const char *theirs_where,
				   const KidxDigest *theirs, const char *external_id)
{
	char		a[KIDX_DIGEST_TEXT_LEN + 1];
	char		c[KIDX_DIGEST_TEXT_LEN + 1];

	kidx_digest_to_cstring(mine, a);
	kidx_digest_to_cstring(theirs, c);
	ereport(ERROR,
			(errcode(ERRCODE_UNIQUE_VIOLATION),
			 errmsg("%s " INT64_FORMAT ": run %s has the same source and externalId as %s run %s",
					item, ord, a, theirs_where, c),
			 errdetail("The externalId is \"%s\".", external_id),
			 errhint("Two different runs of one source cannot share an externalId; nothing was stored.")));
}

/* Set up the INSERTs the runs go through. */
static void
writer_open(RunsWriter *w, Batch *b)
{
	Oid			relid = get_relname_relid("runs", get_namespace_oid("kernelindex", false));
	Oid			argtypes[1];
	bool		distributed = kidx_distributed("runs");
	int			k;

	memset(w, 0, sizeof(*w));
	w->cap = (int) Min(b->nruns, BATCH_CHUNK);
	w->distributed = distributed;
	w->rowtype = get_rel_type_id(relid);
	w->desc = lookup_rowtype_tupdesc_copy(w->rowtype, -1);
	run_column_attnums(w->desc, w->att);
	w->values = MemoryContextAlloc(b->cxt, sizeof(Datum) * w->desc->natts);
	w->nulls = MemoryContextAlloc(b->cxt, sizeof(bool) * w->desc->natts);
	argtypes[0] = get_array_type(w->rowtype);
	for (k = 0; k < 2; k++)
	{
		RunsBuffer *buf = &w->buf[k];
		/*
		 * (On Citus the rows stored are counted from RETURNING: Citus counts
		 * the rows an INSERT ... SELECT ... ON CONFLICT sends to the shards,
		 * and SPI refuses a RETURNING of fewer rows than that count.)
		 */
		const char *sql = distributed ?
		(k == 0 ?
		 "INSERT INTO kernelindex.runs SELECT u.* FROM kernelindex_internal.pending_runs() AS u" :
		 "WITH i AS (INSERT INTO kernelindex.runs SELECT u.* FROM kernelindex_internal.pending_runs() AS u"
		 " ON CONFLICT (comparability_key, digest) DO NOTHING RETURNING 1) SELECT pg_catalog.count(*) FROM i") :
		k == 0 ?
		"INSERT INTO kernelindex.runs SELECT u.* FROM pg_catalog.unnest($1) AS u" :
		"INSERT INTO kernelindex.runs SELECT u.* FROM pg_catalog.unnest($1) AS u"
		" ON CONFLICT (comparability_key, digest) DO NOTHING";

		buf->existing = k == 1;
		buf->counted = k == 1 && distributed;
		buf->cxt = AllocSetContextCreate(b->cxt, "kernelindex runs to write",
										 ALLOCSET_DEFAULT_SIZES);
		buf->rows = MemoryContextAlloc(b->cxt, sizeof(Datum) * w->cap);
		buf->ords = MemoryContextAlloc(b->cxt, sizeof(int64) * w->cap);
		buf->externals = MemoryContextAlloc(b->cxt, sizeof(ExternalParts) * w->cap);
		buf->plan = kidx_kept_plan(sql, distributed ? 0 : 1, argtypes);
	}
}

/*
 * The run of a chunk that has the source and externalId of a stored run of
 * its key, and that run: looked for after the chunk's INSERT failed on the
 * unique index (comparability_key, external_key).  False if none is seen (a
 * run this snapshot cannot see).
 */
static bool
find_stored_collision(RunsWriter *w, Datum rows, int *which, KidxDigest *theirs)
{
	Oid			types[1] = {get_array_type(w->rowtype)};
	Datum		args[1] = {rows};
	bool		isnull;

	kidx_spi_execute(psprintf("SELECT u.ordinality, r.digest FROM pg_catalog.unnest($1) WITH ORDINALITY AS u"
							  " JOIN kernelindex.runs AS r ON r.comparability_key OPERATOR(%s.=) u.comparability_key"
							  " AND r.external_key OPERATOR(pg_catalog.=) u.external_key"
							  " WHERE r.digest OPERATOR(%s.<>) u.digest ORDER BY u.ordinality LIMIT 1",
							  kidx_extension_schema(), kidx_extension_schema()),
					 1, types, args, NULL, false, 1);	/* (a new snapshot: it sees
														 * the statement's earlier
														 * chunks) */
	if (SPI_processed == 0)
		return false;
	*which = (int) DatumGetInt64(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull)) - 1;
	memcpy(theirs, DatumGetPointer(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 2, &isnull)),
		   sizeof(KidxDigest));
	return true;
}

/*
 * Refuse the chunk's run whose externalId a stored run of its key has.  If
 * no other run has it (a concurrent load stored the same run, and its
 * externalId entry met ours before the primary key's did, which ON
 * CONFLICT does not arbitrate), return when may_retry: the INSERT again
 * then sees that run and stores nothing in its place.
 */
static void
stored_collision(RunsWriter *w, Batch *b, RunsBuffer *buf, Datum rows, ErrorData *edata,
				 bool may_retry)
{
	int			which;
	KidxDigest	theirs;

	if (find_stored_collision(w, rows, &which, &theirs))
	{
		HeapTupleHeader row = DatumGetHeapTupleHeader(buf->rows[which]);
		bool		isnull;

		external_collision(b->item, buf->ords[which],
						   (KidxDigest *) DatumGetPointer(GetAttributeByNum(row, w->att[RC_DIGEST], &isnull)),
						   "stored", &theirs,
						   external_id_of(b, &buf->externals[which]));
	}
	if (may_retry)
		return;
	ereport(ERROR,
			(errcode(ERRCODE_UNIQUE_VIOLATION),
			 errmsg("a run has the same source and externalId as a stored run of its comparability key"),
			 edata->detail ? errdetail_internal("%s", edata->detail) :
			 errdetail_internal("%s", edata->message),
			 errhint("Two different runs of one source cannot share an externalId; nothing was stored.")));
}

/*
 * The buffer whose runs a distributed INSERT is writing: what
 * kernelindex_internal.pending_runs() returns while it runs (NULL at any
 * other time).
 */
static RunsBuffer *pending_runs = NULL;

/*
 * The runs of the chunk this session's load is writing on Citus, as rows of
 * kernelindex.runs (none at any other time).  Citus executes an INSERT ...
 * SELECT FROM unnest($1) into a distributed table by deparsing its SELECT
 * with every parameter turned into text: an array of 100,000 runs was
 * output as text and parsed back for each chunk (71% of the coordinator's
 * time in a load).  A function without arguments gives it nothing to
 * convert: it returns the buffer's rows as they are.
 */
PG_FUNCTION_INFO_V1(kidx_pending_runs);
Datum
kidx_pending_runs(PG_FUNCTION_ARGS)
{
	FuncCallContext *f;

	if (SRF_IS_FIRSTCALL())
	{
		f = SRF_FIRSTCALL_INIT();
		f->user_fctx = pending_runs;
		f->max_calls = pending_runs != NULL ? pending_runs->n : 0;
	}
	f = SRF_PERCALL_SETUP();
	if (f->call_cntr < f->max_calls)
	{
		/* (read before SRF_RETURN_NEXT, which counts the call first) */
		Datum		row = ((RunsBuffer *) f->user_fctx)->rows[f->call_cntr];

		SRF_RETURN_NEXT(f, row);
	}
	SRF_RETURN_DONE(f);
}

/*
 * Run a buffer's INSERT once (its rows: $1, or pending_runs on Citus).
 *
 * On Citus the INSERT runs with citus.multi_shard_modify_mode sequential:
 * one connection to each worker, the one that wrote this transaction's new
 * rows of the reference tables there.  The check of each shard's new runs
 * (references.c) reads that worker's placements, and over a second
 * connection it would not see those rows, which are not committed yet.
 * (A declared foreign key makes Citus do the same once a reference table
 * it points to is written.)
 */
static ErrorData *
writer_execute(RunsBuffer *buf, Datum *rows, bool distributed)
{
	ErrorData  *volatile edata = NULL;
	int			nest = -1;

	if (distributed)
	{
		nest = NewGUCNestLevel();
		(void) set_config_option("citus.multi_shard_modify_mode", "sequential",
								 PGC_USERSET, PGC_S_SESSION, GUC_ACTION_SAVE, true, 0, false);
	}
	pending_runs = buf;
	PG_TRY();
	{
		if (!buf->existing)
			kidx_spi_execute_plan(buf->plan, rows, NULL, false, 0);
		else
			edata = execute_in_subxact(NULL, buf->plan, 1, NULL, rows);
	}
	PG_FINALLY();
	{
		pending_runs = NULL;
	}
	PG_END_TRY();
	/* (on an error the transaction's abort restores the setting) */
	if (nest >= 0)
		AtEOXact_GUC(true, nest);
	return edata;
}

/* A buffer's runs as one array of rows of kernelindex.runs. */
static Datum
buffer_array(RunsWriter *w, RunsBuffer *buf)
{
	MemoryContext old = MemoryContextSwitchTo(buf->cxt);
	Datum		rows = PointerGetDatum(construct_array(buf->rows, buf->n, w->rowtype, -1, false,
													   TYPALIGN_DOUBLE));

	MemoryContextSwitchTo(old);
	return rows;
}

/*
 * Write a buffer's runs with one INSERT: of the array of them ($1) on one
 * server, of pending_runs() on Citus (the array made only if a collision
 * is looked for).
 */
static void
writer_flush(RunsWriter *w, Batch *b, RunsBuffer *buf)
{
	Datum		rows;
	int			attempt;

	if (buf->n == 0)
		return;
	rows = w->distributed ? (Datum) 0 : buffer_array(w, buf);
	for (attempt = 1;; attempt++)
	{
		ErrorData  *edata = writer_execute(buf, &rows, w->distributed);

		if (edata == NULL)
			break;
		if (rows == (Datum) 0)
			rows = buffer_array(w, buf);
		stored_collision(w, b, buf, rows, edata, attempt < INSERT_ATTEMPTS);
		FreeErrorData(edata);
	}
	if (buf->counted)
	{
		bool		isnull;

		w->stored += DatumGetInt64(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull));
	}
	else
		w->stored += SPI_processed;
	SPI_freetuptable(SPI_tuptable);
	buf->n = 0;
	MemoryContextReset(buf->cxt);
}

/* A fresh table of the externalIds of one comparability key. */
static HTAB *
new_externals(Batch *b, HTAB *old)
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

/* Set a column of the row being formed. */
static void
writer_set(RunsWriter *w, RunColumn col, bool isnull, Datum d)
{
	w->nulls[w->att[col] - 1] = isnull;
	w->values[w->att[col] - 1] = isnull ? (Datum) 0 : d;
}

/*
 * Buffer one sorted run for the next INSERT of its kind, with its
 * references resolved to ids; refuse one whose externalId an earlier run of
 * its key in the statement has.
 */
static void
writer_put(RunsWriter *w, Batch *b, TupleTableSlot *in, BatchKey *key)
{
	Datum	   *v = in->tts_values;
	bool	   *nulls = in->tts_isnull;
	RunsBuffer *buf = &w->buf[key->existing ? 1 : 0];
	MemoryContext old;
	int			i;

	if (!nulls[BC_EXTERNAL_KEY - 1])
	{
		bool		found;
		ExternalEntry *e = hash_search(w->externals, DatumGetPointer(v[BC_EXTERNAL_KEY - 1]),
									   HASH_ENTER, &found);

		if (found)
			external_collision(b->item, DatumGetInt64(v[BC_ORD - 1]),
							   (KidxDigest *) DatumGetPointer(v[BC_DIGEST - 1]),
							   psprintf("%s " INT64_FORMAT "'s", b->item, e->ord), &e->digest,
							   external_id_of(b, &e->parts));
		memcpy(&e->digest, DatumGetPointer(v[BC_DIGEST - 1]), sizeof(KidxDigest));
		e->ord = DatumGetInt64(v[BC_ORD - 1]);
		external_parts(v, nulls, key, &e->parts);
	}

	for (i = 0; i < w->desc->natts; i++)
		w->nulls[i] = true;
	writer_set(w, RC_COMPARABILITY_KEY, false, v[BC_KEY - 1]);
	writer_set(w, RC_DIGEST, false, v[BC_DIGEST - 1]);
	writer_set(w, RC_OBSERVED_AT, false, v[BC_OBSERVED_AT - 1]);
	writer_set(w, RC_IMPLEMENTATION, false,
			   Int32GetDatum(b->res[RR_IMPLEMENTATION][DatumGetInt32(v[BC_IMPLEMENTATION - 1])].id));
	writer_set(w, RC_TEMPLATE, false,
			   Int32GetDatum(dict_id(b->dicts, DK_TEMPLATE, DatumGetInt32(v[BC_TEMPLATE - 1]))));
	writer_set(w, RC_LABELS, nulls[BC_LABELS - 1],
			   nulls[BC_LABELS - 1] ? (Datum) 0 :
			   Int32GetDatum(dict_id(b->dicts, DK_LABELS, DatumGetInt32(v[BC_LABELS - 1]))));
	for (i = 0; i < RT_N; i++)
	{
		bool		isnull = nulls[BC_TEXT0 - 1 + i];

		writer_set(w, RC_TEXT(i), isnull, isnull ? (Datum) 0 :
				   Int32GetDatum(dict_id(b->dicts, run_text_dict[i],
										 DatumGetInt32(v[BC_TEXT0 - 1 + i]))));
	}
	for (i = 0; i < RV_N; i++)
		writer_set(w, RC_VALUE0 + i, nulls[BC_VALUE0 - 1 + i], v[BC_VALUE0 - 1 + i]);
	for (i = 0; i < RUN_NNATIVE; i++)
		writer_set(w, RC_NATIVE0 + i, nulls[BC_NATIVE0 - 1 + i], v[BC_NATIVE0 - 1 + i]);
	writer_set(w, RC_EXTERNAL_KEY, nulls[BC_EXTERNAL_KEY - 1], v[BC_EXTERNAL_KEY - 1]);

	old = MemoryContextSwitchTo(buf->cxt);
	buf->rows[buf->n] = HeapTupleGetDatum(heap_form_tuple(w->desc, w->values, w->nulls));
	MemoryContextSwitchTo(old);
	buf->ords[buf->n] = DatumGetInt64(v[BC_ORD - 1]);
	external_parts(v, nulls, key, &buf->externals[buf->n]);
	if (++buf->n == w->cap)
	{
		writer_flush(w, b, &w->buf[0]);
		writer_flush(w, b, &w->buf[1]);
	}
}

/* Step 4: store the runs in key order; returns how many are new. */
static int64
store_runs(Batch *b)
{
	RunsWriter	w;
	TupleTableSlot *in;
	KidxDigest	prev_key;
	KidxDigest	prev_digest;
	bool		have_prev = false;
	BatchKey   *key = NULL;
	int			i;

	if (b->nruns == 0)
		return 0;
	tuplesort_performsort(b->runs);
	in = MakeSingleTupleTableSlot(b->run_desc, &TTSOpsMinimalTuple);
	writer_open(&w, b);
	while (tuplesort_gettupleslot(b->runs, true, false, in, NULL))
	{
		KidxDigest *k;
		KidxDigest *d;

		CHECK_FOR_INTERRUPTS();
		slot_getallattrs(in);
		k = (KidxDigest *) DatumGetPointer(in->tts_values[BC_KEY - 1]);
		d = (KidxDigest *) DatumGetPointer(in->tts_values[BC_DIGEST - 1]);
		if (!have_prev || memcmp(k, &prev_key, sizeof(KidxDigest)) != 0)
		{
			DigestEntry *e = hash_search(b->key_hash, k, HASH_FIND, NULL);

			if (e == NULL)
				elog(ERROR, "a run's comparability key is not in its batch");
			key = &b->keys[e->index];
			/* the externalIds of a key are checked while its runs are */
			w.externals = new_externals(b, w.externals);
			prev_key = *k;
		}
		else if (memcmp(d, &prev_digest, sizeof(KidxDigest)) == 0)
			continue;			/* the same run twice in one statement */
		prev_digest = *d;
		have_prev = true;
		writer_put(&w, b, in, key);
	}
	writer_flush(&w, b, &w.buf[0]);
	writer_flush(&w, b, &w.buf[1]);
	for (i = 0; i < 2; i++)
		MemoryContextDelete(w.buf[i].cxt);
	ExecDropSingleTupleTableSlot(in);
	tuplesort_end(b->runs);
	b->runs = NULL;
	return w.stored;
}

/* The runs handed to the batch so far; see batch.h. */
int64
batch_run_count(Batch *b)
{
	return b->nruns;
}

/*
 * Plan the statements that store a batch to find stored rows by index.
 * Each looks up a batch's keys at once (= ANY of an array, or a join to
 * unnest); with thousands of keys the planner prefers reading the whole
 * table, whose cost grows with the store, to one index probe a key, and a
 * load of N runs then reads the store N / batch times.  Set for the batch's
 * statements only, as ri_triggers.c sets work_mem for its initial check;
 * the answer is the GUC nest level to end with AtEOXact_GUC (an error ends
 * it with the transaction or subtransaction).
 */
static int
probe_by_index(void)
{
	int			level = NewGUCNestLevel();

	(void) set_config_option("enable_seqscan", "off", PGC_USERSET, PGC_S_SESSION,
							 GUC_ACTION_SAVE, true, 0, false);
	return level;
}

/* Store the batch; see batch.h. */
int64
batch_finish(Batch *b)
{
	int64		stored;
	int			i;
	int			guc_level = probe_by_index();

	kidx_spi_connect();
	for (i = 0; i < RR_N; i++)
		store_resources(b, i);
	store_keys(b);
	dict_store(b->dicts);
	CommandCounterIncrement();
	stored = store_runs(b);
	if (SPI_finish() != SPI_OK_FINISH)
		elog(ERROR, "SPI_finish failed");
	AtEOXact_GUC(true, guc_level);
	return stored;
}

/* ----------------------------------------------------------------
 *		Statements
 * ----------------------------------------------------------------
 */

/* The statements ingesting now, innermost first. */
static BatchStatement *statements = NULL;
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
		BatchStatement *s = statements;

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
BatchStatement *
batch_statement_begin(Oid relid)
{
	MemoryContext cxt;
	BatchStatement *s;

	if (!callbacks_registered)
	{
		RegisterXactCallback(statements_xact_callback, NULL);
		RegisterSubXactCallback(statements_subxact_callback, NULL);
		callbacks_registered = true;
	}
	cxt = AllocSetContextCreate(TopTransactionContext, "kernelindex statement",
								ALLOCSET_DEFAULT_SIZES);
	s = MemoryContextAllocZero(cxt, sizeof(BatchStatement));
	s->cxt = cxt;
	s->chunk_cxt = AllocSetContextCreate(cxt, "kernelindex statement, chunk",
										 ALLOCSET_DEFAULT_SIZES);
	s->relid = relid;
	s->subid = GetCurrentSubTransactionId();
	s->item = "document";
	s->batch = batch_begin(s->chunk_cxt);
	s->prev = statements;
	statements = s;
	return s;
}

/* Has the statement collected kernelindex.load_memory?  See batch.h. */
bool
batch_statement_full(BatchStatement *s)
{
	return MemoryContextMemAllocated(s->chunk_cxt, true) >= (Size) kidx_load_memory * 1024;
}

/*
 * The row an INSTEAD OF row trigger returns, so that COPY counts it: a copy
 * in the trigger's per-row memory, not the row it was given.  PostgreSQL
 * hands the trigger a copy of the row made in the statement's memory and
 * frees it only when the trigger returns another tuple; returning the one
 * it was given would keep every row of a COPY (about 400 bytes a Liger
 * row) until the statement ends.
 */
Datum
batch_row_result(TriggerData *td)
{
	return PointerGetDatum(heap_copytuple(td->tg_trigtuple));
}

/* Store the statement's batch so far and begin a new one; see batch.h. */
void
batch_statement_flush(BatchStatement *s)
{
	Size		used = MemoryContextMemAllocated(s->chunk_cxt, true);

	if (s->on_chunk != NULL)
		s->on_chunk(s);
	s->offered += batch_run_count(s->batch);
	s->stored += batch_finish(s->batch);
	s->chunks++;
	elog(DEBUG1, "kernelindex: stored chunk %d of the statement (%zu kB collected, " INT64_FORMAT " rows so far)",
		 s->chunks, used / 1024, s->rows);
	MemoryContextReset(s->chunk_cxt);
	s->batch = batch_begin(s->chunk_cxt);
	batch_items(s->batch, s->item);
}

/* Name what the statement's runs come in, for messages; see batch.h. */
void
batch_statement_items(BatchStatement *s, const char *item)
{
	s->item = item;
	batch_items(s->batch, item);
}

/* Store the statement's last batch; see batch.h. */
int64
batch_statement_finish(BatchStatement *s)
{
	if (s->on_chunk != NULL)
		s->on_chunk(s);
	s->offered += batch_run_count(s->batch);
	s->stored += batch_finish(s->batch);
	s->chunks++;
	batch_report_kept(s->offered, s->stored, "statement");
	return s->stored;
}

/* Say how many of a statement's or call's runs were stored already; see batch.h. */
void
batch_report_kept(int64 offered, int64 stored, const char *what)
{
	if (offered > stored)
		ereport(NOTICE,
				(errmsg("kernelindex: " INT64_FORMAT " of the " INT64_FORMAT " runs of this %s were stored already, or came twice, and are kept as they were",
						offered - stored, offered, what),
				 errdetail("A run is the same run when its spec is (protocol, workload, environment, implementation, time, values): loading it again stores nothing and changes none of its metadata (name, title, labels such as its release).")));
}

/* The statement ingesting into relid now (its row trigger). */
BatchStatement *
batch_statement_current(Oid relid)
{
	BatchStatement *s;

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
BatchStatement *
batch_statement_end(Oid relid)
{
	BatchStatement *s = statements;

	if (s == NULL || s->relid != relid)
		ereport(ERROR,
				(errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
				 errmsg("no kernelindex statement is ingesting into \"%s\"", get_rel_name(relid))));
	statements = s->prev;
	return s;
}
