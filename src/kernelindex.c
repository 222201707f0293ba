/*-------------------------------------------------------------------------
 *
 * kernelindex.c
 *	  Module magic and the extension's settings.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fmgr.h"
#include "utils/guc.h"

#include "kernelindex.h"

PG_MODULE_MAGIC;

void		_PG_init(void);

int			kidx_on_bad_row = KIDX_ON_BAD_ROW_ERROR;

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
	MarkGUCPrefixReserved("kernelindex");
}
