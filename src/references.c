/*-------------------------------------------------------------------------
 *
 * references.c
 *	  runs.series_id, checked per statement as strongly as a foreign key.
 *
 * A row-level foreign key checks each inserted run on its own (about 3 us
 * a run); these triggers check a statement's runs at once and keep the
 * promise of PostgreSQL's RI triggers (src/backend/utils/adt/ri_triggers.c):
 *
 * - kernelindex.runs_references_check(), AFTER INSERT or UPDATE FOR EACH
 *	 STATEMENT on runs: every series the new rows name exists and has their
 *	 comparability key, and is locked FOR KEY SHARE until they commit, by
 *	 the query an RI check runs (with the snapshot it runs with: a fresh one
 *	 under READ COMMITTED, the transaction's otherwise, where locking a row
 *	 deleted since is a serialization failure).  A concurrent delete of the
 *	 series waits for the lock, or the lock for the delete.
 * - kernelindex.run_series_guard(), AFTER DELETE FOR EACH STATEMENT and
 *	 AFTER TRUNCATE on run_series: no run names a series that is gone, read
 *	 with the latest snapshot (as RI's check on delete does), so that runs
 *	 committed by others after this transaction began are seen; BEFORE
 *	 UPDATE FOR EACH ROW: series are never changed.
 *
 * test/t/030_references.pl races loads against deletes under READ
 * COMMITTED, REPEATABLE READ and SERIALIZABLE.
 *
 * On Citus (kernelindex.distribute()) runs live in shards, where neither
 * trigger can run: distribute() drops them, but run_series_update, and
 * declares the foreign key (series_id, comparability_key) -> run_series (id,
 * comparability_key) instead, checked on every shard against its server's
 * copy of run_series (test/t/060_citus.pl).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "commands/trigger.h"
#include "executor/executor.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "parser/parse_relation.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/hsearch.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"
#include "utils/tuplestore.h"

#include "digest.h"
#include "ingest.h"

PG_FUNCTION_INFO_V1(kidx_runs_references_check);
PG_FUNCTION_INFO_V1(kidx_run_series_guard);

/* A series the new runs name, and the comparability key they give it. */
typedef struct SeriesRef
{
	int32		id;
	KidxDigest	key;
} SeriesRef;

