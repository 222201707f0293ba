/*-------------------------------------------------------------------------
 *
 * run_split.c
 *	  The way in: checking a BenchmarkRun document against the layout
 *	  (run_layout.c) and splitting it into its parts, deciding how its name
 *	  and externalId are held, checking resource documents, and writing the
 *	  document of a run a harness describes (run_model, the CSV path).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "compat.h"

#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/fmgrprotos.h"
#include "utils/jsonb.h"
#include "utils/numeric.h"

#include "canonical.h"
#include "core/jcs.h"
#include "core/runfmt.h"
#include "messages.h"
#include "run_layout_int.h"

/* State of one split. */
typedef struct SplitState
{
	const RunDocPos *pos;
	RunParts   *parts;
	StringInfoData path;
	bool		measurement_taken[RV_N];
	const char *name;			/* metadata.name as written */
	const char *external_id;	/* spec.sourceNative.externalId, or NULL */
	const char *kind;			/* the kind checked, for messages */
} SplitState;

/* ----------------------------------------------------------------
 *		Messages
 * ----------------------------------------------------------------
 */

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
fault_missing(SplitState *st, const RunMember *f)
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
	kidx_refuse_number(psprintf("document " INT64_FORMAT ": %s is %s, which",
								st->pos->ord, st->path.data, canon_shown_number(dec)),
					   dec, status == JCS_NUM_OUT_OF_RANGE);
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

/* Check a digest member and store it among the run's references. */
static void
check_digest(SplitState *st, JsonbValue *v, const RunMember *f)
{
	const char *hint;
	char	   *detail;

	if (v->type != jbvString)
		fault_type(st, v, f->what);
	detail = kidx_digest_parse(v->val.string.val, v->val.string.len,
							   &st->parts->ref[f->index], &hint);
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
check_timestamp(SplitState *st, JsonbValue *v, const RunMember *f)
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
	st->parts->values.observed_at = r.usec;
	return r.canonical;
}

/* ----------------------------------------------------------------
 *		Splitting a document
 * ----------------------------------------------------------------
 */

static JsonbValue *split_object(SplitState *st, JsonbContainer *c,
								const RunMember *fields, JsonbParseState **ps);

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

/* A jsonb of its own holding a copy of a container value. */
static Jsonb *
value_jsonb(JsonbValue *v)
{
	Jsonb	   *jb = palloc(VARHDRSZ + v->val.binary.len);

	SET_VARSIZE(jb, VARHDRSZ + v->val.binary.len);
	memcpy(VARDATA(jb), v->val.binary.data, v->val.binary.len);
	return jb;
}

/* Check an object of strings (labels); the run holds it. */
static void
split_labels(SplitState *st, JsonbValue *v, const RunMember *f)
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
	st->parts->labels = value_jsonb(v);
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
split_metrics(SplitState *st, JsonbValue *v, const RunMember *f, JsonbParseState **ps)
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
			st->parts->values.native[s] = val.val.numeric;
		else
			push_member(ps, &key, &val);
	}
	pushJsonbValue(ps, WJB_END_OBJECT, NULL);
	st->parts->template->native_unit = unit;
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

