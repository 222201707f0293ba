#!/usr/bin/env bash
# Ingestion benchmark (doc/performance.md, "Targets"), side by side in one run, on one data
# shape (KIDX_BENCH_SHAPE: a, b or c, see generate.sh; the file in
# KIDX_BENCH_CSV, else LIGER_BENCH_ROWS rows, default 1,000,000, made here):
#
# - CSV in: the file COPYed into kernelindex.liger_rows, against a plain
#   COPY of the same file into an unindexed table of 15 text columns and
#   against the floor: the same resolved runs, already stored, inserted in
#   key order into a copy of kernelindex.runs with its indexes and no
#   triggers; beside it, PostgreSQL's own INSERT of every row the load
#   stores in the tables that grow with it (runs, keys, workloads: lib.sh
#   floor_stored), which the floor leaves out, and the same rows by COPY
#   FROM (COPY's batched insertion).
# - Documents out: COPY (SELECT document FROM kernelindex.documents) TO a
#   file, against a COPY TO of the same documents kept in a jsonb column
#   (loaded from that file).
# - Documents in: COPY of that file (one bundle per line) into
#   kernelindex.documents of an empty store, against the COPY of the same
#   lines into a one-column jsonb table.
#
# The loaded store is left in database ${KIDX_BENCH_DB:-kidx_bench}, with the
# documents as jsonb in table bench_documents (in the order exported), for
# the benchmarks that follow (store.sh, bi.sh).  Fast is worthless if
# wrong: every row is a run, a sample of the runs is checked against their
# documents, the documents kept as jsonb export as the store exported them
# (compared sorted), and the documents loaded back are the same runs.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

db=${KIDX_BENCH_DB:-kidx_bench}
db2=${db}_docs
work=$(mktemp -d /tmp/kidx-bench-ingest.XXXXXX)
chmod 755 "$work"
jsonl="$work/bundles.jsonl"
cleanup() {
	psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $db2" >/dev/null 2>&1 || true
	rm -rf "$work"
}
trap cleanup EXIT
q() { psql -X -q -v ON_ERROR_STOP=1 -d "$db" "$@"; }
jsonl_opts="(FORMAT csv, QUOTE E'\\x01', DELIMITER E'\\x02')"

big=${KIDX_BENCH_CSV:-}
if [ -z "$big" ]; then
	big="$work/liger.csv"
	bash "$here/generate.sh" "${KIDX_BENCH_SHAPE:-a}" "${LIGER_BENCH_ROWS:-1000000}" "$big"
fi
n=$(($(wc -l <"$big") - 1))

psql -X -q -d postgres -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db"
q -c "CREATE EXTENSION kernelindex"
q -c "CREATE TABLE plain (kernel_name text, kernel_provider text, kernel_operation_mode text, metric_name text, metric_unit text, x_name text, x_label text, x_value text, y_value_50 text, y_value_20 text, y_value_80 text, extra_benchmark_config_str text, gpu_name text, \"timestamp\" text, liger_version text)"

export KIDX_BENCH_ERROR="$work/error"
echo "== CSV in ($(thousands "$n") rows, $(du -h "$big" | cut -f1))"
plain=$(timed "$db" "\\copy plain FROM '$big' WITH (FORMAT csv, HEADER MATCH)")
q -c "DROP TABLE plain"
failed=""
if ! load=$(timed "$db" "\\copy kernelindex.liger_rows FROM '$big' WITH (FORMAT csv, HEADER MATCH)"); then
	# The figure is missed; the same rows loaded in smaller COPYs give the
	# store the other figures are measured on.
	failed="FAILED in one COPY: $(failure "$KIDX_BENCH_ERROR")"
	echo "$failed"
	wait_for_server || { echo "FAILED: the server did not come back"; exit 1; }
	chunk=${KIDX_BENCH_CHUNK:-100000}
	mkdir "$work/chunks"
	tail -n +2 "$big" | split -l "$chunk" -d -a 4 - "$work/chunks/part-"
	load=0
	parts=0
	for f in "$work"/chunks/part-*; do
		{ head -n 1 "$big"; cat "$f"; } >"$f.csv"
		rm -f "$f"
		chmod 644 "$f.csv"
		t=$(timed "$db" "\\copy kernelindex.liger_rows FROM '$f.csv' WITH (FORMAT csv, HEADER MATCH)") ||
			{ echo "FAILED: a COPY of $(thousands "$chunk") rows failed too"; exit 1; }
		rm -f "$f.csv"
		load=$(awk -v a="$load" -v b="$t" 'BEGIN { printf "%.3f", a + b }')
		parts=$((parts + 1))
	done
	failed="$failed; in $parts COPYs of $(thousands "$chunk") rows:"
	echo "loaded in $parts COPYs of $(thousands "$chunk") rows: $load s"
