/*-------------------------------------------------------------------------
 *
 * row_ingest.c
 *	  Rows of a harness's CSV to runs (see row_ingest.h).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "lib/stringinfo.h"
#include "utils/memutils.h"

#include "canonical.h"
#include "intern.h"
#include "row_ingest.h"

/* Shapes of run documents a batch's templates are kept by. */
struct RowTemplates
{
	MemoryContext cxt;
	InternTable *shapes;
	RunTemplate **templates;	/* by shape number */
	int			cap;
};

/* New, empty; see row_ingest.h. */
RowTemplates *
row_templates_create(MemoryContext cxt)
{
	RowTemplates *rt = MemoryContextAllocZero(cxt, sizeof(RowTemplates));

	rt->cxt = cxt;
	rt->shapes = intern_create(cxt);
	return rt;
}

/*
 * The shape of a run's document: what the members its document has depend
 * on (which statistics, which native metrics, which optional strings), not
 * their values.
 */
static void
shape_key(StringInfo key, const RowGroup *g, const RunValues *values)
{
	int			i;

	appendStringInfo(key, "%d|%s|%s|%d%d%d%d|", g->memory,
					 g->primary_statistic ? g->primary_statistic : "",
					 g->native_unit ? g->native_unit : "",
					 g->parts.text[RT_TITLE] != NULL, g->parts.text[RT_SOURCE] != NULL,
					 g->parts.text[RT_BENCHMARK] != NULL, g->external_id_stem != NULL);
	for (i = 0; i < RV_N; i++)
		appendStringInfoChar(key, values->has[i] ? '1' : '0');
	for (i = 0; i < RUN_NNATIVE; i++)
		appendStringInfoChar(key, values->native_text[i] != NULL ? '1' : '0');
}

/*
 * The template of a group's runs of one shape: the run layout writes the
 * document of the first such run (run_model) and splits it, exactly as a
 * document coming in would be; that run's digest is checked against its
 * document's.  What else its runs hold, the group gives.
 */
static RunTemplate *
shape_template(BatchStatement *st, RowTemplates *rt, RowGroup *g, const RunParts *parts,
			   const char *name, const char *external_id, int64 ord)
{
	StringInfoData key;
	RunModel	m;
	RunParts	split;
	RunDocPos	pos;
	Jsonb	   *run;
	KidxDigest	a,
				b;
	MemoryContext old;
	bool		isnew;
	int			n;
	int			k;

	initStringInfo(&key);
	shape_key(&key, g, &parts->values);
	n = intern_add(rt->shapes, key.data, key.len, &isnew);
	pfree(key.data);
	if (!isnew)
		return rt->templates[n];
	old = MemoryContextSwitchTo(rt->cxt);
	if (n == rt->cap)
	{
		rt->cap = rt->cap ? rt->cap * 2 : 16;
		rt->templates = rt->templates ?
			repalloc(rt->templates, sizeof(RunTemplate *) * rt->cap) :
			palloc(sizeof(RunTemplate *) * rt->cap);
	}
	memset(&m, 0, sizeof(m));
	m.title = parts->text[RT_TITLE];
	m.labels = parts->labels;
	m.status = parts->text[RT_STATUS];
	m.source = parts->text[RT_SOURCE];
	m.benchmark = parts->text[RT_BENCHMARK];
	m.name = name;
	m.external_id = external_id;
	m.observed_at = parts->values.observed_at;
	m.memory = g->memory;
	memcpy(m.has, parts->values.has, sizeof(m.has));
	memcpy(m.v, parts->values.v, sizeof(m.v));
	m.primary_statistic = g->primary_statistic;
	m.native_unit = g->native_unit;
	for (k = 0; k < RUN_NNATIVE; k++)
		m.native_text[k] = parts->values.native_text[k];
	memcpy(m.ref, parts->ref, sizeof(m.ref));

	run = run_model(&m);
	pos.ord = ord;
	pos.path = "$";
	run_split(&run->root, &pos, &split);
	run_forms(&split, g->workload_label);
	batch_template(st->batch, split.template, &split.template);
	split.values = parts->values;
	kidx_jsonb_resource_digest(run, &a);
	run_digest(&split, &b);
	if (memcmp(&a, &b, sizeof(KidxDigest)) != 0)
		elog(ERROR, "the run layout does not reproduce the digest of row " INT64_FORMAT, ord);
	if ((split.labels == NULL) != (parts->labels == NULL) ||
		(split.labels != NULL && (VARSIZE(split.labels) != VARSIZE(parts->labels) ||
								  memcmp(split.labels, parts->labels, VARSIZE(split.labels)) != 0)))
		elog(ERROR, "a row's label set is not the run layout's");
	rt->templates[n] = split.template;
	MemoryContextSwitchTo(old);
	return split.template;
}

