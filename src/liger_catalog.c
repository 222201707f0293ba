/*-------------------------------------------------------------------------
 *
 * liger_catalog.c
 *	  The resource documents and workload labels of Liger-Kernel rows,
 *	  built in C from the catalogs kernelindex.gpus, kernels, providers and
 *	  liger_passes.
 *
 * Four documents describe what a Liger row measured: the protocol (how:
 * the metric and the pass, from liger_passes), the environment (where:
 * the GPU, from gpus), the implementation (what: the kernel's provider,
 * from kernels and providers) and the workload (on what: the kernel, the x
 * input and the configuration, named by the workload label, whose rule is
 * the kernel's label template).  They are the documents kernelindex 0.1.0
 * built in SQL, exactly: the same jsonb, key for key and byte for byte,
 * NULL arguments included (test/sql/liger_catalog_oracle.sql keeps those
 * SQL definitions, test/sql/liger_catalog.sh compares with them).  Where the SQL's answer depended on the
 * database's locale (lower() in slugs, \s and case-insensitive matching in
 * the vendor, title and x value rules), PostgreSQL's own functions are
 * called with the database's default collation, as the SQL bodies were;
 * every rule that does not is in src/core/liger_label.c.
 *
 * Two kinds of caller use the builders.  The C functions behind the SQL
 * functions kernelindex.liger_protocol, liger_environment,
 * liger_implementation, liger_workload and liger_workload_label read, at
 * each call site, the catalog tables they need once and keep them in
 * fn_extra while the active snapshot sees the same rows (a PL/pgSQL loop
 * that inserts into a catalog sees its rows, as it did when those
 * functions were written in SQL); liger_slug reads no catalog.  The COPY
 * paths read the four tables once a statement (liger_catalog_read):
 * kernelindex.liger_rows' (src/liger_ingest.c) for all four documents,
 * run_rows' (src/run_rows.c) for the environment
 * (catalog_environment_document) and the kernel and provider titles.
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
#include "utils/numeric.h"
#include "utils/snapmgr.h"
#include "utils/snapshot.h"

#include "canonical.h"
#include "core/liger_label.h"
#include "extension.h"
#include "liger.h"
#include "jsonb_build.h"
#include "row_checks.h"
#include "liger_catalog.h"
#include "run_layout.h"

/* U+00B7 MIDDLE DOT in UTF-8, which titles join words with (as 0.1.0's SQL did). */
#define MIDDOT "\xc2\xb7"

/* The catalog tables a LigerCatalog holds. */
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

struct LigerCatalog
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
	LigerCatalog *catalog;		/* NULL: to be read */
	SnapshotSig sig;
} CatalogCache;

/* A value named in the CONTEXT of an error raised while it is read. */
typedef struct ValueContext
{
	const char *what;
	const char *value;
} ValueContext;

/* An object member, for ordering by key. */
typedef struct Member
{
	const char *key;
	int			keylen;
	JsonbValue	value;
} Member;

/* SQL three-valued logic. */
typedef enum
{
	TV_FALSE, TV_TRUE, TV_NULL
} TriValue;

