/*-------------------------------------------------------------------------
 *
 * test_changepoint.c
 *	  Unit tests for src/core/changepoint.c: change points by binary
 *	  segmentation with a tie-corrected rank statistic.
 *
 * Small series checked by hand: no change, one step, two steps, ties, a
 * constant series, the L boundary (2L - 1 and 2L points), the settings
 * changing the answer, own noise raising the noise floor; the p-value
 * formula against values computed independently (with mpmath at 40
 * digits, from the formula of changepoint.h: the Bonferroni bound 2 K
 * Q(c) and the James-James-Siegmund approximation); and random series
 * against a slow reference written here (every z_k from ranks counted
 * pairwise, O(m^2)).
 *
 * The last line printed is "N passed, N failed"; the exit status is
 * non-zero on any failure.
 *
 * test/unit/test_changepoint.c
 *
 *-------------------------------------------------------------------------
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/core/changepoint.h"

#define UNIT_RNG_SEED UINT64_C(0xA4093822299F31D0)
#include "unit.h"

#define MAX_N 600

static double xs[MAX_N];
static double noises[MAX_N];
static CpChange changes[MAX_N];
static double work_space[(MAX_N * 48 + 64) / sizeof(double)];

/* The default settings. */
static const CpSettings defaults = {0.001, 0.05, 6, 3.0};

/* Whether a and b agree to rel relative (or both are 0). */
static bool
close_to(double a, double b, double rel)
{
	if (a == b)
		return true;
	return fabs(a - b) <= rel * fabs(b);
}

/* Fill xs[from..to) with level plus a small jitter without ties. */
static void
fill(int from, int to, double level)
{
	int			i;

	for (i = from; i < to; i++)
		xs[i] = level + 0.01 * (double) ((i * 7) % 11) + 1e-6 * i;
}

/* No own noise on any point. */
static void
no_noise(int n)
{
	int			i;

	for (i = 0; i < n; i++)
		noises[i] = NAN;
}

/* Run the method; the number of changes. */
static int64_t
run(int n, const CpSettings *s)
{
	if (!check(cp_work_size(n) <= sizeof(work_space), "work space for %d", n))
		return -1;
	return cp_segment(xs, noises, n, s, work_space, changes, NULL, NULL);
}

/* Count ticks. */
static void
count_tick(void *arg)
{
	(*(long *) arg)++;
}

/* The p-value formula against mpmath's values. */
static void
test_p_value(void)
{
	static const struct
	{
		double		c;
		int64_t		m;
		int64_t		l;
		double		p;
	}			cases[] = {
		/* James-James-Siegmund binding */
		{4.0, 500, 6, 0.004561043882991019212975983604174045000458},
		{3.0, 100, 6, 0.0709458640558976557332950390364515065754},
		{1.2, 20, 6, 0.767944697807202523365799762405804681165},
		{6.0, 1000, 10, 0.0000003297770372868940325460763315451276591578},
		/* Bonferroni binding */
		{5.0, 40, 6, 0.00001662579116899324687707763530672943052356},
		{3.5, 12, 6, 0.0004652581580710500726998517734559695470975},
		{2.0, 6, 1, 0.2275013194817920720028263716653343747178},
		{2.882306768491568402698566055818366674341, 12, 6,
		0.003947751856903459142287593721511879317674},
	};
	size_t		i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
	{
		double		p = cp_p_value(cases[i].c, cases[i].m, cases[i].l);

		check(close_to(p, cases[i].p, 1e-12), "p(%g, %lld, %lld) = %.17g, want %.17g",
			  cases[i].c, (long long) cases[i].m, (long long) cases[i].l, p, cases[i].p);
	}
	/* c <= 1: p = 1; large c: tiny but positive */
	check(cp_p_value(1.0, 100, 6) == 1.0, "p(1) = 1");
	check(cp_p_value(0.0, 100, 6) == 1.0, "p(0) = 1");
	check(cp_p_value(1.0000001, 12, 6) <= 1.0, "p <= 1 just above 1");
	check(cp_p_value(1.5, 1000, 6) == 1.0, "p capped at 1");
	check(cp_p_value(30.0, 1000, 6) > 0.0 && cp_p_value(30.0, 1000, 6) < 1e-150,
		  "p(30) tiny");
}

/* The median of a few sets. */
static void
test_median(void)
{
	double		a[] = {3, 1, 2};
	double		b[] = {4, 1, 3, 2};
	double		c[] = {5};

	check(cp_median(a, 3) == 2.0, "median odd");
	check(cp_median(b, 4) == 2.5, "median even");
	check(cp_median(c, 1) == 5.0, "median one");
	check(cp_median(c, 0) == 0.0, "median none");
}

