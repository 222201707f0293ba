-- Loads larger than kernelindex.load_memory are stored in chunks, within
-- the statement's transaction: the same store as one chunk, every guarantee
-- kept (duplicates stored once, an externalId shared by two runs refused,
-- quarantined rows kept, nothing stored when the statement fails).
\pset null '(null)'
SET client_min_messages = warning;
SELECT kidx_canonical('1') AS library_loaded;
SHOW kernelindex.load_memory;
-- below the minimum, 1MB: refused, 22023 (the message writes its range
-- with units from PostgreSQL 16 on, without them on 15: left out here)
DO $$
BEGIN
	SET kernelindex.load_memory = '512kB';
	RAISE EXCEPTION 'kernelindex.load_memory took 512kB';
EXCEPTION WHEN invalid_parameter_value THEN
	RAISE WARNING '%: %', SQLSTATE, pg_catalog.regexp_replace(SQLERRM, ' \(.*\)$', '');
END
$$;
SET kernelindex.load_memory = '1MB';
SHOW kernelindex.load_memory;
RESET kernelindex.load_memory;

-- 6,000 Liger rows, each its own workload (about 10 chunks at 1MB), and the
-- first 500 of them again (duplicates, in a later chunk).
CREATE TEMP VIEW generated AS
SELECT 'sparsemax' AS kernel_name, (ARRAY['liger', 'torch'])[1 + g % 2] AS kernel_provider,
	'forward' AS kernel_operation_mode, 'speed' AS metric_name, 'ms' AS metric_unit,
	'V' AS x_name, 'feature size' AS x_label, (1000 + g / 2)::text AS x_value,
	(1 + g / 1000.0)::text AS y_value_50, (0.5 + g / 1000.0)::text AS y_value_20,
	(2 + g / 1000.0)::text AS y_value_80,
	'{"B": 4, "T": 512, "dim": -1, "dtype": "torch.float32"}' AS extra_benchmark_config_str,
	'NVIDIA GeForce RTX 3090' AS gpu_name,
	to_char(timestamp '2025-01-01' + g * interval '1 second', 'YYYY-MM-DD HH24:MI:SS') AS "timestamp",
	'0.5.8' AS liger_version
FROM generate_series(1, 6000) g;
-- The store by value (digests and the values runs name), one line.
CREATE TEMP VIEW store_by_value AS
SELECT count(*) AS runs,
	md5(string_agg(r.digest::text || ' ' || kernelindex.run_document(r.digest)::text, ',' ORDER BY r.digest)) AS runs_md5,
	(SELECT count(*) FROM kernelindex.workloads) AS workloads,
	(SELECT count(*) FROM kernelindex.comparability_keys) AS keys,
	(SELECT count(*) FROM kernelindex.run_templates) AS templates,
	(SELECT count(*) FROM kernelindex.run_strings) AS strings
FROM kernelindex.runs r;

-- (an empty store and no quarantined rows to start with: the suites before
-- this one loaded theirs)
TRUNCATE kernelindex.runs, kernelindex.comparability_keys, kernelindex.protocols, kernelindex.environments,
	kernelindex.workloads, kernelindex.implementations, kernelindex.run_titles, kernelindex.run_statuses,
	kernelindex.run_sources, kernelindex.run_benchmarks, kernelindex.run_strings, kernelindex.run_labels,
	kernelindex.run_templates;
TRUNCATE kernelindex.rejected_rows;

-- One chunk (the default, 64MB).
INSERT INTO kernelindex.liger_rows SELECT * FROM generated;
INSERT INTO kernelindex.liger_rows SELECT * FROM generated WHERE x_value::int < 1250;
CREATE TEMP TABLE one_chunk AS SELECT * FROM store_by_value;
SELECT runs, workloads, keys, templates, strings FROM one_chunk;
TRUNCATE kernelindex.runs, kernelindex.comparability_keys, kernelindex.protocols, kernelindex.environments,
	kernelindex.workloads, kernelindex.implementations, kernelindex.run_titles, kernelindex.run_statuses,
	kernelindex.run_sources, kernelindex.run_benchmarks, kernelindex.run_strings, kernelindex.run_labels,
	kernelindex.run_templates;

