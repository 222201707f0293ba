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
 * Out: kernelindex.run_bundle_of() rebuilds a run's bundle from its row
 * and its series (looked up once per series and query), for the view
 * kernelindex.documents, run_document() and run_bundle(); run_json() gives
 * the run document of a row.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

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

#include "canonical.h"
#include "ingest.h"
#include "run_layout.h"

/* Distinct resource documents a statement remembers. */
#define RESOURCE_CACHE_MAX 4096

/* Bundle members, in RunRef order, and the run. */
static const char *const bundle_member[RR_N] = {
	"protocol", "workload", "environment", "implementation"
};

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
	IngestBatch *batch;
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

/* ----------------------------------------------------------------
 *		Documents in
 * ----------------------------------------------------------------
 */

/* New documents state for a batch. */
static DocState *
doc_state(IngestBatch *b)
{
	MemoryContext old = MemoryContextSwitchTo(ingest_context(b));
	DocState   *ds = palloc0(sizeof(DocState));
	HASHCTL		ctl;

	ds->batch = b;
	ctl.keysize = sizeof(uint64);
	ctl.entrysize = sizeof(CacheBucket);
	ctl.hcxt = ingest_context(b);
	ds->resources = hash_create("kernelindex resource documents", 64, &ctl,
								HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
	MemoryContextSwitchTo(old);
	return ds;
}

/* A jsonb of its own holding a copy of a container. */
static Jsonb *
container_jsonb(JsonbContainer *c, int len)
{
	Jsonb	   *jb = palloc(VARHDRSZ + len);

	SET_VARSIZE(jb, VARHDRSZ + len);
	memcpy(VARDATA(jb), c, len);
	return jb;
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
	ingest_resource(ds->batch, kind, digest, container_jsonb(c, len), ord);
	if (ds->nresources >= RESOURCE_CACHE_MAX)
		return;
	old = MemoryContextSwitchTo(ingest_context(ds->batch));
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

/* Check, split and add a run document; its digest in *digest. */
static void
add_run(DocState *ds, JsonbContainer *c, const char *path, int64 ord,
		RunSeries *series, KidxDigest *digest)
{
	RunDocPos	pos;
	RunValues	values;
	KidxDigest	again;
	int			s;

	pos.ord = ord;
	pos.path = path;
	run_split(c, &pos, series, &values);
	kidx_container_resource_digest(c, digest);
	s = ingest_series(ds->batch, series, ord);

	/* The layout rebuilds exactly this document: the same digest. */
	run_digest(ingest_series_get(ds->batch, s), &values, &again);
	if (memcmp(digest, &again, sizeof(KidxDigest)) != 0)
		elog(ERROR, "the run layout does not reproduce the digest of document " INT64_FORMAT,
			 ord);
	ingest_run(ds->batch, s, &values, digest, ord);
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
	RunSeries	series;
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
			add_run(ds, &doc->root, "$", ord, &series, digest);
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
		for (i = 0; i < RR_N && m < 0; i++)
			if (x.val.string.len == (int) strlen(bundle_member[i]) &&
				memcmp(x.val.string.val, bundle_member[i], x.val.string.len) == 0)
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
							ord, m == RR_N ? "run" : bundle_member[m], run_shown_value(&val),
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
						 psprintf("$.%s", bundle_member[i]), ord, &res_digest[i]);
	if (!present[RR_N])
		return false;
	add_run(ds, member[RR_N].val.binary.data, "$.run", ord, &series, digest);

	/* The digests the run carries are those of the resources it comes with. */
	for (i = 0; i < RR_N; i++)
	{
		char		carried[KIDX_DIGEST_TEXT_LEN + 1];
		char		computed[KIDX_DIGEST_TEXT_LEN + 1];

		if (!present[i] || memcmp(&series.ref[i], &res_digest[i], sizeof(KidxDigest)) == 0)
			continue;
		kidx_digest_to_cstring(&series.ref[i], carried);
		kidx_digest_to_cstring(&res_digest[i], computed);
		ereport(ERROR,
				(errcode(ERRCODE_DATA_EXCEPTION),
				 errmsg("document " INT64_FORMAT ": $.run.spec.%s is %s, but $.%s has digest %s",
						ord, run_ref_member[i], carried, bundle_member[i], computed),
				 errdetail("A resource digest is SHA-256 of the canonical JSON of its {apiVersion, kind, spec}."),
				 errhint("The run or the %s was changed after the digest was computed; nothing was stored.",
						 bundle_member[i])));
	}
	return true;
}

/* BEFORE INSERT FOR EACH STATEMENT on kernelindex.documents. */
Datum
kidx_documents_begin(PG_FUNCTION_ARGS)
{
	TriggerData *td = (TriggerData *) fcinfo->context;
	IngestStatement *st;

	if (!CALLED_AS_TRIGGER(fcinfo) || !TRIGGER_FIRED_FOR_STATEMENT(td->tg_event))
		elog(ERROR, "kidx_documents_begin: not called as a statement trigger");
	st = ingest_statement_begin(RelationGetRelid(td->tg_relation));
	st->path = doc_state(st->batch);
	return PointerGetDatum(NULL);
}

/* INSTEAD OF INSERT FOR EACH ROW on kernelindex.documents. */
Datum
kidx_documents_row(PG_FUNCTION_ARGS)
{
	TriggerData *td = (TriggerData *) fcinfo->context;
	IngestStatement *st;
	bool		isnull;
	Datum		d;
	KidxDigest	digest;

	if (!CALLED_AS_TRIGGER(fcinfo) || !TRIGGER_FIRED_INSTEAD(td->tg_event))
		elog(ERROR, "kidx_documents_row: not called as an INSTEAD OF trigger");
	st = ingest_statement_current(RelationGetRelid(td->tg_relation));
	st->rows++;
	d = heap_getattr(td->tg_trigtuple, 1, RelationGetDescr(td->tg_relation), &isnull);
	if (isnull)
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("document " INT64_FORMAT " is NULL", st->rows)));
	add_document((DocState *) st->path, DatumGetJsonbP(d), st->rows, &digest);
	return PointerGetDatum(td->tg_trigtuple);
}

