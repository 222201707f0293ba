/*-------------------------------------------------------------------------
 *
 * run_build.c
 *	  The way out: a run's document and its identity digest, from its
 *	  parts (see run_layout.h).
 *
 * A template is laid out once (RunPlan): a tree of the template's members
 * with slots where a run's own values, references and dictionary strings
 * go, as the description of the document (run_layout.c) says.  Rebuilding
 * pushes the tree into a jsonb.  Digesting writes, once per template and
 * pattern of optional members present, the canonical text of {apiVersion,
 * kind, spec} with holes for the slots, and streams text and slot values
 * into SHA-256 for each run.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "compat.h"

#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/fmgrprotos.h"
#include "utils/jsonb.h"
#include "utils/memutils.h"
#include "utils/numeric.h"

#include "canonical.h"
#include "core/jcs.h"
#include "core/runfmt.h"
#include "messages.h"
#include "run_layout_int.h"

/* What a slot holds. */
typedef enum SlotKind
{
	SK_OBSERVED_AT,
	SK_VALUE,					/* index: RunValue */
	SK_NATIVE,					/* index: 0..RUN_NNATIVE-1 */
	SK_TEXT,					/* index: RunText */
	SK_LABELS,
	SK_REF						/* index: RunRef */
} SlotKind;

typedef enum NodeKind
{
	LN_VALUE,					/* a template value, scalar or container */
	LN_OBJECT,
	LN_ARRAY,
	LN_SLOT						/* a run's own */
} NodeKind;

typedef struct LayoutNode LayoutNode;

/* A member of a laid-out object. */
typedef struct LayoutMember
{
	JsonbValue	key;			/* jbvString, server-encoded */
	const char *ukey;			/* the key in UTF-8, for canonical order */
	int			ukeylen;
	LayoutNode *node;
} LayoutMember;

struct LayoutNode
{
	NodeKind	kind;
	SlotKind	slot;			/* LN_SLOT */
	int			index;			/* LN_SLOT */
	bool		optional;		/* LN_SLOT: a run may leave it out */
	int			optional_bit;	/* LN_SLOT in the identity that may be
								 * absent: its bit in the pattern; -1 */
	JsonbValue	value;			/* LN_VALUE */
	int			n;
	LayoutMember *members;		/* LN_OBJECT, in canonical (UTF-16) order */
	LayoutNode **elems;			/* LN_ARRAY */
};

/*
 * The optional members of the identity (spec): the native metrics, the
 * source and the benchmark.  A pattern is the mask of those a run has.
 */
#define BIT_NATIVE(i)	(i)
#define BIT_SOURCE		RUN_NNATIVE
#define BIT_BENCHMARK	(RUN_NNATIVE + 1)
#define NPATTERNS		(1 << (RUN_NNATIVE + 2))

/*
 * The canonical text of a template's {apiVersion, kind, spec} with holes,
 * for one pattern: a run's digest is SHA-256 of text[0..hole_at[0])
 * value(hole[0]) text[hole_at[0]..hole_at[1]) ... text[hole_at[n-1]..len).
 */
typedef struct DigestPlan
{
	char	   *text;
	int			len;
	int			nholes;
	int		   *hole_at;
	LayoutNode **hole;
} DigestPlan;

struct RunPlan
{
	MemoryContext cxt;			/* where the plan and its parts live */
	LayoutNode *root;
	DigestPlan *digest[NPATTERNS];
	char	   *native_key[RUN_NNATIVE];	/* <unit>_20, ... */
};

/* A template that cannot be laid out: one run_split() did not make. */
static void
bad_template(const char *what)
{
	ereport(ERROR,
			(errcode(ERRCODE_DATA_CORRUPTED),
			 errmsg("run template %s", what),
			 errhint("Templates are made by kernelindex's ingestion; a changed kernelindex.run_templates row cannot be used.")));
}

/* Refuse a run that lacks what its template leaves to it. */
static void
missing_value(const char *what)
{
	ereport(ERROR,
			(errcode(ERRCODE_DATA_CORRUPTED),
			 errmsg("a stored run has no %s, which its template leaves to it", what),
			 errhint("Runs are written by kernelindex's ingestion; a changed kernelindex.runs row cannot be exported.")));
}

/* ----------------------------------------------------------------
 *		Laying out a template
 * ----------------------------------------------------------------
 */

