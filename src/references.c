/*-------------------------------------------------------------------------
 *
 * references.c
 *	  The references of kernelindex.runs and kernelindex.comparability_keys,
 *	  checked per statement as strongly as foreign keys.
 *
 * A run refers to its comparability key, its implementation and seven
 * dictionaries; a comparability key to its protocol, workload and
 * environment (run_store.c lists the columns and the tables).  Row-level
 * foreign keys would check each of a million inserted runs against the same
 * few thousand rows (about 3 us a check, a dozen checks a run), and each
 * new key of a varied load three times (a quarter of such a load's time);
 * these checks take a statement's rows at once and keep the promise of
 * PostgreSQL's RI triggers (src/backend/utils/adt/ri_triggers.c):
 *
 * - kernelindex_internal.runs_references_check(), AFTER INSERT FOR EACH STATEMENT
 *	 on runs (a stored run never changes: identity_guard): every row each
 *	 new run names exists, and is locked
 *	 FOR KEY SHARE until the run commits, by the query an RI check runs
 *	 (with the snapshot it runs with: a fresh one under READ COMMITTED, the
 *	 transaction's otherwise, where locking a row deleted since is a
 *	 serialization failure).  A concurrent delete of the row waits for the
 *	 lock, or the lock for the delete.
 * - keys_references_check(), called by the batch writer (batch.c) right
 *	 after the INSERT of a statement's new comparability keys, makes the
 *	 same check and takes the same locks for the resources the new keys
 *	 name.  (Not a trigger of comparability_keys: pg_restore loads that
 *	 table before protocols, and only foreign keys order a restore.)
 * - kernelindex_internal.runs_references_guard(), on every table runs or keys refer
 *	 to: AFTER DELETE FOR EACH STATEMENT and AFTER TRUNCATE, no run (no key)
 *	 names a row that is gone, read with the latest snapshot (as RI's check
 *	 on delete does), so that rows committed by others after this
 *	 transaction began are seen; BEFORE UPDATE FOR EACH ROW, a dictionary
 *	 value never changes.
 * - kernelindex_internal.identity_guard(), BEFORE UPDATE FOR EACH ROW: what a
 *	 comparability key is (its key and resources) and what a resource is
 *	 (its digest and id) never change.
 *
 * test/t/030_references.pl races loads against deletes under READ
 * COMMITTED, REPEATABLE READ and SERIALIZABLE.  On Citus (distribute())
 * runs live in shards, and Citus creates these triggers on every shard of
 * runs and every placement of the tables runs name: a trigger on a shard
 * (a relation named <table>_<shard id>) reads the relations of this
 * server, the placements of the reference tables and the shards of runs
 * placed here (local_relations()), never a distributed table, which a
 * query on a shard may not read.  Each server's check locks its own
 * placements, which a delete on that server waits for; each server's guard
 * reads its own shards, and a delete runs on every placement, so together
 * the guards read every run (test/t/060_citus.pl races them there).  What
 * comparability keys name is declared as foreign keys between reference
 * tables on Citus instead.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/pg_type.h"
#include "commands/trigger.h"
#include "executor/executor.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "parser/parse_relation.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/datum.h"
#include "utils/hsearch.h"
#include "utils/json.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"
#include "utils/tuplestore.h"

#include "extension.h"
#include "run_store.h"

PG_FUNCTION_INFO_V1(kidx_runs_references_check);
PG_FUNCTION_INFO_V1(kidx_runs_references_guard);

/* A value a reference column of the new runs holds (the hash key). */
typedef struct RefValue
{
	char		bytes[KIDX_DIGEST_LEN]; /* int4 or kidx_digest */
} RefValue;

/* A table whose rows refer to others, and its reference columns. */
typedef struct Referrer
{
	const char *table;
	const RunColumnInfo *columns;
	int			ncolumns;
} Referrer;

