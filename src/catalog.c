/*-------------------------------------------------------------------------
 *
 * catalog.c
 *	  The catalogs kernelindex.gpus, kernels, providers and liger_passes,
 *	  read in C for every CSV harness, and what every harness builds from
 *	  them (see catalog.h).
 *
 * Where the SQL's answer depended on the database's locale (lower() in
 * slugs, case-insensitive matching in the vendor rule), PostgreSQL's own
 * functions are called with the database's default collation, as the SQL
 * bodies of kernelindex 0.1.0 were; the slug rule itself is in
 * src/core/slug.c.  Liger's own documents and labels: liger_catalog.c.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "compat.h"

#include <limits.h>

#include "access/xact.h"
#include "catalog/pg_collation.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "storage/proc.h"
#include "utils/builtins.h"
#include "utils/formatting.h"
#include "utils/fmgrprotos.h"
#include "utils/jsonb.h"
#include "utils/memutils.h"
#include "utils/snapmgr.h"
#include "utils/snapshot.h"

#include "catalog.h"
#include "core/slug.h"
#include "extension.h"
#include "jsonb_build.h"

/*
 * What a snapshot sees, as far as it matters for rows of the catalogs: a
 * catalog read under one snapshot serves every later call under a snapshot
 * equal in all of these, in the same transaction and subtransaction (rows
 * a rolled-back subtransaction wrote are gone although the snapshot's
 * numbers may not show it).  A call site lives as long as its query, or,
 * in a PL/pgSQL expression, as long as the transaction: its calls see the
 * rows of the statements between them, as 0.1.0's SQL functions did.
 */
typedef struct SnapshotSig
{
	LocalTransactionId lxid;
	SubTransactionId subid;
	CommandId	curcid;
	TransactionId xmin;
	TransactionId xmax;
	uint32		xcnt;
	int32		subxcnt;
	bool		suboverflowed;
	TransactionId *xip;
	TransactionId *subxip;
} SnapshotSig;

/* What a call site of the SQL functions keeps in fn_extra. */
typedef struct CatalogCache
{
	MemoryContext cxt;			/* the catalog and the signature */
	KidxCatalog *catalog;		/* NULL: to be read */
	SnapshotSig sig;
} CatalogCache;

/* ----------------------------------------------------------------
 *		Reading the catalogs
 * ----------------------------------------------------------------
 */

/* qsort and bsearch comparator of catalog rows: by name, bytewise. */
static int
cat_name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *) a, *(char *const *) b);
}

/* The row of a catalog named name, or NULL (also for a NULL name). */
static const void *
cat_find(const void *rows, int n, size_t size, const char *name)
{
	if (name == NULL || n == 0)
		return NULL;
	return bsearch(&name, rows, n, size, cat_name_cmp);
}

/* Fail unless the catalog holds a table (a caller's mistake). */
static inline void
cat_require(const KidxCatalog *c, int table)
{
	if ((c->tables & table) != table)
		elog(ERROR, "kernelindex catalog read without table %d", table);
}

/* A text column of a catalog row, in the current memory context (NULL: NULL). */
static char *
col_text(HeapTuple tup, TupleDesc desc, int col)
{
	bool		isnull;
	Datum		d = SPI_getbinval(tup, desc, col, &isnull);

	return isnull ? NULL : TextDatumGetCString(d);
}

/* Run a catalog query; its rows (how many, checked) in SPI_tuptable. */
static int
cat_query(const char *sql)
{
	kidx_spi_execute(sql, 0, NULL, NULL, NULL, true, 0);
	if (SPI_processed > (uint64) INT_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("a kernelindex catalog has too many rows (" UINT64_FORMAT ")",
						SPI_processed)));
	return (int) SPI_processed;
}

/*
 * Read the catalog tables of a CAT_* mask, into the current memory context.
 * Each query reads one table whole, as 0.1.0's SQL builders' joins did, under
 * the caller's snapshot (read-only SPI) and its privileges.
 */