/* AFTER INSERT FOR EACH STATEMENT on kernelindex.documents. */
Datum
kidx_documents_end(PG_FUNCTION_ARGS)
{
	TriggerData *td = (TriggerData *) fcinfo->context;
	IngestStatement *st;

	if (!CALLED_AS_TRIGGER(fcinfo) || !TRIGGER_FIRED_FOR_STATEMENT(td->tg_event))
		elog(ERROR, "kidx_documents_end: not called as a statement trigger");
	st = ingest_statement_end(RelationGetRelid(td->tg_relation));
	ingest_finish(st->batch);
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
	IngestBatch *b = ingest_begin(CurrentMemoryContext);
	DocState   *ds = doc_state(b);
	ArrayIterator ai = array_create_iterator(arr, 0, NULL);
	Datum		d;
	bool		isnull;
	int64		ord = 0;
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
	stored = ingest_finish(b);
	MemoryContextDelete(ingest_context(b));
	MemoryContextDelete(rowcxt);
	PG_RETURN_INT64(stored);
}

/* ingest_document(jsonb): ingest one document; the digest of its run or resource. */
Datum
kidx_ingest_document(PG_FUNCTION_ARGS)
{
	Jsonb	   *doc = PG_GETARG_JSONB_P(0);
	IngestBatch *b = ingest_begin(CurrentMemoryContext);
	DocState   *ds = doc_state(b);
	KidxDigest *digest = palloc(sizeof(KidxDigest));
	bool		has = add_document(ds, doc, 1, digest);

	ingest_finish(b);
	MemoryContextDelete(ingest_context(b));
	if (!has)
		PG_RETURN_NULL();
	PG_RETURN_KIDX_DIGEST_P(digest);
}

/* ----------------------------------------------------------------
 *		Documents out
 * ----------------------------------------------------------------
 */

/* A series as export needs it, with its resources' documents. */
typedef struct ExportSeries
{
	int32		id;				/* hash key */
	RunSeries	s;
	Jsonb	   *doc[RR_N];		/* NULL while known by digest only */
} ExportSeries;

/* Per-query cache of the series rows export has read. */
typedef struct ExportCache
{
	MemoryContext cxt;
	HTAB	   *series;
	char	   *sql;
	bool		citus;			/* Citus is installed in this database */
} ExportCache;

/* Copy a jsonb column of the SPI result into the current context (NULL: NULL). */
static Jsonb *
spi_jsonb(int col)
{
	bool		isnull;
	Datum		d = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, col, &isnull);

	return isnull ? NULL : DatumGetJsonbPCopy(d);
}

/* Copy a text column of the SPI result (NULL: NULL). */
static char *
spi_text(int col)
{
	bool		isnull;
	Datum		d = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, col, &isnull);

	return isnull ? NULL : TextDatumGetCString(d);
}

