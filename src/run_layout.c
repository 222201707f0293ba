/*-------------------------------------------------------------------------
 *
 * run_layout.c
 *	  The run layout: one description of a BenchmarkRun document, used to
 *	  check it, to split it into what a series of runs shares and what each
 *	  run holds, to rebuild it and to digest it.
 *
 * The description is the table run_fields below: every member the layout
 * knows, its JSON type, whether it is required, and which per-run value it
 * may be held in.  Members the layout does not know are kept exactly, in
 * the series template (they are part of the identity).
 *
 * A run holds a value of its own (a column of kernelindex.runs) where the
 * document's text is exactly what rebuilding writes for that value:
 *
 *	 spec.observedAt						observed_at (YYYY-MM-DDTHH:MM:SS.mmmZ)
 *	 spec.timing.latencyNs.median			latency_ns
 *	 spec.memory.peakBytes.median			peak_bytes
 *	 spec.measurements[i].value				latency_ns_p20/_p80, peak_bytes_p20/_p80
 *											(by metric, statistic and unit)
 *	 spec.sourceNative.metrics.<u>_20/50/80 native_p20/_p50/_p80 (exact decimals)
 *	 spec.sourceNative.externalId			stem || slug(observedAt)
 *	 metadata.name							stem || slug(observedAt), cut
 *	 spec.*Digest							the series' four resources
 *
 * Anything else, and any of these whose text is not that form, stays in the
 * template, so that every valid document comes back exactly.
 *
 * A series is laid out once (RunPlan): a tree of the template's members
 * with slots where the per-run values go.  Rebuilding pushes the tree into
 * a jsonb; digesting writes the canonical text of {apiVersion, kind, spec}
 * once per series, with holes for the values, and streams text and values
 * into SHA-256 for each run.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/fmgrprotos.h"
#include "utils/json.h"
#include "utils/jsonb.h"
#include "utils/numeric.h"

#include "canonical.h"
#include "comparability.h"
#include "core/jcs.h"
#include "core/runfmt.h"
#include "run_layout.h"

/* Longest value shown whole in a message, in bytes. */
#define SHOWN_MAX 60

/* Per-run slots of a laid-out series. */
#define SLOT_OBSERVED_AT	0
#define SLOT_INT(i)			(1 + (i))
#define SLOT_NATIVE(i)		(1 + RI_N + (i))
#define SLOT_EXTERNAL_ID	(1 + RI_N + RUN_NNATIVE)
#define SLOT_NAME			(2 + RI_N + RUN_NNATIVE)
#define SLOT_NONE			(-1)

const char *const run_ref_member[RR_N] = {
	"protocolDigest", "workloadDigest", "environmentDigest", "implementationDigest"
};
const char *const run_ref_kind[RR_N] = {
	"BenchmarkProtocol", "Workload", "ExecutionEnvironment", "Implementation"
};
const char *const run_ref_name[RR_N] = {
	"protocol", "workload", "environment", "implementation"
};

/* What a member must be. */
typedef enum FieldKind
{
	FK_CONST,					/* a string equal to constant */
	FK_STRING,					/* a string (nonempty if so marked) */
	FK_DIGEST,					/* a digest string, one of the four refs */
	FK_TIMESTAMP,				/* an RFC 3339 date-time string */
	FK_COUNT,					/* a non-negative integer within bigint */
	FK_OBJECT,					/* an object with known members */
	FK_STRING_MAP,				/* an object of strings */
	FK_NUMBER_MAP,				/* an object of numbers */
	FK_MEASUREMENTS				/* an array of measurement objects */
} FieldKind;

/* One member the layout knows. */
typedef struct RunField
{
	const char *key;
	FieldKind	kind;
	bool		required;
	int			slot;			/* per-run slot, RunRef for digests, or -1 */
	const struct RunField *members; /* FK_OBJECT: its known members */
	const char *what;			/* what it must be, for messages */
	const char *constant;		/* FK_CONST: the value */
} RunField;

#define END_FIELDS {NULL, 0, false, SLOT_NONE, NULL, NULL, NULL}

static const RunField latency_fields[] = {
	{"median", FK_COUNT, true, SLOT_INT(RI_LATENCY), NULL, "a non-negative integer of nanoseconds"},
	END_FIELDS
};
static const RunField timing_fields[] = {
	{"latencyNs", FK_OBJECT, false, SLOT_NONE, latency_fields, "an object"},
	{"primaryStatistic", FK_STRING, false, SLOT_NONE, NULL, "a string"},
	END_FIELDS
};
static const RunField peak_fields[] = {
	{"median", FK_COUNT, true, SLOT_INT(RI_PEAK), NULL, "a non-negative integer of bytes"},
	END_FIELDS
};
static const RunField memory_fields[] = {
	{"peakBytes", FK_OBJECT, false, SLOT_NONE, peak_fields, "an object"},
	{"primaryStatistic", FK_STRING, false, SLOT_NONE, NULL, "a string"},
	END_FIELDS
};
static const RunField source_fields[] = {
	{"source", FK_STRING, false, SLOT_NONE, NULL, "a string"},
	{"benchmark", FK_STRING, false, SLOT_NONE, NULL, "a string"},
	{"externalId", FK_STRING, false, SLOT_EXTERNAL_ID, NULL, "a non-empty string"},
	{"metrics", FK_NUMBER_MAP, false, SLOT_NONE, NULL, "an object of numbers"},
	END_FIELDS
};
static const RunField spec_fields[] = {
	{"status", FK_STRING, true, SLOT_NONE, NULL, "a non-empty string"},
	{"observedAt", FK_TIMESTAMP, true, SLOT_OBSERVED_AT, NULL, "an RFC 3339 date-time string"},
	{"protocolDigest", FK_DIGEST, true, RR_PROTOCOL, NULL, "a digest string"},
	{"workloadDigest", FK_DIGEST, true, RR_WORKLOAD, NULL, "a digest string"},
	{"environmentDigest", FK_DIGEST, true, RR_ENVIRONMENT, NULL, "a digest string"},
	{"implementationDigest", FK_DIGEST, true, RR_IMPLEMENTATION, NULL, "a digest string"},
	{"timing", FK_OBJECT, false, SLOT_NONE, timing_fields, "an object"},
	{"memory", FK_OBJECT, false, SLOT_NONE, memory_fields, "an object"},
	{"measurements", FK_MEASUREMENTS, false, SLOT_NONE, NULL, "an array of measurements"},
	{"sourceNative", FK_OBJECT, false, SLOT_NONE, source_fields, "an object"},
	END_FIELDS
};
static const RunField metadata_fields[] = {
	{"name", FK_STRING, true, SLOT_NAME, NULL, "a non-empty string"},
	{"title", FK_STRING, false, SLOT_NONE, NULL, "a string"},
	{"labels", FK_STRING_MAP, false, SLOT_NONE, NULL, "an object of strings"},
	END_FIELDS
};
static const RunField run_fields[] = {
	{"apiVersion", FK_CONST, true, SLOT_NONE, NULL, "\"" KIDX_API_VERSION "\"", KIDX_API_VERSION},
	{"kind", FK_CONST, true, SLOT_NONE, NULL, "\"BenchmarkRun\"", "BenchmarkRun"},
	{"metadata", FK_OBJECT, true, SLOT_NONE, metadata_fields, "an object"},
	{"spec", FK_OBJECT, true, SLOT_NONE, spec_fields, "an object"},
	END_FIELDS
};

/* Measurements a run holds, by metric, statistic and unit. */
static const struct
{
	const char *metric;
	const char *statistic;
	const char *unit;
	RunInt		value;
}			measurement_slots[] = {
	{"latency", "p20", "ns", RI_LATENCY_P20},
	{"latency", "p80", "ns", RI_LATENCY_P80},
	{"peakMemory", "p20", "bytes", RI_PEAK_P20},
	{"peakMemory", "p80", "bytes", RI_PEAK_P80},
};

/* Suffixes of the native metrics a run holds (<unit>_20, _50, _80). */
static const char *const native_suffix[RUN_NNATIVE] = {"_20", "_50", "_80"};

