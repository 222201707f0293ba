#!/usr/bin/env bash
# The benchmarks' data (doc/performance.md, "Targets"): N rows of Liger CSV made from the
# upstream file (../shared's all_benchmark_data.csv; test/data's sample when
# ../shared is absent, saying so), in one of three shapes:
#
#   a (bench)     the upstream file's rows over and over, each row with its
#                 own timestamp: the replicas share everything but their
#                 time (many runs per comparability key and implementation);
#   b (release)   the same, and every replica of the file a new release:
#                 liger_version 1.0.k for replica k (ordered as versions:
#                 1.0.10 after 1.0.9), with its own times;
#   c (upstream)  as varied as the upstream history, where almost every run
#                 is new in its workload: every replica a new release with
#                 its own times, and its workloads renamed (x_value + k *
#                 1,000,000 for replica k, so that every workload is new).
#
#   test/bench/generate.sh SHAPE N OUT.csv
#
# Row g (from 0) is the upstream row g mod R (R rows in the file) of
# replica k = g div R, observed at 2020-01-01 00:00:00 + g seconds.  The
# shape is then measured from the file's columns, not from a store: rows,
# distinct (comparability key, implementation) pairs (kernel, provider,
# pass, metric, x_name, x_label, x_value, config, gpu), workloads (kernel,
# x_*, config), releases, runs per pair; each recorded with fact().
# Needs a database (libpq variables); creates temporary tables only.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
[ $# -eq 3 ] || { echo "usage: $0 a|b|c N OUT.csv" >&2; exit 2; }
shape=$1 n=$2 out=$3
name=$(shape_name "$shape")
upstream_csv
case "$shape" in
a) version="u.liger_version" x="u.x_value" ;;
b) version="'1.0.' || k" x="u.x_value" ;;
c) version="'1.0.' || k"
   x="CASE WHEN u.x_value ~ '^-?[0-9]+(\\.[0-9]+)?\$' THEN (u.x_value::numeric + k * 1000000)::text ELSE u.x_value || '-' || k END" ;;
esac
cols="kernel_name text, kernel_provider text, kernel_operation_mode text, metric_name text, metric_unit text, x_name text, x_label text, x_value text, y_value_50 text, y_value_20 text, y_value_80 text, extra_benchmark_config_str text, gpu_name text, \"timestamp\" text, liger_version text"

echo "== generating $(thousands "$n") rows of shape $shape ($name) from $(basename "$csv")"
touch "$out"
chmod 644 "$out"
psql -X -q -v ON_ERROR_STOP=1 <<SQL
CREATE TEMP TABLE upstream ($cols);
\\copy upstream FROM '$csv' WITH (FORMAT csv, HEADER MATCH)
CREATE TEMP TABLE upstream_n AS SELECT row_number() OVER () - 1 AS ord, u.* FROM upstream u;
\\copy (SELECT u.kernel_name, u.kernel_provider, u.kernel_operation_mode, u.metric_name, u.metric_unit, u.x_name, u.x_label, $x AS x_value, u.y_value_50, u.y_value_20, u.y_value_80, u.extra_benchmark_config_str, u.gpu_name, to_char(timestamp '2020-01-01' + g * interval '1 second', 'YYYY-MM-DD HH24:MI:SS') AS "timestamp", $version AS liger_version FROM generate_series(0, $n - 1) g CROSS JOIN LATERAL (SELECT g / (SELECT count(*) FROM upstream_n) AS k) kk JOIN upstream_n u ON u.ord = g % (SELECT count(*) FROM upstream_n) ORDER BY g) TO '$out' WITH (FORMAT csv, HEADER)
SQL

# The shape, from the file's columns.
read -r rows pairs workloads releases < <(psql -X -q -At -F ' ' -v ON_ERROR_STOP=1 <<SQL
CREATE TEMP TABLE made ($cols);
\\copy made FROM '$out' WITH (FORMAT csv, HEADER MATCH)
SELECT count(*),
	(SELECT count(*) FROM (SELECT DISTINCT kernel_name, kernel_provider, kernel_operation_mode, metric_name,
		x_name, x_label, x_value, extra_benchmark_config_str, gpu_name FROM made) p),
	(SELECT count(*) FROM (SELECT DISTINCT kernel_name, x_name, x_label, x_value, extra_benchmark_config_str FROM made) w),
	count(DISTINCT liger_version)
FROM made;
SQL
)
echo "file: $out, $(du -h "$out" | cut -f1)"
[ "$rows" -eq "$n" ] || { echo "generate: $n rows asked, $rows made" >&2; exit 1; }
fact "rows" "$(thousands "$rows")"
fact "distinct (comparability key, implementation)" "$(thousands "$pairs")"
fact "distinct workloads" "$(thousands "$workloads")"
fact "releases" "$(thousands "$releases")"
fact "runs per (key, implementation)" "$(awk -v a="$rows" -v b="$pairs" 'BEGIN { printf "%.1f", a / b }')"
