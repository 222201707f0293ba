#!/usr/bin/env bash
# Liger history suite: the upstream file as it evolves, version after
# version, loaded the way a user keeps an index up to date (every new
# version of the file COPYed into kernelindex.liger_rows).  Checks that
#  - every version loaded again, after all of them, stores nothing new;
#  - all versions loaded in order give the same store as their union
#    loaded at once: the same runs (digests) and the same documents
#    exported (COPY TO of kernelindex.documents, compared sorted);
#  - loading the versions in another order (newest first) gives the same
#    store again;
#  - there is one run per distinct row over all versions.
#
# The versions: the CSV files in KIDX_LIGER_HISTORY, in name order (e.g.
# NN-<commit>.csv, every version of benchmark/data/all_benchmark_data.csv
# in Liger-Kernel's git history).  When KIDX_LIGER_HISTORY is unset or
# names no folder of CSV files, a synthetic history is built instead from
# ../shared's upstream file: 12 versions, the first the upstream file, each
# next one the previous rows, a few of them removed, plus a new release's
# rows (liger_version 1.0.1 to 1.0.11; a twelfth of the rows re-measured
# with new times and values).  Skipped, saying so, when neither is there.
# Blank lines are dropped before loading (COPY rejects a blank line: one
# upstream version ends with one), saying how many.
#
# Addresses the store through its public names only (liger_rows,
# documents, runs.digest, latest_runs).  Run by test/run.sh with libpq
# variables pointing at a cluster whose PostgreSQL has the extension
# installed.  Exit status non-zero on failure.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
csv="$here/../../../shared/data/liger/all_benchmark_data.csv"
hist=${KIDX_LIGER_HISTORY:-}
work=$(mktemp -d /tmp/kidx-liger-history.XXXXXX)
chmod 755 "$work"
mkdir "$work/versions"
dbs=""
cleanup() {
	for d in $dbs; do psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $d" >/dev/null 2>&1 || true; done
	rm -rf "$work"
}
trap cleanup EXIT
fail=0
check() {						# check NAME EXPECTED ACTUAL
	if [ "$2" = "$3" ]; then
		echo "ok: $1"
	else
		echo "FAILED: $1: expected $2, got $3"
		fail=1
	fi
}
# A database of its own with the extension: newdb NAME.
newdb() {
	dbs="$dbs $1"
	psql -X -q -v ON_ERROR_STOP=1 -d postgres -c "CREATE DATABASE $1"
	psql -X -q -v ON_ERROR_STOP=1 -d "$1" -c "CREATE EXTENSION kernelindex"
}
# Load one version: load DB FILE.
load() { psql -X -q -v ON_ERROR_STOP=1 -d "$1" -c "\\copy kernelindex.liger_rows FROM '$2' WITH (FORMAT csv, HEADER MATCH)"; }
runs() { psql -X -At -v ON_ERROR_STOP=1 -d "$1" -c "SELECT count(*) FROM kernelindex.runs"; }
# The runs of a store, as one hash of their sorted digests.
digests() { psql -X -At -v ON_ERROR_STOP=1 -d "$1" -c "SELECT count(*) || ' ' || md5(string_agg(digest::text, ',' ORDER BY digest)) FROM kernelindex.runs"; }
# The documents a store exports, as one hash of the sorted lines.
documents() {
	psql -X -q -v ON_ERROR_STOP=1 -d "$1" -c "\\copy (SELECT document FROM kernelindex.documents) TO '$work/$1.jsonl' WITH (FORMAT csv, QUOTE E'\\x01', DELIMITER E'\\x02')"
	LC_ALL=C sort "$work/$1.jsonl" | md5sum | cut -d' ' -f1
	rm -f "$work/$1.jsonl"
}

