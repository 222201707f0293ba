/* ---------------------------------------------------------------------
 * 7. Views for BI tools (doc/bi.md; doc/reference.md, "Views")
 *
 * Plain types only (text, bigint, integer, numeric, double precision,
 * timestamptz, boolean): digests as text, times in ns and ms, memory in
 * bytes and MiB, with titles.  A run's number is compared only with
 * numbers under the same comparability key, and a latency never with a
 * memory figure (they have their own protocols, hence their own keys).
 *
 * Every comparison is made within one comparability key: the reference
 * run of a speedup, the latest run of a series (one implementation's runs
 * under one key), the previous release of a change are found by window
 * functions or DISTINCT ON partitioned by the key, one sorted pass over
 * the runs, never a look-up per series.  The passes read narrow rows (the
 * run's own columns, its key as kidx_digest, and what the partitions
 * name), and the columns a BI tool sees (digests as text, titles, ms and
 * MiB) are made once per row returned, after the pass.  The partitions
 * also name the key's kernel, workload label, GPU and form factor (which
 * the key determines, so the partitions are the same): a filter on those
 * columns is applied before the pass, through the indexes on workloads
 * (kernel) and comparability_keys, and a dashboard reads only its runs.
 * On Citus the key is the distribution column of runs, so each pass runs
 * inside the shards.
 *
 * The passes, the narrow rows they read and the columns they show are
 * views of their own in kernelindex_internal (below), so that each column a
 * BI tool sees is defined once; the views in kernelindex read them.
 * --------------------------------------------------------------------- */

CREATE FUNCTION kernelindex_internal.external_id_of(form text, benchmark text, string text,
	workload_label text, observed_at timestamptz)
RETURNS text
AS 'MODULE_PATHNAME', 'kidx_external_id_of'
LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION kernelindex_internal.external_id_of(text, text, text, text, timestamptz) IS
'a stored run''s externalId by its template''s external_id_form: absent (NULL), literal (string), stem (string || the observedAt slug YYYY-MM-DD-HH-MI-SS, -uuuuuu with a fraction), labelled (benchmark/string/workload_label/ || the slug); NULL when a part the form needs is NULL';

CREATE FUNCTION kernelindex.release_version_key(release text)
RETURNS bytea
AS 'MODULE_PATHNAME', 'kidx_release_version_key'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION kernelindex.release_version_key(text) IS
'a key that sorts release labels in version order (0.5.10 after 0.5.9, 1.0rc1 before 1.0, v1.2 as 1.2); NULL for a label that is not a version';

CREATE FUNCTION kernelindex.ratio(reference bigint, own bigint)
RETURNS double precision
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN CASE WHEN own > 0 THEN reference::double precision OPERATOR(pg_catalog./) own::double precision END;
COMMENT ON FUNCTION kernelindex.ratio(bigint, bigint) IS
'reference / own as a double (a speedup for latencies, a saving for memory); NULL unless own > 0';

CREATE FUNCTION kernelindex.bands_apart(a_p20 bigint, a_p80 bigint, b_p20 bigint, b_p80 bigint)
RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN a_p80 OPERATOR(pg_catalog.<) b_p20 OR b_p80 OPERATOR(pg_catalog.<) a_p20;
COMMENT ON FUNCTION kernelindex.bands_apart(bigint, bigint, bigint, bigint) IS
'whether two p20-p80 bands do not overlap: a difference outside the measurement noise (NULL if a band is unknown)';

CREATE FUNCTION kernelindex.ns_to_ms(ns bigint)
RETURNS numeric
AS 'MODULE_PATHNAME', 'kidx_ns_to_ms'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION kernelindex.ns_to_ms(bigint) IS
'nanoseconds as milliseconds, exactly (numeric with six decimals): ns::numeric * 0.000001';

CREATE FUNCTION kernelindex.bytes_to_mib(bytes bigint)
RETURNS numeric
AS 'MODULE_PATHNAME', 'kidx_bytes_to_mib'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION kernelindex.bytes_to_mib(bigint) IS
'bytes as MiB (2^20 bytes), exactly, without trailing zeros: trim_scale(bytes::numeric * 0.00000095367431640625)';

CREATE FUNCTION kernelindex_internal.primary_value(statistic text, median bigint, mean bigint, min bigint)
RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN CASE statistic WHEN 'mean' THEN mean WHEN 'min' THEN min ELSE median END;
COMMENT ON FUNCTION kernelindex_internal.primary_value(text, bigint, bigint, bigint) IS
'the value of a run''s primary statistic (median, mean or min, as its template names it) among its median, mean and min';

CREATE FUNCTION kernelindex_internal.runs_p_value(a_mean bigint, a_stddev bigint, a_samples bigint,
	b_mean bigint, b_stddev bigint, b_samples bigint)
RETURNS double precision
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN kernelindex.welch_p_value(a_mean::double precision, a_stddev::double precision, a_samples,
	b_mean::double precision, b_stddev::double precision, b_samples);
COMMENT ON FUNCTION kernelindex_internal.runs_p_value(bigint, bigint, bigint, bigint, bigint, bigint) IS
'the two-sided p-value of Welch''s t-test between two runs'' means (their standard deviations and samples): NULL unless both runs report all three, with at least 2 samples each';

CREATE FUNCTION kernelindex.outside_noise(a_p20 bigint, a_p80 bigint, b_p20 bigint, b_p80 bigint,
	p_value double precision)
RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN CASE WHEN a_p20 IS NOT NULL AND a_p80 IS NOT NULL AND b_p20 IS NOT NULL AND b_p80 IS NOT NULL
	THEN kernelindex.bands_apart(a_p20, a_p80, b_p20, b_p80)
	ELSE p_value OPERATOR(pg_catalog.<) 0.01 END;
COMMENT ON FUNCTION kernelindex.outside_noise(bigint, bigint, bigint, bigint, double precision) IS
'whether two runs differ outside the measurement noise: where both have p20-p80 bands, the bands do not overlap; else, where both have mean, standard deviation and samples, Welch''s t-test gives p < 0.01 (the p_value given); else NULL';

/* --- Releases in order -------------------------------------------------- */

CREATE VIEW kernelindex.release_ranks AS
WITH labels AS (
	SELECT DISTINCT l.release FROM kernelindex.run_labels l WHERE l.release IS NOT NULL
), unversioned_first AS (
	-- the first run of each label that is not a version (no run is read
	-- when every label is a version)
	SELECT l.release, pg_catalog.min(r.observed_at) AS first_observed_at
	FROM kernelindex.runs r
	JOIN kernelindex.run_labels l ON l.id OPERATOR(pg_catalog.=) r.labels_id
	WHERE kernelindex.release_version_key(l.release) IS NULL
	GROUP BY l.release
)
SELECT x.release,
	kernelindex.release_version_key(x.release) IS NOT NULL AS is_version,
	pg_catalog.rank() OVER (ORDER BY kernelindex.release_version_key(x.release) IS NULL,
		kernelindex.release_version_key(x.release), u.first_observed_at,
		x.release COLLATE "C") AS release_rank
FROM labels x
LEFT JOIN unversioned_first u ON u.release OPERATOR(pg_catalog.=) x.release;
COMMENT ON VIEW kernelindex.release_ranks IS
'release order: versions in version order (0.5.10 after 0.5.9), then labels that are not versions by their first run''s time; reads runs only for labels that are not versions';
COMMENT ON COLUMN kernelindex.release_ranks.release IS 'the release label (metadata.labels.release; liger_version)';
COMMENT ON COLUMN kernelindex.release_ranks.is_version IS 'whether the label is a version (else it sorts by its first run''s time, after the versions)';
COMMENT ON COLUMN kernelindex.release_ranks.release_rank IS 'position in release order, 1 first';

CREATE VIEW kernelindex.releases AS
SELECT o.release, o.is_version, s.first_observed_at, s.series, o.release_rank
FROM kernelindex.release_ranks o
JOIN (SELECT l.release, pg_catalog.min(r.observed_at) AS first_observed_at,
		pg_catalog.count(DISTINCT (r.comparability_key, r.implementation_id)) AS series
	  FROM kernelindex.runs r
	  JOIN kernelindex.run_labels l ON l.id OPERATOR(pg_catalog.=) r.labels_id
	  GROUP BY l.release) s ON s.release OPERATOR(pg_catalog.=) o.release;
COMMENT ON VIEW kernelindex.releases IS
'every release label runs carry, in release order: versions in version order (0.5.10 after 0.5.9), then labels that are not versions by their first run''s time';
COMMENT ON COLUMN kernelindex.releases.release IS 'the release label (metadata.labels.release; liger_version)';
COMMENT ON COLUMN kernelindex.releases.is_version IS 'whether the label is a version (else it sorts by first_observed_at, after the versions)';
COMMENT ON COLUMN kernelindex.releases.first_observed_at IS 'when the first run of the release was measured';
COMMENT ON COLUMN kernelindex.releases.series IS 'how many series (implementations under a comparability key) have runs in the release';
COMMENT ON COLUMN kernelindex.releases.release_rank IS 'position in release order, 1 first';


