#!/usr/bin/env bash
# Ingestion benchmark (SPEC section 9), side by side in one run:
#
# - CSV in: LIGER_BENCH_ROWS (default 1,000,000) rows in Liger's format, the
#   upstream file's rows over and over, each with its own timestamp (every
#   row a distinct run), COPYed into kernelindex.liger_rows, against a plain
#   COPY of the same file into an unindexed table of 15 text columns and
#   against the floor: the same resolved runs, already stored, inserted in
#   key order into a copy of kernelindex.runs with its indexes and no
#   triggers.
# - Documents out: COPY (SELECT document FROM kernelindex.documents) TO a
#   file, against a COPY TO of the same documents kept in a jsonb column.
# - Documents in: COPY of that file (one bundle per line) into
#   kernelindex.documents of an empty store, against a COPY of the same
#   lines into a one-column jsonb table.
#
# The loaded store is left in database ${KIDX_BENCH_DB:-kidx_bench} for the
# benchmarks that follow (store.sh, bi.sh).  Fast is worthless if wrong: a
# sample of the runs is checked against their documents, and the documents
# loaded back are the same runs.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

csv="$here/../../../shared/data/liger/all_benchmark_data.csv"
[ -r "$csv" ] || csv="$here/../data/liger_sample.csv"
csv=$(cd "$(dirname "$csv")" && pwd)/$(basename "$csv")
n=${LIGER_BENCH_ROWS:-1000000}
db=${KIDX_BENCH_DB:-kidx_bench}
db2=${db}_docs
work=$(mktemp -d /tmp/kidx-bench-ingest.XXXXXX)
chmod 755 "$work"
big="$work/liger.csv"
jsonl="$work/bundles.jsonl"
cleanup() {
	psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $db2" >/dev/null 2>&1 || true
	rm -rf "$work"
}
trap cleanup EXIT
q() { psql -X -q -v ON_ERROR_STOP=1 -d "$db" "$@"; }
jsonl_opts="(FORMAT csv, QUOTE E'\\x01', DELIMITER E'\\x02')"

psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db"
q -c "CREATE EXTENSION kernelindex"

echo "== generating $n Liger rows from $(basename "$csv")"
q <<SQL
CREATE TABLE upstream (LIKE kernelindex.liger_rows);
\\copy upstream FROM '$csv' WITH (FORMAT csv, HEADER MATCH)
CREATE TABLE upstream_n AS SELECT row_number() OVER () AS ord, u.* FROM upstream u;
\\copy (SELECT u.kernel_name, u.kernel_provider, u.kernel_operation_mode, u.metric_name, u.metric_unit, u.x_name, u.x_label, u.x_value, u.y_value_50, u.y_value_20, u.y_value_80, u.extra_benchmark_config_str, u.gpu_name, to_char(timestamp '2020-01-01' + g * interval '1 second', 'YYYY-MM-DD HH24:MI:SS') AS "timestamp", u.liger_version FROM generate_series(0, $n - 1) g JOIN upstream_n u ON u.ord = g % (SELECT count(*) FROM upstream_n) + 1 ORDER BY g) TO '$big' WITH (FORMAT csv, HEADER)
DROP TABLE upstream, upstream_n;
CREATE TABLE plain (kernel_name text, kernel_provider text, kernel_operation_mode text, metric_name text, metric_unit text, x_name text, x_label text, x_value text, y_value_50 text, y_value_20 text, y_value_80 text, extra_benchmark_config_str text, gpu_name text, "timestamp" text, liger_version text);
SQL
echo "file: $(($(wc -l <"$big") - 1)) rows, $(du -h "$big" | cut -f1)"

