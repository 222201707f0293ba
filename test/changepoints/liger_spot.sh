#!/usr/bin/env bash
# The Liger spot-check of kernelindex.change_points (issue 26, item 3): five
# of the largest regressions the view finds, against the runs themselves
# (the medians of the runs before and after each change, its releases and
# times, recomputed by test/changepoints/liger_spot.py from the CSV rows
# alone).
#
# The history: the CSV files of KIDX_LIGER_HISTORY (every version of
# Liger-Kernel's benchmark/data/all_benchmark_data.csv, as
# test/sql/liger_history.sh reads it) when set, else ../shared's upstream
# file, saying which; skipped, saying so, when neither exists.  Its
# distinct rows are loaded into a database of its own, and the changes the
# view finds there are counted and spot-checked.  Liger's own history has at
# most a few runs a series (each re-measurement of a workload replaces its
# rows), fewer than the 2 x change_min_points a change needs: where it gives
# fewer than five regressions the spot-check says so and runs on a history
# of 30 releases built from its series (liger_spot.py synthetic: 2% noise,
# a regression of 15-35% in one series in five, an improvement in another),
# loaded the same way.  Exit status 1 on any difference, or when that
# history gives fewer than five regressions.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
python=/usr/bin/python3
csv="$here/../../../shared/data/liger/all_benchmark_data.csv"
hist=${KIDX_LIGER_HISTORY:-}
work=$(mktemp -d "${TMPDIR:-/tmp}/kidx-cp-liger.XXXXXX")
chmod 755 "$work"
db=kidx_cp_liger_$$
cleanup() {
	psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $db" >/dev/null 2>&1 || true
	rm -rf "$work"
}
trap cleanup EXIT

if [ -n "$hist" ] && [ -d "$hist" ] && compgen -G "$hist/*.csv" >/dev/null; then
	files=("$hist"/*.csv)
	echo "liger spot-check: the ${#files[@]} versions in $hist (KIDX_LIGER_HISTORY)"
elif [ -r "$csv" ]; then
	[ -z "$hist" ] || echo "liger spot-check: KIDX_LIGER_HISTORY=$hist is no folder of CSV files"
	files=("$(cd "$(dirname "$csv")" && pwd)/$(basename "$csv")")
	echo "liger spot-check: the upstream file ${files[0]} (KIDX_LIGER_HISTORY unset)"
else
	echo "liger spot-check: skipped: $csv absent, and no history in KIDX_LIGER_HISTORY"
	exit 0
fi

# The changes of the view, the largest regressions first, as CSV.
changes() {
	psql -X -q -v ON_ERROR_STOP=1 -d "$db" <<-SQL
		SET TimeZone = 'UTC';
		SET extra_float_digits = 1;
		\\copy (SELECT kernel, provider, pass, metric, gpu, workload_label, release_before, release_after, to_char(observed_before, 'YYYY-MM-DD HH24:MI:SS') AS observed_before, to_char(observed_after, 'YYYY-MM-DD HH24:MI:SS') AS observed_after, level_before, level_after, ratio, p_value, points_before, points_after, rank FROM kernelindex.change_points WHERE direction = 'regression' ORDER BY rank, comparability_key, observed_after LIMIT $1) TO '$2' WITH (FORMAT csv, HEADER)
	SQL
}
# Load a history (one CSV file) into a fresh database: load FILE.
load() {
	psql -X -q -d postgres -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS $db"
	psql -X -q -v ON_ERROR_STOP=1 -d postgres -c "CREATE DATABASE $db"
	psql -X -q -v ON_ERROR_STOP=1 -d "$db" -c "CREATE EXTENSION kernelindex" \
		-c "\\copy kernelindex.liger_rows FROM '$1' WITH (FORMAT csv, HEADER MATCH)"
	echo "loaded: $(psql -X -At -d "$db" -c "SELECT count(*) FROM kernelindex.runs") runs; change_points: $(psql -X -At -d "$db" -c "SELECT count(*) || ' changes, ' || count(*) FILTER (WHERE direction = 'regression') || ' regressions' FROM kernelindex.change_points")"
}

"$python" "$here/liger_spot.py" union "$work/history.csv" "${files[@]}"
load "$work/history.csv"
changes 5 "$work/changes.csv"
found=$(($(wc -l <"$work/changes.csv") - 1))
fail=0
if [ "$found" -ge 5 ]; then
	"$python" "$here/liger_spot.py" check "$work/history.csv" "$work/changes.csv" || fail=1
	echo "liger spot-check: the 5 largest regressions of the history checked against its runs"
	exit $fail
fi
echo "liger spot-check: the history gives $found regression(s), fewer than 5"
if [ "$found" -gt 0 ]; then
	"$python" "$here/liger_spot.py" check "$work/history.csv" "$work/changes.csv" || fail=1
fi
"$python" "$here/liger_spot.py" synthetic "$work/history.csv" "$work/synthetic.csv"
load "$work/synthetic.csv"
changes 5 "$work/changes.csv"
found=$(($(wc -l <"$work/changes.csv") - 1))
if [ "$found" -lt 5 ]; then
	echo "FAILED: the synthetic history of 30 releases gives $found regression(s), not 5"
	exit 1
fi
"$python" "$here/liger_spot.py" check "$work/synthetic.csv" "$work/changes.csv" || fail=1
echo "liger spot-check: the 5 largest regressions of a 30-release history built from it checked against its runs"
exit $fail
