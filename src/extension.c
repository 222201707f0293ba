/*-------------------------------------------------------------------------
 *
 * extension.c
 *	  Where the extension's objects are, and running SQL on them (see
 *	  extension.h).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "catalog/indexing.h"
#include "catalog/namespace.h"
#include "catalog/pg_extension.h"
#include "catalog/pg_namespace_d.h"
#include "commands/dbcommands.h"
#include "catalog/pg_type.h"
#include "commands/extension.h"
#include "executor/spi.h"
#include "utils/array.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/hsearch.h"
#include "utils/rel.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"

#include "extension.h"

/* Rethrow the current error without the CONTEXT of an internal query. */
static void
rethrow_without_context(MemoryContext cxt)
{
	ErrorData  *edata;

	MemoryContextSwitchTo(cxt);
	edata = CopyErrorData();
	FlushErrorState();
	edata->context = NULL;
	edata->internalquery = NULL;
	edata->internalpos = 0;
	ReThrowError(edata);
}

/* Connect to SPI; see extension.h (a failure cannot happen: elog). */
void
kidx_spi_connect(void)
{
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
}

/* Run a query with SPI; see extension.h. */
int
kidx_spi_execute(const char *sql, int nargs, Oid *argtypes, Datum *values,
				 const char *nulls, bool read_only, long count)
{
	MemoryContext cxt = CurrentMemoryContext;
	volatile int rc = 0;

	PG_TRY();
	{
		rc = SPI_execute_with_args(sql, nargs, argtypes, values, nulls,
								   read_only, count);
	}
	PG_CATCH();
	{
		rethrow_without_context(cxt);
	}
	PG_END_TRY();
	if (rc < 0)
		elog(ERROR, "SPI failed (%s) on: %s", SPI_result_code_string(rc), sql);
	return rc;
}

/* Run a prepared plan with SPI; see extension.h. */
int
kidx_spi_execute_plan(SPIPlanPtr plan, Datum *values, const char *nulls,
					  bool read_only, long count)
{
	MemoryContext cxt = CurrentMemoryContext;
	volatile int rc = 0;

	PG_TRY();
	{
		rc = SPI_execute_plan(plan, values, nulls, read_only, count);
	}
	PG_CATCH();
	{
		rethrow_without_context(cxt);
	}
	PG_END_TRY();
	if (rc < 0)
		elog(ERROR, "SPI failed (%s) on a prepared plan", SPI_result_code_string(rc));
	return rc;
}

/*
 * A query's kept plan, by its text and its arguments' types (a type made
 * again, by DROP and CREATE EXTENSION, has another OID: another plan).
 */
#define KEPT_SQL_MAX 1024
typedef struct KeptPlan
{
	char		key[KEPT_SQL_MAX];	/* hash key: the types' OIDs, the text */
	SPIPlanPtr	plan;
} KeptPlan;

/* The plan of sql kept for the backend's life; see extension.h. */
SPIPlanPtr
kidx_kept_plan(const char *sql, int nargs, Oid *argtypes)
{
	static HTAB *plans = NULL;
	KeptPlan   *e;
	MemoryContext cxt = CurrentMemoryContext;
	char		key[KEPT_SQL_MAX];
	int			len = 0;
	int			i;

	MemSet(key, 0, sizeof(key));
	for (i = 0; i < nargs && len < KEPT_SQL_MAX; i++)
		len += snprintf(key + len, KEPT_SQL_MAX - len, "%u,", argtypes[i]);
	if (len + strlen(sql) + 2 > KEPT_SQL_MAX)
		elog(ERROR, "query too long for a kept plan: %s", sql);
	key[len++] = ':';
	strcpy(key + len, sql);
	if (plans == NULL)
	{
		HASHCTL		ctl;

		ctl.keysize = KEPT_SQL_MAX;
		ctl.entrysize = sizeof(KeptPlan);
		plans = hash_create("kernelindex kept plans", 32, &ctl, HASH_ELEM | HASH_STRINGS);
	}
	e = hash_search(plans, key, HASH_FIND, NULL);
	if (e == NULL)
	{
		volatile SPIPlanPtr plan = NULL;

		PG_TRY();
		{
			plan = SPI_prepare(sql, nargs, argtypes);
		}
		PG_CATCH();
		{
			rethrow_without_context(cxt);
		}
		PG_END_TRY();
		if (plan == NULL || SPI_keepplan(plan) != 0)
			elog(ERROR, "SPI_prepare failed (%s) on: %s",
				 SPI_result_code_string(SPI_result), sql);
		/* entered only once prepared: an error above leaves no entry */
		e = hash_search(plans, key, HASH_ENTER, NULL);
		e->plan = plan;
	}
	return e->plan;
}

/* Run a query by a plan kept for the backend's life; see extension.h. */
int
kidx_spi_execute_kept(const char *sql, int nargs, Oid *argtypes, Datum *values,
					  const char *nulls, bool read_only, long count)
{
	return kidx_spi_execute_plan(kidx_kept_plan(sql, nargs, argtypes),
								 values, nulls, read_only, count);
}