PG_FUNCTION_INFO_V1(kidx_liger_protocol);
PG_FUNCTION_INFO_V1(kidx_liger_environment);
PG_FUNCTION_INFO_V1(kidx_liger_implementation);
PG_FUNCTION_INFO_V1(kidx_liger_workload);
PG_FUNCTION_INFO_V1(kidx_liger_workload_label);
PG_FUNCTION_INFO_V1(kidx_liger_slug);

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
cat_require(const LigerCatalog *c, int table)
{
	if ((c->tables & table) != table)
		elog(ERROR, "kernelindex Liger catalog read without table %d", table);
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
static LigerCatalog *
catalog_read_tables(int tables)
{
	MemoryContext target = CurrentMemoryContext;
	LigerCatalog *c = palloc0(sizeof(LigerCatalog));
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

/* Read the four catalog tables (see liger_catalog.h). */
LigerCatalog *
liger_catalog_read(void)
{
	return catalog_read_tables(CAT_ALL);
}

/* The catalog row of a GPU, or NULL. */
static const CatGpu *
find_gpu(const LigerCatalog *c, const char *name)
{
	cat_require(c, CAT_GPUS);
	return cat_find(c->gpus, c->ngpus, sizeof(CatGpu), name);
}

/* The catalog row of a kernel, or NULL. */
static const CatKernel *
find_kernel(const LigerCatalog *c, const char *name)
{
	cat_require(c, CAT_KERNELS);
	return cat_find(c->kernels, c->nkernels, sizeof(CatKernel), name);
}

/* The catalog row of a provider, or NULL. */
static const CatProvider *
find_provider(const LigerCatalog *c, const char *name)
{
	cat_require(c, CAT_PROVIDERS);
	return cat_find(c->providers, c->nproviders, sizeof(CatProvider), name);
}

/* The catalog row of an operation mode, or NULL. */
static const CatPass *
find_pass(const LigerCatalog *c, const char *name)
{
	cat_require(c, CAT_PASSES);
	return cat_find(c->passes, c->npasses, sizeof(CatPass), name);
}

/* A kernel's display title: the catalog's, else the name (see liger_catalog.h). */
const char *
liger_kernel_title(const LigerCatalog *c, const char *kernel)
{
	const CatKernel *k = find_kernel(c, kernel);

	return k ? k->title : kernel;
}

/* ----------------------------------------------------------------
 *		Text rules that need the server
 * ----------------------------------------------------------------
 */

/* The slug of a string: lower() in the database's collation, then the core's rule. */
char *
liger_slug(const char *s)
{
	char	   *lower = str_tolower(s, strlen(s), DEFAULT_COLLATION_OID);
	size_t		len = strlen(lower);
	char	   *out = palloc(len + 1);

	out[liger_slug_lowered(lower, len, out)] = '\0';
	pfree(lower);
	return out;
}

/* A resource name: prefix and slugs joined, cut to 100 characters without trailing hyphens. */
static char *
cut_name(char *name)
{
	name[liger_name_cut(name, strlen(name), LIGER_NAME_MAX)] = '\0';
	return name;
}

/* Does s match a regular expression, as s ~ pattern (or ~* when icase) in SQL? */
static bool
sql_regex_match(const char *s, const char *pattern, bool icase)
{
	return DatumGetBool(DirectFunctionCall2Coll(icase ? texticregexeq : textregexeq,
												DEFAULT_COLLATION_OID,
												CStringGetTextDatum(s),
												CStringGetTextDatum(pattern)));
}

/* Name an argument's value in the CONTEXT of an error. */
static void
value_context_cb(void *arg)
{
	ValueContext *vc = (ValueContext *) arg;

	errcontext("%s \"%s\"", vc->what, row_shown_value(vc->value));
}

/*
 * An x value as JSON (the SQL's liger_x_value): a number when written as
 * one, with white space around it as the locale's \s knows it (numeric_in
 * then reads it, or refuses white space it does not know), else a string.
 */
static void
x_value_json(const char *x, JsonbValue *out)
{
	LigerXKind kind = liger_x_kind(x, strlen(x));

	if (kind == LIGER_X_UNSURE)
		kind = sql_regex_match(x, "^\\s*-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?\\s*$",
							   false) ? LIGER_X_NUMBER : LIGER_X_STRING;
	if (kind == LIGER_X_NUMBER)
	{
		ErrorContextCallback cb;
		ValueContext vc = {"x_value", x};

		cb.callback = value_context_cb;
		cb.arg = &vc;
		cb.previous = error_context_stack;
		error_context_stack = &cb;
		out->type = jbvNumeric;
		out->val.numeric = run_numeric_in(x);
		error_context_stack = cb.previous;
		return;
	}
	out->type = jbvString;
	out->val.string.val = (char *) x;
	out->val.string.len = strlen(x);
}

/* Refuse a workload configuration that is not a JSON object. */
static void
check_config_object(Jsonb *config, const char *written)
{
	if (JB_ROOT_IS_OBJECT(config))
		return;
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("workload configuration \"%s\" is not a JSON object",
					row_shown_value(written ? written :
									  JsonbToCString(NULL, &config->root, VARSIZE(config)))),
			 errdetail("It is %s.", JB_ROOT_IS_SCALAR(config) ? "a JSON scalar" : "a JSON array"),
			 errhint("extra_benchmark_config_str holds a workload's other inputs as one JSON object, "
					 "e.g. {\"B\": 4, \"dtype\": \"torch.float32\"}.")));
}

/* A configuration as written, parsed as config::jsonb does; it must be an object. */
static Jsonb *
config_jsonb(const char *config)
{
	ErrorContextCallback cb;
	ValueContext vc = {"extra_benchmark_config_str", config};
	Jsonb	   *jb;

	cb.callback = value_context_cb;
	cb.arg = &vc;
	cb.previous = error_context_stack;
	error_context_stack = &cb;
	jb = DatumGetJsonbP(DirectFunctionCall1(jsonb_in, CStringGetDatum(config)));
	error_context_stack = cb.previous;
	check_config_object(jb, config);
	return jb;
}

