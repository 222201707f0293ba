#!/usr/bin/env bash
# pg_upgrade of clusters holding kernelindex with data, from PostgreSQL OLD to
# NEW, where both majors' servers and postgresql-OLD-kernelindex and
# postgresql-NEW-kernelindex are installed (make test-versions runs it as
# root inside a chroot: test/versions/matrix.sh, "pg_upgrade" rows).
#
#   test/versions/upgrade.sh OLD NEW WORK [MODE]
#
# WORK holds data/liger_sample.csv, data/records/*.json and, when the shared
# data is there, data/all_benchmark_data.csv (the upstream Liger file; its
# absence is said plainly and the rest still runs).  MODE is pg_upgrade's
# transfer mode: copy (default), link or clone.
#
# On OLD, four databases:
#   kidx_all  the first half of liger_sample.csv, the reference records
#             (ingest_document), the upstream file
#   kidx_b    the whole bundles exported from kidx_all (run_bundles), loaded
#             through the documents view (\copy kernelindex.documents)
#   kidx_a    the first half of liger_sample.csv, the reference records
#   kidx_ref  the same, then the second half and the upstream file
# Each database's record: every table and view of schema kernelindex, in
# full and ordered; every document; each run's digest, its recomputed
# digest and its 32 bytes; kidx_digest's pg_type row.  Then pg_upgrade
# --check, pg_upgrade, and on NEW:
#   - every record reads back byte for byte the same;
#   - ALTER EXTENSION kernelindex UPDATE is a no-op (same version);
#   - kidx_a loads the second half and the upstream file: its record is then
#     kidx_ref's from OLD (a load after the upgrade stores what OLD stored),
#     and loading the first half again stores nothing;
#   - a new database loaded from the same bundles is kidx_b's record.
# A line every few seconds says what it does; last line "pg_upgrade OLD->NEW:
# passed (...)" (exit 0), "pg_upgrade OLD->NEW: FAILED: why" (exit 1) or
# "pg_upgrade OLD->NEW: skipped: why" (exit 2: the control below failed).
set -euo pipefail

old=$1 new=$2 work=$3 mode=${4:-copy}
ob=/usr/lib/postgresql/$old/bin
nb=/usr/lib/postgresql/$new/bin
data=$work/data
start=$SECONDS

say() { printf '   pg_upgrade %s->%s, %d s: %s\n' "$old" "$new" $((SECONDS - start)) "$*"; }
fail() {
	say "FAILED: $*"
	echo "pg_upgrade $old->$new: FAILED: $*"
	exit 1
}
as_pg() { (cd "$work" && runuser -u postgres -- "$@"); }

for b in "$ob" "$nb"; do
	[ -x "$b/pg_ctl" ] || fail "no PostgreSQL server in $b"
done
for v in "$old" "$new"; do
	[ -f "/usr/lib/postgresql/$v/lib/kernelindex.so" ] || fail "postgresql-$v-kernelindex is not installed"
done
chown -R postgres: "$work"
chmod 755 "$work"

