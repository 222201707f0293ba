/* ---------------------------------------------------------------------
 * 7. Views for BI tools (SPEC section 10)
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
 * the runs, never a look-up per series.  The partitions also name the
 * key's kernel, workload label, GPU and form factor (which the key
 * determines, so the partitions are the same): a filter on those columns
 * is applied before the pass, through the indexes on workloads (kernel)
 * and comparability_keys, and a dashboard reads only its runs.  On Citus
 * the pass runs inside each shard (runs are distributed by key).
 * --------------------------------------------------------------------- */

CREATE FUNCTION kernelindex.external_id_of(form text, benchmark text, string text,
	workload_label text, observed_at timestamptz)
RETURNS text
AS 'MODULE_PATHNAME', 'kidx_external_id_of'
LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION kernelindex.external_id_of(text, text, text, text, timestamptz) IS
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
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN ns::numeric OPERATOR(pg_catalog.*) 0.000001;
COMMENT ON FUNCTION kernelindex.ns_to_ms(bigint) IS
'nanoseconds as milliseconds, exactly (numeric with six decimals)';

CREATE FUNCTION kernelindex.bytes_to_mib(bytes bigint)
RETURNS numeric
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN pg_catalog.trim_scale(bytes::numeric OPERATOR(pg_catalog.*) 0.00000095367431640625);
COMMENT ON FUNCTION kernelindex.bytes_to_mib(bigint) IS
'bytes as MiB (2^20 bytes), exactly, without trailing zeros';

/* --- One row per run ----------------------------------------------------- */

CREATE VIEW kernelindex.run_facts AS
SELECT
	r.digest::text AS run_digest,
	r.comparability_key::text AS comparability_key,
	p.digest::text AS protocol_digest,
	w.digest::text AS workload_digest,
	e.digest::text AS environment_digest,
	i.digest::text AS implementation_digest,
	r.observed_at,
	CASE WHEN r.latency_ns IS NOT NULL THEN 'latency'
		WHEN r.peak_bytes IS NOT NULL THEN 'peak_memory' END AS metric,
	w.kernel,
	COALESCE(kc.title, w.kernel) AS kernel_title,
	i.provider,
	COALESCE(pv.title, i.provider) AS provider_title,
	COALESCE(pv.is_reference, false) AS is_reference,
	b.pass,
	w.label AS workload_label,
	w.title AS workload_title,
	l.release,
	t.value AS run_title,
	st.value AS status,
	e.product AS gpu,
	e.vendor AS gpu_vendor,
	e.form_factor AS gpu_form_factor,
	e.architecture AS gpu_architecture,
	e.title AS environment_title,
	p.title AS protocol_title,
	r.latency_ns,
	r.latency_ns_p20,
	r.latency_ns_p80,
	kernelindex.ns_to_ms(r.latency_ns) AS latency_ms,
	kernelindex.ns_to_ms(r.latency_ns_p20) AS latency_ms_p20,
	kernelindex.ns_to_ms(r.latency_ns_p80) AS latency_ms_p80,
	r.peak_bytes,
	r.peak_bytes_p20,
	r.peak_bytes_p80,
	kernelindex.bytes_to_mib(r.peak_bytes) AS peak_mib,
	kernelindex.bytes_to_mib(r.peak_bytes_p20) AS peak_mib_p20,
	kernelindex.bytes_to_mib(r.peak_bytes_p80) AS peak_mib_p80,
	src.value AS source,
	kernelindex.external_id_of(tp.external_id_form, b.value, x.value, w.label, r.observed_at) AS external_id,
	b.value AS benchmark