/* The harness member of protocols and implementations. */
static void
jb_harness(JsonbParseState **st)
{
	jb_begin(st, "harness");
	jb_string(st, "name", "Liger-Kernel benchmark scripts");
	jb_string(st, "repository", "https://github.com/linkedin/Liger-Kernel");
	jb_end(st);
}

/* ----------------------------------------------------------------
 *		Documents
 * ----------------------------------------------------------------
 */

/* BenchmarkProtocol of a metric and an operation mode (see liger_catalog.h). */
Jsonb *
liger_protocol_document(const LigerCatalog *c, const char *metric, const char *pass)
{
	bool		memory = metric != NULL && strcmp(metric, "memory") == 0;
	const CatPass *p = find_pass(c, pass);
	const char *timed = NULL;
	JsonbParseState *st = NULL;

	if (p != NULL)
		timed = p->timed;
	else if (pass != NULL)
		timed = psprintf("the pass the upstream harness calls \"%s\"", pass);

	jb_resource(&st, "BenchmarkProtocol");
	jb_string(&st, "name", pass == NULL ? NULL :
			  psprintf("%s%s", memory ? "liger-bench-peak-memory-" : "liger-bench-do-bench-",
					   liger_slug(pass)));
	jb_string(&st, "title", pass == NULL ? NULL :
			  psprintf("Liger benchmark harness " MIDDOT " %s pass%s", pass,
					   memory ? " peak memory" : ""));
	jb_end(&st);
	jb_begin(&st, "spec");
	jb_harness(&st);
	jb_begin(&st, "measurement");
	if (memory)
	{
		jb_string(&st, "method", "torch.cuda.max_memory_allocated");
		jb_string(&st, "unit", "bytes");
	}
	else
		jb_string(&st, "timer", "cuda_events");
	jb_string(&st, "primaryStatistic", "median");
	jb_end(&st);
	jb_begin(&st, "comparability");
	jb_string(&st, "family", memory ? "liger_kernel_bench_memory" : "liger_kernel_bench");
	if (timed == NULL)
		jb_string(&st, "notes", NULL);
	else if (memory)
		jb_string(&st, "notes",
				  psprintf("Measured: peak GPU memory allocated through PyTorch "
						   "(torch.cuda.max_memory_allocated, peak statistics reset before each repetition) "
						   "while running %s, over repeated runs with quantiles 0.5/0.2/0.8 "
						   "(median with p20/p80 spread). Liger writes MiB; stored as exact bytes (x 1048576). "
						   "The upstream CSV records no CUDA, driver, or torch version; the Liger release "
						   "rides each run's labels. Comparable only within one kernel, workload, "
						   "measured pass, and GPU.", timed));
	else
		jb_string(&st, "notes",
				  psprintf("Timed: %s, via triton.testing.do_bench with quantiles 0.5/0.2/0.8 "
						   "(median with p20/p80 spread). The upstream CSV records no CUDA, driver, "
						   "or torch version; the Liger release rides each run's labels. Comparable "
						   "only within one kernel, workload, timed pass, and GPU.", timed));
	jb_end(&st);
	jb_end(&st);
	return JsonbValueToJsonb(jb_end(&st));
}

/* The vendor an unknown GPU's name shows, or NULL. */
static const char *
vendor_of_name(const char *gpu)
{
	if (sql_regex_match(gpu, "^(nvidia|tesla|quadro|geforce)", true))
		return "nvidia";
	if (sql_regex_match(gpu, "^(amd|radeon)", true))
		return "amd";
	if (sql_regex_match(gpu, "^intel", true))
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

/* ExecutionEnvironment of a GPU name, for any harness (see liger_catalog.h). */
Jsonb *
catalog_environment_document(const LigerCatalog *c, const char *gpu, const char *name_prefix,
							 const char *title_prefix, bool *known)
{
	const CatGpu *g = find_gpu(c, gpu);
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
			  cut_name(psprintf("%s%s", name_prefix, liger_slug(gpu))));
	jb_string(&st, "title", shown == NULL ? NULL :
			  psprintf("%s " MIDDOT " %s", title_prefix, shown));
	jb_end(&st);
	jb_begin(&st, "spec");
	jb_begin(&st, "hardware");
	jb_string_or_none(&st, "vendor", g != NULL ? g->vendor :
					  gpu != NULL ? vendor_of_name(gpu) : NULL);
	jb_string_or_none(&st, "product", g != NULL ? g->product : gpu);
	jb_string_or_none(&st, "formFactor", g != NULL ? g->form_factor : NULL);
	jb_string_or_none(&st, "architecture", g != NULL ? g->architecture : NULL);
	jb_end(&st);
	jb_begin(&st, "software");
	jb_end(&st);
	jb_end(&st);
	return JsonbValueToJsonb(jb_end(&st));
}

