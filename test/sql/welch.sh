#!/usr/bin/env bash
# kernelindex.welch_p_value against an outside oracle: scipy's
# scipy.stats.ttest_ind_from_stats(..., equal_var=False), on 20,000 random
# cases drawn with a fixed seed (means 1e-3 to 1e9, standard deviations 0
# to 50% of the mean and some up to 1e6 times it, 2 to 1e6 samples, on
# both sides; the second mean near the first, on the scale of the noise,
# or anywhere).  Every p-value must agree to a relative 1e-9, or an
# absolute 1e-15 where p is tiny; where both standard deviations are 0
# (scipy has no answer: NaN), p must be 1 for equal means and 0 otherwise;
# with fewer than 2 samples on a side, NULL.  Prints the worst error and
# the counts; fails on any disagreement.  The comparison itself is checked
# to fail on every p-value above 1e-6 made wrong by a relative 1e-8.
# Runs against the cluster the libpq variables point at (a database with
# the extension).
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
python=/usr/bin/python3
if ! "$python" -c 'import numpy, scipy.stats' 2>/dev/null; then
	echo "welch: FAILED: $python has no scipy (apt-get install python3-scipy python3-numpy)"
	exit 1
fi
dir=$(mktemp -d "${TMPDIR:-/tmp}/kidx-welch.XXXXXX")
trap 'rm -rf "$dir"' EXIT

# The cases, as the shortest decimal of each double (exact in both readers).
"$python" - "$dir/cases.csv" <<'PY'
import math, random, sys

rng = random.Random(25)
n_cases = 20000
with open(sys.argv[1], "w") as out:
    for i in range(n_cases):
        def side(mean):
            k = rng.random()
            if k < 0.03:
                sd = 0.0
            elif k < 0.08:
                sd = mean * 10 ** rng.uniform(0, 6)      # huge next to the mean
            else:
                sd = mean * rng.uniform(0, 0.5)
            n = 2 if rng.random() < 0.05 else int(round(10 ** rng.uniform(math.log10(2), 6)))
            return sd, n
        ma = 10 ** rng.uniform(-3, 9)
        sa, na = side(ma)
        k = rng.random()
        if k < 0.02:
            mb, sb, nb = ma, 0.0, 2 + rng.randrange(100)
            sa = 0.0 if rng.random() < 0.5 else sa
        elif k < 0.04:
            mb = ma * (1 + rng.uniform(-0.01, 0.01))
            sb, nb = 0.0, 2 + rng.randrange(100)
            sa = 0.0
        elif k < 0.25:
            mb = 10 ** rng.uniform(-3, 9)
            sb, nb = side(mb)
        else:
            # near ma, a few standard errors away: p anywhere in [0, 1]
            sb, nb = side(ma)
            se = math.sqrt(sa * sa / na + sb * sb / nb)
            mb = ma + rng.gauss(0, 1) * se * 10 ** rng.uniform(-1, 1.3)
            if mb <= 0:
                mb = ma
        if rng.random() < 0.01:
            # fewer than 2 samples on a side: no test
            if rng.random() < 0.5:
                na = rng.randrange(2)
            else:
                nb = rng.randrange(2)
        out.write("%d,%r,%r,%d,%r,%r,%d\n" % (i, ma, sa, na, mb, sb, nb))
PY

psql -X -q -v ON_ERROR_STOP=1 <<SQL
CREATE TEMP TABLE welch_cases (id integer, ma float8, sa float8, na bigint, mb float8, sb float8, nb bigint);
\copy welch_cases FROM '$dir/cases.csv' WITH (FORMAT csv)
SET extra_float_digits = 1;
\copy (SELECT id, kernelindex.welch_p_value(ma, sa, na, mb, sb, nb) FROM welch_cases ORDER BY id) TO '$dir/p.csv' WITH (FORMAT csv)
SQL

"$python" - "$dir/cases.csv" "$dir/p.csv" <<'PY'
import sys, warnings
import numpy as np
from scipy import stats

