/* ---------------------------------------------------------------------
 * 7a. Change points: where the level of a series shifts (issue 26)
 *
 * kernelindex.change_point is a window function over one series (its
 * partition, in series order): binary segmentation with a tie-corrected
 * two-sample rank statistic and a p-value over every split the history
 * allows (src/change_points.c; the method is src/core/changepoint.c,
 * doc/change-points.md).  Its thresholds are the settings
 * kernelindex.change_max_p, change_min_shift, change_min_points and
 * change_noise_floor.  The view kernelindex.change_points applies it to
 * every series of the store.
 * --------------------------------------------------------------------- */

CREATE FUNCTION kernelindex.change_point(value double precision, noise double precision)
RETURNS double precision
AS 'MODULE_PATHNAME', 'kidx_change_point'
LANGUAGE C WINDOW STABLE PARALLEL SAFE;
COMMENT ON FUNCTION kernelindex.change_point(double precision, double precision) IS
'window function: change_point(value, noise) OVER (PARTITION BY series ORDER BY position) reads the whole partition (whatever the frame) as a series of points (rows whose value is NULL are not points; noise is the point''s own standard deviation estimate, or NULL) and returns, on the first row after each change of level it finds, the change''s p-value, NULL on every other row. Binary segmentation with a tie-corrected rank-sum statistic (doc/change-points.md), under the settings kernelindex.change_max_p, change_min_shift, change_min_points and change_noise_floor; an error (22023) for a NaN or infinite value, or a NaN, infinite or negative noise';

CREATE FUNCTION kernelindex.change_point_levels(value double precision, noise double precision)
RETURNS double precision[]
AS 'MODULE_PATHNAME', 'kidx_change_point_levels'
LANGUAGE C WINDOW STABLE PARALLEL SAFE;
COMMENT ON FUNCTION kernelindex.change_point_levels(double precision, double precision) IS
'window function: the changes kernelindex.change_point finds, with their levels: on the first row after each change, {p-value, level before, level after, points before, points after} (the medians and lengths of the final segments on either side of the change), NULL on every other row';

CREATE FUNCTION kernelindex.run_noise(p20 bigint, p80 bigint, stddev bigint, samples bigint)
RETURNS double precision
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN CASE WHEN p20 IS NOT NULL AND p80 IS NOT NULL
		THEN pg_catalog.abs(p80::double precision OPERATOR(pg_catalog.-) p20::double precision)
			OPERATOR(pg_catalog./) 1.6832::double precision
	WHEN stddev OPERATOR(pg_catalog.>=) 0 AND samples OPERATOR(pg_catalog.>) 0
		THEN stddev::double precision OPERATOR(pg_catalog./) pg_catalog.sqrt(samples::double precision) END;
COMMENT ON FUNCTION kernelindex.run_noise(bigint, bigint, bigint, bigint) IS
'a run''s own noise, as a standard deviation of its figure: (p80 - p20) / 1.6832 where it has a p20-p80 band (the width of the band of a normal distribution is 1.6832 standard deviations), else stddev / sqrt(samples) where it has a standard deviation and samples (the standard error of its mean), else NULL';

/*
 * The views.  series_change_points: one pass over narrow rows of runs (the
 * run's key, implementation, order, primary value and noise, and the
 * kernel, workload label, GPU and provider that the key and implementation
 * determine), the window over each series (partitioned by the key first:
 * on Citus the key is the distribution column of runs, so the window runs
 * inside the shards; and by those columns too, so that a filter on them, a
 * dashboard's, is applied before the window and reads only its series'
 * runs), then the BI columns for the change rows only.  change_points: the
 * same rows with a rank over every change of the store.
 */