/* --- The pass over runs (kernelindex_internal) ----------------------------
 *
 * A view a BI tool reads is one sorted pass over narrow rows of runs
 * (window functions partitioned by the comparability key), then the columns
 * it shows, made once per row returned.  Each step is a view of its own, in
 * kernelindex_internal:
 *
 *   narrow_runs    a run, its key's resources, what the windows partition
 *                  and order by (the one place runs are joined to keys,
 *                  resources and templates here)
 *   run_pass       one window over narrow_runs (base) and what the BI
 *                  views read of it: the latest run of a series, the
 *                  latest run of a series in a release, and the base of a
 *                  comparison (the reference implementation's latest run
 *                  under the key, of the same release where there is one)
 *   facts          the columns BI tools see, over run_pass
 *   release_facts  facts of each series' latest run in each release, with
 *                  the release's rank
 *   change_facts   release_facts with the same series' run in the
 *                  previous release
 *
 * A query computes the window only when it reads one of its columns, so
 * run_facts sorts nothing, and every other view sorts the runs once.  The
 * window is partitioned by the key and by the key's kernel, workload
 * label, GPU and form factor (which the key determines, so the partitions
 * are the same): a filter on those columns (a dashboard's) is applied
 * before it, through the indexes on workloads (kernel) and
 * comparability_keys, and reads only its runs.  On Citus the key is the
 * distribution column of runs, so the pass runs inside the shards.
 *
 * The window is ordered by is_reference DESC first, then latest first, and
 * its functions (src/reference_window.c) answer each row from what they
 * kept of the rows before it, reading no other row: reference_value and
 * reference_in_release keep, per partition, the first reference row's value
 * of each release (the base of a comparison); first_of_series and
 * first_of_release the implementations (and releases) met so far, whose
 * first row is their latest.  They replace first_value over two windows,
 * one of them by release, which read the base's row again for every row
 * and every column, and row_number() over two more, each a sort of its own
 * (doc/performance.md, "One window for the pass").  The base's numbers
 * travel as one array; facts takes them apart, in the order of
 * narrow_runs.numbers.
 * --------------------------------------------------------------------- */

CREATE VIEW kernelindex_internal.narrow_runs AS
SELECT q.*,
	CASE WHEN q.latency_ns_primary IS NOT NULL THEN 'latency'
		WHEN q.peak_bytes_primary IS NOT NULL THEN 'peak_memory' END AS metric,
	CASE WHEN q.latency_ns_primary IS NOT NULL THEN q.latency_statistic
		WHEN q.peak_bytes_primary IS NOT NULL THEN q.memory_statistic END AS primary_statistic,
	COALESCE(q.latency_ns_primary, q.peak_bytes_primary) AS value,
	CASE WHEN q.latency_ns_primary IS NOT NULL THEN q.latency_ns_p20 ELSE q.peak_bytes_p20 END AS value_p20,
	CASE WHEN q.latency_ns_primary IS NOT NULL THEN q.latency_ns_p80 ELSE q.peak_bytes_p80 END AS value_p80,
	CASE WHEN q.latency_ns_primary IS NOT NULL THEN q.latency_ns_mean ELSE q.peak_bytes_mean END AS value_mean,
	CASE WHEN q.latency_ns_primary IS NOT NULL THEN q.latency_ns_stddev ELSE q.peak_bytes_stddev END AS value_stddev,
	CASE WHEN q.latency_ns_primary IS NOT NULL THEN q.latency_samples ELSE q.peak_samples END AS value_samples,
	-- the numbers a comparison carries of the run it compares with
	-- (base_numbers), in this order
	ARRAY[q.latency_ns, q.latency_ns_p20, q.latency_ns_p80, q.peak_bytes, q.peak_bytes_p20, q.peak_bytes_p80,
		COALESCE(q.latency_ns_primary, q.peak_bytes_primary),
		CASE WHEN q.latency_ns_primary IS NOT NULL THEN q.latency_ns_p20 ELSE q.peak_bytes_p20 END,
		CASE WHEN q.latency_ns_primary IS NOT NULL THEN q.latency_ns_p80 ELSE q.peak_bytes_p80 END,
		CASE WHEN q.latency_ns_primary IS NOT NULL THEN q.latency_ns_mean ELSE q.peak_bytes_mean END,
		CASE WHEN q.latency_ns_primary IS NOT NULL THEN q.latency_ns_stddev ELSE q.peak_bytes_stddev END,
		CASE WHEN q.latency_ns_primary IS NOT NULL THEN q.latency_samples ELSE q.peak_samples END] AS numbers,
	ARRAY[q.provider, q.release,
		CASE WHEN q.latency_ns_primary IS NOT NULL THEN q.latency_statistic
			WHEN q.peak_bytes_primary IS NOT NULL THEN q.memory_statistic END] AS texts
