/*-------------------------------------------------------------------------
 *
 * run_layout.c
 *	  The description of a BenchmarkRun document: the table run_members
 *	  below says every member the layout knows, its JSON type, whether it
 *	  is required, and what holds it in a stored run.  Members the layout
 *	  does not know are kept exactly, in the run's template, as are known
 *	  members whose text is not the form a run holds (a median written
 *	  2629632.0, an observedAt written with an offset): every valid
 *	  document comes back exactly.
 *
 *	 member									held in
 *	 apiVersion, kind						the template (constants)
 *	 metadata.name							run_strings (stem or literal) or
 *											derived from the externalId
 *	 metadata.title							run_titles
 *	 metadata.labels						run_labels
 *	 spec.status							run_statuses
 *	 spec.observedAt						runs.observed_at
 *	 spec.*Digest							runs.comparability_key (protocol,
 *											workload, environment) and
 *											runs.implementation_id
 *	 spec.timing.latencyNs.median			runs.latency_ns
 *	 spec.memory.peakBytes.median			runs.peak_bytes
 *	 spec.measurements[i].value				runs.latency_ns_p20/_p80,
 *											peak_bytes_p20/_p80 (by metric,
 *											statistic and unit)
 *	 spec.sourceNative.source				run_sources
 *	 spec.sourceNative.benchmark			run_benchmarks
 *	 spec.sourceNative.externalId			run_strings (stem or literal)
 *	 spec.sourceNative.metrics.<u>_20/50/80	runs.native_p20/_p50/_p80
 *
 *	  The way in is run_split.c, the way out run_build.c; this file holds
 *	  what both read, and the template's identity as a dictionary value.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "compat.h"

#include "mb/pg_wchar.h"
#include "utils/builtins.h"
#include "utils/fmgrprotos.h"
#include "utils/json.h"

#include "canonical.h"
#include "core/slug.h"
#include "core/runfmt.h"
#include "messages.h"
#include "run_layout_int.h"

const char *const run_ref_member[RR_N] = {
	"protocolDigest", "workloadDigest", "environmentDigest", "implementationDigest"
};
const char *const run_ref_kind[RR_N] = {
	"BenchmarkProtocol", "Workload", "ExecutionEnvironment", "Implementation"
};
const char *const run_ref_name[RR_N] = {
	"protocol", "workload", "environment", "implementation"
};

#define END_MEMBERS {NULL, 0, false, false, MH_TEMPLATE, 0, NULL, NULL, NULL}

static const RunMember latency_members[] = {
	{"median", MT_COUNT, true, false, MH_VALUE, RV_LATENCY, NULL, "a non-negative integer of nanoseconds"},
	END_MEMBERS
};
static const RunMember timing_members[] = {
	{"latencyNs", MT_OBJECT, false, false, MH_TEMPLATE, 0, latency_members, "an object"},
	{"primaryStatistic", MT_STRING, false, false, MH_PRIMARY, RM_LATENCY, NULL, "\"median\", \"mean\" or \"min\""},
	END_MEMBERS
};
static const RunMember peak_members[] = {
	{"median", MT_COUNT, true, false, MH_VALUE, RV_PEAK, NULL, "a non-negative integer of bytes"},
	END_MEMBERS
};
static const RunMember memory_members[] = {
	{"peakBytes", MT_OBJECT, false, false, MH_TEMPLATE, 0, peak_members, "an object"},
	{"primaryStatistic", MT_STRING, false, false, MH_PRIMARY, RM_MEMORY, NULL, "\"median\", \"mean\" or \"min\""},
	END_MEMBERS
};
static const RunMember source_members[] = {
	{"source", MT_STRING, false, false, MH_TEXT, RT_SOURCE, NULL, "a string"},
	{"benchmark", MT_STRING, false, false, MH_TEXT, RT_BENCHMARK, NULL, "a string"},
	{"externalId", MT_STRING, false, true, MH_TEXT, RT_EXTERNAL_ID, NULL, "a non-empty string"},
	{"metrics", MT_NUMBERS, false, false, MH_TEMPLATE, 0, NULL, "an object of numbers"},
	END_MEMBERS
};
static const RunMember spec_members[] = {
	{"status", MT_STRING, true, true, MH_TEXT, RT_STATUS, NULL, "a non-empty string"},
	{"observedAt", MT_TIMESTAMP, true, false, MH_OBSERVED_AT, 0, NULL, "an RFC 3339 date-time string"},
	{"protocolDigest", MT_DIGEST, true, false, MH_REF, RR_PROTOCOL, NULL, "a digest string"},
	{"workloadDigest", MT_DIGEST, true, false, MH_REF, RR_WORKLOAD, NULL, "a digest string"},
	{"environmentDigest", MT_DIGEST, true, false, MH_REF, RR_ENVIRONMENT, NULL, "a digest string"},
	{"implementationDigest", MT_DIGEST, true, false, MH_REF, RR_IMPLEMENTATION, NULL, "a digest string"},
	{"timing", MT_OBJECT, false, false, MH_TEMPLATE, 0, timing_members, "an object"},
	{"memory", MT_OBJECT, false, false, MH_TEMPLATE, 0, memory_members, "an object"},
	{"measurements", MT_MEASUREMENTS, false, false, MH_TEMPLATE, 0, NULL, "an array of measurements"},
	{"sourceNative", MT_OBJECT, false, false, MH_TEMPLATE, 0, source_members, "an object"},
	END_MEMBERS
};
static const RunMember metadata_members[] = {
	{"name", MT_STRING, true, true, MH_TEXT, RT_NAME, NULL, "a non-empty string"},
	{"title", MT_STRING, false, false, MH_TEXT, RT_TITLE, NULL, "a string"},
	{"labels", MT_STRINGS, false, false, MH_LABELS, 0, NULL, "an object of strings"},
	END_MEMBERS
};
const RunMember run_members[] = {
	{"apiVersion", MT_CONSTANT, true, false, MH_TEMPLATE, 0, NULL, "\"" KIDX_API_VERSION "\"", KIDX_API_VERSION},
	{"kind", MT_CONSTANT, true, false, MH_TEMPLATE, 0, NULL, "\"BenchmarkRun\"", "BenchmarkRun"},
	{"metadata", MT_OBJECT, true, false, MH_TEMPLATE, 0, metadata_members, "an object"},
	{"spec", MT_OBJECT, true, false, MH_TEMPLATE, 0, spec_members, "an object"},
	END_MEMBERS
};

const MeasurementSlot measurement_slots[] = {
	{"latency", "p20", "ns", RV_LATENCY_P20},
	{"latency", "p80", "ns", RV_LATENCY_P80},
	{"peakMemory", "p20", "bytes", RV_PEAK_P20},
	{"peakMemory", "p80", "bytes", RV_PEAK_P80},
	{"latency", "mean", "ns", RV_LATENCY_MEAN},
	{"latency", "stddev", "ns", RV_LATENCY_STDDEV},
	{"latency", "min", "ns", RV_LATENCY_MIN},
	{"latency", "max", "ns", RV_LATENCY_MAX},
	{"latency", "samples", "count", RV_LATENCY_SAMPLES},
	{"peakMemory", "mean", "bytes", RV_PEAK_MEAN},
	{"peakMemory", "stddev", "bytes", RV_PEAK_STDDEV},
	{"peakMemory", "min", "bytes", RV_PEAK_MIN},
	{"peakMemory", "max", "bytes", RV_PEAK_MAX},
	{"peakMemory", "samples", "count", RV_PEAK_SAMPLES},
};

const char *const run_statistic_name[RS_N] = {"median", "mean", "min"};
const RunValue run_statistic_value[RM_N][RS_N] = {
	[RM_LATENCY] = {RV_LATENCY, RV_LATENCY_MEAN, RV_LATENCY_MIN},
	[RM_MEMORY] = {RV_PEAK, RV_PEAK_MEAN, RV_PEAK_MIN},
};
const int	n_measurement_slots = lengthof(measurement_slots);

const char *const native_suffix[RUN_NNATIVE] = {"_20", "_50", "_80"};

/* The member of fields named key[0..len), or NULL. */
const RunMember *
run_member_find(const RunMember *fields, const char *key, int len)
{
	int			i;

	for (i = 0; fields[i].key != NULL; i++)
		if (len == (int) strlen(fields[i].key) && memcmp(key, fields[i].key, len) == 0)
			return &fields[i];
	return NULL;
}

