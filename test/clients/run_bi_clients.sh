#!/usr/bin/env bash
# Runs the three "real client" checks of the BI views, each over TCP as a
# read-only login role with a password: pgJDBC (KidxJdbcClient.java),
# psycopg2 (Superset's driver) and psqlODBC through pyodbc.  Exits non-zero
# if any client failed or could not be built.
#
# Reads KIDX_HOST, KIDX_PORT, KIDX_DB, KIDX_USER and KIDX_PASSWORD.  Installs
# nothing and starts no server: the caller provides both, with the Debian
# packages python3-psycopg2, default-jdk-headless, libpostgresql-jdbc-java,
# odbc-postgresql, unixodbc and python3-pyodbc.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
: "${KIDX_HOST:?}" "${KIDX_PORT:?}" "${KIDX_DB:?}" "${KIDX_USER:?}" "${KIDX_PASSWORD:?}"
export KIDX_HOST KIDX_PORT KIDX_DB KIDX_USER KIDX_PASSWORD

jar=/usr/share/java/postgresql.jar
tmp=$(mktemp -d /tmp/kidx-bi-clients.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

failures=""

echo "== jdbc"
if javac -d "$tmp" -cp "$jar" "$here/jdbc/KidxJdbcClient.java"; then
	java -cp "$tmp:$jar" KidxJdbcClient || failures="$failures jdbc"
else
	echo "FAILED: jdbc: KidxJdbcClient.java does not compile"
	failures="$failures jdbc"
fi

echo "== psycopg2"
/usr/bin/python3 "$here/psycopg2_client.py" || failures="$failures psycopg2"

echo "== odbc"
/usr/bin/python3 "$here/odbc_client.py" || failures="$failures odbc"

if [ -n "$failures" ]; then
	echo "bi clients failed:$failures"
	exit 1
fi
echo "bi clients: all passed"
