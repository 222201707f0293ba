/*-------------------------------------------------------------------------
 *
 * documents.c
 *	  Documents in and out: bundles {run, protocol, environment[, workload,
 *	  implementation]} and single resources, through the run layout.
 *
 * In: kernelindex.ingest_document(), kernelindex.ingest_bundles(), and
 * INSERT or COPY into the view kernelindex.documents (its three triggers:
 * a statement begins a batch, each row is checked and split, the statement
 * stores the batch).  Every digest a document carries is verified; each
 * distinct resource document of a statement is checked and digested once.
 *
 * Out: kernelindex_internal.run_bundle_of() rebuilds a run's bundle from its row,
 * the digests of its resources and its name and externalId strings, which
 * the view kernelindex_internal.run_refs joins to it (dictionary values and
 * resource documents are read once per query), for the views
 * kernelindex.run_bundles and documents and their Citus forms.
 * run_document() and run_bundle() do the same for a digest, and run_json()
 * gives the run document of a row: row_refs() resolves what the row refers
 * to a column at a time, each value read once per call site.  Its queries
 * name only the tables of the schema kernelindex, as the caller (the
 * privileges a reader is granted are on those), not the views of
 * kernelindex_internal: the upgrade script calls run_document() before
 * that schema exists.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "compat.h"

#include "commands/extension.h"
#include "commands/trigger.h"
#include "common/hashfn.h"
#include "executor/spi.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/hsearch.h"
#include "utils/json.h"
#include "utils/jsonb.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/typcache.h"

#include "batch.h"
#include "canonical.h"
#include "dictionary.h"
#include "extension.h"
#include "run_layout.h"
#include "run_store.h"

/* Distinct resource documents a statement remembers. */
#define RESOURCE_CACHE_MAX 4096

/* A resource document already checked and digested in this statement. */
typedef struct CachedResource
{
	uint64		hash;
	int			len;
	char	   *bytes;
	int			kind;
	KidxDigest	digest;
	struct CachedResource *next;
} CachedResource;

typedef struct CacheBucket
{
	uint64		hash;
	CachedResource *first;
} CacheBucket;

/* What the documents path keeps for a statement. */
typedef struct DocState
{
	Batch *batch;
	HTAB	   *resources;
	int			nresources;
} DocState;

PG_FUNCTION_INFO_V1(kidx_documents_begin);
PG_FUNCTION_INFO_V1(kidx_documents_row);
PG_FUNCTION_INFO_V1(kidx_documents_end);
PG_FUNCTION_INFO_V1(kidx_ingest_bundles);
PG_FUNCTION_INFO_V1(kidx_ingest_document);
PG_FUNCTION_INFO_V1(kidx_run_bundle_of);
PG_FUNCTION_INFO_V1(kidx_run_json);
PG_FUNCTION_INFO_V1(kidx_run_document);
PG_FUNCTION_INFO_V1(kidx_run_bundle);

/* ----------------------------------------------------------------
 *		Documents in
 * ----------------------------------------------------------------
 */

