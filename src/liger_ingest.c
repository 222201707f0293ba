/*-------------------------------------------------------------------------
 *
 * liger_ingest.c
 *	  COPY of Liger-Kernel benchmark CSV into kernelindex.liger_rows: each
 *	  row becomes a run, through the run layout.
 *
 * kernelindex.liger_rows is a view with three triggers.  A statement
 * begins a batch and reads the catalogs once (liger_catalog.c).  Each row
 * is checked (liger_fault, no exceptions): a bad row fails the statement
 * at once or, with kernelindex.on_bad_row = quarantine, is kept for
 * kernelindex.rejected_rows; a good one becomes a run right away:
 *
 * 1. its group (the rows that differ from it only in timestamp and values)
 *	  gives what its runs share (doc/reference.md, "Liger-Kernel
 *	  ingestion"): the four resource
 *	  documents, built once per statement for each distinct protocol,
 *	  workload, environment and implementation, the title, label set,
 *	  benchmark, externalId and name stems; recent groups are remembered
 *	  (a bounded cache), so that rows of a group met before are checked only
 *	  for their values and timestamp;
 * 2. the template of latency runs, and of memory runs, comes from the run
 *	  layout: it writes the document of the statement's first such run
 *	  (run_model) and splits it, exactly as a document coming in would be,
 *	  and checks that run's digest against its document's;
 * 3. the run is those parts with the row's values, observedAt, name and
 *	  externalId (whose form the layout decides, as for a document), its
 *	  digest computed in C, handed to the batch (src/batch.c), which stores
 *	  everything at the end of the statement.
 *
 * Nothing is stored in the view itself; COPY counts the rows it took.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "compat.h"

#include "access/htup_details.h"
#include "catalog/pg_type.h"
#include "commands/trigger.h"
#include "executor/spi.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/jsonb.h"
#include "utils/memutils.h"
#include "utils/rel.h"

#include "batch.h"
#include "canonical.h"
#include "core/runfmt.h"
#include "extension.h"
#include "intern.h"
#include "kernelindex.h"
#include "liger.h"
#include "liger_catalog.h"
#include "row_checks.h"
#include "row_ingest.h"
#include "run_layout.h"

PG_FUNCTION_INFO_V1(kidx_liger_begin);
PG_FUNCTION_INFO_V1(kidx_liger_row);
PG_FUNCTION_INFO_V1(kidx_liger_end);

/* Columns that make a group: all but timestamp and values. */
static const int group_columns[] = {
	LR_KERNEL_NAME, LR_KERNEL_PROVIDER, LR_OPERATION_MODE, LR_METRIC_NAME,
	LR_METRIC_UNIT, LR_X_NAME, LR_X_LABEL, LR_X_VALUE, LR_EXTRA_CONFIG,
	LR_GPU_NAME, LR_LIGER_VERSION
};
#define NGROUP_COLUMNS lengthof(group_columns)

/* Groups remembered at once; the cache starts over when it is full. */
#define LIGER_GROUP_CACHE 16384

/* Liger's name cut: 100 characters (doc/reference.md, "Liger-Kernel ingestion"). */
#define LIGER_NAME_CUT 100

/* Liger's source and status. */
#define LIGER_SOURCE "liger-kernel-bench"
#define LIGER_STATUS "passed"

/* A resource document of the statement, by the row columns it comes from. */
typedef struct LigerResource
{
	KidxDigest	digest;
	char	   *label;			/* a workload's label */
} LigerResource;

/* A bad row kept for kernelindex.rejected_rows. */
typedef struct LigerBadRow
{
	int64		ord;
	int			column;
	int			sqlstate;		/* what the row fails with when strict */
	char	   *reason;
	char	   *v[LR_NCOLUMNS + 1];
} LigerBadRow;

/*
 * What the Liger path keeps for a statement: the catalogs it read (for the
 * whole statement, in its cxt), and what refers to its current batch (in
 * the statement's chunk_cxt, made again with each batch: liger_chunk()).
 */
