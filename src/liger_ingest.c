/*-------------------------------------------------------------------------
 *
 * liger_ingest.c
 *	  The statement trigger that turns a COPY into kernelindex.liger_rows
 *	  into runs.
 *
 * A Liger file holds many rows per run series: every column but the
 * timestamp and the three values repeats.  The trigger reads the
 * statement's transition table three times, and never builds a document
 * for a row it does not have to:
 *
 * 1. Check every row (liger_fault, no per-row exceptions), and group the
 *	  good ones by the columns that make a series.  A bad row fails the
 *	  statement, or with kernelindex.on_bad_row = quarantine is kept in
 *	  kernelindex.rejected_rows.
 * 2. Ask SQL (kernelindex.liger_group_names) for each group's run-name
 *	  prefix, and split the groups further by how run_split() divides each
 *	  row's name (liger_name_key): that is a run series.
 * 3. Store the earliest row of each series, and every row whose timestamp
 *	  has a fraction of a second, as whole bundles through SQL
 *	  (kernelindex.liger_store_rows, which uses kernelindex.ingest_bundles);
 *	  it answers with each stored run's series template and ids.
 * 4. Every other row is a run of a stored series: its typed values and its
 *	  run digest (run_identity_digest, streamed from the template) are
 *	  computed here, put into a tuplestore, and inserted with one INSERT
 *	  ... SELECT over it, in key order, ON CONFLICT DO NOTHING.
 *
 * Finally the staging table is emptied, so that every committed state of
 * kernelindex.liger_rows is empty.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/pg_type.h"
#include "commands/trigger.h"
#include "common/hashfn.h"
#include "common/md5.h"
#include "executor/executor.h"
#include "executor/spi.h"
#include "executor/tuptable.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/datetime.h"
#include "utils/json.h"
#include "utils/jsonb.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/numeric.h"
#include "utils/rel.h"
#include "utils/timestamp.h"
#include "utils/tuplestore.h"
#include "utils/uuid.h"

#include "core/decimal.h"
#include "digest.h"
#include "kernelindex.h"
#include "liger.h"
#include "store.h"

PG_FUNCTION_INFO_V1(kidx_liger_rows_ingest);

/* Rows stored whole per call of kernelindex.liger_store_rows. */
#define LI_STORE_CHUNK	10000

/* Length of a timestamp slug YYYY-MM-DD-HH-MI-SS. */
#define LI_SLUG_LEN		19

/* rowinfo series of a row stored whole, and of a bad row. */
#define LI_WHOLE		(-1)
#define LI_BAD			(-2)

/* Columns that, with the name key, make a run series. */
static const int group_columns[] = {
	LR_KERNEL_NAME, LR_KERNEL_PROVIDER, LR_OPERATION_MODE, LR_METRIC_NAME,
	LR_X_NAME, LR_X_LABEL, LR_X_VALUE, LR_EXTRA_CONFIG, LR_GPU_NAME,
	LR_LIGER_VERSION
};
#define LI_NGROUP_COLUMNS lengthof(group_columns)

/* One key of a KeyTable. */
typedef struct KeyEntry
{
	uint32		hash;
	int			next;			/* next entry in the bucket, or -1 */
	int			len;
	char	   *key;
} KeyEntry;

/* Byte strings to dense numbers 0, 1, 2, ... (a chained hash table). */
typedef struct KeyTable
{
	MemoryContext cxt;
	int		   *buckets;
	int			nbuckets;
	KeyEntry   *entries;
	int			n;
	int			cap;
} KeyTable;

/* A group: rows equal in every column of group_columns. */
typedef struct LigerGroup
{
	char	   *col[LR_NCOLUMNS + 1];	/* the group's values (others NULL) */
	char	   *name_prefix;	/* run name before the timestamp slug */
	char	   *variant_slug;	/* run_name_slug() of the externalId variant */
} LigerGroup;

/* A run series: a group and a name key; what its runs share once stored. */
typedef struct LigerSeries
{
	int			group;
	int64		rep_pos;		/* the row stored whole for it (earliest) */
	TimestampTz rep_ts;
	bool		known;			/* the fields below are filled */
	KidxDigest	comparability_key;
	int32		ids[6];			/* protocol, workload, environment,
								 * implementation, series, variant */
	bool		variant_null;
	Jsonb	   *template;
	char	   *native_unit;
	char	   *external_id_stem;
	char	   *variant;
	char	   *key_prefix;
	char	   *digest[4];
	RunLayout  *layout;			/* the template with holes, once needed */
} LigerSeries;

/* What is kept of each row of the statement, by position. */
typedef struct LigerRowInfo
{
	int32		series;			/* LigerSeries index, LI_WHOLE or LI_BAD */
	int32		group;
	TimestampTz ts;
} LigerRowInfo;

/* The first bad row, as the error reports it. */
typedef struct LigerBadRow
{
	int64		pos;
	int			column;
	char	   *shown;
	const char *reason;
	char	   *v[LR_NCOLUMNS + 1];
} LigerBadRow;

