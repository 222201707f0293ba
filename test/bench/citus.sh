#!/usr/bin/env bash
# Scale-out on Citus (issue 13), side by side in one run on this machine:
# one plain server against a coordinator and two workers on loopback, all
# four clusters started here with the same settings.
#
# - CSV in: the file in KIDX_BENCH_CSV, else LIGER_BENCH_ROWS (default
#   1,000,000) rows of the data shape KIDX_BENCH_SHAPE (default a) made by
#   test/bench/generate.sh, COPYed into kernelindex.liger_rows on each.
# - BI: a full read of kernelindex.speedups and the dashboard query of
#   test/bench/bi.sh (speedups for one kernel and GPU), best of three each.
#
# Both hold the same runs and give the same speedups (count and an
# order-independent hash of every row compared).  Skipped, saying so, where
# Citus is not installed.  The figures are recorded with result() for the
# table of `make bench`, against the Citus targets of doc/performance.md (issue 19): the
# load at most 1.5x one server, a full read of speedups at most 2x, the
# dashboard query at most 5x.  The coordinator's plan of the dashboard
# query is printed: where the views are pushed down to the shards, each
# task computes the pairs of its shard (the windows partitioned by the
# distribution column) and the coordinator only gathers.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

pkglibdir=$(pg_config --pkglibdir)
if [ ! -e "$pkglibdir/citus.so" ]; then
	echo "citus: Citus is not installed (no citus.so in $pkglibdir): skipped"
	result "Citus: coordinator + 2 workers against one server" "-" "skipped: Citus is not installed" "-"
	exit 0
fi
bindir=$(pg_config --bindir)

n=${LIGER_BENCH_ROWS:-1000000}
db=kidx_citus
work=$(mktemp -d /tmp/kidx-bench-citus.XXXXXX)
chmod 755 "$work"
big="$work/liger.csv"

# The clusters run as postgres when this runs as root (as make bench does).
as_server() {
	if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
[ "$(id -u)" = 0 ] && chown postgres: "$work"

# A free TCP port on loopback, from 5800 up.
next_port=5800
free_port() {
	while (echo >"/dev/tcp/127.0.0.1/$next_port") 2>/dev/null; do
		next_port=$((next_port + 1))
	done
	port=$next_port
	next_port=$((next_port + 1))
}

declare -A ports
nodes="single coordinator worker1 worker2"
cleanup() {
	for node in $nodes; do
		[ -f "$work/$node/postmaster.pid" ] &&
			as_server "$bindir/pg_ctl" -D "$work/$node" -m immediate stop >/dev/null 2>&1
	done
	rm -rf "$work"
}
trap cleanup EXIT

# One cluster: the same settings on all four; Citus preloaded but on the
# single server.
for node in $nodes; do
	free_port
	ports[$node]=$port
	as_server "$bindir/initdb" -D "$work/$node" -A trust -U postgres >/dev/null
	{
		echo "port = $port"
		echo "listen_addresses = '127.0.0.1'"
		echo "unix_socket_directories = '$work'"
		echo "shared_buffers = 256MB"
		echo "max_connections = 200"
		echo "max_worker_processes = 32"
		[ "$node" = single ] || echo "shared_preload_libraries = 'citus'"
		# KIDX_BENCH_CITUS_SHARDS: the shards of runs distribute() makes
		# (citus.shard_count; Citus' default 32).
		[ -z "${KIDX_BENCH_CITUS_SHARDS:-}" ] || echo "citus.shard_count = $KIDX_BENCH_CITUS_SHARDS"
	} | as_server tee -a "$work/$node/postgresql.conf" >/dev/null
	as_server "$bindir/pg_ctl" -D "$work/$node" -l "$work/$node.log" -w start >/dev/null
done
on() {
	local node=$1
	shift
	psql -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "${ports[$node]}" -U postgres "$@"
}
for node in $nodes; do
	on "$node" -d postgres -c "CREATE DATABASE $db"
done
for node in coordinator worker1 worker2; do
	on "$node" -d "$db" -c "CREATE EXTENSION citus"
done
on coordinator -d "$db" -c "SELECT citus_set_coordinator_host('127.0.0.1', ${ports[coordinator]})" >/dev/null
for node in worker1 worker2; do
	on coordinator -d "$db" -c "SELECT citus_add_node('127.0.0.1', ${ports[$node]})" >/dev/null
done
on single -d "$db" -c "CREATE EXTENSION kernelindex"
on coordinator -d "$db" -c "CREATE EXTENSION kernelindex" -c "SELECT kernelindex.distribute()" >/dev/null
citus_version=$(on coordinator -d "$db" -At -c "SELECT extversion FROM pg_extension WHERE extname = 'citus'")
shards=$(on coordinator -d "$db" -At -c "SELECT count(*) FROM pg_dist_shard WHERE logicalrelid = 'kernelindex.runs'::regclass")
echo "== one server on port ${ports[single]}; coordinator on ${ports[coordinator]}, workers on ${ports[worker1]} and ${ports[worker2]} (Citus $citus_version, $shards shards of runs)"

if [ -n "${KIDX_BENCH_CSV:-}" ]; then
	big=$KIDX_BENCH_CSV
else
	PGHOST=127.0.0.1 PGPORT=${ports[single]} PGUSER=postgres PGDATABASE=$db \
		bash "$here/generate.sh" "${KIDX_BENCH_SHAPE:-a}" "$n" "$big"
fi
n=$(($(wc -l <"$big") - 1))
echo "file: $(($(wc -l <"$big") - 1)) rows, $(du -h "$big" | cut -f1)"

# Seconds one statement takes on a node, after a checkpoint everywhere.
timed_on() {
	local node=$1 sql=$2 start m
	for m in $nodes; do on "$m" -d "$db" -c "CHECKPOINT" >/dev/null; done
	start=$(now)
	on "$node" -d "$db" -c "$sql" >/dev/null
	awk -v a="$start" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }'
}
# The best of three timings of one statement on a node, timed by psql in
# one session: best_on NODE SQL [LIMIT] ("cut" past LIMIT seconds).
best_on() {
	local out
	out=$(on "$1" -d "$db" -c "SET statement_timeout = '${3:-0}s'" -c '\timing on' -c "$2" -c "$2" -c "$2" 2>&1) ||
		{ grep -q 'statement timeout' <<<"$out" && echo cut && return 0; echo "$out" >&2; return 1; }
	awk '/^Time:/ { t = $2 / 1000; if (b == "" || t < b) b = t } END { printf "%.6f", b }' <<<"$out"
}