fi
runs=$(q -At -c "SELECT count(*) FROM kernelindex.runs")
sample=$(q -At -F ' ' -c "SELECT count(*), count(*) FILTER (WHERE kidx_resource_digest(kernelindex.run_document(digest) -> 'run') <> digest) FROM kernelindex.runs TABLESAMPLE BERNOULLI (0.2) REPEATABLE (1)")
# (vacuumed first, so that no autovacuum of the new store overlaps the floors)
q -c "VACUUM ANALYZE"
floor=$(floor_runs "$db")
stored=$(floor_stored "$db")
copied=$(floor_stored "$db" copy "$work")
printf 'plain COPY into 15 text columns:      %8.2f s\n' "$plain"
printf 'COPY into kernelindex.liger_rows:     %8.2f s  (%d runs, %.0f us a row)\n' "$load" "$runs" "$(awk -v t="$load" -v n="$n" 'BEGIN { print 1e6 * t / n }')"
printf 'floor: the runs into a copy of runs:  %8.2f s\n' "$floor"
printf 'the runs, keys and workloads so:      %8.2f s\n' "$stored"
printf 'the same by COPY FROM (binary):       %8.2f s\n' "$copied"
echo "sampled runs whose digest is not their document's: ${sample#* } of ${sample% *}"
[ "$runs" -eq "$n" ] || { echo "FAILED: $n rows gave $runs runs"; exit 1; }
[ "${sample#* }" = 0 ] || { echo "FAILED: a sampled run's digest is not its document's"; exit 1; }
load_results "CSV in" "$load" "$floor" "$stored" "$copied" "$plain" "$failed"

echo "== documents out"
if ! out=$(timed "$db" "\\copy (SELECT document FROM kernelindex.documents) TO '$jsonl' WITH $jsonl_opts"); then
	why=$(failure "$KIDX_BENCH_ERROR")
	echo "documents out failed: $why"
	wait_for_server || { echo "FAILED: the server did not come back"; exit 1; }
	result "documents out: COPY TO / jsonb COPY TO" "<= 3x" "FAILED: $why" no
	result "documents in: COPY / jsonb COPY" "<= 5x" "not measured: no documents (documents out failed)" no
	q -c "CREATE TABLE bench_no_documents ()"
	exit 0
fi
lines=$(wc -l <"$jsonl")
q -c "CREATE TABLE bench_documents (document jsonb)"
plainjson=$(timed "$db" "\\copy bench_documents FROM '$jsonl' WITH $jsonl_opts")
kept=$(timed "$db" "\\copy (SELECT document FROM bench_documents) TO '$work/kept.jsonl' WITH $jsonl_opts")
printf 'COPY TO from kernelindex.documents:   %8.2f s  (%d lines, %s)\n' "$out" "$lines" "$(du -h "$jsonl" | cut -f1)"
printf 'COPY TO of the same kept as jsonb:    %8.2f s\n' "$kept"
[ "$lines" -eq "$runs" ] || { echo "FAILED: $runs runs gave $lines documents"; exit 1; }
# (a parallel scan returns the rows in any order: compared sorted)
sorted() { LC_ALL=C sort -S 25% --parallel=2 -T "$work" "$1" | md5sum; }
[ "$(sorted "$jsonl")" = "$(sorted "$work/kept.jsonl")" ] || { echo "FAILED: the exported documents differ from the kept ones"; exit 1; }
rm -f "$work/kept.jsonl"
r=$(ratio "$out" "$kept")
result "documents out: COPY TO / jsonb COPY TO" "<= 3x" "${r}x ($(dur "$out") / $(dur "$kept"))" "$(at_most "$r" 3)"

echo "== documents in"
psql -X -q -d postgres -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS $db2" -c "CREATE DATABASE $db2"
psql -X -q -v ON_ERROR_STOP=1 -d "$db2" -c "CREATE EXTENSION kernelindex"
if ! docsin=$(timed "$db2" "\\copy kernelindex.documents FROM '$jsonl' WITH $jsonl_opts"); then
	why=$(failure "$KIDX_BENCH_ERROR")
	echo "documents in failed: $why"
	wait_for_server || { echo "FAILED: the server did not come back"; exit 1; }
	result "documents in: COPY / jsonb COPY" "<= 5x" "FAILED in one COPY: $why" no
	exit 0
fi
printf 'COPY of the lines into a jsonb table: %8.2f s\n' "$plainjson"
printf 'COPY into kernelindex.documents:      %8.2f s\n' "$docsin"
same=$(psql -X -At -d "$db2" -c "SELECT count(*) FROM kernelindex.runs")
[ "$same" -eq "$runs" ] || { echo "FAILED: $runs documents gave $same runs"; exit 1; }
digests="SELECT md5(string_agg(digest::text, '' ORDER BY digest)) FROM kernelindex.runs"
[ "$(q -At -c "$digests")" = "$(psql -X -At -d "$db2" -c "$digests")" ] ||
	{ echo "FAILED: the documents loaded back are not the same runs"; exit 1; }
echo "documents loaded back: the same $same runs"
r=$(ratio "$docsin" "$plainjson")
result "documents in: COPY / jsonb COPY" "<= 5x" "${r}x ($(dur "$docsin") / $(dur "$plainjson"))" "$(at_most "$r" 5)"
