-- Change points: the window function kernelindex.change_point(value, noise)
-- on literal series, and the view kernelindex.change_points on a small store.
-- The known p-values are the method's (src/core/changepoint.h) for the exact
-- statistic, computed with mpmath at 40 digits.
\pset null '(null)'
\set SHOW_CONTEXT never
SET timezone = 'UTC';

-- A series: a step of 2x after 15 of its 30 points, with a small jitter
-- without ties.  z = -112.5 / sqrt(581.25) at k = 15; p = 2 * 19 * Q(z)
-- = 5.8272577543783178e-05 (Bonferroni, 19 candidate splits).
CREATE TEMP TABLE step AS
SELECT i, (CASE WHEN i < 15 THEN 100 ELSE 200 END) + 0.01 * ((i * 7) % 11) + 1e-6 * i AS v
FROM generate_series(0, 29) i;
SELECT i, v, to_char(p, '9.9999999999EEEE') AS p,
	abs(p - 5.8272577543783178e-05) <= 1e-12 * 5.8272577543783178e-05 AS as_known
FROM (SELECT i, v, kernelindex.change_point(v, NULL) OVER (ORDER BY i) AS p FROM step) s
WHERE p IS NOT NULL;
-- The whole partition is read whatever the frame; NULL on every other row.
SELECT count(*) AS rows, count(p) AS changes, min(i) FILTER (WHERE p IS NOT NULL) AS at
FROM (SELECT i, kernelindex.change_point(v, NULL)
		OVER (ORDER BY i ROWS BETWEEN CURRENT ROW AND CURRENT ROW) AS p FROM step) s;
-- The levels and lengths of the final segments either side (the p-value
-- to 11 digits: its last digits are the C library's erfc and exp, which
-- differ between Debian releases).
SELECT i, to_char(levels[1], '9.9999999999EEEE') AS p, levels[2:5] AS levels_and_points
FROM (SELECT i, kernelindex.change_point_levels(v, NULL) OVER (ORDER BY i) AS levels FROM step) s
ORDER BY i OFFSET 15 LIMIT 1;

-- A step down, in descending order of the same rows: the same position.
SELECT i, p IS NOT NULL AS change
FROM (SELECT i, kernelindex.change_point(v, NULL) OVER (ORDER BY i DESC) AS p FROM step) s
WHERE p IS NOT NULL;

-- No change in noise: 200 points of a random walk-free noise around 100
-- (a fixed pseudo-random sequence).
SELECT count(p) AS changes
FROM (SELECT kernelindex.change_point(100 + ((i * 7919) % 101) / 100.0, NULL) OVER (ORDER BY i) AS p
	  FROM generate_series(1, 200) i) s;

-- Two steps: 100, 150, 120 (20 points each): changes at 20 and 40, with
-- p 1.740947237877691e-08 and 1.8275359842037713e-06.
SELECT i, to_char(p, '9.9999EEEE') AS p
FROM (SELECT i, kernelindex.change_point((CASE WHEN i < 20 THEN 100 WHEN i < 40 THEN 150 ELSE 120 END)
			+ 0.01 * ((i * 7) % 11) + 1e-6 * i, NULL) OVER (ORDER BY i) AS p
	  FROM generate_series(0, 59) i) s
WHERE p IS NOT NULL ORDER BY i;