/* ExecutionEnvironment of a GPU name (see liger_catalog.h). */
Jsonb *
liger_environment_document(const LigerCatalog *c, const char *gpu)
{
	return catalog_environment_document(c, gpu, "liger-bench-", "Liger benchmark host", NULL);
}

/* A provider's display title: the catalog's, else the name. */
const char *
catalog_provider_title(const LigerCatalog *c, const char *provider)
{
	const CatProvider *p = find_provider(c, provider);

	return p ? p->title : provider;
}

/* Implementation of a kernel's provider (see liger_catalog.h). */
Jsonb *
liger_implementation_document(const LigerCatalog *c, const char *kernel, const char *provider)
{
	const char *kernel_title = liger_kernel_title(c, kernel);
	const CatProvider *p = find_provider(c, provider);
	const char *provider_title = p ? p->title : provider;
	JsonbParseState *st = NULL;

	jb_resource(&st, "Implementation");
	jb_string(&st, "name", kernel == NULL || provider == NULL ? NULL :
			  cut_name(psprintf("liger-impl-%s-%s", liger_slug(kernel), liger_slug(provider))));
	jb_string(&st, "title", kernel_title == NULL || provider_title == NULL ? NULL :
			  psprintf("%s " MIDDOT " %s", kernel_title, provider_title));
	jb_end(&st);
	jb_begin(&st, "spec");
	jb_harness(&st);
	jb_string(&st, "kernel", kernel);
	jb_string(&st, "provider", provider);
	jb_end(&st);
	return JsonbValueToJsonb(jb_end(&st));
}

/* ----------------------------------------------------------------
 *		Workload labels
 * ----------------------------------------------------------------
 */

/*
 * The inputs of a template label: the configuration with x added (x wins
 * over a configuration key of its name), or, for a NULL configuration,
 * SQL NULL (no input at all).
 */
typedef struct LabelInputs
{
	JsonbContainer *config;		/* NULL: the inputs are NULL */
	const char *x_name;
	int			x_len;
	JsonbValue *x_value;		/* NULL: JSON null */
} LabelInputs;

/* Append a string to a label, each "/" as \u002f. */
static void
append_escaped(StringInfo buf, const char *s, int len)
{
	const char *end = s + len;
	const char *slash;

	while ((slash = memchr(s, '/', end - s)) != NULL)
	{
		appendBinaryStringInfo(buf, s, slash - s);
		appendStringInfoString(buf, "\\u002f");
		s = slash + 1;
	}
	appendBinaryStringInfo(buf, s, end - s);
}

/*
 * Append a JSON value as a label writes it: a string that looks like an
 * identifier bare, anything else as canonical JSON with "/" escaped.
 */
static void
append_label_value(StringInfo buf, JsonbValue *v)
{
	char	   *text;
	int			len;

	if (v->type == jbvString && liger_label_is_bare(v->val.string.val, v->val.string.len))
	{
		appendBinaryStringInfo(buf, v->val.string.val, v->val.string.len);
		return;
	}
	text = canon_value_text(v, &len);
	append_escaped(buf, text, len);
}

/* Append a string (a key, an x name) as a label writes it. */
static void
append_label_string(StringInfo buf, const char *s, int len)
{
	JsonbValue	v;

	v.type = jbvString;
	v.val.string.val = (char *) s;
	v.val.string.len = len;
	append_label_value(buf, &v);
}

/* Append the canonical JSON of a value (placeholders are not escaped). */
static void
append_canonical(StringInfo buf, JsonbValue *v)
{
	int			len;
	char	   *text = canon_value_text(v, &len);

	appendBinaryStringInfo(buf, text, len);
}