/* Ties: ranks, the tie sum and z by hand. */
static void
test_ties(void)
{
	static const double t[] = {1, 1, 2, 2, 2, 3};
	CpSplit		sp;

	memcpy(xs, t, sizeof(t));
	no_noise(6);
	/*
	 * Ranks 1.5 1.5 4 4 4 6, T = 6 + 24 = 30, (m + 1) - T / (m (m - 1)) =
	 * 6.  k = 1: W 1.5, E 3.5, V 2.5, z -1.2649; k = 2: W 3, E 7, V 4, z
	 * -2; k = 3: -1.6499; k = 4: -1.5; k = 5: -1.5811.  c = 2 at k = 2.
	 */
	cp_test_segment(xs, noises, 0, 6, 1, work_space, &sp);
	check(sp.k == 2, "ties: k* = %lld, want 2", (long long) sp.k);
	check(close_to(sp.c, 2.0, 1e-14), "ties: c = %.17g, want 2", sp.c);
	check(close_to(sp.p, 0.2275013194817920720028263716653343747178, 1e-12),
		  "ties: p = %.17g", sp.p);
	check(sp.before == 1.0 && sp.after == 2.0, "ties: medians %g %g", sp.before, sp.after);
	check(sp.rel == 1.0, "ties: rel %g", sp.rel);
	/* differences 0 1 0 0 1 but the one at k* (x1 to x2): median of 0 0 0 1 */
	check(sp.sigma == 0.0, "ties: sigma %g", sp.sigma);
}

/* A constant series: c = 0, p = 1, no change. */
static void
test_constant(void)
{
	CpSplit		sp;
	int			i;

	for (i = 0; i < 40; i++)
		xs[i] = 5.0;
	no_noise(40);
	cp_test_segment(xs, noises, 0, 40, 6, work_space, &sp);
	check(sp.c == 0.0 && sp.p == 1.0 && sp.k == 6, "constant: c %g p %g k %lld",
		  sp.c, sp.p, (long long) sp.k);
	check(sp.rel == 0.0 && sp.sigma == 0.0, "constant: rel %g sigma %g", sp.rel, sp.sigma);
	check(run(40, &defaults) == 0, "constant: no change");
	/* zeros: rel 0 */
	for (i = 0; i < 40; i++)
		xs[i] = 0.0;
	check(run(40, &defaults) == 0, "zeros: no change");
}

/* No change: noise around one level. */
static void
test_no_change(void)
{
	int			i;

	for (i = 0; i < 200; i++)
		xs[i] = 100.0 + (double) (rndn(1000)) / 100.0;
	no_noise(200);
	check(run(200, &defaults) == 0, "noise: no change");
}

/* One step, its position, p, levels and lengths. */
static void
test_one_step(void)
{
	CpSplit		sp;
	int64_t		nc;
	double		want_c = 112.5 / sqrt(225.0 / 12.0 * 31.0);

	fill(0, 15, 100.0);
	fill(15, 30, 200.0);
	no_noise(30);
	cp_test_segment(xs, noises, 0, 30, 6, work_space, &sp);
	check(sp.k == 15, "step: k* %lld", (long long) sp.k);
	check(close_to(sp.c, want_c, 1e-14), "step: c %.17g want %.17g", sp.c, want_c);
	check(close_to(sp.p, 0.00005827257754378317841364638506353894317625, 1e-11),
		  "step: p %.17g", sp.p);
	nc = run(30, &defaults);
	check(nc == 1, "step: %lld changes", (long long) nc);
	if (nc == 1)
	{
		check(changes[0].pos == 15, "step: at %lld", (long long) changes[0].pos);
		check(close_to(changes[0].p, sp.p, 1e-15), "step: p");
		check(changes[0].points_before == 15 && changes[0].points_after == 15,
			  "step: points %lld %lld", (long long) changes[0].points_before,
			  (long long) changes[0].points_after);
		check(close_to(changes[0].level_before, sp.before, 1e-15) &&
			  close_to(changes[0].level_after, sp.after, 1e-15), "step: levels");
		check(changes[0].level_before > 100.0 && changes[0].level_before < 100.2 &&
			  changes[0].level_after > 200.0 && changes[0].level_after < 200.2,
			  "step: levels %g %g", changes[0].level_before, changes[0].level_after);
	}
	/* a step down is found the same way */
	fill(0, 15, 200.0);
	fill(15, 30, 100.0);
	nc = run(30, &defaults);
	check(nc == 1 && changes[0].pos == 15, "step down: %lld", (long long) nc);
	/* the settings: a stricter p, a larger shift, a higher floor, a larger L */
	{
		CpSettings	s = defaults;

		s.max_p = 1e-5;
		check(run(30, &s) == 0, "step: max_p 1e-5 refuses");
		s = defaults;
		s.min_shift = 1.01;
		check(run(30, &s) == 0, "step down: min_shift 1.01 refuses (rel 0.5)");
		s.min_shift = 0.49;
		check(run(30, &s) == 1, "step down: min_shift 0.49 accepts");
		s = defaults;
		s.min_points = 16;
		check(run(30, &s) == 0, "step: L 16 leaves no split");
		s = defaults;
		s.noise_floor = 1e9;
		check(run(30, &s) == 0, "step: noise floor 1e9 refuses");
	}
	/* own noise raises sigma: a shift of 100 against noise 40 at floor 3 */
	{
		int			i;

		for (i = 0; i < 30; i++)
			noises[i] = 40.0;
		check(run(30, &defaults) == 0, "step: own noise 40 refuses");
		for (i = 0; i < 30; i++)
			noises[i] = (i % 3 == 0) ? 30.0 : NAN;
		check(run(30, &defaults) == 1, "step: own noise 30 on some points accepts");
		no_noise(30);
	}
}

