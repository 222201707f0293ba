/*-------------------------------------------------------------------------
 *
 * run_rows.c
 *	  COPY of any harness's results into kernelindex.run_rows: one run a
 *	  row, in the harness-neutral columns of doc/reference.md ("Any harness"):
 *
 *	    harness, harness_version, timer, kernel, pass, implementation,
 *	    workload, workload_label, gpu, observed_at, release, labels, status,
 *	    metric, unit, primary_statistic, median, p20, p80, mean, stddev,
 *	    min, max, samples
 *
 * kernelindex.run_rows is a view with three triggers.  Each row is checked
 * (run_row_fault, no exceptions: a bad row fails the statement, or is kept
 * in kernelindex.rejected_rows with kernelindex.on_bad_row = quarantine);
 * a good one is a run of its group (the rows that differ from it only in
 * their time and statistics), whose resources are made once per batch:
 *
 *   protocol        {harness {name}, measurement {metric, pass, timer}}
 *   workload        {kernel, parameters: the workload column}, labelled
 *   environment     the GPU, through kernelindex.gpus (a name the catalog
 *                   does not know is stored as written, and a NOTICE says so)
 *   implementation  {harness {name}, kernel, provider: the implementation}
 *
 * and becomes a run through the same flow as Liger's rows (row_ingest.c).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/pg_type.h"
#include "commands/trigger.h"
#include "executor/spi.h"
#include "lib/stringinfo.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/fmgrprotos.h"
#include "utils/jsonb.h"
#include "utils/memutils.h"
#include "utils/rel.h"

#include "batch.h"
#include "canonical.h"
#include "core/decimal.h"
#include "core/jcs.h"
#include "extension.h"
#include "intern.h"
#include "jsonb_build.h"
#include "kernelindex.h"
#include "catalog.h"
#include "messages.h"
#include "row_checks.h"
#include "row_ingest.h"
#include "run_layout.h"

PG_FUNCTION_INFO_V1(kidx_run_rows_begin);
PG_FUNCTION_INFO_V1(kidx_run_rows_row);
PG_FUNCTION_INFO_V1(kidx_run_rows_end);

/* Columns of kernelindex.run_rows (1-based), in the interface's order. */
typedef enum RwColumn
{
	RW_HARNESS = 1,
	RW_HARNESS_VERSION,
	RW_TIMER,
	RW_KERNEL,
	RW_PASS,
	RW_IMPLEMENTATION,
	RW_WORKLOAD,
	RW_WORKLOAD_LABEL,
	RW_GPU,
	RW_OBSERVED_AT,
	RW_RELEASE,
	RW_LABELS,
	RW_STATUS,
	RW_METRIC,
	RW_UNIT,
	RW_PRIMARY_STATISTIC,
	RW_MEDIAN,					/* the statistics, RW_MEDIAN + RwStatistic */
	RW_P20,
	RW_P80,
	RW_MEAN,
	RW_STDDEV,
	RW_MIN,
	RW_MAX,
	RW_SAMPLES
} RwColumn;
#define RW_NCOLUMNS RW_SAMPLES
#define RW_NSTATISTICS (RW_SAMPLES - RW_MEDIAN + 1)

static const char *const rw_column_names[RW_NCOLUMNS + 1] = {
	NULL, "harness", "harness_version", "timer", "kernel", "pass", "implementation",
	"workload", "workload_label", "gpu", "observed_at", "release", "labels", "status",
	"metric", "unit", "primary_statistic", "median", "p20", "p80", "mean", "stddev",
	"min", "max", "samples"
};

/* The value each statistic column becomes, by metric (RM_LATENCY, RM_MEMORY). */
static const RunValue rw_statistic_value[RM_N][RW_NSTATISTICS] = {
	[RM_LATENCY] = {RV_LATENCY, RV_LATENCY_P20, RV_LATENCY_P80, RV_LATENCY_MEAN,
	RV_LATENCY_STDDEV, RV_LATENCY_MIN, RV_LATENCY_MAX, RV_LATENCY_SAMPLES},
	[RM_MEMORY] = {RV_PEAK, RV_PEAK_P20, RV_PEAK_P80, RV_PEAK_MEAN,
	RV_PEAK_STDDEV, RV_PEAK_MIN, RV_PEAK_MAX, RV_PEAK_SAMPLES},
};

/* A unit and what a value written in it is multiplied by (ns or bytes). */
typedef struct RwUnit
{
	const char *name;
	RunMetric	metric;
	uint32		multiplier;
} RwUnit;

static const RwUnit rw_units[] = {
	{"s", RM_LATENCY, 1000000000}, {"ms", RM_LATENCY, 1000000},
	{"us", RM_LATENCY, 1000}, {"ns", RM_LATENCY, 1},
	{"B", RM_MEMORY, 1}, {"KiB", RM_MEMORY, 1024}, {"MiB", RM_MEMORY, 1048576},
	{"GiB", RM_MEMORY, 1073741824}, {"KB", RM_MEMORY, 1000}, {"MB", RM_MEMORY, 1000000},
	{"GB", RM_MEMORY, 1000000000},
};

/* The metric names of the metric column. */
static const char *const rw_metric_names[RM_N] = {"latency", "peak_memory"};

/* The default status, and what the name and title of a run cut. */
#define RW_STATUS_DEFAULT "passed"
#define RW_NAME_CUT 100

