#!/usr/bin/python3
"""Hostile input for every entry point of kernelindex (issue 12, part 1).

What this proves: every input of test/hostile/catalogue.tsv, and every input
its generators derive from the two reference records (test/data/records) and
from upstream CSV rows (test/data/liger_sample.csv), is refused

  * with the SQLSTATE the catalogue gives,
  * with a non-empty message (primary + detail + hint) that contains every
    item of the catalogue's "names" column: the value, its position (the
    character position of a digest, the JSON path, the document's or row's
    place in its statement) and what is wrong; a primary message of at most
    600 characters (long inputs are shown cut),
  * without a CONTEXT line or internal query of a statement the extension
    runs internally (SPI: 'SQL statement "...', 'SQL function', 'PL/pgSQL
    function'); COPY's own "COPY x, line N" context is fine,

and that afterwards the server answers SELECT 1, no row was stored (the row
count of every table of the schema kernelindex is as before: runs,
comparability_keys, protocols, environments, workloads, implementations, the
dictionaries run_titles, run_statuses, run_sources, run_benchmarks,
run_strings, run_labels and run_templates, rejected_rows, the catalogs),
and the same entry point still works: in one transaction, the bad input in a
savepoint is refused again, then a good input goes through (then rolled back).

A CSV row in quarantine mode is not an error: the statement succeeds, the row
is kept verbatim in kernelindex.rejected_rows with the column, value and
reason the catalogue names, and nothing else is stored (checked inside a
transaction that is rolled back).

Usage: run.py [-v] [--list] [--only REGEX]
  -v          print every case with the message it got
  --list      print the cases without running them
  --only RE   run only the catalogue lines whose "entry: fault" matches RE

Connects with libpq's environment (PGHOST, PGPORT, PGUSER, PGDATABASE) to a
database that has CREATE EXTENSION kernelindex (it may hold data).  Good
inputs are only ever ingested in transactions that are rolled back; a bad
input is sent as a user would (autocommit), so a bad input the extension
wrongly accepts stays stored, and is reported.  Prints one line per
catalogue line, then "hostile: N inputs, N refused as expected, N wrong";
the exit status is non-zero if any is wrong.
"""

import copy
import csv
import datetime
import json
import os
import re
import struct
import sys
from dataclasses import dataclass
from typing import Callable, List, Optional

import psycopg
from psycopg import sql
from psycopg.adapt import Dumper
from psycopg.pq import Format

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
CATALOGUE = os.path.join(HERE, "catalogue.tsv")
RECORDS = {
    "sparsemax": os.path.join(TOP, "test/data/records/sparsemax-backward-torch-rtx3090.json"),
    "grpo": os.path.join(TOP, "test/data/records/grpo-sequence-forward-torch-a100.json"),
}
RECORD_DATES = {"sparsemax": "2025-04-28", "grpo": "2025-08-05"}
LIGER_SAMPLE = os.path.join(TOP, "test/data/liger_sample.csv")

GOOD_DIGEST = "sha256:080e6e66e4ec75a131aa0c9121c74b8e8eed64e7b6d621d567c6a28f79548be8"

# The tables of the store (the resources, the comparability keys, the
# dictionaries of what runs repeat, the runs) and rejected_rows: they must
# exist, and no row count of them, nor of any other table of kernelindex
# (store_tables), may change; in quarantine mode rejected_rows alone grows.
STORE = ["runs", "comparability_keys", "protocols", "environments", "workloads",
         "implementations", "run_titles", "run_statuses", "run_sources", "run_benchmarks",
         "run_strings", "run_labels", "run_templates", "rejected_rows"]
TABLES = None   # every table of kernelindex, rejected_rows last (store_tables)

# A CONTEXT line of a statement the extension ran internally.
INTERNAL_CONTEXT = re.compile(r'SQL statement "|SQL function "|PL/pgSQL function')

LIGER_COLUMNS = ["kernel_name", "kernel_provider", "kernel_operation_mode", "metric_name",
                 "metric_unit", "x_name", "x_label", "x_value", "y_value_50", "y_value_20",
                 "y_value_80", "extra_benchmark_config_str", "gpu_name", "timestamp",
                 "liger_version"]

# kernelindex.run_rows, in the interface's order, and its two base rows (a
# latency row naming every column but metric, a peak-memory row naming few):
# each case sends one of them with one column changed, given as the CSV
# header and the INSERT's column list name them.
RR_COLUMNS = ["harness", "harness_version", "timer", "kernel", "pass", "implementation",
              "workload", "workload_label", "gpu", "observed_at", "release", "labels", "status",
              "metric", "unit", "primary_statistic", "median", "p20", "p80", "mean", "stddev",
              "min", "max", "samples"]
RR_BASES = {
    "latency": {"harness": "hostile-bench", "harness_version": "1.2", "timer": "cuda_events",
                "kernel": "softmax", "pass": "forward", "implementation": "triton",
                "workload": '{"N": 4096, "dtype": "fp16"}', "workload_label": None,
                "gpu": "NVIDIA A100-SXM4-80GB", "observed_at": "2042-01-01T00:00:00Z",
                "release": "0.1", "labels": '{"branch": "main"}', "status": "passed",
                "unit": "ms", "primary_statistic": "median", "median": "1.25", "p20": "1.2",
                "p80": "1.3", "mean": "1.26", "stddev": "0.02", "min": "1.19", "max": "1.4",
                "samples": "100"},
    "memory": {"harness": "hostile-bench", "kernel": "softmax", "implementation": "triton",
               "gpu": "NVIDIA H100 80GB HBM3", "observed_at": "2042-01-01T00:00:00Z",
               "metric": "peak_memory", "unit": "MiB", "median": "512.5"},
}
RR_BASE_TIME = "2042-01-01T00:00:00Z"

DOCUMENTS_COPY = ("COPY kernelindex.documents FROM STDIN "
                  "WITH (FORMAT csv, QUOTE E'\\x01', DELIMITER E'\\x02')")
LIGER_COPY = "COPY kernelindex.liger_rows FROM STDIN WITH (FORMAT csv, HEADER MATCH)"


@dataclass
class Case:
    """One bad input sent through one path of an entry point."""
    group: str                          # "entry point: fault" of its catalogue line
    entry: str                          # the catalogue's entry point
    path: str                           # how it is sent, e.g. "ingest_document"
    desc: str                           # the input, short, for reports
    sqlstate: str
    names: List[str]
    run: Callable                       # run(conn): sends the bad input
    probe: Optional[Callable] = None    # probe(conn): a good input, must succeed
    after: Optional[Callable] = None    # after(conn) -> problems (extra checks)
    quarantine: Optional[dict] = None   # a CSV row kept in quarantine mode
    context: Optional[str] = None       # what COPY's CONTEXT line must say
    accept: Optional[Callable] = None   # accept(conn) -> problems: a near miss that must work


# ---------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------

def unescape(s):
    """The catalogue's escapes: \\t \\n \\r \\\\ \\uXXXX \\UXXXXXXXX."""
    out = []
    i = 0
    while i < len(s):
        c = s[i]
        if c != "\\" or i + 1 == len(s):
            out.append(c)
            i += 1
            continue
        n = s[i + 1]
        if n in "tnr\\":
            out.append({"t": "\t", "n": "\n", "r": "\r", "\\": "\\"}[n])
            i += 2
        elif n == "u":
            out.append(chr(int(s[i + 2:i + 6], 16)))
            i += 6
        elif n == "U":
            out.append(chr(int(s[i + 2:i + 10], 16)))
            i += 10
        else:
            out.append(c)
            i += 1
    return "".join(out)


def shorten(s, n=60):
    """An input as reports show it."""
    s = repr(s) if not isinstance(s, str) else s
    s = s.replace("\n", "\\n").replace("\t", "\\t")
    return s if len(s) <= n else s[:n] + "..."


def fill(names, **values):
    """The names with {placeholders} filled in."""
    out = []
    for n in names:
        for k, v in values.items():
            n = n.replace("{" + k + "}", str(v))
        out.append(n)
    return out


def copy_text_field(s):
    """A value escaped for COPY's text format."""
    return (s.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")
            .replace("\r", "\\r"))


def csv_field(v):
    """A value as a CSV field: None is an unquoted empty field (NULL)."""
    if v is None:
        return ""
    if v == "" or any(c in v for c in ',"\n\r') or v != v.strip():
        return '"' + v.replace('"', '""') + '"'
    return v


def csv_line(row):
    """A CSV line of 15 values."""
    return ",".join(csv_field(v) for v in row) + "\n"


def json_path(path):
    """The JSON path of a list of keys and indexes: $.a.b[0]."""
    out = "$"
    for p in path:
        if isinstance(p, int):
            out += "[%d]" % p
        elif re.fullmatch(r"[A-Za-z_][A-Za-z_0-9]*", p):
            out += "." + p
        else:
            out += "." + json.dumps(p, ensure_ascii=False)
    return out


