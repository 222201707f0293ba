-- Welch's t-test: kernelindex.welch_p_value(mean_a, stddev_a, samples_a,
-- mean_b, stddev_b, samples_b), the two-sided p-value.
-- The known answers are the exact p-values of the inputs (the doubles as
-- given) to 17 digits, computed with mpmath at 50 digits; scipy's
-- ttest_ind_from_stats(..., equal_var=False) agrees with each to 1e-14 where
-- it has an answer (test/sql/welch.sh compares 10,000 random cases with it).
\pset null '(null)'

CREATE TEMP TABLE known (name text, ma float8, sa float8, na bigint, mb float8, sb float8, nb bigint, p float8);
INSERT INTO known VALUES
	('a textbook case', 10, 1, 10, 11, 1.5, 12, 0.077546438682058662),
	('two latencies 0.04% apart, ms', 2.628607988357544, 0.012, 100, 2.629631996154785, 0.015, 100, 0.59460676484240558),
	('unequal sizes', 94.83366394042969, 0.9, 25, 94.1, 1.3, 40, 0.0092779010956845616),
	('unequal variances', 10.883584, 0.05, 20, 10.734625, 0.4, 20, 0.11435714112565707),
	('2 samples each: df = 2', 1, 0.5, 2, 3, 0.5, 2, 0.057190958417936634),
	('one side without variance: df = 7 - 1', 5, 1, 3, 5.5, 0, 7, 0.47776703213290651),
	('a million samples each, means 1e9', 1e9, 1e7, 1000000, 1.00001e9, 1e7, 1000000, 0.47950020457289473),
	('the most samples a bigint holds', 100, 10, 9223372036854775807, 100.0000001, 10, 9223372036854775807, 2.6766767933103276e-102),
	('variances that underflow a double', 1e-190, 1e-200, 5, 2e-190, 3e-200, 6, 7.7746934498414217e-61),
	('means and deviations near the largest double', 1e308, 1e308, 2, -1e308, 1e308, 2, 0.18350341907227397),
	('microseconds in seconds', 0.001, 0.0001, 30, 0.00105, 0.0002, 15, 0.37365598058658393);

-- Each to a relative 1e-13, and the same with a and b swapped.
SELECT name, to_char(kernelindex.welch_p_value(ma, sa, na, mb, sb, nb), '9.9999999999EEEE') AS p_value,
	abs(kernelindex.welch_p_value(ma, sa, na, mb, sb, nb) - p) <= 1e-13 * p AS as_known,
	kernelindex.welch_p_value(mb, sb, nb, ma, sa, na) = kernelindex.welch_p_value(ma, sa, na, mb, sb, nb) AS symmetric
FROM known ORDER BY name;

-- Closed forms: with 2 samples of equal deviation on each side, df = 2 and
-- p = 1 - |t| / sqrt(2 + t^2); with 2 samples on one side and none of
-- variance on the other, df = 1 and p = 1 - (2 / pi) atan |t|.
SELECT d, abs(kernelindex.welch_p_value(d, 1, 2, 0, 1, 2) - (1 - d / sqrt(2 + d * d))) <= 1e-14 AS df_2,
	abs(kernelindex.welch_p_value(d * sqrt(0.5), 1, 2, 0, 0, 2) - (1 - 2 / pi() * atan(d))) <= 1e-14 AS df_1
FROM unnest(ARRAY[0.001, 0.5, 1, 2, 10, 1000]::float8[]) AS d;

-- Scaling every mean and deviation by the same factor changes nothing
-- (halving or doubling is exact; 1e300 and 1e-300 as far as rounding goes).
SELECT f, abs(kernelindex.welch_p_value(10 * f, 1 * f, 10, 11 * f, 1.5 * f, 12) - 0.077546438682058662) <= 1e-13 AS same_p
FROM unnest(ARRAY[2 ^ -1000, 1e-300, 0.5, 2, 1e300]::float8[]) AS f;

-- Equal means: 1; no variance on either side: 1 for equal means, 0 otherwise;
-- a difference beyond any noise: 0.
SELECT kernelindex.welch_p_value(5, 1, 10, 5, 3, 20) AS equal_means,
	kernelindex.welch_p_value(5, 0, 10, 5, 0, 20) AS no_variance_equal,
	kernelindex.welch_p_value(5, 0, 10, 5.000001, 0, 20) AS no_variance_apart,
	kernelindex.welch_p_value(-0.0, 0, 10, 0, 0, 20) AS minus_zero_is_zero,
	kernelindex.welch_p_value(1, 1e-300, 10, 2, 1e-300, 20) AS far_apart,
	kernelindex.welch_p_value(1e308, 1e-300, 2, -1e308, 1e-300, 2) AS overflowing_t;

