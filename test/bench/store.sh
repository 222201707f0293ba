#!/usr/bin/env bash
# Store benchmark (SPEC section 9), on the runs test/bench/ingest.sh left in
# ${KIDX_BENCH_DB:-kidx_bench} (a million by default):
# - bytes per stored run (heap and indexes of kernelindex.runs) against the
#   same runs kept as jsonb documents with a primary key on their digest;
# - "all runs comparable with this one": an index scan, under a millisecond.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
db=${KIDX_BENCH_DB:-kidx_bench}
q() { psql -X -q -v ON_ERROR_STOP=1 -d "$db" "$@"; }
runs=$(q -At -c "SELECT count(*) FROM kernelindex.runs" 2>/dev/null || echo 0)
[ "$runs" -gt 0 ] || { echo "store: no runs in $db; run test/bench/ingest.sh first"; exit 1; }

q -c "SET client_min_messages = warning" -c "DROP TABLE IF EXISTS bench_docs" \
  -c "CREATE TABLE bench_docs (digest kidx_digest PRIMARY KEY, doc jsonb NOT NULL)" \
  -c "INSERT INTO bench_docs SELECT r.digest, kernelindex.run_json(r) FROM kernelindex.runs r" \
  -c "VACUUM ANALYZE bench_docs" -c "VACUUM ANALYZE kernelindex.runs"
read -r typed heap idx docs shared < <(q -At -F ' ' -c "
	SELECT round(pg_total_relation_size('kernelindex.runs')::numeric / $runs),
	       round(pg_relation_size('kernelindex.runs')::numeric / $runs),
	       round(pg_indexes_size('kernelindex.runs')::numeric / $runs),
	       round(pg_total_relation_size('bench_docs')::numeric / $runs),
	       round((pg_total_relation_size('kernelindex.run_series') + pg_total_relation_size('kernelindex.comparability_keys'))::numeric / $runs, 1)")
echo "runs: $runs; bytes per run: typed $typed (heap $heap + indexes $idx), as jsonb $docs; series and keys add $shared per run"
q -c "DROP TABLE bench_docs"
r=$(ratio "$typed" "$docs")
result "stored run (heap + indexes) / run as jsonb, $runs runs" "<= 0.33" "$r ($typed / $docs bytes)" "$(at_most "$r" 0.333)"

out=$(q -At 2>&1 <<'SQL'
CREATE TEMP TABLE probe AS SELECT digest FROM kernelindex.runs TABLESAMPLE SYSTEM (1) LIMIT 200;
SELECT digest AS probe1 FROM probe LIMIT 1 \gset
EXPLAIN (COSTS OFF) SELECT b.digest, b.observed_at, b.latency_ns
FROM kernelindex.runs a JOIN kernelindex.runs b ON a ~=~ b WHERE a.digest = :'probe1';
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
	RAISE NOTICE 'LOOKUP % % %', round((extract(epoch FROM clock_timestamp() - t0) * 1000 / n)::numeric, 3), rows / n, n;
END $$;
SQL
)
echo "$out"
ms=$(sed -n 's/.*LOOKUP \([0-9.]*\) .*/\1/p' <<<"$out")
scan=$(grep -c "Index" <<<"$out" || true)
met=$(at_most "$ms" 1)
[ "$scan" -ge 2 ] || met=no
result "all runs comparable with one, $runs runs" "index scan, < 1 ms" "$ms ms, $(grep -o 'Index Scan using [a-z_]*' <<<"$out" | sort -u | tr '\n' ' ')" "$met"