/* Collect the distinct series of a transition table, checking their keys. */
static HTAB *
collect_series(Tuplestorestate *rows, TupleDesc desc, AttrNumber id_att,
			   AttrNumber key_att, int *n)
{
	HASHCTL		ctl;
	HTAB	   *refs;
	TupleTableSlot *slot = MakeSingleTupleTableSlot(desc, &TTSOpsMinimalTuple);
	int			ptr = tuplestore_alloc_read_pointer(rows, EXEC_FLAG_REWIND);

	ctl.keysize = sizeof(int32);
	ctl.entrysize = sizeof(SeriesRef);
	ctl.hcxt = CurrentMemoryContext;
	refs = hash_create("kernelindex series of new runs", 256, &ctl,
					   HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
	*n = 0;
	tuplestore_select_read_pointer(rows, ptr);
	tuplestore_rescan(rows);
	while (tuplestore_gettupleslot(rows, true, false, slot))
	{
		bool		isnull;
		bool		found;
		int32		id = DatumGetInt32(slot_getattr(slot, id_att, &isnull));
		KidxDigest *key = (KidxDigest *) DatumGetPointer(slot_getattr(slot, key_att, &isnull));
		SeriesRef  *r;

		CHECK_FOR_INTERRUPTS();
		r = hash_search(refs, &id, HASH_ENTER, &found);
		if (!found)
		{
			r->key = *key;
			(*n)++;
		}
		else if (memcmp(&r->key, key, sizeof(KidxDigest)) != 0)
		{
			char		a[KIDX_DIGEST_TEXT_LEN + 1];
			char		b[KIDX_DIGEST_TEXT_LEN + 1];

			kidx_digest_to_cstring(&r->key, a);
			kidx_digest_to_cstring(key, b);
			ereport(ERROR,
					(errcode(ERRCODE_FOREIGN_KEY_VIOLATION),
					 errmsg("runs of series %d have two comparability keys", id),
					 errdetail("Keys %s and %s.", a, b)));
		}
	}
	ExecDropSingleTupleTableSlot(slot);
	return refs;
}

/*
 * Check that the series ids[0..n) exist with the comparability keys
 * keys[0..n), and lock them FOR KEY SHARE until this transaction ends: the
 * check an RI trigger makes, once per series.
 */
void
references_check_series(int n, const int32 *ids, const KidxDigest *keys)
{
	Datum	   *elems = palloc(sizeof(Datum) * Max(n, 1));
	bool	   *found = palloc0(sizeof(bool) * Max(n, 1));
	Oid			argtypes[1] = {INT4ARRAYOID};
	Datum		args[1];
	uint64		k;
	int			i;

	if (n == 0)
		return;
	for (i = 0; i < n; i++)
		elems[i] = Int32GetDatum(ids[i]);
	args[0] = PointerGetDatum(construct_array(elems, n, INT4OID, 4, true, TYPALIGN_INT));
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	ingest_spi("SELECT s.id, s.comparability_key FROM kernelindex.run_series AS s"
			   " WHERE s.id OPERATOR(pg_catalog.=) ANY ($1) ORDER BY s.id FOR KEY SHARE",
			   1, argtypes, args, NULL, false, 0);
	for (k = 0; k < SPI_processed; k++)
	{
		bool		isnull;
		int32		id = DatumGetInt32(SPI_getbinval(SPI_tuptable->vals[k], SPI_tuptable->tupdesc, 1, &isnull));
		KidxDigest *key = (KidxDigest *) DatumGetPointer(SPI_getbinval(SPI_tuptable->vals[k],
																	   SPI_tuptable->tupdesc, 2, &isnull));

		for (i = 0; i < n; i++)
		{
			char		a[KIDX_DIGEST_TEXT_LEN + 1];
			char		b[KIDX_DIGEST_TEXT_LEN + 1];

			if (ids[i] != id)
				continue;
			found[i] = true;
			if (memcmp(&keys[i], key, sizeof(KidxDigest)) == 0)
				continue;
			kidx_digest_to_cstring(&keys[i], a);
			kidx_digest_to_cstring(key, b);
			ereport(ERROR,
					(errcode(ERRCODE_FOREIGN_KEY_VIOLATION),
					 errmsg("insert or update on table \"runs\" violates the reference to table \"run_series\""),
					 errdetail("Runs of series %d have comparability key %s, the series has %s.",
							   id, a, b)));
		}
	}
	SPI_finish();
	for (i = 0; i < n; i++)
		if (!found[i])
			ereport(ERROR,
					(errcode(ERRCODE_FOREIGN_KEY_VIOLATION),
					 errmsg("insert or update on table \"runs\" violates the reference to table \"run_series\""),
					 errdetail("Key (series_id)=(%d) is not present in table \"run_series\".", ids[i])));
}

/* AFTER INSERT or UPDATE FOR EACH STATEMENT on kernelindex.runs. */
Datum
kidx_runs_references_check(PG_FUNCTION_ARGS)
{
	TriggerData *td = (TriggerData *) fcinfo->context;
	Relation	rel;
	HTAB	   *refs;
	HASH_SEQ_STATUS seq;
	SeriesRef  *r;
	int32	   *ids;
	KidxDigest *keys;
	int			n;
	int			i = 0;

	if (!CALLED_AS_TRIGGER(fcinfo) || !TRIGGER_FIRED_FOR_STATEMENT(td->tg_event) ||
		!TRIGGER_FIRED_AFTER(td->tg_event) || td->tg_newtable == NULL)
		elog(ERROR, "kidx_runs_references_check: not called as an AFTER statement trigger with a NEW TABLE");
	rel = td->tg_relation;
	refs = collect_series(td->tg_newtable, RelationGetDescr(rel),
						  attnameAttNum(rel, "series_id", false),
						  attnameAttNum(rel, "comparability_key", false), &n);
	ids = palloc(sizeof(int32) * Max(n, 1));
	keys = palloc(sizeof(KidxDigest) * Max(n, 1));
	hash_seq_init(&seq, refs);
	while ((r = hash_seq_search(&seq)) != NULL)
	{
		ids[i] = r->id;
		keys[i++] = r->key;
	}
	references_check_series(n, ids, keys);
	return PointerGetDatum(NULL);
}

/* Refuse to lose a series a run uses; the run found names it. */
static void
series_still_used(int32 id)
{
	ereport(ERROR,
			(errcode(ERRCODE_FOREIGN_KEY_VIOLATION),
			 errmsg("update or delete on table \"run_series\" violates the reference from table \"runs\""),
			 errdetail("Key (id)=(%d) is still referenced from table \"runs\".", id)));
}

/* Is any run there, of the series in ids (NULL: of any)?  Latest snapshot. */
static bool
runs_use(Datum ids, int32 *id)
{
	SPIPlanPtr	plan;
	Oid			argtypes[1] = {INT4ARRAYOID};
	Datum		args[1] = {ids};
	bool		found;

	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	plan = SPI_prepare(ids != (Datum) 0 ?
					   "SELECT r.series_id FROM kernelindex.runs AS r"
					   " WHERE r.series_id OPERATOR(pg_catalog.=) ANY ($1) LIMIT 1" :
					   "SELECT r.series_id FROM kernelindex.runs AS r LIMIT 1",
					   ids != (Datum) 0 ? 1 : 0, argtypes);
	if (plan == NULL)
		elog(ERROR, "SPI_prepare failed: %s", SPI_result_code_string(SPI_result));
	if (SPI_execute_snapshot(plan, args, NULL, GetLatestSnapshot(), InvalidSnapshot,
							 false, false, 1) != SPI_OK_SELECT)
		elog(ERROR, "could not look for runs of deleted series");
	found = SPI_processed > 0;
	if (found)
	{
		bool		isnull;

		*id = DatumGetInt32(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull));
	}
	SPI_finish();
	return found;
}