/* Groups remembered at once; the cache starts over when it is full. */
#define RW_GROUP_CACHE 16384

/* What a good row measured. */
typedef struct RwMeasures
{
	RunMetric	metric;
	int			primary;		/* RunStatistic */
	TimestampTz observed_at;
	bool		has[RW_NSTATISTICS];
	int64		v[RW_NSTATISTICS];
} RwMeasures;

/* A resource document of the statement, by the columns it comes from. */
typedef struct RwResource
{
	KidxDigest	digest;
	char	   *label;			/* a workload's label */
} RwResource;

/* A bad row kept for kernelindex.rejected_rows. */
typedef struct RwBadRow
{
	int64		ord;
	int			column;
	int			sqlstate;		/* what the row fails with when strict */
	char	   *reason;
	char	   *v[RW_NCOLUMNS + 1];
} RwBadRow;

/*
 * What the path keeps for a statement: the catalogs and the GPUs a NOTICE
 * has named (for the whole statement, in its cxt), and what refers to its
 * current batch (in the statement's chunk_cxt, made again with each batch:
 * rows_chunk()).
 */
typedef struct RowsState
{
	KidxCatalog *catalog;
	InternTable *unknown_gpus;	/* named by a NOTICE already */
	StringInfoData key;
	MemoryContext cxt;			/* the statement's chunk_cxt */
	MemoryContext groups_cxt;	/* the group cache's; reset when full */
	InternTable *group_keys;
	RowGroup  **groups;
	InternTable *res_keys[RR_N];
	RwResource *res[RR_N];
	int			capres[RR_N];
	RowTemplates *templates;
	RwBadRow   *bad;
	int			nbad;
	int			capbad;
	int64		nkept;			/* bad rows quarantined by the statement */
	MemoryContext row_cxt;		/* reset per row */
	MemoryContext build_cxt;	/* reset per resource document built */
} RowsState;

/* ----------------------------------------------------------------
 *		Checking a row
 * ----------------------------------------------------------------
 */

/* The unit named u, or NULL. */
static const RwUnit *
find_unit(const char *u)
{
	int			i;

	for (i = 0; i < lengthof(rw_units); i++)
		if (strcmp(rw_units[i].name, u) == 0)
			return &rw_units[i];
	return NULL;
}

/*
 * True if a whole number of ns or bytes is one canonical JSON carries: a
 * double holds it exactly (every number up to 2^53, some above), as the run
 * layout's writer requires.
 */
static bool
double_carries(int64 v)
{
	char		buf[MAXINT8LEN + 1];
	char		out[JCS_NUMBER_BUFLEN];
	size_t		outlen;
	int			len;

	if (v <= (INT64CONST(1) << 53))
		return true;
	len = pg_lltoa(v, buf);
	return jcs_number_from_decimal(buf, len, out, &outlen) == JCS_NUM_OK;
}

/* True if a number in the JSON grammar is below zero (-0 and -0.0 are not). */
static bool
negative(const char *num)
{
	return num[0] == '-' && strcspn(num, "123456789") < strcspn(num, "eE");
}

/*
 * A statistic as written, in a unit, to whole ns or bytes (what): a reason
 * if it cannot be.
 */
static const char *
statistic_fault(const char *value, uint32 multiplier, const char *what, int64 *out,
				int *sqlstate)
{
	const char *t;
	int			len;
	char	   *num;

	row_trim_range(value, &t, &len);
	num = pnstrdup(t, len);
	if (!row_is_json_number(num))
		return "not a decimal number";
	if (negative(num))
	{
		*sqlstate = ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE;
		return "negative";
	}
	switch (dec_scale_round_int64(num, len, multiplier, out))
	{
		case DEC_OK:
			break;
		case DEC_OUT_OF_RANGE:
			*sqlstate = ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE;
			return psprintf("too large: its conversion to %s does not fit in bigint", what);
		default:
			return "not a decimal number";
	}
	if (!double_carries(*out))
	{
		*sqlstate = ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE;
		return psprintf("its conversion, " INT64_FORMAT " %s, " KIDX_DOUBLE_CANNOT_CARRY,
						*out, what);
	}
	return NULL;
}

/* The number of samples: a whole number of at least 0; a reason if not. */
static const char *
samples_fault(const char *value, int64 *out, int *sqlstate)
{
	char	   *t = row_trimmed(value);

	if (!row_is_json_number(t) || strpbrk(t, ".eE") != NULL)
		return "not a whole number of samples";
	if (negative(t))
	{
		*sqlstate = ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE;
		return "negative";
	}
	if (dec_scale_round_int64(t, strlen(t), 1, out) != DEC_OK)
	{
		*sqlstate = ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE;
		return "too large for bigint";
	}
	if (!double_carries(*out))
	{
		*sqlstate = ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE;
		return KIDX_DOUBLE_CANNOT_CARRY;
	}
	return NULL;
}

/* Reason the labels are not a JSON object of strings, or NULL. */
static const char *
labels_fault(const char *value, int *sqlstate)
{
	const char *reason = row_json_object_fault(value, sqlstate);
	Jsonb	   *jb;
	JsonbIterator *it;
	JsonbIteratorToken tok;
	JsonbValue	v;
	JsonbValue	key = {0};

	if (reason != NULL)
		return reason;
	jb = DatumGetJsonbP(DirectFunctionCall1(jsonb_in, CStringGetDatum(value)));
	it = JsonbIteratorInit(&jb->root);
	while ((tok = JsonbIteratorNext(&it, &v, true)) != WJB_DONE)
	{
		if (tok == WJB_KEY)
			key = v;
		else if (tok == WJB_VALUE && v.type != jbvString)
			return psprintf("the label \"%.*s\" is not a string (labels are an object of strings)",
							key.val.string.len, key.val.string.val);
	}
	return NULL;
}