/* State of one split. */
typedef struct SplitState
{
	const RunDocPos *pos;
	RunSeries  *series;
	RunValues  *values;
	StringInfoData path;
	bool		have_slug;
	char		slug[RUNFMT_SLUG_BUFLEN];
	size_t		sluglen;
	bool		measurement_taken[RI_N];
	char	   *status;
	const char *kind;			/* the kind checked, for messages */
} SplitState;

/* ----------------------------------------------------------------
 *		Messages
 * ----------------------------------------------------------------
 */

/* The byte length of a character in the server encoding. */
static int
server_mblen(const unsigned char *s)
{
	return pg_mblen((const char *) s);
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
			if (strlen(s) > SHOWN_MAX)
				return psprintf("the number %.*s...", SHOWN_MAX, s);
			return psprintf("the number %s", s);
		case jbvString:
			initStringInfo(&buf);
			appendStringInfoString(&buf, "the string ");
			s = pnstrdup(v->val.string.val,
						 pg_mbcliplen(v->val.string.val, v->val.string.len, SHOWN_MAX));
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

/* Append a member name to a JSON path; returns the length to cut back to. */
static int
path_push_key(StringInfo path, const char *key, int len)
{
	int			old = path->len;

	kidx_json_path_key(path, key, len);
	return old;
}

/* Append an array index to a JSON path. */
static int
path_push_index(StringInfo path, int i)
{
	int			old = path->len;

	appendStringInfo(path, "[%d]", i);
	return old;
}

/* Cut a JSON path back to an earlier length. */
static void
path_pop(StringInfo path, int len)
{
	path->len = len;
	path->data[len] = '\0';
}

/* A member of the wrong JSON type. */
static void
fault_type(SplitState *st, JsonbValue *v, const char *what)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("document " INT64_FORMAT ": %s is %s, not %s",
					st->pos->ord, st->path.data, run_shown_value(v), what)));
}

/* A required member that is missing. */
static void
fault_missing(SplitState *st, const RunField *f)
{
	int			old = path_push_key(&st->path, f->key, strlen(f->key));

	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("document " INT64_FORMAT ": %s is missing",
					st->pos->ord, st->path.data),
			 errdetail("A %s's %s is required: %s.", st->kind,
					   st->path.data + strlen(st->pos->path) + 1, f->what)));
	path_pop(&st->path, old);
}

/* ----------------------------------------------------------------
 *		Checking values
 * ----------------------------------------------------------------
 */

/* Refuse a number canonical JSON cannot carry (RFC 8785: a double). */
static void
check_number(SplitState *st, Numeric num)
{
	char	   *dec = DatumGetCString(DirectFunctionCall1(numeric_out,
														  NumericGetDatum(num)));
	char		out[JCS_NUMBER_BUFLEN];
	size_t		outlen;
	jcs_num_status status = jcs_number_from_decimal(dec, strlen(dec), out, &outlen);

	if (status == JCS_NUM_OK)
		return;
	ereport(ERROR,
			(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
			 errmsg("document " INT64_FORMAT ": %s is %s, which canonical JSON cannot carry exactly",
					st->pos->ord, st->path.data, canon_shown_number(dec)),
			 errdetail("RFC 8785 writes every number as an IEEE 754 double, and %s.",
					   status == JCS_NUM_OUT_OF_RANGE ? "this one is beyond the range of a double" :
					   "the nearest double prints as another number"),
			 errhint("Pass numbers that need more than a double as JSON strings.")));
}

/* Check every number in a value of a member the layout does not know. */
static void
check_numbers(SplitState *st, JsonbValue *v)
{
	JsonbIterator *it;
	JsonbIteratorToken tok;
	JsonbValue	x;
	int			index = 0;

	if (v->type == jbvNumeric)
	{
		check_number(st, v->val.numeric);
		return;
	}
	if (v->type != jbvBinary)
		return;
	check_stack_depth();
	it = JsonbIteratorInit(v->val.binary.data);
	while ((tok = JsonbIteratorNext(&it, &x, true)) != WJB_DONE)
	{
		int			old;

		CHECK_FOR_INTERRUPTS();
		if (tok == WJB_KEY)
		{
			JsonbValue	val;

			old = path_push_key(&st->path, x.val.string.val, x.val.string.len);
			tok = JsonbIteratorNext(&it, &val, true);
			Assert(tok == WJB_VALUE);
			check_numbers(st, &val);
			path_pop(&st->path, old);
		}
		else if (tok == WJB_ELEM)
		{
			old = path_push_index(&st->path, index++);
			check_numbers(st, &x);
			path_pop(&st->path, old);
		}
	}
}

typedef enum CountStatus
{
	COUNT_OK,					/* an integer written without a fraction */
	COUNT_WHOLE,				/* an integer written with zero decimals */
	COUNT_FRACTION,
	COUNT_NEGATIVE,
	COUNT_TOO_LARGE
} CountStatus;

/* Classify a numeric as a count (non-negative integer within bigint). */
static CountStatus
count_value(Numeric num, int64 *result)
{
	char	   *dec = DatumGetCString(DirectFunctionCall1(numeric_out,
														  NumericGetDatum(num)));
	const char *point = strchr(dec, '.');
	size_t		intlen = point ? (size_t) (point - dec) : strlen(dec);
	uint64		v = 0;
	size_t		i;

	if (dec[0] == '-')
		return COUNT_NEGATIVE;
	if (point && point[1 + strspn(point + 1, "0")] != '\0')
		return COUNT_FRACTION;
	if (intlen > 19)
		return COUNT_TOO_LARGE;
	for (i = 0; i < intlen; i++)
		v = v * 10 + (dec[i] - '0');
	if (v > (uint64) PG_INT64_MAX)
		return COUNT_TOO_LARGE;
	*result = (int64) v;
	pfree(dec);
	return point ? COUNT_WHOLE : COUNT_OK;
}

/* Check a count member; its value in *v; true if a run may hold it. */
static bool
check_count(SplitState *st, JsonbValue *jv, const char *what, int64 *v)
{
	if (jv->type != jbvNumeric)
		fault_type(st, jv, what);
	switch (count_value(jv->val.numeric, v))
	{
		case COUNT_OK:
			check_number(st, jv->val.numeric);
			return true;
		case COUNT_WHOLE:
			check_number(st, jv->val.numeric);
			return false;
		case COUNT_FRACTION:
			fault_type(st, jv, what);
			break;
		case COUNT_NEGATIVE:
		case COUNT_TOO_LARGE:
			ereport(ERROR,
					(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
					 errmsg("document " INT64_FORMAT ": %s is %s, out of range for %s",
							st->pos->ord, st->path.data, run_shown_value(jv), what),
					 errdetail("Counts are stored as bigint: 0 to 9223372036854775807.")));
	}
	return false;
}

/* Check a string member. */
static void
check_string(SplitState *st, JsonbValue *v, const RunField *f, bool nonempty)
{
	if (v->type != jbvString || (nonempty && v->val.string.len == 0))
		fault_type(st, v, f->what);
}

/* Check a digest member and store it among the series' references. */
static void
check_digest(SplitState *st, JsonbValue *v, const RunField *f)
{
	const char *hint;
	char	   *detail;

	if (v->type != jbvString)
		fault_type(st, v, f->what);
	detail = kidx_digest_parse(v->val.string.val, v->val.string.len,
							   &st->series->ref[f->slot], &hint);
	if (detail != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
				 errmsg("document " INT64_FORMAT ": %s is %s, not a digest",
						st->pos->ord, st->path.data, run_shown_value(v)),
				 errdetail_internal("%s", detail),
				 errhint("%s", hint)));
}

/*
 * Check an RFC 3339 date-time member; store the instant; true if its text
 * is the form a run holds.
 */