/* Two strings equal, NULL being equal only to NULL. */
static bool
same_text(const char *a, const char *b)
{
	return (a == NULL && b == NULL) || (a != NULL && b != NULL && strcmp(a, b) == 0);
}

/* Do a run's shape, rules and strings equal the ones remembered? */
static bool
same_forms(const RowForms *f, const RunTemplate *shape, const RunParts *parts)
{
	const RunTemplate *t = parts->template;

	return f->template != NULL && f->shape == shape &&
		f->template->name_form == t->name_form &&
		f->template->name_cut == t->name_cut &&
		f->template->external_id_form == t->external_id_form &&
		same_text(f->template->name_prefix, t->name_prefix) &&
		same_text(f->text[RT_NAME], parts->text[RT_NAME]) &&
		same_text(f->text[RT_EXTERNAL_ID], parts->text[RT_EXTERNAL_ID]);
}

/* A run of a group, to the batch; see row_ingest.h. */
void
row_add_run(BatchStatement *st, RowTemplates *rt, RowGroup *g, const RunValues *values,
			int64 ord, MemoryContext row_cxt)
{
	MemoryContext old = MemoryContextSwitchTo(row_cxt);
	RowForms   *f;
	RunParts	parts;
	RunTemplate t;
	RunTemplate *shape;
	char	   *name;
	char	   *external_id;
	KidxDigest	digest;

	/* The run: the group's parts and the row's values and strings. */
	parts = g->parts;
	parts.values = *values;
	name = run_derived_string(g->name_stem, g->name_cut, values->observed_at);
	external_id = g->external_id_stem ?
		run_derived_string(g->external_id_stem, -1, values->observed_at) : NULL;
	shape = shape_template(st, rt, g, &parts, name, external_id, ord);
	t = *shape;
	t.plan = NULL;
	parts.template = &t;
	parts.text[RT_NAME] = name;
	parts.text[RT_EXTERNAL_ID] = external_id;
	run_forms(&parts, g->workload_label);

	/* what it refers to: the group's, while its strings come out the same */
	f = &g->forms[values->observed_at % USECS_PER_SEC != 0];
	if (!same_forms(f, shape, &parts))
	{
		MemoryContextSwitchTo(rt->cxt);
		f->shape = shape;
		f->refs.template = batch_template(st->batch, &t, &f->template);
		f->text[RT_NAME] = parts.text[RT_NAME] ? pstrdup(parts.text[RT_NAME]) : NULL;
		f->text[RT_EXTERNAL_ID] = parts.text[RT_EXTERNAL_ID] ?
			pstrdup(parts.text[RT_EXTERNAL_ID]) : NULL;
		batch_refs(st->batch, &parts, f->refs.template, ord, &f->refs);
		MemoryContextSwitchTo(row_cxt);
	}
	parts.template = f->template;
	run_digest(&parts, &digest);
	batch_run(st->batch, &f->refs, &parts, &digest, ord);
	MemoryContextSwitchTo(old);
	MemoryContextReset(row_cxt);
}