/* True if a JSON string equals a C string. */
bool
jstring_is(const JsonbValue *v, const char *s)
{
	return v != NULL && v->type == jbvString && v->val.string.len == (int) strlen(s) &&
		memcmp(v->val.string.val, s, v->val.string.len) == 0;
}

/* The measurement slot of (metric, statistic, unit), or -1. */
int
measurement_slot_of(const JsonbValue *metric, const JsonbValue *statistic,
					const JsonbValue *unit)
{
	int			i;

	for (i = 0; i < n_measurement_slots; i++)
		if (jstring_is(metric, measurement_slots[i].metric) &&
			jstring_is(statistic, measurement_slots[i].statistic) &&
			jstring_is(unit, measurement_slots[i].unit))
			return i;
	return -1;
}

/* The byte length of a character in the server encoding. */
int
run_server_mblen(const unsigned char *s)
{
	return pg_mblen((const char *) s);
}

/*
 * The slug of an externalId that names derive from (RNF_FROM_EXTERNAL_ID):
 * ASCII letters lowercased, then the slug rule of resource names (core/slug.c):
 * every run of other characters one hyphen, no hyphen at either end.
 */
char *
run_id_slug(const char *s)
{
	size_t		len = strlen(s);
	char	   *lowered = palloc(len + 1);
	char	   *out = palloc(len + 1);
	size_t		i;

	for (i = 0; i < len; i++)
		lowered[i] = (s[i] >= 'A' && s[i] <= 'Z') ? s[i] - 'A' + 'a' : s[i];
	out[kidx_slug_lowered(lowered, len, out)] = '\0';
	pfree(lowered);
	return out;
}

