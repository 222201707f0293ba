-- The views for BI tools (doc/bi.md): what each answers, on a small
-- history whose every answer is known.
\set SHOW_CONTEXT never
SET datestyle = 'ISO, YMD';
SET timezone = 'UTC';
SET extra_float_digits = 0;
SET client_min_messages = warning;
-- A store of its own: the suites before this one leave runs behind.
DROP EXTENSION kernelindex CASCADE;
CREATE EXTENSION kernelindex;
RESET client_min_messages;

-- One kernel on one GPU, two workloads (V = 1024, 2048), torch and liger,
-- releases 0.5.10 (measured first), 0.5.9, then "dev" and "nightly" (not
-- versions).  Latencies in ms: median, p20, p80.
INSERT INTO kernelindex.liger_rows
SELECT 'sparsemax', v.provider, 'forward', 'speed', 'ms', 'V', 'vocab size', v.x,
	v.p50, v.p20, v.p80, '{"B": 4, "T": 512, "dim": -1, "dtype": "torch.float32"}',
	'NVIDIA A100-SXM4-80GB', v.ts, v.release
FROM (VALUES
	-- 0.5.10, measured first (January), re-measured the next day
	('torch', '1024', '2.0', '1.9', '2.1', '2025-01-01 00:00:00', '0.5.10'),
	('liger', '1024', '1.1', '1.05', '1.15', '2025-01-01 00:00:00', '0.5.10'),
	('liger', '1024', '1.0', '0.95', '1.05', '2025-01-02 00:00:00', '0.5.10'),
	('torch', '2048', '4.0', '3.8', '4.2', '2025-01-01 00:00:00', '0.5.10'),
	('liger', '2048', '2.1', '2.0', '2.2', '2025-01-01 00:00:00', '0.5.10'),
	-- 0.5.9, measured later (February)
	('torch', '1024', '2.0', '1.9', '2.1', '2025-02-01 00:00:00', '0.5.9'),
	('liger', '1024', '1.95', '1.85', '2.05', '2025-02-01 00:00:00', '0.5.9'),
	('torch', '2048', '4.0', '3.8', '4.2', '2025-02-01 00:00:00', '0.5.9'),
	('liger', '2048', '2.0', '1.9', '2.1', '2025-02-01 00:00:00', '0.5.9'),
	-- nightly (March); dev (December before), liger only
	('torch', '1024', '2.0', '1.9', '2.1', '2025-03-01 00:00:00', 'nightly'),
	('liger', '1024', '1.5', '1.4', '1.6', '2025-03-01 00:00:00', 'nightly'),
	('torch', '2048', '4.0', '3.8', '4.2', '2025-03-01 00:00:00', 'nightly'),
	('liger', '2048', '4.1', '3.9', '4.3', '2025-03-01 00:00:00', 'nightly'),
	('liger', '1024', '1.2', '1.1', '1.3', '2024-12-01 00:00:00', 'dev')
) v(provider, x, p50, p20, p80, ts, release);
-- Peak memory (MB) beside them: its own protocol, its own units.
INSERT INTO kernelindex.liger_rows
SELECT 'sparsemax', v.provider, 'full', 'memory', 'MB', 'V', 'vocab size', '1024',
	v.p50, v.p20, v.p80, '{"B": 4, "T": 512, "dim": -1, "dtype": "torch.float32"}',
	'NVIDIA A100-SXM4-80GB', '2025-01-01 00:00:00', '0.5.10'
FROM (VALUES ('torch', '100', '100', '100'), ('liger', '50', '50', '50')) v(provider, p50, p20, p80);
SELECT count(*) AS runs FROM kernelindex.runs;

-- run_facts: one row per run, every median with its p20 and p80, exact ms and MiB.
SELECT provider, workload_label, release, observed_at, latency_ns, latency_ms_p20, latency_ms,
	latency_ms_p80, peak_bytes, peak_mib
FROM kernelindex.run_facts ORDER BY metric, workload_label, provider, observed_at;

