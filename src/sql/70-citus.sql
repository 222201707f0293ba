/* ---------------------------------------------------------------------
 * 8. Scale-out on Citus (doc/citus.md)
 *
 *   CREATE EXTENSION citus;          -- on the coordinator and every worker
 *   SELECT citus_add_node(...);      -- each worker, on the coordinator
 *   CREATE EXTENSION kernelindex;    -- on the coordinator (Citus creates
 *                                    -- it on the workers)
 *   SELECT kernelindex.distribute();
 *
 * kernelindex.distribute() spreads kernelindex.runs over the workers by
 * comparability key (so that every comparison, speedup and release change
 * stays within one shard) and makes every other table a reference table
 * (a whole copy on every server).  What it changes, and why:
 *
 * - The foreign keys between the tables made reference tables are dropped,
 *   the tables made reference tables, and the keys declared again, named
 *   <name>_citus: Citus refuses to make one table of a chain of foreign keys
 *   between local tables a reference table, and the workers' copies of the
 *   tables (which CREATE EXTENSION made there) keep the original names.
 *   What a comparability key refers to (its protocol, workload and
 *   environment), checked by the batch writer on one server, is declared
 *   so too (comparability_keys_<column>_fkey_citus), and the guards of
 *   deletes and truncates of those tables dropped, as for runs below.
 * - What runs refer to (kernelindex_internal.run_references(): their comparability
 *   key, implementation and dictionary values) is checked per statement on
 *   Citus as on one server, by the same triggers, which Citus creates on
 *   every shard and placement (citus.enable_unsafe_triggers, set while
 *   distribute() runs): runs_references_insert on each shard of runs reads
 *   and locks the rows its new runs name in its server's placements of the
 *   reference tables, and the guards of deletes and truncates on each
 *   placement of a table runs name read the runs of the shards on that
 *   server (references.c), so that the guards of all servers together read
 *   every run.  Declared foreign keys would check each run row by row (66%
 *   of a worker's time in a load, doc/citus.md).  The guards of updates (a
 *   dictionary value, a key's or a resource's identity and a stored run
 *   never change; they read nothing) stay, on every copy.
 * - The view that rebuilds documents (run_bundles, which documents reads)
 *   and run_document()/run_bundle(), whose C function Citus would push down
 *   to the shards, take their Citus forms, defined below as objects of
 *   their own: run_bundles_citus (the runs' rows, joined on the shards
 *   to what they refer to by run_refs, the view run_bundles reads too,
 *   brought to the coordinator, which rebuilds the documents there) and
 *   run_bundle_citus() (the same for one digest, bound in PL/pgSQL so that
 *   Citus plans it).
 *   Both forms exist on every server, so that the regress suite
 *   citus_forms compares them row for row where Citus is not installed.
 *   Every BI view runs as written.
 *
 * - Runs get two shards per worker (a worker that holds shards), or
 *   citus.shard_count where the DBA has set it (SET, ALTER DATABASE,
 *   postgresql.conf): every query of a BI view is one task per shard, and
 *   a task costs its fixed few milliseconds however few runs it reads.
 *   Measured with test/bench/citus.sh on a coordinator and two workers
 *   (doc/citus.md, "Shards"): on 200,000 runs the dashboard query was 11.6x
 *   one server with Citus' default of 32 shards and 2.1x with 4, and a full
 *   read of speedups 1.16x and 0.89x; on 3,000 runs the dashboard was 48.9x
 *   with 32, 4.9x with 4.  More shards help only a cluster with more cores
 *   per worker than this; rebalancing moves whole shards.
 *
 * Everything happens in one transaction, and again on a second call only
 * where something is still to do.
 * --------------------------------------------------------------------- */

CREATE FUNCTION kernelindex_internal.run_references()
RETURNS TABLE (column_name text, table_name text, key_column text)
AS 'MODULE_PATHNAME', 'kidx_run_references'
LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION kernelindex_internal.run_references() IS
'each reference column of kernelindex.runs, the table it names a row of and that table''s key, as the C code holds them (what the reference triggers check, on one server and on the shards of a Citus cluster)';

