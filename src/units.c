/*-------------------------------------------------------------------------
 *
 * units.c
 *	  Exact unit conversion: milliseconds to nanoseconds, MiB to bytes,
 *	  and back for the BI views (ns to ms, bytes to MiB).
 *
 * Every input becomes decimal text (numeric's own text, the text as given,
 * or a double's shortest round-trip text), which src/core/decimal.c scales
 * and rounds half away from zero with no binary floating point anywhere, so
 * that f(x) = round(x::numeric * multiplier)::bigint for every finite x.
 * Back, a bigint becomes the exact numeric of the quotient, as numeric's
 * own multiplication by 10^-6 or 2^-20 gives it, without multiplying.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "common/int.h"
#include "utils/builtins.h"
#include "utils/fmgrprotos.h"
#include "utils/numeric.h"

#include "compat.h"

#include "core/decimal.h"
#include "core/jcs.h"
#include "messages.h"

/* A conversion from one unit to a whole number of a smaller one. */
typedef struct UnitConversion
{
	const char *from;			/* e.g. "milliseconds" */
	const char *to;				/* e.g. "nanoseconds" */
	uint32		multiplier;		/* exact factor from -> to */
} UnitConversion;

static const UnitConversion ms_to_ns = {"milliseconds", "nanoseconds", 1000000};
/* A MiB is 2^MIB_SHIFT bytes. */
#define MIB_SHIFT 20

static const UnitConversion mib_to_bytes = {"MiB", "bytes", UINT32_C(1) << MIB_SHIFT};

PG_FUNCTION_INFO_V1(kidx_ns_to_ms);
PG_FUNCTION_INFO_V1(kidx_bytes_to_mib);
PG_FUNCTION_INFO_V1(kidx_ms_to_ns_numeric);
PG_FUNCTION_INFO_V1(kidx_ms_to_ns_text);
PG_FUNCTION_INFO_V1(kidx_ms_to_ns_float8);
PG_FUNCTION_INFO_V1(kidx_mib_to_bytes_numeric);
PG_FUNCTION_INFO_V1(kidx_mib_to_bytes_text);
PG_FUNCTION_INFO_V1(kidx_mib_to_bytes_float8);

/* Scale decimal text by a conversion, or raise an error naming the input. */
static int64
convert_decimal(const char *s, size_t len, const UnitConversion *conv)
{
	int64		result = 0;

	switch (dec_scale_round_int64(s, len, conv->multiplier, &result))
	{
		case DEC_OK:
			break;
		case DEC_EMPTY:
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
					 errmsg("invalid number of %s: \"%s\"",
							conv->from, kidx_shown(s, len)),
					 errdetail("The value is empty.")));
			break;
		case DEC_SYNTAX:
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
					 errmsg("invalid number of %s: \"%s\"",
							conv->from, kidx_shown(s, len)),
					 errdetail("Expected a decimal number such as \"2.5\" or \"1e-05\".")));
			break;
		case DEC_NAN:
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("cannot convert \"%s\" %s to %s",
							kidx_shown(s, len), conv->from, conv->to),
					 errdetail("NaN is not a measurement.")));
			break;
		case DEC_INFINITE:
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("cannot convert \"%s\" %s to %s",
							kidx_shown(s, len), conv->from, conv->to),
					 errdetail("An infinite value is not a measurement.")));
			break;
		case DEC_OUT_OF_RANGE:
			ereport(ERROR,
					(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
					 errmsg("\"%s\" %s is out of range for %s in bigint",
							kidx_shown(s, len), conv->from, conv->to)));
			break;
	}
	return result;
}

/* Convert a numeric through its exact text. */
static int64
convert_numeric(Numeric num, const UnitConversion *conv)
{
	char	   *s = DatumGetCString(DirectFunctionCall1(numeric_out,
														NumericGetDatum(num)));
	int64		result = convert_decimal(s, strlen(s), conv);

	pfree(s);
	return result;
}

/* Convert a double through its shortest round-trip decimal text. */
static int64
convert_float8(float8 x, const UnitConversion *conv)
{
	char		buf[JCS_NUMBER_BUFLEN];
	int			len;

	if (isnan(x) || isinf(x))
	{
		char	   *s = DatumGetCString(DirectFunctionCall1(float8out,
															Float8GetDatum(x)));

		return convert_decimal(s, strlen(s), conv);
	}
	len = jcs_format_double(x, buf);
	return convert_decimal(buf, len, conv);
}

/* kidx_ms_to_ns(numeric): milliseconds to whole nanoseconds. */
Datum
kidx_ms_to_ns_numeric(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT64(convert_numeric(PG_GETARG_NUMERIC(0), &ms_to_ns));
}