cases = np.loadtxt(sys.argv[1], delimiter=",", dtype=np.float64)
ids = cases[:, 0].astype(int)
ma, sa, na, mb, sb, nb = (cases[:, k] for k in range(1, 7))
ours = {}
for line in open(sys.argv[2]):
    i, p = line.rstrip("\n").split(",")
    ours[int(i)] = None if p == "" else float(p)
if sorted(ours) != list(ids):
    print("welch: FAILED: %d cases sent, %d p-values back" % (len(ids), len(ours)))
    sys.exit(1)
p = np.array([np.nan if ours[i] is None else ours[i] for i in ids])
is_null = np.array([ours[i] is None for i in ids])

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    q = stats.ttest_ind_from_stats(ma, sa, na, mb, sb, nb, equal_var=False).pvalue

undefined = (na < 2) | (nb < 2)
no_variance = ~undefined & (sa == 0) & (sb == 0)
compared = ~undefined & ~no_variance


def agree(p, q):
    """Relative 1e-9, or absolute 1e-15 for tiny p-values."""
    return np.isfinite(p) & np.isfinite(q) & (
        (np.abs(p - q) <= 1e-9 * np.maximum(np.abs(p), np.abs(q))) | (np.abs(p - q) <= 1e-15))


failures = []
for k in np.nonzero(undefined & ~is_null)[0]:
    failures.append("case %d: %d and %d samples, p = %r, not NULL" % (ids[k], na[k], nb[k], p[k]))
for k in np.nonzero(~undefined & is_null)[0]:
    failures.append("case %d: NULL" % ids[k])
rule = np.where(ma == mb, 1.0, 0.0)
for k in np.nonzero(no_variance & (p != rule))[0]:
    failures.append("case %d: no variance, means %r and %r: p = %r, not %r" % (ids[k], ma[k], mb[k], p[k], rule[k]))
ok = agree(p, q)
for k in np.nonzero(compared & ~ok)[0]:
    failures.append("case %d: %r %r %d | %r %r %d: p = %r, scipy %r"
                    % (ids[k], ma[k], sa[k], na[k], mb[k], sb[k], nb[k], p[k], q[k]))

# the worst errors: relative where scipy's p is at least 1e-300, absolute below
big = compared & np.isfinite(q) & (q >= 1e-300)
small = compared & np.isfinite(q) & (q < 1e-300)
rel = np.abs(p - q) / np.where(big, q, 1.0)
worst = np.argmax(np.where(big, rel, -1.0))
worst_abs = np.max(np.abs(p - q)[small]) if small.any() else 0.0
bands = [(1e-3, 1.0 + 1), (1e-15, 1e-3), (1e-300, 1e-15)]
print("welch: %d cases: %d compared with scipy (%s; %d below 1e-300), %d without variance (1 or 0), %d NULL (fewer than 2 samples)"
      % (len(ids), compared.sum(),
         ", ".join("%d with p in [%g, %g)" % ((big & (q >= lo) & (q < hi)).sum(), lo, min(hi, 1.0)) for lo, hi in bands),
         small.sum(), no_variance.sum(), is_null.sum()))
print("welch: worst relative error %.3g (case %d: p = %r, scipy %r); by band: %s; worst absolute error below 1e-300: %.3g"
      % (rel[worst], ids[worst], p[worst], q[worst],
         ", ".join("%.3g in [%g, %g)" % (np.max(rel[big & (q >= lo) & (q < hi)], initial=0.0), lo, min(hi, 1.0))
                   for lo, hi in bands), worst_abs))

# the comparison fails where it should: every p above 1e-6, off by 1e-8
wrong = compared & (q > 1e-6)
caught = (~agree(q * (1 + 1e-8), q) & wrong).sum()
if caught != wrong.sum():
    failures.append("the comparison let %d of %d wrong p-values through" % (wrong.sum() - caught, wrong.sum()))

for f in failures[:20]:
    print("FAILED: " + f)
print("welch: %d passed, %d failed" % (len(ids) - len(failures), len(failures)))
sys.exit(1 if failures else 0)
PY
