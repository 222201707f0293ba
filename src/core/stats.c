/*-------------------------------------------------------------------------
 *
 * stats.c
 *	  Welch's t-test: the t statistic, the Welch-Satterthwaite degrees of
 *	  freedom and the two-sided p-value of Student's t distribution.
 *
 * The p-value is P(|T| >= |t|) = I_x(df/2, 1/2) with x = df/(df + t^2),
 * the regularized incomplete beta function, evaluated as in DiDonato and
 * Morris's algorithm 708 (ACM TOMS 18, 1992), routine BFRAC: the even
 * part of the continued fraction of I_x(a, b), written with lambda =
 * (a + b) y - b (y = 1 - x) so that its terms are formed without the
 * cancellation that 1 - x (a + b + m)/(a + 2m) suffers when a is large.
 * For Student's t, lambda = x (t^2 - 1) / 2 exactly.  The fraction is
 * used where lambda >= 0 (|t| >= 1 for Student's t); elsewhere the
 * symmetry I_x(a, b) = 1 - I_y(b, a) turns lambda's sign, so that the
 * fraction is always evaluated on the side where it converges fast (at
 * most some 150 terms for Student's t, whatever df: its terms depend on
 * t, and on df only through x and y) and where the subtraction from 1,
 * when there is one, loses nothing (the result is then above 0.3).  The
 * fraction has converged when its last correction, and the rest of the
 * corrections estimated from the last two as a geometric series, are
 * both below DBL_EPSILON of its value.
 *
 * The factor x^a y^b / B(a, b) is formed as one exponential of logarithms
 * that each keep their relative accuracy: log x and log y from t^2 / df
 * with log1p, and log B(a, b) by Stirling's series where a or b is large,
 * written so that lgamma(a) - lgamma(a + b), which cancels to a small
 * number when a is large and b small, is computed as the small number.
 *
 * This file is free of PostgreSQL headers; it needs only C99 and libc.
 *
 * src/core/stats.c
 *
 *-------------------------------------------------------------------------
 */
#include "stats.h"

#include <float.h>
#include <math.h>

/* log(sqrt(pi)) = lgamma(1/2) */
#define LOG_SQRT_PI 0.57236494292470008707171367567652935582364740645766
/* log(sqrt(2 pi)) */
#define LOG_SQRT_2PI 0.91893853320467274178032973640561763986139747363778
/* 1 / sqrt(2) */
#define SQRT_HALF 0.70710678118654752440084436210484903928483593768847

/* How many steps below DBL_EPSILON of the fraction end it in any case. */
#define CF_SETTLED_TERMS 50

/* Where Stirling's series replaces lgamma in log B(a, b). */
#define STIRLING_MIN 10.0

/*
 * Stirling's series remainder: lgamma(z) - ((z - 1/2) log z - z + log
 * sqrt(2 pi)), for z >= STIRLING_MIN, to within 2e-18 (eight terms; the
 * ninth is below 2e-18 / z^17 * 10^17).
 */
static double
stirling_rest(double z)
{
	static const double c[] = {
		1.0 / 12.0,
		-1.0 / 360.0,
		1.0 / 1260.0,
		-1.0 / 1680.0,
		1.0 / 1188.0,
		-691.0 / 360360.0,
		1.0 / 156.0,
		-3617.0 / 122400.0
	};
	double		z2 = 1.0 / z / z;
	double		s = c[7];
	int			i;

	for (i = 6; i >= 0; i--)
		s = s * z2 + c[i];
	return s / z;
}

/*
 * log B(a, b) = lgamma(a) + lgamma(b) - lgamma(a + b), for a, b > 0, with
 * an absolute error of a few units of DBL_EPSILON times its magnitude
 * where min(a, b) < STIRLING_MIN (in particular when a is huge and b =
 * 1/2), and of about (a + b) * DBL_EPSILON otherwise.
 */
static double
log_beta(double a, double b)
{
	double		lo = a < b ? a : b;
	double		hi = a < b ? b : a;
	double		s = lo + hi;

	if (hi < STIRLING_MIN)
		return lgamma(lo) + lgamma(hi) - lgamma(s);
	if (lo < STIRLING_MIN)
	{
		/*
		 * lgamma(hi) - lgamma(hi + lo) by Stirling: lo - (hi - 1/2)
		 * log1p(lo / hi) - lo log(hi + lo) + rest(hi) - rest(hi + lo); the
		 * first two terms cancel to about lo^2 / hi, so they are summed
		 * first.
		 */
		double		d = (lo - (hi - 0.5) * log1p(lo / hi)) - lo * log(s) +
			(stirling_rest(hi) - stirling_rest(s));

		return lgamma(lo) + d;
	}
	/* (hi - 1/2) log(hi / s) + (lo - 1/2) log(lo / s) - log(s) / 2 + ... */
	return LOG_SQRT_2PI - (hi - 0.5) * log1p(lo / hi) +
		(lo - 0.5) * (log(lo) - log(s)) - 0.5 * log(s) +
		(stirling_rest(hi) + stirling_rest(lo) - stirling_rest(s));
}