typedef struct LigerState
{
	MemoryContext cxt;			/* the statement's chunk_cxt */
	MemoryContext groups_cxt;	/* the group cache's; reset when full */
	InternTable *group_keys;	/* group columns -> cached group */
	RowGroup **groups;
	LigerConfigCache configs;
	LigerBadRow *bad;
	int			nbad;
	int			capbad;
	StringInfoData key;
	KidxCatalog *catalog;
	InternTable *res_keys[RR_N];	/* the columns a resource comes from */
	LigerResource *res[RR_N];
	int			capres[RR_N];
	RowTemplates *templates;	/* of the batch's runs, by shape */
	InternTable *slug_keys;		/* strings slugged (liger_slug) */
	char	  **slugs;			/* their slugs */
	int			capslugs;
	MemoryContext row_cxt;		/* reset per row */
	MemoryContext build_cxt;	/* reset per resource document built */
} LigerState;

/* Start over the cache of groups (in a context of its own). */
static void
reset_groups(LigerState *ls)
{
	if (ls->groups_cxt != NULL)
		MemoryContextDelete(ls->groups_cxt);
	ls->groups_cxt = AllocSetContextCreate(ls->cxt, "kernelindex Liger groups",
										   ALLOCSET_DEFAULT_SIZES);
	ls->group_keys = intern_create(ls->groups_cxt);
	ls->groups = MemoryContextAlloc(ls->groups_cxt, sizeof(RowGroup *) * LIGER_GROUP_CACHE);
}

/*
 * What the Liger path keeps for the batch the statement begins now, in the
 * statement's chunk_cxt: everything but the catalogs and the group key
 * buffer, which serve the whole statement.
 */
static void
liger_chunk(LigerState *ls, MemoryContext chunk_cxt)
{
	MemoryContext old = MemoryContextSwitchTo(chunk_cxt);
	int			i;

	ls->cxt = chunk_cxt;
	ls->groups_cxt = NULL;
	reset_groups(ls);
	memset(&ls->configs, 0, sizeof(ls->configs));
	ls->configs.context = chunk_cxt;
	ls->bad = NULL;
	ls->nbad = ls->capbad = 0;
	for (i = 0; i < RR_N; i++)
	{
		ls->res_keys[i] = intern_create(chunk_cxt);
		ls->res[i] = NULL;
		ls->capres[i] = 0;
	}
	ls->templates = row_templates_create(chunk_cxt);
	ls->slug_keys = intern_create(chunk_cxt);
	ls->slugs = NULL;
	ls->capslugs = 0;
	ls->row_cxt = AllocSetContextCreate(chunk_cxt, "kernelindex Liger row", ALLOCSET_DEFAULT_SIZES);
	ls->build_cxt = AllocSetContextCreate(chunk_cxt, "kernelindex Liger documents",
										  ALLOCSET_DEFAULT_SIZES);
	MemoryContextSwitchTo(old);
}

/* New Liger state for a statement; the catalogs read. */
static LigerState *
liger_state(BatchStatement *st)
{
	MemoryContext old = MemoryContextSwitchTo(st->cxt);
	LigerState *ls = palloc0(sizeof(LigerState));

	initStringInfo(&ls->key);
	ls->catalog = kidx_catalog_read();
	MemoryContextSwitchTo(old);
	liger_chunk(ls, st->chunk_cxt);
	return ls;
}

/* Append a string (NULL distinct from empty) to a key being built. */
static void
key_append(StringInfo key, const char *s, int len)
{
	appendBinaryStringInfo(key, (char *) &len, sizeof(len));
	if (len > 0)
		appendBinaryStringInfo(key, s, len);
}

/* The key of a row's group (its group columns) into ls->key. */
static void
group_key(LigerState *ls, Datum *values, bool *nulls)
{
	int			i;

	resetStringInfo(&ls->key);
	for (i = 0; i < NGROUP_COLUMNS; i++)
	{
		int			c = group_columns[i] - 1;
		struct varlena *t;

		if (nulls[c])
		{
			key_append(&ls->key, NULL, -1);
			continue;
		}
		t = PG_DETOAST_DATUM_PACKED(values[c]);
		key_append(&ls->key, VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t));
	}
}