# CPU seconds a cluster's processes have used so far: its postmaster's
# ended children (reaped: cutime, cstime) and its live ones.
cluster_cpu() {
	local pid c reaped again live
	pid=$(head -1 "$work/$1/postmaster.pid")
	while :; do
		reaped=$(awk '{ print $16 + $17 }' "/proc/$pid/stat")
		live=$(for c in $(ps -o pid= --ppid "$pid"); do
			awk '{ print $3, $14 + $15 }' "/proc/$c/stat" 2>/dev/null || true
		done | awk '$1 == "Z" { z = 1 } { s += $2 } END { print (z ? "zombie" : s + 0) }')
		again=$(awk '{ print $16 + $17 }' "/proc/$pid/stat")
		# (a child reaped while its siblings were read is in neither sum, and
		# one that has ended but is not reaped yet may show no time: read again)
		[ "$reaped" = "$again" ] && [ "$live" != zombie ] && break
		sleep 0.1
	done
	awk -v a="$reaped" -v b="$live" -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.2f", (a + b) / hz }'
}
# The CPU seconds of each node during a load: node=seconds ...
declare -A cpu_before
cpu_mark() { local m; for m in $nodes; do cpu_before[$m]=$(cluster_cpu "$m"); done; }
cpu_used() {
	local m
	for m in $nodes; do
		printf '%s %s ' "$m" "$(awk -v a="${cpu_before[$m]}" -v b="$(cluster_cpu "$m")" 'BEGIN { printf "%.2f", b - a }')"
	done
}

echo "== CSV in"
cpu_mark
load_single=$(timed_on single "\\copy kernelindex.liger_rows FROM '$big' WITH (FORMAT csv, HEADER MATCH)")
cpu_single=$(cpu_used)
cpu_mark
load_citus=$(timed_on coordinator "\\copy kernelindex.liger_rows FROM '$big' WITH (FORMAT csv, HEADER MATCH)")
cpu_citus=$(cpu_used)
runs_single=$(on single -d "$db" -At -c "SELECT count(*) FROM kernelindex.runs")
runs_citus=$(on coordinator -d "$db" -At -c "SELECT count(*) FROM kernelindex.runs")
printf 'one server:              %8.2f s  (%d runs)\n' "$load_single" "$runs_single"
printf 'coordinator + 2 workers: %8.2f s  (%d runs)\n' "$load_citus" "$runs_citus"
[ "$runs_single" -eq "$n" ] && [ "$runs_citus" -eq "$n" ] ||
	{ echo "FAILED: $n rows gave $runs_single runs on one server, $runs_citus on the cluster"; exit 1; }