/*
 * The first fault of a row (v[1..RW_NCOLUMNS], NULL for a column the COPY
 * does not name or SQL NULL): its reason, column and SQLSTATE, or NULL for
 * a good row, whose time and statistics are then in *m.
 */
static const char *
run_row_fault(char **v, int *column, int *sqlstate, RwMeasures *m)
{
	static const int required[] = {RW_HARNESS, RW_KERNEL, RW_IMPLEMENTATION, RW_GPU,
	RW_OBSERVED_AT, RW_UNIT};
	const RwUnit *unit;
	const char *reason;
	int			i;

	*sqlstate = ERRCODE_INVALID_TEXT_REPRESENTATION;
	memset(m, 0, sizeof(*m));
	for (i = 0; i < lengthof(required); i++)
		if (v[required[i]] == NULL || row_is_blank(v[required[i]]))
		{
			*column = required[i];
			*sqlstate = ERRCODE_NOT_NULL_VIOLATION;
			return "empty required field";
		}

	*column = RW_METRIC;
	m->metric = RM_LATENCY;
	if (v[RW_METRIC] != NULL && !row_is_blank(v[RW_METRIC]))
	{
		char	   *metric = row_trimmed(v[RW_METRIC]);

		for (i = 0; i < RM_N && strcmp(metric, rw_metric_names[i]) != 0; i++)
			;
		if (i == RM_N)
			return "unknown metric, expected \"latency\" or \"peak_memory\"";
		m->metric = i;
	}
	*column = RW_UNIT;
	unit = find_unit(row_trimmed(v[RW_UNIT]));
	if (unit != NULL && unit->metric != m->metric)
		return m->metric == RM_LATENCY ?
			"a unit of peak_memory, not of latency (s, ms, us or ns); "
			"a row of peak memory says metric peak_memory" :
			"a unit of latency, not of peak_memory (B, KiB, MiB, GiB, KB, MB or GB)";
	if (unit == NULL)
		return m->metric == RM_LATENCY ?
			"unknown unit for latency, expected s, ms, us or ns" :
			"unknown unit for peak_memory, expected B, KiB, MiB, GiB, KB, MB or GB";

	for (i = 0; i < RW_NSTATISTICS; i++)
	{
		const char *s = v[RW_MEDIAN + i];

		if (s == NULL || row_is_blank(s))
			continue;
		*column = RW_MEDIAN + i;
		reason = RW_MEDIAN + i == RW_SAMPLES ?
			samples_fault(s, &m->v[i], sqlstate) :
			statistic_fault(s, unit->multiplier, m->metric == RM_LATENCY ? "ns" : "bytes",
							&m->v[i], sqlstate);
		if (reason != NULL)
			return reason;
		m->has[i] = true;
	}

	/* the primary statistic: named, else median, mean or min, the first given */
	*column = RW_PRIMARY_STATISTIC;
	if (v[RW_PRIMARY_STATISTIC] != NULL && !row_is_blank(v[RW_PRIMARY_STATISTIC]))
	{
		char	   *p = row_trimmed(v[RW_PRIMARY_STATISTIC]);

		for (i = 0; i < RS_N && strcmp(p, run_statistic_name[i]) != 0; i++)
			;
		if (i == RS_N)
			return "unknown statistic, expected median, mean or min";
		m->primary = i;
	}
	else if (m->has[RW_MEDIAN - RW_MEDIAN])
		m->primary = RS_MEDIAN;
	else if (m->has[RW_MEAN - RW_MEDIAN])
		m->primary = RS_MEAN;
	else
		m->primary = RS_MIN;
	if (!m->has[(m->primary == RS_MEDIAN ? RW_MEDIAN : m->primary == RS_MEAN ? RW_MEAN : RW_MIN) - RW_MEDIAN])
	{
		*sqlstate = ERRCODE_NOT_NULL_VIOLATION;
		if (v[RW_PRIMARY_STATISTIC] != NULL && !row_is_blank(v[RW_PRIMARY_STATISTIC]))
			return "the statistic it names has no value in this row";
		*column = RW_MEDIAN;
		return "no median, mean or min: a row needs one of them, the statistic it is compared on";
	}

	if (v[RW_WORKLOAD] != NULL && !row_is_blank(v[RW_WORKLOAD]))
	{
		*column = RW_WORKLOAD;
		reason = row_json_object_fault(v[RW_WORKLOAD], sqlstate);
		if (reason != NULL)
			return reason;
	}
	if (v[RW_LABELS] != NULL && !row_is_blank(v[RW_LABELS]))
	{
		*column = RW_LABELS;
		reason = labels_fault(v[RW_LABELS], sqlstate);
		if (reason != NULL)
			return reason;
	}
	*column = RW_OBSERVED_AT;
	reason = row_timestamptz_fault(v[RW_OBSERVED_AT], &m->observed_at);
	if (reason != NULL)
	{
		*sqlstate = ERRCODE_INVALID_DATETIME_FORMAT;
		return reason;
	}
	return NULL;
}

