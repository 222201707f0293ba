#!/usr/bin/env bash
# RFC 8785 oracle check of kidx_canonical(jsonb) against the JS reference
# implementation (npm `canonicalize`).
#
#   test/oracle/run.sh
#
# Connects with the standard libpq variables (PGHOST, PGPORT, PGUSER,
# PGDATABASE) to a server where `kidx_canonical(jsonb)` is callable
# (CREATE EXTENSION kernelindex).  Environment:
#   ORACLE_SEED   generator seed (default 42)
#   ORACLE_COUNT  number of documents (default 10000)
#   ORACLE_REJECT 1 (default) also checks that numbers a double cannot carry
#                 are rejected with SQLSTATE 22003 (doc/reference.md,
#                 "Canonical JSON and digests"); 0 skips that.
#   ORACLE_KEEP   directory to keep the generated files in (default: temp, removed)
#
# Output: the first 5 mismatches (line numbers are lines of docs.jsonl), and
# as the final line `oracle: N passed, M failed`.  Exit status is non-zero on
# any mismatch, error or failed rejection check.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
seed=${ORACLE_SEED:-42}
count=${ORACLE_COUNT:-10000}
reject=${ORACLE_REJECT:-1}

if command -v psql >/dev/null 2>&1; then
  PSQL=psql
elif [ -x /usr/lib/postgresql/15/bin/psql ]; then
  PSQL=/usr/lib/postgresql/15/bin/psql
else
  echo "oracle: psql not found (PATH or /usr/lib/postgresql/15/bin)" >&2
  exit 2
fi
command -v node >/dev/null 2>&1 || { echo "oracle: node not found" >&2; exit 2; }

# npm's cache and logs go to a folder of its own under TMPDIR (the run's
# folder in `make test`), removed after, never to the caller's ~/.npm.
if [ ! -f "$here/node_modules/canonicalize/package.json" ]; then
  npm_cache=$(mktemp -d "${TMPDIR:-/tmp}/kidx-npm.XXXXXX")
  if ! npm_out=$(cd "$here" && npm_config_cache=$npm_cache npm ci --no-audit --no-fund 2>&1); then
    echo "oracle: npm ci failed in $here:" >&2
    printf '%s\n' "$npm_out" | tail -n 20 >&2
    rm -rf "$npm_cache"
    exit 2
  fi
  rm -rf "$npm_cache"
fi

if [ -n "${ORACLE_KEEP:-}" ]; then
  dir=$ORACLE_KEEP
  mkdir -p "$dir"
else
  dir=$(mktemp -d "${TMPDIR:-/tmp}/kidx-oracle.XXXXXX")
  trap 'rm -rf "$dir"' EXIT
fi
case "$dir" in *"'"*|*$'\n'*) echo "oracle: unusable directory name: $dir" >&2; exit 2;; esac

node "$here/gen.js" --seed "$seed" --count "$count" --out "$dir"
docs_md5=$(md5sum <"$dir/docs.jsonl" | cut -d' ' -f1)
exp_md5=$(md5sum <"$dir/expected.txt" | cut -d' ' -f1)

# Each line is loaded verbatim: CSV whose quote and delimiter are bytes that
# never occur in the data (the generator emits no raw control characters; a
# raw \x01 / \x02 would be escaped JSON anyway).  Both files end with a newline.
copyopts="(FORMAT csv, QUOTE E'\\x01', DELIMITER E'\\x02', ENCODING 'UTF8')"

export PGCLIENTENCODING=UTF8
out="$dir/psql.out"
set +e
"$PSQL" -X -q -At -v ON_ERROR_STOP=1 \
  -v count="$count" -v docs_md5="$docs_md5" -v exp_md5="$exp_md5" -v reject="$reject" \
  >"$out" 2>&1 <<SQL
SET client_min_messages = warning;
SELECT current_setting('server_encoding') = 'UTF8' AS utf8 \gset
\if :utf8
\else
\echo oracle: the database encoding must be UTF8; jsonb needs it for non-ASCII escapes
SELECT 1/0 AS abort;
\endif

CREATE TEMP TABLE oracle_doc (n bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, doc text NOT NULL);
CREATE TEMP TABLE oracle_exp (n bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, canon text NOT NULL);
\copy oracle_doc (doc) FROM '$dir/docs.jsonl' WITH $copyopts
\copy oracle_exp (canon) FROM '$dir/expected.txt' WITH $copyopts

-- The load must be byte-exact: same number of lines and same bytes.
SELECT (SELECT count(*) FROM oracle_doc) = :count
   AND (SELECT count(*) FROM oracle_exp) = :count
   AND (SELECT coalesce(md5(string_agg(doc, E'\n' ORDER BY n) || E'\n'), md5('')) FROM oracle_doc) = :'docs_md5'
   AND (SELECT coalesce(md5(string_agg(canon, E'\n' ORDER BY n) || E'\n'), md5('')) FROM oracle_exp) = :'exp_md5'
   AS load_ok \gset
\if :load_ok
\else
\echo oracle: loading the generated files was not byte-exact (line count or md5 differs)
SELECT 1/0 AS abort;
\endif

-- One call per document; an error in one document is caught and reported
-- for that line instead of aborting the run.
CREATE FUNCTION pg_temp.oracle_try(doc text, OUT got text, OUT err text)
LANGUAGE plpgsql AS \$\$
DECLARE j jsonb;
BEGIN
  BEGIN
    j := doc::jsonb;
  EXCEPTION WHEN others THEN
    err := 'jsonb input rejected the document (generator bug): ' || SQLSTATE || ' ' || SQLERRM;
    RETURN;
  END;
  BEGIN
    got := kidx_canonical(j);
  EXCEPTION WHEN others THEN
    err := 'kidx_canonical raised ' || SQLSTATE || ': ' || SQLERRM;
  END;