/* Are two JSON values equal, as jsonb = is? */
static bool
values_equal(JsonbValue *a, JsonbValue *b)
{
	if (a->type != b->type)
		return false;
	switch (a->type)
	{
		case jbvNull:
			return true;
		case jbvBool:
			return a->val.boolean == b->val.boolean;
		case jbvString:
			return a->val.string.len == b->val.string.len &&
				memcmp(a->val.string.val, b->val.string.val, a->val.string.len) == 0;
		case jbvNumeric:
			return DatumGetBool(DirectFunctionCall2(numeric_eq,
													NumericGetDatum(a->val.numeric),
													NumericGetDatum(b->val.numeric)));
		case jbvBinary:
			return compareJsonbContainers(a->val.binary.data, b->val.binary.data) == 0;
		default:
			elog(ERROR, "unexpected jsonb value type %d", (int) a->type);
	}
	return false;				/* keep the compiler quiet */
}

/* Are two values, either absent (NULL), distinct (IS DISTINCT FROM)? */
static bool
values_distinct(JsonbValue *a, JsonbValue *b)
{
	if (a == NULL || b == NULL)
		return (a == NULL) != (b == NULL);
	return !values_equal(a, b);
}

/* The member key of an object, or NULL when absent. */
static JsonbValue *
member(JsonbContainer *obj, const char *key, int len, JsonbValue *buf)
{
	if (obj == NULL)
		return NULL;
	return getKeyJsonValueFromContainer(obj, key, len, buf);
}

/* The input key of a template label (inputs -> key), or NULL. */
static JsonbValue *
input_of(const LabelInputs *in, const char *key, int len, JsonbValue *buf)
{
	if (in->config == NULL)
		return NULL;
	if (len == in->x_len && memcmp(key, in->x_name, len) == 0)
	{
		if (in->x_value != NULL)
			return in->x_value;
		buf->type = jbvNull;
		return buf;
	}
	return member(in->config, key, len, buf);
}

/* qsort comparator of members: keys bytewise, as ORDER BY key COLLATE "C". */
static int
member_cmp(const void *a, const void *b)
{
	const Member *ma = (const Member *) a;
	const Member *mb = (const Member *) b;
	int			c = memcmp(ma->key, mb->key, Min(ma->keylen, mb->keylen));

	if (c != 0)
		return c;
	return (ma->keylen > mb->keylen) - (ma->keylen < mb->keylen);
}

/* A new last element of a growing array of members. */
static Member *
member_slot(Member **members, int *n, int *cap)
{
	if (*n == *cap)
	{
		*cap = *cap ? *cap * 2 : 16;
		*members = *members ? repalloc(*members, sizeof(Member) * *cap) :
			palloc(sizeof(Member) * *cap);
	}
	return &(*members)[(*n)++];
}

/* Append an object's members (keys and values; none for NULL) to an array. */
static void
collect_members(JsonbContainer *obj, Member **members, int *n, int *cap)
{
	JsonbIterator *it;
	JsonbIteratorToken tok;
	JsonbValue	v;
	Member	   *m = NULL;

	if (obj == NULL)
		return;
	it = JsonbIteratorInit(obj);
	while ((tok = JsonbIteratorNext(&it, &v, true)) != WJB_DONE)
	{
		if (tok == WJB_KEY)
		{
			m = member_slot(members, n, cap);
			m->key = v.val.string.val;
			m->keylen = v.val.string.len;
		}
		else if (tok == WJB_VALUE)
			m->value = v;
	}
}

/*
 * The generic label, for a kernel without a template: x=v, then every
 * configuration key=value in key order.  NULL if x's name or value is.
 */
static char *
generic_label(const char *x_name, JsonbValue *x_value, JsonbContainer *config)
{
	StringInfoData buf;
	Member	   *members = NULL;
	int			cap = 0;
	int			n = 0;
	int			i;

	if (x_name == NULL || x_value == NULL)
		return NULL;
	initStringInfo(&buf);
	append_label_string(&buf, x_name, strlen(x_name));
	appendStringInfoChar(&buf, '=');
	append_label_value(&buf, x_value);
	collect_members(config, &members, &n, &cap);
	qsort(members, n, sizeof(Member), member_cmp);
	for (i = 0; i < n; i++)
	{
		appendStringInfoChar(&buf, ',');
		append_label_string(&buf, members[i].key, members[i].keylen);
		appendStringInfoChar(&buf, '=');
		append_label_value(&buf, &members[i].value);
	}
	return buf.data;
}

/*
 * Append the value of one placeholder, key[0..len): {A*B} the product of
 * two numeric inputs, {K} a string input as a short dtype or another input
 * as canonical JSON; "na" when the inputs lack them.  Nothing for NULL
 * inputs (the SQL's NULL, which string_agg skipped).
 */
