#!/usr/bin/env bash
# kernelindex.change_points at scale (SPEC sections 9 and 10, issue 26,
# item 4), on a history-shaped data set of LIGER_BENCH_ROWS runs (default
# 1,000,000) made from the upstream file as test/bench/generate.sh makes its
# shapes: row g is the upstream row u = g mod R of replica k = g div R; the
# replicas come in blocks of 40 releases (liger_version 1.0.0 to 1.0.39,
# replica k being release k mod 40 of block k div 40), each block's
# workloads renamed as shape (c) does (x_value + block * 1,000,000), so that
# every series (one implementation under one comparability key) is a
# history of 40 releases; every value has 2% noise (Gaussian, drawn from a
# hash of g: the same data every run), and one series in four a planted
# regression of 25% from a release between 8 and 31 on.  Then:
# - a full read of kernelindex.change_points (every row and column to the
#   client) against a full read of kernelindex.runs (target: at most 5x);
# - the dashboard query, series_change_points (the view for dashboards,
#   where it exists) and change_points filtered to one kernel and GPU
#   (sparsemax on the GeForce RTX 3090, as bi.sh), against reading that
#   kernel and GPU's runs from kernelindex.runs by index (target: at most
#   3x); their plans are printed.
# Each time is the best of three in one psql session (\timing); a statement
# is cut where it would miss its target by more than 3x (limit_for).  In a
# database of its own, dropped afterwards.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

n=${LIGER_BENCH_ROWS:-1000000}
own_database change_points
q() { psql -X -q -v ON_ERROR_STOP=1 -d "$db" "$@"; }
upstream_csv
out=$work/history.csv
cols="kernel_name text, kernel_provider text, kernel_operation_mode text, metric_name text, metric_unit text, x_name text, x_label text, x_value text, y_value_50 text, y_value_20 text, y_value_80 text, extra_benchmark_config_str text, gpu_name text, \"timestamp\" text, liger_version text"

echo "== generating $(thousands "$n") history-shaped rows (40 releases a series, 2% noise, a regression in one series in four) from $(basename "$csv")"
touch "$out"
chmod 666 "$out"
q <<SQL
CREATE TEMP TABLE upstream ($cols);
\\copy upstream FROM '$csv' WITH (FORMAT csv, HEADER MATCH)
CREATE TEMP TABLE upstream_n AS SELECT row_number() OVER () - 1 AS ord, u.* FROM upstream u;
-- A uniform draw in (0, 1) from a hash of (g, salt).
CREATE FUNCTION pg_temp.u01(g bigint, salt integer) RETURNS double precision LANGUAGE sql IMMUTABLE
RETURN ((('x' || substr(md5(g::text || '/' || salt::text), 1, 8))::bit(32)::bigint) + 0.5) / 4294967296.0;
-- A value scaled by f, where it is a number.
CREATE FUNCTION pg_temp.scaled(y text, f double precision) RETURNS text LANGUAGE sql IMMUTABLE
RETURN CASE WHEN y ~ '^[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?\$' THEN (y::float8 * f)::text ELSE y END;
\\copy (SELECT u.kernel_name, u.kernel_provider, u.kernel_operation_mode, u.metric_name, u.metric_unit, u.x_name, u.x_label, CASE WHEN u.x_value ~ '^-?[0-9]+(\\.[0-9]+)?\$' THEN (u.x_value::numeric + b * 1000000)::text ELSE u.x_value || '-' || b END AS x_value, pg_temp.scaled(u.y_value_50, f) AS y_value_50, pg_temp.scaled(u.y_value_20, f) AS y_value_20, pg_temp.scaled(u.y_value_80, f) AS y_value_80, u.extra_benchmark_config_str, u.gpu_name, to_char(timestamp '2020-01-01' + g * interval '1 second', 'YYYY-MM-DD HH24:MI:SS') AS "timestamp", '1.0.' || r AS liger_version FROM generate_series(0, $n - 1) g CROSS JOIN LATERAL (SELECT g / (SELECT count(*) FROM upstream_n) AS k, g % (SELECT count(*) FROM upstream_n) AS o) kk CROSS JOIN LATERAL (SELECT k / 40 AS b, k % 40 AS r) br JOIN upstream_n u ON u.ord = kk.o CROSS JOIN LATERAL (SELECT (1 + 0.02 * sqrt(-2 * ln(pg_temp.u01(g, 1))) * cos(2 * pi() * pg_temp.u01(g, 2))) * CASE WHEN (u.ord + b) % 4 = 0 AND r >= 8 + (u.ord * 7 + b) % 24 THEN 1.25 ELSE 1 END AS f) ff ORDER BY g) TO '$out' WITH (FORMAT csv, HEADER)
SQL
load=$(timed "$db" "\\copy kernelindex.liger_rows FROM '$out' WITH (FORMAT csv, HEADER MATCH)")
rm -f "$out"
runs=$(q -At -c "SELECT count(*) FROM kernelindex.runs")
echo "loaded $(thousands "$runs") runs in $load s"
q -c "VACUUM ANALYZE"
fact "change_points.sh: runs (history-shaped: 40 releases a series, 2% noise, 25% regressions)" "$(thousands "$runs")"

