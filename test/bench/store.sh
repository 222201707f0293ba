#!/usr/bin/env bash
# Store benchmark (doc/performance.md, "Targets"), on the runs test/bench/ingest.sh left in
# ${KIDX_BENCH_DB:-kidx_bench}, with their documents as jsonb in table
# bench_documents (made here from kernelindex.documents when absent):
# - bytes per stored run: kernelindex.runs (heap and indexes) and its share
#   of the store's other tables (KIDX_STORE_TABLES_SQL in lib.sh), against the
#   run documents kept as jsonb with a primary key on their digest;
# - "all runs comparable with this one": an index scan, under a millisecond;
# - one run's document by kernelindex.run_document(digest), for 20,000
#   sampled runs, against reading the same documents from a jsonb table by
#   a btree index (best of three each, every document to the client).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
db=${KIDX_BENCH_DB:-kidx_bench}
q() { psql -X -q -v ON_ERROR_STOP=1 -d "$db" "$@"; }
runs=$(q -At -c "SELECT count(*) FROM kernelindex.runs" 2>/dev/null || echo 0)
[ "$runs" -gt 0 ] || { echo "store: no runs in $db; run test/bench/ingest.sh first"; exit 1; }

# The documents ingest.sh exported, as jsonb: by digest (for run_document)
# and the run documents alone (for the bytes).  None when documents out
# failed (ingest.sh says so with table bench_no_documents).
documents=yes
if [ "$(q -At -c "SELECT to_regclass('bench_no_documents') IS NOT NULL")" = t ]; then
	documents=""
	echo "store: documents out failed (ingest.sh): no documents to measure against"
else
	q -c "SET client_min_messages = warning" \
	  -c "CREATE TABLE IF NOT EXISTS bench_documents AS SELECT document FROM kernelindex.documents" \
	  -c "DROP TABLE IF EXISTS bench_by_digest, bench_run_documents" \
	  -c "CREATE TABLE bench_by_digest (digest kidx_digest PRIMARY KEY, document jsonb NOT NULL)" \
	  -c "INSERT INTO bench_by_digest SELECT kidx_resource_digest(document -> 'run'), document FROM bench_documents" \
	  -c "CREATE TABLE bench_run_documents (digest kidx_digest PRIMARY KEY, document jsonb NOT NULL)" \
	  -c "INSERT INTO bench_run_documents SELECT digest, document -> 'run' FROM bench_by_digest"
fi
q -c "VACUUM ANALYZE"