CREATE FUNCTION kernelindex_internal.pending_runs()
RETURNS SETOF kernelindex.runs
AS 'MODULE_PATHNAME', 'kidx_pending_runs'
LANGUAGE C VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION kernelindex_internal.pending_runs() IS
'the runs a load of this session is writing to kernelindex.runs on Citus, while its INSERT runs (no rows at any other time): the INSERT reads them from here rather than from an array parameter, which Citus would turn into text and back';

/* The Citus forms of the views and functions that rebuild documents ----- */

CREATE VIEW kernelindex_internal.run_bundles_citus AS
WITH b AS MATERIALIZED (SELECT * FROM kernelindex_internal.run_refs)
SELECT b.digest::text AS digest,
	kernelindex_internal.run_bundle_of(b.r, b.protocol, b.workload, b.environment, b.implementation,
		b.workload_label, b.name, b.external_id, false) AS document,
	kernelindex_internal.run_bundle_of(b.r, b.protocol, b.workload, b.environment, b.implementation,
		b.workload_label, b.name, b.external_id, true) AS bundle
FROM b;
COMMENT ON VIEW kernelindex_internal.run_bundles_citus IS
'the form kernelindex.distribute() gives kernelindex.run_bundles on Citus (the same columns and rows): the runs'' rows with what they refer to (kernelindex_internal.run_refs, joined on the shards) are brought to the coordinator (a materialized CTE), which rebuilds the documents';
COMMENT ON COLUMN kernelindex_internal.run_bundles_citus.digest IS 'the run''s digest, sha256:<hex>';
COMMENT ON COLUMN kernelindex_internal.run_bundles_citus.document IS 'the bundle {run, protocol, environment}, in the form of the reference records';
COMMENT ON COLUMN kernelindex_internal.run_bundles_citus.bundle IS 'the same with the workload and implementation documents where they are known';

/*
 * PL/pgSQL, so that Citus plans the look-up with the digest bound (it
 * cannot plan a SQL function's query over a distributed table with its
 * parameter); the run's row with what it refers to comes to the
 * coordinator, as in run_bundles_citus.
 */
CREATE FUNCTION kernelindex_internal.run_bundle_citus(run @extschema@.kidx_digest, whole boolean)
RETURNS jsonb
LANGUAGE plpgsql STABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $body$
BEGIN
	RETURN (WITH b AS MATERIALIZED (
		SELECT * FROM kernelindex_internal.run_refs b
		WHERE b.digest OPERATOR(@extschema@.=) run_bundle_citus.run)
	SELECT kernelindex_internal.run_bundle_of(b.r, b.protocol, b.workload, b.environment,
		b.implementation, b.workload_label, b.name, b.external_id, run_bundle_citus.whole)
	FROM b);
END
$body$;
COMMENT ON FUNCTION kernelindex_internal.run_bundle_citus(@extschema@.kidx_digest, boolean) IS
'the form kernelindex.distribute() gives run_document(run) (whole false) and run_bundle(run) (whole true) on Citus: the same documents, the run''s row with what it refers to (run_refs) brought to the coordinator, which rebuilds them; NULL if no such run';

CREATE FUNCTION kernelindex.distribute()
RETURNS void
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
SET client_min_messages = warning
AS $distribute$
DECLARE
	runs_shards integer;
	reference_tables CONSTANT text[] := ARRAY[
		'protocols', 'environments', 'workloads', 'implementations', 'comparability_keys',
		'run_titles', 'run_statuses', 'run_sources', 'run_benchmarks', 'run_strings',
		'run_labels', 'run_templates',
		'gpus', 'kernels', 'providers', 'liger_passes', 'harnesses', 'rejected_rows'];
	-- the tables runs refer to, by which column (as the C code holds them)
	referenced CONSTANT text[] := ARRAY(
		SELECT x.column_name OPERATOR(pg_catalog.||) ':' OPERATOR(pg_catalog.||) x.table_name
			OPERATOR(pg_catalog.||) ':' OPERATOR(pg_catalog.||) x.key_column
		FROM kernelindex_internal.run_references() x);
	-- what comparability keys refer to (on one server the batch writer checks it)
	key_references CONSTANT text[] := ARRAY[
		'protocol_id:protocols:id', 'workload_id:workloads:id', 'environment_id:environments:id'];
	r text;
	t text;
	fk record;
	fks text[] := '{}';
	unsafe_triggers text;
	strangers text;
