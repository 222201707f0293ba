/*
 * compat.h
 *		Differences between the PostgreSQL majors kernelindex builds against
 *		(15, 16, 17 and 18), behind PG_VERSION_NUM, in this one place.
 *
 * Each item is named for what it does and says which release (and which
 * PostgreSQL commit) brought the change.  Code elsewhere calls these and
 * never tests PG_VERSION_NUM itself.  Include after postgres.h.
 */
#ifndef KIDX_COMPAT_H
#define KIDX_COMPAT_H

#if PG_VERSION_NUM < 150000
#error "kernelindex needs PostgreSQL 15 or later"
#endif

/*
 * PostgreSQL 16 moved the varlena macros (VARDATA, VARSIZE_ANY_EXHDR,
 * SET_VARSIZE...) from postgres.h to varatt.h (commit d952373a98, "New
 * header varatt.h split off from postgres.h").
 */
#if PG_VERSION_NUM >= 160000
#include "varatt.h"
#endif

/*
 * A function that never returns is declared "pg_noreturn extern void f(...)".
 * PostgreSQL 18 replaced the postfix pg_attribute_noreturn() with the prefix
 * pg_noreturn (the C11 _Noreturn specifier, c.h); before 18 the same GCC
 * attribute serves, which may stand before a declaration.
 */
#ifndef pg_noreturn
#define pg_noreturn pg_attribute_noreturn()
#endif

#include "common/jsonapi.h"
#include "storage/proc.h"
#include "utils/datetime.h"
#include "utils/relcache.h"


/*
 * JSON semantic-action callbacks return JsonParseErrorType from
 * PostgreSQL 16 on (commit 50428a301d, "Change JsonSemAction to allow
 * non-throw error reporting"); void before.  A callback is declared
 * "static KIDX_JSON_ACTION name(...)" and ends with "return KIDX_JSON_OK;",
 * which is "return;" on 15.
 */
#if PG_VERSION_NUM >= 160000
#define KIDX_JSON_ACTION JsonParseErrorType
#define KIDX_JSON_OK JSON_SUCCESS
#else
#define KIDX_JSON_ACTION void
#define KIDX_JSON_OK
#endif

/*
 * A JSON lexer over a string of known length.  PostgreSQL 17 gave
 * makeJsonLexContextCstringLen() a first argument, a context to fill in or
 * NULL for a new one (commit 1c99cde2f3, "Improve JsonLexContext's
 * freeability").
 */
static inline JsonLexContext *
kidx_json_lexer(const char *json, size_t len, int encoding, bool need_escapes)
{
#if PG_VERSION_NUM >= 170000
	return makeJsonLexContextCstringLen(NULL, json, len, encoding, need_escapes);
#else
	return makeJsonLexContextCstringLen(unconstify(char *, json), len, encoding,
										need_escapes);
#endif
}

/*
 * DecodeDateTime() for a value whose errors the caller reports itself.
 * PostgreSQL 16 added a DateTimeErrorExtra argument for soft error
 * reporting (commit 2661469d86, "Allow DateTimeParseError to handle
 * bad-timezone error messages").
 */
static inline int
kidx_decode_datetime(char **field, int *ftype, int nf, int *dtype,
					 struct pg_tm *tm, fsec_t *fsec, int *tzp)
{
#if PG_VERSION_NUM >= 160000
	DateTimeErrorExtra extra;

	return DecodeDateTime(field, ftype, nf, dtype, tm, fsec, tzp, &extra);
#else
	return DecodeDateTime(field, ftype, nf, dtype, tm, fsec, tzp);
#endif
}


/*
 * This backend's local transaction id: PostgreSQL 17 moved it into
 * PGPROC.vxid (commit "Redefine backend ID to be an index into the proc
 * array").
 */
static inline LocalTransactionId
kidx_my_local_xid(void)
{
#if PG_VERSION_NUM >= 170000
	return MyProc->vxid.lxid;
#else
	return MyProc->lxid;
#endif
}

/*
 * Soft input errors: from PostgreSQL 16 a type's input function reports a
 * bad value to the ErrorSaveContext its caller may pass (fcinfo->context),
 * so that pg_input_is_valid() and COPY ... ON_ERROR answer instead of
 * raising (commit ccff2d20ed, "Convert a few datatype input functions to use
 * "soft" error reporting").  On 15 the error is raised, as every input
 * function did.  Use as ereturn: KIDX_ERETURN(fcinfo->context, (Datum) 0,
 * errcode(...), errmsg(...), ...).
 */
#if PG_VERSION_NUM >= 160000
#define KIDX_ERETURN(context, dummy, ...) ereturn(context, dummy, __VA_ARGS__)
#else
#define KIDX_ERETURN(context, dummy, ...) \
	do { \
		ereport(ERROR, __VA_ARGS__); \
		return dummy; \
	} while (0)
#endif

/*
 * The primary key index of a relation: PostgreSQL 18 added whether a
 * deferrable one counts (RelationGetPrimaryKeyIndex(rel, deferrable_ok));
 * kernelindex's primary keys are not deferrable.
 */
static inline Oid
kidx_primary_key_index(Relation rel)
{
#if PG_VERSION_NUM >= 180000
	return RelationGetPrimaryKeyIndex(rel, false);
#else
	return RelationGetPrimaryKeyIndex(rel);
#endif
}

#endif							/* KIDX_COMPAT_H */