/* New documents state for a batch. */
static DocState *
doc_state(Batch *b)
{
	MemoryContext old = MemoryContextSwitchTo(batch_context(b));
	DocState   *ds = palloc0(sizeof(DocState));
	HASHCTL		ctl;

	ds->batch = b;
	ctl.keysize = sizeof(uint64);
	ctl.entrysize = sizeof(CacheBucket);
	ctl.hcxt = batch_context(b);
	ds->resources = hash_create("kernelindex resource documents", 64, &ctl,
								HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
	MemoryContextSwitchTo(old);
	return ds;
}

/*
 * A jsonb of its own holding a copy of a container (of len bytes):
 * JsonbValueToJsonb copies a binary value's bytes as they are.
 */
static Jsonb *
container_jsonb(JsonbContainer *c, int len)
{
	JsonbValue	v;

	v.type = jbvBinary;
	v.val.binary.data = c;
	v.val.binary.len = len;
	return JsonbValueToJsonb(&v);
}

/* The JSON type of a whole document, for messages. */
static const char *
document_type(Jsonb *jb)
{
	JsonbValue	v;

	if (!JB_ROOT_IS_SCALAR(jb))
		return JB_ROOT_IS_OBJECT(jb) ? "an object" : "an array";
	if (!JsonbExtractScalar(&jb->root, &v))
		return "a value";
	return run_shown_value(&v);
}

/*
 * Check, digest and add a resource document (a container of len bytes);
 * its digest in *digest.  A document met before in the statement is known.
 */
static void
add_resource(DocState *ds, RunRef kind, JsonbContainer *c, int len,
			 const char *path, int64 ord, KidxDigest *digest)
{
	uint64		h = hash_bytes_extended((const unsigned char *) c, len, kind);
	bool		found;
	CacheBucket *bucket = hash_search(ds->resources, &h, HASH_ENTER, &found);
	CachedResource *r;
	RunDocPos	pos;
	MemoryContext old;

	if (!found)
		bucket->first = NULL;
	for (r = bucket->first; r != NULL; r = r->next)
		if (r->kind == (int) kind && r->len == len && memcmp(r->bytes, c, len) == 0)
		{
			*digest = r->digest;
			return;
		}

	pos.ord = ord;
	pos.path = path;
	run_check_resource(c, &pos, run_ref_kind[kind]);
	kidx_container_resource_digest(c, digest);
	batch_resource(ds->batch, kind, digest, container_jsonb(c, len), ord);
	if (ds->nresources >= RESOURCE_CACHE_MAX)
		return;
	old = MemoryContextSwitchTo(batch_context(ds->batch));
	r = palloc(sizeof(CachedResource));
	r->hash = h;
	r->len = len;
	r->bytes = palloc(len);
	memcpy(r->bytes, c, len);
	r->kind = kind;
	r->digest = *digest;
	r->next = bucket->first;
	bucket->first = r;
	ds->nresources++;
	MemoryContextSwitchTo(old);
}

/* Check, split and add a run document; its parts and digest in *parts, *digest. */
static void
add_run(DocState *ds, JsonbContainer *c, const char *path, int64 ord,
		RunParts *parts, KidxDigest *digest)
{
	RunDocPos	pos;
	KidxDigest	again;
	BatchRefs	refs;
	int			t;

	pos.ord = ord;
	pos.path = path;
	run_split(c, &pos, parts);
	run_forms(parts, parts->text[RT_EXTERNAL_ID] != NULL && parts->text[RT_BENCHMARK] != NULL ?
			  batch_workload_label(ds->batch, &parts->ref[RR_WORKLOAD], ord) : NULL);
	kidx_container_resource_digest(c, digest);
	t = batch_template(ds->batch, parts->template, &parts->template);

	/* The layout rebuilds exactly this document: the same digest. */
	run_digest(parts, &again);
	if (memcmp(digest, &again, sizeof(KidxDigest)) != 0)
		elog(ERROR, "the run layout does not reproduce the digest of document " INT64_FORMAT,
			 ord);
	batch_refs(ds->batch, parts, t, ord, &refs);
	batch_run(ds->batch, &refs, parts, digest, ord);
}

/* Is this the kind of a resource, and which? */
static int
resource_kind(JsonbValue *kind)
{
	int			i;

	if (kind->type != jbvString)
		return -1;
	for (i = 0; i < RR_N; i++)
		if (kind->val.string.len == (int) strlen(run_ref_kind[i]) &&
			memcmp(kind->val.string.val, run_ref_kind[i], kind->val.string.len) == 0)
			return i;
	if (kind->val.string.len == 12 && memcmp(kind->val.string.val, "BenchmarkRun", 12) == 0)
		return RR_N;
	return -1;
}

/*
 * Add one document (a bundle or a single resource) at position ord; the
 * digest of its run, or of the resource, in *digest; false if a bundle
 * without run.
 */
static bool
add_document(DocState *ds, Jsonb *doc, int64 ord, KidxDigest *digest)
{
	JsonbValue *kind;
	JsonbIterator *it;
	JsonbIteratorToken tok;
	JsonbValue	x;
	JsonbValue	member[RR_N + 1];
	bool		present[RR_N + 1] = {false};
	KidxDigest	res_digest[RR_N];
	RunParts	parts;
	int			n = 0;
	int			i;

	if (!JB_ROOT_IS_OBJECT(doc))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("document " INT64_FORMAT " is %s, not a JSON object", ord, document_type(doc)),
				 errhint("A document is a bundle {\"run\", \"protocol\", \"environment\", optional \"workload\" and \"implementation\"} or one resource.")));

	/* A single resource. */
	kind = getKeyJsonValueFromContainer(&doc->root, "kind", 4, NULL);
	if (kind != NULL)
	{
		int			k = resource_kind(kind);

		if (k < 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("document " INT64_FORMAT ": $.kind is %s, not a kernelindex resource kind",
							ord, run_shown_value(kind)),
					 errhint("Kinds are BenchmarkRun, BenchmarkProtocol, ExecutionEnvironment, Workload and Implementation.")));
		if (k == RR_N)
		{
			add_run(ds, &doc->root, "$", ord, &parts, digest);
			return true;
		}
		add_resource(ds, k, &doc->root, VARSIZE(doc) - VARHDRSZ, "$", ord, digest);
		return true;
	}

	/* A bundle. */
	it = JsonbIteratorInit(&doc->root);
	while ((tok = JsonbIteratorNext(&it, &x, true)) != WJB_DONE)
	{
		JsonbValue	val;
		int			m = -1;

		if (tok != WJB_KEY)
			continue;
		JsonbIteratorNext(&it, &val, true);
		if (x.val.string.len == 3 && memcmp(x.val.string.val, "run", 3) == 0)
			m = RR_N;
		/* the other members are named as the resources they hold */
		for (i = 0; i < RR_N && m < 0; i++)
			if (x.val.string.len == (int) strlen(run_ref_name[i]) &&
				memcmp(x.val.string.val, run_ref_name[i], x.val.string.len) == 0)
				m = i;
		if (m < 0)
		{
			char	   *key = pnstrdup(x.val.string.val, x.val.string.len);
			StringInfoData k;

			initStringInfo(&k);
			escape_json(&k, key);
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("document " INT64_FORMAT ": %s is not a member of a bundle", ord, k.data),
					 errhint("A bundle has the members \"run\", \"protocol\", \"environment\", \"workload\" and \"implementation\"; a single resource has \"kind\".")));
		}
		if (val.type != jbvBinary || !JsonContainerIsObject(val.val.binary.data))
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("document " INT64_FORMAT ": $.%s is %s, not %s object",
							ord, m == RR_N ? "run" : run_ref_name[m], run_shown_value(&val),
							m == RR_N ? "a BenchmarkRun" : psprintf("a %s", run_ref_kind[m]))));
		member[m] = val;
		present[m] = true;
		n++;
	}
	if (n == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("document " INT64_FORMAT " is an empty bundle", ord),
				 errhint("A document is a bundle {\"run\", \"protocol\", \"environment\", optional \"workload\" and \"implementation\"} or one resource.")));

	for (i = 0; i < RR_N; i++)
		if (present[i])
			add_resource(ds, i, member[i].val.binary.data, member[i].val.binary.len,
						 psprintf("$.%s", run_ref_name[i]), ord, &res_digest[i]);
	if (!present[RR_N])
		return false;
	add_run(ds, member[RR_N].val.binary.data, "$.run", ord, &parts, digest);

	/* The digests the run carries are those of the resources it comes with. */
	for (i = 0; i < RR_N; i++)
	{
		char		carried[KIDX_DIGEST_TEXT_LEN + 1];
		char		computed[KIDX_DIGEST_TEXT_LEN + 1];

		if (!present[i] || memcmp(&parts.ref[i], &res_digest[i], sizeof(KidxDigest)) == 0)
			continue;
		kidx_digest_to_cstring(&parts.ref[i], carried);
		kidx_digest_to_cstring(&res_digest[i], computed);
		ereport(ERROR,
				(errcode(ERRCODE_DATA_EXCEPTION),
				 errmsg("document " INT64_FORMAT ": $.run.spec.%s is %s, but $.%s has digest %s",
						ord, run_ref_member[i], carried, run_ref_name[i], computed),
				 errdetail("A resource digest is SHA-256 of the canonical JSON of its {apiVersion, kind, spec}."),
				 errhint("The run or the %s was changed after the digest was computed; nothing was stored.",
						 run_ref_name[i])));
	}
	return true;
}

