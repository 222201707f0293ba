#!/usr/bin/env bash
# run.sh's set-up on a machine without the server it is to use: what
# test/run.sh resolves from PG_CONFIG before apt-get has installed anything
# (its "config" mode prints it and exits).  A pg_config that does not exist
# yet must give its major version from its path and Debian's packages for
# it; one outside /usr/lib/postgresql (a build from source) no package.
# (run.sh once ended there without a word on a fresh machine: the
# pg_config it asked for its version was not installed yet.)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
fail=0
check() {
	local what=$1 pgc=$2 expected=$3 got
	got=$(PG_CONFIG=$pgc bash "$here/../run.sh" config 2>&1) || true
	if [ "$got" = "$expected" ]; then
		echo "ok: $what"
	else
		echo "FAILED: $what"
		echo "  expected: $(tr '\n' ';' <<<"$expected")"
		echo "  got:      $(tr '\n' ';' <<<"$got")"
		fail=1
	fi
}
check "a Debian pg_config not installed yet (PostgreSQL 99)" /usr/lib/postgresql/99/bin/pg_config \
	"PG_CONFIG=/usr/lib/postgresql/99/bin/pg_config
PGBIN=/usr/lib/postgresql/99/bin
PGMAJOR=99
packages=postgresql-99 postgresql-server-dev-99"
check "a pg_config outside /usr/lib/postgresql that does not exist" /nonexistent/pg/bin/pg_config \
	"PG_CONFIG=/nonexistent/pg/bin/pg_config
PGBIN=/nonexistent/pg/bin
PGMAJOR=15
packages="
pgc=$(command -v pg_config || true)
if [ -n "${PG_CONFIG:-}" ] && [ -x "$PG_CONFIG" ]; then
	pgc=$PG_CONFIG
fi
if [ -n "$pgc" ]; then
	major=$("$pgc" --version | sed -n 's/^PostgreSQL \([0-9]*\).*/\1/p')
	case $pgc in
	/usr/lib/postgresql/*) pkgs="postgresql-$major postgresql-server-dev-$major" ;;
	*) pkgs="" ;;
	esac
	check "the pg_config of this run ($pgc)" "$pgc" \
		"PG_CONFIG=$pgc
PGBIN=$("$pgc" --bindir)
PGMAJOR=$major
packages=$pkgs"
fi
[ $fail -eq 0 ] && echo "run_config: all checks passed"
exit $fail
