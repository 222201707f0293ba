"""Reference implementation of kernelindex's change-point method.

An independent implementation, in Python with numpy and scipy, of the method
the C window function kernelindex.change_point(value, noise) implements
(binary segmentation with a Mann-Whitney rank statistic, SPEC section 10,
written from the method's text, not from the C): test/sql/change_points.sh
runs the same series through both and requires the same change positions,
with p-values equal to a relative 1e-9.

A series is the points x_0..x_{n-1} in series order, each with an optional
own noise s_i (a standard deviation estimate >= 0, or NaN for NULL).  For a
segment [a, b) of m = b - a >= 2L points:

 1. r_i, the mid-ranks of the segment's values (ties share the mean of their
    ranks, 1..m); T = sum over groups of equal values of t^3 - t.
 2. For each split k, a+L <= k <= b-L: n1 = k-a, n2 = b-k, W = the sum of
    r_i over a <= i < k, E = n1(m+1)/2, V = n1 n2/12 ((m+1) - T/(m(m-1)));
    z_k = (W - E)/sqrt(V), 0 where V = 0.
 3. c = max |z_k|; k* = the smallest k with |z_k| >= c (1 - 1e-12).
 4. K = m - 2L + 1, t0 = L/m; p = 1 when c <= 1, else the smallest of 1,
    the Bonferroni bound 2 K Q(c) and the approximation of James, James and
    Siegmund (1987), c phi(c) (1 - 1/c^2) ln(((1-t0)/t0)^2) + 4 phi(c)/c.
 5. before, after: the medians of x_a..x_{k*-1} and x_{k*}..x_{b-1};
    shift = after - before, rel = |shift|/|before| (infinite when before is 0
    and shift is not, 0 when both are).
 6. sigma = max(1.4826 median(|x_{i+1} - x_i|, a <= i < b-1, i+1 != k*)
    / sqrt(2), the median of the segment's non-NULL s_i, 0 when none).
 7. Accepted when p <= max_p, rel >= min_shift and |shift| >= noise_floor
    sigma: a change at k* with p; then [a, k*) and [k*, b) likewise.

change_points() answers the accepted changes as (k, p) in position order.

Two more steps (changepoint.h's 3b and 7b, measured into the method: with
steps 1-7 alone recall stayed at 0.57-0.80 at every setting tried):

 3b. Location: with m_l, m_r the medians of x_a..x_{k*-1} and x_{k*}..x_{b-1}
     (m_l != m_r) and mid = (m_l + m_r)/2, k* becomes the k, a+L <= k <= b-L,
     with the fewest points on the wrong side of mid (before k on m_r's
     side, from k on on m_l's: x > mid is m_r's side when m_r > m_l), the
     nearest to k* among equals, then the smallest.  The rank statistic's
     argmax drifts towards the middle of a long segment; this does not.
     Steps 5 and 6 use the located k*.
 7b. Two splits (circular binary segmentation, Olshen et al. 2004): where
     the split of [a, b) is not accepted and 3L <= m <= BLOCK_MAX (2000),
     every block [i, j)
     with i-a >= L, j-i >= L and b-j >= L against the rest of the segment:
     z_ij = (S_ij - n1(m+1)/2)/sqrt(V) with n1 = j-i, n2 = m-n1, S_ij the
     sum of r over the block, V as in step 2; c2 = max |z_ij|, (i*, j*)
     the first (by i, then j) with |z| >= c2 (1 - 1e-12); p2 = 1 when
     c2 <= 1, else min(1, 2 K2 Q(c2)), K2 the number of blocks; then i*
     located as step 3b on [a, j*), and j* as step 3b on [i*, b); inner and
     outer the medians of the block and of the rest, rel and shift between
     them (outer as before), sigma as step 6 without the two differences
     across i* and j*.  Accepted as step 7: changes at i* and j*, both with
     p2; then [a, i*), [i*, j*) and [j*, b).  A regression followed by its
     fix (or any up-then-down) inside one segment leaves both sides' medians
     alike, so that a single split never sees it.

contract=True gives steps 1-7 alone (as the method was first written), for
the figures that show why 3b and 7b are there.
"""