/* BEFORE INSERT FOR EACH STATEMENT on kernelindex.documents. */
Datum
kidx_documents_begin(PG_FUNCTION_ARGS)
{
	TriggerData *td = (TriggerData *) fcinfo->context;
	BatchStatement *st;

	if (!CALLED_AS_TRIGGER(fcinfo) || !TRIGGER_FIRED_FOR_STATEMENT(td->tg_event))
		elog(ERROR, "kidx_documents_begin: not called as a statement trigger");
	st = batch_statement_begin(RelationGetRelid(td->tg_relation));
	st->path = doc_state(st->batch);
	return PointerGetDatum(NULL);
}

/* INSTEAD OF INSERT FOR EACH ROW on kernelindex.documents. */
Datum
kidx_documents_row(PG_FUNCTION_ARGS)
{
	TriggerData *td = (TriggerData *) fcinfo->context;
	BatchStatement *st;
	bool		isnull;
	Datum		d;
	KidxDigest	digest;

	if (!CALLED_AS_TRIGGER(fcinfo) || !TRIGGER_FIRED_INSTEAD(td->tg_event))
		elog(ERROR, "kidx_documents_row: not called as an INSTEAD OF trigger");
	st = batch_statement_current(RelationGetRelid(td->tg_relation));
	st->rows++;
	d = heap_getattr(td->tg_trigtuple, 1, RelationGetDescr(td->tg_relation), &isnull);
	if (isnull)
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("document " INT64_FORMAT " is NULL", st->rows)));
	add_document((DocState *) st->path, DatumGetJsonbP(d), st->rows, &digest);
	if (batch_statement_full(st))
	{
		batch_statement_flush(st);
		st->path = doc_state(st->batch);
	}
	return batch_row_result(td);
}

/* AFTER INSERT FOR EACH STATEMENT on kernelindex.documents. */
Datum
kidx_documents_end(PG_FUNCTION_ARGS)
{
	TriggerData *td = (TriggerData *) fcinfo->context;
	BatchStatement *st;

	if (!CALLED_AS_TRIGGER(fcinfo) || !TRIGGER_FIRED_FOR_STATEMENT(td->tg_event))
		elog(ERROR, "kidx_documents_end: not called as a statement trigger");
	st = batch_statement_end(RelationGetRelid(td->tg_relation));
	batch_statement_finish(st);
	MemoryContextDelete(st->cxt);
	return PointerGetDatum(NULL);
}

