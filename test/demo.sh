#!/usr/bin/env bash
# The demo, run by `make demo` against the throwaway cluster test/run.sh
# started (libpq variables PGHOST, PGPORT, PGUSER point at it).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
psql -X -q -v ON_ERROR_STOP=1 -d postgres -f "$top/test/demo.sql"