/* Split the measurements: values some of which a run holds. */
static void
split_measurements(SplitState *st, JsonbValue *v, const RunMember *f, JsonbParseState **ps)
{
	RunValues  *rv = &st->parts->values;
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
		if (jstring_is(unit, "ns") || jstring_is(unit, "bytes") ||
			measurement_slot_of(metric, statistic, unit) >= 0)
		{
			int64		n;
			bool		exact = check_count(st, value,
											jstring_is(unit, "ns") ? "a non-negative integer of nanoseconds" :
											jstring_is(unit, "bytes") ? "a non-negative integer of bytes" :
											"a non-negative integer count", &n);
			int			slot = measurement_slot_of(metric, statistic, unit);

			/*
			 * The run's column has the value; the element leaves it to the
			 * column when it is written as the column is rebuilt.
			 */
			if (slot >= 0 && !st->measurement_taken[measurement_slots[slot].value])
			{
				RunValue	rvi = measurement_slots[slot].value;

				st->measurement_taken[rvi] = true;
				rv->has[rvi] = true;
				rv->v[rvi] = n;
				if (exact)
					held = rvi;
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

/* Split one known member; true if it is not to be kept as it is. */
static bool
split_member(SplitState *st, const RunMember *f, JsonbValue *key, JsonbValue *v,
			 JsonbParseState **ps)
{
	RunParts   *parts = st->parts;
	int64		n;

	switch (f->type)
	{
		case MT_CONSTANT:
			if (!jstring_is(v, f->constant))
				fault_type(st, v, f->what);
			return false;
		case MT_STRING:
			if (v->type != jbvString || (f->nonempty && v->val.string.len == 0))
				fault_type(st, v, f->what);
			if (f->hold == MH_PRIMARY)
			{
				int			i;

				for (i = 0; i < RS_N && !jstring_is(v, run_statistic_name[i]); i++)
					;
				if (i == RS_N)
					fault_type(st, v, f->what);
				parts->primary[f->index] = i;
				return false;	/* the template keeps it */
			}
			if (f->hold != MH_TEXT)
				return false;
			if (f->index == RT_NAME)
				st->name = jstring(v);
			else if (f->index == RT_EXTERNAL_ID)
				st->external_id = jstring(v);
			else
				parts->text[f->index] = jstring(v);
			return true;
		case MT_DIGEST:
			check_digest(st, v, f);
			return true;
		case MT_TIMESTAMP:
			return check_timestamp(st, v, f);
		case MT_COUNT:
			{
				bool		exact = check_count(st, v, f->what, &n);

				/* the column has it; the template keeps another text of it */
				parts->values.has[f->index] = true;
				parts->values.v[f->index] = n;
				return exact;
			}
		case MT_OBJECT:
			if (v->type != jbvBinary || !JsonContainerIsObject(v->val.binary.data))
				fault_type(st, v, f->what);
			pushJsonbValue(ps, WJB_KEY, key);
			split_object(st, v->val.binary.data, f->members, ps);
			return true;		/* pushed already */
		case MT_STRINGS:
			split_labels(st, v, f);
			return true;
		case MT_NUMBERS:
			pushJsonbValue(ps, WJB_KEY, key);
			split_metrics(st, v, f, ps);
			return true;
		case MT_MEASUREMENTS:
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
split_object(SplitState *st, JsonbContainer *c, const RunMember *fields,
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
		const RunMember *f;
		int			old;

		if (tok != WJB_KEY)
			continue;
		key = x;
		JsonbIteratorNext(&it, &val, true);
		f = run_member_find(fields, key.val.string.val, key.val.string.len);
		if (f != NULL)
			seen |= 1u << (f - fields);
		old = path_push_key(&st->path, key.val.string.val, key.val.string.len);
		if (f == NULL)
		{
			check_numbers(st, &val);
			push_member(ps, &key, &val);
		}
		else if (!split_member(st, f, &key, &val, ps))
			push_member(ps, &key, &val);
		path_pop(&st->path, old);
	}
	for (i = 0; fields[i].key != NULL; i++)
		if (fields[i].required && !(seen & (1u << i)))
			fault_missing(st, &fields[i]);
	return pushJsonbValue(ps, WJB_END_OBJECT, NULL);
}

/*
 * A primaryStatistic names a statistic the run has; a passed run carries
 * the headline number of its latency or of its peak memory: the statistic
 * its primaryStatistic names, the median when none is named.
 */
static void
check_primary(SplitState *st)
{
	static const char *const member[RM_N] = {"timing", "memory"};
	static const char *const metric[RM_N] = {"latency", "peakMemory"};
	static const char *const unit[RM_N] = {"ns", "bytes"};
	RunParts   *parts = st->parts;
	bool		has = false;
	int			m;

	for (m = 0; m < RM_N; m++)
	{
		int			s = parts->primary[m];

		if (s > RS_MEDIAN && !parts->values.has[run_statistic_value[m][s]])
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("document " INT64_FORMAT ": %s.spec.%s.primaryStatistic is \"%s\", but the run has no %s/%s/%s measurement",
							st->pos->ord, st->pos->path, member[m], run_statistic_name[s],
							metric[m], run_statistic_name[s], unit[m]),
					 errdetail("The primary statistic is the number a run is compared on: it must be there.")));
		if (parts->values.has[run_statistic_value[m][s < 0 ? RS_MEDIAN : s]])
			has = true;
	}
	if (!has && strcmp(parts->text[RT_STATUS], "passed") == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("document " INT64_FORMAT ": %s.spec has neither timing.latencyNs.median nor memory.peakBytes.median",
						st->pos->ord, st->pos->path),
				 errdetail("A run whose status is \"passed\" carries the number it measured."),
				 errhint("That is the statistic its timing.primaryStatistic or memory.primaryStatistic names (median, mean or min), the median when it names none.")));
}

/* Check a run document and split it; see run_layout.h. */
void
run_split(JsonbContainer *run, const RunDocPos *pos, RunParts *parts)
{
	SplitState	st;
	JsonbParseState *ps = NULL;
	JsonbValue *tmpl;
	JsonbValue	root;

	memset(parts, 0, sizeof(RunParts));
	parts->template = palloc0(sizeof(RunTemplate));
	parts->template->name_cut = -1;
	memset(&st, 0, sizeof(st));
	st.pos = pos;
	st.parts = parts;
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
	parts->primary[RM_LATENCY] = parts->primary[RM_MEMORY] = -1;
	tmpl = split_object(&st, run, run_members, &ps);
	check_primary(&st);
	parts->template->doc = JsonbValueToJsonb(tmpl);
	parts->text[RT_NAME] = st.name;
	parts->text[RT_EXTERNAL_ID] = st.external_id;
}

/* ----------------------------------------------------------------
 *		Names and externalIds
 * ----------------------------------------------------------------
 */

/*
 * The part of an externalId stem between "<benchmark>/" and "/<label>/",
 * if the stem is made so (RIF_LABELLED); else NULL.
 */
static char *
labelled_part(const char *stem, size_t stemlen, const char *benchmark, const char *label)
{
	size_t		blen;
	size_t		llen;

	if (benchmark == NULL || label == NULL)
		return NULL;
	blen = strlen(benchmark);
	llen = strlen(label);
	if (stemlen < blen + llen + 4 ||
		memcmp(stem, benchmark, blen) != 0 || stem[blen] != '/' ||
		stem[stemlen - llen - 2] != '/' ||
		memcmp(stem + stemlen - llen - 1, label, llen) != 0 ||
		stem[stemlen - 1] != '/')
		return NULL;
	return pnstrdup(stem + blen + 1, stemlen - blen - llen - 3);
}

/* Decide how a run's name and externalId are held; see run_layout.h. */
void
run_forms(RunParts *parts, const char *workload_label)
{
	RunTemplate *t = parts->template;
	const char *name = parts->text[RT_NAME];
	const char *external_id = parts->text[RT_EXTERNAL_ID];
	char		slug[RUNFMT_SLUG_BUFLEN];
	size_t		sluglen = run_slug_format(parts->values.observed_at, slug);
	size_t		stemlen;
	int			cut;

	/*
	 * externalId: a stem before the observedAt slug, without the benchmark
	 * and the workload's label where it is made of them (as the CSV paths
	 * of every harness write externalIds); else the whole
	 */
	t->external_id_form = RIF_ABSENT;
	parts->text[RT_EXTERNAL_ID] = NULL;
	parts->workload_label = NULL;
	if (external_id != NULL)
	{
		size_t		len = strlen(external_id);

		if (runfmt_detect(external_id, len, slug, sluglen, false, run_server_mblen,
						  &stemlen, &cut))
		{
			char	   *part = labelled_part(external_id, stemlen,
											 parts->text[RT_BENCHMARK], workload_label);

			if (part != NULL)
			{
				t->external_id_form = RIF_LABELLED;
				parts->text[RT_EXTERNAL_ID] = part;
				parts->workload_label = workload_label;
			}
			else
			{
				t->external_id_form = RIF_STEM;
				parts->text[RT_EXTERNAL_ID] = pnstrdup(external_id, stemlen);
			}
		}
		else
		{
			t->external_id_form = RIF_LITERAL;
			parts->text[RT_EXTERNAL_ID] = pstrdup(external_id);
		}
	}

	/*
	 * name: a prefix and the slug of the externalId (as the CSV paths of
	 * every harness write names, liger_ingest.c and run_rows.c), else a
	 * stem before the observedAt slug, else the whole; cut where it was.
	 */
	t->name_prefix = NULL;
	t->name_cut = -1;
	if (external_id != NULL)
	{
		char	   *s = run_id_slug(external_id);

		if (runfmt_detect(name, strlen(name), s, strlen(s), true, run_server_mblen,
						  &stemlen, &cut))
		{
			t->name_form = RNF_FROM_EXTERNAL_ID;
			t->name_prefix = pnstrdup(name, stemlen);
			t->name_cut = cut;
			parts->text[RT_NAME] = NULL;
			return;
		}
	}
	if (runfmt_detect(name, strlen(name), slug, sluglen, true, run_server_mblen,
					  &stemlen, &cut))
	{
		t->name_form = RNF_STEM;
		t->name_cut = cut;
		parts->text[RT_NAME] = pnstrdup(name, stemlen);
		return;
	}
	t->name_form = RNF_LITERAL;
	parts->text[RT_NAME] = pstrdup(name);
}

/* ----------------------------------------------------------------
 *		Resources
 * ----------------------------------------------------------------
 */

static const RunMember resource_metadata_members[] = {
	{"name", MT_STRING, true, true, MH_TEMPLATE, 0, NULL, "a non-empty string"},
	{"title", MT_STRING, false, false, MH_TEMPLATE, 0, NULL, "a string"},
	{"labels", MT_STRINGS, false, false, MH_TEMPLATE, 0, NULL, "an object of strings"},
	{NULL, 0, false, false, MH_TEMPLATE, 0, NULL, NULL, NULL}
};
static const RunMember no_members[] = {
	{NULL, 0, false, false, MH_TEMPLATE, 0, NULL, NULL, NULL}
};
static const RunMember resource_members[] = {
	{"apiVersion", MT_CONSTANT, true, false, MH_TEMPLATE, 0, NULL, "\"" KIDX_API_VERSION "\"", KIDX_API_VERSION},
	{"kind", MT_STRING, true, false, MH_TEMPLATE, 0, NULL, "a resource kind"},
	{"metadata", MT_OBJECT, true, false, MH_TEMPLATE, 0, resource_metadata_members, "an object"},
	{"spec", MT_OBJECT, true, false, MH_TEMPLATE, 0, no_members, "an object"},
	{NULL, 0, false, false, MH_TEMPLATE, 0, NULL, NULL, NULL}
};

/* Check a resource document of a kind; see run_layout.h. */
void
run_check_resource(JsonbContainer *c, const RunDocPos *pos, const char *kind)
{
	SplitState	st;
	RunParts	parts;
	JsonbParseState *ps = NULL;
	JsonbValue	root;
	JsonbValue *k;

	memset(&st, 0, sizeof(st));
	memset(&parts, 0, sizeof(parts));
	parts.template = palloc0(sizeof(RunTemplate));
	st.pos = pos;
	st.parts = &parts;
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
	split_object(&st, c, resource_members, &ps);
}

/* ----------------------------------------------------------------
 *		The document of a run a harness describes
 * ----------------------------------------------------------------
 */

/* Push a key. */
static void
push_key(JsonbParseState **ps, const char *key)
{
	JsonbValue	v;

	v.type = jbvString;
	v.val.string.val = (char *) key;
	v.val.string.len = strlen(key);
	pushJsonbValue(ps, WJB_KEY, &v);
}

/* Push a member whose value is a string. */
static void
push_string(JsonbParseState **ps, const char *key, const char *value)
{
	JsonbValue	v;

	push_key(ps, key);
	v.type = jbvString;
	v.val.string.val = (char *) value;
	v.val.string.len = strlen(value);
	pushJsonbValue(ps, WJB_VALUE, &v);
}

/* Push a member whose value is a number (a numeric). */
static void
push_numeric(JsonbParseState **ps, const char *key, Numeric n)
{
	JsonbValue	v;

	push_key(ps, key);
	v.type = jbvNumeric;
	v.val.numeric = n;
	pushJsonbValue(ps, WJB_VALUE, &v);
}

/* A measurement {metric, statistic, unit, value} as an array element. */
static void
push_measurement(JsonbParseState **ps, const char *metric, const char *statistic,
				 const char *unit, int64 value)
{
	pushJsonbValue(ps, WJB_BEGIN_OBJECT, NULL);
	push_string(ps, "metric", metric);
	push_string(ps, "statistic", statistic);
	push_string(ps, "unit", unit);
	push_numeric(ps, "value", int64_to_numeric(value));
	pushJsonbValue(ps, WJB_END_OBJECT, NULL);
}

/* The document of a run described by a model; see run_layout.h. */
Jsonb *
run_model(const RunModel *m)
{
	JsonbParseState *ps = NULL;
	JsonbValue *res;
	char		at[RUNFMT_OBSERVED_AT_MAXLEN + 1];
	const char *metric = m->memory ? "peakMemory" : "latency";
	RunValue	median = m->memory ? RV_PEAK : RV_LATENCY;
	int			i;

	if (observed_at_format(m->observed_at, at) == 0)
		run_observed_at_out_of_range(m->observed_at);
	pushJsonbValue(&ps, WJB_BEGIN_OBJECT, NULL);
	push_string(&ps, "apiVersion", KIDX_API_VERSION);
	push_string(&ps, "kind", "BenchmarkRun");

	push_key(&ps, "metadata");
	pushJsonbValue(&ps, WJB_BEGIN_OBJECT, NULL);
	push_string(&ps, "name", m->name);
	if (m->title != NULL)
		push_string(&ps, "title", m->title);
	if (m->labels != NULL)
	{
		JsonbIterator *it = JsonbIteratorInit(&m->labels->root);
		JsonbIteratorToken tok;
		JsonbValue	x;

		push_key(&ps, "labels");
		while ((tok = JsonbIteratorNext(&it, &x, true)) != WJB_DONE)
			pushJsonbValue(&ps, tok, tok == WJB_BEGIN_OBJECT || tok == WJB_END_OBJECT ? NULL : &x);
	}
	pushJsonbValue(&ps, WJB_END_OBJECT, NULL);

	push_key(&ps, "spec");
	pushJsonbValue(&ps, WJB_BEGIN_OBJECT, NULL);
	push_string(&ps, "status", m->status);
	push_string(&ps, "observedAt", at);
	for (i = 0; i < RR_N; i++)
	{
		/* pushJsonbValue keeps the pointer: a buffer of each digest's own */
		char	   *text = palloc(KIDX_DIGEST_TEXT_LEN + 1);

		kidx_digest_to_cstring(&m->ref[i], text);
		push_string(&ps, run_ref_member[i], text);
	}
	push_key(&ps, m->memory ? "memory" : "timing");
	pushJsonbValue(&ps, WJB_BEGIN_OBJECT, NULL);
	if (m->has[median])
	{
		push_key(&ps, m->memory ? "peakBytes" : "latencyNs");
		pushJsonbValue(&ps, WJB_BEGIN_OBJECT, NULL);
		push_numeric(&ps, "median", int64_to_numeric(m->v[median]));
		pushJsonbValue(&ps, WJB_END_OBJECT, NULL);
	}
	if (m->primary_statistic != NULL)
		push_string(&ps, "primaryStatistic", m->primary_statistic);
	pushJsonbValue(&ps, WJB_END_OBJECT, NULL);
	push_key(&ps, "measurements");
	pushJsonbValue(&ps, WJB_BEGIN_ARRAY, NULL);
	for (i = 0; i < n_measurement_slots; i++)
	{
		const MeasurementSlot *slot = &measurement_slots[i];

		if (strcmp(slot->metric, metric) == 0 && m->has[slot->value])
			push_measurement(&ps, metric, slot->statistic, slot->unit, m->v[slot->value]);
	}
	pushJsonbValue(&ps, WJB_END_ARRAY, NULL);
	push_key(&ps, "sourceNative");
	pushJsonbValue(&ps, WJB_BEGIN_OBJECT, NULL);
	if (m->source != NULL)
		push_string(&ps, "source", m->source);
	if (m->benchmark != NULL)
		push_string(&ps, "benchmark", m->benchmark);
	if (m->external_id != NULL)
		push_string(&ps, "externalId", m->external_id);
	if (m->native_unit != NULL)
	{
		push_key(&ps, "metrics");
		pushJsonbValue(&ps, WJB_BEGIN_OBJECT, NULL);
		for (i = 0; i < RUN_NNATIVE; i++)
			if (m->native_text[i] != NULL)
				push_numeric(&ps, psprintf("%s%s", m->native_unit, native_suffix[i]),
							 run_numeric_in(m->native_text[i]));
		pushJsonbValue(&ps, WJB_END_OBJECT, NULL);
	}
	pushJsonbValue(&ps, WJB_END_OBJECT, NULL);
	pushJsonbValue(&ps, WJB_END_OBJECT, NULL);
	res = pushJsonbValue(&ps, WJB_END_OBJECT, NULL);
	return JsonbValueToJsonb(res);
}