CREATE VIEW kernelindex.series_change_points AS
SELECT p.harness,
	x.kernel,
	COALESCE(kc.title, x.kernel) AS kernel_title,
	COALESCE(p.pass, b.pass) AS pass,
	x.metric,
	x.gpu,
	x.gpu_form_factor,
	x.workload_label,
	x.provider,
	COALESCE(pv.title, x.provider) AS provider_title,
	x.comparability_key::text AS comparability_key,
	x.release_before,
	x.release AS release_after,
	x.observed_before,
	x.observed_at AS observed_after,
	x.cp[2] AS level_before,
	x.cp[3] AS level_after,
	CASE WHEN x.cp[2] OPERATOR(pg_catalog.<>) 0
		THEN x.cp[3] OPERATOR(pg_catalog./) x.cp[2] END AS ratio,
	CASE WHEN x.cp[3] OPERATOR(pg_catalog.>) x.cp[2] THEN 'regression' ELSE 'improvement' END AS direction,
	x.cp[1] AS p_value,
	'rank-sum binary segmentation'::text AS test,
	x.cp[4]::bigint AS points_before,
	x.cp[5]::bigint AS points_after
FROM (
	SELECT c.*
	FROM (
		SELECT s.*,
			kernelindex.change_point_levels(s.value::double precision, s.noise) OVER series AS cp,
			pg_catalog.lag(s.release) OVER series AS release_before,
			pg_catalog.lag(s.observed_at) OVER series AS observed_before
		FROM (
			SELECT q.*, o.release_rank,
				CASE WHEN q.latency IS NOT NULL THEN 'latency' ELSE 'peak_memory' END AS metric,
				COALESCE(q.latency, q.memory) AS value,
				CASE WHEN q.latency IS NOT NULL
					THEN kernelindex.run_noise(q.latency_ns_p20, q.latency_ns_p80, q.latency_ns_stddev, q.latency_samples)
					ELSE kernelindex.run_noise(q.peak_bytes_p20, q.peak_bytes_p80, q.peak_bytes_stddev, q.peak_samples)
				END AS noise
			FROM (
				SELECT r.comparability_key, r.implementation_id, r.digest, r.observed_at, r.benchmark_id,
					r.latency_ns_p20, r.latency_ns_p80, r.latency_ns_stddev, r.latency_samples,
					r.peak_bytes_p20, r.peak_bytes_p80, r.peak_bytes_stddev, r.peak_samples,
					l.release,
					kernelindex_internal.primary_value(tp.latency_statistic, r.latency_ns, r.latency_ns_mean, r.latency_ns_min) AS latency,
					kernelindex_internal.primary_value(tp.memory_statistic, r.peak_bytes, r.peak_bytes_mean, r.peak_bytes_min) AS memory,
					k.protocol_id, w.kernel, w.label AS workload_label, e.product AS gpu,
					e.form_factor AS gpu_form_factor, i.provider
				FROM kernelindex.runs r
				JOIN kernelindex.run_templates tp ON tp.id OPERATOR(pg_catalog.=) r.template_id
				LEFT JOIN kernelindex.run_labels l ON l.id OPERATOR(pg_catalog.=) r.labels_id
				JOIN kernelindex.comparability_keys k ON k.key OPERATOR(@extschema@.=) r.comparability_key
				JOIN kernelindex.workloads w ON w.id OPERATOR(pg_catalog.=) k.workload_id
				JOIN kernelindex.environments e ON e.id OPERATOR(pg_catalog.=) k.environment_id
				JOIN kernelindex.implementations i ON i.id OPERATOR(pg_catalog.=) r.implementation_id
			) q
			LEFT JOIN kernelindex.release_ranks o ON o.release OPERATOR(pg_catalog.=) q.release
			WHERE q.latency IS NOT NULL OR q.memory IS NOT NULL
		) s
		WINDOW series AS (PARTITION BY s.comparability_key, s.kernel, s.workload_label, s.gpu, s.gpu_form_factor,
			s.provider, s.implementation_id, s.metric ORDER BY s.release_rank, s.observed_at, s.digest)
	) c
	WHERE c.cp IS NOT NULL
) x
LEFT JOIN kernelindex.protocols p ON p.id OPERATOR(pg_catalog.=) x.protocol_id
LEFT JOIN kernelindex.run_benchmarks b ON b.id OPERATOR(pg_catalog.=) x.benchmark_id
LEFT JOIN kernelindex.kernels kc ON kc.name OPERATOR(pg_catalog.=) x.kernel
LEFT JOIN kernelindex.providers pv ON pv.name OPERATOR(pg_catalog.=) x.provider;

