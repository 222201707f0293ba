#!/usr/bin/env bash
# BI views at scale (issue 11, SPEC section 10), on the runs
# test/bench/ingest.sh left in ${KIDX_BENCH_DB:-kidx_bench} (a million):
# - a full read of each view (every row and column to the client, as a BI
#   extract does) against a full read of kernelindex.runs in the same run;
# - a dashboard query filtered to one kernel and GPU (the sparsemax runs on
#   the GeForce RTX 3090) uses an index, timed against the unfiltered view.
# Each time is the best of three in one psql session (\\timing).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
db=${KIDX_BENCH_DB:-kidx_bench}
q() { psql -X -q -v ON_ERROR_STOP=1 -d "$db" "$@"; }
runs=$(q -At -c "SELECT count(*) FROM kernelindex.runs" 2>/dev/null || echo 0)
[ "$runs" -gt 0 ] || { echo "bi: no runs in $db; run test/bench/ingest.sh first"; exit 1; }
q -c "VACUUM ANALYZE"

# The best of three timings of one statement, in seconds, timed by psql
# in one session (no connection set-up in the figure).
best() {
	psql -X -q -v ON_ERROR_STOP=1 -d "$db" \
		-c "CHECKPOINT" -c '\timing on' -c "$1" -c "$1" -c "$1" \
		| awk '/^Time:/ { t = $2 / 1000; if (b == "" || t < b) b = t } END { printf "%.3f", b }'
}
# Every row and column of a query to the client.
read_all() { echo "\\copy ($1) TO '/dev/null'"; }

scan=$(best "$(read_all "SELECT * FROM kernelindex.runs")")
echo "full read of kernelindex.runs ($runs rows): $scan s"
for v in run_facts latest_runs speedups release_runs release_speedups release_changes speedup_since releases; do
	n=$(q -At -c "SELECT count(*) FROM kernelindex.$v")
	t=$(best "$(read_all "SELECT * FROM kernelindex.$v")")
	r=$(ratio "$t" "$scan")
	echo "full read of kernelindex.$v ($n rows): $t s, $r x the runs"
	result "full read of $v ($n rows) / full read of runs" "<= 5x" "${r}x ($t / $scan s)" "$(at_most "$r" 5)"
done

# The aggregate of the issue: count and sum over speedups against the same
# over runs.
agg_runs=$(best "SELECT count(*), sum(latency_ns) FROM kernelindex.runs")
agg=$(best "SELECT count(*), sum(speedup) FROM kernelindex.speedups")
r=$(ratio "$agg" "$agg_runs")
echo "count(*), sum(speedup) over speedups: $agg s; count(*), sum(latency_ns) over runs: $agg_runs s"
result "count and sum over speedups / the same over runs" "<= 5x" "${r}x ($agg / $agg_runs s)" "$(at_most "$r" 5)"

filter="kernel = 'sparsemax' AND gpu = 'NVIDIA GeForce RTX 3090'"
for v in speedups run_facts; do
	plan=$(q -At -c "EXPLAIN (COSTS OFF) SELECT * FROM kernelindex.$v WHERE $filter")
	index=$(grep -o 'Index Scan using runs_series_observed' <<<"$plan" | head -n 1 || true)
	all=$(q -At -c "SELECT count(*) FROM kernelindex.$v")
	kept=$(q -At -c "SELECT count(*) FROM kernelindex.$v WHERE $filter")
	t_all=$(best "$(read_all "SELECT * FROM kernelindex.$v")")
	t_one=$(best "$(read_all "SELECT * FROM kernelindex.$v WHERE $filter")")
	r=$(ratio "$t_all" "$t_one")
	share=$(awk -v k="$kept" -v a="$all" 'BEGIN { printf "%.2f", 100 * k / a }')
	bound=$(ratio "$all" "$kept")
	echo "dashboard on $v: $kept of $all rows ($share%), $t_one s against $t_all s unfiltered: ${r}x; plan: ${index:-no index scan on runs}"
	met=$(awk -v r="$r" 'BEGIN { print (r >= 100) ? "yes" : "no" }')
	[ -n "$index" ] || met=no
	result "dashboard: $v for one kernel and GPU ($share% of rows, rows bound ${bound}x)" "index, >= 100x" "${r}x, ${index:+index runs_series_observed}" "$met"
done