static KidxCatalog *
catalog_read_tables(int tables)
{
	MemoryContext target = CurrentMemoryContext;
	KidxCatalog *c = palloc0(sizeof(KidxCatalog));
	MemoryContext old;
	int			n;
	int			i;

	c->tables = tables;
	kidx_spi_connect();

	if (tables & CAT_GPUS)
	{
		n = cat_query("SELECT name, vendor, product, form_factor, architecture, title"
					  " FROM kernelindex.gpus");
		old = MemoryContextSwitchTo(target);
		c->gpus = palloc(sizeof(CatGpu) * Max(n, 1));
		for (i = 0; i < n; i++)
		{
			HeapTuple	t = SPI_tuptable->vals[i];
			TupleDesc	d = SPI_tuptable->tupdesc;

			CHECK_FOR_INTERRUPTS();
			c->gpus[i].name = col_text(t, d, 1);
			c->gpus[i].vendor = col_text(t, d, 2);
			c->gpus[i].product = col_text(t, d, 3);
			c->gpus[i].form_factor = col_text(t, d, 4);
			c->gpus[i].architecture = col_text(t, d, 5);
			c->gpus[i].title = col_text(t, d, 6);
		}
		c->ngpus = n;
		qsort(c->gpus, n, sizeof(CatGpu), cat_name_cmp);
		MemoryContextSwitchTo(old);
		SPI_freetuptable(SPI_tuptable);
	}
	if (tables & CAT_KERNELS)
	{
		n = cat_query("SELECT name, title, label_template, label_x_name, label_defaults"
					  " FROM kernelindex.kernels");
		old = MemoryContextSwitchTo(target);
		c->kernels = palloc(sizeof(CatKernel) * Max(n, 1));
		for (i = 0; i < n; i++)
		{
			HeapTuple	t = SPI_tuptable->vals[i];
			TupleDesc	d = SPI_tuptable->tupdesc;
			bool		isnull;
			Datum		defaults = SPI_getbinval(t, d, 5, &isnull);

			CHECK_FOR_INTERRUPTS();
			c->kernels[i].name = col_text(t, d, 1);
			c->kernels[i].title = col_text(t, d, 2);
			c->kernels[i].label_template = col_text(t, d, 3);
			c->kernels[i].label_x_name = col_text(t, d, 4);
			/* NOT NULL and an object (CHECK); NULL would read as {} */
			c->kernels[i].label_defaults = isnull ? NULL : DatumGetJsonbPCopy(defaults);
		}
		c->nkernels = n;
		qsort(c->kernels, n, sizeof(CatKernel), cat_name_cmp);
		MemoryContextSwitchTo(old);
		SPI_freetuptable(SPI_tuptable);
	}
	if (tables & CAT_PROVIDERS)
	{
		n = cat_query("SELECT name, title FROM kernelindex.providers");
		old = MemoryContextSwitchTo(target);
		c->providers = palloc(sizeof(CatProvider) * Max(n, 1));
		for (i = 0; i < n; i++)
		{
			CHECK_FOR_INTERRUPTS();
			c->providers[i].name = col_text(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 1);
			c->providers[i].title = col_text(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 2);
		}
		c->nproviders = n;
		qsort(c->providers, n, sizeof(CatProvider), cat_name_cmp);
		MemoryContextSwitchTo(old);
		SPI_freetuptable(SPI_tuptable);
	}
	if (tables & CAT_PASSES)
	{
		n = cat_query("SELECT name, timed FROM kernelindex.liger_passes");
		old = MemoryContextSwitchTo(target);
		c->passes = palloc(sizeof(CatPass) * Max(n, 1));
		for (i = 0; i < n; i++)
		{
			CHECK_FOR_INTERRUPTS();
			c->passes[i].name = col_text(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 1);
			c->passes[i].timed = col_text(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 2);
		}
		c->npasses = n;
		qsort(c->passes, n, sizeof(CatPass), cat_name_cmp);
		MemoryContextSwitchTo(old);
		SPI_freetuptable(SPI_tuptable);
	}
	SPI_finish();
	return c;
}

/* Read the four catalog tables (see catalog.h). */
KidxCatalog *
kidx_catalog_read(void)
{
	return catalog_read_tables(CAT_ALL);
}

/* The catalog row of a GPU, or NULL. */
const CatGpu *
catalog_gpu(const KidxCatalog *c, const char *name)
{
	cat_require(c, CAT_GPUS);
	return cat_find(c->gpus, c->ngpus, sizeof(CatGpu), name);
}