/*
 * Two steps.  Up, then part of the way back: both found where they are.  A
 * staircase (two steps up): the first split of the whole series is at 39,
 * not 40 (the middle level's points rank in the middle of the segment, so
 * the rank sum barely moves across them and the standardized statistic,
 * whose variance shrinks towards the ends, peaks at the jitter's 39), and
 * [39, 60) has one point of the middle level: the changes are 20 and 39.
 * Up and back to the same level: at no split do the two sides differ in
 * rank enough (|z| about 3.1 over 49 candidates): no change.  A Python
 * transcription of the method answers the same for all three.
 */
static void
test_two_steps(void)
{
	int64_t		nc;

	fill(0, 20, 100.0);
	fill(20, 40, 150.0);
	fill(40, 60, 120.0);
	no_noise(60);
	nc = run(60, &defaults);
	check(nc == 2, "two steps: %lld changes", (long long) nc);
	if (nc == 2)
	{
		check(changes[0].pos == 20 && changes[1].pos == 40, "two steps: at %lld %lld",
			  (long long) changes[0].pos, (long long) changes[1].pos);
		check(changes[0].points_before == 20 && changes[0].points_after == 20 &&
			  changes[1].points_before == 20 && changes[1].points_after == 20,
			  "two steps: points");
		check(changes[0].level_after == changes[1].level_before, "two steps: shared level");
		check(close_to(changes[0].p, 1.740947237877691e-08, 1e-9) &&
			  close_to(changes[1].p, 1.8275359842037713e-06, 1e-9),
			  "two steps: p %.17g %.17g", changes[0].p, changes[1].p);
	}
	fill(0, 20, 100.0);
	fill(20, 40, 130.0);
	fill(40, 60, 170.0);
	nc = run(60, &defaults);
	check(nc == 2 && changes[0].pos == 20 && changes[1].pos == 39,
		  "staircase: %lld changes, at %lld", (long long) nc, (long long) changes[nc > 1].pos);
	if (nc == 2)
		check(close_to(changes[0].p, 2.62355766613102e-06, 1e-9) &&
			  close_to(changes[1].p, 1.3190678539496154e-08, 1e-9) &&
			  changes[1].points_before == 19 && changes[1].points_after == 21,
			  "staircase: p %.17g %.17g", changes[0].p, changes[1].p);
	fill(0, 20, 100.0);
	fill(20, 40, 150.0);
	fill(40, 60, 100.0);
	check(run(60, &defaults) == 0, "up and back: no change");
}

/* The L boundary: 2L - 1 points are never split, 2L may be. */
static void
test_l_boundary(void)
{
	CpSettings	s = defaults;
	int64_t		nc;

	s.max_p = 0.01;
	fill(0, 6, 100.0);
	fill(6, 12, 200.0);
	no_noise(12);
	nc = run(12, &s);
	check(nc == 1 && changes[0].pos == 6, "2L: %lld changes", (long long) nc);
	if (nc == 1)
		check(close_to(changes[0].p, 0.003947751856903459142287593721511879317674, 1e-11),
			  "2L: p %.17g", changes[0].p);
	check(run(12, &defaults) == 0, "2L at max_p 0.001: p 0.0039 refused");
	fill(0, 6, 100.0);
	fill(6, 11, 200.0);
	check(run(11, &s) == 0, "2L - 1: no split");
	/* L = 1 on two points: no differences left, sigma 0 */
	xs[0] = 1.0;
	xs[1] = 2.0;
	s.min_points = 1;
	s.max_p = 1.0;
	nc = run(2, &s);
	check(nc == 1 && changes[0].pos == 1 && changes[0].p == 1.0,
		  "L 1, 2 points, max_p 1: z -1, p 1, accepted (%lld)", (long long) nc);
	s.max_p = 0.999;
	check(run(2, &s) == 0, "L 1, 2 points, max_p 0.999: refused");
	check(run(0, &defaults) == 0 && run(1, &defaults) == 0, "empty and one point");
}