/* The tables checked so: runs, and the comparability keys. */
static const Referrer referrers[] = {
	{"runs", run_column, RC_N},
	{"comparability_keys", key_column, KEY_NREFS},
};

/* The length of a reference column's values. */
static int
ref_len(const RunColumnInfo *ci)
{
	return ci->type == CT_DIGEST ? KIDX_DIGEST_LEN : sizeof(int32);
}

/* The values of a reference column, as a Datum array of its type. */
static Datum
ref_array(const RunColumnInfo *ci, HTAB *values, int n)
{
	Datum	   *elems = palloc(sizeof(Datum) * Max(n, 1));
	HASH_SEQ_STATUS seq;
	RefValue   *v;
	int			i = 0;

	hash_seq_init(&seq, values);
	while ((v = hash_seq_search(&seq)) != NULL)
	{
		if (ci->type == CT_DIGEST)
			elems[i++] = PointerGetDatum(v->bytes);
		else
		{
			int32		id;

			memcpy(&id, v->bytes, sizeof(id));
			elems[i++] = Int32GetDatum(id);
		}
	}
	if (ci->type == CT_DIGEST)
		return PointerGetDatum(construct_array(elems, n, kidx_digest_type(), KIDX_DIGEST_LEN,
											   false, TYPALIGN_CHAR));
	return PointerGetDatum(construct_array(elems, n, INT4OID, 4, true, TYPALIGN_INT));
}

/* A reference value as the error detail shows it. */
static char *
ref_shown(const RunColumnInfo *ci, const char *bytes)
{
	if (ci->type == CT_DIGEST)
	{
		char	   *text = palloc(KIDX_DIGEST_TEXT_LEN + 1);

		kidx_digest_to_cstring((const KidxDigest *) bytes, text);
		return text;
	}
	else
	{
		int32		id;

		memcpy(&id, bytes, sizeof(id));
		return psprintf("%d", id);
	}
}

/*
 * The relations that hold a table's rows on this server: the table itself,
 * or, in a trigger on a Citus shard or placement (a relation named
 * <table>_<shard id>), the table's shards placed on this server.  Citus
 * places every reference table on each server that holds shards, so what a
 * shard's runs name is read here; and each server's guards read the runs of
 * its own shards, so that together they read every run.  The caller is
 * connected to SPI; the names live until SPI_finish().
 */
static List *
local_relations(const char *table, bool on_shard)
{
	Oid			argtypes[1] = {TEXTOID};
	Datum		args[1];
	List	   *names = NIL;
	uint64		r;

	if (!on_shard)
		return list_make1(psprintf("kernelindex.%s", table));
	args[0] = CStringGetTextDatum(psprintf("kernelindex.%s", table));
	kidx_spi_execute_kept("SELECT pg_catalog.shard_name(s.logicalrelid, s.shardid)::pg_catalog.text"
						  " FROM pg_catalog.pg_dist_shard s"
						  " JOIN pg_catalog.pg_dist_placement p ON p.shardid OPERATOR(pg_catalog.=) s.shardid"
						  " WHERE s.logicalrelid OPERATOR(pg_catalog.=) $1::pg_catalog.regclass"
						  " AND p.groupid OPERATOR(pg_catalog.=)"
						  " (SELECT g.groupid FROM pg_catalog.pg_dist_local_group g)"
						  " ORDER BY s.shardid",
						  1, argtypes, args, NULL, true, 0);
	for (r = 0; r < SPI_processed; r++)
		names = lappend(names, SPI_getvalue(SPI_tuptable->vals[r], SPI_tuptable->tupdesc, 1));
	return names;
}

/* The one relation that holds a reference table's rows on this server. */
static const char *
local_relation(const char *table, bool on_shard)
{
	List	   *names = local_relations(table, on_shard);

	if (list_length(names) != 1)
		elog(ERROR, "kernelindex.%s has %d placements on this server, not one",
			 table, list_length(names));
	return linitial(names);
}

