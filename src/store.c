/*-------------------------------------------------------------------------
 *
 * store.c
 *	  Run identity digests without building run documents.
 *
 * kernelindex.run_identity_digest() streams the canonical JSON of a run's
 * {apiVersion, kind, spec} straight into SHA-256, from the series template
 * with the per-run values spliced in where kernelindex.run_rebuild() would
 * put them (jsonb_set with create_missing: an existing member is replaced,
 * a missing last member is added, a missing parent leaves the value out).
 * It is kidx_resource_digest(run_rebuild(...)) for the templates
 * run_split() makes, without a single jsonb being built, so that a bulk
 * load (Liger COPY) can digest a million runs of a few hundred series.
 *
 * kernelindex.liger_name_key() says how run_split() divides a Liger run's
 * metadata.name between the series template and the per-run part, so that
 * rows are grouped exactly as run_split() would put them into series.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/datetime.h"
#include "utils/fmgrprotos.h"
#include "utils/jsonb.h"
#include "utils/numeric.h"
#include "utils/timestamp.h"

#include "canonical.h"
#include "core/jcs.h"
#include "store.h"

/* Most per-run values spliced into one template. */
#define SPLICE_MAX		16
/* Deepest splice path (spec, timing, latencyNs, median). */
#define SPLICE_DEPTH	4
/* Characters a Liger run name is cut to (see kernelindex.liger_rows_ingest). */
#define LIGER_NAME_MAX	100

/* One value to put at a path below spec. */
typedef struct Splice
{
	const char *path[SPLICE_DEPTH];
	int			depth;
	JsonbValue	value;
	const char *canon;			/* the value's canonical text, if known */
	int			canonlen;
	bool		fixed;			/* a RunLayout writes it into its text */
} Splice;

/* One member of an object being written. */
typedef struct SpliceMember
{
	const char *key;			/* server-encoded key */
	int			keylen;
	const char *ukey;			/* the key in UTF-8, for ordering */
	int			ukeylen;
	JsonbValue	value;			/* existing value (unless replaced) */
	Splice	   *replace;		/* the splice that replaces the value */
	int			nsub;			/* splices that go below this member */
	Splice	   *sub[SPLICE_MAX];
} SpliceMember;

/*
 * While a RunLayout is recorded: the places splice values would be written,
 * as offsets into the text written so far and indexes into the splices.
 */
typedef struct LayoutRecorder
{
	Splice	   *base;			/* splices[0] */
	int			nholes;
	int			hole_at[SPLICE_MAX];
	int			hole_splice[SPLICE_MAX];
} LayoutRecorder;

/*
 * A run template in canonical form with holes where the per-run values go:
 * the digest of a run is text[0..hole_at[0]) + value + text[hole_at[0]..
 * hole_at[1]) + value + ... + the rest.  It holds for runs whose values
 * are present in the same pattern (mask) with the same native unit.
 */
struct RunLayout
{
	uint32		mask;
	char	   *native_unit;
	char	   *digest[4];		/* written into the text */
	char	   *text;
	int			len;
	int			nholes;
	int			hole_at[SPLICE_MAX];
	int			hole_splice[SPLICE_MAX];
};

PG_FUNCTION_INFO_V1(kidx_run_identity_digest);
PG_FUNCTION_INFO_V1(kidx_liger_name_key);

static void write_spliced(CanonSink *sink, JsonbValue *v, Splice **splices,
						  int n, int level, LayoutRecorder *rec);

/* A key in UTF-8 (the database encoding's bytes when that is UTF-8). */
static const char *
key_utf8(const char *key, int len, int *ulen)
{
	char	   *u;

	if (GetDatabaseEncoding() == PG_UTF8)
	{
		*ulen = len;
		return key;
	}
	u = (char *) pg_do_encoding_conversion((unsigned char *) pnstrdup(key, len),
										   len, GetDatabaseEncoding(), PG_UTF8);
	*ulen = strlen(u);
	return u;
}

/* Order object members as RFC 8785 does: by UTF-16 code units of keys. */
static int
member_cmp(const void *a, const void *b)
{
	const SpliceMember *ma = *(SpliceMember *const *) a;
	const SpliceMember *mb = *(SpliceMember *const *) b;

	return jcs_compare_keys(ma->ukey, ma->ukeylen, mb->ukey, mb->ukeylen);
}

