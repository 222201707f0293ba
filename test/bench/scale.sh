#!/usr/bin/env bash
# Loads of any size (doc/performance.md, "Targets", scale; issue 27): the same kind of
# varied Liger rows (shape c of generate.sh: every row a new series, a new
# comparability key for about one row in two and a new workload for one in
# ten, the shape a statement keeps the most of) loaded by
# one COPY at LIGER_BENCH_ROWS rows (default 1,000,000) and at
# KIDX_BENCH_SCALE rows (default 10 times as many), each into an empty
# database, while the loading backend's memory is read from /proc every
# 0.2 s: its peak anonymous memory (RssAnon: what the statement itself
# allocates; shared buffers are RssShmem) and its VmHWM (peak resident,
# shared buffers it touched included).  Figures: the time at the larger
# size over the time at the smaller (at most 11x for 10x the rows) and the
# peak memory at the larger over the peak at the smaller (at most 1.2x).
# Then each BI view's full read (every row and column to the client, as
# test/bench/bi.sh reads them) in both stores: at the larger over at the
# smaller, linear within 1.3x (at most 13x for 10x the runs).
# Needs /proc (Linux) and a server on this machine.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

small=${LIGER_BENCH_ROWS:-1000000}
large=${KIDX_BENCH_SCALE:-$((10 * small))}
work=$(mktemp -d /tmp/kidx-bench-scale.XXXXXX)
chmod 755 "$work"
dbs=""
cleanup() {
	for d in $dbs; do psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $d" >/dev/null 2>&1 || true; done
	rm -rf "$work"
}
trap cleanup EXIT

# Load FILE into an empty database by one COPY: "seconds peak_rssanon_kB vmhwm_kB".
measured_load() {
	local file=$1 db=kidx_bench_scale_$2 app=kidx_scale_$$_$2 pid="" peak=0 hwm=0 a h start rc=0
	dbs="$dbs $db"
	psql -X -q -d postgres -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db"
	psql -X -q -v ON_ERROR_STOP=1 -d "$db" -c "CREATE EXTENSION kernelindex" -c "CHECKPOINT"
	start=$(now)
	PGAPPNAME=$app psql -X -q -v ON_ERROR_STOP=1 -d "$db" -c "SET client_min_messages = warning" \
		-c "\\copy kernelindex.liger_rows FROM '$file' WITH (FORMAT csv, HEADER MATCH)" >"$work/out" 2>&1 &
	local job=$!
	while kill -0 "$job" 2>/dev/null; do
		[ -n "$pid" ] || pid=$(psql -X -At -d postgres -c "SELECT pid FROM pg_stat_activity WHERE application_name = '$app' LIMIT 1" 2>/dev/null || true)
		if [ -n "$pid" ] && [ -r "/proc/$pid/status" ]; then
			a=$(awk '/^RssAnon:/ { print $2 }' "/proc/$pid/status" 2>/dev/null || echo 0)
			h=$(awk '/^VmHWM:/ { print $2 }' "/proc/$pid/status" 2>/dev/null || echo 0)
			[ "${a:-0}" -le "$peak" ] || peak=$a
			[ "${h:-0}" -le "$hwm" ] || hwm=$h
		fi
		sleep 0.2
	done
	wait "$job" || rc=$?
	[ "$rc" = 0 ] || { cat "$work/out" >&2; return 1; }
	echo "$(awk -v a="$start" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }') $peak $hwm"
}

# (its facts are not the table's: they would stand in the rows of the
# shapes' own 1,000,000-row data, which have the same names)
KIDX_BENCH_RESULTS=/dev/null bash "$here/generate.sh" c "$large" "$work/large.csv"
fact "scale.sh: rows (varied, as shape c)" "$(thousands "$large")"
head -n $((small + 1)) "$work/large.csv" >"$work/small.csv"
echo "== one COPY of $(thousands "$small") varied rows"
read -r t1 m1 h1 < <(measured_load "$work/small.csv" small)
printf '%s rows: %8.2f s, peak RssAnon %s kB, VmHWM %s kB\n' "$(thousands "$small")" "$t1" "$m1" "$h1"
rm -f "$work/small.csv"
echo "== one COPY of $(thousands "$large") varied rows"
if ! read -r t2 m2 h2 < <(measured_load "$work/large.csv" large); then
	result "CSV in, one COPY of $(thousands "$large") / of $(thousands "$small") varied rows: time" "<= 11x" "FAILED" no
	exit 0