/* ingest_bundles(jsonb[]): ingest many documents; returns the runs newly stored. */
Datum
kidx_ingest_bundles(PG_FUNCTION_ARGS)
{
	ArrayType  *arr = PG_GETARG_ARRAYTYPE_P(0);
	MemoryContext rowcxt = AllocSetContextCreate(CurrentMemoryContext, "kernelindex document",
												 ALLOCSET_DEFAULT_SIZES);
	Batch *b = batch_begin(CurrentMemoryContext);
	DocState   *ds = doc_state(b);
	ArrayIterator ai = array_create_iterator(arr, 0, NULL);
	Datum		d;
	bool		isnull;
	int64		ord = 0;
	int64		offered;
	int64		stored;

	while (array_iterate(ai, &d, &isnull))
	{
		MemoryContext old;
		KidxDigest	digest;

		ord++;
		CHECK_FOR_INTERRUPTS();
		if (isnull)
			ereport(ERROR,
					(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					 errmsg("document " INT64_FORMAT " is NULL", ord)));
		old = MemoryContextSwitchTo(rowcxt);
		add_document(ds, DatumGetJsonbP(d), ord, &digest);
		MemoryContextSwitchTo(old);
		MemoryContextReset(rowcxt);
	}
	array_free_iterator(ai);
	offered = batch_run_count(b);
	stored = batch_finish(b);
	batch_report_kept(offered, stored, "call");
	MemoryContextDelete(batch_context(b));
	MemoryContextDelete(rowcxt);
	PG_RETURN_INT64(stored);
}

/* ingest_document(jsonb): ingest one document; the digest of its run or resource. */
Datum
kidx_ingest_document(PG_FUNCTION_ARGS)
{
	Jsonb	   *doc = PG_GETARG_JSONB_P(0);
	Batch *b = batch_begin(CurrentMemoryContext);
	DocState   *ds = doc_state(b);
	KidxDigest *digest = palloc(sizeof(KidxDigest));
	bool		has = add_document(ds, doc, 1, digest);
	int64		offered = batch_run_count(b);

	batch_report_kept(offered, batch_finish(b), "call");
	MemoryContextDelete(batch_context(b));
	if (!has)
		PG_RETURN_NULL();
	PG_RETURN_KIDX_DIGEST_P(digest);
}

/* ----------------------------------------------------------------
 *		Documents out
 * ----------------------------------------------------------------
 */

/* A resource document read for export (NULL: known by digest only). */
typedef struct ExportResource
{
	KidxDigest	digest;			/* hash key */
	Jsonb	   *document;
} ExportResource;

/* What export reads once per query. */
typedef struct ExportCache
{
	MemoryContext cxt;
	DictCache  *dicts;
	HTAB	   *resources[RR_N];
	HTAB	   *keys;			/* run_json: comparability key -> digests */
	HTAB	   *implementations;	/* run_json: id -> digest */
	Oid			rowtype;		/* of the runs rows seen */
	AttrNumber	att[RC_N];
	bool		citus;			/* Citus is installed in this database */
} ExportCache;

/* The digests of a comparability key's resources (run_json). */
typedef struct KeyDigests
{
	KidxDigest	key;
	KidxDigest	ref[3];
	char	   *workload_label; /* NULL: none */
} KeyDigests;

typedef struct ImplementationDigest
{
	int32		id;
	KidxDigest	digest;
} ImplementationDigest;

/* A hash table in the cache's context. */
static HTAB *
cache_hash(ExportCache *ec, Size keysize, Size entrysize)
{
	HASHCTL		ctl;

	ctl.keysize = keysize;
	ctl.entrysize = entrysize;
	ctl.hcxt = ec->cxt;
	return hash_create("kernelindex export", 64, &ctl, HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
}

/* The export cache of a function's call site. */
static ExportCache *
export_cache(FunctionCallInfo fcinfo)
{
	ExportCache *ec = (ExportCache *) fcinfo->flinfo->fn_extra;
	int			i;

	if (ec != NULL)
		return ec;
	kidx_check_version();
	ec = MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(ExportCache));
	ec->cxt = AllocSetContextCreate(fcinfo->flinfo->fn_mcxt, "kernelindex export",
									ALLOCSET_DEFAULT_SIZES);
	ec->dicts = dict_cache_create(ec->cxt);
	for (i = 0; i < RR_N; i++)
		ec->resources[i] = cache_hash(ec, sizeof(KidxDigest), sizeof(ExportResource));
	ec->keys = cache_hash(ec, sizeof(KidxDigest), sizeof(KeyDigests));
	ec->implementations = cache_hash(ec, sizeof(int32), sizeof(ImplementationDigest));
	ec->citus = OidIsValid(get_extension_oid("citus", true));
	fcinfo->flinfo->fn_extra = ec;
	return ec;
}

/*
 * Run an export look-up.  Citus pushes a call of run_bundle_of() over runs
 * down to the workers, and refuses by default the query a function so
 * called makes; these read only reference tables, which every server holds
 * whole: allowed, for themselves alone.
 */