static bool
check_timestamp(SplitState *st, JsonbValue *v, const RunField *f)
{
	Rfc3339		r;
	rfc3339_status status;

	if (v->type != jbvString)
		fault_type(st, v, f->what);
	status = rfc3339_parse(v->val.string.val, v->val.string.len, &r);
	if (status != RFC3339_OK)
		ereport(ERROR,
				(errcode(status == RFC3339_SYNTAX ? ERRCODE_INVALID_DATETIME_FORMAT :
						 ERRCODE_DATETIME_FIELD_OVERFLOW),
				 errmsg("document " INT64_FORMAT ": %s is %s, not a valid RFC 3339 date-time",
						st->pos->ord, st->path.data, run_shown_value(v)),
				 errdetail("%s", rfc3339_status_text(status)),
				 errhint("Write it as in 2025-04-28T00:38:25.000Z.")));
	if (!IS_VALID_TIMESTAMP(r.usec))
		ereport(ERROR,
				(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
				 errmsg("document " INT64_FORMAT ": %s is %s, out of range for timestamp with time zone",
						st->pos->ord, st->path.data, run_shown_value(v))));
	st->values->observed_at = r.usec;
	return r.canonical;
}

/* ----------------------------------------------------------------
 *		Splitting a document
 * ----------------------------------------------------------------
 */

static JsonbValue *split_object(SplitState *st, JsonbContainer *c,
								const RunField *fields, JsonbParseState **ps);

/* Push one member, key and value, unchanged into the template. */
static void
push_member(JsonbParseState **ps, JsonbValue *key, JsonbValue *value)
{
	pushJsonbValue(ps, WJB_KEY, key);
	pushJsonbValue(ps, WJB_VALUE, value);
}

/* A string's copy, NUL-terminated. */
static char *
jstring(JsonbValue *v)
{
	return pnstrdup(v->val.string.val, v->val.string.len);
}

/* Split an object of strings (labels). */
static void
split_string_map(SplitState *st, JsonbValue *v, const RunField *f)
{
	JsonbIterator *it;
	JsonbIteratorToken tok;
	JsonbValue	x;

	if (v->type != jbvBinary || !JsonContainerIsObject(v->val.binary.data))
		fault_type(st, v, f->what);
	it = JsonbIteratorInit(v->val.binary.data);
	while ((tok = JsonbIteratorNext(&it, &x, true)) != WJB_DONE)
	{
		if (tok == WJB_KEY)
		{
			JsonbValue	val;
			int			old = path_push_key(&st->path, x.val.string.val, x.val.string.len);

			JsonbIteratorNext(&it, &val, true);
			if (val.type != jbvString)
				fault_type(st, &val, "a string");
			path_pop(&st->path, old);
		}
	}
}

/*
 * The unit of the native metrics a run holds: the one prefix u of every
 * member named u_20, u_50 or u_80 (u: a lowercase letter, then letters and
 * digits); NULL if there are none or more than one.
 */
static char *
native_unit_of(JsonbContainer *c)
{
	JsonbIterator *it = JsonbIteratorInit(c);
	JsonbIteratorToken tok;
	JsonbValue	x;
	char	   *unit = NULL;

	while ((tok = JsonbIteratorNext(&it, &x, true)) != WJB_DONE)
	{
		const char *k = x.val.string.val;
		int			len = x.val.string.len;
		int			i;
		int			s;

		if (tok != WJB_KEY || len < 4 || k[0] < 'a' || k[0] > 'z')
			continue;
		for (i = 1; i < len - 3; i++)
			if (!((k[i] >= 'a' && k[i] <= 'z') || (k[i] >= '0' && k[i] <= '9')))
				break;
		if (i != len - 3)
			continue;
		for (s = 0; s < RUN_NNATIVE; s++)
			if (memcmp(k + len - 3, native_suffix[s], 3) == 0)
				break;
		if (s == RUN_NNATIVE)
			continue;
		if (unit == NULL)
			unit = pnstrdup(k, len - 3);
		else if (strlen(unit) != (size_t) (len - 3) || memcmp(unit, k, len - 3) != 0)
			return NULL;
	}
	return unit;
}

/* Split the native metrics: an object of numbers, some held per run. */
static void
split_metrics(SplitState *st, JsonbValue *v, const RunField *f, JsonbParseState **ps)
{
	JsonbContainer *c;
	JsonbIterator *it;
	JsonbIteratorToken tok;
	JsonbValue	x;
	char	   *unit;

	if (v->type != jbvBinary || !JsonContainerIsObject(v->val.binary.data))
		fault_type(st, v, f->what);
	c = v->val.binary.data;
	unit = native_unit_of(c);
	pushJsonbValue(ps, WJB_BEGIN_OBJECT, NULL);
	it = JsonbIteratorInit(c);
	while ((tok = JsonbIteratorNext(&it, &x, true)) != WJB_DONE)
	{
		JsonbValue	key;
		JsonbValue	val;
		int			old;
		int			s = -1;

		if (tok != WJB_KEY)
			continue;
		key = x;
		JsonbIteratorNext(&it, &val, true);
		old = path_push_key(&st->path, key.val.string.val, key.val.string.len);
		if (val.type != jbvNumeric)
			fault_type(st, &val, "a number");
		check_number(st, val.val.numeric);
		path_pop(&st->path, old);
		if (unit != NULL && key.val.string.len == (int) strlen(unit) + 3)
			for (s = RUN_NNATIVE - 1; s >= 0; s--)
				if (memcmp(key.val.string.val + strlen(unit), native_suffix[s], 3) == 0)
					break;
		if (s >= 0)
			st->values->native[s] = val.val.numeric;
		else
			push_member(ps, &key, &val);
	}
	pushJsonbValue(ps, WJB_END_OBJECT, NULL);
	if (unit != NULL)
		st->series->native_unit = unit;
}

/* Find a string member of a measurement, required. */
static JsonbValue *
measurement_string(SplitState *st, JsonbContainer *c, const char *key)
{
	JsonbValue *v = getKeyJsonValueFromContainer(c, key, strlen(key), NULL);
	int			old = path_push_key(&st->path, key, strlen(key));

	if (v == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("document " INT64_FORMAT ": %s is missing",
						st->pos->ord, st->path.data),
				 errdetail("A measurement is an object with string members \"metric\", \"statistic\" and \"unit\" and a number \"value\".")));
	if (v->type != jbvString)
		fault_type(st, v, "a string");
	path_pop(&st->path, old);
	return v;
}

/* True if a JSON string equals a C string. */
static bool
jstring_is(JsonbValue *v, const char *s)
{
	return v->type == jbvString && v->val.string.len == (int) strlen(s) &&
		memcmp(v->val.string.val, s, v->val.string.len) == 0;
}