/*
 * I_x(a, b) for lambda = (a + b) y - b >= 0 (y = 1 - x), given log x and
 * log y: x^a y^b / B(a, b) times BFRAC's continued fraction.
 */
static stats_status
ibeta_fraction(double a, double b, double x, double y, double lx, double ly,
			   double lambda, double *result)
{
	double		c = 1.0 + lambda;
	double		c0 = b / a;
	double		c1 = 1.0 + 1.0 / a;
	double		yp1 = y + 1.0;
	double		p = 1.0;
	double		s = a + 1.0;
	double		an = 0.0;
	double		bn = 1.0;
	double		anp1 = 1.0;
	double		bnp1 = c / c1;
	double		r = c1 / c;
	double		last = 0.0;
	int			settled = 0;
	int			n;

	for (n = 1; n <= STATS_CF_MAX_TERMS; n++)
	{
		double		nn = (double) n;
		double		t = nn / a;
		double		w = nn * (b - nn) * x;
		double		e = a / s;
		double		alpha = (p * (p + c0) * e * e) * (w * x);
		double		beta;
		double		r0;
		double		step;

		e = (1.0 + t) / (c1 + t + t);
		beta = nn + w / s + e * (c + nn * yp1);
		p = 1.0 + t;
		s += 2.0;

		t = alpha * an + beta * anp1;
		an = anp1;
		anp1 = t;
		t = alpha * bn + beta * bnp1;
		bn = bnp1;
		bnp1 = t;
		r0 = r;
		r = anp1 / bnp1;
		if (!(r > 0.0) || !isfinite(r))
			return STATS_NO_CONVERGENCE;

		/*
		 * Converged when this step, and the steps still to come if they
		 * shrink as this one did from the last, are below DBL_EPSILON of r;
		 * or when the steps have stayed below it for CF_SETTLED_TERMS terms,
		 * which only rounding can do (at most 15 for Student's t).
		 */
		step = fabs(r - r0);
		settled = (step <= DBL_EPSILON * r) ? settled + 1 : 0;
		if (settled > 0 &&
			(step == 0.0 || settled >= CF_SETTLED_TERMS ||
			 (step < last && step * step / (last - step) <= DBL_EPSILON * r)))
		{
			*result = exp(a * lx + b * ly - log_beta(a, b) + log(r));
			return STATS_OK;
		}
		last = step;

		/* rescale, so that nothing overflows */
		an = an / bnp1;
		bn = bn / bnp1;
		anp1 = r;
		bnp1 = 1.0;
	}
	return STATS_NO_CONVERGENCE;
}

/*
 * I_x(a, b) given y = 1 - x, log x, log y and lambda = (a + b) y - b, each
 * to full relative accuracy: on the side of the symmetry where lambda >= 0.
 */
static stats_status
ibeta_exact(double a, double b, double x, double y, double lx, double ly,
			double lambda, double *result)
{
	stats_status st;
	double		w;

	if (isinf(lx))
	{
		*result = 0.0;
		return STATS_OK;
	}
	if (isinf(ly))
	{
		*result = 1.0;
		return STATS_OK;
	}
	if (lambda >= 0.0)
		return ibeta_fraction(a, b, x, y, lx, ly, lambda, result);
	st = ibeta_fraction(b, a, y, x, ly, lx, -lambda, &w);
	if (st == STATS_OK)
		*result = 1.0 - w;
	return st;
}

/* See stats.h. */
stats_status
stats_ibeta(double a, double b, double x, double *result)
{
	double		y;
	double		lambda;

	*result = 0.0;
	if (!(a >= STATS_DF_MIN / 2.0) || !(b >= STATS_DF_MIN / 2.0) ||
		!isfinite(a) || !isfinite(b) || !(x >= 0.0 && x <= 1.0))
		return STATS_DOMAIN;
	y = 1.0 - x;
	/* lambda = (a + b) y - b = a - (a + b) x, from the smaller product */
	lambda = (a > b) ? (a + b) * y - b : a - (a + b) * x;
	return ibeta_exact(a, b, x, y, log(x), log1p(-x), lambda, result);
}