static void
export_query(ExportCache *ec, const char *sql, int nargs, Oid *types, Datum *args)
{
	if (ec->citus)
	{
		int			nestlevel = NewGUCNestLevel();

		(void) set_config_option("citus.allow_nested_distributed_execution", "on",
								 PGC_USERSET, PGC_S_SESSION, GUC_ACTION_SAVE,
								 true, 0, false);
		kidx_spi_execute_kept(sql, nargs, types, args, NULL, true, 1);
		AtEOXact_GUC(true, nestlevel);
	}
	else
		kidx_spi_execute_kept(sql, nargs, types, args, NULL, true, 1);
}

/* The document of a resource (NULL: known by digest only), read once. */
static Jsonb *
export_resource(ExportCache *ec, RunRef kind, const KidxDigest *digest)
{
	bool		found;
	ExportResource *r = hash_search(ec->resources[kind], digest, HASH_ENTER, &found);
	Oid			types[1] = {kidx_digest_type()};
	Datum		args[1] = {PointerGetDatum(digest)};
	bool		isnull;
	Datum		d;

	if (found)
		return r->document;
	r->document = NULL;
	kidx_spi_connect();
	export_query(ec, psprintf("SELECT t.document FROM kernelindex.%s AS t"
							  " WHERE t.digest OPERATOR(%s.=) $1",
							  kind == RR_PROTOCOL ? "protocols" : kind == RR_WORKLOAD ? "workloads" :
							  kind == RR_ENVIRONMENT ? "environments" : "implementations",
							  kidx_extension_schema()),
				 1, types, args);
	if (SPI_processed == 1)
	{
		d = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull);
		if (!isnull)
		{
			Jsonb	   *doc = DatumGetJsonbP(d);

			r->document = MemoryContextAlloc(ec->cxt, VARSIZE(doc));
			memcpy(r->document, doc, VARSIZE(doc));
		}
	}
	else
	{
		char		text[KIDX_DIGEST_TEXT_LEN + 1];

		SPI_finish();
		hash_search(ec->resources[kind], digest, HASH_REMOVE, NULL);
		kidx_digest_to_cstring(digest, text);
		ereport(ERROR,
				(errcode(ERRCODE_FOREIGN_KEY_VIOLATION),
				 errmsg("a stored run refers to %s %s, which is not stored",
						run_ref_name[kind], text)));
	}
	SPI_finish();
	return r->document;
}

/*
 * A stored run's parts from its row of kernelindex.runs, its resource
 * digests, its workload's label and its name and externalId strings.
 */
static void
parts_of_row(ExportCache *ec, HeapTupleHeader row, const KidxDigest *const *refs,
			 const char *workload_label, const char *name, const char *external_id,
			 RunParts *parts)
{
	Oid			rowtype = HeapTupleHeaderGetTypeId(row);
	TupleDesc	desc = lookup_rowtype_tupdesc(rowtype, HeapTupleHeaderGetTypMod(row));
	HeapTupleData tup;
	Datum	   *values = palloc(sizeof(Datum) * desc->natts);
	bool	   *nulls = palloc(sizeof(bool) * desc->natts);
	int			i;

#define COLUMN(c) values[ec->att[c] - 1]
#define ISNULL(c) nulls[ec->att[c] - 1]
	if (ec->rowtype != rowtype)
	{
		run_column_attnums(desc, ec->att);
		ec->rowtype = rowtype;
	}
	tup.t_len = HeapTupleHeaderGetDatumLength(row);
	ItemPointerSetInvalid(&tup.t_self);
	tup.t_tableOid = InvalidOid;
	tup.t_data = row;
	heap_deform_tuple(&tup, desc, values, nulls);
	ReleaseTupleDesc(desc);

	memset(parts, 0, sizeof(RunParts));
	if (ISNULL(RC_TEMPLATE) || ISNULL(RC_OBSERVED_AT))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("a stored run has no template or no observed_at")));
	parts->template = dict_cache_template(ec->dicts, DatumGetInt32(COLUMN(RC_TEMPLATE)));
	for (i = 0; i < RR_N; i++)
		parts->ref[i] = *refs[i];
	for (i = 0; i < RT_N; i++)
		if (i != RT_NAME && i != RT_EXTERNAL_ID && !ISNULL(RC_TEXT(i)))
			parts->text[i] = dict_cache_text(ec->dicts, run_text_dict[i],
											 DatumGetInt32(COLUMN(RC_TEXT(i))));
	parts->text[RT_NAME] = name;
	parts->text[RT_EXTERNAL_ID] = external_id;
	parts->workload_label = workload_label;
	if (!ISNULL(RC_LABELS))
		parts->labels = dict_cache_labels(ec->dicts, DatumGetInt32(COLUMN(RC_LABELS)));
	parts->values.observed_at = DatumGetTimestampTz(COLUMN(RC_OBSERVED_AT));
	for (i = 0; i < RV_N; i++)
		if (!ISNULL(RC_VALUE0 + i))
		{
			parts->values.has[i] = true;
			parts->values.v[i] = DatumGetInt64(COLUMN(RC_VALUE0 + i));
		}
	for (i = 0; i < RUN_NNATIVE; i++)
		if (!ISNULL(RC_NATIVE0 + i))
			parts->values.native[i] = DatumGetNumeric(COLUMN(RC_NATIVE0 + i));