/* Split the measurements: values some of which a run holds. */
static void
split_measurements(SplitState *st, JsonbValue *v, const RunField *f, JsonbParseState **ps)
{
	JsonbIterator *it;
	JsonbIteratorToken tok;
	JsonbValue	elem;
	int			index = 0;

	if (v->type != jbvBinary || !JsonContainerIsArray(v->val.binary.data) ||
		JsonContainerIsScalar(v->val.binary.data))
		fault_type(st, v, f->what);
	pushJsonbValue(ps, WJB_BEGIN_ARRAY, NULL);
	it = JsonbIteratorInit(v->val.binary.data);
	while ((tok = JsonbIteratorNext(&it, &elem, true)) != WJB_DONE)
	{
		JsonbContainer *c;
		JsonbValue *metric,
				   *statistic,
				   *unit,
				   *value;
		JsonbIterator *mit;
		JsonbValue	x;
		int			old;
		int			held = -1;
		bool		counted;
		int			i;

		if (tok != WJB_ELEM)
			continue;
		CHECK_FOR_INTERRUPTS();
		old = path_push_index(&st->path, index++);
		if (elem.type != jbvBinary || !JsonContainerIsObject(elem.val.binary.data))
			fault_type(st, &elem, "a measurement object");
		c = elem.val.binary.data;
		metric = measurement_string(st, c, "metric");
		statistic = measurement_string(st, c, "statistic");
		unit = measurement_string(st, c, "unit");
		value = getKeyJsonValueFromContainer(c, "value", 5, NULL);
		path_push_key(&st->path, "value", 5);
		if (value == NULL)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("document " INT64_FORMAT ": %s is missing",
							st->pos->ord, st->path.data),
					 errdetail("A measurement is an object with string members \"metric\", \"statistic\" and \"unit\" and a number \"value\".")));
		counted = jstring_is(unit, "ns") || jstring_is(unit, "bytes");
		if (counted)
		{
			int64		n;
			bool		exact = check_count(st, value,
											jstring_is(unit, "ns") ? "a non-negative integer of nanoseconds" :
											"a non-negative integer of bytes", &n);

			for (i = 0; i < lengthof(measurement_slots) && exact; i++)
				if (jstring_is(metric, measurement_slots[i].metric) &&
					jstring_is(statistic, measurement_slots[i].statistic) &&
					jstring_is(unit, measurement_slots[i].unit) &&
					!st->measurement_taken[measurement_slots[i].value])
				{
					held = measurement_slots[i].value;
					st->measurement_taken[held] = true;
					st->values->has[held] = true;
					st->values->v[held] = n;
					break;
				}
		}
		else if (value->type != jbvNumeric)
			fault_type(st, value, "a number");
		else
			check_number(st, value->val.numeric);
		path_pop(&st->path, old);

		/* Every other member is kept (checked for numbers). */
		pushJsonbValue(ps, WJB_BEGIN_OBJECT, NULL);
		mit = JsonbIteratorInit(c);
		while ((tok = JsonbIteratorNext(&mit, &x, true)) != WJB_DONE)
		{
			JsonbValue	key;
			JsonbValue	val;

			if (tok != WJB_KEY)
				continue;
			key = x;
			JsonbIteratorNext(&mit, &val, true);
			if (held >= 0 && key.val.string.len == 5 &&
				memcmp(key.val.string.val, "value", 5) == 0)
				continue;
			old = path_push_key(&st->path, key.val.string.val, key.val.string.len);
			check_numbers(st, &val);
			path_pop(&st->path, old);
			push_member(ps, &key, &val);
		}
		pushJsonbValue(ps, WJB_END_OBJECT, NULL);
	}
	pushJsonbValue(ps, WJB_END_ARRAY, NULL);
}

/*
 * A name or externalId: held per run as a stem when it derives from the
 * observedAt slug (a name also when cut); true if held.
 */
static bool
split_derived(SplitState *st, JsonbValue *v, bool is_name)
{
	size_t		stemlen;
	int			cut;

	if (!st->have_slug ||
		!runfmt_detect(v->val.string.val, v->val.string.len, st->slug, st->sluglen,
					   is_name, server_mblen, &stemlen, &cut))
		return false;
	if (is_name)
	{
		st->series->name_stem = pnstrdup(v->val.string.val, stemlen);
		st->series->name_cut = cut;
	}
	else
		st->series->external_id_stem = pnstrdup(v->val.string.val, stemlen);
	return true;
}

/* Split one known member; true if a run holds it (not in the template). */
static bool
split_field(SplitState *st, const RunField *f, JsonbValue *key, JsonbValue *v,
			JsonbParseState **ps)
{
	int64		n;

	switch (f->kind)
	{
		case FK_CONST:
			if (!jstring_is(v, f->constant))
				fault_type(st, v, f->what);
			return false;
		case FK_STRING:
			check_string(st, v, f, f->slot != SLOT_NONE || f->required);
			if (f->slot == SLOT_NAME)
				return split_derived(st, v, true);
			if (f->slot == SLOT_EXTERNAL_ID)
				return split_derived(st, v, false);
			if (strcmp(f->key, "status") == 0)
				st->status = jstring(v);
			return false;
		case FK_DIGEST:
			check_digest(st, v, f);
			return true;
		case FK_TIMESTAMP:
			return check_timestamp(st, v, f);
		case FK_COUNT:
			{
				int			i = f->slot - SLOT_INT(0);
				bool		exact = check_count(st, v, f->what, &n);

				st->values->has[i] = true;
				st->values->v[i] = n;
				return exact;
			}
		case FK_OBJECT:
			if (v->type != jbvBinary || !JsonContainerIsObject(v->val.binary.data))
				fault_type(st, v, f->what);
			pushJsonbValue(ps, WJB_KEY, key);
			split_object(st, v->val.binary.data, f->members, ps);
			return true;		/* pushed already */
		case FK_STRING_MAP:
			split_string_map(st, v, f);
			return false;
		case FK_NUMBER_MAP:
			pushJsonbValue(ps, WJB_KEY, key);
			split_metrics(st, v, f, ps);
			return true;
		case FK_MEASUREMENTS:
			pushJsonbValue(ps, WJB_KEY, key);
			split_measurements(st, v, f, ps);
			return true;
	}
	return false;
}

/*
 * Split an object with known members into the template being built; the
 * result of its last push (the template itself, at the top).
 */
static JsonbValue *
split_object(SplitState *st, JsonbContainer *c, const RunField *fields,
			 JsonbParseState **ps)
{
	JsonbIterator *it = JsonbIteratorInit(c);
	JsonbIteratorToken tok;
	JsonbValue	x;
	uint32		seen = 0;
	int			i;

	check_stack_depth();
	pushJsonbValue(ps, WJB_BEGIN_OBJECT, NULL);
	while ((tok = JsonbIteratorNext(&it, &x, true)) != WJB_DONE)
	{
		JsonbValue	key;
		JsonbValue	val;
		const RunField *f = NULL;
		int			old;

		if (tok != WJB_KEY)
			continue;
		key = x;
		JsonbIteratorNext(&it, &val, true);
		for (i = 0; fields[i].key != NULL; i++)
			if (key.val.string.len == (int) strlen(fields[i].key) &&
				memcmp(key.val.string.val, fields[i].key, key.val.string.len) == 0)
			{
				f = &fields[i];
				seen |= 1u << i;
				break;
			}
		old = path_push_key(&st->path, key.val.string.val, key.val.string.len);
		if (f == NULL)
		{
			check_numbers(st, &val);
			push_member(ps, &key, &val);
		}
		else if (!split_field(st, f, &key, &val, ps))
			push_member(ps, &key, &val);
		path_pop(&st->path, old);
	}
	for (i = 0; fields[i].key != NULL; i++)
		if (fields[i].required && !(seen & (1u << i)))
			fault_missing(st, &fields[i]);
	return pushJsonbValue(ps, WJB_END_OBJECT, NULL);
}

/* Check a run document and split it; see run_layout.h. */
void
run_split(JsonbContainer *run, const RunDocPos *pos, RunSeries *series,
		  RunValues *values)
{
	SplitState	st;
	JsonbParseState *ps = NULL;
	JsonbValue *tmpl;
	JsonbValue *spec;
	JsonbValue	root;

	memset(series, 0, sizeof(RunSeries));
	memset(values, 0, sizeof(RunValues));
	series->name_cut = -1;
	memset(&st, 0, sizeof(st));
	st.pos = pos;
	st.series = series;
	st.values = values;
	st.kind = "BenchmarkRun";
	initStringInfo(&st.path);
	appendStringInfoString(&st.path, pos->path);

	if (!JsonContainerIsObject(run))
	{
		root.type = jbvBinary;
		root.val.binary.data = run;
		root.val.binary.len = 0;
		fault_type(&st, &root, "a BenchmarkRun object");
	}

	/* The slug names and externalIds derive from: observedAt, if valid. */
	spec = getKeyJsonValueFromContainer(run, "spec", 4, NULL);
	if (spec != NULL && spec->type == jbvBinary && JsonContainerIsObject(spec->val.binary.data))
	{
		JsonbValue *at = getKeyJsonValueFromContainer(spec->val.binary.data, "observedAt", 10, NULL);
		Rfc3339		r;

		if (at != NULL && at->type == jbvString &&
			rfc3339_parse(at->val.string.val, at->val.string.len, &r) == RFC3339_OK)
		{
			st.sluglen = run_slug_format(r.usec, st.slug);
			st.have_slug = st.sluglen > 0;
		}
	}

	tmpl = split_object(&st, run, run_fields, &ps);

	if (st.status != NULL && strcmp(st.status, "passed") == 0 &&
		!values->has[RI_LATENCY] && !values->has[RI_PEAK])
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("document " INT64_FORMAT ": %s.spec has neither timing.latencyNs.median nor memory.peakBytes.median",
						pos->ord, pos->path),
				 errdetail("A run whose status is \"passed\" carries the number it measured.")));
	series->template = JsonbValueToJsonb(tmpl);
}

