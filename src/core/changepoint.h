/*-------------------------------------------------------------------------
 *
 * changepoint.h
 *	  Change points of a series by binary segmentation with a two-sample
 *	  rank statistic (Wilcoxon-Mann-Whitney, tie-corrected): where the
 *	  level of a series of measurements shifts.
 *
 * The method, step by step (doc/change-points.md gives the reasons; an
 * independent implementation, test/sql/change_points.sh's reference in
 * Python, follows the same steps and agrees to the last change position
 * and to 1e-9 relative in p):
 *
 * A series is the points x_0..x_{n-1} in series order, each with an
 * optional own noise s_i >= 0 (a standard deviation estimate of the
 * point).  Binary segmentation starts with the segment [0, n).  For a
 * segment [a, b) with m = b - a >= 2L (L = min_points):
 *
 * 1. r_i: the mid-ranks of x_a..x_{b-1} within the segment (equal values
 *	  get the mean of their ranks 1..m); T = the sum over groups of t equal
 *	  values of (t^3 - t).
 * 2. For each split k, a + L <= k <= b - L: n1 = k - a, n2 = b - k, W =
 *	  sum of r_i for a <= i < k (a running sum in index order), E = n1 (m +
 *	  1) / 2, V = n1 n2 / 12 ((m + 1) - T / (m (m - 1))), z_k = (W - E) /
 *	  sqrt(V), or 0 where V <= 0.
 * 3. c = max |z_k|; k* = the smallest k with |z_k| >= c (1 - 1e-12).
 * 4. K = m - 2L + 1, t0 = L / m; p = 1 if c <= 1, else p = min(1,
 *	  2 K Q(c), c phi(c) (1 - 1/c^2) ln(((1 - t0) / t0)^2) + 4 phi(c) / c)
 *	  (phi the standard normal density, Q(c) = erfc(c / sqrt 2) / 2): the
 *	  Bonferroni bound and the approximation of James, James and Siegmund
 *	  (1987) for the maximum of the standardized statistic.
 * 5. before = the median of x_a..x_{k*-1}, after = that of x_{k*}..x_{b-1}
 *	  (of an even count: the mean of the two middle values); shift = after
 *	  - before; rel = |shift| / |before| (+infinity when before is 0 and
 *	  shift is not; 0 when both are 0).
 * 6. sigma = max(sigma_series, sigma_own): sigma_series = 1.4826 median(
 *	  |x_{i+1} - x_i| for a <= i < b - 1, i + 1 != k*) / sqrt(2), sigma_own
 *	  = the median of the own noises s_i, a <= i < b, that are given (the
 *	  median of no values is 0).
 * 7. The split is accepted when p <= max_p, rel >= min_shift and |shift|
 *	  >= noise_floor sigma: a change at k* with p-value p, and the same
 *	  procedure on [a, k*) and [k*, b).  Otherwise (or when m < 2L) the
 *	  segment is final.
 *
 * Work is O(m log m) per segment examined (one sort for the ranks, one
 * for each median).  Segments are kept on an explicit stack (no
 * recursion).
 *
 * This file is free of PostgreSQL headers; it needs only C99 and libc.
 *
 * src/core/changepoint.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef KIDX_CHANGEPOINT_H
#define KIDX_CHANGEPOINT_H

#include <stddef.h>
#include <stdint.h>

/* The settings of the method (kernelindex.change_* in SQL). */
typedef struct CpSettings
{
	double		max_p;			/* a split is accepted only if p <= this */
	double		min_shift;		/* nor unless |after - before| / |before| >=
								 * this */
	int64_t		min_points;		/* L: at least this many points each side
								 * (>= 1) */
	double		noise_floor;	/* nor unless |after - before| >= this many
								 * sigma */
} CpSettings;

/* One accepted change, and the final segments on either side of it. */
typedef struct CpChange
{
	int64_t		pos;			/* k*: the first point after the change */
	double		p;				/* its p-value */
	double		level_before;	/* the median of the final segment ending at
								 * pos */
	double		level_after;	/* the median of the final segment starting
								 * at pos */
	int64_t		points_before;	/* the length of the final segment before */
	int64_t		points_after;	/* the length of the final segment after */
} CpChange;

/* The outcome of one segment's test (steps 1 to 6), for tests. */
typedef struct CpSplit
{
	int64_t		k;				/* k* */
	double		c;				/* max |z_k| */
	double		p;				/* the p-value of c */
	double		before;			/* median before k* */
	double		after;			/* median from k* */
	double		rel;			/* |after - before| / |before| */
	double		sigma;			/* max(sigma_series, sigma_own) */
} CpSplit;

/* Called now and then during the work (to check for a cancel). */
typedef void (*cp_tick_fn) (void *arg);

/*
 * The bytes of work space cp_segment needs for a series of n points, or 0
 * when that overflows size_t.  The space needs the alignment of a double
 * (malloc's or palloc's).
 */
extern size_t cp_work_size(int64_t n);

/*
 * The change points of x[0..n) with own noises noise[0..n) (NaN where a
 * point has none; else finite and >= 0: the caller checks, as it checks
 * that every x is finite) under the settings, into out (room for n
 * changes; at most n / min_points are written), in position order, with
 * the levels and lengths of the final segments on either side; returns
 * how many.  work is cp_work_size(n) bytes.  tick, when not NULL, is
 * called at least once per segment and every few thousand steps.
 */
extern int64_t cp_segment(const double *x, const double *noise, int64_t n,
						  const CpSettings *settings, void *work,
						  CpChange *out, cp_tick_fn tick, void *tick_arg);

/*
 * Steps 1 to 6 for the segment [a, b) of x (b - a >= 2 min_points), with
 * work as for cp_segment (for n >= b); for tests and cp_segment.
 */
extern void cp_test_segment(const double *x, const double *noise,
							int64_t a, int64_t b, int64_t min_points,
							void *work, CpSplit *split);

/*
 * The p-value of step 4 for a maximum c over a segment of m points with
 * min_points L (m >= 2L >= 2).
 */
extern double cp_p_value(double c, int64_t m, int64_t min_points);

/*
 * The median of v[0..n) (the mean of the two middle values for an even
 * n; 0 for n = 0); reorders v.
 */
extern double cp_median(double *v, int64_t n);

#endif							/* KIDX_CHANGEPOINT_H */
