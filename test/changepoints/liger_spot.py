"""Liger CSV rows for the change-point spot-check (test/changepoints/liger_spot.sh).

    liger_spot.py union OUT.csv VERSION.csv...
        the distinct rows of every version (blank lines dropped), with the
        header: the history as one file; prints the number of series and
        the runs in the longest.
    liger_spot.py synthetic SOURCE.csv OUT.csv
        a history of 30 releases (liger_version 1.0.0 to 1.0.29) built from
        the first run of every latency series of SOURCE (at most 400): each
        release measures it again with 2% Gaussian noise (seed 26) and a
        p20-p80 band of +-1%; one series in five regresses by 15-35% from a
        release between 8 and 21 on, one in five improves by as much; one
        second apart, a day between releases.
    liger_spot.py check HISTORY.csv CHANGES.csv
        the spot-check: for every change of CHANGES (the view's rows: kernel,
        provider, pass, metric, observed_before, observed_after,
        release_before, release_after, level_before, level_after, ratio,
        points_before, points_after), the series it is in is found from the
        CSV rows alone (the run measured at observed_after, the same kernel,
        provider and pass: its series is every row with its kernel,
        provider, pass, metric, x_name, x_label, x_value, config and GPU), in
        the view's order (release in version order, then time); the
        points_before runs before that run and the points_after from it on
        must give the view's levels (their medians, ms as ns, MB as MiB in
        bytes) within one ns or byte (the store keeps whole ones) and the
        ratio as closely, and the view's releases and times either side.  Prints one
        line per change checked; exit status 1 on any difference.
"""

import csv
import datetime
import random
import statistics
import sys

KEY = ("kernel_name", "kernel_provider", "kernel_operation_mode", "metric_name", "x_name",
       "x_label", "x_value", "extra_benchmark_config_str", "gpu_name")
UNIT = {"ms": 1e6, "MB": 1048576.0}
METRIC = {"speed": "latency", "memory": "peak_memory"}


def read_rows(path):
    """The header and the rows of a CSV file, blank lines dropped."""
    with open(path, newline="") as f:
        r = csv.reader(f)
        header = next(r)
        return header, [row for row in r if row and any(row)]


def version_key(v):
    """Version order: 0.5.10 after 0.5.9."""
    return tuple(int(p) if p.isdigit() else p for p in v.split("."))