-- Every p-value is in [0, 1], falls as the difference grows, and does not
-- change when a and b are swapped.
WITH c AS (
	SELECT i, 100 + i * 0.01 AS mb, 0.05 + (i % 7) * 0.1 AS sb, 2 + (i % 13) * 100 AS nb
	FROM generate_series(0, 2000) AS i
), p AS (
	SELECT i, kernelindex.welch_p_value(100, 0.3, 50, mb, sb, nb) AS ab,
		kernelindex.welch_p_value(mb, sb, nb, 100, 0.3, 50) AS ba,
		kernelindex.welch_p_value(100, 0.3, 50, mb + 0.01, sb, nb) AS further
	FROM c
)
SELECT count(*) AS cases,
	count(*) FILTER (WHERE ab BETWEEN 0 AND 1) AS in_0_1,
	count(*) FILTER (WHERE ab = ba) AS symmetric,
	count(*) FILTER (WHERE further <= ab) AS monotone
FROM p;

-- NULL: any argument NULL (STRICT), or fewer than 2 samples on a side (no
-- variance to estimate, no test).
SELECT kernelindex.welch_p_value(NULL, 1, 10, 11, 1.5, 12) AS null_mean,
	kernelindex.welch_p_value(10, 1, 10, 11, NULL, 12) AS null_stddev,
	kernelindex.welch_p_value(10, 1, 10, 11, 1.5, NULL) AS null_samples,
	kernelindex.welch_p_value(10, 1, 1, 11, 1.5, 12) AS one_sample,
	kernelindex.welch_p_value(10, 1, 10, 11, 1.5, 0) AS no_samples,
	kernelindex.welch_p_value(10, 0, 1, 11, 0, 1) AS one_each;

-- In a query: which pairs of runs differ outside the noise at the 5% level.
SELECT a.run, b.run, round(kernelindex.welch_p_value(a.mean, a.sd, a.n, b.mean, b.sd, b.n)::numeric, 6) AS p_value,
	kernelindex.welch_p_value(a.mean, a.sd, a.n, b.mean, b.sd, b.n) < 0.05 AS outside_noise
FROM (VALUES ('r1', 2.6286, 0.010, 100::bigint), ('r2', 2.6296, 0.012, 100), ('r3', 2.7010, 0.011, 50), ('r4', 2.6301, 0.5, 1))
	AS a(run, mean, sd, n)
JOIN (VALUES ('r1', 2.6286, 0.010, 100::bigint), ('r2', 2.6296, 0.012, 100), ('r3', 2.7010, 0.011, 50), ('r4', 2.6301, 0.5, 1))
	AS b(run, mean, sd, n) ON a.run < b.run
ORDER BY 1, 2;

-- Errors (22023) name the argument and its value; a fault is reported even
-- where there are too few samples for a test; a's arguments first.
\set VERBOSITY default
SELECT kernelindex.welch_p_value(10, -1, 10, 11, 1.5, 12);
SELECT kernelindex.welch_p_value(10, 1, 10, 11, -1.5e-300, 12);
SELECT kernelindex.welch_p_value(10, 1, -10, 11, 1.5, 12);
SELECT kernelindex.welch_p_value(10, 1, 10, 11, 1.5, (-9223372036854775807)::bigint - 1);
SELECT kernelindex.welch_p_value('NaN', 1, 10, 11, 1.5, 12);
SELECT kernelindex.welch_p_value(10, 1, 10, '-Infinity', 1.5, 12);
SELECT kernelindex.welch_p_value(10, 'NaN', 10, 11, 1.5, 12);
SELECT kernelindex.welch_p_value(10, 1, 10, 11, 'Infinity', 12);
SELECT kernelindex.welch_p_value(10, '-Infinity', 10, 11, 1.5, 12);
SELECT kernelindex.welch_p_value(10, -1, 1, 11, 1.5, 12);
SELECT kernelindex.welch_p_value(10, 1, -1, 11, -1, 12);
\set VERBOSITY sqlstate
SELECT kernelindex.welch_p_value(10, -1, 10, 11, 1.5, 12);
SELECT kernelindex.welch_p_value(10, 1, 10, 11, 1.5, -1);
SELECT kernelindex.welch_p_value('Infinity', 1, 10, 11, 1.5, 12);
\set VERBOSITY default