-- A change and its return (100, 150, back to 100; 20 points each).  At
-- the default change_max_p (0.05) the split at 20 passes already (p
-- 0.016; the rest's median lies between the levels), then [20, 60) splits
-- at 40.  At 0.001 no single split passes, and step 7b's block search
-- finds both ends, with one p-value.
CREATE TEMP TABLE up_and_back AS
SELECT i, (CASE WHEN i BETWEEN 20 AND 39 THEN 150 ELSE 100 END) + 0.01 * ((i * 7) % 11) + 1e-6 * i AS v
FROM generate_series(0, 59) i;
SELECT i, to_char(p, '9.9999EEEE') AS p
FROM (SELECT i, kernelindex.change_point(v, NULL) OVER (ORDER BY i) AS p FROM up_and_back) s
WHERE p IS NOT NULL ORDER BY i;
SET kernelindex.change_max_p = 0.001;
SELECT i, to_char(p, '9.9999EEEE') AS p
FROM (SELECT i, kernelindex.change_point(v, NULL) OVER (ORDER BY i) AS p FROM up_and_back) s
WHERE p IS NOT NULL ORDER BY i;
RESET kernelindex.change_max_p;

-- One partition per series; each computed once.
SELECT g, i, p IS NOT NULL AS change
FROM (SELECT g, i, kernelindex.change_point(CASE WHEN i < 10 * g THEN 100 ELSE 300 END
			+ 0.01 * ((i * 7) % 11), NULL) OVER (PARTITION BY g ORDER BY i) AS p
	  FROM generate_series(1, 3) g, generate_series(0, 39) i) s
WHERE p IS NOT NULL ORDER BY g;

-- NULL values are not points of the series: a NULL every third row leaves
-- the step where it is (the row of the first point after it), of 10 and
-- 10 points (p = 0.0014, accepted under change_max_p = 0.01).
SET kernelindex.change_max_p = 0.01;
SELECT i, p IS NOT NULL AS change
FROM (SELECT i, kernelindex.change_point(CASE WHEN i % 3 = 1 THEN NULL ELSE v END, NULL)
		OVER (ORDER BY i) AS p FROM step) s
WHERE p IS NOT NULL;
RESET kernelindex.change_max_p;
-- and a NULL row takes no place: with row 15 NULL the series is 15 points
-- then 14, and the split before row 14 has the same |z| as the split
-- before row 16 (the rank of row 14, the highest of the first level, is
-- 15 of 29, the mean rank, and n1 n2 = 14 * 15 either way): the rank
-- statistic's first maximum is row 14, and step 3b (the fewest points on
-- the wrong side of the midpoint of the medians) locates the change on
-- row 16, the first point of the second level.
SELECT i, p IS NOT NULL AS change
FROM (SELECT i, kernelindex.change_point(CASE WHEN i = 15 THEN NULL ELSE v END, NULL)
		OVER (ORDER BY i) AS p FROM step) s
WHERE p IS NOT NULL;

-- The settings change the answer.  A series of 12 points, 6 and 6: p =
-- 2 * Q(sqrt(108 / 13)) = 0.0039477518569034591, refused at
-- change_max_p = 0.001, accepted at 0.01 (and at the default, 0.05).
CREATE TEMP TABLE short AS
SELECT i, (CASE WHEN i < 6 THEN 100 ELSE 200 END) + 0.01 * ((i * 7) % 11) + 1e-6 * i AS v
FROM generate_series(0, 11) i;
SET kernelindex.change_max_p = 0.001;
SELECT count(p) AS changes FROM (SELECT kernelindex.change_point(v, NULL) OVER (ORDER BY i) AS p FROM short) s;
SET kernelindex.change_max_p = 0.01;
SELECT i, abs(p - 0.0039477518569034591) <= 1e-12 * 0.0039477518569034591 AS as_known
FROM (SELECT i, kernelindex.change_point(v, NULL) OVER (ORDER BY i) AS p FROM short) s
WHERE p IS NOT NULL;
-- with 11 points, fewer than 2 * change_min_points: never split (even at
-- change_max_p = 0.05); at change_min_points = 5, the split 5 | 6 has p =
-- 4 Q(sqrt(7.5)) = 0.0123
SET kernelindex.change_max_p = 0.05;
SELECT count(p) AS changes
FROM (SELECT kernelindex.change_point(v, NULL) OVER (ORDER BY i) AS p FROM short WHERE i > 0) s;
SET kernelindex.change_min_points = 5;
SELECT count(p) AS changes
FROM (SELECT kernelindex.change_point(v, NULL) OVER (ORDER BY i) AS p FROM short WHERE i > 0) s;
RESET kernelindex.change_max_p;
RESET kernelindex.change_min_points;
-- the step of 2x is refused at a minimum shift of 101%
SET kernelindex.change_min_shift = 1.01;
SELECT count(p) AS changes FROM (SELECT kernelindex.change_point(v, NULL) OVER (ORDER BY i) AS p FROM step) s;
RESET kernelindex.change_min_shift;
-- and by the noise floor: the points' own noise of 40 makes the shift of
-- 100 2.5 standard deviations, under the floor of 3; at a floor of 2 it
-- is a change again
SELECT count(p) AS changes FROM (SELECT kernelindex.change_point(v, 40) OVER (ORDER BY i) AS p FROM step) s;
SET kernelindex.change_noise_floor = 2;
SELECT count(p) AS changes FROM (SELECT kernelindex.change_point(v, 40) OVER (ORDER BY i) AS p FROM step) s;
RESET kernelindex.change_noise_floor;
SELECT name, setting, short_desc FROM pg_settings WHERE name LIKE 'kernelindex.change%' ORDER BY name;
-- out of range
SET kernelindex.change_max_p = 1.5;
SET kernelindex.change_min_points = 0;