FROM kernelindex.runs r
JOIN kernelindex.comparability_keys k ON k.key OPERATOR(@extschema@.=) r.comparability_key
JOIN kernelindex.protocols p ON p.id OPERATOR(pg_catalog.=) k.protocol_id
JOIN kernelindex.workloads w ON w.id OPERATOR(pg_catalog.=) k.workload_id
JOIN kernelindex.environments e ON e.id OPERATOR(pg_catalog.=) k.environment_id
JOIN kernelindex.implementations i ON i.id OPERATOR(pg_catalog.=) r.implementation_id
JOIN kernelindex.run_templates tp ON tp.id OPERATOR(pg_catalog.=) r.template_id
JOIN kernelindex.run_statuses st ON st.id OPERATOR(pg_catalog.=) r.status_id
LEFT JOIN kernelindex.run_labels l ON l.id OPERATOR(pg_catalog.=) r.labels_id
LEFT JOIN kernelindex.run_titles t ON t.id OPERATOR(pg_catalog.=) r.title_id
LEFT JOIN kernelindex.run_sources src ON src.id OPERATOR(pg_catalog.=) r.source_id
LEFT JOIN kernelindex.run_benchmarks b ON b.id OPERATOR(pg_catalog.=) r.benchmark_id
LEFT JOIN kernelindex.run_strings x ON x.id OPERATOR(pg_catalog.=) r.external_id_id
LEFT JOIN kernelindex.kernels kc ON kc.name OPERATOR(pg_catalog.=) w.kernel
LEFT JOIN kernelindex.providers pv ON pv.name OPERATOR(pg_catalog.=) i.provider;
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
COMMENT ON COLUMN kernelindex.run_facts.is_reference IS 'true for the reference implementation (torch)';
COMMENT ON COLUMN kernelindex.run_facts.pass IS 'timed pass: forward, backward, full';
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


/* --- The latest run per comparability key and implementation ------------ */

CREATE VIEW kernelindex.latest_runs AS
SELECT DISTINCT ON (f.comparability_key, f.kernel, f.workload_label, f.gpu, f.gpu_form_factor,
		f.implementation_digest) f.*
FROM kernelindex.run_facts f
ORDER BY f.comparability_key, f.kernel, f.workload_label, f.gpu, f.gpu_form_factor,
	f.implementation_digest, f.observed_at DESC, f.run_digest DESC;
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

/* --- Each run against the reference implementation ----------------------- */

