#!/usr/bin/env bash
# Liger catalog suite: the resource documents and workload labels the C
# builders make (kernelindex.liger_protocol, liger_environment,
# liger_implementation, liger_workload, liger_workload_label, liger_slug;
# src/liger_catalog.c) are those the SQL builders of kernelindex 0.1.0
# made, kept as the oracle in test/sql/liger_catalog_oracle.sql: the same
# jsonb (=) with the same text, or an error with the same SQLSTATE from
# both, for
#  - every distinct (metric, pass), GPU, (kernel, provider), workload and
#    label of ../shared's upstream file (skipped, saying so, without it)
#    and of test/data/liger_*.csv (the Liger files there);
#  - the edge cases of test/sql/liger_catalog_cases.sql (catalog rows users
#    add, unknown names, NULLs, unicode, long names, bad values);
# in a database of the cluster's locale, in one whose default collation is
# ICU's Turkish (where lower('I') is not 'i'; skipped without ICU) and in a
# LATIN1 one.  Run by test/run.sh with libpq variables pointing at a
# throwaway cluster whose PostgreSQL has the extension installed.  Exit
# status non-zero on any difference.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
csv="$top/../shared/data/liger/all_benchmark_data.csv"
dbs=()
cleanup() {
	for d in "${dbs[@]}"; do
		psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $d" >/dev/null 2>&1 || true
	done
}
trap cleanup EXIT
fail=0

if [ -r "$csv" ]; then
	csv=$(cd "$(dirname "$csv")" && pwd)/$(basename "$csv")
else
	echo "liger_catalog: upstream part skipped: $csv is absent"
	csv=""
fi

# Compare everything in a new database: NAME, CREATE DATABASE options, and
# the sources that must have no failing case there.
compare_in() {
	local name=$1 options=$2 clean=$3 db=lc_${1}_$$ enc report
	dbs+=("$db")
	psql -X -q -v ON_ERROR_STOP=1 -d postgres -c "CREATE DATABASE $db $options"
	psql -X -q -v ON_ERROR_STOP=1 -d "$db" -c "CREATE EXTENSION kernelindex"
	enc=$(psql -X -At -d "$db" -c "SHOW server_encoding")
	# The oracle's bytes as the install script's: read in the database's encoding.
	PGCLIENTENCODING=$enc psql -X -q -v ON_ERROR_STOP=1 -d "$db" \
		-v extschema="$(psql -X -At -d "$db" -c "SELECT extnamespace::regnamespace FROM pg_extension WHERE extname = 'kernelindex'")" \
		-f "$here/liger_catalog_oracle.sql"
	{
		cat <<-'SQL'
			CREATE TABLE lc_rows (n serial, src text, kernel_name text, kernel_provider text,
				kernel_operation_mode text, metric_name text, x_name text, x_label text, x_value text,
				extra_benchmark_config_str text, gpu_name text, liger_version text);
			CREATE TABLE lc_labels (src text, kernel text, x_name text, x_value jsonb, config jsonb);
			CREATE TABLE lc_slugs (src text, s text);
			CREATE TEMP TABLE staged (LIKE kernelindex.liger_rows);
		SQL
		local f
		for f in ${csv:+"$csv"} "$top"/test/data/liger_*.csv; do
			local src
			src=$(basename "$f" .csv)
			[ "$f" = "$csv" ] && src=upstream
			cat <<-SQL
				TRUNCATE staged;
				\\copy staged FROM '$f' WITH (FORMAT csv, HEADER MATCH)
				INSERT INTO lc_rows (src, kernel_name, kernel_provider, kernel_operation_mode, metric_name,
					x_name, x_label, x_value, extra_benchmark_config_str, gpu_name, liger_version)
				SELECT '$src', kernel_name, kernel_provider, kernel_operation_mode, metric_name,
					x_name, x_label, x_value, extra_benchmark_config_str, gpu_name, liger_version FROM staged;
			SQL
		done
		cat "$here/liger_catalog_cases.sql" "$here/liger_catalog_compare.sql"
	} | PGCLIENTENCODING=UTF8 psql -X -q -At -v ON_ERROR_STOP=1 -d "$db" >"$tmp/$name.out"
	echo "== $name ($options)"
	local kinds=0 kind cases failed different
	while IFS='|' read -r kind cases failed different; do
		case "$kind" in
		"clean sources")
			local s
			for s in $clean; do
				if [[ " $cases " != *" $s "* ]]; then
					echo "FAILED: source $s has cases that fail (clean sources: $cases)"
					fail=1
				fi
			done
			;;
		difference)
			echo "  difference: $cases, $failed: $different"
			;;
		*)
			kinds=$((kinds + 1))
			if [ "$different" = 0 ] && [ "$cases" -gt 0 ]; then
				echo "ok: $kind: $cases cases equal ($failed refused by both with the same SQLSTATE)"
			else
				echo "FAILED: $kind: $different of $cases cases differ"
				fail=1
			fi
			;;
		esac
	done <"$tmp/$name.out"
	# protocol, environment, implementation, workload and workload_label,
	# each one at a time and set-based, and slug: 11 (liger_series went
	# with the store rewrite).
	if [ "$kinds" -ne 11 ]; then
		echo "FAILED: $name: $kinds kinds of cases compared, not 11"
		cat "$tmp/$name.out"
		fail=1
	fi
}

tmp=$(mktemp -d)
trap 'cleanup; rm -rf "$tmp"' EXIT
clean="edge edge_null liger_sample${csv:+ upstream}"
compare_in default "" "$clean"
locale=$(psql -X -At -d postgres -c "SELECT datctype FROM pg_database WHERE datname = 'template0'")
# (Whether the server was built with ICU: PostgreSQL 16 lists an ICU
# collation, "unicode", even when it was not, so a collation is made.)
if psql -X -q -d postgres -c "CREATE COLLATION pg_temp.kidx_icu_probe (provider = icu, locale = 'tr-TR')" >/dev/null 2>&1; then
	compare_in icu_tr "TEMPLATE template0 ENCODING 'UTF8' LOCALE '$locale' LOCALE_PROVIDER icu ICU_LOCALE 'tr-TR'" ""
else
	echo "liger_catalog: ICU part skipped: this PostgreSQL was built without ICU"
fi
compare_in latin1 "TEMPLATE template0 ENCODING 'LATIN1' LOCALE 'C'" ""

[ $fail -eq 0 ] && echo "liger_catalog: all checks passed"
exit $fail