def shown(v):
    """A JSON value as the extension's messages show it (run_shown_value)."""
    if v is None:
        return "null"
    if v is True or v is False:
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return "the number %s" % json.dumps(v)
    if isinstance(v, str):
        return "the string " + json.dumps(v, ensure_ascii=False)
    return "an object" if isinstance(v, dict) else "an array"


def get_in(doc, path):
    for p in path:
        doc = doc[p]
    return doc


def set_in(doc, path, value):
    """A copy of doc with path set (the last key created if missing)."""
    doc = copy.deepcopy(doc)
    get_in(doc, path[:-1])[path[-1]] = value
    return doc


def delete_in(doc, path):
    doc = copy.deepcopy(doc)
    del get_in(doc, path[:-1])[path[-1]]
    return doc


def leaves(doc, path=()):
    """Every (path, value) of the scalars of a JSON value."""
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from leaves(v, path + (k,))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield from leaves(v, path + (i,))
    else:
        yield path, doc


def with_literal(doc, path, literal):
    """JSON text of doc with the value at path written as the literal text."""
    mark = "__kidx_hostile_literal__"
    return json.dumps(set_in(doc, path, mark), ensure_ascii=False).replace(
        json.dumps(mark), literal)


def pg_array(path):
    """A path in PostgreSQL's text[] form, for reports."""
    return "{" + ",".join(str(p) for p in path) + "}"


def parse_path(s):
    """{a,b,0} -> ["a", "b", 0]."""
    s = s.strip("{}")
    return [int(p) if p.isdigit() else p for p in s.split(",")] if s else []


class RawDigest(bytes):
    """Bytes sent as a binary parameter of type kidx_digest (kidx_digest_recv)."""


class RawDigestDumper(Dumper):
    format = Format.BINARY

    def dump(self, obj):
        return bytes(obj)


def pgcopy_file(rows, header=None, trailer=True):
    """A binary COPY file: each row a list of fields (bytes, or None for NULL)."""
    out = bytearray(header if header is not None else
                    b"PGCOPY\n\xff\r\n\x00" + struct.pack("!ii", 0, 0))
    for row in rows:
        out += struct.pack("!h", len(row))
        for f in row:
            if f is None:
                out += struct.pack("!i", -1)
            else:
                out += struct.pack("!i", len(f)) + f
    if trailer:
        out += struct.pack("!h", -1)
    return bytes(out)


# ---------------------------------------------------------------------------
# The world the cases run in
# ---------------------------------------------------------------------------

class World:
    """Base documents and rows, unique good inputs, and session set-up."""

    def __init__(self, conn):
        self.conn = conn
        self.records = {k: json.load(open(p)) for k, p in RECORDS.items()}
        with open(LIGER_SAMPLE, newline="") as f:
            rows = list(csv.reader(f))
        self.liger_header = rows[0]
        self.liger_rows = {
            "speed": next(r for r in rows[1:] if r[3] == "speed"),
            "memory": next(r for r in rows[1:] if r[3] == "memory"),
        }
        self.day = datetime.date(2040, 1, 1)
        self.second = datetime.datetime(2041, 1, 1)
        self.dbname = conn.info.dbname
        self._deep = None
        self.setup(conn)

    def setup(self, conn):
        """Per-session objects: the extension's schema on the path, scratch tables."""
        schema = conn.execute("SELECT n.nspname FROM pg_extension e JOIN pg_namespace n "
                              "ON n.oid = e.extnamespace WHERE e.extname = 'kernelindex'").fetchone()
        if schema is None:
            sys.exit("run.py: the database has no CREATE EXTENSION kernelindex")
        conn.execute(sql.SQL("SET search_path = {}, pg_catalog").format(sql.Identifier(schema[0])))
        conn.execute("SET client_min_messages = warning")
        conn.execute("CREATE TEMP TABLE IF NOT EXISTS hostile_digests (d kidx_digest)")
        oid = conn.execute("SELECT 'kidx_digest'::regtype::oid").fetchone()[0]
        dumper = type("KidxDigestDumper", (RawDigestDumper,), {"oid": oid})
        conn.adapters.register_dumper(RawDigest, dumper)

    def good_doc(self, base):
        """The reference bundle moved to a day of its own (observedAt, name, externalId)."""
        self.day += datetime.timedelta(days=1)
        text = json.dumps(self.records[base], ensure_ascii=False)
        return json.loads(text.replace(RECORD_DATES[base], self.day.isoformat()))

    def good_row(self, base):
        """The upstream CSV row moved to a second of its own."""
        self.second += datetime.timedelta(seconds=1)
        row = list(self.liger_rows[base])
        row[13] = self.second.strftime("%Y-%m-%d %H:%M:%S")
        return row

    def good_rr(self, base, columns=None):
        """A base run_rows row moved to a second of its own, with every column
        of columns (None where the base has none)."""
        self.second += datetime.timedelta(seconds=1)
        row = dict(RR_BASES[base])
        row["observed_at"] = self.second.strftime("%Y-%m-%dT%H:%M:%SZ")
        for c in columns or []:
            row.setdefault(c, None)
        return row

    def deep_depth(self):
        """The deepest array nesting the server's jsonb parser accepts."""
        if self._deep is None:
            lo, hi = 1000, 200000
            while hi - lo > 16:
                mid = (lo + hi) // 2
                try:
                    with self.conn.transaction():
                        self.conn.execute("SELECT (repeat('[', %s) || repeat(']', %s))::jsonb IS NOT NULL",
                                          (mid, mid))
                    lo = mid
                except psycopg.errors.StatementTooComplex:
                    hi = mid
            self._deep = lo
        return self._deep


def store_tables(conn):
    """Every table of the schema kernelindex (the store's, the catalogs,
    whatever a later version adds), rejected_rows last; fails if one of
    STORE is missing."""
    global TABLES
    if TABLES is None:
        names = [r[0] for r in conn.execute(
            "SELECT c.relname FROM pg_class c WHERE c.relnamespace = 'kernelindex'::regnamespace"
            " AND c.relkind IN ('r', 'p') ORDER BY c.relname = 'rejected_rows', c.relname").fetchall()]
        missing = [t for t in STORE if t not in names]
        if missing:
            raise SystemExit("hostile: the store has no table %s" % ", ".join(missing))
        TABLES = names
    return TABLES


def counts(conn):
    """Row counts of every table of kernelindex (store_tables)."""
    q = "SELECT " + ", ".join("(SELECT count(*) FROM kernelindex.%s)" % t for t in store_tables(conn))
    return list(conn.execute(q).fetchone())


# ---------------------------------------------------------------------------
# Entry points: how a catalogue line becomes cases
# ---------------------------------------------------------------------------

def text_value(world, inp):
    """The text an input stands for: sql:EXPR is evaluated, the rest unescaped."""
    if inp.startswith("sql:"):
        return world.conn.execute("SELECT (" + inp[4:] + ")::text").fetchone()[0]
    return unescape(inp)


def digest_text_cases(world, group, entry, text, sqlstate, names, desc):
    """A digest text through a literal cast, a text cast and COPY (line 2)."""
    good_probe = (lambda c: c.execute(sql.SQL("SELECT {}::kidx_digest").format(sql.Literal(GOOD_DIGEST))))

    def literal(c):
        c.execute(sql.SQL("SELECT {}::kidx_digest").format(sql.Literal(text)))

    def cast(c):
        c.execute("SELECT %s::text::kidx_digest", (text,))

    def copy_in(c):
        with c.cursor().copy("COPY hostile_digests FROM STDIN") as cp:
            cp.write(GOOD_DIGEST + "\n" + copy_text_field(text) + "\n")

    def empty(c):
        n = c.execute("SELECT count(*) FROM hostile_digests").fetchone()[0]
        return [] if n == 0 else ["%d rows stored in the COPY's table" % n]

    return [Case(group, entry, "'...'::kidx_digest", desc, sqlstate, names, literal, good_probe),
            Case(group, entry, "text::kidx_digest", desc, sqlstate, names, cast, good_probe),
            Case(group, entry, "COPY (text)", desc, sqlstate, names, copy_in, good_probe, empty,
                 context="line 2, column d")]


def digest_binary_cases(world, group, entry, inp, sqlstate, names, desc):
    """Bytes through the bytea cast, or kidx_digest_recv (bind parameter, binary COPY)."""
    if inp.startswith("hex:"):
        raw = bytes.fromhex(inp[4:])
    elif inp.startswith("text:"):
        raw = inp[5:].encode()
    else:
        raw = bytes(world.conn.execute("SELECT (" + inp[4:] + ")::bytea").fetchone()[0])
    names = fill(names, n=len(raw))
    good = bytes.fromhex(GOOD_DIGEST[7:])
    if entry == "kidx_digest bytea":
        return [Case(group, entry, "bytea::kidx_digest", desc, sqlstate, names,
                     lambda c: c.execute("SELECT %s::bytea::kidx_digest", (raw,)),
                     lambda c: c.execute("SELECT %s::bytea::kidx_digest", (good,)))]

    def param(c):
        c.execute("SELECT %b IS NOT NULL", (RawDigest(raw),))

    def copy_in(c):
        with c.cursor().copy("COPY hostile_digests FROM STDIN WITH (FORMAT binary)") as cp:
            cp.write(pgcopy_file([[good], [raw]]))

    def probe(c):
        c.execute("SELECT %b IS NOT NULL", (RawDigest(good),))

    def empty(c):
        n = c.execute("SELECT count(*) FROM hostile_digests").fetchone()[0]
        return [] if n == 0 else ["%d rows stored in the COPY's table" % n]

    return [Case(group, entry, "binary parameter", desc, sqlstate, names, param, probe),
            Case(group, entry, "binary COPY", desc, sqlstate, names, copy_in, probe, empty,
                 context="line 2, column d")]