CREATE VIEW kernelindex.speedups AS
WITH compared AS (
	-- Per run, the first run of its key and release, and of its key, in
	-- the order that puts the reference implementation's latest run first.
	SELECT f.*,
		pg_catalog.first_value(f.is_reference) OVER same AS same_is_reference,
		pg_catalog.first_value(f.provider) OVER same AS same_provider,
		pg_catalog.first_value(f.provider_title) OVER same AS same_provider_title,
		pg_catalog.first_value(f.release) OVER same AS same_release_label,
		pg_catalog.first_value(f.observed_at) OVER same AS same_observed_at,
		pg_catalog.first_value(f.latency_ns) OVER same AS same_latency_ns,
		pg_catalog.first_value(f.latency_ns_p20) OVER same AS same_latency_ns_p20,
		pg_catalog.first_value(f.latency_ns_p80) OVER same AS same_latency_ns_p80,
		pg_catalog.first_value(f.peak_bytes) OVER same AS same_peak_bytes,
		pg_catalog.first_value(f.peak_bytes_p20) OVER same AS same_peak_bytes_p20,
		pg_catalog.first_value(f.peak_bytes_p80) OVER same AS same_peak_bytes_p80,
		pg_catalog.first_value(f.run_digest) OVER same AS same_run_digest,
		pg_catalog.first_value(f.is_reference) OVER any_release AS any_is_reference,
		pg_catalog.first_value(f.provider) OVER any_release AS any_provider,
		pg_catalog.first_value(f.provider_title) OVER any_release AS any_provider_title,
		pg_catalog.first_value(f.release) OVER any_release AS any_release_label,
		pg_catalog.first_value(f.observed_at) OVER any_release AS any_observed_at,
		pg_catalog.first_value(f.latency_ns) OVER any_release AS any_latency_ns,
		pg_catalog.first_value(f.latency_ns_p20) OVER any_release AS any_latency_ns_p20,
		pg_catalog.first_value(f.latency_ns_p80) OVER any_release AS any_latency_ns_p80,
		pg_catalog.first_value(f.peak_bytes) OVER any_release AS any_peak_bytes,
		pg_catalog.first_value(f.peak_bytes_p20) OVER any_release AS any_peak_bytes_p20,
		pg_catalog.first_value(f.peak_bytes_p80) OVER any_release AS any_peak_bytes_p80,
		pg_catalog.first_value(f.run_digest) OVER any_release AS any_run_digest
	FROM kernelindex.run_facts f
	WINDOW any_release AS (PARTITION BY f.comparability_key, f.kernel, f.workload_label, f.gpu,
			f.gpu_form_factor ORDER BY f.is_reference DESC, f.observed_at DESC, f.run_digest DESC),
		same AS (PARTITION BY f.comparability_key, f.kernel, f.workload_label, f.gpu,
			f.gpu_form_factor, f.release ORDER BY f.is_reference DESC, f.observed_at DESC, f.run_digest DESC)
), referenced AS (
	-- the reference's latest run of the same release, else of any release
	SELECT c.*,
		CASE WHEN c.same_is_reference THEN c.same_provider ELSE c.any_provider END AS reference_provider,
		CASE WHEN c.same_is_reference THEN c.same_provider_title ELSE c.any_provider_title END AS reference_provider_title,
		CASE WHEN c.same_is_reference THEN c.same_release_label ELSE c.any_release_label END AS reference_release,
		CASE WHEN c.same_is_reference THEN c.same_observed_at ELSE c.any_observed_at END AS reference_observed_at,
		c.same_is_reference AS same_release,
		CASE WHEN c.same_is_reference THEN c.same_latency_ns ELSE c.any_latency_ns END AS reference_latency_ns,
		CASE WHEN c.same_is_reference THEN c.same_latency_ns_p20 ELSE c.any_latency_ns_p20 END AS reference_latency_ns_p20,
		CASE WHEN c.same_is_reference THEN c.same_latency_ns_p80 ELSE c.any_latency_ns_p80 END AS reference_latency_ns_p80,
		CASE WHEN c.same_is_reference THEN c.same_peak_bytes ELSE c.any_peak_bytes END AS reference_peak_bytes,
		CASE WHEN c.same_is_reference THEN c.same_peak_bytes_p20 ELSE c.any_peak_bytes_p20 END AS reference_peak_bytes_p20,
		CASE WHEN c.same_is_reference THEN c.same_peak_bytes_p80 ELSE c.any_peak_bytes_p80 END AS reference_peak_bytes_p80,
		CASE WHEN c.same_is_reference THEN c.same_run_digest ELSE c.any_run_digest END AS reference_run_digest
	FROM compared c
	WHERE NOT c.is_reference AND c.any_is_reference
)
SELECT
	f.kernel,
	f.kernel_title,
	f.pass,
	f.metric,
	f.gpu,
	f.gpu_form_factor,
	f.workload_label,
	f.provider,
	f.provider_title,
	f.release,
	f.observed_at,
	f.reference_provider,
	f.reference_provider_title,
	f.reference_release,
	f.reference_observed_at,
	f.same_release,
	f.latency_ns,
	f.latency_ns_p20,
	f.latency_ns_p80,
	f.latency_ms,
	f.latency_ms_p20,
	f.latency_ms_p80,
	f.reference_latency_ns,
	f.reference_latency_ns_p20,
	f.reference_latency_ns_p80,
	kernelindex.ns_to_ms(f.reference_latency_ns) AS reference_latency_ms,
	kernelindex.ns_to_ms(f.reference_latency_ns_p20) AS reference_latency_ms_p20,
	kernelindex.ns_to_ms(f.reference_latency_ns_p80) AS reference_latency_ms_p80,
	kernelindex.ratio(f.reference_latency_ns, f.latency_ns) AS speedup,
	f.peak_bytes,
	f.peak_bytes_p20,
	f.peak_bytes_p80,
	f.peak_mib,
	f.reference_peak_bytes,
	f.reference_peak_bytes_p20,
	f.reference_peak_bytes_p80,
	kernelindex.bytes_to_mib(f.reference_peak_bytes) AS reference_peak_mib,
	kernelindex.ratio(f.reference_peak_bytes, f.peak_bytes) AS memory_ratio,
	CASE f.metric
		WHEN 'latency' THEN kernelindex.bands_apart(f.latency_ns_p20, f.latency_ns_p80,
			f.reference_latency_ns_p20, f.reference_latency_ns_p80)
		WHEN 'peak_memory' THEN kernelindex.bands_apart(f.peak_bytes_p20, f.peak_bytes_p80,
			f.reference_peak_bytes_p20, f.reference_peak_bytes_p80)
	END AS outside_noise,
	f.comparability_key,
	f.implementation_digest,
	f.run_digest,
	f.reference_run_digest
