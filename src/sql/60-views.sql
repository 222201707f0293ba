/* ---------------------------------------------------------------------
 * 7. Flat views for BI tools (SPEC section 6)
 *
 * No knowledge of kidx_digest or jsonb needed: digests are also given as
 * text, times in ns and ms, memory in bytes and MiB, with titles.
 * --------------------------------------------------------------------- */

CREATE VIEW kernelindex.run_facts AS
SELECT
	r.digest AS run_digest,
	r.digest::text AS run_digest_text,
	r.comparability_key,
	r.comparability_key::text AS comparability_key_text,
	p.digest::text AS protocol_digest_text,
	w.digest::text AS workload_digest_text,
	e.digest::text AS environment_digest_text,
	im.digest::text AS implementation_digest_text,
	r.observed_at,
	CASE WHEN r.latency_ns IS NOT NULL THEN 'latency' WHEN r.peak_bytes IS NOT NULL THEN 'peak_memory' END AS metric,
	COALESCE(im.document #>> '{spec,kernel}', pg_catalog.split_part(s.template #>> '{spec,sourceNative,benchmark}', '/', 1)) AS kernel,
	COALESCE(k.title, im.document #>> '{spec,kernel}') AS kernel_title,
	im.document #>> '{spec,provider}' AS provider,
	COALESCE(pv.title, im.document #>> '{spec,provider}') AS provider_title,
	NULLIF(pg_catalog.split_part(COALESCE(r.residual, s.template) #>> '{spec,sourceNative,benchmark}', '/', 2), '') AS pass,
	COALESCE(w.document #>> '{metadata,labels,label}', v.variant) AS workload_label,
	w.document #>> '{metadata,title}' AS workload_title,
	COALESCE(r.residual, s.template) #>> '{metadata,labels,liger_version}' AS release,
	COALESCE(r.residual, s.template) #>> '{metadata,title}' AS run_title,
	e.document #>> '{spec,hardware,product}' AS gpu,
	e.document #>> '{spec,hardware,vendor}' AS gpu_vendor,
	e.document #>> '{spec,hardware,formFactor}' AS gpu_form_factor,
	e.document #>> '{spec,hardware,architecture}' AS gpu_architecture,
	e.document #>> '{metadata,title}' AS environment_title,
	p.document #>> '{metadata,title}' AS protocol_title,
	r.latency_ns,
	r.latency_ns_p20,
	r.latency_ns_p80,
	pg_catalog.round(r.latency_ns / 1000000.0, 6) AS latency_ms,
	pg_catalog.round(r.latency_ns_p20 / 1000000.0, 6) AS latency_ms_p20,
	pg_catalog.round(r.latency_ns_p80 / 1000000.0, 6) AS latency_ms_p80,
	r.peak_bytes,
	r.peak_bytes_p20,
	r.peak_bytes_p80,
	pg_catalog.round(r.peak_bytes / 1048576.0, 6) AS peak_mib,
	COALESCE(r.residual, s.template) #>> '{spec,sourceNative,source}' AS source,
	COALESCE(r.residual #>> '{spec,sourceNative,externalId}', s.template #>> '{spec,sourceNative,externalId}',
		s.external_id_stem || v.variant || '/' || pg_catalog.to_char(r.observed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD-HH24-MI-SS')) AS external_id
FROM kernelindex.runs r
JOIN kernelindex.protocols p ON p.id = r.protocol_id
JOIN kernelindex.workloads w ON w.id = r.workload_id
JOIN kernelindex.environments e ON e.id = r.environment_id
JOIN kernelindex.implementations im ON im.id = r.implementation_id
JOIN kernelindex.run_series s ON s.id = r.series_id
LEFT JOIN kernelindex.run_variants v ON v.id = r.variant_id
LEFT JOIN kernelindex.kernels k ON k.name = im.document #>> '{spec,kernel}'
LEFT JOIN kernelindex.providers pv ON pv.name = im.document #>> '{spec,provider}';
COMMENT ON VIEW kernelindex.run_facts IS
'one row per stored run, flat: digests as text, latency in ns and ms, peak memory in bytes and MiB, kernel, provider, pass, GPU, workload label, release';
COMMENT ON COLUMN kernelindex.run_facts.run_digest IS 'the run''s resource digest (kidx_digest)';
COMMENT ON COLUMN kernelindex.run_facts.run_digest_text IS 'the run''s resource digest as text, sha256:<hex>';
COMMENT ON COLUMN kernelindex.run_facts.comparability_key IS 'comparability key (kidx_digest): runs with equal keys may be compared';
COMMENT ON COLUMN kernelindex.run_facts.comparability_key_text IS 'comparability key as text';
COMMENT ON COLUMN kernelindex.run_facts.protocol_digest_text IS 'protocol digest as text';
COMMENT ON COLUMN kernelindex.run_facts.workload_digest_text IS 'workload digest as text';
COMMENT ON COLUMN kernelindex.run_facts.environment_digest_text IS 'environment digest as text';
COMMENT ON COLUMN kernelindex.run_facts.implementation_digest_text IS 'implementation digest as text';
COMMENT ON COLUMN kernelindex.run_facts.observed_at IS 'when the run was measured';
COMMENT ON COLUMN kernelindex.run_facts.metric IS 'latency or peak_memory';
COMMENT ON COLUMN kernelindex.run_facts.kernel IS 'kernel (benchmark) name';
COMMENT ON COLUMN kernelindex.run_facts.kernel_title IS 'kernel title from kernelindex.kernels';
COMMENT ON COLUMN kernelindex.run_facts.provider IS 'implementation provider, e.g. torch, liger';
COMMENT ON COLUMN kernelindex.run_facts.provider_title IS 'provider title from kernelindex.providers, e.g. PyTorch';
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
	f.comparability_key_text,
	f.run_digest_text,
	ref.run_digest_text AS reference_run_digest_text
FROM kernelindex.run_facts f
CROSS JOIN LATERAL (
	SELECT x.*
	FROM kernelindex.run_facts x
	JOIN kernelindex.providers rp ON rp.name = x.provider AND rp.is_reference
	WHERE x.comparability_key OPERATOR(@extschema@.=) f.comparability_key
	ORDER BY pg_catalog.abs(EXTRACT(EPOCH FROM x.observed_at - f.observed_at)), x.run_digest_text
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
COMMENT ON COLUMN kernelindex.speedups.comparability_key_text IS 'the shared comparability key, as text';
COMMENT ON COLUMN kernelindex.speedups.run_digest_text IS 'the run''s digest, as text';
COMMENT ON COLUMN kernelindex.speedups.reference_run_digest_text IS 'the reference run''s digest, as text';
