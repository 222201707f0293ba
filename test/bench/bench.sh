#!/usr/bin/env bash
# Every benchmark of doc/performance.md ("Targets"), side by side in one run on the cluster
# the libpq variables point at (make bench: test/run.sh starts a throwaway
# one), ending with one table: figure, target, the figure on each data
# shape, met.
#
# - Figures that do not depend on data, once: canonical.sh (the canonical
#   digest), digest.sh (the kidx_digest type).
# - For each data shape of KIDX_BENCH_SHAPES (default "a b c"; see
#   generate.sh): LIGER_BENCH_ROWS rows (default 1,000,000) made by
#   generate.sh, then ingest.sh (CSV in, documents out and in), store.sh
#   (bytes per run, comparable runs, run_document), bi.sh (the BI views,
#   the dashboard query), each shape in a database of its own, dropped
#   afterwards; and citus.sh (skipped without Citus) on the shapes of
#   KIDX_BENCH_CITUS_SHAPES (default all three, as the targets ask: four
#   clusters and two more loads a shape, about 6 minutes each here).
#
# Every figure is a ratio measured in this run; a target is met when it is
# met on all three shapes.  A statement that would miss its target by more
# than 3x is cut (KIDX_BENCH_TIMEOUT, lib.sh), so that a store whose cost
# explodes on one shape still gives its table in bounded time.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

shapes=${KIDX_BENCH_SHAPES:-$KIDX_ALL_SHAPES}
for s in $shapes; do shape_name "$s" >/dev/null || exit 2; done
n=${LIGER_BENCH_ROWS:-1000000}
export LIGER_BENCH_ROWS=$n
started=$(now)
work=$(mktemp -d /tmp/kidx-bench.XXXXXX)
chmod 755 "$work"
# The figures, one a line (lib.sh's result and fact); kept where the
# caller says.
export KIDX_BENCH_RESULTS=${KIDX_BENCH_RESULTS:-$work/results}
: >>"$KIDX_BENCH_RESULTS"
cleanup() { rm -rf "$work"; }
trap cleanup EXIT

log() { printf '== %s\n' "$*"; }
# Run one benchmark script; a failure is reported and the others go on.
run() {
	local b=$1
	log "benchmark test/bench/$b.sh${KIDX_BENCH_SHAPE:+, shape $KIDX_BENCH_SHAPE ($(shape_name "$KIDX_BENCH_SHAPE"))}"
	bash "$here/$b.sh" || { echo "benchmark $b.sh failed"; result "$b.sh" "runs" "FAILED (see its output)" no; }
}

# The figures that do not depend on data, in a database of their own.
psql -X -q -d postgres -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS kidx_bench_any" -c "CREATE DATABASE kidx_bench_any"
psql -X -q -d kidx_bench_any -c "CREATE EXTENSION kernelindex"
(
	export PGDATABASE=kidx_bench_any
	unset KIDX_BENCH_SHAPE
	run canonical
	run digest
)
psql -X -q -d postgres -c "DROP DATABASE kidx_bench_any"

for s in $shapes; do
	shape_started=$(now)
	(
		export KIDX_BENCH_SHAPE=$s KIDX_BENCH_DB=kidx_bench_$s KIDX_BENCH_CSV="$work/liger-$s.csv"
		export PGDATABASE=postgres
		log "shape $s ($(shape_name "$s")): $(thousands "$n") rows"
		bash "$here/generate.sh" "$s" "$n" "$KIDX_BENCH_CSV" || { result "generate.sh" "runs" "FAILED" no; exit 1; }
		run ingest
		run store
		run bi
		psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $KIDX_BENCH_DB"
		case " ${KIDX_BENCH_CITUS_SHAPES-$KIDX_ALL_SHAPES} " in
		*" $s "*) run citus ;;
		*) echo "citus.sh: not run on shape $s (KIDX_BENCH_CITUS_SHAPES=\"${KIDX_BENCH_CITUS_SHAPES-$KIDX_ALL_SHAPES}\")" ;;
		esac
		rm -f "$KIDX_BENCH_CSV"
	)
	log "shape $s took $(awk -v a="$shape_started" -v b="$(now)" 'BEGIN { printf "%.0f", b - a }') s"
done

# Any harness: LIGER_BENCH_ROWS varied run_rows rows, once (their own data).
log "benchmark test/bench/run_rows.sh"
bash "$here/run_rows.sh" || { echo "benchmark run_rows.sh failed"; result "run_rows.sh" "runs" "FAILED (see its output)" no; }

# Change points on a history-shaped data set of LIGER_BENCH_ROWS runs, once
# (their own data).
log "benchmark test/bench/change_points.sh"
bash "$here/change_points.sh" || { echo "benchmark change_points.sh failed"; result "change_points.sh" "runs" "FAILED (see its output)" no; }

# Loads of any size: one COPY at LIGER_BENCH_ROWS and at 10 times as many
# (KIDX_BENCH_SCALE rows; KIDX_BENCH_SCALE=0 leaves it out).
if [ "${KIDX_BENCH_SCALE:-}" != 0 ]; then
	log "benchmark test/bench/scale.sh"
	bash "$here/scale.sh" || { echo "benchmark scale.sh failed"; result "scale.sh" "runs" "FAILED (see its output)" no; }
fi

echo
elapsed=$(awk -v a="$started" -v b="$(now)" 'BEGIN { printf "%d min %d s", (b - a) / 60, (b - a) % 60 }')
echo "== make bench: every figure measured side by side in this run ($(thousands "$n") rows a shape, $(nproc) cores, $elapsed)"
table "$KIDX_BENCH_RESULTS" "$shapes"