import math

import numpy as np

# The settings' defaults (kernelindex.change_max_p, change_min_shift,
# change_min_points, change_noise_floor).
DEFAULTS = {"max_p": 0.05, "min_shift": 0.05, "min_points": 6, "noise_floor": 3.0}

# The longest segment step 7b searches (its search is quadratic).
BLOCK_MAX = 2000

_SQRT2 = math.sqrt(2.0)
_INV_SQRT_2PI = 1.0 / math.sqrt(2.0 * math.pi)


def mid_ranks(seg):
    """The mid-ranks (1..m) of seg's values and T = sum of t^3 - t over ties."""
    m = len(seg)
    order = np.argsort(seg, kind="mergesort")
    s = seg[order]
    # group boundaries in the sorted values: [starts[g], ends[g])
    new = np.empty(m, dtype=bool)
    new[0] = True
    np.not_equal(s[1:], s[:-1], out=new[1:])
    starts = np.flatnonzero(new)
    ends = np.append(starts[1:], m)
    t = (ends - starts).astype(np.float64)
    # ranks start+1 .. end: their mean is (start + 1 + end) / 2
    group_rank = (starts + 1 + ends) / 2.0
    ranks = np.empty(m, dtype=np.float64)
    ranks[order] = np.repeat(group_rank, ends - starts)
    tie = float(np.sum(t * t * t - t))
    return ranks, tie


def p_value(c, m, min_points):
    """The p-value of the maximum |z| = c over the K = m - 2L + 1 splits."""
    if c <= 1.0:
        return 1.0
    k = m - 2 * min_points + 1
    t0 = min_points / m
    phi = math.exp(-0.5 * c * c) * _INV_SQRT_2PI
    bonferroni = 2.0 * k * (0.5 * math.erfc(c / _SQRT2))
    jjs = c * phi * (1.0 - 1.0 / (c * c)) * math.log(((1.0 - t0) / t0) ** 2) + 4.0 * phi / c
    return min(1.0, bonferroni, jjs)


def best_split(x, a, b, min_points):
    """Steps 1-4 on [a, b): (k*, c, p)."""
    seg = x[a:b]
    m = b - a
    ranks, tie = mid_ranks(seg)
    n1 = np.arange(min_points, m - min_points + 1, dtype=np.float64)
    n2 = m - n1
    # W by a running sum in index order (the ranks are halves of integers:
    # every partial sum is exact)
    w = np.cumsum(ranks)[min_points - 1:m - min_points]
    e = n1 * (m + 1) / 2.0
    v = n1 * n2 / 12.0 * ((m + 1) - tie / (m * (m - 1.0)))
    z = np.zeros_like(v)
    pos = v > 0
    z[pos] = (w[pos] - e[pos]) / np.sqrt(v[pos])
    absz = np.abs(z)
    c = float(absz.max())
    j = int(np.flatnonzero(absz >= c * (1.0 - 1e-12))[0])
    return a + min_points + j, c, p_value(c, m, min_points)


def relative_shift(before, after):
    """|after - before| / |before|: infinite when before is 0 alone, 0 when both."""
    shift = after - before
    if before == 0.0:
        return math.inf if shift != 0.0 else 0.0
    return abs(shift) / abs(before)


def segment_sigma(x, s, a, b, k, k2=None):
    """Step 6: the larger of the series' own noise and the points' noise
    (without the differences across k, and k2 where given)."""
    d = np.abs(np.diff(x[a:b]))
    d = np.delete(d, [k - a - 1] if k2 is None else [k - a - 1, k2 - a - 1])
    sigma_series = 1.4826 * float(np.median(d)) / _SQRT2
    own = s[a:b]
    own = own[~np.isnan(own)]
    sigma_own = float(np.median(own)) if len(own) else 0.0
    return max(sigma_series, sigma_own)