read_all() { echo "\\copy ($1) TO '/dev/null'"; }

echo "== full reads"
read -r scan _ <<<"$(best "$db" 600 "$(read_all "SELECT * FROM kernelindex.runs")")"
echo "full read of kernelindex.runs ($runs rows): $scan s"
limit=$(limit_for 5 "$scan")
read -r t rows <<<"$(best "$db" "$limit" "$(read_all "SELECT * FROM kernelindex.change_points")")"
if [ "$t" = cut ]; then
	echo "full read of kernelindex.change_points: cut at $limit s"
	result "full read of change_points / full read of runs (history-shaped)" "<= 5x" "> $(ratio "$limit" "$scan")x (cut at $(dur "$limit") / $(dur "$scan"))" no
else
	r=$(ratio "$t" "$scan")
	echo "full read of kernelindex.change_points ($rows rows): $t s, $r x the runs"
	result "full read of change_points / full read of runs (history-shaped)" "<= 5x" "${r}x ($(dur "$t") / $(dur "$scan"), $(thousands "$rows") changes)" "$(at_most "$r" 5)"
fi

echo "== the dashboard query: one kernel and GPU"
filter="kernel = 'sparsemax' AND gpu = 'NVIDIA GeForce RTX 3090'"
# The runs of that kernel and GPU (by digest, from run_facts), and the
# values of the leading column of the index of kernelindex.runs that the
# plan of run_facts uses to reach them (bi.sh's way).
fplan=$(q -At -c "EXPLAIN (COSTS OFF) SELECT * FROM kernelindex.run_facts WHERE $filter")
index=$(q -At -c "SELECT indexname FROM pg_indexes WHERE schemaname = 'kernelindex' AND tablename = 'runs'" |
	while read -r i; do
		c=$(grep -c -E "Index( Only)? Scan( Backward)? using $i on runs|Bitmap Index Scan on $i\$" <<<"$fplan" || true)
		if [ "$c" -gt 0 ]; then echo "$c $i"; fi
	done | sort -rn | awk 'NR == 1 { print $2 }')
if [ -z "$index" ]; then
	index=$(q -At -c "SELECT indexname FROM pg_indexes WHERE schemaname = 'kernelindex' AND tablename = 'runs' AND indexdef LIKE '%(comparability_key%' ORDER BY indexname LIMIT 1")
	echo "the plan of run_facts uses no index of kernelindex.runs; the runs are read by $index"
fi
lead=$(q -At -c "SELECT a.attname FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0] WHERE i.indexrelid = 'kernelindex.$index'::regclass")
q -c "SET client_min_messages = warning" -c "DROP TABLE IF EXISTS bench_dashboard" \
	-c "CREATE TABLE bench_dashboard AS SELECT DISTINCT r.$lead FROM kernelindex.runs r WHERE r.digest IN (SELECT run_digest::kidx_digest FROM kernelindex.run_facts WHERE $filter)" \
	-c "ANALYZE bench_dashboard"
same="SELECT r.* FROM bench_dashboard k CROSS JOIN LATERAL (SELECT * FROM kernelindex.runs r WHERE r.$lead = k.$lead OFFSET 0) r"
read -r t_same n_same <<<"$(best "$db" 600 "$(read_all "$same")")"
echo "the kernel and GPU's $n_same runs from runs by $index ($lead): $t_same s"
# The view a dashboard reads (series_change_points: change_points without
# the rank over the store, where it exists), and change_points itself.
views=change_points
[ -z "$(q -At -c "SELECT to_regclass('kernelindex.series_change_points')")" ] || views="series_change_points change_points"
for v in $views; do
	name="dashboard: $v for one kernel and GPU / its runs by index"
	echo "plan of the dashboard query on $v:"
	q -At -c "EXPLAIN (COSTS OFF) SELECT * FROM kernelindex.$v WHERE $filter" | sed 's/^/  /'
	limit=$(limit_for 3 "$t_same")
	read -r t_view n_view <<<"$(best "$db" "$limit" "$(read_all "SELECT * FROM kernelindex.$v WHERE $filter")")"
	echo "dashboard on $v: $t_view s ($n_view changes)"
	if [ "$t_view" = cut ]; then
		result "$name" "<= 3x" "> $(ratio "$limit" "$t_same")x (cut at $(dur "$limit") / $(dur "$t_same"))" no
	else
		r=$(ratio "$t_view" "$t_same")
		result "$name" "<= 3x" "${r}x ($(dur "$t_view") / $(dur "$t_same"), $(thousands "$n_view") changes, $(thousands "$n_same") runs, $index)" "$(at_most "$r" 3)"
	fi
done
q -c "DROP TABLE bench_dashboard"
