/*-------------------------------------------------------------------------
 *
 * ingest.h
 *	  Storing what one statement ingests: resources, comparability keys,
 *	  run series and runs, set-based, idempotent and safe against
 *	  concurrent loads.  Both ingestion paths (documents and Liger CSV) hand
 *	  their results to a batch and finish it once.
 *
 *-------------------------------------------------------------------------
 */
#ifndef KIDX_INGEST_H
#define KIDX_INGEST_H

#include "run_layout.h"

typedef struct IngestBatch IngestBatch;

/* Start a batch; everything it keeps lives in a child of parent. */
extern IngestBatch *ingest_begin(MemoryContext parent);

/* The batch's memory context (for what callers keep as long). */
extern MemoryContext ingest_context(IngestBatch *b);

/*
 * A resource the statement brings (document, whose identity digest the
 * caller has computed) or refers to (document NULL: known by digest only).
 * ord is the position of the document that brought it, for messages.
 */
extern void ingest_resource(IngestBatch *b, RunRef kind, const KidxDigest *digest,
							Jsonb *document, int64 ord);

/*
 * A series (as run_split() or a CSV path made it); returns its number in
 * the batch, the same for equal series.  The batch copies what it keeps
 * and prepares it (run_series_prepare); ingest_series_get gives it back.
 */
extern int	ingest_series(IngestBatch *b, RunSeries *series, int64 ord);
extern RunSeries *ingest_series_get(IngestBatch *b, int series);

/*
 * A run of a series, with its values and identity digest (which the caller
 * has computed or checked).  Runs equal in digest are stored once.
 */
extern void ingest_run(IngestBatch *b, int series, const RunValues *values,
					   const KidxDigest *digest, int64 ord);

/* Store the batch; returns the number of runs newly stored. */
extern int64 ingest_finish(IngestBatch *b);

/*
 * A statement ingesting rows into a view (kernelindex.documents or
 * kernelindex.liger_rows): begun by its BEFORE STATEMENT trigger, fed by
 * its INSTEAD OF row trigger, finished by its AFTER STATEMENT trigger.  An
 * aborted (sub)transaction forgets its statements.
 */
typedef struct IngestStatement
{
	struct IngestStatement *prev;
	Oid			relid;
	SubTransactionId subid;
	MemoryContext cxt;			/* lives as long as the statement */
	IngestBatch *batch;
	int64		rows;			/* rows seen so far */
	void	   *path;			/* the ingestion path's own state */
} IngestStatement;

extern IngestStatement *ingest_statement_begin(Oid relid);
extern IngestStatement *ingest_statement_current(Oid relid);
extern IngestStatement *ingest_statement_end(Oid relid);

/* Run SPI work with errors raised without the CONTEXT of internal queries. */
extern int	ingest_spi(const char *sql, int nargs, Oid *argtypes, Datum *values,
					   const char *nulls, bool read_only, long count);

/* Check and lock the series a statement's runs use (references.c). */
extern void references_check_series(int n, const int32 *ids,
									const KidxDigest *keys);

/*
 * Is the kernelindex table relname (NULL: any kernelindex table) a Citus
 * table?  Then its rows live in shards on other servers, and what writes
 * or reads it goes through SQL.  One catalog look-up; false without Citus.
 */
extern bool kidx_distributed(const char *relname);

/* The kidx_digest type and its array type. */
extern Oid	kidx_digest_type(void);
extern Oid	kidx_digest_array_type(void);

/* The quoted schema of the extension's type and functions. */
extern const char *kidx_extension_schema(void);

#endif							/* KIDX_INGEST_H */
