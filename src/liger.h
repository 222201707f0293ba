/*-------------------------------------------------------------------------
 *
 * liger.h
 *	  Liger-Kernel CSV rows: their columns and their check, for C callers.
 *
 *-------------------------------------------------------------------------
 */
#ifndef KIDX_LIGER_H
#define KIDX_LIGER_H

#include "datatype/timestamp.h"

#include "core/jcs.h"

/* Columns of kernelindex.liger_rows, in upstream order (1-based). */
#define LR_KERNEL_NAME		1
#define LR_KERNEL_PROVIDER	2
#define LR_OPERATION_MODE	3
#define LR_METRIC_NAME		4
#define LR_METRIC_UNIT		5
#define LR_X_NAME			6
#define LR_X_LABEL			7
#define LR_X_VALUE			8
#define LR_Y_VALUE_50		9
#define LR_Y_VALUE_20		10
#define LR_Y_VALUE_80		11
#define LR_EXTRA_CONFIG		12
#define LR_GPU_NAME			13
#define LR_TIMESTAMP		14
#define LR_LIGER_VERSION	15
#define LR_NCOLUMNS			15

/*
 * Good configurations remembered across rows: a COPY repeats a few hundred
 * distinct configuration strings over every row, so each is parsed once.
 */
#define LR_CONFIG_SLOTS 1024

typedef struct LigerConfigCache
{
	MemoryContext context;		/* where the strings live */
	char	   *good[LR_CONFIG_SLOTS];	/* by hash, last one wins */
} LigerConfigCache;

/* What a good row measured: its timestamp and its three values. */
typedef struct LigerMeasures
{
	Timestamp	ts;
	int64		scaled[3];		/* y_value_50, _20, _80 in ns or bytes */
	char		canon[3][JCS_NUMBER_BUFLEN];	/* their canonical JSON text */
	const char *written[3];		/* as written, trimmed (in the row) */
	int			writtenlen[3];
} LigerMeasures;

extern const char *const lr_column_names[LR_NCOLUMNS + 1];

extern const char *liger_fault(char **v, int *column, int *sqlstate,
							   LigerConfigCache *configs, LigerMeasures *m);
extern const char *liger_measures_fault(char **v, bool memory, int *column,
										int *sqlstate, LigerMeasures *m);


#endif							/* KIDX_LIGER_H */
