/*-------------------------------------------------------------------------
 *
 * change_points.c
 *	  kernelindex.change_point and kernelindex.change_point_levels: window
 *	  functions that find where the level of a series shifts (the method
 *	  is src/core/changepoint.c).
 *
 * Each reads its whole window partition once, whatever the frame (the
 * points in partition order; a row whose value is NULL is no point of
 * the series), segments it under the kernelindex.change_* settings, keeps
 * the changes in the partition's local memory, and answers each row from
 * them: on the row of each change (its first point after the change), the
 * change's p-value (change_point) or the p-value with the levels and
 * lengths of the final segments on either side (change_point_levels);
 * NULL on every other row.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "catalog/pg_type.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/fmgrprotos.h"
#include "utils/memutils.h"
#include "windowapi.h"

#include "compat.h"
#include "kernelindex.h"

#include "core/changepoint.h"

PG_FUNCTION_INFO_V1(kidx_change_point);
PG_FUNCTION_INFO_V1(kidx_change_point_levels);

/* How many rows are read between two checks for a cancel. */
#define READ_TICK_ROWS 4096

/* What a partition keeps between the calls for its rows. */
typedef struct ChangePartition
{
	bool		computed;		/* the changes below are the partition's */
	int64		nchanges;
	int64	   *rows;			/* the partition row of each change, in
								 * order */
	CpChange   *changes;		/* the changes, in the same order */
} ChangePartition;

/* A double as float8out prints it (shortest round-trip, NaN, Infinity). */
static char *
float8_text(double x)
{
	return DatumGetCString(DirectFunctionCall1(float8out, Float8GetDatum(x)));
}

/* The method's tick: let a cancel or a shutdown in. */
static void
change_tick(void *arg)
{
	CHECK_FOR_INTERRUPTS();
}

/* The settings of the method, from the kernelindex.change_* GUCs. */
static void
current_settings(CpSettings *settings)
{
	settings->max_p = kidx_change_max_p;
	settings->min_shift = kidx_change_min_shift;
	settings->min_points = kidx_change_min_points;
	settings->noise_floor = kidx_change_noise_floor;
}

/*
 * Read the partition's points, check them, segment the series and keep
 * the changes (with their rows) in the partition's memory.
 */