digests() { on "$1" -d "$db" -At -c "SELECT count(*), sum(hashtext(digest::text)::bigint) FROM kernelindex.runs"; }
[ "$(digests single)" = "$(digests coordinator)" ] || { echo "FAILED: the runs differ"; exit 1; }
r=$(ratio "$load_citus" "$load_single")
result "Citus: CSV in, coordinator + 2 workers / one server" "<= 1.5x" "${r}x ($(dur "$load_citus") / $(dur "$load_single"))" "$(at_most "$r" 1.5)"
# Where the load's time went: each cluster's CPU seconds (every process
# of it: backends, Citus' connections between nodes, checkpointer, WAL
# writer) against the wall-clock time, on this machine's $(nproc) cores.
cpu_of() { awk -v n="$2" '{ for (i = 1; i < NF; i += 2) if ($i == n) print $(i + 1) }' <<<"$1"; }
c_single=$(cpu_of "$cpu_single" single)
c_coord=$(cpu_of "$cpu_citus" coordinator)
c_w1=$(cpu_of "$cpu_citus" worker1)
c_w2=$(cpu_of "$cpu_citus" worker2)
c_total=$(awk -v a="$c_coord" -v b="$c_w1" -v c="$c_w2" 'BEGIN { printf "%.2f", a + b + c }')
echo "CPU during the load: one server $c_single s in $load_single s; coordinator $c_coord s, workers $c_w1 s and $c_w2 s (together $c_total s) in $load_citus s"
result "Citus: CSV in, CPU seconds of all three nodes / of one server (coordinator, workers)" "-" \
	"$(ratio "$c_total" "$c_single")x ($c_total s: $c_coord s, $c_w1 s, $c_w2 s / $c_single s)" "-"

echo "== BI"
for node in $nodes; do on "$node" -d "$db" -c "VACUUM ANALYZE"; done
same='SELECT count(*), sum(hashtext(t::text)::bigint) FROM kernelindex.speedups t'
filter="kernel = 'sparsemax' AND gpu = 'NVIDIA GeForce RTX 3090'"
[ "$(on single -d "$db" -At -c "$same")" = "$(on coordinator -d "$db" -At -c "$same")" ] ||
	{ echo "FAILED: speedups differ"; exit 1; }
nspeedups=$(on single -d "$db" -At -c "SELECT count(*) FROM kernelindex.speedups")
nkept=$(on single -d "$db" -At -c "SELECT count(*) FROM kernelindex.speedups WHERE $filter")
echo "-- the coordinator's plan of the dashboard query (EXPLAIN, costs off; the first 40 lines)"
on coordinator -d "$db" -At -c "EXPLAIN (COSTS OFF) SELECT * FROM kernelindex.speedups WHERE $filter" | sed -n 1,40p
for what in "full read of speedups|2|$nspeedups|SELECT * FROM kernelindex.speedups" \
	"dashboard: speedups for one kernel and GPU|5|$nkept|SELECT * FROM kernelindex.speedups WHERE $filter"; do
	name=${what%%|*}
	target=${what#*|}
	target=${target%%|*}
	rows=${what#*|*|}
	rows=${rows%%|*}
	sql="\\copy (${what##*|}) TO '/dev/null'"
	t_single=$(best_on single "$sql")
	limit=$(limit_for "$target" "$t_single")
	t_citus=$(best_on coordinator "$sql" "$limit")
	echo "$name ($rows rows): one server $t_single s, coordinator + 2 workers $t_citus s"
	if [ "$t_citus" = cut ]; then
		result "Citus: $name, coordinator + 2 workers / one server" "<= ${target}x" "> $(ratio "$limit" "$t_single")x (cut at $(dur "$limit") / $(dur "$t_single"), $(thousands "$rows") rows)" no
	else
		r=$(ratio "$t_citus" "$t_single")
		result "Citus: $name, coordinator + 2 workers / one server" "<= ${target}x" "${r}x ($(dur "$t_citus") / $(dur "$t_single"), $(thousands "$rows") rows)" "$(at_most "$r" "$target")"
	fi
done
