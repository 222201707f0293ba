/*-------------------------------------------------------------------------
 *
 * reference_window.c
 *	  kernelindex_internal.reference_value and reference_in_release: the
 *	  window functions that give each run the base of its comparison, the
 *	  reference implementation's latest run under its comparability key,
 *	  of the same release where there is one (doc/performance.md, "One
 *	  window for the base").
 *
 * Both are called over a window partitioned by the comparability key and
 * ordered by is_reference DESC first, then latest first: the reference
 * runs of a partition come before its other runs, and the first reference
 * run of a release is that release's latest.  So when a row is evaluated,
 * every reference row that can be its base has been evaluated already (a
 * reference row's own base comes no later than itself), and each function
 * answers from what it kept of the rows before, in the partition's local
 * memory: for every release the reference rows name, the value of its
 * first reference row; and the partition's first row's value, where that
 * row is a reference row.  No row is read twice, and a function reads only
 * the current row.  A reference row after a row that is not one means the
 * window is not ordered so, and is an error.
 *
 * Releases are compared by their bytes, as the text equality of a
 * deterministic collation does (the default collation always is).  What a
 * function keeps of a partition grows with the releases (and
 * implementations) its rows name, dictionary values of run_labels and
 * implementations, not with its rows; it is freed with the partition.
 *
 * Over the same window, first_of_series and first_of_release say whether
 * the current row is the first of its implementation (and release) in the
 * partition's order: row_number() = 1 over a window partitioned by the
 * implementation (and release) too and ordered the same, without the sort
 * such a window needs.  In the base window an implementation's runs come
 * latest first (is_reference is the same for all of them), so the first
 * is its latest, in the store or in a release.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fmgr.h"
#include "utils/datum.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "windowapi.h"

#include "compat.h"
#include "intern.h"

PG_FUNCTION_INFO_V1(kidx_reference_value);
PG_FUNCTION_INFO_V1(kidx_reference_in_release);
PG_FUNCTION_INFO_V1(kidx_first_of_series);
PG_FUNCTION_INFO_V1(kidx_first_of_release);

/* The arguments both functions take first. */
#define ARG_IS_REFERENCE 0
#define ARG_RELEASE 1
/* reference_value's value. */
#define ARG_VALUE 2
/* first_of_series's and first_of_release's arguments. */
#define ARG_IMPLEMENTATION 0
#define ARG_SERIES_RELEASE 1

/* What one function keeps of its partition's reference rows. */
typedef struct ReferencePartition
{
	bool		past_references;	/* a row that is no reference was seen */
	bool		has_reference;	/* the partition's first row is a reference
								 * row */
	Datum		top_value;		/* that row's value */
	bool		top_isnull;
	InternTable *releases;		/* the releases of the reference rows, by
								 * number (made at the first) */
	Datum	   *values;			/* the first reference row's value of each
								 * release, by number */
	bool	   *nulls;
	int			cap;
	bool		has_null_release;	/* a reference row has no release */
	Datum		null_value;		/* the first such row's value */
	bool		null_isnull;
} ReferencePartition;

/* The value argument's type, kept across calls in fn_extra. */
typedef struct ValueType
{
	int16		typlen;
	bool		typbyval;
} ValueType;

/* The type of reference_value's value argument. */
static ValueType *
value_type(FunctionCallInfo fcinfo)
{
	ValueType  *vt = (ValueType *) fcinfo->flinfo->fn_extra;

	if (vt == NULL)
	{
		Oid			type = get_fn_expr_argtype(fcinfo->flinfo, ARG_VALUE);

		if (!OidIsValid(type))
			elog(ERROR, "reference_value: the type of its value is unknown");
		vt = MemoryContextAlloc(fcinfo->flinfo->fn_mcxt, sizeof(ValueType));
		get_typlenbyval(type, &vt->typlen, &vt->typbyval);
		fcinfo->flinfo->fn_extra = vt;
	}
	return vt;
}

/* A copy of a value in the partition's memory. */
static Datum
keep_value(MemoryContext cxt, Datum value, bool isnull, const ValueType *vt)
{
	MemoryContext old;
	Datum		copy;

	if (isnull || vt == NULL || vt->typbyval)
		return value;
	old = MemoryContextSwitchTo(cxt);
	copy = datumCopy(value, vt->typbyval, vt->typlen);
	MemoryContextSwitchTo(old);
	return copy;
}

/*
 * Take in the current row and find its base: *found says whether the
 * partition has a reference row of the current row's release, and the
 * result is that row's value (reference_value's ARG_VALUE; vt NULL: none
 * is kept), else the partition's first row's if it is a reference row, else
 * NULL (*isnull).  *any says whether the partition has a reference row.
 */