/* Is this trigger's relation a Citus shard of a table (<table>_<shard id>)? */
static bool
is_shard_of(Relation rel, const char *table)
{
	return strcmp(RelationGetRelationName(rel), table) != 0;
}

/*
 * Check that every value of a reference column of new rows of a table (runs
 * or comparability_keys) is there, and lock the rows FOR KEY SHARE until
 * this transaction ends: the check an RI trigger makes, once per value.
 */
static void
check_column(const char *referrer, const RunColumnInfo *ci, HTAB *values, int n,
			 const char *relation)
{
	Oid			argtypes[1] = {ci->type == CT_DIGEST ? kidx_digest_array_type() : INT4ARRAYOID};
	Datum		args[1];
	uint64		r;

	if (n == 0)
		return;
	args[0] = ref_array(ci, values, n);
	kidx_spi_execute(psprintf("SELECT t.%s FROM %s AS t"
							  " WHERE t.%s OPERATOR(%s.=) ANY ($1) ORDER BY t.%s FOR KEY SHARE",
							  ci->refers_column, relation, ci->refers_column,
							  ci->type == CT_DIGEST ? kidx_extension_schema() : "pg_catalog",
							  ci->refers_column),
					 1, argtypes, args, NULL, false, 0);
	if (SPI_processed == (uint64) n)
		return;

	/* Find a value that is not there, for the message. */
	for (r = 0; r < SPI_processed; r++)
	{
		bool		isnull;
		Datum		d = SPI_getbinval(SPI_tuptable->vals[r], SPI_tuptable->tupdesc, 1, &isnull);
		RefValue	key;

		memset(&key, 0, sizeof(key));
		if (ci->type == CT_DIGEST)
			memcpy(key.bytes, DatumGetPointer(d), KIDX_DIGEST_LEN);
		else
		{
			int32		id = DatumGetInt32(d);

			memcpy(key.bytes, &id, sizeof(id));
		}
		hash_search(values, &key, HASH_REMOVE, NULL);
	}
	{
		HASH_SEQ_STATUS seq;
		RefValue   *v;

		hash_seq_init(&seq, values);
		v = hash_seq_search(&seq);
		if (v == NULL)
			elog(ERROR, "kernelindex.%s returned a value the runs do not name", ci->refers_to);
		hash_seq_term(&seq);
		ereport(ERROR,
				(errcode(ERRCODE_FOREIGN_KEY_VIOLATION),
				 errmsg("insert or update on table \"%s\" violates the reference to table \"%s\"",
						referrer, ci->refers_to),
				 errdetail("Key (%s)=(%s) is not present in table \"%s\".",
						   ci->name, ref_shown(ci, v->bytes), ci->refers_to)));
	}
}

