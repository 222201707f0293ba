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
 * The view: one pass over narrow rows of runs (the run's key,
 * implementation, order, primary value and noise), the window over each
 * series (partitioned by the key first: on Citus the key is the
 * distribution column of runs, so the window runs inside the shards),
 * then the BI columns for the change rows only.
 */
CREATE VIEW kernelindex.change_points AS
SELECT f.*,
	pg_catalog.rank() OVER (ORDER BY f.direction OPERATOR(pg_catalog.=) 'regression' DESC,
		CASE WHEN f.direction OPERATOR(pg_catalog.=) 'regression' THEN f.ratio END DESC NULLS LAST,
		CASE WHEN f.direction OPERATOR(pg_catalog.=) 'improvement' THEN f.ratio END ASC NULLS LAST) AS rank
FROM (
	SELECT p.harness,
		w.kernel,
		COALESCE(kc.title, w.kernel) AS kernel_title,
		COALESCE(p.pass, b.pass) AS pass,
		c.metric,
		e.product AS gpu,
		e.form_factor AS gpu_form_factor,
		w.label AS workload_label,
		i.provider,
		COALESCE(pv.title, i.provider) AS provider_title,
		c.comparability_key::text AS comparability_key,
		c.release_before,
		c.release AS release_after,
		c.observed_before,
		c.observed_at AS observed_after,
		c.cp[2] AS level_before,
		c.cp[3] AS level_after,
		CASE WHEN c.cp[2] OPERATOR(pg_catalog.<>) 0
			THEN c.cp[3] OPERATOR(pg_catalog./) c.cp[2] END AS ratio,
		CASE WHEN c.cp[3] OPERATOR(pg_catalog.>) c.cp[2] THEN 'regression' ELSE 'improvement' END AS direction,
		c.cp[1] AS p_value,
		'rank-sum binary segmentation'::text AS test,
		c.cp[4]::bigint AS points_before,
		c.cp[5]::bigint AS points_after
	FROM (
		SELECT s.*,
			kernelindex.change_point_levels(s.value::double precision, s.noise) OVER series AS cp,
			pg_catalog.lag(s.release) OVER series AS release_before,
			pg_catalog.lag(s.observed_at) OVER series AS observed_before
		FROM (
			SELECT q.comparability_key, q.implementation_id, q.digest, q.observed_at, q.benchmark_id,
				q.release, o.release_rank,
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
					kernelindex.primary_value(tp.latency_statistic, r.latency_ns, r.latency_ns_mean, r.latency_ns_min) AS latency,
					kernelindex.primary_value(tp.memory_statistic, r.peak_bytes, r.peak_bytes_mean, r.peak_bytes_min) AS memory
				FROM kernelindex.runs r
				JOIN kernelindex.run_templates tp ON tp.id OPERATOR(pg_catalog.=) r.template_id
				LEFT JOIN kernelindex.run_labels l ON l.id OPERATOR(pg_catalog.=) r.labels_id
			) q
			LEFT JOIN kernelindex.release_ranks o ON o.release OPERATOR(pg_catalog.=) q.release
			WHERE q.latency IS NOT NULL OR q.memory IS NOT NULL
		) s
		WINDOW series AS (PARTITION BY s.comparability_key, s.implementation_id, s.metric
			ORDER BY s.release_rank, s.observed_at, s.digest)
	) c
	LEFT JOIN kernelindex.comparability_keys k ON k.key OPERATOR(@extschema@.=) c.comparability_key
	LEFT JOIN kernelindex.protocols p ON p.id OPERATOR(pg_catalog.=) k.protocol_id
	LEFT JOIN kernelindex.workloads w ON w.id OPERATOR(pg_catalog.=) k.workload_id
	LEFT JOIN kernelindex.environments e ON e.id OPERATOR(pg_catalog.=) k.environment_id
	LEFT JOIN kernelindex.implementations i ON i.id OPERATOR(pg_catalog.=) c.implementation_id
	LEFT JOIN kernelindex.run_benchmarks b ON b.id OPERATOR(pg_catalog.=) c.benchmark_id
	LEFT JOIN kernelindex.kernels kc ON kc.name OPERATOR(pg_catalog.=) w.kernel
	LEFT JOIN kernelindex.providers pv ON pv.name OPERATOR(pg_catalog.=) i.provider
	WHERE c.cp IS NOT NULL
) f;
COMMENT ON VIEW kernelindex.change_points IS
'one row per change of level in a series (one implementation''s runs under one comparability key and metric, in release order where its runs carry releases, else in time order): the releases and times either side, the levels (medians of the primary statistic) before and after, their ratio, the direction, the p-value of the rank-sum binary segmentation that found it (kernelindex.change_point; settings kernelindex.change_*), and a rank: 1 for the largest regression';
COMMENT ON COLUMN kernelindex.change_points.harness IS 'the harness that measured the series (its protocol''s spec.harness.name)';
COMMENT ON COLUMN kernelindex.change_points.kernel IS 'kernel name';
COMMENT ON COLUMN kernelindex.change_points.kernel_title IS 'kernel title from kernelindex.kernels';
COMMENT ON COLUMN kernelindex.change_points.pass IS 'timed pass: forward, backward, full, or the harness''s word';
COMMENT ON COLUMN kernelindex.change_points.metric IS 'latency or peak_memory: what the series measures';
COMMENT ON COLUMN kernelindex.change_points.gpu IS 'GPU product, e.g. NVIDIA A100';
COMMENT ON COLUMN kernelindex.change_points.gpu_form_factor IS 'GPU board variant, e.g. SXM4-80GB';
COMMENT ON COLUMN kernelindex.change_points.workload_label IS 'workload label, e.g. features16384-tokens2048-fp32';
COMMENT ON COLUMN kernelindex.change_points.provider IS 'implementation provider, e.g. liger';
COMMENT ON COLUMN kernelindex.change_points.provider_title IS 'provider title from kernelindex.providers';
COMMENT ON COLUMN kernelindex.change_points.comparability_key IS 'the series'' comparability key, sha256:<hex>';
COMMENT ON COLUMN kernelindex.change_points.release_before IS 'the release of the last run before the change (NULL when the series'' runs carry no release)';
COMMENT ON COLUMN kernelindex.change_points.release_after IS 'the release of the first run after the change: the release that made it (NULL when the series'' runs carry no release)';
COMMENT ON COLUMN kernelindex.change_points.observed_before IS 'when the last run before the change was measured';
COMMENT ON COLUMN kernelindex.change_points.observed_after IS 'when the first run after the change was measured';
COMMENT ON COLUMN kernelindex.change_points.level_before IS 'the level before: the median of the primary statistic over the runs from the previous change (or the first run) to this one, ns for latency, bytes for peak memory';
COMMENT ON COLUMN kernelindex.change_points.level_after IS 'the level after: the median of the primary statistic over the runs from this change to the next (or the last run), ns for latency, bytes for peak memory';
COMMENT ON COLUMN kernelindex.change_points.ratio IS 'level_after / level_before (above 1: slower, or more memory); NULL when level_before is 0';
COMMENT ON COLUMN kernelindex.change_points.direction IS 'regression when the level rose (lower is better for latency and memory), else improvement';
COMMENT ON COLUMN kernelindex.change_points.p_value IS 'the p-value of the change: the chance of a split this clear anywhere in its segment of the history were the level constant (maximum of the standardized rank-sum statistic over every allowed split)';
COMMENT ON COLUMN kernelindex.change_points.test IS 'the test that found the change: rank-sum binary segmentation (doc/change-points.md)';
COMMENT ON COLUMN kernelindex.change_points.points_before IS 'the number of runs behind level_before';
COMMENT ON COLUMN kernelindex.change_points.points_after IS 'the number of runs behind level_after';
COMMENT ON COLUMN kernelindex.change_points.rank IS '1 for the largest regression: regressions first, by ratio descending, then improvements, by ratio ascending';
