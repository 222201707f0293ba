#!/usr/bin/env bash
# test/hostile/run.sh: hostile input for every entry point of kernelindex.
#
# Proves that each bad input of test/hostile/catalogue.tsv (and each one its
# generators derive from the reference records and upstream CSV rows) is
# refused with the right SQLSTATE and a message naming the fault, leaks no
# internal query, stores nothing, and leaves the server and the entry point
# working.  See run.py for the checks; arguments pass through (-v, --list,
# --only REGEX).  Connects with PGHOST, PGPORT, PGUSER and PGDATABASE to a
# database with CREATE EXTENSION kernelindex.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# Debian's python3 has psycopg 3 (python3-psycopg); a python3 earlier on PATH
# (pyenv, say) may not.
py=/usr/bin/python3
[ -x "$py" ] || py=python3
exec "$py" "$here/run.py" "$@"