-- Many chunks: the rows and their duplicates in one statement.
-- (test/t/090_load_memory.pl counts the chunks, from their DEBUG1 lines)
SET kernelindex.load_memory = '1MB';
INSERT INTO kernelindex.liger_rows
SELECT * FROM (SELECT * FROM generated UNION ALL SELECT * FROM generated WHERE x_value::int < 1250) s;
SELECT s.runs = o.runs AS same_runs, s.runs_md5 = o.runs_md5 AS same_documents,
	s.workloads = o.workloads AS same_workloads, s.keys = o.keys AS same_keys,
	s.templates = o.templates AS same_templates, s.strings = o.strings AS same_strings
FROM store_by_value s, one_chunk o;

-- A later chunk's run with the externalId of an earlier chunk's (another
-- value, the same time): refused, naming both runs, and nothing stored.
SELECT count(*) AS runs_before FROM kernelindex.runs;
\set VERBOSITY terse
INSERT INTO kernelindex.liger_rows
SELECT kernel_name, kernel_provider, kernel_operation_mode, metric_name, metric_unit, x_name, x_label,
	'99999', '7.5', '7', '8', extra_benchmark_config_str, gpu_name, '2031-01-01 00:00:00', liger_version
FROM generated WHERE x_value::int = 1300
UNION ALL
SELECT * FROM generated WHERE x_value::int >= 1300
UNION ALL
SELECT kernel_name, kernel_provider, kernel_operation_mode, metric_name, metric_unit, x_name, x_label,
	'99999', '7.25', '7', '8', extra_benchmark_config_str, gpu_name, '2031-01-01 00:00:00', liger_version
FROM generated WHERE x_value::int = 1300;
\set VERBOSITY default
SELECT count(*) AS runs_after FROM kernelindex.runs;

-- A bad row in a late chunk fails the whole statement: nothing of the
-- earlier chunks stays.
\set VERBOSITY terse
INSERT INTO kernelindex.liger_rows
SELECT kernel_name, kernel_provider, kernel_operation_mode, metric_name, metric_unit, x_name, x_label,
	(x_value::int + 100000)::text, CASE WHEN x_value = '3900' THEN 'abc' ELSE y_value_50 END,
	y_value_20, y_value_80, extra_benchmark_config_str, gpu_name, "timestamp", liger_version
FROM generated;
\set VERBOSITY default
SELECT count(*) AS runs_after_bad_row FROM kernelindex.runs;

-- Quarantine: the bad rows of every chunk are kept, the good ones stored.
SET kernelindex.on_bad_row = 'quarantine';
INSERT INTO kernelindex.liger_rows
SELECT kernel_name, kernel_provider, kernel_operation_mode, metric_name, metric_unit, x_name, x_label,
	(x_value::int + 200000)::text, CASE WHEN x_value::int % 1000 = 0 THEN 'abc' ELSE y_value_50 END,
	y_value_20, y_value_80, extra_benchmark_config_str, gpu_name, "timestamp", liger_version
FROM generated;
RESET kernelindex.on_bad_row;
SELECT count(*) AS rejected, min(row_number) AS first, max(row_number) AS last,
	count(DISTINCT reason) AS reasons
FROM kernelindex.rejected_rows;
SELECT count(*) - (SELECT runs FROM one_chunk) AS runs_added FROM kernelindex.runs;

-- Documents in chunks: every run's bundle, loaded again into an empty store.
CREATE TEMP TABLE bundles AS SELECT bundle FROM kernelindex.run_bundles;
CREATE TEMP TABLE before AS SELECT * FROM store_by_value;
TRUNCATE kernelindex.runs, kernelindex.comparability_keys, kernelindex.protocols, kernelindex.environments,
	kernelindex.workloads, kernelindex.implementations, kernelindex.run_titles, kernelindex.run_statuses,
	kernelindex.run_sources, kernelindex.run_benchmarks, kernelindex.run_strings, kernelindex.run_labels,
	kernelindex.run_templates;
INSERT INTO kernelindex.documents SELECT bundle FROM bundles;
SELECT s.runs = b.runs AS same_runs, s.runs_md5 = b.runs_md5 AS same_documents, s.runs
FROM store_by_value s, before b;
RESET kernelindex.load_memory;