/* Fail the statement on a bad row. */
static void
report_bad_row(int64 ord, int column, int sqlstate, const char *reason, char **v)
{
#define SHOWN(c) (v[c] ? v[c] : "")
	ereport(ERROR,
			(errcode(sqlstate),
			 errmsg("bad value \"%s\" in column %s (row " INT64_FORMAT " of this COPY): %s",
					row_shown_value(v[column]), lr_column_names[column], ord, reason),
			 errdetail("The row is kernel_name \"%s\", kernel_provider \"%s\", "
					   "kernel_operation_mode \"%s\", metric_name \"%s\", "
					   "gpu_name \"%s\", x_name \"%s\", x_value \"%s\", "
					   "timestamp \"%s\". Nothing was stored.",
					   SHOWN(LR_KERNEL_NAME), SHOWN(LR_KERNEL_PROVIDER),
					   SHOWN(LR_OPERATION_MODE), SHOWN(LR_METRIC_NAME),
					   SHOWN(LR_GPU_NAME), SHOWN(LR_X_NAME),
					   SHOWN(LR_X_VALUE), SHOWN(LR_TIMESTAMP)),
			 errhint("Fix the row, or SET kernelindex.on_bad_row = 'quarantine' "
					 "to store the good rows and keep the bad ones, with their "
					 "reason, in kernelindex.rejected_rows.")));
#undef SHOWN
}

/* A text datum as a C string (NULL for NULL). */
static char *
datum_cstring(Datum d, bool isnull)
{
	return isnull ? NULL : TextDatumGetCString(d);
}

static void liger_on_chunk(BatchStatement *st);

/* BEFORE INSERT FOR EACH STATEMENT on kernelindex.liger_rows. */
Datum
kidx_liger_begin(PG_FUNCTION_ARGS)
{
	TriggerData *td = (TriggerData *) fcinfo->context;
	BatchStatement *st;

	if (!CALLED_AS_TRIGGER(fcinfo) || !TRIGGER_FIRED_FOR_STATEMENT(td->tg_event))
		elog(ERROR, "kidx_liger_begin: not called as a statement trigger");
	if (RelationGetDescr(td->tg_relation)->natts != LR_NCOLUMNS)
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("a Liger row has %d columns, not %d",
						RelationGetDescr(td->tg_relation)->natts, LR_NCOLUMNS)));
	st = batch_statement_begin(RelationGetRelid(td->tg_relation));
	batch_statement_items(st, "row");
	st->path = liger_state(st);
	st->on_chunk = liger_on_chunk;
	return PointerGetDatum(NULL);
}

/*
 * A resource document of the statement, built from the catalogs the first
 * time its columns (key) are met, and handed to the batch.
 */