/* The catalog row of a kernel, or NULL. */
const CatKernel *
catalog_kernel(const KidxCatalog *c, const char *name)
{
	cat_require(c, CAT_KERNELS);
	return cat_find(c->kernels, c->nkernels, sizeof(CatKernel), name);
}

/* The catalog row of a provider, or NULL. */
const CatProvider *
catalog_provider(const KidxCatalog *c, const char *name)
{
	cat_require(c, CAT_PROVIDERS);
	return cat_find(c->providers, c->nproviders, sizeof(CatProvider), name);
}

/* The catalog row of an operation mode, or NULL. */
const CatPass *
catalog_pass(const KidxCatalog *c, const char *name)
{
	cat_require(c, CAT_PASSES);
	return cat_find(c->passes, c->npasses, sizeof(CatPass), name);
}

/* A kernel's display title: the catalog's, else the name (see catalog.h). */
const char *
catalog_kernel_title(const KidxCatalog *c, const char *kernel)
{
	const CatKernel *k = catalog_kernel(c, kernel);

	return k ? k->title : kernel;
}

/* ----------------------------------------------------------------
 *		Text rules that need the server
 * ----------------------------------------------------------------
 */

/* The slug of a string: lower() in the database's collation, then the core's rule. */
char *
kidx_slug(const char *s)
{
	char	   *lower = str_tolower(s, strlen(s), DEFAULT_COLLATION_OID);
	size_t		len = strlen(lower);
	char	   *out = palloc(len + 1);

	out[kidx_slug_lowered(lower, len, out)] = '\0';
	pfree(lower);
	return out;
}

/* A resource name: prefix and slugs joined, cut to 100 characters without trailing hyphens. */
char *
kidx_resource_name(char *name)
{
	name[kidx_name_cut(name, strlen(name), KIDX_NAME_MAX)] = '\0';
	return name;
}

/* Does s match a regular expression, as s ~ pattern (or ~* when icase) in SQL? */
bool
kidx_sql_regex_match(const char *s, const char *pattern, bool icase)
{
	return DatumGetBool(DirectFunctionCall2Coll(icase ? texticregexeq : textregexeq,
												DEFAULT_COLLATION_OID,
												CStringGetTextDatum(s),
												CStringGetTextDatum(pattern)));
}

/* ----------------------------------------------------------------
 *		What every harness builds from them
 * ----------------------------------------------------------------
 */

/* The vendor an unknown GPU's name shows (see catalog.h), or NULL. */
const char *
catalog_vendor_of_name(const char *gpu)
{
	if (kidx_sql_regex_match(gpu, "^(nvidia|tesla|quadro|geforce)", true))
		return "nvidia";
	if (kidx_sql_regex_match(gpu, "^(amd|radeon)", true))
		return "amd";
	if (kidx_sql_regex_match(gpu, "^intel", true))
		return "intel";
	return NULL;
}

/* An unknown GPU's name without its vendor word, for its title. */
static char *
name_without_vendor(const char *gpu)
{
	Datum		d = DirectFunctionCall4Coll(textregexreplace, DEFAULT_COLLATION_OID,
											CStringGetTextDatum(gpu),
											CStringGetTextDatum("^(NVIDIA|AMD|Intel(\\(R\\))?)\\s+"),
											CStringGetTextDatum(""),
											CStringGetTextDatum("i"));

	return TextDatumGetCString(d);
}

/* ExecutionEnvironment of a GPU name, for any harness (see catalog.h). */
Jsonb *
catalog_environment_document(const KidxCatalog *c, const char *gpu, const char *name_prefix,
							 const char *title_prefix, bool *known)
{
	const CatGpu *g = catalog_gpu(c, gpu);
	const char *shown = NULL;
	JsonbParseState *st = NULL;

	if (known != NULL)
		*known = g != NULL;
	if (g != NULL && g->title != NULL)
		shown = g->title;
	else if (gpu != NULL)
		shown = name_without_vendor(gpu);

	jb_resource(&st, "ExecutionEnvironment");
	jb_string(&st, "name", gpu == NULL ? NULL :
			  kidx_resource_name(psprintf("%s%s", name_prefix, kidx_slug(gpu))));
	jb_string(&st, "title", shown == NULL ? NULL :
			  psprintf("%s " MIDDOT " %s", title_prefix, shown));
	jb_end(&st);
	jb_begin(&st, "spec");
	jb_begin(&st, "hardware");
	jb_string_or_none(&st, "vendor", g != NULL ? g->vendor :
					  gpu != NULL ? catalog_vendor_of_name(gpu) : NULL);
	jb_string_or_none(&st, "product", g != NULL ? g->product : gpu);
	jb_string_or_none(&st, "formFactor", g != NULL ? g->form_factor : NULL);
	jb_string_or_none(&st, "architecture", g != NULL ? g->architecture : NULL);
	jb_end(&st);
	jb_begin(&st, "software");
	jb_end(&st);
	jb_end(&st);
	return JsonbValueToJsonb(jb_end(&st));
}

