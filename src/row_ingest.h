/*-------------------------------------------------------------------------
 *
 * row_ingest.h
 *	  Rows of a harness's CSV to runs, for every CSV path (Liger rows,
 *	  run_rows): a producer checks its rows and makes, for each group of
 *	  rows that differ only in their time and values, the resources and the
 *	  dictionary values the group's runs share (a RowGroup); each row is
 *	  then a run of its group.  The run's document is the run layout's
 *	  (run_model, run_split): the first run of each shape in a batch is
 *	  written as a document and split, exactly as a document coming in is,
 *	  and gives the template the batch's other runs of that shape use.
 *
 *-------------------------------------------------------------------------
 */
#ifndef KIDX_ROW_INGEST_H
#define KIDX_ROW_INGEST_H

#include "batch.h"
#include "run_layout.h"

/* How a group's runs of one observedAt slug length are held (private). */
typedef struct RowForms
{
	const RunTemplate *shape;	/* the template of the runs' shape */
	RunTemplate *template;		/* the batch's; NULL: not decided yet */
	const char *text[RT_N];		/* RT_NAME and RT_EXTERNAL_ID */
	BatchRefs	refs;
} RowForms;

/* What a group's runs share: filled by the producer, once per group. */
typedef struct RowGroup
{
	RunParts	parts;			/* resource digests, title, status, source,
								 * benchmark, labels */
	bool		memory;			/* peak memory, else latency */
	const char *primary_statistic;	/* the one its runs name; NULL: none */
	const char *native_unit;	/* of its runs' native metrics; NULL: none */
	const char *name_stem;		/* a run's name: this, then its observedAt
								 * slug, cut to name_cut characters */
	int			name_cut;
	const char *external_id_stem;	/* a run's externalId: this, then the
									 * slug; NULL: none */
	const char *workload_label; /* the workload's label as stored
								 * (batch_workload_label) */
	RowForms	forms[2];		/* whole-second slugs, slugs with a fraction */
} RowGroup;

/* The templates of one batch's runs, by the shape of their documents. */
typedef struct RowTemplates RowTemplates;

/* New, empty, in cxt (made again with each batch). */
extern RowTemplates *row_templates_create(MemoryContext cxt);

/*
 * A run of group g with these values (observedAt, statistics, native
 * texts), to the statement's batch; ord is its row, for messages.  Memory
 * it uses is in row_cxt (reset here).
 */
extern void row_add_run(BatchStatement *st, RowTemplates *rt, RowGroup *g,
						const RunValues *values, int64 ord, MemoryContext row_cxt);

#endif							/* KIDX_ROW_INGEST_H */