/* AFTER INSERT FOR EACH STATEMENT on kernelindex.runs. */
Datum
kidx_runs_references_check(PG_FUNCTION_ARGS)
{
	TriggerData *td = (TriggerData *) fcinfo->context;
	Relation	rel;
	TupleDesc	desc;
	AttrNumber	att[RC_N];
	HTAB	   *values[RC_N];
	int			n[RC_N];
	TupleTableSlot *slot;
	int			ptr;
	int			c;

	if (!CALLED_AS_TRIGGER(fcinfo) || !TRIGGER_FIRED_FOR_STATEMENT(td->tg_event) ||
		!TRIGGER_FIRED_AFTER(td->tg_event) || td->tg_newtable == NULL)
		elog(ERROR, "kidx_runs_references_check: not called as an AFTER statement trigger with a NEW TABLE");
	rel = td->tg_relation;
	desc = RelationGetDescr(rel);
	run_column_attnums(desc, att);
	for (c = 0; c < RC_N; c++)
	{
		HASHCTL		ctl;

		values[c] = NULL;
		n[c] = 0;
		if (run_column[c].refers_to == NULL)
			continue;
		ctl.keysize = sizeof(RefValue);
		ctl.entrysize = sizeof(RefValue);
		ctl.hcxt = CurrentMemoryContext;
		values[c] = hash_create("kernelindex references of new runs", 256, &ctl,
								HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
	}

	/* The distinct values each reference column of the new runs holds. */
	slot = MakeSingleTupleTableSlot(desc, &TTSOpsMinimalTuple);
	ptr = tuplestore_alloc_read_pointer(td->tg_newtable, EXEC_FLAG_REWIND);
	tuplestore_select_read_pointer(td->tg_newtable, ptr);
	tuplestore_rescan(td->tg_newtable);
	while (tuplestore_gettupleslot(td->tg_newtable, true, false, slot))
	{
		CHECK_FOR_INTERRUPTS();
		slot_getallattrs(slot);
		for (c = 0; c < RC_N; c++)
		{
			RefValue	key;
			bool		found;
			int			i = att[c] - 1;

			if (values[c] == NULL || slot->tts_isnull[i])
				continue;
			memset(&key, 0, sizeof(key));
			if (run_column[c].type == CT_DIGEST)
				memcpy(key.bytes, DatumGetPointer(slot->tts_values[i]), ref_len(&run_column[c]));
			else
			{
				int32		id = DatumGetInt32(slot->tts_values[i]);

				memcpy(key.bytes, &id, sizeof(id));
			}
			hash_search(values[c], &key, HASH_ENTER, &found);
			if (!found)
				n[c]++;
		}
	}
	ExecDropSingleTupleTableSlot(slot);

	kidx_spi_connect();
	for (c = 0; c < RC_N; c++)
		if (values[c] != NULL)
			check_column("runs", &run_column[c], values[c], n[c],
						 local_relation(run_column[c].refers_to, is_shard_of(rel, "runs")));
	SPI_finish();
	return PointerGetDatum(NULL);
}

/* The check of new comparability keys' resources; see run_store.h. */
void
keys_references_check(int32 *const ids[KEY_NREFS], const int n[KEY_NREFS])
{
	int			c;

	for (c = 0; c < KEY_NREFS; c++)
	{
		HASHCTL		ctl;
		HTAB	   *values;
		int			distinct = 0;
		int			i;

		ctl.keysize = sizeof(RefValue);
		ctl.entrysize = sizeof(RefValue);
		ctl.hcxt = CurrentMemoryContext;
		values = hash_create("kernelindex references of new keys", 256, &ctl,
							 HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
		for (i = 0; i < n[c]; i++)
		{
			RefValue	key;
			bool		found;

			memset(&key, 0, sizeof(key));
			memcpy(key.bytes, &ids[c][i], sizeof(int32));
			hash_search(values, &key, HASH_ENTER, &found);
			if (!found)
				distinct++;
		}
		check_column("comparability_keys", &key_column[c], values, distinct,
					 local_relation(key_column[c].refers_to, false));
		hash_destroy(values);
	}
}

/* Is this table one of the dictionaries? */
static bool
is_dictionary(const char *table)
{
	int			k;

	for (k = 0; k < DK_N; k++)
		if (strcmp(dict_table[k], table) == 0)
			return true;
	return false;
}

/*
 * Is any row of a referrer (runs, comparability_keys) there that names one
 * of the values (NULL: any value) of a table's key, through any of its
 * reference columns?  Read with the latest snapshot, as RI's check on
 * delete does, in the referrer's relations on this server (on_shard:
 * local_relations()).  The column found in *col, the value shown in *shown.
 */
static bool
rows_use(const Referrer *referrer, const char *table, bool on_shard, Datum values,
		 Oid array_type, const RunColumnInfo **col, char **shown)
{
	List	   *relations = local_relations(referrer->table, on_shard);
	ListCell   *lc;
	Oid			argtypes[1] = {array_type};
	Datum		args[1] = {values};
	bool		found = false;

	foreach(lc, relations)
	{
		const char *relation = lfirst(lc);
		int			c;

		for (c = 0; c < referrer->ncolumns && !found; c++)
		{
			const RunColumnInfo *ci = &referrer->columns[c];
			StringInfoData sql;
			SPIPlanPtr	plan;

			if (ci->refers_to == NULL || strcmp(ci->refers_to, table) != 0)
				continue;
			initStringInfo(&sql);
			if (values != (Datum) 0)
				appendStringInfo(&sql, "SELECT r.%s::pg_catalog.text FROM %s AS r"
								 " WHERE r.%s OPERATOR(%s.=) ANY ($1) LIMIT 1",
								 ci->name, relation, ci->name,
								 ci->type == CT_DIGEST ? kidx_extension_schema() : "pg_catalog");
			else
				appendStringInfo(&sql, "SELECT r.%s::pg_catalog.text FROM %s AS r"
								 " WHERE r.%s IS NOT NULL LIMIT 1",
								 ci->name, relation, ci->name);
			plan = kidx_kept_plan(sql.data, values != (Datum) 0 ? 1 : 0, argtypes);
			if (SPI_execute_snapshot(plan, args, NULL, GetLatestSnapshot(), InvalidSnapshot,
									 true, false, 1) != SPI_OK_SELECT)
				elog(ERROR, "could not look for rows of kernelindex.%s that name rows of kernelindex.%s",
					 referrer->table, table);
			found = SPI_processed > 0;
			*col = ci;
			if (found)
				*shown = SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1);
			pfree(sql.data);
		}
		if (found)
			break;
	}
	return found;
}

/*
 * A reference of runs or of comparability keys to a relation: to that
 * table, or on Citus to the table a shard (named <table>_<shard id>) is of;
 * NULL if none.  Its referrer in *referrer.
 */
static const RunColumnInfo *
referenced_by(const char *relname, const Referrer **referrer)
{
	int			r;
	int			c;

	for (r = 0; r < lengthof(referrers); r++)
		for (c = 0; c < referrers[r].ncolumns; c++)
		{
			const char *t = referrers[r].columns[c].refers_to;
			size_t		len = t != NULL ? strlen(t) : 0;
			const char *rest = relname + len;

			if (t != NULL && strncmp(relname, t, len) == 0 &&
				(*rest == '\0' ||
				 (rest[0] == '_' && rest[1] != '\0' &&
				  strspn(rest + 1, "0123456789") == strlen(rest + 1))))
			{
				*referrer = &referrers[r];
				return &referrers[r].columns[c];
			}
		}
	return NULL;
}

/* Triggers of the tables runs refer to (see the file header). */
Datum
kidx_runs_references_guard(PG_FUNCTION_ARGS)
{
	TriggerData *td = (TriggerData *) fcinfo->context;
	Relation	rel;
	const RunColumnInfo *ref;
	const Referrer *referrer = NULL;
	const char *table;
	const char *key;
	AttrNumber	att;
	const RunColumnInfo *col;
	char	   *shown = NULL;
	bool		on_shard;

	if (!CALLED_AS_TRIGGER(fcinfo))
		elog(ERROR, "kidx_runs_references_guard: not called as a trigger");
	rel = td->tg_relation;
	ref = referenced_by(RelationGetRelationName(rel), &referrer);
	if (ref == NULL)
		elog(ERROR, "kidx_runs_references_guard: neither runs nor comparability keys refer to \"%s\"",
			 RelationGetRelationName(rel));
	table = ref->refers_to;
	key = ref->refers_column;
	att = attnameAttNum(rel, key, false);
	on_shard = is_shard_of(rel, table);

	if (TRIGGER_FIRED_BY_UPDATE(td->tg_event))
	{
		/* (what identifies a key or a resource: identity_guard) */
		if (!is_dictionary(table))
			elog(ERROR, "kidx_runs_references_guard: an update trigger on \"%s\"", table);
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("a value of the dictionary kernelindex.%s cannot be changed", table),
				 errdetail("Runs refer to it; their documents and digests would no longer match."),
				 errhint("Ingest runs with the new values instead.")));
	}

	/*
	 * On Citus a TRUNCATE of a Citus table is checked on its placements,
	 * where it is propagated: the coordinator's table is a shell, which
	 * distribute() empties of its local rows (truncate_local_data_after_
	 * distributing_table) while runs may still hold theirs.
	 */
	if (TRIGGER_FIRED_BY_TRUNCATE(td->tg_event) && !on_shard && kidx_distributed(table))
		return PointerGetDatum(NULL);

	kidx_spi_connect();
	if (TRIGGER_FIRED_BY_TRUNCATE(td->tg_event))
	{
		if (rows_use(referrer, table, on_shard, (Datum) 0, InvalidOid, &col, &shown))
			ereport(ERROR,
					(errcode(ERRCODE_FOREIGN_KEY_VIOLATION),
					 errmsg("cannot truncate table \"%s\": %s refer to its rows", table,
							referrer == &referrers[0] ? "runs" : "comparability keys"),
					 errhint("Truncate kernelindex.%s in the same command, named first (as Citus needs it): TRUNCATE kernelindex.%s, kernelindex.%s.",
							 referrer->table, referrer->table, table)));
	}
	else if (TRIGGER_FIRED_BY_DELETE(td->tg_event) && td->tg_oldtable != NULL)
	{
		Form_pg_attribute a = TupleDescAttr(RelationGetDescr(rel), att - 1);
		TupleTableSlot *slot = MakeSingleTupleTableSlot(RelationGetDescr(rel), &TTSOpsMinimalTuple);
		int			ptr = tuplestore_alloc_read_pointer(td->tg_oldtable, EXEC_FLAG_REWIND);
		int64		total = tuplestore_tuple_count(td->tg_oldtable);
		Datum	   *vals = palloc(sizeof(Datum) * Max(total, 1));
		int			n = 0;

		tuplestore_select_read_pointer(td->tg_oldtable, ptr);
		tuplestore_rescan(td->tg_oldtable);
		while (tuplestore_gettupleslot(td->tg_oldtable, true, false, slot))
		{
			bool		isnull;
			Datum		d = slot_getattr(slot, att, &isnull);

			if (!isnull)
				vals[n++] = datumCopy(d, a->attbyval, a->attlen);
		}
		ExecDropSingleTupleTableSlot(slot);
		if (n > 0 &&
			rows_use(referrer, table, on_shard,
					 PointerGetDatum(construct_array(vals, n, a->atttypid, a->attlen,
													 a->attbyval, a->attalign)),
					 get_array_type(a->atttypid), &col, &shown))
			ereport(ERROR,
					(errcode(ERRCODE_FOREIGN_KEY_VIOLATION),
					 errmsg("update or delete on table \"%s\" violates the reference from table \"%s\"",
							table, referrer->table),
					 errdetail("Key (%s)=(%s) is still referenced from table \"%s\" (column %s).",
							   key, shown, referrer->table, col->name)));
	}
	SPI_finish();
	return PointerGetDatum(NULL);
}

