/*-------------------------------------------------------------------------
 *
 * batch.h
 *	  Storing what one statement ingests: resources, comparability keys,
 *	  dictionary values and runs, set-based, idempotent and safe against
 *	  concurrent loads.  Both ingestion paths (documents and Liger CSV) hand
 *	  their runs to a batch, in the run layout's terms, and finish it once.
 *
 *-------------------------------------------------------------------------
 */
#ifndef KIDX_BATCH_H
#define KIDX_BATCH_H

#include "commands/trigger.h"

#include "run_layout.h"

typedef struct Batch Batch;

/* Start a batch; everything it keeps lives in a child of parent. */
extern Batch *batch_begin(MemoryContext parent);

/*
 * What the batch's runs come in, named in its messages ("document 3: ...",
 * "row 3: ..."): "document" unless set; item must outlive the batch.
 */
extern void batch_items(Batch *b, const char *item);

/* The batch's memory context (for what callers keep as long). */
extern MemoryContext batch_context(Batch *b);

/*
 * A resource the statement brings (document, whose identity digest the
 * caller has computed) or refers to (document NULL: known by digest only).
 * ord is the position of the document that brought it, for messages.
 */
extern void batch_resource(Batch *b, RunRef kind, const KidxDigest *digest,
						   Jsonb *document, int64 ord);

/*
 * The label (metadata.labels.label) of a workload that the statement's runs
 * may be held by (RIF_LABELLED, see run_forms()): the label of the
 * workload's stored document, else of the document the statement brings;
 * NULL if neither is known.  Storing the batch checks that the label stored
 * in the end is this one (a concurrent load could store another document:
 * 40001).  ord is the position of the document that refers to it.
 */
extern const char *batch_workload_label(Batch *b, const KidxDigest *workload,
										int64 ord);

/*
 * The batch's number of a template, the same for equal templates; the
 * batch's copy, laid out, in *interned (what the runs' parts point at).
 */
extern int	batch_template(Batch *b, const RunTemplate *t, RunTemplate **interned);

/*
 * The batch's numbers of what a run refers to (its comparability key,
 * implementation, template, label set and dictionary strings), interned
 * once for any number of runs that share them.
 */
typedef struct BatchRefs
{
	int			key;
	int			implementation;
	int			template;
	int			labels;			/* -1: none */
	int			text[RT_N];		/* -1: none */
} BatchRefs;

/*
 * Intern what a run in these parts refers to; template is the batch's
 * number of parts->template.  ord is the position of the document that
 * brought it, for messages.
 */
extern void batch_refs(Batch *b, const RunParts *parts, int template, int64 ord,
					   BatchRefs *refs);

/*
 * A run: what it refers to (refs, from batch_refs() of parts like these),
 * its parts (for its values), its identity digest (which the caller has
 * computed or checked).  Runs equal in digest are stored once.
 */
extern void batch_run(Batch *b, const BatchRefs *refs, const RunParts *parts,
					  const KidxDigest *digest, int64 ord);

/* The runs handed to the batch so far (the same run twice counts twice). */
extern int64 batch_run_count(Batch *b);

/* Store the batch; returns the number of runs newly stored. */
extern int64 batch_finish(Batch *b);

/*
 * A NOTICE when fewer of the runs of what (a "statement", a "call") were
 * stored than it offered (the others were stored already, or came twice):
 * the count, and that their metadata stays as stored.
 */
extern void batch_report_kept(int64 offered, int64 stored, const char *what);

/*
 * A statement ingesting rows into a view (kernelindex.documents or
 * kernelindex.liger_rows): begun by its BEFORE STATEMENT trigger, fed by
 * its INSTEAD OF row trigger, finished by its AFTER STATEMENT trigger.  An
 * aborted (sub)transaction forgets its statements.
 *
 * A statement's memory is bounded by kernelindex.load_memory, not by its
 * rows: when what it has collected reaches that much, the row trigger
 * stores it (batch_statement_flush) and the statement goes on with a new
 * batch, in the same transaction (all of its runs are stored, or none).
 * What the ingestion path keeps that refers to the batch (its numbers,
 * templates, caches of what it has built) lives in chunk_cxt, reset with
 * each new batch; what it keeps for the whole statement (the catalogs it
 * read, its counts) in cxt.  The path's on_chunk, if set, runs before a
 * batch is stored (to store what the path keeps besides runs, such as
 * quarantined rows).
 */
typedef struct BatchStatement
{
	struct BatchStatement *prev;
	Oid			relid;
	SubTransactionId subid;
	MemoryContext cxt;			/* lives as long as the statement */
	MemoryContext chunk_cxt;	/* as long as its batch */
	Batch	   *batch;
	int64		rows;			/* rows seen so far */
	int64		stored;			/* runs newly stored by its chunks so far */
	int64		offered;		/* runs its chunks were handed so far */
	int			chunks;			/* batches stored so far */
	const char *item;			/* what its runs come in (batch_items) */
	void	   *path;			/* the ingestion path's own state */
	void		(*on_chunk) (struct BatchStatement *s);
} BatchStatement;

extern BatchStatement *batch_statement_begin(Oid relid);
/* Name what the statement's runs come in, for each of its batches. */
extern void batch_statement_items(BatchStatement *s, const char *item);
extern BatchStatement *batch_statement_current(Oid relid);
extern BatchStatement *batch_statement_end(Oid relid);

/*
 * Whether the statement has collected kernelindex.load_memory; then the
 * row trigger calls batch_statement_flush() once its row is in the batch.
 */
extern bool batch_statement_full(BatchStatement *s);

/*
 * What an INSTEAD OF row trigger of a statement returns: a copy of its row,
 * made in the trigger's per-row memory (see batch.c).
 */
extern Datum batch_row_result(TriggerData *td);

/* Store the statement's batch and begin a new one (chunk_cxt reset). */
extern void batch_statement_flush(BatchStatement *s);

/* Store the statement's last batch; returns the runs it stored in all. */
extern int64 batch_statement_finish(BatchStatement *s);

#endif							/* KIDX_BATCH_H */