/* Fail the statement on a bad row. */
static void
report_bad_row(int64 ord, int column, int sqlstate, const char *reason, char **v)
{
#define SHOWN(c) row_shown_value(v[c])
	ereport(ERROR,
			(errcode(sqlstate),
			 errmsg("bad value \"%s\" in column %s (row " INT64_FORMAT " of this COPY): %s",
					row_shown_value(v[column]), rw_column_names[column], ord, reason),
			 errdetail("The row is harness \"%s\", kernel \"%s\", pass \"%s\", implementation \"%s\", "
					   "gpu \"%s\", workload_label \"%s\", observed_at \"%s\". Nothing was stored.",
					   SHOWN(RW_HARNESS), SHOWN(RW_KERNEL), SHOWN(RW_PASS),
					   SHOWN(RW_IMPLEMENTATION), SHOWN(RW_GPU), SHOWN(RW_WORKLOAD_LABEL),
					   SHOWN(RW_OBSERVED_AT)),
			 errhint("Fix the row, or SET kernelindex.on_bad_row = 'quarantine' "
					 "to store the good rows and keep the bad ones, with their "
					 "reason, in kernelindex.rejected_rows.")));
#undef SHOWN
}

/* ----------------------------------------------------------------
 *		Groups and their resources
 * ----------------------------------------------------------------
 */

/* Start over the cache of groups (in a context of its own). */
static void
reset_groups(RowsState *rs)
{
	if (rs->groups_cxt != NULL)
		MemoryContextDelete(rs->groups_cxt);
	rs->groups_cxt = AllocSetContextCreate(rs->cxt, "kernelindex run_rows groups",
										   ALLOCSET_DEFAULT_SIZES);
	rs->group_keys = intern_create(rs->groups_cxt);
	rs->groups = MemoryContextAlloc(rs->groups_cxt, sizeof(RowGroup *) * RW_GROUP_CACHE);
}

/* What the path keeps for the batch the statement begins now. */
static void
rows_chunk(RowsState *rs, MemoryContext chunk_cxt)
{
	int			i;

	rs->cxt = chunk_cxt;
	rs->groups_cxt = NULL;
	reset_groups(rs);
	for (i = 0; i < RR_N; i++)
	{
		rs->res_keys[i] = intern_create(chunk_cxt);
		rs->res[i] = NULL;
		rs->capres[i] = 0;
	}
	rs->templates = row_templates_create(chunk_cxt);
	rs->bad = NULL;
	rs->nbad = rs->capbad = 0;
	rs->row_cxt = AllocSetContextCreate(chunk_cxt, "kernelindex run_rows row", ALLOCSET_DEFAULT_SIZES);
	rs->build_cxt = AllocSetContextCreate(chunk_cxt, "kernelindex run_rows documents",
										  ALLOCSET_DEFAULT_SIZES);
}

/* Append a string (NULL distinct from empty) to a key being built. */
static void
key_append(StringInfo key, const char *s)
{
	int			len = s ? (int) strlen(s) : -1;

	appendBinaryStringInfo(key, (char *) &len, sizeof(len));
	if (len > 0)
		appendBinaryStringInfo(key, s, len);
}

/* Parts joined by " · " (in the server's encoding), NULL parts left out. */
static char *
dotted(const char *a, const char *b, const char *c)
{
	const char *dot = pg_any_to_server(" \xc2\xb7 ", 4, PG_UTF8);
	StringInfoData s;
	const char *parts[3] = {a, b, c};
	int			i;

	initStringInfo(&s);
	for (i = 0; i < 3; i++)
		if (parts[i] != NULL)
			appendStringInfo(&s, "%s%s", s.len ? dot : "", parts[i]);
	return s.data;
}

/* A column's trimmed value, NULL for absent or blank. */
static char *
column(char **v, int c)
{
	return v[c] == NULL || row_is_blank(v[c]) ? NULL : row_trimmed(v[c]);
}

/* A name made of parts, slugged, cut as names are. */
static char *
slug_name(const char *a, const char *b, const char *c, const char *d)
{
	StringInfoData s;
	const char *parts[4] = {a, b, c, d};
	int			i;

	initStringInfo(&s);
	for (i = 0; i < 4; i++)
		if (parts[i] != NULL)
			appendStringInfo(&s, "%s%s", s.len ? "-" : "", kidx_slug(parts[i]));
	return s.data;
}

/*
 * A workload's label made from its parameters: key=value, in the order of
 * the keys (jsonb's), strings as written, other values as canonical JSON;
 * "default" without parameters.
 */
static char *
made_label(Jsonb *params)
{
	StringInfoData s;
	JsonbIterator *it = JsonbIteratorInit(&params->root);
	JsonbIteratorToken tok;
	JsonbValue	v;

	initStringInfo(&s);
	while ((tok = JsonbIteratorNext(&it, &v, true)) != WJB_DONE)
	{
		if (tok == WJB_KEY)
			appendStringInfo(&s, "%s%.*s=", s.len ? "," : "", v.val.string.len, v.val.string.val);
		else if (tok == WJB_VALUE && v.type == jbvString)
			appendBinaryStringInfo(&s, v.val.string.val, v.val.string.len);
		else if (tok == WJB_VALUE)
		{
			int			len;
			char	   *text = canon_value_text(&v, &len);

			appendBinaryStringInfo(&s, text, len);
		}
	}
	return s.len ? s.data : pstrdup("default");
}