def union(out, paths):
    """Every version's distinct rows, in one file."""
    seen = set()
    rows = []
    header = None
    for p in paths:
        header, rs = read_rows(p)
        for row in rs:
            t = tuple(row)
            if t not in seen:
                seen.add(t)
                rows.append(row)
    with open(out, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(rows)
    col = {c: i for i, c in enumerate(header)}
    series = {}
    for row in rows:
        k = tuple(row[col[c]] for c in KEY)
        series[k] = series.get(k, 0) + 1
    print("%d distinct rows, %d series, the longest %d runs"
          % (len(rows), len(series), max(series.values(), default=0)))


def synthetic(source, out):
    """A 30-release history with planted changes, from source's series."""
    header, rows = read_rows(source)
    col = {c: i for i, c in enumerate(header)}
    first = {}
    for row in rows:
        if row[col["metric_name"]] != "speed":
            continue
        try:
            if float(row[col["y_value_50"]]) <= 0:
                continue
        except ValueError:
            continue
        first.setdefault(tuple(row[col[c]] for c in KEY), row)
    bases = list(first.values())[:400]
    rng = random.Random(26)
    with open(out, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        for idx, base in enumerate(bases):
            y = float(base[col["y_value_50"]])
            start = 8 + idx % 14
            size = 0.15 + 0.2 * rng.random()
            step = 1 + size if idx % 5 == 0 else 1 - size if idx % 5 == 1 else 1.0
            for r in range(30):
                v = y * (1 + 0.02 * rng.gauss(0, 1)) * (step if r >= start else 1.0)
                row = list(base)
                row[col["y_value_50"]] = repr(v)
                row[col["y_value_20"]] = repr(v * 0.99)
                row[col["y_value_80"]] = repr(v * 1.01)
                t = 1798761600 + r * 86400 + idx   # 2027-01-01 00:00:00 UTC on
                row[col["timestamp"]] = "%04d-%02d-%02d %02d:%02d:%02d" % time_parts(t)
                row[col["liger_version"]] = "1.0.%d" % r
                w.writerow(row)
    print("%d series of 30 releases" % len(bases))


def time_parts(t):
    """A Unix time as (year, month, day, hour, minute, second), UTC."""
    d = datetime.datetime.fromtimestamp(t, datetime.timezone.utc)
    return d.year, d.month, d.day, d.hour, d.minute, d.second


def median(xs):
    """The median (the mean of the two middle values of an even count)."""
    return statistics.median(xs)


def close(a, b, slack=1.0):
    """a and b equal within slack (the store keeps whole ns and bytes: a
    median of rounded runs is within one unit of the runs' median) and a
    relative 1e-9."""
    return abs(a - b) <= slack + 1e-9 * max(abs(a), abs(b))


def check(history, changes):
    """The view's changes against the CSV rows; 0 when all agree."""
    header, rows = read_rows(history)
    col = {c: i for i, c in enumerate(header)}
    series = {}
    for row in rows:
        series.setdefault(tuple(row[col[c]] for c in KEY), []).append(row)
    for rs in series.values():
        rs.sort(key=lambda row: (version_key(row[col["liger_version"]]), row[col["timestamp"]]))
    by_time = {}
    for k, rs in series.items():
        for i, row in enumerate(rs):
            by_time.setdefault((row[col["timestamp"]], k[0], k[1], k[2], METRIC.get(k[3])), []).append((k, i))
    failed = 0
    with open(changes, newline="") as f:
        for ch in csv.DictReader(f):
            where = (ch["observed_after"], ch["kernel"], ch["provider"], ch["pass"], ch["metric"])
            pb, pa = int(ch["points_before"]), int(ch["points_after"])
            found = [(k, i) for k, i in by_time.get(where, [])
                     if i >= pb and i + pa <= len(series[k])]
            what = "%s %s %s %s, %s -> %s" % (ch["kernel"], ch["provider"], ch["pass"], ch["gpu"],
                                             ch["release_before"], ch["release_after"])
            if len(found) != 1:
                print("FAILED: %s: %d series of the CSV rows have a run at %s with %d runs before and %d after"
                      % (what, len(found), ch["observed_after"], pb, pa))
                failed += 1
                continue
            k, i = found[0]
            rs = series[k]
            unit = UNIT[rs[i][col["metric_unit"]]]
            before = median([float(r[col["y_value_50"]]) for r in rs[i - pb:i]]) * unit
            after = median([float(r[col["y_value_50"]]) for r in rs[i:i + pa]]) * unit
            wrong = []
            if not close(before, float(ch["level_before"])):
                wrong.append("level before %s, the runs' median %r" % (ch["level_before"], before))
            if not close(after, float(ch["level_after"])):
                wrong.append("level after %s, the runs' median %r" % (ch["level_after"], after))
            if not close(after / before, float(ch["ratio"]), after / before * (1 / before + 1 / after)):
                wrong.append("ratio %s, the runs' %r" % (ch["ratio"], after / before))
            if rs[i - 1][col["liger_version"]] != ch["release_before"] or \
                    rs[i][col["liger_version"]] != ch["release_after"]:
                wrong.append("releases %s -> %s, the runs' %s -> %s" % (
                    ch["release_before"], ch["release_after"], rs[i - 1][col["liger_version"]],
                    rs[i][col["liger_version"]]))
            if rs[i - 1][col["timestamp"]] != ch["observed_before"]:
                wrong.append("observed before %s, the run's %s" % (ch["observed_before"], rs[i - 1][col["timestamp"]]))
            if wrong:
                print("FAILED: %s: %s" % (what, "; ".join(wrong)))
                failed += 1
            else:
                print("ok: %s: %d runs at %.6g, %d at %.6g (the CSV rows' medians): ratio %.4f, p %s"
                      % (what, pb, before, pa, after, after / before, ch["p_value"]))
    return 1 if failed else 0


if __name__ == "__main__":
    if sys.argv[1] == "union":
        union(sys.argv[2], sys.argv[3:])
    elif sys.argv[1] == "synthetic":
        synthetic(sys.argv[2], sys.argv[3])
    elif sys.argv[1] == "check":
        sys.exit(check(sys.argv[2], sys.argv[3]))
    else:
        sys.exit("usage: see the module's text")
