#!/usr/bin/env bash
# Harness suite (issue 25, item 4): real result files of two harnesses other
# than Liger, as their repositories publish them (test/data/harnesses/<harness>:
# KernelBench baseline timings, BabelStream 3.4 outputs; SOURCE.md says where
# each comes from), loaded through kernelindex.run_rows and compared with
# what test/harnesses/expect.py computes from the same files, not from the
# converter's CSV:
#  - the offline self-test of the converter and the checker passes;
#  - one run per measurement in the files (SELECT count(*) FROM kernelindex.runs);
#  - every run's statistics in nanoseconds, its sample count and its primary
#    statistic, in kernelindex.run_facts, found by kernel, provider, workload
#    label and GPU (the catalog's product, or the name as written);
#  - one unit conversion of the file's decimal text, shown;
#  - for every implementation against the harness's reference, every speedup
#    (reference_ns / own_ns of the primary statistic, compared exactly as
#    float8) in kernelindex.speedups, its reference provider, and a p-value
#    exactly where both runs have mean, standard deviation and samples;
#  - loading the same files a second time adds no run.
# Run by test/run.sh with libpq variables pointing at a throwaway cluster
# whose PostgreSQL has the extension installed.  Exit status non-zero on failure.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
data="$here/../data/harnesses"
tools="$here/../harnesses"
if ! command -v python3 >/dev/null; then
	echo "skipped: python3 absent"
	exit 0
fi

