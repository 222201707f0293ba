#!/usr/bin/python3
"""A driver's view of kidx_digest: text and binary results, parameters, and
binary COPY both ways, through psycopg 3 (Debian's python3-psycopg).

Connects with the libpq environment variables to a database that has the
extension.  Prints one line per check and `psycopg: N passed, N failed`.
"""
import hashlib

import psycopg

from checks import Checks

check = Checks("psycopg")


raw = hashlib.sha256(b"kernelindex").digest()
text = "sha256:" + raw.hex()

with psycopg.connect(autocommit=True) as conn:
    # Text results: the sha256:<hex> form.
    got = conn.execute("SELECT %s::kidx_digest", [text]).fetchone()[0]
    check("text result", got == text, repr(got))

    # Binary results: exactly the 32 raw bytes (the type's send function).
    cur = conn.cursor(binary=True)
    got = cur.execute("SELECT %s::kidx_digest", [text]).fetchone()[0]
    check("binary result is the 32 bytes", bytes(got) == raw, repr(got))

    # A bytea parameter cast on the server.
    got = conn.execute("SELECT %s::bytea::kidx_digest::text", [raw]).fetchone()[0]
    check("bytea parameter", got == text, repr(got))

    # An error reaches the driver with its SQLSTATE and detail.
    try:
        conn.execute("SELECT %s::kidx_digest", ["sha256:" + "A" * 64])
        check("bad input raises", False, "no error")
    except psycopg.errors.InvalidTextRepresentation as e:
        check("bad input raises 22P02", e.sqlstate == "22P02"
              and "position 8" in (e.diag.message_detail or ""), repr(e.diag.message_detail))

    # Binary COPY out and back in.
    conn.execute("CREATE TEMP TABLE client_digests (d kidx_digest)")
    conn.execute("INSERT INTO client_digests SELECT sha256(i::text::bytea)::kidx_digest"
                 " FROM generate_series(1, 1000) AS i")
    data = bytearray()
    with conn.cursor().copy("COPY client_digests TO STDOUT (FORMAT binary)") as copy:
        for chunk in copy:
            data += chunk
    conn.execute("CREATE TEMP TABLE client_copied (d kidx_digest)")
    with conn.cursor().copy("COPY client_copied FROM STDIN (FORMAT binary)") as copy:
        copy.write(bytes(data))
    same = conn.execute("SELECT count(*) FROM client_copied c JOIN client_digests d USING (d)").fetchone()[0]
    check("binary COPY round trip", same == 1000, f"{same} of 1000")

    # A row-by-row binary COPY with explicit types.
    rows = []
    with conn.cursor().copy("COPY (SELECT d FROM client_digests ORDER BY d LIMIT 3) TO STDOUT (FORMAT binary)") as copy:
        copy.set_types(["bytea"])
        rows = [bytes(r[0]) for r in copy.rows()]
    check("binary COPY rows are 32 bytes each", len(rows) == 3 and all(len(r) == 32 for r in rows))

check.finish()
