/*-------------------------------------------------------------------------
 *
 * run_store.c
 *	  How a run is stored (see run_store.h).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/tupdesc.h"
#include "catalog/pg_type.h"
#include "funcapi.h"
#include "utils/builtins.h"
#include "utils/tuplestore.h"

#include "extension.h"
#include "run_store.h"

const char *const dict_table[DK_N] = {
	"run_titles", "run_statuses", "run_sources", "run_benchmarks",
	"run_strings", "run_labels", "run_templates"
};

const DictKind run_text_dict[RT_N] = {
	DK_TITLE, DK_STATUS, DK_SOURCE, DK_BENCHMARK, DK_STRING, DK_STRING
};

const RunColumnInfo run_column[RC_N] = {
	[RC_COMPARABILITY_KEY] = {"comparability_key", CT_DIGEST, "comparability_keys", "key"},
	[RC_DIGEST] = {"digest", CT_DIGEST, NULL, NULL},
	[RC_OBSERVED_AT] = {"observed_at", CT_TIMESTAMPTZ, NULL, NULL},
	[RC_IMPLEMENTATION] = {"implementation_id", CT_INT4, "implementations", "id"},
	[RC_TEMPLATE] = {"template_id", CT_INT4, "run_templates", "id"},
	[RC_LABELS] = {"labels_id", CT_INT4, "run_labels", "id"},
	[RC_TITLE] = {"title_id", CT_INT4, "run_titles", "id"},
	[RC_STATUS] = {"status_id", CT_INT4, "run_statuses", "id"},
	[RC_SOURCE] = {"source_id", CT_INT4, "run_sources", "id"},
	[RC_BENCHMARK] = {"benchmark_id", CT_INT4, "run_benchmarks", "id"},
	[RC_NAME] = {"name_id", CT_INT4, "run_strings", "id"},
	[RC_EXTERNAL_ID] = {"external_id_id", CT_INT4, "run_strings", "id"},
	[RC_VALUE0 + RV_LATENCY] = {"latency_ns", CT_INT8, NULL, NULL},
	[RC_VALUE0 + RV_LATENCY_P20] = {"latency_ns_p20", CT_INT8, NULL, NULL},
	[RC_VALUE0 + RV_LATENCY_P80] = {"latency_ns_p80", CT_INT8, NULL, NULL},
	[RC_VALUE0 + RV_PEAK] = {"peak_bytes", CT_INT8, NULL, NULL},
	[RC_VALUE0 + RV_PEAK_P20] = {"peak_bytes_p20", CT_INT8, NULL, NULL},
	[RC_VALUE0 + RV_PEAK_P80] = {"peak_bytes_p80", CT_INT8, NULL, NULL},
	[RC_VALUE0 + RV_LATENCY_MEAN] = {"latency_ns_mean", CT_INT8, NULL, NULL},
	[RC_VALUE0 + RV_LATENCY_STDDEV] = {"latency_ns_stddev", CT_INT8, NULL, NULL},
	[RC_VALUE0 + RV_LATENCY_MIN] = {"latency_ns_min", CT_INT8, NULL, NULL},
	[RC_VALUE0 + RV_LATENCY_MAX] = {"latency_ns_max", CT_INT8, NULL, NULL},
	[RC_VALUE0 + RV_LATENCY_SAMPLES] = {"latency_samples", CT_INT8, NULL, NULL},
	[RC_VALUE0 + RV_PEAK_MEAN] = {"peak_bytes_mean", CT_INT8, NULL, NULL},
	[RC_VALUE0 + RV_PEAK_STDDEV] = {"peak_bytes_stddev", CT_INT8, NULL, NULL},
	[RC_VALUE0 + RV_PEAK_MIN] = {"peak_bytes_min", CT_INT8, NULL, NULL},
	[RC_VALUE0 + RV_PEAK_MAX] = {"peak_bytes_max", CT_INT8, NULL, NULL},
	[RC_VALUE0 + RV_PEAK_SAMPLES] = {"peak_samples", CT_INT8, NULL, NULL},
	[RC_NATIVE0] = {"native_p20", CT_NUMERIC, NULL, NULL},
	[RC_NATIVE0 + 1] = {"native_p50", CT_NUMERIC, NULL, NULL},
	[RC_NATIVE0 + 2] = {"native_p80", CT_NUMERIC, NULL, NULL},
	[RC_EXTERNAL_KEY] = {"external_key", CT_UUID, NULL, NULL},
};

const RunColumnInfo key_column[KEY_NREFS] = {
	{"protocol_id", CT_INT4, "protocols", "id"},
	{"workload_id", CT_INT4, "workloads", "id"},
	{"environment_id", CT_INT4, "environments", "id"},
};

/* The attribute numbers of runs' columns; see run_store.h. */
void
run_column_attnums(TupleDesc desc, AttrNumber *att)
{
	int			c;
	int			i;

	for (c = 0; c < RC_N; c++)
	{
		att[c] = InvalidAttrNumber;
		for (i = 0; i < desc->natts; i++)
		{
			Form_pg_attribute a = TupleDescAttr(desc, i);

			if (!a->attisdropped && strcmp(NameStr(a->attname), run_column[c].name) == 0)
			{
				att[c] = a->attnum;
				break;
			}
		}
		if (att[c] == InvalidAttrNumber)
			elog(ERROR, "kernelindex.runs has no column \"%s\"", run_column[c].name);
	}
}

PG_FUNCTION_INFO_V1(kidx_run_references);

/*
 * kernelindex_internal.run_references(): each reference column of runs, the table
 * it names a row of and that table's key, from run_column[] (what the
 * reference triggers check, references.c).
 */
Datum
kidx_run_references(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	int			c;

	InitMaterializedSRF(fcinfo, 0);
	for (c = 0; c < RC_N; c++)
	{
		Datum		values[3];
		bool		nulls[3] = {false, false, false};

		if (run_column[c].refers_to == NULL)
			continue;
		values[0] = CStringGetTextDatum(run_column[c].name);
		values[1] = CStringGetTextDatum(run_column[c].refers_to);
		values[2] = CStringGetTextDatum(run_column[c].refers_column);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}
