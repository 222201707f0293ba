/*-------------------------------------------------------------------------
 *
 * stats.h
 *	  Welch's t-test from two runs' summaries (mean, standard deviation,
 *	  number of samples): the t statistic, the Welch-Satterthwaite degrees
 *	  of freedom and the two-sided p-value from Student's t distribution
 *	  with non-integer degrees of freedom, through the regularized
 *	  incomplete beta function.
 *
 * Every input has a defined result: a status says when the test is
 * undefined (fewer than 2 samples on a side) or an input is not a
 * measurement; no function returns NaN.
 *
 * Accuracy (test/unit/test_stats.c and test/sql/welch.sh measure it): the
 * two-sided p-value of Student's t has a relative error below 1e-13
 * wherever it is above 1e-300, for every df from STATS_DF_MIN to
 * infinity; below 1e-300 the absolute error is below 1e-315 (the result
 * leaves the normal range of doubles, then underflows to 0).  The
 * incomplete beta function has the same relative accuracy where
 * min(a, b) <= 10; where both exceed 10 its relative error grows to about
 * (a + b) * 1e-16 (only b = 1/2, Student's t, is used here).
 *
 * This file is free of PostgreSQL headers; it needs only C99 and libc
 * (the C standard library's <math.h>).
 *
 * src/core/stats.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef KIDX_STATS_H
#define KIDX_STATS_H

#include <stdint.h>

/* The least degrees of freedom stats_t_two_sided accepts. */
#define STATS_DF_MIN 1e-3

/* The most terms the incomplete beta's continued fraction may take. */
#define STATS_CF_MAX_TERMS 10000

typedef enum
{
	STATS_OK,
	STATS_UNDEFINED,			/* fewer than 2 samples on a side: no
								 * variance, no test */
	STATS_MEAN_NOT_FINITE,		/* a mean is NaN or infinite */
	STATS_STDDEV_NOT_FINITE,	/* a standard deviation is NaN or infinite */
	STATS_STDDEV_NEGATIVE,		/* a standard deviation is below 0 */
	STATS_SAMPLES_NEGATIVE,		/* a number of samples is below 0 */
	STATS_DOMAIN,				/* an argument of a distribution function is
								 * outside its domain */
	STATS_NO_CONVERGENCE		/* the continued fraction did not converge
								 * in STATS_CF_MAX_TERMS terms (never seen
								 * for Student's t) */
} stats_status;

/* One run's summary of its samples. */
typedef struct StatsSample
{
	double		mean;
	double		stddev;			/* the sample standard deviation */
	int64_t		samples;		/* how many samples */
} StatsSample;

/* The outcome of Welch's test. */
typedef struct StatsWelch
{
	double		t;				/* (mean a - mean b) / its standard error;
								 * +-infinity when both standard deviations
								 * are 0 and the means differ, or when it
								 * overflows */
	double		df;				/* Welch-Satterthwaite degrees of freedom,
								 * between min(na, nb) - 1 and na + nb - 2;
								 * 0 when both standard deviations are 0 */
	double		p;				/* the two-sided p-value, in [0, 1] */
	int			side;			/* for a status about an input: 0 when it is
								 * sample a's, 1 when sample b's */
} StatsWelch;

/*
 * Welch's unequal-variances t-test of a against b.
 *
 * The inputs are checked a's first, then b's, each in the order mean,
 * standard deviation, samples; the first fault is returned, with its side
 * in result->side.  Then, when either side has fewer than 2 samples,
 * STATS_UNDEFINED.  When both standard deviations are 0, p is 1 for equal
 * means and 0 for different ones.  Otherwise t = (ma - mb) / sqrt(sa^2/na
 * + sb^2/nb), df = (sa^2/na + sb^2/nb)^2 / ((sa^2/na)^2/(na - 1) +
 * (sb^2/nb)^2/(nb - 1)), both computed without overflow or underflow
 * (the standard deviations are scaled by the larger one), and p =
 * P(|T_df| >= |t|).  The result is symmetric: swapping a and b negates t
 * and leaves df and p as they are.  On a status other than STATS_OK,
 * result->p is 0, and result->t and df are 0 or, after STATS_DOMAIN or
 * STATS_NO_CONVERGENCE from the p-value (never seen), what they were.
 */
extern stats_status stats_welch(const StatsSample *a, const StatsSample *b,
								StatsWelch *result);

/*
 * The two-sided p-value of Student's t distribution with df degrees of
 * freedom: P(|T| >= |t|) = I_{df/(df+t^2)}(df/2, 1/2), into *p.  df may
 * be any value from STATS_DF_MIN up, including infinity (the normal
 * distribution); t any value but NaN (p is 1 at 0 and 0 at infinity).
 * STATS_DOMAIN for a NaN t or df out of range.
 */
extern stats_status stats_t_two_sided(double t, double df, double *p);

/*
 * The regularized incomplete beta function I_x(a, b), into *result, for
 * a and b from STATS_DF_MIN / 2 up (finite) and x in [0, 1]; STATS_DOMAIN
 * otherwise.
 */
extern stats_status stats_ibeta(double a, double b, double x, double *result);

/* The name of a status, for messages. */
extern const char *stats_status_name(stats_status status);

#endif							/* KIDX_STATS_H */