static void
compute_partition(WindowObject win, ChangePartition *part, const char *fname)
{
	MemoryContext partcontext = GetMemoryChunkContext(part);
	int64		total = WinGetPartitionRowCount(win);
	double	   *x;
	double	   *noise;
	int64	   *rows;
	CpChange   *out;
	void	   *work;
	size_t		work_bytes;
	int64		n = 0;
	int64		row;
	int64		nchanges;
	CpSettings	settings;

	current_settings(&settings);
	work_bytes = cp_work_size(total);
	if (work_bytes == 0 || (Size) total > MaxAllocHugeSize / sizeof(CpChange))
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("window partition too large for %s: " INT64_FORMAT " rows",
						fname, total)));
	x = MemoryContextAllocHuge(CurrentMemoryContext, sizeof(double) * Max(total, 1));
	noise = MemoryContextAllocHuge(CurrentMemoryContext, sizeof(double) * Max(total, 1));
	rows = MemoryContextAllocHuge(CurrentMemoryContext, sizeof(int64) * Max(total, 1));

	for (row = 0; row < total; row++)
	{
		bool		isnull;
		bool		isout;
		Datum		d;
		double		v;
		double		s;

		if (row % READ_TICK_ROWS == 0)
			CHECK_FOR_INTERRUPTS();
		d = WinGetFuncArgInPartition(win, 0, row, WINDOW_SEEK_HEAD, false,
									 &isnull, &isout);
		if (isout)
			elog(ERROR, "row " INT64_FORMAT " of a partition of " INT64_FORMAT
				 " rows is out of it", row, total);
		if (isnull)
			continue;
		v = DatumGetFloat8(d);
		if (!isfinite(v))
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("invalid value for %s: %s", fname, float8_text(v)),
					 errdetail("Point " INT64_FORMAT " of the series (row " INT64_FORMAT
							   " of its window partition) is %s, not a measurement.",
							   n + 1, row + 1, isnan(v) ? "NaN" : "infinite")));
		d = WinGetFuncArgInPartition(win, 1, row, WINDOW_SEEK_HEAD, false,
									 &isnull, &isout);
		s = isnull ? NAN : DatumGetFloat8(d);
		if (!isnull && !(isfinite(s) && s >= 0.0))
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("invalid noise for %s: %s", fname, float8_text(s)),
					 errdetail("The noise of point " INT64_FORMAT " of the series (row "
							   INT64_FORMAT " of its window partition) is %s; a noise is "
							   "a standard deviation, finite and not negative.",
							   n + 1, row + 1,
							   isnan(s) ? "NaN" : (isinf(s) ? "infinite" : "negative"))));
		x[n] = v;
		noise[n] = s;
		rows[n] = row;
		n++;
	}

	work = MemoryContextAllocHuge(CurrentMemoryContext, Max(cp_work_size(n), 1));
	out = MemoryContextAllocHuge(CurrentMemoryContext, sizeof(CpChange) * Max(n, 1));
	nchanges = cp_segment(x, noise, n, &settings, work, out, change_tick, NULL);

	part->nchanges = nchanges;
	if (nchanges > 0)
	{
		int64		i;

		part->rows = MemoryContextAlloc(partcontext, sizeof(int64) * nchanges);
		part->changes = MemoryContextAlloc(partcontext, sizeof(CpChange) * nchanges);
		for (i = 0; i < nchanges; i++)
		{
			part->rows[i] = rows[out[i].pos];
			part->changes[i] = out[i];
		}
	}
	part->computed = true;
	pfree(x);
	pfree(noise);
	pfree(rows);
	pfree(work);
	pfree(out);
}

/* The change on the current row of the partition, or NULL. */
static const CpChange *
current_change(WindowObject win, const char *fname)
{
	ChangePartition *part;
	int64		current;
	int64		lo;
	int64		hi;

	part = (ChangePartition *) WinGetPartitionLocalMemory(win, sizeof(ChangePartition));
	if (!part->computed)
		compute_partition(win, part, fname);
	current = WinGetCurrentPosition(win);
	lo = 0;
	hi = part->nchanges;
	while (lo < hi)
	{
		int64		mid = lo + (hi - lo) / 2;

		if (part->rows[mid] < current)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < part->nchanges && part->rows[lo] == current)
		return &part->changes[lo];
	return NULL;
}

/*
 * kernelindex.change_point(value, noise) OVER (...) -> double precision:
 * the p-value of the change whose first point is this row, else NULL.
 */
Datum
kidx_change_point(PG_FUNCTION_ARGS)
{
	const CpChange *change = current_change(PG_WINDOW_OBJECT(), "change_point");

	if (change == NULL)
		PG_RETURN_NULL();
	PG_RETURN_FLOAT8(change->p);
}

/*
 * kernelindex.change_point_levels(value, noise) OVER (...) -> double
 * precision[]: on the row of a change, {p, level before, level after,
 * points before, points after} (the medians and lengths of the final
 * segments either side); else NULL.
 */
Datum
kidx_change_point_levels(PG_FUNCTION_ARGS)
{
	const CpChange *change = current_change(PG_WINDOW_OBJECT(), "change_point_levels");
	Datum		elems[5];

	if (change == NULL)
		PG_RETURN_NULL();
	elems[0] = Float8GetDatum(change->p);
	elems[1] = Float8GetDatum(change->level_before);
	elems[2] = Float8GetDatum(change->level_after);
	elems[3] = Float8GetDatum((double) change->points_before);
	elems[4] = Float8GetDatum((double) change->points_after);
	PG_RETURN_ARRAYTYPE_P(construct_array(elems, 5, FLOAT8OID, sizeof(float8),
										  FLOAT8PASSBYVAL, TYPALIGN_DOUBLE));
}
