/*-------------------------------------------------------------------------
 *
 * kernelindex.c
 *	  Module magic and the extension's settings.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <limits.h>

#include "fmgr.h"
#include "utils/guc.h"

#include "kernelindex.h"

PG_MODULE_MAGIC;

void		_PG_init(void);

int			kidx_on_bad_row = KIDX_ON_BAD_ROW_ERROR;
int			kidx_load_memory = 64 * 1024;

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
	MarkGUCPrefixReserved("kernelindex");
}
