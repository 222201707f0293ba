-- The resource store: tables, comparability, documents in and out.
\pset null '(null)'
SET client_min_messages = warning;
CREATE TEMP TABLE ref (name text PRIMARY KEY, doc jsonb NOT NULL);
-- The two reference records (reference/records/*.json), compacted.
INSERT INTO ref VALUES
('grpo', $ref${"run":{"kind":"BenchmarkRun","spec":{"status":"passed","timing":{"latencyNs":{"median":94833664},"primaryStatistic":"median"},"observedAt":"2025-08-05T00:08:54.000Z","measurements":[{"unit":"ns","value":94833664,"metric":"latency","statistic":"p20"},{"unit":"ns","value":94833664,"metric":"latency","statistic":"p80"}],"sourceNative":{"source":"liger-kernel-bench","metrics":{"ms_20":94.83366394042969,"ms_50":94.83366394042969,"ms_80":94.83366394042969},"benchmark":"fused_linear_grpo_loss_sequence/forward","externalId":"fused_linear_grpo_loss_sequence/forward/torch/nvidia-a100-sxm4-80gb/batch8-seq1024-vocab128256-bf16/2025-08-05-00-08-54"},"protocolDigest":"sha256:a79eaf4df66c97c6adc1fb2d09df78682155d1ea86652ae0b70199875bde7747","workloadDigest":"sha256:c9b1deed401ba738e7aba8f93ab710d46e352da6032eb723883ef502e01b39b0","environmentDigest":"sha256:90c9e2764222f592477cfccf3373519add5a1b881563956ad058c4f99e41b6b9","implementationDigest":"sha256:39aefd5bbcd914f3146a525b2dd28e8598242e7015bd3eeb1a37e7217fac6484"},"metadata":{"name":"liger-fused-linear-grpo-loss-sequence-forward-torch-nvidia-a100-sxm4-80gb-batch8-seq1024-vocab128256","title":"GRPO loss, sequence-level importance sampling · torch · forward","labels":{"liger_version":"0.6.1"}},"apiVersion":"kernelindex.dev/v1alpha1"},"protocol":{"kind":"BenchmarkProtocol","spec":{"harness":{"name":"Liger-Kernel benchmark scripts","repository":"https://github.com/linkedin/Liger-Kernel"},"measurement":{"timer":"cuda_events","primaryStatistic":"median"},"comparability":{"notes":"Timed: the module forward pass, via triton.testing.do_bench with quantiles 0.5/0.2/0.8 (median with p20/p80 spread). The upstream CSV records no CUDA, driver, or torch version; the Liger release rides each run's labels. Comparable only within one kernel, workload, timed pass, and GPU.","family":"liger_kernel_bench"}},"metadata":{"name":"liger-bench-do-bench-forward","title":"Liger benchmark harness · forward pass"},"apiVersion":"kernelindex.dev/v1alpha1"},"environment":{"kind":"ExecutionEnvironment","spec":{"hardware":{"vendor":"nvidia","product":"NVIDIA A100","formFactor":"SXM4-80GB","architecture":"sm_80"},"software":{}},"metadata":{"name":"liger-bench-nvidia-a100-sxm4-80gb","title":"Liger benchmark host · A100-SXM4-80GB"},"apiVersion":"kernelindex.dev/v1alpha1"}}$ref$),
('sparsemax', $ref${"run":{"kind":"BenchmarkRun","spec":{"status":"passed","timing":{"latencyNs":{"median":2629632},"primaryStatistic":"median"},"observedAt":"2025-04-28T00:38:25.000Z","measurements":[{"unit":"ns","value":2628608,"metric":"latency","statistic":"p20"},{"unit":"ns","value":2630656,"metric":"latency","statistic":"p80"}],"sourceNative":{"source":"liger-kernel-bench","metrics":{"ms_20":2.628607988357544,"ms_50":2.629631996154785,"ms_80":2.6306560039520264},"benchmark":"sparsemax/backward","externalId":"sparsemax/backward/torch/nvidia-geforce-rtx-3090/features16384-tokens2048-fp32/2025-04-28-00-38-25"},"protocolDigest":"sha256:080e6e66e4ec75a131aa0c9121c74b8e8eed64e7b6d621d567c6a28f79548be8","workloadDigest":"sha256:59e5c2df9b1189cb19d18d1b7b815712e6ff25deb213fcacd8287ee867273435","environmentDigest":"sha256:b12fdfab6a337672499b10212a1e986e49e4383777bd7cbb58321b09af4bf6a3","implementationDigest":"sha256:e496948f60e3e1a1ed83175ec6976b730d22c5a670f0b3813918a5a72833bb23"},"metadata":{"name":"liger-sparsemax-backward-torch-nvidia-geforce-rtx-3090-features16384-tokens2048-fp32-2025-04-28-00-3","title":"Sparsemax · torch · backward","labels":{"liger_version":"0.5.8"}},"apiVersion":"kernelindex.dev/v1alpha1"},"protocol":{"kind":"BenchmarkProtocol","spec":{"harness":{"name":"Liger-Kernel benchmark scripts","repository":"https://github.com/linkedin/Liger-Kernel"},"measurement":{"timer":"cuda_events","primaryStatistic":"median"},"comparability":{"notes":"Timed: the backward pass of the module output given a random upstream gradient, via triton.testing.do_bench with quantiles 0.5/0.2/0.8 (median with p20/p80 spread). The upstream CSV records no CUDA, driver, or torch version; the Liger release rides each run's labels. Comparable only within one kernel, workload, timed pass, and GPU.","family":"liger_kernel_bench"}},"metadata":{"name":"liger-bench-do-bench-backward","title":"Liger benchmark harness · backward pass"},"apiVersion":"kernelindex.dev/v1alpha1"},"environment":{"kind":"ExecutionEnvironment","spec":{"hardware":{"vendor":"nvidia","product":"NVIDIA GeForce RTX 3090","architecture":"sm_86"},"software":{}},"metadata":{"name":"liger-bench-nvidia-geforce-rtx-3090","title":"Liger benchmark host · GeForce RTX 3090"},"apiVersion":"kernelindex.dev/v1alpha1"}}$ref$);

-- Comparability key: both forms agree, and it is the documented formula.
SELECT name,
       kidx_comparability_key(doc) AS key,
       kidx_comparability_key(doc) = kidx_comparability_key(doc->'run') AS run_form_agrees,
       kidx_comparability_key(doc) = kidx_canonical_digest(jsonb_build_object(
           'protocol', doc#>>'{run,spec,protocolDigest}',
           'workload', doc#>>'{run,spec,workloadDigest}',
           'environment', doc#>>'{run,spec,environmentDigest}')) AS formula
FROM ref ORDER BY name;
SELECT kidx_canonical(jsonb_build_object('protocol', 'sha256:' || repeat('a', 64),
       'workload', 'sha256:' || repeat('b', 64), 'environment', 'sha256:' || repeat('c', 64)));
SELECT kidx_comparability_key(('sha256:' || repeat('a', 64))::kidx_digest,
       ('sha256:' || repeat('b', 64))::kidx_digest, ('sha256:' || repeat('c', 64))::kidx_digest);
SELECT kidx_comparability_key('{"kind": "Workload"}'::jsonb) AS not_a_run;

-- Ingest both; again changes nothing.
SELECT kernelindex.ingest_bundles(array_agg(doc ORDER BY name)) AS stored FROM ref;
CREATE TEMP TABLE snap AS SELECT * FROM kernelindex.runs;
SELECT kernelindex.ingest_bundles(array_agg(doc ORDER BY name)) AS stored_again FROM ref;
SELECT kernelindex.ingest_document(doc) FROM ref ORDER BY name;
SELECT (SELECT count(*) FROM kernelindex.runs) AS runs,
       (SELECT count(*) FROM kernelindex.protocols) AS protocols,
       (SELECT count(*) FROM kernelindex.environments) AS environments,
       (SELECT count(*) FROM kernelindex.workloads WHERE document IS NULL) AS workload_placeholders,
       (SELECT count(*) FROM kernelindex.implementations WHERE document IS NULL) AS implementation_placeholders,
       (SELECT count(*) FROM kernelindex.comparability_keys) AS keys,
       (SELECT count(DISTINCT (comparability_key, implementation_id)) FROM kernelindex.runs) AS series,
       (SELECT count(*) FROM kernelindex.run_templates) AS templates,
       NOT EXISTS (SELECT * FROM kernelindex.runs EXCEPT SELECT * FROM snap) AS unchanged;

-- Out again: the same JSON value, as jsonb and as canonical text; typed columns.
SELECT name, r.digest,
       kernelindex.run_document(r.digest) = doc AS same_jsonb,
       kidx_canonical(kernelindex.run_document(r.digest)) = kidx_canonical(doc) AS same_canonical,
       kernelindex.run_json(r) = doc -> 'run' AS run_json,
       r.latency_ns, r.latency_ns_p20, r.latency_ns_p80, r.native_p50, r.observed_at AT TIME ZONE 'UTC' AS observed_utc
FROM ref JOIN kernelindex.runs r ON r.digest = kidx_resource_digest(doc->'run')
ORDER BY name;
SELECT count(*) AS exported, bool_and(d.document IN (SELECT doc FROM ref)) AS all_match
FROM kernelindex.documents d;
SELECT kernelindex.run_document(('sha256:' || repeat('0', 64))::kidx_digest) AS unknown_run;
SELECT jsonb_object_keys(kernelindex.run_bundle(kidx_resource_digest(doc->'run'))) FROM ref WHERE name = 'grpo' ORDER BY 1;
-- What a run holds, and what it refers to in the dictionaries.
\x on
SELECT t.value AS template, t.name_form, t.name_prefix, t.name_cut, t.external_id_form, t.native_unit,
       ti.value AS title, l.value AS labels, l.release, st.value AS status, so.value AS source,
       b.value AS benchmark, b.pass, x.value AS external_id_stem, r.name_id
FROM kernelindex.runs r
JOIN kernelindex.run_templates t ON t.id = r.template_id
JOIN kernelindex.run_titles ti ON ti.id = r.title_id
JOIN kernelindex.run_labels l ON l.id = r.labels_id
JOIN kernelindex.run_statuses st ON st.id = r.status_id
JOIN kernelindex.run_sources so ON so.id = r.source_id
JOIN kernelindex.run_benchmarks b ON b.id = r.benchmark_id
JOIN kernelindex.run_strings x ON x.id = r.external_id_id
JOIN ref ON r.digest = kidx_resource_digest(ref.doc->'run')
WHERE ref.name = 'sparsemax';
\x off
-- Each dictionary value is stored once, under the hash of its canonical JSON.
SELECT count(*) AS labels, bool_and(hash = kernelindex_internal.dictionary_hash(value)) AS hashed,
       bool_and(hash::text = substr(encode(sha256(convert_to(kidx_canonical(value), 'UTF8')), 'hex'), 1, 32)::uuid::text) AS recomputable
FROM kernelindex.run_labels;

-- A single run whose protocol and environment are stored; single resources.
SELECT kernelindex.ingest_document(replace(doc::text, '2025-08-05', '2025-08-06')::jsonb->'run') IS NOT NULL AS ok
FROM ref WHERE name = 'grpo';
SELECT kernelindex.ingest_document('{"apiVersion": "kernelindex.dev/v1alpha1", "kind": "Workload",
       "metadata": {"name": "w"}, "spec": {"kernel": "sparsemax"}}');
SELECT count(*) FROM kernelindex.workloads WHERE document IS NOT NULL;
-- A run whose workload is known by digest only: a placeholder, which gets
-- its document when it comes (alone, or in a bundle without run), and the
-- views see it.
CREATE TEMP TABLE wl AS SELECT '{"apiVersion": "kernelindex.dev/v1alpha1", "kind": "Workload",
       "metadata": {"name": "sparsemax-16384", "labels": {"label": "features16384-tokens2048-fp32"}},
       "spec": {"kernel": "sparsemax", "x": {"name": "V", "value": 16384}}}'::jsonb AS doc;
SELECT kernelindex.ingest_document(jsonb_set(ref.doc, '{run,spec,workloadDigest}', to_jsonb(kidx_resource_digest(wl.doc)::text))) IS NOT NULL AS ingested
FROM ref, wl WHERE ref.name = 'sparsemax';
SELECT document IS NULL AS placeholder FROM kernelindex.workloads w, wl WHERE w.digest = kidx_resource_digest(wl.doc);
SELECT kernelindex.ingest_document(jsonb_build_object('workload', doc)) AS bundle_without_run FROM wl;
SELECT w.document = wl.doc AS filled, w.kernel, w.label FROM kernelindex.workloads w, wl WHERE w.digest = kidx_resource_digest(wl.doc);
SELECT workload_label, kernel, kernel_title FROM kernelindex.run_facts WHERE workload_digest = (SELECT kidx_resource_digest(doc)::text FROM wl);
SELECT count(*) FILTER (WHERE document IS NULL) AS placeholders, count(*) AS workloads FROM kernelindex.workloads;

-- COPY into the documents view ingests, one document per line (INSERT works too).
INSERT INTO kernelindex.documents
SELECT replace(doc::text, '2025-04-28', '2025-04-29')::jsonb FROM ref WHERE name = 'sparsemax';
\copy (SELECT replace(doc::text, '2025-04-28', '2025-04-30') FROM ref WHERE name = 'sparsemax') TO 'results/store_documents.jsonl' WITH (FORMAT csv, QUOTE E'\x01', DELIMITER E'\x02')
\copy kernelindex.documents FROM 'results/store_documents.jsonl' WITH (FORMAT csv, QUOTE E'\x01', DELIMITER E'\x02')
SELECT count(*) AS runs, count(DISTINCT (comparability_key, implementation_id)) AS series,
       (SELECT count(*) FROM kernelindex.run_labels) AS label_sets FROM kernelindex.runs;
-- and out: every run's bundle, one per line
COPY (SELECT kidx_canonical(document) FROM kernelindex.documents WHERE document#>>'{run,spec,sourceNative,externalId}' LIKE 'sparsemax/%'
      ORDER BY 1) TO STDOUT WITH (FORMAT csv, QUOTE E'\x01', DELIMITER E'\x02');
-- An INSERT into the view inside a failed subtransaction leaves nothing behind.
BEGIN;
SAVEPOINT s;
INSERT INTO kernelindex.documents VALUES ('[1]');
ROLLBACK TO SAVEPOINT s;
INSERT INTO kernelindex.documents SELECT replace(doc::text, '2025-04-28', '2025-04-27')::jsonb FROM ref WHERE name = 'sparsemax';
COMMIT;
SELECT count(*) AS runs FROM kernelindex.runs;

-- The operator: comparable runs, between rows and between documents.
SELECT a.observed_at AT TIME ZONE 'UTC' AS a, b.observed_at AT TIME ZONE 'UTC' AS b
FROM kernelindex.runs a JOIN kernelindex.runs b ON a ~=~ b
WHERE a.digest < b.digest ORDER BY 1, 2;
SELECT x.name, y.name, x.doc ~=~ y.doc AS comparable FROM ref x, ref y ORDER BY 1, 2;
SET enable_mergejoin = off;
EXPLAIN (COSTS OFF) SELECT * FROM kernelindex.runs a JOIN kernelindex.runs b ON a ~=~ b;
EXPLAIN (COSTS OFF) SELECT * FROM ref x JOIN ref y ON x.doc ~=~ y.doc;
-- (plain index scans: a bitmap scan's recheck condition reads differently
-- from PostgreSQL 17 on, its index condition does not)
SET enable_hashjoin = off; SET enable_seqscan = off; SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT b.digest FROM kernelindex.runs a JOIN kernelindex.runs b ON a ~=~ b
WHERE a.digest = 'sha256:fa347ab5a1849bf7c7cb77f5c01d0d0171faac50bd8f3a03fe1d396737123546';
RESET ALL;

-- What runs refer to is checked per statement, as a foreign key would.
\set VERBOSITY default
INSERT INTO kernelindex.runs (comparability_key, digest, observed_at, implementation_id, template_id, status_id)
SELECT comparability_key, sha256('x')::kidx_digest, now(), -1, template_id, status_id FROM kernelindex.runs LIMIT 1;
INSERT INTO kernelindex.runs (comparability_key, digest, observed_at, implementation_id, template_id, status_id)
SELECT sha256('other key')::kidx_digest, sha256('y')::kidx_digest, now(), implementation_id, template_id, status_id
FROM kernelindex.runs LIMIT 1;
-- A stored run never changes (its digest is its document's), what it
-- names or what it measured.
UPDATE kernelindex.runs SET title_id = -2 WHERE digest = (SELECT min(digest) FROM kernelindex.runs);
UPDATE kernelindex.runs SET external_id_id = -3 WHERE digest = (SELECT min(digest) FROM kernelindex.runs);
UPDATE kernelindex.runs SET latency_ns = latency_ns + 1 WHERE digest = (SELECT min(digest) FROM kernelindex.runs);
UPDATE kernelindex.runs SET latency_ns = latency_ns WHERE digest = (SELECT min(digest) FROM kernelindex.runs);
DELETE FROM kernelindex.run_titles;
DELETE FROM kernelindex.implementations WHERE id = (SELECT min(implementation_id) FROM kernelindex.runs);
DELETE FROM kernelindex.comparability_keys;
TRUNCATE kernelindex.run_strings;
TRUNCATE kernelindex.run_templates CASCADE;
UPDATE kernelindex.run_labels SET value = '{"liger_version": "0.5.9"}' WHERE id = (SELECT min(labels_id) FROM kernelindex.runs);
UPDATE kernelindex.implementations SET id = -1 WHERE id = (SELECT min(implementation_id) FROM kernelindex.runs);
-- What a key or a resource is never changes: a key's resources, a
-- resource's digest (even with a document that matches it).
UPDATE kernelindex.comparability_keys SET protocol_id = (SELECT max(id) FROM kernelindex.protocols)
WHERE protocol_id = (SELECT min(id) FROM kernelindex.protocols);
UPDATE kernelindex.protocols AS p SET digest = o.digest, document = o.document
FROM kernelindex.protocols o WHERE p.id = (SELECT min(id) FROM kernelindex.protocols) AND o.id <> p.id;
UPDATE kernelindex.environments SET id = id + 100;
\set VERBOSITY terse
-- Its metadata may change (the run documents carry no metadata of it).
UPDATE kernelindex.protocols SET document = jsonb_set(document, '{metadata,title}', '"retitled"')
WHERE id = (SELECT min(id) FROM kernelindex.protocols);
SELECT count(*) AS retitled FROM kernelindex.protocols WHERE title = 'retitled';
\set VERBOSITY default
DELETE FROM kernelindex.protocols;
\set VERBOSITY terse
-- A dictionary value no run uses can go; a resource document can be filled in.
DELETE FROM kernelindex.runs WHERE observed_at::date IN ('2025-08-05', '2025-08-06');
DELETE FROM kernelindex.run_titles t WHERE NOT EXISTS (SELECT 1 FROM kernelindex.runs r WHERE r.title_id = t.id);
SELECT count(*) AS titles FROM kernelindex.run_titles;
UPDATE kernelindex.implementations SET document = document WHERE document IS NOT NULL;

-- Every table is dumped with its data.
SELECT c.relname FROM pg_extension x, unnest(x.extconfig) AS t(oid) JOIN pg_class c ON c.oid = t.oid
WHERE x.extname = 'kernelindex'
  AND c.relname ~ '^(protocols|environments|workloads|implementations|comparability_keys|runs|run_[a-z]+)(_id_seq)?$'
ORDER BY 1;

-- The C comparability key is doc/reference.md's formula ("Comparability"), for any digests.
SELECT count(*) AS keys, count(*) FILTER (WHERE
	kidx_comparability_key(p, w, e) = kidx_canonical_digest(jsonb_build_object(
		'protocol', p::text, 'workload', w::text, 'environment', e::text))) AS equal_to_formula
FROM (SELECT sha256(('p' || i)::bytea)::kidx_digest AS p, sha256(('w' || i)::bytea)::kidx_digest AS w,
             sha256(('e' || i)::bytea)::kidx_digest AS e FROM generate_series(1, 1000) AS i) s;
SELECT kidx_comparability_key('sha256:080e6e66e4ec75a131aa0c9121c74b8e8eed64e7b6d621d567c6a28f79548be8',
	'sha256:59e5c2df9b1189cb19d18d1b7b815712e6ff25deb213fcacd8287ee867273435',
	'sha256:b12fdfab6a337672499b10212a1e986e49e4383777bd7cbb58321b09af4bf6a3') AS sparsemax_reference_key;
-- and every stored key is the formula over its resources' digests
SELECT count(*) AS keys, count(*) FILTER (WHERE k.key = kidx_comparability_key(p.digest, w.digest, e.digest)) AS right
FROM kernelindex.comparability_keys k
JOIN kernelindex.protocols p ON p.id = k.protocol_id
JOIN kernelindex.workloads w ON w.id = k.workload_id
JOIN kernelindex.environments e ON e.id = k.environment_id;

-- A hostile search_path cannot take over the ingestion functions.
CREATE TEMP TABLE later AS SELECT replace(doc::text, '2025-04-28', '2025-04-26')::jsonb AS doc FROM ref WHERE name = 'sparsemax';
CREATE SCHEMA evil;
CREATE FUNCTION evil.texteq(text, text) RETURNS boolean LANGUAGE plpgsql AS
$$BEGIN RAISE NOTICE 'evil = called'; RETURN $1 OPERATOR(pg_catalog.=) $2; END$$;
CREATE OPERATOR evil.= (LEFTARG = text, RIGHTARG = text, FUNCTION = evil.texteq);
CREATE FUNCTION evil.unnest(anyarray) RETURNS SETOF anyelement LANGUAGE plpgsql AS
$$BEGIN RAISE NOTICE 'evil unnest called'; END$$;
SET search_path = evil, public, pg_catalog;
SELECT kernelindex.ingest_document('{"apiVersion": "kernelindex.dev/v1alpha1", "kind": "Workload",
       "metadata": {"name": "w2"}, "spec": {"kernel": "softmax"}}') IS NOT NULL AS ingested;
INSERT INTO kernelindex.documents VALUES ('{"apiVersion": "kernelindex.dev/v1alpha1", "kind": "Workload",
       "metadata": {"name": "w3"}, "spec": {"kernel": "swiglu"}}');
INSERT INTO kernelindex.documents SELECT doc FROM later;
\copy kernelindex.liger_rows FROM 'test/data/liger_sample.csv' WITH (FORMAT csv, HEADER MATCH)
SELECT count(*) FROM kernelindex.run_facts;
RESET search_path;
DROP SCHEMA evil CASCADE;

-- Leave the store empty for the suites that follow.
TRUNCATE kernelindex.runs, kernelindex.comparability_keys, kernelindex.protocols,
	kernelindex.environments, kernelindex.workloads, kernelindex.implementations, kernelindex.run_titles,
	kernelindex.run_statuses, kernelindex.run_sources, kernelindex.run_benchmarks, kernelindex.run_strings,
	kernelindex.run_labels, kernelindex.run_templates;