def binary_file_cases(world, group, entry, inp, sqlstate, names, desc):
    """A malformed binary COPY file."""
    good = bytes.fromhex(GOOD_DIGEST[7:])
    sig = b"PGCOPY\n\xff\r\n\x00"
    files = {
        "bad_signature": b"PGCOPX\n\xff\r\n\x00" + struct.pack("!ii", 0, 0) + struct.pack("!h", -1),
        "short_header": sig + b"\x00\x00",
        "critical_flag": pgcopy_file([[good]], header=sig + struct.pack("!ii", 1 << 17, 0)),
        "two_fields": pgcopy_file([[good], [good, good]]),
        "cut_field": pgcopy_file([[good]], trailer=False) + struct.pack("!hi", 1, 32) + good[:10],
        "negative_length": pgcopy_file([[good]], trailer=False) + struct.pack("!hi", 1, -2) +
        struct.pack("!h", -1),
        "after_trailer": pgcopy_file([[good]]) + b"junk",
    }
    data = files[inp[5:]]

    def copy_in(c):
        with c.cursor().copy("COPY hostile_digests FROM STDIN WITH (FORMAT binary)") as cp:
            cp.write(data)

    def probe(c):
        with c.cursor().copy("COPY hostile_digests FROM STDIN WITH (FORMAT binary)") as cp:
            cp.write(pgcopy_file([[good]]))

    def empty(c):
        n = c.execute("SELECT count(*) FROM hostile_digests").fetchone()[0]
        return [] if n == 0 else ["%d rows stored in the COPY's table" % n]

    return [Case(group, entry, "binary COPY", desc, sqlstate, names, copy_in, probe, empty)]


def canonical_cases(world, group, entry, jtext, sqlstate, names, desc, table=None):
    """JSON text (or a one-row scratch table) through kidx_canonical(_digest)."""
    fns = ["kidx_canonical", "kidx_canonical_digest"] if entry == "canonical" else [entry]
    out = []
    for fn in fns:
        if table:
            run = (lambda c, fn=fn: c.execute("SELECT %s(j) IS NOT NULL FROM %s" % (fn, table)))
        else:
            run = (lambda c, fn=fn: c.execute("SELECT %s(%%s::jsonb) IS NOT NULL" % fn, (jtext,)))
        good = ('{"apiVersion": "kernelindex.dev/v1alpha1", "kind": "Workload", "spec": {"n": 1}}')
        probe = (lambda c, fn=fn: c.execute("SELECT %s(%%s::jsonb)" % fn, (good,)))
        out.append(Case(group, entry, fn + "()", desc, sqlstate, names, run, probe))
    return out


UNITS = {"kidx_ms_to_ns": "milliseconds", "kidx_mib_to_bytes": "MiB"}


def units_cases(world, group, entry, inp, sqlstate, names, desc):
    """A value through kidx_ms_to_ns and/or kidx_mib_to_bytes of one input type."""
    m = re.fullmatch(r"(\w+)\((.*)\)", entry)
    fns = list(UNITS) if m.group(1) == "units" else [m.group(1)]
    typ = m.group(2)
    out = []
    if sqlstate == "accepted":
        for fn in fns:
            q = "SELECT %s(%%s::%s)" % (fn, typ)
            out.append(Case(group, entry, "%s(%s)" % (fn, typ), desc, sqlstate, [], None,
                            accept=(lambda c, q=q: c.execute(q, (unescape(inp),)) and [])))
        return out
    for fn in fns:
        if inp.startswith("sql:"):
            expr = sql.SQL("SELECT {}(({})::{})").format(sql.Identifier(fn), sql.SQL(inp[4:]),
                                                         sql.SQL(typ))
            run = (lambda c, expr=expr: c.execute(expr))
        else:
            value = unescape(inp)
            q = "SELECT %s(%%s::%s)" % (fn, typ)
            run = (lambda c, q=q, value=value: c.execute(q, (value,)))
        probe = (lambda c, fn=fn, typ=typ: c.execute("SELECT %s('2.5'::%s)" % (fn, typ)))
        out.append(Case(group, entry, "%s(%s)" % (fn, typ), desc, sqlstate,
                        fill(names, unit=UNITS[fn]), run, probe))
    return out


# --- documents ------------------------------------------------------------

def doc_text(d):
    return d if isinstance(d, str) else json.dumps(d, ensure_ascii=False)


def document_cases(world, group, entry, bad, sqlstate, names, desc, base,
                   paths=("ingest_document", "ingest_bundles", "INSERT", "COPY")):
    """A bad document (JSON value or text) through every document path."""
    bad_text = None if bad is None else doc_text(bad)
    base = base or "sparsemax"
    out = []

    def runs_grew(c, before):
        n = c.execute("SELECT count(*) FROM kernelindex.runs").fetchone()[0]
        if n != before + 1:
            raise AssertionError("the good document stored %d runs, not 1" % (n - before))

    def nruns(c):
        return c.execute("SELECT count(*) FROM kernelindex.runs").fetchone()[0]

    for path in paths:
        g1 = doc_text(world.good_doc(base))
        g2 = doc_text(world.good_doc(base))
        p = doc_text(world.good_doc(base))
        if path == "ingest_document":
            n = 1
            run = (lambda c, b=bad_text: c.execute("SELECT kernelindex.ingest_document(%s::jsonb)", (b,)))

            def probe(c, p=p):
                k = nruns(c)
                c.execute("SELECT kernelindex.ingest_document(%s::jsonb)", (p,))
                runs_grew(c, k)
        elif path == "ingest_bundles":
            n = 2
            run = (lambda c, b=bad_text, g1=g1, g2=g2: c.execute(
                "SELECT kernelindex.ingest_bundles(ARRAY[%s::jsonb, %s::jsonb, %s::jsonb])", (g1, b, g2)))

            def probe(c, p=p):
                k = nruns(c)
                c.execute("SELECT kernelindex.ingest_bundles(ARRAY[%s::jsonb])", (p,))
                runs_grew(c, k)
        elif path == "INSERT":
            n = 2
            run = (lambda c, b=bad_text, g1=g1: c.execute(
                "INSERT INTO kernelindex.documents VALUES (%s::jsonb), (%s::jsonb)", (g1, b)))

            def probe(c, p=p):
                k = nruns(c)
                c.execute("INSERT INTO kernelindex.documents VALUES (%s::jsonb)", (p,))
                runs_grew(c, k)
        else:
            n = 2

            def run(c, b=bad_text, g1=g1, g2=g2):
                with c.cursor().copy(DOCUMENTS_COPY) as cp:
                    cp.write(g1 + "\n" + ("" if b is None else b) + "\n" + g2 + "\n")

            def probe(c, p=p):
                k = nruns(c)
                with c.cursor().copy(DOCUMENTS_COPY) as cp:
                    cp.write(p + "\n")
                runs_grew(c, k)
        out.append(Case(group, entry, path, desc, sqlstate, fill(names, n=n), run, probe))
    return out


def mutate(world, spec):
    """'BASE OP {path} VALUE' -> [(base, document or JSON text, description)]."""
    m = re.fullmatch(r"(\S+) (replace|set|delete|delete-set) (\S+)(?: (\S+))?(?: (.*))?", spec)
    base, op, p1 = m.group(1), m.group(2), m.group(3)
    bases = ["sparsemax", "grpo"] if base == "both" else [None if base == "-" else base]
    out = []
    for b in bases:
        if op == "replace":
            value = spec.split(" ", 3)[3]
            out.append((b, value, value))
            continue
        doc = world.records[b]
        if op == "set":
            value = spec.split(" ", 3)[3]
            text = with_literal(doc, parse_path(p1), value)
            out.append((b, text, "%s: %s = %s" % (b, p1, value)))
        elif op == "delete":
            out.append((b, delete_in(doc, parse_path(p1)), "%s: without %s" % (b, p1)))
        else:
            p2, value = m.group(4), m.group(5)
            text = with_literal(delete_in(doc, parse_path(p1)), parse_path(p2), value)
            out.append((b, text, "%s: without %s, %s = %s" % (b, p1, p2, value)))
    return out


# --- CSV rows --------------------------------------------------------------

