#!/usr/bin/python3
"""Turn harness result files into CSV for kernelindex.run_rows (issue 25, item 4).

Usage: to_run_rows.py HARNESS FILE... > out.csv

HARNESS is kernelbench (KernelBench's results/timing/<dir>/baseline_time_*.json)
or babelstream (BabelStream 3.4 text output). Writes one CSV with a header line
naming exactly the columns it fills, one row per measurement in the files.
Statistics are copied as the source wrote them (decimal text, never re-printed
floats). A file without a timestamp gets the observed_at its SOURCE.md lists
(test/data/harnesses/<harness>/SOURCE.md, table "Files"). Python 3 standard
library only.
"""

import csv
import decimal
import json
import os
import re
import sys

KERNELBENCH_COLUMNS = ["harness", "timer", "kernel", "pass", "implementation", "workload",
                       "workload_label", "gpu", "observed_at", "labels", "metric", "unit",
                       "primary_statistic", "mean", "stddev", "min", "max", "samples"]
BABELSTREAM_COLUMNS = ["harness", "harness_version", "timer", "kernel", "implementation",
                       "workload", "workload_label", "gpu", "observed_at", "labels", "metric",
                       "unit", "primary_statistic", "mean", "min", "max", "samples"]
ZONES = {"UTC": "+00:00", "GMT": "+00:00", "BST": "+01:00", "CET": "+01:00", "CEST": "+02:00"}
MONTHS = {m: i + 1 for i, m in enumerate(
    ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"])}
RFC3339 = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$")


class SourceNumber(str):
    """A JSON number kept as the text the file wrote."""


# Stop with a message naming the file.
def fail(path, message):
    sys.exit(f"to_run_rows.py: {path}: {message}")


# The statistic's text as written, after checking that Decimal reads it and prints it back unchanged.
def decimal_text(path, text):
    try:
        value = decimal.Decimal(text)
    except decimal.InvalidOperation:
        fail(path, f"not a decimal number: {text!r}")
    if str(value) != text or not value.is_finite():
        fail(path, f"number {text!r} would not be copied as written (Decimal prints {value})")
    return str(value)


# The observed_at SOURCE.md (beside the file, or a directory above it) gives the file.
def listed_observed_at(path):
    directory = os.path.dirname(os.path.abspath(path))
    while True:
        source = os.path.join(directory, "SOURCE.md")
        if os.path.exists(source):
            break
        if os.path.dirname(directory) == directory:
            fail(path, "no SOURCE.md beside it or above it")
        directory = os.path.dirname(directory)
    relative = os.path.relpath(os.path.abspath(path), directory)
    with open(source, encoding="utf-8") as f:
        for line in f:
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if len(cells) == 6 and cells[0] == f"`{relative}`":
                if not RFC3339.match(cells[5]):
                    fail(source, f"observed_at of {relative} is not RFC 3339: {cells[5]!r}")
                return cells[5]
    fail(path, f"{source} lists no observed_at for {relative}")


# One row per non-null problem of a KernelBench baseline timing file.
def kernelbench_rows(path):
    name = os.path.basename(path)
    match = re.fullmatch(r"baseline_time_(.+)\.json", name)
    if not match:
        fail(path, "not a KernelBench baseline_time_<config>.json file")
    implementation = match.group(1)
    results_dir = os.path.basename(os.path.dirname(os.path.abspath(path)))
    observed_at = listed_observed_at(path)
    with open(path, encoding="utf-8") as f:
        data = json.load(f, parse_float=SourceNumber, parse_int=SourceNumber)
    for level, problems in data.items():
        level_match = re.fullmatch(r"level(\d+)", level)
        if not level_match:
            fail(path, f"unexpected top-level key {level!r}")
        for problem, stats in problems.items():
            if stats is None:
                continue                    # the problem did not run: no measurement
            if not problem.endswith(".py"):
                fail(path, f"unexpected problem name {problem!r}")
            yield {
                "harness": "kernelbench",
                "timer": "cuda_events",
                "kernel": problem[:-3],
                "pass": "forward",
                "implementation": implementation,
                "workload": json.dumps({"level": int(level_match.group(1))}),
                "workload_label": level,
                "gpu": stats["hardware"],
                "observed_at": observed_at,
                "labels": json.dumps({"results_dir": results_dir}),
                "metric": "latency",
                "unit": "ms",
                "primary_statistic": "mean",
                "mean": decimal_text(path, stats["mean"]),
                "stddev": decimal_text(path, stats["std"]),
                "min": decimal_text(path, stats["min"]),
                "max": decimal_text(path, stats["max"]),
                "samples": str(int(stats["num_trials"])),
            }


# The RFC 3339 form of a `date` line such as "Tue 21 Jul 12:01:24 BST 2020", or None.
def date_line(line):
    m = re.fullmatch(r"[A-Z][a-z]{2} +(\d{1,2}) ([A-Z][a-z]{2}) (\d\d:\d\d:\d\d) ([A-Z]{3,4}) (\d{4})", line)
    if not m or m.group(2) not in MONTHS or m.group(4) not in ZONES:
        return None
    day, month, clock, zone, year = m.groups()
    return f"{year}-{MONTHS[month]:02d}-{int(day):02d}T{clock}{ZONES[zone]}"


# One row per kernel line of a BabelStream 3.4 output (one or more runs in a file).
def babelstream_rows(path):
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    observed_at = date_line(lines[0]) if lines else None
    if observed_at is None:
        observed_at = listed_observed_at(path)
    run = None
    for number, line in enumerate(lines, 1):
        if line == "BabelStream":
            run = {}
            continue
        if run is None:
            continue
        header = re.fullmatch(r"(Version|Implementation|Precision|Driver): (.+)", line)
        if header:
            run[header.group(1)] = header.group(2)
            continue
        m = re.fullmatch(r"Running kernels (\d+) times", line)
        if m:
            run["num_times"] = int(m.group(1))
            continue
        m = re.fullmatch(r"Array size: ([0-9.]+) MB \(=[0-9.]+ GB\)", line)
        if m:
            run["array_mb"] = m.group(1)
            continue
        m = re.fullmatch(r"Using (\S+) device (.+)", line)
        if m:
            run["device"] = m.group(2)
            continue
        m = re.fullmatch(r"(Copy|Mul|Add|Triad|Dot) +(\S+) +(\S+) +(\S+) +(\S+) *", line)
        if m:
            for key in ("Version", "Implementation", "Precision", "num_times", "array_mb", "device"):
                if key not in run:
                    fail(path, f"line {number}: kernel result before the run's {key} line")
            kernel, _mbytes, low, high, average = m.groups()
            yield {
                "harness": "babelstream",
                "harness_version": run["Version"],
                "timer": "wall_clock",
                "kernel": kernel,
                "implementation": run["Implementation"],
                "workload": '{"array_size_mb": %s, "precision": %s}'
                            % (decimal_text(path, run["array_mb"]), json.dumps(run["Precision"])),
                "workload_label": f"{run['Precision']}-{run['array_mb']}MB",
                "gpu": run["device"],
                "observed_at": observed_at,
                "labels": json.dumps({"driver": run.get("Driver", "")}),
                "metric": "latency",
                "unit": "s",
                "primary_statistic": "min",
                "mean": decimal_text(path, average),
                "min": decimal_text(path, low),
                "max": decimal_text(path, high),
                "samples": str(run["num_times"] - 1),   # the first iteration is not counted
            }


HARNESSES = {"kernelbench": (KERNELBENCH_COLUMNS, kernelbench_rows),
             "babelstream": (BABELSTREAM_COLUMNS, babelstream_rows)}


# Write the CSV of every file named on the command line.
def main(argv):
    if len(argv) < 3 or argv[1] not in HARNESSES:
        sys.exit(f"usage: to_run_rows.py {{{'|'.join(HARNESSES)}}} FILE... > out.csv")
    columns, rows = HARNESSES[argv[1]]
    out = csv.DictWriter(sys.stdout, fieldnames=columns, lineterminator="\n")
    out.writeheader()
    for path in argv[2:]:
        for row in rows(path):
            out.writerow(row)


if __name__ == "__main__":
    main(sys.argv)