/* kidx_ms_to_ns(text): milliseconds written as decimal text. */
Datum
kidx_ms_to_ns_text(PG_FUNCTION_ARGS)
{
	text	   *t = PG_GETARG_TEXT_PP(0);

	PG_RETURN_INT64(convert_decimal(VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t),
									&ms_to_ns));
}

/* kidx_ms_to_ns(double precision): via the double's shortest decimal. */
Datum
kidx_ms_to_ns_float8(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT64(convert_float8(PG_GETARG_FLOAT8(0), &ms_to_ns));
}

/* kidx_mib_to_bytes(numeric): MiB (2^20 bytes) to whole bytes. */
Datum
kidx_mib_to_bytes_numeric(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT64(convert_numeric(PG_GETARG_NUMERIC(0), &mib_to_bytes));
}

/* kidx_mib_to_bytes(text): MiB written as decimal text. */
Datum
kidx_mib_to_bytes_text(PG_FUNCTION_ARGS)
{
	text	   *t = PG_GETARG_TEXT_PP(0);

	PG_RETURN_INT64(convert_decimal(VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t),
									&mib_to_bytes));
}

/* kidx_mib_to_bytes(double precision): via the double's shortest decimal. */
Datum
kidx_mib_to_bytes_float8(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT64(convert_float8(PG_GETARG_FLOAT8(0), &mib_to_bytes));
}

/*
 * value / 10^scale as numeric with that scale, by int64_div_fast_to_numeric
 * where it needs no more than int64 arithmetic: value times 10^(4 - scale %
 * 4), numeric's base being 10^4, fits.  Past that, releases of PostgreSQL
 * before the fix of 2023 ("Make int64_div_fast_to_numeric() more robust")
 * divided in numeric and rounded, so NULL then: the caller multiplies.
 */
static Numeric
int64_scaled_numeric(int64 value, int scale)
{
	static const int64 pow10[] = {1, 10, 100, 1000};
	int			left = scale % 4;
	int64		product;

	if (left > 0 && pg_mul_s64_overflow(value, pow10[4 - left], &product))
		return NULL;
	return int64_div_fast_to_numeric(value, scale);
}

/*
 * value times the exact decimal constant the function call's fn_extra
 * keeps (parsed from text at the first call).
 */
static Numeric
times_constant(FunctionCallInfo fcinfo, int64 value, const char *constant)
{
	if (fcinfo->flinfo->fn_extra == NULL)
	{
		MemoryContext old = MemoryContextSwitchTo(fcinfo->flinfo->fn_mcxt);

		fcinfo->flinfo->fn_extra =
			DatumGetPointer(DirectFunctionCall3(numeric_in, CStringGetDatum(constant),
												ObjectIdGetDatum(InvalidOid),
												Int32GetDatum(-1)));
		MemoryContextSwitchTo(old);
	}
	return DatumGetNumeric(DirectFunctionCall2(numeric_mul,
											   NumericGetDatum(int64_to_numeric(value)),
											   PointerGetDatum(fcinfo->flinfo->fn_extra)));
}

/*
 * kernelindex.ns_to_ms(bigint): ns / 10^6 as numeric with six decimals,
 * exactly what ns::numeric * 0.000001 gives (that product past 9.2e16 ns).
 */
Datum
kidx_ns_to_ms(PG_FUNCTION_ARGS)
{
	int64		ns = PG_GETARG_INT64(0);
	Numeric		result = int64_scaled_numeric(ns, 6);

	if (result == NULL)
		result = times_constant(fcinfo, ns, "0.000001");
	PG_RETURN_NUMERIC(result);
}

/*
 * kernelindex.bytes_to_mib(bigint): bytes / 2^20 as numeric without
 * trailing zeros, exactly trim_scale(bytes::numeric * 2^-20), the shortest
 * exact decimal of src/core/decimal.c; that product where its digits do not
 * fit int64.
 */
Datum
kidx_bytes_to_mib(PG_FUNCTION_ARGS)
{
	int64		bytes = PG_GETARG_INT64(0);
	int64_t		mantissa;
	int			scale;
	Numeric		result = NULL;

	if (dec_pow2_quotient(bytes, MIB_SHIFT, &mantissa, &scale))
		result = scale == 0 ? int64_to_numeric(mantissa) :
			int64_scaled_numeric(mantissa, scale);
	if (result == NULL)
	{
		/* 2^-20, exactly */
		Numeric		product = times_constant(fcinfo, bytes, "0.00000095367431640625");

		result = DatumGetNumeric(DirectFunctionCall1(numeric_trim_scale,
													 NumericGetDatum(product)));
	}
	PG_RETURN_NUMERIC(result);
}