-- A statement finds what is stored by index, never by reading a whole
-- table: its look-ups name a batch's keys at once, for which the planner
-- would rather scan a table than probe its index thousands of times, and a
-- scan a batch makes a load's time grow with the square of the store.
-- The store is analyzed (the planner knows its size), then 6,000 more
-- rows are loaded (about 3,000 new workloads and keys, two providers a
-- workload); no table that grows with the store is scanned whole
-- (pg_stat_user_tables.seq_scan, and the index entries its indexes returned,
-- pg_stat_user_indexes.idx_tup_read, which index-only scans count too).
-- The check's measure of a table's size is n_live_tup, which ANALYZE sets
-- to the rows it counted; the loads before it are flushed to the shared
-- statistics first, or a later flush of theirs adds their rows again (a
-- backend flushes at most once a second unless forced), and a table would
-- seem larger than it is, hiding a full read of it.
SELECT pg_catalog.pg_stat_force_next_flush();
ANALYZE kernelindex.workloads, kernelindex.comparability_keys, kernelindex.runs,
	kernelindex.implementations, kernelindex.run_strings;
CREATE TEMP VIEW store_scans AS
SELECT s.relname, s.seq_scan, s.n_live_tup,
	(SELECT pg_catalog.sum(i.idx_tup_read) FROM pg_catalog.pg_stat_user_indexes i
	 WHERE i.relid = s.relid) AS idx_tup_read
FROM pg_catalog.pg_stat_user_tables s
WHERE s.schemaname = 'kernelindex'
  AND s.relname IN ('workloads', 'comparability_keys', 'runs', 'implementations', 'environments',
	'protocols', 'run_strings', 'run_titles', 'run_templates', 'run_labels');
SELECT pg_catalog.pg_stat_force_next_flush();
CREATE TEMP TABLE scans_before AS SELECT * FROM store_scans;
INSERT INTO kernelindex.liger_rows
SELECT kernel_name, kernel_provider, kernel_operation_mode, metric_name, metric_unit, x_name, x_label,
	(x_value::int + 300000)::text, y_value_50, y_value_20, y_value_80, extra_benchmark_config_str,
	gpu_name, "timestamp", liger_version
FROM generated;
SELECT pg_catalog.pg_stat_force_next_flush();
SELECT pg_catalog.pg_stat_clear_snapshot();
-- (a table read whole: by a sequential scan, or by reading nearly as many
-- index entries as it had rows, as a full index scan under a merge join or
-- a nested loop would; a load's own look-ups read a few entries a batch)
CREATE TEMP VIEW scans_since AS
SELECT a.relname, a.seq_scan - b.seq_scan AS seq_scans,
	a.idx_tup_read - b.idx_tup_read >= 0.9 * b.n_live_tup AS every_row_by_index
FROM store_scans a JOIN scans_before b USING (relname)
WHERE a.seq_scan > b.seq_scan
   OR (b.n_live_tup >= 1000 AND a.idx_tup_read - b.idx_tup_read >= 0.9 * b.n_live_tup);
-- (the tables read whole: none)
SELECT * FROM scans_since ORDER BY relname;
-- The same check sees a table read whole: workloads by a sequential scan,
-- comparability keys by a full scan of their primary key.
TRUNCATE scans_before;
INSERT INTO scans_before SELECT * FROM store_scans;
BEGIN;
SET LOCAL max_parallel_workers_per_gather = 0;
SET LOCAL enable_indexscan = off;
SET LOCAL enable_indexonlyscan = off;
SET LOCAL enable_bitmapscan = off;
SELECT count(*) > 0 AS read_whole FROM kernelindex.workloads;
SET LOCAL enable_indexscan = on;
SET LOCAL enable_seqscan = off;
SELECT count(*) > 0 AS read_whole FROM (SELECT k.protocol_id FROM kernelindex.comparability_keys k ORDER BY k.key) s;
COMMIT;
SELECT pg_catalog.pg_stat_force_next_flush();
SELECT pg_catalog.pg_stat_clear_snapshot();
SELECT * FROM scans_since ORDER BY relname;
SELECT count(*) AS tables_watched FROM scans_before;
-- (the sizes the check stood on are the tables' rows)
SELECT b.relname, b.n_live_tup = c.n AS size_known
FROM scans_before b
JOIN (SELECT 'workloads'::name, pg_catalog.count(*) FROM kernelindex.workloads
	UNION ALL
	SELECT 'comparability_keys'::name, pg_catalog.count(*) FROM kernelindex.comparability_keys) c(relname, n)
	USING (relname)
ORDER BY b.relname;