-- Errors: a NaN or infinite value, a NaN, infinite or negative noise,
-- named with its position (22023).
SELECT kernelindex.change_point(v, NULL) OVER (ORDER BY i)
FROM (VALUES (1, 1.0::float8), (2, NULL), (3, 'NaN')) t(i, v);
\echo :LAST_ERROR_SQLSTATE
SELECT kernelindex.change_point(v, NULL) OVER (ORDER BY i)
FROM (VALUES (1, '-Infinity'::float8)) t(i, v);
\echo :LAST_ERROR_SQLSTATE
SELECT kernelindex.change_point(v, s) OVER (ORDER BY i)
FROM (VALUES (1, 1.0::float8, 0.5::float8), (2, 2.0, -0.25)) t(i, v, s);
\echo :LAST_ERROR_SQLSTATE
SELECT kernelindex.change_point(v, s) OVER (ORDER BY i)
FROM (VALUES (1, 1.0::float8, 'NaN'::float8)) t(i, v, s);
\echo :LAST_ERROR_SQLSTATE
SELECT kernelindex.change_point_levels(v, s) OVER (ORDER BY i)
FROM (VALUES (1, 1.0::float8, 'Infinity'::float8)) t(i, v, s);
\echo :LAST_ERROR_SQLSTATE
-- the noise of a row whose value is NULL is not read
SELECT count(*) FROM (SELECT kernelindex.change_point(v, s) OVER (ORDER BY i)
FROM (VALUES (1, NULL::float8, -1::float8)) t(i, v, s)) q;
-- an empty partition and a partition of one point
SELECT kernelindex.change_point(v, NULL) OVER () FROM (VALUES (1.0::float8)) t(v);
SELECT count(*) FROM (SELECT kernelindex.change_point(1, NULL) OVER () FROM generate_series(1, 0)) q;

-- The view, on a small store.  Series with releases: one workload of
-- cross_entropy, liger and torch, over 20 releases (0.5.1 to 0.5.20), two
-- runs per release a day apart, with a jitter of up to 2%; liger 2x slower
-- from release 0.5.11.  The rows are given out of order (the view orders
-- each series by release, then time): found once, between 0.5.10 and
-- 0.5.11, a regression of 2x, rank 1; torch has no change.
INSERT INTO kernelindex.liger_rows
SELECT 'cross_entropy', prov, 'forward', 'speed', 'ms', 'V', 'vocab size', '4096',
	(base * f * (1 + 0.01 * ((j * 7) % 5 - 2)))::text,
	(base * f * (1 + 0.01 * ((j * 7) % 5 - 2)) * 0.995)::text,
	(base * f * (1 + 0.01 * ((j * 7) % 5 - 2)) * 1.005)::text,
	'{"B": 8, "T": 2048}', 'NVIDIA A100-SXM4-80GB',
	to_char(timestamp '2025-01-01' + j * interval '1 day' + (prov = 'torch')::int * interval '1 minute',
		'YYYY-MM-DD HH24:MI:SS'),
	'0.5.' || (j / 2 + 1)
