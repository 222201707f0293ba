/*-------------------------------------------------------------------------
 *
 * liger.c
 *	  Soft validation of Liger-Kernel benchmark CSV rows.
 *
 * kernelindex.liger_row_fault() looks at one staged row of
 * kernelindex.liger_rows and says what is wrong with it, without raising an
 * error, so that a whole COPY statement can be checked in one set-based SQL
 * pass (PostgreSQL 15 has no pg_input_is_valid()).  It uses the parsers'
 * error-returning entry points: pg_parse_json() for the configuration,
 * ParseDateTime()/DecodeDateTime() for the timestamp and the exact decimal
 * scaler of src/core for the measured values.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <ctype.h>

#include "access/htup_details.h"
#include "catalog/pg_type.h"
#include "common/hashfn.h"
#include "common/jsonapi.h"
#include "fmgr.h"
#include "funcapi.h"
#include "mb/pg_wchar.h"
#include "nodes/pg_list.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/datetime.h"
#include "utils/timestamp.h"
#include "utils/typcache.h"

#include "compat.h"
#include "core/decimal.h"
#include "core/jcs.h"
#include "core/runfmt.h"
#include "liger.h"
#include "messages.h"
#include "row_checks.h"

const char *const lr_column_names[LR_NCOLUMNS + 1] = {
	NULL,
	"kernel_name", "kernel_provider", "kernel_operation_mode",
	"metric_name", "metric_unit", "x_name", "x_label", "x_value",
	"y_value_50", "y_value_20", "y_value_80",
	"extra_benchmark_config_str", "gpu_name", "timestamp", "liger_version"
};


/* Reasons returned in more than one place. */
static const char reason_negative[] = "negative";
static const char reason_too_large[] = "too large: its conversion does not fit in bigint";
static const char reason_too_precise[] = KIDX_DOUBLE_CANNOT_CARRY;

/* What kidx_liger_row_fault keeps across the rows of one query. */
typedef struct RowFaultCache
{
	TupleDesc	tupdesc;		/* of kernelindex.liger_rows */
	LigerConfigCache configs;
} RowFaultCache;

PG_FUNCTION_INFO_V1(kidx_liger_row_fault);


/* Build the {column, value, reason, sqlstate} answer. */
static Datum
fault_result(int column, const char *value, const char *reason, int sqlstate)
{
	Datum		elems[4];

	elems[0] = CStringGetTextDatum(lr_column_names[column]);
	elems[1] = CStringGetTextDatum(row_shown_value(value));
	elems[2] = CStringGetTextDatum(reason);
	elems[3] = CStringGetTextDatum(unpack_sql_state(sqlstate));
	return PointerGetDatum(construct_array(elems, lengthof(elems), TEXTOID, -1, false,
										   TYPALIGN_INT));
}

/*
 * Reason a measured value cannot be used (its SQLSTATE in *sqlstate when
 * the value is out of range; left as it is otherwise), or NULL with, in
 * m's slot i, its value scaled by multiplier, its canonical JSON text and
 * its trimmed text.
 */
static const char *
measure_fault(const char *value, uint32_t multiplier, LigerMeasures *m, int i,
			  int *sqlstate)
{
	const char *t;
	int			len;
	int64_t		scaled;
	size_t		canonlen;
	char		buf[64];
	char	   *num = buf;

	row_trim_range(value, &t, &len);
	/* a long decimal (trailing zeros, say) may still be a double's value */
	if (len >= (int) sizeof(buf))
		num = pnstrdup(t, len);
	else
	{
		memcpy(buf, t, len);
		buf[len] = '\0';
	}
	if (!row_is_json_number(num))
		return "not a decimal number";
	if (num[0] == '-' && strcspn(num, "123456789") < strcspn(num, "eE"))
	{
		*sqlstate = ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE;
		return reason_negative;
	}
	switch (dec_scale_round_int64(num, len, multiplier, &scaled))
	{
		case DEC_OK:
			break;
		case DEC_OUT_OF_RANGE:
			*sqlstate = ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE;
			return reason_too_large;
		default:
			return "not a decimal number";
	}
	if (jcs_number_from_decimal(num, len, m->canon[i], &canonlen) != JCS_NUM_OK)
	{
		*sqlstate = ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE;
		return reason_too_precise;
	}
	m->scaled[i] = scaled;
	m->written[i] = t;
	m->writtenlen[i] = len;
	return NULL;
}

