"""The quality figures of change points against the planted truth.

    score.py DIR [--db DB.csv] [--max-p P] [--min-shift S] [--noise-floor F]
             [--min-points L] [--contract]

Reads DIR/points.csv and DIR/truth.csv (generate.py), runs the reference
implementation (reference.py) on every series with the settings given
(defaults: the settings' defaults), and prints one line per noise family:
series, points, planted, detected, precision, recall, null-flag rate,
drift found, agreement.  With --db, DB.csv holds the database's answers,
(series, pos, p) for every row where kernelindex.change_point was not NULL:
the quality figures are then the database's, and agreement is the share of
series where the database's change positions equal the reference's with
every p-value equal to a relative 1e-9 (or both below 1e-300).  Without
--db the figures are the reference's and agreement is not measured.
--contract measures reference.py's steps 1-7 alone (without 3b and 7b, as
the method was first written: the figures that show why they are there).

A detected change is correct when it is within one point of a planted one
(each planted change matched at most once, the nearest first); precision =
correct / detected over the step and null series, recall = matched /
planted; the null-flag rate is the share of series without a planted change
(step series with none, and null series) with any change detected; a drift
series is found when a change is detected within its ramp r..r+4, one point
either side.  Targets: precision >= 0.95, recall >= 0.90, null-flag rate <=
0.01, drift found >= 0.90, agreement 1 (with --db).  Exit status 1 when one
is missed, with a line saying which.
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import generate  # noqa: E402
import reference  # noqa: E402

TARGETS = {"precision": 0.95, "recall": 0.90, "null_flag": 0.01, "drift": 0.90}


def match(detected, planted):
    """The number of detected changes within one point of a planted one,
    each planted matched at most once (exact matches first)."""
    free = set(planted)
    hits = 0
    rest = []
    for k in detected:
        if k in free:
            free.discard(k)
            hits += 1
        else:
            rest.append(k)
    for k in rest:
        for c in (k - 1, k + 1):
            if c in free:
                free.discard(c)
                hits += 1
                break
    return hits


def same_p(p, q):
    """p and q equal to a relative 1e-9, or both below 1e-300."""
    return abs(p - q) <= 1e-9 * max(abs(p), abs(q)) or (abs(p) < 1e-300 and abs(q) < 1e-300)


def same_changes(ours, ref):
    """The same positions, every p-value the same (same_p)."""
    return [k for k, _ in ours] == [k for k, _ in ref] and \
        all(same_p(p, q) for (_, p), (_, q) in zip(ours, ref))


def read_db(path):
    """The database's answers: {series: [(pos, p)]} in position order."""
    found = {}
    with open(path) as f:
        for line in f:
            sid, pos, p = line.rstrip("\n").split(",")
            found.setdefault(int(sid), []).append((int(pos), float(p)))
    for v in found.values():
        v.sort()
    return found


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--db")
    ap.add_argument("--max-p", type=float, default=reference.DEFAULTS["max_p"])
    ap.add_argument("--min-shift", type=float, default=reference.DEFAULTS["min_shift"])
    ap.add_argument("--min-points", type=int, default=reference.DEFAULTS["min_points"])
    ap.add_argument("--noise-floor", type=float, default=reference.DEFAULTS["noise_floor"])
    ap.add_argument("--contract", action="store_true")
    a = ap.parse_args()
    settings = {"max_p": a.max_p, "min_shift": a.min_shift, "min_points": a.min_points,
                "noise_floor": a.noise_floor, "contract": a.contract}
    truth = generate.read_truth(os.path.join(a.dir, "truth.csv"))
    points = generate.read_points(os.path.join(a.dir, "points.csv"))
    db = read_db(a.db) if a.db else None

    stats = {}
    disagreements = []
    checked_once = False
    broken = []
    for sid, (fam, kind, n, planted, ramp) in truth.items():
        values, noises = points[sid]
        ref = reference.change_points_rows(values, noises, **settings)
        if db is not None:
            ours = db.get(sid, [])
            if ref and ref[0][1] > 1e-300 and not checked_once:
                # the comparison fails where it should: a p off by a
                # relative 1e-8, a change moved by one point, one missing
                (k0, p0), rest = ref[0], ref[1:]
                for wrong in ([(k0, p0 * (1 + 1e-8))] + rest, [(k0 + 1, p0)] + rest, rest):
                    if same_changes(wrong, ref):
                        broken.append("the comparison takes %r for %r (series %d)" % (wrong, ref, sid))
                checked_once = True
            if not same_changes(ours, ref):
                disagreements.append((sid, fam, kind, ours, ref))
                agree = 0
            else:
                agree = 1
            found = [k for k, _ in ours]
        else:
            agree = 0
            found = [k for k, _ in ref]
        st = stats.setdefault(fam, dict.fromkeys(
            ("series", "points", "planted", "detected", "correct", "unplanted", "flagged",
             "drifts", "drift_found", "agree", "off"), 0))
        st["series"] += 1
        st["points"] += n
        st["agree"] += agree
        if kind == "drift":
            st["drifts"] += 1
            if any(ramp - 1 <= k <= ramp + 5 for k in found):
                st["drift_found"] += 1
            continue
        st["planted"] += len(planted)
        st["detected"] += len(found)
        hits = match(found, planted)
        st["correct"] += hits
        # detected near a planted change (2-5 points off) but not within one
        st["off"] += sum(1 for k in found if all(abs(k - c) > 1 for c in planted)
                         and any(abs(k - c) <= 5 for c in planted))
        if not planted:
            st["unplanted"] += 1
            st["flagged"] += bool(found)

    missed = []
    print("settings: change_max_p = %g, change_min_shift = %g, change_min_points = %d, change_noise_floor = %g%s"
          % (a.max_p, a.min_shift, a.min_points, a.noise_floor,
             " (steps 1-7 alone, without 3b and 7b)" if a.contract else ""))
    print("%-9s %7s %9s %8s %9s %9s %7s %10s %9s %10s" % (
        "family", "series", "points", "planted", "detected", "precision", "recall",
        "null-flag", "drift", "agreement"))
    for fam in generate.FAMILIES:
        st = stats[fam]
        precision = st["correct"] / st["detected"] if st["detected"] else 1.0
        recall = st["correct"] / st["planted"] if st["planted"] else 1.0
        null_flag = st["flagged"] / st["unplanted"] if st["unplanted"] else 0.0
        drift = st["drift_found"] / st["drifts"] if st["drifts"] else 1.0
        agreement = "%d/%d" % (st["agree"], st["series"]) if db is not None else "-"
        print("%-9s %7d %9d %8d %9d %9.4f %7.4f %10.4f %9.4f %10s" % (
            fam, st["series"], st["points"], st["planted"], st["detected"], precision, recall,
            null_flag, drift, agreement))
        if st["off"]:
            print("%-9s %d detected change(s) 2-5 points from a planted one (counted wrong)" % (fam, st["off"]))
        for name, value, ok in (("precision", precision, precision >= TARGETS["precision"]),
                                ("recall", recall, recall >= TARGETS["recall"]),
                                ("null-flag rate", null_flag, null_flag <= TARGETS["null_flag"]),
                                ("drift found", drift, drift >= TARGETS["drift"])):
            if not ok:
                missed.append("%s: %s %.4f misses its target" % (fam, name, value))
    if db is not None:
        for sid, fam, kind, ours, ref in disagreements[:10]:
            missed.append("series %d (%s, %s): database %r, reference %r" % (sid, fam, kind, ours, ref))
        if len(disagreements) > 10:
            missed.append("... %d series disagree in all" % len(disagreements))
    if db is not None and not checked_once:
        broken.append("no series with a change to check the comparison on")
    missed += broken
    for m in missed:
        print("FAILED: " + m)
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
