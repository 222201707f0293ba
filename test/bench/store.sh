#!/usr/bin/env bash
# Store benchmark: bytes per stored run (heap + indexes) against the same runs
# kept as jsonb documents, and "all runs comparable with this one" at
# 1,000,000 runs.  Uses the libpq environment (PGHOST, PGPORT, PGUSER) of a
# cluster with kernelindex installed; creates and drops its own database.
set -euo pipefail
DB=${KIDX_BENCH_DB:-kidx_bench_store}
N_DOCS=${KIDX_BENCH_DOCS:-100000}     # runs ingested through ingest_bundles
N_RUNS=${KIDX_BENCH_RUNS:-1000000}    # runs in the table for the lookup
KEYS=${KIDX_BENCH_KEYS:-2000}         # comparability keys (workloads)
psql() { command psql -X -q -v ON_ERROR_STOP=1 "$@"; }

psql -d postgres -c "DROP DATABASE IF EXISTS $DB" -c "CREATE DATABASE $DB"
[ -n "${KIDX_BENCH_KEEP:-}" ] || trap 'psql -d postgres -c "DROP DATABASE IF EXISTS $DB" >/dev/null 2>&1 || true' EXIT
psql -d "$DB" <<SQL
CREATE EXTENSION kernelindex;
-- The sparsemax reference record; runs vary by workload (comparability key),
-- timestamp and values, as a harness CSV does.
CREATE TABLE bench_base AS SELECT \$ref\${"run":{"kind":"BenchmarkRun","spec":{"status":"passed","timing":{"latencyNs":{"median":2629632},"primaryStatistic":"median"},"observedAt":"2025-04-28T00:38:25.000Z","measurements":[{"unit":"ns","value":2628608,"metric":"latency","statistic":"p20"},{"unit":"ns","value":2630656,"metric":"latency","statistic":"p80"}],"sourceNative":{"source":"liger-kernel-bench","metrics":{"ms_20":2.628607988357544,"ms_50":2.629631996154785,"ms_80":2.6306560039520264},"benchmark":"sparsemax/backward","externalId":"sparsemax/backward/torch/nvidia-geforce-rtx-3090/features16384-tokens2048-fp32/2025-04-28-00-38-25"},"protocolDigest":"sha256:080e6e66e4ec75a131aa0c9121c74b8e8eed64e7b6d621d567c6a28f79548be8","workloadDigest":"sha256:59e5c2df9b1189cb19d18d1b7b815712e6ff25deb213fcacd8287ee867273435","environmentDigest":"sha256:b12fdfab6a337672499b10212a1e986e49e4383777bd7cbb58321b09af4bf6a3","implementationDigest":"sha256:e496948f60e3e1a1ed83175ec6976b730d22c5a670f0b3813918a5a72833bb23"},"metadata":{"name":"liger-sparsemax-backward-torch-nvidia-geforce-rtx-3090-features16384-tokens2048-fp32-2025-04-28-00-3","title":"Sparsemax · torch · backward","labels":{"liger_version":"0.5.8"}},"apiVersion":"kernelindex.dev/v1alpha1"},"protocol":{"kind":"BenchmarkProtocol","spec":{"harness":{"name":"Liger-Kernel benchmark scripts","repository":"https://github.com/linkedin/Liger-Kernel"},"measurement":{"timer":"cuda_events","primaryStatistic":"median"},"comparability":{"notes":"Timed: the backward pass of the module output given a random upstream gradient, via triton.testing.do_bench with quantiles 0.5/0.2/0.8 (median with p20/p80 spread). The upstream CSV records no CUDA, driver, or torch version; the Liger release rides each run's labels. Comparable only within one kernel, workload, timed pass, and GPU.","family":"liger_kernel_bench"}},"metadata":{"name":"liger-bench-do-bench-backward","title":"Liger benchmark harness · backward pass"},"apiVersion":"kernelindex.dev/v1alpha1"},"environment":{"kind":"ExecutionEnvironment","spec":{"hardware":{"vendor":"nvidia","product":"NVIDIA GeForce RTX 3090","architecture":"sm_86"},"software":{}},"metadata":{"name":"liger-bench-nvidia-geforce-rtx-3090","title":"Liger benchmark host · GeForce RTX 3090"},"apiVersion":"kernelindex.dev/v1alpha1"}}\$ref\$::jsonb AS doc;