static Datum
reference_base(FunctionCallInfo fcinfo, const ValueType *vt, bool *found, bool *any,
			   bool *isnull)
{
	WindowObject win = PG_WINDOW_OBJECT();
	ReferencePartition *part;
	MemoryContext cxt;
	bool		ref_null;
	bool		release_null;
	bool		is_reference;
	Datum		release;
	text	   *release_text = NULL;
	int			n = -1;

	part = (ReferencePartition *) WinGetPartitionLocalMemory(win, sizeof(ReferencePartition));
	cxt = GetMemoryChunkContext(part);
	/* no row before the current one is read again: let the buffer go */
	WinSetMarkPosition(win, WinGetCurrentPosition(win));

	is_reference = DatumGetBool(WinGetFuncArgCurrent(win, ARG_IS_REFERENCE, &ref_null));
	is_reference = is_reference && !ref_null;
	release = WinGetFuncArgCurrent(win, ARG_RELEASE, &release_null);
	if (!release_null)
		release_text = pg_detoast_datum_packed((struct varlena *) DatumGetPointer(release));

	if (is_reference)
	{
		Datum		value = (Datum) 0;
		bool		value_null = true;
		bool		isnew = false;

		if (part->past_references)
			ereport(ERROR,
					(errcode(ERRCODE_WINDOWING_ERROR),
					 errmsg("a reference row follows a row that is none in the window of reference_value or reference_in_release"),
					 errhint("Order the window by is_reference DESC NULLS LAST first.")));
		if (vt != NULL)
			value = WinGetFuncArgCurrent(win, ARG_VALUE, &value_null);
		if (!part->has_reference)
		{
			part->has_reference = true;
			part->top_value = keep_value(cxt, value, value_null, vt);
			part->top_isnull = value_null;
		}
		if (release_null)
		{
			if (!part->has_null_release)
			{
				part->has_null_release = true;
				part->null_value = keep_value(cxt, value, value_null, vt);
				part->null_isnull = value_null;
			}
		}
		else
		{
			if (part->releases == NULL)
				part->releases = intern_create(cxt);
			n = intern_add(part->releases, VARDATA_ANY(release_text),
						   VARSIZE_ANY_EXHDR(release_text), &isnew);
			if (isnew)
			{
				if (n >= part->cap)
				{
					int			cap = part->cap ? part->cap * 2 : 16;

					part->values = part->values ?
						repalloc_huge(part->values, sizeof(Datum) * cap) :
						MemoryContextAlloc(cxt, sizeof(Datum) * cap);
					part->nulls = part->nulls ?
						repalloc_huge(part->nulls, sizeof(bool) * cap) :
						MemoryContextAlloc(cxt, sizeof(bool) * cap);
					part->cap = cap;
				}
				part->values[n] = keep_value(cxt, value, value_null, vt);
				part->nulls[n] = value_null;
			}
		}
	}
	else
	{
		part->past_references = true;
		if (!release_null && part->releases != NULL)
			n = intern_find(part->releases, VARDATA_ANY(release_text),
							VARSIZE_ANY_EXHDR(release_text));
	}

	*any = part->has_reference;
	if (release_null ? part->has_null_release : n >= 0)
	{
		*found = true;
		*isnull = release_null ? part->null_isnull : part->nulls[n];
		return release_null ? part->null_value : part->values[n];
	}
	*found = false;
	*isnull = part->has_reference ? part->top_isnull : true;
	return part->has_reference ? part->top_value : (Datum) 0;
}

/*
 * reference_value(is_reference, release, value): the value of the base of
 * the current row's comparison (the first reference row of its release,
 * else the partition's first row if it is a reference row), or NULL.
 */
Datum
kidx_reference_value(PG_FUNCTION_ARGS)
{
	bool		found;
	bool		any;
	bool		isnull;
	Datum		result = reference_base(fcinfo, value_type(fcinfo), &found, &any, &isnull);

	if (isnull)
		PG_RETURN_NULL();
	PG_RETURN_DATUM(result);
}

/*
 * reference_in_release(is_reference, release): whether the partition has a
 * reference row of the current row's release (true), only of others
 * (false), or none (NULL).
 */
Datum
kidx_reference_in_release(PG_FUNCTION_ARGS)
{
	bool		found;
	bool		any;
	bool		isnull;

	(void) reference_base(fcinfo, NULL, &found, &any, &isnull);
	if (!any)
		PG_RETURN_NULL();
	PG_RETURN_BOOL(found);
}

/*
 * Whether the current row is the first of its group in the partition: the
 * group is the implementation (argument 0), and the release (argument 1)
 * where with_release; each function keeps the groups it has seen.
 */
static bool
first_of_group(FunctionCallInfo fcinfo, bool with_release)
{
	WindowObject win = PG_WINDOW_OBJECT();
	InternTable **seen;
	bool		isnull;
	int32		implementation;
	char		fixed[64];
	char	   *key = fixed;
	int			len = 0;
	bool		isnew;

	seen = (InternTable **) WinGetPartitionLocalMemory(win, sizeof(InternTable *));
	if (*seen == NULL)
		*seen = intern_create(GetMemoryChunkContext(seen));
	/* no row before the current one is read again: let the buffer go */
	WinSetMarkPosition(win, WinGetCurrentPosition(win));

	/* the key: a NULL marker and the implementation, then the release */
	implementation = DatumGetInt32(WinGetFuncArgCurrent(win, ARG_IMPLEMENTATION, &isnull));
	if (isnull)
		implementation = 0;
	key[len++] = isnull ? 0 : 1;
	memcpy(key + len, &implementation, sizeof(int32));
	len += sizeof(int32);
	if (with_release)
	{
		Datum		release = WinGetFuncArgCurrent(win, ARG_SERIES_RELEASE, &isnull);

		key[len++] = isnull ? 0 : 1;
		if (!isnull)
		{
			text	   *t = pg_detoast_datum_packed((struct varlena *) DatumGetPointer(release));
			int			tlen = VARSIZE_ANY_EXHDR(t);

			if (len + tlen > (int) sizeof(fixed))
			{
				key = palloc(len + tlen);
				memcpy(key, fixed, len);
			}
			memcpy(key + len, VARDATA_ANY(t), tlen);
			len += tlen;
		}
	}
	(void) intern_add(*seen, key, len, &isnew);
	return isnew;
}

/*
 * first_of_series(implementation_id): whether the current row is the first
 * of its implementation in the partition's order.
 */
Datum
kidx_first_of_series(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(first_of_group(fcinfo, false));
}

/*
 * first_of_release(implementation_id, release): whether the current row is
 * the first of its implementation and release (IS NOT DISTINCT FROM) in the
 * partition's order.
 */
Datum
kidx_first_of_release(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(first_of_group(fcinfo, true));
}