FROM referenced f;
COMMENT ON VIEW kernelindex.speedups IS
'each run of a non-reference implementation against the reference implementation (kernelindex.providers.is_reference: torch) under the same comparability key (same protocol, workload and GPU): the reference''s latest run of the same release, else of any release (see same_release); speedup = reference latency / latency for latency rows, memory_ratio = reference peak memory / peak memory for memory rows; outside_noise when the two p20-p80 bands do not overlap';
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
COMMENT ON COLUMN kernelindex.speedups.reference_provider IS 'provider of the reference run (torch)';
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
COMMENT ON COLUMN kernelindex.speedups.speedup IS 'reference latency / latency (above 1: faster than the reference); NULL for memory rows';
COMMENT ON COLUMN kernelindex.speedups.peak_bytes IS 'median peak memory of the run, bytes';
COMMENT ON COLUMN kernelindex.speedups.peak_bytes_p20 IS 'p20 peak memory of the run, bytes';
COMMENT ON COLUMN kernelindex.speedups.peak_bytes_p80 IS 'p80 peak memory of the run, bytes';
COMMENT ON COLUMN kernelindex.speedups.peak_mib IS 'median peak memory of the run, MiB';
COMMENT ON COLUMN kernelindex.speedups.reference_peak_bytes IS 'median peak memory of the reference run, bytes';
COMMENT ON COLUMN kernelindex.speedups.reference_peak_bytes_p20 IS 'p20 peak memory of the reference run, bytes';
COMMENT ON COLUMN kernelindex.speedups.reference_peak_bytes_p80 IS 'p80 peak memory of the reference run, bytes';
COMMENT ON COLUMN kernelindex.speedups.reference_peak_mib IS 'median peak memory of the reference run, MiB';
COMMENT ON COLUMN kernelindex.speedups.memory_ratio IS 'reference peak memory / peak memory (above 1: uses less memory); NULL for latency rows';
COMMENT ON COLUMN kernelindex.speedups.outside_noise IS 'true when the run''s p20-p80 band and the reference''s do not overlap: the difference is outside the measurement noise';
COMMENT ON COLUMN kernelindex.speedups.comparability_key IS 'the shared comparability key, sha256:<hex>';
COMMENT ON COLUMN kernelindex.speedups.implementation_digest IS 'implementation digest of the run, sha256:<hex>';
COMMENT ON COLUMN kernelindex.speedups.run_digest IS 'the run''s digest, sha256:<hex>';
COMMENT ON COLUMN kernelindex.speedups.reference_run_digest IS 'the reference run''s digest, sha256:<hex>';


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


/* --- Per release: one run per workload and implementation ---------------- */

