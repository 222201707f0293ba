/*-------------------------------------------------------------------------
 *
 * liger_catalog.c
 *	  The resource documents and workload labels of Liger-Kernel rows,
 *	  built in C from the catalogs kernelindex.gpus, kernels, providers and
 *	  liger_passes (read by catalog.c, which also builds what every harness
 *	  builds from them: the environment of a GPU, slugs, titles).
 *
 * Four documents describe what a Liger row measured: the protocol (how:
 * the metric and the pass, from liger_passes), the environment (where:
 * the GPU, from gpus), the implementation (what: the kernel's provider,
 * from kernels and providers) and the workload (on what: the kernel, the x
 * input and the configuration, named by the workload label, whose rule is
 * the kernel's label template).  They are the documents kernelindex 0.1.0
 * built in SQL, exactly: the same jsonb, key for key and byte for byte,
 * NULL arguments included (test/sql/liger_catalog_oracle.sql keeps those
 * SQL definitions, test/sql/liger_catalog.sh compares with them).  Where
 * the SQL's answer depended on the database's locale (lower() in slugs, \s and case-insensitive matching in
 * the vendor, title and x value rules), PostgreSQL's own functions are
 * called with the database's default collation, as the SQL bodies were;
 * every rule that does not is in src/core/liger_label.c (slugs and name
 * cuts: src/core/slug.c).
 *
 * Two kinds of caller use the builders.  The C functions behind the SQL
 * functions kernelindex.liger_protocol, liger_environment,
 * liger_implementation, liger_workload and liger_workload_label read, at
 * each call site, the catalog tables they need once (catalog_call_site)
 * and keep them while the active snapshot sees the same rows (a PL/pgSQL
 * loop that inserts into a catalog sees its rows, as it did when those
 * functions were written in SQL); liger_slug reads no catalog.  The COPY
 * paths of kernelindex.liger_rows (src/liger_ingest.c) and run_rows
 * (src/run_rows.c) read the four tables once a statement
 * (kidx_catalog_read).
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
#include "catalog.h"
#include "core/liger_label.h"
#include "core/slug.h"
#include "extension.h"
#include "liger.h"
#include "jsonb_build.h"
#include "row_checks.h"
#include "liger_catalog.h"
#include "run_layout.h"

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
		kind = kidx_sql_regex_match(x, "^\\s*-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?\\s*$",
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
liger_protocol_document(const KidxCatalog *c, const char *metric, const char *pass)
{
	bool		memory = metric != NULL && strcmp(metric, "memory") == 0;
	const CatPass *p = catalog_pass(c, pass);
	const char *timed = NULL;
	JsonbParseState *st = NULL;

	if (p != NULL)
		timed = p->timed;
	else if (pass != NULL)
		timed = psprintf("the pass the upstream harness calls \"%s\"", pass);

	jb_resource(&st, "BenchmarkProtocol");
	jb_string(&st, "name", pass == NULL ? NULL :
			  psprintf("%s%s", memory ? "liger-bench-peak-memory-" : "liger-bench-do-bench-",
					   kidx_slug(pass)));
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

/* ExecutionEnvironment of a GPU name (see liger_catalog.h). */
Jsonb *
liger_environment_document(const KidxCatalog *c, const char *gpu)
{
	return catalog_environment_document(c, gpu, "liger-bench-", "Liger benchmark host", NULL);
}

/* Implementation of a kernel's provider (see liger_catalog.h). */
Jsonb *
liger_implementation_document(const KidxCatalog *c, const char *kernel, const char *provider)
{
	const char *kernel_title = catalog_kernel_title(c, kernel);
	const CatProvider *p = catalog_provider(c, provider);
	const char *provider_title = p ? p->title : provider;
	JsonbParseState *st = NULL;

	jb_resource(&st, "Implementation");
	jb_string(&st, "name", kernel == NULL || provider == NULL ? NULL :
			  kidx_resource_name(psprintf("liger-impl-%s-%s", kidx_slug(kernel), kidx_slug(provider))));
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
workload_label(const KidxCatalog *c, const char *kernel, const char *x_name,
			   JsonbValue *x_value, JsonbContainer *config)
{
	const CatKernel *k = catalog_kernel(c, kernel);

	if (k != NULL && k->label_template != NULL)
		return template_label(k, x_name, x_value, config);
	return generic_label(x_name, x_value, config);
}

/* Workload of a row (see liger_catalog.h). */
Jsonb *
liger_workload_document(const KidxCatalog *c, const char *kernel, const char *x_name,
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
	kernel_title = catalog_kernel_title(c, kernel);

	jb_resource(&st, "Workload");
	jb_string(&st, "name", kernel == NULL || lbl == NULL ? NULL :
			  kidx_resource_name(psprintf("liger-workload-%s-%s", kidx_slug(kernel), kidx_slug(lbl))));
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
	const KidxCatalog *c = catalog_call_site(fcinfo, CAT_PASSES);

	PG_RETURN_JSONB_P(liger_protocol_document(c, arg_cstring(fcinfo, 0),
											  arg_cstring(fcinfo, 1)));
}

/* kernelindex.liger_environment(gpu text) -> jsonb */
Datum
kidx_liger_environment(PG_FUNCTION_ARGS)
{
	const KidxCatalog *c = catalog_call_site(fcinfo, CAT_GPUS);

	PG_RETURN_JSONB_P(liger_environment_document(c, arg_cstring(fcinfo, 0)));
}

/* kernelindex.liger_implementation(kernel text, provider text) -> jsonb */
Datum
kidx_liger_implementation(PG_FUNCTION_ARGS)
{
	const KidxCatalog *c = catalog_call_site(fcinfo, CAT_KERNELS | CAT_PROVIDERS);

	PG_RETURN_JSONB_P(liger_implementation_document(c, arg_cstring(fcinfo, 0),
													arg_cstring(fcinfo, 1)));
}

/* kernelindex.liger_workload(kernel, x_name, x_label, x_value, config text) -> jsonb */
Datum
kidx_liger_workload(PG_FUNCTION_ARGS)
{
	const KidxCatalog *c = catalog_call_site(fcinfo, CAT_KERNELS);
	char	   *label;

	PG_RETURN_JSONB_P(liger_workload_document(c, arg_cstring(fcinfo, 0), arg_cstring(fcinfo, 1),
											  arg_cstring(fcinfo, 2), arg_cstring(fcinfo, 3),
											  arg_cstring(fcinfo, 4), &label));
}

/* kernelindex.liger_workload_label(kernel text, x_name text, x_value jsonb, config jsonb) -> text */
Datum
kidx_liger_workload_label(PG_FUNCTION_ARGS)
{
	const KidxCatalog *c = catalog_call_site(fcinfo, CAT_KERNELS);
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

/* kernelindex.kidx_slug(s text) -> text */
Datum
kidx_liger_slug(PG_FUNCTION_ARGS)
{
	PG_RETURN_TEXT_P(cstring_to_text(kidx_slug(text_to_cstring(PG_GETARG_TEXT_PP(0)))));
}
