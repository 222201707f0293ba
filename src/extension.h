/*-------------------------------------------------------------------------
 *
 * extension.h
 *	  Where the extension's objects are, and running SQL on them: the
 *	  schema of its type and functions, the type's OIDs, whether a table is
 *	  distributed by Citus, and SPI whose errors carry no CONTEXT of the
 *	  internal query.
 *
 *-------------------------------------------------------------------------
 */
#ifndef KIDX_EXTENSION_H
#define KIDX_EXTENSION_H

#include "executor/spi.h"

/*
 * Connect to SPI (SPI_connect), raising an error if it fails; every caller
 * then ends with SPI_finish().
 */
extern void kidx_spi_connect(void);

/*
 * Run a query with SPI (the caller is connected); errors are raised
 * without the CONTEXT and internal query of the statement, so that a user
 * sees the message of the fault, not kernelindex's SQL.
 */
extern int	kidx_spi_execute(const char *sql, int nargs, Oid *argtypes, Datum *values,
							 const char *nulls, bool read_only, long count);

/* The same for a prepared plan. */
extern int	kidx_spi_execute_plan(SPIPlanPtr plan, Datum *values, const char *nulls,
								  bool read_only, long count);

/*
 * The plan of sql, prepared once and kept for the backend's life (plancache
 * revalidates it when what it reads changes), by its text and its
 * arguments' types: every query kernelindex's C runs more than once goes
 * through it (a look-up of run_document(), which may be called once per
 * query; the batch writer's INSERTs; a reference check), so that its cost
 * is not parsing and planning.  The caller is connected to SPI and never
 * frees the plan.
 */
extern SPIPlanPtr kidx_kept_plan(const char *sql, int nargs, Oid *argtypes);

/* kidx_spi_execute_plan() by the kept plan of sql. */
extern int	kidx_spi_execute_kept(const char *sql, int nargs, Oid *argtypes, Datum *values,
								  const char *nulls, bool read_only, long count);

/*
 * A one-dimensional array of n Datums of a type (NULL elements where
 * nulls[i]; nulls may be NULL), as an SPI argument.
 */
extern Datum kidx_datum_array(Datum *elems, bool *nulls, int n, Oid type);

/* The kidx_digest type and its array type. */
extern Oid	kidx_digest_type(void);
extern Oid	kidx_digest_array_type(void);

/* The quoted schema of the extension's type and functions ("public"). */
extern const char *kidx_extension_schema(void);

/*
 * Refuse to work on a database whose kernelindex objects are at another
 * version than this library (a package upgraded, ALTER EXTENSION kernelindex
 * UPDATE not yet run: 55000, with that hint).  Called where a statement
 * starts to read or write the store; allowed while an extension script
 * runs (the upgrade script itself may call the library).
 */
extern void kidx_check_version(void);

/*
 * Is the kernelindex table relname (NULL: any kernelindex table) a Citus
 * table?  Then its rows live in shards, and what writes or reads it goes
 * through SQL that Citus plans.  One catalog look-up; false without Citus.
 */
extern bool kidx_distributed(const char *relname);

#endif							/* KIDX_EXTENSION_H */
