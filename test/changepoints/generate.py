"""Series with planted changes, for the change-point quality suite.

    generate.py OUT_DIR [--step N] [--drift N] [--null N]

Writes OUT_DIR/points.csv, the rows (series, pos, value, noise) with an
empty field for NULL, and OUT_DIR/truth.csv, one row per series: series,
family, kind, points, the planted change positions (space-separated: the
first point after each change), and for a drift series the first point of
its ramp.  Every double is written as its shortest decimal (exact in
Python's and PostgreSQL's readers).  Fixed seeds: the same files every run.

For each noise family, N step series (default 10,000), N drift series
(default 1,000) and N null series (default 1,000):

 - Noise families, sd the family's noise standard deviation, 1-5% of the
   level (each point's noise is relative to its own level):
     gaussian   level (1 + sd e), e standard normal;
     outliers   the same, and 1-2% of the points (a rate drawn per series)
                20-100% above their level, or 20-50% below (a quarter of
                them); sd is the Gaussian part's;
     bimodal    each point at random (a share of 30-70% drawn per series)
                in one of two levels 2-6% apart, with Gaussian noise within
                its level; sd is the whole mixture's (within the level and
                between the two), kept in 1-5%.
 - Step series: 20 to 500 points (log-uniform), 0 to 3 planted step changes
   (as many as fit with 6 points before and after each), placed uniformly
   with at least 6 points between two changes and at the ends; each shifts
   the level by at least 10% and at least 4 sd at the higher of the two
   levels, up to 1.6 times that, up or down at random (up where the level
   fell below half the first level, down where it rose above twice).
 - Drift series: 30 to 500 points, noise 1-2.5% (so that 10% is at least 4
   sd), the level moving by 10% (up or down) in five equal steps at five
   consecutive points r..r+4, at least 6 points before r and after r+4.
 - Null series: 20 to 500 points, one level.
 - Own noise (the noise column), per series: NULL (40%), the point's noise
   standard deviation within 20% (30%; as a p20-p80 band gives it; for
   bimodal the within-level part), or it over sqrt(samples), 10-100 samples
   (30%; a mean's standard error).  One series in 100 has some NULL noise
   among the rest, one in 200 a NULL value (a point that is not part of the
   series; positions count rows).
"""

import argparse
import math
import os

import numpy as np

FAMILIES = ("gaussian", "outliers", "bimodal")
MIN_POINTS = 6


def log_uniform_int(rng, lo, hi):
    """An integer in [lo, hi], log-uniform."""
    return int(round(math.exp(rng.uniform(math.log(lo), math.log(hi)))))


