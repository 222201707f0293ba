-- kernelindex demo: what the extension does, on a throwaway database.
\pset footer off
CREATE DATABASE kernelindex_demo;
\c kernelindex_demo
CREATE EXTENSION kernelindex;

\echo
\echo '== kidx_digest: a SHA-256 digest in 32 bytes, sha256:<hex> as text'
SELECT d AS digest, pg_column_size(d) AS bytes, d::bytea AS raw
FROM (SELECT 'sha256:a79eaf4df66c97c6adc1fb2d09df78682155d1ea86652ae0b70199875bde7747'::kidx_digest AS d) s;

\echo '== bad input is refused with the reason'
\set ON_ERROR_STOP 0
SELECT 'sha256:A79eaf4df66c97c6adc1fb2d09df78682155d1ea86652ae0b70199875bde7747'::kidx_digest;
\set ON_ERROR_STOP 1

\echo
\echo '== Liger-Kernel benchmark CSV: COPY turns each row into a run'
\echo '\\copy kernelindex.liger_rows FROM ''test/data/liger_sample.csv'' WITH (FORMAT csv, HEADER MATCH)'
\copy kernelindex.liger_rows FROM 'test/data/liger_sample.csv' WITH (FORMAT csv, HEADER MATCH)
SELECT :'extra_csv' <> '' AS have_extra \gset
\if :have_extra
\echo 'and' :'extra_csv'
-- \copy does not expand psql variables; the shell expands the environment.
\copy kernelindex.liger_rows FROM PROGRAM 'cat "$KIDX_DEMO_CSV"' WITH (FORMAT csv, HEADER MATCH)
\endif
SELECT count(*) AS runs,
	count(*) FILTER (WHERE latency_ns IS NOT NULL) AS timed,
	count(*) FILTER (WHERE peak_bytes IS NOT NULL) AS memory,
	count(DISTINCT comparability_key) AS comparable_groups
FROM kernelindex.runs;

\echo '== one run, exported as its {run, protocol, environment} bundle'
SELECT jsonb_pretty(kernelindex.run_document(run_digest::kidx_digest) -> 'run') AS run
FROM kernelindex.run_facts
WHERE external_id = 'sparsemax/backward/torch/nvidia-geforce-rtx-3090/features16384-tokens2048-fp32/2025-04-28-00-38-25';

\echo '== speedup over PyTorch by kernel and GPU: same protocol, workload and GPU only (kernelindex.speedups)'
SELECT kernel_title AS kernel, pass, gpu || COALESCE(' ' || gpu_form_factor, '') AS gpu,
	count(*) AS workloads,
	round(exp(avg(ln(speedup)))::numeric, 2) || 'x' AS "geomean speedup",
	round(min(speedup)::numeric, 2) || 'x' AS worst,
	round(max(speedup)::numeric, 2) || 'x' AS best
FROM kernelindex.speedups
WHERE provider = 'liger' AND metric = 'latency' AND speedup > 0
GROUP BY 1, 2, 3
ORDER BY 1, 2, 3;

\echo '== the 15 largest speedups, workload by workload'
SELECT kernel_title AS kernel, pass, gpu || COALESCE(' ' || gpu_form_factor, '') AS gpu,
	workload_label AS workload,
	round(reference_latency_ms, 3) AS "PyTorch ms",
	round(latency_ms, 3) AS "Liger ms",
	s.speedup || 'x' AS speedup
FROM kernelindex.speedups s
WHERE provider = 'liger' AND metric = 'latency'
ORDER BY s.speedup DESC, kernel, pass, gpu, workload
LIMIT 15;

\echo '== peak memory, PyTorch / Liger: the 10 largest savings'
SELECT kernel_title AS kernel, pass, gpu, workload_label AS workload,
	round(reference_peak_bytes / 1048576.0, 1) AS "PyTorch MiB",
	round(peak_bytes / 1048576.0, 1) AS "Liger MiB",
	memory_ratio || 'x' AS ratio
FROM kernelindex.speedups
WHERE provider = 'liger' AND metric = 'peak_memory'
ORDER BY memory_ratio DESC, kernel, pass, gpu, workload
LIMIT 10;
