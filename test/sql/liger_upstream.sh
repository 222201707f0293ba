#!/usr/bin/env bash
# Liger upstream suite: load ../shared's all_benchmark_data.csv and check that
#  - lines 692 and 1424 (header = line 1) export, through
#    kernelindex.run_document, as the two reference records, every field
#    equal except workloadDigest and implementationDigest;
#  - every one of the file's data rows is accounted for (one run per row, or
#    one run per set of true duplicates, and no rejected row);
#  - loading the file a second time changes nothing;
#  - the file four times over (new timestamps), exported as bundles and
#    loaded as documents into an empty database, gives the same bundles, the
#    same runs with the same dictionary values (compared by value) and the
#    same dictionaries and templates as the CSV load;
#  - rows with fractions of a second make runs whose digests are their
#    documents'.
# Run by test/run.sh with libpq variables pointing at a throwaway cluster
# whose PostgreSQL has the extension installed.  Exit status non-zero on failure.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
shared="$here/../../../shared"
csv="$shared/data/liger/all_benchmark_data.csv"
records="$shared/reference/records"
if [ ! -r "$csv" ]; then
	echo "skipped: $csv absent"
	exit 0
fi
csv=$(cd "$(dirname "$csv")" && pwd)/$(basename "$csv")

db=liger_upstream_$$
psql_db() { psql -X -q -v ON_ERROR_STOP=1 -d "$db" "$@"; }
cleanup() { psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $db" >/dev/null 2>&1 || true; }
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

psql -X -q -v ON_ERROR_STOP=1 -d postgres -c "CREATE DATABASE $db"
psql_db -c "CREATE EXTENSION kernelindex"

# 1. Each reference line alone, then exported.
for spec in "692:sparsemax-backward-torch-rtx3090.json" "1424:grpo-sequence-forward-torch-a100.json"; do
	line=${spec%%:*}
	ref="$records/${spec#*:}"
	if [ ! -r "$ref" ]; then
		echo "FAILED: reference record $ref absent"
		fail=1
		continue
	fi
	tmp=$(mktemp)
	sed -n "1p;${line}p" "$csv" >"$tmp"
	got=$(psql_db -At <<-SQL
		BEGIN;
		\copy kernelindex.liger_rows FROM '$tmp' WITH (FORMAT csv, HEADER MATCH)
		SELECT CASE WHEN count(*) <> 1 THEN 'runs: ' || count(*)
			WHEN bool_and(kernelindex.run_document(r.digest) #- '{run,spec,workloadDigest}' #- '{run,spec,implementationDigest}'
				= \$ref\$$(cat "$ref")\$ref\$::jsonb #- '{run,spec,workloadDigest}' #- '{run,spec,implementationDigest}')
			THEN 'equal' ELSE 'different: ' || max(kernelindex.run_document(r.digest)::text) END
		FROM kernelindex.runs r;
		ROLLBACK;
	SQL
	)
	rm -f "$tmp"
	check "line $line exports as $(basename "$ref")" equal "$got"
done

# 2. The whole file: every row accounted for.
rows=$(($(wc -l <"$csv") - 1))
start=$(date +%s)
psql_db -c "\\copy kernelindex.liger_rows FROM '$csv' WITH (FORMAT csv, HEADER MATCH)"
echo "loaded $rows rows in $(($(date +%s) - start)) s"
dups=$(tail -n +2 "$csv" | sort | uniq -d | wc -l)
distinct=$(tail -n +2 "$csv" | sort -u | wc -l)
echo "upstream rows repeated verbatim: $dups"
runs=$(psql_db -At -c "SELECT count(*) FROM kernelindex.runs")
rejected=$(psql_db -At -c "SELECT count(*) FROM kernelindex.rejected_rows")
ids=$(psql_db -At -c "SELECT count(DISTINCT external_id) FROM kernelindex.run_facts")
check "data rows in the file" 2448 "$rows"
check "one run per distinct row" "$distinct" "$runs"
check "rejected rows" 0 "$rejected"
check "distinct externalIds" "$runs" "$ids"
check "COPY target empty" 0 "$(psql_db -At -c "SELECT count(*) FROM kernelindex.liger_rows")"

# The reference lines, now within the whole load, still export exactly.
for spec in "692:sparsemax-backward-torch-rtx3090.json" "1424:grpo-sequence-forward-torch-a100.json"; do
	ref="$records/${spec#*:}"
	[ -r "$ref" ] || continue
	got=$(psql_db -At <<-SQL
		SELECT count(*) FILTER (WHERE kernelindex.run_document(f.run_digest::kidx_digest) #- '{run,spec,workloadDigest}' #- '{run,spec,implementationDigest}'
			= r.doc #- '{run,spec,workloadDigest}' #- '{run,spec,implementationDigest}')
		FROM (SELECT \$ref\$$(cat "$ref")\$ref\$::jsonb AS doc) r
		JOIN kernelindex.run_facts f ON f.external_id = r.doc #>> '{run,spec,sourceNative,externalId}';
	SQL
	)
	check "line ${spec%%:*} in the whole load" 1 "$got"
done

# The whole load equals the one an earlier implementation made by storing
# every row through kernelindex.ingest_bundles (its exported bundles were
# recorded then): same runs, same bundles byte for byte.  And every stored
# run's digest is its document's.
check "bundles equal to the document-at-a-time load" "2448|7cd4937078fee5a236c45fe677674e82" \
	"$(psql_db -At -c "SELECT count(*), md5(string_agg(kidx_canonical(kernelindex.run_bundle(digest)), E'\n' ORDER BY digest)) FROM kernelindex.runs")"
check "every run's digest is its document's" 0 \
	"$(psql_db -At -c "SELECT count(*) FROM kernelindex.runs r WHERE r.digest <> kidx_resource_digest(kernelindex.run_json(r)) OR kernelindex.run_json(r) IS NULL")"

# 3. Loading twice changes nothing.
snapshot() {
	psql_db -At <<-'SQL'
		SELECT 'runs', count(*), md5(string_agg(digest::text, ',' ORDER BY digest)) FROM kernelindex.runs
		UNION ALL SELECT 'protocols', count(*), md5(string_agg(document::text, ',' ORDER BY digest)) FROM kernelindex.protocols
		UNION ALL SELECT 'environments', count(*), md5(string_agg(document::text, ',' ORDER BY digest)) FROM kernelindex.environments
		UNION ALL SELECT 'workloads', count(*), md5(string_agg(document::text, ',' ORDER BY digest)) FROM kernelindex.workloads
		UNION ALL SELECT 'implementations', count(*), md5(string_agg(document::text, ',' ORDER BY digest)) FROM kernelindex.implementations
		UNION ALL SELECT 'rejected', count(*), '' FROM kernelindex.rejected_rows;
	SQL
}
before=$(snapshot)
psql_db -c "\\copy kernelindex.liger_rows FROM '$csv' WITH (FORMAT csv, HEADER MATCH)"
after=$(snapshot)
check "second load changes nothing" "$before" "$after"

# 4. The file three more times, each time with other timestamps (the shape of
# the benchmark: runs that share their templates and dictionary values):
# every run digest is its exported document's, the run in each document is
# the one the document-at-a-time path gives (re-ingesting the exported bundle
# of every run into an empty database reproduces the same digest and bundle).
tmp=$(mktemp -d)
chmod 755 "$tmp"
psql_db -q <<-SQL
	CREATE TABLE upstream (LIKE kernelindex.liger_rows);
	\copy upstream FROM '$csv' WITH (FORMAT csv, HEADER MATCH)
	\copy (SELECT u.kernel_name, u.kernel_provider, u.kernel_operation_mode, u.metric_name, u.metric_unit, u.x_name, u.x_label, u.x_value, u.y_value_50, u.y_value_20, u.y_value_80, u.extra_benchmark_config_str, u.gpu_name, to_char(timestamp '2020-01-01' + (g * 100000 + row_number() OVER (PARTITION BY g)) * interval '1 second', 'YYYY-MM-DD HH24:MI:SS') AS "timestamp", u.liger_version FROM upstream u, generate_series(1, 3) g) TO '$tmp/repeated.csv' WITH (FORMAT csv, HEADER)
	\copy kernelindex.liger_rows FROM '$tmp/repeated.csv' WITH (FORMAT csv, HEADER MATCH)
SQL
check "runs after the repeated load" $((2448 * 4)) "$(psql_db -At -c "SELECT count(*) FROM kernelindex.runs")"
check "every run's digest is its document's (repeated load)" 0 \
	"$(psql_db -At -c "SELECT count(*) FROM kernelindex.runs r WHERE r.digest <> kidx_resource_digest(kernelindex.run_json(r)) OR kernelindex.run_json(r) IS NULL")"
psql_db -At -c "\copy (SELECT kernelindex.run_bundle(digest) FROM kernelindex.runs ORDER BY digest) TO '$tmp/bundles.jsonl'"
db2=${db}_docs
psql -X -q -v ON_ERROR_STOP=1 -d postgres -c "CREATE DATABASE $db2"
trap 'cleanup; psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $db2" >/dev/null 2>&1 || true; rm -rf "$tmp"' EXIT
psql -X -q -v ON_ERROR_STOP=1 -d "$db2" -c "CREATE EXTENSION kernelindex" \
	-c "\copy kernelindex.documents FROM '$tmp/bundles.jsonl'"
bundles_of() {
	psql -X -At -v ON_ERROR_STOP=1 -d "$1" -c "SELECT count(*), md5(string_agg(kidx_canonical(kernelindex.run_bundle(digest)), E'\n' ORDER BY digest)) FROM kernelindex.runs"
}
# (Each side is read into a variable first: under set -e a query that fails
# ends the suite, instead of two empty outputs comparing equal.)
bundles_docs=$(bundles_of "$db2")
bundles_csv=$(bundles_of "$db")
check "bundles equal to the document-at-a-time load (repeated)" "$bundles_docs" "$bundles_csv"
# The run layout split the CSV rows as it split their documents: the same
# runs, each with the same values and the same dictionary values (compared
# by value, not by id: ids may differ between the stores), and the same
# dictionaries, templates included (value and name and externalId rules).
runs_of() {
	psql -X -At -v ON_ERROR_STOP=1 -d "$1" <<-'SQL'
		SELECT count(*), md5(string_agg(jsonb_build_array(r.digest, r.comparability_key, i.digest,
				jsonb_build_array(t.value, t.name_form, t.name_prefix, t.name_cut, t.external_id_form, t.native_unit),
				l.value, ti.value, st.value, so.value, b.value, n.value, x.value,
				r.observed_at, r.latency_ns, r.latency_ns_p20, r.latency_ns_p80, r.peak_bytes, r.peak_bytes_p20,
				r.peak_bytes_p80, r.native_p20, r.native_p50, r.native_p80, r.external_key)::text, E'\n' ORDER BY r.digest))
		FROM kernelindex.runs r
		JOIN kernelindex.implementations i ON i.id = r.implementation_id
		JOIN kernelindex.run_templates t ON t.id = r.template_id
		JOIN kernelindex.run_statuses st ON st.id = r.status_id
		LEFT JOIN kernelindex.run_labels l ON l.id = r.labels_id
		LEFT JOIN kernelindex.run_titles ti ON ti.id = r.title_id
		LEFT JOIN kernelindex.run_sources so ON so.id = r.source_id
		LEFT JOIN kernelindex.run_benchmarks b ON b.id = r.benchmark_id
		LEFT JOIN kernelindex.run_strings n ON n.id = r.name_id
		LEFT JOIN kernelindex.run_strings x ON x.id = r.external_id_id
		WHERE (r.labels_id IS NULL) = (l.id IS NULL) AND (r.title_id IS NULL) = (ti.id IS NULL)
			AND (r.source_id IS NULL) = (so.id IS NULL) AND (r.benchmark_id IS NULL) = (b.id IS NULL)
			AND (r.name_id IS NULL) = (n.id IS NULL) AND (r.external_id_id IS NULL) = (x.id IS NULL);
	SQL
}
dictionaries_of() {
	psql -X -At -v ON_ERROR_STOP=1 -d "$1" <<-'SQL'
		SELECT 'run_templates', count(*), md5(string_agg(v, E'\n' ORDER BY v COLLATE "C")) FROM (SELECT kidx_canonical(jsonb_build_array(value, name_form, name_prefix, name_cut, external_id_form, native_unit)) AS v FROM kernelindex.run_templates) t
		UNION ALL SELECT 'run_labels', count(*), md5(string_agg(kidx_canonical(value), E'\n' ORDER BY kidx_canonical(value) COLLATE "C")) FROM kernelindex.run_labels
		UNION ALL SELECT 'run_titles', count(*), md5(string_agg(value, E'\n' ORDER BY value COLLATE "C")) FROM kernelindex.run_titles
		UNION ALL SELECT 'run_statuses', count(*), md5(string_agg(value, E'\n' ORDER BY value COLLATE "C")) FROM kernelindex.run_statuses
		UNION ALL SELECT 'run_sources', count(*), md5(string_agg(value, E'\n' ORDER BY value COLLATE "C")) FROM kernelindex.run_sources
		UNION ALL SELECT 'run_benchmarks', count(*), md5(string_agg(value, E'\n' ORDER BY value COLLATE "C")) FROM kernelindex.run_benchmarks
		UNION ALL SELECT 'run_strings', count(*), md5(string_agg(value, E'\n' ORDER BY value COLLATE "C")) FROM kernelindex.run_strings;
	SQL
}
runs_docs=$(runs_of "$db2")
runs_csv=$(runs_of "$db")
check "runs and their dictionary values equal to the document-at-a-time load (repeated)" "$runs_docs" "$runs_csv"
check "every run of the CSV load, with every dictionary value it names (repeated)" "$((2448 * 4))" "${runs_csv%%|*}"
dictionaries_docs=$(dictionaries_of "$db2")
dictionaries_csv=$(dictionaries_of "$db")
check "dictionaries and templates equal to the document-at-a-time load (repeated)" "$dictionaries_docs" "$dictionaries_csv"

# 5. Rows whose timestamps have a fraction of a second (the file five
# times: 12,240 rows): their externalIds and names end in -uuuuuu.
psql_db -q <<-SQL
	\copy (SELECT u.kernel_name, u.kernel_provider, u.kernel_operation_mode, u.metric_name, u.metric_unit, u.x_name, u.x_label, u.x_value, u.y_value_50, u.y_value_20, u.y_value_80, u.extra_benchmark_config_str, u.gpu_name, to_char(timestamp '2030-01-01 00:00:00.25' + (g * 100000 + row_number() OVER (PARTITION BY g)) * interval '1 second', 'YYYY-MM-DD HH24:MI:SS.MS') AS "timestamp", u.liger_version FROM upstream u, generate_series(1, 5) g) TO '$tmp/fractional.csv' WITH (FORMAT csv, HEADER)
	\copy kernelindex.liger_rows FROM '$tmp/fractional.csv' WITH (FORMAT csv, HEADER MATCH)
SQL
check "runs with fractions of a second" $((2448 * 5)) \
	"$(psql_db -At -c "SELECT count(*) FROM kernelindex.runs WHERE observed_at >= '2030-01-01'")"
check "every run's digest is its document's (fractions)" 0 \
	"$(psql_db -At -c "SELECT count(*) FROM kernelindex.runs r WHERE r.observed_at >= '2030-01-01' AND (r.digest <> kidx_resource_digest(kernelindex.run_json(r)) OR kernelindex.run_json(r) IS NULL)")"

[ $fail -eq 0 ] && echo "liger_upstream: all checks passed"
exit $fail
