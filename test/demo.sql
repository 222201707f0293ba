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
	round(s.speedup::numeric, 2) || 'x' AS speedup,
	CASE WHEN s.outside_noise THEN 'yes' ELSE 'no' END AS "outside noise"
FROM kernelindex.speedups s
WHERE provider = 'liger' AND metric = 'latency'
ORDER BY s.speedup DESC, kernel, pass, gpu, workload
LIMIT 15;

\echo '== peak memory, PyTorch / Liger: the 10 largest savings'
SELECT kernel_title AS kernel, pass, gpu, workload_label AS workload,
	round(reference_peak_bytes / 1048576.0, 1) AS "PyTorch MiB",
	round(peak_bytes / 1048576.0, 1) AS "Liger MiB",
	round(memory_ratio::numeric, 2) || 'x' AS ratio
FROM kernelindex.speedups
WHERE provider = 'liger' AND metric = 'peak_memory'
ORDER BY memory_ratio DESC, kernel, pass, gpu, workload
LIMIT 10;

\echo '== per release: geometric-mean speedup over PyTorch, and how many workloads are outside the noise (kernelindex.release_speedups)'
SELECT release, kernel_title AS kernel, pass, gpu, round(geomean_speedup::numeric, 2) || 'x' AS "geomean speedup",
	workloads, faster_outside_noise AS "faster, outside noise", slower_outside_noise AS "slower, outside noise"
FROM kernelindex.release_speedups
WHERE provider = 'liger' AND metric = 'latency'
ORDER BY release_rank DESC, geomean_speedup DESC
LIMIT 12;

\echo '== since which release Liger beats PyTorch outside the noise, and whether it still does (kernelindex.speedup_since)'
SELECT kernel_title AS kernel, pass, gpu, count(*) AS workloads,
	count(*) FILTER (WHERE since_release IS NOT NULL) AS "ever faster",
	count(*) FILTER (WHERE still_faster) AS "still faster",
	(array_agg(since_release ORDER BY since_release_rank) FILTER (WHERE since_release IS NOT NULL))[1] AS "first such release"
FROM kernelindex.speedup_since
WHERE provider = 'liger' AND metric = 'latency'
GROUP BY 1, 2, 3
ORDER BY 1, 2, 3
LIMIT 12;

\echo '== the worst regressions between consecutive releases (kernelindex.release_changes)'
SELECT count(*) = 0 AS no_changes FROM kernelindex.release_changes \gset
\if :no_changes
\echo '(none: every workload of these files was measured in one release only)'
\else
SELECT regression_rank AS rank, kernel, pass, gpu, workload_label AS workload, provider,
	old_release || ' -> ' || new_release AS releases,
	old_latency_ms AS "old ms", new_latency_ms AS "new ms", round(ratio::numeric, 2) || 'x' AS "new / old", outside_noise
FROM kernelindex.release_changes
WHERE metric = 'latency'
ORDER BY regression_rank
LIMIT 10;
\endif