static LigerResource *
group_resource(BatchStatement *st, LigerState *ls, char **col, RunRef kind, int64 ord)
{
	StringInfoData key;
	static const int columns[RR_N][5] = {
		[RR_PROTOCOL] = {LR_METRIC_NAME, LR_OPERATION_MODE},
		[RR_WORKLOAD] = {LR_KERNEL_NAME, LR_X_NAME, LR_X_LABEL, LR_X_VALUE, LR_EXTRA_CONFIG},
		[RR_ENVIRONMENT] = {LR_GPU_NAME},
		[RR_IMPLEMENTATION] = {LR_KERNEL_NAME, LR_KERNEL_PROVIDER},
	};
	bool		isnew;
	int			n;
	int			c;
	LigerResource *r;
	Jsonb	   *doc = NULL;
	MemoryContext old;

	initStringInfo(&key);
	for (c = 0; c < 5 && columns[kind][c] != 0; c++)
	{
		const char *v = col[columns[kind][c]];

		key_append(&key, v, v ? strlen(v) : -1);
	}
	n = intern_add(ls->res_keys[kind], key.data, key.len, &isnew);
	pfree(key.data);
	if (!isnew)
		return &ls->res[kind][n];
	old = MemoryContextSwitchTo(ls->cxt);
	if (n == ls->capres[kind])
	{
		ls->capres[kind] = ls->capres[kind] ? ls->capres[kind] * 2 : 64;
		ls->res[kind] = ls->res[kind] ?
			repalloc_huge(ls->res[kind], sizeof(LigerResource) * ls->capres[kind]) :
			palloc(sizeof(LigerResource) * ls->capres[kind]);
	}
	r = &ls->res[kind][n];
	r->label = NULL;
	/* (what building a document leaves behind goes with build_cxt) */
	MemoryContextSwitchTo(ls->build_cxt);
	switch (kind)
	{
		case RR_PROTOCOL:
			doc = liger_protocol_document(ls->catalog, col[LR_METRIC_NAME], col[LR_OPERATION_MODE]);
			break;
		case RR_WORKLOAD:
			doc = liger_workload_document(ls->catalog, col[LR_KERNEL_NAME], col[LR_X_NAME],
										  col[LR_X_LABEL], col[LR_X_VALUE],
										  col[LR_EXTRA_CONFIG], &r->label);
			break;
		case RR_ENVIRONMENT:
			doc = liger_environment_document(ls->catalog, col[LR_GPU_NAME]);
			break;
		case RR_IMPLEMENTATION:
			doc = liger_implementation_document(ls->catalog, col[LR_KERNEL_NAME],
												col[LR_KERNEL_PROVIDER]);
			break;
		case RR_N:
			break;
	}
	kidx_jsonb_resource_digest(doc, &r->digest);
	batch_resource(st->batch, kind, &r->digest, doc, ord);	/* (copies it) */
	if (r->label != NULL)
		r->label = MemoryContextStrdup(ls->cxt, r->label);
	MemoryContextSwitchTo(old);
	MemoryContextReset(ls->build_cxt);
	return r;
}

/* kidx_slug() of a string, computed once per statement. */
static const char *
cached_slug(LigerState *ls, const char *s)
{
	bool		isnew;
	int			n = intern_add(ls->slug_keys, s, strlen(s), &isnew);

	if (isnew)
	{
		MemoryContext old = MemoryContextSwitchTo(ls->cxt);

		if (n == ls->capslugs)
		{
			ls->capslugs = ls->capslugs ? ls->capslugs * 2 : 64;
			ls->slugs = ls->slugs ? repalloc_huge(ls->slugs, sizeof(char *) * ls->capslugs) :
				palloc(sizeof(char *) * ls->capslugs);
		}
		ls->slugs[n] = kidx_slug(s);
		MemoryContextSwitchTo(old);
	}
	return ls->slugs[n];
}

/* Liger's label set: {"liger_version": <version>}, or {} without one. */
static Jsonb *
liger_labels(const char *version)
{
	JsonbParseState *ps = NULL;
	JsonbValue	v;

	pushJsonbValue(&ps, WJB_BEGIN_OBJECT, NULL);
	if (version != NULL && version[0] != '\0')
	{
		v.type = jbvString;
		v.val.string.val = "liger_version";
		v.val.string.len = strlen(v.val.string.val);
		pushJsonbValue(&ps, WJB_KEY, &v);
		v.val.string.val = (char *) version;
		v.val.string.len = strlen(version);
		pushJsonbValue(&ps, WJB_VALUE, &v);
	}
	return JsonbValueToJsonb(pushJsonbValue(&ps, WJB_END_OBJECT, NULL));
}