/* A node for a template value. */
static LayoutNode *
node_value(JsonbValue *v)
{
	LayoutNode *n = palloc0(sizeof(LayoutNode));

	n->kind = LN_VALUE;
	n->value = *v;
	n->optional_bit = -1;
	return n;
}

/* A node for a slot. */
static LayoutNode *
node_slot(SlotKind slot, int index, int optional_bit)
{
	LayoutNode *n = palloc0(sizeof(LayoutNode));

	n->kind = LN_SLOT;
	n->slot = slot;
	n->index = index;
	n->optional_bit = optional_bit;
	n->optional = optional_bit >= 0 || slot == SK_LABELS ||
		(slot == SK_TEXT && index == RT_TITLE);
	return n;
}

/* Order laid-out members as RFC 8785 does: by UTF-16 code units of keys. */
static int
member_cmp(const void *a, const void *b)
{
	const LayoutMember *ma = (const LayoutMember *) a;
	const LayoutMember *mb = (const LayoutMember *) b;

	return jcs_compare_keys(ma->ukey, ma->ukeylen, mb->ukey, mb->ukeylen);
}

/* Objects being laid out: members collected, then sorted. */
typedef struct MemberList
{
	LayoutMember *m;
	int			n;
	int			cap;
} MemberList;

/* Add a member to a list being laid out. */
static void
add_member(MemberList *l, const char *key, int keylen, LayoutNode *node)
{
	LayoutMember *m;

	if (l->n == l->cap)
	{
		l->cap = l->cap ? l->cap * 2 : 8;
		l->m = l->m ? repalloc(l->m, sizeof(LayoutMember) * l->cap) :
			palloc(sizeof(LayoutMember) * l->cap);
	}
	m = &l->m[l->n++];
	m->key.type = jbvString;
	m->key.val.string.val = (char *) key;
	m->key.val.string.len = keylen;
	if (GetDatabaseEncoding() == PG_UTF8)
	{
		m->ukey = key;
		m->ukeylen = keylen;
	}
	else
	{
		m->ukey = pg_server_to_any(key, keylen, PG_UTF8);
		m->ukeylen = m->ukey == key ? keylen : strlen(m->ukey);
	}
	m->node = node;
}

/* Finish an object node from its member list. */
static LayoutNode *
node_object(MemberList *l)
{
	LayoutNode *n = palloc0(sizeof(LayoutNode));

	n->kind = LN_OBJECT;
	n->n = l->n;
	n->members = l->m;
	n->optional_bit = -1;
	if (l->n > 1)
		qsort(n->members, n->n, sizeof(LayoutMember), member_cmp);
	return n;
}

/* Is there a member named key in the list? */
static bool
has_member(MemberList *l, const char *key)
{
	int			i;

	for (i = 0; i < l->n; i++)
		if (l->m[i].key.val.string.len == (int) strlen(key) &&
			memcmp(l->m[i].key.val.string.val, key, l->m[i].key.val.string.len) == 0)
			return true;
	return false;
}

/* Lay out the measurements array. */
static LayoutNode *
layout_measurements(JsonbContainer *c)
{
	LayoutNode *n = palloc0(sizeof(LayoutNode));
	JsonbIterator *it = JsonbIteratorInit(c);
	JsonbIteratorToken tok;
	JsonbValue	elem;
	int			cap = JsonContainerSize(c);

	n->kind = LN_ARRAY;
	n->optional_bit = -1;
	n->elems = palloc(sizeof(LayoutNode *) * Max(cap, 1));
	while ((tok = JsonbIteratorNext(&it, &elem, true)) != WJB_DONE)
	{
		MemberList	l = {0};
		JsonbIterator *mit;
		JsonbValue	x;

		if (tok != WJB_ELEM)
			continue;
		if (elem.type != jbvBinary || !JsonContainerIsObject(elem.val.binary.data))
		{
			n->elems[n->n++] = node_value(&elem);
			continue;
		}
		mit = JsonbIteratorInit(elem.val.binary.data);
		while ((tok = JsonbIteratorNext(&mit, &x, true)) != WJB_DONE)
		{
			JsonbValue	key;

			if (tok != WJB_KEY)
				continue;
			key = x;
			JsonbIteratorNext(&mit, &x, true);
			add_member(&l, key.val.string.val, key.val.string.len, node_value(&x));
		}
		if (!has_member(&l, "value"))
		{
			JsonbContainer *ec = elem.val.binary.data;
			int			slot = measurement_slot_of(getKeyJsonValueFromContainer(ec, "metric", 6, NULL),
												   getKeyJsonValueFromContainer(ec, "statistic", 9, NULL),
												   getKeyJsonValueFromContainer(ec, "unit", 4, NULL));

			if (slot < 0)
				bad_template("has a measurement without a value that no run column holds");
			add_member(&l, "value", 5, node_slot(SK_VALUE, measurement_slots[slot].value, -1));
		}
		n->elems[n->n++] = node_object(&l);
	}
	return n;
}

