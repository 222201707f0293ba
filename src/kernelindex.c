/*-------------------------------------------------------------------------
 *
 * kernelindex.c
 *	  Module magic and the extension's settings.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <float.h>
#include <limits.h>

#include "fmgr.h"
#include "utils/guc.h"

#include "kernelindex.h"

PG_MODULE_MAGIC;

void		_PG_init(void);

int			kidx_on_bad_row = KIDX_ON_BAD_ROW_ERROR;
int			kidx_load_memory = 64 * 1024;
double		kidx_change_max_p = 0.001;
double		kidx_change_min_shift = 0.05;
int			kidx_change_min_points = 6;
double		kidx_change_noise_floor = 3.0;

static const struct config_enum_entry on_bad_row_options[] = {
	{"error", KIDX_ON_BAD_ROW_ERROR, false},
	{"quarantine", KIDX_ON_BAD_ROW_QUARANTINE, false},
	{"strict", KIDX_ON_BAD_ROW_ERROR, true},	/* hidden alias of "error" */
	{NULL, 0, false}
};

/* Register the extension's settings when the library is loaded. */
void
_PG_init(void)
{
	DefineCustomEnumVariable("kernelindex.on_bad_row",
							 "What CSV ingestion does with a row it cannot turn into a run.",
							 "\"error\" fails the whole statement and stores nothing; "
							 "\"quarantine\" stores the good rows and keeps each bad row "
							 "verbatim, with its reason, in kernelindex.rejected_rows.",
							 &kidx_on_bad_row,
							 KIDX_ON_BAD_ROW_ERROR,
							 on_bad_row_options,
							 PGC_USERSET,
							 0,
							 NULL, NULL, NULL);
	DefineCustomIntVariable("kernelindex.load_memory",
							"Memory a load statement collects before it stores what it has.",
							"A COPY or INSERT into kernelindex.liger_rows or kernelindex.documents "
							"collects its runs, resources and dictionary values in memory and stores "
							"them in set-based steps; one that collects more than this stores them in "
							"chunks of about this size, in the same transaction.",
							&kidx_load_memory,
							64 * 1024,
							1024,
							MAX_KILOBYTES,
							PGC_USERSET,
							GUC_UNIT_KB,
							NULL, NULL, NULL);
	DefineCustomRealVariable("kernelindex.change_max_p",
							 "The largest p-value of a change point.",
							 "kernelindex.change_point and the change_points view accept a split "
							 "of a series only if the p-value of its rank statistic, over every "
							 "split the segment allows, is at most this.",
							 &kidx_change_max_p,
							 0.001,
							 0.0,
							 1.0,
							 PGC_USERSET,
							 0,
							 NULL, NULL, NULL);
	DefineCustomRealVariable("kernelindex.change_min_shift",
							 "The least relative shift of the level at a change point.",
							 "A split is accepted only if the medians before and after it differ "
							 "by at least this fraction of the median before (0.05: 5%).",
							 &kidx_change_min_shift,
							 0.05,
							 0.0,
							 DBL_MAX,
							 PGC_USERSET,
							 0,
							 NULL, NULL, NULL);
	DefineCustomIntVariable("kernelindex.change_min_points",
							"The least number of points on each side of a change point.",
							"A segment of a series is split only where at least this many of its "
							"points lie on either side; a segment of fewer than twice this many "
							"is never split.",
							&kidx_change_min_points,
							6,
							1,
							INT_MAX / 2,
							PGC_USERSET,
							0,
							NULL, NULL, NULL);
	DefineCustomRealVariable("kernelindex.change_noise_floor",
							 "The least shift at a change point, in noise standard deviations.",
							 "A split is accepted only if the medians before and after it differ "
							 "by at least this many standard deviations of the noise: the larger "
							 "of the series' own (from successive differences) and the median of "
							 "the points' own noise.",
							 &kidx_change_noise_floor,
							 3.0,
							 0.0,
							 DBL_MAX,
							 PGC_USERSET,
							 0,
							 NULL, NULL, NULL);
	MarkGUCPrefixReserved("kernelindex");
}