CREATE VIEW kernelindex.release_runs AS
WITH latest AS (
	-- per comparability key, implementation and release: the latest run
	SELECT DISTINCT ON (f.comparability_key, f.kernel, f.workload_label, f.gpu, f.gpu_form_factor,
			f.implementation_digest, f.release) f.*
	FROM kernelindex.run_facts f
	WHERE f.release IS NOT NULL
	ORDER BY f.comparability_key, f.kernel, f.workload_label, f.gpu, f.gpu_form_factor,
		f.implementation_digest, f.release, f.observed_at DESC, f.run_digest DESC
), paired AS (
	-- with the reference's of the same key and release, first in this order
	SELECT o.*,
		pg_catalog.first_value(o.is_reference) OVER w AS r_is_reference,
		pg_catalog.first_value(o.provider) OVER w AS r_provider,
		pg_catalog.first_value(o.latency_ns) OVER w AS r_latency_ns,
		pg_catalog.first_value(o.latency_ns_p20) OVER w AS r_latency_ns_p20,
		pg_catalog.first_value(o.latency_ns_p80) OVER w AS r_latency_ns_p80,
		pg_catalog.first_value(o.peak_bytes) OVER w AS r_peak_bytes,
		pg_catalog.first_value(o.peak_bytes_p20) OVER w AS r_peak_bytes_p20,
		pg_catalog.first_value(o.peak_bytes_p80) OVER w AS r_peak_bytes_p80,
		pg_catalog.first_value(o.run_digest) OVER w AS r_run_digest
	FROM latest o
	WINDOW w AS (PARTITION BY o.comparability_key, o.kernel, o.workload_label, o.gpu,
		o.gpu_form_factor, o.release ORDER BY o.is_reference DESC, o.observed_at DESC, o.run_digest DESC)
), referenced AS (
	SELECT p.*, p.r_is_reference AND NOT p.is_reference AS has_reference FROM paired p
)
SELECT o.kernel, o.kernel_title, o.pass, o.metric, o.gpu, o.gpu_form_factor, o.workload_label,
	o.provider, o.provider_title, o.is_reference, o.release, rel.release_rank, o.observed_at,
	o.latency_ns, o.latency_ns_p20, o.latency_ns_p80, o.latency_ms,
	o.peak_bytes, o.peak_bytes_p20, o.peak_bytes_p80, o.peak_mib,
	CASE WHEN o.has_reference THEN o.r_provider END AS reference_provider,
	CASE WHEN o.has_reference THEN o.r_latency_ns END AS reference_latency_ns,
	CASE WHEN o.has_reference THEN kernelindex.ns_to_ms(o.r_latency_ns) END AS reference_latency_ms,
	CASE WHEN o.has_reference THEN o.r_latency_ns_p20 END AS reference_latency_ns_p20,
	CASE WHEN o.has_reference THEN o.r_latency_ns_p80 END AS reference_latency_ns_p80,
	CASE WHEN o.has_reference THEN o.r_peak_bytes END AS reference_peak_bytes,
	CASE WHEN o.has_reference THEN kernelindex.bytes_to_mib(o.r_peak_bytes) END AS reference_peak_mib,
	CASE WHEN o.has_reference THEN o.r_peak_bytes_p20 END AS reference_peak_bytes_p20,
	CASE WHEN o.has_reference THEN o.r_peak_bytes_p80 END AS reference_peak_bytes_p80,
	CASE WHEN NOT o.has_reference THEN NULL
		WHEN o.metric OPERATOR(pg_catalog.=) 'latency' THEN kernelindex.ratio(o.r_latency_ns, o.latency_ns)
		WHEN o.metric OPERATOR(pg_catalog.=) 'peak_memory' THEN kernelindex.ratio(o.r_peak_bytes, o.peak_bytes) END AS ratio,
	CASE WHEN NOT o.has_reference THEN NULL
		WHEN o.metric OPERATOR(pg_catalog.=) 'latency' THEN kernelindex.bands_apart(o.latency_ns_p20, o.latency_ns_p80, o.r_latency_ns_p20, o.r_latency_ns_p80)
		WHEN o.metric OPERATOR(pg_catalog.=) 'peak_memory' THEN kernelindex.bands_apart(o.peak_bytes_p20, o.peak_bytes_p80, o.r_peak_bytes_p20, o.r_peak_bytes_p80)
	END AS outside_noise,
	o.comparability_key, o.implementation_digest, o.run_digest,
	CASE WHEN o.has_reference THEN o.r_run_digest END AS reference_run_digest