/* A row's values (p50, p20, p80 in the row; median, p20, p80 in the run). */
static void
row_values(bool memory, LigerMeasures *m, RunValues *rv)
{
	/*
	 * The row's order (y_value_50, _20, _80) is the run's (median, p20, p80:
	 * RV_LATENCY + i); the native slots are in native_suffix's (_20, _50, _80).
	 */
	static const int native_of[RUN_NNATIVE] = {1, 0, 2};
	int			base = memory ? RV_PEAK : RV_LATENCY;
	int			i;

	memset(rv, 0, sizeof(RunValues));
	rv->observed_at = m->ts;
	for (i = 0; i < 3; i++)
	{
		int			n = native_of[i];

		rv->has[base + i] = true;
		rv->v[base + i] = m->scaled[i];
		rv->native_text[n] = pnstrdup(m->written[i], m->writtenlen[i]);
		rv->native_canon[n] = m->canon[i];
	}
}

/*
 * A group's resources and what its runs share (doc/reference.md,
 * "Liger-Kernel ingestion"), from the catalogs; the documents of resources met before are not built again.
 */
static RowGroup *
resolve_group(BatchStatement *st, LigerState *ls, char **col, int64 ord)
{
	RowGroup *g = MemoryContextAllocZero(ls->groups_cxt, sizeof(RowGroup));
	MemoryContext old = MemoryContextSwitchTo(ls->groups_cxt);
	const char *kernel = col[LR_KERNEL_NAME];
	const char *provider = col[LR_KERNEL_PROVIDER];
	const char *pass = col[LR_OPERATION_MODE];
	const char *gpu = col[LR_GPU_NAME];
	const char *dot = pg_any_to_server(" \xc2\xb7 ", 4, PG_UTF8);	/* " · " */
	const char *part;
	const char *label;
	int			k;

	g->memory = strcmp(col[LR_METRIC_NAME], "memory") == 0;
	part = g->memory ? "/memory" : "";
	for (k = 0; k < RR_N; k++)
		g->parts.ref[k] = group_resource(st, ls, col, k, ord)->digest;
	label = group_resource(st, ls, col, RR_WORKLOAD, ord)->label;
	g->parts.text[RT_TITLE] = psprintf("%s%s%s%s%s%s%s", catalog_kernel_title(ls->catalog, kernel),
									   dot, provider, dot, pass, g->memory ? dot : "",
									   g->memory ? "memory" : "");
	g->parts.text[RT_STATUS] = LIGER_STATUS;
	g->parts.text[RT_SOURCE] = LIGER_SOURCE;
	g->parts.text[RT_BENCHMARK] = psprintf("%s/%s%s", kernel, pass, part);
	g->parts.labels = liger_labels(col[LR_LIGER_VERSION]);
	g->name_stem = psprintf("liger-%s-%s%s-%s-%s-%s-", cached_slug(ls, kernel),
							cached_slug(ls, pass), g->memory ? "-memory" : "",
							cached_slug(ls, provider), cached_slug(ls, gpu),
							cached_slug(ls, label));
	g->external_id_stem = psprintf("%s/%s%s/%s/%s/%s/", kernel, pass, part, provider,
								   cached_slug(ls, gpu), label);
	g->name_cut = LIGER_NAME_CUT;
	g->primary_statistic = "median";
	g->native_unit = g->memory ? "mb" : "ms";
	g->workload_label = batch_workload_label(st->batch, &g->parts.ref[RR_WORKLOAD], ord);
	MemoryContextSwitchTo(old);
	return g;
}

/* A good row's run, from its group's parts, to the batch. */
static void
add_run(BatchStatement *st, LigerState *ls, RowGroup *g, LigerMeasures *m, int64 ord)
{
	MemoryContext old = MemoryContextSwitchTo(ls->row_cxt);
	RunValues	values;

	row_values(g->memory, m, &values);
	MemoryContextSwitchTo(old);
	row_add_run(st, ls->templates, g, &values, ord, ls->row_cxt);
}