/* ----------------------------------------------------------------
 *		Laying out a series
 * ----------------------------------------------------------------
 */

typedef enum NodeKind
{
	LN_VALUE,					/* a template value, scalar or container */
	LN_OBJECT,
	LN_ARRAY,
	LN_SLOT						/* a per-run value */
} NodeKind;

typedef struct LayoutNode LayoutNode;

/* A member of a laid-out object. */
typedef struct LayoutMember
{
	JsonbValue	key;			/* jbvString, server-encoded */
	const char *ukey;			/* the key in UTF-8, for canonical order */
	int			ukeylen;
	LayoutNode *node;
} LayoutMember;

struct LayoutNode
{
	NodeKind	kind;
	int			slot;			/* LN_SLOT */
	JsonbValue	value;			/* LN_VALUE */
	int			n;
	LayoutMember *members;		/* LN_OBJECT, in canonical (UTF-16) order */
	LayoutNode **elems;			/* LN_ARRAY */
};

/*
 * The canonical text of a series' {apiVersion, kind, spec} with holes for
 * the values, for one pattern of native values present: a run's digest is
 * SHA-256 of text[0..hole_at[0]) value(hole_slot[0]) text[hole_at[0]..
 * hole_at[1]) value(hole_slot[1]) ... text[hole_at[n-1]..len).
 */
typedef struct DigestPlan
{
	char	   *text;
	int			len;
	int			nholes;
	int		   *hole_at;
	int		   *hole_slot;
} DigestPlan;

struct RunPlan
{
	MemoryContext cxt;			/* where the plan and its parts live */
	LayoutNode *root;
	DigestPlan *digest[1 << RUN_NNATIVE];
	JsonbValue	source;			/* spec.sourceNative.source; jbvNull if none */
	char	   *name_constant;	/* metadata.name when in the template */
	char	   *external_id_constant;	/* externalId when in the template */
	char	   *native_key[RUN_NNATIVE];	/* <unit>_20, ... */
	StringInfo	source_canon;	/* "[" + canonical source + "," */
	StringInfo	ext_stem_canon; /* the externalId stem as a canonical
								 * string, without its closing quote */
};

/* A node for a template value. */
static LayoutNode *
node_value(JsonbValue *v)
{
	LayoutNode *n = palloc0(sizeof(LayoutNode));

	n->kind = LN_VALUE;
	n->value = *v;
	return n;
}

/* A node for a per-run value. */
static LayoutNode *
node_slot(int slot)
{
	LayoutNode *n = palloc0(sizeof(LayoutNode));

	n->kind = LN_SLOT;
	n->slot = slot;
	return n;
}

/* Order laid-out members as RFC 8785 does: by UTF-16 code units of keys. */
static int
member_cmp(const void *a, const void *b)
{
	const LayoutMember *ma = (const LayoutMember *) a;
	const LayoutMember *mb = (const LayoutMember *) b;

	return jcs_compare_keys(ma->ukey, ma->ukeylen, mb->ukey, mb->ukeylen);
}

/* A series that cannot be laid out: a template run_split() did not make. */
static void
bad_template(const char *what)
{
	ereport(ERROR,
			(errcode(ERRCODE_DATA_CORRUPTED),
			 errmsg("run series template %s", what),
			 errhint("Series are made by kernelindex's ingestion; a changed kernelindex.run_series row cannot be used.")));
}

/* Objects being laid out: members collected, then sorted. */
typedef struct MemberList
{
	LayoutMember *m;
	int			n;
	int			cap;
} MemberList;

/* Add a member to a list being laid out. */
static void
add_member(MemberList *l, const char *key, int keylen, LayoutNode *node)
{
	LayoutMember *m;

	if (l->n == l->cap)
	{
		l->cap = l->cap ? l->cap * 2 : 8;
		l->m = l->m ? repalloc(l->m, sizeof(LayoutMember) * l->cap) :
			palloc(sizeof(LayoutMember) * l->cap);
	}
	m = &l->m[l->n++];
	m->key.type = jbvString;
	m->key.val.string.val = (char *) key;
	m->key.val.string.len = keylen;
	if (GetDatabaseEncoding() == PG_UTF8)
	{
		m->ukey = key;
		m->ukeylen = keylen;
	}
	else
	{
		m->ukey = pg_server_to_any(key, keylen, PG_UTF8);
		m->ukeylen = m->ukey == key ? keylen : strlen(m->ukey);
	}
	m->node = node;
}

/* Finish an object node from its member list. */
static LayoutNode *
node_object(MemberList *l)
{
	LayoutNode *n = palloc0(sizeof(LayoutNode));

	n->kind = LN_OBJECT;
	n->n = l->n;
	n->members = l->m;
	if (l->n > 1)
		qsort(n->members, n->n, sizeof(LayoutMember), member_cmp);
	return n;
}

/* Is there a member named key in the list? */
static bool
has_member(MemberList *l, const char *key)
{
	int			i;

	for (i = 0; i < l->n; i++)
		if (l->m[i].key.val.string.len == (int) strlen(key) &&
			memcmp(l->m[i].key.val.string.val, key, l->m[i].key.val.string.len) == 0)
			return true;
	return false;
}

/* The measurement value a run holds for an element without one. */
static int
measurement_slot(JsonbContainer *c)
{
	JsonbValue *metric = getKeyJsonValueFromContainer(c, "metric", 6, NULL);
	JsonbValue *statistic = getKeyJsonValueFromContainer(c, "statistic", 9, NULL);
	JsonbValue *unit = getKeyJsonValueFromContainer(c, "unit", 4, NULL);
	int			i;

	for (i = 0; i < lengthof(measurement_slots) && metric && statistic && unit; i++)
		if (jstring_is(metric, measurement_slots[i].metric) &&
			jstring_is(statistic, measurement_slots[i].statistic) &&
			jstring_is(unit, measurement_slots[i].unit))
			return SLOT_INT(measurement_slots[i].value);
	bad_template("has a measurement without a value that no run column holds");
	return SLOT_NONE;
}

static LayoutNode *layout_object(RunSeries *s, RunPlan *p, JsonbContainer *c,
								 const RunField *fields);

/* Lay out the measurements array. */
static LayoutNode *
layout_measurements(JsonbContainer *c)
{
	LayoutNode *n = palloc0(sizeof(LayoutNode));
	JsonbIterator *it = JsonbIteratorInit(c);
	JsonbIteratorToken tok;
	JsonbValue	elem;
	int			cap = JsonContainerSize(c);

	n->kind = LN_ARRAY;
	n->elems = palloc(sizeof(LayoutNode *) * Max(cap, 1));
	while ((tok = JsonbIteratorNext(&it, &elem, true)) != WJB_DONE)
	{
		MemberList	l = {0};
		JsonbIterator *mit;
		JsonbValue	x;

		if (tok != WJB_ELEM)
			continue;
		if (elem.type != jbvBinary || !JsonContainerIsObject(elem.val.binary.data))
		{
			n->elems[n->n++] = node_value(&elem);
			continue;
		}
		mit = JsonbIteratorInit(elem.val.binary.data);
		while ((tok = JsonbIteratorNext(&mit, &x, true)) != WJB_DONE)
		{
			JsonbValue	key;

			if (tok != WJB_KEY)
				continue;
			key = x;
			JsonbIteratorNext(&mit, &x, true);
			add_member(&l, key.val.string.val, key.val.string.len, node_value(&x));
		}
		if (!has_member(&l, "value"))
			add_member(&l, "value", 5, node_slot(measurement_slot(elem.val.binary.data)));
		n->elems[n->n++] = node_object(&l);
	}
	return n;
}