FROM referenced o
JOIN kernelindex.release_ranks rel ON rel.release OPERATOR(pg_catalog.=) o.release;
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
COMMENT ON COLUMN kernelindex.release_runs.outside_noise IS 'true when the run''s p20-p80 band and the reference''s do not overlap';
COMMENT ON COLUMN kernelindex.release_runs.comparability_key IS 'comparability key, sha256:<hex>';
COMMENT ON COLUMN kernelindex.release_runs.implementation_digest IS 'implementation digest, sha256:<hex>';
COMMENT ON COLUMN kernelindex.release_runs.run_digest IS 'the run''s digest, sha256:<hex>';
COMMENT ON COLUMN kernelindex.release_runs.reference_run_digest IS 'the reference run''s digest, sha256:<hex>';
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
COMMENT ON VIEW kernelindex.release_speedups IS
'per release, kernel, pass, metric, GPU and implementation: the geometric-mean speedup over the reference (torch) across the workloads both ran in that release, how many, and how many differ outside the noise';
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
COMMENT ON COLUMN kernelindex.release_speedups.reference_provider IS 'the reference implementation (torch)';
COMMENT ON COLUMN kernelindex.release_speedups.geomean_speedup IS 'geometric mean over the workloads of reference / run (above 1: faster, or less memory)';
COMMENT ON COLUMN kernelindex.release_speedups.workloads IS 'workloads both the implementation and the reference ran in the release';
COMMENT ON COLUMN kernelindex.release_speedups.workloads_outside_noise IS 'of those, how many differ outside the noise (p20-p80 bands apart)';
COMMENT ON COLUMN kernelindex.release_speedups.faster_outside_noise IS 'workloads better than the reference outside the noise';
COMMENT ON COLUMN kernelindex.release_speedups.slower_outside_noise IS 'workloads worse than the reference outside the noise';

CREATE VIEW kernelindex.release_changes AS
WITH pairs AS (
	SELECT r.*,
		pg_catalog.lag(r.release) OVER w AS previous_release,
		pg_catalog.lag(r.release_rank) OVER w AS previous_release_rank,
		pg_catalog.lag(r.latency_ns) OVER w AS previous_latency_ns,
		pg_catalog.lag(r.latency_ns_p20) OVER w AS previous_latency_ns_p20,
		pg_catalog.lag(r.latency_ns_p80) OVER w AS previous_latency_ns_p80,
		pg_catalog.lag(r.peak_bytes) OVER w AS previous_peak_bytes,
		pg_catalog.lag(r.peak_bytes_p20) OVER w AS previous_peak_bytes_p20,
		pg_catalog.lag(r.peak_bytes_p80) OVER w AS previous_peak_bytes_p80,
		pg_catalog.lag(r.run_digest) OVER w AS previous_run_digest
	FROM kernelindex.release_runs r
	WINDOW w AS (PARTITION BY r.comparability_key, r.kernel, r.workload_label, r.gpu, r.gpu_form_factor,
		r.implementation_digest ORDER BY r.release_rank)
), changes AS (
	SELECT p.*,
		CASE p.metric WHEN 'latency' THEN kernelindex.ratio(p.latency_ns, p.previous_latency_ns)
			WHEN 'peak_memory' THEN kernelindex.ratio(p.peak_bytes, p.previous_peak_bytes) END AS change,
		CASE p.metric
			WHEN 'latency' THEN kernelindex.bands_apart(p.latency_ns_p20, p.latency_ns_p80, p.previous_latency_ns_p20, p.previous_latency_ns_p80)
			WHEN 'peak_memory' THEN kernelindex.bands_apart(p.peak_bytes_p20, p.peak_bytes_p80, p.previous_peak_bytes_p20, p.previous_peak_bytes_p80)
		END AS apart
	FROM pairs p
	WHERE p.previous_release IS NOT NULL
)
SELECT c.kernel, c.kernel_title, c.pass, c.metric, c.gpu, c.gpu_form_factor, c.workload_label,
	c.provider, c.provider_title,
	c.previous_release AS old_release, c.release AS new_release,
	c.previous_release_rank AS old_release_rank, c.release_rank AS new_release_rank,
	c.previous_latency_ns AS old_latency_ns, c.latency_ns AS new_latency_ns,
	kernelindex.ns_to_ms(c.previous_latency_ns) AS old_latency_ms, c.latency_ms AS new_latency_ms,
	c.previous_peak_bytes AS old_peak_bytes, c.peak_bytes AS new_peak_bytes,
	c.change AS ratio,
	c.apart AS outside_noise,
	pg_catalog.rank() OVER (ORDER BY COALESCE(c.apart AND c.change OPERATOR(pg_catalog.>) 1, false) DESC,
		c.change DESC NULLS LAST) AS regression_rank,
	c.comparability_key, c.implementation_digest, c.previous_run_digest AS old_run_digest, c.run_digest AS new_run_digest