FROM generate_series(0, 39) j,
	LATERAL (VALUES ('liger', 0.5, CASE WHEN j / 2 + 1 >= 11 THEN 2.0 ELSE 1.0 END), ('torch', 0.8, 1.0)) v(prov, base, f)
ORDER BY (j * 13) % 40;
-- A series without releases (liger_version empty), ordered by time: peak
-- memory of rms_norm 20% lower from the 18th run on, the rows given
-- newest first.
INSERT INTO kernelindex.liger_rows
SELECT 'rms_norm', 'liger', 'full', 'memory', 'MB', 'H', 'hidden size', '1024',
	(100 * f * (1 + 0.01 * ((j * 7) % 5 - 2)))::text,
	(99 * f * (1 + 0.01 * ((j * 7) % 5 - 2)))::text,
	(101 * f * (1 + 0.01 * ((j * 7) % 5 - 2)))::text,
	'{"B": 4}', 'NVIDIA H100 80GB HBM3',
	to_char(timestamp '2025-03-01' + j * interval '1 hour', 'YYYY-MM-DD HH24:MI:SS'),
	''
FROM generate_series(0, 29) j, LATERAL (SELECT CASE WHEN j >= 17 THEN 0.8 ELSE 1.0 END AS f) x
ORDER BY j DESC;
\x on
SELECT * FROM kernelindex.change_points ORDER BY rank;
\x off
-- the same changes as the window function on the runs themselves
SELECT count(*) AS changes FROM (
	SELECT kernelindex.change_point(latency_ns_primary, NULL)
		OVER (PARTITION BY comparability_key, provider
			ORDER BY kernelindex.release_version_key(release), observed_at) AS p
	FROM kernelindex.run_facts WHERE kernel = 'cross_entropy') s
WHERE p IS NOT NULL;
-- a stricter p-value (the settings apply to the view): the regression (p
-- = 1.6e-06) stays, the improvement (p = 6.4e-05) goes
SET kernelindex.change_max_p = 1e-5;
SELECT kernel, direction, rank FROM kernelindex.change_points ORDER BY rank;
RESET kernelindex.change_max_p;

-- Every column of the view has a plain type.
SELECT a.attname, format_type(a.atttypid, a.atttypmod) AS type
FROM pg_attribute a
WHERE a.attrelid = 'kernelindex.change_points'::regclass AND a.attnum > 0
ORDER BY a.attnum;

-- series_change_points: the same rows without the rank.
SELECT count(*) AS rows,
	count(*) FILTER (WHERE (s.*)::text IN (SELECT (c.harness, c.kernel, c.kernel_title, c.pass, c.metric, c.gpu,
		c.gpu_form_factor, c.workload_label, c.provider, c.provider_title, c.comparability_key,
		c.release_before, c.release_after, c.observed_before, c.observed_after, c.level_before,
		c.level_after, c.ratio, c.direction, c.p_value, c.test, c.points_before, c.points_after)::text
		FROM kernelindex.change_points c)) AS in_change_points
FROM kernelindex.series_change_points s;
-- A filter on its kernel (or GPU, workload label, provider) is applied
-- below the window, so that it reads only those series' runs; on
-- change_points it is applied above it (after the rank over the store).
CREATE FUNCTION pg_temp.filtered_below_window(query text) RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE
	line text;
	n integer := 0;
	window_at integer;
	filter_at integer;
BEGIN
	FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || query LOOP
		n := n + 1;
		IF window_at IS NULL AND line LIKE '%WindowAgg%' THEN window_at := n; END IF;
		IF filter_at IS NULL AND line LIKE '%rms_norm%' THEN filter_at := n; END IF;
	END LOOP;
	RETURN filter_at > window_at;
END
$$;
SELECT pg_temp.filtered_below_window($$SELECT * FROM kernelindex.series_change_points WHERE kernel = 'rms_norm'$$) AS series_view,
	pg_temp.filtered_below_window($$SELECT * FROM kernelindex.change_points WHERE kernel = 'rms_norm'$$) AS change_points;
SELECT kernel, direction, ratio FROM kernelindex.series_change_points WHERE kernel = 'rms_norm' AND gpu = 'NVIDIA H100';