-- Synthetic bundle number g: workload g % KEYS, a distinct second, distinct values.
CREATE FUNCTION bench_bundle(g bigint) RETURNS jsonb LANGUAGE sql AS \$f\$
SELECT replace(replace(replace(replace(replace(replace(replace(b.doc::text,
	'59e5c2df9b1189cb19d18d1b7b815712e6ff25deb213fcacd8287ee867273435',
	encode(sha256(('w' || (g % $KEYS))::bytea), 'hex')),
	'features16384-tokens2048-fp32-2025-04-28-00-3"', 'features' || (g % $KEYS) || '-tokens2048-fp32-' || left(to_char(t AT TIME ZONE 'UTC', 'YYYY-MM-DD-HH24-MI-SS'), 13) || '"'),
	'features16384-tokens2048-fp32/', 'features' || (g % $KEYS) || '-tokens2048-fp32/'),
	'2025-04-28T00:38:25.000Z', to_char(t AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')),
	'2025-04-28-00-38-25', to_char(t AT TIME ZONE 'UTC', 'YYYY-MM-DD-HH24-MI-SS')),
	'2629632', (2629632 + g % 9973)::text),
	'2.629631996154785', (2.629631996154785 + (g % 9973) / 1000000.0)::text)::jsonb
FROM bench_base b, LATERAL (SELECT timestamptz '2025-01-01 00:00:00+00' + g * interval '1 second' AS t) x
\$f\$;
SQL

echo "== ingest $N_DOCS runs through kernelindex.ingest_bundles (batches of 10000)"
start=$(date +%s.%N)
for ((b = 0; b < N_DOCS; b += 10000)); do
	psql -d "$DB" -c "SELECT kernelindex.ingest_bundles(array_agg(bench_bundle(g))) FROM generate_series($b, LEAST($b + 9999, $N_DOCS - 1)) g" >/dev/null
done
end=$(date +%s.%N)
echo "ingest: $(echo "($end - $start) * 1000000 / $N_DOCS" | bc) us per run"

psql -d "$DB" -At <<SQL
-- The same runs kept as documents: digest primary key + the run document.
CREATE TABLE bench_docs (digest kidx_digest PRIMARY KEY, doc jsonb NOT NULL);
INSERT INTO bench_docs SELECT r.digest, kernelindex.run_json(r) FROM kernelindex.runs r;
VACUUM ANALYZE bench_docs; VACUUM ANALYZE kernelindex.runs;
SELECT 'runs stored: ' || count(*) || ', with residual: ' || count(*) FILTER (WHERE residual IS NOT NULL)
       || ', series: ' || (SELECT count(*) FROM kernelindex.run_series) FROM kernelindex.runs;
SELECT 'run document as jsonb: avg ' || round(avg(pg_column_size(doc))) || ' bytes' FROM bench_docs;
WITH s AS (SELECT (SELECT count(*) FROM kernelindex.runs) AS n,
	pg_total_relation_size('kernelindex.runs') AS typed,
	pg_total_relation_size('bench_docs') AS docs,
	pg_total_relation_size('kernelindex.run_series') + pg_total_relation_size('kernelindex.run_variants') AS shared)
SELECT format('bytes per run: typed %s (heap %s + indexes %s), as jsonb %s, ratio %s (target <= 0.333); '
              'series+variants add %s per run',
	round(typed::numeric / n), round(pg_relation_size('kernelindex.runs')::numeric / n),
	round(pg_indexes_size('kernelindex.runs')::numeric / n), round(docs::numeric / n),
	round(typed::numeric / docs, 3), round(shared::numeric / n, 1)) FROM s;
SQL

echo "== grow kernelindex.runs to $N_RUNS rows (copies of ingested rows under new digests)"
psql -d "$DB" <<SQL
INSERT INTO kernelindex.runs
SELECT r.comparability_key, kidx_canonical_digest(jsonb_build_array(r.digest::text, k)),
	r.protocol_id, r.workload_id, r.environment_id, r.implementation_id, r.series_id, r.variant_id,
	r.observed_at + k * interval '1 day', r.latency_ns, r.latency_ns_p20, r.latency_ns_p80,
	r.peak_bytes, r.peak_bytes_p20, r.peak_bytes_p80, md5(r.external_key::text || k)::uuid,
	r.native_p20, r.native_p50, r.native_p80, r.residual
FROM kernelindex.runs r, generate_series(1, ceil($N_RUNS::numeric / $N_DOCS)::int - 1) k
LIMIT GREATEST($N_RUNS - $N_DOCS, 0);
VACUUM ANALYZE kernelindex.runs;
SQL
psql -d "$DB" -At <<'SQL'
SELECT 'runs: ' || count(*) || ', comparability keys: ' || count(DISTINCT comparability_key) FROM kernelindex.runs;
SELECT format('bytes per run at this size: %s', round(pg_total_relation_size('kernelindex.runs')::numeric / count(*))) FROM kernelindex.runs;
\o /dev/null
SELECT * FROM kernelindex.runs WHERE digest = (SELECT digest FROM kernelindex.runs LIMIT 1);
\o
-- "All runs comparable with this one", by digest, through the operator.
PREPARE comparable(kidx_digest) AS
SELECT b.digest, b.observed_at, b.latency_ns
FROM kernelindex.runs a JOIN kernelindex.runs b ON a ~=~ b
WHERE a.digest = $1;
CREATE TEMP TABLE probe AS SELECT digest FROM kernelindex.runs TABLESAMPLE SYSTEM (1) LIMIT 200;
SELECT digest AS probe1 FROM probe LIMIT 1 \gset
EXPLAIN (COSTS OFF) EXECUTE comparable(:'probe1');
DO $$
DECLARE d kidx_digest; t0 timestamptz; n bigint := 0; rows bigint := 0; c bigint;
BEGIN
	FOR d IN SELECT digest FROM probe LOOP            -- warm the cache
		SELECT count(*) INTO c FROM kernelindex.runs a JOIN kernelindex.runs b ON a ~=~ b WHERE a.digest = d;
	END LOOP;
	t0 := clock_timestamp();
	FOR d IN SELECT digest FROM probe LOOP
		SELECT count(*) INTO c FROM kernelindex.runs a JOIN kernelindex.runs b ON a ~=~ b WHERE a.digest = d;
		n := n + 1; rows := rows + c;
	END LOOP;
	RAISE NOTICE 'all runs comparable with one run: % ms per lookup (avg % rows, % lookups, target < 1 ms)',
		round((extract(epoch FROM clock_timestamp() - t0) * 1000 / n)::numeric, 3), rows / n, n;
END $$;
SQL