def liger_cases(world, group, entry, base, bad_row, sqlstate, names, desc):
    """A bad CSV row: COPY and INSERT after a good row, and both in quarantine mode."""
    out = []
    placeholders = "(" + ", ".join(["%s"] * 15) + ")"

    def nruns(c):
        return c.execute("SELECT count(*) FROM kernelindex.runs").fetchone()[0]

    def probe_copy(c, p):
        k = nruns(c)
        with c.cursor().copy(LIGER_COPY) as cp:
            cp.write(csv_line(world.liger_header) + csv_line(p))
        if nruns(c) != k + 1:
            raise AssertionError("the good row did not become one run")

    def probe_insert(c, p):
        k = nruns(c)
        c.execute("INSERT INTO kernelindex.liger_rows VALUES " + placeholders, p)
        if nruns(c) != k + 1:
            raise AssertionError("the good row did not become one run")

    g = world.good_row(base)
    p = world.good_row(base)

    def copy_error(c, g=g):
        with c.cursor().copy(LIGER_COPY) as cp:
            cp.write(csv_line(world.liger_header) + csv_line(g) + csv_line(bad_row))

    def insert_error(c, g=g):
        c.execute("INSERT INTO kernelindex.liger_rows VALUES " + placeholders + ", " + placeholders,
                  g + bad_row)

    nm = fill(names, n=2)
    out.append(Case(group, entry, "COPY (error)", desc, sqlstate, nm, copy_error,
                    lambda c, p=p: probe_copy(c, p)))
    p = world.good_row(base)
    out.append(Case(group, entry, "INSERT (error)", desc, sqlstate, nm, insert_error,
                    lambda c, p=p: probe_insert(c, p)))

    def copy_q(c):
        with c.cursor().copy(LIGER_COPY) as cp:
            cp.write(csv_line(world.liger_header) + csv_line(bad_row))

    def insert_q(c):
        c.execute("INSERT INTO kernelindex.liger_rows VALUES " + placeholders, bad_row)

    nq = fill(names, n=1)
    for path, run in (("COPY (quarantine)", copy_q), ("INSERT (quarantine)", insert_q)):
        out.append(Case(group, entry, path, desc, sqlstate, nq, run,
                        quarantine={"row": bad_row, "via": "COPY" if path.startswith("COPY") else "INSERT"}))
    return out


def liger_accepted_cases(world, group, entry, base, row, desc):
    """A row close to a fault that must still become one run, in both modes."""
    out = []
    placeholders = "(" + ", ".join(["%s"] * 15) + ")"
    for mode in ("error", "quarantine"):
        for via in ("COPY", "INSERT"):
            def accept(c, mode=mode, via=via, row=row):
                before = counts(c)
                c.execute(sql.SQL("SET LOCAL kernelindex.on_bad_row = {}").format(sql.Literal(mode)))
                if via == "COPY":
                    with c.cursor().copy(LIGER_COPY) as cp:
                        cp.write(csv_line(world.liger_header) + csv_line(row))
                else:
                    c.execute("INSERT INTO kernelindex.liger_rows VALUES " + placeholders, row)
                after = counts(c)
                if after[0] != before[0] + 1 or after[-1] != before[-1]:
                    return ["not one run: %s" % diff_counts(before, after)]
                return []
            out.append(Case(group, entry, "%s (%s)" % (via, mode), desc, "accepted", [],
                            None, accept=accept))
    return out


def liger_copy_file_cases(world, group, entry, data, sqlstate, names, desc):
    """A malformed CSV file, in both modes."""
    out = []
    for mode in ("error", "quarantine"):
        def run(c, mode=mode):
            with c.transaction():
                c.execute(sql.SQL("SET LOCAL kernelindex.on_bad_row = {}").format(sql.Literal(mode)))
                with c.cursor().copy(LIGER_COPY) as cp:
                    cp.write(data)

        def probe(c, mode=mode):
            row = world.good_row("speed")
            with c.cursor().copy(LIGER_COPY) as cp:
                cp.write(csv_line(world.liger_header) + csv_line(row))

        out.append(Case(group, entry, "COPY (%s)" % mode, desc, sqlstate, names, run, probe))
    return out


# --- run_rows --------------------------------------------------------------

def rr_columns(*rows):
    """The columns rows name, in the interface's order."""
    return [c for c in RR_COLUMNS if any(c in r for r in rows)]


def rr_copy_sql(columns):
    return ("COPY kernelindex.run_rows (%s) FROM STDIN WITH (FORMAT csv, HEADER MATCH)"
            % ", ".join(columns))


def rr_csv(columns, *rows):
    """A CSV file: the header, then the rows (None: an unquoted empty field, NULL)."""
    return (",".join(columns) + "\n" +
            "".join(",".join(csv_field(r.get(c)) for c in columns) + "\n" for r in rows))


# A run_rows statement that takes longer has a cost out of proportion to its
# input (the rows here are at most a few MB): it is cancelled, and the case
# fails with SQLSTATE 57014.
RR_TIMEOUT = "60s"


def rr_copy(c, columns, *rows):
    with c.transaction():
        c.execute("SET LOCAL statement_timeout = '%s'" % RR_TIMEOUT)
        with c.cursor().copy(rr_copy_sql(columns)) as cp:
            cp.write(rr_csv(columns, *rows))


def rr_insert(c, columns, *rows):
    one = "(" + ", ".join(["%s"] * len(columns)) + ")"
    with c.transaction():
        c.execute("SET LOCAL statement_timeout = '%s'" % RR_TIMEOUT)
        c.execute("INSERT INTO kernelindex.run_rows (%s) VALUES %s" % (", ".join(columns),
                                                                        ", ".join([one] * len(rows))),
                  [r.get(col) for r in rows for col in columns])


def rr_cases(world, group, entry, base, bad_row, sqlstate, names, desc):
    """A bad run_rows row: COPY and INSERT after a good row (alone where its
    column list leaves out what a good row needs), and both in quarantine mode."""
    out = []
    columns = rr_columns(bad_row)
    alone = (any(c not in columns for c in ("harness", "kernel", "implementation", "gpu",
                                             "observed_at", "unit"))
             or not any(c in columns for c in ("median", "mean", "min")))

    def nruns(c):
        return c.execute("SELECT count(*) FROM kernelindex.runs").fetchone()[0]

    def probe(c, send, p):
        k = nruns(c)
        send(c, rr_columns(p) if alone else columns, p)
        if nruns(c) != k + 1:
            raise AssertionError("the good row did not become one run")

    nm = fill(names, n=1 if alone else 2)
    for path, send in (("COPY (error)", rr_copy), ("INSERT (error)", rr_insert)):
        g = world.good_rr(base, columns)
        p = world.good_rr(base) if alone else world.good_rr(base, columns)
        rows = (bad_row,) if alone else (g, bad_row)
        out.append(Case(group, entry, path, desc, sqlstate, nm,
                        lambda c, send=send, rows=rows: send(c, columns, *rows),
                        lambda c, send=send, p=p: probe(c, send, p)))
    nq = fill(names, n=1)
    for path, send in (("COPY (quarantine)", rr_copy), ("INSERT (quarantine)", rr_insert)):
        out.append(Case(group, entry, path, desc, sqlstate, nq,
                        lambda c, send=send: send(c, columns, bad_row),
                        quarantine={"row": bad_row, "via": path.split(" ")[0], "source": "run_rows"}))
    return out


def rr_accepted_cases(world, group, entry, base, row, desc):
    """A run_rows row close to a fault that must still become one run, in both modes."""
    out = []
    columns = rr_columns(row)
    for mode in ("error", "quarantine"):
        for via, send in (("COPY", rr_copy), ("INSERT", rr_insert)):
            def accept(c, mode=mode, send=send):
                before = counts(c)
                c.execute(sql.SQL("SET LOCAL kernelindex.on_bad_row = {}").format(sql.Literal(mode)))
                send(c, columns, dict(row, observed_at=world.good_rr(base)["observed_at"])
                     if row.get("observed_at") == RR_BASE_TIME else row)
                after = counts(c)
                if after[0] != before[0] + 1 or after[-1] != before[-1]:
                    return ["not one run: %s" % diff_counts(before, after)]
                return []
            out.append(Case(group, entry, "%s (%s)" % (via, mode), desc, "accepted", [],
                            None, accept=accept))
    return out


def rr_copy_file_cases(world, group, entry, data, columns, sqlstate, names, desc):
    """A malformed run_rows CSV file (its COPY's column list given), in both modes."""
    out = []
    for mode in ("error", "quarantine"):
        def run(c, mode=mode):
            with c.transaction():
                c.execute(sql.SQL("SET LOCAL kernelindex.on_bad_row = {}").format(sql.Literal(mode)))
                with c.cursor().copy(rr_copy_sql(columns)) as cp:
                    cp.write(data)

        def probe(c):
            rr_copy(c, rr_columns(RR_BASES["latency"]), world.good_rr("latency"))

        out.append(Case(group, entry, "COPY (%s)" % mode, desc, sqlstate, names, run, probe))
    return out


