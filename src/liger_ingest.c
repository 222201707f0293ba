/*-------------------------------------------------------------------------
 *
 * liger_ingest.c
 *	  COPY of Liger-Kernel benchmark CSV into kernelindex.liger_rows: each
 *	  row becomes a run, through the run layout.
 *
 * kernelindex.liger_rows is a view with three triggers.  A statement
 * begins a batch; each row is checked (liger_fault, no exceptions) and,
 * if good, grouped with the rows that differ from it only in timestamp and
 * values (a group is a run series) and kept; a bad row fails the statement
 * at once or, with kernelindex.on_bad_row = quarantine, is kept for
 * kernelindex.rejected_rows.  At the end of the statement:
 *
 * 1. SQL builds, set-based, once per group, the group's four resource
 *	  documents and its run template (kernelindex.liger_series, from the
 *	  catalogs);
 * 2. the first run of each group is rebuilt as a document from that
 *	  template and split by the run layout, exactly as a document coming in
 *	  would be: that is the group's series;
 * 3. every row's values (exact ns or bytes, the values as written) and run
 *	  digest are computed from the series, in C, and the batch stores it all
 *	  (src/ingest.c).
 *
 * Nothing is stored in the view itself; COPY counts the rows it took.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/pg_type.h"
#include "commands/trigger.h"
#include "common/hashfn.h"
#include "executor/spi.h"
#include "executor/tuptable.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/jsonb.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/tuplestore.h"

#include "canonical.h"
#include "core/decimal.h"
#include "core/runfmt.h"
#include "ingest.h"
#include "kernelindex.h"
#include "liger.h"
#include "run_layout.h"

PG_FUNCTION_INFO_V1(kidx_liger_begin);
PG_FUNCTION_INFO_V1(kidx_liger_row);
PG_FUNCTION_INFO_V1(kidx_liger_end);

/* Columns that make a group (a run series): all but timestamp and values. */
static const int group_columns[] = {
	LR_KERNEL_NAME, LR_KERNEL_PROVIDER, LR_OPERATION_MODE, LR_METRIC_NAME,
	LR_METRIC_UNIT, LR_X_NAME, LR_X_LABEL, LR_X_VALUE, LR_EXTRA_CONFIG,
	LR_GPU_NAME, LR_LIGER_VERSION
};
#define NGROUP_COLUMNS lengthof(group_columns)

/* Columns of the kept rows (row_desc): group, position, timestamp, then
 * for y_value_50, _20 and _80 the scaled values, the values as written and
 * their canonical JSON text. */
enum
{
	KR_GROUP = 1, KR_ORD, KR_TS, KR_SCALED, KR_WRITTEN = KR_SCALED + 3,
	KR_CANON = KR_WRITTEN + 3, KR_NATTS = KR_CANON + 2
};

/* A group of rows: its columns, and once resolved its model series. */
typedef struct LigerGroup
{
	char	   *col[LR_NCOLUMNS + 1];	/* group columns; others NULL */
	bool		memory;
	RunSeries	model;			/* from kernelindex.liger_series */
	int			series;			/* the series its runs go to, or -1 */
	int8		alike[2];		/* that series derives names and externalIds
								 * as the model, for whole-second slugs and
								 * slugs with a fraction: 1 yes, 0 no, -1 not
								 * known yet */
	int64		first_ord;
} LigerGroup;

/* A bad row kept for kernelindex.rejected_rows. */
typedef struct LigerBadRow
{
	int64		ord;
	int			column;
	char	   *reason;
	char	   *v[LR_NCOLUMNS + 1];
} LigerBadRow;

/* What the Liger path keeps for a statement. */
typedef struct LigerState
{
	HTAB	   *group_keys;
	LigerGroup **groups;
	int			ngroups;
	int			capgroups;
	LigerConfigCache configs;
	Tuplestorestate *rows;
	TupleDesc	row_desc;
	TupleTableSlot *row_slot;
	LigerBadRow *bad;
	int			nbad;
	int			capbad;
	StringInfoData key;
} LigerState;

/* Hash entry: a group's key (its columns, length-prefixed) to its number. */
typedef struct GroupEntry
{
	uint32		hash;
	int			len;
	char	   *bytes;
	int			index;
	struct GroupEntry *next;
} GroupEntry;

