#!/usr/bin/env bash
# Benchmark of kidx_canonical_digest (doc/performance.md, "Targets"): see canonical.sql.
#
#   test/bench/canonical.sh
#
# Needs a running server reachable through the standard libpq variables
# (PGHOST, PGPORT, PGUSER, PGDATABASE) with `CREATE EXTENSION kernelindex`
# done in that database.  Creates nothing outside its own session (pg_temp).
# Environment:
#   BENCH_N       documents (default 20000)
#   BENCH_REPS    repetitions, best one counts (default 3)
#   BENCH_SAMPLE  documents whose kidx digest is compared with the PL/pgSQL
#                 canonicalizer's (default 500)
#   BENCH_STRICT  1: exit non-zero when a ratio target is not met or the
#                 digests disagree (default 0: report only)
# Prints the best time of each contender in ms and the two ratios
# (targets: kidx/builtin <= 1.0, plpgsql/kidx >= 20).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
if command -v psql >/dev/null 2>&1; then
  PSQL=psql
elif [ -x /usr/lib/postgresql/15/bin/psql ]; then
  PSQL=/usr/lib/postgresql/15/bin/psql
else
  echo "canonical: psql not found (PATH or /usr/lib/postgresql/15/bin)" >&2
  exit 2
fi

export PGCLIENTENCODING=UTF8
out=$(mktemp "${TMPDIR:-/tmp}/kidx-bench-canonical.XXXXXX")
trap 'rm -f "$out"' EXIT

set +e
"$PSQL" -X -q -v ON_ERROR_STOP=1 \
  -v n="${BENCH_N:-20000}" -v reps="${BENCH_REPS:-3}" -v sample="${BENCH_SAMPLE:-500}" \
  -f "$here/canonical.sql" >"$out" 2>&1
rc=$?
set -e
cat "$out"
if [ $rc -ne 0 ]; then
  echo "canonical: psql failed (exit $rc)" >&2
  exit 1
fi
. "$here/lib.sh"
kb=$(sed -n 's/.*ratio kidx\/builtin  = \([0-9.]*\).*/\1/p' "$out")
pk=$(sed -n 's/.*ratio plpgsql\/kidx  = \([0-9.]*\).*/\1/p' "$out")
result "kidx_canonical_digest / sha256(convert_to(doc::text))" "<= 1x" "${kb}x" "$(at_most "$kb" 1)"
result "PL/pgSQL canonicalizer / kidx_canonical_digest" ">= 20x" "${pk}x" "$(at_most 20 "$pk")"
if [ "${BENCH_STRICT:-0}" = 1 ] && grep -qE 'NOT met|DISAGREEMENT|WARNING' "$out"; then
  exit 1
fi
exit 0
