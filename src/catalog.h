/*-------------------------------------------------------------------------
 *
 * catalog.h
 *	  The catalogs every CSV harness's resources are described from:
 *	  kernelindex.gpus, kernels, providers and liger_passes, read in C, and
 *	  what is built from them for every harness (the environment of a
 *	  GPU, the titles of kernels and providers, the slug and cut of
 *	  resource names).  Liger's own documents and workload labels, built
 *	  from the same catalogs, are in liger_catalog.h.
 *
 * A caller reads the catalogs once (kidx_catalog_read) and builds as many
 * documents from them as it needs.  Arguments may be NULL where SQL would
 * pass NULL: the documents are then those kernelindex 0.1.0's SQL builders
 * gave (members that are JSON null), exactly.
 *
 *-------------------------------------------------------------------------
 */
#ifndef KIDX_CATALOG_H
#define KIDX_CATALOG_H

#include "fmgr.h"
#include "utils/jsonb.h"

/* U+00B7 MIDDLE DOT in UTF-8, as the SQL install script writes it. */
#define MIDDOT "\xc2\xb7"

/* The catalog tables a KidxCatalog holds (catalog_call_site's mask). */
#define CAT_GPUS		0x01
#define CAT_KERNELS		0x02
#define CAT_PROVIDERS	0x04
#define CAT_PASSES		0x08
#define CAT_ALL			(CAT_GPUS | CAT_KERNELS | CAT_PROVIDERS | CAT_PASSES)

/*
 * Rows of the catalogs; each struct begins with its name, the primary key,
 * so that one comparator sorts and searches them all.  NULL: SQL NULL.
 */
typedef struct CatGpu
{
	char	   *name;
	char	   *vendor;
	char	   *product;
	char	   *form_factor;
	char	   *architecture;
	char	   *title;
} CatGpu;

typedef struct CatKernel
{
	char	   *name;
	char	   *title;
	char	   *label_template;
	char	   *label_x_name;
	Jsonb	   *label_defaults;
} CatKernel;

typedef struct CatProvider
{
	char	   *name;
	char	   *title;
} CatProvider;

typedef struct CatPass
{
	char	   *name;
	char	   *timed;
} CatPass;

struct KidxCatalog
{
	int			tables;			/* CAT_* read */
	CatGpu	   *gpus;
	int			ngpus;
	CatKernel  *kernels;
	int			nkernels;
	CatProvider *providers;
	int			nproviders;
	CatPass    *passes;
	int			npasses;
};

typedef struct KidxCatalog KidxCatalog;

/*
 * Read the four catalog tables (all rows; they are small) with SPI, into
 * the current memory context; works whether or not the caller is already
 * SPI-connected; errors come without the CONTEXT of internal queries.
 */
extern KidxCatalog *kidx_catalog_read(void);

/*
 * The catalog tables (CAT_*) a call site of an SQL function needs: read at
 * its first call and kept in fn_extra while the active snapshot sees the
 * same rows.
 */
extern const KidxCatalog *catalog_call_site(FunctionCallInfo fcinfo, int tables);

/* The catalog row of a name, or NULL (also for a NULL name). */
extern const CatGpu *catalog_gpu(const KidxCatalog *c, const char *name);
extern const CatKernel *catalog_kernel(const KidxCatalog *c, const char *name);
extern const CatProvider *catalog_provider(const KidxCatalog *c, const char *name);
extern const CatPass *catalog_pass(const KidxCatalog *c, const char *name);

/*
 * ExecutionEnvironment of a GPU name, for any harness: its metadata name is
 * name_prefix and the GPU's slug, its title "title_prefix · <GPU title>";
 * *known (if not NULL) says whether kernelindex.gpus has the GPU (an
 * unknown one is described by what its name shows).
 */
extern Jsonb *catalog_environment_document(const KidxCatalog *c, const char *gpu,
										   const char *name_prefix, const char *title_prefix,
										   bool *known);

/*
 * The vendor a GPU name the catalog does not know shows by its first word
 * (NVIDIA, Tesla, Quadro, GeForce: nvidia; AMD, Radeon: amd; Intel: intel,
 * in any case), or NULL: what catalog_environment_document stores.
 */
extern const char *catalog_vendor_of_name(const char *gpu);

/* A provider's display title: kernelindex.providers', else the name. */
extern const char *catalog_provider_title(const KidxCatalog *c, const char *provider);

/* A kernel's display title: the catalog's, else the name. */
extern const char *catalog_kernel_title(const KidxCatalog *c, const char *kernel);

/*
 * lowercase (in the database's collation), every run of characters but a-z
 * and 0-9 one hyphen, none at the ends (palloc'd).
 */
extern char *kidx_slug(const char *s);

/* A resource name cut to KIDX_NAME_MAX characters without trailing hyphens, in place. */
extern char *kidx_resource_name(char *name);

/* Does s match a regular expression, as s ~ pattern (or ~* when icase) in SQL? */
extern bool kidx_sql_regex_match(const char *s, const char *pattern, bool icase);

#endif							/* KIDX_CATALOG_H */