/* The series of a run, read once per query. */
static ExportSeries *
export_series(FunctionCallInfo fcinfo, int32 id)
{
	ExportCache *cache = (ExportCache *) fcinfo->flinfo->fn_extra;
	ExportSeries *es;
	bool		found;
	MemoryContext old;
	Oid			argtypes[1] = {INT4OID};
	Datum		args[1];
	bool		isnull;
	int			i;

	if (cache == NULL)
	{
		HASHCTL		ctl;

		cache = MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(ExportCache));
		cache->cxt = AllocSetContextCreate(fcinfo->flinfo->fn_mcxt, "kernelindex export",
										   ALLOCSET_DEFAULT_SIZES);
		ctl.keysize = sizeof(int32);
		ctl.entrysize = sizeof(ExportSeries);
		ctl.hcxt = cache->cxt;
		cache->series = hash_create("kernelindex export series", 256, &ctl,
									HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
		cache->citus = OidIsValid(get_extension_oid("citus", true));
		fcinfo->flinfo->fn_extra = cache;
	}
	es = hash_search(cache->series, &id, HASH_ENTER, &found);
	if (found)
		return es;

	old = MemoryContextSwitchTo(cache->cxt);
	if (cache->sql == NULL)
	{
		const char *schema = kidx_extension_schema();

		cache->sql = psprintf("SELECT s.template, s.name_stem, s.name_cut, s.external_id_stem, s.native_unit,"
							  " p.digest, w.digest, e.digest, i.digest,"
							  " p.document, w.document, e.document, i.document"
							  " FROM kernelindex.run_series AS s"
							  " JOIN kernelindex.comparability_keys AS k ON k.key OPERATOR(%s.=) s.comparability_key"
							  " JOIN kernelindex.protocols AS p ON p.id OPERATOR(pg_catalog.=) k.protocol_id"
							  " JOIN kernelindex.workloads AS w ON w.id OPERATOR(pg_catalog.=) k.workload_id"
							  " JOIN kernelindex.environments AS e ON e.id OPERATOR(pg_catalog.=) k.environment_id"
							  " JOIN kernelindex.implementations AS i ON i.id OPERATOR(pg_catalog.=) s.implementation_id"
							  " WHERE s.id OPERATOR(pg_catalog.=) $1", schema);
	}
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	args[0] = Int32GetDatum(id);
	if (cache->citus)
	{
		/*
		 * Citus pushes a call of run_bundle_of() or run_json() over runs down
		 * to the workers, and refuses by default the query a function so
		 * called makes.  This one reads only reference tables, which every
		 * server holds whole: it is allowed, for itself alone.
		 */
		int			nestlevel = NewGUCNestLevel();

		(void) set_config_option("citus.allow_nested_distributed_execution", "on",
								 PGC_USERSET, PGC_S_SESSION, GUC_ACTION_SAVE,
								 true, 0, false);
		ingest_spi(cache->sql, 1, argtypes, args, NULL, true, 1);
		AtEOXact_GUC(true, nestlevel);
	}
	else
		ingest_spi(cache->sql, 1, argtypes, args, NULL, true, 1);
	if (SPI_processed != 1)
		ereport(ERROR,
				(errcode(ERRCODE_FOREIGN_KEY_VIOLATION),
				 errmsg("run series %d does not exist", id)));
	MemoryContextSwitchTo(cache->cxt);
	memset(&es->s, 0, sizeof(RunSeries));
	es->s.template = spi_jsonb(1);
	es->s.name_stem = spi_text(2);
	{
		Datum		d = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 3, &isnull);

		es->s.name_cut = isnull ? -1 : DatumGetInt32(d);
	}
	es->s.external_id_stem = spi_text(4);
	es->s.native_unit = spi_text(5);
	for (i = 0; i < RR_N; i++)
	{
		Datum		d = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 6 + i, &isnull);

		memcpy(&es->s.ref[i], DatumGetPointer(d), sizeof(KidxDigest));
		es->doc[i] = spi_jsonb(10 + i);
	}
	SPI_finish();
	MemoryContextSwitchTo(cache->cxt);
	run_series_prepare(&es->s);
	MemoryContextSwitchTo(old);
	return es;
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
 */
static Jsonb *
object_of_containers(const char *const *keys, Jsonb **values, int n)
{
	StringInfoData buf;
	uint32		header = (uint32) n | JB_FOBJECT;
	uint32		entries[2 * RR_N + 2];
	int			entries_at;
	int			data_at;
	int			i;

	initStringInfo(&buf);
	put(&buf, "\0\0\0\0", VARHDRSZ);
	put(&buf, &header, sizeof(header));
	entries_at = buf.len;
	put(&buf, entries, sizeof(uint32) * 2 * n);
	data_at = buf.len;
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
	(void) data_at;
	SET_VARSIZE(buf.data, buf.len);
	return (Jsonb *) buf.data;
}