/* Refuse a template whose shape a splice path cannot go through. */
static void
shape_error(Splice *s, int level)
{
	StringInfoData path;
	int			i;

	initStringInfo(&path);
	for (i = 0; i < s->depth; i++)
		appendStringInfo(&path, "%s%s", i ? "," : "", s->path[i]);
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("run template cannot take a value at spec path {%s}", path.data),
			 errdetail("Its member at level %d is neither an object nor an array.", level + 1),
			 errhint("Such a run is stored whole (runs.residual); digest its document instead.")));
}

/* Write a splice's value, or note where it goes when recording a layout. */
static void
write_splice_value(CanonSink *sink, Splice *s, LayoutRecorder *rec)
{
	if (rec == NULL || s->fixed)
	{
		if (s->canon)
			canon_sink_write(sink, s->canon, s->canonlen);
		else
			canon_write_value(sink, &s->value);
		return;
	}
	rec->hole_at[rec->nholes] = canon_sink_output(sink)->len;
	rec->hole_splice[rec->nholes] = s - rec->base;
	rec->nholes++;
}

/* Write an object with splices applied at this level or below. */
static void
write_object_spliced(CanonSink *sink, JsonbContainer *c, Splice **splices,
					 int n, int level, LayoutRecorder *rec)
{
	int			size = JsonContainerSize(c);
	SpliceMember *members = palloc0(sizeof(SpliceMember) * (size + n));
	SpliceMember **order = palloc(sizeof(SpliceMember *) * (size + n));
	int			count = 0;
	JsonbIterator *it = JsonbIteratorInit(c);
	JsonbIteratorToken tok;
	JsonbValue	v;
	int			i,
				j;

	while ((tok = JsonbIteratorNext(&it, &v, true)) != WJB_DONE)
	{
		if (tok == WJB_KEY)
		{
			members[count].key = v.val.string.val;
			members[count].keylen = v.val.string.len;
		}
		else if (tok == WJB_VALUE)
			members[count++].value = v;
	}

	/* Each splice replaces, goes below, or adds a member. */
	for (j = 0; j < n; j++)
	{
		Splice	   *s = splices[j];
		const char *name = s->path[level];
		int			namelen = strlen(name);
		bool		last = (s->depth == level + 1);

		for (i = 0; i < count; i++)
			if (members[i].keylen == namelen &&
				memcmp(members[i].key, name, namelen) == 0)
				break;
		if (i == count)
		{
			if (!last)
				continue;		/* missing parent: jsonb_set leaves it out */
			members[count].key = name;
			members[count].keylen = namelen;
			count++;
		}
		if (last)
			members[i].replace = s;
		else
			members[i].sub[members[i].nsub++] = s;
	}

	for (i = 0; i < count; i++)
	{
		members[i].ukey = key_utf8(members[i].key, members[i].keylen,
								   &members[i].ukeylen);
		order[i] = &members[i];
	}
	qsort(order, count, sizeof(SpliceMember *), member_cmp);

	canon_sink_write(sink, "{", 1);
	for (i = 0; i < count; i++)
	{
		SpliceMember *m = order[i];

		if (i > 0)
			canon_sink_write(sink, ",", 1);
		canon_write_string(sink, m->key, m->keylen);
		canon_sink_write(sink, ":", 1);
		if (m->replace)
			write_splice_value(sink, m->replace, rec);
		else if (m->nsub > 0)
			write_spliced(sink, &m->value, m->sub, m->nsub, level + 1, rec);
		else
			canon_write_value(sink, &m->value);
	}
	canon_sink_write(sink, "}", 1);
	pfree(order);
	pfree(members);
}