echo "== CSV in"
plain=$(timed "$db" "\\copy plain FROM '$big' WITH (FORMAT csv, HEADER MATCH)")
load=$(timed "$db" "\\copy kernelindex.liger_rows FROM '$big' WITH (FORMAT csv, HEADER MATCH)")
q -c "DROP TABLE plain"
runs=$(q -At -c "SELECT count(*) FROM kernelindex.runs")
sample=$(q -At -F ' ' -c "SELECT count(*), count(*) FILTER (WHERE kidx_resource_digest(kernelindex.run_document(digest) -> 'run') <> digest) FROM kernelindex.runs TABLESAMPLE BERNOULLI (0.2) REPEATABLE (1)")
q -c "CREATE TABLE floor_runs (LIKE kernelindex.runs INCLUDING ALL)"
floor=$(timed "$db" "INSERT INTO floor_runs SELECT * FROM kernelindex.runs ORDER BY comparability_key, digest")
q -c "DROP TABLE floor_runs"
printf 'plain COPY into 15 text columns:      %8.2f s\n' "$plain"
printf 'COPY into kernelindex.liger_rows:     %8.2f s  (%d runs)\n' "$load" "$runs"
printf 'floor: the runs into a copy of runs:  %8.2f s\n' "$floor"
echo "sampled runs whose digest is not their document's: ${sample#* } of ${sample% *}"
[ "$runs" -eq "$n" ] || { echo "FAILED: $n rows gave $runs runs"; exit 1; }
[ "${sample#* }" = 0 ] || { echo "FAILED: a sampled run's digest is not its document's"; exit 1; }
r=$(ratio "$load" "$floor")
result "CSV in, $n rows: load / floor" "<= 2x" "${r}x ($load s / $floor s)" "$(at_most "$r" 2)"
r=$(ratio "$load" "$plain")
result "CSV in, $n rows: load / plain COPY" "<= 6x (4x moonshot)" "${r}x ($load s / $plain s)" "$(at_most "$r" 6)"

echo "== documents out"
q -c "CREATE TABLE kept (document jsonb)" -c "INSERT INTO kept SELECT document FROM kernelindex.documents"
out=$(timed "$db" "\\copy (SELECT document FROM kernelindex.documents) TO '$jsonl' WITH $jsonl_opts")
kept=$(timed "$db" "\\copy (SELECT document FROM kept) TO '$work/kept.jsonl' WITH $jsonl_opts")
lines=$(wc -l <"$jsonl")
printf 'COPY TO from kernelindex.documents:   %8.2f s  (%d lines, %s)\n' "$out" "$lines" "$(du -h "$jsonl" | cut -f1)"
printf 'COPY TO of the same kept as jsonb:    %8.2f s\n' "$kept"
cmp -s <(sort "$jsonl") <(sort "$work/kept.jsonl") || { echo "FAILED: the exported documents differ from the kept ones"; exit 1; }
rm -f "$work/kept.jsonl"
q -c "DROP TABLE kept"
r=$(ratio "$out" "$kept")
result "documents out, $lines runs: COPY TO / jsonb COPY TO" "<= 3x" "${r}x ($out s / $kept s)" "$(at_most "$r" 3)"

echo "== documents in"
psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $db2" -c "CREATE DATABASE $db2"
psql -X -q -v ON_ERROR_STOP=1 -d "$db2" -c "CREATE EXTENSION kernelindex" -c "CREATE TABLE lines (document jsonb)"
plainjson=$(timed "$db2" "\\copy lines FROM '$jsonl' WITH $jsonl_opts")
psql -X -q -d "$db2" -c "DROP TABLE lines"
docsin=$(timed "$db2" "\\copy kernelindex.documents FROM '$jsonl' WITH $jsonl_opts")
printf 'COPY of the lines into a jsonb table: %8.2f s\n' "$plainjson"
printf 'COPY into kernelindex.documents:      %8.2f s\n' "$docsin"
same=$(psql -X -At -d "$db2" -c "SELECT count(*) FROM kernelindex.runs")
[ "$same" -eq "$runs" ] || { echo "FAILED: $runs documents gave $same runs"; exit 1; }
a=$(q -At -c "SELECT md5(string_agg(digest::text, '' ORDER BY digest)) FROM kernelindex.runs")
b=$(psql -X -At -d "$db2" -c "SELECT md5(string_agg(digest::text, '' ORDER BY digest)) FROM kernelindex.runs")
[ "$a" = "$b" ] || { echo "FAILED: the documents loaded back are not the same runs"; exit 1; }
echo "documents loaded back: the same $same runs"
r=$(ratio "$docsin" "$plainjson")
result "documents in, $lines bundles: COPY / jsonb COPY" "<= 5x" "${r}x ($docsin s / $plainjson s)" "$(at_most "$r" 5)"