-- Release order: versions in version order, then the other labels by their first run.
SELECT release, is_version, first_observed_at, series, release_rank
FROM kernelindex.releases ORDER BY release_rank;
SELECT l, kernelindex.release_version_key(l) IS NOT NULL AS is_version
FROM unnest(ARRAY['0.5.9', '0.5.10', 'v1.2', '1.0rc1', '1.0', 'nightly', '', '1..2', '1.2.']) l
ORDER BY kernelindex.release_version_key(l) NULLS LAST, l COLLATE "C";

-- latest_runs: the latest run per comparability key and implementation.
SELECT metric, workload_label, provider, release, observed_at, latency_ms, peak_mib
FROM kernelindex.latest_runs ORDER BY metric, workload_label, provider;

-- speedups: each liger run against torch's latest run of the same release
-- (else torch's latest run: dev has none), both bands, outside_noise.
SELECT metric, workload_label, release, observed_at, reference_release, same_release,
	latency_ms_p20 || '..' || latency_ms_p80 AS band,
	reference_latency_ms_p20 || '..' || reference_latency_ms_p80 AS reference_band,
	round(speedup::numeric, 4) AS speedup, round(memory_ratio::numeric, 4) AS memory_ratio, outside_noise
FROM kernelindex.speedups ORDER BY metric, workload_label, observed_at;

-- release_speedups: the geometric mean over the workloads both ran in a release.
SELECT release, release_rank, metric, provider, reference_provider, round(geomean_speedup::numeric, 4) AS geomean,
	workloads, workloads_outside_noise, faster_outside_noise, slower_outside_noise
FROM kernelindex.release_speedups ORDER BY metric, release_rank;

-- release_changes: consecutive releases in release order, worst regression first.
SELECT regression_rank, metric, workload_label, provider, old_release, new_release,
	old_latency_ms, new_latency_ms, round(ratio::numeric, 4) AS ratio, outside_noise
FROM kernelindex.release_changes ORDER BY regression_rank, workload_label, provider;
-- on runs compared on their median, the primary columns are the median's
-- (this store's changes are of latency; run_rows shows peak memory's)
SELECT metric, count(*) AS changes,
	count(*) FILTER (WHERE old_primary_statistic = 'median' AND primary_statistic = 'median') AS medians,
	bool_and(old_latency_ms_primary = old_latency_ms AND new_latency_ms_primary = new_latency_ms) AS latency_same
FROM kernelindex.release_changes GROUP BY metric ORDER BY metric;

-- speedup_since: the first release that beat torch outside the noise; does the latest still?
SELECT metric, workload_label, provider, since_release, round(since_speedup::numeric, 4) AS since_speedup,
	latest_release, round(latest_speedup::numeric, 4) AS latest_speedup, still_faster
FROM kernelindex.speedup_since ORDER BY metric, workload_label;

-- A workload whose reference has no run: no speedup row, not a made-up one.
INSERT INTO kernelindex.liger_rows VALUES
('sparsemax', 'liger', 'forward', 'speed', 'ms', 'V', 'vocab size', '4096', '3.0', '2.9', '3.1',
 '{"B": 4, "T": 512, "dim": -1, "dtype": "torch.float32"}', 'NVIDIA A100-SXM4-80GB', '2025-01-01 00:00:00', '0.5.10');
SELECT count(*) AS speedup_rows FROM kernelindex.speedups WHERE workload_label LIKE '%4096%';
SELECT count(*) AS latest FROM kernelindex.latest_runs WHERE workload_label LIKE '%4096%';

-- Columns are plain types, names snake_case, in every view of the schema.
SELECT c.relname, a.attname, format_type(a.atttypid, a.atttypmod) AS type
FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0
WHERE n.nspname = 'kernelindex' AND c.relkind = 'v'
  AND c.relname NOT IN ('documents', 'liger_rows', 'run_bundles')
  AND (format_type(a.atttypid, a.atttypmod) NOT IN ('text', 'bigint', 'integer', 'numeric',
		'double precision', 'timestamp with time zone', 'boolean')
	   OR a.attname !~ '^[a-z][a-z0-9_]*$')
ORDER BY 1, 2;
SELECT c.relname
FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = 'kernelindex' AND c.relkind = 'v' ORDER BY 1;
-- No view of the schema, those above included, has a column of a type of
-- the extension's (a client that knows only PostgreSQL's types reads them
-- all: digests are text); the internals live in kernelindex_internal.
SELECT c.relname, a.attname, format_type(a.atttypid, a.atttypmod) AS type
FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
JOIN pg_type t ON t.oid = a.atttypid
WHERE n.nspname = 'kernelindex' AND c.relkind = 'v'
  AND (t.typnamespace <> 'pg_catalog'::regnamespace
	   OR EXISTS (SELECT FROM pg_depend d JOIN pg_extension x ON x.oid = d.refobjid
				  WHERE d.classid = 'pg_type'::regclass AND d.objid = t.oid AND x.extname = 'kernelindex'))