/*
 * The first fault of a Liger row (v[1..LR_NCOLUMNS], NULL for SQL NULL):
 * its reason, with its column in *column, or NULL for a good row, whose
 * timestamp and values are then in *m.  Good configurations are remembered
 * in *configs (allocated in its context).
 */
static const char *
row_fault(char **v, int *column, int *sqlstate, LigerConfigCache *configs, LigerMeasures *m)
{
	const char *reason;
	const char *metric;
	const char *unit;
	bool		memory;
	uint32		slot;
	int			i;

	/* Required fields: all but x_label and liger_version. */
	for (i = 1; i <= LR_NCOLUMNS; i++)
	{
		if (i == LR_X_LABEL || i == LR_LIGER_VERSION)
			continue;
		if (v[i] == NULL || row_is_blank(v[i]))
		{
			*column = i;
			return "empty required field";
		}
	}

	metric = v[LR_METRIC_NAME];
	unit = v[LR_METRIC_UNIT];
	if (strcmp(metric, "speed") == 0)
		memory = false;
	else if (strcmp(metric, "memory") == 0)
		memory = true;
	else
	{
		*column = LR_METRIC_NAME;
		return "unknown metric, expected \"speed\" or \"memory\"";
	}
	if (strcmp(unit, memory ? "MB" : "ms") != 0)
	{
		*column = LR_METRIC_UNIT;
		return memory ? "unknown unit for metric \"memory\", expected \"MB\""
			: "unknown unit for metric \"speed\", expected \"ms\"";
	}

	{
		char	   *x = row_trimmed(v[LR_X_VALUE]);
		char		buf[JCS_NUMBER_BUFLEN];
		size_t		buflen;

		if (row_is_json_number(x) &&
			jcs_number_from_decimal(x, strlen(x), buf, &buflen) != JCS_NUM_OK)
		{
			*column = LR_X_VALUE;
			*sqlstate = ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE;
			return reason_too_precise;
		}
	}

	for (i = LR_Y_VALUE_50; i <= LR_Y_VALUE_80; i++)
	{
		reason = measure_fault(v[i], memory ? 1048576 : 1000000, m, i - LR_Y_VALUE_50, sqlstate);
		if (reason != NULL)
		{
			*column = i;
			return reason;
		}
	}

	slot = hash_bytes((const unsigned char *) v[LR_EXTRA_CONFIG],
					  strlen(v[LR_EXTRA_CONFIG])) % LR_CONFIG_SLOTS;
	if (configs->good[slot] == NULL ||
		strcmp(configs->good[slot], v[LR_EXTRA_CONFIG]) != 0)
	{
		reason = row_json_object_fault(v[LR_EXTRA_CONFIG], sqlstate);
		if (reason != NULL)
		{
			*column = LR_EXTRA_CONFIG;
			return reason;
		}
		if (configs->good[slot] != NULL)
			pfree(configs->good[slot]);
		configs->good[slot] = MemoryContextStrdup(configs->context,
												  v[LR_EXTRA_CONFIG]);
	}

	reason = row_timestamp_fault(v[LR_TIMESTAMP], &m->ts);
	if (reason != NULL)
	{
		*column = LR_TIMESTAMP;
		return reason;
	}
	return NULL;
}

/*
 * The first fault of a row among the columns that vary within a run series
 * (the three values and the timestamp), for a row whose other columns are
 * those of a good row already checked: what liger_fault() would say.
 */
static const char *
measures_fault(char **v, bool memory, int *column, int *sqlstate, LigerMeasures *m)
{
	static const int cols[] = {LR_Y_VALUE_50, LR_Y_VALUE_20, LR_Y_VALUE_80, LR_TIMESTAMP};
	const char *reason;
	int			i;

	for (i = 0; i < lengthof(cols); i++)
		if (v[cols[i]] == NULL || row_is_blank(v[cols[i]]))
		{
			*column = cols[i];
			return "empty required field";
		}
	for (i = LR_Y_VALUE_50; i <= LR_Y_VALUE_80; i++)
	{
		reason = measure_fault(v[i], memory ? 1048576 : 1000000, m, i - LR_Y_VALUE_50, sqlstate);
		if (reason != NULL)
		{
			*column = i;
			return reason;
		}
	}
	reason = row_timestamp_fault(v[LR_TIMESTAMP], &m->ts);
	if (reason != NULL)
		*column = LR_TIMESTAMP;
	return reason;
}

