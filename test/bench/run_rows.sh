#!/usr/bin/env bash
# Any harness by COPY (doc/reference.md, "Any harness"; doc/performance.md, "Targets"; issue 25): LIGER_BENCH_ROWS
# harness-neutral rows (default 1,000,000) COPYed into kernelindex.run_rows,
# varied as the targets ask (every row new in its workload or its GPU: five
# kernels, four implementations, six GPUs, three dtypes and a size that
# grows every 20 rows; mean, stddev, min, max and samples in ms, a release
# every 100,000 rows), against a plain COPY of the same file into an
# unindexed table of as many text columns and against the floor (the same
# resolved runs inserted in key order into a copy of kernelindex.runs with
# its indexes and no triggers); beside them, PostgreSQL's own INSERT of every
# row such a load stores (its runs, keys and workloads: lib.sh floor_stored),
# which the floor leaves out, and the same rows by COPY FROM (COPY's batched
# insertion).  Every row must be a run, and a sample of the
# runs the digest of its document.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

n=${LIGER_BENCH_ROWS:-1000000}
own_database run_rows
q() { psql -X -q -v ON_ERROR_STOP=1 -d "$db" "$@"; }
csv=$work/run_rows.csv
cols="harness,timer,kernel,pass,implementation,workload,gpu,observed_at,release,unit,mean,stddev,min,max,samples"

echo "== generating $(thousands "$n") varied run_rows rows"
touch "$csv"
chmod 666 "$csv"
q <<SQL
\\copy (SELECT 'synthbench', 'cuda_events', (ARRAY['matmul','softmax','layernorm','attention','rope'])[1 + g % 5], 'forward', (ARRAY['torch','triton','cutlass','torch_compile'])[1 + (g / 5) % 4], json_build_object('n', 1024 + g / 20, 'dtype', (ARRAY['fp16','bf16','fp32'])[1 + g % 3])::text, (ARRAY['NVIDIA A100-SXM4-80GB','NVIDIA H100 80GB HBM3','NVIDIA GeForce RTX 4090','NVIDIA L40S','AMD Instinct MI300X','NVIDIA B200'])[1 + (g / 7) % 6], to_char(timestamp '2025-01-01' + g * interval '1 second', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), 'v' || (g / 100000), 'ms', (0.1 + (g % 1000) / 997.0)::numeric(12,6)::text, (0.001 + (g % 13) / 1000.0)::numeric(12,6)::text, (0.09 + (g % 1000) / 997.0)::numeric(12,6)::text, (0.2 + (g % 1000) / 997.0)::numeric(12,6)::text, '100' FROM generate_series(0, $n - 1) g) TO '$csv' WITH (FORMAT csv)
SQL
sed -i "1i $cols" "$csv"
q -c "CREATE TABLE plain ($(sed 's/,/ text, /g' <<<"$cols") text)"
plain=$(timed "$db" "\\copy plain FROM '$csv' WITH (FORMAT csv, HEADER MATCH)")
q -c "DROP TABLE plain"
load=$(PGOPTIONS="-c client_min_messages=warning" timed "$db" "\\copy kernelindex.run_rows ($cols) FROM '$csv' WITH (FORMAT csv, HEADER MATCH)")
runs=$(q -At -c "SELECT count(*) FROM kernelindex.runs")
bad=$(q -At -c "SELECT count(*) FILTER (WHERE kidx_resource_digest(kernelindex.run_document(digest) -> 'run') <> digest) FROM kernelindex.runs TABLESAMPLE BERNOULLI (0.2) REPEATABLE (1)")
# (vacuumed first, so that no autovacuum of the new store overlaps the floors)
q -c "VACUUM ANALYZE"
floor=$(floor_runs "$db")
stored=$(floor_stored "$db")
copied=$(floor_stored "$db" copy "$work")
printf 'plain COPY into %d text columns:      %8.2f s\n' "$(tr ',' '\n' <<<"$cols" | wc -l)" "$plain"
printf 'COPY into kernelindex.run_rows:       %8.2f s  (%d runs)\n' "$load" "$runs"
printf 'floor: the runs into a copy of runs:  %8.2f s\n' "$floor"
printf 'the runs, keys and workloads so:      %8.2f s  (%s)\n' "$stored" "$(q -At -c "SELECT format('%s keys, %s workloads', (SELECT count(*) FROM kernelindex.comparability_keys), (SELECT count(*) FROM kernelindex.workloads))")"
printf 'the same by COPY FROM (binary):       %8.2f s\n' "$copied"
[ "$runs" -eq "$n" ] || { echo "FAILED: $n rows gave $runs runs"; exit 1; }
[ "$bad" = 0 ] || { echo "FAILED: a sampled run's digest is not its document's"; exit 1; }
load_results "run_rows in (varied harness rows)" "$load" "$floor" "$stored" "$copied" "$plain"