/* The BenchmarkProtocol of a harness, timer, pass and metric. */
static Jsonb *
protocol_document(const char *harness, const char *timer, const char *pass, RunMetric metric)
{
	JsonbParseState *st = NULL;

	jb_resource(&st, "BenchmarkProtocol");
	jb_string(&st, "name", slug_name(harness, timer, pass,
									 metric == RM_MEMORY ? "peak-memory" : NULL));
	jb_string(&st, "title", dotted(harness, pass ? psprintf("%s pass", pass) : "every pass",
								   metric == RM_MEMORY ? "peak memory" : NULL));
	jb_end(&st);
	jb_begin(&st, "spec");
	jb_begin(&st, "harness");
	jb_string(&st, "name", harness);
	jb_end(&st);
	jb_begin(&st, "measurement");
	jb_string(&st, "metric", rw_metric_names[metric]);
	jb_string_or_none(&st, "pass", pass);
	jb_string_or_none(&st, "timer", timer);
	jb_end(&st);
	jb_end(&st);
	return JsonbValueToJsonb(jb_end(&st));
}

/* The Workload of a kernel and its parameters, labelled. */
static Jsonb *
workload_document(const char *kernel, Jsonb *params, const char *label)
{
	JsonbParseState *st = NULL;
	JsonbValue	p;

	jb_resource(&st, "Workload");
	jb_string(&st, "name", slug_name(kernel, label, NULL, NULL));
	jb_begin(&st, "labels");
	jb_string(&st, "label", label);
	jb_end(&st);
	jb_end(&st);
	jb_begin(&st, "spec");
	jb_string(&st, "kernel", kernel);
	p.type = jbvBinary;
	p.val.binary.data = &params->root;
	p.val.binary.len = VARSIZE(params) - VARHDRSZ;
	jb_value(&st, "parameters", &p);
	jb_end(&st);
	return JsonbValueToJsonb(jb_end(&st));
}

/* The Implementation of a harness's kernel. */
static Jsonb *
implementation_document(const KidxCatalog *c, const char *harness, const char *kernel,
						const char *implementation)
{
	JsonbParseState *st = NULL;

	jb_resource(&st, "Implementation");
	jb_string(&st, "name", slug_name(harness, "impl", kernel, implementation));
	jb_string(&st, "title", dotted(catalog_kernel_title(c, kernel),
								   catalog_provider_title(c, implementation), NULL));
	jb_end(&st);
	jb_begin(&st, "spec");
	jb_begin(&st, "harness");
	jb_string(&st, "name", harness);
	jb_end(&st);
	jb_string(&st, "kernel", kernel);
	jb_string(&st, "provider", implementation);
	jb_end(&st);
	return JsonbValueToJsonb(jb_end(&st));
}

/*
 * A resource document of the batch, built the first time its columns are
 * met, and handed to the batch.
 */
static RwResource *
group_resource(BatchStatement *st, RowsState *rs, char **v, RunRef kind, RunMetric metric,
			   int64 ord)
{
	static const int columns[RR_N][4] = {
		[RR_PROTOCOL] = {RW_HARNESS, RW_TIMER, RW_PASS},
		[RR_WORKLOAD] = {RW_KERNEL, RW_WORKLOAD, RW_WORKLOAD_LABEL},
		[RR_ENVIRONMENT] = {RW_GPU},
		[RR_IMPLEMENTATION] = {RW_HARNESS, RW_KERNEL, RW_IMPLEMENTATION},
	};
	StringInfoData key;
	RwResource *r;
	Jsonb	   *doc = NULL;
	MemoryContext old;
	bool		isnew;
	int			n;
	int			c;

	initStringInfo(&key);
	for (c = 0; c < 4 && columns[kind][c] != 0; c++)
		key_append(&key, column(v, columns[kind][c]));
	if (kind == RR_PROTOCOL)
		appendStringInfoChar(&key, '0' + metric);
	n = intern_add(rs->res_keys[kind], key.data, key.len, &isnew);
	pfree(key.data);
	if (!isnew)
		return &rs->res[kind][n];
	old = MemoryContextSwitchTo(rs->cxt);
	if (n == rs->capres[kind])
	{
		rs->capres[kind] = rs->capres[kind] ? rs->capres[kind] * 2 : 64;
		rs->res[kind] = rs->res[kind] ?
			repalloc_huge(rs->res[kind], sizeof(RwResource) * rs->capres[kind]) :
			palloc(sizeof(RwResource) * rs->capres[kind]);
	}
	r = &rs->res[kind][n];
	r->label = NULL;
	MemoryContextSwitchTo(rs->build_cxt);
	switch (kind)
	{
		case RR_PROTOCOL:
			doc = protocol_document(column(v, RW_HARNESS), column(v, RW_TIMER),
									column(v, RW_PASS), metric);
			break;
		case RR_WORKLOAD:
			{
				char	   *w = column(v, RW_WORKLOAD);
				Jsonb	   *params = DatumGetJsonbP(DirectFunctionCall1(jsonb_in,
																		CStringGetDatum(w ? w : "{}")));
				char	   *label = column(v, RW_WORKLOAD_LABEL);

				if (label == NULL)
					label = made_label(params);
				doc = workload_document(column(v, RW_KERNEL), params, label);
				r->label = MemoryContextStrdup(rs->cxt, label);
			}
			break;
		case RR_ENVIRONMENT:
			{
				const char *gpu = column(v, RW_GPU);
				bool		known;

				doc = catalog_environment_document(rs->catalog, gpu, "gpu-", "GPU", &known);
				if (!known)
				{
					intern_add(rs->unknown_gpus, gpu, strlen(gpu), &isnew);
					if (isnew)
					{
						const char *vendor = catalog_vendor_of_name(gpu);

						ereport(NOTICE,
								(vendor != NULL ?
								 errmsg("GPU \"%s\" is not in kernelindex.gpus: stored with product \"%s\" as written and vendor \"%s\" from its name",
										row_shown_value(gpu), row_shown_value(gpu), vendor) :
								 errmsg("GPU \"%s\" is not in kernelindex.gpus: stored with product \"%s\" as written and no vendor",
										row_shown_value(gpu), row_shown_value(gpu)),
								 errhint("To describe it (vendor, product, form factor, architecture), INSERT INTO kernelindex.gpus before loading; environments already stored keep what they say.")));
					}
				}
			}
			break;
		case RR_IMPLEMENTATION:
			doc = implementation_document(rs->catalog, column(v, RW_HARNESS), column(v, RW_KERNEL),
										  column(v, RW_IMPLEMENTATION));
			break;
		case RR_N:
			break;
	}
	kidx_jsonb_resource_digest(doc, &r->digest);
	batch_resource(st->batch, kind, &r->digest, doc, ord);	/* (copies it) */
	MemoryContextSwitchTo(old);
	MemoryContextReset(rs->build_cxt);
	return r;
}