/* Write an array with splices applied to its elements (by index). */
static void
write_array_spliced(CanonSink *sink, JsonbContainer *c, Splice **splices,
					int n, int level, LayoutRecorder *rec)
{
	JsonbIterator *it = JsonbIteratorInit(c);
	JsonbIteratorToken tok;
	JsonbValue	v;
	int			index = 0;
	int			size = JsonContainerSize(c);
	int			j;

	/* jsonb_set would add an element past the end: not a run template. */
	for (j = 0; j < n; j++)
	{
		char	   *end;
		long		want = strtol(splices[j]->path[level], &end, 10);

		if (*end != '\0' || want < 0 || want >= size)
			shape_error(splices[j], level);
	}

	canon_sink_write(sink, "[", 1);
	while ((tok = JsonbIteratorNext(&it, &v, true)) != WJB_DONE)
	{
		Splice	   *sub[SPLICE_MAX];
		Splice	   *replace = NULL;
		int			nsub = 0;

		if (tok != WJB_ELEM)
			continue;
		for (j = 0; j < n; j++)
		{
			if (strtol(splices[j]->path[level], NULL, 10) != index)
				continue;
			if (splices[j]->depth == level + 1)
				replace = splices[j];
			else
				sub[nsub++] = splices[j];
		}
		if (index > 0)
			canon_sink_write(sink, ",", 1);
		if (replace)
			write_splice_value(sink, replace, rec);
		else if (nsub > 0)
			write_spliced(sink, &v, sub, nsub, level + 1, rec);
		else
			canon_write_value(sink, &v);
		index++;
	}
	canon_sink_write(sink, "]", 1);
}

/* Write a value with splices (all going below it) applied. */
static void
write_spliced(CanonSink *sink, JsonbValue *v, Splice **splices, int n,
			  int level, LayoutRecorder *rec)
{
	check_stack_depth();
	if (v->type != jbvBinary)
		shape_error(splices[0], level - 1);
	if (JsonContainerIsObject(v->val.binary.data))
		write_object_spliced(sink, v->val.binary.data, splices, n, level, rec);
	else if (JsonContainerIsArray(v->val.binary.data) &&
			 !JsonContainerIsScalar(v->val.binary.data))
		write_array_spliced(sink, v->val.binary.data, splices, n, level, rec);
	else
		shape_error(splices[0], level - 1);
}

/* Set the path (up to four keys, NULL-terminated) a splice replaces. */
static void
splice_path(Splice *s, const char *p0, const char *p1, const char *p2,
			const char *p3)
{
	s->path[0] = p0;
	s->path[1] = p1;
	s->path[2] = p2;
	s->path[3] = p3;
	s->depth = p3 ? 4 : p2 ? 3 : p1 ? 2 : 1;
	s->canon = NULL;
	s->canonlen = 0;
	s->fixed = false;
}

/* Add a splice of a string value. */
static void
splice_string(Splice *s, const char *p0, const char *p1, const char *p2,
			  const char *p3, char *str)
{
	splice_path(s, p0, p1, p2, p3);
	s->value.type = jbvString;
	s->value.val.string.val = str;
	s->value.val.string.len = strlen(str);
}

/* Add a splice of a numeric value. */
static void
splice_numeric(Splice *s, const char *p0, const char *p1, const char *p2,
			   const char *p3, Numeric num)
{
	splice_path(s, p0, p1, p2, p3);
	s->value.type = jbvNumeric;
	s->value.val.numeric = num;
}

/*
 * Add a splice of an integer: its canonical text is its digits while a
 * double holds it exactly (|v| <= 2^53); beyond that the numeric path
 * decides (and refuses what a double cannot carry).
 */
static void
splice_int64(Splice *s, const char *p0, const char *p1, const char *p2,
			 const char *p3, int64 v, char *buf)
{
	splice_numeric(s, p0, p1, p2, p3, NULL);
	if (v >= -(INT64CONST(1) << 53) && v <= (INT64CONST(1) << 53))
	{
		s->canonlen = pg_lltoa(v, buf);
		s->canon = buf;
	}
	else
		s->value.val.numeric = int64_to_numeric(v);
}

/*
 * Add a splice of a decimal number: written is how the source wrote it,
 * when known.  An unsigned JSON number has the value numeric input gives
 * it, so its canonical text is the decimal's own; anything else takes the
 * numeric path.
 */
static void
splice_decimal(Splice *s, const char *p0, const char *p1, const char *p2,
			   const char *p3, Numeric num, const char *written, char *buf)
{
	size_t		len;

	splice_numeric(s, p0, p1, p2, p3, num);
	if (written == NULL || !isdigit((unsigned char) written[0]) ||
		written[strspn(written, "0123456789.eE+-")] != '\0')
		return;
	if (jcs_number_from_decimal(written, strlen(written), buf, &len) == JCS_NUM_OK)
	{
		s->canon = buf;
		s->canonlen = (int) len;
	}
}