# A TCP port nothing listens on (the clusters listen on a socket in WORK
# only; pg_upgrade names ports all the same).
free_port() {
	local p
	while :; do
		p=$((20000 + RANDOM % 40000))
		(exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null || { echo "$p"; return; }
	done
}
oport=$(free_port)
nport=$(free_port)
[ "$nport" != "$oport" ] || nport=$((oport + 1))

# initdb as Debian's pg_createcluster makes a cluster: UTF8, C.UTF-8, no
# data checksums (18's initdb turns them on unless told; pg_upgrade needs
# both clusters the same).
initdb_for() {
	local v=$1 dir=$2 extra=()
	[ "$v" -lt 18 ] || extra=(--no-data-checksums)
	as_pg "/usr/lib/postgresql/$v/bin/initdb" -D "$dir" -U postgres -E UTF8 --locale=C.UTF-8 \
		--auth=trust --no-sync "${extra[@]}" >"$work/initdb-$v.log" 2>&1 \
		|| { cat "$work/initdb-$v.log"; fail "initdb $v"; }
}
start_server() {
	local bin=$1 dir=$2 port=$3
	as_pg "$bin/pg_ctl" -D "$dir" -l "$dir.log" -w -s \
		-o "-p $port -k $work -c listen_addresses='' -c fsync=off" start \
		|| { cat "$dir.log"; fail "cannot start $dir"; }
}
stop_server() { as_pg "$1/pg_ctl" -D "$2" -w -s -m fast stop; }

# psql of major $1 on port $2, database $3.
sql() {
	local bin=/usr/lib/postgresql/$1/bin port=$2 db=$3
	shift 3
	as_pg "$bin/psql" -X -q -v ON_ERROR_STOP=1 -h "$work" -p "$port" -d "$db" "$@"
}

# The record of database $3 (major $1, port $2) into file $4.
record() {
	local v=$1 port=$2 db=$3 out=$4
	sql "$v" "$port" "$db" -A -t >"$out" <<-'SQL'
		\echo == kidx_digest
		SELECT typname, typlen, typbyval, typalign, typstorage FROM pg_type
		WHERE typname = 'kidx_digest';
		\echo == extension
		SELECT extname, extversion, extnamespace::regnamespace FROM pg_extension
		WHERE extname = 'kernelindex';
		-- every table and view of the schema, in full, ordered
		SELECT format('SELECT %L', '== ' || c.relname),
		       format('COPY (SELECT * FROM kernelindex.%I t ORDER BY t::text COLLATE "C") TO STDOUT', c.relname)
		FROM pg_class c
		WHERE c.relnamespace = 'kernelindex'::regnamespace AND c.relkind IN ('r', 'p', 'v')
		ORDER BY c.relname COLLATE "C"
		\gexec
		\echo == documents
		COPY (SELECT document FROM kernelindex.documents ORDER BY document::text COLLATE "C") TO STDOUT;
		\echo == digests: stored, recomputed from the run, its bytes, canonical digest of the bundle
		COPY (SELECT digest, kidx_resource_digest(document -> 'run'), kidx_digest_to_bytea(digest::kidx_digest),
		             kidx_canonical_digest(bundle)
		      FROM kernelindex.run_bundles ORDER BY digest) TO STDOUT;
		\echo == resource digests recomputed
		COPY (SELECT 'protocols', digest, kidx_resource_digest(document) FROM kernelindex.protocols
		      UNION ALL SELECT 'environments', digest, kidx_resource_digest(document) FROM kernelindex.environments
		      UNION ALL SELECT 'workloads', digest, kidx_resource_digest(document) FROM kernelindex.workloads
		      UNION ALL SELECT 'implementations', digest, kidx_resource_digest(document) FROM kernelindex.implementations
		      ORDER BY 1, 2) TO STDOUT;
	SQL
}

# How many runs and documents database $3 holds.
counts() {
	sql "$1" "$2" "$3" -A -t -c "SELECT (SELECT count(*) FROM kernelindex.runs) || ' runs, '
		|| (SELECT count(*) FROM kernelindex.documents) || ' documents'"
}

# Load a Liger CSV file (as the client reads it) into database $3.
load_csv() {
	sql "$1" "$2" "$3" -c "\\copy kernelindex.liger_rows FROM '$4' WITH (FORMAT csv, HEADER MATCH)"
}

# The reference records, one ingest_document each.
load_records() {
	local f
	for f in "$data"/records/*.json; do
		sql "$1" "$2" "$3" -v doc="$(cat "$f")" <<-'SQL' >/dev/null
			SELECT kernelindex.ingest_document(:'doc'::jsonb);
		SQL
	done
}

load_bundles() {
	sql "$1" "$2" "$3" -c "\\copy kernelindex.documents FROM '$4' WITH (FORMAT csv, QUOTE E'\\x01', DELIMITER E'\\x02')"
}

# The sample's two halves, each with the header.
total=$(($(wc -l <"$data/liger_sample.csv") - 1))
half=$((total / 2))
head -n $((half + 1)) "$data/liger_sample.csv" >"$work/part1.csv"
{ head -n 1 "$data/liger_sample.csv"; tail -n +$((half + 2)) "$data/liger_sample.csv"; } >"$work/part2.csv"
if [ -f "$data/all_benchmark_data.csv" ]; then
	upstream="upstream file loaded ($(($(wc -l <"$data/all_benchmark_data.csv") - 1)) rows)"
else
	upstream="upstream file skipped: no ../shared/data/liger/all_benchmark_data.csv"
fi
chown postgres: "$work"/*.csv

# "17.12" for a server's bin folder.
version() { "$1/postgres" --version | sed -n 's/^postgres (PostgreSQL) \([^ ]*\).*/\1/p'; }

transfer=pg_upgrade
skipped=""
# A control first: pg_upgrade of a cluster holding one plain table and no
# kernelindex.  If that fails, these two servers cannot upgrade any cluster
# (Debian forky's 18.6 and trixie's 17.12, say: 17.12 stores the column
# option pg_attver, which 18.6 refuses at the restore, after --check said
# the clusters are compatible), so the row is skipped with the reason; the
# kernelindex part goes across with pg_dump | pg_restore instead (the new
# major's, as Debian's pg_upgradecluster -m dump does), to the same checks;
# pg_upgrade's part runs once the servers can.
say "a control: pg_upgrade of a cluster with one plain table, no kernelindex"
mkdir -p "$work/control/run"
chown -R postgres: "$work/control"
initdb_for "$old" "$work/control/old"
initdb_for "$new" "$work/control/new"
start_server "$ob" "$work/control/old" "$oport"
sql "$old" "$oport" postgres -c "CREATE TABLE plain (a integer, b text); INSERT INTO plain VALUES (1, 'one')"
stop_server "$ob" "$work/control/old"
if ! (cd "$work/control/run" && runuser -u postgres -- "$nb/pg_upgrade" -b "$ob" -B "$nb" \
	-d "$work/control/old" -D "$work/control/new" -p "$oport" -P "$nport" -s "$work") \
	>"$work/control.log" 2>&1; then
	why=$(grep -rh 'ERROR:' "$work/control/new/pg_upgrade_output.d" 2>/dev/null | head -n 1 | sed 's/.*ERROR: *//')
	[ -n "$why" ] || why=$(grep -v '^ *$' "$work/control.log" | tail -n 1)
	grep -rh -E 'pg_restore: (from TOC|error)' "$work/control/new/pg_upgrade_output.d" 2>/dev/null | head -n 4
	say "the control failed: $why; the clusters go across with pg_dump | pg_restore instead"
	skipped="pg_upgrade from $(version "$ob") to $(version "$nb") fails for any cluster: a plain table without kernelindex already fails ($why)"
	transfer=dump
fi
rm -rf "$work/control"
[ "$transfer" = dump ] || say "the control passed"

say "PostgreSQL $old: initdb, start"
initdb_for "$old" "$work/old"
start_server "$ob" "$work/old" "$oport"
dbs="kidx_all kidx_b kidx_a kidx_ref"
for db in $dbs; do
	sql "$old" "$oport" postgres -c "CREATE DATABASE $db"
	sql "$old" "$oport" "$db" -c "CREATE EXTENSION kernelindex"
done
# The upstream file, if the shared data is there.
load_upstream() {
	if [ -f "$data/all_benchmark_data.csv" ]; then
		say "PostgreSQL $1: $3: the upstream file all_benchmark_data.csv"
		load_csv "$1" "$2" "$3" "$data/all_benchmark_data.csv"
	else
		say "PostgreSQL $1: $3: the upstream file: skipped (no ../shared/data/liger/all_benchmark_data.csv)"
	fi
}
for db in kidx_all kidx_a kidx_ref; do
	say "PostgreSQL $old: $db: liger_sample.csv rows 1-$half, the reference records"
	load_csv "$old" "$oport" "$db" "$work/part1.csv"
	load_records "$old" "$oport" "$db"
done
load_upstream "$old" "$oport" kidx_all
say "PostgreSQL $old: kidx_ref: liger_sample.csv rows $((half + 1))-$total"
load_csv "$old" "$oport" kidx_ref "$work/part2.csv"
load_upstream "$old" "$oport" kidx_ref
say "PostgreSQL $old: kidx_b: the bundles of kidx_all through kernelindex.documents"
sql "$old" "$oport" kidx_all -c "\\copy (SELECT bundle FROM kernelindex.run_bundles ORDER BY digest) TO '$work/bundles.jsonl' WITH (FORMAT csv, QUOTE E'\\x01', DELIMITER E'\\x02')"
load_bundles "$old" "$oport" kidx_b "$work/bundles.jsonl"
for db in $dbs; do
	record "$old" "$oport" "$db" "$work/old-$db.txt"
	say "PostgreSQL $old: $db: $(counts "$old" "$oport" "$db"), record $(wc -c <"$work/old-$db.txt") bytes"
done
if [ "$transfer" = pg_upgrade ]; then
	stop_server "$ob" "$work/old"

	say "PostgreSQL $new: initdb"
	initdb_for "$new" "$work/new"
	mkdir -p "$work/run"
	chown postgres: "$work/run"
	pgup() {
		(cd "$work/run" && runuser -u postgres -- "$nb/pg_upgrade" -b "$ob" -B "$nb" \
			-d "$work/old" -D "$work/new" -p "$oport" -P "$nport" -s "$work" "$@")
	}
	say "pg_upgrade --check"
	pgup --check >"$work/check.log" 2>&1 || {
		cat "$work/check.log"
		find "$work" -name '*.txt' -path '*pg_upgrade_output.d*' -exec tail -n 30 {} + 2>/dev/null
		fail "pg_upgrade --check"
	}
	grep -E 'Clusters are compatible|\*' "$work/check.log" | sed 's/^/     /'
	say "pg_upgrade --$mode"
	pgup "--$mode" >"$work/upgrade.log" 2>&1 || {
		cat "$work/upgrade.log"
		find "$work/new" -name '*.log' -path '*pg_upgrade_output.d*' -exec tail -n 30 {} + 2>/dev/null
		fail "pg_upgrade --$mode"
	}
	grep -E '^Upgrade Complete|^Performing Upgrade' "$work/upgrade.log" | sed 's/^/     /'
	say "PostgreSQL $new: start, analyze, read back"
	start_server "$nb" "$work/new" "$nport"
else
	say "PostgreSQL $new: initdb, start"
	initdb_for "$new" "$work/new"
	start_server "$nb" "$work/new" "$nport"
	for db in $dbs; do
		say "pg_dump -Fc $db ($new's) | pg_restore --create"
		as_pg "$nb/pg_dump" -h "$work" -p "$oport" -Fc -f "$work/$db.dump" "$db" \
			|| fail "pg_dump $db"
		as_pg "$nb/pg_restore" -h "$work" -p "$nport" --create --exit-on-error -d postgres "$work/$db.dump" \
			|| fail "pg_restore $db"
	done
	stop_server "$ob" "$work/old"
	say "PostgreSQL $new: analyze, read back"
fi
as_pg "$nb/vacuumdb" -h "$work" -p "$nport" --all --analyze-only -q
for db in $dbs; do
	record "$new" "$nport" "$db" "$work/new-$db.txt"
	cmp -s "$work/old-$db.txt" "$work/new-$db.txt" || {
		diff "$work/old-$db.txt" "$work/new-$db.txt" | head -n 40
		fail "$db reads back differently on $new"
	}
	say "PostgreSQL $new: $db: the same record, byte for byte ($(counts "$new" "$nport" "$db"))"
done
for db in $dbs; do
	sql "$new" "$nport" "$db" -c "ALTER EXTENSION kernelindex UPDATE" 2>"$work/alter-$db.log" \
		|| { cat "$work/alter-$db.log"; fail "ALTER EXTENSION kernelindex UPDATE in $db"; }
	record "$new" "$nport" "$db" "$work/alter-$db.txt"
	cmp -s "$work/old-$db.txt" "$work/alter-$db.txt" || fail "ALTER EXTENSION kernelindex UPDATE changed $db"
done
say "PostgreSQL $new: ALTER EXTENSION kernelindex UPDATE: $(sed -n 's/^NOTICE: *//p' "$work/alter-kidx_a.log" | head -n 1)"
say "PostgreSQL $new: kidx_a: liger_sample.csv rows $((half + 1))-$total"
load_csv "$new" "$nport" kidx_a "$work/part2.csv"
load_upstream "$new" "$nport" kidx_a
record "$new" "$nport" kidx_a "$work/after-kidx_a.txt"
cmp -s "$work/old-kidx_ref.txt" "$work/after-kidx_a.txt" || {
	diff "$work/old-kidx_ref.txt" "$work/after-kidx_a.txt" | head -n 40
	fail "kidx_a after a load on $new is not what the same loads stored on $old"
}
say "PostgreSQL $new: kidx_a: now the record of kidx_ref on $old ($(counts "$new" "$nport" kidx_a))"
load_csv "$new" "$nport" kidx_a "$work/part1.csv"
record "$new" "$nport" kidx_a "$work/again-kidx_a.txt"
cmp -s "$work/old-kidx_ref.txt" "$work/again-kidx_a.txt" || fail "loading rows 1-$half again changed kidx_a"
sql "$new" "$nport" postgres -c "CREATE DATABASE kidx_c"
sql "$new" "$nport" kidx_c -c "CREATE EXTENSION kernelindex"
load_bundles "$new" "$nport" kidx_c "$work/bundles.jsonl"
record "$new" "$nport" kidx_c "$work/new-kidx_c.txt"
cmp -s "$work/old-kidx_b.txt" "$work/new-kidx_c.txt" || {
	diff "$work/old-kidx_b.txt" "$work/new-kidx_c.txt" | head -n 40
	fail "the bundles loaded on $new are not what $old stored"
}
say "PostgreSQL $new: the bundles loaded into a new database: kidx_b's record on $old"
stop_server "$nb" "$work/new"
if [ "$transfer" = pg_upgrade ]; then
	echo "pg_upgrade $old->$new: passed ($upstream; pg_upgrade --$mode)"
else
	echo "pg_upgrade $old->$new: skipped: $skipped; pg_dump | pg_restore instead: passed ($upstream)"
	exit 2
fi
