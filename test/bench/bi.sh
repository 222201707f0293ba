#!/usr/bin/env bash
# BI views at scale (doc/performance.md, "Targets"; doc/bi.md), on the runs
# test/bench/ingest.sh left in ${KIDX_BENCH_DB:-kidx_bench}:
# - a full read of each view (every row and column to the client, as a BI
#   extract does) against a full read of kernelindex.runs in the same run
#   (target: at most 5x);
# - the dashboard query, a view filtered to one kernel and GPU (sparsemax
#   on the GeForce RTX 3090): its plan must use an index of
#   kernelindex.runs, and it is timed against reading the same runs (those
#   whose digests the filtered view returns) from kernelindex.runs by that
#   index (target: at most 3x).
# Each time is the best of three in one psql session (\timing); a statement
# is cut where it would miss its target by more than 3x (limit_for).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
db=${KIDX_BENCH_DB:-kidx_bench}
q() { psql -X -q -v ON_ERROR_STOP=1 -d "$db" "$@"; }
runs=$(q -At -c "SELECT count(*) FROM kernelindex.runs" 2>/dev/null || echo 0)
[ "$runs" -gt 0 ] || { echo "bi: no runs in $db; run test/bench/ingest.sh first"; exit 1; }
q -c "VACUUM ANALYZE"
views="run_facts latest_runs speedups release_speedups release_changes speedup_since releases"

# Every row and column of a query to the client.
read_all() { echo "\\copy ($1) TO '/dev/null'"; }

echo "== full reads"
read -r scan _ <<<"$(best "$db" 600 "$(read_all "SELECT * FROM kernelindex.runs")")"
echo "full read of kernelindex.runs ($runs rows): $scan s"
for v in $views; do
	limit=$(limit_for 5 "$scan")
	read -r t rows <<<"$(best "$db" "$limit" "$(read_all "SELECT * FROM kernelindex.$v")")"
	if [ "$t" = cut ]; then
		echo "full read of kernelindex.$v: cut at $limit s"
		result "full read of $v / full read of runs" "<= 5x" "> $(ratio "$limit" "$scan")x (cut at $(dur "$limit") / $(dur "$scan"))" no
	else
		r=$(ratio "$t" "$scan")
		echo "full read of kernelindex.$v ($rows rows): $t s, $r x the runs"
		result "full read of $v / full read of runs" "<= 5x" "${r}x ($(dur "$t") / $(dur "$scan"), $(thousands "$rows") rows)" "$(at_most "$r" 5)"
	fi
done

echo "== the dashboard query: one kernel and GPU"
filter="kernel = 'sparsemax' AND gpu = 'NVIDIA GeForce RTX 3090'"
for v in run_facts speedups; do
	name="dashboard: $v for one kernel and GPU / the same runs by that index"
	plan=$(q -At -c "EXPLAIN (COSTS OFF) SELECT * FROM kernelindex.$v WHERE $filter")
	echo "plan of the dashboard query on $v:"
	sed 's/^/  /' <<<"$plan"
	# The indexes of kernelindex.runs the plan uses, the most used first.
	index=$(q -At -c "SELECT indexname FROM pg_indexes WHERE schemaname = 'kernelindex' AND tablename = 'runs'" |
		while read -r i; do
			c=$(grep -c -E "Index( Only)? Scan( Backward)? using $i on runs|Bitmap Index Scan on $i\$" <<<"$plan" || true)
			if [ "$c" -gt 0 ]; then echo "$c $i"; fi
		done | sort -rn | awk 'NR == 1 { print $2 }')
	if [ -z "$index" ]; then
		echo "dashboard on $v: the plan uses no index of kernelindex.runs:"
		echo "$plan"
		result "$name" "index, <= 3x" "no index of runs in the plan" no
		continue
	fi
	lead=$(q -At -c "SELECT a.attname FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0] WHERE i.indexrelid = 'kernelindex.$index'::regclass")
	# The runs the filtered view returns, by digest, and the values of the
	# index's leading column that reach them.
	cols=$(q -At -c "SELECT string_agg(column_name, ', ') FROM information_schema.columns WHERE table_schema = 'kernelindex' AND table_name = '$v' AND column_name IN ('run_digest', 'reference_run_digest')")
	digests="SELECT unnest(ARRAY[$cols])::kidx_digest FROM kernelindex.$v WHERE $filter"
	q -c "SET client_min_messages = warning" -c "DROP TABLE IF EXISTS bench_dashboard" \
	  -c "CREATE TABLE bench_dashboard AS SELECT DISTINCT r.$lead FROM kernelindex.runs r WHERE r.digest IN ($digests)" \
	  -c "ANALYZE bench_dashboard"
	# Read by the index: one probe per value, as the view's plan does.
	same="SELECT r.* FROM bench_dashboard k CROSS JOIN LATERAL (SELECT * FROM kernelindex.runs r WHERE r.$lead = k.$lead OFFSET 0) r"
	same_plan=$(q -At -c "EXPLAIN (COSTS OFF) $same")
	grep -q -E "(Index|Bitmap).* $index( |\$)" <<<"$same_plan" ||
		{ echo "dashboard on $v: reading the same runs does not use $index:"; echo "$same_plan"; }
	read -r t_same n_same <<<"$(best "$db" 600 "$(read_all "$same")")"
	limit=$(limit_for 3 "$t_same")
	read -r t_view n_view <<<"$(best "$db" "$limit" "$(read_all "SELECT * FROM kernelindex.$v WHERE $filter")")"
	echo "dashboard on $v: plan uses $index ($lead); view $t_view s ($n_view rows), the same $n_same runs from runs by $index $t_same s"
	if [ "$t_view" = cut ]; then
		result "$name" "index, <= 3x" "> $(ratio "$limit" "$t_same")x (cut at $(dur "$limit") / $(dur "$t_same"), $index)" no
	else
		r=$(ratio "$t_view" "$t_same")
		result "$name" "index, <= 3x" "${r}x ($(dur "$t_view") / $(dur "$t_same"), $(thousands "$n_view") rows, $(thousands "$n_same") runs, $index)" "$(at_most "$r" 3)"
	fi
	q -c "DROP TABLE bench_dashboard"
done
