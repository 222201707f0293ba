#!/usr/bin/python3
"""The figures kernelindex must show for a harness's result files, computed from
the files themselves (issue 25, item 4).

Usage: expect.py HARNESS FILE...     print the expected figures
       expect.py --self-test         check this script and to_run_rows.py offline

Independent of to_run_rows.py: it reads the original files with its own
parsers (never the converter's CSV) and applies the database's documented
arithmetic: a latency becomes whole nanoseconds, converted exactly in decimal
and rounded half away from zero; a speedup is float(reference_ns) /
float(own_ns) of the primary statistic, within one kernel, workload and GPU.

Output, one tab-separated record a line (\\N: no value):
  harness  NAME  TITLE  REFERENCE_IMPLEMENTATION
  runs     N                       (distinct measurements in the files)
  run      KERNEL LABEL GPU PROVIDER PRIMARY MEAN_NS STDDEV_NS MIN_NS MAX_NS SAMPLES
  pair     PROVIDER REFERENCE N    (runs of PROVIDER with a reference run)
  speedup  KERNEL LABEL GPU PROVIDER REFERENCE REF_NS OWN_NS SPEEDUP WELCH
  unit     KERNEL LABEL GPU PROVIDER COLUMN SOURCE_TEXT UNIT NS
GPU is the device name as the file writes it; SPEEDUP is Python's repr of the
double (it reads back as the same float8); WELCH is t where both runs have a
mean, a standard deviation and a sample count (so a Welch p-value exists).
"""

import csv
import decimal
import hashlib
import io
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "data", "harnesses")
NS_PER = {"s": decimal.Decimal(10) ** 9, "ms": decimal.Decimal(10) ** 6,
          "us": decimal.Decimal(10) ** 3, "ns": decimal.Decimal(1)}
STATS = ("mean", "stddev", "min", "max")
COLUMNS = ["harness", "harness_version", "timer", "kernel", "pass", "implementation", "workload",
           "workload_label", "gpu", "observed_at", "release", "labels", "status", "metric",
           "unit", "primary_statistic", "median", "p20", "p80", "mean", "stddev", "min", "max",
           "samples"]


# Whole nanoseconds of a decimal text in a unit: exact, rounded half away from zero.
def to_ns(text, unit):
    value = decimal.Decimal(text) * NS_PER[unit]
    whole = abs(value).quantize(decimal.Decimal(1), rounding=decimal.ROUND_HALF_UP)
    return int(-whole if value < 0 else whole)


# KernelBench: every non-null problem of every baseline_time_<config>.json file.
def kernelbench_runs(paths):
    runs = []
    for path in paths:
        provider = os.path.basename(path)[len("baseline_time_"):-len(".json")]
        with open(path, encoding="utf-8") as f:
            data = json.loads(f.read(), parse_float=decimal.Decimal, parse_int=decimal.Decimal)
        for level, problems in data.items():
            for problem, s in problems.items():
                if s is None:
                    continue
                runs.append({"kernel": re.sub(r"\.py$", "", problem), "label": level,
                             "gpu": s["hardware"], "provider": provider, "unit": "ms",
                             "primary": "mean", "samples": int(s["num_trials"]),
                             "text": {"mean": str(s["mean"]), "stddev": str(s["std"]),
                                      "min": str(s["min"]), "max": str(s["max"])}})
    return runs


# BabelStream 3.4: every kernel line of every run (a run starts at a "BabelStream" line).
def babelstream_runs(paths):
    runs = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for block in re.split(r"^BabelStream\n", text, flags=re.M)[1:]:
            field = dict(re.findall(r"^(Implementation|Precision|Array size): (.*)$", block, re.M))
            device = re.search(r"^Using \S+ device (.*)$", block, re.M).group(1)
            times = int(re.search(r"^Running kernels (\d+) times$", block, re.M).group(1))
            mb = re.match(r"([0-9.]+) MB", field["Array size"]).group(1)
            for kernel, low, high, average in re.findall(
                    r"^(Copy|Mul|Add|Triad|Dot)\s+\S+\s+(\S+)\s+(\S+)\s+(\S+)\s*$", block, re.M):
                runs.append({"kernel": kernel, "label": f"{field['Precision']}-{mb}MB",
                             "gpu": device, "provider": field["Implementation"], "unit": "s",
                             "primary": "min", "samples": times - 1,
                             "text": {"mean": average, "stddev": None, "min": low, "max": high}})
    return runs


