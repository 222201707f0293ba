#!/usr/bin/python3
"""What Superset sees: the BI views of kernelindex through psycopg2 (Debian's
python3-psycopg2), as a read-only login role over TCP with a password.

Proves that every view of kernelindex is a BI view it checks (or one of
checks.NOT_BI), that every view's columns are discovered (cursor.description and
information_schema.columns) in pg_attribute order with plain types, that every
row reads, that digests arrive as strings, that one known speedup has its exact
values, and that the role cannot write.  Connects with KIDX_HOST, KIDX_PORT,
KIDX_DB, KIDX_USER and KIDX_PASSWORD.  Prints one line per check and
`psycopg2: N passed, N failed`; exits 1 if any check failed.
"""
import os
from decimal import Decimal

import psycopg2

from checks import DIGEST, NOT_BI, VIEWS, Checks

# text, int8, int4, numeric, float8, timestamptz, bool
PLAIN_OIDS = {25, 20, 23, 1700, 701, 1184, 16}
PLAIN_NAMES = {"text", "bigint", "integer", "numeric", "double precision",
               "timestamp with time zone", "boolean"}

check = Checks("psycopg2")


def rows(cur, sql, params=None):
    cur.execute(sql, params)
    return cur.fetchall()


try:
    conn = psycopg2.connect(host=os.environ["KIDX_HOST"], port=os.environ["KIDX_PORT"],
                            dbname=os.environ["KIDX_DB"], user=os.environ["KIDX_USER"],
                            password=os.environ["KIDX_PASSWORD"],
                            application_name="kidx-psycopg2-client")
except psycopg2.Error as e:
    check("connected over TCP as the reader", False, str(e).strip())
    check.finish()
conn.autocommit = True
cur = conn.cursor()

# a. Over TCP, as the read-only role.
tcp, who = rows(cur, "SELECT inet_server_addr() IS NOT NULL, current_user")[0]
check("connected over TCP as the reader", tcp is True and who == os.environ["KIDX_USER"],
      f"tcp={tcp} user={who}")

# Every view of kernelindex is a BI view checked below, or one that is not for BI tools.
listed = [r[0] for r in rows(cur, "SELECT table_name FROM information_schema.views"
                             " WHERE table_schema = 'kernelindex' ORDER BY table_name")]
check("information_schema.views lists every BI view", all(v in listed for v in VIEWS),
      f"missing {[v for v in VIEWS if v not in listed]}")
unknown = [v for v in listed if v not in VIEWS and v not in NOT_BI]
check(f"every view of kernelindex is a BI view checked here (or one of {NOT_BI})", not unknown,
      f"not checked: {unknown}")

for view in VIEWS:
    qualified = f"kernelindex.{view}"
    expected = [r[0] for r in rows(cur, "SELECT attname FROM pg_attribute WHERE attrelid = %s::regclass"
                                   " AND attnum > 0 AND NOT attisdropped ORDER BY attnum", [qualified])]

    # b. Column discovery, as Superset does it: the result's description ...
    cur.execute(f"SELECT * FROM {qualified} LIMIT 0")
    names = [d.name for d in cur.description]
    odd = [(d.name, d.type_code) for d in cur.description if d.type_code not in PLAIN_OIDS]
    check(f"{view}: description names in order", names == expected and len(names) > 0,
          f"got {names} want {expected}")
    check(f"{view}: description types are plain", not odd, f"{odd}")

    # ... and information_schema.columns.
    info = rows(cur, "SELECT column_name, data_type FROM information_schema.columns"
                " WHERE table_schema = 'kernelindex' AND table_name = %s ORDER BY ordinal_position", [view])
    odd = [r for r in info if r[1] not in PLAIN_NAMES]
    check(f"{view}: information_schema columns in order with plain types",
          [r[0] for r in info] == expected and not odd, f"names {[r[0] for r in info]} odd {odd}")

    # c. Every row reads; the count is the server's.
    cur.execute(f"SELECT * FROM {qualified}")
    got = len(cur.fetchall())
    want = rows(cur, f"SELECT count(*) FROM {qualified}")[0][0]
    check(f"{view}: read {got} rows", got == want, f"count(*) is {want}")

# d. Digests arrive as strings.
facts = rows(cur, "SELECT run_digest, comparability_key FROM kernelindex.run_facts")
bad = [r for r in facts if not all(isinstance(v, str) and DIGEST.match(v) for v in r)]
check(f"run_facts: digests are sha256 strings in all {len(facts)} rows", facts and not bad, f"{bad[:3]}")

# e. The known value, found with parameters.
found = rows(cur, "SELECT speedup, reference_latency_ms, latency_ms, outside_noise FROM kernelindex.speedups"
             " WHERE kernel = %s AND gpu = %s AND pass = %s AND metric = %s AND provider = %s"
             " AND workload_label = %s",
             ["sparsemax", "NVIDIA GeForce RTX 3090", "backward", "latency", "liger",
              "features16384-tokens2048-fp32"])
check("speedups: the sparsemax backward row exists once", len(found) == 1, f"{len(found)} rows")
if len(found) == 1:
    speedup, ref_ms, ms, noise = found[0]
    want = 2.629631996154785 / 0.7516160011291504
    check("speedups: speedup is the ratio", isinstance(speedup, float)
          and abs(speedup - want) <= 1e-6 * want, f"{speedup!r} want {want!r}")
    check("speedups: reference_latency_ms is exactly 2.629632",
          isinstance(ref_ms, Decimal) and ref_ms == Decimal("2.629632"), repr(ref_ms))
    check("speedups: latency_ms is exactly 0.751616",
          isinstance(ms, Decimal) and ms == Decimal("0.751616"), repr(ms))
    check("speedups: outside_noise is true", noise is True, repr(noise))

# f. The role cannot write.
conn.autocommit = False
try:
    cur.execute("INSERT INTO kernelindex.liger_rows (kernel_name) VALUES (%s)", ["kidx-client-probe"])
    check("insert is refused with 42501", False, "the insert succeeded")
except psycopg2.Error as e:
    check("insert is refused with 42501", e.pgcode == "42501", f"{e.pgcode} {e.pgerror}")
finally:
    conn.rollback()
conn.close()

check.finish()
