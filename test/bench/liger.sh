#!/usr/bin/env bash
# Benchmark (SPEC section 9): loading LIGER_BENCH_ROWS (default 1,000,000)
# rows in Liger's CSV format into fully resolved runs, against a plain COPY of
# the same file into an unindexed table of 15 text columns, side by side in
# one run on the same cluster.  The rows are the upstream file's rows over
# and over, each with its own timestamp (so every row is a distinct run).
# Target: ratio at most 3.  Run by `make bench` (libpq variables set, the
# extension installed); it creates and drops its own database.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
csv="$here/../../../shared/data/liger/all_benchmark_data.csv"
[ -r "$csv" ] || csv="$here/../data/liger_sample.csv"
csv=$(cd "$(dirname "$csv")" && pwd)/$(basename "$csv")
n=${LIGER_BENCH_ROWS:-1000000}
db=liger_bench_$$
work=$(mktemp -d /tmp/liger-bench.XXXXXX)
big="$work/liger_${n}.csv"
cleanup() {
	psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $db" >/dev/null 2>&1 || true
	rm -rf "$work"
}
trap cleanup EXIT
q() { psql -X -q -v ON_ERROR_STOP=1 -d "$db" "$@"; }
now() { date +%s.%N; }
# Seconds one psql command takes, after a checkpoint (so that none is paid
# for the step before).
timed() {
	local start
	q -c "CHECKPOINT"
	start=$(now)
	q -c "$1" >/dev/null
	awk -v a="$start" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }'
}

psql -X -q -v ON_ERROR_STOP=1 -d postgres -c "CREATE DATABASE $db"
q -c "CREATE EXTENSION kernelindex"

# Generate the file from the upstream rows, one distinct timestamp per row.
q <<SQL
CREATE TABLE upstream (LIKE kernelindex.liger_rows);
\\copy upstream FROM '$csv' WITH (FORMAT csv, HEADER MATCH)
CREATE TABLE upstream_n AS SELECT row_number() OVER () AS ord, u.* FROM upstream u;
\\copy (SELECT u.kernel_name, u.kernel_provider, u.kernel_operation_mode, u.metric_name, u.metric_unit, u.x_name, u.x_label, u.x_value, u.y_value_50, u.y_value_20, u.y_value_80, u.extra_benchmark_config_str, u.gpu_name, to_char(timestamp '2020-01-01' + g * interval '1 second', 'YYYY-MM-DD HH24:MI:SS') AS "timestamp", u.liger_version FROM generate_series(0, $n - 1) g JOIN upstream_n u ON u.ord = g % (SELECT count(*) FROM upstream_n) + 1 ORDER BY g) TO '$big' WITH (FORMAT csv, HEADER)
SQL
echo "file: $(($(wc -l <"$big") - 1)) rows, $(du -h "$big" | cut -f1)"

q -c "CREATE TABLE plain (kernel_name text, kernel_provider text, kernel_operation_mode text, metric_name text, metric_unit text, x_name text, x_label text, x_value text, y_value_50 text, y_value_20 text, y_value_80 text, extra_benchmark_config_str text, gpu_name text, \"timestamp\" text, liger_version text)"
plain=$(timed "\\copy plain FROM '$big' WITH (FORMAT csv, HEADER MATCH)")
load=$(timed "\\copy kernelindex.liger_rows FROM '$big' WITH (FORMAT csv, HEADER MATCH)")

runs=$(q -At -c "SELECT count(*) FROM kernelindex.runs")
# Fast is worthless if wrong: a sample of the stored runs against their documents.
sample=$(q -At -F ' ' -c "SELECT count(*), count(*) FILTER (WHERE kidx_resource_digest(kernelindex.run_document(digest) -> 'run') <> digest) FROM kernelindex.runs TABLESAMPLE BERNOULLI (0.2) REPEATABLE (1)")

# The floor of any ingestion into this table: storing the same runs, already
# resolved, into copies of kernelindex.runs: with its indexes; with its four
# foreign keys too (SPEC section 6); and idempotently (ON CONFLICT DO
# NOTHING, as a load that may repeat must).
fks="ADD FOREIGN KEY (protocol_id) REFERENCES kernelindex.protocols (id),
	ADD FOREIGN KEY (workload_id) REFERENCES kernelindex.workloads (id),
	ADD FOREIGN KEY (environment_id) REFERENCES kernelindex.environments (id),
	ADD FOREIGN KEY (implementation_id) REFERENCES kernelindex.implementations (id)"
q <<SQL
CREATE TABLE floor_keys (LIKE kernelindex.runs INCLUDING CONSTRAINTS INCLUDING INDEXES);
CREATE TABLE floor_fks (LIKE kernelindex.runs INCLUDING CONSTRAINTS INCLUDING INDEXES);
ALTER TABLE floor_fks $fks;
CREATE TABLE floor_idem (LIKE kernelindex.runs INCLUDING CONSTRAINTS INCLUDING INDEXES);
ALTER TABLE floor_idem $fks;
SQL
keys=$(timed "INSERT INTO floor_keys SELECT * FROM kernelindex.runs ORDER BY comparability_key, digest")
fk=$(timed "INSERT INTO floor_fks SELECT * FROM kernelindex.runs ORDER BY comparability_key, digest")
idem=$(timed "INSERT INTO floor_idem SELECT * FROM kernelindex.runs ORDER BY comparability_key, digest ON CONFLICT DO NOTHING")

awk -v sample="$sample" -v c="$plain" -v load="$load" -v keys="$keys" -v fk="$fk" -v idem="$idem" -v runs="$runs" 'BEGIN {
	printf "plain COPY into 15 text columns:   %8.2f s\n", c
	printf "COPY into resolved runs:           %8.2f s  (%d runs)\n", load, runs
	printf "ratio: %.2fx (target <= 3x)\n", load / c
	split(sample, sm, " ")
	printf "sampled runs whose digest is not their document'"'"'s: %d of %d\n", sm[2], sm[1]
	printf "floor, the same runs already resolved, INSERT ... SELECT into a copy of kernelindex.runs:\n"
	printf "  with its indexes:                %8.2f s  (%.2fx plain COPY)\n", keys, keys / c
	printf "  with its indexes and 4 FKs:      %8.2f s  (%.2fx plain COPY)\n", fk, fk / c
	printf "  the same, ON CONFLICT DO NOTHING: %7.2f s  (%.2fx plain COPY)\n", idem, idem / c
}'
[ "$runs" -eq "$n" ] || { echo "FAILED: $n rows gave $runs runs"; exit 1; }
[ "${sample#* }" = 0 ] || { echo "FAILED: a sampled run's digest is not its document's"; exit 1; }