/* The text of a digest argument. */
static char *
digest_text(FunctionCallInfo fcinfo, int arg)
{
	char	   *buf = palloc(KIDX_DIGEST_TEXT_LEN + 1);

	kidx_digest_to_cstring(PG_GETARG_KIDX_DIGEST_P(arg), buf);
	return buf;
}

/* Write n >= 0 as exactly width digits (zero-padded) at p. */
static inline void
put_digits(char *p, int n, int width)
{
	while (width-- > 0)
	{
		p[width] = '0' + n % 10;
		n /= 10;
	}
}

/* observedAt as run_rebuild writes it: YYYY-MM-DDTHH:MM:SS.mmmZ in UTC. */
static char *
observed_at_text(TimestampTz t)
{
	struct pg_tm tm;
	fsec_t		fsec;
	char	   *buf;

	if (TIMESTAMP_NOT_FINITE(t) ||
		timestamp2tm(t, NULL, &tm, &fsec, NULL, NULL) != 0 ||
		tm.tm_year < 1 || tm.tm_year > 9999)
	{
		/* Outside plain years: exactly what to_char() says. */
		text	   *s = DatumGetTextPP(DirectFunctionCall2(timestamp_to_char,
														   TimestampGetDatum(t),
														   CStringGetTextDatum("YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"")));

		return text_to_cstring(s);
	}
	buf = palloc(sizeof("YYYY-MM-DDTHH:MM:SS.mmmZ"));
	memcpy(buf, "0000-00-00T00:00:00.000Z", sizeof("YYYY-MM-DDTHH:MM:SS.mmmZ"));
	put_digits(buf, tm.tm_year, 4);
	put_digits(buf + 5, tm.tm_mon, 2);
	put_digits(buf + 8, tm.tm_mday, 2);
	put_digits(buf + 11, tm.tm_hour, 2);
	put_digits(buf + 14, tm.tm_min, 2);
	put_digits(buf + 17, tm.tm_sec, 2);
	put_digits(buf + 20, (int) (fsec / 1000), 3);
	return buf;
}

/* True if the len bytes at s are all ASCII (and none is NUL). */
static bool
all_ascii(const char *s, int len)
{
	int			i;

	for (i = 0; i < len; i++)
		if (s[i] == '\0' || IS_HIGHBIT_SET(s[i]))
			return false;
	return true;
}

/* The last template detoasted, kept across the calls of one query. */
typedef struct TemplateCache
{
	Size		rawlen;			/* bytes of the datum as passed */
	char	   *raw;			/* a copy of them (compressed or a pointer) */
	Jsonb	   *template;		/* the same, detoasted */
} TemplateCache;

/*
 * The template argument, detoasted once per distinct value: a bulk load
 * passes each series' template, compressed, for every one of its runs.
 */
static Jsonb *
template_arg(FunctionCallInfo fcinfo)
{
	struct varlena *raw = (struct varlena *) DatumGetPointer(PG_GETARG_DATUM(0));
	TemplateCache *cache = (TemplateCache *) fcinfo->flinfo->fn_extra;
	Size		rawlen;

	if (!VARATT_IS_EXTENDED(raw))
		return (Jsonb *) raw;
	rawlen = VARSIZE_ANY(raw);
	if (cache == NULL)
	{
		cache = MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(TemplateCache));
		fcinfo->flinfo->fn_extra = cache;
	}
	if (cache->raw == NULL || cache->rawlen != rawlen ||
		memcmp(cache->raw, raw, rawlen) != 0)
	{
		MemoryContext old = MemoryContextSwitchTo(fcinfo->flinfo->fn_mcxt);

		if (cache->raw != NULL)
		{
			pfree(cache->raw);
			pfree(cache->template);
		}
		cache->raw = NULL;
		cache->template = (Jsonb *) PG_DETOAST_DATUM_COPY(PointerGetDatum(raw));
		cache->raw = palloc(rawlen);
		memcpy(cache->raw, raw, rawlen);
		cache->rawlen = rawlen;
		MemoryContextSwitchTo(old);
	}
	return cache->template;
}

/* Which values of a run are present, as a bit mask. */
static uint32
run_values_mask(const RunValues *rv)
{
	uint32		mask = 0;
	int			i;

	for (i = 0; i < 4; i++)
		mask |= (rv->digest[i] != NULL) << i;
	mask |= rv->has_observed_at << 4;
	for (i = 0; i < RV_NVALUES; i++)
		mask |= rv->has[i] << (5 + i);
	for (i = 0; i < 3; i++)
		mask |= (rv->native_unit != NULL && rv->native[i] != NULL) << (11 + i);
	mask |= (rv->external_id != NULL) << 14;
	return mask;
}

/* Room for the canonical texts of a run's numbers (build_splices). */
typedef struct SpliceTexts
{
	char		num[SPLICE_MAX][JCS_NUMBER_BUFLEN + MAXINT8LEN + 1];
} SpliceTexts;

/*
 * The splices of a run's values, in a fixed order; returns how many.  The
 * digests are marked fixed: a RunLayout holds them in its text.
 */
static int
build_splices(const RunValues *rv, Splice *splices, SpliceTexts *texts)
{
	int			n = 0;
	int			i;
	static const char *const digest_keys[4] = {
		"protocolDigest", "workloadDigest", "environmentDigest", "implementationDigest"
	};

	for (i = 0; i < 4; i++)
		if (rv->digest[i] != NULL)
		{
			splice_string(&splices[n], "spec", digest_keys[i], NULL, NULL,
						  (char *) rv->digest[i]);
			splices[n++].fixed = true;
		}
	if (rv->has_observed_at)
		splice_string(&splices[n++], "spec", "observedAt", NULL, NULL,
					  observed_at_text(rv->observed_at));
	if (rv->has[RV_LATENCY])
	{
		splice_int64(&splices[n], "spec", "timing", "latencyNs", "median",
					 rv->v[RV_LATENCY], texts->num[n]);
		n++;
	}
	if (rv->has[RV_PEAK])
	{
		splice_int64(&splices[n], "spec", "memory", "peakBytes", "median",
					 rv->v[RV_PEAK], texts->num[n]);
		n++;
	}
	/* measurements: COALESCE(latency, peak) for p20 and p80 */
	for (i = 0; i < 2; i++)
	{
		int			k = rv->has[RV_LATENCY_P20 + i] ? RV_LATENCY_P20 + i : RV_PEAK_P20 + i;

		if (rv->has[k])
		{
			splice_int64(&splices[n], "spec", "measurements", i ? "1" : "0",
						 "value", rv->v[k], texts->num[n]);
			n++;
		}
	}
	if (rv->native_unit != NULL)
	{
		static const char *const suffix[3] = {"_20", "_50", "_80"};
		static const char *const ms_keys[3] = {"ms_20", "ms_50", "ms_80"};
		static const char *const mb_keys[3] = {"mb_20", "mb_50", "mb_80"};

		for (i = 0; i < 3; i++)
			if (rv->native[i] != NULL)
			{
				const char *key;

				if (strcmp(rv->native_unit, "ms") == 0)
					key = ms_keys[i];
				else if (strcmp(rv->native_unit, "mb") == 0)
					key = mb_keys[i];
				else
					key = psprintf("%s%s", rv->native_unit, suffix[i]);
				splice_decimal(&splices[n], "spec", "sourceNative", "metrics",
							   key, rv->native[i], rv->native_text[i], texts->num[n]);
				n++;
			}
	}
	if (rv->external_id != NULL)
		splice_string(&splices[n++], "spec", "sourceNative", "externalId", NULL,
					  (char *) rv->external_id);
	return n;
}

/*
 * Write a run's {apiVersion, kind, spec} from its template with the
 * splices applied (or, with rec, with holes noted in their place).
 */
static void
write_run(CanonSink *sink, Jsonb *template, Splice *splices, int n,
		  LayoutRecorder *rec)
{
	Splice	   *active[SPLICE_MAX];
	JsonbValue	api,
				kind,
				spec;
	SpliceMember top[3];
	SpliceMember *order[3];
	int			i;

	for (i = 0; i < n; i++)
		active[i] = &splices[i];

	/* The identity: apiVersion, kind and spec, as kidx_resource_digest. */
	if (!JB_ROOT_IS_OBJECT(template) ||
		getKeyJsonValueFromContainer(&template->root, "apiVersion", 10, &api) == NULL ||
		api.type != jbvString ||
		getKeyJsonValueFromContainer(&template->root, "kind", 4, &kind) == NULL ||
		kind.type != jbvString ||
		getKeyJsonValueFromContainer(&template->root, "spec", 4, &spec) == NULL ||
		spec.type != jbvBinary || !JsonContainerIsObject(spec.val.binary.data))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("run template is not a kernelindex resource"),
				 errdetail("It needs a string \"apiVersion\", a string \"kind\" and an object \"spec\"."),
				 errhint("Pass a template made by kernelindex.run_split().")));

	memset(top, 0, sizeof(top));
	top[0].key = "apiVersion";
	top[0].value = api;
	top[1].key = "kind";
	top[1].value = kind;
	top[2].key = "spec";
	top[2].value = spec;
	for (i = 0; i < 3; i++)
	{
		top[i].keylen = strlen(top[i].key);
		top[i].ukey = top[i].key;
		top[i].ukeylen = top[i].keylen;
		order[i] = &top[i];
	}
	qsort(order, 3, sizeof(SpliceMember *), member_cmp);

	canon_sink_write(sink, "{", 1);
	for (i = 0; i < 3; i++)
	{
		if (i > 0)
			canon_sink_write(sink, ",", 1);
		canon_write_string(sink, order[i]->key, order[i]->keylen);
		canon_sink_write(sink, ":", 1);
		if (order[i] == &top[2] && n > 0)
			write_spliced(sink, &spec, active, n, 1, rec);
		else
			canon_write_value(sink, &order[i]->value);
	}
	canon_sink_write(sink, "}", 1);
}