class Family:
    """One noise family: draws a series' noise parameters and its points."""

    def __init__(self, name, rng):
        self.name = name
        self.rng = rng

    def params(self, lo=0.01, hi=0.05):
        """Noise parameters whose total sd (relative) is in [lo, hi]."""
        rng = self.rng
        if self.name == "bimodal":
            while True:
                gap = rng.uniform(0.02, 0.06)
                share = rng.uniform(0.3, 0.7)
                within = rng.uniform(0.005, 0.03)
                sd = math.sqrt(within ** 2 + share * (1 - share) * gap ** 2)
                if lo <= sd <= hi:
                    return {"sd": sd, "within": within, "gap": gap, "share": share}
        p = {"sd": rng.uniform(lo, hi)}
        p["within"] = p["sd"]
        if self.name == "outliers":
            p["rate"] = rng.uniform(0.01, 0.02)
        return p

    def points(self, level, p):
        """Points at the levels given (one per point), with this family's noise."""
        rng = self.rng
        n = len(level)
        if self.name == "bimodal":
            high = rng.random(n) < p["share"]
            mode = np.where(high, p["gap"] / 2, -p["gap"] / 2)
            return level * (1 + mode + p["within"] * rng.standard_normal(n))
        x = level * (1 + p["sd"] * rng.standard_normal(n))
        if self.name == "outliers":
            out = np.flatnonzero(rng.random(n) < p["rate"])
            down = rng.random(len(out)) < 0.25
            off = np.where(down, -rng.uniform(0.2, 0.5, len(out)), rng.uniform(0.2, 1.0, len(out)))
            x[out] = level[out] * (1 + off)
        return x

    def own_noise(self, level, p):
        """The noise column: None, a band's estimate or a mean's standard error."""
        rng = self.rng
        n = len(level)
        k = rng.random()
        if k < 0.4:
            return [None] * n
        sd = level * p["within"]
        if k < 0.7:
            s = sd * rng.uniform(0.8, 1.2, n)
        else:
            s = sd / np.sqrt(rng.integers(10, 101, n))
        s = list(s)
        if rng.random() < 0.01:
            for i in rng.choice(n, size=max(1, n // 10), replace=False):
                s[i] = None
        return s


def plant_positions(rng, n, count):
    """count change positions in [0, n), MIN_POINTS apart and from the ends."""
    while count > 0 and n < MIN_POINTS * (count + 1):
        count -= 1
    extra = n - MIN_POINTS * (count + 1)
    cuts = np.sort(rng.integers(0, extra + 1, count))
    return [int(MIN_POINTS * (j + 1) + cuts[j]) for j in range(count)]


def step_levels(rng, n, planted, sd, base):
    """The level of every point: steps at the planted positions."""
    level = np.empty(n)
    cur = base
    prev = 0
    for k in planted + [n]:
        level[prev:k] = cur
        if k == n:
            break
        up = rng.random() < 0.5
        if cur < base / 2:
            up = True
        elif cur > base * 2:
            up = False
        # at least 10% of the level before, and 4 sd at the higher level
        need = max(0.10, 4 * sd / (1 - 4 * sd) if up else 4 * sd)
        rel = need * rng.uniform(1.0, 1.6)
        cur = cur * (1 + rel) if up else cur * (1 - rel)
        prev = k
    return level


def shortest(v):
    """A double as its shortest exact decimal; None as the empty field."""
    return "" if v is None else repr(float(v))


def generate(out_dir, steps=10000, drifts=1000, nulls=1000):
    """Write points.csv and truth.csv into out_dir."""
    os.makedirs(out_dir, exist_ok=True)
    series = 0
    with open(os.path.join(out_dir, "points.csv"), "w") as pts, \
            open(os.path.join(out_dir, "truth.csv"), "w") as truth:
        for fi, name in enumerate(FAMILIES):
            rng = np.random.default_rng([26, fi])
            fam = Family(name, rng)
            for kind, count in (("step", steps), ("drift", drifts), ("null", nulls)):
                for _ in range(count):
                    series += 1
                    base = 10 ** rng.uniform(1, 6)
                    ramp = ""
                    if kind == "drift":
                        n = log_uniform_int(rng, 30, 500)
                        p = fam.params(0.01, 0.025)
                        r = int(rng.integers(MIN_POINTS, n - MIN_POINTS - 5 + 1))
                        sign = 1 if rng.random() < 0.5 else -1
                        frac = np.clip((np.arange(n) - r + 1) / 5.0, 0.0, 1.0)
                        level = base * (1 + sign * 0.10 * frac)
                        planted = []
                        ramp = str(r)
                    else:
                        n = log_uniform_int(rng, 20, 500)
                        p = fam.params()
                        count_changes = int(rng.integers(0, 4)) if kind == "step" else 0
                        planted = plant_positions(rng, n, count_changes)
                        level = step_levels(rng, n, planted, p["sd"], base)
                    x = fam.points(level, p)
                    s = fam.own_noise(level, p)
                    values = [float(v) for v in x]
                    if rng.random() < 0.005:
                        # a NULL value (not a point), away from the changes
                        i = int(rng.integers(0, n))
                        if all(abs(i - k) > 1 for k in planted):
                            values[i] = None
                    pts.write("".join("%d,%d,%s,%s\n" % (series, i, shortest(values[i]), shortest(s[i]))
                                      for i in range(n)))
                    truth.write("%d,%s,%s,%d,%s,%s\n" % (series, name, kind, n, " ".join(map(str, planted)), ramp))
    return series


def read_truth(path):
    """truth.csv as {series: (family, kind, n, [planted], ramp or None)}."""
    truth = {}
    with open(path) as f:
        for line in f:
            sid, fam, kind, n, planted, ramp = line.rstrip("\n").split(",")
            truth[int(sid)] = (fam, kind, int(n), [int(k) for k in planted.split()],
                               int(ramp) if ramp else None)
    return truth


def read_points(path):
    """points.csv as {series: (values, noises)}, None for an empty field."""
    series = {}
    with open(path) as f:
        for line in f:
            sid, pos, v, s = line.rstrip("\n").split(",")
            vals, noises = series.setdefault(int(sid), ([], []))
            assert int(pos) == len(vals)
            vals.append(float(v) if v else None)
            noises.append(float(s) if s else None)
    return series


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out_dir")
    ap.add_argument("--step", type=int, default=10000)
    ap.add_argument("--drift", type=int, default=1000)
    ap.add_argument("--null", type=int, default=1000)
    a = ap.parse_args()
    print("generate: %d series" % generate(a.out_dir, a.step, a.drift, a.null))