def refine_split(x, a, b, k, min_points):
    """Step 3b: the split with the fewest points on the wrong
    side of the midpoint of the two medians, the nearest to k among equals."""
    ml = float(np.median(x[a:k]))
    mr = float(np.median(x[k:b]))
    if ml == mr:
        return k
    mid = (ml + mr) / 2.0
    seg = x[a:b]
    right_side = seg > mid if mr > ml else seg < mid
    left_side = seg < mid if mr > ml else seg > mid
    wrong_before = np.concatenate(([0], np.cumsum(right_side)))
    from_end = np.concatenate(([0], np.cumsum(left_side)))
    j = np.arange(min_points, b - a - min_points + 1)
    cost = wrong_before[j] + (from_end[-1] - from_end[j])
    cand = j[cost == cost.min()] + a
    return int(cand[np.argmin(np.abs(cand - k))])


def best_block(x, a, b, min_points):
    """Step 7b: the block [i*, j*) most unlike the rest of [a, b),
    and its p-value: (i*, j*, p2)."""
    m = b - a
    ranks, tie = mid_ranks(x[a:b])
    prefix = np.concatenate(([0.0], np.cumsum(ranks)))
    i = np.arange(min_points, m - 2 * min_points + 1)[:, None]
    j = np.arange(2 * min_points, m - min_points + 1)[None, :]
    n1 = (j - i).astype(np.float64)
    valid = n1 >= min_points
    n2 = m - n1
    v = n1 * n2 / 12.0 * ((m + 1) - tie / (m * (m - 1.0)))
    total = prefix[np.broadcast_to(j, valid.shape)] - prefix[np.broadcast_to(i, valid.shape)]
    use = valid & (v > 0)
    z = np.zeros(valid.shape)
    z[use] = (total[use] - n1[use] * (m + 1) / 2.0) / np.sqrt(v[use])
    absz = np.abs(z)
    c2 = float(absz.max())
    ii, jj = np.argwhere(absz >= c2 * (1.0 - 1e-12))[0]
    pairs = int(valid.sum())
    p2 = 1.0 if c2 <= 1.0 else min(1.0, 2.0 * pairs * (0.5 * math.erfc(c2 / _SQRT2)))
    return a + min_points + int(ii), a + 2 * min_points + int(jj), p2


def change_points(x, s=None, max_p=DEFAULTS["max_p"], min_shift=DEFAULTS["min_shift"],
                  min_points=DEFAULTS["min_points"], noise_floor=DEFAULTS["noise_floor"],
                  contract=False):
    """The accepted changes of series x (own noise s, NaN for NULL): [(k, p)]
    (contract: steps 1-7 alone, without 3b and 7b)."""
    steps_3b_7b = not contract
    x = np.asarray(x, dtype=np.float64)
    n = len(x)
    s = np.full(n, np.nan) if s is None else np.asarray(s, dtype=np.float64)
    if not np.all(np.isfinite(x)):
        raise ValueError("values must be finite")
    if np.any(s < 0):
        raise ValueError("noise must be >= 0")
    found = []
    todo = [(0, n)]
    while todo:
        a, b = todo.pop()
        if b - a < 2 * min_points:
            continue
        k, c, p = best_split(x, a, b, min_points)
        if steps_3b_7b:
            k = refine_split(x, a, b, k, min_points)
        before = float(np.median(x[a:k]))
        after = float(np.median(x[k:b]))
        shift = after - before
        rel = relative_shift(before, after)
        sigma = segment_sigma(x, s, a, b, k)
        if p <= max_p and rel >= min_shift and abs(shift) >= noise_floor * sigma:
            found.append((k, p))
            todo.append((a, k))
            todo.append((k, b))
        elif steps_3b_7b and 3 * min_points <= b - a <= BLOCK_MAX:
            i, j, p2 = best_block(x, a, b, min_points)
            i = refine_split(x, a, j, i, min_points)
            j = refine_split(x, i, b, j, min_points)
            inner = float(np.median(x[i:j]))
            outer = float(np.median(np.concatenate((x[a:i], x[j:b]))))
            sigma = segment_sigma(x, s, a, b, i, j)
            if p2 <= max_p and relative_shift(outer, inner) >= min_shift and \
                    abs(inner - outer) >= noise_floor * sigma:
                found += [(i, p2), (j, p2)]
                todo += [(a, i), (i, j), (j, b)]
    found.sort()
    return found