/* Lay out the native metrics: the template's, and the ones a run holds. */
static LayoutNode *
layout_metrics(RunTemplate *t, RunPlan *p, JsonbContainer *c)
{
	MemberList	l = {0};
	JsonbIterator *it = JsonbIteratorInit(c);
	JsonbIteratorToken tok;
	JsonbValue	x;
	int			i;

	while ((tok = JsonbIteratorNext(&it, &x, true)) != WJB_DONE)
	{
		JsonbValue	key;

		if (tok != WJB_KEY)
			continue;
		key = x;
		JsonbIteratorNext(&it, &x, true);
		add_member(&l, key.val.string.val, key.val.string.len, node_value(&x));
	}
	for (i = 0; t->native_unit != NULL && i < RUN_NNATIVE; i++)
	{
		p->native_key[i] = psprintf("%s%s", t->native_unit, native_suffix[i]);
		if (has_member(&l, p->native_key[i]))
			bad_template("holds a native metric its runs hold");
		add_member(&l, p->native_key[i], strlen(p->native_key[i]),
				   node_slot(SK_NATIVE, i, BIT_NATIVE(i)));
	}
	return node_object(&l);
}

/* The slot a member held by runs has. */
static LayoutNode *
member_slot(const RunMember *f)
{
	switch (f->hold)
	{
		case MH_TEXT:
			return node_slot(SK_TEXT, f->index,
							 f->index == RT_SOURCE ? BIT_SOURCE :
							 f->index == RT_BENCHMARK ? BIT_BENCHMARK : -1);
		case MH_LABELS:
			return node_slot(SK_LABELS, 0, -1);
		case MH_REF:
			return node_slot(SK_REF, f->index, -1);
		case MH_OBSERVED_AT:
			return node_slot(SK_OBSERVED_AT, 0, -1);
		case MH_VALUE:
			return node_slot(SK_VALUE, f->index, -1);
		case MH_TEMPLATE:
		case MH_PRIMARY:
			break;
	}
	return NULL;
}

/* Lay out an object with known members, adding the members runs hold. */
static LayoutNode *
layout_object(RunTemplate *t, RunPlan *p, JsonbContainer *c, const RunMember *fields)
{
	MemberList	l = {0};
	JsonbIterator *it = JsonbIteratorInit(c);
	JsonbIteratorToken tok;
	JsonbValue	x;
	bool		has_metrics = false;
	int			i;

	check_stack_depth();
	while ((tok = JsonbIteratorNext(&it, &x, true)) != WJB_DONE)
	{
		JsonbValue	key;
		JsonbValue	val;
		const RunMember *f;
		LayoutNode *child;
		bool		object;

		if (tok != WJB_KEY)
			continue;
		key = x;
		JsonbIteratorNext(&it, &val, true);
		f = run_member_find(fields, key.val.string.val, key.val.string.len);
		object = val.type == jbvBinary && JsonContainerIsObject(val.val.binary.data);
		if (f != NULL && f->type == MT_OBJECT && object)
			child = layout_object(t, p, val.val.binary.data, f->members);
		else if (f != NULL && f->type == MT_NUMBERS && object)
		{
			child = layout_metrics(t, p, val.val.binary.data);
			has_metrics = true;
		}
		else if (f != NULL && f->type == MT_MEASUREMENTS && val.type == jbvBinary &&
				 JsonContainerIsArray(val.val.binary.data))
			child = layout_measurements(val.val.binary.data);
		else
		{
			if (f != NULL && f->hold != MH_TEMPLATE && f->hold != MH_PRIMARY &&
				f->hold != MH_OBSERVED_AT && f->hold != MH_VALUE)
				bad_template(psprintf("holds \"%s\", which runs hold", f->key));
			child = node_value(&val);
		}
		add_member(&l, key.val.string.val, key.val.string.len, child);
	}

	/* The members runs hold, where the template leaves them to the run. */
	for (i = 0; fields[i].key != NULL; i++)
	{
		const RunMember *f = &fields[i];

		if (f->hold == MH_TEMPLATE || f->hold == MH_PRIMARY || has_member(&l, f->key))
			continue;
		if (f->hold == MH_TEXT && f->index == RT_EXTERNAL_ID &&
			t->external_id_form == RIF_ABSENT)
			continue;
		add_member(&l, f->key, strlen(f->key), member_slot(f));
	}
	if (t->native_unit != NULL && !has_metrics &&
		run_member_find(fields, "metrics", 7) != NULL)
		bad_template("has native units but no spec.sourceNative.metrics");
	return node_object(&l);
}