/*
 * The label set of a row: its labels column, with release and
 * harness_version added; NULL if the row has none.  A release the labels
 * name otherwise is a fault.
 */
static Jsonb *
row_labels(char **v, const char **fault)
{
	JsonbParseState *st = NULL;
	char	   *labels = column(v, RW_LABELS);
	const char *release = column(v, RW_RELEASE);
	const char *version = column(v, RW_HARNESS_VERSION);
	Jsonb	   *jb = NULL;
	JsonbIterator *it;
	JsonbIteratorToken tok;
	JsonbValue	x;
	JsonbValue *r;

	*fault = NULL;
	if (labels == NULL && release == NULL && version == NULL)
		return NULL;
	if (labels != NULL)
	{
		jb = DatumGetJsonbP(DirectFunctionCall1(jsonb_in, CStringGetDatum(labels)));
		r = getKeyJsonValueFromContainer(&jb->root, "release", 7, NULL);
		if (release != NULL && r != NULL &&
			(r->val.string.len != (int) strlen(release) ||
			 memcmp(r->val.string.val, release, r->val.string.len) != 0))
			*fault = "its \"release\" label is not the release column's";
		r = getKeyJsonValueFromContainer(&jb->root, "harness_version", 15, NULL);
		if (version != NULL && r != NULL &&
			(r->val.string.len != (int) strlen(version) ||
			 memcmp(r->val.string.val, version, r->val.string.len) != 0))
			*fault = "its \"harness_version\" label is not the harness_version column's";
	}
	pushJsonbValue(&st, WJB_BEGIN_OBJECT, NULL);
	if (jb != NULL)
	{
		it = JsonbIteratorInit(&jb->root);
		while ((tok = JsonbIteratorNext(&it, &x, true)) != WJB_DONE)
			if (tok == WJB_KEY || tok == WJB_VALUE)
				pushJsonbValue(&st, tok, &x);
	}
	if (release != NULL)
		jb_string(&st, "release", release);
	if (version != NULL)
		jb_string(&st, "harness_version", version);
	return JsonbValueToJsonb(pushJsonbValue(&st, WJB_END_OBJECT, NULL));
}

/* A group's resources and what its runs share. */
static RowGroup *
resolve_group(BatchStatement *st, RowsState *rs, char **v, const RwMeasures *m,
			  Jsonb *labels, int64 ord)
{
	RowGroup   *g = MemoryContextAllocZero(rs->groups_cxt, sizeof(RowGroup));
	MemoryContext old = MemoryContextSwitchTo(rs->groups_cxt);
	const char *harness = column(v, RW_HARNESS);
	const char *kernel = column(v, RW_KERNEL);
	const char *pass = column(v, RW_PASS);
	const char *implementation = column(v, RW_IMPLEMENTATION);
	const char *status = column(v, RW_STATUS);
	const char *label;
	char	   *stem;
	int			k;

	g->memory = m->metric == RM_MEMORY;
	for (k = 0; k < RR_N; k++)
		g->parts.ref[k] = group_resource(st, rs, v, k, m->metric, ord)->digest;
	label = group_resource(st, rs, v, RR_WORKLOAD, m->metric, ord)->label;
	g->parts.text[RT_TITLE] = dotted(catalog_kernel_title(rs->catalog, kernel), implementation, pass);
	g->parts.text[RT_STATUS] = status ? status : RW_STATUS_DEFAULT;
	g->parts.text[RT_SOURCE] = harness;
	g->parts.text[RT_BENCHMARK] = pass ? psprintf("%s/%s", kernel, pass) : pstrdup(kernel);
	g->parts.labels = labels;
	g->primary_statistic = run_statistic_name[m->primary];
	g->native_unit = NULL;
	stem = psprintf("%s/%s/%s/%s/", g->parts.text[RT_BENCHMARK], implementation,
					kidx_slug(column(v, RW_GPU)), label);
	g->external_id_stem = stem;
	g->name_stem = psprintf("%s-%s-", kidx_slug(harness), kidx_slug(stem));
	g->name_cut = RW_NAME_CUT;
	g->workload_label = batch_workload_label(st->batch, &g->parts.ref[RR_WORKLOAD], ord);
	MemoryContextSwitchTo(old);
	return g;
}