HARNESSES = {"kernelbench": ("KernelBench", "torch", kernelbench_runs),
             "babelstream": ("BabelStream", "CUDA", babelstream_runs)}


# The identity of a run within its harness: kernel, workload label, GPU, provider.
def identity(run):
    return (run["kernel"], run["label"], run["gpu"], run["provider"])


# A run's statistic in nanoseconds, or None.
def ns_of(run, stat):
    text = run["text"][stat]
    return None if text is None else to_ns(text, run["unit"])


# Every (reference, own) pair of runs of one kernel, workload and GPU, in file order.
def pairs(runs, reference):
    refs = {identity(r)[:3]: r for r in runs if r["provider"] == reference}
    return [(refs[identity(r)[:3]], r) for r in runs
            if r["provider"] != reference and identity(r)[:3] in refs]


# The expected-figure lines for a harness's files.
def expected_lines(harness, paths):
    title, reference, reader = HARNESSES[harness]
    runs = reader(paths)
    keys = [identity(r) for r in runs]
    if len(set(keys)) != len(keys):
        raise SystemExit(f"expect.py: two measurements of one run in {paths}")
    out = [("harness", harness, title, reference), ("runs", len(runs))]
    for r in runs:
        out.append(("run",) + identity(r) + (r["primary"],)
                   + tuple(ns_of(r, s) for s in STATS) + (r["samples"],))
    found = pairs(runs, reference)
    for provider in dict.fromkeys(own["provider"] for _, own in found):
        out.append(("pair", provider, reference, sum(own["provider"] == provider for _, own in found)))
    for ref, own in found:
        ref_ns, own_ns = ns_of(ref, ref["primary"]), ns_of(own, own["primary"])
        welch = all(r["text"]["mean"] and r["text"]["stddev"] and r["samples"] for r in (ref, own))
        out.append(("speedup",) + identity(own) + (reference, ref_ns, own_ns,
                                                   repr(float(ref_ns) / float(own_ns)),
                                                   "t" if welch else "f"))
    r = runs[0]
    stat = "stddev" if r["text"]["stddev"] is not None else "mean"
    out.append(("unit",) + identity(r) + (stat, r["text"][stat], r["unit"], ns_of(r, stat)))
    return ["\t".join("\\N" if v is None else str(v) for v in line) for line in out]


# The data files of a harness directory, sorted (everything but LICENSE and SOURCE.md).
def data_files(harness):
    root = os.path.join(DATA, harness)
    found = []
    for directory, _, names in os.walk(root):
        found += [os.path.join(directory, n) for n in names if n not in ("LICENSE", "SOURCE.md")]
    return sorted(found)


# The rows of SOURCE.md's table "Files": file -> (blob, bytes, observed_at).
def source_table(harness):
    rows = {}
    with open(os.path.join(DATA, harness, "SOURCE.md"), encoding="utf-8") as f:
        for line in f:
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if len(cells) == 6 and cells[0].startswith("`"):
                rows[cells[0].strip("`")] = (cells[3].strip("`"), int(cells[4]), cells[5])
    return rows


