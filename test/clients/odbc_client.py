#!/usr/bin/python3
"""What an ODBC BI tool (Power BI, Tableau, Excel) sees: the BI views of
kernelindex through unixODBC and Debian's psqlODBC driver ("PostgreSQL
Unicode", psqlodbcw.so), driven by python3-pyodbc, as a read-only login role
over TCP with a password.  The connection string names the driver file, so no
odbcinst.ini or DSN is needed, and every driver option keeps its default.

Proves that SQLTables lists the views (every view it lists is one checked
here, or one of checks.NOT_BI), that SQLColumns gives each view's
columns in pg_attribute order with plain types, that every row reads, that
digests arrive as strings, that one known speedup has its exact values, and
that the role cannot write.  Connects with KIDX_HOST, KIDX_PORT, KIDX_DB,
KIDX_USER and KIDX_PASSWORD.  Prints one line per check and
`odbc: N passed, N failed`; exits 1 if any check failed.
"""
import glob
import os
import re
from decimal import Decimal

import pyodbc

from checks import DIGEST, NOT_BI, VIEWS, Checks

PLAIN_NAMES = {"text", "varchar", "int8", "int4", "numeric", "float8", "timestamptz", "bool"}
# SQL_WLONGVARCHAR, SQL_WVARCHAR, SQL_LONGVARCHAR, SQL_VARCHAR, SQL_BIGINT,
# SQL_INTEGER, SQL_NUMERIC, SQL_DECIMAL, SQL_FLOAT, SQL_DOUBLE,
# SQL_TYPE_TIMESTAMP, SQL_TIMESTAMP, SQL_BIT
PLAIN_CODES = {-10, -9, -1, 12, -5, 4, 2, 3, 6, 8, 93, 11, -7}

check = Checks("odbc")


def is_true(value):
    """psqlODBC's default BoolsAsChar=1 delivers a boolean as '1'/'0'."""
    return value is True or value == "1"


def braced(value):
    """An ODBC connection string value; braced only when it has to be, since
    psqlODBC keeps the braces of some options (Port)."""
    if re.search(r"[;{}=\s]", value):
        return "{" + value.replace("}", "}}") + "}"
    return value


drivers = sorted(glob.glob("/usr/lib/*/odbc/psqlodbcw.so"))
if not drivers:
    check("the psqlODBC Unicode driver is installed", False, "no /usr/lib/*/odbc/psqlodbcw.so")
    check.finish()
try:
    conn = pyodbc.connect(";".join([
        f"Driver={braced(drivers[0])}",
        f"Server={braced(os.environ['KIDX_HOST'])}",
        f"Port={braced(os.environ['KIDX_PORT'])}",
        f"Database={braced(os.environ['KIDX_DB'])}",
        f"Uid={braced(os.environ['KIDX_USER'])}",
        f"Pwd={braced(os.environ['KIDX_PASSWORD'])}",
    ]), autocommit=True)
except pyodbc.Error as e:
    check("connected over TCP as the reader", False, " ".join(str(a) for a in e.args))
    check.finish()
cur = conn.cursor()

# a. Over TCP, as the read-only role.
tcp, who = cur.execute("SELECT inet_server_addr() IS NOT NULL, current_user").fetchone()
check("connected over TCP as the reader", is_true(tcp) and who == os.environ["KIDX_USER"],
      f"tcp={tcp!r} user={who!r}")

# b. SQLTables lists the views.
listed = {r.table_name for r in cur.tables(schema="kernelindex", tableType="VIEW")}
missing = [v for v in VIEWS if v not in listed]
check("SQLTables lists every BI view", not missing, f"missing {missing}")
unknown = sorted(listed - set(VIEWS) - set(NOT_BI))
check(f"every view SQLTables lists is a BI view checked here (or one of {NOT_BI})", not unknown,
      f"not checked: {unknown}")

for view in VIEWS:
    expected = [r[0] for r in cur.execute(
        "SELECT attname FROM pg_attribute WHERE attrelid = ?::regclass"
        " AND attnum > 0 AND NOT attisdropped ORDER BY attnum", f"kernelindex.{view}").fetchall()]

    # b. SQLColumns: names in order, plain types.  The table argument is a
    # pattern ('_' matches any character), so keep this view's rows only.
    cols = [r for r in cur.columns(table=view, schema="kernelindex").fetchall() if r.table_name == view]
    names = [r.column_name for r in cols]
    odd = [(r.column_name, r.type_name, r.data_type) for r in cols
           if r.type_name not in PLAIN_NAMES or r.data_type not in PLAIN_CODES]
    check(f"{view}: SQLColumns names in order", names == expected and len(names) > 0,
          f"got {names} want {expected}")
    check(f"{view}: SQLColumns types are plain", not odd, f"{odd}")

    # c. Every row reads; the count is the server's.
    got = len(cur.execute(f"SELECT * FROM kernelindex.{view}").fetchall())
    want = cur.execute(f"SELECT count(*) FROM kernelindex.{view}").fetchone()[0]
    check(f"{view}: read {got} rows", got == want, f"count(*) is {want}")

# d. Digests arrive as strings.
facts = cur.execute("SELECT run_digest, comparability_key FROM kernelindex.run_facts").fetchall()
bad = [tuple(r) for r in facts if not all(isinstance(v, str) and DIGEST.match(v) for v in r)]
check(f"run_facts: digests are sha256 strings in all {len(facts)} rows", facts and not bad, f"{bad[:3]}")

# e. The known value, found with ? parameters.
found = cur.execute(
    "SELECT speedup, reference_latency_ms, latency_ms, outside_noise FROM kernelindex.speedups"
    " WHERE kernel = ? AND gpu = ? AND pass = ? AND metric = ? AND provider = ? AND workload_label = ?",
    "sparsemax", "NVIDIA GeForce RTX 3090", "backward", "latency", "liger",
    "features16384-tokens2048-fp32").fetchall()
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
    check("speedups: outside_noise is true", is_true(noise), repr(noise))

# f. The role cannot write.
conn.autocommit = False
try:
    cur.execute("INSERT INTO kernelindex.liger_rows (kernel_name) VALUES (?)", "kidx-client-probe")
    check("insert is refused with 42501", False, "the insert succeeded")
except pyodbc.Error as e:
    text = " ".join(str(a) for a in e.args)
    check("insert is refused with 42501", "42501" in text and "permission denied" in text, text)
finally:
    conn.rollback()
conn.close()

check.finish()