/* The key of a row's group (every column but its time and statistics). */
static void
group_key(RowsState *rs, char **v, const RwMeasures *m)
{
	int			c;

	resetStringInfo(&rs->key);
	for (c = 1; c < RW_MEDIAN; c++)
		if (c != RW_OBSERVED_AT && c != RW_METRIC && c != RW_PRIMARY_STATISTIC && c != RW_UNIT)
			key_append(&rs->key, column(v, c));
	appendStringInfo(&rs->key, "%d%d", m->metric, m->primary);
}

/* ----------------------------------------------------------------
 *		The triggers
 * ----------------------------------------------------------------
 */

/* Keep the batch's bad rows in kernelindex.rejected_rows. */
static void
quarantine(RowsState *rs)
{
	/* per bad row: position, column, value, reason, columns, SQLSTATE */
	Oid			argtypes[6] = {INT8ARRAYOID, TEXTARRAYOID, TEXTARRAYOID, TEXTARRAYOID, JSONBARRAYOID,
	TEXTARRAYOID};
	Datum		args[6];
	Datum	   *elems[6];
	bool	   *nulls[6];
	int			i;
	int			c;

	for (c = 0; c < lengthof(args); c++)
	{
		elems[c] = palloc(sizeof(Datum) * rs->nbad);
		nulls[c] = palloc0(sizeof(bool) * rs->nbad);
	}
	for (i = 0; i < rs->nbad; i++)
	{
		RwBadRow   *b = &rs->bad[i];
		JsonbParseState *st = NULL;

		elems[0][i] = Int64GetDatum(b->ord);
		elems[1][i] = CStringGetTextDatum(rw_column_names[b->column]);
		nulls[2][i] = b->v[b->column] == NULL;
		if (!nulls[2][i])
			elems[2][i] = CStringGetTextDatum(row_shown_value(b->v[b->column]));
		elems[3][i] = CStringGetTextDatum(b->reason);
		pushJsonbValue(&st, WJB_BEGIN_OBJECT, NULL);
		for (c = 1; c <= RW_NCOLUMNS; c++)
			if (b->v[c] != NULL)
				jb_string(&st, rw_column_names[c], b->v[c]);
		elems[4][i] = JsonbPGetDatum(JsonbValueToJsonb(pushJsonbValue(&st, WJB_END_OBJECT, NULL)));
		elems[5][i] = CStringGetTextDatum(unpack_sql_state(b->sqlstate));
	}
	args[0] = kidx_datum_array(elems[0], nulls[0], rs->nbad, INT8OID);
	for (c = 1; c < 4; c++)
		args[c] = kidx_datum_array(elems[c], nulls[c], rs->nbad, TEXTOID);
	args[4] = kidx_datum_array(elems[4], nulls[4], rs->nbad, JSONBOID);
	args[5] = kidx_datum_array(elems[5], nulls[5], rs->nbad, TEXTOID);
	kidx_spi_connect();
	kidx_spi_execute("INSERT INTO kernelindex.rejected_rows (source, row_number, column_name, bad_value, reason, fields,"
					 " sqlstate) SELECT 'run_rows', u.* FROM ROWS FROM (pg_catalog.unnest($1), pg_catalog.unnest($2),"
					 " pg_catalog.unnest($3), pg_catalog.unnest($4), pg_catalog.unnest($5), pg_catalog.unnest($6))"
					 " AS u ORDER BY 1",
					 lengthof(args), argtypes, args, NULL, false, 0);
	SPI_finish();
	rs->nkept += rs->nbad;
}

/* Before a batch is stored: the bad rows kept so far go with it. */
static void
rows_on_chunk(BatchStatement *st)
{
	RowsState  *rs = (RowsState *) st->path;

	if (rs->nbad > 0)
		quarantine(rs);
	rs->nbad = 0;
}

/* BEFORE INSERT FOR EACH STATEMENT on kernelindex.run_rows. */
Datum
kidx_run_rows_begin(PG_FUNCTION_ARGS)
{
	TriggerData *td = (TriggerData *) fcinfo->context;
	BatchStatement *st;
	RowsState  *rs;
	MemoryContext old;

	if (!CALLED_AS_TRIGGER(fcinfo) || !TRIGGER_FIRED_FOR_STATEMENT(td->tg_event))
		elog(ERROR, "kidx_run_rows_begin: not called as a statement trigger");
	if (RelationGetDescr(td->tg_relation)->natts != RW_NCOLUMNS)
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("a run_rows row has %d columns, not %d",
						RelationGetDescr(td->tg_relation)->natts, RW_NCOLUMNS)));
	st = batch_statement_begin(RelationGetRelid(td->tg_relation));
	batch_statement_items(st, "row");
	old = MemoryContextSwitchTo(st->cxt);
	rs = palloc0(sizeof(RowsState));
	rs->catalog = kidx_catalog_read();
	rs->unknown_gpus = intern_create(st->cxt);
	initStringInfo(&rs->key);
	MemoryContextSwitchTo(old);
	rows_chunk(rs, st->chunk_cxt);
	st->path = rs;
	st->on_chunk = rows_on_chunk;
	return PointerGetDatum(NULL);
}