/* INSTEAD OF INSERT FOR EACH ROW on kernelindex.liger_rows. */
Datum
kidx_liger_row(PG_FUNCTION_ARGS)
{
	TriggerData *td = (TriggerData *) fcinfo->context;
	BatchStatement *st;
	LigerState *ls;
	Datum		values[LR_NCOLUMNS];
	bool		nulls[LR_NCOLUMNS];
	char	   *v[LR_NCOLUMNS + 1];
	const char *reason;
	int			column;
	int			sqlstate;
	LigerMeasures m;
	MemoryContext old;
	int			g;
	int			i;

	if (!CALLED_AS_TRIGGER(fcinfo) || !TRIGGER_FIRED_INSTEAD(td->tg_event))
		elog(ERROR, "kidx_liger_row: not called as an INSTEAD OF trigger");
	st = batch_statement_current(RelationGetRelid(td->tg_relation));
	ls = (LigerState *) st->path;
	st->rows++;
	heap_deform_tuple(td->tg_trigtuple, RelationGetDescr(td->tg_relation), values, nulls);

	/*
	 * A row of a group met recently has good group columns: only its values
	 * and timestamp are checked.  Any other row is checked whole.
	 */
	group_key(ls, values, nulls);
	g = intern_find(ls->group_keys, ls->key.data, ls->key.len);
	memset(v, 0, sizeof(v));
	if (g >= 0)
	{
		v[LR_Y_VALUE_50] = datum_cstring(values[LR_Y_VALUE_50 - 1], nulls[LR_Y_VALUE_50 - 1]);
		v[LR_Y_VALUE_20] = datum_cstring(values[LR_Y_VALUE_20 - 1], nulls[LR_Y_VALUE_20 - 1]);
		v[LR_Y_VALUE_80] = datum_cstring(values[LR_Y_VALUE_80 - 1], nulls[LR_Y_VALUE_80 - 1]);
		v[LR_TIMESTAMP] = datum_cstring(values[LR_TIMESTAMP - 1], nulls[LR_TIMESTAMP - 1]);
		reason = liger_measures_fault(v, ls->groups[g]->memory, &column, &sqlstate, &m);
	}
	else
	{
		for (i = 1; i <= LR_NCOLUMNS; i++)
			v[i] = datum_cstring(values[i - 1], nulls[i - 1]);
		reason = liger_fault(v, &column, &sqlstate, &ls->configs, &m);
	}
	if (reason != NULL)
	{
		LigerBadRow *bad;

		for (i = 1; i <= LR_NCOLUMNS; i++)
			if (v[i] == NULL)
				v[i] = datum_cstring(values[i - 1], nulls[i - 1]);
		if (kidx_on_bad_row != KIDX_ON_BAD_ROW_QUARANTINE)
			report_bad_row(st->rows, column, sqlstate, reason, v);
		old = MemoryContextSwitchTo(ls->cxt);
		if (ls->nbad == ls->capbad)
		{
			ls->capbad = ls->capbad ? ls->capbad * 2 : 16;
			ls->bad = ls->bad ? repalloc_huge(ls->bad, sizeof(LigerBadRow) * ls->capbad) :
				palloc(sizeof(LigerBadRow) * ls->capbad);
		}
		bad = &ls->bad[ls->nbad++];
		bad->ord = st->rows;
		bad->column = column;
		bad->sqlstate = sqlstate;
		bad->reason = pstrdup(reason);
		for (i = 1; i <= LR_NCOLUMNS; i++)
			bad->v[i] = v[i] ? pstrdup(v[i]) : NULL;
		MemoryContextSwitchTo(old);
		if (batch_statement_full(st))
		{
			batch_statement_flush(st);
			liger_chunk(ls, st->chunk_cxt);
		}
		return batch_row_result(td);
	}
	if (g < 0)
	{
		bool		isnew;

		if (intern_count(ls->group_keys) == LIGER_GROUP_CACHE)
			reset_groups(ls);
		g = intern_add(ls->group_keys, ls->key.data, ls->key.len, &isnew);
		ls->groups[g] = resolve_group(st, ls, v, st->rows);
	}
	add_run(st, ls, ls->groups[g], &m, st->rows);
	if (batch_statement_full(st))
	{
		batch_statement_flush(st);
		liger_chunk(ls, st->chunk_cxt);
	}
	return batch_row_result(td);
}