def change_points_rows(values, noises, **settings):
    """As change_points, on rows whose value may be None (not a point of the
    series): the changes as (row index, p), row indexes into values."""
    rows = [i for i, v in enumerate(values) if v is not None]
    x = np.array([values[i] for i in rows], dtype=np.float64)
    s = np.array([np.nan if noises[i] is None else noises[i] for i in rows], dtype=np.float64)
    return [(rows[k], p) for k, p in change_points(x, s, **settings)]


def _selftest():
    """A few cases worked by hand."""
    # ranks with ties: 1, 2.5, 2.5, 4; T = 2^3 - 2 = 6
    r, t = mid_ranks(np.array([1.0, 5.0, 5.0, 7.0]))
    assert list(r) == [1.0, 2.5, 2.5, 4.0] and t == 6.0, (r, t)
    # a clean step of 30 points at 15: found exactly, nothing else
    x = np.r_[np.full(15, 100.0), np.full(15, 120.0)] + np.tile([0.0, 0.5, -0.5], 10)
    cp = change_points(x)
    assert [k for k, _ in cp] == [15], cp
    # equal values: no split (V = 0 everywhere, c = 0, p = 1)
    assert change_points(np.full(40, 3.0)) == []
    # 20 points can never reach p <= 0.001 (c at most 3.78 with L = 6)
    x = np.r_[np.full(10, 100.0), np.full(10, 200.0)] + np.arange(20) * 1e-3
    k, c, p = best_split(x, 0, 20, 6)
    assert k == 10 and abs(c - 50 / math.sqrt(175)) < 1e-12 and p > 0.001, (k, c, p)
    # the own noise alone can refuse a split: 20% shift, noise 10% of the level
    x = np.r_[np.full(30, 100.0), np.full(30, 120.0)] + np.tile([0.0, 0.3, -0.3], 20)
    assert [k for k, _ in change_points(x)] == [30]
    assert change_points(x, np.full(60, 10.0)) == []
    # rows with a None value are not points: positions are rows
    v = [100.0] * 15 + [None] + [130.0] * 15
    assert [k for k, _ in change_points_rows(v, [None] * 31)] == [16]
    # up then down (a regression and its fix) inside a long series: steps
    # 1-7 alone see nothing (both sides' medians alike), step 7b finds both
    # ends
    wiggle = np.tile([0.0, 0.4, -0.4, 0.2, -0.2], 24)
    x = 100.0 + wiggle
    x[50:62] += 20.0
    assert change_points(x, contract=True) == [], change_points(x, contract=True)
    assert [k for k, _ in change_points(x)] == [50, 62]
    # step 7b searches segments of at most BLOCK_MAX points
    x = 100.0 + 0.01 * ((np.arange(2001) * 7) % 11) + 1e-6 * np.arange(2001)
    x[990:1010] += 50.0
    assert [k for k, _ in change_points(x[:2000], max_p=0.001)] == [990, 1010]
    assert change_points(x, max_p=0.001) == []
    # a change near the end of a long segment with noise: the rank argmax is
    # 4 points off (so in 20 of 200 seeds), step 3b's location (fewest
    # points on the wrong side of the midpoint) exact
    rng = np.random.default_rng(28)
    x = np.r_[np.full(240, 100.0), np.full(22, 113.0)] * (1 + 0.03 * rng.standard_normal(262))
    k_rank = best_split(x, 0, 262, 6)[0]
    k = refine_split(x, 0, 262, k_rank, 6)
    assert k_rank == 236 and k == 240, (k_rank, k)


if __name__ == "__main__":
    _selftest()
    print("reference: self-test passed")