/* See stats.h. */
stats_status
stats_t_two_sided(double t, double df, double *p)
{
	double		at = fabs(t);
	double		a = df / 2.0;
	double		x;
	double		y;
	double		lx;
	double		ly;
	double		lambda;
	double		r;

	*p = 0.0;
	if (isnan(t) || !(df >= STATS_DF_MIN))
		return STATS_DOMAIN;
	if (at == 0.0)
	{
		*p = 1.0;
		return STATS_OK;
	}
	if (isinf(at))
		return STATS_OK;
	if (isinf(df))
	{
		*p = erfc(at * SQRT_HALF);
		return STATS_OK;
	}

	/*
	 * r = t^2 / df, x = 1 / (1 + r), y = r / (1 + r), lambda = (df + 1) y / 2
	 * - 1/2 = x (t^2 - 1) / 2 = a y - x / 2.
	 */
	r = (at / df) * at;
	if (r == 0.0)
	{
		/* t^2 / df underflows: p = 1 - O(|t| / sqrt(df)) rounds to 1 */
		*p = 1.0;
		return STATS_OK;
	}
	if (isfinite(r))
	{
		x = 1.0 / (1.0 + r);
		y = r / (1.0 + r);
		lx = -log1p(r);
		ly = (r < 1.0) ? log(r) - log1p(r) : -log1p(1.0 / r);
		if (at < 2.0)
			lambda = x * ((at - 1.0) * (at + 1.0)) / 2.0;
		else
			lambda = a * y - x / 2.0;
	}
	else
	{
		/* x = df / t^2 to within a relative 1e-308, y = 1, lambda = a */
		lx = (log(df) - log(at)) - log(at);
		x = exp(lx);
		y = 1.0;
		ly = -(df / at) / at;
		lambda = a;
	}
	return ibeta_exact(a, 0.5, x, y, lx, ly, lambda, p);
}

/* Check one side's summary: the first fault, in the order of stats.h. */
static stats_status
check_sample(const StatsSample *s)
{
	if (!isfinite(s->mean))
		return STATS_MEAN_NOT_FINITE;
	if (!isfinite(s->stddev))
		return STATS_STDDEV_NOT_FINITE;
	if (s->stddev < 0.0)
		return STATS_STDDEV_NEGATIVE;
	if (s->samples < 0)
		return STATS_SAMPLES_NEGATIVE;
	return STATS_OK;
}

/* See stats.h. */
stats_status
stats_welch(const StatsSample *a, const StatsSample *b, StatsWelch *result)
{
	stats_status st;
	double		na;
	double		nb;
	double		scale;
	double		ra;
	double		rb;
	double		va;
	double		vb;
	double		v;
	double		d;

	result->t = 0.0;
	result->df = 0.0;
	result->p = 0.0;
	result->side = 0;
	if ((st = check_sample(a)) != STATS_OK)
		return st;
	result->side = 1;
	if ((st = check_sample(b)) != STATS_OK)
		return st;
	result->side = 0;
	if (a->samples < 2 || b->samples < 2)
		return STATS_UNDEFINED;

	/* no variance on either side: the means are equal or they are not */
	if (a->stddev == 0.0 && b->stddev == 0.0)
	{
		if (a->mean == b->mean)
			result->p = 1.0;
		else
			result->t = (a->mean > b->mean) ? HUGE_VAL : -HUGE_VAL;
		return STATS_OK;
	}

	/*
	 * The variances of the means in units of the larger standard deviation
	 * squared: no overflow, and an underflow only of a side that is then
	 * negligible next to the other (va or vb is at least 1 / n).
	 */
	na = (double) a->samples;
	nb = (double) b->samples;
	scale = a->stddev > b->stddev ? a->stddev : b->stddev;
	ra = a->stddev / scale;
	rb = b->stddev / scale;
	va = ra * ra / na;
	vb = rb * rb / nb;
	v = va + vb;
	result->df = v * v / (va * va / (double) (a->samples - 1) +
						  vb * vb / (double) (b->samples - 1));

	/* the difference of the means, halved first where it would overflow */
	d = a->mean - b->mean;
	if (isfinite(d))
		result->t = d / scale / sqrt(v);
	else
		result->t = 2.0 * ((a->mean / 2.0 - b->mean / 2.0) / scale / sqrt(v));

	return stats_t_two_sided(result->t, result->df, &result->p);
}

/* See stats.h. */
const char *
stats_status_name(stats_status status)
{
	switch (status)
	{
		case STATS_OK:
			return "ok";
		case STATS_UNDEFINED:
			return "fewer than 2 samples";
		case STATS_MEAN_NOT_FINITE:
			return "mean not finite";
		case STATS_STDDEV_NOT_FINITE:
			return "standard deviation not finite";
		case STATS_STDDEV_NEGATIVE:
			return "negative standard deviation";
		case STATS_SAMPLES_NEGATIVE:
			return "negative number of samples";
		case STATS_DOMAIN:
			return "argument out of domain";
		case STATS_NO_CONVERGENCE:
			return "continued fraction did not converge";
	}
	return "unknown status";
}