#undef COLUMN
#undef ISNULL
}

/* Append bytes to a buffer being built. */
static void
put(StringInfo buf, const void *data, int len)
{
	appendBinaryStringInfo(buf, data, len);
}

/*
 * A jsonb object of the given members, whose values are jsonb containers,
 * built by placing the containers' bytes (a container's offsets are its
 * own) in the binary form JsonbValueToJsonb would write.  Keys must be in
 * jsonb order: by length, then bytes.
 *
 * Not pushJsonbValue and JsonbValueToJsonb: pushJsonbValue unpacks a
 * binary value into every one of its members, which JsonbValueToJsonb then
 * writes again.  Both give the same bytes (compared on 100,000 documents
 * and 100,000 whole bundles of a Liger load); this is faster: best of five,
 * 1.0 s against 1.2 s for the documents of 100,000 runs and 1.0 s against
 * 2.2 s for their whole bundles (SELECT sum(pg_column_size(...)) FROM
 * kernelindex.run_bundles; PostgreSQL 15, two shared cores).
 */
static Jsonb *
object_of_containers(const char *const *keys, Jsonb **values, int n)
{
	StringInfoData buf;
	uint32		header = (uint32) n | JB_FOBJECT;
	uint32		entries[2 * RR_N + 2];
	int			entries_at;
	int			i;

	initStringInfo(&buf);
	put(&buf, "\0\0\0\0", VARHDRSZ);
	put(&buf, &header, sizeof(header));
	entries_at = buf.len;
	put(&buf, entries, sizeof(uint32) * 2 * n);
	for (i = 0; i < n; i++)
	{
		int			len = strlen(keys[i]);

		put(&buf, keys[i], len);
		entries[i] = JENTRY_ISSTRING | len;
	}
	for (i = 0; i < n; i++)
	{
		int			start = buf.len;
		int			len = VARSIZE(values[i]) - VARHDRSZ;

		while (buf.len % 4 != 0)
			appendStringInfoChar(&buf, '\0');
		put(&buf, VARDATA(values[i]), len);
		entries[n + i] = JENTRY_ISCONTAINER | (buf.len - start);
	}
	/* The first entry holds its end offset (JB_OFFSET_STRIDE). */
	entries[0] = (entries[0] & JENTRY_TYPEMASK) | JENTRY_HAS_OFF |
		(uint32) strlen(keys[0]);
	memcpy(buf.data + entries_at, entries, sizeof(uint32) * 2 * n);
	SET_VARSIZE(buf.data, buf.len);
	return (Jsonb *) buf.data;
}

static Jsonb *bundle_of(ExportCache *ec, HeapTupleHeader row, const KidxDigest *const *refs,
						const char *workload_label, const char *name,
						const char *external_id, bool whole);

/* A text argument as a C string (NULL: NULL). */
static char *
text_arg(FunctionCallInfo fcinfo, int n)
{
	return PG_ARGISNULL(n) ? NULL : text_to_cstring(PG_GETARG_TEXT_PP(n));
}

/*
 * kernelindex_internal.run_bundle_of(r kernelindex.runs, protocol, workload,
 *	  environment, implementation kidx_digest, workload_label text, name text,
 *	  external_id text, whole boolean)
 *
 * The bundle {run, protocol, environment} of a stored run, with workload
 * and implementation too (where known) when whole; the view
 * kernelindex.run_bundles calls it with what the run's row refers to.
 */
Datum
kidx_run_bundle_of(PG_FUNCTION_ARGS)
{
	const KidxDigest *refs[RR_N];
	bool		whole = !PG_ARGISNULL(8) && PG_GETARG_BOOL(8);
	int			i;

	if (PG_ARGISNULL(0))
		PG_RETURN_NULL();
	for (i = 0; i < RR_N; i++)
	{
		if (PG_ARGISNULL(1 + i))
			ereport(ERROR,
					(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					 errmsg("run_bundle_of needs the digest of the run's %s", run_ref_name[i])));
		refs[i] = PG_GETARG_KIDX_DIGEST_P(1 + i);
	}
	PG_RETURN_JSONB_P(bundle_of(export_cache(fcinfo), PG_GETARG_HEAPTUPLEHEADER(0), refs,
								text_arg(fcinfo, 5), text_arg(fcinfo, 6),
								text_arg(fcinfo, 7), whole));
}

/*
 * The bundle {run, protocol, environment} of a stored run's row, with
 * workload and implementation too (where known) when whole.
 */
