/*-------------------------------------------------------------------------
 *
 * stats.c
 *	  kernelindex.welch_p_value: whether two runs' means differ outside the
 *	  noise, by Welch's t-test on their summaries (the test itself is
 *	  src/core/stats.c).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "fmgr.h"
#include "utils/builtins.h"
#include "utils/fmgrprotos.h"

#include "compat.h"

#include "core/stats.h"

PG_FUNCTION_INFO_V1(kidx_welch_p_value);

/* The names of welch_p_value's arguments, as SQL declares them. */
static const char *const mean_arg[] = {"mean_a", "mean_b"};
static const char *const stddev_arg[] = {"stddev_a", "stddev_b"};
static const char *const samples_arg[] = {"samples_a", "samples_b"};

/* A double as float8out prints it (shortest round-trip, NaN, Infinity). */
static char *
float8_text(double x)
{
	return DatumGetCString(DirectFunctionCall1(float8out, Float8GetDatum(x)));
}

/* Raise the error for a value that is not a measurement. */
static void
report_not_finite(const char *arg, double x)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("invalid %s: %s", arg, float8_text(x)),
			 errdetail(isnan(x) ? "NaN is not a measurement." :
					   "An infinite value is not a measurement.")));
}

/*
 * kernelindex.welch_p_value(mean_a, stddev_a, samples_a, mean_b, stddev_b,
 * samples_b) -> double precision: the two-sided p-value of Welch's t-test;
 * NULL when a side has fewer than 2 samples.
 */
Datum
kidx_welch_p_value(PG_FUNCTION_ARGS)
{
	StatsSample a;
	StatsSample b;
	StatsWelch w;
	const StatsSample *bad;
	stats_status st;

	a.mean = PG_GETARG_FLOAT8(0);
	a.stddev = PG_GETARG_FLOAT8(1);
	a.samples = PG_GETARG_INT64(2);
	b.mean = PG_GETARG_FLOAT8(3);
	b.stddev = PG_GETARG_FLOAT8(4);
	b.samples = PG_GETARG_INT64(5);

	st = stats_welch(&a, &b, &w);
	bad = (w.side == 0) ? &a : &b;
	switch (st)
	{
		case STATS_OK:
			break;
		case STATS_UNDEFINED:
			PG_RETURN_NULL();
		case STATS_MEAN_NOT_FINITE:
			report_not_finite(mean_arg[w.side], bad->mean);
			break;
		case STATS_STDDEV_NOT_FINITE:
			report_not_finite(stddev_arg[w.side], bad->stddev);
			break;
		case STATS_STDDEV_NEGATIVE:
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("invalid %s: %s", stddev_arg[w.side],
							float8_text(bad->stddev)),
					 errdetail("A standard deviation cannot be negative.")));
			break;
		case STATS_SAMPLES_NEGATIVE:
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("invalid %s: " INT64_FORMAT, samples_arg[w.side],
							bad->samples),
					 errdetail("A number of samples cannot be negative.")));
			break;
		case STATS_DOMAIN:
		case STATS_NO_CONVERGENCE:
			elog(ERROR, "Welch's test failed: %s (t = %s, df = %s)",
				 stats_status_name(st), float8_text(w.t), float8_text(w.df));
			break;
	}
	PG_RETURN_FLOAT8(w.p);
}
