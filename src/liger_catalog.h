/*-------------------------------------------------------------------------
 *
 * liger_catalog.h
 *	  The resource documents and workload labels of Liger-Kernel rows,
 *	  built in C from the user-extensible catalogs kernelindex.gpus,
 *	  kernels, providers and liger_passes (read by catalog.h, which also
 *	  has what every harness builds from them).
 *
 * Arguments may be NULL where SQL would pass NULL: the documents are then
 * those kernelindex 0.1.0's SQL builders gave (members that are JSON
 * null), exactly.
 *
 *-------------------------------------------------------------------------
 */
#ifndef KIDX_LIGER_CATALOG_H
#define KIDX_LIGER_CATALOG_H

#include "utils/jsonb.h"

#include "catalog.h"

/* BenchmarkProtocol of a metric (speed or memory) and an operation mode. */
extern Jsonb *liger_protocol_document(const KidxCatalog *c, const char *metric,
									  const char *pass);

/* ExecutionEnvironment of a GPU name. */
extern Jsonb *liger_environment_document(const KidxCatalog *c, const char *gpu);

/* Implementation of a kernel's provider. */
extern Jsonb *liger_implementation_document(const KidxCatalog *c, const char *kernel,
											const char *provider);

/*
 * Workload of a row.  config: extra_benchmark_config_str as written (a JSON
 * object; the row check has accepted it); the label in *label, palloc'd
 * (NULL only when a NULL argument makes it so).
 */
extern Jsonb *liger_workload_document(const KidxCatalog *c, const char *kernel,
									  const char *x_name, const char *x_label,
									  const char *x_value, const char *config,
									  char **label);

#endif							/* KIDX_LIGER_CATALOG_H */