/* A one-dimensional array of n Datums of a type; see extension.h. */
Datum
kidx_datum_array(Datum *elems, bool *nulls, int n, Oid type)
{
	int			dims[1] = {n};
	int			lbs[1] = {1};
	int16		typlen;
	bool		typbyval;
	char		typalign;

	get_typlenbyvalalign(type, &typlen, &typbyval, &typalign);
	return PointerGetDatum(construct_md_array(elems, nulls, 1, dims, lbs, type,
											  typlen, typbyval, typalign));
}

/* The type of kernelindex.runs.digest: kidx_digest. */
Oid
kidx_digest_type(void)
{
	Oid			relid = get_relname_relid("runs", get_namespace_oid("kernelindex", false));
	AttrNumber	att;
	Oid			typ;
	int32		typmod;
	Oid			coll;

	if (!OidIsValid(relid) ||
		(att = get_attnum(relid, "digest")) == InvalidAttrNumber)
		elog(ERROR, "table kernelindex.runs not found");
	get_atttypetypmodcoll(relid, att, &typ, &typmod, &coll);
	return typ;
}

/* The array type of kidx_digest. */
Oid
kidx_digest_array_type(void)
{
	return get_array_type(kidx_digest_type());
}

/* The quoted schema of the extension's type and functions. */
const char *
kidx_extension_schema(void)
{
	HeapTuple	tup = SearchSysCache1(TYPEOID, ObjectIdGetDatum(kidx_digest_type()));
	Oid			nsp;

	if (!HeapTupleIsValid(tup))
		elog(ERROR, "cache lookup failed for type kidx_digest");
	nsp = ((Form_pg_type) GETSTRUCT(tup))->typnamespace;
	ReleaseSysCache(tup);
	return quote_identifier(get_namespace_name(nsp));
}

/* The version of kernelindex in this database (NULL: not created). */
static char *
installed_version(void)
{
	Relation	rel = table_open(ExtensionRelationId, AccessShareLock);
	ScanKeyData key;
	SysScanDesc scan;
	HeapTuple	tup;
	char	   *version = NULL;

	ScanKeyInit(&key, Anum_pg_extension_extname, BTEqualStrategyNumber, F_NAMEEQ,
				CStringGetDatum("kernelindex"));
	scan = systable_beginscan(rel, ExtensionNameIndexId, true, NULL, 1, &key);
	tup = systable_getnext(scan);
	if (HeapTupleIsValid(tup))
	{
		bool		isnull;
		Datum		d = heap_getattr(tup, Anum_pg_extension_extversion,
									 RelationGetDescr(rel), &isnull);

		if (!isnull)
			version = TextDatumGetCString(d);
	}
	systable_endscan(scan);
	table_close(rel, AccessShareLock);
	return version;
}

/* Refuse a database at another version than the library; see extension.h. */
void
kidx_check_version(void)
{
	char	   *version;

	if (creating_extension)
		return;
	version = installed_version();
	if (version != NULL && strcmp(version, KIDX_VERSION) != 0)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("kernelindex's library is version %s, but the extension in database \"%s\" is at version %s",
						KIDX_VERSION, get_database_name(MyDatabaseId), version),
				 errhint("Run ALTER EXTENSION kernelindex UPDATE (as after every upgrade of the package).")));
}

/* Is a kernelindex table (NULL: any) a Citus table?  See extension.h. */
bool
kidx_distributed(const char *relname)
{
	Oid			nsp;
	Oid			argtypes[1] = {OIDOID};
	Datum		args[1];
	bool		found;

	if (!OidIsValid(get_extension_oid("citus", true)) ||
		!OidIsValid(get_relname_relid("pg_dist_partition", PG_CATALOG_NAMESPACE)))
		return false;
	nsp = get_namespace_oid("kernelindex", false);
	if (relname != NULL)
	{
		args[0] = ObjectIdGetDatum(get_relname_relid(relname, nsp));
		if (!OidIsValid(DatumGetObjectId(args[0])))
			return false;
	}
	else
		args[0] = ObjectIdGetDatum(nsp);
	kidx_spi_connect();
	kidx_spi_execute(relname != NULL ?
					 "SELECT 1 FROM pg_catalog.pg_dist_partition AS p"
					 " WHERE p.logicalrelid::pg_catalog.oid OPERATOR(pg_catalog.=) $1" :
					 "SELECT 1 FROM pg_catalog.pg_dist_partition AS p"
					 " JOIN pg_catalog.pg_class AS c ON c.oid OPERATOR(pg_catalog.=) p.logicalrelid::pg_catalog.oid"
					 " WHERE c.relnamespace OPERATOR(pg_catalog.=) $1",
					 1, argtypes, args, NULL, true, 1);
	found = SPI_processed > 0;
	SPI_finish();
	return found;
}