/* Lay out the native metrics: the template's, and the ones a run holds. */
static LayoutNode *
layout_metrics(RunSeries *s, RunPlan *p, JsonbContainer *c)
{
	MemberList	l = {0};
	JsonbIterator *it = JsonbIteratorInit(c);
	JsonbIteratorToken tok;
	JsonbValue	x;
	int			i;

	while ((tok = JsonbIteratorNext(&it, &x, true)) != WJB_DONE)
	{
		JsonbValue	key;

		if (tok != WJB_KEY)
			continue;
		key = x;
		JsonbIteratorNext(&it, &x, true);
		add_member(&l, key.val.string.val, key.val.string.len, node_value(&x));
	}
	if (s->native_unit != NULL)
		for (i = 0; i < RUN_NNATIVE; i++)
		{
			p->native_key[i] = psprintf("%s%s", s->native_unit, native_suffix[i]);
			if (has_member(&l, p->native_key[i]))
				bad_template("holds a native metric its runs hold");
			add_member(&l, p->native_key[i], strlen(p->native_key[i]),
					   node_slot(SLOT_NATIVE(i)));
		}
	return node_object(&l);
}

/* Lay out an object with known members, adding the per-run members. */
static LayoutNode *
layout_object(RunSeries *s, RunPlan *p, JsonbContainer *c, const RunField *fields)
{
	MemberList	l = {0};
	JsonbIterator *it = JsonbIteratorInit(c);
	JsonbIteratorToken tok;
	JsonbValue	x;
	bool		has_metrics = false;
	int			i;

	check_stack_depth();
	while ((tok = JsonbIteratorNext(&it, &x, true)) != WJB_DONE)
	{
		JsonbValue	key;
		JsonbValue	val;
		const RunField *f = NULL;
		LayoutNode *child;

		if (tok != WJB_KEY)
			continue;
		key = x;
		JsonbIteratorNext(&it, &val, true);
		for (i = 0; fields[i].key != NULL && f == NULL; i++)
			if (key.val.string.len == (int) strlen(fields[i].key) &&
				memcmp(key.val.string.val, fields[i].key, key.val.string.len) == 0)
				f = &fields[i];
		if (f != NULL && val.type == jbvBinary && JsonContainerIsObject(val.val.binary.data) &&
			f->kind == FK_OBJECT)
			child = layout_object(s, p, val.val.binary.data, f->members);
		else if (f != NULL && val.type == jbvBinary && JsonContainerIsObject(val.val.binary.data) &&
				 f->kind == FK_NUMBER_MAP)
		{
			child = layout_metrics(s, p, val.val.binary.data);
			has_metrics = true;
		}
		else if (f != NULL && val.type == jbvBinary && JsonContainerIsArray(val.val.binary.data) &&
				 f->kind == FK_MEASUREMENTS)
			child = layout_measurements(val.val.binary.data);
		else
		{
			child = node_value(&val);
			if (f != NULL && f->kind == FK_DIGEST)
				bad_template("holds a resource digest");
			if (f != NULL && f->slot == SLOT_NAME && val.type == jbvString)
			{
				if (s->name_stem != NULL)
					bad_template("holds a name and a name stem");
				p->name_constant = jstring(&val);
			}
			if (f != NULL && f->slot == SLOT_EXTERNAL_ID && val.type == jbvString)
			{
				if (s->external_id_stem != NULL)
					bad_template("holds an externalId and an externalId stem");
				p->external_id_constant = jstring(&val);
			}
			if (f != NULL && fields == source_fields && strcmp(f->key, "source") == 0)
				p->source = val;
		}
		add_member(&l, key.val.string.val, key.val.string.len, child);
	}

	/* The members the series' runs hold. */
	if (fields == metadata_fields && s->name_stem != NULL)
		add_member(&l, "name", 4, node_slot(SLOT_NAME));
	if (fields == spec_fields)
	{
		for (i = 0; i < RR_N; i++)
		{
			JsonbValue	d;
			char	   *text = palloc(KIDX_DIGEST_TEXT_LEN + 1);

			kidx_digest_to_cstring(&s->ref[i], text);
			d.type = jbvString;
			d.val.string.val = text;
			d.val.string.len = KIDX_DIGEST_TEXT_LEN;
			add_member(&l, run_ref_member[i], strlen(run_ref_member[i]), node_value(&d));
		}
		if (!has_member(&l, "observedAt"))
			add_member(&l, "observedAt", 10, node_slot(SLOT_OBSERVED_AT));
	}
	if (fields == latency_fields && !has_member(&l, "median"))
		add_member(&l, "median", 6, node_slot(SLOT_INT(RI_LATENCY)));
	if (fields == peak_fields && !has_member(&l, "median"))
		add_member(&l, "median", 6, node_slot(SLOT_INT(RI_PEAK)));
	if (fields == source_fields)
	{
		if (s->external_id_stem != NULL)
			add_member(&l, "externalId", 10, node_slot(SLOT_EXTERNAL_ID));
		if (s->native_unit != NULL && !has_metrics)
			bad_template("has native units but no spec.sourceNative.metrics");
	}
	return node_object(&l);
}

/* Compute a series' keys and lay it out; see run_layout.h. */
void
run_series_prepare(RunSeries *s)
{
	RunPlan    *p = palloc0(sizeof(RunPlan));
	CanonSink  *sink;
	char		text[KIDX_DIGEST_TEXT_LEN + 1];
	int			i;

	kidx_comparability_key(&s->ref[RR_PROTOCOL], &s->ref[RR_WORKLOAD],
						   &s->ref[RR_ENVIRONMENT], &s->comparability_key);

	/*
	 * The series key: SHA-256 of the canonical JSON ["kernelindex.run_series/1",
	 * the four digests, template, name stem, name cut, externalId stem,
	 * native unit] (null for what is absent).
	 */
	sink = canon_sink_digest();
	canon_sink_write(sink, "[\"kernelindex.run_series/1\"", 27);
	for (i = 0; i < RR_N; i++)
	{
		kidx_digest_to_cstring(&s->ref[i], text);
		canon_sink_write(sink, ",\"", 2);
		canon_sink_write(sink, text, KIDX_DIGEST_TEXT_LEN);
		canon_sink_write(sink, "\"", 1);
	}
	canon_sink_write(sink, ",", 1);
	canon_write_container(sink, &s->template->root);
#define WRITE_STRING_OR_NULL(str) \
	do { \
		canon_sink_write(sink, ",", 1); \
		if (str) \
			canon_write_string(sink, (str), strlen(str)); \
		else \
			canon_sink_write(sink, "null", 4); \
	} while (0)
	WRITE_STRING_OR_NULL(s->name_stem);
	if (s->name_stem != NULL && s->name_cut >= 0)
	{
		char		num[MAXINT8LEN + 2];
		int			len = pg_ltoa(s->name_cut, num + 1);

		num[0] = ',';
		canon_sink_write(sink, num, len + 1);
	}
	else
		canon_sink_write(sink, ",null", 5);
	WRITE_STRING_OR_NULL(s->external_id_stem);
	WRITE_STRING_OR_NULL(s->native_unit);
#undef WRITE_STRING_OR_NULL
	canon_sink_write(sink, "]", 1);
	canon_sink_finish(sink, &s->key);

	if (!JB_ROOT_IS_OBJECT(s->template))
		bad_template("is not an object");
	p->cxt = CurrentMemoryContext;
	p->source.type = jbvNull;
	p->root = layout_object(s, p, &s->template->root, run_fields);
	s->plan = p;
}

/* ----------------------------------------------------------------
 *		Per-run values
 * ----------------------------------------------------------------
 */

/* The bit mask of the native values a run has. */
static uint32
native_mask(const RunValues *rv)
{
	uint32		mask = 0;
	int			i;

	for (i = 0; i < RUN_NNATIVE; i++)
		if (rv->native[i] != NULL || rv->native_text[i] != NULL)
			mask |= 1u << i;
	return mask;
}

/* Refuse a run that lacks a value its series holds per run. */
static void
missing_value(const char *what)
{
	ereport(ERROR,
			(errcode(ERRCODE_DATA_CORRUPTED),
			 errmsg("a stored run has no %s, which its series holds per run", what),
			 errhint("Runs are written by kernelindex's ingestion; a changed kernelindex.runs row cannot be exported.")));
}