/* Read a run's values from function arguments 1..11 (NULL: absent). */
static void
values_from_args(FunctionCallInfo fcinfo, int first, RunValues *rv)
{
	int			i;

	memset(rv, 0, sizeof(RunValues));
	if (PG_ARGISNULL(first))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("a run has no observed_at")));
	rv->observed_at = PG_GETARG_TIMESTAMPTZ(first);
	for (i = 0; i < RI_N; i++)
		if (!PG_ARGISNULL(first + 1 + i))
		{
			rv->has[i] = true;
			rv->v[i] = PG_GETARG_INT64(first + 1 + i);
		}
	for (i = 0; i < RUN_NNATIVE; i++)
		if (!PG_ARGISNULL(first + 1 + RI_N + i))
			rv->native[i] = PG_GETARG_NUMERIC(first + 1 + RI_N + i);
}

/*
 * kernelindex.run_bundle_of(series_id, observed_at, latency_ns,
 *	  latency_ns_p20, latency_ns_p80, peak_bytes, peak_bytes_p20,
 *	  peak_bytes_p80, native_p20, native_p50, native_p80, whole boolean)
 *
 * The bundle {run, protocol, environment} of a run row, with workload and
 * implementation too (where known) when whole.
 */
Datum
kidx_run_bundle_of(PG_FUNCTION_ARGS)
{
	ExportSeries *es;
	RunValues	rv;
	Jsonb	   *values[RR_N + 1];
	const char *keys[RR_N + 1];
	int			n = 0;

	if (PG_ARGISNULL(0))
		PG_RETURN_NULL();
	es = export_series(fcinfo, PG_GETARG_INT32(0));
	values_from_args(fcinfo, 1, &rv);

	/* jsonb key order: run, protocol, workload, environment, implementation */
	keys[n] = "run";
	values[n++] = run_rebuild(&es->s, &rv);
	keys[n] = "protocol";
	values[n++] = es->doc[RR_PROTOCOL];
	if (!PG_ARGISNULL(11) && PG_GETARG_BOOL(11) && es->doc[RR_WORKLOAD] != NULL)
	{
		keys[n] = "workload";
		values[n++] = es->doc[RR_WORKLOAD];
	}
	keys[n] = "environment";
	values[n++] = es->doc[RR_ENVIRONMENT];
	if (!PG_ARGISNULL(11) && PG_GETARG_BOOL(11) && es->doc[RR_IMPLEMENTATION] != NULL)
	{
		keys[n] = "implementation";
		values[n++] = es->doc[RR_IMPLEMENTATION];
	}
	PG_RETURN_JSONB_P(object_of_containers(keys, values, n));
}

/* kernelindex.run_json(kernelindex.runs): the run document of a row. */
Datum
kidx_run_json(PG_FUNCTION_ARGS)
{
	HeapTupleHeader row = PG_GETARG_HEAPTUPLEHEADER(0);
	static const char *const cols[] = {
		"observed_at", "latency_ns", "latency_ns_p20", "latency_ns_p80",
		"peak_bytes", "peak_bytes_p20", "peak_bytes_p80",
		"native_p20", "native_p50", "native_p80"
	};
	RunValues	rv;
	bool		isnull;
	Datum		d;
	ExportSeries *es;
	int			i;

	d = GetAttributeByName(row, "series_id", &isnull);
	if (isnull)
		PG_RETURN_NULL();
	es = export_series(fcinfo, DatumGetInt32(d));
	memset(&rv, 0, sizeof(rv));
	d = GetAttributeByName(row, cols[0], &isnull);
	if (isnull)
		PG_RETURN_NULL();
	rv.observed_at = DatumGetTimestampTz(d);
	for (i = 0; i < RI_N; i++)
	{
		d = GetAttributeByName(row, cols[1 + i], &isnull);
		rv.has[i] = !isnull;
		if (!isnull)
			rv.v[i] = DatumGetInt64(d);
	}
	for (i = 0; i < RUN_NNATIVE; i++)
	{
		d = GetAttributeByName(row, cols[1 + RI_N + i], &isnull);
		if (!isnull)
			rv.native[i] = DatumGetNumeric(d);
	}
	PG_RETURN_JSONB_P(run_rebuild(&es->s, &rv));
}

PG_FUNCTION_INFO_V1(kidx_run_derived_string);

/* kernelindex.run_derived_string(stem, cut, observed_at): a name or externalId. */
Datum
kidx_run_derived_string(PG_FUNCTION_ARGS)
{
	if (PG_ARGISNULL(0) || PG_ARGISNULL(2))
		PG_RETURN_NULL();
	PG_RETURN_TEXT_P(cstring_to_text(run_derived_string(text_to_cstring(PG_GETARG_TEXT_PP(0)),
														PG_ARGISNULL(1) ? -1 : PG_GETARG_INT32(1),
														PG_GETARG_TIMESTAMPTZ(2))));
}