static void
append_placeholder(StringInfo buf, const char *key, int len, const LabelInputs *in)
{
	JsonbValue	abuf,
				bbuf;
	JsonbValue *a;
	JsonbValue *b;
	size_t		star;

	if (in->config == NULL)
		return;
	if (liger_placeholder_kind(key, len, &star) == LIGER_PH_PRODUCT)
	{
		a = input_of(in, key, star, &abuf);
		b = input_of(in, key + star + 1, len - star - 1, &bbuf);
		if (a != NULL && b != NULL && a->type == jbvNumeric && b->type == jbvNumeric)
		{
			JsonbValue	product;

			product.type = jbvNumeric;
			product.val.numeric =
				DatumGetNumeric(DirectFunctionCall2(numeric_mul,
													NumericGetDatum(a->val.numeric),
													NumericGetDatum(b->val.numeric)));
			append_canonical(buf, &product);
		}
		else
			appendStringInfoString(buf, "na");
		return;
	}
	a = input_of(in, key, len, &abuf);
	if (a == NULL)
		appendStringInfoString(buf, "na");
	else if (a->type == jbvString)
	{
		char	   *shortened = palloc(a->val.string.len + 1);

		appendBinaryStringInfo(buf, shortened,
							   liger_dtype_label(a->val.string.val, a->val.string.len, shortened));
		pfree(shortened);
	}
	else
		append_canonical(buf, a);
}

/*
 * Is an input that a template shows alone fully shown, so that the label
 * need not repeat it: a number, or a torch dtype?  As the SQL's
 * jsonb_typeof(v) = 'number' OR (v #>> '{}') ~ dtype, in three-valued
 * logic: NULL for an absent input or JSON null.
 */
static TriValue
shown_alone(JsonbValue *v)
{
	if (v == NULL || v->type == jbvNull)
		return TV_NULL;
	if (v->type == jbvNumeric)
		return TV_TRUE;
	if (v->type == jbvString)
		return liger_is_torch_dtype(v->val.string.val, v->val.string.len) ? TV_TRUE : TV_FALSE;
	/* a boolean's or a container's text is no dtype */
	return TV_FALSE;
}

/*
 * The label of a kernel with a template: the template rendered, then
 * ",x=NAME" when x is not the template's x, ",NAME@config=V" when the
 * configuration has a key of x's name with another value, then
 * ",key=value" for every input the template does not show alone and that
 * differs from the kernel's label_defaults, in key order.
 */
