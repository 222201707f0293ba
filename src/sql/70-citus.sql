/* ---------------------------------------------------------------------
 * 8. Scale-out on Citus (README "Scaling out with Citus")
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
 * - The foreign keys between the resource tables are dropped, the tables
 *   made reference tables, and the keys declared again, named <name>_citus:
 *   Citus refuses to make one table of a chain of foreign keys between
 *   local tables a reference table, and the workers' copies of the tables
 *   (which CREATE EXTENSION made there) keep the original names.
 * - runs.series_id, checked per statement by triggers on one server, is a
 *   declared foreign key (series_id, comparability_key) -> run_series (id,
 *   comparability_key) on Citus, checked on every shard against its
 *   server's copy of run_series: Citus keeps no triggers on distributed
 *   tables unless citus.enable_unsafe_triggers is set, and a trigger on a
 *   shard may not query shards on other servers, as the guard of deletes
 *   (which reads runs) must.  The triggers runs_references_insert,
 *   runs_references_update, run_series_delete and run_series_truncate are
 *   dropped; run_series_update (series never change; it reads nothing)
 *   stays, on every copy of run_series.
 * - The views that find a series' latest or first run by one index probe
 *   per series (a LATERAL subquery Citus cannot push down), and the
 *   documents view and run_document()/run_bundle(), whose SQL Citus cannot
 *   plan with parameters or push down, get definitions with the same
 *   columns and the same rows that Citus can run: per comparability key and
 *   series on the shards, the rest on the coordinator.
 *
 * Everything happens in one transaction, and again on a second call only
 * where something is still to do.
 * --------------------------------------------------------------------- */