FROM (
-- what the windows partition and order by first: a sort compares these
-- columns of its rows, and PostgreSQL reaches a column of a sorted row by
-- stepping over the columns before it (the rest of the run's columns
-- follow, in runs' order)
SELECT r.comparability_key, r.digest, r.observed_at,
	COALESCE(i.provider OPERATOR(pg_catalog.=) hn.reference_implementation, pv.is_reference, false) AS is_reference,
	r.implementation_id, w.kernel, w.label AS workload_label, e.product AS gpu, e.form_factor AS gpu_form_factor,
	l.release,
	r.template_id, r.labels_id, r.title_id, r.status_id, r.source_id, r.benchmark_id, r.name_id, r.external_id_id,
	r.latency_ns, r.latency_ns_p20, r.latency_ns_p80, r.peak_bytes, r.peak_bytes_p20, r.peak_bytes_p80,
	r.native_p20, r.native_p50, r.native_p80, r.external_key,
	r.latency_ns_mean, r.latency_ns_stddev, r.latency_ns_min, r.latency_ns_max, r.latency_samples,
	r.peak_bytes_mean, r.peak_bytes_stddev, r.peak_bytes_min, r.peak_bytes_max, r.peak_samples,
	k.protocol_id, k.workload_id, k.environment_id,
	i.provider, p.harness, tp.latency_statistic, tp.memory_statistic,
	kernelindex_internal.primary_value(tp.latency_statistic, r.latency_ns, r.latency_ns_mean, r.latency_ns_min) AS latency_ns_primary,
	kernelindex_internal.primary_value(tp.memory_statistic, r.peak_bytes, r.peak_bytes_mean, r.peak_bytes_min) AS peak_bytes_primary
FROM kernelindex.runs r
JOIN kernelindex.comparability_keys k ON k.key OPERATOR(@extschema@.=) r.comparability_key
JOIN kernelindex.workloads w ON w.id OPERATOR(pg_catalog.=) k.workload_id
JOIN kernelindex.environments e ON e.id OPERATOR(pg_catalog.=) k.environment_id
JOIN kernelindex.protocols p ON p.id OPERATOR(pg_catalog.=) k.protocol_id
JOIN kernelindex.implementations i ON i.id OPERATOR(pg_catalog.=) r.implementation_id
JOIN kernelindex.run_templates tp ON tp.id OPERATOR(pg_catalog.=) r.template_id
LEFT JOIN kernelindex.harnesses hn ON hn.name OPERATOR(pg_catalog.=) p.harness
LEFT JOIN kernelindex.providers pv ON pv.name OPERATOR(pg_catalog.=) i.provider
LEFT JOIN kernelindex.run_labels l ON l.id OPERATOR(pg_catalog.=) r.labels_id
) q;
COMMENT ON VIEW kernelindex_internal.narrow_runs IS
'internal: one narrow row per run (its columns, its key''s resources and what the passes partition and order by; numbers and texts: what a comparison carries of it)';

CREATE FUNCTION kernelindex_internal.reference_value(is_reference boolean, release text, value anyelement)
RETURNS anyelement
AS 'MODULE_PATHNAME', 'kidx_reference_value'
LANGUAGE C IMMUTABLE WINDOW PARALLEL SAFE;
COMMENT ON FUNCTION kernelindex_internal.reference_value(boolean, text, anyelement) IS
'internal window function, over a partition ordered by is_reference DESC NULLS LAST first (then latest first): value of the base of the current row''s comparison, the partition''s first reference row of the current row''s release (IS NOT DISTINCT FROM), else its first row if that is a reference row, else NULL; reads only the current row (an error where a reference row follows a row that is none)';

CREATE FUNCTION kernelindex_internal.reference_in_release(is_reference boolean, release text)
RETURNS boolean
AS 'MODULE_PATHNAME', 'kidx_reference_in_release'
LANGUAGE C IMMUTABLE WINDOW PARALLEL SAFE;
COMMENT ON FUNCTION kernelindex_internal.reference_in_release(boolean, text) IS
'internal window function, over a partition ordered as reference_value''s: true where the partition has a reference row of the current row''s release (IS NOT DISTINCT FROM), false where it has reference rows of other releases only, NULL where it has none';

CREATE FUNCTION kernelindex_internal.first_of_series(implementation_id integer)
RETURNS boolean
AS 'MODULE_PATHNAME', 'kidx_first_of_series'
LANGUAGE C IMMUTABLE WINDOW PARALLEL SAFE;
COMMENT ON FUNCTION kernelindex_internal.first_of_series(integer) IS
'internal window function: whether the current row is the first of its implementation in the partition''s order (row_number() = 1 over the window partitioned by the implementation too, without its sort); over reference_value''s window, the series'' latest run';

CREATE FUNCTION kernelindex_internal.first_of_release(implementation_id integer, release text)
RETURNS boolean
AS 'MODULE_PATHNAME', 'kidx_first_of_release'
LANGUAGE C IMMUTABLE WINDOW PARALLEL SAFE;
COMMENT ON FUNCTION kernelindex_internal.first_of_release(integer, text) IS
'internal window function: whether the current row is the first of its implementation and release (IS NOT DISTINCT FROM) in the partition''s order; over reference_value''s window, the series'' latest run in the release';

CREATE VIEW kernelindex_internal.run_pass AS
SELECT s.*,
	kernelindex_internal.first_of_series(s.implementation_id) OVER base AS is_latest,
	s.release IS NOT NULL AND kernelindex_internal.first_of_release(s.implementation_id, s.release) OVER base AS is_release_latest,
	kernelindex_internal.reference_in_release(s.is_reference, s.release) OVER base IS NOT NULL AS has_reference,
	COALESCE(kernelindex_internal.reference_in_release(s.is_reference, s.release) OVER base, false) AS same_release,
	kernelindex_internal.reference_value(s.is_reference, s.release, s.digest) OVER base AS base_digest,
	kernelindex_internal.reference_value(s.is_reference, s.release, s.observed_at) OVER base AS base_observed_at,
	kernelindex_internal.reference_value(s.is_reference, s.release, s.texts) OVER base AS base_texts,
	kernelindex_internal.reference_value(s.is_reference, s.release, s.numbers) OVER base AS base_numbers
FROM kernelindex_internal.narrow_runs s
WINDOW base AS (PARTITION BY s.comparability_key, s.kernel, s.workload_label, s.gpu, s.gpu_form_factor
		ORDER BY s.is_reference DESC, s.observed_at DESC, s.digest DESC
		ROWS BETWEEN CURRENT ROW AND CURRENT ROW);
COMMENT ON VIEW kernelindex_internal.run_pass IS
'internal: every run with the windows of the BI views: is_latest (the latest run of its series), is_release_latest (of its series in its release), has_reference (its key has a run of the reference implementation), same_release (of its release) and base_* (the reference''s latest run under the key, of the same release where there is one, else of any; NULL without one; texts and numbers as narrow_runs has them); one window, whose functions read only the current row (the frame is theirs to ignore), ordered by is_reference (never NULL, and the same for all runs of an implementation under a key) first';

CREATE VIEW kernelindex_internal.facts AS
SELECT s.comparability_key AS key,
	s.implementation_id,
	s.digest,
	s.digest::text AS run_digest,
	s.comparability_key::text AS comparability_key,
	p.digest::text AS protocol_digest,
	w.digest::text AS workload_digest,
	e.digest::text AS environment_digest,
	i.digest::text AS implementation_digest,
	s.observed_at,
	s.metric,
	s.kernel,
	COALESCE(kc.title, s.kernel) AS kernel_title,
	s.provider,
	COALESCE(pv.title, s.provider) AS provider_title,
	s.is_reference,
	COALESCE(p.pass, b.pass) AS pass,
	s.workload_label,
	w.title AS workload_title,
	s.release,
	t.value AS run_title,
	st.value AS status,
	s.gpu,
	e.vendor AS gpu_vendor,
	s.gpu_form_factor,
	e.architecture AS gpu_architecture,
	e.title AS environment_title,
	p.title AS protocol_title,
	s.latency_ns,
	s.latency_ns_p20,
	s.latency_ns_p80,
	kernelindex.ns_to_ms(s.latency_ns) AS latency_ms,
	kernelindex.ns_to_ms(s.latency_ns_p20) AS latency_ms_p20,
	kernelindex.ns_to_ms(s.latency_ns_p80) AS latency_ms_p80,
	s.peak_bytes,
	s.peak_bytes_p20,
	s.peak_bytes_p80,
	kernelindex.bytes_to_mib(s.peak_bytes) AS peak_mib,
	kernelindex.bytes_to_mib(s.peak_bytes_p20) AS peak_mib_p20,
	kernelindex.bytes_to_mib(s.peak_bytes_p80) AS peak_mib_p80,
	src.value AS source,
	kernelindex_internal.external_id_of(tp.external_id_form, b.value, x.value, s.workload_label, s.observed_at) AS external_id,
	b.value AS benchmark,
	s.harness,
	s.primary_statistic,
	s.latency_ns_mean,
	s.latency_ns_stddev,
	s.latency_ns_min,
	s.latency_ns_max,
	s.latency_samples,
	s.latency_ns_primary,
	kernelindex.ns_to_ms(s.latency_ns_mean) AS latency_ms_mean,
	kernelindex.ns_to_ms(s.latency_ns_stddev) AS latency_ms_stddev,
	kernelindex.ns_to_ms(s.latency_ns_min) AS latency_ms_min,
	kernelindex.ns_to_ms(s.latency_ns_max) AS latency_ms_max,
	kernelindex.ns_to_ms(s.latency_ns_primary) AS latency_ms_primary,
	s.peak_bytes_mean,
	s.peak_bytes_stddev,
	s.peak_bytes_min,
	s.peak_bytes_max,
	s.peak_samples,
	s.peak_bytes_primary,
	kernelindex.bytes_to_mib(s.peak_bytes_primary) AS peak_mib_primary,
	-- the windows and the comparison with the base
	s.is_latest,
	s.is_release_latest,
	s.has_reference,
	s.same_release,
	s.value,
	s.value_p20,
	s.value_p80,
	s.value_mean,
	s.value_stddev,
	s.value_samples,
	s.numbers,
	s.base_digest::text AS base_run_digest,
	s.base_observed_at,
	s.base_texts[1] AS base_provider,
	s.base_texts[2] AS base_release,
	s.base_texts[3] AS base_statistic,
	s.base_numbers[1] AS base_latency_ns,
	s.base_numbers[2] AS base_latency_ns_p20,
	s.base_numbers[3] AS base_latency_ns_p80,
	s.base_numbers[4] AS base_peak_bytes,
	s.base_numbers[5] AS base_peak_bytes_p20,
	s.base_numbers[6] AS base_peak_bytes_p80,
	s.base_numbers[7] AS base_value,
	-- the base's primary statistic over the run's, where both are compared
	-- on the same statistic
	CASE WHEN s.primary_statistic OPERATOR(pg_catalog.=) s.base_texts[3]
		THEN kernelindex.ratio(s.base_numbers[7], s.value) END AS base_ratio,
	kernelindex.outside_noise(s.value_p20, s.value_p80, s.base_numbers[8], s.base_numbers[9],
		kernelindex_internal.runs_p_value(s.value_mean, s.value_stddev, s.value_samples,
			s.base_numbers[10], s.base_numbers[11], s.base_numbers[12])) AS outside_noise,
	kernelindex_internal.runs_p_value(s.value_mean, s.value_stddev, s.value_samples,
		s.base_numbers[10], s.base_numbers[11], s.base_numbers[12]) AS p_value,
	s.base_numbers[10] AS base_value_mean,
	s.base_numbers[11] AS base_value_stddev,
	s.base_numbers[12] AS base_value_samples
FROM kernelindex_internal.run_pass s
LEFT JOIN kernelindex.protocols p ON p.id OPERATOR(pg_catalog.=) s.protocol_id
LEFT JOIN kernelindex.workloads w ON w.id OPERATOR(pg_catalog.=) s.workload_id
LEFT JOIN kernelindex.environments e ON e.id OPERATOR(pg_catalog.=) s.environment_id
LEFT JOIN kernelindex.implementations i ON i.id OPERATOR(pg_catalog.=) s.implementation_id
LEFT JOIN kernelindex.run_templates tp ON tp.id OPERATOR(pg_catalog.=) s.template_id
LEFT JOIN kernelindex.run_statuses st ON st.id OPERATOR(pg_catalog.=) s.status_id
LEFT JOIN kernelindex.run_titles t ON t.id OPERATOR(pg_catalog.=) s.title_id
LEFT JOIN kernelindex.run_sources src ON src.id OPERATOR(pg_catalog.=) s.source_id
LEFT JOIN kernelindex.run_benchmarks b ON b.id OPERATOR(pg_catalog.=) s.benchmark_id
LEFT JOIN kernelindex.run_strings x ON x.id OPERATOR(pg_catalog.=) s.external_id_id
LEFT JOIN kernelindex.kernels kc ON kc.name OPERATOR(pg_catalog.=) s.kernel
LEFT JOIN kernelindex.providers pv ON pv.name OPERATOR(pg_catalog.=) s.provider;
COMMENT ON VIEW kernelindex_internal.facts IS
'internal: one row per run: the columns of the BI views (those of run_facts, then the windows and the comparison with the base run: base_*)';

CREATE VIEW kernelindex_internal.release_facts AS
SELECT f.*, rel.release_rank, f.same_release AND NOT f.is_reference AS compared
FROM kernelindex_internal.facts f
JOIN kernelindex.release_ranks rel ON rel.release OPERATOR(pg_catalog.=) f.release
WHERE f.is_release_latest;
COMMENT ON VIEW kernelindex_internal.release_facts IS
'internal: the facts of each series'' latest run in each release, with the release''s rank; compared: the reference implementation has a run under the key in that release (then base_* is its latest), and the run is not the reference''s';

CREATE VIEW kernelindex_internal.change_facts AS
SELECT c.*,
	-- new / old: above 1 is slower, or more memory
	CASE WHEN c.primary_statistic OPERATOR(pg_catalog.=) c.old_statistic
		THEN kernelindex.ratio(c.value, c.old_numbers[7]) END AS change,
	kernelindex.outside_noise(c.value_p20, c.value_p80, c.old_numbers[8], c.old_numbers[9],
		kernelindex_internal.runs_p_value(c.value_mean, c.value_stddev, c.value_samples,
			c.old_numbers[10], c.old_numbers[11], c.old_numbers[12])) AS change_outside_noise,
	kernelindex_internal.runs_p_value(c.value_mean, c.value_stddev, c.value_samples,
		c.old_numbers[10], c.old_numbers[11], c.old_numbers[12]) AS change_p_value
FROM (
	SELECT f.*,
		pg_catalog.lag(f.release) OVER w AS old_release,
		pg_catalog.lag(f.release_rank) OVER w AS old_release_rank,
		pg_catalog.lag(f.run_digest) OVER w AS old_run_digest,
		pg_catalog.lag(f.primary_statistic) OVER w AS old_statistic,
		pg_catalog.lag(f.numbers) OVER w AS old_numbers
	FROM kernelindex_internal.release_facts f
	WINDOW w AS (PARTITION BY f.key, f.kernel, f.workload_label, f.gpu, f.gpu_form_factor, f.implementation_id
		ORDER BY f.release_rank)
) c
WHERE c.old_release IS NOT NULL;
COMMENT ON VIEW kernelindex_internal.change_facts IS
'internal: each release_facts row with the same series'' row of the previous release it ran in (old_*: narrow_runs.numbers order), the change new / old on the primary statistic, whether it is outside the noise and its Welch p-value';

/* --- The views ------------------------------------------------------------ */

/* One row per run. */
CREATE VIEW kernelindex.run_facts AS
SELECT f.run_digest, f.comparability_key, f.protocol_digest, f.workload_digest, f.environment_digest,
	f.implementation_digest, f.observed_at, f.metric, f.kernel, f.kernel_title, f.provider,
	f.provider_title, f.is_reference, f.pass, f.workload_label, f.workload_title, f.release,
	f.run_title, f.status, f.gpu, f.gpu_vendor, f.gpu_form_factor, f.gpu_architecture,
	f.environment_title, f.protocol_title,
	f.latency_ns, f.latency_ns_p20, f.latency_ns_p80, f.latency_ms, f.latency_ms_p20, f.latency_ms_p80,
	f.peak_bytes, f.peak_bytes_p20, f.peak_bytes_p80, f.peak_mib, f.peak_mib_p20, f.peak_mib_p80,
	f.source, f.external_id, f.benchmark, f.harness, f.primary_statistic,
	f.latency_ns_mean, f.latency_ns_stddev, f.latency_ns_min, f.latency_ns_max, f.latency_samples,
	f.latency_ns_primary, f.latency_ms_mean, f.latency_ms_stddev, f.latency_ms_min, f.latency_ms_max,
	f.latency_ms_primary,
	f.peak_bytes_mean, f.peak_bytes_stddev, f.peak_bytes_min, f.peak_bytes_max, f.peak_samples,
	f.peak_bytes_primary, f.peak_mib_primary
FROM kernelindex_internal.facts f;


/*
 * The latest run per comparability key and implementation: run_facts'
 * columns, in its order (regress bi checks that they stay the same).
 */
CREATE VIEW kernelindex.latest_runs AS
SELECT f.run_digest, f.comparability_key, f.protocol_digest, f.workload_digest, f.environment_digest,
	f.implementation_digest, f.observed_at, f.metric, f.kernel, f.kernel_title, f.provider,
	f.provider_title, f.is_reference, f.pass, f.workload_label, f.workload_title, f.release,
	f.run_title, f.status, f.gpu, f.gpu_vendor, f.gpu_form_factor, f.gpu_architecture,
	f.environment_title, f.protocol_title,
	f.latency_ns, f.latency_ns_p20, f.latency_ns_p80, f.latency_ms, f.latency_ms_p20, f.latency_ms_p80,
	f.peak_bytes, f.peak_bytes_p20, f.peak_bytes_p80, f.peak_mib, f.peak_mib_p20, f.peak_mib_p80,
	f.source, f.external_id, f.benchmark, f.harness, f.primary_statistic,
	f.latency_ns_mean, f.latency_ns_stddev, f.latency_ns_min, f.latency_ns_max, f.latency_samples,
	f.latency_ns_primary, f.latency_ms_mean, f.latency_ms_stddev, f.latency_ms_min, f.latency_ms_max,
	f.latency_ms_primary,
	f.peak_bytes_mean, f.peak_bytes_stddev, f.peak_bytes_min, f.peak_bytes_max, f.peak_samples,
	f.peak_bytes_primary, f.peak_mib_primary
FROM kernelindex_internal.facts f
WHERE f.is_latest;

/* Each run against the reference implementation. */
CREATE VIEW kernelindex.speedups AS
SELECT f.kernel, f.kernel_title, f.pass, f.metric, f.gpu, f.gpu_form_factor, f.workload_label,
	f.provider, f.provider_title, f.release, f.observed_at,
	f.base_provider AS reference_provider,
	COALESCE(rpv.title, f.base_provider) AS reference_provider_title,
	f.base_release AS reference_release,
	f.base_observed_at AS reference_observed_at,
	f.same_release,
	f.latency_ns, f.latency_ns_p20, f.latency_ns_p80, f.latency_ms, f.latency_ms_p20, f.latency_ms_p80,
	f.base_latency_ns AS reference_latency_ns,
	f.base_latency_ns_p20 AS reference_latency_ns_p20,
	f.base_latency_ns_p80 AS reference_latency_ns_p80,
	kernelindex.ns_to_ms(f.base_latency_ns) AS reference_latency_ms,
	kernelindex.ns_to_ms(f.base_latency_ns_p20) AS reference_latency_ms_p20,
	kernelindex.ns_to_ms(f.base_latency_ns_p80) AS reference_latency_ms_p80,
	CASE WHEN f.metric OPERATOR(pg_catalog.=) 'latency' THEN f.base_ratio END AS speedup,
	f.peak_bytes, f.peak_bytes_p20, f.peak_bytes_p80, f.peak_mib,
	f.base_peak_bytes AS reference_peak_bytes,
	f.base_peak_bytes_p20 AS reference_peak_bytes_p20,
	f.base_peak_bytes_p80 AS reference_peak_bytes_p80,
	kernelindex.bytes_to_mib(f.base_peak_bytes) AS reference_peak_mib,
	CASE WHEN f.metric OPERATOR(pg_catalog.=) 'peak_memory' THEN f.base_ratio END AS memory_ratio,
	f.outside_noise,
	f.comparability_key, f.implementation_digest, f.run_digest,
	f.base_run_digest AS reference_run_digest,
	f.harness, f.primary_statistic,
	f.base_statistic AS reference_primary_statistic,
	f.latency_ns_primary,
	CASE WHEN f.metric OPERATOR(pg_catalog.=) 'latency' THEN f.base_value END AS reference_latency_ns_primary,
	f.peak_bytes_primary,
	CASE WHEN f.metric OPERATOR(pg_catalog.=) 'peak_memory' THEN f.base_value END AS reference_peak_bytes_primary,
	f.p_value,
	f.latency_ms_primary,
	CASE WHEN f.metric OPERATOR(pg_catalog.=) 'latency' THEN kernelindex.ns_to_ms(f.base_value) END AS reference_latency_ms_primary,
	f.peak_mib_primary,
	CASE WHEN f.metric OPERATOR(pg_catalog.=) 'peak_memory' THEN kernelindex.bytes_to_mib(f.base_value) END AS reference_peak_mib_primary,
	f.latency_ns_mean, f.latency_ns_stddev, f.latency_ns_min, f.latency_ns_max, f.latency_samples,
	CASE WHEN f.metric OPERATOR(pg_catalog.=) 'latency' THEN f.base_value_mean END AS reference_latency_ns_mean,
	CASE WHEN f.metric OPERATOR(pg_catalog.=) 'latency' THEN f.base_value_stddev END AS reference_latency_ns_stddev,
	CASE WHEN f.metric OPERATOR(pg_catalog.=) 'latency' THEN f.base_value_samples END AS reference_latency_samples,
	f.peak_bytes_mean, f.peak_bytes_stddev, f.peak_bytes_min, f.peak_bytes_max, f.peak_samples,
	CASE WHEN f.metric OPERATOR(pg_catalog.=) 'peak_memory' THEN f.base_value_mean END AS reference_peak_bytes_mean,
	CASE WHEN f.metric OPERATOR(pg_catalog.=) 'peak_memory' THEN f.base_value_stddev END AS reference_peak_bytes_stddev,
	CASE WHEN f.metric OPERATOR(pg_catalog.=) 'peak_memory' THEN f.base_value_samples END AS reference_peak_samples
FROM kernelindex_internal.facts f
LEFT JOIN kernelindex.providers rpv ON rpv.name OPERATOR(pg_catalog.=) f.base_provider
WHERE f.has_reference AND NOT f.is_reference;

/* Per release: one run per workload and implementation. */
CREATE VIEW kernelindex.release_runs AS
SELECT f.kernel, f.kernel_title, f.pass, f.metric, f.gpu, f.gpu_form_factor, f.workload_label,
	f.provider, f.provider_title, f.is_reference, f.release, f.release_rank, f.observed_at,
	f.latency_ns, f.latency_ns_p20, f.latency_ns_p80, f.latency_ms,
	f.peak_bytes, f.peak_bytes_p20, f.peak_bytes_p80, f.peak_mib,
	CASE WHEN f.compared THEN f.base_provider END AS reference_provider,
	CASE WHEN f.compared THEN f.base_latency_ns END AS reference_latency_ns,
	CASE WHEN f.compared THEN kernelindex.ns_to_ms(f.base_latency_ns) END AS reference_latency_ms,
	CASE WHEN f.compared THEN f.base_latency_ns_p20 END AS reference_latency_ns_p20,
	CASE WHEN f.compared THEN f.base_latency_ns_p80 END AS reference_latency_ns_p80,
	CASE WHEN f.compared THEN f.base_peak_bytes END AS reference_peak_bytes,
	CASE WHEN f.compared THEN kernelindex.bytes_to_mib(f.base_peak_bytes) END AS reference_peak_mib,
	CASE WHEN f.compared THEN f.base_peak_bytes_p20 END AS reference_peak_bytes_p20,
	CASE WHEN f.compared THEN f.base_peak_bytes_p80 END AS reference_peak_bytes_p80,
	CASE WHEN f.compared THEN f.base_ratio END AS ratio,
	CASE WHEN f.compared THEN f.outside_noise END AS outside_noise,
	f.comparability_key, f.implementation_digest, f.run_digest,
	CASE WHEN f.compared THEN f.base_run_digest END AS reference_run_digest,
	f.harness, f.primary_statistic,
	CASE WHEN f.compared THEN f.p_value END AS p_value,
	CASE WHEN f.compared THEN f.base_statistic END AS reference_primary_statistic,
	f.latency_ns_primary, f.latency_ms_primary, f.peak_bytes_primary, f.peak_mib_primary,
	CASE WHEN f.compared AND f.metric OPERATOR(pg_catalog.=) 'latency' THEN f.base_value END AS reference_latency_ns_primary,
	CASE WHEN f.compared AND f.metric OPERATOR(pg_catalog.=) 'latency' THEN kernelindex.ns_to_ms(f.base_value) END AS reference_latency_ms_primary,
	CASE WHEN f.compared AND f.metric OPERATOR(pg_catalog.=) 'peak_memory' THEN f.base_value END AS reference_peak_bytes_primary,
	CASE WHEN f.compared AND f.metric OPERATOR(pg_catalog.=) 'peak_memory' THEN kernelindex.bytes_to_mib(f.base_value) END AS reference_peak_mib_primary
FROM kernelindex_internal.release_facts f;

/* Each pair of consecutive releases of a series. */
CREATE VIEW kernelindex.release_changes AS
SELECT c.kernel, c.kernel_title, c.pass, c.metric, c.gpu, c.gpu_form_factor, c.workload_label,
	c.provider, c.provider_title,
	c.old_release, c.release AS new_release, c.old_release_rank, c.release_rank AS new_release_rank,
	c.old_numbers[1] AS old_latency_ns, c.latency_ns AS new_latency_ns,
	kernelindex.ns_to_ms(c.old_numbers[1]) AS old_latency_ms, c.latency_ms AS new_latency_ms,
	c.old_numbers[4] AS old_peak_bytes, c.peak_bytes AS new_peak_bytes,
	c.change AS ratio, c.change_outside_noise AS outside_noise,
	-- (rank ignores the frame; a ROWS frame spares PostgreSQL 15 reading
	-- ahead to the last of the current row's ties, which 16 and later
	-- skip by themselves: see doc/performance.md)
	pg_catalog.rank() OVER (ORDER BY COALESCE(c.change_outside_noise AND c.change OPERATOR(pg_catalog.>) 1, false) DESC,
		c.change DESC NULLS LAST ROWS BETWEEN CURRENT ROW AND CURRENT ROW) AS regression_rank,
	c.comparability_key, c.implementation_digest, c.old_run_digest, c.run_digest AS new_run_digest,
	c.harness, c.primary_statistic, c.old_numbers[7] AS old_value, c.value AS new_value,
	c.change_p_value AS p_value,
	c.old_statistic AS old_primary_statistic,
	CASE WHEN c.metric OPERATOR(pg_catalog.=) 'latency' THEN kernelindex.ns_to_ms(c.old_numbers[7]) END AS old_latency_ms_primary,
	c.latency_ms_primary AS new_latency_ms_primary,
	CASE WHEN c.metric OPERATOR(pg_catalog.=) 'peak_memory' THEN kernelindex.bytes_to_mib(c.old_numbers[7]) END AS old_peak_mib_primary,
	c.peak_mib_primary AS new_peak_mib_primary
FROM kernelindex_internal.change_facts c;

/* Since which release a series beats the reference. */
CREATE VIEW kernelindex.speedup_since AS
SELECT c.kernel, c.kernel_title, c.pass, c.metric, c.gpu, c.gpu_form_factor, c.workload_label,
	c.provider, c.provider_title,
	CASE WHEN c.beat THEN c.beat_release END AS since_release,
	CASE WHEN c.beat THEN c.beat_release_rank END AS since_release_rank,
	CASE WHEN c.beat THEN c.beat_ratio END AS since_speedup,
	c.release AS latest_release,
	c.release_rank AS latest_release_rank,
	c.base_ratio AS latest_speedup,
	COALESCE(c.base_ratio OPERATOR(pg_catalog.>) 1 AND c.outside_noise, false) AS still_faster,
	c.comparability_key, c.implementation_digest
FROM (
	SELECT f.*,
		-- the first release that beat the reference outside the noise
		pg_catalog.first_value(f.release) OVER beat AS beat_release,
		pg_catalog.first_value(f.release_rank) OVER beat AS beat_release_rank,
		pg_catalog.first_value(f.base_ratio) OVER beat AS beat_ratio,
		pg_catalog.first_value(f.base_ratio OPERATOR(pg_catalog.>) 1 AND f.outside_noise) OVER beat AS beat,
		pg_catalog.row_number() OVER latest AS latest_number
	FROM kernelindex_internal.release_facts f
	WHERE f.compared
	WINDOW beat AS (PARTITION BY f.key, f.kernel, f.workload_label, f.gpu, f.gpu_form_factor, f.implementation_id
			ORDER BY COALESCE(f.base_ratio OPERATOR(pg_catalog.>) 1 AND f.outside_noise, false) DESC, f.release_rank),
		latest AS (PARTITION BY f.key, f.kernel, f.workload_label, f.gpu, f.gpu_form_factor, f.implementation_id
			ORDER BY f.release_rank DESC)
) c
WHERE c.latest_number OPERATOR(pg_catalog.=) 1;

/* --- Comments --------------------------------------------------------- */

COMMENT ON VIEW kernelindex.run_facts IS
'one row per stored run, flat: digests as text, latency in ns and ms, peak memory in bytes and MiB (median, p20, p80), kernel, provider, pass, GPU, workload label, release';
COMMENT ON COLUMN kernelindex.run_facts.run_digest IS 'the run''s resource digest, sha256:<hex>';
COMMENT ON COLUMN kernelindex.run_facts.comparability_key IS 'comparability key, sha256:<hex>: runs with equal keys may be compared';
COMMENT ON COLUMN kernelindex.run_facts.protocol_digest IS 'protocol digest, sha256:<hex>';
COMMENT ON COLUMN kernelindex.run_facts.workload_digest IS 'workload digest, sha256:<hex>';
COMMENT ON COLUMN kernelindex.run_facts.environment_digest IS 'environment digest, sha256:<hex>';
COMMENT ON COLUMN kernelindex.run_facts.implementation_digest IS 'implementation digest, sha256:<hex>';
COMMENT ON COLUMN kernelindex.run_facts.observed_at IS 'when the run was measured';
COMMENT ON COLUMN kernelindex.run_facts.metric IS 'latency or peak_memory';
COMMENT ON COLUMN kernelindex.run_facts.kernel IS 'kernel name (the workload''s spec.kernel; NULL while the workload is known by digest only)';
COMMENT ON COLUMN kernelindex.run_facts.kernel_title IS 'kernel title from kernelindex.kernels';
COMMENT ON COLUMN kernelindex.run_facts.provider IS 'implementation provider, e.g. torch, liger';
COMMENT ON COLUMN kernelindex.run_facts.provider_title IS 'provider title from kernelindex.providers, e.g. PyTorch';
COMMENT ON COLUMN kernelindex.run_facts.is_reference IS 'true for the reference implementation of the run''s harness (kernelindex.harnesses.reference_implementation; torch by default)';
COMMENT ON COLUMN kernelindex.run_facts.pass IS 'timed pass: forward, backward, full, or the harness''s word (the protocol''s pass, else the benchmark name''s second part)';
COMMENT ON COLUMN kernelindex.run_facts.workload_label IS 'workload label, e.g. features16384-tokens2048-fp32';
COMMENT ON COLUMN kernelindex.run_facts.workload_title IS 'workload title (kernel title and label)';
COMMENT ON COLUMN kernelindex.run_facts.release IS 'release label of the run (liger_version)';
COMMENT ON COLUMN kernelindex.run_facts.run_title IS 'run title: kernel title · provider · pass';
COMMENT ON COLUMN kernelindex.run_facts.status IS 'run status, e.g. passed';
COMMENT ON COLUMN kernelindex.run_facts.gpu IS 'GPU product, e.g. NVIDIA A100';
COMMENT ON COLUMN kernelindex.run_facts.gpu_vendor IS 'GPU vendor: nvidia, amd, intel';
COMMENT ON COLUMN kernelindex.run_facts.gpu_form_factor IS 'GPU board variant, e.g. SXM4-80GB';
COMMENT ON COLUMN kernelindex.run_facts.gpu_architecture IS 'GPU architecture, e.g. sm_80';
COMMENT ON COLUMN kernelindex.run_facts.environment_title IS 'environment title, e.g. Liger benchmark host · A100-SXM4-80GB';
COMMENT ON COLUMN kernelindex.run_facts.protocol_title IS 'protocol title, e.g. Liger benchmark harness · forward pass';
COMMENT ON COLUMN kernelindex.run_facts.latency_ns IS 'median latency, nanoseconds';
COMMENT ON COLUMN kernelindex.run_facts.latency_ns_p20 IS 'p20 latency, nanoseconds';
COMMENT ON COLUMN kernelindex.run_facts.latency_ns_p80 IS 'p80 latency, nanoseconds';
COMMENT ON COLUMN kernelindex.run_facts.latency_ms IS 'median latency, milliseconds (exact)';
COMMENT ON COLUMN kernelindex.run_facts.latency_ms_p20 IS 'p20 latency, milliseconds (exact)';
COMMENT ON COLUMN kernelindex.run_facts.latency_ms_p80 IS 'p80 latency, milliseconds (exact)';
COMMENT ON COLUMN kernelindex.run_facts.peak_bytes IS 'median peak memory, bytes';
COMMENT ON COLUMN kernelindex.run_facts.peak_bytes_p20 IS 'p20 peak memory, bytes';
COMMENT ON COLUMN kernelindex.run_facts.peak_bytes_p80 IS 'p80 peak memory, bytes';
COMMENT ON COLUMN kernelindex.run_facts.peak_mib IS 'median peak memory, MiB (exact)';
COMMENT ON COLUMN kernelindex.run_facts.peak_mib_p20 IS 'p20 peak memory, MiB (exact)';
COMMENT ON COLUMN kernelindex.run_facts.peak_mib_p80 IS 'p80 peak memory, MiB (exact)';
COMMENT ON COLUMN kernelindex.run_facts.source IS 'source of the run (sourceNative.source), e.g. liger-kernel-bench';
COMMENT ON COLUMN kernelindex.run_facts.external_id IS 'the source''s own id of the run (sourceNative.externalId)';
COMMENT ON COLUMN kernelindex.run_facts.benchmark IS 'the source''s benchmark name (sourceNative.benchmark), e.g. sparsemax/backward';
COMMENT ON COLUMN kernelindex.run_facts.harness IS 'the harness that measured the run (its protocol''s spec.harness.name), e.g. kernelbench';
COMMENT ON COLUMN kernelindex.run_facts.primary_statistic IS 'the statistic the run is compared on: median, mean or min (its primaryStatistic; median when it names none)';
COMMENT ON COLUMN kernelindex.run_facts.latency_ns_mean IS 'mean latency, nanoseconds';
COMMENT ON COLUMN kernelindex.run_facts.latency_ns_stddev IS 'standard deviation of the latency, nanoseconds';
COMMENT ON COLUMN kernelindex.run_facts.latency_ns_min IS 'minimum latency, nanoseconds';
COMMENT ON COLUMN kernelindex.run_facts.latency_ns_max IS 'maximum latency, nanoseconds';
COMMENT ON COLUMN kernelindex.run_facts.latency_samples IS 'number of trials behind the latency statistics';
COMMENT ON COLUMN kernelindex.run_facts.latency_ns_primary IS 'the latency the run is compared on (its primary statistic), nanoseconds';
COMMENT ON COLUMN kernelindex.run_facts.latency_ms_mean IS 'mean latency, milliseconds (exact)';
COMMENT ON COLUMN kernelindex.run_facts.latency_ms_stddev IS 'standard deviation of the latency, milliseconds (exact)';
COMMENT ON COLUMN kernelindex.run_facts.latency_ms_min IS 'minimum latency, milliseconds (exact)';
COMMENT ON COLUMN kernelindex.run_facts.latency_ms_max IS 'maximum latency, milliseconds (exact)';
COMMENT ON COLUMN kernelindex.run_facts.latency_ms_primary IS 'the latency the run is compared on, milliseconds (exact)';
COMMENT ON COLUMN kernelindex.run_facts.peak_bytes_mean IS 'mean peak memory, bytes';
COMMENT ON COLUMN kernelindex.run_facts.peak_bytes_stddev IS 'standard deviation of the peak memory, bytes';
COMMENT ON COLUMN kernelindex.run_facts.peak_bytes_min IS 'minimum peak memory, bytes';
COMMENT ON COLUMN kernelindex.run_facts.peak_bytes_max IS 'maximum peak memory, bytes';
COMMENT ON COLUMN kernelindex.run_facts.peak_samples IS 'number of trials behind the peak memory statistics';
COMMENT ON COLUMN kernelindex.run_facts.peak_bytes_primary IS 'the peak memory the run is compared on (its primary statistic), bytes';
COMMENT ON COLUMN kernelindex.run_facts.peak_mib_primary IS 'the peak memory the run is compared on, MiB (exact)';


COMMENT ON VIEW kernelindex.latest_runs IS
'the latest run (by observed_at) per comparability key and implementation: what each implementation measures now on each workload and GPU, with the columns of run_facts';

/*
 * A view that shows the rows of run_facts has its columns' comments: copied
 * here from run_facts, so that they are written once.
 */
DO $$
DECLARE
	c record;
BEGIN
	FOR c IN SELECT a.attname, pg_catalog.col_description(a.attrelid, a.attnum) AS note
			 FROM pg_catalog.pg_attribute a
			 WHERE a.attrelid OPERATOR(pg_catalog.=) 'kernelindex.run_facts'::pg_catalog.regclass
			   AND a.attnum OPERATOR(pg_catalog.>) 0
	LOOP
		EXECUTE pg_catalog.format('COMMENT ON COLUMN kernelindex.latest_runs.%I IS %L', c.attname, c.note);
	END LOOP;
END
$$;

COMMENT ON VIEW kernelindex.speedups IS
'each run of a non-reference implementation against the reference implementation (the harness''s reference implementation, kernelindex.harnesses; torch by default) under the same comparability key (same protocol, workload and GPU): the reference''s latest run of the same release, else of any release (see same_release); speedup = reference latency / latency for latency rows, memory_ratio = reference peak memory / peak memory for memory rows, each on the primary statistic both runs are compared on (NULL where they name different ones); outside_noise: where both runs have p20-p80 bands, they do not overlap; where either lacks one, Welch''s p_value < 0.01';
COMMENT ON COLUMN kernelindex.speedups.kernel IS 'kernel (benchmark) name';
COMMENT ON COLUMN kernelindex.speedups.kernel_title IS 'kernel title';
COMMENT ON COLUMN kernelindex.speedups.pass IS 'timed pass: forward, backward, full';
COMMENT ON COLUMN kernelindex.speedups.metric IS 'latency (speedup is set) or peak_memory (memory_ratio is set)';
COMMENT ON COLUMN kernelindex.speedups.gpu IS 'GPU product';
COMMENT ON COLUMN kernelindex.speedups.gpu_form_factor IS 'GPU board variant';
COMMENT ON COLUMN kernelindex.speedups.workload_label IS 'workload label';
COMMENT ON COLUMN kernelindex.speedups.provider IS 'provider of the run';
COMMENT ON COLUMN kernelindex.speedups.provider_title IS 'provider title of the run';
COMMENT ON COLUMN kernelindex.speedups.release IS 'release label of the run';
COMMENT ON COLUMN kernelindex.speedups.observed_at IS 'when the run was measured';
COMMENT ON COLUMN kernelindex.speedups.reference_provider IS 'provider of the reference run: the harness''s reference implementation (kernelindex.harnesses; torch by default)';
COMMENT ON COLUMN kernelindex.speedups.reference_provider_title IS 'title of the reference provider (PyTorch)';
COMMENT ON COLUMN kernelindex.speedups.reference_release IS 'release label of the reference run';
COMMENT ON COLUMN kernelindex.speedups.reference_observed_at IS 'when the reference run was measured';
COMMENT ON COLUMN kernelindex.speedups.same_release IS 'whether the reference run is of the same release (else the reference has no run in it)';
COMMENT ON COLUMN kernelindex.speedups.latency_ns IS 'median latency of the run, ns';
COMMENT ON COLUMN kernelindex.speedups.latency_ns_p20 IS 'p20 latency of the run, ns';
COMMENT ON COLUMN kernelindex.speedups.latency_ns_p80 IS 'p80 latency of the run, ns';
COMMENT ON COLUMN kernelindex.speedups.latency_ms IS 'median latency of the run, ms';
COMMENT ON COLUMN kernelindex.speedups.latency_ms_p20 IS 'p20 latency of the run, ms';
COMMENT ON COLUMN kernelindex.speedups.latency_ms_p80 IS 'p80 latency of the run, ms';
COMMENT ON COLUMN kernelindex.speedups.reference_latency_ns IS 'median latency of the reference run, ns';
COMMENT ON COLUMN kernelindex.speedups.reference_latency_ns_p20 IS 'p20 latency of the reference run, ns';
COMMENT ON COLUMN kernelindex.speedups.reference_latency_ns_p80 IS 'p80 latency of the reference run, ns';
COMMENT ON COLUMN kernelindex.speedups.reference_latency_ms IS 'median latency of the reference run, ms';
COMMENT ON COLUMN kernelindex.speedups.reference_latency_ms_p20 IS 'p20 latency of the reference run, ms';
COMMENT ON COLUMN kernelindex.speedups.reference_latency_ms_p80 IS 'p80 latency of the reference run, ms';
COMMENT ON COLUMN kernelindex.speedups.speedup IS 'reference latency / latency, on the primary statistic both runs share (above 1: faster than the reference); NULL for memory rows, or when the two runs are compared on different statistics';
COMMENT ON COLUMN kernelindex.speedups.peak_bytes IS 'median peak memory of the run, bytes';
COMMENT ON COLUMN kernelindex.speedups.peak_bytes_p20 IS 'p20 peak memory of the run, bytes';
COMMENT ON COLUMN kernelindex.speedups.peak_bytes_p80 IS 'p80 peak memory of the run, bytes';
COMMENT ON COLUMN kernelindex.speedups.peak_mib IS 'median peak memory of the run, MiB';
COMMENT ON COLUMN kernelindex.speedups.reference_peak_bytes IS 'median peak memory of the reference run, bytes';
COMMENT ON COLUMN kernelindex.speedups.reference_peak_bytes_p20 IS 'p20 peak memory of the reference run, bytes';
COMMENT ON COLUMN kernelindex.speedups.reference_peak_bytes_p80 IS 'p80 peak memory of the reference run, bytes';
COMMENT ON COLUMN kernelindex.speedups.reference_peak_mib IS 'median peak memory of the reference run, MiB';
COMMENT ON COLUMN kernelindex.speedups.memory_ratio IS 'reference peak memory / peak memory, on the primary statistic both share (above 1: uses less memory); NULL for latency rows';
COMMENT ON COLUMN kernelindex.speedups.outside_noise IS 'whether the difference is outside the measurement noise: where both runs have p20-p80 bands, the bands do not overlap; else, where both have mean, standard deviation and samples, p_value < 0.01; else NULL';
COMMENT ON COLUMN kernelindex.speedups.comparability_key IS 'the shared comparability key, sha256:<hex>';
COMMENT ON COLUMN kernelindex.speedups.implementation_digest IS 'implementation digest of the run, sha256:<hex>';
COMMENT ON COLUMN kernelindex.speedups.run_digest IS 'the run''s digest, sha256:<hex>';
COMMENT ON COLUMN kernelindex.speedups.reference_run_digest IS 'the reference run''s digest, sha256:<hex>';
COMMENT ON COLUMN kernelindex.speedups.harness IS 'the harness that measured both runs';
COMMENT ON COLUMN kernelindex.speedups.primary_statistic IS 'the statistic the run is compared on: median, mean or min';
COMMENT ON COLUMN kernelindex.speedups.reference_primary_statistic IS 'the statistic the reference run is compared on';
COMMENT ON COLUMN kernelindex.speedups.latency_ns_primary IS 'the run''s latency on its primary statistic, ns';
COMMENT ON COLUMN kernelindex.speedups.reference_latency_ns_primary IS 'the reference run''s latency on its primary statistic, ns';
COMMENT ON COLUMN kernelindex.speedups.peak_bytes_primary IS 'the run''s peak memory on its primary statistic, bytes';
COMMENT ON COLUMN kernelindex.speedups.reference_peak_bytes_primary IS 'the reference run''s peak memory on its primary statistic, bytes';
COMMENT ON COLUMN kernelindex.speedups.p_value IS 'two-sided p-value of Welch''s t-test between the two runs'' means (from their means, standard deviations and samples); NULL unless both report all three with at least 2 samples';
COMMENT ON COLUMN kernelindex.speedups.latency_ms_primary IS 'the run''s latency on its primary statistic, milliseconds (exact)';
COMMENT ON COLUMN kernelindex.speedups.reference_latency_ms_primary IS 'the reference run''s latency on its primary statistic, milliseconds (exact)';
COMMENT ON COLUMN kernelindex.speedups.peak_mib_primary IS 'the run''s peak memory on its primary statistic, MiB (exact)';
COMMENT ON COLUMN kernelindex.speedups.reference_peak_mib_primary IS 'the reference run''s peak memory on its primary statistic, MiB (exact)';
COMMENT ON COLUMN kernelindex.speedups.latency_ns_mean IS 'mean latency of the run, nanoseconds';
COMMENT ON COLUMN kernelindex.speedups.latency_ns_stddev IS 'standard deviation of the run''s latency, nanoseconds';
COMMENT ON COLUMN kernelindex.speedups.latency_ns_min IS 'minimum latency of the run, nanoseconds';
COMMENT ON COLUMN kernelindex.speedups.latency_ns_max IS 'maximum latency of the run, nanoseconds';
COMMENT ON COLUMN kernelindex.speedups.latency_samples IS 'number of trials behind the run''s latency statistics';
COMMENT ON COLUMN kernelindex.speedups.reference_latency_ns_mean IS 'mean latency of the reference run, nanoseconds';
COMMENT ON COLUMN kernelindex.speedups.reference_latency_ns_stddev IS 'standard deviation of the reference run''s latency, nanoseconds';
COMMENT ON COLUMN kernelindex.speedups.reference_latency_samples IS 'number of trials behind the reference run''s latency statistics';
COMMENT ON COLUMN kernelindex.speedups.peak_bytes_mean IS 'mean peak memory of the run, bytes';
COMMENT ON COLUMN kernelindex.speedups.peak_bytes_stddev IS 'standard deviation of the run''s peak memory, bytes';
COMMENT ON COLUMN kernelindex.speedups.peak_bytes_min IS 'minimum peak memory of the run, bytes';
COMMENT ON COLUMN kernelindex.speedups.peak_bytes_max IS 'maximum peak memory of the run, bytes';
COMMENT ON COLUMN kernelindex.speedups.peak_samples IS 'number of trials behind the run''s peak memory statistics';
COMMENT ON COLUMN kernelindex.speedups.reference_peak_bytes_mean IS 'mean peak memory of the reference run, bytes';
COMMENT ON COLUMN kernelindex.speedups.reference_peak_bytes_stddev IS 'standard deviation of the reference run''s peak memory, bytes';
COMMENT ON COLUMN kernelindex.speedups.reference_peak_samples IS 'number of trials behind the reference run''s peak memory statistics';


CREATE VIEW kernelindex.release_speedups AS
SELECT r.release, r.release_rank, r.kernel, r.kernel_title, r.pass, r.metric, r.gpu, r.gpu_form_factor,
	r.provider, r.provider_title, pg_catalog.max(r.reference_provider) AS reference_provider,
	-- the mean of the logarithms summed exactly (as numeric), so that the
	-- result is the same whatever the order the rows come in
	pg_catalog.exp((pg_catalog.sum(pg_catalog.ln(r.ratio)::numeric)
		OPERATOR(pg_catalog./) pg_catalog.count(*))::double precision) AS geomean_speedup,
	pg_catalog.count(*) AS workloads,
	pg_catalog.count(*) FILTER (WHERE r.outside_noise) AS workloads_outside_noise,
	pg_catalog.count(*) FILTER (WHERE r.outside_noise AND r.ratio OPERATOR(pg_catalog.>) 1) AS faster_outside_noise,
	pg_catalog.count(*) FILTER (WHERE r.outside_noise AND r.ratio OPERATOR(pg_catalog.<) 1) AS slower_outside_noise
FROM kernelindex.release_runs r
WHERE NOT r.is_reference AND r.ratio OPERATOR(pg_catalog.>) 0
GROUP BY r.release, r.release_rank, r.kernel, r.kernel_title, r.pass, r.metric, r.gpu, r.gpu_form_factor,
	r.provider, r.provider_title;
COMMENT ON VIEW kernelindex.release_runs IS
'per comparability key, implementation and release: its latest run in that release, with the reference implementation''s latest run of the same key and release where there is one (ratio = reference / run: a speedup for latency, a memory saving for peak memory)';
COMMENT ON COLUMN kernelindex.release_runs.kernel IS 'kernel (benchmark) name';
COMMENT ON COLUMN kernelindex.release_runs.kernel_title IS 'kernel title';
COMMENT ON COLUMN kernelindex.release_runs.pass IS 'timed pass';
COMMENT ON COLUMN kernelindex.release_runs.metric IS 'latency or peak_memory';
COMMENT ON COLUMN kernelindex.release_runs.gpu IS 'GPU product';
COMMENT ON COLUMN kernelindex.release_runs.gpu_form_factor IS 'GPU board variant';
COMMENT ON COLUMN kernelindex.release_runs.workload_label IS 'workload label';
COMMENT ON COLUMN kernelindex.release_runs.provider IS 'implementation provider';
COMMENT ON COLUMN kernelindex.release_runs.provider_title IS 'provider title';
COMMENT ON COLUMN kernelindex.release_runs.is_reference IS 'whether this is the reference implementation (then the reference_ columns are NULL)';
COMMENT ON COLUMN kernelindex.release_runs.release IS 'release label';
COMMENT ON COLUMN kernelindex.release_runs.release_rank IS 'position of the release in release order (kernelindex.releases)';
COMMENT ON COLUMN kernelindex.release_runs.observed_at IS 'when the run was measured';
COMMENT ON COLUMN kernelindex.release_runs.latency_ns IS 'median latency, ns';
COMMENT ON COLUMN kernelindex.release_runs.latency_ns_p20 IS 'p20 latency, ns';
COMMENT ON COLUMN kernelindex.release_runs.latency_ns_p80 IS 'p80 latency, ns';
COMMENT ON COLUMN kernelindex.release_runs.latency_ms IS 'median latency, ms';
COMMENT ON COLUMN kernelindex.release_runs.peak_bytes IS 'median peak memory, bytes';
COMMENT ON COLUMN kernelindex.release_runs.peak_bytes_p20 IS 'p20 peak memory, bytes';
COMMENT ON COLUMN kernelindex.release_runs.peak_bytes_p80 IS 'p80 peak memory, bytes';
COMMENT ON COLUMN kernelindex.release_runs.peak_mib IS 'median peak memory, MiB';
COMMENT ON COLUMN kernelindex.release_runs.reference_provider IS 'provider of the reference run of the same key and release (NULL: none)';
COMMENT ON COLUMN kernelindex.release_runs.reference_latency_ns IS 'median latency of that reference run, ns';
COMMENT ON COLUMN kernelindex.release_runs.reference_latency_ms IS 'median latency of that reference run, ms';
COMMENT ON COLUMN kernelindex.release_runs.reference_latency_ns_p20 IS 'p20 latency of that reference run, ns';
COMMENT ON COLUMN kernelindex.release_runs.reference_latency_ns_p80 IS 'p80 latency of that reference run, ns';
COMMENT ON COLUMN kernelindex.release_runs.reference_peak_bytes IS 'median peak memory of that reference run, bytes';
COMMENT ON COLUMN kernelindex.release_runs.reference_peak_mib IS 'median peak memory of that reference run, MiB';
COMMENT ON COLUMN kernelindex.release_runs.reference_peak_bytes_p20 IS 'p20 peak memory of that reference run, bytes';
COMMENT ON COLUMN kernelindex.release_runs.reference_peak_bytes_p80 IS 'p80 peak memory of that reference run, bytes';
COMMENT ON COLUMN kernelindex.release_runs.ratio IS 'reference / run: the speedup (latency) or memory saving (peak memory) over the reference in this release; NULL without a reference run';
COMMENT ON COLUMN kernelindex.release_runs.outside_noise IS 'whether the run and the reference differ outside the noise: bands apart where both have p20-p80 bands, else Welch''s p < 0.01 where both have mean, standard deviation and samples';
COMMENT ON COLUMN kernelindex.release_runs.comparability_key IS 'comparability key, sha256:<hex>';
COMMENT ON COLUMN kernelindex.release_runs.implementation_digest IS 'implementation digest, sha256:<hex>';
COMMENT ON COLUMN kernelindex.release_runs.run_digest IS 'the run''s digest, sha256:<hex>';
COMMENT ON COLUMN kernelindex.release_runs.reference_run_digest IS 'the reference run''s digest, sha256:<hex>';
COMMENT ON COLUMN kernelindex.release_runs.harness IS 'the harness that measured the run';
COMMENT ON COLUMN kernelindex.release_runs.primary_statistic IS 'the statistic the run is compared on: median, mean or min';
COMMENT ON COLUMN kernelindex.release_runs.p_value IS 'Welch''s p-value against the reference run, where both report mean, standard deviation and samples';
COMMENT ON COLUMN kernelindex.release_runs.reference_primary_statistic IS 'the statistic the reference run is compared on';
COMMENT ON COLUMN kernelindex.release_runs.latency_ns_primary IS 'the run''s latency on its primary statistic, ns';
COMMENT ON COLUMN kernelindex.release_runs.latency_ms_primary IS 'the run''s latency on its primary statistic, milliseconds (exact)';
COMMENT ON COLUMN kernelindex.release_runs.peak_bytes_primary IS 'the run''s peak memory on its primary statistic, bytes';
COMMENT ON COLUMN kernelindex.release_runs.peak_mib_primary IS 'the run''s peak memory on its primary statistic, MiB (exact)';
COMMENT ON COLUMN kernelindex.release_runs.reference_latency_ns_primary IS 'the reference run''s latency on its primary statistic, ns';
COMMENT ON COLUMN kernelindex.release_runs.reference_latency_ms_primary IS 'the reference run''s latency on its primary statistic, milliseconds (exact)';
COMMENT ON COLUMN kernelindex.release_runs.reference_peak_bytes_primary IS 'the reference run''s peak memory on its primary statistic, bytes';
COMMENT ON COLUMN kernelindex.release_runs.reference_peak_mib_primary IS 'the reference run''s peak memory on its primary statistic, MiB (exact)';
COMMENT ON VIEW kernelindex.release_speedups IS
'per release, kernel, pass, metric, GPU and implementation: the geometric-mean speedup over the harness''s reference implementation (torch by default) across the workloads both ran in that release, how many, and how many differ outside the noise';
COMMENT ON COLUMN kernelindex.release_speedups.release IS 'release label';
COMMENT ON COLUMN kernelindex.release_speedups.release_rank IS 'position of the release in release order';
COMMENT ON COLUMN kernelindex.release_speedups.kernel IS 'kernel (benchmark) name';
COMMENT ON COLUMN kernelindex.release_speedups.kernel_title IS 'kernel title';
COMMENT ON COLUMN kernelindex.release_speedups.pass IS 'timed pass';
COMMENT ON COLUMN kernelindex.release_speedups.metric IS 'latency (a speedup) or peak_memory (a memory saving)';
COMMENT ON COLUMN kernelindex.release_speedups.gpu IS 'GPU product';
COMMENT ON COLUMN kernelindex.release_speedups.gpu_form_factor IS 'GPU board variant';
COMMENT ON COLUMN kernelindex.release_speedups.provider IS 'implementation provider';
COMMENT ON COLUMN kernelindex.release_speedups.provider_title IS 'provider title';
COMMENT ON COLUMN kernelindex.release_speedups.reference_provider IS 'the harness''s reference implementation (kernelindex.harnesses; torch by default)';
COMMENT ON COLUMN kernelindex.release_speedups.geomean_speedup IS 'geometric mean over the workloads of reference / run (above 1: faster, or less memory)';
COMMENT ON COLUMN kernelindex.release_speedups.workloads IS 'workloads both the implementation and the reference ran in the release';
COMMENT ON COLUMN kernelindex.release_speedups.workloads_outside_noise IS 'of those, how many differ outside the noise (p20-p80 bands apart where both runs have them, else Welch''s p < 0.01: see speedups.outside_noise)';
COMMENT ON COLUMN kernelindex.release_speedups.faster_outside_noise IS 'workloads better than the reference outside the noise';
COMMENT ON COLUMN kernelindex.release_speedups.slower_outside_noise IS 'workloads worse than the reference outside the noise';

COMMENT ON VIEW kernelindex.release_changes IS
'per comparability key and implementation, each pair of consecutive releases (in release order) it ran in: both values of the primary statistic, ratio = new / old (above 1: slower, or more memory), outside_noise, and regression_rank, 1 for the worst regression outside the noise';
COMMENT ON COLUMN kernelindex.release_changes.kernel IS 'kernel (benchmark) name';
COMMENT ON COLUMN kernelindex.release_changes.kernel_title IS 'kernel title';
COMMENT ON COLUMN kernelindex.release_changes.pass IS 'timed pass';
COMMENT ON COLUMN kernelindex.release_changes.metric IS 'latency or peak_memory';
COMMENT ON COLUMN kernelindex.release_changes.gpu IS 'GPU product';
COMMENT ON COLUMN kernelindex.release_changes.gpu_form_factor IS 'GPU board variant';
COMMENT ON COLUMN kernelindex.release_changes.workload_label IS 'workload label';
COMMENT ON COLUMN kernelindex.release_changes.provider IS 'implementation provider';
COMMENT ON COLUMN kernelindex.release_changes.provider_title IS 'provider title';
COMMENT ON COLUMN kernelindex.release_changes.old_release IS 'the earlier release of the pair';
COMMENT ON COLUMN kernelindex.release_changes.new_release IS 'the next release the implementation ran in';
COMMENT ON COLUMN kernelindex.release_changes.old_release_rank IS 'position of old_release in release order';
COMMENT ON COLUMN kernelindex.release_changes.new_release_rank IS 'position of new_release in release order';
COMMENT ON COLUMN kernelindex.release_changes.old_latency_ns IS 'median latency in the old release, ns';
COMMENT ON COLUMN kernelindex.release_changes.new_latency_ns IS 'median latency in the new release, ns';
COMMENT ON COLUMN kernelindex.release_changes.old_latency_ms IS 'median latency in the old release, ms';
COMMENT ON COLUMN kernelindex.release_changes.new_latency_ms IS 'median latency in the new release, ms';
COMMENT ON COLUMN kernelindex.release_changes.old_peak_bytes IS 'median peak memory in the old release, bytes';
COMMENT ON COLUMN kernelindex.release_changes.new_peak_bytes IS 'median peak memory in the new release, bytes';
COMMENT ON COLUMN kernelindex.release_changes.ratio IS 'new / old on the primary statistic (above 1: slower, or more memory: a regression)';
COMMENT ON COLUMN kernelindex.release_changes.outside_noise IS 'whether the two releases'' runs differ outside the noise: p20-p80 bands apart where both have them, else Welch''s p < 0.01';
COMMENT ON COLUMN kernelindex.release_changes.regression_rank IS '1 for the worst regression: regressions outside the noise first, by ratio, then every other change by ratio';
COMMENT ON COLUMN kernelindex.release_changes.comparability_key IS 'comparability key, sha256:<hex>';
COMMENT ON COLUMN kernelindex.release_changes.implementation_digest IS 'implementation digest, sha256:<hex>';
COMMENT ON COLUMN kernelindex.release_changes.old_run_digest IS 'the old release''s run, sha256:<hex>';
COMMENT ON COLUMN kernelindex.release_changes.new_run_digest IS 'the new release''s run, sha256:<hex>';
COMMENT ON COLUMN kernelindex.release_changes.harness IS 'the harness that measured the runs';
COMMENT ON COLUMN kernelindex.release_changes.primary_statistic IS 'the statistic the runs are compared on: median, mean or min';
COMMENT ON COLUMN kernelindex.release_changes.old_value IS 'the old release''s primary statistic (ns for latency, bytes for peak memory)';
COMMENT ON COLUMN kernelindex.release_changes.new_value IS 'the new release''s primary statistic (ns for latency, bytes for peak memory)';
COMMENT ON COLUMN kernelindex.release_changes.p_value IS 'Welch''s p-value between the two runs, where both report mean, standard deviation and samples';
COMMENT ON COLUMN kernelindex.release_changes.old_primary_statistic IS 'the statistic the old release''s run is compared on (the ratio is set where it is the new one''s)';
COMMENT ON COLUMN kernelindex.release_changes.old_latency_ms_primary IS 'the old release''s latency on its primary statistic, milliseconds (exact)';
COMMENT ON COLUMN kernelindex.release_changes.new_latency_ms_primary IS 'the new release''s latency on its primary statistic, milliseconds (exact)';
COMMENT ON COLUMN kernelindex.release_changes.old_peak_mib_primary IS 'the old release''s peak memory on its primary statistic, MiB (exact)';
COMMENT ON COLUMN kernelindex.release_changes.new_peak_mib_primary IS 'the new release''s peak memory on its primary statistic, MiB (exact)';

COMMENT ON VIEW kernelindex.speedup_since IS
'per comparability key and implementation: the first release in which it beat the harness''s reference implementation (torch by default) outside the noise, and whether its latest release with a reference run still does';
COMMENT ON COLUMN kernelindex.speedup_since.kernel IS 'kernel (benchmark) name';
COMMENT ON COLUMN kernelindex.speedup_since.kernel_title IS 'kernel title';
COMMENT ON COLUMN kernelindex.speedup_since.pass IS 'timed pass';
COMMENT ON COLUMN kernelindex.speedup_since.metric IS 'latency (speedups) or peak_memory (memory savings)';
COMMENT ON COLUMN kernelindex.speedup_since.gpu IS 'GPU product';
COMMENT ON COLUMN kernelindex.speedup_since.gpu_form_factor IS 'GPU board variant';
COMMENT ON COLUMN kernelindex.speedup_since.workload_label IS 'workload label';
COMMENT ON COLUMN kernelindex.speedup_since.provider IS 'implementation provider';
COMMENT ON COLUMN kernelindex.speedup_since.provider_title IS 'provider title';
COMMENT ON COLUMN kernelindex.speedup_since.since_release IS 'the first release (in release order) in which it beat the reference outside the noise; NULL: never';
COMMENT ON COLUMN kernelindex.speedup_since.since_release_rank IS 'position of since_release in release order (kernelindex.releases): sort by it, not by the label';
COMMENT ON COLUMN kernelindex.speedup_since.latest_release_rank IS 'position of latest_release in release order';
COMMENT ON COLUMN kernelindex.speedup_since.since_speedup IS 'its speedup over the reference in that release';
COMMENT ON COLUMN kernelindex.speedup_since.latest_release IS 'its latest release in which the reference ran too';
COMMENT ON COLUMN kernelindex.speedup_since.latest_speedup IS 'its speedup over the reference in that release';
COMMENT ON COLUMN kernelindex.speedup_since.still_faster IS 'whether it still beats the reference outside the noise in its latest release';
COMMENT ON COLUMN kernelindex.speedup_since.comparability_key IS 'comparability key, sha256:<hex>';
COMMENT ON COLUMN kernelindex.speedup_since.implementation_digest IS 'implementation digest, sha256:<hex>';
