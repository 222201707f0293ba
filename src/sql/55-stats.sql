/* ---------------------------------------------------------------------
 * 6a. Statistics: Welch's t-test on two runs' summaries (issue 25)
 *
 * Where both runs report a mean, a standard deviation and a number of
 * samples, whether they differ outside the noise is Welch's unequal-
 * variances t-test: kernelindex.welch_p_value (src/stats.c; the test and
 * Student's t distribution are src/core/stats.c).  It comes before the
 * views, which may call it.
 * --------------------------------------------------------------------- */

CREATE FUNCTION kernelindex.welch_p_value(mean_a double precision, stddev_a double precision, samples_a bigint,
	mean_b double precision, stddev_b double precision, samples_b bigint)
RETURNS double precision
AS 'MODULE_PATHNAME', 'kidx_welch_p_value'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION kernelindex.welch_p_value(double precision, double precision, bigint, double precision, double precision, bigint) IS
'the two-sided p-value of Welch''s unequal-variances t-test of two runs'' means, from each run''s mean, sample standard deviation and number of samples (Student''s t with the Welch-Satterthwaite degrees of freedom): the probability of a difference at least this large between two runs of equal means; below the chosen level (e.g. 0.05) the difference is outside the noise. 1 for equal means and 0 for different ones when both standard deviations are 0; NULL when a run has fewer than 2 samples (no variance, no test); an error (22023) for a negative standard deviation or number of samples, or a NaN or infinite mean or standard deviation';