/* Lay a template out; see run_layout.h. */
void
run_template_prepare(RunTemplate *t)
{
	RunPlan    *p;

	if (t->plan != NULL)
		return;
	if (!JB_ROOT_IS_OBJECT(t->doc))
		bad_template("is not an object");
	p = palloc0(sizeof(RunPlan));
	p->cxt = CurrentMemoryContext;
	p->root = layout_object(t, p, &t->doc->root, run_members);
	t->plan = p;
}

/* ----------------------------------------------------------------
 *		A run's slot values
 * ----------------------------------------------------------------
 */

/* The observedAt text of a run. */
static int
observed_at_text(const RunValues *rv, char *buf)
{
	int			len = (int) observed_at_format(rv->observed_at, buf);

	if (len == 0)
		run_observed_at_out_of_range(rv->observed_at);
	return len;
}

/* The run's name; see run_layout.h. */
char *
run_name(const RunParts *parts)
{
	const RunTemplate *t = parts->template;
	char	   *ext;
	char	   *s;
	size_t		plen;
	char	   *out;

	switch (t->name_form)
	{
		case RNF_LITERAL:
			if (parts->text[RT_NAME] == NULL)
				missing_value("name");
			return pstrdup(parts->text[RT_NAME]);
		case RNF_STEM:
			if (parts->text[RT_NAME] == NULL)
				missing_value("name stem");
			return run_derived_string(parts->text[RT_NAME], t->name_cut,
									  parts->values.observed_at);
		case RNF_FROM_EXTERNAL_ID:
			ext = run_external_id(parts);
			if (ext == NULL)
				missing_value("externalId");
			s = run_id_slug(ext);
			plen = strlen(t->name_prefix);
			out = palloc(plen + strlen(s) + 1);
			runfmt_derive(t->name_prefix, plen, s, strlen(s), t->name_cut,
						  run_server_mblen, out);
			return out;
	}
	return NULL;
}

/*
 * The stem of a run's externalId (RIF_STEM, RIF_LABELLED): what comes
 * before the observedAt slug.
 */
static const char *
external_id_stem(const RunParts *parts)
{
	const char *text = parts->text[RT_EXTERNAL_ID];

	if (text == NULL)
		missing_value("externalId stem");
	if (parts->template->external_id_form == RIF_STEM)
		return text;
	if (parts->text[RT_BENCHMARK] == NULL)
		missing_value("benchmark");
	if (parts->workload_label == NULL)
		missing_value("workload label");
	return psprintf("%s/%s/%s/", parts->text[RT_BENCHMARK], text, parts->workload_label);
}

/* The run's externalId; see run_layout.h. */
char *
run_external_id(const RunParts *parts)
{
	const char *text = parts->text[RT_EXTERNAL_ID];

	switch (parts->template->external_id_form)
	{
		case RIF_ABSENT:
			return NULL;
		case RIF_LITERAL:
			if (text == NULL)
				missing_value("externalId");
			return pstrdup(text);
		case RIF_STEM:
		case RIF_LABELLED:
			return run_derived_string(external_id_stem(parts), -1,
									  parts->values.observed_at);
	}
	return NULL;
}

/* Is an optional slot filled for this run? */
static bool
slot_present(const RunParts *parts, const LayoutNode *n)
{
	if (!n->optional)
		return true;
	switch (n->slot)
	{
		case SK_NATIVE:
			return parts->values.native[n->index] != NULL ||
				parts->values.native_text[n->index] != NULL;
		case SK_TEXT:
			return parts->text[n->index] != NULL;
		case SK_LABELS:
			return parts->labels != NULL;
		default:
			return true;
	}
}