static char *
template_label(const CatKernel *k, const char *x_name, JsonbValue *x_value,
			   JsonbContainer *config)
{
	const char *t = k->label_template;
	size_t		tlen = strlen(t);
	JsonbContainer *defaults = k->label_defaults ? &k->label_defaults->root : NULL;
	LabelInputs in;
	LigerPlaceholder ph;
	StringInfoData buf;
	StringInfoData suffix;
	LigerPlaceholder *lone = NULL;
	int			nlone = 0;
	int			caplone = 0;
	Member	   *keys = NULL;
	int			cap = 0;
	int			n = 0;
	size_t		pos = 0;
	JsonbValue	vbuf;
	JsonbValue	dbuf;
	JsonbValue *cv;
	int			i;

	if (x_name == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("the x name of a workload of kernel \"%s\" must not be null", k->name),
				 errdetail("The kernel's label template names its inputs, x among them.")));
	in.config = config;
	in.x_name = x_name;
	in.x_len = strlen(x_name);
	in.x_value = x_value;

	/* The template: literal text and placeholders, in order. */
	initStringInfo(&buf);
	while (liger_template_next(t, tlen, pos, &ph))
	{
		const char *key = t + ph.start + 1;
		int			keylen = ph.end - ph.start - 2;
		size_t		star;

		appendBinaryStringInfo(&buf, t + pos, ph.start - pos);
		append_placeholder(&buf, key, keylen, &in);
		if (liger_placeholder_kind(key, keylen, &star) == LIGER_PH_LONE)
		{
			if (nlone == caplone)
			{
				caplone = caplone ? caplone * 2 : 8;
				lone = lone ? repalloc(lone, sizeof(LigerPlaceholder) * caplone) :
					palloc(sizeof(LigerPlaceholder) * caplone);
			}
			lone[nlone++] = ph;
		}
		pos = ph.end;
	}
	appendBinaryStringInfo(&buf, t + pos, tlen - pos);

	/* x is not the template's x */
	if (k->label_x_name == NULL || strcmp(k->label_x_name, x_name) != 0)
	{
		appendStringInfoString(&buf, ",x=");
		append_label_string(&buf, x_name, in.x_len);
	}

	/* the configuration has another value for x's name */
	cv = member(config, x_name, in.x_len, &vbuf);
	if (cv != NULL && (x_value == NULL || !values_equal(cv, x_value)))
	{
		appendStringInfoChar(&buf, ',');
		append_label_string(&buf, x_name, in.x_len);
		appendStringInfoString(&buf, "@config=");
		append_label_value(&buf, cv);
	}

	/* every key of the inputs and of the defaults, once, in order */
	collect_members(config, &keys, &n, &cap);
	if (config != NULL)
	{
		Member	   *m = member_slot(&keys, &n, &cap);

		m->key = x_name;
		m->keylen = in.x_len;
	}
	collect_members(defaults, &keys, &n, &cap);
	qsort(keys, n, sizeof(Member), member_cmp);

	initStringInfo(&suffix);
	for (i = 0; i < n; i++)
	{
		const char *key = keys[i].key;
		int			keylen = keys[i].keylen;
		JsonbValue *iv;
		bool		is_lone = false;
		int			j;

		if (i > 0 && member_cmp(&keys[i - 1], &keys[i]) == 0)
			continue;
		CHECK_FOR_INTERRUPTS();
		iv = input_of(&in, key, keylen, &vbuf);
		for (j = 0; j < nlone && !is_lone; j++)
			is_lone = lone[j].end - lone[j].start - 2 == keylen &&
				memcmp(t + lone[j].start + 1, key, keylen) == 0;
		/* NOT (lone AND shown): kept only when that is true, not NULL */
		if (is_lone && shown_alone(iv) != TV_FALSE)
			continue;
		if (!values_distinct(iv, member(defaults, key, keylen, &dbuf)))
			continue;
		appendStringInfoChar(&suffix, ',');
		append_label_string(&suffix, key, keylen);
		appendStringInfoChar(&suffix, '=');
		if (iv != NULL)
			append_label_value(&suffix, iv);
	}
	appendBinaryStringInfo(&buf, suffix.data, suffix.len);
	return buf.data;
}

/*
 * The workload label of a kernel's x and configuration (NULL: SQL NULL):
 * its template's, or the generic one.
 */
static char *
workload_label(const LigerCatalog *c, const char *kernel, const char *x_name,
			   JsonbValue *x_value, JsonbContainer *config)
{
	const CatKernel *k = find_kernel(c, kernel);

	if (k != NULL && k->label_template != NULL)
		return template_label(k, x_name, x_value, config);
	return generic_label(x_name, x_value, config);
}

/* Workload of a row (see liger_catalog.h). */
Jsonb *
liger_workload_document(const LigerCatalog *c, const char *kernel, const char *x_name,
						const char *x_label, const char *x_value, const char *config,
						char **label)
{
	JsonbValue	xv;
	Jsonb	   *cfg = NULL;
	const char *kernel_title;
	char	   *lbl;
	JsonbParseState *st = NULL;
	JsonbValue	cfgv;

	if (x_value != NULL)
		x_value_json(x_value, &xv);
	if (config != NULL)
		cfg = config_jsonb(config);
	lbl = workload_label(c, kernel, x_name, x_value ? &xv : NULL, cfg ? &cfg->root : NULL);
	kernel_title = liger_kernel_title(c, kernel);

	jb_resource(&st, "Workload");
	jb_string(&st, "name", kernel == NULL || lbl == NULL ? NULL :
			  cut_name(psprintf("liger-workload-%s-%s", liger_slug(kernel), liger_slug(lbl))));
	jb_string(&st, "title", kernel_title == NULL || lbl == NULL ? NULL :
			  psprintf("%s " MIDDOT " %s", kernel_title, lbl));
	jb_begin(&st, "labels");
	jb_string_or_none(&st, "label", lbl);
	jb_string_or_none(&st, "x_label", x_label);
	jb_end(&st);
	jb_end(&st);
	jb_begin(&st, "spec");
	jb_string(&st, "source", "liger-kernel-bench");
	jb_string(&st, "kernel", kernel);
	jb_begin(&st, "x");
	jb_string(&st, "name", x_name);
	jb_value(&st, "value", x_value ? &xv : NULL);
	jb_end(&st);
	if (cfg != NULL)
	{
		cfgv.type = jbvBinary;
		cfgv.val.binary.data = &cfg->root;
		cfgv.val.binary.len = VARSIZE(cfg) - VARHDRSZ;
	}
	jb_value(&st, "config", cfg ? &cfgv : NULL);
	jb_end(&st);
	*label = lbl;
	return JsonbValueToJsonb(jb_end(&st));
}

