#!/usr/bin/env bash
# Every C function a shipped script declares is in the library: the install
# script of the version in development, the released install scripts kept
# in sql/ (CREATE EXTENSION kernelindex VERSION '0.1.0' runs with today's
# library) and the upgrade scripts (a database still at a release, its
# package upgraded, calls today's library until ALTER EXTENSION kernelindex
# UPDATE).  A library that drops a symbol a release's script names breaks
# those databases: keep it, or give it a body that says what to do.
# Reads the built kernelindex.so and sql/; no server needed.
set -euo pipefail
cd "$(dirname "$0")/../.."

so=kernelindex.so
[ -r "$so" ] || { echo "FAILED: $so is not built"; exit 1; }
nm -D --defined-only "$so" | awk '{ print $3 }' | sort -u >"${TMPDIR:-/tmp}/kidx-symbols.$$"
trap 'rm -f "${TMPDIR:-/tmp}/kidx-symbols.$$"' EXIT
python3 - "${TMPDIR:-/tmp}/kidx-symbols.$$" "$so" sql/kernelindex--*.sql <<'PY'
import re, sys

exported = set(open(sys.argv[1]).read().split())
so, scripts = sys.argv[2], sys.argv[3:]
fail = n = 0
for f in scripts:
    text = open(f).read()
    # each CREATE [OR REPLACE] FUNCTION ... AS 'MODULE_PATHNAME'[, 'symbol']
    # (an upgrade script may replace a function by C): without a
    # symbol, the C function is named as the SQL one
    for m in re.finditer(r"CREATE\s+(?:OR\s+REPLACE\s+)?FUNCTION\s+(?:[\w@]+\.)?(\w+)\s*\("
                         r"(?:(?!CREATE\s+(?:OR\s+REPLACE\s+)?FUNCTION).)*?"
                         r"AS\s+'MODULE_PATHNAME'(?:\s*,\s*'(\w+)')?", text, re.S | re.I):
        sym = m.group(2) or m.group(1)
        n += 1
        for need in (sym, "pg_finfo_" + sym):
            if need not in exported:
                print("FAILED: %s declares %s, but %s does not export %s" % (f, m.group(1), so, need))
                fail = 1
declared = sum(open(f).read().count("'MODULE_PATHNAME'") for f in scripts)
if n != declared:
    print("FAILED: %d C function declarations found, %d mentions of MODULE_PATHNAME" % (n, declared))
    fail = 1
print("symbols: %d C function declarations in %d scripts%s" % (n, len(scripts), ", each in " + so if not fail else ""))
sys.exit(fail)
PY