/* Triggers of kernelindex.run_series (see the file header). */
Datum
kidx_run_series_guard(PG_FUNCTION_ARGS)
{
	TriggerData *td = (TriggerData *) fcinfo->context;
	int32		id;

	if (!CALLED_AS_TRIGGER(fcinfo))
		elog(ERROR, "kidx_run_series_guard: not called as a trigger");
	if (TRIGGER_FIRED_BY_UPDATE(td->tg_event))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("a run series cannot be changed"),
				 errdetail("What runs share is part of their identity; their digests would no longer match."),
				 errhint("Ingest runs with the new values instead.")));
	if (TRIGGER_FIRED_BY_TRUNCATE(td->tg_event))
	{
		if (runs_use((Datum) 0, &id))
			ereport(ERROR,
					(errcode(ERRCODE_FOREIGN_KEY_VIOLATION),
					 errmsg("cannot truncate table \"run_series\": runs use its rows"),
					 errhint("Truncate kernelindex.runs in the same command.")));
		return PointerGetDatum(NULL);
	}
	if (TRIGGER_FIRED_BY_DELETE(td->tg_event) && td->tg_oldtable != NULL)
	{
		Relation	rel = td->tg_relation;
		TupleTableSlot *slot = MakeSingleTupleTableSlot(RelationGetDescr(rel), &TTSOpsMinimalTuple);
		AttrNumber	att = attnameAttNum(rel, "id", false);
		int			ptr = tuplestore_alloc_read_pointer(td->tg_oldtable, EXEC_FLAG_REWIND);
		Datum	   *ids = palloc(sizeof(Datum) * Max(tuplestore_tuple_count(td->tg_oldtable), 1));
		int			n = 0;

		tuplestore_select_read_pointer(td->tg_oldtable, ptr);
		tuplestore_rescan(td->tg_oldtable);
		while (tuplestore_gettupleslot(td->tg_oldtable, true, false, slot))
		{
			bool		isnull;

			ids[n++] = slot_getattr(slot, att, &isnull);
		}
		ExecDropSingleTupleTableSlot(slot);
		if (n > 0 &&
			runs_use(PointerGetDatum(construct_array(ids, n, INT4OID, 4, true, TYPALIGN_INT)), &id))
			series_still_used(id);
		return PointerGetDatum(NULL);
	}
	elog(ERROR, "kidx_run_series_guard: unexpected trigger event");
	return PointerGetDatum(NULL);
}