/* A provider's display title: the catalog's, else the name. */
const char *
catalog_provider_title(const KidxCatalog *c, const char *provider)
{
	const CatProvider *p = catalog_provider(c, provider);

	return p ? p->title : provider;
}

/* ----------------------------------------------------------------
 *		The catalogs of a call site of the SQL functions
 * ----------------------------------------------------------------
 */

/* Keep what a snapshot sees in a signature (in the current memory context). */
static void
snapshot_sig_save(SnapshotSig *sig, Snapshot snap)
{
	sig->lxid = kidx_my_local_xid();
	sig->subid = GetCurrentSubTransactionId();
	sig->curcid = snap->curcid;
	sig->xmin = snap->xmin;
	sig->xmax = snap->xmax;
	sig->xcnt = snap->xcnt;
	sig->subxcnt = snap->subxcnt;
	sig->suboverflowed = snap->suboverflowed;
	sig->xip = palloc(sizeof(TransactionId) * Max(snap->xcnt, 1));
	memcpy(sig->xip, snap->xip, sizeof(TransactionId) * snap->xcnt);
	sig->subxip = palloc(sizeof(TransactionId) * Max(snap->subxcnt, 1));
	if (snap->subxcnt > 0)
		memcpy(sig->subxip, snap->subxip, sizeof(TransactionId) * snap->subxcnt);
}

/* Does a snapshot see what the one of a signature saw? */
static bool
snapshot_sig_same(const SnapshotSig *sig, Snapshot snap)
{
	return sig->lxid == kidx_my_local_xid() &&
		sig->subid == GetCurrentSubTransactionId() &&
		sig->curcid == snap->curcid &&
		sig->xmin == snap->xmin &&
		sig->xmax == snap->xmax &&
		sig->xcnt == snap->xcnt &&
		sig->subxcnt == snap->subxcnt &&
		sig->suboverflowed == snap->suboverflowed &&
		memcmp(sig->xip, snap->xip, sizeof(TransactionId) * snap->xcnt) == 0 &&
		(snap->subxcnt <= 0 ||
		 memcmp(sig->subxip, snap->subxip, sizeof(TransactionId) * snap->subxcnt) == 0);
}

/*
 * The catalog tables a call site needs: read at its first call and kept in
 * fn_extra while the active snapshot sees the same rows.
 */
const KidxCatalog *
catalog_call_site(FunctionCallInfo fcinfo, int tables)
{
	CatalogCache *cache = (CatalogCache *) fcinfo->flinfo->fn_extra;
	Snapshot	snap = ActiveSnapshotSet() ? GetActiveSnapshot() : NULL;
	MemoryContext old;
	KidxCatalog *c;

	if (cache == NULL)
	{
		cache = MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(CatalogCache));
		cache->cxt = AllocSetContextCreate(fcinfo->flinfo->fn_mcxt,
										   "kernelindex catalog",
										   ALLOCSET_SMALL_SIZES);
		fcinfo->flinfo->fn_extra = cache;
	}
	else if (cache->catalog != NULL && snap != NULL &&
			 snapshot_sig_same(&cache->sig, snap))
		return cache->catalog;

	cache->catalog = NULL;
	MemoryContextReset(cache->cxt);
	old = MemoryContextSwitchTo(cache->cxt);
	c = catalog_read_tables(tables);
	if (snap != NULL)
		snapshot_sig_save(&cache->sig, snap);
	MemoryContextSwitchTo(old);
	/* without a snapshot to compare, read again next time */
	if (snap != NULL)
		cache->catalog = c;
	return c;
}