/* A slow reference for one segment: ranks counted pairwise. */
static void
ref_segment(const double *x, int64_t a, int64_t b, int64_t l, int64_t *k_out,
			double *c_out)
{
	int64_t		m = b - a;
	double		ties = 0.0;
	double		c = 0.0;
	double		zs[MAX_N];
	double		r[MAX_N];
	int64_t		i;
	int64_t		j;
	int64_t		k;

	for (i = a; i < b; i++)
	{
		double		less = 0.0;
		double		eq = 0.0;

		for (j = a; j < b; j++)
		{
			if (x[j] < x[i])
				less += 1.0;
			else if (x[j] == x[i])
				eq += 1.0;
		}
		r[i - a] = less + (eq + 1.0) / 2.0;
		/* each member of a group of t adds (t^3 - t) / t */
		ties += eq * eq - 1.0;
	}
	for (k = a + l; k <= b - l; k++)
	{
		double		w = 0.0;
		double		n1 = (double) (k - a);
		double		n2 = (double) (b - k);
		double		v = n1 * n2 / 12.0 * ((m + 1.0) - ties / ((double) m * (m - 1.0)));

		for (i = a; i < k; i++)
			w += r[i - a];
		zs[k - a] = v > 0 ? fabs((w - n1 * (m + 1.0) / 2.0) / sqrt(v)) : 0.0;
		if (zs[k - a] > c)
			c = zs[k - a];
	}
	*c_out = c;
	for (k = a + l; k <= b - l; k++)
		if (zs[k - a] >= c * (1.0 - 1e-12))
			break;
	*k_out = k;
}

/* Random series, with ties and steps, against the slow reference. */
static void
test_random(void)
{
	long		round;
	long		n_rounds = rounds(400);

	for (round = 0; round < n_rounds; round++)
	{
		int64_t		n = 12 + (int64_t) rndn(MAX_N - 12);
		int64_t		l = 1 + (int64_t) rndn(8);
		int64_t		step = (int64_t) rndn((uint32_t) n);
		int			grid = 1 + (int) rndn(50);
		int64_t		i;
		int64_t		rk;
		double		rc;
		CpSplit		sp;
		long		ticks = 0;
		CpSettings	s = defaults;

		if (2 * l > n)
			l = n / 2;
		for (i = 0; i < n; i++)
		{
			/* values on a grid: ties are common */
			xs[i] = 1000.0 + (double) rndn((uint32_t) grid) + (i >= step ? 30.0 : 0.0);
			noises[i] = rndn(4) == 0 ? (double) rndn(5) : NAN;
		}
		cp_test_segment(xs, noises, 0, n, l, work_space, &sp);
		ref_segment(xs, 0, n, l, &rk, &rc);
		check(sp.k == rk, "random %ld: k* %lld, reference %lld", round,
			  (long long) sp.k, (long long) rk);
		check(close_to(sp.c, rc, 1e-12), "random %ld: c %.17g, reference %.17g",
			  round, sp.c, rc);
		s.min_points = l;
		if (cp_segment(xs, noises, n, &s, work_space, changes, count_tick, &ticks) > 0)
		{
			int64_t		nc = cp_segment(xs, noises, n, &s, work_space, changes, NULL, NULL);

			for (i = 1; i < nc; i++)
				check(changes[i].pos > changes[i - 1].pos, "random %ld: order", round);
			for (i = 0; i < nc; i++)
				check(changes[i].points_before >= l && changes[i].points_after >= l &&
					  changes[i].p <= s.max_p, "random %ld: change %lld", round,
					  (long long) i);
		}
		check(ticks > 0, "random %ld: ticks", round);
	}
}

/* Work space sizes. */
static void
test_work_size(void)
{
	check(cp_work_size(0) > 0, "size 0");
	check(cp_work_size(1000) >= 1000 * 40, "size 1000");
	check(cp_work_size(-1) == 0, "size -1");
	check(cp_work_size(INT64_MAX) == 0, "size overflow");
}

int
main(void)
{
	test_p_value();
	test_median();
	test_ties();
	test_constant();
	test_no_change();
	test_one_step();
	test_two_steps();
	test_l_boundary();
	test_random();
	test_work_size();
	printf("%ld passed, %ld failed\n", passed, failed);
	return failed ? 1 : 0;
}