/* The observedAt text of a run. */
static int
observed_at_text(const RunValues *rv, char *buf)
{
	int			len = (int) observed_at_format(rv->observed_at, buf);

	if (len == 0)
		ereport(ERROR,
				(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
				 errmsg("observedAt %s is outside the years 1 to 9999",
						timestamptz_to_str(rv->observed_at))));
	return len;
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
		ereport(ERROR,
				(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
				 errmsg("observedAt %s is outside the years 1 to 9999",
						timestamptz_to_str(at))));
	runfmt_derive(stem, stemlen, slug, sluglen, cut, server_mblen, out);
	return out;
}

/* The run's name and externalId as rebuilt; see run_layout.h. */
void
run_strings(RunSeries *s, const RunValues *rv, char **name, char **external_id)
{
	RunPlan    *p = s->plan;

	*name = s->name_stem ? run_derived_string(s->name_stem, s->name_cut, rv->observed_at) :
		p->name_constant;
	*external_id = s->external_id_stem ?
		run_derived_string(s->external_id_stem, -1, rv->observed_at) :
		p->external_id_constant;
}

/* The run's externalId; see run_layout.h. */
const char *
run_external_id(RunSeries *s, const RunValues *rv)
{
	if (rv->external_id != NULL)
		return rv->external_id;
	if (s->external_id_stem != NULL)
		return run_derived_string(s->external_id_stem, -1, rv->observed_at);
	return s->plan->external_id_constant;
}

/* The canonical text of a native value. */
static void
write_native(CanonSink *sink, const RunValues *rv, int i)
{
	const char *dec = rv->native_text[i];
	char		out[JCS_NUMBER_BUFLEN];
	size_t		outlen;

	if (rv->native_canon[i] != NULL)
	{
		canon_sink_write(sink, rv->native_canon[i], strlen(rv->native_canon[i]));
		return;
	}
	if (dec == NULL)
		dec = DatumGetCString(DirectFunctionCall1(numeric_out,
												  NumericGetDatum(rv->native[i])));
	if (jcs_number_from_decimal(dec, strlen(dec), out, &outlen) != JCS_NUM_OK)
		ereport(ERROR,
				(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				 errmsg("source-native value %s cannot be carried exactly by canonical JSON", dec)));
	canon_sink_write(sink, out, outlen);
}

/*
 * Write a run's externalId as a canonical string: the stem's canonical
 * text (kept with the plan) and the slug, which needs no escaping.
 */
static void
write_external_id(CanonSink *sink, RunSeries *s, const RunValues *rv)
{
	RunPlan    *p = s->plan;
	char		slug[RUNFMT_SLUG_BUFLEN + 1];
	size_t		sluglen;

	if (p->ext_stem_canon == NULL)
	{
		MemoryContext old = MemoryContextSwitchTo(p->cxt);
		CanonSink  *text = canon_sink_text();

		canon_write_string(text, s->external_id_stem, strlen(s->external_id_stem));
		p->ext_stem_canon = canon_sink_output(text);
		p->ext_stem_canon->data[--p->ext_stem_canon->len] = '\0';
		MemoryContextSwitchTo(old);
	}
	sluglen = run_slug_format(rv->observed_at, slug);
	if (sluglen == 0)
		ereport(ERROR,
				(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
				 errmsg("observedAt %s is outside the years 1 to 9999",
						timestamptz_to_str(rv->observed_at))));
	slug[sluglen++] = '"';
	canon_sink_write(sink, p->ext_stem_canon->data, p->ext_stem_canon->len);
	canon_sink_write(sink, slug, sluglen);
}

/* Write the canonical text of one per-run value. */
static void
write_slot(CanonSink *sink, RunSeries *s, const RunValues *rv, int slot)
{
	char		buf[MAXINT8LEN + RUNFMT_OBSERVED_AT_MAXLEN + 3];
	int			len;

	if (slot == SLOT_OBSERVED_AT)
	{
		buf[0] = '"';
		len = observed_at_text(rv, buf + 1);
		buf[len + 1] = '"';
		canon_sink_write(sink, buf, len + 2);
	}
	else if (slot >= SLOT_INT(0) && slot < SLOT_INT(RI_N))
	{
		int			i = slot - SLOT_INT(0);
		char		out[JCS_NUMBER_BUFLEN];
		size_t		outlen;

		if (!rv->has[i])
			missing_value("measured value");
		len = pg_lltoa(rv->v[i], buf);
		if (rv->v[i] <= (INT64CONST(1) << 53))
			canon_sink_write(sink, buf, len);
		else if (jcs_number_from_decimal(buf, len, out, &outlen) == JCS_NUM_OK)
			canon_sink_write(sink, out, outlen);
		else
			ereport(ERROR,
					(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
					 errmsg("value %s cannot be carried exactly by canonical JSON", buf),
					 errdetail("RFC 8785 writes every number as an IEEE 754 double.")));
	}
	else if (slot >= SLOT_NATIVE(0) && slot < SLOT_NATIVE(RUN_NNATIVE))
		write_native(sink, rv, slot - SLOT_NATIVE(0));
	else if (slot == SLOT_EXTERNAL_ID)
		write_external_id(sink, s, rv);
	else
		elog(ERROR, "run layout slot %d is not part of the identity", slot);
}

/* Build the digest plan of a node, for a pattern of native values present. */
static void
plan_write(CanonSink *sink, LayoutNode *n, uint32 mask, DigestPlan *plan,
		   int *cap, bool identity_only)
{
	int			i;
	bool		first = true;

	check_stack_depth();
	switch (n->kind)
	{
		case LN_VALUE:
			canon_write_value(sink, &n->value);
			break;
		case LN_SLOT:
			if (plan->nholes == *cap)
			{
				*cap *= 2;
				plan->hole_at = repalloc(plan->hole_at, sizeof(int) * *cap);
				plan->hole_slot = repalloc(plan->hole_slot, sizeof(int) * *cap);
			}
			plan->hole_at[plan->nholes] = canon_sink_output(sink)->len;
			plan->hole_slot[plan->nholes++] = n->slot;
			break;
		case LN_ARRAY:
			canon_sink_write(sink, "[", 1);
			for (i = 0; i < n->n; i++)
			{
				if (i > 0)
					canon_sink_write(sink, ",", 1);
				plan_write(sink, n->elems[i], mask, plan, cap, false);
			}
			canon_sink_write(sink, "]", 1);
			break;
		case LN_OBJECT:
			canon_sink_write(sink, "{", 1);
			for (i = 0; i < n->n; i++)
			{
				LayoutMember *m = &n->members[i];

				if (identity_only &&
					!(m->ukeylen == 10 && memcmp(m->ukey, "apiVersion", 10) == 0) &&
					!(m->ukeylen == 4 && memcmp(m->ukey, "kind", 4) == 0) &&
					!(m->ukeylen == 4 && memcmp(m->ukey, "spec", 4) == 0))
					continue;
				if (m->node->kind == LN_SLOT && m->node->slot >= SLOT_NATIVE(0) &&
					m->node->slot < SLOT_NATIVE(RUN_NNATIVE) &&
					!(mask & (1u << (m->node->slot - SLOT_NATIVE(0)))))
					continue;
				if (!first)
					canon_sink_write(sink, ",", 1);
				first = false;
				canon_write_string(sink, m->key.val.string.val, m->key.val.string.len);
				canon_sink_write(sink, ":", 1);
				plan_write(sink, m->node, mask, plan, cap, false);
			}
			canon_sink_write(sink, "}", 1);
			break;
	}
}

/* The digest plan of a series for a pattern of native values present. */
static DigestPlan *
digest_plan(RunSeries *s, uint32 mask)
{
	RunPlan    *p = s->plan;
	MemoryContext old;
	DigestPlan *plan;
	CanonSink  *sink;
	StringInfo	text;
	int			cap = 8;

	if (p->digest[mask] != NULL)
		return p->digest[mask];
	old = MemoryContextSwitchTo(p->cxt);
	plan = palloc0(sizeof(DigestPlan));
	plan->hole_at = palloc(sizeof(int) * cap);
	plan->hole_slot = palloc(sizeof(int) * cap);
	sink = canon_sink_text();
	plan_write(sink, p->root, mask, plan, &cap, true);
	text = canon_sink_output(sink);
	plan->text = text->data;
	plan->len = text->len;
	p->digest[mask] = plan;
	MemoryContextSwitchTo(old);
	return plan;
}

