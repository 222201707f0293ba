#!/usr/bin/env bash
# The demo, run by `make demo` against the throwaway cluster test/run.sh
# started (libpq variables PGHOST, PGPORT, PGUSER point at it).
# Data: test/data/liger_sample.csv, then the upstream Liger file when
# ../shared has it, or the file named by CSV (make demo CSV=path).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
extra=""
if [ -n "${CSV:-}" ]; then
	[ -r "$CSV" ] || { echo "CSV=$CSV: no such readable file" >&2; exit 1; }
	extra=$(cd "$(dirname "$CSV")" && pwd)/$(basename "$CSV")
elif [ -r "$top/../shared/data/liger/all_benchmark_data.csv" ]; then
	extra=$(cd "$top/../shared/data/liger" && pwd)/all_benchmark_data.csv
fi
KIDX_DEMO_CSV="$extra" psql -X -q -v ON_ERROR_STOP=1 -v extra_csv="$extra" -d postgres -f "$top/test/demo.sql"