/* Set up an empty KeyTable in cxt. */
static void
keytable_init(KeyTable *t, MemoryContext cxt)
{
	t->cxt = cxt;
	t->nbuckets = 1024;
	t->buckets = MemoryContextAlloc(cxt, sizeof(int) * t->nbuckets);
	memset(t->buckets, -1, sizeof(int) * t->nbuckets);
	t->cap = 256;
	t->entries = MemoryContextAlloc(cxt, sizeof(KeyEntry) * t->cap);
	t->n = 0;
}

/* The number of a key, adding it if new (*added says which). */
static int
keytable_lookup(KeyTable *t, const char *key, int len, bool *added)
{
	uint32		h = hash_bytes((const unsigned char *) key, len);
	int			i;

	for (i = t->buckets[h % t->nbuckets]; i >= 0; i = t->entries[i].next)
		if (t->entries[i].hash == h && t->entries[i].len == len &&
			memcmp(t->entries[i].key, key, len) == 0)
		{
			*added = false;
			return i;
		}

	if (t->n == t->cap)
	{
		t->cap *= 2;
		t->entries = repalloc_huge(t->entries, sizeof(KeyEntry) * t->cap);
	}
	if (t->n >= t->nbuckets * 2)
	{
		int			j;

		t->nbuckets *= 4;
		pfree(t->buckets);
		t->buckets = MemoryContextAllocHuge(t->cxt, sizeof(int) * t->nbuckets);
		memset(t->buckets, -1, sizeof(int) * t->nbuckets);
		for (j = 0; j < t->n; j++)
		{
			int			b = t->entries[j].hash % t->nbuckets;

			t->entries[j].next = t->buckets[b];
			t->buckets[b] = j;
		}
	}
	i = t->n++;
	t->entries[i].hash = h;
	t->entries[i].len = len;
	t->entries[i].key = MemoryContextAlloc(t->cxt, len);
	memcpy(t->entries[i].key, key, len);
	t->entries[i].next = t->buckets[h % t->nbuckets];
	t->buckets[h % t->nbuckets] = i;
	*added = true;
	return i;
}

/* The array, doubled (new room zeroed) if element i is past its *cap. */
static void *
room_for(void *array, int *cap, int i, Size elem)
{
	if (i < *cap)
		return array;
	array = repalloc_huge(array, elem * *cap * 2);
	memset((char *) array + elem * *cap, 0, elem * *cap);
	*cap *= 2;
	return array;
}

/* The row in the slot as C strings v[1..LR_NCOLUMNS] (NULL for NULL). */
static void
slot_strings(TupleTableSlot *slot, char **v)
{
	int			i;

	slot_getallattrs(slot);
	for (i = 1; i <= LR_NCOLUMNS; i++)
		v[i] = slot->tts_isnull[i - 1] ? NULL :
			TextDatumGetCString(slot->tts_values[i - 1]);
}

/* Rewind the transition table to its start, for our read pointer. */
static void
rewind_rows(Tuplestorestate *rows, int readptr)
{
	tuplestore_select_read_pointer(rows, readptr);
	tuplestore_rescan(rows);
}

/* Write n >= 0 as exactly width digits (zero-padded) at p. */
static inline void
put_digits(char *p, int n, int width)
{
	while (width-- > 0)
	{
		p[width] = '0' + n % 10;
		n /= 10;
	}
}

/* The timestamp slug of ts, YYYY-MM-DD-HH-MI-SS; *whole: no fraction. */
static void
timestamp_slug(TimestampTz ts, char *buf, bool *whole)
{
	struct pg_tm tm;
	fsec_t		fsec;

	if (timestamp2tm(ts, NULL, &tm, &fsec, NULL, NULL) != 0)
		ereport(ERROR,
				(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
				 errmsg("timestamp out of range")));
	if (tm.tm_year < 1 || tm.tm_year > 9999)
		ereport(ERROR,
				(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
				 errmsg("timestamp out of range")));
	memcpy(buf, "0000-00-00-00-00-00", LI_SLUG_LEN + 1);
	put_digits(buf, tm.tm_year, 4);
	put_digits(buf + 5, tm.tm_mon, 2);
	put_digits(buf + 8, tm.tm_mday, 2);
	put_digits(buf + 11, tm.tm_hour, 2);
	put_digits(buf + 14, tm.tm_min, 2);
	put_digits(buf + 17, tm.tm_sec, 2);
	*whole = (fsec == 0);
}

/* The value of a checked measurement, scaled to ns or bytes. */
static int64
scaled_value(const char *s, uint32 multiplier)
{
	int64_t		result;

	if (dec_scale_round_int64(s, strlen(s), multiplier, &result) != DEC_OK)
		elog(ERROR, "checked Liger value \"%s\" does not scale", s);
	return (int64) result;
}