/* The pattern of optional identity slots a run fills. */
static uint32
run_pattern(const RunParts *parts)
{
	uint32		mask = 0;
	int			i;

	for (i = 0; i < RUN_NNATIVE; i++)
		if (parts->values.native[i] != NULL || parts->values.native_text[i] != NULL)
			mask |= 1u << BIT_NATIVE(i);
	if (parts->text[RT_SOURCE] != NULL)
		mask |= 1u << BIT_SOURCE;
	if (parts->text[RT_BENCHMARK] != NULL)
		mask |= 1u << BIT_BENCHMARK;
	return mask;
}

/* A native value as a numeric. */
static Numeric
native_numeric(const RunValues *rv, int i)
{
	if (rv->native[i] != NULL)
		return rv->native[i];
	return run_numeric_in(rv->native_text[i]);
}

/* The value of a slot as a jsonb value (its presence checked). */
static void
slot_value(const RunParts *parts, const LayoutNode *n, JsonbValue *v)
{
	const RunValues *rv = &parts->values;
	char	   *str;

	switch (n->slot)
	{
		case SK_OBSERVED_AT:
			str = palloc(RUNFMT_OBSERVED_AT_MAXLEN + 1);
			v->type = jbvString;
			v->val.string.len = observed_at_text(rv, str);
			v->val.string.val = str;
			return;
		case SK_VALUE:
			if (!rv->has[n->index])
				missing_value("measured value");
			v->type = jbvNumeric;
			v->val.numeric = int64_to_numeric(rv->v[n->index]);
			return;
		case SK_NATIVE:
			v->type = jbvNumeric;
			v->val.numeric = native_numeric(rv, n->index);
			return;
		case SK_TEXT:
			str = n->index == RT_NAME ? run_name(parts) :
				n->index == RT_EXTERNAL_ID ? run_external_id(parts) :
				(char *) parts->text[n->index];
			if (str == NULL)
				missing_value("string");
			v->type = jbvString;
			v->val.string.val = str;
			v->val.string.len = strlen(str);
			return;
		case SK_LABELS:
			v->type = jbvBinary;
			v->val.binary.data = &parts->labels->root;
			v->val.binary.len = VARSIZE(parts->labels) - VARHDRSZ;
			return;
		case SK_REF:
			str = palloc(KIDX_DIGEST_TEXT_LEN + 1);
			kidx_digest_to_cstring(&parts->ref[n->index], str);
			v->type = jbvString;
			v->val.string.val = str;
			v->val.string.len = KIDX_DIGEST_TEXT_LEN;
			return;
	}
}

/* ----------------------------------------------------------------
 *		Rebuilding
 * ----------------------------------------------------------------
 */

/* Push a laid-out node, with the run's values in its slots. */
static JsonbValue *
rebuild_node(JsonbParseState **ps, JsonbIteratorToken seq, LayoutNode *n,
			 const RunParts *parts)
{
	JsonbValue *res = NULL;
	JsonbValue	v;
	int			i;

	check_stack_depth();
	switch (n->kind)
	{
		case LN_VALUE:
			res = pushJsonbValue(ps, seq, &n->value);
			break;
		case LN_SLOT:
			slot_value(parts, n, &v);
			res = pushJsonbValue(ps, seq, &v);
			break;
		case LN_ARRAY:
			pushJsonbValue(ps, WJB_BEGIN_ARRAY, NULL);
			for (i = 0; i < n->n; i++)
				rebuild_node(ps, WJB_ELEM, n->elems[i], parts);
			res = pushJsonbValue(ps, WJB_END_ARRAY, NULL);
			break;
		case LN_OBJECT:
			pushJsonbValue(ps, WJB_BEGIN_OBJECT, NULL);
			for (i = 0; i < n->n; i++)
			{
				LayoutMember *m = &n->members[i];

				if (m->node->kind == LN_SLOT && !slot_present(parts, m->node))
					continue;
				pushJsonbValue(ps, WJB_KEY, &m->key);
				rebuild_node(ps, WJB_VALUE, m->node, parts);
			}
			res = pushJsonbValue(ps, WJB_END_OBJECT, NULL);
			break;
	}
	return res;
}

/* The run document of a run's parts; see run_layout.h. */
Jsonb *
run_rebuild(const RunParts *parts)
{
	JsonbParseState *ps = NULL;

	return JsonbValueToJsonb(rebuild_node(&ps, WJB_VALUE, parts->template->plan->root, parts));
}

