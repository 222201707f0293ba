/*-------------------------------------------------------------------------
 *
 * changepoint.c
 *	  Change points by binary segmentation with a tie-corrected two-sample
 *	  rank statistic (the method is changepoint.h's, step by step).
 *
 * The ranks of a segment come from one sort of (value, index) pairs; the
 * rank sum W of the points before each split is a running sum in index
 * order, so that every z_k of a segment costs O(1) after the sort.  A
 * rank is a multiple of 1/2 and W a sum of at most 2^31 of them, so W is
 * exact in a double for any series that fits in memory; E and V are one
 * rounding each from the exact values.
 *
 * This file is free of PostgreSQL headers; it needs only C99 and libc.
 *
 * src/core/changepoint.c
 *
 *-------------------------------------------------------------------------
 */
#include "changepoint.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* 1 / sqrt(2 pi) */
#define INV_SQRT_2PI 0.39894228040143267793994605993438186847585863116493
/* 1 / sqrt(2) */
#define SQRT_HALF 0.70710678118654752440084436210484903928483593768847
/* The consistency constant of the median absolute deviation. */
#define MAD_SCALE 1.4826
/*
 * The longest segment step 7b searches for a block (its search is
 * quadratic: about 2 million blocks, a few milliseconds, at this length).
 */
#define CP_BLOCK_MAX 2000
/* How many steps of a loop between two ticks. */
#define TICK_STEPS 4096

/* A point of a segment and its index, sorted for the ranks. */
typedef struct CpPair
{
	double		v;
	int64_t		i;
} CpPair;

/* A segment [a, b) still to be tested. */
typedef struct CpRange
{
	int64_t		a;
	int64_t		b;
} CpRange;

/* The parts of the work space of a series of n points. */
typedef struct CpWork
{
	CpPair	   *pairs;			/* n */
	double	   *rank;			/* n: the rank of x[a + j] at j */
	double	   *scratch;		/* n + 1: medians, prefix sums of ranks */
	CpRange    *stack;			/* n + 1 */
} CpWork;

/* Order of pairs: by value, then by index (a total order). */
static int
pair_cmp(const void *pa, const void *pb)
{
	const CpPair *x = (const CpPair *) pa;
	const CpPair *y = (const CpPair *) pb;

	if (x->v < y->v)
		return -1;
	if (x->v > y->v)
		return 1;
	return (x->i > y->i) - (x->i < y->i);
}

/* Order of doubles (none is NaN). */
static int
double_cmp(const void *pa, const void *pb)
{
	double		x = *(const double *) pa;
	double		y = *(const double *) pb;

	return (x > y) - (x < y);
}

/* Order of changes by position. */
static int
change_cmp(const void *pa, const void *pb)
{
	const CpChange *x = (const CpChange *) pa;
	const CpChange *y = (const CpChange *) pb;

	return (x->pos > y->pos) - (x->pos < y->pos);
}

/* Split the work space into its parts (cp_work_size's layout). */
static void
work_parts(void *work, int64_t n, CpWork *w)
{
	char	   *p = (char *) work;

	w->pairs = (CpPair *) p;
	p += sizeof(CpPair) * (size_t) n;
	w->rank = (double *) p;
	p += sizeof(double) * (size_t) n;
	w->scratch = (double *) p;
	p += sizeof(double) * ((size_t) n + 1);
	w->stack = (CpRange *) p;
}

/* The bytes of work space for n points; 0 on overflow. */
size_t
cp_work_size(int64_t n)
{
	size_t		per = sizeof(CpPair) + 2 * sizeof(double) + sizeof(CpRange);

	if (n < 0 || (uint64_t) n >= SIZE_MAX / per - 2)
		return 0;
	return per * (size_t) n + sizeof(CpRange) + sizeof(double);
}