/*
 * The run digest of a template with the per-run values spliced in:
 * kidx_resource_digest(run_rebuild(...)) streamed from the template.
 */
void
run_identity_digest(Jsonb *template, const RunValues *rv, KidxDigest *result)
{
	Splice		splices[SPLICE_MAX];
	SpliceTexts texts;
	int			n = build_splices(rv, splices, &texts);
	CanonSink  *sink = canon_sink_digest();

	write_run(sink, template, splices, n, NULL);
	canon_sink_finish(sink, result);
}

/*
 * The layout of a template for runs with values present as in *rv: the
 * canonical text written once, with holes for the values.
 */
RunLayout *
run_identity_layout(Jsonb *template, const RunValues *rv)
{
	Splice		splices[SPLICE_MAX];
	SpliceTexts texts;
	int			n = build_splices(rv, splices, &texts);
	LayoutRecorder rec;
	RunLayout  *layout = palloc0(sizeof(RunLayout));
	CanonSink  *sink = canon_sink_text();
	StringInfo	text;
	int			i;

	memset(&rec, 0, sizeof(rec));
	rec.base = splices;
	write_run(sink, template, splices, n, &rec);
	text = canon_sink_output(sink);
	layout->mask = run_values_mask(rv);
	layout->native_unit = rv->native_unit ? pstrdup(rv->native_unit) : NULL;
	for (i = 0; i < 4; i++)
		layout->digest[i] = rv->digest[i] ? pstrdup(rv->digest[i]) : NULL;
	layout->text = text->data;
	layout->len = text->len;
	layout->nholes = rec.nholes;
	memcpy(layout->hole_at, rec.hole_at, sizeof(rec.hole_at));
	memcpy(layout->hole_splice, rec.hole_splice, sizeof(rec.hole_splice));
	return layout;
}

