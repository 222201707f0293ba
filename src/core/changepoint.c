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
#include <stdlib.h>
#include <string.h>

/* 1 / sqrt(2 pi) */
#define INV_SQRT_2PI 0.39894228040143267793994605993438186847585863116493
/* 1 / sqrt(2) */
#define SQRT_HALF 0.70710678118654752440084436210484903928483593768847
/* The consistency constant of the median absolute deviation. */
#define MAD_SCALE 1.4826
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
	double	   *scratch;		/* n: medians */
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
	p += sizeof(double) * (size_t) n;
	w->stack = (CpRange *) p;
}

/* The bytes of work space for n points; 0 on overflow. */
size_t
cp_work_size(int64_t n)
{
	size_t		per = sizeof(CpPair) + 2 * sizeof(double) + sizeof(CpRange);

	if (n < 0 || (uint64_t) n >= SIZE_MAX / per - 1)
		return 0;
	return per * (size_t) n + sizeof(CpRange);
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

		if (tick)
			tick(tick_arg);
		/* m >= 2L, written so that 2L cannot overflow */
		if (seg.b - seg.a < min_points || seg.b - seg.a - min_points < min_points)
			continue;
		test_segment(x, noise, seg.a, seg.b, min_points, &w, &split,
					 tick, tick_arg);
		if (!(split.p <= settings->max_p &&
			  split.rel >= settings->min_shift &&
			  fabs(split.after - split.before) >= settings->noise_floor * split.sigma))
			continue;
		out[count].pos = split.k;
		out[count].p = split.p;
		count++;
		/* each accepted split replaces one segment by two: top <= count + 1 */
		w.stack[top].a = split.k;
		w.stack[top].b = seg.b;
		top++;
		w.stack[top].a = seg.a;
		w.stack[top].b = split.k;
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