ORDER BY 1, 2;
-- latest_runs lists run_facts' columns again (a view over facts, filtered):
-- the same names and types, in the same order.
SELECT (SELECT array_agg(a.attname || ' ' || format_type(a.atttypid, a.atttypmod) ORDER BY a.attnum)
		FROM pg_attribute a WHERE a.attrelid = 'kernelindex.latest_runs'::regclass AND a.attnum > 0)
	 = (SELECT array_agg(a.attname || ' ' || format_type(a.atttypid, a.atttypmod) ORDER BY a.attnum)
		FROM pg_attribute a WHERE a.attrelid = 'kernelindex.run_facts'::regclass AND a.attnum > 0)
	AS latest_runs_has_run_facts_columns;
-- How many plan nodes of a type a query's plan has.
CREATE FUNCTION pg_temp.plan_nodes(query text, node text) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
	plan json;
BEGIN
	EXECUTE 'EXPLAIN (COSTS off, FORMAT json) ' || query INTO plan;
	RETURN (WITH RECURSIVE n(p) AS (SELECT plan -> 0 -> 'Plan'
		UNION ALL SELECT c FROM n, json_array_elements(n.p -> 'Plans') c)
		SELECT count(*) FROM n WHERE n.p ->> 'Node Type' = node);
END
$$;
-- A BI view reads only the windows it needs: run_facts sorts nothing,
-- latest_runs and speedups one window each, and a dashboard's filter
-- reaches the runs through the indexes.
SELECT pg_temp.plan_nodes('SELECT * FROM kernelindex.run_facts', 'WindowAgg') AS run_facts_windows,
	pg_temp.plan_nodes('SELECT * FROM kernelindex.latest_runs', 'WindowAgg') AS latest_runs_windows,
	pg_temp.plan_nodes('SELECT * FROM kernelindex.speedups', 'WindowAgg') AS speedups_windows;

-- A read-only role (doc/bi.md's recipe) reads every view and writes nothing.
CREATE ROLE kidx_bi_reader NOLOGIN;
GRANT USAGE ON SCHEMA kernelindex TO kidx_bi_reader;
GRANT SELECT ON ALL TABLES IN SCHEMA kernelindex TO kidx_bi_reader;
SET ROLE kidx_bi_reader;
DO $$
DECLARE
	v record;
	n bigint;
BEGIN
	FOR v IN SELECT c.relname FROM pg_class c JOIN pg_namespace ns ON ns.oid = c.relnamespace
			 WHERE ns.nspname = 'kernelindex' AND c.relkind IN ('v', 'r') ORDER BY 1 LOOP
		EXECUTE format('SELECT count(*) FROM kernelindex.%I', v.relname) INTO n;
	END LOOP;
	RAISE NOTICE 'read every table and view';
END
$$;
INSERT INTO kernelindex.liger_rows VALUES
('sparsemax', 'liger', 'forward', 'speed', 'ms', 'V', 'vocab size', '8192', '3.0', '2.9', '3.1',
 '{}', 'NVIDIA A100-SXM4-80GB', '2025-01-01 00:00:00', '0.5.10');
INSERT INTO kernelindex.documents VALUES ('{}');
DELETE FROM kernelindex.runs;
UPDATE kernelindex.providers SET title = 'x';
TRUNCATE kernelindex.runs;
SELECT kernelindex.run_document(digest) IS NOT NULL AS exports FROM kernelindex.runs LIMIT 1;
RESET ROLE;
SELECT count(*) AS runs FROM kernelindex.runs;
DROP OWNED BY kidx_bi_reader;
DROP ROLE kidx_bi_reader;
