/*-------------------------------------------------------------------------
 *
 * liger_catalog.h
 *	  The resource documents and workload labels of Liger-Kernel rows,
 *	  built in C from the user-extensible catalogs kernelindex.gpus,
 *	  kernels, providers and liger_passes.
 *
 * A caller reads the catalogs once (liger_catalog_read) and builds as many
 * documents from them as it needs.  Arguments may be NULL where SQL would
 * pass NULL: the documents are then those kernelindex 0.1.0's SQL builders
 * gave (members that are JSON null), exactly.
 *
 *-------------------------------------------------------------------------
 */
#ifndef KIDX_LIGER_CATALOG_H
#define KIDX_LIGER_CATALOG_H

#include "utils/jsonb.h"

typedef struct LigerCatalog LigerCatalog;

/*
 * Read the four catalog tables (all rows; they are small) with SPI, into
 * the current memory context; works whether or not the caller is already
 * SPI-connected; errors come without the CONTEXT of internal queries.
 */
extern LigerCatalog *liger_catalog_read(void);

/* BenchmarkProtocol of a metric (speed or memory) and an operation mode. */
extern Jsonb *liger_protocol_document(const LigerCatalog *c, const char *metric,
									  const char *pass);

/* ExecutionEnvironment of a GPU name. */
extern Jsonb *liger_environment_document(const LigerCatalog *c, const char *gpu);

/*
 * The same for any harness: its metadata name is name_prefix and the GPU's
 * slug, its title "title_prefix · <GPU title>"; *known (if not NULL) says
 * whether kernelindex.gpus has the GPU (an unknown one is described by what
 * its name shows).
 */
extern Jsonb *catalog_environment_document(const LigerCatalog *c, const char *gpu,
										   const char *name_prefix, const char *title_prefix,
										   bool *known);

/* A provider's display title: kernelindex.providers', else the name. */
extern const char *catalog_provider_title(const LigerCatalog *c, const char *provider);

/* Implementation of a kernel's provider. */
extern Jsonb *liger_implementation_document(const LigerCatalog *c, const char *kernel,
											const char *provider);

/*
 * Workload of a row.  config: extra_benchmark_config_str as written (a JSON
 * object; the row check has accepted it); the label in *label, palloc'd
 * (NULL only when a NULL argument makes it so).
 */
extern Jsonb *liger_workload_document(const LigerCatalog *c, const char *kernel,
									  const char *x_name, const char *x_label,
									  const char *x_value, const char *config,
									  char **label);

/* A kernel's display title: the catalog's, else the name. */
extern const char *liger_kernel_title(const LigerCatalog *c, const char *kernel);

/* lowercase, every run of characters but a-z and 0-9 one hyphen, none at the ends (palloc'd). */
extern char *liger_slug(const char *s);

#endif							/* KIDX_LIGER_CATALOG_H */