/*
 * run_identity_digest() through a layout made for values present as in
 * *rv; false (and nothing computed) if *rv does not fit the layout.
 */
bool
run_identity_digest_layout(const RunLayout *layout, const RunValues *rv,
						   KidxDigest *result)
{
	Splice		splices[SPLICE_MAX];
	SpliceTexts texts;
	int			n;
	int			at = 0;
	int			i;
	CanonSink  *sink;

	if (run_values_mask(rv) != layout->mask ||
		(layout->native_unit != NULL &&
		 strcmp(layout->native_unit, rv->native_unit) != 0))
		return false;
	for (i = 0; i < 4; i++)
		if (layout->digest[i] != NULL && strcmp(layout->digest[i], rv->digest[i]) != 0)
			return false;
	n = build_splices(rv, splices, &texts);
	sink = canon_sink_digest();
	for (i = 0; i < layout->nholes; i++)
	{
		if (layout->hole_splice[i] >= n)
			elog(ERROR, "run layout does not fit its values");
		canon_sink_write(sink, layout->text + at, layout->hole_at[i] - at);
		write_splice_value(sink, &splices[layout->hole_splice[i]], NULL);
		at = layout->hole_at[i];
	}
	canon_sink_write(sink, layout->text + at, layout->len - at);
	canon_sink_finish(sink, result);
	return true;
}