def rr_file_for(world, name):
    """The malformed CSV files of the run_rows COPY generators: (data, COPY's columns)."""
    cols = rr_columns(RR_BASES["latency"])
    good = world.good_rr("latency")
    row = world.good_rr("latency")
    body = rr_csv(cols, good)
    line = rr_csv(cols, row).split("\n", 1)[1]
    if name == "rr_short_row":
        return body + line[:-1].rsplit(",", 1)[0] + "\n", cols
    if name == "rr_long_row":
        return body + line[:-1] + ",extra\n", cols
    if name == "rr_bad_header":
        return body.replace(",median,", ",median_ms,", 1), cols
    if name == "rr_header_other_order":
        h = list(cols)
        h[0], h[1] = h[1], h[0]
        return ",".join(h) + "\n" + body.split("\n", 1)[1], cols
    if name == "rr_unterminated_quote":
        return body + line[:-1] + ',"never closed\n', cols
    if name == "rr_bad_utf8":
        row["gpu"] = "NVIDIA \udcff"
        return (body.encode() + rr_csv(cols, row).split("\n", 1)[1].encode("utf-8", "surrogateescape"),
                cols)
    if name == "rr_nul_byte":
        row["kernel"] = "soft\x00max"
        return body + rr_csv(cols, row).split("\n", 1)[1], cols
    if name == "rr_latin1":
        row["implementation"] = "tritón"
        return body.encode() + rr_csv(cols, row).split("\n", 1)[1].encode("latin-1"), cols
    raise KeyError(name)