/* INSTEAD OF INSERT FOR EACH ROW on kernelindex.run_rows. */
Datum
kidx_run_rows_row(PG_FUNCTION_ARGS)
{
	TriggerData *td = (TriggerData *) fcinfo->context;
	BatchStatement *st;
	RowsState  *rs;
	Datum		values[RW_NCOLUMNS];
	bool		nulls[RW_NCOLUMNS];
	char	   *v[RW_NCOLUMNS + 1];
	const char *reason;
	int			col;
	int			sqlstate;
	RwMeasures	m;
	Jsonb	   *labels = NULL;
	int			g;
	int			i;

	if (!CALLED_AS_TRIGGER(fcinfo) || !TRIGGER_FIRED_INSTEAD(td->tg_event))
		elog(ERROR, "kidx_run_rows_row: not called as an INSTEAD OF trigger");
	st = batch_statement_current(RelationGetRelid(td->tg_relation));
	rs = (RowsState *) st->path;
	st->rows++;
	heap_deform_tuple(td->tg_trigtuple, RelationGetDescr(td->tg_relation), values, nulls);
	v[0] = NULL;
	for (i = 1; i <= RW_NCOLUMNS; i++)
		v[i] = nulls[i - 1] ? NULL : TextDatumGetCString(values[i - 1]);

	reason = run_row_fault(v, &col, &sqlstate, &m);
	if (reason == NULL)
	{
		group_key(rs, v, &m);
		g = intern_find(rs->group_keys, rs->key.data, rs->key.len);
		if (g < 0)
		{
			labels = row_labels(v, &reason);
			if (reason != NULL)
			{
				col = RW_LABELS;
				sqlstate = ERRCODE_INVALID_PARAMETER_VALUE;
			}
		}
	}
	if (reason != NULL)
	{
		RwBadRow   *bad;
		MemoryContext old;

		if (kidx_on_bad_row != KIDX_ON_BAD_ROW_QUARANTINE)
			report_bad_row(st->rows, col, sqlstate, reason, v);
		old = MemoryContextSwitchTo(rs->cxt);
		if (rs->nbad == rs->capbad)
		{
			rs->capbad = rs->capbad ? rs->capbad * 2 : 16;
			rs->bad = rs->bad ? repalloc_huge(rs->bad, sizeof(RwBadRow) * rs->capbad) :
				palloc(sizeof(RwBadRow) * rs->capbad);
		}
		bad = &rs->bad[rs->nbad++];
		bad->ord = st->rows;
		bad->column = col;
		bad->sqlstate = sqlstate;
		bad->reason = pstrdup(reason);
		for (i = 1; i <= RW_NCOLUMNS; i++)
			bad->v[i] = v[i] ? pstrdup(v[i]) : NULL;
		MemoryContextSwitchTo(old);
	}
	else
	{
		MemoryContext old;
		RunValues	rv;

		if (g < 0)
		{
			bool		isnew;

			if (intern_count(rs->group_keys) == RW_GROUP_CACHE)
				reset_groups(rs);
			g = intern_add(rs->group_keys, rs->key.data, rs->key.len, &isnew);
			rs->groups[g] = resolve_group(st, rs, v, &m, labels, st->rows);
		}
		old = MemoryContextSwitchTo(rs->row_cxt);
		memset(&rv, 0, sizeof(rv));
		rv.observed_at = m.observed_at;
		for (i = 0; i < RW_NSTATISTICS; i++)
			if (m.has[i])
			{
				RunValue	k = rw_statistic_value[m.metric][i];

				rv.has[k] = true;
				rv.v[k] = m.v[i];
			}
		MemoryContextSwitchTo(old);
		row_add_run(st, rs->templates, rs->groups[g], &rv, st->rows, rs->row_cxt);
	}
	if (batch_statement_full(st))
	{
		batch_statement_flush(st);
		rows_chunk(rs, st->chunk_cxt);
	}
	return batch_row_result(td);
}

/* AFTER INSERT FOR EACH STATEMENT on kernelindex.run_rows. */
Datum
kidx_run_rows_end(PG_FUNCTION_ARGS)
{
	TriggerData *td = (TriggerData *) fcinfo->context;
	BatchStatement *st;
	RowsState  *rs;

	if (!CALLED_AS_TRIGGER(fcinfo) || !TRIGGER_FIRED_FOR_STATEMENT(td->tg_event))
		elog(ERROR, "kidx_run_rows_end: not called as a statement trigger");
	st = batch_statement_end(RelationGetRelid(td->tg_relation));
	batch_statement_finish(st);
	rs = (RowsState *) st->path;
	if (rs->nkept > 0)
		ereport(WARNING,
				(errmsg_plural("kernelindex: " INT64_FORMAT " of the " INT64_FORMAT " rows of this statement was not stored: it is kept in kernelindex.rejected_rows",
							   "kernelindex: " INT64_FORMAT " of the " INT64_FORMAT " rows of this statement were not stored: they are kept in kernelindex.rejected_rows",
							   rs->nkept, rs->nkept, st->rows),
				 errdetail("Each is kept verbatim (source run_rows, its columns in fields) with the column, value and reason of its fault.")));
	MemoryContextDelete(st->cxt);
	return PointerGetDatum(NULL);
}