/*
 * kidx_run_identity_digest(template jsonb, protocol, workload, environment,
 *		implementation kidx_digest, observed_at timestamptz,
 *		latency_ns, latency_ns_p20, latency_ns_p80,
 *		peak_bytes, peak_bytes_p20, peak_bytes_p80 bigint,
 *		native_unit text, native_p20, native_p50, native_p80 numeric,
 *		external_id text) -> kidx_digest
 *
 * SQL face of run_identity_digest().
 */
Datum
kidx_run_identity_digest(PG_FUNCTION_ARGS)
{
	RunValues	rv;
	KidxDigest *result;
	int			i;

	if (PG_ARGISNULL(0))
		PG_RETURN_NULL();
	memset(&rv, 0, sizeof(rv));
	for (i = 0; i < 4; i++)
		if (!PG_ARGISNULL(1 + i))
			rv.digest[i] = digest_text(fcinfo, 1 + i);
	if (!PG_ARGISNULL(5))
	{
		rv.has_observed_at = true;
		rv.observed_at = PG_GETARG_TIMESTAMPTZ(5);
	}
	for (i = 0; i < RV_NVALUES; i++)
		if (!PG_ARGISNULL(6 + i))
		{
			rv.has[i] = true;
			rv.v[i] = PG_GETARG_INT64(6 + i);
		}
	if (!PG_ARGISNULL(12))
	{
		rv.native_unit = text_to_cstring(PG_GETARG_TEXT_PP(12));
		for (i = 0; i < 3; i++)
			if (!PG_ARGISNULL(13 + i))
				rv.native[i] = PG_GETARG_NUMERIC(13 + i);
	}
	if (!PG_ARGISNULL(16))
		rv.external_id = text_to_cstring(PG_GETARG_TEXT_PP(16));

	result = palloc(sizeof(KidxDigest));
	run_identity_digest(template_arg(fcinfo), &rv, result);
	PG_RETURN_KIDX_DIGEST_P(result);
}

/*
 * liger_name_key(prefix, variant_slug, slug), the key of
 * kernelindex.liger_name_key(prefix text, variant_slug text, slug text).
 *
 * For the Liger run name rtrim(left(prefix || '-' || slug, 100), '-') and
 * the per-run part f = variant_slug || '-' || slug (variant_slug being
 * kernelindex.run_name_slug() of the run's variant, which the prefix ends
 * with, so that the series stem leaves the workload label out), what
 * run_split() keeps in
 * the series: k, the longest end of the name (in characters) that f starts
 * with, gives name_stem = the name without its last k characters and
 * name_cut = the name's length unless k is all of f; without such a k the
 * name stays in the template.  The key is 'T' || name in that case, else
 * 'S' || name_cut || ':' || name_stem.
 */
