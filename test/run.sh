#!/usr/bin/env bash
# kernelindex test driver: `make test`, `make demo` and `make bench` land here.
#
#   test/run.sh test    install dependencies, build, install, start a
#                       throwaway cluster, run every suite, stop the cluster
#   test/run.sh demo    the same set-up, then the demo (test/demo.sh)
#   test/run.sh bench   the same set-up, then every benchmark under test/bench
#
# Works as root on a fresh Debian 12 machine (the server then runs as the
# "postgres" user) and as an ordinary user with sudo for apt-get.
set -euo pipefail

mode=${1:-test}
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

# PG_CONFIG picks the server (Debian's PostgreSQL 15 by default); its bindir
# comes first in PATH.  A pg_config outside /usr/lib/postgresql/NN (a build
# from source) means PostgreSQL's own packages are not installed with apt.
PG_CONFIG=${PG_CONFIG:-/usr/lib/postgresql/15/bin/pg_config}
export PG_CONFIG
PGBIN=$("$PG_CONFIG" --bindir 2>/dev/null || dirname "$PG_CONFIG")
PGMAJOR=$("$PG_CONFIG" --version 2>/dev/null | sed -n 's/^PostgreSQL \([0-9]*\).*/\1/p')
PGMAJOR=${PGMAJOR:-15}
export PATH="$PGBIN:$PATH"

log() { printf '== %s\n' "$*"; }

as_root() {
	if [ "$(id -u)" = 0 ]; then
		"$@"
	elif command -v sudo >/dev/null 2>&1; then
		sudo "$@"
	else
		echo "run.sh: '$*' needs root, and sudo is not installed: run it as root once, then rerun" >&2
		return 1
	fi
}