BEGIN
	IF NOT EXISTS (SELECT FROM pg_catalog.pg_extension e WHERE e.extname OPERATOR(pg_catalog.=) 'citus') THEN
		RAISE EXCEPTION 'kernelindex.distribute() needs the Citus extension, which is not installed in database "%"',
			pg_catalog.current_database()
			USING ERRCODE = 'object_not_in_prerequisite_state',
			DETAIL = 'Without Citus every kernelindex table stays on this server; nothing was changed.',
			HINT = 'Install Citus from its own packages (https://docs.citusdata.com, "Installing Citus"), '
				'set shared_preload_libraries = ''citus'' on the coordinator and every worker and restart them, '
				'run CREATE EXTENSION citus on each, add the workers with citus_add_node() on the coordinator, '
				'then call kernelindex.distribute() there.';
	END IF;
	IF NOT pg_catalog.citus_is_coordinator() THEN
		RAISE EXCEPTION 'kernelindex.distribute() must run on the Citus coordinator'
			USING ERRCODE = 'object_not_in_prerequisite_state',
			HINT = 'Connect to the coordinator and call it there.';
	END IF;

	FOREACH t IN ARRAY reference_tables || '{runs}'::text[] LOOP
		IF EXISTS (SELECT FROM pg_catalog.pg_dist_partition p
				   WHERE p.logicalrelid OPERATOR(pg_catalog.=) pg_catalog.format('kernelindex.%I', t)::regclass
					 AND NOT (CASE WHEN t OPERATOR(pg_catalog.=) 'runs'
						 THEN p.partmethod OPERATOR(pg_catalog.=) 'h'
							AND pg_catalog.column_to_column_name(p.logicalrelid, p.partkey) OPERATOR(pg_catalog.=) 'comparability_key'
						 ELSE p.partmethod OPERATOR(pg_catalog.=) 'n' AND p.repmodel OPERATOR(pg_catalog.=) 't' END)) THEN
			RAISE EXCEPTION 'kernelindex.% is already a Citus table, of another kind than kernelindex.distribute() makes', t
				USING ERRCODE = 'object_not_in_prerequisite_state',
				HINT = CASE WHEN t OPERATOR(pg_catalog.=) 'runs'
					THEN 'kernelindex.runs must be distributed by comparability_key; undistribute it with undistribute_table() first.'
					ELSE 'It must be a reference table; undistribute it with undistribute_table() first.' END;
		END IF;
	END LOOP;

	/*
	 * Step 5 replaces views and functions with the Citus forms: the
	 * extension's own only, both (so that they stay members of it, and
	 * nothing else of those names is taken over or copied).
	 */
	SELECT pg_catalog.string_agg(o.name, ', ') INTO strangers
	FROM pg_catalog.unnest(ARRAY[
		'pg_class:kernelindex.run_bundles', 'pg_class:kernelindex.documents',
		'pg_proc:kernelindex.run_document(@extschema@.kidx_digest)',
		'pg_proc:kernelindex.run_bundle(@extschema@.kidx_digest)',
		'pg_class:kernelindex_internal.run_bundles_citus',
		'pg_proc:kernelindex_internal.run_bundle_citus(@extschema@.kidx_digest,boolean)']) AS x,
		LATERAL (SELECT pg_catalog.split_part(x, ':', 1) AS catalog,
			pg_catalog.substr(x, pg_catalog.strpos(x, ':') OPERATOR(pg_catalog.+) 1) AS name) AS o
	WHERE NOT EXISTS (
		SELECT FROM pg_catalog.pg_depend d
		JOIN pg_catalog.pg_extension e ON e.oid OPERATOR(pg_catalog.=) d.refobjid
		WHERE d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_extension'::pg_catalog.regclass
		  AND d.deptype OPERATOR(pg_catalog.=) 'e'
		  AND e.extname OPERATOR(pg_catalog.=) 'kernelindex'
		  AND d.classid OPERATOR(pg_catalog.=) pg_catalog.format('pg_catalog.%s', o.catalog)::pg_catalog.regclass
		  AND d.objid OPERATOR(pg_catalog.=) CASE o.catalog WHEN 'pg_class'
			THEN pg_catalog.to_regclass(o.name)::pg_catalog.oid
			ELSE pg_catalog.to_regprocedure(o.name)::pg_catalog.oid END);
	IF strangers IS NOT NULL THEN
		RAISE EXCEPTION 'kernelindex.distribute() redefines only objects of the kernelindex extension, with forms of its own; not of it: %', strangers
			USING ERRCODE = 'object_not_in_prerequisite_state',
			HINT = 'Each must be the extension''s own view or function of that name (DROP EXTENSION kernelindex and CREATE EXTENSION kernelindex restore them).';
	END IF;

	/* The guards of updates stay on the reference tables (they only raise). */
	unsafe_triggers := pg_catalog.current_setting('citus.enable_unsafe_triggers');
	PERFORM pg_catalog.set_config('citus.enable_unsafe_triggers', 'on', true);

	/* 1. Foreign keys between tables not yet distributed come off... */
	FOR fk IN
		SELECT c.conrelid::regclass AS rel, c.conname, pg_catalog.pg_get_constraintdef(c.oid) AS def
		FROM pg_catalog.pg_constraint c
		WHERE c.contype OPERATOR(pg_catalog.=) 'f'
		  AND c.conrelid IN (SELECT pg_catalog.format('kernelindex.%I', x)::regclass FROM pg_catalog.unnest(reference_tables) x)
		  AND c.confrelid IN (SELECT pg_catalog.format('kernelindex.%I', x)::regclass FROM pg_catalog.unnest(reference_tables) x)
		  AND (c.conrelid NOT IN (SELECT p.logicalrelid FROM pg_catalog.pg_dist_partition p)
			   OR c.confrelid NOT IN (SELECT p.logicalrelid FROM pg_catalog.pg_dist_partition p))
		ORDER BY c.conrelid::regclass::text, c.conname
	LOOP
		EXECUTE pg_catalog.format('ALTER TABLE %s DROP CONSTRAINT %I', fk.rel, fk.conname);
		fks := fks || pg_catalog.format('ALTER TABLE %s ADD CONSTRAINT %I %s', fk.rel,
			CASE WHEN fk.conname LIKE '%\_citus' THEN fk.conname ELSE fk.conname || '_citus' END, fk.def);
	END LOOP;

	/* ... with the guards whose checks a declared foreign key takes over. */
	FOREACH r IN ARRAY key_references LOOP
		t := pg_catalog.split_part(r, ':', 2);
		IF NOT EXISTS (SELECT FROM pg_catalog.pg_dist_partition p
					   WHERE p.logicalrelid OPERATOR(pg_catalog.=) pg_catalog.format('kernelindex.%I', t)::regclass) THEN
			EXECUTE pg_catalog.format('DROP TRIGGER IF EXISTS %I ON kernelindex.%I', t || '_delete', t);
			EXECUTE pg_catalog.format('DROP TRIGGER IF EXISTS %I ON kernelindex.%I', t || '_truncate', t);
		END IF;
	END LOOP;

	/* 2. The resources, the keys, the dictionaries, the catalogs: reference tables. */
	FOREACH t IN ARRAY reference_tables LOOP
		IF NOT EXISTS (SELECT FROM pg_catalog.pg_dist_partition p
					   WHERE p.logicalrelid OPERATOR(pg_catalog.=) pg_catalog.format('kernelindex.%I', t)::regclass) THEN
			PERFORM pg_catalog.create_reference_table(pg_catalog.format('kernelindex.%I', t)::regclass);
			PERFORM pg_catalog.truncate_local_data_after_distributing_table(pg_catalog.format('kernelindex.%I', t)::regclass);
		END IF;
	END LOOP;

	/* 3. ... and their foreign keys again, now between reference tables. */
	FOREACH t IN ARRAY fks LOOP
		EXECUTE t;
	END LOOP;
	/* What comparability keys refer to: foreign keys between reference tables. */
	FOREACH r IN ARRAY key_references LOOP
		t := 'comparability_keys_' OPERATOR(pg_catalog.||) pg_catalog.split_part(r, ':', 1) OPERATOR(pg_catalog.||) '_fkey_citus';
		IF NOT EXISTS (SELECT FROM pg_catalog.pg_constraint c
					   WHERE c.conrelid OPERATOR(pg_catalog.=) 'kernelindex.comparability_keys'::regclass
						 AND c.conname OPERATOR(pg_catalog.=) t) THEN
			EXECUTE pg_catalog.format('ALTER TABLE kernelindex.comparability_keys ADD CONSTRAINT %I FOREIGN KEY (%I) REFERENCES kernelindex.%I (%I)',
				t, pg_catalog.split_part(r, ':', 1), pg_catalog.split_part(r, ':', 2), pg_catalog.split_part(r, ':', 3));
		END IF;
	END LOOP;
	/*
	 * 4. Runs, by comparability key, their triggers on every shard.  The
	 * shards: citus.shard_count where the DBA has set it, else two per
	 * worker (see the header above).
	 */
	runs_shards := CASE
		WHEN (SELECT s.source FROM pg_catalog.pg_settings s
			  WHERE s.name OPERATOR(pg_catalog.=) 'citus.shard_count') OPERATOR(pg_catalog.<>) 'default'
		THEN pg_catalog.current_setting('citus.shard_count')::integer
		ELSE GREATEST(2, 2 OPERATOR(pg_catalog.*)
			(SELECT pg_catalog.count(*) FROM pg_catalog.pg_dist_node n
			 WHERE n.isactive AND n.shouldhaveshards
			   AND n.noderole OPERATOR(pg_catalog.=) 'primary'::pg_catalog.noderole)::integer) END;
	IF NOT EXISTS (SELECT FROM pg_catalog.pg_dist_partition p
				   WHERE p.logicalrelid OPERATOR(pg_catalog.=) 'kernelindex.runs'::regclass) THEN
		DROP TRIGGER IF EXISTS runs_references_update ON kernelindex.runs;
		PERFORM pg_catalog.create_distributed_table('kernelindex.runs'::regclass, 'comparability_key',
			shard_count => runs_shards);
		PERFORM pg_catalog.truncate_local_data_after_distributing_table('kernelindex.runs'::regclass);
	END IF;

	PERFORM pg_catalog.set_config('citus.enable_unsafe_triggers', unsafe_triggers, true);

	/*
	 * 5. Documents out: run_bundles (and documents, which reads it),
	 * run_document() and run_bundle() take their Citus forms (above).
	 */
	EXECUTE pg_catalog.format('CREATE OR REPLACE VIEW kernelindex.run_bundles AS %s',
		pg_catalog.pg_get_viewdef('kernelindex_internal.run_bundles_citus'::pg_catalog.regclass));
	FOREACH t IN ARRAY ARRAY['run_document', 'run_bundle'] LOOP
		EXECUTE pg_catalog.format($fn$
	CREATE OR REPLACE FUNCTION kernelindex.%1$I(run @extschema@.kidx_digest)
	RETURNS jsonb
	LANGUAGE sql STABLE STRICT PARALLEL SAFE
	RETURN kernelindex_internal.run_bundle_citus(run, %2$L::pg_catalog.bool)$fn$, t, t OPERATOR(pg_catalog.=) 'run_bundle');
	END LOOP;
END
$distribute$;
COMMENT ON FUNCTION kernelindex.distribute() IS
'on a Citus coordinator: distributes kernelindex.runs by comparability_key (two shards per worker, or citus.shard_count where set), makes the resource, key, dictionary and catalog tables and rejected_rows reference tables, keeps the per-statement checks of what runs refer to on every shard and placement (as triggers), and gives run_bundles, run_document and run_bundle their Citus forms (run_bundles_citus, run_bundle_citus), which rebuild documents on the coordinator; idempotent; 55000 where Citus is not installed';