# Offline checks of the data, the arithmetic and the converter's output against this script.
def self_test():
    failures, count = [], 0

    # Count one check; keep what it found if it fails.
    def check(name, expected, actual):
        nonlocal count
        count += 1
        if expected != actual:
            failures.append(f"{name}: expected {expected!r}, got {actual!r}")

    for text, unit, ns in [("0.0123456785", "ms", 12346), ("0.0123456784", "ms", 12346),
                           ("0.00039", "s", 390000), ("2.5", "ns", 3), ("-2.5", "ns", -3),
                           ("0.0000005", "ms", 1), ("0.0000004999", "ms", 0), ("1e-3", "s", 1000000),
                           ("2720.0", "ms", 2720000000), ("0.0696", "ms", 69600), ("1.5", "us", 1500)]:
        check(f"to_ns({text} {unit})", ns, to_ns(text, unit))
    check("speedup of 2 ns over 3 ns", repr(2 / 3), repr(float(2) / float(3)))
    for harness in HARNESSES:
        paths = data_files(harness)
        table = source_table(harness)
        root = os.path.join(DATA, harness)
        check(f"{harness}: files listed in SOURCE.md", sorted(table),
              sorted(os.path.relpath(p, root) for p in paths))
        for path in paths:
            with open(path, "rb") as f:
                content = f.read()
            blob = hashlib.sha1(b"blob %d\0" % len(content) + content).hexdigest()
            rel = os.path.relpath(path, root)
            check(f"{harness}/{rel}: git blob", table.get(rel, (None,))[0], blob)
            check(f"{harness}/{rel}: bytes", table.get(rel, (None, None))[1], len(content))
        runs = HARNESSES[harness][2](paths)
        converted = subprocess.run([sys.executable, os.path.join(HERE, "to_run_rows.py"), harness]
                                   + paths, check=True, capture_output=True, text=True).stdout
        reader = csv.DictReader(io.StringIO(converted))
        header = reader.fieldnames
        check(f"{harness}: header columns from the fixed list", [], [c for c in header if c not in COLUMNS])
        check(f"{harness}: header in the list's order", sorted(header, key=COLUMNS.index), header)
        check(f"{harness}: required columns", [],
              [c for c in ("harness", "kernel", "implementation", "gpu", "observed_at", "unit",
                           "workload_label") if c not in header])
        rows = list(reader)
        check(f"{harness}: rows", len(runs), len(rows))
        by_id = {identity(r): r for r in runs}
        sources = {}
        for path in paths:
            with open(path, encoding="utf-8") as f:
                sources[path] = f.read()
        seen = set()
        for row in rows:
            key = (row["kernel"], row["workload_label"], row["gpu"], row["implementation"])
            check(f"{harness}: row {key} is a measurement of the files", True, key in by_id)
            check(f"{harness}: row {key} once", False, key in seen)
            seen.add(key)
            run = by_id.get(key)
            if run is None:
                continue
            check(f"{harness} {key}: harness", harness, row["harness"])
            check(f"{harness} {key}: unit", run["unit"], row["unit"])
            check(f"{harness} {key}: primary_statistic", run["primary"], row["primary_statistic"])
            check(f"{harness} {key}: samples", str(run["samples"]), row["samples"])
            for stat in STATS:
                text = row.get(stat) or None
                check(f"{harness} {key}: {stat} text", run["text"][stat], text)
                if text is not None:
                    check(f"{harness} {key}: {stat} text in the file", True,
                          any(re.search(r"(?<![0-9.])" + re.escape(text) + r"(?![0-9])", s)
                              for s in sources.values()))
            check(f"{harness} {key}: workload is an object", dict, type(json.loads(row["workload"])))
            check(f"{harness} {key}: labels is an object", dict, type(json.loads(row["labels"])))
            check(f"{harness} {key}: observed_at is RFC 3339", True, bool(re.fullmatch(
                r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(Z|[+-]\d\d:\d\d)", row["observed_at"])))
        lines = expected_lines(harness, paths)
        check(f"{harness}: runs line", f"runs\t{len(runs)}", lines[1])
        check(f"{harness}: at least one implementation pair", True,
              any(line.startswith("pair\t") for line in lines))
    for failure in failures:
        print(f"FAILED: {failure}")
    print(f"self-test: {count - len(failures)} of {count} checks passed")
    return 1 if failures else 0


# Print the expected figures, or run the self-test.
def main(argv):
    if argv[1:] == ["--self-test"]:
        sys.exit(self_test())
    if len(argv) < 3 or argv[1] not in HARNESSES:
        sys.exit(f"usage: expect.py {{{'|'.join(HARNESSES)}}} FILE... | expect.py --self-test")
    print("\n".join(expected_lines(argv[1], argv[2:])))


if __name__ == "__main__":
    main(sys.argv)