/* The median of v[0..n), reordering v; 0 for no values. */
double
cp_median(double *v, int64_t n)
{
	if (n <= 0)
		return 0.0;
	qsort(v, (size_t) n, sizeof(double), double_cmp);
	if (n % 2 == 1)
		return v[n / 2];
	return (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

/* The p-value of a maximum c of |z| over m points, L each side at least. */
double
cp_p_value(double c, int64_t m, int64_t min_points)
{
	double		k = (double) (m - 2 * min_points + 1);
	double		t0 = (double) min_points / (double) m;
	double		phi;
	double		q;
	double		bonferroni;
	double		jjs;
	double		p;
	double		odds;

	if (!(c > 1.0))
		return 1.0;
	phi = INV_SQRT_2PI * exp(-c * c / 2.0);
	q = erfc(c * SQRT_HALF) / 2.0;
	bonferroni = 2.0 * k * q;
	odds = (1.0 - t0) / t0;
	jjs = c * phi * (1.0 - 1.0 / (c * c)) * log(odds * odds) + 4.0 * phi / c;
	p = 1.0;
	if (bonferroni < p)
		p = bonferroni;
	if (jjs < p)
		p = jjs;
	return p;
}

/* Steps 1 to 6 of the method for the segment [a, b). */
static void
test_segment(const double *x, const double *noise, int64_t a, int64_t b,
			 int64_t min_points, CpWork *w, CpSplit *split,
			 cp_tick_fn tick, void *tick_arg)
{
	int64_t		m = b - a;
	double		md = (double) m;
	double		ties = 0.0;
	double		tie_term;
	double		w_sum = 0.0;
	double		c = 0.0;
	double		shift;
	double		sigma_series;
	double		sigma_own;
	int64_t		j;
	int64_t		k;
	int64_t		nd;

	/* 1. Mid-ranks within the segment, and the tie sum T. */
	for (j = 0; j < m; j++)
	{
		w->pairs[j].v = x[a + j];
		w->pairs[j].i = a + j;
	}
	qsort(w->pairs, (size_t) m, sizeof(CpPair), pair_cmp);
	for (j = 0; j < m;)
	{
		int64_t		e = j + 1;
		double		t;
		double		r;
		int64_t		g;

		while (e < m && w->pairs[e].v == w->pairs[j].v)
			e++;
		t = (double) (e - j);
		r = (double) j + (t + 1.0) / 2.0;
		for (g = j; g < e; g++)
			w->rank[w->pairs[g].i - a] = r;
		ties += t * t * t - t;
		j = e;
	}
	if (tick)
		tick(tick_arg);

	/* 2 and 3. z_k at each split; the first k whose |z| reaches max. */
	tie_term = (md + 1.0) - ties / (md * (md - 1.0));
	for (j = 0; j < min_points; j++)
		w_sum += w->rank[j];
	/* Two passes: the maximum, then the first k at it (within 1e-12). */
	for (k = a + min_points; k <= b - min_points; k++)
	{
		double		n1 = (double) (k - a);
		double		n2 = (double) (b - k);
		double		e = n1 * (md + 1.0) / 2.0;
		double		v = n1 * n2 / 12.0 * tie_term;
		double		z = (v > 0.0) ? (w_sum - e) / sqrt(v) : 0.0;

		w->scratch[k - a] = fabs(z);
		if (fabs(z) > c)
			c = fabs(z);
		if (k < b - min_points)
			w_sum += w->rank[k - a];
		if (tick && (k - a) % TICK_STEPS == 0)
			tick(tick_arg);
	}
	split->c = c;
	split->ties = ties;
	split->k = b - min_points;
	for (k = a + min_points; k <= b - min_points; k++)
	{
		if (w->scratch[k - a] >= c * (1.0 - 1e-12))
		{
			split->k = k;
			break;
		}
	}
	k = split->k;

	/* 4. The p-value. */
	split->p = cp_p_value(c, m, min_points);

	/* 5. The medians either side, and the relative shift. */
	memcpy(w->scratch, x + a, sizeof(double) * (size_t) (k - a));
	split->before = cp_median(w->scratch, k - a);
	memcpy(w->scratch, x + k, sizeof(double) * (size_t) (b - k));
	split->after = cp_median(w->scratch, b - k);
	shift = split->after - split->before;
	if (split->before != 0.0)
		split->rel = fabs(shift) / fabs(split->before);
	else
		split->rel = (shift != 0.0) ? INFINITY : 0.0;

	/* 6. The noise: the series' own (successive differences) or the points'. */
	nd = 0;
	for (j = a; j < b - 1; j++)
		if (j + 1 != k)
			w->scratch[nd++] = fabs(x[j + 1] - x[j]);
	sigma_series = MAD_SCALE * cp_median(w->scratch, nd) * SQRT_HALF;
	nd = 0;
	for (j = a; j < b; j++)
		if (!isnan(noise[j]))
			w->scratch[nd++] = noise[j];
	sigma_own = cp_median(w->scratch, nd);
	split->sigma = (sigma_series > sigma_own) ? sigma_series : sigma_own;
	if (tick)
		tick(tick_arg);
}

/* The median of x[a..b), through the scratch space. */
static double
median_of(const double *x, int64_t a, int64_t b, CpWork *w)
{
	memcpy(w->scratch, x + a, sizeof(double) * (size_t) (b - a));
	return cp_median(w->scratch, b - a);
}

/* |after - before| / |before|: +infinity when before alone is 0. */
static double
relative_shift(double before, double after)
{
	double		shift = after - before;

	if (before != 0.0)
		return fabs(shift) / fabs(before);
	return (shift != 0.0) ? INFINITY : 0.0;
}

/*
 * Step 6's sigma for the segment [a, b), without the differences across
 * k1 and k2 (k2 = -1 for none).
 */
static double
segment_sigma(const double *x, const double *noise, int64_t a, int64_t b,
			  int64_t k1, int64_t k2, CpWork *w)
{
	double		sigma_series;
	double		sigma_own;
	int64_t		nd = 0;
	int64_t		j;

	for (j = a; j < b - 1; j++)
		if (j + 1 != k1 && j + 1 != k2)
			w->scratch[nd++] = fabs(x[j + 1] - x[j]);
	sigma_series = MAD_SCALE * cp_median(w->scratch, nd) * SQRT_HALF;
	nd = 0;
	for (j = a; j < b; j++)
		if (!isnan(noise[j]))
			w->scratch[nd++] = noise[j];
	sigma_own = cp_median(w->scratch, nd);
	return (sigma_series > sigma_own) ? sigma_series : sigma_own;
}

/*
 * Step 3b: the split of [a, b) with the fewest points on the wrong side of
 * the midpoint of the medians either side of k (before the split on the
 * later median's side, from it on the earlier's), the nearest to k among
 * equals, then the smallest; k itself when the medians are equal.
 */
static int64_t
locate_split(const double *x, int64_t a, int64_t b, int64_t k,
			 int64_t min_points, CpWork *w)
{
	double		ml = median_of(x, a, k, w);
	double		mr = median_of(x, k, b, w);
	double		mid;
	bool		up = mr > ml;
	int64_t		wrong_before = 0;
	int64_t		left_after = 0;
	int64_t		best = k;
	int64_t		best_cost = -1;
	int64_t		j;

	if (ml == mr)
		return k;
	mid = (ml + mr) / 2.0;
	/* points of the earlier median's side, from the first split on */
	for (j = a; j < b; j++)
		if (up ? x[j] < mid : x[j] > mid)
			left_after++;
	for (j = a; j <= b - min_points; j++)
	{
		if (j >= a + min_points)
		{
			int64_t		cost = wrong_before + left_after;

			if (best_cost < 0 || cost < best_cost ||
				(cost == best_cost && llabs(j - k) < llabs(best - k)))
			{
				best_cost = cost;
				best = j;
			}
		}
		/* x[j] moves from the later part to the earlier one */
		if (up ? x[j] > mid : x[j] < mid)
			wrong_before++;
		if (up ? x[j] < mid : x[j] > mid)
			left_after--;
	}
	return best;
}

/*
 * Step 7b, the block search: of every block [i, j) of [a, b) with at least
 * min_points points inside and on either side outside it, the one whose
 * ranks (those of test_segment, still in w->rank, and its tie sum) are
 * most unlike the rest's; its ends into *bi and *bj, and its p-value
 * 2 K2 Q(c2) (K2 the number of blocks) returned.
 */
static double
best_block(int64_t a, int64_t b, int64_t min_points, double ties, CpWork *w,
		   int64_t *bi, int64_t *bj, cp_tick_fn tick, void *tick_arg)
{
	int64_t		m = b - a;
	double		md = (double) m;
	double		tie_term = (md + 1.0) - ties / (md * (md - 1.0));
	double	   *prefix = w->scratch;
	double		c2 = 0.0;
	double		pairs = 0.0;
	int64_t		i;
	int64_t		j;
	int			pass;

	prefix[0] = 0.0;
	for (j = 0; j < m; j++)
		prefix[j + 1] = prefix[j] + w->rank[j];
	*bi = a + min_points;
	*bj = a + 2 * min_points;
	/* Two passes: the maximum, then the first block (by i, then j) at it. */
	for (pass = 0; pass < 2; pass++)
	{
		for (i = min_points; i <= m - 2 * min_points; i++)
		{
			for (j = i + min_points; j <= m - min_points; j++)
			{
				double		n1 = (double) (j - i);
				double		v = n1 * (md - n1) / 12.0 * tie_term;
				double		z;

				if (pass == 0)
					pairs += 1.0;
				if (!(v > 0.0))
					continue;
				z = fabs((prefix[j] - prefix[i] - n1 * (md + 1.0) / 2.0) / sqrt(v));
				if (pass == 0)
				{
					if (z > c2)
						c2 = z;
				}
				else if (z >= c2 * (1.0 - 1e-12))
				{
					double		bonferroni = 2.0 * pairs * (erfc(c2 * SQRT_HALF) / 2.0);

					*bi = a + i;
					*bj = a + j;
					if (c2 <= 1.0 || bonferroni > 1.0)
						return 1.0;
					return bonferroni;
				}
			}
			if (tick && i % 64 == 0)
				tick(tick_arg);
		}
	}
	return 1.0;
}

/* Steps 1 to 6 for one segment (the exported form, for tests). */
void
cp_test_segment(const double *x, const double *noise, int64_t a, int64_t b,
				int64_t min_points, void *work, CpSplit *split)
{
	CpWork		w;

	work_parts(work, b, &w);
	test_segment(x, noise, a, b, min_points, &w, split, NULL, NULL);
}

/* The change points of a series (changepoint.h). */
int64_t
cp_segment(const double *x, const double *noise, int64_t n,
		   const CpSettings *settings, void *work, CpChange *out,
		   cp_tick_fn tick, void *tick_arg)
{
	CpWork		w;
	int64_t		min_points = settings->min_points < 1 ? 1 : settings->min_points;
	int64_t		top = 0;
	int64_t		count = 0;
	int64_t		i;

	if (n <= 0)
		return 0;
	work_parts(work, n, &w);
	w.stack[top].a = 0;
	w.stack[top].b = n;
	top++;
	while (top > 0)
	{
		CpRange		seg = w.stack[--top];
		CpSplit		split;
		int64_t		k;
		int64_t		bi;
		int64_t		bj;
		double		before;
		double		after;
		double		inner;
		double		outer;
		double		sigma;
		double		p2;

		if (tick)
			tick(tick_arg);
		/* m >= 2L, written so that 2L cannot overflow */
		if (seg.b - seg.a < min_points || seg.b - seg.a - min_points < min_points)
			continue;
		test_segment(x, noise, seg.a, seg.b, min_points, &w, &split,
					 tick, tick_arg);
		/* 3b. The split located by the midpoint of the medians. */
		k = locate_split(x, seg.a, seg.b, split.k, min_points, &w);
		before = median_of(x, seg.a, k, &w);
		after = median_of(x, k, seg.b, &w);
		sigma = segment_sigma(x, noise, seg.a, seg.b, k, -1, &w);
		if (split.p <= settings->max_p &&
			relative_shift(before, after) >= settings->min_shift &&
			fabs(after - before) >= settings->noise_floor * sigma)
		{
			out[count].pos = k;
			out[count].p = split.p;
			count++;
			/* one segment becomes two: top <= count + 1 */
			w.stack[top].a = k;
			w.stack[top].b = seg.b;
			top++;
			w.stack[top].a = seg.a;
			w.stack[top].b = k;
			top++;
			continue;
		}

		/*
		 * 7b. No single split: a block unlike the rest of the segment (a
		 * change and its return), in segments of at most CP_BLOCK_MAX
		 * points (the search is quadratic).
		 */
		if (seg.b - seg.a < 3 * min_points || seg.b - seg.a > CP_BLOCK_MAX)
			continue;
		p2 = best_block(seg.a, seg.b, min_points, split.ties, &w, &bi, &bj,
						tick, tick_arg);
		bi = locate_split(x, seg.a, bj, bi, min_points, &w);
		bj = locate_split(x, bi, seg.b, bj, min_points, &w);
		inner = median_of(x, bi, bj, &w);
		memcpy(w.scratch, x + seg.a, sizeof(double) * (size_t) (bi - seg.a));
		memcpy(w.scratch + (bi - seg.a), x + bj, sizeof(double) * (size_t) (seg.b - bj));
		outer = cp_median(w.scratch, (bi - seg.a) + (seg.b - bj));
		sigma = segment_sigma(x, noise, seg.a, seg.b, bi, bj, &w);
		if (!(p2 <= settings->max_p &&
			  relative_shift(outer, inner) >= settings->min_shift &&
			  fabs(inner - outer) >= settings->noise_floor * sigma))
			continue;
		out[count].pos = bi;
		out[count].p = p2;
		out[count + 1].pos = bj;
		out[count + 1].p = p2;
		count += 2;
		/* one segment becomes three: top <= count + 1 still */
		w.stack[top].a = bj;
		w.stack[top].b = seg.b;
		top++;
		w.stack[top].a = bi;
		w.stack[top].b = bj;
		top++;
		w.stack[top].a = seg.a;
		w.stack[top].b = bi;
		top++;
	}
	if (count == 0)
		return 0;

	/* The final segments either side of each change: their medians. */
	qsort(out, (size_t) count, sizeof(CpChange), change_cmp);
	for (i = 0; i <= count; i++)
	{
		int64_t		a = (i == 0) ? 0 : out[i - 1].pos;
		int64_t		b = (i == count) ? n : out[i].pos;
		double		level;

		memcpy(w.scratch, x + a, sizeof(double) * (size_t) (b - a));
		level = cp_median(w.scratch, b - a);
		if (i > 0)
		{
			out[i - 1].level_after = level;
			out[i - 1].points_after = b - a;
		}
		if (i < count)
		{
			out[i].level_before = level;
			out[i].points_before = b - a;
		}
		if (tick)
			tick(tick_arg);
	}
	return count;
}