/* ----------------------------------------------------------------
 *		Digesting
 * ----------------------------------------------------------------
 */

/* Build the digest plan of a node, for a pattern of optional slots. */
static void
plan_write(CanonSink *sink, LayoutNode *n, uint32 mask, DigestPlan *plan,
		   int *cap, bool identity_only)
{
	int			i;
	bool		first = true;

	check_stack_depth();
	switch (n->kind)
	{
		case LN_VALUE:
			canon_write_value(sink, &n->value);
			break;
		case LN_SLOT:
			if (plan->nholes == *cap)
			{
				*cap *= 2;
				plan->hole_at = repalloc(plan->hole_at, sizeof(int) * *cap);
				plan->hole = repalloc(plan->hole, sizeof(LayoutNode *) * *cap);
			}
			plan->hole_at[plan->nholes] = canon_sink_output(sink)->len;
			plan->hole[plan->nholes++] = n;
			break;
		case LN_ARRAY:
			canon_sink_write(sink, "[", 1);
			for (i = 0; i < n->n; i++)
			{
				if (i > 0)
					canon_sink_write(sink, ",", 1);
				plan_write(sink, n->elems[i], mask, plan, cap, false);
			}
			canon_sink_write(sink, "]", 1);
			break;
		case LN_OBJECT:
			canon_sink_write(sink, "{", 1);
			for (i = 0; i < n->n; i++)
			{
				LayoutMember *m = &n->members[i];

				if (identity_only &&
					!(m->ukeylen == 10 && memcmp(m->ukey, "apiVersion", 10) == 0) &&
					!(m->ukeylen == 4 && memcmp(m->ukey, "kind", 4) == 0) &&
					!(m->ukeylen == 4 && memcmp(m->ukey, "spec", 4) == 0))
					continue;
				if (m->node->kind == LN_SLOT && m->node->optional_bit >= 0 &&
					!(mask & (1u << m->node->optional_bit)))
					continue;
				if (!first)
					canon_sink_write(sink, ",", 1);
				first = false;
				canon_write_string(sink, m->key.val.string.val, m->key.val.string.len);
				canon_sink_write(sink, ":", 1);
				plan_write(sink, m->node, mask, plan, cap, false);
			}
			canon_sink_write(sink, "}", 1);
			break;
	}
}

/* The digest plan of a template for a pattern of optional slots. */
static DigestPlan *
digest_plan(RunPlan *p, uint32 mask)
{
	MemoryContext old;
	DigestPlan *plan;
	CanonSink  *sink;
	StringInfo	text;
	int			cap = 16;

	if (p->digest[mask] != NULL)
		return p->digest[mask];
	old = MemoryContextSwitchTo(p->cxt);
	plan = palloc0(sizeof(DigestPlan));
	plan->hole_at = palloc(sizeof(int) * cap);
	plan->hole = palloc(sizeof(LayoutNode *) * cap);
	sink = canon_sink_text();
	plan_write(sink, p->root, mask, plan, &cap, true);
	text = canon_sink_output(sink);
	plan->text = text->data;
	plan->len = text->len;
	p->digest[mask] = plan;
	MemoryContextSwitchTo(old);
	return plan;
}

/* Write the canonical text of a native value. */
static void
write_native(CanonSink *sink, const RunValues *rv, int i)
{
	const char *dec = rv->native_text[i];
	char		out[JCS_NUMBER_BUFLEN];
	size_t		outlen;
	jcs_num_status status;

	if (rv->native_canon[i] != NULL)
	{
		canon_sink_write(sink, rv->native_canon[i], strlen(rv->native_canon[i]));
		return;
	}
	if (dec == NULL)
		dec = DatumGetCString(DirectFunctionCall1(numeric_out,
												  NumericGetDatum(rv->native[i])));
	status = jcs_number_from_decimal(dec, strlen(dec), out, &outlen);
	if (status != JCS_NUM_OK)
		kidx_refuse_number(psprintf("the source-native value %s", canon_shown_number(dec)),
						   dec, status == JCS_NUM_OUT_OF_RANGE);
	canon_sink_write(sink, out, outlen);
}