/*
 * The SQLSTATE of a fault: 22007 for any fault of the timestamp, what the
 * check said for a number out of range (22003), else 22P02.
 */
static const char *
with_sqlstate(const char *reason, int column, int *sqlstate)
{
	if (reason != NULL && column == LR_TIMESTAMP)
		*sqlstate = ERRCODE_INVALID_DATETIME_FORMAT;
	return reason;
}

/*
 * The first fault of a Liger row (v[1..LR_NCOLUMNS], NULL for SQL NULL):
 * its reason, with its column in *column and its SQLSTATE in *sqlstate, or
 * NULL for a good row, whose timestamp and values are then in *m.  Good
 * configurations are remembered in *configs (allocated in its context).
 */
const char *
liger_fault(char **v, int *column, int *sqlstate, LigerConfigCache *configs, LigerMeasures *m)
{
	const char *reason;

	*sqlstate = ERRCODE_INVALID_TEXT_REPRESENTATION;
	reason = row_fault(v, column, sqlstate, configs, m);
	return with_sqlstate(reason, *column, sqlstate);
}

/* The same for the measured values and timestamp only; see liger.h. */
const char *
liger_measures_fault(char **v, bool memory, int *column, int *sqlstate, LigerMeasures *m)
{
	const char *reason;

	*sqlstate = ERRCODE_INVALID_TEXT_REPRESENTATION;
	reason = measures_fault(v, memory, column, sqlstate, m);
	return with_sqlstate(reason, *column, sqlstate);
}

/*
 * kidx_liger_row_fault(kernelindex.liger_rows) -> text[]
 *
 * NULL for a good row, else {column, value, reason, sqlstate} for its
 * first fault (sqlstate: what a COPY of the row fails with).
 */
Datum
kidx_liger_row_fault(PG_FUNCTION_ARGS)
{
	HeapTupleHeader row = PG_GETARG_HEAPTUPLEHEADER(0);
	RowFaultCache *cache = (RowFaultCache *) fcinfo->flinfo->fn_extra;
	HeapTupleData tuple;
	Datum		values[LR_NCOLUMNS];
	bool		nulls[LR_NCOLUMNS];
	char	   *v[LR_NCOLUMNS + 1];
	const char *reason;
	int			column;
	int			sqlstate;
	LigerMeasures m;
	int			i;

	if (cache == NULL)
	{
		TupleDesc	td = lookup_rowtype_tupdesc(HeapTupleHeaderGetTypeId(row),
												HeapTupleHeaderGetTypMod(row));
		MemoryContext old = MemoryContextSwitchTo(fcinfo->flinfo->fn_mcxt);

		cache = palloc0(sizeof(RowFaultCache));
		cache->tupdesc = CreateTupleDescCopy(td);
		cache->configs.context = fcinfo->flinfo->fn_mcxt;
		MemoryContextSwitchTo(old);
		ReleaseTupleDesc(td);
		fcinfo->flinfo->fn_extra = cache;
	}
	if (cache->tupdesc->natts != LR_NCOLUMNS)
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("a Liger row has %d columns, not %d",
						cache->tupdesc->natts, LR_NCOLUMNS)));

	tuple.t_len = HeapTupleHeaderGetDatumLength(row);
	ItemPointerSetInvalid(&tuple.t_self);
	tuple.t_tableOid = InvalidOid;
	tuple.t_data = row;
	heap_deform_tuple(&tuple, cache->tupdesc, values, nulls);
	for (i = 1; i <= LR_NCOLUMNS; i++)
		v[i] = nulls[i - 1] ? NULL : TextDatumGetCString(values[i - 1]);

	reason = liger_fault(v, &column, &sqlstate, &cache->configs, &m);
	if (reason == NULL)
		PG_RETURN_NULL();
	PG_RETURN_DATUM(fault_result(column, v[column], reason, sqlstate));
}