/* The run's identity digest; see run_layout.h. */
void
run_digest(RunSeries *s, const RunValues *rv, KidxDigest *result)
{
	DigestPlan *plan = digest_plan(s, native_mask(rv));
	CanonSink  *sink = canon_sink_digest();
	int			at = 0;
	int			i;

	for (i = 0; i < plan->nholes; i++)
	{
		canon_sink_write(sink, plan->text + at, plan->hole_at[i] - at);
		write_slot(sink, s, rv, plan->hole_slot[i]);
		at = plan->hole_at[i];
	}
	canon_sink_write(sink, plan->text + at, plan->len - at);
	canon_sink_finish(sink, result);
}

/* The value of a slot as a jsonb scalar; false if the run has none. */
static bool
slot_value(RunSeries *s, const RunValues *rv, int slot, JsonbValue *v)
{
	if (slot == SLOT_OBSERVED_AT)
	{
		char	   *buf = palloc(RUNFMT_OBSERVED_AT_MAXLEN + 1);

		v->type = jbvString;
		v->val.string.len = observed_at_text(rv, buf);
		v->val.string.val = buf;
	}
	else if (slot >= SLOT_INT(0) && slot < SLOT_INT(RI_N))
	{
		if (!rv->has[slot - SLOT_INT(0)])
			missing_value("measured value");
		v->type = jbvNumeric;
		v->val.numeric = int64_to_numeric(rv->v[slot - SLOT_INT(0)]);
	}
	else if (slot >= SLOT_NATIVE(0) && slot < SLOT_NATIVE(RUN_NNATIVE))
	{
		int			i = slot - SLOT_NATIVE(0);

		if (rv->native[i] == NULL && rv->native_text[i] == NULL)
			return false;
		v->type = jbvNumeric;
		v->val.numeric = rv->native[i] ? rv->native[i] :
			DatumGetNumeric(DirectFunctionCall3(numeric_in, CStringGetDatum(rv->native_text[i]),
												ObjectIdGetDatum(InvalidOid), Int32GetDatum(-1)));
	}
	else
	{
		char	   *str = slot == SLOT_NAME ?
			run_derived_string(s->name_stem, s->name_cut, rv->observed_at) :
			run_derived_string(s->external_id_stem, -1, rv->observed_at);

		v->type = jbvString;
		v->val.string.val = str;
		v->val.string.len = strlen(str);
	}
	return true;
}

/* Push a laid-out node, with the run's values in its slots. */
static JsonbValue *
rebuild_node(JsonbParseState **ps, JsonbIteratorToken seq, LayoutNode *n,
			 RunSeries *s, const RunValues *rv)
{
	JsonbValue *res = NULL;
	JsonbValue	v;
	int			i;

	check_stack_depth();
	switch (n->kind)
	{
		case LN_VALUE:
			res = pushJsonbValue(ps, seq, &n->value);
			break;
		case LN_SLOT:
			if (slot_value(s, rv, n->slot, &v))
				res = pushJsonbValue(ps, seq, &v);
			break;
		case LN_ARRAY:
			pushJsonbValue(ps, WJB_BEGIN_ARRAY, NULL);
			for (i = 0; i < n->n; i++)
				rebuild_node(ps, WJB_ELEM, n->elems[i], s, rv);
			res = pushJsonbValue(ps, WJB_END_ARRAY, NULL);
			break;
		case LN_OBJECT:
			pushJsonbValue(ps, WJB_BEGIN_OBJECT, NULL);
			for (i = 0; i < n->n; i++)
			{
				LayoutMember *m = &n->members[i];

				if (m->node->kind == LN_SLOT && !slot_value(s, rv, m->node->slot, &v))
					continue;
				pushJsonbValue(ps, WJB_KEY, &m->key);
				if (m->node->kind == LN_SLOT)
					pushJsonbValue(ps, WJB_VALUE, &v);
				else
					rebuild_node(ps, WJB_VALUE, m->node, s, rv);
			}
			res = pushJsonbValue(ps, WJB_END_OBJECT, NULL);
			break;
	}
	return res;
}

/* The run document of a series and a run's values; see run_layout.h. */
Jsonb *
run_rebuild(RunSeries *s, const RunValues *rv)
{
	JsonbParseState *ps = NULL;

	return JsonbValueToJsonb(rebuild_node(&ps, WJB_VALUE, s->plan->root, s, rv));
}

/* The run's external key; see run_layout.h. */
bool
run_external_key(RunSeries *s, const RunValues *rv, pg_uuid_t *result)
{
	RunPlan    *p = s->plan;
	CanonSink  *sink;
	KidxDigest	digest;

	if (s->external_id_stem == NULL && p->external_id_constant == NULL)
		return false;
	if (p->source_canon == NULL)
	{
		MemoryContext old = MemoryContextSwitchTo(p->cxt);

		sink = canon_sink_text();
		canon_sink_write(sink, "[", 1);
		canon_write_value(sink, &p->source);
		canon_sink_write(sink, ",", 1);
		p->source_canon = canon_sink_output(sink);
		MemoryContextSwitchTo(old);
	}

	/* the first 16 bytes of SHA-256 of "[" source "," externalId "]" */
	sink = canon_sink_digest();
	canon_sink_write(sink, p->source_canon->data, p->source_canon->len);
	if (s->external_id_stem != NULL)
		write_external_id(sink, s, rv);
	else
		canon_write_string(sink, p->external_id_constant, strlen(p->external_id_constant));
	canon_sink_write(sink, "]", 1);
	canon_sink_finish(sink, &digest);
	memcpy(result->data, digest.data, UUID_LEN);
	return true;
}

/* ----------------------------------------------------------------
 *		Resources
 * ----------------------------------------------------------------
 */

static const RunField resource_metadata_fields[] = {
	{"name", FK_STRING, true, SLOT_NONE, NULL, "a non-empty string"},
	{"title", FK_STRING, false, SLOT_NONE, NULL, "a string"},
	{"labels", FK_STRING_MAP, false, SLOT_NONE, NULL, "an object of strings"},
	END_FIELDS
};
static const RunField no_fields[] = {
	END_FIELDS
};
static const RunField resource_fields[] = {
	{"apiVersion", FK_CONST, true, SLOT_NONE, NULL, "\"" KIDX_API_VERSION "\"", KIDX_API_VERSION},
	{"kind", FK_STRING, true, SLOT_NONE, NULL, "a resource kind"},
	{"metadata", FK_OBJECT, true, SLOT_NONE, resource_metadata_fields, "an object"},
	{"spec", FK_OBJECT, true, SLOT_NONE, no_fields, "an object"},
	END_FIELDS
};

/* Check a resource document of a kind; see run_layout.h. */
void
run_check_resource(JsonbContainer *c, const RunDocPos *pos, const char *kind)
{
	SplitState	st;
	RunSeries	series;
	RunValues	values;
	JsonbParseState *ps = NULL;
	JsonbValue	root;
	JsonbValue *k;

	memset(&st, 0, sizeof(st));
	memset(&series, 0, sizeof(series));
	memset(&values, 0, sizeof(values));
	st.pos = pos;
	st.series = &series;
	st.values = &values;
	st.kind = kind;
	initStringInfo(&st.path);
	appendStringInfoString(&st.path, pos->path);
	root.type = jbvBinary;
	root.val.binary.data = c;
	root.val.binary.len = 0;
	if (!JsonContainerIsObject(c))
		fault_type(&st, &root, psprintf("a %s object", kind));
	k = getKeyJsonValueFromContainer(c, "kind", 4, NULL);
	if (k != NULL && !jstring_is(k, kind))
	{
		path_push_key(&st.path, "kind", 4);
		fault_type(&st, k, psprintf("\"%s\"", kind));
	}
	split_object(&st, c, resource_fields, &ps);
}