FROM changes c;
COMMENT ON VIEW kernelindex.release_changes IS
'per comparability key and implementation, each pair of consecutive releases (in release order) it ran in: both medians, ratio = new / old (above 1: slower, or more memory), outside_noise, and regression_rank, 1 for the worst regression outside the noise';
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
COMMENT ON COLUMN kernelindex.release_changes.ratio IS 'new / old (above 1: slower, or more memory: a regression)';
COMMENT ON COLUMN kernelindex.release_changes.outside_noise IS 'true when the two releases'' p20-p80 bands do not overlap';
COMMENT ON COLUMN kernelindex.release_changes.regression_rank IS '1 for the worst regression: regressions outside the noise first, by ratio, then every other change by ratio';
COMMENT ON COLUMN kernelindex.release_changes.comparability_key IS 'comparability key, sha256:<hex>';
COMMENT ON COLUMN kernelindex.release_changes.implementation_digest IS 'implementation digest, sha256:<hex>';
COMMENT ON COLUMN kernelindex.release_changes.old_run_digest IS 'the old release''s run, sha256:<hex>';
COMMENT ON COLUMN kernelindex.release_changes.new_run_digest IS 'the new release''s run, sha256:<hex>';

CREATE VIEW kernelindex.speedup_since AS
WITH compared AS (
	SELECT r.*,
		-- the first release that beat the reference outside the noise
		pg_catalog.first_value(r.release) OVER beat AS beat_release,
		pg_catalog.first_value(r.release_rank) OVER beat AS beat_release_rank,
		pg_catalog.first_value(r.ratio) OVER beat AS beat_ratio,
		pg_catalog.first_value(r.ratio OPERATOR(pg_catalog.>) 1 AND r.outside_noise) OVER beat AS beat,
		pg_catalog.row_number() OVER latest AS latest_number
	FROM kernelindex.release_runs r
	WHERE NOT r.is_reference AND r.reference_run_digest IS NOT NULL
	WINDOW beat AS (PARTITION BY r.comparability_key, r.kernel, r.workload_label, r.gpu, r.gpu_form_factor,
			r.implementation_digest
			ORDER BY COALESCE(r.ratio OPERATOR(pg_catalog.>) 1 AND r.outside_noise, false) DESC, r.release_rank),
		latest AS (PARTITION BY r.comparability_key, r.kernel, r.workload_label, r.gpu, r.gpu_form_factor,
			r.implementation_digest ORDER BY r.release_rank DESC)
)
SELECT l.kernel, l.kernel_title, l.pass, l.metric, l.gpu, l.gpu_form_factor, l.workload_label,
	l.provider, l.provider_title,
	CASE WHEN l.beat THEN l.beat_release END AS since_release,
	CASE WHEN l.beat THEN l.beat_release_rank END AS since_release_rank,
	CASE WHEN l.beat THEN l.beat_ratio END AS since_speedup,
	l.release AS latest_release,
	l.release_rank AS latest_release_rank,
	l.ratio AS latest_speedup,
	COALESCE(l.ratio OPERATOR(pg_catalog.>) 1 AND l.outside_noise, false) AS still_faster,
	l.comparability_key, l.implementation_digest
FROM compared l
WHERE l.latest_number OPERATOR(pg_catalog.=) 1;
COMMENT ON VIEW kernelindex.speedup_since IS
'per comparability key and implementation: the first release in which it beat the reference (torch) outside the noise, and whether its latest release with a reference run still does';
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