db=
psql_db() { psql -X -q -v ON_ERROR_STOP=1 -d "$db" "$@"; }
tmp=$(mktemp -d)
chmod 755 "$tmp"
cleanup() {
	for h in kernelbench babelstream; do
		psql -X -q -d postgres -c "DROP DATABASE IF EXISTS harnesses_$$_$h" >/dev/null 2>&1 || true
	done
	rm -rf "$tmp"
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

# Offline: the files are as SOURCE.md lists them, and the converter's CSV says what the files say.
if self_test=$(python3 "$tools/expect.py" --self-test 2>&1); then
	result=passed
else
	result=failed
	sed -n 's/^FAILED: /  self-test: /p' <<<"$self_test" | head -20
fi
check "offline self-test of to_run_rows.py and expect.py (${self_test##*self-test: })" passed "$result"

# The catalog's name of a GPU written as $1 (the product, else the name as written), as SQL.
gpu_sql="COALESCE((SELECT g.product FROM kernelindex.gpus g WHERE g.name = e.gpu), e.gpu)"

for harness in kernelbench babelstream; do
	mapfile -t files < <(find "$data/$harness" -type f ! -name LICENSE ! -name SOURCE.md | sort)
	if [ ${#files[@]} -eq 0 ]; then
		echo "skipped: $harness: no data files in $data/$harness"
		continue
	fi
	python3 "$tools/expect.py" "$harness" "${files[@]}" >"$tmp/$harness.expect"
	python3 "$tools/to_run_rows.py" "$harness" "${files[@]}" >"$tmp/$harness.csv"
	grep '^run	' "$tmp/$harness.expect" | cut -f2- >"$tmp/$harness.runs"
	grep '^speedup	' "$tmp/$harness.expect" | cut -f2- >"$tmp/$harness.speedups"
	IFS=$'\t' read -r _ _ title reference < <(grep '^harness	' "$tmp/$harness.expect")
	runs=$(grep '^runs	' "$tmp/$harness.expect" | cut -f2)
	columns=$(head -1 "$tmp/$harness.csv")

	db=harnesses_$$_$harness
	psql -X -q -v ON_ERROR_STOP=1 -d postgres -c "CREATE DATABASE $db"
	psql_db -c "CREATE EXTENSION kernelindex"
	psql_db -v h="$harness" -v t="$title" -v r="$reference" <<-'SQL'
		INSERT INTO kernelindex.harnesses (name, title, reference_implementation) VALUES (:'h', :'t', :'r')
			ON CONFLICT (name) DO UPDATE SET title = EXCLUDED.title, reference_implementation = EXCLUDED.reference_implementation;
		CREATE TABLE expected_runs (kernel text, workload_label text, gpu text, provider text,
			primary_statistic text, mean_ns bigint, stddev_ns bigint, min_ns bigint, max_ns bigint, samples bigint);
		CREATE TABLE expected_speedups (kernel text, workload_label text, gpu text, provider text,
			reference_provider text, reference_ns bigint, own_ns bigint, speedup float8, welch boolean);
	SQL
	psql_db -c "\\copy expected_runs FROM '$tmp/$harness.runs'" -c "\\copy expected_speedups FROM '$tmp/$harness.speedups'"
	load() { PGOPTIONS="${PGOPTIONS:-} -c client_min_messages=warning" psql_db -c "\\copy kernelindex.run_rows ($columns) FROM '$tmp/$harness.csv' WITH (FORMAT csv, HEADER MATCH)"; }
	load

	# Runs: one per measurement, each with the file's figures.
	check "$harness: runs, one per measurement in the files" "$runs" \
		"$(psql_db -At -c "SELECT count(*) FROM kernelindex.runs")"
	check "$harness: CSV rows" "$runs" "$(($(wc -l <"$tmp/$harness.csv") - 1))"
	check "$harness: every measurement found once in run_facts" "$runs" "$(psql_db -At -v h="$harness" <<-SQL
		SELECT count(*) FROM expected_runs e
		WHERE (SELECT count(*) FROM kernelindex.run_facts f
			WHERE f.harness = :'h' AND f.kernel = e.kernel AND f.provider = e.provider
				AND f.workload_label = e.workload_label AND f.gpu = $gpu_sql AND f.metric = 'latency') = 1;
	SQL
	)"
	check "$harness: every run's ns statistics, samples and primary statistic as the file's" "$runs" \
		"$(psql_db -At -v h="$harness" <<-SQL
		SELECT count(*) FROM expected_runs e JOIN kernelindex.run_facts f
			ON f.harness = :'h' AND f.kernel = e.kernel AND f.provider = e.provider
				AND f.workload_label = e.workload_label AND f.gpu = $gpu_sql AND f.metric = 'latency'
		WHERE f.primary_statistic = e.primary_statistic
			AND f.latency_ns_mean IS NOT DISTINCT FROM e.mean_ns
			AND f.latency_ns_stddev IS NOT DISTINCT FROM e.stddev_ns
			AND f.latency_ns_min IS NOT DISTINCT FROM e.min_ns
			AND f.latency_ns_max IS NOT DISTINCT FROM e.max_ns
			AND f.latency_samples IS NOT DISTINCT FROM e.samples
			AND f.latency_ns_primary = CASE e.primary_statistic WHEN 'mean' THEN e.mean_ns
				WHEN 'min' THEN e.min_ns END;
	SQL
	)"
	IFS=$'\t' read -r _ kernel label gpu provider column text unit ns < <(grep '^unit	' "$tmp/$harness.expect")
	check "$harness: unit: $text $unit -> $ns ns ($column of $provider $kernel $label on $gpu)" "$ns" \
		"$(psql_db -At -v h="$harness" -v k="$kernel" -v l="$label" -v g="$gpu" -v p="$provider" <<-SQL
		SELECT f.latency_ns_$column FROM kernelindex.run_facts f, (SELECT :'g'::text AS gpu) e
		WHERE f.harness = :'h' AND f.kernel = :'k' AND f.workload_label = :'l' AND f.provider = :'p'
			AND f.gpu = $gpu_sql AND f.metric = 'latency';
	SQL
	)"

	# Speedups: every implementation against the reference, on every workload and GPU both ran;
	# one of each pair shown with its figures.
	while IFS=$'\t' read -r _ provider ref count; do
		check "$harness: speedups of $provider against $ref (reference_ns / own_ns, p-value where Welch applies)" "$count" \
			"$(psql_db -At -v h="$harness" -v p="$provider" <<-SQL
			SELECT count(*) FROM expected_speedups e JOIN kernelindex.speedups s
				ON s.harness = :'h' AND s.kernel = e.kernel AND s.provider = e.provider
					AND s.workload_label = e.workload_label AND s.gpu = $gpu_sql AND s.metric = 'latency'
			WHERE e.provider = :'p' AND s.reference_provider = e.reference_provider
				AND s.speedup = e.speedup AND (s.p_value IS NOT NULL) = e.welch;
		SQL
		)"
		IFS=$'\t' read -r kernel label gpu _ _ ref_ns own_ns speedup _ < <(awk -F '\t' -v p="$provider" '$4 == p && $6 != $7' "$tmp/$harness.speedups" \
			| cat - <(awk -F '\t' -v p="$provider" '$4 == p' "$tmp/$harness.speedups") | head -1)
		check "$harness: speedup of $provider over $ref on $kernel, $label, $gpu: $ref_ns / $own_ns ns = $speedup" equal \
			"$(psql_db -At -v h="$harness" -v k="$kernel" -v l="$label" -v g="$gpu" -v p="$provider" -v x="$speedup" <<-SQL
			SELECT string_agg(CASE WHEN s.speedup = :'x'::float8 THEN 'equal' ELSE s.speedup::text END, ',')
			FROM kernelindex.speedups s, (SELECT :'g'::text AS gpu) e
			WHERE s.harness = :'h' AND s.kernel = :'k' AND s.workload_label = :'l' AND s.provider = :'p'
				AND s.gpu = $gpu_sql AND s.metric = 'latency';
		SQL
		)"
	done < <(grep '^pair	' "$tmp/$harness.expect")
	check "$harness: speedup rows, one per run with a reference run" "$(wc -l <"$tmp/$harness.speedups")" \
		"$(psql_db -At -v h="$harness" <<<"SELECT count(*) FROM kernelindex.speedups WHERE harness = :'h'")"

	# The same files again: no new run.
	load
	check "$harness: second load adds no run" "$runs" "$(psql_db -At -c "SELECT count(*) FROM kernelindex.runs")"
done

[ $fail -eq 0 ] && echo "harnesses: all checks passed"
exit $fail