END \$\$;

-- First differing character (1-based), or least(length)+1 if one is a prefix.
CREATE FUNCTION pg_temp.oracle_diffpos(a text, b text) RETURNS int
LANGUAGE plpgsql IMMUTABLE AS \$\$
DECLARE lo int := 0; hi int := least(length(a), length(b)); mid int;
BEGIN
  -- largest lo such that left(a, lo) = left(b, lo)
  WHILE lo < hi LOOP
    mid := (lo + hi + 1) / 2;
    IF left(a, mid) = left(b, mid) THEN lo := mid; ELSE hi := mid - 1; END IF;
  END LOOP;
  RETURN lo + 1;
END \$\$;

-- Show a window of at most 120 characters, control characters made visible.
CREATE FUNCTION pg_temp.oracle_snip(s text, pos int) RETURNS text
LANGUAGE sql IMMUTABLE AS \$\$
  SELECT CASE WHEN s IS NULL THEN '(null)' ELSE
    CASE WHEN greatest(pos - 40, 1) > 1 THEN '...' ELSE '' END
    || translate(substr(s, greatest(pos - 40, 1), 120),
                 E'\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f\x7f',
                 '␁␂␃␄␅␆␇␈␉␊␋␌␍␎␏␐␑␒␓␔␕␖␗␘␙␚␛␜␝␞␟␡')
    || CASE WHEN length(s) > greatest(pos - 40, 1) + 119 THEN '...' ELSE '' END
  END
\$\$;

CREATE TEMP TABLE oracle_res AS
  SELECT d.n, e.canon AS expected, r.got, r.err,
         (r.err IS NULL AND r.got IS NOT NULL AND r.got = e.canon) AS ok
  FROM oracle_doc d JOIN oracle_exp e USING (n)
  CROSS JOIN LATERAL pg_temp.oracle_try(d.doc) r;

SELECT CASE
         WHEN err IS NOT NULL THEN format('line %s: %s', n, left(err, 300))
         ELSE format(E'line %s: differs at character %s (expected %s chars, got %s)\n  expected: %s\n  got:      %s',
                     n, p, length(expected), length(got),
                     pg_temp.oracle_snip(expected, p), pg_temp.oracle_snip(got, p))
       END
FROM (SELECT *, pg_temp.oracle_diffpos(expected, coalesce(got, '')) AS p
      FROM oracle_res WHERE NOT ok ORDER BY n LIMIT 5) f
ORDER BY n;

\if :reject
-- doc/reference.md, "Canonical JSON and digests": a number the double cannot carry exactly enough to print back the
-- same decimal value is an error with SQLSTATE 22003, wherever it sits.
-- (1152921504606846976 is 2^60 exactly, but prints back as
-- 1152921504606847000, a different jsonb value that would get the same
-- digest; so it must be rejected too.)
CREATE TEMP TABLE oracle_reject (doc text);
INSERT INTO oracle_reject VALUES
  ('9007199254740993'), ('-9007199254740993'), ('0.30000000000000001'),
  ('1e400'), ('-1e400'), ('1e-400'), ('2.4703282292062328e-324'),
  ('123456789012345678901234567890'), ('0.1000000000000000055511151231257827'),
  ('1152921504606846976'), ('1.7976931348623159e308'),
  ('{"a":[1,{"b":9007199254740993}]}'), ('[0.1,0.2,0.30000000000000001]'),
  ('{"ok":"9007199254740993","bad":9007199254740993}');
CREATE FUNCTION pg_temp.oracle_reject_try(doc text) RETURNS text
LANGUAGE plpgsql AS \$\$
DECLARE got text;
BEGIN
  got := kidx_canonical(doc::jsonb);
  RETURN 'accepted, returned ' || left(got, 100);
EXCEPTION WHEN numeric_value_out_of_range THEN
  RETURN NULL;
WHEN others THEN
  RETURN 'raised ' || SQLSTATE || ' instead of 22003: ' || left(SQLERRM, 200);
END \$\$;
CREATE TEMP TABLE oracle_reject_res AS
  SELECT doc, pg_temp.oracle_reject_try(doc) AS problem FROM oracle_reject;
SELECT format('must reject %s: %s', doc, problem) FROM oracle_reject_res WHERE problem IS NOT NULL LIMIT 5;
SELECT format('oracle: must-reject numbers: %s passed, %s failed',
              count(*) FILTER (WHERE problem IS NULL), count(*) FILTER (WHERE problem IS NOT NULL))
FROM oracle_reject_res;
\endif

SELECT format('oracle: %s passed, %s failed', count(*) FILTER (WHERE ok), count(*) FILTER (WHERE NOT ok))
FROM oracle_res;
SQL
rc=$?
set -e

cat "$out"
if [ $rc -ne 0 ]; then
  echo "oracle: psql failed (exit $rc)" >&2
  exit 1
fi
last=$(tail -n 1 "$out")
if ! [[ "$last" =~ ^oracle:\ [0-9]+\ passed,\ 0\ failed$ ]]; then
  exit 1
fi
if [ "$reject" != 0 ] && ! grep -q '^oracle: must-reject numbers: [0-9]* passed, 0 failed$' "$out"; then
  exit 1
fi
exit 0