/* Fail the statement on its first bad row. */
static void
report_bad_row(const LigerBadRow *bad)
{
#define SHOWN(c) (bad->v[c] ? bad->v[c] : "")
	ereport(ERROR,
			(errcode(bad->column == LR_TIMESTAMP ?
					 ERRCODE_INVALID_DATETIME_FORMAT :
					 ERRCODE_INVALID_TEXT_REPRESENTATION),
			 errmsg("bad value \"%s\" in column %s (row " INT64_FORMAT " of this COPY): %s",
					bad->shown, lr_column_names[bad->column], bad->pos + 1,
					bad->reason),
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

/* Keep every bad row of the statement in kernelindex.rejected_rows. */
static void
quarantine_bad_rows(void)
{
	if (SPI_execute("INSERT INTO kernelindex.rejected_rows"
					" (row_number, column_name, bad_value, reason,"
					"  kernel_name, kernel_provider, kernel_operation_mode, metric_name, metric_unit,"
					"  x_name, x_label, x_value, y_value_50, y_value_20, y_value_80,"
					"  extra_benchmark_config_str, gpu_name, \"timestamp\", liger_version)"
					" SELECT s.ord, s.f[1], s.f[2], s.f[3],"
					"  s.kernel_name, s.kernel_provider, s.kernel_operation_mode, s.metric_name, s.metric_unit,"
					"  s.x_name, s.x_label, s.x_value, s.y_value_50, s.y_value_20, s.y_value_80,"
					"  s.extra_benchmark_config_str, s.gpu_name, s.\"timestamp\", s.liger_version"
					" FROM (SELECT pg_catalog.row_number() OVER () AS ord,"
					"              kernelindex.liger_row_fault(n) AS f, n.*"
					"       FROM liger_new_rows n) s"
					" WHERE s.f IS NOT NULL"
					" ORDER BY s.ord", false, 0) != SPI_OK_INSERT)
		elog(ERROR, "could not keep the bad Liger rows");
}

/* A text[] of one group column, for kernelindex.liger_group_names. */
static Datum
group_column_array(LigerGroup *groups, int ngroups, int column)
{
	Datum	   *elems = palloc(sizeof(Datum) * ngroups);
	int			i;

	for (i = 0; i < ngroups; i++)
		elems[i] = CStringGetTextDatum(groups[i].col[column]);
	return PointerGetDatum(construct_array(elems, ngroups, TEXTOID, -1, false,
										   TYPALIGN_INT));
}

/* Fill in every group's name prefix and variant slug (SQL). */
static void
name_groups(LigerGroup *groups, int ngroups, MemoryContext work)
{
	static const int cols[8] = {
		LR_KERNEL_NAME, LR_OPERATION_MODE, LR_METRIC_NAME, LR_KERNEL_PROVIDER,
		LR_GPU_NAME, LR_X_NAME, LR_X_VALUE, LR_EXTRA_CONFIG
	};
	Oid			argtypes[8];
	Datum		args[8];
	uint64		i;

	for (i = 0; i < 8; i++)
	{
		argtypes[i] = TEXTARRAYOID;
		args[i] = group_column_array(groups, ngroups, cols[i]);
	}
	if (SPI_execute_with_args("SELECT g.ord, g.name_prefix, g.variant_slug"
							  " FROM kernelindex.liger_group_names($1, $2, $3, $4, $5, $6, $7, $8) g",
							  8, argtypes, args, NULL, true, 0) != SPI_OK_SELECT ||
		SPI_processed != (uint64) ngroups)
		elog(ERROR, "kernelindex.liger_group_names did not name every group");
	for (i = 0; i < SPI_processed; i++)
	{
		HeapTuple	tup = SPI_tuptable->vals[i];
		TupleDesc	desc = SPI_tuptable->tupdesc;
		bool		isnull;
		int64		ord = DatumGetInt64(SPI_getbinval(tup, desc, 1, &isnull));
		char	   *prefix = SPI_getvalue(tup, desc, 2);
		char	   *vslug = SPI_getvalue(tup, desc, 3);
		LigerGroup *g;

		if (ord < 1 || ord > ngroups || prefix == NULL || vslug == NULL)
			elog(ERROR, "kernelindex.liger_group_names gave an unusable row");
		g = &groups[ord - 1];
		g->name_prefix = MemoryContextStrdup(work, prefix);
		g->variant_slug = MemoryContextStrdup(work, vslug);
	}
	SPI_freetuptable(SPI_tuptable);
}

/* A text column of an SPI result row, copied into cxt (NULL for NULL). */
static char *
spi_text(HeapTuple tup, TupleDesc desc, int col, MemoryContext cxt)
{
	char	   *s = SPI_getvalue(tup, desc, col);

	return s ? MemoryContextStrdup(cxt, s) : NULL;
}

/*
 * Store rows whole (kernelindex.liger_store_rows) and take, for the ones
 * that stand for a series, what the series' other runs need.
 */
static void
store_whole(Datum *rows, int64 *ords, int64 *positions, int n, Oid rowtype,
			LigerRowInfo *rowinfo, LigerSeries *series, MemoryContext work)
{
	Oid			argtypes[2];
	Datum		args[2];
	Datum	   *orddatums = palloc(sizeof(Datum) * n);
	int16		typlen;
	bool		typbyval;
	char		typalign;
	uint64		i;
	int			j;

	for (j = 0; j < n; j++)
		orddatums[j] = Int64GetDatum(ords[j]);
	get_typlenbyvalalign(rowtype, &typlen, &typbyval, &typalign);
	argtypes[0] = get_array_type(rowtype);
	argtypes[1] = INT8ARRAYOID;
	args[0] = PointerGetDatum(construct_array(rows, n, rowtype, typlen, typbyval, typalign));
	args[1] = PointerGetDatum(construct_array(orddatums, n, INT8OID, 8, FLOAT8PASSBYVAL,
											  TYPALIGN_DOUBLE));
	if (SPI_execute_with_args("SELECT * FROM kernelindex.liger_store_rows($1, $2)",
							  2, argtypes, args, NULL, false, 0) != SPI_OK_SELECT)
		elog(ERROR, "kernelindex.liger_store_rows failed");

	for (i = 0; i < SPI_processed; i++)
	{
		HeapTuple	tup = SPI_tuptable->vals[i];
		TupleDesc	desc = SPI_tuptable->tupdesc;
		bool		isnull;
		int64		ord = DatumGetInt64(SPI_getbinval(tup, desc, 1, &isnull));
		int			lo = 0,
					hi = n - 1;
		int64		pos = -1;
		LigerSeries *s;
		int			k;

		/* ords[] ascend: find the row's position. */
		while (lo <= hi)
		{
			int			mid = (lo + hi) / 2;

			if (ords[mid] == ord)
			{
				pos = positions[mid];
				break;
			}
			if (ords[mid] < ord)
				lo = mid + 1;
			else
				hi = mid - 1;
		}
		if (pos < 0)
			elog(ERROR, "kernelindex.liger_store_rows answered for a row it was not given");
		if (rowinfo[pos].series < 0)
			continue;
		s = &series[rowinfo[pos].series];
		if (s->rep_pos != pos)
			continue;

		memcpy(&s->comparability_key,
			   DatumGetPointer(SPI_getbinval(tup, desc, 2, &isnull)), sizeof(KidxDigest));
		for (k = 0; k < 6; k++)
		{
			Datum		d = SPI_getbinval(tup, desc, 3 + k, &isnull);

			s->ids[k] = isnull ? 0 : DatumGetInt32(d);
			if (k == 5)
				s->variant_null = isnull;
		}
		{
			Datum		d = SPI_getbinval(tup, desc, 9, &isnull);
			MemoryContext old = MemoryContextSwitchTo(work);

			s->template = DatumGetJsonbPCopy(d);
			MemoryContextSwitchTo(old);
		}
		s->native_unit = spi_text(tup, desc, 10, work);
		s->external_id_stem = spi_text(tup, desc, 11, work);
		s->variant = spi_text(tup, desc, 12, work);
		s->key_prefix = spi_text(tup, desc, 13, work);
		for (k = 0; k < 4; k++)
			s->digest[k] = spi_text(tup, desc, 14 + k, work);
		if (s->external_id_stem == NULL || s->variant == NULL ||
			s->key_prefix == NULL || s->variant_null)
			ereport(ERROR,
					(errcode(ERRCODE_INTERNAL_ERROR),
					 errmsg("a Liger run series has no externalId stem"),
					 errhint("This is a bug in kernelindex; nothing was stored.")));
		s->known = true;
	}
	SPI_freetuptable(SPI_tuptable);
}

/* Characters escape_json() escapes: '"', '\\' and the controls. */
static const char needs_escape[] =
"\"\\\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f"
"\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f";

/* The md5 of [source, externalId] as a uuid (runs.external_key). */
static pg_uuid_t *
external_key(const char *key_prefix, const char *external_id)
{
	StringInfoData buf;
	pg_uuid_t  *key = palloc(sizeof(pg_uuid_t));
	const char *errstr = NULL;

	initStringInfo(&buf);
	appendStringInfoString(&buf, key_prefix);
	if (external_id[strcspn(external_id, needs_escape)] == '\0')
	{
		/* what escape_json writes for a string with nothing to escape */
		appendStringInfoChar(&buf, '"');
		appendStringInfoString(&buf, external_id);
		appendStringInfoChar(&buf, '"');
	}
	else
		escape_json(&buf, external_id);
	appendStringInfoChar(&buf, ']');
	if (!pg_md5_binary(buf.data, buf.len, key->data, &errstr))
		ereport(ERROR,
				(errcode(ERRCODE_INTERNAL_ERROR),
				 errmsg("could not compute MD5 hash: %s", errstr)));
	return key;
}

/* Columns of the liger_given tuplestore (runs columns, then two more). */
#define LG_NATTS		21
#define LG_EXTERNAL_ID	19		/* 0-based */
#define LG_ORD			20

/*
 * The runs of one row of a stored series: its values into *values and
 * *nulls, laid out as the liger_given tuplestore.
 */
static void
series_run(char **v, const LigerRowInfo *ri, int64 ord, LigerSeries *s,
		   Datum *values, bool *nulls, MemoryContext work)
{
	bool		memory = strcmp(v[LR_METRIC_NAME], "memory") == 0;
	uint32		multiplier = memory ? 1048576 : 1000000;
	int			base = memory ? RV_PEAK : RV_LATENCY;
	RunValues	rv;
	KidxDigest *digest = palloc(sizeof(KidxDigest));
	char		slug[LI_SLUG_LEN + 1];
	bool		whole;
	char	   *external_id;
	int			i;

	timestamp_slug(ri->ts, slug, &whole);
	external_id = psprintf("%s%s/%s", s->external_id_stem, s->variant, slug);

	memset(&rv, 0, sizeof(rv));
	for (i = 0; i < 4; i++)
		rv.digest[i] = s->digest[i];
	rv.has_observed_at = true;
	rv.observed_at = ri->ts;
	rv.has[base] = rv.has[base + 1] = rv.has[base + 2] = true;
	rv.v[base] = scaled_value(v[LR_Y_VALUE_50], multiplier);
	rv.v[base + 1] = scaled_value(v[LR_Y_VALUE_20], multiplier);
	rv.v[base + 2] = scaled_value(v[LR_Y_VALUE_80], multiplier);
	rv.native_unit = s->native_unit;
	rv.native[0] = DatumGetNumeric(DirectFunctionCall3(numeric_in,
													   CStringGetDatum(v[LR_Y_VALUE_20]),
													   ObjectIdGetDatum(InvalidOid),
													   Int32GetDatum(-1)));
	rv.native[1] = DatumGetNumeric(DirectFunctionCall3(numeric_in,
													   CStringGetDatum(v[LR_Y_VALUE_50]),
													   ObjectIdGetDatum(InvalidOid),
													   Int32GetDatum(-1)));
	rv.native[2] = DatumGetNumeric(DirectFunctionCall3(numeric_in,
													   CStringGetDatum(v[LR_Y_VALUE_80]),
													   ObjectIdGetDatum(InvalidOid),
													   Int32GetDatum(-1)));
	rv.native_text[0] = v[LR_Y_VALUE_20];
	rv.native_text[1] = v[LR_Y_VALUE_50];
	rv.native_text[2] = v[LR_Y_VALUE_80];
	rv.external_id = external_id;
	if (s->layout == NULL)
	{
		MemoryContext old = MemoryContextSwitchTo(work);

		s->layout = run_identity_layout(s->template, &rv);
		MemoryContextSwitchTo(old);
	}
	if (!run_identity_digest_layout(s->layout, &rv, digest))
		run_identity_digest(s->template, &rv, digest);

	memset(nulls, true, sizeof(bool) * LG_NATTS);
	values[0] = PointerGetDatum(&s->comparability_key);
	values[1] = PointerGetDatum(digest);
	for (i = 0; i < 6; i++)
		values[2 + i] = Int32GetDatum(s->ids[i]);
	values[8] = TimestampTzGetDatum(ri->ts);
	for (i = 0; i < 3; i++)
	{
		values[9 + base + i] = Int64GetDatum(rv.v[base + i]);
		nulls[9 + base + i] = false;
	}
	values[15] = UUIDPGetDatum(external_key(s->key_prefix, external_id));
	for (i = 0; i < 3; i++)
		values[16 + i] = NumericGetDatum(rv.native[i]);
	values[LG_EXTERNAL_ID] = CStringGetTextDatum(external_id);
	values[LG_ORD] = Int64GetDatum(ord);
	for (i = 0; i <= 8; i++)
		nulls[i] = false;
	for (i = 15; i < LG_NATTS; i++)
		nulls[i] = false;
}

/* Insert the computed runs; fail on an externalId taken by another run. */
static void
insert_given(Tuplestorestate *given, TupleDesc given_desc)
{
	EphemeralNamedRelation enr = palloc0(sizeof(EphemeralNamedRelationData));
	int64		runs_given = tuplestore_tuple_count(given);
	int64		runs_new;
	bool		isnull;
	char	   *schema;
	char	   *sql;

	enr->md.name = "liger_given";
	enr->md.reliddesc = InvalidOid;
	enr->md.tupdesc = given_desc;
	enr->md.enrtype = ENR_NAMED_TUPLESTORE;
	enr->md.enrtuples = runs_given;
	enr->reldata = given;
	if (SPI_register_relation(enr) != SPI_OK_REL_REGISTER)
		elog(ERROR, "could not register the computed Liger runs");

	if (SPI_execute("WITH ins AS ("
					" INSERT INTO kernelindex.runs AS t ("
					"  comparability_key, digest, protocol_id, workload_id, environment_id, implementation_id,"
					"  series_id, variant_id, observed_at, latency_ns, latency_ns_p20, latency_ns_p80,"
					"  peak_bytes, peak_bytes_p20, peak_bytes_p80, external_key, native_p20, native_p50, native_p80)"
					" SELECT g.comparability_key, g.digest, g.protocol_id, g.workload_id, g.environment_id,"
					"  g.implementation_id, g.series_id, g.variant_id, g.observed_at, g.latency_ns,"
					"  g.latency_ns_p20, g.latency_ns_p80, g.peak_bytes, g.peak_bytes_p20, g.peak_bytes_p80,"
					"  g.external_key, g.native_p20, g.native_p50, g.native_p80"
					" FROM liger_given g"
					" ORDER BY g.comparability_key, g.digest"
					" ON CONFLICT DO NOTHING"
					" RETURNING 1)"
					" SELECT pg_catalog.count(*) FROM ins", false, 0) != SPI_OK_SELECT)
		elog(ERROR, "could not insert the Liger runs");
	runs_new = DatumGetInt64(SPI_getbinval(SPI_tuptable->vals[0],
										   SPI_tuptable->tupdesc, 1, &isnull));
	SPI_freetuptable(SPI_tuptable);
	if (runs_new == runs_given)
		return;

	/* A run not stored now must be stored already: else it collided on externalId. */
	if (SPI_execute("SELECT pg_catalog.quote_ident(n.nspname)"
					" FROM pg_catalog.pg_extension e"
					" JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) e.extnamespace"
					" WHERE e.extname OPERATOR(pg_catalog.=) 'kernelindex'", true, 0) != SPI_OK_SELECT ||
		SPI_processed != 1)
		elog(ERROR, "could not find the schema of extension kernelindex");
	schema = SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1);
	sql = psprintf("SELECT g.digest::pg_catalog.text, o.digest::pg_catalog.text, g.external_id"
				   " FROM liger_given g"
				   " JOIN kernelindex.runs o ON o.comparability_key OPERATOR(%s.=) g.comparability_key"
				   "  AND o.external_key OPERATOR(pg_catalog.=) g.external_key"
				   "  AND o.digest OPERATOR(%s.<>) g.digest"
				   " WHERE NOT EXISTS (SELECT 1 FROM kernelindex.runs r"
				   "  WHERE r.comparability_key OPERATOR(%s.=) g.comparability_key"
				   "   AND r.digest OPERATOR(%s.=) g.digest)"
				   " ORDER BY g.ord LIMIT 1", schema, schema, schema, schema);
	/* not read-only: it must see the runs this trigger has just stored */
	if (SPI_execute(sql, false, 0) != SPI_OK_SELECT)
		elog(ERROR, "could not look for an externalId collision");
	if (SPI_processed > 0)
	{
		HeapTuple	tup = SPI_tuptable->vals[0];
		TupleDesc	desc = SPI_tuptable->tupdesc;

		ereport(ERROR,
				(errcode(ERRCODE_UNIQUE_VIOLATION),
				 errmsg("run %s has the same source and externalId as stored run %s",
						SPI_getvalue(tup, desc, 1), SPI_getvalue(tup, desc, 2)),
				 errdetail("source liger-kernel-bench, externalId %s",
						   SPI_getvalue(tup, desc, 3)),
				 errhint("Two different runs of one source cannot share an externalId; nothing was stored.")));
	}
	SPI_freetuptable(SPI_tuptable);
}

/* The state of one run of the trigger. */
typedef struct LigerIngest
{
	Tuplestorestate *rows;		/* the statement's rows (transition table) */
	int			readptr;		/* our read pointer into it */
	TupleTableSlot *slot;
	Oid			rowtype;		/* of kernelindex.liger_rows */
	int64		nrows;
	MemoryContext work;			/* everything that lives to the end */
	MemoryContext rowcxt;		/* reset per row */
	MemoryContext chunkcxt;		/* reset per chunk of rows stored whole */
	LigerRowInfo *rowinfo;		/* by position */
	int64		nbad;
	LigerBadRow bad;			/* the first bad row */
	LigerConfigCache configs;
	KeyTable	group_keys;
	LigerGroup *groups;
	int			ngroups_cap;
	KeyTable	series_keys;
	LigerSeries *series;
	int			nseries_cap;
	StringInfoData key;
	char	   *v[LR_NCOLUMNS + 1];
} LigerIngest;

/* Step 1: check every row; group the good ones (the key of group_columns). */
static void
check_and_group(LigerIngest *li)
{
	char	  **v = li->v;
	int64		pos;

	rewind_rows(li->rows, li->readptr);
	for (pos = 0; tuplestore_gettupleslot(li->rows, true, false, li->slot); pos++)
	{
		LigerRowInfo *ri = &li->rowinfo[pos];
		const char *reason;
		int			column;
		bool		added;
		int			g;
		int			i;

		CHECK_FOR_INTERRUPTS();
		MemoryContextReset(li->rowcxt);
		MemoryContextSwitchTo(li->rowcxt);
		slot_strings(li->slot, v);
		reason = liger_fault(v, &column, &li->configs, &ri->ts);
		/* Back in work before the next fetch: rowcxt is reset under it. */
		MemoryContextSwitchTo(li->work);
		if (reason != NULL)
		{
			ri->series = LI_BAD;
			if (li->nbad++ == 0)
			{
				li->bad.pos = pos;
				li->bad.column = column;
				li->bad.shown = liger_shown_value(v[column]);
				li->bad.reason = pstrdup(reason);
				for (i = 1; i <= LR_NCOLUMNS; i++)
					li->bad.v[i] = v[i] ? pstrdup(v[i]) : NULL;
			}
			continue;
		}

		resetStringInfo(&li->key);
		for (i = 0; i < LI_NGROUP_COLUMNS; i++)
		{
			const char *c = v[group_columns[i]];
			int32		len = c ? strlen(c) : -1;

			appendBinaryStringInfo(&li->key, (char *) &len, sizeof(len));
			if (c)
				appendBinaryStringInfo(&li->key, c, len);
		}
		g = keytable_lookup(&li->group_keys, li->key.data, li->key.len, &added);
		if (added)
		{
			li->groups = room_for(li->groups, &li->ngroups_cap, g, sizeof(LigerGroup));
			for (i = 0; i < LI_NGROUP_COLUMNS; i++)
			{
				int			c = group_columns[i];

				li->groups[g].col[c] = v[c] ? pstrdup(v[c]) : NULL;
			}
		}
		ri->group = g;
		ri->series = LI_WHOLE;
	}
	if (pos != li->nrows)
		elog(ERROR, "the transition table has " INT64_FORMAT " rows, not " INT64_FORMAT,
			 pos, li->nrows);
}

/*
 * Step 2: name the groups (SQL) and split them into run series by how
 * run_split() divides each row's name; each series' earliest row stands
 * for it.  Rows whose timestamp has a fraction of a second stay LI_WHOLE.
 */
static void
split_into_series(LigerIngest *li)
{
	int64		pos;

	name_groups(li->groups, li->group_keys.n, li->work);
	MemoryContextSwitchTo(li->work);
	for (pos = 0; pos < li->nrows; pos++)
	{
		LigerRowInfo *ri = &li->rowinfo[pos];
		LigerGroup *g;
		LigerSeries *series;
		char		slug[LI_SLUG_LEN + 1];
		bool		whole;
		char	   *nk;
		int			s;
		bool		added;

		if (ri->series == LI_BAD)
			continue;
		CHECK_FOR_INTERRUPTS();
		timestamp_slug(ri->ts, slug, &whole);
		if (!whole)
			continue;
		g = &li->groups[ri->group];
		MemoryContextReset(li->rowcxt);
		MemoryContextSwitchTo(li->rowcxt);
		nk = liger_name_key(g->name_prefix, strlen(g->name_prefix),
							g->variant_slug, strlen(g->variant_slug),
							slug, LI_SLUG_LEN);
		resetStringInfo(&li->key);
		appendBinaryStringInfo(&li->key, (char *) &ri->group, sizeof(ri->group));
		appendStringInfoString(&li->key, nk);
		MemoryContextSwitchTo(li->work);
		s = keytable_lookup(&li->series_keys, li->key.data, li->key.len, &added);
		if (added)
		{
			li->series = room_for(li->series, &li->nseries_cap, s, sizeof(LigerSeries));
			li->series[s].group = ri->group;
			li->series[s].rep_pos = pos;
			li->series[s].rep_ts = ri->ts;
		}
		series = &li->series[s];
		if (ri->ts < series->rep_ts)
		{
			series->rep_pos = pos;
			series->rep_ts = ri->ts;
		}
		ri->series = s;
	}
}

/*
 * Step 3: store whole, through SQL, every series' earliest row and every
 * row with a fraction of a second, in chunks of LI_STORE_CHUNK rows.
 */
static void
store_whole_rows(LigerIngest *li)
{
	int64	   *ords = palloc(sizeof(int64) * LI_STORE_CHUNK);
	int64	   *positions = palloc(sizeof(int64) * LI_STORE_CHUNK);
	Datum	   *chunk = palloc(sizeof(Datum) * LI_STORE_CHUNK);
	int			nchunk = 0;
	int64		ord = 0;
	int64		pos;

	rewind_rows(li->rows, li->readptr);
	for (pos = 0; tuplestore_gettupleslot(li->rows, true, false, li->slot); pos++)
	{
		LigerRowInfo *ri = &li->rowinfo[pos];

		if (ri->series == LI_BAD)
			continue;
		ord++;
		if (ri->series != LI_WHOLE && li->series[ri->series].rep_pos != pos)
			continue;
		CHECK_FOR_INTERRUPTS();
		MemoryContextSwitchTo(li->chunkcxt);
		chunk[nchunk] = ExecFetchSlotHeapTupleDatum(li->slot);
		MemoryContextSwitchTo(li->work);
		ords[nchunk] = ord;
		positions[nchunk] = pos;
		if (++nchunk == LI_STORE_CHUNK)
		{
			MemoryContextSwitchTo(li->chunkcxt);
			store_whole(chunk, ords, positions, nchunk, li->rowtype, li->rowinfo,
						li->series, li->work);
			/* SPI may have moved the store to another read pointer */
			tuplestore_select_read_pointer(li->rows, li->readptr);
			MemoryContextSwitchTo(li->work);
			MemoryContextReset(li->chunkcxt);
			nchunk = 0;
		}
	}
	if (nchunk > 0)
	{
		MemoryContextSwitchTo(li->chunkcxt);
		store_whole(chunk, ords, positions, nchunk, li->rowtype, li->rowinfo,
					li->series, li->work);
	}
	MemoryContextSwitchTo(li->work);
	MemoryContextReset(li->chunkcxt);
}

/*
 * Step 4: every other row of a series, its typed values and run digest
 * computed here, into a tuplestore that one INSERT stores.
 */
static void
store_series_runs(LigerIngest *li)
{
	Tuplestorestate *given;
	TupleDesc	given_desc;
	Datum		values[LG_NATTS];
	bool		nulls[LG_NATTS];
	int64		ord = 0;
	int64		pos;

	if (SPI_execute("SELECT comparability_key, digest, protocol_id, workload_id, environment_id,"
					" implementation_id, series_id, variant_id, observed_at, latency_ns, latency_ns_p20,"
					" latency_ns_p80, peak_bytes, peak_bytes_p20, peak_bytes_p80, external_key,"
					" native_p20, native_p50, native_p80,"
					" NULL::pg_catalog.text AS external_id, NULL::pg_catalog.int8 AS ord"
					" FROM kernelindex.runs LIMIT 0", true, 0) != SPI_OK_SELECT ||
		SPI_tuptable->tupdesc->natts != LG_NATTS)
		elog(ERROR, "could not describe kernelindex.runs");
	MemoryContextSwitchTo(li->work);
	given_desc = CreateTupleDescCopy(SPI_tuptable->tupdesc);
	SPI_freetuptable(SPI_tuptable);
	given = tuplestore_begin_heap(false, false, work_mem);

	rewind_rows(li->rows, li->readptr);
	for (pos = 0; tuplestore_gettupleslot(li->rows, true, false, li->slot); pos++)
	{
		LigerRowInfo *ri = &li->rowinfo[pos];
		LigerSeries *s;

		if (ri->series == LI_BAD)
			continue;
		ord++;
		if (ri->series == LI_WHOLE)
			continue;
		s = &li->series[ri->series];
		if (s->rep_pos == pos)
			continue;
		if (!s->known)
			elog(ERROR, "the run series of Liger row " INT64_FORMAT " was not stored", pos + 1);
		CHECK_FOR_INTERRUPTS();
		MemoryContextReset(li->rowcxt);
		MemoryContextSwitchTo(li->rowcxt);
		slot_strings(li->slot, li->v);
		series_run(li->v, ri, ord, s, values, nulls, li->work);
		MemoryContextSwitchTo(li->work);
		tuplestore_putvalues(given, given_desc, values, nulls);
	}
	insert_given(given, given_desc);
	tuplestore_end(given);
}

/*
 * kidx_liger_rows_ingest(): AFTER INSERT ... FOR EACH STATEMENT trigger of
 * kernelindex.liger_rows, with the transition table liger_new_rows.
 */
Datum
kidx_liger_rows_ingest(PG_FUNCTION_ARGS)
{
	TriggerData *trigdata = (TriggerData *) fcinfo->context;
	MemoryContext caller = CurrentMemoryContext;
	TupleDesc	desc;
	LigerIngest *li;

	if (!CALLED_AS_TRIGGER(fcinfo) ||
		!TRIGGER_FIRED_AFTER(trigdata->tg_event) ||
		!TRIGGER_FIRED_FOR_STATEMENT(trigdata->tg_event) ||
		!TRIGGER_FIRED_BY_INSERT(trigdata->tg_event) ||
		trigdata->tg_newtable == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
				 errmsg("kernelindex.liger_rows_ingest() must be an AFTER INSERT statement trigger with a NEW TABLE")));
	desc = RelationGetDescr(trigdata->tg_relation);
	if (desc->natts != LR_NCOLUMNS)
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("a Liger row has %d columns, not %d", desc->natts, LR_NCOLUMNS)));

	li = palloc0(sizeof(LigerIngest));
	li->work = AllocSetContextCreate(caller, "Liger ingestion", ALLOCSET_DEFAULT_SIZES);
	li->rowcxt = AllocSetContextCreate(li->work, "Liger row", ALLOCSET_DEFAULT_SIZES);
	li->chunkcxt = AllocSetContextCreate(li->work, "Liger rows stored whole",
										 ALLOCSET_DEFAULT_SIZES);
	MemoryContextSwitchTo(li->work);
	li->rows = trigdata->tg_newtable;
	li->rowtype = RelationGetForm(trigdata->tg_relation)->reltype;
	li->slot = MakeSingleTupleTableSlot(desc, &TTSOpsMinimalTuple);
	li->readptr = tuplestore_alloc_read_pointer(li->rows, EXEC_FLAG_REWIND);
	li->nrows = tuplestore_tuple_count(li->rows);
	li->rowinfo = MemoryContextAllocHuge(li->work, sizeof(LigerRowInfo) * Max(li->nrows, 1));
	li->configs.context = li->work;
	keytable_init(&li->group_keys, li->work);
	keytable_init(&li->series_keys, li->work);
	li->ngroups_cap = li->nseries_cap = 256;
	li->groups = palloc0(sizeof(LigerGroup) * li->ngroups_cap);
	li->series = palloc0(sizeof(LigerSeries) * li->nseries_cap);
	initStringInfo(&li->key);

	check_and_group(li);
	if (li->nbad > 0 && kidx_on_bad_row != KIDX_ON_BAD_ROW_QUARANTINE)
		report_bad_row(&li->bad);

	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	if (SPI_register_trigger_data(trigdata) != SPI_OK_TD_REGISTER)
		elog(ERROR, "could not register the transition table");
	if (li->nbad > 0)
		quarantine_bad_rows();
	if (li->group_keys.n > 0)
	{
		split_into_series(li);
		store_whole_rows(li);
		store_series_runs(li);
	}

	/* Every committed state of the staging table is empty. */
	if (SPI_execute("DELETE FROM kernelindex.liger_rows", false, 0) != SPI_OK_DELETE)
		elog(ERROR, "could not empty kernelindex.liger_rows");
	if (SPI_finish() != SPI_OK_FINISH)
		elog(ERROR, "SPI_finish failed");

	ExecDropSingleTupleTableSlot(li->slot);
	MemoryContextSwitchTo(caller);
	MemoryContextDelete(li->work);
	return PointerGetDatum(NULL);
}