PG_FUNCTION_INFO_V1(kidx_workloads_label_guard);

/* A column of a trigger's old row as text (NULL: NULL). */
static char *
old_column_text(TriggerData *td, const char *column)
{
	TupleDesc	desc = RelationGetDescr(td->tg_relation);
	AttrNumber	att = attnameAttNum(td->tg_relation, column, false);
	bool		isnull;
	Datum		d = heap_getattr(td->tg_trigtuple, att, desc, &isnull);
	Oid			out;
	bool		varlena;

	if (isnull)
		return NULL;
	getTypeOutputInfo(TupleDescAttr(desc, att - 1)->atttypid, &out, &varlena);
	return OidOutputFunctionCall(out, d);
}

/*
 * kernelindex_internal.workloads_label_guard(), BEFORE UPDATE FOR EACH ROW on
 * workloads, WHEN the label of a stored document would change: refuse.
 * Runs whose externalId is made of their workload's label (RIF_LABELLED)
 * rebuild it from the stored document.
 */
Datum
kidx_workloads_label_guard(PG_FUNCTION_ARGS)
{
	TriggerData *td = (TriggerData *) fcinfo->context;
	char	   *label;
	StringInfoData shown;

	if (!CALLED_AS_TRIGGER(fcinfo) || !TRIGGER_FIRED_BY_UPDATE(td->tg_event) ||
		!TRIGGER_FIRED_FOR_ROW(td->tg_event))
		elog(ERROR, "kidx_workloads_label_guard: not called as a row update trigger");
	label = old_column_text(td, "label");
	if (label == NULL)
		elog(ERROR, "kidx_workloads_label_guard: the workload has no label");
	initStringInfo(&shown);
	escape_json(&shown, label);
	ereport(ERROR,
			(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
			 errmsg("the label of workload %s cannot change", old_column_text(td, "digest")),
			 errdetail("Its label is %s; the externalIds of its runs are made of it.", shown.data),
			 errhint("Other metadata of a stored workload may change; its label is fixed once it has one.")));
	return PointerGetDatum(NULL);
}

