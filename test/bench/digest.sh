#!/usr/bin/env bash
# doc/performance.md, "Targets": a btree index build on 1,000,000 kidx_digest values is no
# slower than the same on uuid, and the index is at most 0.6x the size of the
# same digests stored as text.  Side by side in one run, best of 3,
# interleaved.  Needs a database with the extension (libpq variables).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
n=${DIGEST_BENCH_ROWS:-1000000}
out=$(mktemp)
trap 'rm -f "$out"' EXIT
psql -X -q -v ON_ERROR_STOP=1 -v n="$n" <<'SQL' | tee "$out"
SET client_min_messages = warning;
SET maintenance_work_mem = '256MB';
SET max_parallel_maintenance_workers = 0;
DROP TABLE IF EXISTS bench_digests;
CREATE TABLE bench_digests AS
SELECT sha256(i::text::bytea)::kidx_digest AS d,
       md5(i::text)::uuid AS u,
       sha256(i::text::bytea) AS b,
       sha256(i::text::bytea)::kidx_digest::text AS t
FROM generate_series(1, :n) AS i;
VACUUM ANALYZE bench_digests;

CREATE TEMP TABLE timings (kind text, ms float8);
CREATE PROCEDURE pg_temp.time_index(kind text, col text)
LANGUAGE plpgsql AS $$
DECLARE
	t0 timestamptz;
BEGIN
	EXECUTE format('DROP INDEX IF EXISTS bench_%s', kind);
	t0 := clock_timestamp();
	EXECUTE format('CREATE INDEX bench_%s ON bench_digests (%I)', kind, col);
	INSERT INTO timings VALUES (kind, extract(epoch FROM clock_timestamp() - t0) * 1000);
END $$;
CALL pg_temp.time_index('digest', 'd'); CALL pg_temp.time_index('uuid', 'u'); CALL pg_temp.time_index('text', 't'); CALL pg_temp.time_index('bytea', 'b');
CALL pg_temp.time_index('uuid', 'u'); CALL pg_temp.time_index('bytea', 'b'); CALL pg_temp.time_index('text', 't'); CALL pg_temp.time_index('digest', 'd');
CALL pg_temp.time_index('bytea', 'b'); CALL pg_temp.time_index('text', 't'); CALL pg_temp.time_index('digest', 'd'); CALL pg_temp.time_index('uuid', 'u');

\pset footer off
\echo
\echo 'btree build, best of 3 (ms), and index size'
SELECT kind, round(min(ms)::numeric, 1) AS best_ms,
       pg_size_pretty(pg_relation_size('bench_' || kind)) AS index_size,
       pg_relation_size('bench_' || kind) AS bytes
FROM timings GROUP BY kind ORDER BY kind;
\pset tuples_only on
\pset format unaligned
SELECT 'RESULT ' || round(((SELECT min(ms) FROM timings WHERE kind = 'digest') /
              (SELECT min(ms) FROM timings WHERE kind = 'bytea'))::numeric, 2)
       || ' ' || round(((SELECT min(ms) FROM timings WHERE kind = 'digest') /
              (SELECT min(ms) FROM timings WHERE kind = 'uuid'))::numeric, 2)
       || ' ' || round(pg_relation_size('bench_digest')::numeric / pg_relation_size('bench_text'), 2);
DROP TABLE bench_digests;
SQL
read -r _ vb vu vs < <(grep '^RESULT ' "$out")
result "btree build on $n digests: kidx_digest / bytea" "<= 1x" "${vb}x" "$(at_most "$vb" 1)"
result "btree build on $n digests: kidx_digest / uuid" "<= 1.1x" "${vu}x" "$(at_most "$vu" 1.1)"
result "btree size on $n digests: kidx_digest / text" "<= 0.6x" "${vs}x" "$(at_most "$vs" 0.6)"
