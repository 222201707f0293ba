/*-------------------------------------------------------------------------
 *
 * run_store.h
 *	  How a run is stored: the columns of kernelindex.runs, in one list,
 *	  and the tables its references point at (the comparability keys, the
 *	  implementations, and the dictionaries of the values runs repeat).
 *	  The batch writer, the export and the reference checks all read this
 *	  list; the install script (src/sql/40-store.sql) creates the same
 *	  columns.
 *
 *-------------------------------------------------------------------------
 */
#ifndef KIDX_RUN_STORE_H
#define KIDX_RUN_STORE_H

#include "access/attnum.h"
#include "utils/relcache.h"

#include "run_layout.h"

/* The dictionaries of values runs repeat. */
typedef enum DictKind
{
	DK_TITLE,					/* kernelindex.run_titles */
	DK_STATUS,					/* kernelindex.run_statuses */
	DK_SOURCE,					/* kernelindex.run_sources */
	DK_BENCHMARK,				/* kernelindex.run_benchmarks */
	DK_STRING,					/* kernelindex.run_strings (names, externalIds) */
	DK_LABELS,					/* kernelindex.run_labels */
	DK_TEMPLATE,				/* kernelindex.run_templates */
	DK_N
} DictKind;

/* The tables of the dictionaries, by DictKind. */
extern const char *const dict_table[DK_N];

/* The dictionary of each RunText. */
extern const DictKind run_text_dict[RT_N];

/* The columns of kernelindex.runs. */
typedef enum RunColumn
{
	RC_COMPARABILITY_KEY,
	RC_DIGEST,
	RC_OBSERVED_AT,
	RC_IMPLEMENTATION,
	RC_TEMPLATE,
	RC_LABELS,
	RC_TITLE,					/* RC_TITLE + RunText: the text columns */
	RC_STATUS,
	RC_SOURCE,
	RC_BENCHMARK,
	RC_NAME,
	RC_EXTERNAL_ID,
	RC_VALUE0,					/* RC_VALUE0 + RunValue */
	RC_NATIVE0 = RC_VALUE0 + RV_N,	/* RC_NATIVE0 + 0..RUN_NNATIVE-1 */
	RC_EXTERNAL_KEY = RC_NATIVE0 + RUN_NNATIVE,
	RC_N
} RunColumn;

/* What a column of runs holds, and what it refers to. */
typedef enum ColumnType
{
	CT_DIGEST,
	CT_TIMESTAMPTZ,
	CT_INT4,
	CT_INT8,
	CT_NUMERIC,
	CT_UUID
} ColumnType;

typedef struct RunColumnInfo
{
	const char *name;
	ColumnType	type;
	const char *refers_to;		/* the table a reference points at, or NULL */
	const char *refers_column;	/* its key column */
} RunColumnInfo;

extern const RunColumnInfo run_column[RC_N];

/*
 * The references of kernelindex.comparability_keys (to the protocol, the
 * workload and the environment of a key), checked like those of runs.
 */
#define KEY_NREFS 3
extern const RunColumnInfo key_column[KEY_NREFS];

/*
 * Check that the resources new comparability keys name (ids[c][0 .. n[c]-1]
 * in each of the KEY_NREFS columns) exist, and lock them FOR KEY SHARE until
 * this transaction ends, as a foreign key check does (references.c).
 */
extern void keys_references_check(int32 *const ids[KEY_NREFS], const int n[KEY_NREFS]);

/* The column of runs a RunText is held in. */
#define RC_TEXT(t) ((RunColumn) (RC_TITLE + (t)))

/*
 * The attribute numbers of runs' columns in a relation with them (runs, or
 * a row of it), in RunColumn order; an error if one is missing.
 */
extern void run_column_attnums(TupleDesc desc, AttrNumber *att);

#endif							/* KIDX_RUN_STORE_H */