/* Write a run's externalId as a canonical string. */
static void
write_external_id(CanonSink *sink, const RunParts *parts)
{
	const char *text = parts->text[RT_EXTERNAL_ID];
	char		slug[RUNFMT_SLUG_BUFLEN + 1];
	size_t		sluglen;
	CanonSink  *stem;
	StringInfo	out;

	if (text == NULL)
		missing_value("externalId");
	if (parts->template->external_id_form == RIF_LITERAL)
	{
		canon_write_string(sink, text, strlen(text));
		return;
	}

	/* the stem's canonical text without its closing quote, then the slug */
	text = external_id_stem(parts);
	stem = canon_sink_text();
	canon_write_string(stem, text, strlen(text));
	out = canon_sink_output(stem);
	sluglen = run_slug_format(parts->values.observed_at, slug);
	if (sluglen == 0)
		run_observed_at_out_of_range(parts->values.observed_at);
	slug[sluglen++] = '"';
	canon_sink_write(sink, out->data, out->len - 1);
	canon_sink_write(sink, slug, sluglen);
}

/* Write the canonical text of one slot of the identity. */
static void
write_slot(CanonSink *sink, const RunParts *parts, const LayoutNode *n)
{
	const RunValues *rv = &parts->values;
	char		buf[KIDX_DIGEST_TEXT_LEN + RUNFMT_OBSERVED_AT_MAXLEN + 3];
	int			len;

	switch (n->slot)
	{
		case SK_OBSERVED_AT:
			buf[0] = '"';
			len = observed_at_text(rv, buf + 1);
			buf[len + 1] = '"';
			canon_sink_write(sink, buf, len + 2);
			return;
		case SK_VALUE:
			{
				char		out[JCS_NUMBER_BUFLEN];
				size_t		outlen;

				if (!rv->has[n->index])
					missing_value("measured value");
				len = pg_lltoa(rv->v[n->index], buf);
				if (rv->v[n->index] <= (INT64CONST(1) << 53))
					canon_sink_write(sink, buf, len);
				else if (jcs_number_from_decimal(buf, len, out, &outlen) == JCS_NUM_OK)
					canon_sink_write(sink, out, outlen);
				else
					kidx_refuse_number(psprintf("the value %s", buf), buf, false);
				return;
			}
		case SK_NATIVE:
			write_native(sink, rv, n->index);
			return;
		case SK_TEXT:
			if (n->index == RT_EXTERNAL_ID)
				write_external_id(sink, parts);
			else if (parts->text[n->index] == NULL)
				missing_value("string");
			else
				canon_write_string(sink, parts->text[n->index], strlen(parts->text[n->index]));
			return;
		case SK_REF:
			buf[0] = '"';
			kidx_digest_to_cstring(&parts->ref[n->index], buf + 1);
			buf[KIDX_DIGEST_TEXT_LEN + 1] = '"';
			canon_sink_write(sink, buf, KIDX_DIGEST_TEXT_LEN + 2);
			return;
		case SK_LABELS:
			break;
	}
	elog(ERROR, "run layout slot %d is not part of the identity", (int) n->slot);
}

/* The run's identity digest; see run_layout.h. */
void
run_digest(const RunParts *parts, KidxDigest *result)
{
	DigestPlan *plan = digest_plan(parts->template->plan, run_pattern(parts));
	CanonSink  *sink = canon_sink_digest();
	int			at = 0;
	int			i;

	for (i = 0; i < plan->nholes; i++)
	{
		canon_sink_write(sink, plan->text + at, plan->hole_at[i] - at);
		write_slot(sink, parts, plan->hole[i]);
		at = plan->hole_at[i];
	}
	canon_sink_write(sink, plan->text + at, plan->len - at);
	canon_sink_finish(sink, result);
}

/* The run's external key; see run_layout.h. */
bool
run_external_key(const RunParts *parts, pg_uuid_t *result)
{
	CanonSink  *sink;
	KidxDigest	digest;
	const char *source = parts->text[RT_SOURCE];

	if (parts->template->external_id_form == RIF_ABSENT)
		return false;

	/* the first 16 bytes of SHA-256 of "[" source "," externalId "]" */
	sink = canon_sink_digest();
	canon_sink_write(sink, "[", 1);
	if (source != NULL)
		canon_write_string(sink, source, strlen(source));
	else
		canon_sink_write(sink, "null", 4);
	canon_sink_write(sink, ",", 1);
	write_external_id(sink, parts);
	canon_sink_write(sink, "]", 1);
	canon_sink_finish(sink, &digest);
	memcpy(result->data, digest.data, UUID_LEN);
	return true;
}