CREATE VIEW kernelindex.change_points AS
SELECT f.*,
	-- (the frame as release_changes' rank has it)
	pg_catalog.rank() OVER (ORDER BY f.direction OPERATOR(pg_catalog.=) 'regression' DESC,
		CASE WHEN f.direction OPERATOR(pg_catalog.=) 'regression' THEN f.ratio END DESC NULLS LAST,
		CASE WHEN f.direction OPERATOR(pg_catalog.=) 'improvement' THEN f.ratio END ASC NULLS LAST
		ROWS BETWEEN CURRENT ROW AND CURRENT ROW) AS rank
FROM kernelindex.series_change_points f;
COMMENT ON VIEW kernelindex.change_points IS
'one row per change of level in a series (one implementation''s runs under one comparability key and metric, in release order where its runs carry releases, else in time order): the releases and times either side, the levels (medians of the primary statistic) before and after, their ratio, the direction, the p-value of the rank-sum binary segmentation that found it (kernelindex.change_point; settings kernelindex.change_*), and a rank: 1 for the largest regression';
COMMENT ON VIEW kernelindex.series_change_points IS
'the rows of kernelindex.change_points without the rank over the store: each series computed on its own, so that a filter on kernel, workload_label, gpu, gpu_form_factor, provider or comparability_key (a dashboard''s) reads only the runs of those series';
COMMENT ON COLUMN kernelindex.change_points.rank IS '1 for the largest regression: regressions first, by ratio descending, then improvements, by ratio ascending';
DO $comments$
DECLARE
	c record;
BEGIN
	-- the columns both views have, commented once
	FOR c IN SELECT * FROM (VALUES
		('harness', 'the harness that measured the series (its protocol''s spec.harness.name)'),
		('kernel', 'kernel name'),
		('kernel_title', 'kernel title from kernelindex.kernels'),
		('pass', 'timed pass: forward, backward, full, or the harness''s word'),
		('metric', 'latency or peak_memory: what the series measures'),
		('gpu', 'GPU product, e.g. NVIDIA A100'),
		('gpu_form_factor', 'GPU board variant, e.g. SXM4-80GB'),
		('workload_label', 'workload label, e.g. features16384-tokens2048-fp32'),
		('provider', 'implementation provider, e.g. liger'),
		('provider_title', 'provider title from kernelindex.providers'),
		('comparability_key', 'the series'' comparability key, sha256:<hex>'),
		('release_before', 'the release of the last run before the change (NULL when the series'' runs carry no release)'),
		('release_after', 'the release of the first run after the change: the release that made it (NULL when the series'' runs carry no release)'),
		('observed_before', 'when the last run before the change was measured'),
		('observed_after', 'when the first run after the change was measured'),
		('level_before', 'the level before: the median of the primary statistic over the runs from the previous change (or the first run) to this one, ns for latency, bytes for peak memory'),
		('level_after', 'the level after: the median of the primary statistic over the runs from this change to the next (or the last run), ns for latency, bytes for peak memory'),
		('ratio', 'level_after / level_before (above 1: slower, or more memory); NULL when level_before is 0'),
		('direction', 'regression when the level rose (lower is better for latency and memory), else improvement'),
		('p_value', 'the p-value of the change: the chance of a split this clear anywhere in its segment of the history were the level constant (maximum of the standardized rank-sum statistic over every allowed split)'),
		('test', 'the test that found the change: rank-sum binary segmentation (doc/change-points.md)'),
		('points_before', 'the number of runs behind level_before'),
		('points_after', 'the number of runs behind level_after')
	) AS x(col, remark) LOOP
		EXECUTE pg_catalog.format('COMMENT ON COLUMN kernelindex.change_points.%I IS %L', c.col, c.remark);
		EXECUTE pg_catalog.format('COMMENT ON COLUMN kernelindex.series_change_points.%I IS %L', c.col, c.remark);
	END LOOP;
END
$comments$;