/* ----------------------------------------------------------------
 *		SQL functions
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
static const LigerCatalog *
call_site_catalog(FunctionCallInfo fcinfo, int tables)
{
	CatalogCache *cache = (CatalogCache *) fcinfo->flinfo->fn_extra;
	Snapshot	snap = ActiveSnapshotSet() ? GetActiveSnapshot() : NULL;
	MemoryContext old;
	LigerCatalog *c;

	if (cache == NULL)
	{
		cache = MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(CatalogCache));
		cache->cxt = AllocSetContextCreate(fcinfo->flinfo->fn_mcxt,
										   "kernelindex Liger catalog",
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

/* A text argument as a C string, NULL for NULL. */
static char *
arg_cstring(FunctionCallInfo fcinfo, int n)
{
	return PG_ARGISNULL(n) ? NULL : text_to_cstring(PG_GETARG_TEXT_PP(n));
}

/* kernelindex.liger_protocol(metric text, pass text) -> jsonb */
Datum
kidx_liger_protocol(PG_FUNCTION_ARGS)
{
	const LigerCatalog *c = call_site_catalog(fcinfo, CAT_PASSES);

	PG_RETURN_JSONB_P(liger_protocol_document(c, arg_cstring(fcinfo, 0),
											  arg_cstring(fcinfo, 1)));
}

/* kernelindex.liger_environment(gpu text) -> jsonb */
Datum
kidx_liger_environment(PG_FUNCTION_ARGS)
{
	const LigerCatalog *c = call_site_catalog(fcinfo, CAT_GPUS);

	PG_RETURN_JSONB_P(liger_environment_document(c, arg_cstring(fcinfo, 0)));
}

/* kernelindex.liger_implementation(kernel text, provider text) -> jsonb */
Datum
kidx_liger_implementation(PG_FUNCTION_ARGS)
{
	const LigerCatalog *c = call_site_catalog(fcinfo, CAT_KERNELS | CAT_PROVIDERS);

	PG_RETURN_JSONB_P(liger_implementation_document(c, arg_cstring(fcinfo, 0),
													arg_cstring(fcinfo, 1)));
}

/* kernelindex.liger_workload(kernel, x_name, x_label, x_value, config text) -> jsonb */
Datum
kidx_liger_workload(PG_FUNCTION_ARGS)
{
	const LigerCatalog *c = call_site_catalog(fcinfo, CAT_KERNELS);
	char	   *label;

	PG_RETURN_JSONB_P(liger_workload_document(c, arg_cstring(fcinfo, 0), arg_cstring(fcinfo, 1),
											  arg_cstring(fcinfo, 2), arg_cstring(fcinfo, 3),
											  arg_cstring(fcinfo, 4), &label));
}

/* kernelindex.liger_workload_label(kernel text, x_name text, x_value jsonb, config jsonb) -> text */
Datum
kidx_liger_workload_label(PG_FUNCTION_ARGS)
{
	const LigerCatalog *c = call_site_catalog(fcinfo, CAT_KERNELS);
	JsonbValue	xv;
	JsonbValue *x_value = NULL;
	JsonbContainer *config = NULL;
	char	   *label;

	if (!PG_ARGISNULL(2))
	{
		Jsonb	   *jb = PG_GETARG_JSONB_P(2);

		x_value = &xv;
		if (!JsonbExtractScalar(&jb->root, &xv))
		{
			xv.type = jbvBinary;
			xv.val.binary.data = &jb->root;
			xv.val.binary.len = VARSIZE(jb) - VARHDRSZ;
		}
	}
	if (!PG_ARGISNULL(3))
	{
		Jsonb	   *jb = PG_GETARG_JSONB_P(3);

		check_config_object(jb, NULL);
		config = &jb->root;
	}
	label = workload_label(c, arg_cstring(fcinfo, 0), arg_cstring(fcinfo, 1), x_value, config);
	if (label == NULL)
		PG_RETURN_NULL();
	PG_RETURN_TEXT_P(cstring_to_text(label));
}

/* kernelindex.liger_slug(s text) -> text */
Datum
kidx_liger_slug(PG_FUNCTION_ARGS)
{
	PG_RETURN_TEXT_P(cstring_to_text(liger_slug(text_to_cstring(PG_GETARG_TEXT_PP(0)))));
}
