/* ---------------------------------------------------------------------
 * 7. Flat views for BI tools (SPEC section 6)
 *
 * No knowledge of kidx_digest or jsonb needed: digests are also given as
 * text, times in ns and ms, memory in bytes and MiB, with titles.
 * --------------------------------------------------------------------- */

CREATE FUNCTION kernelindex.run_derived_string(stem text, cut integer, observed_at timestamptz)
RETURNS text
AS 'MODULE_PATHNAME', 'kidx_run_derived_string'
LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION kernelindex.run_derived_string(text, integer, timestamptz) IS
'a run''s name or externalId from its series'' stem: stem || the observedAt slug (YYYY-MM-DD-HH-MI-SS, -uuuuuu with a fraction), cut to cut characters without trailing hyphens; NULL for a NULL stem';

CREATE VIEW kernelindex.run_facts AS
SELECT
	r.digest::text AS run_digest,
	r.comparability_key::text AS comparability_key,
	p.digest::text AS protocol_digest,
	w.digest::text AS workload_digest,
	e.digest::text AS environment_digest,
	i.digest::text AS implementation_digest,
	r.observed_at,
	s.metric,
	COALESCE(i.kernel, w.kernel, pg_catalog.split_part(s.benchmark, '/', 1)) AS kernel,
	COALESCE(kc.title, i.kernel, w.kernel, pg_catalog.split_part(s.benchmark, '/', 1)) AS kernel_title,
	i.provider,
	COALESCE(pv.title, i.provider) AS provider_title,
	COALESCE(pv.is_reference, false) AS is_reference,
	s.pass,
	w.label AS workload_label,
	w.title AS workload_title,
	s.release,
	s.title AS run_title,
	e.product AS gpu,
	e.vendor AS gpu_vendor,
	e.form_factor AS gpu_form_factor,
	e.architecture AS gpu_architecture,
	e.title AS environment_title,
	p.title AS protocol_title,
	r.latency_ns,
	r.latency_ns_p20,
	r.latency_ns_p80,
	r.latency_ns::numeric * 0.000001 AS latency_ms,
	r.latency_ns_p20::numeric * 0.000001 AS latency_ms_p20,
	r.latency_ns_p80::numeric * 0.000001 AS latency_ms_p80,
	r.peak_bytes,
	r.peak_bytes_p20,
	r.peak_bytes_p80,
	r.peak_bytes::numeric * 0.00000095367431640625 AS peak_mib,
	r.peak_bytes_p20::numeric * 0.00000095367431640625 AS peak_mib_p20,
	r.peak_bytes_p80::numeric * 0.00000095367431640625 AS peak_mib_p80,
	s.source,
	COALESCE(kernelindex.run_derived_string(s.external_id_stem, NULL, r.observed_at),
		s.template OPERATOR(pg_catalog.#>>) '{spec,sourceNative,externalId}') AS external_id
FROM kernelindex.runs r
JOIN kernelindex.run_series s ON s.id = r.series_id AND s.comparability_key OPERATOR(@extschema@.=) r.comparability_key
JOIN kernelindex.comparability_keys k ON k.key OPERATOR(@extschema@.=) r.comparability_key
JOIN kernelindex.protocols p ON p.id = k.protocol_id
JOIN kernelindex.workloads w ON w.id = k.workload_id
JOIN kernelindex.environments e ON e.id = k.environment_id
JOIN kernelindex.implementations i ON i.id = s.implementation_id
LEFT JOIN kernelindex.kernels kc ON kc.name = COALESCE(i.kernel, w.kernel)
LEFT JOIN kernelindex.providers pv ON pv.name = i.provider;
COMMENT ON VIEW kernelindex.run_facts IS
'one row per stored run, flat: digests as text, latency in ns and ms, peak memory in bytes and MiB, kernel, provider, pass, GPU, workload label, release';
COMMENT ON COLUMN kernelindex.run_facts.run_digest IS 'the run''s resource digest, sha256:<hex>';
COMMENT ON COLUMN kernelindex.run_facts.comparability_key IS 'comparability key, sha256:<hex>: runs with equal keys may be compared';
COMMENT ON COLUMN kernelindex.run_facts.protocol_digest IS 'protocol digest, sha256:<hex>';
COMMENT ON COLUMN kernelindex.run_facts.workload_digest IS 'workload digest, sha256:<hex>';
COMMENT ON COLUMN kernelindex.run_facts.environment_digest IS 'environment digest, sha256:<hex>';
COMMENT ON COLUMN kernelindex.run_facts.implementation_digest IS 'implementation digest, sha256:<hex>';
COMMENT ON COLUMN kernelindex.run_facts.observed_at IS 'when the run was measured';
COMMENT ON COLUMN kernelindex.run_facts.metric IS 'latency or peak_memory';
COMMENT ON COLUMN kernelindex.run_facts.kernel IS 'kernel (benchmark) name';
COMMENT ON COLUMN kernelindex.run_facts.kernel_title IS 'kernel title from kernelindex.kernels';
COMMENT ON COLUMN kernelindex.run_facts.provider IS 'implementation provider, e.g. torch, liger';
COMMENT ON COLUMN kernelindex.run_facts.provider_title IS 'provider title from kernelindex.providers, e.g. PyTorch';
COMMENT ON COLUMN kernelindex.run_facts.is_reference IS 'true for the reference implementation speedups are measured against (kernelindex.providers.is_reference: torch)';
COMMENT ON COLUMN kernelindex.run_facts.pass IS 'timed pass: forward, backward, full';
COMMENT ON COLUMN kernelindex.run_facts.workload_label IS 'workload label, e.g. features16384-tokens2048-fp32';
COMMENT ON COLUMN kernelindex.run_facts.workload_title IS 'workload title (kernel title and label)';
COMMENT ON COLUMN kernelindex.run_facts.release IS 'release label of the run (liger_version)';
COMMENT ON COLUMN kernelindex.run_facts.run_title IS 'run title: kernel title · provider · pass';
COMMENT ON COLUMN kernelindex.run_facts.gpu IS 'GPU product, e.g. NVIDIA A100';
COMMENT ON COLUMN kernelindex.run_facts.gpu_vendor IS 'GPU vendor: nvidia, amd, intel';
COMMENT ON COLUMN kernelindex.run_facts.gpu_form_factor IS 'GPU board variant, e.g. SXM4-80GB';
COMMENT ON COLUMN kernelindex.run_facts.gpu_architecture IS 'GPU architecture, e.g. sm_80';
COMMENT ON COLUMN kernelindex.run_facts.environment_title IS 'environment title, e.g. Liger benchmark host · A100-SXM4-80GB';
COMMENT ON COLUMN kernelindex.run_facts.protocol_title IS 'protocol title, e.g. Liger benchmark harness · forward pass';
COMMENT ON COLUMN kernelindex.run_facts.latency_ns IS 'median latency, nanoseconds';
COMMENT ON COLUMN kernelindex.run_facts.latency_ns_p20 IS 'p20 latency, nanoseconds';
COMMENT ON COLUMN kernelindex.run_facts.latency_ns_p80 IS 'p80 latency, nanoseconds';
COMMENT ON COLUMN kernelindex.run_facts.latency_ms IS 'median latency, milliseconds';
COMMENT ON COLUMN kernelindex.run_facts.latency_ms_p20 IS 'p20 latency, milliseconds';
COMMENT ON COLUMN kernelindex.run_facts.latency_ms_p80 IS 'p80 latency, milliseconds';
COMMENT ON COLUMN kernelindex.run_facts.peak_bytes IS 'median peak memory, bytes';
COMMENT ON COLUMN kernelindex.run_facts.peak_bytes_p20 IS 'p20 peak memory, bytes';
COMMENT ON COLUMN kernelindex.run_facts.peak_bytes_p80 IS 'p80 peak memory, bytes';
COMMENT ON COLUMN kernelindex.run_facts.peak_mib IS 'median peak memory, MiB';
COMMENT ON COLUMN kernelindex.run_facts.peak_mib_p20 IS 'p20 peak memory, MiB';
COMMENT ON COLUMN kernelindex.run_facts.peak_mib_p80 IS 'p80 peak memory, MiB';
COMMENT ON COLUMN kernelindex.run_facts.source IS 'source of the run (sourceNative.source), e.g. liger-kernel-bench';
COMMENT ON COLUMN kernelindex.run_facts.external_id IS 'the source''s own id of the run (sourceNative.externalId)';

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
	ref.provider AS reference_provider,
	ref.provider_title AS reference_provider_title,
	ref.release AS reference_release,
	ref.observed_at AS reference_observed_at,
	f.latency_ns,
	f.latency_ms,
	ref.latency_ns AS reference_latency_ns,
	ref.latency_ms AS reference_latency_ms,
	CASE WHEN f.latency_ns > 0 THEN pg_catalog.round(ref.latency_ns::numeric / f.latency_ns, 3) END AS speedup,
	f.peak_bytes,
	ref.peak_bytes AS reference_peak_bytes,
	CASE WHEN f.peak_bytes > 0 THEN pg_catalog.round(ref.peak_bytes::numeric / f.peak_bytes, 3) END AS memory_ratio,
	f.comparability_key,
	f.run_digest,
	ref.run_digest AS reference_run_digest
FROM kernelindex.run_facts f
CROSS JOIN LATERAL (
	SELECT x.*
	FROM kernelindex.run_facts x
	WHERE x.is_reference AND x.comparability_key = f.comparability_key
	ORDER BY pg_catalog.abs(EXTRACT(EPOCH FROM x.observed_at - f.observed_at)), x.run_digest
	LIMIT 1
) ref;
COMMENT ON VIEW kernelindex.speedups IS
'each run against the reference implementation (kernelindex.providers.is_reference: torch) run under the same comparability key (same protocol, workload and GPU), the one measured nearest in time: speedup = reference latency / latency, memory_ratio = reference peak memory / peak memory';
COMMENT ON COLUMN kernelindex.speedups.kernel IS 'kernel (benchmark) name';
COMMENT ON COLUMN kernelindex.speedups.kernel_title IS 'kernel title';
COMMENT ON COLUMN kernelindex.speedups.pass IS 'timed pass: forward, backward, full';
COMMENT ON COLUMN kernelindex.speedups.metric IS 'latency or peak_memory';
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
COMMENT ON COLUMN kernelindex.speedups.latency_ns IS 'median latency of the run, ns';
COMMENT ON COLUMN kernelindex.speedups.latency_ms IS 'median latency of the run, ms';
COMMENT ON COLUMN kernelindex.speedups.reference_latency_ns IS 'median latency of the reference run, ns';
COMMENT ON COLUMN kernelindex.speedups.reference_latency_ms IS 'median latency of the reference run, ms';
COMMENT ON COLUMN kernelindex.speedups.speedup IS 'reference latency / latency (above 1: faster than the reference)';
COMMENT ON COLUMN kernelindex.speedups.peak_bytes IS 'median peak memory of the run, bytes';
COMMENT ON COLUMN kernelindex.speedups.reference_peak_bytes IS 'median peak memory of the reference run, bytes';
COMMENT ON COLUMN kernelindex.speedups.memory_ratio IS 'reference peak memory / peak memory (above 1: uses less memory)';
COMMENT ON COLUMN kernelindex.speedups.comparability_key IS 'the shared comparability key, sha256:<hex>';
COMMENT ON COLUMN kernelindex.speedups.run_digest IS 'the run''s digest, sha256:<hex>';
COMMENT ON COLUMN kernelindex.speedups.reference_run_digest IS 'the reference run''s digest, sha256:<hex>';
