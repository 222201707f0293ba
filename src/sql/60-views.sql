/* ---------------------------------------------------------------------
 * 7. Views for BI tools (SPEC section 10)
 *
 * Plain types only (text, bigint, integer, numeric, double precision,
 * timestamptz, boolean): digests as text, times in ns and ms, memory in bytes and MiB,
 * with titles.  What runs share is looked up once per series
 * (series_facts); the latest run of a series comes from the index
 * runs_series_observed, so that per-release views touch one run per
 * series, not every run.  A run's number is compared only with numbers
 * under the same comparability key, and a latency never with a memory
 * figure (they have their own protocols, hence their own keys).
 * --------------------------------------------------------------------- */

CREATE FUNCTION kernelindex.run_derived_string(stem text, cut integer, observed_at timestamptz)
RETURNS text
AS 'MODULE_PATHNAME', 'kidx_run_derived_string'
LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION kernelindex.run_derived_string(text, integer, timestamptz) IS
'a run''s name or externalId from its series'' stem: stem || the observedAt slug (YYYY-MM-DD-HH-MI-SS, -uuuuuu with a fraction), cut to cut characters without trailing hyphens; NULL for a NULL stem';

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

/* --- What a series shares, flat ---------------------------------------- */

CREATE VIEW kernelindex.series_facts AS
SELECT
	s.id AS series_id,
	s.comparability_key::text AS comparability_key,
	p.digest::text AS protocol_digest,
	w.digest::text AS workload_digest,
	e.digest::text AS environment_digest,
	i.digest::text AS implementation_digest,
	s.metric,
	kn.kernel,
	COALESCE(kc.title, kn.kernel) AS kernel_title,
	i.provider,
	COALESCE(pv.title, i.provider) AS provider_title,
	COALESCE(pv.is_reference, false) AS is_reference,
	s.pass,
	w.label AS workload_label,
	w.title AS workload_title,
	s.release,
	s.title AS run_title,
	s.status,
	s.source,
	e.product AS gpu,
	e.vendor AS gpu_vendor,
	e.form_factor AS gpu_form_factor,
	e.architecture AS gpu_architecture,
	e.title AS environment_title,
	p.title AS protocol_title,
	s.external_id_stem,
	s.template OPERATOR(pg_catalog.#>>) '{spec,sourceNative,externalId}' AS external_id
FROM kernelindex.run_series s
JOIN kernelindex.comparability_keys k ON k.key OPERATOR(@extschema@.=) s.comparability_key
JOIN kernelindex.protocols p ON p.id OPERATOR(pg_catalog.=) k.protocol_id
JOIN kernelindex.workloads w ON w.id OPERATOR(pg_catalog.=) k.workload_id
JOIN kernelindex.environments e ON e.id OPERATOR(pg_catalog.=) k.environment_id
JOIN kernelindex.implementations i ON i.id OPERATOR(pg_catalog.=) s.implementation_id
CROSS JOIN LATERAL (SELECT COALESCE(i.kernel, w.kernel,
	NULLIF(pg_catalog.split_part(s.benchmark, '/', 1), '')) AS kernel) kn
LEFT JOIN kernelindex.kernels kc ON kc.name OPERATOR(pg_catalog.=) kn.kernel
LEFT JOIN kernelindex.providers pv ON pv.name OPERATOR(pg_catalog.=) i.provider;
COMMENT ON VIEW kernelindex.series_facts IS
'one row per run series: what its runs share (kernel, pass, implementation, GPU, workload, release, titles), flat';
COMMENT ON COLUMN kernelindex.series_facts.series_id IS 'the series (kernelindex.run_series.id; runs.series_id)';
COMMENT ON COLUMN kernelindex.series_facts.comparability_key IS 'comparability key, sha256:<hex>: runs with equal keys may be compared';
COMMENT ON COLUMN kernelindex.series_facts.protocol_digest IS 'protocol digest, sha256:<hex>';
COMMENT ON COLUMN kernelindex.series_facts.workload_digest IS 'workload digest, sha256:<hex>';
COMMENT ON COLUMN kernelindex.series_facts.environment_digest IS 'environment digest, sha256:<hex>';
COMMENT ON COLUMN kernelindex.series_facts.implementation_digest IS 'implementation digest, sha256:<hex>';
COMMENT ON COLUMN kernelindex.series_facts.metric IS 'latency or peak_memory: what the runs measured';
COMMENT ON COLUMN kernelindex.series_facts.kernel IS 'kernel (benchmark) name';
COMMENT ON COLUMN kernelindex.series_facts.kernel_title IS 'kernel title from kernelindex.kernels';
COMMENT ON COLUMN kernelindex.series_facts.provider IS 'implementation provider, e.g. torch, liger (NULL while the implementation is known by digest only)';
COMMENT ON COLUMN kernelindex.series_facts.provider_title IS 'provider title from kernelindex.providers, e.g. PyTorch';
COMMENT ON COLUMN kernelindex.series_facts.is_reference IS 'true for the reference implementation speedups are measured against (kernelindex.providers.is_reference: torch)';
COMMENT ON COLUMN kernelindex.series_facts.pass IS 'timed pass: forward, backward, full';
COMMENT ON COLUMN kernelindex.series_facts.workload_label IS 'workload label, e.g. features16384-tokens2048-fp32 (NULL while the workload is known by digest only)';
COMMENT ON COLUMN kernelindex.series_facts.workload_title IS 'workload title (kernel title and label)';
COMMENT ON COLUMN kernelindex.series_facts.release IS 'release label of the runs (liger_version)';
COMMENT ON COLUMN kernelindex.series_facts.run_title IS 'run title: kernel title · provider · pass';
COMMENT ON COLUMN kernelindex.series_facts.status IS 'run status, e.g. passed';
COMMENT ON COLUMN kernelindex.series_facts.source IS 'source of the runs (sourceNative.source), e.g. liger-kernel-bench';
COMMENT ON COLUMN kernelindex.series_facts.gpu IS 'GPU product, e.g. NVIDIA A100';
COMMENT ON COLUMN kernelindex.series_facts.gpu_vendor IS 'GPU vendor: nvidia, amd, intel';
COMMENT ON COLUMN kernelindex.series_facts.gpu_form_factor IS 'GPU board variant, e.g. SXM4-80GB';
COMMENT ON COLUMN kernelindex.series_facts.gpu_architecture IS 'GPU architecture, e.g. sm_80';
COMMENT ON COLUMN kernelindex.series_facts.environment_title IS 'environment title, e.g. Liger benchmark host · A100-SXM4-80GB';
COMMENT ON COLUMN kernelindex.series_facts.protocol_title IS 'protocol title, e.g. Liger benchmark harness · forward pass';
COMMENT ON COLUMN kernelindex.series_facts.external_id_stem IS 'the externalId before each run''s timestamp slug (NULL: every run has external_id)';
COMMENT ON COLUMN kernelindex.series_facts.external_id IS 'the externalId all runs of the series share, when it is not derived from their timestamps';

/* --- One row per run ----------------------------------------------------- */

CREATE VIEW kernelindex.run_facts AS
SELECT
	r.digest::text AS run_digest,
	sf.comparability_key,
	sf.protocol_digest,
	sf.workload_digest,
	sf.environment_digest,
	sf.implementation_digest,
	r.series_id,
	r.observed_at,
	sf.metric,
	sf.kernel,
	sf.kernel_title,
	sf.provider,
	sf.provider_title,
	sf.is_reference,
	sf.pass,
	sf.workload_label,
	sf.workload_title,
	sf.release,
	sf.run_title,
	sf.status,
	sf.gpu,
	sf.gpu_vendor,
	sf.gpu_form_factor,
	sf.gpu_architecture,
	sf.environment_title,
	sf.protocol_title,
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
	sf.source,
	COALESCE(kernelindex.run_derived_string(sf.external_id_stem, NULL, r.observed_at), sf.external_id) AS external_id
FROM kernelindex.runs r
JOIN kernelindex.series_facts sf ON sf.series_id OPERATOR(pg_catalog.=) r.series_id;
COMMENT ON VIEW kernelindex.run_facts IS
'one row per stored run, flat: digests as text, latency in ns and ms, peak memory in bytes and MiB (median, p20, p80), kernel, provider, pass, GPU, workload label, release';
COMMENT ON COLUMN kernelindex.run_facts.run_digest IS 'the run''s resource digest, sha256:<hex>';
COMMENT ON COLUMN kernelindex.run_facts.comparability_key IS 'comparability key, sha256:<hex>: runs with equal keys may be compared';
COMMENT ON COLUMN kernelindex.run_facts.protocol_digest IS 'protocol digest, sha256:<hex>';
COMMENT ON COLUMN kernelindex.run_facts.workload_digest IS 'workload digest, sha256:<hex>';
COMMENT ON COLUMN kernelindex.run_facts.environment_digest IS 'environment digest, sha256:<hex>';
COMMENT ON COLUMN kernelindex.run_facts.implementation_digest IS 'implementation digest, sha256:<hex>';
COMMENT ON COLUMN kernelindex.run_facts.series_id IS 'the run''s series (kernelindex.series_facts)';
COMMENT ON COLUMN kernelindex.run_facts.observed_at IS 'when the run was measured';
COMMENT ON COLUMN kernelindex.run_facts.metric IS 'latency or peak_memory';
COMMENT ON COLUMN kernelindex.run_facts.kernel IS 'kernel (benchmark) name';
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

/* --- The latest run of each series --------------------------------------- */

CREATE FUNCTION kernelindex.series_latest_run(series integer)
RETURNS SETOF kernelindex.runs
LANGUAGE sql STABLE PARALLEL SAFE ROWS 1
BEGIN ATOMIC
	SELECT r.* FROM kernelindex.runs r
	WHERE r.series_id OPERATOR(pg_catalog.=) series_latest_run.series
	ORDER BY r.observed_at DESC, r.digest DESC
	LIMIT 1;
END;
COMMENT ON FUNCTION kernelindex.series_latest_run(integer) IS
'the latest run (by observed_at, ties by digest) of a series: one probe of the index runs_series_observed; inlined where used in FROM';

CREATE VIEW kernelindex.series_latest AS
SELECT s.id AS series_id,
	l.digest::text AS run_digest,
	l.observed_at,
	l.latency_ns, l.latency_ns_p20, l.latency_ns_p80,
	l.peak_bytes, l.peak_bytes_p20, l.peak_bytes_p80
FROM kernelindex.run_series s
CROSS JOIN LATERAL kernelindex.series_latest_run(s.id) l;
COMMENT ON VIEW kernelindex.series_latest IS
'the latest run (by observed_at) of each run series, found through the index runs_series_observed: one index probe per series';
COMMENT ON COLUMN kernelindex.series_latest.series_id IS 'the series (kernelindex.series_facts)';
COMMENT ON COLUMN kernelindex.series_latest.run_digest IS 'its latest run''s digest, sha256:<hex>';
COMMENT ON COLUMN kernelindex.series_latest.observed_at IS 'when that run was measured';
COMMENT ON COLUMN kernelindex.series_latest.latency_ns IS 'its median latency, ns';
COMMENT ON COLUMN kernelindex.series_latest.latency_ns_p20 IS 'its p20 latency, ns';
COMMENT ON COLUMN kernelindex.series_latest.latency_ns_p80 IS 'its p80 latency, ns';
COMMENT ON COLUMN kernelindex.series_latest.peak_bytes IS 'its median peak memory, bytes';
COMMENT ON COLUMN kernelindex.series_latest.peak_bytes_p20 IS 'its p20 peak memory, bytes';
COMMENT ON COLUMN kernelindex.series_latest.peak_bytes_p80 IS 'its p80 peak memory, bytes';

/* --- The latest run per comparability key and implementation ------------ */

CREATE VIEW kernelindex.latest_runs AS
SELECT f.*
FROM (SELECT DISTINCT ON (s.comparability_key, s.implementation_id)
		l.series_id, l.observed_at, l.run_digest
	  FROM kernelindex.series_latest l
	  JOIN kernelindex.run_series s ON s.id OPERATOR(pg_catalog.=) l.series_id
	  ORDER BY s.comparability_key, s.implementation_id, l.observed_at DESC, l.run_digest DESC) x
CROSS JOIN LATERAL (
	SELECT f.* FROM kernelindex.run_facts f
	WHERE f.series_id OPERATOR(pg_catalog.=) x.series_id
	  AND f.observed_at OPERATOR(pg_catalog.=) x.observed_at
	  AND f.run_digest OPERATOR(pg_catalog.=) x.run_digest
	OFFSET 0) f;
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

/* --- The reference run each series is compared with ---------------------- */

CREATE VIEW kernelindex.series_reference AS
-- Per series, one look-up among the reference series of its comparability
-- key (LATERAL), so that a filter on the series (one kernel and GPU) comes
-- first and only its references are looked up.
SELECT
	o.series_id,
	rl.series_id AS reference_series_id,
	rl.provider AS reference_provider,
	rl.provider_title AS reference_provider_title,
	rl.release AS reference_release,
	rl.same_release,
	rl.run_digest AS reference_run_digest,
	rl.observed_at AS reference_observed_at,
	rl.latency_ns AS reference_latency_ns,
	rl.latency_ns_p20 AS reference_latency_ns_p20,
	rl.latency_ns_p80 AS reference_latency_ns_p80,
	rl.peak_bytes AS reference_peak_bytes,
	rl.peak_bytes_p20 AS reference_peak_bytes_p20,
	rl.peak_bytes_p80 AS reference_peak_bytes_p80
FROM kernelindex.series_facts o
CROSS JOIN LATERAL (
	-- the reference implementation's latest run of the same release, else
	-- its latest run of any release
	SELECT s.id AS series_id, i.provider, COALESCE(pv.title, i.provider) AS provider_title, s.release,
		s.release IS NOT DISTINCT FROM o.release AS same_release,
		l.digest::text AS run_digest, l.observed_at,
		l.latency_ns, l.latency_ns_p20, l.latency_ns_p80,
		l.peak_bytes, l.peak_bytes_p20, l.peak_bytes_p80
	FROM kernelindex.run_series os
	JOIN kernelindex.run_series s ON s.comparability_key OPERATOR(@extschema@.=) os.comparability_key
	JOIN kernelindex.implementations i ON i.id OPERATOR(pg_catalog.=) s.implementation_id
	JOIN kernelindex.providers pv ON pv.name OPERATOR(pg_catalog.=) i.provider AND pv.is_reference
	CROSS JOIN LATERAL kernelindex.series_latest_run(s.id) l
	WHERE os.id OPERATOR(pg_catalog.=) o.series_id
	ORDER BY s.release IS NOT DISTINCT FROM o.release DESC, l.observed_at DESC, l.digest DESC
	LIMIT 1) rl
WHERE NOT o.is_reference;
COMMENT ON VIEW kernelindex.series_reference IS
'per series of a non-reference implementation: the reference implementation''s run its runs are compared with, under the same comparability key: the reference''s latest run of the same release, else its latest run of any release';
COMMENT ON COLUMN kernelindex.series_reference.series_id IS 'the series compared (kernelindex.series_facts)';
COMMENT ON COLUMN kernelindex.series_reference.reference_series_id IS 'the reference run''s series';
COMMENT ON COLUMN kernelindex.series_reference.reference_provider IS 'provider of the reference run (torch)';
COMMENT ON COLUMN kernelindex.series_reference.reference_provider_title IS 'title of the reference provider (PyTorch)';
COMMENT ON COLUMN kernelindex.series_reference.reference_release IS 'release label of the reference run';
COMMENT ON COLUMN kernelindex.series_reference.same_release IS 'whether the reference run is of the series'' release (else the reference has no run in it)';
COMMENT ON COLUMN kernelindex.series_reference.reference_run_digest IS 'the reference run''s digest, sha256:<hex>';
COMMENT ON COLUMN kernelindex.series_reference.reference_observed_at IS 'when the reference run was measured';
COMMENT ON COLUMN kernelindex.series_reference.reference_latency_ns IS 'median latency of the reference run, ns';
COMMENT ON COLUMN kernelindex.series_reference.reference_latency_ns_p20 IS 'p20 latency of the reference run, ns';
COMMENT ON COLUMN kernelindex.series_reference.reference_latency_ns_p80 IS 'p80 latency of the reference run, ns';
COMMENT ON COLUMN kernelindex.series_reference.reference_peak_bytes IS 'median peak memory of the reference run, bytes';
COMMENT ON COLUMN kernelindex.series_reference.reference_peak_bytes_p20 IS 'p20 peak memory of the reference run, bytes';
COMMENT ON COLUMN kernelindex.series_reference.reference_peak_bytes_p80 IS 'p80 peak memory of the reference run, bytes';

/* --- Each run against the reference implementation ----------------------- */

CREATE VIEW kernelindex.speedups AS
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
	rf.reference_provider,
	rf.reference_provider_title,
	rf.reference_release,
	rf.reference_observed_at,
	rf.same_release,
	f.latency_ns,
	f.latency_ns_p20,
	f.latency_ns_p80,
	f.latency_ms,
	f.latency_ms_p20,
	f.latency_ms_p80,
	rf.reference_latency_ns,
	rf.reference_latency_ns_p20,
	rf.reference_latency_ns_p80,
	kernelindex.ns_to_ms(rf.reference_latency_ns) AS reference_latency_ms,
	kernelindex.ns_to_ms(rf.reference_latency_ns_p20) AS reference_latency_ms_p20,
	kernelindex.ns_to_ms(rf.reference_latency_ns_p80) AS reference_latency_ms_p80,
	kernelindex.ratio(rf.reference_latency_ns, f.latency_ns) AS speedup,
	f.peak_bytes,
	f.peak_bytes_p20,
	f.peak_bytes_p80,
	f.peak_mib,
	rf.reference_peak_bytes,
	rf.reference_peak_bytes_p20,
	rf.reference_peak_bytes_p80,
	kernelindex.bytes_to_mib(rf.reference_peak_bytes) AS reference_peak_mib,
	kernelindex.ratio(rf.reference_peak_bytes, f.peak_bytes) AS memory_ratio,
	CASE f.metric
		WHEN 'latency' THEN kernelindex.bands_apart(f.latency_ns_p20, f.latency_ns_p80,
			rf.reference_latency_ns_p20, rf.reference_latency_ns_p80)
		WHEN 'peak_memory' THEN kernelindex.bands_apart(f.peak_bytes_p20, f.peak_bytes_p80,
			rf.reference_peak_bytes_p20, rf.reference_peak_bytes_p80)
	END AS outside_noise,
	f.comparability_key,
	f.implementation_digest,
	f.series_id,
	f.run_digest,
	rf.reference_run_digest
FROM kernelindex.run_facts f
JOIN kernelindex.series_reference rf ON rf.series_id OPERATOR(pg_catalog.=) f.series_id;
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
COMMENT ON COLUMN kernelindex.speedups.series_id IS 'the run''s series (kernelindex.series_facts)';
COMMENT ON COLUMN kernelindex.speedups.run_digest IS 'the run''s digest, sha256:<hex>';
COMMENT ON COLUMN kernelindex.speedups.reference_run_digest IS 'the reference run''s digest, sha256:<hex>';

/* --- Releases in order -------------------------------------------------- */

CREATE VIEW kernelindex.releases AS
WITH rel AS (
	SELECT s.release, pg_catalog.min(fr.observed_at) AS first_observed_at,
		pg_catalog.count(*) AS series
	FROM kernelindex.run_series s
	CROSS JOIN LATERAL (
		SELECT r.observed_at FROM kernelindex.runs r
		WHERE r.series_id OPERATOR(pg_catalog.=) s.id
		ORDER BY r.observed_at LIMIT 1) fr
	WHERE s.release IS NOT NULL
	GROUP BY s.release
)
SELECT rel.release,
	kernelindex.release_version_key(rel.release) IS NOT NULL AS is_version,
	rel.first_observed_at,
	rel.series,
	pg_catalog.rank() OVER (ORDER BY kernelindex.release_version_key(rel.release) IS NULL,
		kernelindex.release_version_key(rel.release), rel.first_observed_at,
		rel.release COLLATE "C") AS release_rank
FROM rel;
COMMENT ON VIEW kernelindex.releases IS
'every release label runs carry, in release order: versions in version order (0.5.10 after 0.5.9), then labels that are not versions by their first run''s time';
COMMENT ON COLUMN kernelindex.releases.release IS 'the release label (metadata.labels.release; liger_version)';
COMMENT ON COLUMN kernelindex.releases.is_version IS 'whether the label is a version (else it sorts by first_observed_at, after the versions)';
COMMENT ON COLUMN kernelindex.releases.first_observed_at IS 'when the first run of the release was measured';
COMMENT ON COLUMN kernelindex.releases.series IS 'how many run series carry the label';
COMMENT ON COLUMN kernelindex.releases.release_rank IS 'position in release order, 1 first';

/* --- Per release: one run per workload and implementation ---------------- */

CREATE VIEW kernelindex.release_runs AS
WITH latest AS (
	-- per comparability key, implementation and release: the latest run
	SELECT DISTINCT ON (sf.comparability_key, sf.implementation_digest, sf.release)
		sf.*, l.run_digest, l.observed_at,
		l.latency_ns, l.latency_ns_p20, l.latency_ns_p80,
		l.peak_bytes, l.peak_bytes_p20, l.peak_bytes_p80
	FROM kernelindex.series_latest l
	JOIN kernelindex.series_facts sf ON sf.series_id OPERATOR(pg_catalog.=) l.series_id
	WHERE sf.release IS NOT NULL
	ORDER BY sf.comparability_key, sf.implementation_digest, sf.release, l.observed_at DESC, l.run_digest DESC
)
SELECT o.kernel, o.kernel_title, o.pass, o.metric, o.gpu, o.gpu_form_factor, o.workload_label,
	o.provider, o.provider_title, o.is_reference, o.release, rel.release_rank, o.observed_at,
	o.latency_ns, o.latency_ns_p20, o.latency_ns_p80, kernelindex.ns_to_ms(o.latency_ns) AS latency_ms,
	o.peak_bytes, o.peak_bytes_p20, o.peak_bytes_p80, kernelindex.bytes_to_mib(o.peak_bytes) AS peak_mib,
	r.provider AS reference_provider,
	r.latency_ns AS reference_latency_ns, kernelindex.ns_to_ms(r.latency_ns) AS reference_latency_ms,
	r.latency_ns_p20 AS reference_latency_ns_p20, r.latency_ns_p80 AS reference_latency_ns_p80,
	r.peak_bytes AS reference_peak_bytes, kernelindex.bytes_to_mib(r.peak_bytes) AS reference_peak_mib,
	r.peak_bytes_p20 AS reference_peak_bytes_p20, r.peak_bytes_p80 AS reference_peak_bytes_p80,
	CASE o.metric WHEN 'latency' THEN kernelindex.ratio(r.latency_ns, o.latency_ns)
		WHEN 'peak_memory' THEN kernelindex.ratio(r.peak_bytes, o.peak_bytes) END AS ratio,
	CASE o.metric
		WHEN 'latency' THEN kernelindex.bands_apart(o.latency_ns_p20, o.latency_ns_p80, r.latency_ns_p20, r.latency_ns_p80)
		WHEN 'peak_memory' THEN kernelindex.bands_apart(o.peak_bytes_p20, o.peak_bytes_p80, r.peak_bytes_p20, r.peak_bytes_p80)
	END AS outside_noise,
	o.comparability_key, o.implementation_digest, o.series_id, o.run_digest, r.run_digest AS reference_run_digest
FROM latest o
JOIN kernelindex.releases rel ON rel.release OPERATOR(pg_catalog.=) o.release
LEFT JOIN latest r ON r.is_reference AND NOT o.is_reference
	AND r.comparability_key OPERATOR(pg_catalog.=) o.comparability_key
	AND r.release OPERATOR(pg_catalog.=) o.release;
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
COMMENT ON COLUMN kernelindex.release_runs.series_id IS 'the run''s series';
COMMENT ON COLUMN kernelindex.release_runs.run_digest IS 'the run''s digest, sha256:<hex>';
COMMENT ON COLUMN kernelindex.release_runs.reference_run_digest IS 'the reference run''s digest, sha256:<hex>';
CREATE VIEW kernelindex.release_speedups AS
SELECT r.release, r.release_rank, r.kernel, r.kernel_title, r.pass, r.metric, r.gpu, r.gpu_form_factor,
	r.provider, r.provider_title, pg_catalog.max(r.reference_provider) AS reference_provider,
	pg_catalog.exp(pg_catalog.avg(pg_catalog.ln(r.ratio))) AS geomean_speedup,
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
	WINDOW w AS (PARTITION BY r.comparability_key, r.implementation_digest ORDER BY r.release_rank)
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
	SELECT r.* FROM kernelindex.release_runs r
	WHERE NOT r.is_reference AND r.reference_run_digest IS NOT NULL
), first_beat AS (
	SELECT DISTINCT ON (c.comparability_key, c.implementation_digest)
		c.comparability_key, c.implementation_digest, c.release, c.release_rank, c.ratio
	FROM compared c
	WHERE c.ratio OPERATOR(pg_catalog.>) 1 AND c.outside_noise
	ORDER BY c.comparability_key, c.implementation_digest, c.release_rank
), latest AS (
	SELECT DISTINCT ON (c.comparability_key, c.implementation_digest) c.*
	FROM compared c
	ORDER BY c.comparability_key, c.implementation_digest, c.release_rank DESC
)
SELECT l.kernel, l.kernel_title, l.pass, l.metric, l.gpu, l.gpu_form_factor, l.workload_label,
	l.provider, l.provider_title,
	b.release AS since_release,
	b.release_rank AS since_release_rank,
	b.ratio AS since_speedup,
	l.release AS latest_release,
	l.release_rank AS latest_release_rank,
	l.ratio AS latest_speedup,
	COALESCE(l.ratio OPERATOR(pg_catalog.>) 1 AND l.outside_noise, false) AS still_faster,
	l.comparability_key, l.implementation_digest
FROM latest l
LEFT JOIN first_beat b ON b.comparability_key OPERATOR(pg_catalog.=) l.comparability_key
	AND b.implementation_digest OPERATOR(pg_catalog.=) l.implementation_digest;
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