# Install, with apt-get, every Debian package the build and the suites need.
install_dependencies() {
	local pkgs="libssl-dev make gcc clang"
	case $PG_CONFIG in
	/usr/lib/postgresql/*) pkgs="postgresql-$PGMAJOR postgresql-server-dev-$PGMAJOR $pkgs" ;;
	esac
	pkgs="$pkgs libipc-run-perl nodejs npm python3-psycopg python3-psycopg2
		default-jdk-headless libpostgresql-jdbc-java unixodbc odbc-postgresql
		python3-pyodbc valgrind"
	local missing=""
	for p in $pkgs; do
		# npm ships with some Node.js builds; accept any working npm.
		if [ "$p" = npm ] && command -v npm >/dev/null 2>&1; then continue; fi
		if [ "$p" = nodejs ] && command -v node >/dev/null 2>&1; then continue; fi
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' \
			|| missing="$missing $p"
	done
	if [ -n "$missing" ]; then
		log "installing with apt-get (Debian's registry):$missing"
		as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq
		# One line per package unpacked and set up: progress, not noise.
		as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q $missing 2>&1 \
			| grep -E --line-buffered '^(Setting up|E:)' || true
		for p in $missing; do
			dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' \
				|| { echo "run.sh: apt-get could not install $p" >&2; return 1; }
		done
	fi
}

# Build with -Werror and install into the PostgreSQL 15 tree.
build_and_install() {
	log "building"
	make -s
	log "installing"
	local pg_config
	pg_config=${PG_CONFIG:-$PGBIN/pg_config}
	if [ -w "$("$pg_config" --pkglibdir)" ] && [ -w "$("$pg_config" --sharedir)/extension" ]; then
		make -s install >/dev/null
	else
		as_root make -s install >/dev/null
	fi
}

# Start a throwaway cluster in a temporary directory on a free port; export
# the libpq variables that point at it.
CLUSTER_DIR=""
start_cluster() {
	CLUSTER_DIR=$(mktemp -d /tmp/kernelindex.XXXXXX)
	chmod 755 "$CLUSTER_DIR"
	local run=()
	if [ "$(id -u)" = 0 ]; then
		chown postgres: "$CLUSTER_DIR"
		run=(runuser -u postgres --)
	fi
	# Local connections trust the OS user; TCP asks for a password, as a
	# BI tool's connection does.
	"${run[@]}" initdb -D "$CLUSTER_DIR/data" --auth-local=trust \
		--auth-host=scram-sha-256 -U postgres -E UTF8 \
		--locale=C.UTF-8 --no-sync >"$CLUSTER_DIR/initdb.log" 2>&1 \
		|| { cat "$CLUSTER_DIR/initdb.log"; return 1; }
	cat >>"$CLUSTER_DIR/data/postgresql.conf" <<-EOF
		listen_addresses = '127.0.0.1'
		unix_socket_directories = '$CLUSTER_DIR'
		fsync = off
		synchronous_commit = off
		full_page_writes = off
		shared_buffers = 256MB
		max_wal_size = 4GB
		work_mem = 64MB
		maintenance_work_mem = 512MB
		lc_messages = 'C'
	EOF
	local port tries=0
	while :; do
		port=$((20000 + RANDOM % 40000))
		if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
			if "${run[@]}" pg_ctl -D "$CLUSTER_DIR/data" -o "-p $port" \
				-l "$CLUSTER_DIR/server.log" -w -s start; then
				break
			fi
		fi
		tries=$((tries + 1))
		[ $tries -lt 20 ] || { cat "$CLUSTER_DIR/server.log"; return 1; }
	done
	export PGHOST="$CLUSTER_DIR" PGPORT="$port" PGUSER=postgres PGDATABASE=postgres
	log "throwaway cluster on port $port in $CLUSTER_DIR"
}

# Stop the throwaway cluster and remove it, whatever happened before.
stop_cluster() {
	[ -n "$CLUSTER_DIR" ] || return 0
	local run=()
	[ "$(id -u)" = 0 ] && run=(runuser -u postgres --)
	"${run[@]}" pg_ctl -D "$CLUSTER_DIR/data" -m immediate -w -s stop >/dev/null 2>&1 || true
	rm -rf "$CLUSTER_DIR"
	CLUSTER_DIR=""
}
trap stop_cluster EXIT

passed=0
failed=0
failures=""

# Run one suite; count it and keep going whatever its result.
suite() {
	local name=$1
	shift
	log "suite $name"
	if "$@"; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		failures="$failures $name"
	fi
}

# pg_regress over every REGRESS test of the Makefile.
regress() {
	if make -s installcheck; then
		return 0
	fi
	[ -f regression.diffs ] && head -n 200 regression.diffs
	return 1
}

# TAP tests under test/t, run as the server's user in a scratch directory.
# The tests and their data are copied there: the clone may sit where that
# user cannot read (under /root, say).
tap() {
	local pgxs_dir perl_lib scratch run=()
	pgxs_dir=$(dirname "$(pg_config --pgxs)")/..
	perl_lib=$(cd "$pgxs_dir/test/perl" && pwd)
	scratch=$(mktemp -d /tmp/kernelindex-tap.XXXXXX)
	mkdir -p "$scratch/top/test"
	cp -r test/t test/data "$scratch/top/test/"
	cp README.md "$scratch/top/"
	[ -d ../shared ] && cp -r ../shared "$scratch/shared"
	chmod -R a+rX "$scratch"
	if [ "$(id -u)" = 0 ]; then
		chown -R postgres: "$scratch"
		run=(runuser -u postgres --)
	fi
	local rc=0
	# TESTDIR is what PostgreSQL 15's test modules read, TESTDATADIR and
	# TESTLOGDIR what 16 and later read (else they use relative paths).
	(cd "$scratch" && "${run[@]}" env PATH="$PATH" TESTDIR="$scratch" \
		TESTDATADIR="$scratch/tmp_check" TESTLOGDIR="$scratch/tmp_check/log" \
		PG_REGRESS="$pgxs_dir/test/regress/pg_regress" \
		KIDX_TOP="$scratch/top" KIDX_SHARED="$scratch/shared" \
		prove -I "$perl_lib" "$scratch"/top/test/t/*.pl) || rc=$?
	if [ $rc -ne 0 ]; then
		find "$scratch/tmp_check/log" -name '*.log' \
			-exec sh -c 'echo "--- $1"; tail -n 40 "$1"' _ {} \; 2>/dev/null | tail -n 200
	fi
	rm -rf "$scratch"
	return $rc
}

# The BI views through psycopg2, JDBC and ODBC, over TCP with a password,
# as a read-only role: a database with the sample rows for them.
bi_clients() {
	local password
	password=$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')
	psql -X -q -v ON_ERROR_STOP=1 -d postgres <<-SQL || return 1
		CREATE DATABASE kidx_clients;
		CREATE ROLE kidx_bi LOGIN PASSWORD '$password';
		GRANT CONNECT ON DATABASE kidx_clients TO kidx_bi;
	SQL
	psql -X -q -v ON_ERROR_STOP=1 -d kidx_clients <<-SQL || return 1
		CREATE EXTENSION kernelindex;
		\copy kernelindex.liger_rows FROM 'test/data/liger_sample.csv' WITH (FORMAT csv, HEADER MATCH)
		GRANT USAGE ON SCHEMA kernelindex TO kidx_bi;
		GRANT SELECT ON ALL TABLES IN SCHEMA kernelindex TO kidx_bi;
	SQL
	KIDX_HOST=127.0.0.1 KIDX_PORT=$PGPORT KIDX_DB=kidx_clients KIDX_USER=kidx_bi \
		KIDX_PASSWORD=$password bash test/clients/run_bi_clients.sh
}

install_dependencies
build_and_install

case "$mode" in
test)
	[ -d test/unit ] && suite unit make -s -C test/unit check
	[ -d test/unit ] && suite valgrind make -s -C test/unit valgrind
	start_cluster
	suite regress regress
	# Script suites get a database of their own with the extension created.
	psql -X -q -d postgres -c "CREATE DATABASE kidx_suites"
	psql -X -q -d kidx_suites -c "CREATE EXTENSION kernelindex"
	export PGDATABASE=kidx_suites
	[ -x test/oracle/run.sh ] && suite oracle test/oracle/run.sh
	for s in test/sql/*.sh; do
		[ -e "$s" ] && suite "$(basename "$s" .sh)" bash "$s"
	done
	suite hostile bash test/hostile/run.sh
	suite psycopg /usr/bin/python3 test/clients/psycopg_client.py
	suite bi_clients bi_clients
	compgen -G "test/t/*.pl" >/dev/null && suite tap tap
	stop_cluster
	echo
	[ -z "$failures" ] || echo "failed suites:$failures"
	echo "suites: $passed passed, $failed failed"
	[ "$failed" -eq 0 ]
	;;
demo)
	start_cluster
	bash test/demo.sh
	;;
bench)
	start_cluster
	# Every benchmark on each data shape, then one table (test/bench/bench.sh).
	bash test/bench/bench.sh
	;;
*)
	echo "usage: $0 test|demo|bench" >&2
	exit 2
	;;
esac