def rr_generated(world, name):
    """Rows of the run_rows generators: (base, changes, description) each."""
    big = 4 * 1024 * 1024
    depth = world.deep_depth() - 8
    if name == "rr_deep_json":
        return [(b, {c: '{"B": ' + "[" * d + "]" * d + "}"}, "%s: %s %d levels deep" % (b, c, d + 1))
                for b in ("latency", "memory") for c in ("workload", "labels") for d in (100, depth)]
    if name == "rr_huge_number":
        return [("latency", {c: "1" + "0" * big}, "%s: 1 and %d zeros" % (c, big))
                for c in ("median", "stddev")]
    if name == "rr_huge_fraction":
        return [("latency", {"median": "-0." + "0" * big + "1"}, "median: -0.(%d zeros)1" % big)]
    if name == "rr_huge_samples":
        return [("latency", {"samples": "9" * big}, "samples: %d nines" % big)]
    if name == "rr_huge_exponent":
        return [("latency", {"median": "1e" + "9" * 4000}, "median: 1e(4000 nines)"),
                ("latency", {"median": "1e-" + "9" * 4000 + "1"}, "median: 1e-(4000 nines)1 beside a bad p20")]
    if name == "rr_long_blank":
        return [("latency", {c: " " * big}, "%s: %d spaces" % (c, big))
                for c in ("harness", "kernel", "gpu", "unit", "observed_at")]
    if name == "rr_long_unit":
        return [("latency", {"unit": "ms" * (big // 2)}, "unit: %d bytes" % big)]
    if name == "rr_long_time":
        return [("latency", {"observed_at": "2042-01-01T00:00:00" + "0" * big + "Z"},
                 "observed_at: %d digits of a second" % big)]
    if name == "rr_many_labels":
        out = []
        for n in (10000, 400000):
            keys = ", ".join('"k%d": "v%d"' % (i, i) for i in range(n))
            out.append(("latency", {"labels": "{" + keys + ', "k%d": 1}' % n},
                        "labels: %d strings, then a number" % n))
            out.append(("latency", {"labels": "{" + keys + ', "k%d": "again"}' % (n - 1)},
                        "labels: %d keys, the last twice" % n))
        return out
    if name == "rr_many_keys_workload":
        keys = ", ".join('"p%d": %d' % (i, i) for i in range(400000))
        return [("latency", {"workload": "{" + keys + ', "p0": 1}'}, "workload: 400000 keys, p0 twice")]
    if name == "rr_long_labels_string":
        return [("latency", {"labels": '{"a": "' + "x" * big + '", "b": 2}'},
                 "labels: a %d-byte string, then a number" % big)]
    raise KeyError(name)


# --- settings --------------------------------------------------------------

def setting_check(conn_value):
    def after(c):
        now = c.execute("SHOW kernelindex.on_bad_row").fetchone()[0]
        if now != conn_value:
            return ["kernelindex.on_bad_row is now %r, was %r" % (now, conn_value)]
        n = c.execute("SELECT count(*) FROM pg_db_role_setting, unnest(setconfig) s "
                      "WHERE s LIKE 'kernelindex.%'").fetchone()[0]
        if n:
            return ["%d role or database settings of kernelindex stored" % n]
        return []
    return after


def on_bad_row_cases(world, group, entry, value, sqlstate, names, desc):
    after = setting_check("error")

    def probe(c):
        c.execute("SET LOCAL kernelindex.on_bad_row = 'quarantine'")
        if c.execute("SHOW kernelindex.on_bad_row").fetchone()[0] != "quarantine":
            raise AssertionError("SET LOCAL to quarantine did not take")

    def set_(c):
        c.execute(sql.SQL("SET kernelindex.on_bad_row = {}").format(sql.Literal(value)))

    def set_local(c):
        with c.transaction():
            c.execute(sql.SQL("SET LOCAL kernelindex.on_bad_row = {}").format(sql.Literal(value)))

    def set_config(c):
        c.execute("SELECT set_config('kernelindex.on_bad_row', %s, false)", (value,))

    return [Case(group, entry, p, desc, sqlstate, names, r, probe, after)
            for p, r in (("SET", set_), ("SET LOCAL", set_local), ("set_config()", set_config))]


def settings_cases(world, group, entry, stmt, sqlstate, names, desc):
    stmt = stmt.replace("{db}", sql.Identifier(world.dbname).as_string(world.conn))
    return [Case(group, entry, stmt.split(" ")[0], desc, sqlstate, names,
                 lambda c: c.execute(stmt), None, setting_check("error"))]


# ---------------------------------------------------------------------------
# Generators: inputs derived from the reference records and upstream rows
# ---------------------------------------------------------------------------

NONHEX = ["g", "z", "G", " ", "-", "_", ".", ":", "/", "\u00e9", "x", "\u00a0", "O", "l",
          "\u6f22", "!", "#", "+", "%", "\\", "'", '"', "\U0001F600", "\u0430", "h", "\u2212"]


def gen_digest_nonhex_each_position(world, emit, names):
    for pos in range(8, 72):
        ch = NONHEX[pos % len(NONHEX)]
        text = GOOD_DIGEST[:pos - 1] + ch + GOOD_DIGEST[pos:]
        emit(text, fill(names, pos=pos) + ['"%s"' % ch], "%r at %d" % (ch, pos))


def gen_digest_uppercase_positions(world, emit, names):
    for k, pos in enumerate([8, 9, 10, 23, 40, 57, 70, 71]):
        ch = "ABCDEF"[k % 6]
        text = GOOD_DIGEST[:pos - 1] + ch + GOOD_DIGEST[pos:]
        emit(text, fill(names, pos=pos, ch=ch), "%s at %d" % (ch, pos))


def gen_digest_lengths(world, emit, names):
    hexes = "0123456789abcdef" * 8
    for n in [0, 1, 2, 31, 32, 33, 40, 62, 63, 65, 66, 70, 96, 127, 128]:
        emit("sha256:" + hexes[:n], fill(names, len=n), "%d digits" % n)


def number_leaves(doc):
    return [(p, v) for p, v in leaves(doc) if isinstance(v, (int, float)) and not isinstance(v, bool)]


def gen_canonical_reference_numbers(world, emit, names):
    for base, doc in world.records.items():
        for p, _ in number_leaves(doc):
            emit(with_literal(doc, list(p), "9007199254740993"), fill(names, path=json_path(p)),
                 "%s: %s" % (base, json_path(p)))


def gen_resource_reference_numbers(world, emit, names):
    for base, doc in world.records.items():
        for part in ("run", "protocol", "environment"):
            res = doc[part]
            for p, _ in number_leaves(res.get("spec", {})):
                emit(with_literal(res, ["spec"] + list(p), "0.30000000000000001"),
                     fill(names, path=json_path(("spec",) + p)),
                     "%s.%s: %s" % (base, part, json_path(("spec",) + p)))
            # every resource also gets one number where it had none
            emit(with_literal(res, ["spec", "hostile"], "0.30000000000000001"),
                 fill(names, path="$.spec.hostile"), "%s.%s: $.spec.hostile" % (base, part))


# Members the run layout knows (src/run_layout.c), with values of a wrong JSON type.
RUN_MEMBERS = [
    (("apiVersion",), [12, None]),
    (("kind",), [None, 12]),
    (("metadata",), ["x", []]),
    (("metadata", "name"), [12, None]),
    (("metadata", "title"), [12, []]),
    (("metadata", "labels"), ["x", []]),
    (("metadata", "labels", "liger_version"), [58, None]),
    (("spec",), ["x", None]),
    (("spec", "status"), [12, None]),
    (("spec", "observedAt"), [12, None]),
    (("spec", "protocolDigest"), [7, None]),
    (("spec", "workloadDigest"), [7, {}]),
    (("spec", "environmentDigest"), [True, None]),
    (("spec", "implementationDigest"), [[], None]),
    (("spec", "timing"), [None, "x"]),
    (("spec", "timing", "latencyNs"), [[], 5]),
    (("spec", "timing", "latencyNs", "median"), ["abc", None, True]),
    (("spec", "timing", "primaryStatistic"), [12, None]),
    (("spec", "measurements"), ["x", {}]),
    (("spec", "measurements", 0), [1, "m"]),
    (("spec", "measurements", 0, "unit"), [0, None]),
    (("spec", "measurements", 0, "metric"), [0, None]),
    (("spec", "measurements", 0, "statistic"), [0, None]),
    (("spec", "measurements", 1, "value"), ["x", None]),
    (("spec", "sourceNative"), [3, "x"]),
    (("spec", "sourceNative", "source"), [4, None]),
    (("spec", "sourceNative", "benchmark"), [5, None]),
    (("spec", "sourceNative", "externalId"), [6, None]),
    (("spec", "sourceNative", "metrics"), [[], "x"]),
    (("spec", "sourceNative", "metrics", "ms_50"), ["2.6", None, True]),
]
RESOURCE_MEMBERS = [
    (("apiVersion",), [1]),
    (("kind",), [None]),
    (("metadata",), ["m"]),
    (("metadata", "name"), [1]),
    (("spec",), [[]]),
]
RUN_REQUIRED = [("apiVersion",), ("kind",), ("metadata",), ("metadata", "name"), ("spec",),
                ("spec", "status"), ("spec", "observedAt"), ("spec", "protocolDigest"),
                ("spec", "workloadDigest"), ("spec", "environmentDigest"),
                ("spec", "implementationDigest")]
RESOURCE_REQUIRED = [("apiVersion",), ("kind",), ("metadata",), ("metadata", "name"), ("spec",)]


def gen_doc_required_deleted(world, emit, names):
    for base, doc in world.records.items():
        for part, members in (("run", RUN_REQUIRED), ("protocol", RESOURCE_REQUIRED),
                              ("environment", RESOURCE_REQUIRED)):
            for m in members:
                p = (part,) + m
                emit(delete_in(doc, list(p)), fill(names, path=json_path(p)),
                     "%s: without %s" % (base, json_path(p)), base=base)


def gen_doc_mistyped(world, emit, names):
    for base, doc in world.records.items():
        for part, members in (("run", RUN_MEMBERS), ("protocol", RESOURCE_MEMBERS),
                              ("environment", RESOURCE_MEMBERS)):
            for m, values in members:
                p = (part,) + m
                for v in values:
                    emit(set_in(doc, list(p), v), fill(names, path=json_path(p), shown=shown(v)),
                         "%s: %s = %s" % (base, json_path(p), json.dumps(v)), base=base)


def gen_doc_digest_text(world, emit, names):
    for base, doc in world.records.items():
        for member in ("protocolDigest", "workloadDigest", "environmentDigest", "implementationDigest"):
            good = doc["run"]["spec"][member]
            bads = [
                ("sha256:abc", "found 3"),
                (good[:10] + "E" + good[11:], "Uppercase hexadecimal digit \"E\" at position 11"),
                (good[:19] + "g" + good[20:], "Character \"g\" at position 20"),
                (good[7:], 'must start with "sha256:"'),
                (good + "0", "found 65"),
            ]
            for value, detail in bads:
                p = ("run", "spec", member)
                emit(set_in(doc, list(p), value), fill(names, path=json_path(p), detail=detail),
                     "%s: %s = %s" % (base, json_path(p), shorten(value, 30)), base=base)


def gen_doc_resource_changed(world, emit, names):
    for base, doc in world.records.items():
        for part, member in (("protocol", "protocolDigest"), ("environment", "environmentDigest")):
            changes = [(("spec",) + p, v + " (edited)") for p, v in leaves(doc[part]["spec"])
                       if isinstance(v, str)]
            changes.append((("spec", "hostile"), 1))
            for p, v in changes:
                full = (part,) + p
                emit(set_in(doc, list(full), v), fill(names, member=member, resource=part),
                     "%s: %s = %s" % (base, json_path(full), shorten(json.dumps(v), 30)), base=base)
        # the environment's software, empty in the records, given a value
        emit(set_in(doc, ["environment", "spec", "software"], {"cuda": "12.4"}),
             fill(names, member="environmentDigest", resource="environment"),
             "%s: $.environment.spec.software = {cuda}" % base, base=base)


BAD_TIMESTAMPS = [
    ("2025-04-28 00:38:25", "22007", "It is not of the form"),
    ("2025-04-28T00:38:25", "22007", "It is not of the form"),
    ("2025-04-28T00:38Z", "22007", "It is not of the form"),
    ("2025-04-28", "22007", "It is not of the form"),
    ("28/04/2025 00:38:25", "22007", "It is not of the form"),
    ("2025-04-28T00:38:25.Z", "22007", "It is not of the form"),
    ("2025-04-28T00:38:25.000+0200", "22007", "It is not of the form"),
    ("2025-04-28T00:38:25.000Z ", "22007", "It is not of the form"),
    (" 2025-04-28T00:38:25.000Z", "22007", "It is not of the form"),
    ("", "22007", "It is not of the form"),
    ("\uff12\uff10\uff12\uff15-04-28T00:38:25Z", "22007", "It is not of the form"),
    ("+2025-04-28T00:38:25Z", "22007", "It is not of the form"),
    ("2025-02-30T00:38:25.000Z", "22008", "The day is not a day of its month"),
    ("2023-02-29T00:00:00Z", "22008", "The day is not a day of its month"),
    ("2025-04-31T00:00:00Z", "22008", "The day is not a day of its month"),
    ("2025-13-01T00:00:00Z", "22008", "The month is not 01 to 12"),
    ("2025-00-10T00:00:00Z", "22008", "The month is not 01 to 12"),
    ("0000-01-01T00:00:00Z", "22008", "Year 0000"),
    ("2025-04-28T24:00:00Z", "22008", "The hour is not 00 to 23"),
    ("2025-04-28T00:60:00Z", "22008", "The minute is not 00 to 59"),
    ("2016-12-31T23:59:60Z", "22008", "leap seconds"),
    ("2025-04-28T00:38:25+24:00", "22008", "The offset from UTC"),
    ("2025-04-28T00:38:25-00:60", "22008", "The offset from UTC"),
]


def gen_doc_bad_timestamps(world, emit, names):
    for base, doc in world.records.items():
        for value, state, detail in BAD_TIMESTAMPS:
            emit(set_in(doc, ["run", "spec", "observedAt"], value),
                 fill(names, value=value, detail=detail), "%s: %r" % (base, value),
                 base=base, sqlstate=state)


def gen_doc_deep_nesting(world, emit, names):
    depth = world.deep_depth() - 8
    for base, doc in world.records.items():
        text = with_literal(doc, ["run", "spec", "hostile"], "[" * depth + "]" * depth)
        emit(text, names, "%s: %d arrays deep in $.run.spec.hostile" % (base, depth), base=base)


GENERATORS = {
    "digest_nonhex_each_position": gen_digest_nonhex_each_position,
    "digest_uppercase_positions": gen_digest_uppercase_positions,
    "digest_lengths": gen_digest_lengths,
    "canonical_reference_numbers": gen_canonical_reference_numbers,
    "resource_reference_numbers": gen_resource_reference_numbers,
    "doc_required_deleted": gen_doc_required_deleted,
    "doc_mistyped": gen_doc_mistyped,
    "doc_digest_text": gen_doc_digest_text,
    "doc_resource_changed": gen_doc_resource_changed,
    "doc_bad_timestamps": gen_doc_bad_timestamps,
    "doc_deep_nesting": gen_doc_deep_nesting,
}


def deep_nesting_cases(world, group, entry, sqlstate, names):
    """Arrays nested as deep as the jsonb parser allows, through the digests."""
    depth = world.deep_depth()
    world.conn.execute("CREATE TEMP TABLE IF NOT EXISTS hostile_deep (j jsonb)")
    world.conn.execute("TRUNCATE hostile_deep")
    world.conn.execute("INSERT INTO hostile_deep SELECT (repeat('[', %s) || repeat(']', %s))::jsonb",
                       (depth, depth))
    desc = "%d arrays deep" % depth
    return canonical_cases(world, group, entry, None, sqlstate, names, desc, table="hostile_deep")


def special_document_cases(world, group, entry, name, sqlstate, names):
    """Document faults that need more than one document or a NULL."""
    out = []
    if name == "doc_twice_other_status":
        for base in world.records:
            d = world.good_doc(base)
            other = set_in(d, ["run", "spec", "status"], "skipped")
            a, b = doc_text(d), doc_text(other)
            desc = "%s: one run twice, the second with status skipped" % base
            out.append(Case(group, entry, "ingest_bundles", desc, sqlstate, names,
                            lambda c, a=a, b=b: c.execute(
                                "SELECT kernelindex.ingest_bundles(ARRAY[%s::jsonb, %s::jsonb])", (a, b))))
            out.append(Case(group, entry, "INSERT", desc, sqlstate, names,
                            lambda c, a=a, b=b: c.execute(
                                "INSERT INTO kernelindex.documents VALUES (%s::jsonb), (%s::jsonb)", (a, b))))

            def cp(c, a=a, b=b):
                with c.cursor().copy(DOCUMENTS_COPY) as x:
                    x.write(a + "\n" + b + "\n")
            out.append(Case(group, entry, "COPY", desc, sqlstate, names, cp))
    elif name == "bundles_null":
        for base in world.records:
            g1, g2 = doc_text(world.good_doc(base)), doc_text(world.good_doc(base))
            out.append(Case(group, entry, "ingest_bundles", "%s: [good, NULL, good]" % base, sqlstate,
                            names, lambda c, g1=g1, g2=g2: c.execute(
                                "SELECT kernelindex.ingest_bundles(ARRAY[%s::jsonb, NULL, %s::jsonb])",
                                (g1, g2))))
    elif name == "bundles_empty_second":
        for base in world.records:
            g1 = doc_text(world.good_doc(base))
            out.append(Case(group, entry, "ingest_bundles", "%s: [good, {}]" % base, sqlstate, names,
                            lambda c, g1=g1: c.execute(
                                "SELECT kernelindex.ingest_bundles(ARRAY[%s::jsonb, '{}'])", (g1,))))
    return out


def csv_file_for(world, name):
    """The malformed CSV files of the liger_rows COPY generators."""
    header = csv_line(world.liger_header)
    good = csv_line(world.good_row("speed"))
    row = world.good_row("speed")
    if name == "csv_short_row":
        return header + good + csv_line(row)[:-1].rsplit(",", 1)[0] + "\n"
    if name == "csv_long_row":
        return header + good + csv_line(row)[:-1] + ",extra\n"
    if name == "csv_bad_header":
        h = list(world.liger_header)
        h[8] = "y50"
        return csv_line(h) + good
    if name == "csv_unterminated_quote":
        return header + good + csv_line(row)[:-1] + ',"never closed\n'
    if name == "csv_bad_utf8":
        row[12] = "NVIDIA \udcff"
        return (header + good).encode() + csv_line(row).encode("utf-8", "surrogateescape")
    if name == "csv_nul_byte":
        row[12] = "NVIDIA\x00B200"
        return header + good + csv_line(row)
    raise KeyError(name)


# ---------------------------------------------------------------------------
# Building the cases of a catalogue line
# ---------------------------------------------------------------------------

@dataclass
class Line:
    entry: str
    fault: str
    input: str
    sqlstate: str
    names: List[str]


def read_catalogue():
    lines = []
    with open(CATALOGUE, encoding="utf-8") as f:
        for k, raw in enumerate(f):
            raw = raw.rstrip("\n")
            if k == 0 or raw.startswith("#") or not raw:
                continue
            parts = raw.split("\t")
            if len(parts) == 4:
                parts.append("")
            if len(parts) != 5:
                sys.exit("catalogue.tsv line %d: %d fields, not 5" % (k + 1, len(parts)))
            names = [n for n in parts[4].split("|") if n != ""]
            lines.append(Line(parts[0], parts[1], parts[2], parts[3], names))
    return lines


def build(world, line):
    """The cases of one catalogue line."""
    group = "%s: %s" % (line.entry, line.fault)
    e, inp, st, names = line.entry, line.input, line.sqlstate, line.names
    cases = []

    def emit_with(make):
        def emit(value, nm, desc, base=None, sqlstate=None):
            cases.extend(make(value, nm, desc, base, sqlstate or st))
        return emit

    gen = inp[4:] if inp.startswith("gen:") else None
    if e == "kidx_digest text":
        make = (lambda v, nm, d, b, s: digest_text_cases(world, group, e, v, s, nm, d))
        if gen:
            GENERATORS[gen](world, emit_with(make), names)
        else:
            cases += make(text_value(world, inp), names, shorten(inp), None, st)
    elif e in ("kidx_digest bytea", "kidx_digest_recv"):
        cases += digest_binary_cases(world, group, e, inp, st, names, shorten(inp))
    elif e == "binary COPY file":
        cases += binary_file_cases(world, group, e, inp, st, names, inp[5:])
    elif e in ("canonical", "kidx_resource_digest"):
        make = (lambda v, nm, d, b, s: canonical_cases(world, group, e, v, s, nm, d))
        if gen == "deep_nesting":
            cases += deep_nesting_cases(world, group, e, st, names)
        elif gen:
            GENERATORS[gen](world, emit_with(make), names)
        else:
            cases += make(inp, names, shorten(inp), None, st)
    elif re.fullmatch(r"(units|kidx_ms_to_ns|kidx_mib_to_bytes)\(.*\)", e):
        cases += units_cases(world, group, e, inp, st, names, shorten(inp))
    elif e == "documents":
        make = (lambda v, nm, d, b, s: document_cases(world, group, e, v, s, nm, d, b))
        if gen in ("doc_twice_other_status",):
            cases += special_document_cases(world, group, e, gen, st, names)
        elif gen:
            GENERATORS[gen](world, emit_with(make), names)
        else:
            for base, doc, desc in mutate(world, inp):
                cases += make(doc, names, desc, base, st)
    elif e == "ingest_bundles":
        cases += special_document_cases(world, group, e, gen, st, names)
    elif e in ("documents COPY", "documents INSERT"):
        path = e.split(" ")[1]
        if inp.startswith("sql:"):
            value = None
        else:
            value = unescape(inp[5:])
        cases += document_cases(world, group, "documents", value, st, fill(names, n=2),
                                shorten(inp), None, paths=(path,))
        for c in cases:
            c.entry = e
    elif e == "liger_rows":
        if gen == "csv_deep_config":
            for depth in (100, world.deep_depth() - 8):
                for base in ("speed", "memory"):
                    row = list(world.liger_rows[base])
                    row[11] = '{"B": ' + "[" * depth + "]" * depth + "}"
                    cases += liger_cases(world, group, e, base, row, st, names,
                                         "%s: a config %d levels deep" % (base, depth + 1))
        else:
            m = re.fullmatch(r"(speed|memory|both) (\w+)=(.*)", inp, re.S)
            if st == "accepted":
                for base in (["speed", "memory"] if m.group(1) == "both" else [m.group(1)]):
                    row = world.good_row(base)
                    row[LIGER_COLUMNS.index(m.group(2))] = unescape(m.group(3))
                    cases += liger_accepted_cases(world, group, e, base, row,
                                                  "%s: %s=%s" % (base, m.group(2), shorten(m.group(3), 40)))
                return cases
            bases = ["speed", "memory"] if m.group(1) == "both" else [m.group(1)]
            col, value = m.group(2), m.group(3)
            value = None if value == "NULL" else unescape(value)
            for base in bases:
                row = list(world.liger_rows[base])
                row[LIGER_COLUMNS.index(col)] = value
                cases += liger_cases(world, group, e, base, row, st, names,
                                     "%s: %s=%s" % (base, col, shorten(str(value), 40)))
    elif e == "liger_rows COPY":
        cases += liger_copy_file_cases(world, group, e, csv_file_for(world, gen), st, names, gen)
    elif e == "run_rows":
        if gen:
            for base, changes, desc in rr_generated(world, gen):
                row = dict(RR_BASES[base], **changes)
                cases += rr_cases(world, group, e, base, row, st, names, desc)
            return cases
        m = re.fullmatch(r"(latency|memory|both) (\w+)=(.*)", inp, re.S)
        bases = ["latency", "memory"] if m.group(1) == "both" else [m.group(1)]
        col, value = m.group(2), m.group(3)
        if col not in RR_COLUMNS and col != "omit":
            sys.exit("catalogue.tsv: run_rows has no column %r" % col)
        for base in bases:
            row = dict(RR_BASES[base])
            if col == "omit":
                for c in value.split(","):
                    row.pop(c, None)
                d = "%s: without %s" % (base, value)
            else:
                row[col] = None if value == "NULL" else text_value(world, value)
                d = "%s: %s=%s" % (base, col, shorten(str(value if value.startswith("sql:") else row[col]), 40))
            if st == "accepted":
                cases += rr_accepted_cases(world, group, e, base, row, d)
            else:
                cases += rr_cases(world, group, e, base, row, st, names, d)
    elif e == "run_rows COPY":
        data, cols = rr_file_for(world, gen)
        cases += rr_copy_file_cases(world, group, e, data, cols, st, names, gen)
    elif e == "on_bad_row":
        cases += on_bad_row_cases(world, group, e, unescape(inp), st, names, shorten(inp))
    elif e == "settings":
        cases += settings_cases(world, group, e, inp, st, names, shorten(inp))
    else:
        sys.exit("catalogue.tsv: unknown entry point %r" % e)
    return cases


# ---------------------------------------------------------------------------
# Running a case
# ---------------------------------------------------------------------------

def connect():
    conn = psycopg.connect("", autocommit=True, client_encoding="UTF8")
    return conn


def error_text(err):
    d = err.diag
    return "\n".join(x for x in (d.message_primary, d.message_detail, d.message_hint) if x)


def check_refusal(case, err):
    """Problems with how an error refuses the input."""
    problems = []
    d = err.diag
    if d.sqlstate != case.sqlstate:
        problems.append("SQLSTATE %s, expected %s" % (d.sqlstate, case.sqlstate))
    if not d.message_primary:
        problems.append("an empty message")
    elif len(d.message_primary) > 600:
        problems.append("a message of %d characters" % len(d.message_primary))
    text = error_text(err)
    for n in case.names:
        if n not in text:
            problems.append("the message does not name %r" % n)
    ctx = d.context or ""
    if INTERNAL_CONTEXT.search(ctx) or d.internal_query:
        problems.append("an internal query leaks: %s" % shorten(d.internal_query or ctx, 200))
    if case.context and case.context not in ctx:
        problems.append("the CONTEXT does not say %r: %s" % (case.context, shorten(ctx, 100)))
    return problems


def alive(conn):
    try:
        return conn.execute("SELECT 1").fetchone()[0] == 1
    except psycopg.Error:
        return False


def probe_after(conn, case):
    """In one transaction: the bad input again in a savepoint, then a good one."""
    try:
        with conn.transaction():
            try:
                with conn.transaction():
                    case.run(conn)
            except psycopg.Error:
                pass
            else:
                return ["accepted inside a transaction"]
            case.probe(conn)
            raise psycopg.Rollback()
    except psycopg.Error as e:
        return ["after the refusal a good input failed in the same transaction: %s %s"
                % (e.diag.sqlstate, e.diag.message_primary)]
    except AssertionError as e:
        return ["after the refusal, in the same transaction: %s" % e]
    return []


def run_quarantine(conn, case):
    """A bad CSV row with on_bad_row = quarantine: kept, with its reason; nothing else stored."""
    problems = []
    got = None
    try:
        with conn.transaction():
            before = counts(conn)
            top = conn.execute("SELECT coalesce(max(id), 0) FROM kernelindex.rejected_rows").fetchone()[0]
            conn.execute("SET LOCAL kernelindex.on_bad_row = 'quarantine'")
            case.run(conn)
            after = counts(conn)
            if case.quarantine.get("source") == "run_rows":
                got = conn.execute("SELECT row_number, column_name, bad_value, reason, source, fields"
                                   " FROM kernelindex.rejected_rows WHERE id > %s ORDER BY id",
                                   (top,)).fetchall()
            else:
                got = conn.execute("SELECT row_number, column_name, bad_value, reason, " +
                                   ", ".join('"%s"' % c for c in LIGER_COLUMNS) +
                                   " FROM kernelindex.rejected_rows WHERE id > %s ORDER BY id",
                                   (top,)).fetchall()
            raise psycopg.Rollback()
    except psycopg.Error as e:
        return ["refused in quarantine mode: %s %s" % (e.diag.sqlstate, e.diag.message_primary)], None
    if after[:-1] != before[:-1]:
        problems.append("stored in quarantine mode: %s" % diff_counts(before, after))
    if len(got) != 1:
        problems.append("%d rejected rows kept, not 1" % len(got))
        return problems, None
    rn, colname, bad_value, reason = got[0][:4]
    message = 'bad value "%s" in column %s (row %s of this COPY): %s' % (bad_value, colname, rn, reason)
    for n in case.names:
        if n not in message:
            problems.append("the rejected row does not name %r: %s" % (n, shorten(message, 200)))
    if case.quarantine.get("source") == "run_rows":
        source, fields = got[0][4:]
        want = {k: v for k, v in case.quarantine["row"].items() if v is not None}
        if source != "run_rows":
            problems.append("kept with source %r, not 'run_rows'" % source)
        if fields != want:
            bad = sorted(k for k in set(fields or {}) | set(want) if (fields or {}).get(k) != want.get(k))
            problems.append("the row is not kept verbatim in fields: %s" % ", ".join(bad))
        return problems, message
    kept = list(got[0][4:])
    want = case.quarantine["row"]
    if kept != want:
        bad = [c for c, k, w in zip(LIGER_COLUMNS, kept, want) if k != w]
        problems.append("the row is not kept verbatim: %s" % ", ".join(bad))
    return problems, message


def diff_counts(before, after):
    return ", ".join("%s %+d" % (t, a - b) for t, b, a in zip(TABLES, before, after) if a != b)


def run_case(conn, world, case, verbose):
    """Run one case; returns (problems, conn) (a new connection if the old one died)."""
    if case.accept:
        problems = []
        try:
            with conn.transaction():
                problems = case.accept(conn)
                raise psycopg.Rollback()
        except psycopg.Error as e:
            problems = ["refused: %s %s" % (e.diag.sqlstate, e.diag.message_primary)]
        if verbose:
            print("      %-22s %s -> %s" % (case.path, case.desc, "; ".join(problems) or "accepted"))
        return problems, conn
    if case.quarantine:
        problems, message = run_quarantine(conn, case)
        if not alive(conn):
            problems.append("the server did not answer SELECT 1 afterwards")
            conn = reconnect(world)
        if verbose:
            print("      %-22s %s -> kept: %s" % (case.path, case.desc, shorten(message or "", 160)))
        return problems, conn
    problems = []
    before = counts(conn)
    err = None
    try:
        case.run(conn)
    except psycopg.Error as e:
        err = e
    if not alive(conn):
        problems.append("the server did not answer SELECT 1 afterwards (%s)" %
                        (err.diag.message_primary if err else "no error"))
        conn = reconnect(world)
        return problems, conn
    if err is None:
        problems.append("accepted")
    elif isinstance(err, psycopg.OperationalError) and err.diag.sqlstate is None:
        problems.append("connection error: %s" % err)
    else:
        problems += check_refusal(case, err)
    after = counts(conn)
    if after != before:
        problems.append("stored: %s" % diff_counts(before, after))
    if case.after:
        problems += case.after(conn)
    if case.probe and err is not None:
        problems += probe_after(conn, case)
    if verbose:
        print("      %-22s %s -> %s %s" % (case.path, case.desc, err.diag.sqlstate if err else "accepted",
                                          shorten(error_text(err).replace("\n", " / "), 200) if err else ""))
    return problems, conn


def reconnect(world):
    conn = connect()
    world.conn = conn
    world.setup(conn)
    return conn


def main(argv):
    verbose = "-v" in argv
    listing = "--list" in argv
    only = None
    if "--only" in argv:
        only = re.compile(argv[argv.index("--only") + 1])
    conn = connect()
    world = World(conn)
    lines = read_catalogue()
    total = refused = wrong = near = near_wrong = 0
    per_entry = {}
    for line in lines:
        group = "%s: %s" % (line.entry, line.fault)
        if only and not only.search(group):
            continue
        cases = build(world, line)
        if listing:
            for c in cases:
                print("%s\t%s\t%s\t%s\t%s" % (c.entry, c.path, c.desc, c.sqlstate, " | ".join(c.names)))
            continue
        bad = []
        for case in cases:
            problems, conn = run_case(conn, world, case, verbose)
            if problems:
                bad.append((case, problems))
        n, nw = len(cases), len(bad)
        if line.sqlstate == "accepted":
            near += n
            near_wrong += nw
        else:
            total += n
            wrong += nw
            refused += n - nw
            e = per_entry.setdefault(line.entry, [0, 0])
            e[0] += n
            e[1] += nw
        print("%-5s %s (%d %s%s)" % ("ok" if not bad else "WRONG", group, n, "case" if n == 1 else "cases",
                                     ", accepted" if line.sqlstate == "accepted" else ""))
        for case, problems in bad[:8]:
            print("        %s, %s: %s" % (case.path, case.desc, "; ".join(problems)))
        if len(bad) > 8:
            print("        ... and %d more" % (len(bad) - 8))
        sys.stdout.flush()
    if listing:
        return 0
    print()
    for entry, (n, nw) in per_entry.items():
        print("  %-34s %4d inputs, %4d wrong" % (entry, n, nw))
    if near:
        print("near misses (good inputs beside a fault): %d, %d accepted as expected, %d wrong"
              % (near, near - near_wrong, near_wrong))
    print("hostile: %d inputs, %d refused as expected, %d wrong" % (total, refused, wrong))
    return 1 if wrong or near_wrong or total == 0 else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