if [ -n "$hist" ] && [ -d "$hist" ] && compgen -G "$hist/*.csv" >/dev/null; then
	kind="the upstream history"
	n=0
	for f in "$hist"/*.csv; do
		n=$((n + 1))
		cp "$f" "$work/versions/$(printf '%03d' "$n").csv"
	done
	echo "history: the $n versions in $hist (KIDX_LIGER_HISTORY), in name order"
else
	[ -z "$hist" ] || echo "KIDX_LIGER_HISTORY=$hist is no folder of CSV files: a synthetic history instead"
	if [ ! -r "$csv" ]; then
		echo "skipped: $csv absent, and no history in KIDX_LIGER_HISTORY"
		exit 0
	fi
	csv=$(cd "$(dirname "$csv")" && pwd)/$(basename "$csv")
	kind="a synthetic history"
	echo "history: synthetic (KIDX_LIGER_HISTORY unset): 12 versions built from $csv"
	db=kidx_history_build_$$
	dbs="$dbs $db"
	psql -X -q -v ON_ERROR_STOP=1 -d postgres -c "CREATE DATABASE $db"
	cols="kernel_name, kernel_provider, kernel_operation_mode, metric_name, metric_unit, x_name, x_label, x_value, y_value_50, y_value_20, y_value_80, extra_benchmark_config_str, gpu_name, \"timestamp\", liger_version"
	psql -X -q -v ON_ERROR_STOP=1 -d "$db" <<-SQL
		CREATE TABLE upstream (kernel_name text, kernel_provider text, kernel_operation_mode text, metric_name text, metric_unit text, x_name text, x_label text, x_value text, y_value_50 text, y_value_20 text, y_value_80 text, extra_benchmark_config_str text, gpu_name text, "timestamp" text, liger_version text);
		\\copy upstream FROM '$csv' WITH (FORMAT csv, HEADER MATCH)
		CREATE FUNCTION remeasured(y text, k integer) RETURNS text LANGUAGE sql IMMUTABLE
		RETURN CASE WHEN y ~ '^[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?\$' THEN (y::float8 * (1 + k / 100.0))::text ELSE y END;
		-- Each row with the version it appears in (born) and the one it is
		-- gone from (died, NULL: never).
		CREATE TABLE history AS
		SELECT row_number() OVER () AS ord, 1 AS born, NULL::integer AS died, u.* FROM upstream u;
		-- A few upstream rows removed in each version from the second on.
		UPDATE history SET died = 2 + ord % 11 WHERE ord % 601 = 7 OR ord % 613 = 11;
		-- Each version from the second on: a new release, 1.0.(k-1), in which
		-- a twelfth of the rows are measured again, a week later each time.
		INSERT INTO history (ord, born, died, $cols)
		SELECT h.ord, k, NULL, h.kernel_name, h.kernel_provider, h.kernel_operation_mode, h.metric_name,
			h.metric_unit, h.x_name, h.x_label, h.x_value,
			remeasured(h.y_value_50, k), remeasured(h.y_value_20, k), remeasured(h.y_value_80, k),
			h.extra_benchmark_config_str, h.gpu_name,
			to_char(timestamp '2027-01-01' + k * interval '7 days' + h.ord * interval '1 second', 'YYYY-MM-DD HH24:MI:SS'),
			'1.0.' || (k - 1)
		FROM generate_series(2, 12) k JOIN history h ON h.born = 1 AND h.ord % 12 = k % 12;
	SQL
	for k in $(seq 1 12); do
		psql -X -q -v ON_ERROR_STOP=1 -d "$db" -c "\\copy (SELECT $cols FROM history WHERE born <= $k AND (died IS NULL OR died > $k) ORDER BY born, ord) TO '$work/versions/$(printf '%03d' "$k").csv' WITH (FORMAT csv, HEADER)"
	done
fi

# Blank lines dropped, a missing last line end added (so that versions
# can be joined into their union), line ends otherwise as they are.
blank=0
for f in "$work"/versions/*.csv; do
	if [ -s "$f" ] && [ -n "$(tail -c 1 "$f")" ]; then
		echo "$(basename "$f"): no line end after the last row: one added"
		if head -n 1 "$f" | grep -q $'\r$'; then printf '\r\n' >>"$f"; else printf '\n' >>"$f"; fi
	fi
	b=$(grep -c $'^\r\\?$' "$f" || true)
	if [ "$b" -gt 0 ]; then
		echo "$(basename "$f"): $b blank line(s) dropped"
		blank=$((blank + b))
		grep -v $'^\r\\?$' "$f" >"$f.tmp" && mv "$f.tmp" "$f"
	fi
done
versions=("$work"/versions/*.csv)
nv=${#versions[@]}
rows=$(for f in "${versions[@]}"; do tail -n +2 "$f" | tr -d '\r'; done | LC_ALL=C sort -u | wc -l)
echo "$nv versions, rows per version: $(for f in "${versions[@]}"; do echo $(($(wc -l <"$f") - 1)); done | paste -sd' ')"
echo "distinct rows over all versions: $rows"

# 1. Every version in order, then every version again.
order=kidx_history_order_$$
newdb "$order"
start=$(date +%s)
prev=0
new=""
for f in "${versions[@]}"; do
	load "$order" "$f"
	now=$(runs "$order")
	new="$new $((now - prev))"
	prev=$now
done
echo "runs stored by each version in order:$new ($prev runs, $(($(date +%s) - start)) s)"
before=$(digests "$order")
again=""
for f in "${versions[@]}"; do
	load "$order" "$f"
	again="$again $(($(runs "$order") - prev))"
done
check "runs stored by each version loaded again" "$(printf ' 0%.0s' $(seq 1 "$nv"))" "$again"
check "the store after loading every version again" "$before" "$(digests "$order")"
check "one run per distinct row over all versions" "$rows" "$prev"
echo "comparability key and implementation pairs (latest_runs): $(psql -X -At -d "$order" -c "SELECT count(*) FROM kernelindex.latest_runs")"

# 2. The union of all versions at once.
union=kidx_history_union_$$
newdb "$union"
{
	head -n 1 "${versions[0]}" | tr -d '\r'
	for f in "${versions[@]}"; do tail -n +2 "$f" | tr -d '\r'; done | LC_ALL=C sort -u
} >"$work/union.csv"
load "$union" "$work/union.csv"
check "the union loaded at once: the same runs" "$before" "$(digests "$union")"
docs=$(documents "$order")
check "the union loaded at once: the same documents" "$docs" "$(documents "$union")"

# 3. The versions in another order: newest first.
other=kidx_history_reverse_$$
newdb "$other"
for ((i = nv - 1; i >= 0; i--)); do
	load "$other" "${versions[$i]}"
done
check "newest first: the same runs" "$before" "$(digests "$other")"
check "newest first: the same documents" "$docs" "$(documents "$other")"

echo "checked $kind: $nv versions, $rows distinct rows, $prev runs${blank:+, $blank blank line(s) dropped}"
exit $fail