fi
printf '%s rows: %8.2f s, peak RssAnon %s kB, VmHWM %s kB\n' "$(thousands "$large")" "$t2" "$m2" "$h2"
n=$(psql -X -At -d kidx_bench_scale_large -c "SELECT count(*) FROM kernelindex.runs")
[ "$n" -eq "$large" ] || { echo "FAILED: $large rows gave $n runs"; exit 1; }
r=$(ratio "$t2" "$t1")
result "CSV in, one COPY of $(thousands "$large") / of $(thousands "$small") varied rows: time" "<= 11x" \
	"${r}x ($(dur "$t2") / $(dur "$t1"))" "$(at_most "$r" 11)"
r=$(ratio "$m2" "$m1")
result "the loading backend's peak memory (RssAnon) at $(thousands "$large") / at $(thousands "$small") rows" "<= 1.2x" \
	"${r}x ($((m2 / 1024)) MB / $((m1 / 1024)) MB; VmHWM $((h2 / 1024)) MB / $((h1 / 1024)) MB)" "$(at_most "$r" 1.2)"

# What PostgreSQL's own INSERT grows by: the same runs into a copy of
# kernelindex.runs with its indexes (no triggers), in the floor's order
# (key order, as ingest.sh's floor) and in time order (their digests in
# no order), at both sizes.
# (both stores vacuumed first: no autovacuum overlaps the floors or the reads)
for d in small large; do psql -X -q -d "kidx_bench_scale_$d" -c "VACUUM ANALYZE"; done
echo "== the floor at $(thousands "$small") and at $(thousands "$large") runs"
for order in "comparability_key, digest" "observed_at, digest"; do
	f_small=$(floor_runs kidx_bench_scale_small "$order")
	f_large=$(floor_runs kidx_bench_scale_large "$order")
	r=$(ratio "$f_large" "$f_small")
	echo "floor in order of $order: $f_small s at $(thousands "$small"), $f_large s at $(thousands "$large"): ${r}x"
	result "the floor (the runs INSERTed into a copy of runs, by $order) at $(thousands "$large") / at $(thousands "$small")" \
		"- (PostgreSQL's own)" "${r}x ($(dur "$f_large") / $(dur "$f_small"))" -
done

echo "== full reads at $(thousands "$small") and at $(thousands "$large") runs"
growth=$(awk -v a="$large" -v b="$small" 'BEGIN { printf "%.4g", 1.3 * a / b }')
for v in runs run_facts latest_runs speedups release_speedups release_changes speedup_since releases change_points; do
	read_all="\\copy (SELECT * FROM kernelindex.$v) TO '/dev/null'"
	read -r s1 _ <<<"$(best kidx_bench_scale_small 600 "$read_all")"
	name="full read of $v at $(thousands "$large") / at $(thousands "$small") runs"
	if [ "$s1" = cut ]; then
		echo "full read of kernelindex.$v at $(thousands "$small"): cut at 600 s"
		result "$name" "<= ${growth}x" "not measured (cut at 10 min at $(thousands "$small"))" no
		continue
	fi
	# cut where it would miss linear growth by more than 3x
	limit=$(awk -v s="$s1" -v g="$growth" 'BEGIN { printf "%d", 3 * g * s + 60 }')
	read -r s2 _ <<<"$(best kidx_bench_scale_large "$limit" "$read_all")"
	if [ "$s2" = cut ]; then
		echo "full read of kernelindex.$v at $(thousands "$large"): cut at $limit s"
		result "$name" "<= ${growth}x" "> $(ratio "$limit" "$s1")x (cut at $(dur "$limit") / $(dur "$s1"))" no
		continue
	fi
	r=$(ratio "$s2" "$s1")
	echo "full read of kernelindex.$v: $s1 s at $(thousands "$small"), $s2 s at $(thousands "$large"): ${r}x"
	result "$name" "<= ${growth}x" "${r}x ($(dur "$s2") / $(dur "$s1"))" "$(at_most "$r" "$growth")"
done
