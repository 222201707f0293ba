-- The Citus forms, checked where Citus is not installed.  On Citus,
-- kernelindex.distribute() gives run_bundles (which documents reads) the
-- definition of run_bundles_citus, and makes run_document(d) and
-- run_bundle(d) calls of run_bundle_citus(d, whole) (src/sql/70-citus.sql).
-- Both forms exist on every server: here, on one server, the Citus forms
-- give the same columns and the same rows, byte for byte, as the one-server
-- forms, so that a change to one form that forgets the other fails without
-- Citus (test/t/060_citus.pl compares them on Citus).
\pset null '(null)'

-- A database of its own, so that what other suites stored does not count.
SET client_min_messages = warning;
SELECT current_database() AS regress_database \gset
DROP DATABASE IF EXISTS kidx_citus_forms;
CREATE DATABASE kidx_citus_forms;
\c kidx_citus_forms
SET client_min_messages = warning;
CREATE EXTENSION kernelindex;

-- Liger runs (workload and implementation documents known) and the two
-- reference records (workload and implementation known by digest only).
\copy kernelindex.liger_rows FROM 'test/data/liger_sample.csv' WITH (FORMAT csv, HEADER MATCH)
-- On Citus a load's INSERT reads the chunk of runs it writes from
-- pending_runs(), which holds it while that INSERT runs (on one server too):
-- once the load has ended, it returns none, in the session that loaded.
SELECT count(*) AS pending_runs FROM kernelindex_internal.pending_runs();
\set ref1 `cat test/data/records/sparsemax-backward-torch-rtx3090.json`
\set ref2 `cat test/data/records/grpo-sequence-forward-torch-a100.json`
SELECT kernelindex.ingest_document(:'ref1') IS NOT NULL AS stored,
	kernelindex.ingest_document(:'ref2') IS NOT NULL AS stored;
SELECT count(*) AS runs,
	count(*) FILTER (WHERE w.document IS NULL) AS workload_by_digest_only,
	count(*) FILTER (WHERE i.document IS NULL) AS implementation_by_digest_only
FROM kernelindex.runs r
JOIN kernelindex.comparability_keys k ON k.key = r.comparability_key
JOIN kernelindex.workloads w ON w.id = k.workload_id
JOIN kernelindex.implementations i ON i.id = r.implementation_id;

-- run_bundles and run_bundles_citus: the same columns, in the same order,
-- of the same types.
SELECT coalesce(a.attnum, b.attnum) AS attnum, a.attname AS one_server, b.attname AS citus,
	format_type(a.atttypid, a.atttypmod) AS type,
	format_type(a.atttypid, a.atttypmod) IS NOT DISTINCT FROM format_type(b.atttypid, b.atttypmod) AS same_type
FROM (SELECT * FROM pg_attribute WHERE attrelid = 'kernelindex.run_bundles'::regclass
		AND attnum > 0 AND NOT attisdropped) a
FULL JOIN (SELECT * FROM pg_attribute WHERE attrelid = 'kernelindex_internal.run_bundles_citus'::regclass
		AND attnum > 0 AND NOT attisdropped) b ON b.attnum = a.attnum
ORDER BY 1;

-- ... and the same rows, as text (jsonb = would not see 1.0 against 1.00).
CREATE TEMP VIEW one_server AS
SELECT b.digest::text AS digest, b.document::text AS document, b.bundle::text AS bundle
FROM kernelindex.run_bundles b;
CREATE TEMP VIEW citus AS
SELECT b.digest::text AS digest, b.document::text AS document, b.bundle::text AS bundle
FROM kernelindex_internal.run_bundles_citus b;
SELECT (SELECT count(*) FROM one_server) AS one_server,
	(SELECT count(*) FROM citus) AS citus,
	(SELECT count(*) FROM (SELECT * FROM one_server EXCEPT ALL SELECT * FROM citus) x) AS only_one_server,
	(SELECT count(*) FROM (SELECT * FROM citus EXCEPT ALL SELECT * FROM one_server) x) AS only_citus,
	(SELECT count(*) FROM one_server WHERE document <> bundle) AS with_workload_or_implementation;
-- documents reads run_bundles, so that swapping run_bundles swaps it too.
SELECT pg_get_viewdef('kernelindex.documents'::regclass) LIKE '%FROM kernelindex.run_bundles b%' AS documents_reads_run_bundles;

-- run_document(d) and run_bundle(d) against run_bundle_citus(d, whole):
-- every stored run, a digest not stored, and NULL.
SELECT count(*) AS digests,
	count(*) FILTER (WHERE kernelindex.run_document(x.d)::text
		IS DISTINCT FROM kernelindex_internal.run_bundle_citus(x.d, false)::text) AS documents_differ,
	count(*) FILTER (WHERE kernelindex.run_bundle(x.d)::text
		IS DISTINCT FROM kernelindex_internal.run_bundle_citus(x.d, true)::text) AS bundles_differ,
	count(*) FILTER (WHERE kernelindex_internal.run_bundle_citus(x.d, false) IS NULL) AS not_stored
FROM (SELECT r.digest AS d FROM kernelindex.runs r
	  UNION ALL SELECT ('sha256:' || repeat('0', 64))::kidx_digest
	  UNION ALL SELECT NULL) x;
SELECT kernelindex_internal.run_bundle_citus(NULL, true) AS citus, kernelindex.run_bundle(NULL) AS one_server;
-- ... with the same attributes and result (what distribute() declares).
SELECT p.oid::regprocedure AS function, p.provolatile AS volatility, p.proisstrict AS strict,
	p.proparallel AS parallel, p.prorettype::regtype AS returns
FROM pg_proc p
WHERE p.oid IN ('kernelindex.run_document(kidx_digest)'::regprocedure,
	'kernelindex.run_bundle(kidx_digest)'::regprocedure,
	'kernelindex_internal.run_bundle_citus(kidx_digest, boolean)'::regprocedure)
ORDER BY p.oid::regprocedure::text COLLATE "C";

-- What runs refer to, as the C code holds it (what the reference triggers
-- check, on one server and on Citus's shards): every table it names has the guards
-- of deletes and truncates, and every reference column of runs is in it.
SELECT * FROM kernelindex_internal.run_references();
SELECT x.table_name, count(t.tgname) AS guards
FROM (SELECT DISTINCT table_name FROM kernelindex_internal.run_references()) x
LEFT JOIN pg_trigger t ON t.tgrelid = ('kernelindex.' || x.table_name)::regclass
	AND t.tgname IN (x.table_name || '_delete', x.table_name || '_truncate')
GROUP BY 1 ORDER BY 1;
SELECT a.attname AS reference_column_not_known
FROM pg_attribute a
WHERE a.attrelid = 'kernelindex.runs'::regclass AND a.attnum > 0 AND NOT a.attisdropped
  AND (a.attname LIKE '%\_id' OR a.attname = 'comparability_key')
  AND a.attname NOT IN (SELECT column_name FROM kernelindex_internal.run_references());

\c :regress_database
SET client_min_messages = warning;
DROP DATABASE kidx_citus_forms;