/* A short phrase for a JSON value in messages. */
char *
run_shown_value(JsonbValue *v)
{
	StringInfoData buf;
	char	   *s;

	switch (v->type)
	{
		case jbvNull:
			return pstrdup("null");
		case jbvBool:
			return pstrdup(v->val.boolean ? "true" : "false");
		case jbvNumeric:
			s = DatumGetCString(DirectFunctionCall1(numeric_out,
													NumericGetDatum(v->val.numeric)));
			return psprintf("the number %s", kidx_shown(s, strlen(s)));
		case jbvString:
			initStringInfo(&buf);
			appendStringInfoString(&buf, "the string ");
			s = pnstrdup(v->val.string.val,
						 kidx_shown_len(v->val.string.val, v->val.string.len));
			escape_json(&buf, s);
			if ((int) strlen(s) < v->val.string.len)
				appendStringInfoString(&buf, "...");
			return buf.data;
		case jbvBinary:
			if (JsonContainerIsScalar(v->val.binary.data))
				return pstrdup("a scalar");
			return pstrdup(JsonContainerIsObject(v->val.binary.data) ?
						   "an object" : "an array");
		default:
			return pstrdup("a value");
	}
}

/* The rules' names, as kernelindex.run_templates stores them. */
const char *const run_name_form_name[RNF_N] = {"literal", "stem", "from_external_id"};
const char *const run_id_form_name[RIF_N] = {"absent", "literal", "stem", "labelled"};

/* Write a string or null to a sink. */
static void
write_string_or_null(CanonSink *sink, const char *s)
{
	if (s != NULL)
		canon_write_string(sink, s, strlen(s));
	else
		canon_sink_write(sink, "null", 4);
}

/* The dictionary hash of a template; see run_layout.h. */
void
run_template_hash(const RunTemplate *t, pg_uuid_t *result)
{
	CanonSink  *sink = canon_sink_digest();
	KidxDigest	digest;
	char		num[MAXINT8LEN + 1];

	canon_sink_write(sink, "[", 1);
	canon_write_container(sink, &t->doc->root);
	canon_sink_write(sink, ",", 1);
	write_string_or_null(sink, run_name_form_name[t->name_form]);
	canon_sink_write(sink, ",", 1);
	write_string_or_null(sink, t->name_prefix);
	canon_sink_write(sink, ",", 1);
	canon_sink_write(sink, num, pg_ltoa(t->name_cut, num));
	canon_sink_write(sink, ",", 1);
	write_string_or_null(sink, run_id_form_name[t->external_id_form]);
	canon_sink_write(sink, ",", 1);
	write_string_or_null(sink, t->native_unit);
	canon_sink_write(sink, "]", 1);
	canon_sink_finish(sink, &digest);
	memcpy(result->data, digest.data, UUID_LEN);
}

/* Refuse an observedAt outside the years 1 to 9999; see run_layout.h. */
void
run_observed_at_out_of_range(TimestampTz at)
{
	ereport(ERROR,
			(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
			 errmsg("observedAt %s is outside the years 1 to 9999",
					timestamptz_to_str(at))));
}

/* A decimal's text as a numeric; see run_layout.h. */
Numeric
run_numeric_in(const char *dec)
{
	return DatumGetNumeric(DirectFunctionCall3(numeric_in, CStringGetDatum(dec),
											   ObjectIdGetDatum(InvalidOid),
											   Int32GetDatum(-1)));
}

/* The string a stem derives for an instant; see run_layout.h. */
char *
run_derived_string(const char *stem, int cut, TimestampTz at)
{
	char		slug[RUNFMT_SLUG_BUFLEN];
	size_t		sluglen = run_slug_format(at, slug);
	size_t		stemlen = strlen(stem);
	char	   *out = palloc(stemlen + sluglen + 1);

	if (sluglen == 0)
		run_observed_at_out_of_range(at);
	runfmt_derive(stem, stemlen, slug, sluglen, cut, run_server_mblen, out);
	return out;
}