static Jsonb *
bundle_of(ExportCache *ec, HeapTupleHeader row, const KidxDigest *const *refs,
		  const char *workload_label, const char *name, const char *external_id,
		  bool whole)
{
	RunParts	parts;
	Jsonb	   *values[RR_N + 1];
	const char *keys[RR_N + 1];
	int			n = 0;

	parts_of_row(ec, row, refs, workload_label, name, external_id, &parts);

	if (export_resource(ec, RR_PROTOCOL, refs[RR_PROTOCOL]) == NULL ||
		export_resource(ec, RR_ENVIRONMENT, refs[RR_ENVIRONMENT]) == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("a stored run's protocol or environment has no document")));

	/* jsonb key order: run, protocol, workload, environment, implementation */
	keys[n] = "run";
	values[n++] = run_rebuild(&parts);
	keys[n] = "protocol";
	values[n++] = export_resource(ec, RR_PROTOCOL, refs[RR_PROTOCOL]);
	if (whole && export_resource(ec, RR_WORKLOAD, refs[RR_WORKLOAD]) != NULL)
	{
		keys[n] = "workload";
		values[n++] = export_resource(ec, RR_WORKLOAD, refs[RR_WORKLOAD]);
	}
	keys[n] = "environment";
	values[n++] = export_resource(ec, RR_ENVIRONMENT, refs[RR_ENVIRONMENT]);
	if (whole && export_resource(ec, RR_IMPLEMENTATION, refs[RR_IMPLEMENTATION]) != NULL)
	{
		keys[n] = "implementation";
		values[n++] = export_resource(ec, RR_IMPLEMENTATION, refs[RR_IMPLEMENTATION]);
	}
	return object_of_containers(keys, values, n);
}

/* The digests a comparability key names (run_json), read once. */
static KeyDigests *
key_digests(ExportCache *ec, const KidxDigest *key)
{
	bool		found;
	KeyDigests *k = hash_search(ec->keys, key, HASH_ENTER, &found);
	Oid			types[1] = {kidx_digest_type()};
	Datum		args[1] = {PointerGetDatum(key)};
	Datum		label;
	bool		label_null;
	int			i;

	if (found)
		return k;
	kidx_spi_connect();
	export_query(ec, psprintf("SELECT p.digest, w.digest, e.digest, w.label FROM kernelindex.comparability_keys AS k"
							  " JOIN kernelindex.protocols AS p ON p.id OPERATOR(pg_catalog.=) k.protocol_id"
							  " JOIN kernelindex.workloads AS w ON w.id OPERATOR(pg_catalog.=) k.workload_id"
							  " JOIN kernelindex.environments AS e ON e.id OPERATOR(pg_catalog.=) k.environment_id"
							  " WHERE k.key OPERATOR(%s.=) $1", kidx_extension_schema()),
				 1, types, args);
	if (SPI_processed != 1)
	{
		SPI_finish();
		hash_search(ec->keys, key, HASH_REMOVE, NULL);
		ereport(ERROR,
				(errcode(ERRCODE_FOREIGN_KEY_VIOLATION),
				 errmsg("a stored run's comparability key is not stored")));
	}
	for (i = 0; i < 3; i++)
	{
		bool		isnull;

		memcpy(&k->ref[i], DatumGetPointer(SPI_getbinval(SPI_tuptable->vals[0],
														 SPI_tuptable->tupdesc, 1 + i, &isnull)),
			   sizeof(KidxDigest));
	}
	label = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 4, &label_null);
	k->workload_label = label_null ? NULL :
		MemoryContextStrdup(ec->cxt, TextDatumGetCString(label));
	SPI_finish();
	return k;
}

/* The digest of an implementation (run_json), read once. */
static const KidxDigest *
implementation_digest(ExportCache *ec, int32 id)
{
	bool		found;
	ImplementationDigest *e = hash_search(ec->implementations, &id, HASH_ENTER, &found);
	Oid			types[1] = {INT4OID};
	Datum		args[1] = {Int32GetDatum(id)};
	bool		isnull;

	if (found)
		return &e->digest;
	kidx_spi_connect();
	export_query(ec, "SELECT t.digest FROM kernelindex.implementations AS t"
				 " WHERE t.id OPERATOR(pg_catalog.=) $1", 1, types, args);
	if (SPI_processed != 1)
	{
		SPI_finish();
		hash_search(ec->implementations, &id, HASH_REMOVE, NULL);
		ereport(ERROR,
				(errcode(ERRCODE_FOREIGN_KEY_VIOLATION),
				 errmsg("a stored run's implementation %d is not stored", id)));
	}
	memcpy(&e->digest, DatumGetPointer(SPI_getbinval(SPI_tuptable->vals[0],
													 SPI_tuptable->tupdesc, 1, &isnull)),
		   sizeof(KidxDigest));
	SPI_finish();
	return &e->digest;
}

/*
 * What a stored run's row refers to, through the cache: the digests of its
 * resources, its workload's label, its name and externalId strings.  False
 * when the row has no comparability key or implementation.
 */
static bool
row_refs(ExportCache *ec, HeapTupleHeader row, const KidxDigest **refs,
		 const char **workload_label, char **strings)
{
	static const char *const string_column[2] = {"name_id", "external_id_id"};
	KeyDigests *k;
	bool		isnull;
	Datum		d;
	int			i;

	d = GetAttributeByName(row, "comparability_key", &isnull);
	if (isnull)
		return false;
	k = key_digests(ec, (KidxDigest *) DatumGetPointer(d));
	for (i = 0; i < 3; i++)
		refs[i] = &k->ref[i];
	*workload_label = k->workload_label;
	d = GetAttributeByName(row, "implementation_id", &isnull);
	if (isnull)
		return false;
	refs[RR_IMPLEMENTATION] = implementation_digest(ec, DatumGetInt32(d));
	for (i = 0; i < 2; i++)
	{
		strings[i] = NULL;
		d = GetAttributeByName(row, string_column[i], &isnull);
		if (!isnull)
			strings[i] = (char *) dict_cache_text(ec->dicts, DK_STRING, DatumGetInt32(d));
	}
	return true;
}