PG_FUNCTION_INFO_V1(kidx_identity_guard);

/*
 * kernelindex_internal.identity_guard(column, ...), BEFORE UPDATE FOR EACH ROW on
 * runs, comparability_keys and the resource tables: the columns named (no
 * argument: every column) never change.  A run is its document, whose
 * digest it carries; a comparability key is its three resources; a
 * resource is its digest and id.  Runs refer to keys and resources, and
 * their documents carry the digests.
 */
Datum
kidx_identity_guard(PG_FUNCTION_ARGS)
{
	TriggerData *td = (TriggerData *) fcinfo->context;
	Relation	rel;
	TupleDesc	desc;
	int			i;

	if (!CALLED_AS_TRIGGER(fcinfo) || !TRIGGER_FIRED_BY_UPDATE(td->tg_event) ||
		!TRIGGER_FIRED_FOR_ROW(td->tg_event))
		elog(ERROR, "kidx_identity_guard: not called as a row update trigger");
	rel = td->tg_relation;
	desc = RelationGetDescr(rel);
	for (i = 0; i < (td->tg_trigger->tgnargs > 0 ? td->tg_trigger->tgnargs : desc->natts); i++)
	{
		Form_pg_attribute a;
		const char *column;
		AttrNumber	att;
		bool		null_old,
					null_new;
		Datum		old,
					new;

		if (td->tg_trigger->tgnargs > 0)
		{
			column = td->tg_trigger->tgargs[i];
			att = attnameAttNum(rel, column, false);
		}
		else
		{
			if (TupleDescAttr(desc, i)->attisdropped)
				continue;
			column = NameStr(TupleDescAttr(desc, i)->attname);
			att = i + 1;
		}
		a = TupleDescAttr(desc, att - 1);
		old = heap_getattr(td->tg_trigtuple, att, desc, &null_old);
		new = heap_getattr(td->tg_newtuple, att, desc, &null_new);
		if (null_old == null_new &&
			(null_old || datumIsEqual(old, new, a->attbyval, a->attlen)))
			continue;
		if (td->tg_trigger->tgnargs == 0)
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("the %s of a row of kernelindex.%s cannot be changed",
							column, RelationGetRelationName(rel)),
					 errdetail("A stored run is the document its digest is the digest of."),
					 errhint("Ingest the changed run as a new run.")));
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("the %s of a row of kernelindex.%s cannot be changed",
						column, RelationGetRelationName(rel)),
				 errdetail("It is part of what the row is: runs refer to it, and their documents carry its digests."),
				 errhint("Store a new row instead.")));
	}
	return PointerGetDatum(td->tg_newtuple);
}