char *
liger_name_key(const char *prefix, int prefixlen, const char *variant_slug,
			   int variant_slug_len, const char *slug, int sluglen)
{
	StringInfoData full;
	StringInfoData f;
	int			nmlen;
	int		   *nmoff;
	int		   *foff;
	int			nmchars = 0;
	int			fchars = 0;
	int			pos;
	int			k;
	char	   *key;

	initStringInfo(&full);
	appendBinaryStringInfo(&full, prefix, prefixlen);
	appendStringInfoChar(&full, '-');
	appendBinaryStringInfo(&full, slug, sluglen);
	initStringInfo(&f);
	appendBinaryStringInfo(&f, variant_slug, variant_slug_len);
	appendStringInfoChar(&f, '-');
	appendBinaryStringInfo(&f, slug, sluglen);

	/* All ASCII (the usual case): characters are bytes. */
	if (all_ascii(full.data, full.len) && all_ascii(f.data, f.len))
	{
		nmlen = Min(full.len, LIGER_NAME_MAX);
		while (nmlen > 0 && full.data[nmlen - 1] == '-')
			nmlen--;
		for (k = Min(nmlen, f.len); k >= 1; k--)
			if (memcmp(full.data + nmlen - k, f.data, k) == 0)
				break;
		if (k == 0)
			key = psprintf("T%.*s", nmlen, full.data);
		else if (k == f.len)
			key = psprintf("S:%.*s", nmlen - k, full.data);
		else
			key = psprintf("S%d:%.*s", nmlen, nmlen - k, full.data);
		pfree(full.data);
		pfree(f.data);
		return key;
	}

	/* The name: the first 100 characters, no hyphen at the end. */
	nmlen = pg_mbcharcliplen(full.data, full.len, LIGER_NAME_MAX);
	while (nmlen > 0 && full.data[nmlen - 1] == '-')
		nmlen--;

	/* Character start offsets of the name and of f (plus the end). */
	nmoff = palloc(sizeof(int) * (nmlen + 1));
	for (pos = 0; pos < nmlen; pos += pg_mblen(full.data + pos))
		nmoff[nmchars++] = pos;
	nmoff[nmchars] = nmlen;
	foff = palloc(sizeof(int) * (f.len + 1));
	for (pos = 0; pos < f.len; pos += pg_mblen(f.data + pos))
		foff[fchars++] = pos;
	foff[fchars] = f.len;

	for (k = Min(nmchars, fchars); k >= 1; k--)
	{
		int			tail = nmlen - nmoff[nmchars - k];

		if (tail == foff[k] &&
			memcmp(full.data + nmoff[nmchars - k], f.data, tail) == 0)
			break;
	}

	if (k == 0)
		key = psprintf("T%.*s", nmlen, full.data);
	else if (k == fchars)
		key = psprintf("S:%.*s", nmoff[nmchars - k], full.data);
	else
		key = psprintf("S%d:%.*s", nmchars, nmoff[nmchars - k], full.data);
	pfree(full.data);
	pfree(f.data);
	pfree(nmoff);
	pfree(foff);
	return key;
}

/* SQL face of liger_name_key(). */
Datum
kidx_liger_name_key(PG_FUNCTION_ARGS)
{
	text	   *prefix = PG_GETARG_TEXT_PP(0);
	text	   *variant_slug = PG_GETARG_TEXT_PP(1);
	text	   *slug = PG_GETARG_TEXT_PP(2);

	PG_RETURN_TEXT_P(cstring_to_text(liger_name_key(VARDATA_ANY(prefix),
													VARSIZE_ANY_EXHDR(prefix),
													VARDATA_ANY(variant_slug),
													VARSIZE_ANY_EXHDR(variant_slug),
													VARDATA_ANY(slug),
													VARSIZE_ANY_EXHDR(slug))));
}

PG_FUNCTION_INFO_V1(kidx_timestamptz_or_null);

/*
 * kernelindex.timestamptz_or_null(text): the timestamp a date-and-time text
 * denotes, or NULL where timestamptz input would raise an error (an
 * impossible date, say), so that a document's fault can be reported as such.
 */
Datum
kidx_timestamptz_or_null(PG_FUNCTION_ARGS)
{
	char	   *s = text_to_cstring(PG_GETARG_TEXT_PP(0));
	char		workbuf[MAXDATELEN + MAXDATEFIELDS];
	char	   *field[MAXDATEFIELDS];
	int			ftype[MAXDATEFIELDS];
	int			nf;
	int			dtype;
	int			tz;
	struct pg_tm tt;
	fsec_t		fsec;
	TimestampTz result;

	if (strlen(s) >= MAXDATELEN ||
		ParseDateTime(s, workbuf, sizeof(workbuf), field, ftype,
					  MAXDATEFIELDS, &nf) != 0 ||
		DecodeDateTime(field, ftype, nf, &dtype, &tt, &fsec, &tz) != 0 ||
		dtype != DTK_DATE ||
		tm2timestamp(&tt, fsec, &tz, &result) != 0 ||
		!IS_VALID_TIMESTAMP(result))
		PG_RETURN_NULL();
	PG_RETURN_TIMESTAMPTZ(result);
}