/*
 * Keep the statement's bad rows in kernelindex.rejected_rows: the
 * arguments are, per bad row, its position, column, value and reason, its
 * LR_NCOLUMNS columns, then its SQLSTATE.
 */
#define QUARANTINE_NARGS (4 + LR_NCOLUMNS + 1)

static void
quarantine(LigerState *ls)
{
	Oid			argtypes[QUARANTINE_NARGS];
	Datum		args[QUARANTINE_NARGS];
	Datum	   *elems = palloc(sizeof(Datum) * ls->nbad);
	bool	   *nulls = palloc(sizeof(bool) * ls->nbad);
	int			dims[1] = {ls->nbad};
	int			lbs[1] = {1};
	StringInfoData sql;
	int			c;
	int			i;

	for (c = 0; c < QUARANTINE_NARGS; c++)
	{
		for (i = 0; i < ls->nbad; i++)
		{
			LigerBadRow *b = &ls->bad[i];

			nulls[i] = false;
			if (c == 0)
				elems[i] = Int64GetDatum(b->ord);
			else if (c == 1)
				elems[i] = CStringGetTextDatum(lr_column_names[b->column]);
			else if (c == 2)
			{
				nulls[i] = b->v[b->column] == NULL;
				elems[i] = nulls[i] ? (Datum) 0 :
					CStringGetTextDatum(row_shown_value(b->v[b->column]));
			}
			else if (c == 3)
				elems[i] = CStringGetTextDatum(b->reason);
			else if (c == QUARANTINE_NARGS - 1)
				elems[i] = CStringGetTextDatum(unpack_sql_state(b->sqlstate));
			else
			{
				nulls[i] = b->v[c - 3] == NULL;
				elems[i] = nulls[i] ? (Datum) 0 : CStringGetTextDatum(b->v[c - 3]);
			}
		}
		argtypes[c] = c == 0 ? INT8ARRAYOID : TEXTARRAYOID;
		args[c] = PointerGetDatum(construct_md_array(elems, nulls, 1, dims, lbs,
													 c == 0 ? INT8OID : TEXTOID,
													 c == 0 ? 8 : -1, c == 0 ? FLOAT8PASSBYVAL : false,
													 c == 0 ? TYPALIGN_DOUBLE : TYPALIGN_INT));
	}
	initStringInfo(&sql);
	appendStringInfoString(&sql, "INSERT INTO kernelindex.rejected_rows (row_number, column_name, bad_value, reason");
	for (c = 1; c <= LR_NCOLUMNS; c++)
		appendStringInfo(&sql, ", %s", quote_identifier(lr_column_names[c]));
	appendStringInfoString(&sql, ", sqlstate) SELECT * FROM ROWS FROM (pg_catalog.unnest($1)");
	for (c = 2; c <= QUARANTINE_NARGS; c++)
		appendStringInfo(&sql, ", pg_catalog.unnest($%d)", c);
	appendStringInfoString(&sql, ") ORDER BY 1");
	kidx_spi_connect();
	kidx_spi_execute(sql.data, QUARANTINE_NARGS, argtypes, args, NULL, false, 0);
	SPI_finish();
}

/* Before a batch is stored: the bad rows kept so far go with it. */
static void
liger_on_chunk(BatchStatement *st)
{
	LigerState *ls = (LigerState *) st->path;

	if (ls->nbad > 0)
		quarantine(ls);
	ls->nbad = 0;
}

/* AFTER INSERT FOR EACH STATEMENT on kernelindex.liger_rows. */
Datum
kidx_liger_end(PG_FUNCTION_ARGS)
{
	TriggerData *td = (TriggerData *) fcinfo->context;
	BatchStatement *st;

	if (!CALLED_AS_TRIGGER(fcinfo) || !TRIGGER_FIRED_FOR_STATEMENT(td->tg_event))
		elog(ERROR, "kidx_liger_end: not called as a statement trigger");
	st = batch_statement_end(RelationGetRelid(td->tg_relation));
	batch_statement_finish(st);
	MemoryContextDelete(st->cxt);
	return PointerGetDatum(NULL);
}
