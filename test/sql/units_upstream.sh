#!/usr/bin/env bash
# Every y_value_* of the upstream Liger CSV converts exactly as PostgreSQL's
# numeric says: kidx_ms_to_ns(x) = round(x::numeric * 1000000)::bigint (and
# the MiB rows likewise to bytes), for text, numeric and double precision.
# Runs against the cluster the libpq variables point at; needs ../shared.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
csv="$top/../shared/data/liger/all_benchmark_data.csv"
if [ ! -r "$csv" ]; then
	echo "units_upstream: skipped: $csv is absent"
	exit 0
fi
db=kidx_units_upstream
psql -X -q -d postgres -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db"
result=$(psql -X -q -At -v ON_ERROR_STOP=1 -d "$db" <<SQL
CREATE EXTENSION kernelindex;
CREATE TABLE raw (kernel_name text, kernel_provider text, kernel_operation_mode text,
	metric_name text, metric_unit text, x_name text, x_label text, x_value text,
	y_value_50 text, y_value_20 text, y_value_80 text, extra_benchmark_config_str text,
	gpu_name text, "timestamp" text, liger_version text);
\copy raw FROM '$csv' WITH (FORMAT csv, HEADER MATCH)
WITH v AS (
	SELECT metric_unit, y FROM raw, LATERAL (VALUES (y_value_50), (y_value_20), (y_value_80)) AS t(y)
)
SELECT count(*) || ' ' ||
	count(*) FILTER (WHERE metric_unit <> 'ms' OR (
		kidx_ms_to_ns(y) = round(y::numeric * 1000000)::bigint
		AND kidx_ms_to_ns(y::numeric) = round(y::numeric * 1000000)::bigint
		AND kidx_ms_to_ns(y::float8) = round(y::float8::text::numeric * 1000000)::bigint)) || ' ' ||
	count(*) FILTER (WHERE metric_unit <> 'MB' OR (
		kidx_mib_to_bytes(y) = round(y::numeric * 1048576)::bigint
		AND kidx_mib_to_bytes(y::float8) = round(y::float8::text::numeric * 1048576)::bigint))
FROM v;
SQL
)
psql -X -q -d postgres -c "DROP DATABASE $db"
read -r total ms_ok mb_ok <<<"$result"
failed=$(( (total - ms_ok) + (total - mb_ok) ))
echo "units_upstream: $total y values checked; $((total * 2 - failed)) passed, $failed failed"
[ "$failed" -eq 0 ]