CREATE FUNCTION kernelindex.distribute()
RETURNS void
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
SET client_min_messages = warning
AS $distribute$
DECLARE
	reference_tables CONSTANT text[] := ARRAY[
		'protocols', 'environments', 'workloads', 'implementations',
		'comparability_keys', 'run_series',
		'gpus', 'kernels', 'providers', 'liger_passes', 'rejected_rows'];
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
	 * Step 5 replaces views and functions: the extension's own only (so
	 * that they stay members of it, and nothing else of those names is
	 * taken over).
	 */
	SELECT pg_catalog.string_agg(o.name, ', ') INTO strangers
	FROM pg_catalog.unnest(ARRAY[
		'pg_class:kernelindex.series_latest', 'pg_class:kernelindex.latest_runs',
		'pg_class:kernelindex.series_reference', 'pg_class:kernelindex.releases',
		'pg_class:kernelindex.documents',
		'pg_proc:kernelindex.run_document(@extschema@.kidx_digest)',
		'pg_proc:kernelindex.run_bundle(@extschema@.kidx_digest)']) AS x,
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
		RAISE EXCEPTION 'kernelindex.distribute() redefines only objects of the kernelindex extension; not of it: %', strangers
			USING ERRCODE = 'object_not_in_prerequisite_state',
			HINT = 'Each must be the extension''s own view or function of that name (DROP EXTENSION kernelindex and CREATE EXTENSION kernelindex restore them).';
	END IF;

	/* Triggers stay on run_series shards (run_series_update only raises). */
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

	/* ... with the triggers whose checks a declared foreign key takes over. */
	IF NOT EXISTS (SELECT FROM pg_catalog.pg_dist_partition p
				   WHERE p.logicalrelid OPERATOR(pg_catalog.=) 'kernelindex.run_series'::regclass) THEN
		DROP TRIGGER IF EXISTS run_series_delete ON kernelindex.run_series;
		DROP TRIGGER IF EXISTS run_series_truncate ON kernelindex.run_series;
	END IF;

	/* 2. The resources, what series share, the catalogs: reference tables. */
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
	IF NOT EXISTS (SELECT FROM pg_catalog.pg_constraint c
				   WHERE c.conrelid OPERATOR(pg_catalog.=) 'kernelindex.run_series'::regclass
					 AND c.conname OPERATOR(pg_catalog.=) 'run_series_id_comparability_key') THEN
		ALTER TABLE kernelindex.run_series
			ADD CONSTRAINT run_series_id_comparability_key UNIQUE (id, comparability_key);
	END IF;

	/* 4. Runs, by comparability key; what they name is a foreign key. */
	IF NOT EXISTS (SELECT FROM pg_catalog.pg_dist_partition p
				   WHERE p.logicalrelid OPERATOR(pg_catalog.=) 'kernelindex.runs'::regclass) THEN
		DROP TRIGGER IF EXISTS runs_references_insert ON kernelindex.runs;
		DROP TRIGGER IF EXISTS runs_references_update ON kernelindex.runs;
		PERFORM pg_catalog.create_distributed_table('kernelindex.runs'::regclass, 'comparability_key');
		PERFORM pg_catalog.truncate_local_data_after_distributing_table('kernelindex.runs'::regclass);
	END IF;
	IF NOT EXISTS (SELECT FROM pg_catalog.pg_constraint c
				   WHERE c.conrelid OPERATOR(pg_catalog.=) 'kernelindex.runs'::regclass
					 AND c.conname OPERATOR(pg_catalog.=) 'runs_series_id_fkey') THEN
		ALTER TABLE kernelindex.runs ADD CONSTRAINT runs_series_id_fkey
			FOREIGN KEY (series_id, comparability_key) REFERENCES kernelindex.run_series (id, comparability_key);
		COMMENT ON CONSTRAINT runs_series_id_fkey ON kernelindex.runs IS
		'on Citus: a run''s series exists and has the run''s comparability key (what runs_references_check() checks on one server)';
	END IF;

	PERFORM pg_catalog.set_config('citus.enable_unsafe_triggers', unsafe_triggers, true);

	/*
	 * 5. Views and functions Citus can run, with the same columns and rows.
	 * The latest (or first) run of each series: per comparability key and
	 * series on the shards instead of one index probe per series; what is
	 * built on it runs on the coordinator over those rows (MATERIALIZED).
	 */
	CREATE OR REPLACE VIEW kernelindex.series_latest AS
	SELECT DISTINCT ON (r.comparability_key, r.series_id)
		r.series_id,
		r.digest::text AS run_digest,
		r.observed_at,
		r.latency_ns, r.latency_ns_p20, r.latency_ns_p80,
		r.peak_bytes, r.peak_bytes_p20, r.peak_bytes_p80
	FROM kernelindex.runs r
	ORDER BY r.comparability_key, r.series_id, r.observed_at DESC, r.digest DESC;

	CREATE OR REPLACE VIEW kernelindex.latest_runs AS
	WITH x AS MATERIALIZED (
		SELECT DISTINCT ON (s.comparability_key, s.implementation_id)
			l.series_id, l.observed_at, l.run_digest
		FROM kernelindex.series_latest l
		JOIN kernelindex.run_series s ON s.id OPERATOR(pg_catalog.=) l.series_id
		ORDER BY s.comparability_key, s.implementation_id, l.observed_at DESC, l.run_digest DESC)
	SELECT f.*
	FROM kernelindex.run_facts f
	JOIN x ON f.series_id OPERATOR(pg_catalog.=) x.series_id
		AND f.observed_at OPERATOR(pg_catalog.=) x.observed_at
		AND f.run_digest OPERATOR(pg_catalog.=) x.run_digest;

	CREATE OR REPLACE VIEW kernelindex.series_reference AS
	WITH latest AS MATERIALIZED (
		SELECT DISTINCT ON (r.comparability_key, r.series_id) r.*
		FROM kernelindex.runs r
		ORDER BY r.comparability_key, r.series_id, r.observed_at DESC, r.digest DESC
	), reference_latest AS (
		SELECT DISTINCT ON (sf.comparability_key, sf.release)
			sf.comparability_key, sf.release, sf.provider, sf.provider_title, sf.series_id,
			l.digest::text AS run_digest, l.observed_at,
			l.latency_ns, l.latency_ns_p20, l.latency_ns_p80,
			l.peak_bytes, l.peak_bytes_p20, l.peak_bytes_p80
		FROM kernelindex.series_facts sf
		JOIN latest l ON l.series_id OPERATOR(pg_catalog.=) sf.series_id
		WHERE sf.is_reference
		ORDER BY sf.comparability_key, sf.release, l.observed_at DESC, l.digest DESC
	)
	SELECT DISTINCT ON (o.series_id)
		o.series_id,
		rl.series_id AS reference_series_id,
		rl.provider AS reference_provider,
		rl.provider_title AS reference_provider_title,
		rl.release AS reference_release,
		rl.release IS NOT DISTINCT FROM o.release AS same_release,
		rl.run_digest AS reference_run_digest,
		rl.observed_at AS reference_observed_at,
		rl.latency_ns AS reference_latency_ns,
		rl.latency_ns_p20 AS reference_latency_ns_p20,
		rl.latency_ns_p80 AS reference_latency_ns_p80,
		rl.peak_bytes AS reference_peak_bytes,
		rl.peak_bytes_p20 AS reference_peak_bytes_p20,
		rl.peak_bytes_p80 AS reference_peak_bytes_p80
	FROM kernelindex.series_facts o
	JOIN reference_latest rl ON rl.comparability_key OPERATOR(pg_catalog.=) o.comparability_key
	WHERE NOT o.is_reference
	ORDER BY o.series_id, rl.release IS NOT DISTINCT FROM o.release DESC, rl.observed_at DESC, rl.run_digest DESC;

	CREATE OR REPLACE VIEW kernelindex.releases AS
	WITH rel AS MATERIALIZED (
		SELECT s.release, pg_catalog.min(fr.observed_at) AS first_observed_at,
			pg_catalog.count(*) AS series
		FROM kernelindex.run_series s
		JOIN (SELECT r.series_id, pg_catalog.min(r.observed_at) AS observed_at
			  FROM kernelindex.runs r
			  GROUP BY r.comparability_key, r.series_id) fr ON fr.series_id OPERATOR(pg_catalog.=) s.id
		WHERE s.release IS NOT NULL
		GROUP BY s.release
	)
	SELECT rel.release,
		kernelindex.release_version_key(rel.release) IS NOT NULL AS is_version,
		rel.first_observed_at,
		rel.series,
		pg_catalog.rank() OVER (ORDER BY kernelindex.release_version_key(rel.release) IS NULL,
			kernelindex.release_version_key(rel.release), rel.first_observed_at,
			rel.release COLLATE "C") AS release_rank
	FROM rel;

	/*
	 * Documents out: the runs' rows come to the coordinator, which rebuilds
	 * the bundles from its copy of the series (a function pushed down to the
	 * shards could not read it consistently within the transaction).
	 */
	CREATE OR REPLACE VIEW kernelindex.documents AS
	WITH r AS MATERIALIZED (
		SELECT r.series_id, r.observed_at, r.latency_ns, r.latency_ns_p20, r.latency_ns_p80,
			r.peak_bytes, r.peak_bytes_p20, r.peak_bytes_p80, r.native_p20, r.native_p50, r.native_p80
		FROM kernelindex.runs r)
	SELECT kernelindex.run_bundle_of(r.series_id, r.observed_at, r.latency_ns, r.latency_ns_p20,
		r.latency_ns_p80, r.peak_bytes, r.peak_bytes_p20, r.peak_bytes_p80,
		r.native_p20, r.native_p50, r.native_p80, false) AS document
	FROM r;

	/*
	 * PL/pgSQL, so that Citus plans the look-up with the digest bound: the
	 * same body for both, run_bundle with the workload and implementation.
	 */
	FOREACH t IN ARRAY ARRAY['run_document', 'run_bundle'] LOOP
		EXECUTE pg_catalog.format($fn$
	CREATE OR REPLACE FUNCTION kernelindex.%1$I(run @extschema@.kidx_digest)
	RETURNS jsonb
	LANGUAGE plpgsql STABLE STRICT PARALLEL SAFE
	SET search_path = pg_catalog, pg_temp
	AS $body$
	BEGIN
		RETURN (WITH r AS MATERIALIZED (
			SELECT r.series_id, r.observed_at, r.latency_ns, r.latency_ns_p20, r.latency_ns_p80,
				r.peak_bytes, r.peak_bytes_p20, r.peak_bytes_p80, r.native_p20, r.native_p50, r.native_p80
			FROM kernelindex.runs r
			WHERE r.digest OPERATOR(@extschema@.=) %1$I.run)
		SELECT kernelindex.run_bundle_of(r.series_id, r.observed_at, r.latency_ns, r.latency_ns_p20,
			r.latency_ns_p80, r.peak_bytes, r.peak_bytes_p20, r.peak_bytes_p80,
			r.native_p20, r.native_p50, r.native_p80, %2$L::pg_catalog.bool)
		FROM r);
	END
	$body$$fn$, t, t OPERATOR(pg_catalog.=) 'run_bundle');
	END LOOP;
END
$distribute$;
COMMENT ON FUNCTION kernelindex.distribute() IS
'on a Citus coordinator: distributes kernelindex.runs by comparability_key, makes the resource, series and catalog tables and rejected_rows reference tables, declares runs.series_id a foreign key, and gives the views Citus cannot run as written definitions with the same rows; idempotent; 55000 where Citus is not installed';