/* kernelindex.run_json(kernelindex.runs): the run document of a row. */
Datum
kidx_run_json(PG_FUNCTION_ARGS)
{
	HeapTupleHeader row = PG_GETARG_HEAPTUPLEHEADER(0);
	ExportCache *ec = export_cache(fcinfo);
	const KidxDigest *refs[RR_N];
	const char *workload_label;
	char	   *strings[2];
	RunParts	parts;

	if (!row_refs(ec, row, refs, &workload_label, strings))
		PG_RETURN_NULL();
	parts_of_row(ec, row, refs, workload_label, strings[0], strings[1], &parts);
	PG_RETURN_JSONB_P(run_rebuild(&parts));
}

/*
 * The bundle of the stored run of a digest (NULL: none), whole or not: its
 * row read by a kept plan, everything it refers to through the call site's
 * cache, so that a query calling it for many digests reads each dictionary
 * value and resource once.
 */
static Datum
run_bundle_by_digest(FunctionCallInfo fcinfo, bool whole)
{
	ExportCache *ec = export_cache(fcinfo);
	Oid			types[1] = {kidx_digest_type()};
	Datum		args[1] = {PointerGetDatum(PG_GETARG_KIDX_DIGEST_P(0))};
	MemoryContext cxt = CurrentMemoryContext;
	HeapTupleHeader row = NULL;
	const KidxDigest *refs[RR_N];
	const char *workload_label;
	char	   *strings[2];
	bool		isnull;

	kidx_spi_connect();
	export_query(ec, psprintf("SELECT r FROM kernelindex.runs AS r"
							  " WHERE r.digest OPERATOR(%s.=) $1", kidx_extension_schema()),
				 1, types, args);
	if (SPI_processed > 1)
		elog(ERROR, "%d stored runs have one digest", (int) SPI_processed);
	if (SPI_processed == 1)
	{
		Datum		d = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull);
		MemoryContext spi = MemoryContextSwitchTo(cxt);

		row = DatumGetHeapTupleHeaderCopy(d);
		MemoryContextSwitchTo(spi);
	}
	SPI_finish();
	if (row == NULL || !row_refs(ec, row, refs, &workload_label, strings))
		PG_RETURN_NULL();
	PG_RETURN_JSONB_P(bundle_of(ec, row, refs, workload_label, strings[0], strings[1], whole));
}

/* kernelindex.run_document(kidx_digest): the bundle {run, protocol, environment}. */
Datum
kidx_run_document(PG_FUNCTION_ARGS)
{
	return run_bundle_by_digest(fcinfo, false);
}

/* kernelindex.run_bundle(kidx_digest): the same, whole. */
Datum
kidx_run_bundle(PG_FUNCTION_ARGS)
{
	return run_bundle_by_digest(fcinfo, true);
}

PG_FUNCTION_INFO_V1(kidx_external_id_of);

/*
 * kernelindex_internal.external_id_of(form, benchmark, string, workload_label,
 *	  observed_at): a stored run's externalId, by its template's rule (NULL
 *	  when the rule is "absent" or a part it needs is NULL).
 */
Datum
kidx_external_id_of(PG_FUNCTION_ARGS)
{
	RunTemplate t;
	RunParts	parts;
	char	   *form;
	char	   *ext;
	int			f;

	if (PG_ARGISNULL(0) || PG_ARGISNULL(4))
		PG_RETURN_NULL();
	form = text_to_cstring(PG_GETARG_TEXT_PP(0));
	for (f = 0; f < RIF_N && strcmp(run_id_form_name[f], form) != 0; f++)
		;
	if (f == RIF_N)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("\"%s\" is not an externalId form", form),
				 errhint("The forms are absent, literal, stem and labelled.")));
	memset(&t, 0, sizeof(t));
	memset(&parts, 0, sizeof(parts));
	t.external_id_form = f;
	parts.template = &t;
	parts.text[RT_BENCHMARK] = text_arg(fcinfo, 1);
	parts.text[RT_EXTERNAL_ID] = text_arg(fcinfo, 2);
	parts.workload_label = text_arg(fcinfo, 3);
	parts.values.observed_at = PG_GETARG_TIMESTAMPTZ(4);
	if ((f != RIF_ABSENT && parts.text[RT_EXTERNAL_ID] == NULL) ||
		(f == RIF_LABELLED && (parts.text[RT_BENCHMARK] == NULL || parts.workload_label == NULL)))
		PG_RETURN_NULL();
	ext = run_external_id(&parts);
	if (ext == NULL)
		PG_RETURN_NULL();
	PG_RETURN_TEXT_P(cstring_to_text(ext));
}
