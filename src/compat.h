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

#include "common/jsonapi.h"
#include "utils/datetime.h"

#ifdef KIDX_COMPAT_EXECUTOR
#include "access/genam.h"
#include "executor/executor.h"
#include "nodes/parsenodes.h"
#include "parser/parse_relation.h"
#include "utils/acl.h"
#endif

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

#ifdef KIDX_COMPAT_EXECUTOR

/*
 * Check that the current user may INSERT into the relation of a one-entry
 * range table (ereport on violation), and return the permission list that
 * kidx_init_range_table() takes.  PostgreSQL 16 moved the required
 * permissions from RangeTblEntry to RTEPermissionInfo and renamed
 * ExecCheckRTPerms() ExecCheckPermissions() (commit a61b1f7482, "Rework
 * query relation permission checking").
 */
static inline List *
kidx_check_insert_permission(RangeTblEntry *rte)
{
#if PG_VERSION_NUM >= 160000
	List	   *perminfos = NIL;
	RTEPermissionInfo *perminfo = addRTEPermissionInfo(&perminfos, rte);

	perminfo->requiredPerms = ACL_INSERT;
	ExecCheckPermissions(list_make1(rte), perminfos, true);
	return perminfos;
#else
	rte->requiredPerms = ACL_INSERT;
	ExecCheckRTPerms(list_make1(rte), true);
	return NIL;
#endif
}

/*
 * Set up an executor state's range table of one relation.  PostgreSQL 16
 * added the permission list (commit a61b1f7482); PostgreSQL 18 the set of
 * range-table indexes left after initial partition pruning (commit
 * cbc127917e, "Track unpruned relids to avoid processing pruned
 * relations"): here the one relation.
 */
static inline void
kidx_init_range_table(EState *estate, List *rangetable, List *perminfos)
{
#if PG_VERSION_NUM >= 180000
	ExecInitRangeTable(estate, rangetable, perminfos, bms_make_singleton(1));
#elif PG_VERSION_NUM >= 160000
	ExecInitRangeTable(estate, rangetable, perminfos);
#else
	ExecInitRangeTable(estate, rangetable);
#endif
}

/*
 * Check that a result relation accepts a plain INSERT.  PostgreSQL 17
 * added the MERGE actions argument (commit 5f2e179bd3, "Support MERGE into
 * updatable views"); 18.0 the ON CONFLICT action (commit 5386bfb9c1, "Fix
 * replica identity check for INSERT ON CONFLICT DO UPDATE", which kept the
 * old signature in 13 to 17).
 */
static inline void
kidx_check_valid_insert_rel(ResultRelInfo *rri)
{
#if PG_VERSION_NUM >= 180000
	CheckValidResultRel(rri, CMD_INSERT, ONCONFLICT_NONE, NIL);
#elif PG_VERSION_NUM >= 170000
	CheckValidResultRel(rri, CMD_INSERT, NIL);
#else
	CheckValidResultRel(rri, CMD_INSERT);
#endif
}

/*
 * Insert the index entries of a new heap tuple, as a plain INSERT does (no
 * conflict detection); returns the indexes whose deferred constraints need
 * a recheck.  PostgreSQL 16 added the onlySummarizing argument (commit
 * 19d8e2308b, "Ignore BRIN indexes when checking for HOT updates").
 */
static inline List *
kidx_insert_index_tuples(ResultRelInfo *rri, TupleTableSlot *slot,
						 EState *estate)
{
#if PG_VERSION_NUM >= 160000
	return ExecInsertIndexTuples(rri, slot, estate, false, false, NULL, NIL,
								 false);
#else
	return ExecInsertIndexTuples(rri, slot, estate, false, false, NULL, NIL);
#endif
}

/*
 * Begin an index scan without instrumentation.  PostgreSQL 18 added the
 * IndexScanInstrumentation argument (commit 0fbceae841, "Show index search
 * count in EXPLAIN ANALYZE, take 2").
 */
static inline IndexScanDesc
kidx_index_beginscan(Relation heap, Relation index, Snapshot snapshot,
					 int nkeys, int norderbys)
{
#if PG_VERSION_NUM >= 180000
	return index_beginscan(heap, index, snapshot, NULL, nkeys, norderbys);
#else
	return index_beginscan(heap, index, snapshot, nkeys, norderbys);
#endif
}

#endif							/* KIDX_COMPAT_EXECUTOR */

#endif							/* KIDX_COMPAT_H */