echo "== bytes per run"
tables=$(q -At -c "$KIDX_STORE_TABLES_SQL" | sed "s/.*/'&'/" | paste -sd, -)
read -r store runs_heap runs_idx others < <(q -At -F ' ' -c "
	SELECT round(sum(pg_total_relation_size(t::regclass))::numeric / $runs),
	       round(pg_relation_size('kernelindex.runs')::numeric / $runs),
	       round(pg_indexes_size('kernelindex.runs')::numeric / $runs),
	       round(sum(pg_total_relation_size(t::regclass)) FILTER (WHERE t <> 'kernelindex.runs')::numeric / $runs, 1)
	FROM unnest(ARRAY[$tables]) t")
q -At -c "SELECT format('  %s: %s', t, pg_size_pretty(pg_total_relation_size(t::regclass))) FROM unnest(ARRAY[$tables]) t"
echo "runs: $runs; bytes per run: $store in the store (runs heap $runs_heap + indexes $runs_idx, other tables $others)"
name="stored run (runs heap + indexes + share of other tables) / run document as jsonb"
if [ -n "$documents" ]; then
	docs=$(q -At -c "SELECT round(pg_total_relation_size('bench_run_documents')::numeric / $runs)")
	echo "the run document as jsonb (with a primary key on its digest): $docs"
	r=$(ratio "$store" "$docs")
	met=$(at_most "$r" 0.333)
	result "$name" "<= 0.33" "$r ($store / $docs B)" "$met"
else
	result "$name" "<= 0.33" "not measured: no documents (documents out failed); the store: $store B a run" no
fi

echo "== all runs comparable with one"
out=$(q -At 2>&1 <<'SQL'
CREATE TEMP TABLE probe AS SELECT digest FROM kernelindex.runs TABLESAMPLE SYSTEM (1) REPEATABLE (1) LIMIT 200;
SELECT digest AS probe1 FROM probe LIMIT 1 \gset
EXPLAIN (COSTS OFF) SELECT b.digest, b.observed_at FROM kernelindex.runs b
WHERE b.comparability_key = (SELECT a.comparability_key FROM kernelindex.runs a WHERE a.digest = :'probe1');
DO $$
DECLARE d kidx_digest; t0 timestamptz; n bigint := 0; rows bigint := 0; c bigint;
BEGIN
	FOR d IN SELECT digest FROM probe LOOP            -- warm the cache
		SELECT count(*) INTO c FROM kernelindex.runs b
		WHERE b.comparability_key = (SELECT a.comparability_key FROM kernelindex.runs a WHERE a.digest = d);
	END LOOP;
	t0 := clock_timestamp();
	FOR d IN SELECT digest FROM probe LOOP
		SELECT count(*) INTO c FROM kernelindex.runs b
		WHERE b.comparability_key = (SELECT a.comparability_key FROM kernelindex.runs a WHERE a.digest = d);
		n := n + 1; rows := rows + c;
	END LOOP;
	RAISE NOTICE 'LOOKUP % % %', round((extract(epoch FROM clock_timestamp() - t0) * 1000 / n)::numeric, 3), round(rows::numeric / n, 1), n;
END $$;
SQL
)
echo "$out"
read -r ms per _ < <(sed -n 's/.*LOOKUP \([0-9.]*\) \([0-9.]*\) \([0-9]*\).*/\1 \2 \3/p' <<<"$out")
indexes=$(grep -o -E 'Index[A-Za-z ]* Scan using [a-z_]*|Bitmap Index Scan on [a-z_]*' <<<"$out" | sed -E 's/.* (using|on) //' | sort -u | tr '\n' ' ')
met=$(at_most "$ms" 1)
[ "$(grep -c 'Index' <<<"$out")" -ge 2 ] || met=no
grep -q 'Seq Scan' <<<"$out" && met=no
result "all runs comparable with one" "index scan, < 1 ms" "$ms ms ($per runs; ${indexes% })" "$met"

if [ -z "$documents" ]; then
	result "run_document(digest) of sampled runs / jsonb table by btree" "<= 3x" "not measured: no documents (documents out failed)" no
	exit 0
fi
echo "== one run's document: run_document(digest) against a jsonb table by a btree index"
q -c "SET client_min_messages = warning" -c "DROP TABLE IF EXISTS bench_sample" \
  -c "CREATE TABLE bench_sample AS SELECT digest FROM (SELECT digest FROM kernelindex.runs TABLESAMPLE BERNOULLI ($(awk -v r="$runs" 'BEGIN { p = 100 * 25000 / r; if (p > 100) p = 100; printf "%.4f", p }')) REPEATABLE (1)) s ORDER BY md5(digest::text) LIMIT 20000" \
  -c "ANALYZE bench_sample"
sampled=$(q -At -c "SELECT count(*) FROM bench_sample")
differ=$(q -At -c "SELECT count(*) FROM bench_sample s LEFT JOIN bench_by_digest k USING (digest) WHERE k.document IS DISTINCT FROM kernelindex.run_document(s.digest)")
[ "$differ" = 0 ] || { echo "FAILED: $differ of $sampled sampled runs: run_document differs from the document exported"; exit 1; }
plan=$(q -At -c "EXPLAIN (COSTS OFF) SELECT (SELECT k.document FROM bench_by_digest k WHERE k.digest = s.digest) FROM bench_sample s")
grep -q 'Index Scan using bench_by_digest_pkey' <<<"$plan" || { echo "store: the jsonb read does not use its btree index:"; echo "$plan"; }
read -r jsonb _ <<<"$(best "$db" 600 "\\copy (SELECT (SELECT k.document FROM bench_by_digest k WHERE k.digest = s.digest) FROM bench_sample s) TO '/dev/null'")"
limit=$(limit_for 3 "$jsonb")
read -r one _ <<<"$(best "$db" "$limit" "\\copy (SELECT kernelindex.run_document(s.digest) FROM bench_sample s) TO '/dev/null'")"
echo "$sampled documents: run_document $one s, from the jsonb table by its btree index $jsonb s"
if [ "$one" = cut ]; then
	result "run_document(digest) of sampled runs / jsonb table by btree" "<= 3x" "> $(ratio "$limit" "$jsonb")x (cut at $(dur "$limit") / $(dur "$jsonb"), $(thousands "$sampled") runs)" no
else
	r=$(ratio "$one" "$jsonb")
	result "run_document(digest) of sampled runs / jsonb table by btree" "<= 3x" "${r}x ($(dur "$one") / $(dur "$jsonb"), $(thousands "$sampled") runs)" "$(at_most "$r" 3)"
fi
q -c "DROP TABLE bench_sample, bench_by_digest, bench_run_documents"