typedef struct GroupBucket
{
	uint32		hash;
	GroupEntry *first;
} GroupBucket;

/* New Liger state for a statement, in cxt. */
static LigerState *
liger_state(MemoryContext cxt)
{
	MemoryContext old = MemoryContextSwitchTo(cxt);
	LigerState *ls = palloc0(sizeof(LigerState));
	HASHCTL		ctl;
	int			i;

	ctl.keysize = sizeof(uint32);
	ctl.entrysize = sizeof(GroupBucket);
	ctl.hcxt = cxt;
	ls->group_keys = hash_create("kernelindex Liger groups", 256, &ctl,
								 HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
	ls->configs.context = cxt;
	ls->row_desc = CreateTemplateTupleDesc(KR_NATTS);
	TupleDescInitEntry(ls->row_desc, KR_GROUP, "group", INT4OID, -1, 0);
	TupleDescInitEntry(ls->row_desc, KR_ORD, "ord", INT8OID, -1, 0);
	TupleDescInitEntry(ls->row_desc, KR_TS, "ts", INT8OID, -1, 0);
	for (i = 0; i < 3; i++)
	{
		TupleDescInitEntry(ls->row_desc, KR_SCALED + i, "scaled", INT8OID, -1, 0);
		TupleDescInitEntry(ls->row_desc, KR_WRITTEN + i, "written", CSTRINGOID, -2, 0);
		TupleDescInitEntry(ls->row_desc, KR_CANON + i, "canon", CSTRINGOID, -2, 0);
	}
	ls->row_slot = MakeSingleTupleTableSlot(ls->row_desc, &TTSOpsMinimalTuple);
	ls->rows = tuplestore_begin_heap(false, false, work_mem);
	initStringInfo(&ls->key);
	MemoryContextSwitchTo(old);
	return ls;
}

/* The key of a row's group (its group columns) into ls->key; its hash. */
static uint32
group_key(LigerState *ls, Datum *values, bool *nulls)
{
	int			i;

	resetStringInfo(&ls->key);
	for (i = 0; i < NGROUP_COLUMNS; i++)
	{
		int			c = group_columns[i] - 1;
		int32		len = -1;
		struct varlena *t = NULL;

		if (!nulls[c])
		{
			t = PG_DETOAST_DATUM_PACKED(values[c]);
			len = VARSIZE_ANY_EXHDR(t);
		}
		appendBinaryStringInfo(&ls->key, (char *) &len, sizeof(len));
		if (t != NULL)
			appendBinaryStringInfo(&ls->key, VARDATA_ANY(t), len);
	}
	return hash_bytes((const unsigned char *) ls->key.data, ls->key.len);
}

/* The number of the group whose key is in ls->key, or -1. */
static int
find_group(LigerState *ls, uint32 h)
{
	GroupBucket *bucket = hash_search(ls->group_keys, &h, HASH_FIND, NULL);
	GroupEntry *e;

	for (e = bucket ? bucket->first : NULL; e != NULL; e = e->next)
		if (e->len == ls->key.len && memcmp(e->bytes, ls->key.data, e->len) == 0)
			return e->index;
	return -1;
}

/* Add the group whose key is in ls->key (a good row's columns v). */
static int
add_group(LigerState *ls, MemoryContext cxt, uint32 h, char **v, int64 ord)
{
	bool		found;
	GroupBucket *bucket;
	GroupEntry *e;
	LigerGroup *g;
	MemoryContext old = MemoryContextSwitchTo(cxt);
	int			i;

	bucket = hash_search(ls->group_keys, &h, HASH_ENTER, &found);
	if (!found)
		bucket->first = NULL;
	e = palloc(sizeof(GroupEntry));
	e->hash = h;
	e->len = ls->key.len;
	e->bytes = palloc(e->len);
	memcpy(e->bytes, ls->key.data, e->len);
	e->index = ls->ngroups;
	e->next = bucket->first;
	bucket->first = e;
	if (ls->ngroups == ls->capgroups)
	{
		ls->capgroups = ls->capgroups ? ls->capgroups * 2 : 64;
		ls->groups = ls->groups ? repalloc_huge(ls->groups, sizeof(LigerGroup *) * ls->capgroups) :
			palloc(sizeof(LigerGroup *) * ls->capgroups);
	}
	g = palloc0(sizeof(LigerGroup));
	for (i = 0; i < NGROUP_COLUMNS; i++)
		g->col[group_columns[i]] = v[group_columns[i]] ? pstrdup(v[group_columns[i]]) : NULL;
	g->memory = strcmp(v[LR_METRIC_NAME], "memory") == 0;
	g->series = -1;
	g->first_ord = ord;
	ls->groups[ls->ngroups] = g;
	MemoryContextSwitchTo(old);
	return ls->ngroups++;
}

/* Fail the statement on a bad row. */
static void
report_bad_row(int64 ord, int column, const char *reason, char **v)
{
#define SHOWN(c) (v[c] ? v[c] : "")
	ereport(ERROR,
			(errcode(liger_fault_errcode(column, reason)),
			 errmsg("bad value \"%s\" in column %s (row " INT64_FORMAT " of this COPY): %s",
					liger_shown_value(v[column]), lr_column_names[column], ord, reason),
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

/* BEFORE INSERT FOR EACH STATEMENT on kernelindex.liger_rows. */
Datum
kidx_liger_begin(PG_FUNCTION_ARGS)
{
	TriggerData *td = (TriggerData *) fcinfo->context;
	IngestStatement *st;

	if (!CALLED_AS_TRIGGER(fcinfo) || !TRIGGER_FIRED_FOR_STATEMENT(td->tg_event))
		elog(ERROR, "kidx_liger_begin: not called as a statement trigger");
	if (RelationGetDescr(td->tg_relation)->natts != LR_NCOLUMNS)
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("a Liger row has %d columns, not %d",
						RelationGetDescr(td->tg_relation)->natts, LR_NCOLUMNS)));
	st = ingest_statement_begin(RelationGetRelid(td->tg_relation));
	st->path = liger_state(st->cxt);
	return PointerGetDatum(NULL);
}

/* A text datum as a C string (NULL for NULL). */
static char *
datum_cstring(Datum d, bool isnull)
{
	return isnull ? NULL : TextDatumGetCString(d);
}

/* INSTEAD OF INSERT FOR EACH ROW on kernelindex.liger_rows. */
Datum
kidx_liger_row(PG_FUNCTION_ARGS)
{
	TriggerData *td = (TriggerData *) fcinfo->context;
	IngestStatement *st;
	LigerState *ls;
	Datum		values[LR_NCOLUMNS];
	bool		nulls[LR_NCOLUMNS];
	char	   *v[LR_NCOLUMNS + 1];
	const char *reason;
	int			column;
	LigerMeasures m;
	TupleTableSlot *slot;
	MemoryContext old;
	uint32		h;
	int			g;
	int			i;

	if (!CALLED_AS_TRIGGER(fcinfo) || !TRIGGER_FIRED_INSTEAD(td->tg_event))
		elog(ERROR, "kidx_liger_row: not called as an INSTEAD OF trigger");
	st = ingest_statement_current(RelationGetRelid(td->tg_relation));
	ls = (LigerState *) st->path;
	st->rows++;
	heap_deform_tuple(td->tg_trigtuple, RelationGetDescr(td->tg_relation), values, nulls);

	/*
	 * A row of a group already met has good group columns: only its values
	 * and timestamp are checked.  Any other row is checked whole.
	 */
	h = group_key(ls, values, nulls);
	g = find_group(ls, h);
	memset(v, 0, sizeof(v));
	if (g >= 0)
	{
		v[LR_Y_VALUE_50] = datum_cstring(values[LR_Y_VALUE_50 - 1], nulls[LR_Y_VALUE_50 - 1]);
		v[LR_Y_VALUE_20] = datum_cstring(values[LR_Y_VALUE_20 - 1], nulls[LR_Y_VALUE_20 - 1]);
		v[LR_Y_VALUE_80] = datum_cstring(values[LR_Y_VALUE_80 - 1], nulls[LR_Y_VALUE_80 - 1]);
		v[LR_TIMESTAMP] = datum_cstring(values[LR_TIMESTAMP - 1], nulls[LR_TIMESTAMP - 1]);
		reason = liger_measures_fault(v, ls->groups[g]->memory, &column, &m);
	}
	else
	{
		for (i = 1; i <= LR_NCOLUMNS; i++)
			v[i] = datum_cstring(values[i - 1], nulls[i - 1]);
		reason = liger_fault(v, &column, &ls->configs, &m);
	}
	if (reason != NULL)
	{
		LigerBadRow *bad;

		for (i = 1; i <= LR_NCOLUMNS; i++)
			if (v[i] == NULL)
				v[i] = datum_cstring(values[i - 1], nulls[i - 1]);
		if (kidx_on_bad_row != KIDX_ON_BAD_ROW_QUARANTINE)
			report_bad_row(st->rows, column, reason, v);
		old = MemoryContextSwitchTo(st->cxt);
		if (ls->nbad == ls->capbad)
		{
			ls->capbad = ls->capbad ? ls->capbad * 2 : 16;
			ls->bad = ls->bad ? repalloc_huge(ls->bad, sizeof(LigerBadRow) * ls->capbad) :
				palloc(sizeof(LigerBadRow) * ls->capbad);
		}
		bad = &ls->bad[ls->nbad++];
		bad->ord = st->rows;
		bad->column = column;
		bad->reason = pstrdup(reason);
		for (i = 1; i <= LR_NCOLUMNS; i++)
			bad->v[i] = v[i] ? pstrdup(v[i]) : NULL;
		MemoryContextSwitchTo(old);
		return PointerGetDatum(td->tg_trigtuple);
	}
	if (g < 0)
		g = add_group(ls, st->cxt, h, v, st->rows);

	slot = ls->row_slot;
	ExecClearTuple(slot);
	slot->tts_values[KR_GROUP - 1] = Int32GetDatum(g);
	slot->tts_values[KR_ORD - 1] = Int64GetDatum(st->rows);
	slot->tts_values[KR_TS - 1] = Int64GetDatum(m.ts);
	for (i = 0; i < 3; i++)
	{
		slot->tts_values[KR_SCALED - 1 + i] = Int64GetDatum(m.scaled[i]);
		slot->tts_values[KR_WRITTEN - 1 + i] =
			CStringGetDatum(pnstrdup(m.written[i], m.writtenlen[i]));
		slot->tts_values[KR_CANON - 1 + i] = CStringGetDatum(m.canon[i]);
	}
	memset(slot->tts_isnull, false, sizeof(bool) * KR_NATTS);
	ExecStoreVirtualTuple(slot);
	old = MemoryContextSwitchTo(st->cxt);
	tuplestore_puttupleslot(ls->rows, slot);
	MemoryContextSwitchTo(old);
	return PointerGetDatum(td->tg_trigtuple);
}

/* A text[] of one column of the groups. */
static Datum
group_column(LigerState *ls, int column)
{
	Datum	   *elems = palloc(sizeof(Datum) * ls->ngroups);
	bool	   *nulls = palloc(sizeof(bool) * ls->ngroups);
	int			dims[1] = {ls->ngroups};
	int			lbs[1] = {1};
	int			i;

	for (i = 0; i < ls->ngroups; i++)
	{
		nulls[i] = ls->groups[i]->col[column] == NULL;
		elems[i] = nulls[i] ? (Datum) 0 : CStringGetTextDatum(ls->groups[i]->col[column]);
	}
	return PointerGetDatum(construct_md_array(elems, nulls, 1, dims, lbs, TEXTOID, -1,
											  false, TYPALIGN_INT));
}

/* A jsonb column of the SPI result row, copied (must not be NULL). */
static Jsonb *
result_jsonb(HeapTuple tup, TupleDesc desc, int col)
{
	bool		isnull;
	Datum		d = SPI_getbinval(tup, desc, col, &isnull);

	if (isnull)
		elog(ERROR, "kernelindex.liger_series gave a NULL document");
	return DatumGetJsonbPCopy(d);
}

/* A text column of the SPI result row, copied (NULL: NULL). */
static char *
result_text(HeapTuple tup, TupleDesc desc, int col)
{
	bool		isnull;
	Datum		d = SPI_getbinval(tup, desc, col, &isnull);

	return isnull ? NULL : TextDatumGetCString(d);
}

/*
 * Step 1: the groups' documents and model series, built by SQL from the
 * catalogs, once per group.
 */
static void
resolve_groups(IngestStatement *st, LigerState *ls)
{
	static const int cols[] = {
		LR_KERNEL_NAME, LR_KERNEL_PROVIDER, LR_OPERATION_MODE, LR_METRIC_NAME,
		LR_X_NAME, LR_X_LABEL, LR_X_VALUE, LR_EXTRA_CONFIG, LR_GPU_NAME, LR_LIGER_VERSION
	};
	Oid			argtypes[lengthof(cols)];
	Datum		args[lengthof(cols)];
	uint64		i;
	int			k;

	for (k = 0; k < lengthof(cols); k++)
	{
		argtypes[k] = TEXTARRAYOID;
		args[k] = group_column(ls, cols[k]);
	}
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");

	/*
	 * liger_series is called in the target list, where it is not inlined:
	 * on Citus, where the catalogs are reference tables, its own queries are
	 * then planned by Citus, which cannot plan them inlined into this one.
	 */
	ingest_spi("SELECT (g.s).ord, (g.s).protocol, (g.s).workload, (g.s).environment,"
			   " (g.s).implementation, (g.s).template, (g.s).name_stem, (g.s).name_cut,"
			   " (g.s).external_id_stem, (g.s).native_unit"
			   " FROM (SELECT kernelindex.liger_series($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) AS s"
			   " OFFSET 0) AS g",
			   lengthof(cols), argtypes, args, NULL, true, 0);
	if (SPI_processed != (uint64) ls->ngroups)
		elog(ERROR, "kernelindex.liger_series gave %d groups of %d",
			 (int) SPI_processed, ls->ngroups);
	for (i = 0; i < SPI_processed; i++)
	{
		HeapTuple	tup = SPI_tuptable->vals[i];
		TupleDesc	desc = SPI_tuptable->tupdesc;
		bool		isnull;
		int64		ord = DatumGetInt64(SPI_getbinval(tup, desc, 1, &isnull));
		LigerGroup *g;
		MemoryContext old;
		Datum		cut;

		if (ord < 1 || ord > ls->ngroups)
			elog(ERROR, "kernelindex.liger_series gave group " INT64_FORMAT, ord);
		g = ls->groups[ord - 1];
		old = MemoryContextSwitchTo(st->cxt);
		for (k = 0; k < RR_N; k++)
		{
			/* columns 2-5: protocol, workload, environment, implementation */
			Jsonb	   *doc = result_jsonb(tup, desc, 2 + k);

			kidx_jsonb_resource_digest(doc, &g->model.ref[k]);
			ingest_resource(st->batch, k, &g->model.ref[k], doc, g->first_ord);
		}
		g->model.template = result_jsonb(tup, desc, 6);
		g->model.name_stem = result_text(tup, desc, 7);
		cut = SPI_getbinval(tup, desc, 8, &isnull);
		g->model.name_cut = isnull ? -1 : DatumGetInt32(cut);
		g->model.external_id_stem = result_text(tup, desc, 9);
		g->model.native_unit = result_text(tup, desc, 10);
		run_series_prepare(&g->model);
		MemoryContextSwitchTo(old);
	}
	SPI_finish();
}

/* A kept row's values (p50, p20, p80 in the row; median, p20, p80 in the run). */
static void
row_values(LigerGroup *g, TupleTableSlot *slot, RunValues *rv)
{
	static const int native_of[3] = {1, 0, 2};
	int			base = g->memory ? RI_PEAK : RI_LATENCY;
	int			i;

	memset(rv, 0, sizeof(RunValues));
	rv->observed_at = DatumGetInt64(slot->tts_values[KR_TS - 1]);
	for (i = 0; i < 3; i++)
	{
		int			n = native_of[i];

		rv->has[base + i] = true;
		rv->v[base + i] = DatumGetInt64(slot->tts_values[KR_SCALED - 1 + i]);
		rv->native_text[n] = DatumGetCString(slot->tts_values[KR_WRITTEN - 1 + i]);
		rv->native_canon[n] = DatumGetCString(slot->tts_values[KR_CANON - 1 + i]);
	}
}

/* Do two strings (NULL: none) differ? */
static bool
differ(const char *a, const char *b)
{
	return (a == NULL) != (b == NULL) || (a != NULL && strcmp(a, b) != 0);
}

/*
 * The cut a stem's cut amounts to for slugs of a length (-1: none): a cut
 * past the slug is none, and one that ends on a hyphen of the slug (at a
 * fixed place in YYYY-MM-DD-HH-MI-SS-uuuuuu) is the same as one before it,
 * since trailing hyphens go.
 */
static int
effective_cut(const char *stem, int cut, int sluglen)
{
	int			chars = pg_mbstrlen(stem);

	if (cut < 0 || chars + sluglen <= cut)
		return -1;
	while (cut > chars)
	{
		int			p = cut - 1 - chars;	/* the last slug character kept */

		if (p != 4 && p != 7 && p != 10 && p != 13 && p != 16 && p != 19)
			break;
		cut--;
	}
	return cut;
}

/*
 * The name every run of a series has whatever its slug of a length (NULL:
 * the name depends on the run): the template's, or a stem cut before the
 * slug begins.
 */
static char *
constant_name(RunSeries *s, int sluglen)
{
	RunValues	rv;
	char	   *name;
	char	   *id;
	int			cut;

	memset(&rv, 0, sizeof(rv));
	if (s->name_stem == NULL)
	{
		run_strings(s, &rv, &name, &id);
		return name;
	}
	cut = effective_cut(s->name_stem, s->name_cut, sluglen);
	if (cut < 0 || cut > pg_mbstrlen(s->name_stem))
		return NULL;
	return run_derived_string(s->name_stem, cut, rv.observed_at);
}

/*
 * Do two series derive the same names and externalIds for every slug of a
 * length?  They do when their externalId stems are equal and their names
 * come from equal stems with cuts that amount to the same, or are the same
 * constant (a name cut before its slug is one).
 */
static bool
derive_alike(RunSeries *a, RunSeries *b, int sluglen)
{
	char	   *ca;
	char	   *cb;

	if (differ(a->external_id_stem, b->external_id_stem))
		return false;
	if (!differ(a->name_stem, b->name_stem) &&
		(a->name_stem == NULL ||
		 effective_cut(a->name_stem, a->name_cut, sluglen) ==
		 effective_cut(b->name_stem, b->name_cut, sluglen)))
		return true;
	ca = constant_name(a, sluglen);
	cb = constant_name(b, sluglen);
	return ca != NULL && cb != NULL && strcmp(ca, cb) == 0;
}

/*
 * The series a run of a group goes to: the one the run layout gives the
 * group's first run rebuilt as a document, when this run's name and
 * externalId come out of it the same as out of the group's model (always,
 * when their stems are the same); else (rare) the run's own document's
 * series.
 */
static int
series_for(IngestStatement *st, LigerGroup *g, RunValues *rv, int64 ord)
{
	RunSeries	split;
	RunValues	values;
	RunDocPos	pos;
	Jsonb	   *doc;
	int			s;

	if (g->series >= 0)
	{
		RunSeries  *series = ingest_series_get(st->batch, g->series);
		int			fraction = rv->observed_at % USECS_PER_SEC != 0;
		char	   *name_a,
				   *id_a,
				   *name_b,
				   *id_b;

		if (g->alike[fraction] < 0)
		{
			g->alike[fraction] = derive_alike(series, &g->model,
											  fraction ? RUNFMT_SLUG_FRACTION_LEN : RUNFMT_SLUG_LEN);
		}
		if (g->alike[fraction] > 0)
			return g->series;
		run_strings(series, rv, &name_a, &id_a);
		run_strings(&g->model, rv, &name_b, &id_b);
		if (!differ(name_a, name_b) && !differ(id_a, id_b))
			return g->series;
	}
	doc = run_rebuild(&g->model, rv);
	pos.ord = ord;
	pos.path = "$";
	run_split(&doc->root, &pos, &split, &values);
	s = ingest_series(st->batch, &split, ord);

	/* The series digests this run as its document. */
	{
		KidxDigest	a,
					b;

		kidx_jsonb_resource_digest(doc, &a);
		run_digest(ingest_series_get(st->batch, s), rv, &b);
		if (memcmp(&a, &b, sizeof(KidxDigest)) != 0)
			elog(ERROR, "the run layout does not reproduce the digest of Liger row " INT64_FORMAT, ord);
	}
	if (g->series < 0)
	{
		g->series = s;
		g->alike[0] = g->alike[1] = -1;
	}
	return s;
}

/* Step 2 and 3: every kept row's run, from its group's series. */
static void
add_runs(IngestStatement *st, LigerState *ls)
{
	MemoryContext rowcxt = AllocSetContextCreate(CurrentMemoryContext, "kernelindex Liger row",
												 ALLOCSET_DEFAULT_SIZES);
	TupleTableSlot *slot = ls->row_slot;

	tuplestore_rescan(ls->rows);
	while (tuplestore_gettupleslot(ls->rows, true, false, slot))
	{
		MemoryContext old;
		LigerGroup *g;
		RunSeries  *series;
		RunValues	rv;
		KidxDigest	digest;
		int64		ord;
		int			s;

		CHECK_FOR_INTERRUPTS();
		old = MemoryContextSwitchTo(rowcxt);
		slot_getallattrs(slot);
		g = ls->groups[DatumGetInt32(slot->tts_values[KR_GROUP - 1])];
		ord = DatumGetInt64(slot->tts_values[KR_ORD - 1]);
		row_values(g, slot, &rv);
		s = series_for(st, g, &rv, ord);
		series = ingest_series_get(st->batch, s);
		run_digest(series, &rv, &digest);
		ingest_run(st->batch, s, &rv, &digest, ord);
		MemoryContextSwitchTo(old);
		MemoryContextReset(rowcxt);
	}
	MemoryContextDelete(rowcxt);
}

/* Keep the statement's bad rows in kernelindex.rejected_rows. */
static void
quarantine(LigerState *ls)
{
	Oid			argtypes[4 + LR_NCOLUMNS];
	Datum		args[4 + LR_NCOLUMNS];
	Datum	   *elems = palloc(sizeof(Datum) * ls->nbad);
	bool	   *nulls = palloc(sizeof(bool) * ls->nbad);
	int			dims[1] = {ls->nbad};
	int			lbs[1] = {1};
	StringInfoData sql;
	int			c;
	int			i;

	for (c = 0; c < 4 + LR_NCOLUMNS; c++)
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
					CStringGetTextDatum(liger_shown_value(b->v[b->column]));
			}
			else if (c == 3)
				elems[i] = CStringGetTextDatum(b->reason);
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
	appendStringInfoString(&sql, ") SELECT * FROM ROWS FROM (pg_catalog.unnest($1)");
	for (c = 2; c <= 4 + LR_NCOLUMNS; c++)
		appendStringInfo(&sql, ", pg_catalog.unnest($%d)", c);
	appendStringInfoString(&sql, ") ORDER BY 1");
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	ingest_spi(sql.data, 4 + LR_NCOLUMNS, argtypes, args, NULL, false, 0);
	SPI_finish();
}

/* AFTER INSERT FOR EACH STATEMENT on kernelindex.liger_rows. */
Datum
kidx_liger_end(PG_FUNCTION_ARGS)
{
	TriggerData *td = (TriggerData *) fcinfo->context;
	IngestStatement *st;
	LigerState *ls;

	if (!CALLED_AS_TRIGGER(fcinfo) || !TRIGGER_FIRED_FOR_STATEMENT(td->tg_event))
		elog(ERROR, "kidx_liger_end: not called as a statement trigger");
	st = ingest_statement_end(RelationGetRelid(td->tg_relation));
	ls = (LigerState *) st->path;
	if (ls->nbad > 0)
		quarantine(ls);
	if (ls->ngroups > 0)
	{
		resolve_groups(st, ls);
		add_runs(st, ls);
	}
	tuplestore_end(ls->rows);
	ingest_finish(st->batch);
	MemoryContextDelete(st->cxt);
	return PointerGetDatum(NULL);
}
